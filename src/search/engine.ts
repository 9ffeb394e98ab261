import { MAX_WORD_FORM_CANDIDATES, SEARCH_SNIPPETS_PER_RESULT, SEARCH_SNIPPET_CONTEXT_CHARS, SEARCH_SNIPPET_MAX_CHARS, SNIPPET_SEARCH_MAX_CHARS, SNIPPET_TOKENIZE_CHUNK_CHARS, SOFT_AND_MIN_WORD_SHARE } from "../config/limits";
import { isPrefixWord, type ParsedQuery, type QueryTerm } from "./query";
import { tokenChunks, tokenize, tokenizeInChunks, type Token } from "./text";
import { PackedIdWriter, unpackIds } from "./packedIds";
import { DEFAULT_SEARCH_LANGUAGE, stemmerFor, type Stemmer } from "./stemmers";

/**
 * The search engine: an inverted index whose postings carry each note's term frequency, with
 * Vault MCP's query semantics on top (every term wanted, phrases, word forms, prefixes,
 * exclusions) and ranking by evidence strength, then BM25. Pure: it knows nothing of vaults; callers add and remove documents and pass note
 * text back in for snippets.
 *
 * A search costs what its answer costs, not what the corpus costs: candidates come from
 * intersecting postings (rarest first), BM25 and the exact total come from the postings' term
 * frequencies, a heap keeps the top results, and only phrases and the top results' snippets look
 * at positions. A one-off scan builds a throwaway index with the same code, so the scan and the
 * index can only disagree if the index missed an update.
 */

export interface SearchHit {
	path: string;
	score: number;
	/** The query's words and phrases (as typed, stop words left out) that this note holds, in any form. */
	matched_words: string[];
	snippets: string[];
}

/**
 * Asked now and then while a search works: a promise to wait on before going on (the caller's
 * other work runs meanwhile), or null to go on at once. A search that waited re-checks the index
 * and starts again if it changed meanwhile.
 */
export type SearchPause = () => Promise<void> | null;

/** A search pauses only between this many candidates (a power of two less one: a mask), so asking costs nothing. */
const PAUSE_CHECK_MASK = 255;
/** A search that found the index changed across its pauses this many times runs its last attempt in one piece. */
const PAUSED_SEARCH_ATTEMPTS = 3;

export interface SearchAnswer {
	total: number;
	results: SearchHit[];
}

/** BM25's usual constants; title and heading matches add a fixed weight on top of the body score. */
const BM25_K1 = 1.2;
const BM25_B = 0.75;
const TITLE_WEIGHT = 3;
const HEADING_WEIGHT = 1.5;
/** Weight of the share of a title that the query covers, times the query terms' mean idf. */
const TITLE_COVERAGE_WEIGHT = 3;
/**
 * How much a match counts by its evidence, within notes of the same rank tier: the word as typed,
 * another form of it (same stem), a longer word it starts. The tier already puts notes holding
 * more words as typed or in another form above notes that only hold words they start.
 */
const FORM_MATCH_WEIGHT = 0.7;
const PREFIX_MATCH_WEIGHT = 0.3;
/** Shortest query word whose other forms are looked for: `is` and `ga` have none worth the look. */
const MIN_FORM_WORD_CHARS = 3;
/** Title tiers: no query word in the title or an alias, some, all, the whole name is the query's words. */
const TITLE_TIER_SOME = 1;
const TITLE_TIER_ALL = 2;
const TITLE_TIER_WHOLE = 3;
const MARK_OPEN = "«";
const MARK_CLOSE = "»";

/**
 * A posting's value packs four facts about one term in one note: how often it is in the body
 * (low 24 bits; a searchable body holds under 3 million tokens), how many of the title's words
 * it is (6 bits, at most 63 counted), whether it is in the title, whether it is in a heading. The
 * title count lets a search weigh how much of a title the query covers from the postings alone.
 */
const BODY_COUNT = 0x00ffffff;
const TITLE_COUNT_SHIFT = 24;
const TITLE_COUNT_MAX = 0x3f;
const IN_TITLE = 0x40000000;
const IN_HEADING = 0x80000000;
/** Longest title counted, in words, for the share of it a query covers. */
const TITLE_LENGTH_MAX = 0xff;
const FIRST_POSTINGS_CAPACITY = 2;
/** Words of a phrase checked in one pass over a packed body (one bit each of a 32-bit state); a longer phrase unpacks the body first. */
const MAX_PHRASE_WORDS = 32;

/** One note's tokens by field, as ids: kept for phrase checks and for removing the note. */
interface IndexedDocument {
	path: string;
	modified: number;
	title: Uint32Array;
	/** The note's aliases (frontmatter `aliases`), each ranked like a title. */
	aliases: Uint32Array[];
	headings: Uint32Array;
	/** The body's token ids, packed (packedIds.ts). */
	body: Uint8Array;
	bodyLength: number;
}

/** A document tokenized and waiting to be committed to the index it was prepared by. */
export interface PreparedDocument {
	readonly doc: IndexedDocument;
}

/** The notes holding one term, in slot order, each with its packed value. */
interface Postings {
	slots: Uint32Array;
	values: Uint32Array;
	length: number;
}

/** A table indexed by token id (1 = accepted) for each position of a phrase. */
type CompiledPhrase = Uint8Array[];

/**
 * A wanted term by the strength of its evidence. `any` finds the notes (the word, its forms, the
 * longer words it starts; a phrase's notes); `exact` and `forms` tell, per note, how it matched.
 * A phrase has neither: it matches as typed or not at all.
 */
interface TermEvidence {
	any: ResolvedTerm;
	exact: ResolvedTerm | null;
	forms: ResolvedTerm | null;
	/** The ids of the word as typed and its forms; null for a phrase. */
	strongIds: ReadonlySet<number> | null;
}

/**
 * A required or excluded term resolved against the postings: the notes that may hold it, in slot
 * order, with packed values. For a one-word term they are exact; for a phrase they are the notes
 * holding every word somewhere (values unknown), to be checked against `phrase`.
 */
interface ResolvedTerm {
	slots: Uint32Array;
	values: Uint32Array;
	length: number;
	phrase: CompiledPhrase | null;
	/** For a phrase of at most MAX_PHRASE_WORDS words: by token id, bit i set if the id is accepted at position i. */
	phraseMasks?: Uint32Array;
}

/**
 * Token ↔ id, with prefix lookups over a sorted view. The view is built on the first lookup and
 * then kept sorted by inserting each new token in place, so a note edited with a new word does
 * not make the next search re-sort the whole dictionary.
 */
class TermDictionary {
	private readonly ids = new Map<string, number>();
	private sorted: string[] | null = null;

