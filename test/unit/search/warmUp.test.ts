import { parseQuery } from "../../../src/search/query";
import { SEARCH_WARM_UP_WORDS } from "../../../src/config/limits";
import { warmUpSearches, warmUpText, warmUpWords } from "../../../src/search/warmUp";

const HELD: Record<string, number> = { garden: 90, plans: 80, plan: 85, tomato: 40, basil: 30, of: 99, soil: 20, x2: 95, compost: 10 };
const notesHolding = (word: string) => HELD[word] ?? 0;
const isStopWord = (word: string) => word === "of";

describe("warmUpWords: the words the warm-up asks about", () => {
	test("the words the most notes hold first, leaving out stop words, short words, words not of letters, words no note holds and a second form of one word", () => {
		const words = warmUpWords(
			["plans", "of", "garden", "tomato", "basil", "soil", "x2", "plan", "nowhere", "compost", "garden", "go"],
			notesHolding,
			isStopWord,
		);
		// `plan` and `plans` are one word's forms: the more held is taken. `nowhere` is held by no note; `x2` is not letters; `of` a stop word.
		expect(words).toEqual(["garden", "plan", "tomato", "basil", "soil", "compost"]);
	});

	test("at most the count asked for, and none from no words or no held word", () => {
		expect(warmUpWords(["garden", "plan", "tomato", "basil", "soil"], notesHolding, isStopWord, 2)).toEqual(["garden", "plan"]);
		expect(warmUpWords([], notesHolding, isStopWord)).toEqual([]);
		expect(warmUpWords(["nowhere", "elsewhere"], notesHolding, isStopWord)).toEqual([]);
		const many = Array.from({ length: SEARCH_WARM_UP_WORDS + 5 }, (_, index) => `word${"abcdefghijklmnopqrstuvwxyz"[index]}`);
		expect(
			warmUpWords(
				many,
				() => 1,
				() => false,
			),
		).toHaveLength(SEARCH_WARM_UP_WORDS);
	});
});

describe("warmUpText: the made-up note the warm-up's snippets are made of", () => {
	test("a note's length, holding every word given many times, with a heading, a link, a tag, code and a web address", () => {
		const words = ["garden", "plan", "tomato", "basil", "soil", "compost"];
		const text = warmUpText(words);
		expect(text.length).toBeGreaterThan(1_000);
		expect(text.length).toBeLessThan(4_000);
		for (const word of words) expect(text.split(word).length - 1).toBeGreaterThanOrEqual(5);
		expect(text).toMatch(/^# garden plan\n/u);
		expect(text).toMatch(/\[\[\w+\]\]/u);
		expect(text).toMatch(/ #\w+/u);
		expect(text).toMatch(/`\w+`/u);
		expect(text).toMatch(/https:\/\//u);
		expect(warmUpText(["garden"])).toContain("garden");
	});
});

describe("warmUpSearches: the kinds of query people ask, on the words given", () => {
	const words = ["garden", "plan", "tomato", "basil", "soil", "compost"];

	test("every kind in the first ten (the warm-up may end at its work bound before the rest): one word, two words, a phrase, a prefix, an exclusion, a stop word, a folder and a tag filter", () => {
		const searches = warmUpSearches(words, "Projects", "status/active");
		const queries = searches.map((search) => parseQuery(search.query));
		const kinds = queries.map((query, index) => {
			const search = searches[index];
			if (search?.folder) return "folder";
			if (search?.tag) return "tag";
			if (query.excluded.length > 0) return "exclusion";
			if (query.required.some((term) => term.tokens.length > 1)) return "phrase";
			if (query.required.length > 1) return search?.query.startsWith("the ") ? "stop word" : "two words";
			return words.includes(query.required[0]?.tokens[0] ?? "") ? "one word" : "prefix";
		});
		expect(new Set(kinds.slice(0, 10))).toEqual(new Set(["one word", "two words", "phrase", "prefix", "exclusion", "stop word", "folder", "tag"]));
		// Then more of the kinds people ask most.
		expect(kinds.slice(10)).toEqual(["one word", "one word", "one word", "two words", "phrase"]);
		expect(searches.find((search) => search.folder)).toEqual({ query: "basil", folder: "Projects" });
		expect(searches.find((search) => search.tag)).toEqual({ query: "soil", tag: "status/active" });
		// The prefix is a start of a word, not a word itself.
		const prefix = queries[kinds.indexOf("prefix")]?.required[0]?.tokens[0] ?? "";
		expect(words.some((word) => word.startsWith(prefix) && word !== prefix)).toBe(true);
	});

	test("no folder or tag search without a folder or a tag; no query naming a word that is not there; none without words", () => {
		const one = warmUpSearches(["garden"]);
		expect(one.every((search) => search.folder === undefined && search.tag === undefined)).toBe(true);
		for (const search of one) expect(search.query).not.toMatch(/undefined/);
		expect(one.map((search) => search.query)).toEqual(["garden", "garde", "the garden"]);
		expect(warmUpSearches([], "Projects", "status")).toEqual([]);
	});
});
