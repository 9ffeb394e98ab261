import {
	MAX_QUERY_PHRASE_NOTES,
	PHRASE_LEARNT_MEMO_NOTES,
	PHRASE_READ_ALL_MAX_NOTES,
	PROXIMITY_CANDIDATES,
	PROXIMITY_MAX_TOKENS,
	PROXIMITY_WINDOW,
	SEARCH_STEM_MEMO_WORDS,
	SOFT_AND_MIN_WORD_SHARE,
	TEMPLATE_MEMO_WORDS,
	SEARCH_PAUSE_CHECK_MASK,
	PAUSED_SEARCH_ATTEMPTS,
	PREFIX_MAX_WORDS,
	PREFIX_SEARCH_MAX_WORDS,
} from "../config/limits";
import { CandidateFinder, type Gathered } from "./candidates";
import { PAUSE_FIRST, rankByBounds, type BoundedRanking } from "./bestFirst";
import { PostingsIndex, TITLE_LENGTH_MAX, type NoteFilter } from "./postings";
import {
	BODY_COUNT,
	countEither,
	countAccepted,
	formsValueAt,
	mergeValues,
	optional,
	seek,
	titleCount,
	TITLE_COUNT_SATURATED,
	valueAt,
	IN_TITLE,
	type ResolvedTerm,
	type TermEvidence,
} from "./postingValues";
import { countPhrase, phraseChecksNotice, type PhraseChecks } from "./phrases";
import { DERIVED_WHOLES_MAX_TOKENS } from "./text";
import { isPrefixWord, type ParsedQuery, type QueryTerm } from "./query";
import {
	BM25_B,
	BM25_K1,
	COVERAGE_POWER,
	EXPANSION_MATCH_WEIGHT,
	fieldScore,
	FIELD_SCORE_MAX,
	FORM_MATCH_WEIGHT,
	JOINED_WORD_WEIGHT,
	memoized,
	onceEach,
	OPTIONAL_WORD_WEIGHT,
	PREFIX_MATCH_WEIGHT,
	TITLE_COVERAGE_WEIGHT,
	titleCoverage,
	TITLE_TIER_ALL,
	TITLE_TIER_SOME,
	TITLE_TIER_WHOLE,
	LONG_TITLE_WORDS,
	longTitleCut,
	NAMED_TOPIC_SHARE,
	namesWord,
	UNNAMED_WORD_SHARE_WEIGHT,
	proximityFactor,
	LEAST_PROXIMITY_FACTOR,
	LEAST_PASSAGE_FACTOR,
	type Ranked,
} from "./rank";
import { SnippetMemo } from "./snippetMemo";
import { NO_TERM, passageEvidence, proximityScratch, type ProximityTerms } from "./proximity";
import { templateWord, withoutTemplate, type TemplateWord } from "./templates";
import { ENGLISH_NEGATIONS, ENGLISH_PARTICLES, NEGATING_PREFIXES } from "./stopWords";
import { unionScratch } from "./unions";
import { DEFAULT_SEARCH_LANGUAGE, stemmerFor, type Stemmer } from "./stemmers";

export type { CommitPlan, NoteFilter } from "./postings";

/**
 * The search engine: an inverted index whose postings carry each note's term frequency, with
 * Vault MCP's query semantics on top (every term wanted, phrases, word forms, prefixes,
 * exclusions) and ranking by evidence strength, then BM25. Pure: it knows nothing of vaults; callers
 * add and remove documents through its `index` and pass note text back in for snippets.
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

/** Every note the index holds now (a retired slot is no note's): kept under its own key, brought up to date as notes change. */
const EVERY_CURRENT_NOTE: NoteFilter = { include: () => true, key: "\u0000every current note" };

/** A word two adjacent query words make together, and the indexes of the query terms it stands for. */
interface JoinedWord {
	term: ResolvedTerm;
	parts: number[];
	/** A closed compound (closedCompounds): it counts only in a note that does not hold both its words, as typed or in another form. */
	closed?: true;
}

/** Which of `terms` is the one-word term `word`: its index, or -1. */
function termIndexOf(terms: readonly QueryTerm[], word: string): number {
	return terms.findIndex((term) => term.tokens.length === 1 && term.tokens[0] === word);
}

/**
 * The words a negated query word makes with each negating prefix (`never used` → `unused`, `no
 * interactive` → `noninteractive`: ENGLISH_NEGATIONS, NEGATING_PREFIXES), none a query term itself,
 * each once, with the query terms it stands for (the negation and the word). Pure.
 */
function negatedWords(query: ParsedQuery, terms: readonly QueryTerm[]): Array<{ word: string; parts: number[] }> {
	const found = new Map<string, number[]>();
	for (const [first, second] of query.adjacent ?? []) {
		if (!ENGLISH_NEGATIONS.has(first) || termIndexOf(terms, second) < 0) continue;
		for (const prefix of NEGATING_PREFIXES) {
			const word = prefix + second;
			if (found.has(word) || termIndexOf(terms, word) >= 0) continue;
			found.set(
				word,
				[termIndexOf(terms, first), termIndexOf(terms, second)].filter((index) => index >= 0),
			);
		}
	}
	return [...found].map(([word, parts]) => ({ word, parts }));
}

/**
 * The words two adjacent query words make written closed (`top level` → `toplevel`, `file name` →
 * `filename`, `auto focus` → `autofocus`), none a query term itself, each once, with the two query
 * terms it stands for. A word and the particle after it are joinedWords' (`log in` → `login`). Pure.
 */
function closedCompounds(query: ParsedQuery, terms: readonly QueryTerm[]): Array<{ word: string; parts: number[] }> {
	const found = new Map<string, number[]>();
	for (const [first, second] of query.adjacent ?? []) {
		const firstIndex = termIndexOf(terms, first);
		const secondIndex = termIndexOf(terms, second);
		if (firstIndex < 0 || secondIndex < 0 || ENGLISH_PARTICLES.has(second)) continue;
		const word = first + second;
		if (!found.has(word) && termIndexOf(terms, word) < 0) found.set(word, [firstIndex, secondIndex]);
	}
	return [...found].map(([word, parts]) => ({ word, parts }));
}

/** Whether a name (`ids[from, to)`) holds a term: a word as typed or in another form (its extensions do not count), or a phrase. */
function nameHolds(ids: Uint32Array, from: number, to: number, term: TermEvidence): boolean {
	if (term.strongIds) {
		for (let index = from; index < to; index++) if (term.strongIds.has(ids[index] as number)) return true;
		return false;
	}
	return term.any.phrase !== null && countPhrase(ids, term.any.phrase, from, to) > 0;
}

/** Whether a name's word is one of the query's: a term's word or form, a word of a phrase, or an optional (stop) word. */
function isQueryWord(id: number, evidence: readonly TermEvidence[], optionalIds: ReadonlySet<number>): boolean {
	if (optionalIds.has(id)) return true;
	for (const term of evidence) {
		if (term.strongIds) {
			if (term.strongIds.has(id)) return true;
		} else if (term.any.phrase) {
			for (const position of term.any.phrase) if (position.has(id)) return true;
		}
	}
	return false;
}

/** Swaps two entries of a heap of results: a function of its own, as a closure made at every offer was most of a search's garbage. */
function swap(heap: Ranked[], a: number, b: number): void {
	const kept = heap[a] as Ranked;
	heap[a] = heap[b] as Ranked;
	heap[b] = kept;
}

/** Whether a candidate's row of values (`termCount` from `index`'s) has a term in the note's title or an alias. */
function rowNamed(values: Uint32Array, index: number, termCount: number): boolean {
	for (let termIndex = index * termCount, end = termIndex + termCount; termIndex < end; termIndex++)
		if ((values[termIndex] as number) & IN_TITLE) return true;
	return false;
}

/** Whether every term of a candidate's row of values (`termCount` from `index`'s) is in the note's title or an alias. */
function rowNamesAll(values: Uint32Array, index: number, termCount: number): boolean {
	for (let termIndex = index * termCount, end = termIndex + termCount; termIndex < end; termIndex++)
		if (((values[termIndex] as number) & IN_TITLE) === 0) return false;
	return true;
}

/**
 * A score bound is raised by this share before it rules a candidate out: the bound adds and
 * multiplies the same kinds of numbers as the score, each no smaller, but in another order.
 */
const SCORE_BOUND_MARGIN = 1e-9;

/**
 * Share of the query's idf an alias made only of query words must hold to count as covering the
 * query like a title (TITLE_COVERAGE_WEIGHT), when it names only some of the terms: `Citations` for
 * `zotero citations`, `Natural Language Dates` for `type dates like next friday in natural
 * language`. Below it, the alias names the everyday part of the question (`Markdown` for `how to
 * make a table in markdown`): a redirect's word, not what the note is about.
 */
const PARTIAL_ALIAS_MIN_SHARE = 0.5;

export interface SearchAnswer {
	total: number;
	results: SearchHit[];
	/** Present when a phrase was not looked for in every note holding its words (the page is still exact): `total` counts only the notes looked in. */
	total_is_lower_bound?: true;
	/** Why, in words, when `total_is_lower_bound` is present. */
	notice?: string;
}

/**
 * The phrase checks an answer's notice counts, beside the answer rather than in it (the answer is
 * what the client is sent): a caller that leaves out hits afterwards says the counts again without
 * them (`noticeWithout`).
 */
const phraseChecksOf = new WeakMap<SearchAnswer, { checks: PhraseChecks; cutNotice: string | null }>();

/**
 * `answer`'s notice once `gone` of its hits are left out (moved out of sight or deleted after it was
 * made): each was a note holding the phrase's words, looked in and found, so each count is less
 * them. Its notice unchanged when it has no phrase checks.
 */
export function noticeWithout(answer: SearchAnswer, gone: number): string | undefined {
	const kept = phraseChecksOf.get(answer);
	if (kept === undefined) return answer.notice;
	return joinedNotice(phraseChecksNotice(checksWithout(kept.checks, gone), answer.total - gone), kept.cutNotice);
}