	constructor(private stem: Stemmer | null) {}

	/** Changes how word forms are found; the dictionary and the index are unchanged. */
	setStemmer(stem: Stemmer | null): void {
		this.stem = stem;
	}

	get stemmer(): Stemmer | null {
		return this.stem;
	}

	/**
	 * Ids of the other forms of `word` (same stem, not the word itself). Stemmers strip endings, so
	 * a form starts with the stem less its last letter (`happi` for `happy`): only those words are
	 * stemmed, at most MAX_WORD_FORM_CANDIDATES of them.
	 */
	formsOf(word: string, stem: Stemmer | null = this.stem): number[] {
		if (!stem || word.length < MIN_FORM_WORD_CHARS) return [];
		const target = stem(word);
		const start = target.slice(0, Math.max(2, target.length - 1));
		if (start.length < 2) return [];
		this.sorted ??= [...this.ids.keys()].sort();
		const sorted = this.sorted;
		const found: number[] = [];
		const end = Math.min(sorted.length, lowerBound(sorted, start) + MAX_WORD_FORM_CANDIDATES);
		for (let index = lowerBound(sorted, start); index < end; index++) {
			const token = sorted[index] ?? "";
			if (!token.startsWith(start)) break;
			if (token === word || stem(token) !== target) continue;
			const id = this.ids.get(token);
			if (id !== undefined) found.push(id);
		}
		return found;
	}

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
	withPrefix(prefix: string): number[] {
		this.sorted ??= [...this.ids.keys()].sort();
		const sorted = this.sorted;
		const found: number[] = [];
		for (let index = lowerBound(sorted, prefix); index < sorted.length && (sorted[index] ?? "").startsWith(prefix); index++) {
			const id = this.ids.get(sorted[index] ?? "");
			if (id !== undefined) found.push(id);
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

/** The first index in slots[from, length) holding a slot not below `slot`: galloping, so a rare term skips through a common one. */
function seek(slots: Uint32Array, length: number, from: number, slot: number): number {
	if (from >= length || (slots[from] as number) >= slot) return from;
	let step = 1;
	let low = from;
	let high = from + 1;
	while (high < length && (slots[high] as number) < slot) {
		low = high;
		step *= 2;
		high = from + step;
	}
	if (high > length) high = length;
	while (low < high) {
		const middle = (low + high) >>> 1;
		if ((slots[middle] as number) < slot) low = middle + 1;
		else high = middle;
	}
	return low;
}

function growUint32(array: Uint32Array, minimum: number): Uint32Array {
	if (array.length >= minimum) return array;
	const grown = new Uint32Array(Math.max(minimum, array.length * 2));
	grown.set(array);
	return grown;
}

function growUint8(array: Uint8Array, minimum: number): Uint8Array {
	if (array.length >= minimum) return array;
	const grown = new Uint8Array(Math.max(minimum, array.length * 2));
	grown.set(array);
	return grown;
}

function growFloat64(array: Float64Array, minimum: number): Float64Array {
	if (array.length >= minimum) return array;
	const grown = new Float64Array(Math.max(minimum, array.length * 2));
	grown.set(array);
	return grown;
}

/** A ranked candidate: compared by tier (search() says what it holds), score, the more recently modified, then path. */
interface Ranked {
	slot: number;
	score: number;
	tier: number;
	/** Per wanted term, 1 if the note holds it: copied when the candidate is kept. */
	matched?: Uint8Array;
}

export class SearchEngine {
	private readonly dictionary: TermDictionary;
	/** Term id → the notes holding it. */
	private readonly postings: Array<Postings | undefined> = [];
	/**
	 * Each note has a slot; a replaced note gets a new, higher one, so postings stay sorted by
	 * appending. Slot-indexed: the document, its body length and modified time.
	 */
	private readonly slotOfPath = new Map<string, number>();
	private readonly documents: Array<IndexedDocument | undefined> = [];
	private bodyLengths: Uint32Array = new Uint32Array(64);
	private titleLengths: Uint8Array = new Uint8Array(64);
	private modifiedTimes: Float64Array = new Float64Array(64);
	private nextSlot = 0;
	private totalBodyLength = 0;
	/** Scratch for counting a note's tokens while committing and for merging a prefix's postings; all zero between uses. */
	private counts: Uint32Array = new Uint32Array(256);
	private merged: Uint32Array = new Uint32Array(64);
	private unpacked: Uint32Array = new Uint32Array(256);
	/** Scratch for a search's candidates and their packed values, reused: a common word has thousands. */
	private candidateSlots: Uint32Array = new Uint32Array(64);
	private candidateValues: Uint32Array = new Uint32Array(64);
	/** Bumped by every change to the index, so a search that paused knows whether its slots still mean the same notes. */
	private generation = 0;

	/** `stem` finds word forms (stemmers.ts); null matches words as typed and prefixes only. */
	constructor(stem: Stemmer | null = stemmerFor(DEFAULT_SEARCH_LANGUAGE)) {
		this.dictionary = new TermDictionary(stem);
	}

	/** Changes how word forms are found, from the next search on: the index itself is unchanged. */
	setStemmer(stem: Stemmer | null): void {
		this.dictionary.setStemmer(stem);
	}

	get size(): number {
		return this.slotOfPath.size;
	}

	has(path: string): boolean {
		return this.slotOfPath.has(path);
	}

	/** Adds or replaces a document. `headings` are the note's heading texts, `aliases` its other names. */
	add(path: string, title: string, modified: number, text: string, headings: readonly string[], aliases: readonly string[] = []): void {
		const steps = this.prepare(path, title, modified, text, headings, aliases);
		for (;;) {
			const next = steps.next();
			if (next.done) return this.commit(next.value);
		}
	}

	/**
	 * A document ready to add, tokenized in pausable steps (a huge note's body is tokenized in
	 * chunks); the index is unchanged until `commit`, so searches meanwhile see the old version.
	 */
	*prepare(path: string, title: string, modified: number, text: string, headings: readonly string[], aliases: readonly string[] = []): Generator<void, PreparedDocument, void> {
		const ids = (value: string) => Uint32Array.from(tokenize(value), (token) => this.dictionary.idOf(token.value));
		const body = new PackedIdWriter(Math.min(1 << 16, text.length >> 2));
		yield* tokenizeInChunks(text, (tokens) => {
			for (const token of tokens) body.write(this.dictionary.idOf(token.value));
		});
		const aliasIds = aliases.map(ids).filter((name) => name.length > 0);
		return { doc: { path, modified, title: ids(title), aliases: aliasIds, headings: ids(headings.join("\n")), body: body.finish(), bodyLength: body.count } };
	}

	/** A document's body token ids, in scratch that the next call overwrites. */
	private unpackBody(doc: IndexedDocument): Uint32Array {
		this.unpacked = growUint32(this.unpacked, doc.bodyLength);
		unpackIds(doc.body, this.unpacked);
		return this.unpacked;
	}

	/** Adds or replaces a prepared document. */
	commit(prepared: PreparedDocument): void {
		const doc = prepared.doc;
		this.remove(doc.path);
		this.generation++;
		const slot = this.nextSlot++;
		this.slotOfPath.set(doc.path, slot);
		this.documents[slot] = doc;
		this.bodyLengths = growUint32(this.bodyLengths, slot + 1);
		this.modifiedTimes = growFloat64(this.modifiedTimes, slot + 1);
		this.bodyLengths[slot] = doc.bodyLength;
		this.titleLengths = growUint8(this.titleLengths, slot + 1);
		this.titleLengths[slot] = Math.min(TITLE_LENGTH_MAX, doc.title.length);
		this.modifiedTimes[slot] = doc.modified;
		this.totalBodyLength += doc.bodyLength;
		const counts = (this.counts = growUint32(this.counts, this.dictionary.size));
		const touched: number[] = [];
		const body = this.unpackBody(doc);
		for (let index = 0; index < doc.bodyLength; index++) {
			const id = body[index] as number;
			const value = counts[id] as number;
			if (value === 0) touched.push(id);
			if (value < BODY_COUNT) counts[id] = value + 1;
		}
		for (const id of doc.title) {
			if (counts[id] === 0) touched.push(id);
			counts[id] = mergeValues(counts[id] as number, packValue(0, 1, false));
		}
		// An alias finds and ranks like the title, but is not counted as title words: the share of
		// the title a query covers stays about the title.
		for (const alias of doc.aliases) {
			for (const id of alias) {
				if (counts[id] === 0) touched.push(id);
				counts[id] = ((counts[id] as number) | IN_TITLE) >>> 0;
			}
		}
		for (const id of doc.headings) {
			if (counts[id] === 0) touched.push(id);
			counts[id] = ((counts[id] as number) | IN_HEADING) >>> 0;
		}
		for (const id of touched) {
			let list = this.postings[id];
			if (!list) this.postings[id] = list = { slots: new Uint32Array(FIRST_POSTINGS_CAPACITY), values: new Uint32Array(FIRST_POSTINGS_CAPACITY), length: 0 };
			if (list.length === list.slots.length) {
				list.slots = growUint32(list.slots, list.length + 1);
				list.values = growUint32(list.values, list.length + 1);
			}
			list.slots[list.length] = slot;
			list.values[list.length] = counts[id] as number;
			list.length++;
			counts[id] = 0;
		}
	}

	/**
	 * Gives back the room postings grew into while the index was built (lists double as they
	 * grow, so about a quarter of it stood empty); a later note grows a list again as needed.
	 */
	compact(): void {
		this.generation++;
		for (const list of this.postings) {
			if (!list || list.length === list.slots.length) continue;
			list.slots = list.slots.slice(0, list.length);
			list.values = list.values.slice(0, list.length);
		}
	}

	remove(path: string): void {
		const slot = this.slotOfPath.get(path);
		if (slot === undefined) return;
		this.generation++;
		const doc = this.documents[slot];
		this.slotOfPath.delete(path);
		this.documents[slot] = undefined;
		if (!doc) return;
		this.totalBodyLength -= doc.bodyLength;
		const counts = (this.counts = growUint32(this.counts, this.dictionary.size));
		const touched: number[] = [];
		for (const field of [this.unpackBody(doc).subarray(0, doc.bodyLength), doc.title, doc.headings, ...doc.aliases]) {
			for (const id of field) {
				if (counts[id] === 0) touched.push(id);
				counts[id] = 1;
			}
		}
		for (const id of touched) {
			counts[id] = 0;
			const list = this.postings[id];
			if (!list) continue;
			const at = seek(list.slots, list.length, 0, slot);
			if (at >= list.length || list.slots[at] !== slot) continue;
			list.slots.copyWithin(at, at + 1, list.length);
			list.values.copyWithin(at, at + 1, list.length);
			list.length--;
		}
	}

	/**
	 * The documents that match the query — among those `include` accepts, or all with null —
	 * ranked, with snippets for the first `limit`. Corpus statistics (size, average length,
	 * document frequencies) are over the accepted documents, so a filtered search ranks the same
	 * however the index was built.
	 *
	 * Which notes: those holding every wanted term (the word as typed, another form of it, or a
	 * longer word it starts) when they fill the page; otherwise also those holding at least
	 * SOFT_AND_MIN_WORD_SHARE of the terms, so one everyday word a note lacks does not hide it.
	 * Ranked by, in order: how many terms a note holds as typed or in another form (a word's
	 * extensions fill, never outrank); its title or an alias (the whole name is the query's words,
	 * then it holds all of them, then some); how many terms it holds as typed; how many it holds
	 * in any way; BM25 with title and heading weights, each match weighed by its evidence.
	 */
	async search(query: ParsedQuery, include: ((path: string) => boolean) | null, limit: number, readText: (path: string) => Promise<string>, pause: SearchPause | null = null): Promise<SearchAnswer> {
		for (let attempt = 1; ; attempt++) {
			const ranked = await this.rank(query, include, limit, attempt < PAUSED_SEARCH_ATTEMPTS ? pause : null);
			if (ranked === null) continue;
			const results: SearchHit[] = [];
			// One note's snippets at a time, pausing between them: fifty long notes are not one long piece.
			for (const hit of ranked.hits) {
				const waiting = pause?.();
				if (waiting) await waiting;
				results.push({ ...hit, snippets: snippetsOf(await readText(hit.path), query, ranked.stem) });
			}
			return { total: ranked.total, results };
		}
	}

	/**
	 * The ranked top `limit` without snippets (see `search`), pausing on `pause` between candidates;
	 * null when the index changed while it paused (its slots may name other notes now).
	 */
	private async rank(query: ParsedQuery, include: ((path: string) => boolean) | null, limit: number, pause: SearchPause | null): Promise<{ total: number; hits: Array<Omit<SearchHit, "snippets">>; stem: Stemmer | null } | null> {
		const generation = this.generation;
		const accepted = include ? this.acceptedSlots(include) : null;
		const corpusSize = accepted ? accepted.count : this.slotOfPath.size;
		const totalLength = accepted ? accepted.totalLength : this.totalBodyLength;
		if (query.required.length === 0) return { total: 0, hits: [], stem: null };
		// A word typed twice counts once, in the score and in how much of a title the query covers.
		const firstSight = onceEach();
		const terms = query.required.filter(firstSight);
		// Stemmed once per distinct word in this search: snippets meet the same words again and again.
		const stem = memoized(this.dictionary.stemmer);
		const evidence = terms.map((term) => this.resolveEvidence(term.tokens, stem));
		const wanted = evidence.map((term) => term.any);
		// An exclusion typed many times is resolved once: each costs a pass over its postings.
		const exclusions = query.excluded.filter(onceEach());
		const excludedWords = this.notesHoldingAny(exclusions.filter((term) => term.tokens.length === 1).map((term) => term.tokens[0] ?? ""));
		const excludedPhrases = exclusions.filter((term) => term.tokens.length > 1).flatMap((term) => optional(this.resolve(term.tokens)));
		const optionalTerms = query.optional.filter(firstSight).flatMap((term) => optional(this.resolveWhole(term.tokens)));
		const termCount = terms.length;
		let gathered = wanted.every((term) => term.length > 0) ? this.intersect(wanted, excludedWords, excludedPhrases, accepted?.slots ?? null) : null;
		if (termCount > 1 && (gathered === null || gathered.total < limit)) {
			gathered = this.gatherMost(wanted, Math.max(1, Math.ceil(termCount * SOFT_AND_MIN_WORD_SHARE)), excludedWords, excludedPhrases, accepted?.slots ?? null);
		}
		if (gathered === null) return { total: 0, hits: [], stem };
		const { total } = gathered;
		// Another search may run while this one pauses: the candidates leave the shared scratch first.
		const slots = pause ? gathered.slots.slice(0, total) : gathered.slots;
		const values = pause ? gathered.values.slice(0, total * termCount) : gathered.values;
		const frequency = (term: ResolvedTerm) => (accepted ? countAccepted(term, accepted.slots) : term.length);
		const idfOf = (count: number) => Math.log(1 + (corpusSize - count + 0.5) / (count + 0.5));
		// A word's rarity is that of the word and its forms, when a note holds them; else of what it starts.
		const requiredIdf = evidence.map((term) => {
			const strong = (term.exact ? frequency(term.exact) : 0) + (term.forms ? frequency(term.forms) : 0);
			return idfOf(strong > 0 ? strong : frequency(term.any));
		});
		const optionalIdf = optionalTerms.map((term) => idfOf(frequency(term)));
		const optionalCursors = new Array<number>(optionalTerms.length).fill(0);
		const exactCursors = new Array<number>(termCount).fill(0);
		const formCursors = new Array<number>(termCount).fill(0);
		const optionalIds = new Set<number>(query.optional.flatMap((term) => (term.tokens.length === 1 ? optional(this.dictionary.lookup(term.tokens[0] ?? "")) : [])));
		// A title that is mostly the query's words beats one that merely holds them: "Dataview Format" over "Searches - Dataview".
		const titleCoverageWeight = (TITLE_COVERAGE_WEIGHT * requiredIdf.reduce((sum, value) => sum + value, 0)) / termCount;
		const averageLength = Math.max(1, totalLength / Math.max(1, corpusSize));
		const top: Ranked[] = [];
		const matched = new Uint8Array(termCount);
		const bodyLengths = this.bodyLengths;
		const titleLengths = this.titleLengths;
		// BM25's length normalisation, k1 · (1 − b + b · length / average), as base + scale · length.
		const normBase = BM25_K1 * (1 - BM25_B);
		const normScale = (BM25_K1 * BM25_B) / averageLength;
		for (let index = 0; index < total; index++) {
			if (pause && (index & PAUSE_CHECK_MASK) === PAUSE_CHECK_MASK) {
				const waiting = pause();
				if (waiting) {
					await waiting;
					if (this.generation !== generation) return null;
				}
			}
			const slot = slots[index] as number;
			const norm = normBase + normScale * Math.max(1, bodyLengths[slot] as number);
			let score = 0;
			let titleWords = 0;
			let strong = 0;
			let exact = 0;
			let held = 0;
			let inTitle = false;
			for (let termIndex = 0; termIndex < termCount; termIndex++) {
				matched[termIndex] = 0;
				const anyValue = values[index * termCount + termIndex] as number;
				if (anyValue === 0) continue;
				const term = evidence[termIndex] as TermEvidence;
				let value = anyValue;
				let weight = PREFIX_MATCH_WEIGHT;
				if (term.strongIds === null) {
					// A phrase: matched as typed.
					weight = 1;
					exact++;
				} else {
					const exactValue = term.exact ? valueAt(term.exact, exactCursors, termIndex, slot) : 0;
					const formValue = exactValue === 0 && term.forms ? valueAt(term.forms, formCursors, termIndex, slot) : 0;
					if (exactValue !== 0) {
						value = exactValue;
						weight = 1;
						exact++;
					} else if (formValue !== 0) {
						value = formValue;
						weight = FORM_MATCH_WEIGHT;
					}
				}
				if (weight !== PREFIX_MATCH_WEIGHT) strong++;
				held++;
				matched[termIndex] = 1;
				score += (requiredIdf[termIndex] as number) * weight * fieldScore(value, norm);
				titleWords += titleCount(value);
				if (value & IN_TITLE) inTitle = true;
			}
			for (let termIndex = 0; termIndex < optionalTerms.length; termIndex++) {
				const term = optionalTerms[termIndex] as ResolvedTerm;
				const at = seek(term.slots, term.length, optionalCursors[termIndex] as number, slot);
				optionalCursors[termIndex] = at;
				if (at >= term.length || term.slots[at] !== slot) continue;
				const value = term.values[at] as number;
				score += (optionalIdf[termIndex] as number) * fieldScore(value, norm);
				titleWords += titleCount(value);
			}
			const coverage = titleWords === 0 ? 0 : Math.min(1, titleWords / (titleLengths[slot] as number));
			const titleTier = inTitle ? this.titleTier(slot, evidence, optionalIds) : 0;
			// One number for the tiers, compared before the score: terms held as typed or in another
			// form, then the title tier, then terms held as typed, then terms held at all.
			const tier = ((strong * (TITLE_TIER_WHOLE + 1) + titleTier) * (termCount + 1) + exact) * (termCount + 1) + held;
			this.offer(top, limit, slot, score + coverage * titleCoverageWeight, tier, matched);
		}
		top.sort((a, b) => this.compare(b, a));
		const hits = top.map(({ slot, score, matched: held }) => {
			const path = this.documents[slot]?.path ?? "";
			const matchedWords = terms.filter((_, termIndex) => held?.[termIndex] === 1).map((term) => term.source);
			return { path, score: Math.round(score * 1000) / 1000, matched_words: matchedWords };
		});
		return { total, hits, stem };
	}

	/**
	 * How a note's title or one of its aliases answers the query: TITLE_TIER_WHOLE when a name is
	 * nothing but the query's words (stop words included) and holds every term, TITLE_TIER_ALL
	 * when it holds every term, TITLE_TIER_SOME when it holds some, 0 otherwise. Words count as
	 * typed or in another form; a word's extensions do not make a title match.
	 */
	private titleTier(slot: number, evidence: readonly TermEvidence[], optionalIds: ReadonlySet<number>): number {
		const doc = this.documents[slot];
		if (!doc) return 0;
		const holds = (name: Uint32Array, term: TermEvidence) => {
			if (term.strongIds) {
				for (const id of name) if (term.strongIds.has(id)) return true;
				return false;
			}
			return term.any.phrase !== null && countPhrase(name, term.any.phrase) > 0;
		};
		const isQueryWord = (id: number) => optionalIds.has(id) || evidence.some((term) => (term.strongIds ? term.strongIds.has(id) : (term.any.phrase ?? []).some((position) => position[id] === 1)));
		let best = 0;
		for (const name of [doc.title, ...doc.aliases]) {
			let held = 0;
			for (const term of evidence) if (holds(name, term)) held++;
			if (held === 0) continue;
			const tier = held < evidence.length ? TITLE_TIER_SOME : name.every(isQueryWord) ? TITLE_TIER_WHOLE : TITLE_TIER_ALL;
			if (tier > best) best = tier;
			if (best === TITLE_TIER_WHOLE) break;
		}
		return best;
	}

	/** The accepted documents by slot (1 = accepted), with their count and total body length. */
	private acceptedSlots(include: (path: string) => boolean): { slots: Uint8Array; count: number; totalLength: number } {
		const slots = new Uint8Array(this.nextSlot);
		let count = 0;
		let totalLength = 0;
		for (const [path, slot] of this.slotOfPath) {
			if (!include(path)) continue;
			slots[slot] = 1;
			count++;
			totalLength += this.bodyLengths[slot] as number;
		}
		return { slots, count, totalLength };
	}

	/** Positive when `a` ranks above `b`: a whole-title match, then higher score, then the more recently modified, then by path. */
	private compare(a: Ranked, b: Ranked): number {
		if (a.tier !== b.tier) return a.tier - b.tier;
		if (a.score !== b.score) return a.score - b.score;
		const modified = (this.modifiedTimes[a.slot] as number) - (this.modifiedTimes[b.slot] as number);
		if (modified !== 0) return modified;
		return (this.documents[b.slot]?.path ?? "").localeCompare(this.documents[a.slot]?.path ?? "");
	}

	/** Keeps the best `limit` candidates in a heap whose root is the worst of them. */
	private offer(heap: Ranked[], limit: number, slot: number, score: number, tier: number, matched?: Uint8Array): void {
		if (limit <= 0) return;
		const swap = (a: number, b: number) => {
			const kept = heap[a] as Ranked;
			heap[a] = heap[b] as Ranked;
			heap[b] = kept;
		};
		if (heap.length < limit) {
			heap.push({ slot, score, tier, matched: matched?.slice() });
			let index = heap.length - 1;
			while (index > 0) {
				const parent = (index - 1) >> 1;
				if (this.compare(heap[parent] as Ranked, heap[index] as Ranked) <= 0) break;
				swap(parent, index);
				index = parent;
			}
			return;
		}
		// Most candidates of a common word lose to the worst kept one on tier or score alone: no object for them.
		const worstKept = heap[0] as Ranked;
		if (tier < worstKept.tier || (tier === worstKept.tier && score < worstKept.score)) return;
		const candidate: Ranked = { slot, score, tier };
		if (this.compare(candidate, worstKept) <= 0) return;
		candidate.matched = matched?.slice();
		heap[0] = candidate;
		let index = 0;
		for (;;) {
			const left = index * 2 + 1;
			const right = left + 1;
			let worst = index;
			if (left < heap.length && this.compare(heap[left] as Ranked, heap[worst] as Ranked) < 0) worst = left;
			if (right < heap.length && this.compare(heap[right] as Ranked, heap[worst] as Ranked) < 0) worst = right;
			if (worst === index) return;
			swap(worst, index);
			index = worst;
		}
	}

	/**
	 * The notes holding every required term, no excluded word (`excludedWords`, by slot: 1 = holds
	 * one; null: none) and no excluded phrase, accepted (null: all), in slot
	 * order, with each term's packed value (row-major: one row of `required.length` per note), in
	 * scratch arrays that the next search overwrites.
	 */
	private intersect(required: readonly ResolvedTerm[], excludedWords: Uint8Array | null, excluded: readonly ResolvedTerm[], accepted: Uint8Array | null): { slots: Uint32Array; values: Uint32Array; total: number } {
		const termCount = required.length;
		const order = required.map((_, index) => index).sort((a, b) => (required[a]?.length ?? 0) - (required[b]?.length ?? 0));
		const rarest = required[order[0] ?? 0] as ResolvedTerm;
		const slots = (this.candidateSlots = growUint32(this.candidateSlots, rarest.length));
		const values = (this.candidateValues = growUint32(this.candidateValues, rarest.length * termCount));
		let total = 0;
		if (termCount === 1 && excluded.length === 0 && !rarest.phrase) {
			// One word, the commonest query: its postings are the answer, less the notes that only have it in a heading.
			for (let index = 0; index < rarest.length; index++) {
				const slot = rarest.slots[index] as number;
				const value = rarest.values[index] as number;
				if ((value & (BODY_COUNT | IN_TITLE)) === 0 || (accepted && accepted[slot] !== 1) || (excludedWords && excludedWords[slot] === 1)) continue;
				slots[total] = slot;
				values[total++] = value;
			}
			return { slots, values, total };
		}
		const cursors = new Array<number>(termCount).fill(0);
		const excludedCursors = new Array<number>(excluded.length).fill(0);
		const needsDocument = required.some((term) => term.phrase) || excluded.some((term) => term.phrase);
		candidates: for (let index = 0; index < rarest.length; index++) {
			const slot = rarest.slots[index] as number;
			for (let orderIndex = 0; orderIndex < termCount; orderIndex++) {
				const termIndex = order[orderIndex] as number;
				const term = required[termIndex] as ResolvedTerm;
				const at = seek(term.slots, term.length, cursors[termIndex] as number, slot);
				cursors[termIndex] = at;
				if (at >= term.length) break candidates;
				if (term.slots[at] !== slot) continue candidates;
			}
			if ((accepted && accepted[slot] !== 1) || (excludedWords && excludedWords[slot] === 1)) continue;
			// Only a phrase needs the note's tokens: every other check is on the postings.
			const doc = needsDocument ? this.documents[slot] : undefined;
			if (needsDocument && !doc) continue;
			for (let termIndex = 0; termIndex < excluded.length; termIndex++) {
				const term = excluded[termIndex] as ResolvedTerm;
				const at = seek(term.slots, term.length, excludedCursors[termIndex] as number, slot);
				excludedCursors[termIndex] = at;
				if (at < term.length && term.slots[at] === slot && this.matchValue(term, at, doc) !== 0) continue candidates;
			}
			for (let termIndex = 0; termIndex < termCount; termIndex++) {
				const term = required[termIndex] as ResolvedTerm;
				const value = this.matchValue(term, cursors[termIndex] as number, doc);
				if (value === 0) continue candidates;
				values[total * termCount + termIndex] = value;
			}
			slots[total++] = slot;
		}
		return { slots, values, total };
	}

	/**
	 * The packed value of a term in a note when the note matches it (in the body or the title),
	 * else 0. A heading alone is not a match: it ranks, it does not find.
	 */
	private matchValue(term: ResolvedTerm, at: number, doc: IndexedDocument | undefined): number {
		let value: number;
		if (term.phrase && doc) {
			// A phrase longer than the window is counted on the unpacked body, in scratch.
			const body = term.phraseMasks ? countPackedPhrase(doc.body, term.phraseMasks, term.phrase.length) : countPhrase(this.unpackBody(doc).subarray(0, doc.bodyLength), term.phrase);
			value = packValue(body, countPhrase(doc.title, term.phrase) * term.phrase.length, countPhrase(doc.headings, term.phrase) > 0);
		} else value = term.values[at] as number;
		return (value & BODY_COUNT) > 0 || (value & IN_TITLE) !== 0 ? value >>> 0 : 0;
	}

	/**
	 * The notes holding any of `words` (each a prefix when long enough) in the body or the title,
	 * by slot (1 = holds one), or null for no words: marks, not a union, as an exclusion needs no
	 * counts, so excluding every two-letter start of a 50,000-note vault is one pass over postings.
	 */
	private notesHoldingAny(words: readonly string[]): Uint8Array | null {
		if (words.length === 0) return null;
		const marks = new Uint8Array(this.nextSlot);
		for (const word of words) {
			for (const id of isPrefixWord(word) ? this.dictionary.withPrefix(word) : optional(this.dictionary.lookup(word))) {
				const list = this.postings[id];
				if (!list) continue;
				for (let index = 0; index < list.length; index++) {
					if (((list.values[index] as number) & (BODY_COUNT | IN_TITLE)) !== 0) marks[list.slots[index] as number] = 1;
				}
			}
		}
		return marks;
	}

	/**
	 * A wanted term by evidence: a one-word term's notes holding the word as typed, another form
	 * of it, or (2+ letters) a longer word it starts; a phrase's notes as `resolve` finds them.
	 */
	private resolveEvidence(tokens: readonly string[], stem: Stemmer | null): TermEvidence {
		if (tokens.length !== 1) return { any: this.resolve(tokens) ?? emptyTerm(), exact: null, forms: null, strongIds: null };
		const word = tokens[0] ?? "";
		const exactId = this.dictionary.lookup(word);
		const formIds = this.dictionary.formsOf(word, stem);
		const strongIds = new Set<number>([...optional(exactId), ...formIds]);
		const prefixIds = isPrefixWord(word) ? this.dictionary.withPrefix(word).filter((id) => !strongIds.has(id)) : [];
		const allIds = [...strongIds, ...prefixIds];
		return {
			any: allIds.length > 0 ? { ...this.union(allIds), phrase: null } : emptyTerm(),
			exact: exactId === undefined ? null : this.union([exactId]),
			forms: formIds.length > 0 ? this.union(formIds) : null,
			strongIds,
		};
	}

	/**
	 * The notes holding at least `minimum` of the wanted terms (value 0 for a term a note lacks),
	 * no excluded word or phrase, accepted (null: all), in slot order and laid out as `intersect`
	 * lays them: one pass over each term's postings, so it costs what the terms' notes cost.
	 */
	private gatherMost(required: readonly ResolvedTerm[], minimum: number, excludedWords: Uint8Array | null, excluded: readonly ResolvedTerm[], accepted: Uint8Array | null): { slots: Uint32Array; values: Uint32Array; total: number } {
		const termCount = required.length;
		const held = new Uint16Array(this.nextSlot);
		let low = this.nextSlot;
		let high = -1;
		let candidates = 0;
		for (const term of required) {
			for (let index = 0; index < term.length; index++) {
				const slot = term.slots[index] as number;
				const count = held[slot] as number;
				if (count + 1 === minimum) candidates++;
				held[slot] = count + 1;
			}
			if (term.length > 0) {
				low = Math.min(low, term.slots[0] as number);
				high = Math.max(high, term.slots[term.length - 1] as number);
			}
		}
		const slots = (this.candidateSlots = growUint32(this.candidateSlots, candidates));
		const values = (this.candidateValues = growUint32(this.candidateValues, candidates * termCount));
		const cursors = new Array<number>(termCount).fill(0);
		const excludedCursors = new Array<number>(excluded.length).fill(0);
		let total = 0;
		candidates: for (let slot = low; slot <= high; slot++) {
			if ((held[slot] as number) < minimum) continue;
			if ((accepted && accepted[slot] !== 1) || (excludedWords && excludedWords[slot] === 1)) continue;
			const doc = this.documents[slot];
			if (!doc) continue;
			for (let termIndex = 0; termIndex < excluded.length; termIndex++) {
				const term = excluded[termIndex] as ResolvedTerm;
				const at = seek(term.slots, term.length, excludedCursors[termIndex] as number, slot);
				excludedCursors[termIndex] = at;
				if (at < term.length && term.slots[at] === slot && this.matchValue(term, at, doc) !== 0) continue candidates;
			}
			let holding = 0;
			for (let termIndex = 0; termIndex < termCount; termIndex++) {
				const term = required[termIndex] as ResolvedTerm;
				const at = seek(term.slots, term.length, cursors[termIndex] as number, slot);
				cursors[termIndex] = at;
				const value = at < term.length && term.slots[at] === slot ? this.matchValue(term, at, doc) : 0;
				values[total * termCount + termIndex] = value;
				if (value !== 0) holding++;
			}
			if (holding >= minimum) slots[total++] = slot;
		}
		return { slots, values, total };
	}

	/**
	 * The notes that may hold a term: the last word is a prefix (when long enough), the others
	 * whole words. Null when some word is in no note at all.
	 */
	private resolve(tokens: readonly string[]): ResolvedTerm | null {
		const idsByPosition: number[][] = [];
		for (const [index, token] of tokens.entries()) {
			const ids = index === tokens.length - 1 && isPrefixWord(token) ? this.dictionary.withPrefix(token) : optional(this.dictionary.lookup(token));
			if (ids.length === 0) return null;
			idsByPosition.push(ids);
		}
		if (tokens.length === 1) return { ...this.union(idsByPosition[0] as number[]), phrase: null };
		// A phrase: the notes holding every word, checked for the words in a row when they are
		// candidates. A word the phrase repeats is looked up once ("very very very…" is one list).
		const distinct = new Map<string, number[]>();
		idsByPosition.forEach((ids, index) => distinct.set(index === tokens.length - 1 ? `${tokens[index] ?? ""}*` : (tokens[index] ?? ""), ids));
		const positions = [...distinct.values()].map((ids) => this.union(ids));
		positions.sort((a, b) => a.length - b.length);
		const [first, ...rest] = positions as [ResolvedTerm, ...ResolvedTerm[]];
		const slots = new Uint32Array(first.length);
		const cursors = new Array<number>(rest.length).fill(0);
		let length = 0;
		next: for (let index = 0; index < first.length; index++) {
			const slot = first.slots[index] as number;
			for (const [restIndex, other] of rest.entries()) {
				const at = seek(other.slots, other.length, cursors[restIndex] ?? 0, slot);
				cursors[restIndex] = at;
				if (at >= other.length || other.slots[at] !== slot) continue next;
			}
			slots[length++] = slot;
		}
		const phrase = idsByPosition.map((ids) => {
			const accepted = new Uint8Array(this.dictionary.size);
			for (const id of ids) accepted[id] = 1;
			return accepted;
		});
		if (phrase.length > MAX_PHRASE_WORDS) return { slots, values: new Uint32Array(0), length, phrase };
		const phraseMasks = new Uint32Array(this.dictionary.size);
		idsByPosition.forEach((ids, position) => {
			for (const id of ids) phraseMasks[id] = ((phraseMasks[id] as number) | (1 << position)) >>> 0;
		});
		return { slots, values: new Uint32Array(0), length, phrase, phraseMasks };
	}

	/** The notes holding a term whose words are all whole words (a stop word): null when none does. */
	private resolveWhole(tokens: readonly string[]): ResolvedTerm | null {
		if (tokens.length !== 1) return null;
		const id = this.dictionary.lookup(tokens[0] ?? "");
		return id === undefined ? null : this.union([id]);
	}

	/** The postings of several terms as one: body counts added, title and heading flags combined. */
	private union(ids: readonly number[]): ResolvedTerm {
		if (ids.length === 1) {
			const list = this.postings[ids[0] as number];
			return list ? { slots: list.slots, values: list.values, length: list.length, phrase: null } : { slots: new Uint32Array(0), values: new Uint32Array(0), length: 0, phrase: null };
		}
		const merged = (this.merged = growUint32(this.merged, this.nextSlot));
		let low = this.nextSlot;
		let high = 0;
		let count = 0;
		for (const id of ids) {
			const list = this.postings[id];
			if (!list) continue;
			for (let index = 0; index < list.length; index++) {
				const slot = list.slots[index] as number;
				const value = list.values[index] as number;
				const before = merged[slot] as number;
				if (before === 0) count++;
				merged[slot] = mergeValues(before, value);
			}
			if (list.length > 0) {
				low = Math.min(low, list.slots[0] as number);
				high = Math.max(high, list.slots[list.length - 1] as number);
			}
		}
		const slots = new Uint32Array(count);
		const values = new Uint32Array(count);
		let length = 0;
		for (let slot = low; slot <= high && length < count; slot++) {
			const value = merged[slot] as number;
			if (value === 0) continue;
			slots[length] = slot;
			values[length++] = value;
			merged[slot] = 0;
		}
		return { slots, values, length, phrase: null };
	}
}

/** A stemmer that remembers its answers, for one search; null stays null. */
function memoized(stem: Stemmer | null): Stemmer | null {
	if (!stem) return null;
	const known = new Map<string, string>();
	return (word) => {
		let answer = known.get(word);
		if (answer === undefined) {
			answer = stem(word);
			known.set(word, answer);
		}
		return answer;
	};
}

/** A term no note holds. */
function emptyTerm(): ResolvedTerm {
	return { slots: new Uint32Array(0), values: new Uint32Array(0), length: 0, phrase: null };
}

/** A term's value in the note at `slot` when the note matches it (body or title), else 0; `cursors[index]` moves forward. */
function valueAt(term: ResolvedTerm, cursors: number[], index: number, slot: number): number {
	const at = seek(term.slots, term.length, cursors[index] as number, slot);
	cursors[index] = at;
	if (at >= term.length || term.slots[at] !== slot) return 0;
	const value = term.values[at] as number;
	return (value & BODY_COUNT) > 0 || (value & IN_TITLE) !== 0 ? value : 0;
}

/** A posting value from its parts, each count saturating at its field's largest value. */
function packValue(bodyCount: number, titleWords: number, inHeading: boolean): number {
	const title = Math.min(TITLE_COUNT_MAX, titleWords);
	return (Math.min(BODY_COUNT, bodyCount) | (title << TITLE_COUNT_SHIFT) | (title > 0 ? IN_TITLE : 0) | (inHeading ? IN_HEADING : 0)) >>> 0;
}

/** How many of the title's words a posting value counts. */
function titleCount(value: number): number {
	return (value >>> TITLE_COUNT_SHIFT) & TITLE_COUNT_MAX;
}

/** Two posting values as one (a prefix's several words in one note): counts added, flags combined. */
function mergeValues(a: number, b: number): number {
	return packValue((a & BODY_COUNT) + (b & BODY_COUNT), titleCount(a) + titleCount(b), ((a | b) & IN_HEADING) !== 0);
}

/** A term's BM25 body score in one note, plus its fixed title and heading weights. */
function fieldScore(value: number, norm: number): number {
	const tf = value & BODY_COUNT;
	return (tf * (BM25_K1 + 1)) / (tf + norm) + (value & IN_TITLE ? TITLE_WEIGHT : 0) + (value & IN_HEADING ? HEADING_WEIGHT : 0);
}

/** How many of a term's notes are accepted. */
function countAccepted(term: ResolvedTerm, accepted: Uint8Array): number {
	let count = 0;
	for (let index = 0; index < term.length; index++) count += accepted[term.slots[index] as number] as number;
	return count;
}

/** A filter that keeps the first of the terms with the same words. */
function onceEach(): (term: QueryTerm) => boolean {
	const seen = new Set<string>();
	return (term) => {
		const key = term.tokens.join(" ");
		if (seen.has(key)) return false;
		seen.add(key);
		return true;
	};
}

function optional<T>(value: T | undefined | null): T[] {
	return value === undefined || value === null ? [] : [value];
}

/**
 * How many times a phrase of `length` words (at most 32) stands in a row in a packed body, read
 * once without unpacking it (shift-and): bit i of the state is set while the last i + 1 ids read
 * are the phrase's first i + 1 words, so each id costs a shift and a mask, whatever the phrase.
 */
function countPackedPhrase(packed: Uint8Array, masks: Uint32Array, length: number): number {
	const last = 1 << (length - 1);
	let state = 0;
	let count = 0;
	let index = 0;
	while (index < packed.length) {
		let byte = packed[index++] as number;
		let id = byte & 0x7f;
		for (let shift = 7; byte & 0x80; shift += 7) {
			byte = packed[index++] as number;
			id |= (byte & 0x7f) << shift;
		}
		state = ((state << 1) | 1) & (masks[id >>> 0] ?? 0);
		if (state & last) count++;
	}
	return count;
}

/** How many times the phrase's words stand in a row in `tokens`. */
function countPhrase(tokens: Uint32Array, phrase: CompiledPhrase): number {
	let count = 0;
	const length = phrase.length;
	const first = phrase[0];
	if (!first) return 0;
	const last = tokens.length - length;
	for (let start = 0; start <= last; start++) {
		if (first[tokens[start] as number] !== 1) continue;
		let matches = true;
		for (let offset = 1; offset < length && matches; offset++) matches = phrase[offset]?.[tokens[start + offset] as number] === 1;
		if (matches) count++;
	}
	return count;
}

/** A query term as snippets look for it. */
interface SnippetTerm {
	words: readonly string[];
	/** The last word matches only itself (and its forms), not the longer words it starts. */
	whole: boolean;
	/** For a one-word term, the word's stem when word forms are on: a token with the same stem matches. */
	stem: string | null;
}

/** True if a term's words stand in a row in `tokens` from `at` (the last word a prefix unless `whole`; a one-word term also in another form). */
function termAt(tokens: readonly Token[], at: number, term: SnippetTerm, stemmer: Stemmer | null): boolean {
	const words = term.words;
	const lastWord = words.length - 1;
	if (at + lastWord >= tokens.length) return false;
	for (let offset = 0; offset <= lastWord; offset++) {
		const value = (tokens[at + offset] as Token).value;
		const word = words[offset] as string;
		if (value === word || (offset === lastWord && !term.whole && value.startsWith(word))) continue;
		// Forms share their first letter: only those tokens are stemmed.
		if (term.stem !== null && stemmer !== null && value.charCodeAt(0) === word.charCodeAt(0) && stemmer(value) === term.stem) continue;
		return false;
	}
	return true;
}

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

/** A frontmatter fence: `---` alone on its line (trailing spaces allowed), as markdown/frontmatter reads it. */
const FENCE_LINE = /^---[ \t]*\r?$/;

/** Where a note's body starts: after its frontmatter block (fences on the first line and a later one), if it has one. */
function bodyStart(text: string): number {
	if (!text.startsWith("---")) return 0;
	let lineStart = 0;
	for (let line = 0; lineStart <= text.length; line++) {
		const newline = text.indexOf("\n", lineStart);
		const lineEnd = newline === -1 ? text.length : newline;
		if (FENCE_LINE.test(text.slice(lineStart, lineEnd))) {
			if (line > 0) return newline === -1 ? text.length : newline + 1;
		} else if (line === 0) return 0;
		if (newline === -1) return 0;
		lineStart = newline + 1;
	}
	return 0;
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

/** The web addresses in text[from, text.length). */
function webAddresses(text: string, from: number): WebAddress[] {
	WEB_ADDRESS.lastIndex = from;
	const found: WebAddress[] = [];
	for (let match = WEB_ADDRESS.exec(text); match; match = WEB_ADDRESS.exec(text)) {
		const hostStart = match.index + match[0].indexOf("//") + 2;
		found.push({ start: match.index, end: match.index + match[0].length, hostStart, hostEnd: hostStart + (match[1] ?? "").length });
	}
	return found;
}

/** `offset` moved out of any address it falls inside: to the address's start or end. */
function outsideAddresses(offset: number, addresses: readonly WebAddress[], toEnd: boolean): number {
	const inside = addresses.find((address) => address.start < offset && offset < address.end);
	return inside ? (toEnd ? inside.end : inside.start) : offset;
}

/**
 * Text of a snippet window with its matches marked, every web address shortened to its host
 * (badge and link addresses are noise to a reader) unless a match lies past the host.
 */
function markWindow(text: string, start: number, end: number, spans: readonly Span[], addresses: readonly WebAddress[]): string {
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
function snippetsOf(text: string, query: ParsedQuery, stemmer: Stemmer | null): string[] {
	const start = bodyStart(text);
	const terms: SnippetTerm[] = query.required.map((term) => ({
		words: term.tokens,
		whole: !isPrefixWord(term.tokens.at(-1) ?? ""),
		stem: stemmer !== null && term.tokens.length === 1 ? stemmer(term.tokens[0] ?? "") : null,
	}));
	const longest = Math.max(...terms.map((term) => term.words.length));
	const addresses = webAddresses(text, start);
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
	const tokens: Token[] = [];
	let next = 0;
	const matchUpTo = (stop: number): boolean => {
		for (; next < stop; next++) {
			const at = tokens[next] as Token;
			if (full() && at.start > (windows.at(-1)?.end ?? 0)) return false;
			for (const term of terms) {
				if (termAt(tokens, next, term, stemmer) && !addSpan({ start: at.start, end: (tokens[next + term.words.length - 1] as Token).end })) return false;
			}
		}
		return true;
	};
	let open = true;
	const searchEnd = start + SNIPPET_SEARCH_MAX_CHARS;
	for (const chunk of tokenChunks(text, start, SNIPPET_TOKENIZE_CHUNK_CHARS)) {
		if ((chunk[0]?.start ?? 0) >= searchEnd) break;
		for (const token of chunk) tokens.push(token);
		// A phrase may run on into the next chunk: positions that close to the end wait for it.
		open = matchUpTo(tokens.length - longest + 1);
		if (!open) break;
	}
	if (open) matchUpTo(tokens.length);
	if (windows.length === 0 && hasVisibleText(text, start)) windows.push({ start, end: windowEnd(start + 2 * SEARCH_SNIPPET_CONTEXT_CHARS), spans: [] });
	return windows.map((window) => {
		const marked = markWindow(text, window.start, window.end, window.spans, addresses).replace(/\s+/g, " ").trim();
		return `${window.start > start ? "…" : ""}${marked}${window.end < text.length && !marked.endsWith("…") ? "…" : ""}`;
	});
}
