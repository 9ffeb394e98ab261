import { KEEP_DISTINCT_TOKENS, SEARCH_SNIPPETS_PER_RESULT, SEARCH_SNIPPET_CONTEXT_CHARS } from "../config/limits";
import type { ParsedQuery } from "./query";
import { tokenize, tokenizeInChunks } from "./text";

/**
 * The search engine: an in-memory inverted index over token ids, with Vault MCP's query semantics
 * on top (every term required, phrases, prefixes, exclusions) and BM25 ranking. Pure: it knows
 * nothing of vaults; callers add and remove documents and pass note text back in for snippets.
 *
 * Documents are stored compactly — one Uint32Array of token ids per field — so 10,000 notes take
 * tens of MiB, not hundreds. A one-off scan builds a throwaway index with the same code, so the
 * scan and the index can only disagree if the index missed an update.
 */

export interface SearchHit {
	path: string;
	score: number;
	snippets: string[];
}

export interface SearchAnswer {
	total: number;
	results: SearchHit[];
}

/** BM25's usual constants; title and heading matches add a fixed weight on top of the body score. */
const BM25_K1 = 1.2;
const BM25_B = 0.75;
const TITLE_WEIGHT = 3;
const HEADING_WEIGHT = 1.5;
const MARK_OPEN = "«";
const MARK_CLOSE = "»";

interface IndexedDocument {
	path: string;
	modified: number;
	title: Uint32Array;
	headings: Uint32Array;
	body: Uint32Array;
	/** Every token id once, kept only for a long body: adding or removing it then costs no pass over all its tokens. */
	distinct?: Uint32Array;
}

/** A document tokenized and waiting to be committed to the index it was prepared by. */
export interface PreparedDocument {
	readonly doc: IndexedDocument;
	/** Every token id of the document once, found while preparing so committing costs no pass over its tokens. */
	readonly distinct: Uint32Array;
}

/**
 * A query term compiled against the dictionary: for each position, a table indexed by token id
 * (1 = accepted). Looking a token up in a typed array is what keeps ranking thousands of
 * matching notes fast.
 */
type CompiledTerm = Uint8Array[];

interface DocumentMatch {
	doc: IndexedDocument;
	bodyPositions: number[][];
	titleHits: boolean[];
	headingHits: boolean[];
}

/**
 * Token ↔ id, with prefix lookups over a sorted view. The view is built on the first lookup and
 * then kept sorted by inserting each new token in place, so a note edited with a new word does
 * not make the next search re-sort the whole dictionary.
 */
class TermDictionary {
	private readonly ids = new Map<string, number>();
	private sorted: string[] | null = null;

	idOf(token: string): number {
		let id = this.ids.get(token);
		if (id === undefined) {
			id = this.ids.size;
			this.ids.set(token, id);
			if (this.sorted) this.sorted.splice(lowerBound(this.sorted, token), 0, token);
		}
		return id;
	}

	get size(): number {
		return this.ids.size;
	}

	lookup(token: string): number | undefined {
		return this.ids.get(token);
	}

	/** Ids of every token starting with `prefix`. */
	withPrefix(prefix: string): Set<number> {
		this.sorted ??= [...this.ids.keys()].sort();
		const sorted = this.sorted;
		const found = new Set<number>();
		for (let index = lowerBound(sorted, prefix); index < sorted.length && (sorted[index] ?? "").startsWith(prefix); index++) {
			const id = this.ids.get(sorted[index] ?? "");
			if (id !== undefined) found.add(id);
		}
		return found;
	}
}

/** The first index in a sorted array whose value is not below `value`. */
function lowerBound(sorted: readonly string[], value: string): number {
	let low = 0;
	let high = sorted.length;
	while (low < high) {
		const middle = (low + high) >> 1;
		if ((sorted[middle] ?? "") < value) low = middle + 1;
		else high = middle;
	}
	return low;
}

export class SearchEngine {
	private readonly dictionary = new TermDictionary();
	private readonly documents = new Map<string, IndexedDocument>();
	/** Token id → paths of the documents containing it in any field. */
	private readonly postings = new Map<number, Set<string>>();
	private totalBodyLength = 0;

	get size(): number {
		return this.documents.size;
	}

	has(path: string): boolean {
		return this.documents.has(path);
	}

	/** Adds or replaces a document. `headings` are the note's heading texts. */
	add(path: string, title: string, modified: number, text: string, headings: readonly string[]): void {
		const steps = this.prepare(path, title, modified, text, headings);
		for (;;) {
			const next = steps.next();
			if (next.done) return this.commit(next.value);
		}
	}

