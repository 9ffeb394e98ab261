import { SearchEngine } from "../../../src/search/engine";
import { parseQuery } from "../../../src/search/query";
import { fieldScore, isSentenceHeading, longTitleCut, memoized, namesWord, onceEach, SENTENCE_HEADING_WORDS, titleCoverage } from "../../../src/search/rank";
import fc from "fast-check";
import { BODY_COUNT, IN_HEADING, IN_TITLE } from "../../../src/search/postingValues";

describe("how well a title and the query overlap", () => {
	test("a title holding more of the query's rarity covers it better, though both are all query words", () => {
		// `Garden` and `Garden Tools` for `garden tool shed`, three words as rare: the share of the title alone is 1 for both.
		expect(titleCoverage(2, 2, 2 / 3)).toBeGreaterThan(titleCoverage(1, 1, 1 / 3));
		expect(titleCoverage(1, 1, 1)).toBe(1);
		expect(titleCoverage(0, 3, 0.5)).toBe(0);
	});

	test("a title mostly made of other words covers the query less", () => {
		expect(titleCoverage(1, 6, 1)).toBeLessThan(titleCoverage(1, 2, 1));
	});

	test("ranks a title holding two of three query words above a one-word title holding one", async () => {
		const engine = new SearchEngine();
		const body = "Notes about the garden, its tools and the shed.";
		engine.index.add("Garden.md", "Garden", 1, body, []);
		engine.index.add("Garden Tools.md", "Garden Tools", 1, body, []);
		engine.index.add("Other.md", "Other", 1, "Nothing here.", []);
		const answer = await engine.search(parseQuery("garden tool shed"), null, 10, async () => body);
		expect(answer.results.map((hit) => hit.path)).toEqual(["Garden Tools.md", "Garden.md"]);
	});
});

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

	test("a word of a long title weighs less than a word of a short one", () => {
		expect(longTitleCut(12)).toBeGreaterThan(longTitleCut(8));
		expect(longTitleCut(8)).toBeGreaterThan(0);
		expect(longTitleCut(3)).toBe(0);
		expect(longTitleCut(1)).toBe(0);
	});

	test("a note titled by the query's word ranks above a newsletter whose long title lists it among other things", async () => {
		const engine = new SearchEngine();
		const newsletter = "This week: readwise highlights syncing, a minimal editor, and more. Sync your highlights. Readwise is here.";
		engine.index.add(
			"2021-08-14 Highlights Syncing and a Minimal Editor GUI for Everyone.md",
			"2021-08-14 Highlights Syncing and a Minimal Editor GUI for Everyone",
			1,
			newsletter,
			[],
		);
		engine.index.add("Readwise.md", "Readwise", 1, "Sync your Readwise highlights into the vault.", []);
		for (let index = 0; index < 20; index++) engine.index.add(`Other ${index}.md`, `Other ${index}`, 1, "Unrelated words.", []);
		const answer = await engine.search(parseQuery("sync readwise highlights"), null, 10, async () => "");
		expect(answer.results[0]?.path).toBe("Readwise.md");
	});

	test("memoized answers as the stemmer does, asking it once per word; no stemmer stays none", () => {
		const stem = jest.fn((word: string) => word.replace(/s$/, ""));
		const remembered = memoized(stem);
		expect([remembered?.("cats"), remembered?.("cats"), remembered?.("dog")]).toEqual(["cat", "cat", "dog"]);
		expect(stem).toHaveBeenCalledTimes(2);
		expect(memoized(null)).toBeNull();
	});

	test("memoized with a cap forgets every answer once it holds that many words, and answers right after", () => {
		const stem = jest.fn((word: string) => word.replace(/s$/, ""));
		const remembered = memoized(stem, 2);
		expect([remembered?.("cats"), remembered?.("dogs"), remembered?.("cats")]).toEqual(["cat", "dog", "cat"]);
		expect(stem).toHaveBeenCalledTimes(2);
		// A third word fills past the cap: the first two are forgotten and asked again.
		expect([remembered?.("hens"), remembered?.("hens"), remembered?.("cats")]).toEqual(["hen", "hen", "cat"]);
		expect(stem).toHaveBeenCalledTimes(4);
	});

	test("a search engine remembers stems from one search to the next, and forgets them when the search language changes", async () => {
		const english = jest.fn((word: string) => word.replace(/s$/, ""));
		const engine = new SearchEngine(english);
		const text = "Gardens need a garden that grows.";
		engine.index.add("Garden.md", "Garden", 1, text, []);
		const search = async () => (await engine.search(parseQuery("gardens"), null, 10, () => Promise.resolve(text))).results[0]?.snippets;
		// `grows` starts like `gardens`, so snippets stem it; word forms (dictionary.ts) never look at it.
		const stemmedGrows = () => english.mock.calls.filter(([word]) => word === "grows").length;
		const first = await search();
		expect(first).toEqual(["«Gardens» need a «garden» that grows."]);
		expect(stemmedGrows()).toBe(1);
		expect(await search()).toEqual(first);
		expect(stemmedGrows()).toBe(1);
		// A new language: its stemmer answers (`garden` is no form of `gardens` in it), not the old one's remembered answers.
		engine.index.setStemmer((word) => word);
		expect(await search()).toEqual(["«Gardens» need a garden that grows."]);
	});

	test("onceEach keeps the first of the terms with the same words", () => {
		const keep = onceEach();
		const terms = [["a"], ["a", "b"], ["a"], ["a", "b"], ["b"]].map((tokens) => ({ tokens, source: tokens.join(" "), quoted: false }));
		expect(terms.filter(keep).map((term) => term.source)).toEqual(["a", "a b", "b"]);
	});
});

