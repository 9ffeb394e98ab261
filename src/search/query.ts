import { MIN_PREFIX_CHARS } from "../config/limits";
import { tokenize } from "./text";

/** One part of a query: the folded tokens that must stand together (one token for a plain word). */
export interface QueryTerm {
	tokens: string[];
	/** What the person typed, for messages. */
	source: string;
	/** Typed in quotes: matched as typed, never treated as a stop word. */
	quoted: boolean;
}

export interface ParsedQuery {
	/** Terms every result holds. */
	required: QueryTerm[];
	/** Terms no result holds. */
	excluded: QueryTerm[];
	/** Whole words a result need not hold but that rank it higher when it does (the query's stop words, one-letter names in typed code). */
	optional: QueryTerm[];
	/**
	 * Each two plain words typed one after the other (not quoted, not excluded), in order: a
	 * person types `log in`, `back up`, `set up` where the notes say `login`, `backup`, `setup`.
	 */
	adjacent?: Array<[string, string]>;
	/** The stop words the query was read with (withStopWords): ranking leaves them out of a title's length. */
	stopWords?: ReadonlySet<string>;
}

/**
 * Reads a search query: words, `"quoted phrases"`, and `-word` or `-"phrase"` to exclude. A word
 * that the tokenizer splits (an email address, `kebab-case`, `3.14`, a run of Chinese characters)
 * is matched as a phrase of its parts, so a compound never matches notes that share one part. Pure.
 */
export function parseQuery(query: string): ParsedQuery {
	const parsed: ParsedQuery = { required: [], excluded: [], optional: [], adjacent: [] };
	const pattern = /(-?)"([^"]*)"?|(-?)(\S+)/gu;
	let previousWord: string | null = null;
	const placeholders: QueryTerm[] = [];
	for (const match of query.matchAll(pattern)) {
		const quoted = match[2] !== undefined;
		const negated = (match[1] ?? match[3] ?? "") === "-";
		const typed = match[2] ?? match[4] ?? "";
		const parts = quoted || negated ? [typed] : codeParts(typed);
		for (const source of parts) {
			const tokens = quoted ? tokenize(source).map((token) => token.value) : withoutClitic(source);
			const plainWord = !quoted && !negated && tokens.length === 1 ? (tokens[0] ?? null) : null;
			if (previousWord !== null && plainWord !== null) parsed.adjacent?.push([previousWord, plainWord]);
			previousWord = plainWord;
			if (tokens.length === 0) continue;
			if (parts.length > 1 && plainWord !== null && [...plainWord].length === 1) placeholders.push({ tokens, source, quoted });
			else (negated ? parsed.excluded : parsed.required).push({ tokens, source, quoted });
		}
	}
	// A one-letter name in typed code (`a` and `b` of `expect(a > b)`) is a placeholder: it says nothing of
	// what a note is about, and finding it in notes' code lifted pages for their samples. It ranks as a
	// stop word does, unless the query has nothing else to find.
	if (parsed.required.length > 0) parsed.optional.push(...placeholders);
	else parsed.required.push(...placeholders);
	return parsed;
}

/** Brackets and operators: in a typed piece of code they stand between words, never inside one. */
const CODE_SEPARATORS = /[()[\]{}<>=,;|`]+/u;

/**
 * The words of an unquoted piece of code typed as one: `expect(a).toBe(true)` is `expect`, `a`,
 * `.toBe` and `true`, each a term of its own, not the phrases `expect a` and `a tobe true` that
 * only the same code, character for character, would hold. A dotted, hyphenated or camelCase
 * identifier (`jest.mock`, `no-console`, `toBeTruthy`) stays one term.
 */
function codeParts(typed: string): string[] {
	return typed.split(CODE_SEPARATORS).filter((part) => part.length > 0);
}

/** What follows an apostrophe in English possessives and contractions: `hub's`, `I'm`, `you're`, `we've`, `it'll`, `I'd`, `don't`. */
const CLITICS: ReadonlySet<string> = new Set(["s", "m", "re", "ve", "ll", "d", "t"]);
const APOSTROPHES = "'\u2019";

/**
 * The folded tokens of a typed word, less a clitic after an apostrophe at its end: `hub's` is
 * `hub`, not the phrase `hub s`, which asked every note to say `hub's` and ranked the note titled
 * `Hub` as one lacking the word. The note's own `hub's` is still found (its tokens hold `hub`).
 */
function withoutClitic(word: string): string[] {
	const tokens = tokenize(word);
	const last = tokens[tokens.length - 1];
	const before = tokens[tokens.length - 2];
	if (!last || !before || !CLITICS.has(last.value)) return tokens.map((token) => token.value);
	const between = word.slice(before.end, last.start);
	return between.length === 1 && APOSTROPHES.includes(between) ? tokens.slice(0, -1).map((token) => token.value) : tokens.map((token) => token.value);
}

/** Folded stop words, as the tokenizer gives them, for `withStopWords`. */
export function stopWordSet(words: readonly string[]): ReadonlySet<string> {
	return new Set(words.flatMap((word) => tokenize(word).map((token) => token.value)));
}

/**
 * The query with its unquoted one-word stop words made optional. A query of nothing
 * but stop words keeps them required, or it would match every note. Pure.
 */
export function withStopWords(query: ParsedQuery, stopWords: ReadonlySet<string>): ParsedQuery {
	const isStopWord = (term: QueryTerm) => !term.quoted && term.tokens.length === 1 && stopWords.has(term.tokens[0] ?? "");
	const required = query.required.filter((term) => !isStopWord(term));
	if (required.length === 0) return query;
	const optional = [...query.optional, ...query.required.filter(isStopWord)];
	return { ...query, required, optional, stopWords };
}

/**
 * The query's distinct phrases, wanted and excluded: its terms of two or more words (quoted, or a
 * typed word the tokenizer splits), each looked for in every note holding its words. Pure.
 */
export function phraseCount(query: ParsedQuery): number {
	const phrases = (terms: readonly QueryTerm[]) => new Set(terms.filter((term) => term.tokens.length > 1).map((term) => term.tokens.join(" "))).size;
	return phrases(query.required) + phrases(query.excluded);
}

/** True if a query's (folded) word also matches the longer words it starts: MIN_PREFIX_CHARS characters or more. Pure. */
export function isPrefixWord(word: string): boolean {
	// Counted in characters, not UTF-16 units: one astral letter is still one letter.
	return word.length >= MIN_PREFIX_CHARS && [...word].length >= MIN_PREFIX_CHARS;
}