/** The search's words that stood for only the `each` shortest words they start. */
interface PrefixCut {
	/** Each cut word quoted as the notice names it. */
	words: string[];
	each: number;
}

/**
 * The most words each of a search's words stands for as a prefix: PREFIX_MAX_WORDS, or its even
 * share of PREFIX_SEARCH_MAX_WORDS when the search has more such words. Pure.
 */
export function prefixWordsEach(terms: readonly QueryTerm[]): number {
	// A phrase's last word is a prefix too (`"alpha b"`): it took every word it starts.
	const prefixes = terms.filter((term) => isPrefixWord(term.tokens.at(-1) ?? "")).length;
	return Math.min(PREFIX_MAX_WORDS, Math.max(1, Math.floor(PREFIX_SEARCH_MAX_WORDS / Math.max(1, prefixes))));
}

/** What an answer says of its words that stood for only the `each` shortest words they start; null for none. */
function prefixCutNotice(cut: PrefixCut | undefined): string | null {
	if (!cut || cut.words.length === 0) return null;
	const words = cut.words.join(", ");
	const shared = cut.each < PREFIX_MAX_WORDS ? ` (a search's words stand for ${PREFIX_SEARCH_MAX_WORDS.toLocaleString("en-US")} words together)` : "";
	// Several words: the count is each one's, not theirs together.
	const which = cut.words.length > 1 ? `each of ${words}` : words;
	return `Only the ${cut.each.toLocaleString("en-US")} shortest words starting with ${which} were looked for${shared}: type more of a longer word to find it.`;
}

/** Two notices as one. */
function joinedNotice(first: string, second: string | null): string {
	return second === null ? first : `${first} ${second}`;
}

/** `checks` less `gone` hits: each was a note holding the phrase's words, looked in and found. */
function checksWithout(checks: PhraseChecks, gone: number): PhraseChecks {
	return gone === 0 ? checks : { checked: checks.checked - gone, candidates: checks.candidates - gone };
}

/**
 * The notes a search's phrases are looked for in, summed over its phrases: each phrase's candidates
 * (the notes holding all its words), among `accepted` when given. Pure.
 */
function notesPhrasesAreLookedFor(terms: readonly ResolvedTerm[], accepted: Uint8Array | null): number {
	let notes = 0;
	for (const term of terms) if (term.phrase) notes += accepted ? countAccepted(term, accepted) : term.length;
	return notes;
}

/** A search's phrases would be looked for in more notes than MAX_QUERY_PHRASE_NOTES: nothing was searched. */
export class TooManyPhraseNotes extends Error {
	constructor(
		readonly notes: number,
		readonly bound: number,
	) {
		super(
			`The query's phrases would each be looked for in every note holding their words: ${notes.toLocaleString("en-US")} notes in all, more than the ${bound.toLocaleString("en-US")} one search reads. Nothing was searched. Send fewer phrases, leave out the quotes where the words need not stand together, put rarer words in the phrases, or narrow the search with a folder or a tag.`,
		);
	}
}

export class SearchEngine {
	/** The notes searched: add, replace and remove them here; a search that paused sees the change and starts again. */
	readonly index: PostingsIndex;
	private readonly candidates: CandidateFinder;
	/** `templateOf`'s answers for the index's `templateGeneration`, by word. */
	private readonly templateMemo = new Map<string, { length: number; corpusSize: number; template: TemplateWord | null }>();
	/** Token id to query term for the proximity pass (proximityCodes); all 0 between searches. */
	private proximityTable = new Int32Array(0);
	private templateGeneration = -1;
	/** The dictionary's stemmer and its remembered answers (rememberedStemmer). */
	private stems: { of: Stemmer | null; memo: Stemmer | null } = { of: null, memo: null };
	/** The snippets of the notes last shown, reused for the same text and words. */
	private readonly snippets = new SnippetMemo();

	/**
	 * `stem` finds word forms (stemmers.ts); null matches words as typed and prefixes only.
	 * `phraseReadAllMax`: notes holding its phrases' words up to which a search reads them all (PHRASE_READ_ALL_MAX_NOTES).
	 * `scoreEvery`: score every candidate, even one whose bound says it cannot enter the page (the same page, slower).
	 * `phraseLearntMemoNotes`: notes' worth of phrases whose reads the index keeps (PHRASE_LEARNT_MEMO_NOTES).
	 * `phraseNotesMax`: notes a search's phrases may be looked for in, summed over its phrases (MAX_QUERY_PHRASE_NOTES).
	 */
	constructor(
		stem: Stemmer | null = stemmerFor(DEFAULT_SEARCH_LANGUAGE),
		private readonly phraseReadAllMax: number = PHRASE_READ_ALL_MAX_NOTES,
		private readonly scoreEvery = false,
		phraseLearntMemoNotes: number = PHRASE_LEARNT_MEMO_NOTES,
		private readonly phraseNotesMax: number = MAX_QUERY_PHRASE_NOTES,
	) {
		this.index = new PostingsIndex(stem, phraseLearntMemoNotes);
		this.candidates = new CandidateFinder(this.index);
	}

	/**
	 * The documents that match the query — among those `include` accepts, or all with null —
	 * ranked, with snippets for the first `limit`. Corpus statistics (size, average length,
	 * document frequencies) are over the accepted documents, so a filtered search ranks the same
	 * however the index was built.
	 *
	 * Which notes: those holding every wanted term (the word as typed, another form of it, or a
	 * longer word it starts) when they fill the page; otherwise also those holding at least
	 * SOFT_AND_MIN_WORD_SHARE of the terms (one fewer with one in its title or an alias), so one
	 * everyday word a note lacks does not hide it; while those are still fewer than the page, the
	 * notes holding one word fewer, down to one word.
	 * Ranked by: for one word, whether a note holds it as typed or in another form (its extensions
	 * fill, never outrank), its title or an alias (the whole name is the word, then holds it, then
	 * not), whether it holds it as typed; for several words, a title or alias holding them all (the
	 * whole name first) when the note holds them all. Then by the score: BM25 with title and
	 * heading weights, each match weighed by its evidence (the query's stop words at
	 * OPTIONAL_WORD_WEIGHT), plus how much of the title the query
	 * covers, times the root of the share of the query's idf the note holds (COVERAGE_POWER).
	 */
	async search(
		query: ParsedQuery,
		include: NoteFilter | null,
		limit: number,
		readText: (path: string) => Promise<string | null>,
		pause: SearchPause | null = null,
	): Promise<SearchAnswer> {
		for (let attempt = 1; ; attempt++) {
			const ranked = await this.rank(query, include, limit, attempt < PAUSED_SEARCH_ATTEMPTS ? pause : null);
			if (ranked === null) continue;
			const results: SearchHit[] = [];
			const wordsKey = SnippetMemo.wordsKey(query);
			let gone = 0;
			// One note's snippets at a time, pausing between them: fifty long notes are not one long piece.
			for (const hit of ranked.hits) {
				const waiting = pause?.();
				if (waiting) await waiting;
				const text = await readText(hit.path);
				// Deleted or moved by another program since it was indexed: not an answer, and not a reason to fail the others.
				if (text === null) gone++;
				else results.push({ ...hit, snippets: this.snippets.snippetsOf(hit.path, wordsKey, text, query, ranked.stem) });
			}
			const total = ranked.total - gone;
			const cutNotice = prefixCutNotice(ranked.cut);
			if (!ranked.checks) return { total, results, ...(cutNotice === null ? {} : { notice: cutNotice }) };
			// A hit gone while the snippets were read (deleted, or moved into an excluded folder) is in no count, as noticeWithout says.
			const checks = checksWithout(ranked.checks, gone);
			const answer: SearchAnswer = { total, results, total_is_lower_bound: true, notice: joinedNotice(phraseChecksNotice(checks, total), cutNotice) };
			phraseChecksOf.set(answer, { checks, cutNotice });
			return answer;
		}
	}

	/**
	 * Lets go everything searches keep for the next (merged lists, accepted notes, phrase
	 * candidates, templates, snippets, stems): after the server's warm-up searches, a person's first
	 * search is served by nothing they kept. The dictionary's sorted view stays: it is the index's
	 * words in order, the same whoever asked first.
	 */
	forgetKept(): void {
		this.index.forgetKept();
		this.templateMemo.clear();
		this.templateGeneration = -1;
		this.snippets.clear();
		this.stems = { of: null, memo: null };
	}

