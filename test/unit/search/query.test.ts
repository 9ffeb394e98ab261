import fc from "fast-check";
import { MIN_PREFIX_CHARS } from "../../../src/config/limits";
import { isPrefixWord, parseQuery, phraseCount, stopWordSet, withStopWords } from "../../../src/search/query";
import { ENGLISH_STOP_WORDS } from "../../../src/search/stopWords";

const tokens = (terms: Array<{ tokens: string[] }>) => terms.map((term) => term.tokens);

describe("parseQuery: what a person types into search", () => {
	test("words, quoted phrases and exclusions, folded", () => {
		const parsed = parseQuery('Café "weekly Review" -draft -"old plan"');
		expect(tokens(parsed.required)).toEqual([["cafe"], ["weekly", "review"]]);
		expect(tokens(parsed.excluded)).toEqual([["draft"], ["old", "plan"]]);
		expect(parsed.required[1]).toMatchObject({ source: "weekly Review", quoted: true });
	});

	test("a compound word (email, kebab-case, a number with a dot) is one phrase of its parts", () => {
		expect(tokens(parseQuery("ann@example.com kebab-case 3.14").required)).toEqual([
			["ann", "example", "com"],
			["kebab", "case"],
			["3", "14"],
		]);
	});

	test("a piece of code typed as one word is its words, brackets and operators between them; an identifier stays one phrase", () => {
		// Before, `expect(a` and `b).toBe(true)` were phrases only the same code, character for character, held.
		expect(tokens(parseQuery("expect(a > b).toBe(true) jest.mock").required)).toEqual([["expect"], ["tobe", "to", "be"], ["true"], ["jest", "mock"]]);
		expect(parseQuery("use it.each(table)").required.map((term) => term.source)).toEqual(["use", "it.each", "table"]);
		// Quoted, or excluded, it is as typed.
		expect(tokens(parseQuery('"expect(a).toBe(b)" -fn(x)').required)).toEqual([["expect", "a", "tobe", "to", "be", "b"]]);
		expect(tokens(parseQuery('"expect(a).toBe(b)" -fn(x)').excluded)).toEqual([["fn", "x"]]);
	});

	test("a one-letter name in typed code is a placeholder: it ranks as a stop word does, unless the query has nothing else", () => {
		// Before, `a` and `b` were wanted words: every note with `a` or `b` in its code samples held them.
		const parsed = parseQuery("expect(a > b).toBe(true) should use toBeGreaterThan");
		expect(tokens(parsed.optional)).toEqual([["a"], ["b"]]);
		expect(parsed.required.map((term) => term.source)).toEqual(["expect", ".toBe", "true", "should", "use", "toBeGreaterThan"]);
		// A one-letter word typed as a word, not in code, is a word (a stop word list may still make it optional).
		expect(tokens(parseQuery("vitamin c").required)).toEqual([["vitamin"], ["c"]]);
		// Code of nothing but one-letter names still finds something.
		expect(tokens(parseQuery("f(x)").required)).toEqual([["f"], ["x"]]);
		expect(parseQuery("f(x)").optional).toEqual([]);
	});

	test("a possessive or contraction is its word: `hub's` asks for `hub`, not the phrase `hub s`; quoted, it is as typed", () => {
		expect(tokens(parseQuery("the hub’s folders I'm you're it'll").required)).toEqual([["the"], ["hub"], ["folders"], ["i"], ["you"], ["it"]]);
		expect(tokens(parseQuery("O'Reilly rock'n'roll l'amour").required)).toEqual([
			["o", "reilly"],
			["rock", "n", "roll"],
			["l", "amour"],
		]);
		expect(tokens(parseQuery('"hub\'s folders"').required)).toEqual([["hub", "s", "folders"]]);
		expect(parseQuery("hub's").adjacent).toEqual([]);
		expect(parseQuery("hub's folders").adjacent).toEqual([["hub", "folders"]]);
	});

	test("an unclosed quote runs to the end; empty quotes, lone dashes and punctuation are ignored", () => {
		expect(tokens(parseQuery('"open phrase here').required)).toEqual([["open", "phrase", "here"]]);
		expect(parseQuery('"" - !!! ')).toEqual({ required: [], excluded: [], optional: [], adjacent: [] });
	});

	test("never throws, and every term it keeps has tokens", () => {
		fc.assert(
			fc.property(fc.string({ unit: "grapheme", maxLength: 60 }), (query) => {
				const parsed = parseQuery(query);
				for (const term of [...parsed.required, ...parsed.excluded]) expect(term.tokens.length).toBeGreaterThan(0);
			}),
		);
	});
});

describe("stop words", () => {
	const stop = stopWordSet(ENGLISH_STOP_WORDS);

	test("unquoted stop words become optional: 'how to use templates' needs only 'use' and 'templates'", () => {
		const parsed = withStopWords(parseQuery("how to use templates"), stop);
		expect(tokens(parsed.required)).toEqual(expect.arrayContaining([["templates"]]));
		expect(tokens(parsed.required)).not.toContainEqual(["how"]);
		expect(tokens(parsed.optional)).toEqual(expect.arrayContaining([["how"], ["to"]]));
	});

	test("a quoted stop word stays required; a query of stop words only keeps them all required", () => {
		expect(tokens(withStopWords(parseQuery('"the" plan'), stop).required)).toEqual([["the"], ["plan"]]);
		const only = parseQuery("the a");
		expect(withStopWords(only, stop)).toEqual(only);
	});

	test("the default English list is lower case, without repeats, and short", () => {
		expect(new Set(ENGLISH_STOP_WORDS).size).toBe(ENGLISH_STOP_WORDS.length);
		for (const word of ENGLISH_STOP_WORDS) expect(word).toBe(word.toLowerCase().trim());
		expect(ENGLISH_STOP_WORDS.length).toBeLessThan(200);
	});
});

describe("isPrefixWord", () => {
	test(`a word of ${MIN_PREFIX_CHARS} characters or more also matches longer words; astral letters count as one`, () => {
		expect(isPrefixWord("a".repeat(MIN_PREFIX_CHARS))).toBe(true);
		expect(isPrefixWord("a".repeat(MIN_PREFIX_CHARS - 1))).toBe(false);
		expect(isPrefixWord("🚀".repeat(MIN_PREFIX_CHARS - 1))).toBe(false);
	});
});

describe("parseQuery: adjacent plain words", () => {
	test("each two plain words typed one after the other, in order; quotes and exclusions break the run", () => {
		expect(parseQuery("log in to npm").adjacent).toEqual([
			["log", "in"],
			["in", "to"],
			["to", "npm"],
		]);
		expect(parseQuery('back "up" -down set up').adjacent).toEqual([["set", "up"]]);
	});
});

describe("phraseCount: the phrases a search looks for in every note holding their words", () => {
	test.each([
		["words only", "garden plan -market", 0],
		["a quoted word is a word", '"garden" -"plan"', 0],
		["wanted and excluded phrases together", '"garden plan" -"market day" "a b c"', 3],
		["a word the tokenizer splits, wanted or excluded", "kebab-case jest.mock -no-console", 3],
		["the same phrase twice counts once", '"garden plan" "Garden  Plan" -"market day" -"market day"', 2],
		["a phrase both wanted and excluded is looked for twice", '"garden plan" -"garden plan"', 2],
	])("%s", (_label, typed, count) => {
		expect(phraseCount(parseQuery(typed))).toBe(count);
	});
});
