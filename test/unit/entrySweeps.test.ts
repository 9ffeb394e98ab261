import { TOKEN_ENTRIES_BEFORE_SWEEP } from "../../src/config/limits";
import { EntrySweeps } from "../../src/entrySweeps";

describe("EntrySweeps", () => {
	test("due once the table holds TOKEN_ENTRIES_BEFORE_SWEEP entries, then twice what the last sweep left", () => {
		const sweeps = new EntrySweeps(60_000);
		expect(sweeps.due(TOKEN_ENTRIES_BEFORE_SWEEP - 1, 0)).toBe(false);
		expect(sweeps.due(TOKEN_ENTRIES_BEFORE_SWEEP, 0)).toBe(true);
		sweeps.swept(100, 0);
		expect(sweeps.due(199, 10)).toBe(false);
		expect(sweeps.due(200, 10)).toBe(true);
		// Few left: the bound is never under TOKEN_ENTRIES_BEFORE_SWEEP.
		sweeps.swept(1, 20);
		expect(sweeps.due(TOKEN_ENTRIES_BEFORE_SWEEP - 1, 30)).toBe(false);
	});

	test("due, however small the table, once `everyMs` has passed since the last sweep (or since the first key asked about)", () => {
		const sweeps = new EntrySweeps(60_000);
		expect(sweeps.due(1, 1_000)).toBe(false);
		expect(sweeps.due(1, 60_999)).toBe(false);
		expect(sweeps.due(1, 61_000)).toBe(true);
		sweeps.swept(1, 61_000);
		expect(sweeps.due(2, 100_000)).toBe(false);
		expect(sweeps.due(2, 121_000)).toBe(true);
	});
});
