import fc from "fast-check";
import { SPLIT_MAP_HASHED_CHARS, SPLIT_MAP_PARTS } from "../../../src/config/limits";
import { SplitStringMap } from "../../../src/vault/splitStringMap";

describe("SplitStringMap", () => {
	test("answers and iterates as a Map: each key once, in the order first set, with its last value", () => {
		fc.assert(
			fc.property(fc.array(fc.tuple(fc.string({ maxLength: 3 * SPLIT_MAP_HASHED_CHARS }), fc.integer())), (entries) => {
				const split = new SplitStringMap<number>();
				const map = new Map<string, number>();
				for (const [key, value] of entries) {
					split.set(key, value);
					map.set(key, value);
				}
				expect([...split]).toEqual([...map]);
				expect(split.size).toBe(map.size);
				for (const [key] of entries) expect([split.has(key), split.get(key)]).toEqual([true, map.get(key)]);
				expect([split.has("absent\u0000"), split.get("absent\u0000")]).toEqual([map.has("absent\u0000"), map.get("absent\u0000")]);
			}),
			{ numRuns: 200 },
		);
	});

	test("spreads a planted note's link paths over its tables: none holds much more than its share", () => {
		const split = new SplitStringMap<null>();
		const keys = 64_000;
		for (let index = 0; index < keys; index++) split.set(`n${index}`, null);
		const sizes = (split as unknown as { parts: Array<Map<string, null> | undefined> }).parts.map((part) => part?.size ?? 0);
		expect(sizes).toHaveLength(SPLIT_MAP_PARTS);
		// A table grows (copying its entries at once) only as far as the largest holds.
		expect(Math.max(...sizes)).toBeLessThan((2 * keys) / SPLIT_MAP_PARTS);
	});
});