	/**
	 * The ranked top `limit` without snippets (see `search`), pausing on `pause` between candidates;
	 * null when the index changed while it paused (its slots may name other notes now).
	 * `partialAnswer`: gather the notes holding most terms at once (the notes holding all are known to be fewer than `limit`).
	 */
	private async rank(
		query: ParsedQuery,
		include: NoteFilter | null,
		limit: number,
		pause: SearchPause | null,
		partialAnswer = false,
	): Promise<{ total: number; checks?: PhraseChecks; hits: Array<Omit<SearchHit, "snippets">>; stem: Stemmer | null; cut?: PrefixCut } | null> {
		const generation = this.index.generation;
		this.index.beginSearch();
		// While a replaced version's postings are taken out of lists (`retiredSlotHeld`), only the current notes are counted.
		const filter = include ?? (this.index.retiredSlotHeld ? EVERY_CURRENT_NOTE : null);
		const accepted = filter ? await this.stepped(this.index.acceptedSlots(filter), pause, generation) : null;
		if (accepted === undefined) return null;
		const corpusSize = accepted ? accepted.count : this.index.size;
		const totalLength = accepted ? accepted.totalLength : this.index.totalBodyLength;
		if (query.required.length === 0) return { total: 0, hits: [], stem: null };
		// Word forms and prefixes are looked up in the dictionary's sorted view: the first lookup after a start sorts every word, in steps here.
		if (pause && (await this.stepped(this.index.dictionary.sortedViewSteps(), pause, generation)) === undefined) return null;
		// A word typed twice counts once, in the score and in how much of a title the query covers.
		const firstSight = onceEach();
		const terms = query.required.filter(firstSight);
		const stem = this.rememberedStemmer();
		// A search that may pause merges prefixes in scratch of its own: another search runs meanwhile and reuses the shared scratch.
		const scratch = pause ? unionScratch() : null;
		const evidence: TermEvidence[] = [];
		// The search's prefixes share one bound: sixty two-letter prefixes of a planted vocabulary took 4,096 words each.
		const each = prefixWordsEach(terms);
		for (const term of terms) {
			const resolved = scratch
				? await this.stepped(this.index.resolveEvidenceSteps(term.tokens, stem, scratch, accepted?.slots ?? null, each), pause, generation)
				: this.index.resolveEvidence(term.tokens, stem, accepted?.slots ?? null, each);
			if (resolved === undefined) return null;
			evidence.push(resolved);
		}
		const wanted = evidence.map((term) => term.any);
		// The words that stood for only their `each` shortest completions: the answer says so.
		// A phrase's is its last word, named with the phrase: `"b" (ending "alpha b")`.
		const cut = {
			words: terms
				.filter((_, termIndex) => evidence[termIndex]?.prefixCut === true)
				.map((term) => (term.tokens.length > 1 ? `"${term.tokens.at(-1) ?? ""}" (ending "${term.source}")` : `"${term.source}"`)),
			each,
		};
		// An exclusion typed many times is resolved once: each costs a pass over its postings.
		const exclusions = query.excluded.filter(onceEach());
		const excludedWords = await this.stepped(
			this.index.notesHoldingAnySteps(
				exclusions.filter((term) => term.tokens.length === 1).map((term) => term.tokens[0] ?? ""),
				accepted?.slots ?? null,
				// A phrase's last word takes every word it starts too: counted against the same bound, refused past it.
				exclusions.filter((term) => term.tokens.length > 1).map((term) => term.tokens.at(-1) ?? ""),
			),
			pause,
			generation,
		);
		if (excludedWords === undefined) return null;
		const excludedPhrases: ResolvedTerm[] = [];
		for (const term of exclusions) {
			if (term.tokens.length < 2) continue;
			// A phrase ending in a short prefix walks and merges every word it starts: in steps when the search may pause.
			const resolved = scratch ? await this.stepped(this.index.resolveSteps(term.tokens, scratch), pause, generation) : this.index.resolve(term.tokens);
			if (resolved === undefined) return null;
			if (resolved) excludedPhrases.push(resolved);
		}
		// Known from the postings before any note is read: a search whose phrases' reads would pass the call's budget is refused here, not stopped there.
		const phraseNotes = notesPhrasesAreLookedFor([...wanted, ...excludedPhrases], accepted?.slots ?? null);
		if (phraseNotes > this.phraseNotesMax) throw new TooManyPhraseNotes(phraseNotes, this.phraseNotesMax);
		const optionalTerms = query.optional.filter(firstSight).flatMap((term) => optional(this.index.resolveWhole(term.tokens)));
		const termCount = terms.length;
		const joined = this.joinedWords(query, terms, stem);
		// The words a negated query word makes with a negating prefix (`never used` → `unused`), and two adjacent
		// query words written closed (`top level` → `toplevel`), in any of their forms.
		const negated = negatedWords(query, terms);
		for (const [index, { word, parts }] of [...negated, ...closedCompounds(query, terms)].entries()) {
			const term = scratch
				? await this.stepped(this.index.resolveWithFormsSteps(word, stem, scratch, accepted?.slots ?? null), pause, generation)
				: this.index.resolveWithForms(word, stem, accepted?.slots ?? null);
			if (term === undefined) return null;
			if (term) joined.push(index < negated.length ? { term, parts } : { term, parts, closed: true });
		}
		// A search that may pause gathers into arrays of its own: another search runs meanwhile and reuses the shared scratch.
		const finder = pause ? new CandidateFinder(this.index) : this.candidates;
		// Notes few enough have their phrases read here, all of them; more are read best first while ranking (rankByBounds).
		const readPhrases = (found: Gathered) =>
			found.total <= this.phraseReadAllMax ? this.stepped(finder.verifyAll(wanted, found), pause, generation) : Promise.resolve(found);
		let gathered =
			!partialAnswer && wanted.every((term) => term.length > 0)
				? await this.stepped(finder.holdingAll(wanted, excludedWords, excludedPhrases, accepted?.slots ?? null), pause, generation)
				: null;
		if (gathered) gathered = await readPhrases(gathered);
		if (gathered === undefined) return null;
		const partialMinimum = Math.max(1, Math.ceil(termCount * SOFT_AND_MIN_WORD_SHARE));
		// Several words: the page's candidates and more are kept, for their words' proximity to reorder (byProximity).
		const proximityOn = termCount > 1 && PROXIMITY_CANDIDATES > 0;
		// As many notes are ranked for a page of 1 as for a page of PROXIMITY_CANDIDATES, and the notes holding fewer words join
		// them on that count, not the page's: so a page is the first notes of any larger one up to PROXIMITY_CANDIDATES.
		const kept = proximityOn ? Math.max(limit, PROXIMITY_CANDIDATES) : limit;
		// Unread phrases mean more than phraseReadAllMax notes may hold every term, more than a page: no partial answer.
		if (termCount > 1 && (gathered === null || gathered.total < kept)) {
			// Fewer notes than the page holding that share of the words: those holding one word fewer fill it, and so on down to one word,
			// so a question in words the vault does not use ("forbid certain matchers like toBeTruthy") still finds the page holding its one telling word.
			for (let minimum = partialMinimum; minimum >= 1; minimum--) {
				gathered = await this.stepped(finder.holdingMost(wanted, minimum, excludedWords, excludedPhrases, accepted?.slots ?? null), pause, generation);
				if (gathered) gathered = await readPhrases(gathered);
				if (gathered === undefined) return null;
				if (gathered === null || gathered.total >= kept) break;
			}
		} else if (termCount > 1 && gathered !== null && wanted.every((term) => !term.phrase)) {
			// The notes holding every word fill the page; a note named by most of them (its title or
			// an alias) still competes on its score: long notes that mention every word in passing
			// (newsletters, changelogs) would otherwise crowd out the page named for the topic.
			gathered = await this.stepped(
				finder.withNamedPartials(wanted, partialMinimum, gathered, excludedWords, excludedPhrases, accepted?.slots ?? null),
				pause,
				generation,
			);
			if (gathered === undefined) return null;
		}
		if (gathered === null) return { total: 0, hits: [], stem, cut };
		const { total } = gathered;
		const frequency = (term: ResolvedTerm) => (accepted ? countAccepted(term, accepted.slots) : term.length);
		const idfOf = (count: number) => Math.log(1 + (corpusSize - count + 0.5) / (count + 0.5));
		// A word's rarity is that of the word and its forms, when a note holds them; else of what it starts.
		// A template's word counts in a note beyond the template's count of it; its rarity is of the notes holding it so (templates.ts).
		const templates = evidence.map((term, termIndex) =>
			term.exact ? this.templateOf(terms[termIndex]?.tokens[0] ?? "", term.exact, accepted?.slots ?? null, corpusSize, generation) : null,
		);
		const requiredIdf = evidence.map((term, termIndex) => {
			const strong = accepted ? countEither(term.exact, term.forms, accepted.slots) : term.strongNotes;
			const template = templates[termIndex];
			if (template && term.exact) return idfOf(Math.max(1, template.notes + strong - frequency(term.exact)));
			return idfOf(strong > 0 ? strong : frequency(term.any));
		});
		const optionalIdf = optionalTerms.map((term) => idfOf(frequency(term)));
		const joinedIdf = joined.map((word) => idfOf(frequency(word.term)));
		const ranking = new CandidateRanking({
			index: this.index,
			query,
			evidence,
			templates,
			requiredIdf,
			optionalTerms,
			optionalIdf,
			joined,
			joinedIdf,
			wanted,
			gathered,
			finder,
			acceptedSlots: accepted?.slots ?? null,
			averageLength: Math.max(1, totalLength / Math.max(1, corpusSize)),
			limit,
			kept,
			proximityOn,
			scoreEvery: this.scoreEvery,
		});
		const top = ranking.top;
		let counted: { total: number; checks?: PhraseChecks } = { total };
		if (gathered.unverified.length === 0) {
			// Notes with a term in their names first: they rank highest, so the page they fill leaves out most of the rest unscored.
			for (const named of [true, false]) {
				// A page whose worst tier no note unnamed may reach leaves all of them out: not one is looked at.
				if (!named && ranking.noneUnnamedMayEnter()) break;
				ranking.restartCursors();
				for (let from = 0; from < total; from += SEARCH_PAUSE_CHECK_MASK + 1) {
					const waiting = from > 0 ? pause?.() : null;
					if (waiting) {
						await waiting;
						if (this.index.generation !== generation) return null;
					}
					ranking.rankRange(from, Math.min(total, from + SEARCH_PAUSE_CHECK_MASK + 1), named);
				}
			}
		} else {
			// Too many notes hold the phrases' words to read them all: they are read best bound first, until the page is settled (bestFirst.ts).
			const ruledOut = this.scoreEvery ? null : await this.stepped(finder.ruledOutSteps(wanted, gathered), pause, generation);
			if (ruledOut === undefined) return null;
			ranking.ruledOut = ruledOut;
			const ranked = await this.stepped(rankByBounds(this.scoreEvery ? withoutLooseBound(ranking) : ranking), pause, generation);
			if (ranked === undefined) return null;
			// Every note read, and fewer than a page hold every term: the partial answer, as when they were read while gathering.
			if (!ranked.checks && ranked.held < kept && termCount > 1 && gathered.minimum === null) return this.rank(query, include, limit, pause, true);
			counted = { total: ranked.held, checks: ranked.checks };
		}
		top.sort((a, b) => compareRanked(this.index, b, a));
		if (proximityOn) {
			this.byProximity(top, limit, ranking.barred, evidence, requiredIdf);
			top.length = Math.min(top.length, limit);
		}
		const hits = top.map(({ slot, score, matched: held }) => {
			const path = this.index.documents[slot]?.path ?? "";
			const matchedWords = terms.filter((_, termIndex) => held?.[termIndex] === 1).map((term) => term.source);
			return { path, score: Math.round(score * 1000) / 1000, matched_words: matchedWords };
		});
		return { ...counted, hits, stem, cut };
	}

