import { SEARCH_SNIPPET_MEMO_RESULTS, SEARCH_SNIPPET_MEMO_TEXT_CHARS, SNIPPET_SEARCH_MAX_CHARS } from "../../../src/config/limits";
import { SearchEngine } from "../../../src/search/engine";
import { parseQuery, type ParsedQuery } from "../../../src/search/query";
import { SnippetMemo } from "../../../src/search/snippetMemo";
import { snippetsOf } from "../../../src/search/snippets";
import { stemmerFor, type Stemmer } from "../../../src/search/stemmers";

const english = stemmerFor("english");

/** A memo over the real snippetsOf that counts the snippets it had made. */
function countingMemo(maxResults?: number, maxChars?: number): { memo: SnippetMemo; made: () => number } {
	let made = 0;
	const memo = new SnippetMemo(
		(text, query, stem) => {
			made++;
			return snippetsOf(text, query, stem);
		},
		maxResults,
		maxChars,
	);
	return { memo, made: () => made };
}

function ask(memo: SnippetMemo, path: string, text: string, query: ParsedQuery, stem: Stemmer | null = english): string[] {
	return memo.snippetsOf(path, SnippetMemo.wordsKey(query), text, query, stem);
}

describe("SnippetMemo", () => {
	const garden = parseQuery("garden");

	test("the same note, words and text get the snippets made the first time", () => {
		const { memo, made } = countingMemo();
		const text = "The garden needs water.";
		expect(ask(memo, "a.md", text, garden)).toEqual(["The «garden» needs water."]);
		expect(ask(memo, "a.md", text, garden)).toEqual(["The «garden» needs water."]);
		// An equal text read again is another string: equal is enough.
		expect(ask(memo, "a.md", text.split("").join(""), garden)).toEqual(["The «garden» needs water."]);
		expect(made()).toBe(1);
	});

	test("a note whose text changed (same path, same length) gets snippets of its new text", () => {
		const { memo, made } = countingMemo();
		expect(ask(memo, "a.md", "The garden needs water.", garden)).toEqual(["The «garden» needs water."]);
		expect(ask(memo, "a.md", "Our garden wants light.", garden)).toEqual(["Our «garden» wants light."]);
		expect(ask(memo, "a.md", "The garden needs water.", garden)).toEqual(["The «garden» needs water."]);
		expect(made()).toBe(3);
	});

	test("other words, another note or another stemmer (the search language changed) get snippets made for them", () => {
		const { memo, made } = countingMemo();
		const text = "Ponies graze; the pony sleeps.";
		const pony = parseQuery("pony");
		expect(ask(memo, "a.md", text, pony)).toEqual(["«Ponies» graze; the «pony» sleeps."]);
		expect(ask(memo, "a.md", text, pony, null)).toEqual(["Ponies graze; the «pony» sleeps."]);
		expect(ask(memo, "a.md", text, parseQuery("graze"), null)).toEqual(["Ponies «graze»; the pony sleeps."]);
		expect(ask(memo, "b.md", text, pony, null)).toEqual(["Ponies graze; the «pony» sleeps."]);
		expect(made()).toBe(4);
	});

	test("a caller changing the snippets it was given does not change the next answer", () => {
		const { memo } = countingMemo();
		ask(memo, "a.md", "The garden.", garden).push("planted");
		ask(memo, "a.md", "The garden.", garden).push("weeded");
		expect(ask(memo, "a.md", "The garden.", garden)).toEqual(["The «garden»."]);
	});

	test("a text longer than SNIPPET_SEARCH_MAX_CHARS is not kept (comparing it would cost more than its snippets)", () => {
		const { memo, made } = countingMemo();
		const text = `garden ${"x".repeat(SNIPPET_SEARCH_MAX_CHARS)}`;
		ask(memo, "a.md", text, garden);
		ask(memo, "a.md", text, garden);
		expect(made()).toBe(2);
	});

	test("past its bound of results or of text characters it forgets the least recently used first", () => {
		expect(SEARCH_SNIPPET_MEMO_RESULTS).toBeGreaterThan(50);
		expect(SEARCH_SNIPPET_MEMO_TEXT_CHARS).toBeGreaterThanOrEqual(SNIPPET_SEARCH_MAX_CHARS);
		const byCount = countingMemo(2, 1000);
		for (const path of ["a.md", "b.md", "a.md", "c.md", "a.md", "b.md"]) ask(byCount.memo, path, "garden", garden);
		// a, b made; a kept; c made (b forgotten); a kept; b made.
		expect(byCount.made()).toBe(4);
		const byChars = countingMemo(100, 10);
		for (const path of ["a.md", "b.md", "a.md"]) ask(byChars.memo, path, "garden", garden);
		// Six characters each: b pushes a out.
		expect(byChars.made()).toBe(3);
	});
});

describe("a search engine's snippets", () => {
	test("show the text read now: a note edited since the last search (not yet re-indexed) shows its new text", async () => {
		const engine = new SearchEngine();
		engine.index.add("Note.md", "Note", 1, "The garden needs water.", []);
		let text = "The garden needs water.";
		const search = async () => (await engine.search(parseQuery("garden"), null, 10, () => Promise.resolve(text))).results[0]?.snippets;
		expect(await search()).toEqual(["The «garden» needs water."]);
		text = "Our garden wants light.";
		expect(await search()).toEqual(["Our «garden» wants light."]);
	});
});
