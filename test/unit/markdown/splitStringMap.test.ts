import fc from "fast-check";
import { MAX_WORD_CHARS, SPLIT_MAP_FIRST_KEYS, SPLIT_MAP_HASHED_CHARS, SPLIT_MAP_PARTS, V8_HASHED_STRING_MAX_CHARS } from "../../../src/config/limits";
import { OrderedSplitStringMap, SplitStringMap, SplitStringSet } from "../../../src/markdown/splitStringMap";
import { largestTableWhile } from "../../helpers/tableGrowth";

describe("SplitStringMap, OrderedSplitStringMap and SplitStringSet", () => {
	test("answer as a Map and a Set do, before and after their parts begin, through sets, deletes and sets again", () => {
		fc.assert(
			fc.property(
				fc.array(fc.tuple(fc.integer({ min: 0, max: 2 * SPLIT_MAP_FIRST_KEYS }), fc.boolean()), {
					minLength: SPLIT_MAP_FIRST_KEYS,
					maxLength: 3 * SPLIT_MAP_FIRST_KEYS,
				}),
				(steps) => {
					const set = new SplitStringSet();
					const map = new SplitStringMap<number>();
					const reference = new Map<string, number>();
					const referenceSet = new Set<string>();
					// Counted, not expected one by one: 20,000 expectations a run made the test take minutes on a busy machine.
					let differences = 0;
					steps.forEach(([number, remove], index) => {
						const key = `v${number}`;
						if (set.add(key) === referenceSet.has(key)) differences++;
						referenceSet.add(key);
						// A delete now and then: a key deleted from the first table and set again after the parts begin is found.
						if (remove && index % 7 === 0) {
							if (map.delete(key) !== reference.delete(key)) differences++;
						} else if (map.set(key, index) === reference.has(key)) differences++;
						else reference.set(key, index);
					});
					for (let number = 0; number <= 2 * SPLIT_MAP_FIRST_KEYS; number++) {
						const key = `v${number}`;
						if (set.has(key) !== referenceSet.has(key)) differences++;
						if (map.get(key) !== reference.get(key) || map.has(key) !== reference.has(key)) differences++;
						if (map.getOrAdd(key, -1) !== reference.get(key)) differences++;
						reference.set(key, reference.get(key) ?? -1);
					}
					expect(differences).toBe(0);
					expect([set.size, map.size]).toEqual([referenceSet.size, reference.size]);
					expect(new Map(map.entries())).toEqual(reference);
					expect([set.has(""), map.get("")]).toEqual([false, undefined]);
				},
			),
			{ numRuns: 10 },
		);
	});

	test("the ordered map iterates as a Map: each key once, in the order first set, with its last value", () => {
		fc.assert(
			fc.property(
				fc.array(fc.tuple(fc.string({ maxLength: 3 * SPLIT_MAP_HASHED_CHARS }), fc.integer())),
				fc.integer({ min: 1, max: 8 }),
				(entries, firstKeys) => {
					const split = new OrderedSplitStringMap<number>(firstKeys);
					const map = new Map<string, number>();
					for (const [key, value] of entries) {
						if (key.length % 2 === 0) split.set(key, value);
						else split.getOrAdd(key, value);
						if (key.length % 2 === 0 || !map.has(key)) map.set(key, value);
					}
					expect([...split]).toEqual([...map]);
					expect([...split.keys()]).toEqual([...map.keys()]);
					expect(split.size).toBe(map.size);
					for (const [key] of entries) expect(split.get(key)).toBe(map.get(key));
					expect(split.get("absent\u0000")).toBeUndefined();
				},
			),
			{ numRuns: 200 },
		);
	});

	test("never grow one table past SPLIT_MAP_FIRST_KEYS entries, whatever the strings (all 100,000 in one table, copied whole at each growth, in a Set)", () => {
		const set = new SplitStringSet();
		// Strings alike but for one character's high bits: a hash of the characters' low bits alone would put them together.
		const { largest } = largestTableWhile(() => {
			for (let index = 0; index < 100_000; index++) set.add(`${"x".repeat(40)}${String.fromCharCode(0x100 * (1 + (index % 200)))}${index}`);
		});
		expect(set.size).toBe(100_000);
		expect(largest).toBeLessThanOrEqual(SPLIT_MAP_FIRST_KEYS);
	});

	test("spreads a planted note's link paths over its parts: none holds much more than its share", () => {
		const keys = 64_000;
		// A first table of one key: the parts take the rest.
		const split = new OrderedSplitStringMap<null>(1);
		const { largest } = largestTableWhile(() => {
			for (let index = 0; index < keys; index++) split.set(`n${index}`, null);
		});
		// A table grows (copying its entries at once) only as far as the largest holds.
		expect(largest).toBeLessThan((2 * keys) / SPLIT_MAP_PARTS);
		expect(split.size).toBe(keys);
		expect(split.get(`n${keys - 1}`)).toBeNull();
	});

	test("spreads words of up to MAX_WORD_CHARS alike but in their middle: the search dictionary's, vault-wide, each read whole", () => {
		const keys = 20_000;
		const split = new OrderedSplitStringMap<number>(1);
		const end = "w".repeat((MAX_WORD_CHARS - 9) / 2);
		// Words of 255 characters, alike in their first and last 123: at SPLIT_MAP_HASHED_CHARS 128 (64 from each end) all went to one part.
		const { largest } = largestTableWhile(() => {
			for (let index = 0; index < keys; index++) split.set(`${end}${index.toString(16).padStart(9, "0")}${end}`, index);
		});
		expect(split.size).toBe(keys);
		expect(largest).toBeLessThan((2 * keys) / SPLIT_MAP_PARTS);
	});

	test("keys longer than V8 hashes whole answer as in a Map: at, under and over the length, alike but at one end or the middle, set, deleted and set again", () => {
		const longest = V8_HASHED_STRING_MAX_CHARS;
		// Built afresh at each use, so a key is never the very string it was set with.
		const keyOf = (length: number, variant: number, at: number): string => {
			const filler = "k".repeat(length - 1);
			const cut = Math.min(at, filler.length);
			return `${filler.slice(0, cut)}${String.fromCharCode(65 + variant)}${filler.slice(cut)}`;
		};
		fc.assert(
			fc.property(
				fc.array(
					fc.tuple(
						fc.constantFrom(longest, longest + 1, longest + 2, 20_000),
						fc.integer({ min: 0, max: 5 }),
						fc.constantFrom(0, 8_000, Number.MAX_SAFE_INTEGER),
						fc.constantFrom("set", "delete", "getOrAdd", "add"),
					),
					{ maxLength: 60 },
				),
				fc.integer({ min: 1, max: 4 }),
				(steps, firstKeys) => {
					const map = new OrderedSplitStringMap<number>(firstKeys);
					const plain = new SplitStringMap<number>(firstKeys);
					const reference = new Map<string, number>();
					steps.forEach(([length, variant, at, step], index) => {
						const key = keyOf(length, variant, at);
						if (step === "delete") expect(plain.delete(key)).toBe(reference.delete(key));
						else if (step === "getOrAdd" || (step === "add" && reference.has(key))) {
							expect(plain.getOrAdd(keyOf(length, variant, at), index)).toBe(reference.get(key));
							if (!reference.has(key)) reference.set(key, index);
						} else if (step === "add") {
							plain.add(key, index);
							reference.set(key, index);
						} else {
							expect(plain.set(key, index)).toBe(!reference.has(key));
							reference.set(key, index);
						}
						if (step !== "delete") map.set(keyOf(length, variant, at), index);
						plain.set(`short${index % 3}`, index);
						reference.set(`short${index % 3}`, index);
					});
					expect(plain.size).toBe(reference.size);
					expect(new Map(plain.entries())).toEqual(reference);
					for (const [key, value] of reference) expect([plain.get(key), plain.has(key)]).toEqual([value, true]);
					expect(plain.has(keyOf(20_000, 9, 0))).toBe(false);
					const keys = [...map.keys()];
					expect(new Set(keys).size).toBe(keys.length);
					for (const [key, value] of map) expect(map.get(key)).toBe(value);
				},
			),
			{ numRuns: 40 },
		);
	});

	test("a larger first table holds its keys in one Map (found by V8's hash alone) and lists every key in order past it", () => {
		const FIRST = 1_000;
		const split = new OrderedSplitStringMap<number>(FIRST);
		const { largest } = largestTableWhile(() => {
			for (let index = 0; index < 3 * FIRST; index++) expect(split.getOrAdd(`k${index}`, index)).toBeUndefined();
		});
		expect(largest).toBe(FIRST - 1);
		expect(split.getOrAdd("k5", -1)).toBe(5);
		expect([...split.keys()]).toEqual(Array.from({ length: 3 * FIRST }, (_, index) => `k${index}`));
	});
});