	/**
	 * Reorders the first PROXIMITY_CANDIDATES of a ranked page (best first) by how close each
	 * note keeps the query's words: a note whose words stand pages apart keeps less of its score
	 * (proximityFactor) than one saying them in one passage of PROXIMITY_WINDOW tokens, and a long
	 * note less again when they are in different sections (SECTION_MIN_TOKENS), a term of its title
	 * or an alias counting in every passage and section (proximity.ts). Tiers still come first. Reads
	 * at most PROXIMITY_MAX_TOKENS tokens of each body: bounded work, whatever the vault.
	 */
	private byProximity(top: Ranked[], limit: number, barred: number, evidence: readonly TermEvidence[], requiredIdf: readonly number[]): void {
		// A search of one candidate is not reordered, counting those turned away below the page (`barred`) that a heap of
		// PROXIMITY_CANDIDATES would have kept.
		if (Math.min(top.length + barred, PROXIMITY_CANDIDATES) < 2 || limit <= 0) return;
		let count = Math.min(top.length, PROXIMITY_CANDIDATES);
		// A candidate below the page keeps at most its score, and every note of the page at least `leastKept` of its own:
		// one scoring less than the least a note of the page's last tier keeps (or of a lower tier) stays below the page, whatever its passages.
		if (limit < count) {
			const last = top[limit - 1] as Ranked;
			let floor = Number.POSITIVE_INFINITY;
			for (let index = 0; index < limit; index++) {
				const entry = top[index] as Ranked;
				if (entry.tier === last.tier) floor = Math.min(floor, entry.score * leastKept(this.index, entry.slot));
			}
			let reach = limit;
			while (reach < count && (top[reach] as Ranked).tier === last.tier && (top[reach] as Ranked).score >= floor) reach++;
			// The page's own notes are still scored: their scores are shown.
			count = reach;
		}
		const codes = this.proximityCodes(evidence);
		if (codes === null) return;
		const terms: ProximityTerms = { codes, idf: Float64Array.from(requiredIdf), relatedWeight: EXPANSION_MATCH_WEIGHT };
		const scratch = proximityScratch(PROXIMITY_WINDOW, evidence.length);
		const named = new Uint8Array(evidence.length);
		const tableSize = codes.length;
		try {
			for (let index = 0; index < count; index++) {
				const entry = top[index] as Ranked;
				const doc = this.index.documents[entry.slot];
				if (!doc) continue;
				// A body of one passage or less is its own best passage: it keeps its whole score (proximityFactor is 1).
				if (doc.bodyLength <= PROXIMITY_WINDOW) continue;
				named.fill(0);
				let namedCount = 0;
				const { ids, count: nameIds } = this.index.unpackNames(doc);
				// The runs, each after its length: the title (name 0), the headings (not a name), then each alias.
				for (let at = 0, run = 0; at < nameIds; run++) {
					const from = at + 1;
					const to = from + (ids[at] as number);
					at = to;
					if (run === 1) continue;
					for (let word = from; word < to; word++) {
						const id = ids[word] as number;
						const code = id < tableSize ? (codes[id] as number) - 1 : NO_TERM;
						if (code !== NO_TERM && (code & 1) === 0 && named[code >> 1] === 0) {
							named[code >> 1] = 1;
							namedCount++;
						}
					}
				}
				// Its names hold every term: each counts in every passage, and it keeps its whole score.
				if (namedCount === evidence.length) continue;
				passageEvidence(doc.packed, doc.bodyBytes, PROXIMITY_MAX_TOKENS, PROXIMITY_WINDOW, terms, named, scratch, doc.sections);
				entry.score *= proximityFactor(scratch.passageIdf, scratch.sectionIdf, scratch.heldIdf);
			}
		} finally {
			for (const term of evidence) {
				for (const id of term.relatedIds ?? []) codes[id] = 0;
				for (const id of term.strongIds ?? []) codes[id] = 0;
			}
		}
		const head = top.slice(0, count).sort((a, b) => compareRanked(this.index, b, a));
		for (let index = 0; index < count; index++) top[index] = head[index] as Ranked;
	}

	/**
	 * The engine's table of token id to query term (ProximityTerms.codes) set for `evidence`, or null
	 * when no term has an id. Kept from search to search, as long as the largest id needs; the caller
	 * sets the ids it set back to 0 after the pass, so a search costs its terms' ids, not the table.
	 */
	private proximityCodes(evidence: readonly TermEvidence[]): Int32Array | null {
		let largest = -1;
		for (const term of evidence) {
			for (const id of term.relatedIds ?? []) if (id > largest) largest = id;
			for (const id of term.strongIds ?? []) if (id > largest) largest = id;
		}
		if (largest < 0) return null;
		if (this.proximityTable.length <= largest) this.proximityTable = new Int32Array(Math.max(largest + 1, this.proximityTable.length * 2));
		const codes = this.proximityTable;
		evidence.forEach((term, termIndex) => {
			for (const id of term.relatedIds ?? []) if (codes[id] === 0) codes[id] = termIndex * 2 + 2;
			for (const id of term.strongIds ?? []) codes[id] = termIndex * 2 + 1;
		});
		return codes;
	}

	/**
	 * `templateWord` of a word's postings as typed (`exact`), kept for the next search of the
	 * whole vault: it is a pass over every note holding the word, twice, and a common word's
	 * search repeats it for nothing. Within a generation a list only grows at its end, so the
	 * word, the list's length and the corpus's size name the same postings; a filtered search
	 * (`accepted`) works it out each time.
	 */
	private templateOf(word: string, exact: ResolvedTerm, accepted: Uint8Array | null, corpusSize: number, generation: number): TemplateWord | null {
		if (accepted) return templateWord(exact, accepted, corpusSize);
		if (this.templateGeneration !== generation || this.templateMemo.size >= TEMPLATE_MEMO_WORDS) {
			this.templateMemo.clear();
			this.templateGeneration = generation;
		}
		const kept = this.templateMemo.get(word);
		if (kept && kept.length === exact.length && kept.corpusSize === corpusSize) return kept.template;
		const template = templateWord(exact, null, corpusSize);
		this.templateMemo.set(word, { length: exact.length, corpusSize, template });
		return template;
	}

	/**
	 * Runs a step of the search that yields between pieces of its work (see candidates.ts) to its
	 * end, pausing on `pause` where it yields and after its last step; undefined when the index
	 * changed while it paused. Without `pause` it runs in one piece.
	 */
	/**
	 * The dictionary's stemmer, remembering its answers across searches until the stemmer changes:
	 * snippets meet the same words again and again, in one search and in the next.
	 */
	private rememberedStemmer(): Stemmer | null {
		const stemmer = this.index.dictionary.stemmer;
		if (this.stems.of !== stemmer) this.stems = { of: stemmer, memo: memoized(stemmer, SEARCH_STEM_MEMO_WORDS) };
		return this.stems.memo;
	}

	private async stepped<T>(steps: Generator<void, T, void>, pause: SearchPause | null, generation: number): Promise<T | undefined> {
		for (;;) {
			const next = steps.next();
			// After the last step too: a query of 80 prefixes is 80 steps that each end without
			// yielding, and ran back to back in one piece of 0.2–0.4 s.
			const waiting = pause?.();
			if (waiting) {
				await waiting;
				if (this.index.generation !== generation) {
					// Given up: a step holding scratch zeroes it on the way out.
					if (!next.done) steps.return(undefined as T);
					return undefined;
				}
			}
			if (next.done) return next.value;
		}
	}

	/**
	 * The words that a query word and the particle after it make written as one, as typed (`back
	 * up` → `backup`) or with the first word's stem (`logged in` → `login`), that some note holds as
	 * a word (ENGLISH_PARTICLES); each with the query terms it stands for.
	 */
	private joinedWords(query: ParsedQuery, terms: readonly QueryTerm[], stem: Stemmer | null): JoinedWord[] {
		const found = new Map<string, JoinedWord>();
		for (const [first, second] of query.adjacent ?? []) {
			if (!ENGLISH_PARTICLES.has(second) || termIndexOf(terms, first) < 0) continue;
			const parts = [termIndexOf(terms, first), termIndexOf(terms, second)].filter((index) => index >= 0);
			for (const word of new Set([first + second, (stem ? stem(first) : first) + second])) {
				if (found.has(word) || termIndexOf(terms, word) >= 0) continue;
				const term = this.index.resolveWhole([word]);
				if (term) found.set(word, { term, parts });
			}
		}
		return [...found.values()];
	}
}

/** Positive when `a` ranks above `b`: a whole-title match, then higher score, then the more recently modified, then by path. */
function compareRanked(index: PostingsIndex, a: Ranked, b: Ranked): number {
	if (a.tier !== b.tier) return a.tier - b.tier;
	if (a.score !== b.score) return a.score - b.score;
	const modified = (index.modifiedTimes[a.slot] as number) - (index.modifiedTimes[b.slot] as number);
	if (modified !== 0) return modified;
	// Strictly: two paths the collator calls equal (a soft hyphen it ignores) were ranked in the order the notes were last indexed.
	const pathA = index.documents[a.slot]?.path ?? "";
	const pathB = index.documents[b.slot]?.path ?? "";
	return pathB.localeCompare(pathA) || (pathB < pathA ? -1 : pathB > pathA ? 1 : 0);
}

