import fc from "fast-check";
import { SPLIT_SET_AT } from "../../../src/config/limits";
import { SplitStringMap, SplitStringSet } from "../../../src/markdown/splitStringMap";
import { largestTableWhile } from "../../helpers/tableGrowth";

describe("SplitStringMap and SplitStringSet", () => {
	test("answer as a Map and a Set do, before and after they split", () => {
		fc.assert(
			fc.property(fc.array(fc.integer({ min: 0, max: 2 * SPLIT_SET_AT }), { minLength: SPLIT_SET_AT, maxLength: 3 * SPLIT_SET_AT }), (numbers) => {
				const set = new SplitStringSet();
				const map = new SplitStringMap<number>();
				const reference = new Map<string, number>();
				// Counted, not expected one by one: 20,000 expectations a run made the test take minutes on a busy machine.
				let differences = 0;
				numbers.forEach((number, index) => {
					const key = `v${number}`;
					if (set.add(key) === reference.has(key)) differences++;
					map.set(key, index);
					reference.set(key, index);
				});
				for (let number = 0; number <= 2 * SPLIT_SET_AT; number++) {
					if (set.has(`v${number}`) !== reference.has(`v${number}`)) differences++;
					if (map.get(`v${number}`) !== reference.get(`v${number}`)) differences++;
				}
				expect(differences).toBe(0);
				expect([set.size, map.size]).toEqual([reference.size, reference.size]);
				expect([set.has(""), map.get("")]).toEqual([false, undefined]);
			}),
			{ numRuns: 10 },
		);
	});

	test("never grow one table past SPLIT_SET_AT entries, whatever the strings (all 100,000 in one table, copied whole at each growth, in a Set)", () => {
		const set = new SplitStringSet();
		// Strings alike but for one character's high bits: a hash of the characters' low bits alone would put them together.
		const { largest } = largestTableWhile(() => {
			for (let index = 0; index < 100_000; index++) set.add(`${"x".repeat(40)}${String.fromCharCode(0x100 * (1 + (index % 200)))}${index}`);
		});
		expect(set.size).toBe(100_000);
		expect(largest).toBeLessThanOrEqual(SPLIT_SET_AT);
	});
});
