import { SEARCH_SNIPPET_CONTEXT_CHARS, SEARCH_SNIPPETS_PER_RESULT } from "../limits";
import type { ParsedQuery, QueryTerm } from "./query";
import { tokenize, type Token } from "./text";

/** A note prepared for search: its text tokenized once, title and headings apart. */
export interface SearchDocument {
	path: string;
	modified: number;
	text: string;
	body: Token[];
	title: string[];
	headings: string[];
}

export interface SearchHit {
	path: string;
	score: number;
	snippets: string[];
}

/** BM25's usual constants; title and heading matches add a fixed weight on top of the body score. */
const BM25_K1 = 1.2;
const BM25_B = 0.75;
const TITLE_WEIGHT = 3;
const HEADING_WEIGHT = 1.5;
const MARK_OPEN = "«";
const MARK_CLOSE = "»";

/** Tokenizes a note for search. `headings` are the note's heading texts (from the metadata cache). */
export function prepareDocument(path: string, title: string, modified: number, text: string, headings: readonly string[]): SearchDocument {
	return {
		path,
		modified,
		text,
		body: tokenize(text),
		title: tokenize(title).map((token) => token.value),
		headings: headings.flatMap((heading) => tokenize(heading).map((token) => token.value)),
	};
}

/** Start indexes in `tokens` where the term's tokens stand in a row; the last one may be a prefix. */
export function termPositions(tokens: readonly string[], term: QueryTerm): number[] {
	const positions: number[] = [];
	const last = term.tokens.length - 1;
	for (let start = 0; start + last < tokens.length; start++) {
		let matches = true;
		for (let offset = 0; offset <= last && matches; offset++) {
			const token = tokens[start + offset] ?? "";
			const wanted = term.tokens[offset] ?? "";
			matches = offset === last ? token.startsWith(wanted) : token === wanted;
		}
		if (matches) positions.push(start);
	}
	return positions;
}

interface DocumentMatch {
	doc: SearchDocument;
	bodyPositions: number[][];
	titleHits: boolean[];
	headingHits: boolean[];
}

/** How a document meets the query, or null if it does not (a required term missing, an excluded one present). */
export function matchDocument(doc: SearchDocument, query: ParsedQuery): DocumentMatch | null {
	const values = doc.body.map((token) => token.value);
	const inAnyField = (term: QueryTerm) => termPositions(values, term).length > 0 || termPositions(doc.title, term).length > 0;
	if (query.excluded.some(inAnyField)) return null;
	const match: DocumentMatch = { doc, bodyPositions: [], titleHits: [], headingHits: [] };
	for (const term of query.required) {
		const body = termPositions(values, term);
		const title = termPositions(doc.title, term).length > 0;
		if (body.length === 0 && !title) return null;
		match.bodyPositions.push(body);
		match.titleHits.push(title);
		match.headingHits.push(termPositions(doc.headings, term).length > 0);
	}
	return match;
}

/**
 * Ranks the documents that match the query: BM25 over the body, title and heading matches
 * weighted up, ties broken by the most recently modified. `total` counts every match.
 */
export function rankMatches(matches: readonly DocumentMatch[], corpusSize: number, averageLength: number, query: ParsedQuery, limit: number): { total: number; results: SearchHit[] } {
	const documentFrequency = query.required.map((_, termIndex) => matches.filter((match) => (match.bodyPositions[termIndex]?.length ?? 0) > 0 || match.titleHits[termIndex]).length);
	const scored = matches.map((match) => {
		let score = 0;
		const length = Math.max(1, match.doc.body.length);
		query.required.forEach((_, termIndex) => {
			const df = documentFrequency[termIndex] ?? 0;
			const idf = Math.log(1 + (corpusSize - df + 0.5) / (df + 0.5));
			const tf = match.bodyPositions[termIndex]?.length ?? 0;
			const body = (tf * (BM25_K1 + 1)) / (tf + BM25_K1 * (1 - BM25_B + (BM25_B * length) / Math.max(1, averageLength)));
			score += idf * (body + (match.titleHits[termIndex] ? TITLE_WEIGHT : 0) + (match.headingHits[termIndex] ? HEADING_WEIGHT : 0));
		});
		return { match, score };
	});
	scored.sort((a, b) => b.score - a.score || b.match.doc.modified - a.match.doc.modified || a.match.doc.path.localeCompare(b.match.doc.path));
	return {
		total: scored.length,
		results: scored.slice(0, limit).map(({ match, score }) => ({ path: match.doc.path, score: Math.round(score * 1000) / 1000, snippets: snippetsOf(match, query) })),
	};
}

/** Up to a few passages around the matches, with each match marked «like this». */
function snippetsOf(match: DocumentMatch, query: ParsedQuery): string[] {
	const { doc } = match;
	const spans = match.bodyPositions
		.flatMap((positions, termIndex) =>
			positions.map((position) => {
				const length = query.required[termIndex]?.tokens.length ?? 1;
				return { start: doc.body[position]?.start ?? 0, end: doc.body[position + length - 1]?.end ?? 0 };
			}),
		)
		.sort((a, b) => a.start - b.start);
	const windows: Array<{ start: number; end: number; spans: Array<{ start: number; end: number }> }> = [];
	for (const span of spans) {
		const last = windows.at(-1);
		if (last && span.start <= last.end) {
			last.end = Math.max(last.end, Math.min(doc.text.length, span.end + SEARCH_SNIPPET_CONTEXT_CHARS));
			if (span.start >= (last.spans.at(-1)?.end ?? 0)) last.spans.push(span);
			continue;
		}
		if (windows.length === SEARCH_SNIPPETS_PER_RESULT) break;
		windows.push({ start: Math.max(0, span.start - SEARCH_SNIPPET_CONTEXT_CHARS), end: Math.min(doc.text.length, span.end + SEARCH_SNIPPET_CONTEXT_CHARS), spans: [span] });
	}
	return windows.map((window) => {
		let text = "";
		let cursor = window.start;
		for (const span of window.spans) {
			text += doc.text.slice(cursor, span.start) + MARK_OPEN + doc.text.slice(span.start, span.end) + MARK_CLOSE;
			cursor = span.end;
		}
		text += doc.text.slice(cursor, window.end);
		const flattened = text.replace(/\s+/g, " ").trim();
		return `${window.start > 0 ? "…" : ""}${flattened}${window.end < doc.text.length ? "…" : ""}`;
	});
}
