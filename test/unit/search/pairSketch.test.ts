import fc from "fast-check";
import { MAX_SKETCHED_BODY_WORDS } from "../../../src/config/limits";
import { SearchEngine } from "../../../src/search/engine";
import { PackedIdWriter } from "../../../src/search/packedIds";
import { parseQuery } from "../../../src/search/query";
import { PAIR_COUNT_SATURATED, pairCountBound, pairHash, pairSketchBytes, secondHash, tokenHash, writePairSketch } from "../../../src/search/pairSketch";

/** A body of ids packed with its sketch after it, as the index keeps a note. */
function sketched(ids: readonly number[], hashes: Uint32Array) {
	const writer = new PackedIdWriter(ids.length);
	for (const id of ids) writer.write(id);
	const bodyBytes = writer.byteLength;
	const size = pairSketchBytes(ids.length);
	writer.skip(size);
	const packed = writer.finish();
	writePairSketch(packed, bodyBytes, bodyBytes, size, hashes);
	const bound = (first: number, second: number) => {
		const hash = pairHash(hashes[first] as number, hashes[second] as number);
		return pairCountBound(packed, bodyBytes, size, hash, secondHash(hash));
	};
	return { packed, bodyBytes, size, bound };
}

function pairCount(ids: readonly number[], first: number, second: number): number {
	let count = 0;
	for (let at = 1; at < ids.length; at++) if (ids[at - 1] === first && ids[at] === second) count++;
	return count;
}

// Ids over 127 take two packed bytes, so bodies mix one- and two-byte ids.
const VOCABULARY = 300;
const hashes = Uint32Array.from({ length: VOCABULARY }, (_, id) => tokenHash(`word${id}`));

describe("a note's pair sketch", () => {
	test("never counts a pair below how often it stands in the body (three or more saturates)", () => {
		fc.assert(
			fc.property(
				fc.array(fc.integer({ min: 0, max: VOCABULARY - 1 }), { maxLength: 400 }),
				fc.array(fc.tuple(fc.integer({ min: 0, max: VOCABULARY - 1 }), fc.integer({ min: 0, max: VOCABULARY - 1 })), { maxLength: 20 }),
				(ids, asked) => {
					const { bound } = sketched(ids, hashes);
					// Every pair of the body, and pairs drawn at random (mostly absent).
					const pairs = [...ids.slice(1).map((id, at) => [ids[at] as number, id] as const), ...asked];
					for (const [first, second] of pairs)
						expect(bound(first, second)).toBeGreaterThanOrEqual(Math.min(PAIR_COUNT_SATURATED, pairCount(ids, first, second)));
				},
			),
			{ numRuns: 300 },
		);
	});

	test("counts small numbers exactly when nothing else lands on them, and three or more as saturated", () => {
		const ids = [1, 2, 1, 2, 1, 2, 1, 2, 7, 8, 7, 8, 9, 10];
		const { bound } = sketched(ids, hashes);
		expect(bound(1, 2)).toBe(PAIR_COUNT_SATURATED);
		expect(bound(7, 8)).toBeGreaterThanOrEqual(2);
		expect(bound(9, 10)).toBeGreaterThanOrEqual(1);
	});

	test("rules out most pairs a body does not hold, at a byte a word", () => {
		const random = fc.sample(fc.array(fc.integer({ min: 0, max: VOCABULARY - 1 }), { minLength: 300, maxLength: 300 }), { numRuns: 20, seed: 7 });
		let absent = 0;
		let ruledOut = 0;
		for (const ids of random) {
			const { bound, size } = sketched(ids, hashes);
			expect(size).toBe(ids.length - 1);
			for (let first = 0; first < 40; first++) {
				for (let second = 0; second < 40; second++) {
					if (pairCount(ids, first, second) > 0) continue;
					absent++;
					if (bound(first, second) === 0) ruledOut++;
				}
			}
		}
		// About six in seven with four counters a pair and two places each.
		expect(ruledOut / absent).toBeGreaterThan(0.75);
	});

	test("a body of one word or none has no pairs and no sketch", () => {
		expect(pairSketchBytes(0)).toBe(0);
		expect(pairSketchBytes(1)).toBe(0);
		expect(sketched([5], hashes).bound(5, 5)).toBe(0);
	});

	test("a token's hash is its text's, whatever id it has", () => {
		expect(tokenHash("garden")).toBe(tokenHash("garden"));
		expect(tokenHash("garden")).not.toBe(tokenHash("gardens"));
	});
});

describe("a body too long to sketch", () => {
	test("has no sketch, and a phrase in it is still found, counted by reading the body", async () => {
		expect(pairSketchBytes(MAX_SKETCHED_BODY_WORDS)).toBeGreaterThan(0);
		expect(pairSketchBytes(MAX_SKETCHED_BODY_WORDS + 1)).toBe(0);
		const engine = new SearchEngine();
		// The phrase's words stand apart all through the body, and together twice near its end.
		const filler = Array.from({ length: MAX_SKETCHED_BODY_WORDS }, (_, at) => (at % 2 === 0 ? "garden shed" : "tool rack")).join(" ");
		const text = `${filler} the garden tool shed, then garden tool again`;
		engine.index.add("Long.md", "Long", 1, text, []);
		engine.index.add("Short.md", "Short", 1, "a garden and a tool", []);
		const answer = await engine.search(parseQuery('"garden tool"'), null, 10, async (path) => (path === "Long.md" ? text : "a garden and a tool"));
		expect(answer.results.map((hit) => hit.path)).toEqual(["Long.md"]);
		expect(answer.total).toBe(1);
	});
});
