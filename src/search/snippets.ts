import {
	SEARCH_SNIPPETS_PER_RESULT,
	SEARCH_SNIPPET_CONTEXT_CHARS,
	SEARCH_SNIPPET_MAX_CHARS,
	SNIPPET_SEARCH_MAX_CHARS,
	SNIPPET_TOKENIZE_CHUNK_CHARS,
} from "../config/limits";
import { splitFrontmatter } from "../markdown/frontmatter";
import { isPrefixWord, type ParsedQuery } from "./query";
import type { Stemmer } from "./stemmers";
import { TokenReader } from "./text";

/** Snippets: a few passages of a note's body around its matches, each match marked. Pure. */

const MARK_OPEN = "«";
const MARK_CLOSE = "»";

/** A query term as snippets look for it. */
interface SnippetTerm {
	words: readonly string[];
	/** The last word matches only itself (and its forms), not the longer words it starts. */
	whole: boolean;
	/** For a one-word term, the word's stem when word forms are on: a token with the same stem matches. */
	stem: string | null;
}

/**
 * The tokens of the part of a note read so far, in reused arrays (snippets are made for every
 * result of every search: an object for each word was most of a search's garbage). A word no
 * term can start with is kept with an empty value (TokenReader), matching nothing.
 */
/** Tokens a TokenBuffer keeps room for between notes. */
const KEPT_TOKEN_ROOM = 1024;

class TokenBuffer {
	values: string[] = [];
	starts = new Int32Array(KEPT_TOKEN_ROOM);
	ends = new Int32Array(KEPT_TOKEN_ROOM);
	length = 0;
	/** One past the last value written since the last clear: a piece read past the part looked through is dropped by lowering `length`, but its strings stay until cleared. */
	private written = 0;

	readonly push = (value: string, start: number, end: number): void => {
		const at = this.length;
		if (at === this.starts.length) {
			const starts = new Int32Array(at * 2);
			starts.set(this.starts);
			this.starts = starts;
			const ends = new Int32Array(at * 2);
			ends.set(this.ends);
			this.ends = ends;
		}
		this.values[at] = value;
		this.starts[at] = start;
		this.ends[at] = end;
		this.length = at + 1;
		if (at >= this.written) this.written = at + 1;
	};

	/** Empties the buffer, letting go of the strings it held (and of its room, past what a few pieces of a note take). */
	clear(): void {
		if (this.values.length > KEPT_TOKEN_ROOM) {
			this.values = [];
			this.starts = new Int32Array(KEPT_TOKEN_ROOM);
			this.ends = new Int32Array(KEPT_TOKEN_ROOM);
		} else this.values.fill("", 0, this.written);
		this.length = 0;
		this.written = 0;
	}
}

const shared = new TokenBuffer();

/** True if a term's words stand in a row in `tokens` from `at` (the last word a prefix unless `whole`; a one-word term also in another form). */
function termAt(tokens: TokenBuffer, at: number, term: SnippetTerm, stemmer: Stemmer | null): boolean {
	const words = term.words;
	const lastWord = words.length - 1;
	if (at + lastWord >= tokens.length) return false;
	for (let offset = 0; offset <= lastWord; offset++) {
		const value = tokens.values[at + offset] as string;
		const word = words[offset] as string;
		if (value === word || (offset === lastWord && !term.whole && value.startsWith(word))) continue;
		// Forms share their first letter: only those tokens are stemmed.
		if (term.stem !== null && stemmer !== null && value.charCodeAt(0) === word.charCodeAt(0) && stemmer(value) === term.stem) continue;
		return false;
	}
	return true;
}

/** Reused by wantedFirstCodes: a note's snippets are made one at a time, start to end. */
const firstCodes = new Uint8Array(128);

/** 1 at the code of each ASCII character a term's word starts with: a token starting with another can match no word. */
function wantedFirstCodes(terms: readonly SnippetTerm[]): Uint8Array {
	const codes = firstCodes.fill(0);
	for (const term of terms) {
		for (const word of term.words) {
			const code = word.charCodeAt(0);
			if (code < 128) codes[code] = 1;
		}
	}
	return codes;
}

/**
 * White space a snippet shows as one space: a run of two characters or more, or one that is not a
 * space (a line break). A lone space stays as it is, so most of a passage's spaces cost no replacement.
 */
const SPACE_TO_COLLAPSE = /\s{2,}|[^\S ]/g;

interface Span {
	start: number;
	end: number;
}

const VISIBLE_CHARACTER = /\S/g;

/** True if text[from, text.length) holds anything but white space: looked for, not copied (a body can be megabytes). */
function hasVisibleText(text: string, from: number): boolean {
	VISIBLE_CHARACTER.lastIndex = from;
	return VISIBLE_CHARACTER.test(text);
}