/** The least share of its score the proximity pass leaves a note: less for a long note, which it also cuts by its sections. */
function leastKept(index: PostingsIndex, slot: number): number {
	return index.documents[slot]?.sections ? LEAST_PROXIMITY_FACTOR : LEAST_PASSAGE_FACTOR;
}

/** Whether page entry `a` is below `b` (a min-heap on tier, then score: CandidateRanking's page bound). */
function pageBelow(tiers: Float64Array, scores: Float64Array, a: number, b: number): boolean {
	return (tiers[a] as number) < (tiers[b] as number) || (tiers[a] === tiers[b] && (scores[a] as number) < (scores[b] as number));
}

/** Swaps page entries `a` and `b`. */
function pageSwap(tiers: Float64Array, scores: Float64Array, a: number, b: number): void {
	const tier = tiers[a] as number;
	const score = scores[a] as number;
	tiers[a] = tiers[b] as number;
	scores[a] = scores[b] as number;
	tiers[b] = tier;
	scores[b] = score;
}

/**
 * Compared before the score. One word: held as typed or in another form (`strong` of them), then
 * the title tier, then as typed (`exact`; a word's other forms and extensions fill, never
 * outrank). Several words: only a title or alias holding them all, when the note holds them all
 * as typed or in another form; the rest is the score's, so holding one more everyday word never
 * outranks holding the word that tells notes apart.
 */
function candidateTier(termCount: number, strong: number, exact: number, nameTier: number): number {
	return termCount === 1 ? (strong * (TITLE_TIER_WHOLE + 1) + nameTier) * 2 + exact : strong === termCount && nameTier >= TITLE_TIER_ALL ? nameTier : 0;
}

/**
 * The most a note's match of `term` weighs in its score (CandidateRanking.score's `weight`): 1 when a
 * note may hold it as typed or in another form, or it is a phrase; else it is held only as a word
 * meaning the same (EXPANSION_MATCH_WEIGHT) or a longer word it starts (PREFIX_MATCH_WEIGHT). At
 * full weight the bound of a prefix's note was three times its score: every one of a prefix's
 * 29,000 notes at 50,000 was scored. Pure.
 */
function matchWeightBound(term: TermEvidence): number {
	if (term.strongIds === null || term.strongIds.size > 0) return 1;
	return term.related ? Math.max(EXPANSION_MATCH_WEIGHT, PREFIX_MATCH_WEIGHT) : PREFIX_MATCH_WEIGHT;
}

/** rankByBounds's view of a ranking with no loose bound: every candidate keyed by its score from the start (SearchEngine's `scoreEvery`). */
function withoutLooseBound(ranking: CandidateRanking): BoundedRanking {
	return {
		count: ranking.count,
		slots: ranking.slots,
		scored: ranking.scored,
		ruledOut: ranking.ruledOut,
		score: (index, anyOrder) => ranking.score(index, anyOrder),
		refine: (index) => ranking.refine(index),
		read: (index) => ranking.read(index),
		keep: (index) => ranking.keep(index),
		worstKept: () => ranking.worstKept(),
	};
}

/** What a search hands the ranking of its candidates (CandidateRanking): its terms resolved, their rarity, the candidates and the page. */
interface RankingInputs {
	index: PostingsIndex;
	query: ParsedQuery;
	evidence: readonly TermEvidence[];
	/** Per term, the template its word as typed has (templates.ts), or null. */
	templates: ReadonlyArray<TemplateWord | null>;
	requiredIdf: readonly number[];
	optionalTerms: readonly ResolvedTerm[];
	optionalIdf: readonly number[];
	joined: readonly JoinedWord[];
	joinedIdf: readonly number[];
	wanted: readonly ResolvedTerm[];
	gathered: Gathered;
	finder: CandidateFinder;
	/** The notes a filter accepts (1 each), or null: every note. */
	acceptedSlots: Uint8Array | null;
	/** The accepted notes' average body length, for BM25. */
	averageLength: number;
	limit: number;
	/** How many candidates the heap keeps: the page, or more for the proximity pass. */
	kept: number;
	proximityOn: boolean;
	scoreEvery: boolean;
}

/**
 * One search's ranking of its gathered candidates: scoring and bounding each from its row of
 * values, keeping the best `kept` in `top`, and, for candidates read best bound first, the
 * BoundedRanking that rankByBounds asks of it. Methods over one object, not closures a search
 * makes anew: every search then calls the same functions, which V8 compiles once (closures made
 * per search deoptimized the ranking's callers on "wrong call target", and it ran unoptimized
 * while they were compiled again: the 50,000-note mix's first rounds). Made per search.
 */
class CandidateRanking implements BoundedRanking {
	readonly count: number;
	readonly slots: Uint32Array;
	/** One candidate's tier and score (score) or bound (bound), as rankByBounds reads them. */
	readonly scored = { score: 0, tier: 0 };
	/** With refining, the candidates an earlier search of the phrase ruled out (BoundedRanking.ruledOut). */
	ruledOut: Uint8Array | null = null;
	/** The best `kept` so far, in a heap whose root is the worst (offer). */
	readonly top: Ranked[] = [];
	/** Candidates the bar turned away that the heap, not yet full, would have kept: the proximity pass runs as if they were there. */
	barred = 0;
	private readonly index: PostingsIndex;
	private readonly query: ParsedQuery;
	private readonly values: Uint32Array;
	private readonly termCount: number;
	private readonly evidence: readonly TermEvidence[];
	private readonly templates: ReadonlyArray<TemplateWord | null>;
	private readonly requiredIdf: readonly number[];
	private readonly optionalTerms: readonly ResolvedTerm[];
	private readonly optionalIdf: readonly number[];
	private readonly joined: readonly JoinedWord[];
	private readonly joinedIdf: readonly number[];
	private readonly wanted: readonly ResolvedTerm[];
	private readonly gathered: Gathered;
	private readonly finder: CandidateFinder;
	private readonly acceptedSlots: Uint8Array | null;
	private readonly limit: number;
	private readonly kept: number;
	private readonly scoreEvery: boolean;
	// Each list's cursor, where seeking the next candidate's value starts: candidates come in slot order (restartCursors before each pass; rankByBounds's in any order, `score` with `anyOrder`).
	private readonly exactCursors: number[];
	private readonly formCursors: number[];
	private readonly relatedCursors: number[];
	private readonly optionalCursors: number[];
	private readonly joinedCursors: number[];
	/** Per term, 1 when the candidate being scored holds it. */
	private readonly matched: Uint8Array;
	/** Per term, 1 when the candidate being scored holds it as typed or in another form. */
	private readonly strongMask: Uint8Array;
	/** Per term, 1 when the candidate holds it only as often as a template does: held, but it weighs nothing. */
	private readonly templateOnly: Uint8Array;
	/** Per term, 1 when a joined word of the candidate stands for it. */
	private readonly joinedHeld: Uint8Array;
	/** Per term, how much of its idf the candidate holds by its evidence: 1 as typed or in another form, less for a word meaning the same or an extension. */
	private readonly heldWeight: Float64Array;
	/** Per term, whether it is a word of one note's title only (a longer word it starts counted too): 0 not looked yet, 1 yes, 2 no. */
	private readonly titlesOne: Uint8Array;
	/** The ids of the search's stop words, looked up once a long title needs them (stopIds). */
	private stopIdSet: Set<number> | null = null;
	private readonly optionalIds: Set<number>;
	/** A title that is mostly the query's words, and holds the telling ones, beats one that merely holds one: "Dataview Format" over "Searches - Dataview". */
	private readonly titleCoverageWeight: number;
	private readonly totalIdf: number;
	/** Per term, its idf in the share of the query a note holds: less for a word no note searched names (UNNAMED_WORD_SHARE_WEIGHT). */
	private readonly shareIdf: number[];
	private readonly totalShareIdf: number;
	/** Per term, the most a note's match of it weighs in the score (matchWeightBound): what boundCandidate counts it at. */
	private readonly boundWeights: number[];
	/** Whether a note may hold every term as typed or in another form: else every note is in the lowest tier (candidateTier). */
	private readonly allMayBeStrong: boolean;
	private readonly bodyLengths: Uint32Array;
	private readonly titleLengths: Uint8Array;
	private readonly aliased: Uint8Array;
	/** BM25's length normalisation, k1 · (1 − b + b · length / average), as base + scale · length. */
	private readonly normBase = BM25_K1 * (1 - BM25_B);
	private readonly normScale: number;
	/** What stop words and joined words may add to any note's score, each at its largest field score. */
	private readonly extraBound: number;
	/** Whether a note whose wanted terms are nowhere in its names may still have title words: a stop word's or joined word's. */
	private readonly namedByExtras: boolean;
	/** Whether a name may be whole with words no term's value counts: stop words, or the words of a phrase standing elsewhere in it. */
	private readonly wholeByExtras: boolean;
	/** One candidate's bound (boundCandidate). */
	private readonly bounded = { score: 0, tier: 0 };
	/** What the last `titleTier` found of how well the note's best alias holding every term and the query overlap (titleCoverage). */
	private aliasCoverage = 0;
	// With the proximity pass, the heap keeps more than the page; the page's own last note (its limit-th best so far, in
	// `pageTiers`/`pageScores`, a heap of `limit` whose root is the worst) bounds what can still reach the page: the pass
	// keeps at least `leastKept` of a page note's score, and never raises one (byProximity). The heap holds that least.
	private readonly pageBound: boolean;
	private readonly pageTiers: Float64Array;
	private readonly pageScores: Float64Array;
	private pageSize = 0;
	// What a candidate must reach to be worth scoring and keeping: the heap's worst once it is full, or, when stricter,
	// the page's last note's tier at LEAST_PROXIMITY_FACTOR of its score. Below it strictly, a candidate cannot change the page.
	private readonly bar = { slot: 0, tier: 0, score: 0 };

