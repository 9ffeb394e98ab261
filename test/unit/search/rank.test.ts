import fc from "fast-check";
import { BODY_COUNT, IN_HEADING, IN_TITLE } from "../../../src/search/postingValues";
import { fieldScore, memoized, onceEach } from "../../../src/search/rank";

describe("ranking rules that hold whatever the weights", () => {
	test("a term's score grows with how often the note holds it, and never passes its ceiling", () => {
		fc.assert(
			fc.property(fc.integer({ min: 0, max: 10_000 }), fc.double({ min: 0.1, max: 10, noNaN: true }), (count, norm) => {
				expect(fieldScore(count + 1, norm)).toBeGreaterThan(fieldScore(count, norm));
				expect(fieldScore(count, norm)).toBeLessThan(fieldScore(BODY_COUNT, norm) + 1e-9);
			}),
		);
		expect(fieldScore(0, 1)).toBe(0);
	});

	test("a term in the title or a heading scores more than the same count in the body alone; a longer note scores less", () => {
		expect(fieldScore(1 | IN_TITLE, 1)).toBeGreaterThan(fieldScore(1, 1));
		expect(fieldScore(1 | IN_HEADING, 1)).toBeGreaterThan(fieldScore(1, 1));
		expect(fieldScore(3, 2)).toBeLessThan(fieldScore(3, 1));
	});

	test("memoized answers as the stemmer does, asking it once per word; no stemmer stays none", () => {
		const stem = jest.fn((word: string) => word.replace(/s$/, ""));
		const remembered = memoized(stem);
		expect([remembered?.("cats"), remembered?.("cats"), remembered?.("dog")]).toEqual(["cat", "cat", "dog"]);
		expect(stem).toHaveBeenCalledTimes(2);
		expect(memoized(null)).toBeNull();
	});

	test("onceEach keeps the first of the terms with the same words", () => {
		const keep = onceEach();
		const terms = [["a"], ["a", "b"], ["a"], ["a", "b"], ["b"]].map((tokens) => ({ tokens, source: tokens.join(" "), quoted: false }));
		expect(terms.filter(keep).map((term) => term.source)).toEqual(["a", "a b", "b"]);
	});
});