	/**
	 * A document ready to add, tokenized in pausable steps (a huge note's body is tokenized in
	 * chunks); the index is unchanged until `commit`, so searches meanwhile see the old version.
	 */
	*prepare(path: string, title: string, modified: number, text: string, headings: readonly string[]): Generator<void, PreparedDocument, void> {
		const ids = (value: string) => Uint32Array.from(tokenize(value), (token) => this.dictionary.idOf(token.value));
		const body: number[] = [];
		yield* tokenizeInChunks(text, (tokens) => {
			for (const token of tokens) body.push(this.dictionary.idOf(token.value));
		});
		const doc: IndexedDocument = { path, modified, title: ids(title), headings: ids(headings.join("\n")), body: Uint32Array.from(body) };
		const distinctSet = new Set<number>([...doc.title, ...doc.headings]);
		for (const [index, id] of body.entries()) {
			distinctSet.add(id);
			if (index % KEEP_DISTINCT_TOKENS === KEEP_DISTINCT_TOKENS - 1) yield;
		}
		const distinct = Uint32Array.from(distinctSet);
		if (body.length >= KEEP_DISTINCT_TOKENS) doc.distinct = distinct;
		return { doc, distinct };
	}

	/** Adds or replaces a prepared document. */
	commit(prepared: PreparedDocument): void {
		const doc = prepared.doc;
		const path = doc.path;
		this.remove(path);
		this.documents.set(path, doc);
		this.totalBodyLength += doc.body.length;
		for (const id of prepared.distinct) {
			let set = this.postings.get(id);
			if (!set) this.postings.set(id, (set = new Set()));
			set.add(path);
		}
	}

	remove(path: string): void {
		const doc = this.documents.get(path);
		if (!doc) return;
		this.documents.delete(path);
		this.totalBodyLength -= doc.body.length;
		for (const id of distinctIds(doc)) this.postings.get(id)?.delete(path);
	}

	/**
	 * The documents that match the query — among those `include` accepts, or all with null —
	 * ranked, with snippets for the first `limit`. Corpus statistics (size, average length) are
	 * over the accepted documents, so a filtered search ranks the same however the index was built.
	 */
	async search(query: ParsedQuery, include: ((path: string) => boolean) | null, limit: number, readText: (path: string) => Promise<string>): Promise<SearchAnswer> {
		const required = query.required.map((term) => this.compile(term.tokens));
		const excluded = query.excluded.map((term) => this.compile(term.tokens));
		let corpusSize = this.documents.size;
		let totalLength = this.totalBodyLength;
		if (include) {
			corpusSize = 0;
			totalLength = 0;
			for (const doc of this.documents.values()) {
				if (!include(doc.path)) continue;
				corpusSize++;
				totalLength += doc.body.length;
			}
		}
		if (required.length === 0 || required.some((term) => term === null)) return { total: 0, results: [] };
		const compiled = required as Array<{ table: CompiledTerm; idsByPosition: number[][] }>;
		const terms = compiled.map((term) => term.table);
		const exclusions = excluded.flatMap((term) => (term === null ? [] : [term.table]));
		const matches: DocumentMatch[] = [];
		for (const path of this.candidates(compiled)) {
			const doc = this.documents.get(path);
			if (!doc || (include && !include(path))) continue;
			if (exclusions.some((term) => positionsIn(doc.body, term).length > 0 || positionsIn(doc.title, term).length > 0)) continue;
			const match = matchDocument(doc, terms);
			if (match) matches.push(match);
		}
		const ranked = rank(matches, corpusSize, totalLength / Math.max(1, corpusSize));
		const top = ranked.slice(0, limit);
		const results = await Promise.all(
			top.map(async ({ match, score }) => ({
				path: match.doc.path,
				score: Math.round(score * 1000) / 1000,
				snippets: snippetsOf(await readText(match.doc.path), match, query),
			})),
		);
		return { total: ranked.length, results };
	}

	/** Each position's accepted ids; null when some position can match nothing (the term cannot match). */
	private compile(tokens: readonly string[]): { table: CompiledTerm; idsByPosition: number[][] } | null {
		const table: CompiledTerm = [];
		const idsByPosition: number[][] = [];
		for (const [index, token] of tokens.entries()) {
			const ids = index === tokens.length - 1 ? [...this.dictionary.withPrefix(token)] : optional(this.dictionary.lookup(token));
			if (ids.length === 0) return null;
			const accepted = new Uint8Array(this.dictionary.size);
			for (const id of ids) accepted[id] = 1;
			table.push(accepted);
			idsByPosition.push(ids);
		}
		return { table, idsByPosition };
	}

	/** Documents holding some accepted token at every position of every required term: a superset of the matches. */
	private candidates(terms: ReadonlyArray<{ idsByPosition: number[][] }>): Set<string> {
		const perPosition = terms.flatMap((term) =>
			term.idsByPosition.map((ids) => {
				if (ids.length === 1) return this.postings.get(ids[0] ?? -1) ?? new Set<string>();
				const paths = new Set<string>();
				for (const id of ids) for (const path of this.postings.get(id) ?? []) paths.add(path);
				return paths;
			}),
		);
		perPosition.sort((a, b) => a.size - b.size);
		const [smallest, ...rest] = perPosition;
		const result = new Set<string>();
		for (const path of smallest ?? []) if (rest.every((set) => set.has(path))) result.add(path);
		return result;
	}
}