	constructor(inputs: RankingInputs) {
		const { evidence, requiredIdf, acceptedSlots } = inputs;
		const termCount = evidence.length;
		this.index = inputs.index;
		this.query = inputs.query;
		this.count = inputs.gathered.total;
		this.slots = inputs.gathered.slots;
		this.values = inputs.gathered.values;
		this.termCount = termCount;
		this.evidence = evidence;
		this.templates = inputs.templates;
		this.requiredIdf = requiredIdf;
		this.optionalTerms = inputs.optionalTerms;
		this.optionalIdf = inputs.optionalIdf;
		this.joined = inputs.joined;
		this.joinedIdf = inputs.joinedIdf;
		this.wanted = inputs.wanted;
		this.gathered = inputs.gathered;
		this.finder = inputs.finder;
		this.acceptedSlots = acceptedSlots;
		this.limit = inputs.limit;
		this.kept = inputs.kept;
		this.scoreEvery = inputs.scoreEvery;
		this.exactCursors = new Array<number>(termCount).fill(0);
		this.formCursors = new Array<number>(termCount).fill(0);
		this.relatedCursors = new Array<number>(termCount).fill(0);
		this.optionalCursors = new Array<number>(inputs.optionalTerms.length).fill(0);
		this.joinedCursors = new Array<number>(inputs.joined.length).fill(0);
		this.matched = new Uint8Array(termCount);
		this.strongMask = new Uint8Array(termCount);
		this.templateOnly = new Uint8Array(termCount);
		this.joinedHeld = new Uint8Array(termCount);
		this.heldWeight = new Float64Array(termCount);
		this.titlesOne = new Uint8Array(termCount);
		this.optionalIds = new Set<number>(
			this.query.optional.flatMap((term) => (term.tokens.length === 1 ? optional(this.index.dictionary.lookup(term.tokens[0] ?? "")) : [])),
		);
		this.totalIdf = requiredIdf.reduce((sum, value) => sum + value, 0);
		this.titleCoverageWeight = (TITLE_COVERAGE_WEIGHT * this.totalIdf) / termCount;
		this.shareIdf = requiredIdf.map((idf, termIndex) => {
			const term = evidence[termIndex];
			if (!term?.strongIds) return idf;
			const named = namesWord(term.exact, acceptedSlots) || (term.forms?.lists.some((list) => namesWord(list, acceptedSlots)) ?? false);
			return named ? idf : idf * UNNAMED_WORD_SHARE_WEIGHT;
		});
		this.totalShareIdf = this.shareIdf.reduce((sum, value) => sum + value, 0);
		this.boundWeights = evidence.map(matchWeightBound);
		this.allMayBeStrong = this.boundWeights.every((weight) => weight === 1);
		this.bodyLengths = this.index.bodyLengths;
		this.titleLengths = this.index.titleLengths;
		this.aliased = this.index.aliased;
		this.normScale = (BM25_K1 * BM25_B) / inputs.averageLength;
		let extraBound = 0;
		for (const idf of this.optionalIdf) extraBound += OPTIONAL_WORD_WEIGHT * idf * FIELD_SCORE_MAX;
		for (const idf of this.joinedIdf) extraBound += JOINED_WORD_WEIGHT * idf * FIELD_SCORE_MAX;
		this.extraBound = extraBound;
		this.namedByExtras = this.optionalTerms.length > 0 || this.joined.length > 0;
		this.wholeByExtras = this.optionalIds.size > 0 || this.wanted.some((term) => term.phrase !== null);
		this.pageBound = inputs.proximityOn && this.limit > 0 && this.limit < this.kept && !this.scoreEvery;
		this.pageTiers = new Float64Array(this.pageBound ? this.limit : 0);
		this.pageScores = new Float64Array(this.pageBound ? this.limit : 0);
	}

	/** Every list's cursor back to its start: before a pass over the candidates in slot order. */
	restartCursors(): void {
		this.exactCursors.fill(0);
		this.formCursors.fill(0);
		this.relatedCursors.fill(0);
		this.optionalCursors.fill(0);
		this.joinedCursors.fill(0);
	}

	/** Whether the page is full at a tier no note without a term in its names may reach: none of them is looked at. */
	noneUnnamedMayEnter(): boolean {
		const worst = this.top.length >= this.kept && !this.scoreEvery ? this.top[0] : undefined;
		return worst !== undefined && this.tierBound(false, true, 0) < worst.tier;
	}

	/**
	 * Candidates [from, to) that are (or are not) `named`, scored and offered to the page unless they cannot enter it.
	 * A method called between pauses, not the async function's own loop: V8 runs that several times slower.
	 */
	rankRange(from: number, to: number, named: boolean): void {
		for (let index = from; index < to; index++) {
			if (rowNamed(this.values, index, this.termCount) !== named) continue;
			const worst = this.cutoff();
			// Turned away by its bound, or by its score: the page cannot change for it.
			if (this.cannotEnter(index, worst)) {
				if (worst === this.bar && this.top.length < this.kept) this.barred++;
				continue;
			}
			this.score(index, false, worst);
			if (worst && (this.scored.tier < worst.tier || (this.scored.tier === worst.tier && this.scored.score < worst.score))) {
				if (worst === this.bar && this.top.length < this.kept) this.barred++;
				continue;
			}
			this.offer(this.slots[index] as number, this.scored.score, this.scored.tier);
			if (this.pageBound) this.onPage(this.scored.tier, this.scored.score * leastKept(this.index, this.slots[index] as number));
		}
	}

