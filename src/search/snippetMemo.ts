import { SEARCH_SNIPPET_MEMO_RESULTS, SEARCH_SNIPPET_MEMO_TEXT_CHARS, SNIPPET_SEARCH_MAX_CHARS } from "../config/limits";
import type { ParsedQuery } from "./query";
import { snippetsOf } from "./snippets";
import type { Stemmer } from "./stemmers";

/** What snippets were made from, and the snippets. */
interface KeptSnippets {
	text: string;
	stem: Stemmer | null;
	snippets: readonly string[];
}

/** The snippet maker SnippetMemo stands in front of (snippetsOf; a counting one in tests). */
export type SnippetMaker = (text: string, query: ParsedQuery, stem: Stemmer | null) => string[];

/**
 * The snippets of the notes last shown, by note and query words, reused only when the note's text
 * just read is the same text they were made from (and the stemmer the same): snippets are a pure
 * function of those, so an edited, replaced or re-created note can never be shown old snippets,
 * whatever events did or did not arrive. Least recently used dropped first, past
 * SEARCH_SNIPPET_MEMO_RESULTS results or SEARCH_SNIPPET_MEMO_TEXT_CHARS characters of text. Pure.
 */
export class SnippetMemo {
	/** In use order: a Map iterates in insertion order, so the first key is the least recently used. */
	private readonly kept = new Map<string, KeptSnippets>();
	private chars = 0;

	constructor(
		private readonly make: SnippetMaker = snippetsOf,
		private readonly maxResults = SEARCH_SNIPPET_MEMO_RESULTS,
		private readonly maxChars = SEARCH_SNIPPET_MEMO_TEXT_CHARS,
	) {}

	/** The key of a query's snippets: the required terms' words are all snippetsOf looks at. */
	static wordsKey(query: ParsedQuery): string {
		return JSON.stringify(query.required.map((term) => term.tokens));
	}

	/** snippetsOf(text, query, stem) for the note at `path`; `wordsKey` is wordsKey(query). */
	snippetsOf(path: string, wordsKey: string, text: string, query: ParsedQuery, stem: Stemmer | null): string[] {
		// JSON has no raw line break: the key's first one ends the words.
		const key = `${wordsKey}\n${path}`;
		const kept = this.kept.get(key);
		if (kept !== undefined) {
			this.forget(key, kept);
			// The same string object in most cases (the text cache's), compared at once; another equal text costs one comparison.
			if (kept.text === text && kept.stem === stem) {
				this.keep(key, kept);
				return [...kept.snippets];
			}
		}
		const snippets = this.make(text, query, stem);
		if (text.length <= SNIPPET_SEARCH_MAX_CHARS) this.keep(key, { text, stem, snippets: [...snippets] });
		return snippets;
	}

	/** Lets every kept result go. */
	clear(): void {
		this.kept.clear();
		this.chars = 0;
	}

	private keep(key: string, entry: KeptSnippets): void {
		this.kept.set(key, entry);
		this.chars += entry.text.length;
		for (const [oldest, oldEntry] of this.kept) {
			if (this.kept.size <= this.maxResults && this.chars <= this.maxChars) break;
			this.forget(oldest, oldEntry);
		}
	}

	private forget(key: string, entry: KeptSnippets): void {
		this.kept.delete(key);
		this.chars -= entry.text.length;
	}
}
