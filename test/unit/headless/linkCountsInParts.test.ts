import fc from "fast-check";
import { LinkCountsInParts } from "../../../src/headless/linkCountsInParts";

/** The record as the cache makes a small note's: a plain object counted link by link (own counts: `toString` is a link path too). */
function plainRecord(links: readonly string[]): Record<string, number> {
	const record: Record<string, number> = {};
	for (const link of links) record[link] = (Object.hasOwn(record, link) ? (record[link] as number) : 0) + 1;
	return record;
}

function recordInParts(links: readonly string[]): Record<string, number> {
	const counts = new LinkCountsInParts();
	for (const link of links) counts.add(link);
	return counts.record();
}

/** Every read a caller of `unresolvedLinks[source]` may make, of keys it holds and keys it does not. */
function reads(record: Record<string, number>, asked: readonly string[]): unknown {
	const listed: string[] = [];
	for (const key in record) listed.push(key);
	return {
		keys: Object.keys(record),
		listed,
		entries: Object.entries(record),
		json: JSON.stringify(record),
		spread: { ...record },
		asked: asked.map((key) => [key in record, Object.hasOwn(record, key), record[key], Object.getOwnPropertyDescriptor(record, key)]),
		tag: Object.prototype.toString.call(record),
	};
}

const LINK_PATHS = fc.oneof(
	fc.string({ maxLength: 6 }),
	fc.nat({ max: 5_000_000_000 }).map(String),
	fc.constantFrom("0", "00", "01", "-1", "1.5", "4294967294", "4294967295", "__proto__", "constructor", "toString", "hasOwnProperty", "length"),
	// Unicode: digits of other scripts and full-width ones are not integers to a plain object; astral and combined characters.
	fc.constantFrom("", " 1", "1 ", "\u0661", "\uff11", "é", "e\u0301", "日本", "😀", "\ud800", "Ωmega"),
	fc.string({ unit: "grapheme", maxLength: 4 }),
);

describe("a huge note's link counts held in parts", () => {
	test("read as the plain object Obsidian gives: its keys in the same order (integers first), counts, `in`, JSON, spread", () => {
		fc.assert(
			fc.property(fc.array(LINK_PATHS, { maxLength: 300 }), fc.array(LINK_PATHS, { maxLength: 20 }), (links, others) => {
				const asked = [...links, ...others];
				expect(reads(recordInParts(links), asked)).toEqual(reads(plainRecord(links), asked));
			}),
			{ numRuns: 300 },
		);
	});

	test("refuses to be changed: the cache makes a new record when a note's links are resolved again", () => {
		const record = recordInParts(["a", "b", "a"]);
		expect(() => {
			record.a = 5;
		}).toThrow(TypeError);
		expect(() => delete record.b).toThrow(TypeError);
		expect(() => Object.defineProperty(record, "c", { value: 1 })).toThrow(TypeError);
		expect(record).toEqual({ a: 2, b: 1 });
	});

	test("a freeze or seal is refused and leaves it readable (on hole108 the empty target was made non-extensible: every listing threw after)", () => {
		const record = recordInParts(["b", "a", "b"]);
		expect(() => Object.freeze(record)).toThrow(TypeError);
		expect(() => Object.seal(record)).toThrow(TypeError);
		expect(() => Object.preventExtensions(record)).toThrow(TypeError);
		expect([Object.isExtensible(record), Object.isFrozen(record)]).toEqual([true, false]);
		expect([Object.keys(record), JSON.stringify(record), { ...record }]).toEqual([["b", "a"], '{"b":2,"a":1}', { b: 2, a: 1 }]);
	});

	test("60,000 distinct links: each counted once, listed in the order first met", () => {
		const links = Array.from({ length: 60_000 }, (_, at) => `n${at}`);
		const record = recordInParts([...links, "n7"]);
		const keys = Object.keys(record);
		expect([keys.length, keys[0], keys[59_999], record.n7, record.n8, record.n60000]).toEqual([60_000, "n0", "n59999", 2, 1, undefined]);
	});
});