/** Every token id a document holds, once. */
function distinctIds(doc: IndexedDocument): Iterable<number> {
	if (doc.distinct) return doc.distinct;
	const ids = new Set<number>();
	for (const field of [doc.title, doc.headings, doc.body]) for (const id of field) ids.add(id);
	return ids;
}

function optional(id: number | undefined): number[] {
	return id === undefined ? [] : [id];
}

/** Start indexes in `tokens` where the term's positions match in a row. */
function positionsIn(tokens: Uint32Array, term: CompiledTerm): number[] {
	const positions: number[] = [];
	const length = term.length;
	const first = term[0];
	if (!first) return positions;
	const last = tokens.length - length;
	for (let start = 0; start <= last; start++) {
		if (first[tokens[start] as number] !== 1) continue;
		let matches = true;
		for (let offset = 1; offset < length && matches; offset++) matches = term[offset]?.[tokens[start + offset] as number] === 1;
		if (matches) positions.push(start);
	}
	return positions;
}

function matchDocument(doc: IndexedDocument, terms: readonly CompiledTerm[]): DocumentMatch | null {
	const match: DocumentMatch = { doc, bodyPositions: [], titleHits: [], headingHits: [] };
	for (const term of terms) {
		const body = positionsIn(doc.body, term);
		const title = positionsIn(doc.title, term).length > 0;
		if (body.length === 0 && !title) return null;
		match.bodyPositions.push(body);
		match.titleHits.push(title);
		match.headingHits.push(positionsIn(doc.headings, term).length > 0);
	}
	return match;
}

/** BM25 over the body, title and heading matches weighted up; ties go to the most recently modified. */
function rank(matches: readonly DocumentMatch[], corpusSize: number, averageLength: number): Array<{ match: DocumentMatch; score: number }> {
	const termCount = matches[0]?.bodyPositions.length ?? 0;
	const documentFrequency = Array.from({ length: termCount }, (_, termIndex) => matches.filter((match) => (match.bodyPositions[termIndex]?.length ?? 0) > 0 || match.titleHits[termIndex]).length);
	const scored = matches.map((match) => {
		let score = 0;
		const length = Math.max(1, match.doc.body.length);
		for (let termIndex = 0; termIndex < termCount; termIndex++) {
			const df = documentFrequency[termIndex] ?? 0;
			const idf = Math.log(1 + (corpusSize - df + 0.5) / (df + 0.5));
			const tf = match.bodyPositions[termIndex]?.length ?? 0;
			const body = (tf * (BM25_K1 + 1)) / (tf + BM25_K1 * (1 - BM25_B + (BM25_B * length) / Math.max(1, averageLength)));
			score += idf * (body + (match.titleHits[termIndex] ? TITLE_WEIGHT : 0) + (match.headingHits[termIndex] ? HEADING_WEIGHT : 0));
		}
		return { match, score };
	});
	return scored.sort((a, b) => b.score - a.score || b.match.doc.modified - a.match.doc.modified || a.match.doc.path.localeCompare(b.match.doc.path));
}

/** Up to a few passages around the matches in the note's current text, each match marked «like this». */
function snippetsOf(text: string, match: DocumentMatch, query: ParsedQuery): string[] {
	const tokens = tokenize(text);
	// The text may have changed since it was indexed; offsets past its end are dropped.
	const spans = match.bodyPositions
		.flatMap((positions, termIndex) =>
			positions.map((position) => {
				const length = query.required[termIndex]?.tokens.length ?? 1;
				return { start: tokens[position]?.start ?? -1, end: tokens[position + length - 1]?.end ?? -1 };
			}),
		)
		.filter((span) => span.start >= 0 && span.end > span.start)
		.sort((a, b) => a.start - b.start);
	const windows: Array<{ start: number; end: number; spans: Array<{ start: number; end: number }> }> = [];
	for (const span of spans) {
		const last = windows.at(-1);
		if (last && span.start <= last.end) {
			last.end = Math.max(last.end, Math.min(text.length, span.end + SEARCH_SNIPPET_CONTEXT_CHARS));
			if (span.start >= (last.spans.at(-1)?.end ?? 0)) last.spans.push(span);
			continue;
		}
		if (windows.length === SEARCH_SNIPPETS_PER_RESULT) break;
		windows.push({ start: Math.max(0, span.start - SEARCH_SNIPPET_CONTEXT_CHARS), end: Math.min(text.length, span.end + SEARCH_SNIPPET_CONTEXT_CHARS), spans: [span] });
	}
	return windows.map((window) => {
		let marked = "";
		let cursor = window.start;
		for (const span of window.spans) {
			marked += text.slice(cursor, span.start) + MARK_OPEN + text.slice(span.start, span.end) + MARK_CLOSE;
			cursor = span.end;
		}
		marked += text.slice(cursor, window.end);
		return `${window.start > 0 ? "…" : ""}${marked.replace(/\s+/g, " ").trim()}${window.end < text.length ? "…" : ""}`;
	});
}