describe("namesWord: whether a note names a word (title, alias or heading)", () => {
	const list = (values: number[]) => ({ slots: Uint32Array.from(values.map((_, index) => index)), values: Uint32Array.from(values), length: values.length });

	test("a word in the text only is named by no note; in a title or a heading it is", () => {
		expect(namesWord(list([3, 1, 7]), null)).toBe(false);
		expect(namesWord(list([3, 1 | IN_TITLE]), null)).toBe(true);
		expect(namesWord(list([(2 | IN_HEADING) >>> 0]), null)).toBe(true);
		expect(namesWord(null, null)).toBe(false);
	});

	test("a search over some notes counts only their names: a heading in a note outside them does not name the word", () => {
		const values = list([2, (1 | IN_HEADING) >>> 0]);
		expect(namesWord(values, Uint8Array.from([1, 0]))).toBe(false);
		expect(namesWord(values, Uint8Array.from([1, 1]))).toBe(true);
	});
});

describe("a heading that is a sentence names no section", () => {
	const words = (count: number) => Array.from({ length: count }, (_, index) => `w${index}`).join(" ");

	test("a heading of more than SENTENCE_HEADING_WORDS words is a sentence; one of that many or fewer is a name", () => {
		expect(isSentenceHeading(words(SENTENCE_HEADING_WORDS))).toBe(false);
		expect(isSentenceHeading(words(SENTENCE_HEADING_WORDS + 1))).toBe(true);
		expect(isSentenceHeading(`  ${words(SENTENCE_HEADING_WORDS).replace(/ /g, " \t\n ")}  `)).toBe(false);
		expect(isSentenceHeading("")).toBe(false);
		expect(isSentenceHeading(`${words(SENTENCE_HEADING_WORDS + 1)} ${"x".repeat(1_000_000)}`)).toBe(true);
	});

	const question = "Case: I got an error saying the request must retry, how can I fix this in my own code?";
	const ranked = async (extra: Array<[string, string, string[]]> = []) => {
		const engine = new SearchEngine();
		const notes: Array<[string, string, string[]]> = [
			// Its one mention of the word is in a heading that is a whole question.
			["Focus.md", `## ${question}\n\nAdd a tab index to the element so that it can take focus.`, [question]],
			// Says the word in its text, three times, under no heading.
			["Resending.md", "A failed request is sent again. Each retry waits longer; a retry stops after five; set retry to zero to stop.", []],
			...extra,
		];
		for (const [path, text, headings] of notes) engine.index.add(path, path.replace(/\.md$/, ""), 1, text, headings);
		const answer = await engine.search(parseQuery("retry"), null, 10, () => Promise.resolve(""));
		return answer.results.map((hit) => hit.path);
	};

	test("a note saying the word in its text outranks a note whose only mention is in a heading that is a whole question", async () => {
		expect(SENTENCE_HEADING_WORDS).toBeLessThan(question.split(" ").length);
		expect(await ranked()).toEqual(["Resending.md", "Focus.md"]);
	});

	test("a short heading naming the word still lifts its note above the text's mentions", async () => {
		const found = await ranked([["Waiting.md", "## Retry\n\nWait between attempts.", ["Retry"]]]);
		expect(found[0]).toBe("Waiting.md");
		expect(found).toContain("Focus.md");
	});
});