	/** One candidate's tier and score, from its row of values, into `scored`: in slot order, or in any order from the postings' start. */
	score(index: number, anyOrder: boolean, worst?: Ranked): void {
		if (anyOrder) {
			this.exactCursors.fill(0);
			this.formCursors.fill(0);
			this.relatedCursors.fill(0);
			this.optionalCursors.fill(0);
			this.joinedCursors.fill(0);
		}
		const slot = this.slots[index] as number;
		const norm = this.normBase + this.normScale * Math.max(1, this.bodyLengths[slot] as number);
		let score = 0;
		// What the title weight of the title's words counts in the score, for a long title's cut.
		let titleWeighed = 0;
		let titleWords = 0;
		let titleIdf = 0;
		let strong = 0;
		let exact = 0;
		let inTitle = false;
		// Whether a term held as typed or in another form is one of the title's words.
		let strongInTitle = false;
		for (let termIndex = 0; termIndex < this.termCount; termIndex++) {
			this.matched[termIndex] = 0;
			this.templateOnly[termIndex] = 0;
			const anyValue = this.values[index * this.termCount + termIndex] as number;
			if (anyValue === 0) continue;
			const term = this.evidence[termIndex] as TermEvidence;
			let value = anyValue;
			let weight = PREFIX_MATCH_WEIGHT;
			if (term.strongIds === null) {
				// A phrase: matched as typed.
				weight = 1;
				exact++;
			} else {
				let exactValue = term.exact ? valueAt(term.exact, this.exactCursors, termIndex, slot) : 0;
				const template = this.templates[termIndex];
				if (template && exactValue !== 0) {
					exactValue = withoutTemplate(exactValue, template);
					if ((exactValue & (BODY_COUNT | IN_TITLE)) === 0) {
						exactValue = 0;
						this.templateOnly[termIndex] = 1;
					}
				}
				const formValue = term.forms ? formsValueAt(term.forms, this.formCursors, termIndex, slot) : 0;
				if (exactValue !== 0) {
					// The body may hold the word as typed and the title another form (`Hooks`,
					// `npm-deprecate`): the title and heading evidence of either counts.
					// Merged only when there is something to merge: this runs for every candidate of a common word.
					value = exactValue;
					if (formValue !== 0) value = mergeValues(value, formValue & ~BODY_COUNT);
					weight = 1;
					exact++;
				} else if (formValue !== 0) {
					value = formValue;
					weight = FORM_MATCH_WEIGHT;
				} else if (this.templateOnly[termIndex] === 1) {
					// Held as typed, only as the template holds it: as held as the notes saying it, but it adds nothing.
					this.strongMask[termIndex] = 1;
					strong++;
					exact++;
					this.matched[termIndex] = 1;
					continue;
				} else if (term.related) {
					// Only a word meaning the same (`parameters` for `params`): below its forms, above a longer word it starts.
					const relatedValue = formsValueAt(term.related, this.relatedCursors, termIndex, slot);
					if (relatedValue !== 0) {
						value = relatedValue;
						weight = EXPANSION_MATCH_WEIGHT;
					}
				}
			}
			const strongMatch = weight !== PREFIX_MATCH_WEIGHT && weight !== EXPANSION_MATCH_WEIGHT;
			this.strongMask[termIndex] = strongMatch ? 1 : 0;
			this.heldWeight[termIndex] = strongMatch ? 1 : weight;
			if (strongMatch) strong++;
			// Among several words, a title word the query word only starts (`Catalog` for `cat`) counts
			// as the body's words do, not as a title: its title weight made it outrank a note holding
			// the word as typed. One word's tiers already keep such notes below (ordered by their titles).
			// A title word meaning the same (`max-params` for `parameters`) keeps its title weight.
			else if (this.termCount > 1 && weight === PREFIX_MATCH_WEIGHT) value = Math.min(BODY_COUNT, (value & BODY_COUNT) + titleCount(value));
			this.matched[termIndex] = 1;
			score += (this.requiredIdf[termIndex] as number) * weight * fieldScore(value, norm);
			if (titleCount(value) > 0) titleWeighed += (this.requiredIdf[termIndex] as number) * weight;
			titleWords += titleCount(value);
			if (value & IN_TITLE) {
				inTitle = true;
				if (titleCount(value) > 0) titleIdf += (this.requiredIdf[termIndex] as number) * (this.heldWeight[termIndex] as number);
				if (titleCount(value) > 0 && strongMatch) strongInTitle = true;
			}
		}
		for (let termIndex = 0; termIndex < this.optionalTerms.length; termIndex++) {
			const term = this.optionalTerms[termIndex] as ResolvedTerm;
			const at = seek(term.slots, term.length, this.optionalCursors[termIndex] as number, slot);
			this.optionalCursors[termIndex] = at;
			if (at >= term.length || term.slots[at] !== slot) continue;
			const value = term.values[at] as number;
			score += OPTIONAL_WORD_WEIGHT * (this.optionalIdf[termIndex] as number) * fieldScore(value, norm);
			if (titleCount(value) > 0) titleWeighed += OPTIONAL_WORD_WEIGHT * (this.optionalIdf[termIndex] as number);
			titleWords += titleCount(value);
		}
		// A word the query's two adjacent words make stands for them both: in the score, the title and the share held.
		this.joinedHeld.fill(0);
		for (let joinedIndex = 0; joinedIndex < this.joined.length; joinedIndex++) {
			const word = this.joined[joinedIndex] as JoinedWord;
			const at = seek(word.term.slots, word.term.length, this.joinedCursors[joinedIndex] as number, slot);
			this.joinedCursors[joinedIndex] = at;
			if (at >= word.term.length || word.term.slots[at] !== slot) continue;
			// A note holding both words of a closed compound is scored by them: the compound stands in for the words a
			// note writes closed (require-hook's `toplevel` for `top level`), not as a third match beside them.
			if (word.closed && word.parts.every((part) => this.matched[part] === 1 && this.strongMask[part] === 1)) continue;
			const value = word.term.values[at] as number;
			score += JOINED_WORD_WEIGHT * (this.joinedIdf[joinedIndex] as number) * fieldScore(value, norm);
			if (titleCount(value) > 0) titleWeighed += JOINED_WORD_WEIGHT * (this.joinedIdf[joinedIndex] as number);
			titleWords += titleCount(value);
			for (const part of word.parts) {
				this.joinedHeld[part] = 1;
				if (titleCount(value) > 0) titleIdf += this.requiredIdf[part] as number;
			}
		}
		if (titleWeighed > 0 && (this.titleLengths[slot] as number) > LONG_TITLE_WORDS)
			score -= titleWeighed * longTitleCut(this.contentWords(slot, this.stopIds()));
		const aliasedNote = this.index.aliased[slot] === 1;
		// The names are read (titleTier) only when they can change the answer: an alias's coverage counts in the score;
		// the title's tier counts for one word, or for several when the note holds every one as typed or in another form.
		const namesMatter = inTitle && (aliasedNote || this.termCount === 1 || strong === this.termCount);
		// With no alias, the names change the tier only: a candidate that cannot enter the page even at the best tier its
		// title may have (nameTierBound) is not read. Most of a common word's candidates that pass their bound end here.
		const readNamesLater = namesMatter && !aliasedNote && worst !== undefined;
		// Several words reach a title tier only in a name holding them all: with no alias, that is the title, each term's value then in it.
		const nameMayHoldAll = this.termCount === 1 || aliasedNote || rowNamesAll(this.values, index, this.termCount);
		let titleTier = namesMatter && !readNamesLater ? this.titleTier(slot, nameMayHoldAll) : 0;
		// A title made of nothing but query words, each of them in no other note's title, is the page the vault names
		// for the question's topic: it counts as holding at least NAMED_TOPIC_SHARE of the query (`Logging` for `turn on logging`).
		// (One word held in the title already holds all of the query.)
		let namedTopic = this.termCount > 1 && strongInTitle && titleWords >= (this.titleLengths[slot] as number);
		for (let termIndex = 0; namedTopic && termIndex < this.termCount; termIndex++)
			if (this.matched[termIndex] === 1 && titleCount(this.values[index * this.termCount + termIndex] as number) > 0 && !this.titlesOneNote(termIndex))
				namedTopic = false;
		const titleShare = this.totalIdf > 0 ? Math.min(1, titleIdf / this.totalIdf) : 1;
		// An alias naming the query is a name as much as the title: the better covered counts (`Kanban board` for `obsidian-kanban`).
		const coverage = Math.max(
			titleCoverage(titleWords, this.titleLengths[slot] as number, namedTopic ? Math.max(titleShare, NAMED_TOPIC_SHARE) : titleShare),
			namesMatter && !readNamesLater ? this.aliasCoverage : 0,
		);
		let heldIdf = 0;
		for (let termIndex = 0; termIndex < this.termCount; termIndex++) {
			if (this.templateOnly[termIndex] === 1) continue;
			if (this.joinedHeld[termIndex] === 1) heldIdf += this.shareIdf[termIndex] as number;
			else if (this.matched[termIndex] === 1) heldIdf += (this.shareIdf[termIndex] as number) * (this.heldWeight[termIndex] as number);
		}
		const share = Math.max(this.totalShareIdf > 0 ? heldIdf / this.totalShareIdf : 1, namedTopic ? NAMED_TOPIC_SHARE : 0);
		this.scored.score = (score + coverage * this.titleCoverageWeight) * Math.pow(share, COVERAGE_POWER);
		if (worst !== undefined && readNamesLater) {
			this.scored.tier = candidateTier(this.termCount, strong, exact, this.nameTierBound(index));
			// The page would turn it away (offer) even at that tier: its tier is left at the bound, and the page does turn it away.
			if (this.scored.tier < worst.tier || (this.scored.tier === worst.tier && this.scored.score < worst.score)) return;
			titleTier = this.titleTier(slot, nameMayHoldAll);
		}
		this.scored.tier = candidateTier(this.termCount, strong, exact, titleTier);
	}

	/** A candidate's loose bound (boundCandidate) into `scored`, for rankByBounds. */
	bound(index: number): void {
		this.boundCandidate(index, null);
		this.scored.tier = this.bounded.tier;
		this.scored.score = this.bounded.score;
	}

	refine(index: number): boolean {
		return this.finder.refine(this.wanted, this.gathered, index);
	}

	read(index: number): boolean | typeof PAUSE_FIRST {
		return this.finder.verify(this.wanted, this.gathered, index);
	}

	keep(index: number): void {
		this.offer(this.slots[index] as number, this.scored.score, this.scored.tier);
	}

	worstKept(): Ranked | null {
		return this.top.length >= this.kept ? (this.top[0] ?? null) : null;
	}

	/**
	 * A candidate's tier and score bounded from its row of values alone (no postings sought, no
	 * names read), into `bounded`: every term's value counted at full weight (the `any` value
	 * holds at least the counts and flags its exact or form value does), the title's coverage and
	 * extras at their largest, and the share of the query held as if every held term were strong.
	 * The score is left out (NaN) when the tier bound differs from `tieTier`: the tier decides then.
	 */
	private boundCandidate(index: number, tieTier: number | null): void {
		const row = index * this.termCount;
		const slot = this.slots[index] as number;
		let named = false;
		let namedTerms = 0;
		let all = true;
		// Title words the terms may be, at most: each term's value counts the words of the title any of its words is.
		let titleWords = 0;
		for (let termIndex = 0; termIndex < this.termCount; termIndex++) {
			const value = this.values[row + termIndex] as number;
			if (value === 0) all = false;
			else if (value & IN_TITLE) {
				named = true;
				namedTerms++;
				titleWords += titleCount(value) === TITLE_COUNT_SATURATED ? TITLE_LENGTH_MAX : titleCount(value);
			}
		}
		const titleLength = Math.max(1, this.titleLengths[slot] as number);
		const nameTier = this.mayBeWholeTier(titleWords, titleLength, slot);
		// A title tier needs the query's words in the title or an alias (one word: held strongly, as typed); several words all in one
		// name, which with no alias is the title: each term's value then has it (an alias's phrase may not, so any term named counts there).
		this.bounded.tier = this.tierBound(this.aliased[slot] === 1 ? named : namedTerms === this.termCount, all, nameTier);
		this.bounded.score = NaN;
		if (tieTier !== null && this.bounded.tier !== tieTier) return;
		const norm = this.normBase + this.normScale * Math.max(1, this.bodyLengths[slot] as number);
		let bound = 0;
		let heldIdf = 0;
		for (let termIndex = 0; termIndex < this.termCount; termIndex++) {
			const value = this.values[row + termIndex] as number;
			if (value === 0) continue;
			const weight = this.boundWeights[termIndex] as number;
			bound += (this.requiredIdf[termIndex] as number) * weight * fieldScore(value, norm);
			heldIdf += (this.shareIdf[termIndex] as number) * weight;
		}
		bound += this.extraBound;
		// The title's coverage (titleCoverage) is at most the share of its words the terms may be; an alias's, at most 1.
		if (this.namedByExtras || (named && this.aliased[slot] === 1)) bound += this.titleCoverageWeight;
		else if (named) bound += this.titleCoverageWeight * Math.min(1, titleWords / titleLength);
		// A title that may be nothing but query words may be the page named for the topic (NAMED_TOPIC_SHARE).
		const topicShare = named && (this.namedByExtras || titleWords >= titleLength) ? NAMED_TOPIC_SHARE : 0;
		const share = this.joined.length > 0 || this.totalShareIdf <= 0 ? 1 : Math.max(topicShare, Math.min(1, heldIdf / this.totalShareIdf));
		this.bounded.score = bound * Math.pow(share, COVERAGE_POWER) * (1 + SCORE_BOUND_MARGIN);
	}

	/** The tier bound of a candidate whose names may hold the query (`named`: one word, or several all in one name), holding every term or not (`all`). */
	private tierBound(named: boolean, all: boolean, nameTier: number): number {
		// A term no note holds as typed or in another form (a prefix of longer words only): strong stays below the term count.
		if (!this.allMayBeStrong) return 0;
		return this.termCount === 1 ? (TITLE_TIER_WHOLE + 1 + (named ? nameTier : 0)) * 2 + 1 : named && all ? nameTier : 0;
	}