/**
 * Where a note's body starts: after its frontmatter block, by the one fence rule the Markdown
 * parser uses (markdown/frontmatter.ts), so a snippet never shows what the parser reads as
 * frontmatter. Only a note opening with `---` can have one: the rest cost no look.
 */
function bodyStart(text: string): number {
	if (!text.startsWith("---")) return 0;
	const parts = splitFrontmatter(text);
	return parts === null ? 0 : text.length - parts.body.length;
}

/**
 * A web address: scheme, host, and the rest up to a space or bracket, less a sentence's closing
 * punctuation. The rest starts at the character that ended the host, so no run of characters can
 * be shared between the two (a long host of dots would otherwise be retried quadratically).
 */
const WEB_ADDRESS = /https?:\/\/([^\s/?#()<>[\]]+)(?:[/?#][^\s()<>[\]]*[^\s()<>[\].,;:!?]|[/#])?/g;

interface WebAddress extends Span {
	hostStart: number;
	hostEnd: number;
}

/** The web addresses in text[from, to), in order and apart; one running on past `to` ends there. */
function webAddresses(text: string, from: number, to: number): WebAddress[] {
	// Looked for only where a passage may reach: a 4.4 MB note of addresses made 338,000 of them, looked
	// through for every match's passage, in one piece of 190 ms.
	const reached = to < text.length ? text.slice(0, to) : text;
	// Every address holds "://": a reach with none is not run through the expression. Looked for in the reach only (in
	// the whole note, a 5 MB note with none cost 6.4 ms a snippet), and as "://", not "http": a colon is rarer in prose
	// than an "h", which made indexOf("http") 5–10× slower than the expression itself on English text.
	if (reached.indexOf("://", from) === -1) return [];
	WEB_ADDRESS.lastIndex = from;
	const found: WebAddress[] = [];
	for (let match = WEB_ADDRESS.exec(reached); match; match = WEB_ADDRESS.exec(reached)) {
		const hostStart = match.index + match[0].indexOf("//") + 2;
		found.push({ start: match.index, end: match.index + match[0].length, hostStart, hostEnd: hostStart + (match[1] ?? "").length });
	}
	return found;
}

/**
 * `offset` moved out of any address it falls inside: to the address's start or end, unless that is
 * further than a passage is long (an address of a megabyte made a passage of a megabyte: it is cut).
 */
function outsideAddresses(offset: number, addresses: readonly WebAddress[], toEnd: boolean): number {
	let low = 0;
	let high = addresses.length;
	while (low < high) {
		const middle = (low + high) >> 1;
		if ((addresses[middle]?.start ?? 0) < offset) low = middle + 1;
		else high = middle;
	}
	const inside = addresses[low - 1];
	if (inside === undefined || offset >= inside.end) return offset;
	const moved = toEnd ? inside.end : inside.start;
	return Math.abs(moved - offset) <= SEARCH_SNIPPET_MAX_CHARS ? moved : offset;
}

/**
 * Text of a snippet window with its matches marked, every web address shortened to its host
 * (badge and link addresses are noise to a reader) unless a match lies past the host.
 */
function markWindow(text: string, start: number, end: number, spans: readonly Span[], addresses: readonly WebAddress[]): string {
	// Most windows hold no web address: their spans, in order and apart, are marked in one pass.
	if (!addresses.some((address) => address.start >= start && address.end <= end)) {
		let marked = "";
		let cursor = start;
		for (const span of spans) {
			marked += text.slice(cursor, span.start) + MARK_OPEN + text.slice(span.start, span.end) + MARK_CLOSE;
			cursor = span.end;
		}
		return marked + text.slice(cursor, end);
	}
	const edits: Array<Span & { text: string }> = [];
	const mark = (span: Span) => MARK_OPEN + text.slice(span.start, span.end) + MARK_CLOSE;
	for (const address of addresses) {
		if (address.start < start || address.end > end) continue;
		if (spans.some((span) => span.end > address.hostEnd && span.start < address.end)) continue;
		let shortened = "";
		let cursor = address.hostStart;
		for (const span of spans.filter((candidate) => candidate.start >= address.start && candidate.end <= address.hostEnd)) {
			shortened += text.slice(cursor, span.start) + mark(span);
			cursor = span.end;
		}
		shortened += text.slice(cursor, address.hostEnd) + (address.end > address.hostEnd ? "/…" : "");
		edits.push({ start: address.start, end: address.end, text: shortened });
	}
	for (const span of spans) {
		if (!edits.some((edit) => span.start >= edit.start && span.end <= edit.end)) edits.push({ ...span, text: mark(span) });
	}
	edits.sort((a, b) => a.start - b.start);
	let marked = "";
	let cursor = start;
	for (const edit of edits) {
		marked += text.slice(cursor, edit.start) + edit.text;
		cursor = edit.end;
	}
	return marked + text.slice(cursor, end);
}

/**
 * Up to a few passages of the note's body (never its frontmatter) around the matches of the
 * wanted terms (as typed, in another form, or a longer word they start) in its first
 * SNIPPET_SEARCH_MAX_CHARS, each match marked «like this»; the start of the body when they hold
 * no match (the note matched by title or frontmatter, or further in). Stop words are never
 * marked: «the» tells a reader nothing. A passage never cuts a web address in two.
 */
export function snippetsOf(text: string, query: ParsedQuery, stemmer: Stemmer | null): string[] {
	const start = bodyStart(text);
	const terms: SnippetTerm[] = query.required.map((term) => ({
		words: term.tokens,
		whole: !isPrefixWord(term.tokens.at(-1) ?? ""),
		stem: stemmer !== null && term.tokens.length === 1 ? stemmer(term.tokens[0] ?? "") : null,
	}));
	const longest = Math.max(...terms.map((term) => term.words.length));
	const searchEnd = start + SNIPPET_SEARCH_MAX_CHARS;
	// A passage starts at a match in the part looked through (read a chunk at a time) and runs on at most its length and context, moved out of an address by at most a passage.
	const addresses = webAddresses(text, start, searchEnd + SNIPPET_TOKENIZE_CHUNK_CHARS + 3 * (SEARCH_SNIPPET_MAX_CHARS + SEARCH_SNIPPET_CONTEXT_CHARS));
	const windowEnd = (offset: number) => outsideAddresses(Math.min(text.length, offset), addresses, true);
	const windows: Array<{ start: number; end: number; spans: Span[] }> = [];
	const full = () => windows.length === SEARCH_SNIPPETS_PER_RESULT;
	/** Adds a match to the windows; false once they are full and the match lies past the last. */
	const addSpan = (span: Span): boolean => {
		const last = windows.at(-1);
		// A word on every line would grow one passage over the whole note: a passage stops at SEARCH_SNIPPET_MAX_CHARS.
		if (last && span.start <= last.end && span.end <= last.start + SEARCH_SNIPPET_MAX_CHARS) {
			last.end = Math.max(last.end, Math.min(last.start + SEARCH_SNIPPET_MAX_CHARS, windowEnd(span.end + SEARCH_SNIPPET_CONTEXT_CHARS)));
			if (span.start >= (last.spans.at(-1)?.end ?? 0)) last.spans.push(span);
			return true;
		}
		if (full()) return false;
		const from = Math.max(start, last?.end ?? 0, outsideAddresses(Math.max(start, span.start - SEARCH_SNIPPET_CONTEXT_CHARS), addresses, false));
		windows.push({ start: Math.min(from, span.start), end: windowEnd(span.end + SEARCH_SNIPPET_CONTEXT_CHARS), spans: [span] });
		return true;
	};
	// Tokenized a little at a time, in text order, and no further than the last window needs: a
	// long note costs what its snippets cost.
	const tokens = shared;
	let next = 0;
	const matchUpTo = (stop: number): boolean => {
		for (; next < stop; next++) {
			if (full() && (tokens.starts[next] as number) > (windows.at(-1)?.end ?? 0)) return false;
			// A word no term starts with (TokenReader): nothing to look at.
			if (tokens.values[next] === "") continue;
			for (const term of terms) {
				if (
					termAt(tokens, next, term, stemmer) &&
					!addSpan({ start: tokens.starts[next] as number, end: tokens.ends[next + term.words.length - 1] as number })
				)
					return false;
			}
		}
		return true;
	};
	let open = true;
	const reader = new TokenReader(text, start, wantedFirstCodes(terms));
	try {
		while (!reader.done) {
			const before = tokens.length;
			reader.read(SNIPPET_TOKENIZE_CHUNK_CHARS, tokens.push);
			// A piece read that starts past the part looked through is left out, and the reading ends.
			if (tokens.length > before && (tokens.starts[before] as number) >= searchEnd) {
				tokens.length = before;
				break;
			}
			// A phrase may run on into the next piece: positions that close to the end wait for it.
			open = matchUpTo(tokens.length - longest + 1);
			if (!open) break;
		}
		if (open) matchUpTo(tokens.length);
	} finally {
		tokens.clear();
	}
	if (windows.length === 0 && hasVisibleText(text, start)) windows.push({ start, end: windowEnd(start + 2 * SEARCH_SNIPPET_CONTEXT_CHARS), spans: [] });
	return windows.map((window) => {
		const marked = markWindow(text, window.start, window.end, window.spans, addresses).replace(SPACE_TO_COLLAPSE, " ").trim();
		return `${window.start > start ? "…" : ""}${marked}${window.end < text.length && !marked.endsWith("…") ? "…" : ""}`;
	});
}
