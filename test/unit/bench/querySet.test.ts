import { COMMON_QUERIES, firstTimeCommonQueries } from "../../../bench/querySet";

/** Made-up stems, most common first: four letters each, so none starts another. */
const STEMS = [..."kmrtps"].flatMap((first) => [..."aeiou"].flatMap((vowel) => [`${first}${vowel}lo`, `${first}${vowel}nu`]));

function wordsOf(queries: ReturnType<typeof firstTimeCommonQueries>): Set<string> {
	return new Set(
		Object.values(queries)
			.flat()
			.flatMap((entry) => entry.query.replace(/"/g, "").split(" ")),
	);
}

describe("firstTimeCommonQueries", () => {
	it("asks the most common stems not asked elsewhere, in rank order, and pairs and runs of three of the first", () => {
		const queries = firstTimeCommonQueries(STEMS, 5, 3);
		expect(queries.oneWord.map((entry) => entry.query)).toEqual(STEMS.slice(0, 5));
		expect(queries.twoWords.map((entry) => entry.query).sort()).toEqual(["kalo kanu", "kalo kelo", "kanu kelo"]);
		expect(queries.twoWordPhrases.map((entry) => entry.query).sort()).toEqual(['"kalo kanu"', '"kalo kelo"', '"kanu kelo"']);
		expect(queries.threeWordPhrases.map((entry) => entry.query)).toEqual(['"kalo kanu kelo"']);
	});

	it("leaves out the words COMMON_QUERIES ask", () => {
		const asked = COMMON_QUERIES.flatMap((entry) => entry.query.split(" "));
		const queries = firstTimeCommonQueries([...asked, ...STEMS], 5, 3);
		expect(queries.oneWord.map((entry) => entry.query)).toEqual(STEMS.slice(0, 5));
	});

	it("with `skip`, asks the same kinds of queries on the next stems only, so a warm-up never asks a word of the timed ones", () => {
		const timed = firstTimeCommonQueries(STEMS, 12, 6);
		const warmUp = firstTimeCommonQueries(STEMS, 12, 6, 12);
		expect(warmUp.oneWord.map((entry) => entry.query)).toEqual(STEMS.slice(12, 24));
		expect([warmUp.twoWords.length, warmUp.twoWordPhrases.length, warmUp.threeWordPhrases.length]).toEqual([15, 15, 4]);
		const timedWords = wordsOf(timed);
		expect([...wordsOf(warmUp)].filter((word) => timedWords.has(word))).toEqual([]);
	});

	it("asks nothing when given no words to warm up with", () => {
		const none = firstTimeCommonQueries(STEMS, 0, 6, 30);
		expect(Object.values(none).flat()).toEqual([]);
	});
});