	/** The best title tier a name may reach: TITLE_TIER_WHOLE when the title or an alias may be nothing but the query's words (a name's words that are no term's cannot), else TITLE_TIER_ALL. */
	private mayBeWholeTier(titleWords: number, titleLength: number, slot: number): number {
		return this.wholeByExtras || this.aliased[slot] === 1 || titleWords >= titleLength ? TITLE_TIER_WHOLE : TITLE_TIER_ALL;
	}

	/** The best title tier (mayBeWholeTier) of a candidate, from its row of values (the title words the terms may be) alone. */
	private nameTierBound(index: number): number {
		let titleWords = 0;
		for (let termIndex = 0, row = index * this.termCount; termIndex < this.termCount; termIndex++) {
			const value = this.values[row + termIndex] as number;
			if (value & IN_TITLE) titleWords += titleCount(value) === TITLE_COUNT_SATURATED ? TITLE_LENGTH_MAX : titleCount(value);
		}
		const slot = this.slots[index] as number;
		return this.mayBeWholeTier(titleWords, Math.max(1, this.titleLengths[slot] as number), slot);
	}

	/** Whether a term is a word of one note's title only (a longer word it starts counted too). */
	private titlesOneNote(termIndex: number): boolean {
		if (this.titlesOne[termIndex] === 0) {
			const term = (this.evidence[termIndex] as TermEvidence).any;
			const acceptedSlots = this.acceptedSlots;
			let count = 0;
			for (let at = 0; count <= 1 && at < term.length; at++)
				if (titleCount(term.values[at] as number) > 0 && (acceptedSlots === null || acceptedSlots[term.slots[at] as number] === 1)) count++;
			this.titlesOne[termIndex] = count === 1 ? 1 : 2;
		}
		return this.titlesOne[termIndex] === 1;
	}

	/** The ids of the search's stop words. */
	private stopIds(): ReadonlySet<number> {
		this.stopIdSet ??= new Set([...(this.query.stopWords ?? [])].flatMap((word) => optional(this.index.dictionary.lookup(word))));
		return this.stopIdSet;
	}

	/** Adds a page note's least kept score (`tier`, `score`) to the page's heap of `limit`, whose root is the worst. */
	private onPage(tier: number, score: number): void {
		let index: number;
		if (this.pageSize < this.limit) index = this.pageSize++;
		else if (tier > (this.pageTiers[0] as number) || (tier === this.pageTiers[0] && score > (this.pageScores[0] as number))) index = 0;
		else return;
		this.pageTiers[index] = tier;
		this.pageScores[index] = score;
		// Sift: up from a new leaf, down from a replaced root (a min-heap on tier, then score).
		if (index > 0)
			for (let at = index; at > 0 && pageBelow(this.pageTiers, this.pageScores, at, (at - 1) >> 1); at = (at - 1) >> 1)
				pageSwap(this.pageTiers, this.pageScores, at, (at - 1) >> 1);
		else
			for (let at = 0; ;) {
				let least = at;
				const left = at * 2 + 1;
				if (left < this.pageSize && pageBelow(this.pageTiers, this.pageScores, left, least)) least = left;
				if (left + 1 < this.pageSize && pageBelow(this.pageTiers, this.pageScores, left + 1, least)) least = left + 1;
				if (least === at) break;
				pageSwap(this.pageTiers, this.pageScores, at, least);
				at = least;
			}
	}

	/** What a candidate must reach to be worth scoring and keeping (`bar`), or undefined while the heap is not full. */
	private cutoff(): Ranked | undefined {
		if (this.scoreEvery) return undefined;
		const worst = this.top.length >= this.kept ? this.top[0] : undefined;
		if (!this.pageBound || this.pageSize < this.limit) return worst;
		const tier = this.pageTiers[0] as number;
		const score = this.pageScores[0] as number;
		if (worst && (worst.tier > tier || (worst.tier === tier && worst.score >= score))) return worst;
		this.bar.tier = tier;
		this.bar.score = score;
		return this.bar;
	}

	/** Whether a candidate cannot enter the full page, by its bound (boundCandidate). Most of a common word's notes end here. */
	private cannotEnter(index: number, worst: Ranked | undefined): boolean {
		if (!worst) return false;
		this.boundCandidate(index, worst.tier);
		return this.bounded.tier !== worst.tier ? this.bounded.tier < worst.tier : this.bounded.score < worst.score;
	}

	/**
	 * How a note's title or one of its aliases answers the query: TITLE_TIER_WHOLE when a name is
	 * nothing but the query's words (stop words included) and holds every term, TITLE_TIER_ALL
	 * when it holds every term, TITLE_TIER_SOME when it holds some, 0 otherwise. Words count as
	 * typed or in another form; a word's extensions do not make a title match.
	 */
	private titleTier(slot: number, nameMayHoldAll: boolean): number {
		const { evidence, optionalIds, requiredIdf, totalIdf } = this;
		this.aliasCoverage = 0;
		// No name holds every term: below TITLE_TIER_ALL, all that the tier of several words asks (SOME is 0 to it).
		if (!nameMayHoldAll) return 0;
		const doc = this.index.documents[slot];
		if (!doc) return 0;
		let best = 0;
		const { ids, count } = this.index.unpackNames(doc);
		// The runs, each after its length: the title (name 0), the headings (not a name), then each alias.
		for (let at = 0, run = 0; at < count; run++) {
			const from = at + 1;
			const to = from + (ids[at] as number);
			at = to;
			if (run === 1) continue;
			let held = 0;
			let heldIdf = 0;
			for (let termIndex = 0; termIndex < evidence.length; termIndex++) {
				if (!nameHolds(ids, from, to, evidence[termIndex] as TermEvidence)) continue;
				held++;
				heldIdf += requiredIdf[termIndex] as number;
			}
			if (held === 0) continue;
			if (held < evidence.length) {
				if (TITLE_TIER_SOME > best) best = TITLE_TIER_SOME;
				// An alias that is nothing but query words, holding most of what the query asks, names the note as
				// a title would (`Kanban` for `kanban board`, `Citations` for `zotero citations`): its coverage counts.
				if (run > 1 && heldIdf >= totalIdf * PARTIAL_ALIAS_MIN_SHARE && this.onlyQueryWords(ids, from, to, evidence, optionalIds)) {
					const coverage = titleCoverage(to - from, to - from, totalIdf > 0 ? heldIdf / totalIdf : 1);
					if (coverage > this.aliasCoverage) this.aliasCoverage = coverage;
				}
				continue;
			}
			let queryWords = 0;
			// The title's identifiers are their parts (derivedWholes): `MockAgent` is the whole of `mock agent`.
			const wholes = run === 0 ? (this.index.titleWholes[slot] as number) : 0;
			let others = 0;
			for (let index = from; index < to; index++) {
				if (isQueryWord(ids[index] as number, evidence, optionalIds)) queryWords++;
				else if (index - from >= DERIVED_WHOLES_MAX_TOKENS || ((wholes >>> (index - from)) & 1) === 0) others++;
			}
			// An alias naming every term, whatever else it says; one naming some only as above: many aliases are old
			// names or redirects (`Markdown`, `Sync FAQ`), and one holding an everyday word of a question says little.
			if (run > 1) {
				const coverage = titleCoverage(queryWords, to - from, totalIdf > 0 ? heldIdf / totalIdf : 1);
				if (coverage > this.aliasCoverage) this.aliasCoverage = coverage;
			}
			const tier = others === 0 ? TITLE_TIER_WHOLE : TITLE_TIER_ALL;
			if (tier > best) best = tier;
		}
		return best;
	}

	/** Whether every word of a name, ids [from, to), is a query word (a term's or a stop word's). */
	private onlyQueryWords(ids: Uint32Array, from: number, to: number, evidence: readonly TermEvidence[], optionalIds: ReadonlySet<number>): boolean {
		for (let index = from; index < to; index++) if (!isQueryWord(ids[index] as number, evidence, optionalIds)) return false;
		return true;
	}

	/** How many of the words of the note's title are not among `stopIds`. */
	private contentWords(slot: number, stopIds: ReadonlySet<number>): number {
		const doc = this.index.documents[slot];
		if (!doc) return 0;
		let count = 0;
		for (const id of this.index.namesOf(doc).title) if (!stopIds.has(id)) count++;
		return count;
	}

	/** Keeps the best `limit` candidates in a heap whose root is the worst of them. */
	private offer(slot: number, score: number, tier: number): void {
		const { top: heap, kept: limit, matched } = this;
		if (limit <= 0) return;
		if (heap.length < limit) {
			heap.push({ slot, score, tier, matched: matched.slice() });
			let index = heap.length - 1;
			while (index > 0) {
				const parent = (index - 1) >> 1;
				if (compareRanked(this.index, heap[parent] as Ranked, heap[index] as Ranked) <= 0) break;
				swap(heap, parent, index);
				index = parent;
			}
			return;
		}
		// Most candidates of a common word lose to the worst kept one on tier or score alone: no object for them.
		const worstKept = heap[0] as Ranked;
		if (tier < worstKept.tier || (tier === worstKept.tier && score < worstKept.score)) return;
		const candidate: Ranked = { slot, score, tier };
		if (compareRanked(this.index, candidate, worstKept) <= 0) return;
		candidate.matched = matched.slice();
		heap[0] = candidate;
		let index = 0;
		for (;;) {
			const left = index * 2 + 1;
			const right = left + 1;
			let worst = index;
			if (left < heap.length && compareRanked(this.index, heap[left] as Ranked, heap[worst] as Ranked) < 0) worst = left;
			if (right < heap.length && compareRanked(this.index, heap[right] as Ranked, heap[worst] as Ranked) < 0) worst = right;
			if (worst === index) return;
			swap(heap, worst, index);
			index = worst;
		}
	}
}
