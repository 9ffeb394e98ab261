import { IsoTimes } from "../../src/isoTimes";

describe("IsoTimes", () => {
	test("gives each time as toISOString writes it, the same time again or another one after it", () => {
		const times = new IsoTimes();
		const moments = [0, 0, 1_733_400_000_123, 1_733_400_000_123, 1_733_400_000_124, 0, -1, 8.64e15];
		for (const ms of moments) expect(times.of(ms)).toBe(new Date(ms).toISOString());
	});

	test("a time no Date can hold is refused, and the next one is still right", () => {
		const times = new IsoTimes();
		expect(times.of(5)).toBe("1970-01-01T00:00:00.005Z");
		expect(() => times.of(Number.NaN)).toThrow(RangeError);
		expect(() => times.of(8.64e15 + 1)).toThrow(RangeError);
		expect(times.of(5)).toBe("1970-01-01T00:00:00.005Z");
	});
});
