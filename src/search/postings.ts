import {
	ACCEPTED_FILTERS_KEPT,
	ACCEPTED_PATCH_SLOTS,
	PHRASE_CANDIDATES_MEMO_PHRASES,
	PHRASE_LEARNT_MEMO_NOTES,
	PREFIX_MAX_WORDS,
	EXCLUDED_SEARCH_MAX_WORDS,
	WORD_UNION_MEMO_WORDS,
	PAIR_BOUND_MAX_SECOND_IDS,
	PAIR_BOUND_STEP,
	COMPACT_STEP_MASK,
	COMPACT_STEP_SLOTS,
	ACCEPT_STEP_MASK,
	COMMIT_BLOCK_MIN_LISTS,
	COMMIT_STEP_POSTINGS,
	LISTS_TAKEN_STEP,
	HEADINGS_JOINED_STEP,
	SECTION_MIN_TOKENS,
	SECTION_SCAN_MAX_CHARS,
	SEARCH_ALIAS_MAX_WORDS,
} from "../config/limits";
import { PackedIdWriter, unpackIds } from "./packedIds";
import { TermDictionary, type HeldAmong } from "./dictionary";
import { hasPairSketch, PAIR_COUNT_SATURATED, pairCountBound, pairHash, pairSketchBytes, secondHash, writePairSketch } from "./pairSketch";
import { PhraseLearnt } from "./phraseLearnt";
import { isSentenceHeading } from "./rank";
import {
	acceptedIds,
	type AcceptedIds,
	countAnchoredPhrase,
	countLongPackedPhrase,
	countPackedPhrase,
	countPhrase,
	MAX_PHRASE_WORDS,
	packedAnchor,
} from "./phrases";
import {
	BODY_COUNT,
	emptyTerm,
	wordTerm,
	growFloat64,
	growUint32,
	growUint8,
	IN_HEADING,
	IN_TITLE,
	mergeValues,
	optional,
	packValue,
	pairsBoundWhenResolved,
	phraseBoundValue,
	phraseWordBody,
	phraseWordTitle,
	seek,
	tightenedBound,
	type PhrasePair,
	type FormLists,
	type Postings,
	type ResolvedTerm,
	type TermEvidence,
} from "./postingValues";
import { expansionsOf } from "./expansions";
import { isPrefixWord } from "./query";
import { DEFAULT_SEARCH_LANGUAGE, stemmerFor, type Stemmer } from "./stemmers";
import { bitCount, derivedWholes, repeatedAddressWords, tokenize, tokenizeInChunks } from "./text";
import { topHeadingOffsets } from "./sections";
import { holderMarkSteps, PostingRuns, runSteps, unionScratch, unionSteps, type UnionScratch, type UnionTally } from "./unions";

/** Longest title counted, in words, for the share of it a query covers. */
export const TITLE_LENGTH_MAX = 0xff;
const FIRST_POSTINGS_CAPACITY = 2;

/**
 * One note's tokens by field, as ids: kept for phrase checks and for removing the note. All of a
 * note's ids are in one buffer (one typed array a note, not one a field): the body's, its word
 * pairs' sketch, then its names' (see `namesOf`).
 */
/**
 * Which notes a filtered search may return: a predicate on the path, or one together with the
 * notes it can accept (`among`: any others it would refuse; a note may be named more than once),
 * so that only those are asked about.
 */
export type NoteFilter =
	| ((path: string) => boolean)
	| {
			readonly among?: () => Iterable<string>;
			readonly include: (path: string) => boolean;
			/**
			 * Whether the filter accepts one note, as it would decide it among all (for a filter
			 * naming its notes, `include` and "is among them"): with it, a kept answer of the same key
			 * is brought up to date note by note after index changes instead of worked out again.
			 * Without `among`, `include` is that answer.
			 */
			readonly accepts?: (path: string) => boolean;
			/**
			 * Names what the filter accepts: a filter of the same key accepts the same notes of an
			 * unchanged index, so the accepted slots are worked out once (ACCEPTED_FILTERS_KEPT kept).
			 */
			readonly key?: string;
	  };

/** How a phrase's last word stands for the words it starts (`PostingsIndex.resolveSteps`). */
interface PhrasePrefix {
	/** The most words it stands for: the shortest held by the notes `accepted` holds (every note's when null). */
	readonly most: number;
	readonly accepted: Uint8Array | null;
	/** `cut` set when longer words were left out. */
	readonly said?: { cut: boolean };
}

/** Every word the last word starts: an excluded phrase's (a note holding one would be answered). */
const WHOLE_PREFIX: PhrasePrefix = { most: Infinity, accepted: null };

/** A query word's merged postings over every note (`any` of its evidence), or a phrase's candidates, as of the index's state and stemmer when merged. */
interface WordUnion {
	readonly generation: number;
	readonly slotCount: number;
	readonly stemmer: Stemmer | null;
	readonly any: ResolvedTerm;
	readonly strongNotes: number;
	/** Whether the word, or a phrase's last word, as a prefix stood for only its share of shortest words. */
	readonly prefixCut?: boolean;
}

/** What searches of a phrase learnt of its notes, valid while the index is as it was (as a WordUnion). */
interface LearntMemo {
	readonly generation: number;
	readonly slotCount: number;
	readonly stemmer: Stemmer | null;
	readonly learnt: PhraseLearnt;
	/** The search (`beginSearch`) that last resolved the phrase. */
	search: number;
}

/** Accepted slots worked out for a filter's key, as of a place in the index's log of changed slots. */
interface AcceptedMemo {
	readonly logged: number;
	readonly accepted: { slots: Uint8Array; count: number; totalLength: number };
}

/** An install under way in steps (`installSteps`): whichever change runs a step, a failure is kept for the install's own caller. */
interface PendingInstall {
	readonly path: string;
	readonly steps: Generator<void, void, void>;
	failure: { readonly error: unknown } | null;
}

export interface IndexedDocument {
	path: string;
	modified: number;
	/**
	 * The note's buffer: the body's token ids, packed (packedIds.ts), in its first `bodyBytes`
	 * bytes; then the sketch of the body's word pairs (pairSketch.ts; its size follows from
	 * `bodyLength`); then the title's, the headings' and each alias's ids, packed the same way, each
	 * run after its count.
	 */
	packed: Uint8Array;
	bodyBytes: number;
	/** Ids in the body. */
	bodyLength: number;
	/**
	 * Where the body's level-1 and level-2 sections after its first start, as token positions
	 * (sections.ts): null unless the body has SECTION_MIN_TOKENS or more and such a heading past its
	 * start. Always set, so that every document has one shape.
	 */
	sections: Uint32Array | null;
}

/** A note's names as ids: its title, its headings and folders' words (folderWords), and its aliases. */
export interface DocumentNames {
	title: Uint32Array;
	/** Ranked, never found by alone. */
	headings: Uint32Array;
	/** The note's aliases (frontmatter `aliases`), each ranked like a title. */
	aliases: Uint32Array[];
}

/** A document tokenized and waiting to be committed to the index it was prepared by. */
export interface PreparedDocument {
	readonly doc: IndexedDocument;
	readonly names: DocumentNames;
	/** Ids of the body's words that its counts leave out (repeatedAddressWords), once per occurrence left out. */
	readonly uncounted: readonly number[];
	/** The title's tokens that are a whole word also given in parts (derivedWholes): not words of the title's length. */
	readonly titleWholes: number;
}

/** Writes a run of ids after its count, as a document's buffer keeps each of its names, with a pause point every COMMIT_STEP_POSTINGS ids (a million headings were one piece). */
function* writeRun(writer: PackedIdWriter, ids: Uint32Array): Generator<void, void, void> {
	writer.write(ids.length);
	for (let from = 0; from < ids.length; from += COMMIT_STEP_POSTINGS) {
		for (let index = from; index < Math.min(ids.length, from + COMMIT_STEP_POSTINGS); index++) writer.write(ids[index] as number);
		yield;
	}
}

/** The runs written by `writeRun` from byte `from` of `packed` to its end, unpacked: views on one new array. */
function readRuns(packed: Uint8Array, from: number): Uint32Array[] {
	const ids = new Uint32Array(packed.length - from);
	const count = unpackIds(packed, ids, from);
	const runs: Uint32Array[] = [];
	for (let at = 0; at < count;) {
		const length = ids[at] as number;
		runs.push(ids.subarray(at + 1, at + 1 + length));
		at += 1 + length;
	}
	return runs;
}

/**
 * The words of a note's folders (`Obsidian Sync` for `Obsidian Sync/Plans.md`), ranked like a
 * heading's: a folder names what its notes are about, so a query naming it lifts them, but like a
 * heading it never finds a note on its own.
 */
function folderWords(path: string): string {
	return path.slice(0, Math.max(0, path.lastIndexOf("/")));
}

/** A phrase's distinct pairs of neighbouring positions (a repeated word's pair once), given the tokens each position accepts (their hashes); a position accepting more than PAIR_BOUND_MAX_SECOND_IDS is left out. */
function phrasePairsOf(hashesByPosition: readonly number[][]): PhrasePair[] {
	const pairs: PhrasePair[] = [];
	const seen = new Set<string>();
	for (let position = 1; position < hashesByPosition.length; position++) {
		const firsts = hashesByPosition[position - 1] ?? [];
		const seconds = hashesByPosition[position] ?? [];
		// Only the last position is a prefix: the one before it is one whole word.
		if (firsts.length !== 1 || seconds.length > PAIR_BOUND_MAX_SECOND_IDS) continue;
		const first = firsts[0] as number;
		const key = `${first} ${seconds.join(",")}`;
		if (seen.has(key)) continue;
		seen.add(key);
		const hashes = new Uint32Array(seconds.length * 2);
		seconds.forEach((second, index) => {
			const hash = pairHash(first, second);
			hashes[index * 2] = hash;
			hashes[index * 2 + 1] = secondHash(hash);
		});
		pairs.push(hashes);
	}
	return pairs;
}

/**
 * The notes holding every word of a phrase of `phraseLength` words, and the phrase's bound in each
 * (phraseBoundValue, from the words' values): `words` are its distinct words' unions, fewest notes
 * first, `repeats` how often the phrase holds each. A plain function, not a loop of the generator
 * `candidatesSteps`: V8 does not optimise a function while a loop of a generator runs it (no
 * on-stack replacement there), so a phrase's first search walked its words' tens of thousands of
 * notes in baseline code, each read and call through an inline cache. Pure.
 */
function phraseCandidatesOf(
	words: readonly ResolvedTerm[],
	repeats: readonly number[],
	phraseLength: number,
): { slots: Uint32Array; phraseBounds: Uint32Array; length: number } {
	const [first, ...rest] = words as [ResolvedTerm, ...ResolvedTerm[]];
	const slots = new Uint32Array(first.length);
	const phraseBounds = new Uint32Array(first.length);
	const cursors = new Array<number>(rest.length).fill(0);
	let length = 0;
	next: for (let index = 0; index < first.length; index++) {
		const slot = first.slots[index] as number;
		for (let restIndex = 0; restIndex < rest.length; restIndex++) {
			const other = rest[restIndex] as ResolvedTerm;
			const at = seek(other.slots, other.length, cursors[restIndex] as number, slot);
			cursors[restIndex] = at;
			if (at >= other.length || other.slots[at] !== slot) continue next;
		}
		// Every word is here, each at its cursor: the phrase's bound in the note (phraseValueBound) from their values.
		let value = first.values[index] as number;
		let body = phraseWordBody(value, repeats[0] as number);
		let title = phraseWordTitle(value, repeats[0] as number);
		let heading = (value & IN_HEADING) !== 0;
		for (let restIndex = 0; restIndex < rest.length; restIndex++) {
			value = (rest[restIndex] as ResolvedTerm).values[cursors[restIndex] as number] as number;
			body = Math.min(body, phraseWordBody(value, repeats[restIndex + 1] as number));
			title = Math.min(title, phraseWordTitle(value, repeats[restIndex + 1] as number));
			heading &&= (value & IN_HEADING) !== 0;
		}
		phraseBounds[length] = phraseBoundValue(body, title, heading, phraseLength);
		slots[length++] = slot;
	}
	return { slots, phraseBounds, length };
}

/**
 * How many times a note's body holds a phrase of `length` words, read in one piece. A note whose pair sketch rules
 * the phrase out is not read; a phrase longer than the window is counted 32 positions a word of state.
 */
function phraseBodyCount(term: ResolvedTerm, length: number, doc: IndexedDocument): number {
	if (term.phrasePairs && phrasePairBound(doc, term.phrasePairs) === 0) return 0;
	if (!term.phraseMasks) return countLongPackedPhrase(doc.packed, term.phraseChunkMasks ?? [], length, doc.bodyBytes);
	return term.phraseAnchor
		? countAnchoredPhrase(doc.packed, term.phraseAnchor, term.phraseMasks, length, doc.bodyBytes)
		: countPackedPhrase(doc.packed, term.phraseMasks, length, doc.bodyBytes);
}

/**
 * How often a phrase's pairs allow it to stand in a row in the note's body, from the note's pair
 * sketch: at most as often as its scarcest pair, which is at most as often as the sketch counts
 * it; BODY_COUNT when the sketch counts every pair three times or more, or the body is too long to
 * have a sketch (it bounds nothing then). Pure.
 */
export function phrasePairBound(doc: IndexedDocument, pairs: readonly PhrasePair[]): number {
	return sketchedPairBound(doc.packed, doc.bodyBytes, doc.bodyLength, pairs);
}

/** `phrasePairBound` of a body of `bodyLength` ids whose sketch starts at `packed[from]`. Pure. */
function sketchedPairBound(packed: Uint8Array, from: number, bodyLength: number, pairs: readonly PhrasePair[]): number {
	if (!hasPairSketch(bodyLength)) return BODY_COUNT;
	const size = pairSketchBytes(bodyLength);
	let bound = BODY_COUNT;
	for (let pairIndex = 0; pairIndex < pairs.length; pairIndex++) {
		const hashes = pairs[pairIndex] as PhrasePair;
		let count = 0;
		for (let at = 0; at < hashes.length; at += 2) {
			const held = pairCountBound(packed, from, size, hashes[at] as number, hashes[at + 1] as number);
			if (held === PAIR_COUNT_SATURATED) {
				count = BODY_COUNT;
				break;
			}
			count += held;
		}
		if (count < bound) bound = count;
		if (bound === 0) return 0;
	}
	return bound;
}

/**
 * Bytes of the notes' packed words `compactSteps` copies between two chances to pause, whatever the
 * number of notes they belong to: as many as COMPACT_STEP_SLOTS slots hold. A vault of 150 MB of
 * notes copied every note's words (tens of MB) in one step of 130-215 ms at the end of its build.
 */
const COMPACT_STEP_BYTES = COMPACT_STEP_SLOTS * Uint32Array.BYTES_PER_ELEMENT;

const NO_IDS = new Uint32Array(0);

/**
 * A prepared note's postings, worked out in steps with room made for the lists that must grow
 * (`planCommit`): `install` makes it the index's version of the note in one piece (`installSteps`: a new
 * note's postings in steps no search reads, then the note in one short piece). Nothing
 * in the index changes until then, so searches meanwhile see the old version whole.
 */
export interface CommitPlan {
	readonly prepared: PreparedDocument;
	/** The note's terms and its postings' values (packValue) in them. */
	readonly ids: Uint32Array;
	readonly values: Uint32Array;
	/** What the plan was made against: a change that removed a note since, or replaced this one, means planning again. */
	readonly generation: number;
	/** The slot of the version it replaces (-1: none), and that version's terms (what `install` takes it out of). */
	readonly oldSlot: number;
	readonly oldTerms: Uint32Array;
	/**
	 * The lists with no room left, copied into one new buffer (a list holding the old version's
	 * posting always has room for the new one where it is, so none is copied with it):
	 * list `i` at `blockAt[i]`, `blockRoom[i]` slots then as many values (0: not moved). Null when
	 * fewer than COMMIT_BLOCK_MIN_LISTS had to move.
	 */
	readonly block: Uint32Array | null;
	readonly blockAt: Uint32Array;
	readonly blockRoom: Uint32Array;
	/** The length and own list each list had when the plan measured it: a moved list appended to since is grown at install instead. */
	readonly sourceLength: Uint32Array;
	readonly sourceOwn: ReadonlyArray<Postings | undefined>;
}

/** Copies `length` postings (slots from `slotsAt` of `slots`, values from `valuesAt` of `values`) into `block`'s list at `at` of `room`. */
function copyPostings(
	slots: Uint32Array,
	slotsAt: number,
	values: Uint32Array,
	valuesAt: number,
	length: number,
	block: Uint32Array,
	at: number,
	room: number,
): void {
	// A loop, not `set` on views: two views a list are two objects, for each of 40,000 lists.
	for (let index = 0; index < length; index++) {
		block[at + index] = slots[slotsAt + index] as number;
		block[at + room + index] = values[valuesAt + index] as number;
	}
}

/**
 * Counts at most `limit` of the ids packed in `packed[from, to)` (packedIds.ts) into `counts` (up
 * to BODY_COUNT), noting in `touched` each id met for the first time: the byte after the last id read.
 * Read where they are packed, a step's share at a time: a long body unpacked at once for counting was
 * one piece of 8-51 ms for a 5 MB note (the varint loop written out, as the phrase readers do, for speed).
 */
function countPacked(packed: Uint8Array, from: number, to: number, limit: number, counts: Uint32Array, touched: number[]): number {
	let read = 0;
	let value = 0;
	let shift = 0;
	let index = from;
	while (index < to && read < limit) {
		const byte = packed[index++] as number;
		value |= (byte & 0x7f) << shift;
		if (byte & 0x80) {
			shift += 7;
			continue;
		}
		const id = value >>> 0;
		value = 0;
		shift = 0;
		read++;
		const count = counts[id] as number;
		if (count === 0) touched.push(id);
		if (count < BODY_COUNT) counts[id] = count + 1;
	}
	return index;
}

/** Sets `flag` in the count of each term of a name, noting in `touched` each id met for the first time; in steps of COMMIT_STEP_POSTINGS when `stepped`. */
function* markNamed(name: Uint32Array, flag: number, counts: Uint32Array, touched: number[], stepped: boolean): Generator<void, void, void> {
	for (let from = 0; from < name.length; from += COMMIT_STEP_POSTINGS) {
		for (let index = from; index < Math.min(name.length, from + COMMIT_STEP_POSTINGS); index++) {
			const id = name[index] as number;
			if (counts[id] === 0) touched.push(id);
			counts[id] = ((counts[id] as number) | flag) >>> 0;
		}
		if (stepped) yield;
	}
}

/** Terms in a note's names (title, headings, aliases), repeats counted. */
function namesLength(names: DocumentNames): number {
	let length = names.title.length + names.headings.length;
	for (const alias of names.aliases) length += alias.length;
	return length;
}

/**
 * Whether an install of `newTerms` terms replacing a version of `oldTerms` (0: a new note) goes in
 * steps of `stepPostings` (`installSteps`): when it writes or takes out more postings than a step.
 */
function installedInSteps(newTerms: number, oldTerms: number, stepPostings: number): boolean {
	return newTerms + oldTerms > stepPostings;
}

/** The first index in `slots[from, to)` (sorted) whose slot is not below `slot`. */
function lowerSlot(slots: Uint32Array, from: number, to: number, slot: number): number {
	let low = from;
	let high = to;
	while (low < high) {
		const middle = (low + high) >>> 1;
		if ((slots[middle] as number) < slot) low = middle + 1;
		else high = middle;
	}
	return low;
}

/** A search's excluded prefixes start more words than it may take (EXCLUDED_SEARCH_MAX_WORDS): nothing is searched. */
export class TooManyWordsExcluded extends Error {
	constructor() {
		super(
			`The excluded words start more than ${EXCLUDED_SEARCH_MAX_WORDS.toLocaleString("en-US")} words of the notes searched, and every one would be looked up: nothing was searched. Exclude longer words (type more of each, and of an excluded phrase's last word).`,
		);
	}
}

/**
 * The inverted index: token ids, each term's postings (the notes holding it, with packed
 * values), and each note's tokens by field. Notes are added and removed here; searches resolve
 * their terms here. Pure: it knows nothing of vaults.
 */
export class PostingsIndex {
	readonly dictionary: TermDictionary;
	/** Words looked up in the dictionary by `prepare` since the index was made, all notes together. */
	wordsRead = 0;
	/**
	 * Term id → the notes holding it, for a list not in the arena: one the build grew, or one that
	 * grew out of the arena since.
	 */
	private readonly postings: Array<Postings | undefined> = [];
	/**
	 * Every list as it stood at the last `compact`, in one buffer: a term's slots, then its values,
	 * each `arenaRoom[id]` long from `arenaStart[id]`; `arenaLength[id]` of them are its postings
	 * (a note removed since leaves room). A term with no room there (0, or past these arrays'
	 * length) has its list in `postings`. Offsets, not a typed array a term: a view costs about 100
	 * bytes, more than most rare terms' postings; a search makes views of just its terms' lists.
	 * A large commit since adds a buffer of the lists it moved or made (`install`): offsets count
	 * on across `arenas`, the n-th starting at `arenaBases[n]`; the first is the build's.
	 */
	private arenas: Uint32Array[] = [new Uint32Array(0)];
	private arenaBases: number[] = [0];
	private arenaStart: Uint32Array = new Uint32Array(0);
	private arenaRoom: Uint32Array = new Uint32Array(0);
	private arenaLength: Uint32Array = new Uint32Array(0);
	/**
	 * Each note has a slot; a replaced note gets a new, higher one, so postings stay sorted by
	 * appending. Slot-indexed: the document, its body length and modified time.
	 */
	readonly slotOfPath = new Map<string, number>();
	readonly documents: Array<IndexedDocument | undefined> = [];
	/** Read by the ranking; written only here. */
	bodyLengths: Uint32Array = new Uint32Array(64);
	/** The title's words, an identifier counted as its parts (`MockAgent` is two): what share of it a query covers. */
	titleLengths: Uint8Array = new Uint8Array(64);
	/** Which of the title's tokens are a whole also given in parts (derivedWholes): a whole title match need not name them. */
	titleWholes: Uint32Array = new Uint32Array(64);
	/** 1 when the note has an alias: a search bounding a note's rank from its postings needs to know whether a name other than the title may answer. */
	aliased: Uint8Array = new Uint8Array(64);
	modifiedTimes: Float64Array = new Float64Array(64);
	/**
	 * The buffer `compact` put every note's in, and where each note's pair sketch starts in it, plus
	 * one, by slot (0: not there, a note committed since). A phrase's notes have their sketches read
	 * by the tens of thousands: from here that is one read a note, not three in a chain (the
	 * document, its buffer's view, then the byte), each a cache miss at that count.
	 */
	private compacted: Uint8Array = new Uint8Array(0);
	private sketchAt: Float64Array = new Float64Array(0);
	nextSlot = 0;
	totalBodyLength = 0;
	/**
	 * Bumped by every change that rewrites postings in place (a note removed or replaced), so a
	 * search that paused knows whether its slots and postings still mean what they meant. A new
	 * note does not bump it: it takes a new slot and is appended, so a search paused while the
	 * index builds goes on with the notes it started with instead of starting again. Neither does
	 * compact: a paused search keeps the old lists, whose contents are the same.
	 */
	generation = 0;
	/** The slot of the version an install in steps replaced, while its postings are taken out of lists (-1: none). */
	private retired = -1;
	/**
	 * The install under way in steps (`installSteps`), if any: its note's path, its steps (any other
	 * change runs them to the end first), and the error of a step another change ran (`stepPending`).
	 */
	private pending: PendingInstall | null = null;
	/** The accepted slots of the filters last used, by key, newest last (see NoteFilter's key): read-only once kept. */
	private readonly acceptedMemos = new Map<string, AcceptedMemo>();
	/** The merged postings of the query words last resolved over every note, by word, newest last (WORD_UNION_MEMO_WORDS): read-only once kept. */
	private readonly wordUnions = new Map<string, WordUnion>();
	/** The candidates of the phrases last resolved, by phrase, newest last (PHRASE_CANDIDATES_MEMO_PHRASES): read-only once kept. */
	private readonly phraseCandidates = new Map<string, WordUnion>();
	/** What the searches of the phrases last resolved read of their notes, by phrase, newest last, kept longer than their candidates (PHRASE_LEARNT_MEMO_NOTES). */
	private readonly phrasesLearnt = new Map<string, LearntMemo>();
	/** The notes `phrasesLearnt` covers, summed over its phrases. */
	private phrasesLearntNotes = 0;
	/** Searches begun (`beginSearch`): the one under way, for `phrasesLearnt`. */
	private searches = 0;
	/**
	 * The slots installed or removed (or whose filter answers may have changed, see `recheck`) since
	 * the log's start, `changedFrom` changes after the index was made: a kept accepted answer is
	 * brought up to date by asking about these alone. Past ACCEPTED_PATCH_SLOTS its older half is
	 * dropped; an answer kept before the start is worked out again.
	 */
	private changedSlots: number[] = [];
	private changedFrom = 0;
	/** Scratch for counting a note's tokens while committing and for merging a prefix's postings (searches that never pause); all zero between uses. */
	private counts: Uint32Array = new Uint32Array(256);
	private readonly mergeScratch: UnionScratch = unionScratch();
	private readonly unpackedNames: { ids: Uint32Array; count: number } = { ids: new Uint32Array(64), count: 0 };

	/**
	 * `stem` finds word forms (stemmers.ts); null matches words as typed and prefixes only.
	 * `phraseLearntMemoNotes`: notes' worth of phrases whose reads are kept (PHRASE_LEARNT_MEMO_NOTES).
	 */
	constructor(
		stem: Stemmer | null = stemmerFor(DEFAULT_SEARCH_LANGUAGE),
		private readonly phraseLearntMemoNotes: number = PHRASE_LEARNT_MEMO_NOTES,
	) {
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

	/**
	 * Sets the modified time of the note at `path`, if indexed: a note rewritten with the same text (touched) keeps its
	 * postings, and ranks among equal scores by its new time, as a scan ranks it.
	 */
	setModified(path: string, modified: number): void {
		const slot = this.slotOfPath.get(path);
		const doc = slot === undefined ? undefined : this.documents[slot];
		if (slot === undefined || !doc) return;
		doc.modified = modified;
		this.modifiedTimes[slot] = modified;
	}

	/** Adds or replaces a document in one piece (`prepare` and `commit` without pauses). */
	add(path: string, title: string, modified: number, text: string, headings: Iterable<string>, aliases: readonly string[] = []): void {
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
	*prepare(
		path: string,
		title: string,
		modified: number,
		text: string,
		headings: Iterable<string>,
		aliases: readonly string[] = [],
	): Generator<void, PreparedDocument, void> {
		// Names tokenized in chunks too: a note's 38,000 headings were one piece of about 0.1 s.
		// Each word looked up is counted: a caller sizes the piece of work it runs at once by `wordsRead`.
		const idOf = (token: string): number => {
			this.wordsRead++;
			return this.dictionary.idOf(token);
		};
		function* ids(value: string): Generator<void, Uint32Array, void> {
			const found: number[] = [];
			yield* tokenizeInChunks(value, (token) => found.push(idOf(token)));
			return Uint32Array.from(found);
		}
		const body = new PackedIdWriter(Math.min(1 << 16, text.length >> 2));
		const counted = repeatedAddressWords(text);
		const uncounted: number[] = [];
		// A body of fewer characters than SECTION_MIN_TOKENS holds fewer tokens: its sections are not looked for.
		const headingOffsets = text.length < SECTION_MIN_TOKENS ? [] : topHeadingOffsets(text, SECTION_SCAN_MAX_CHARS);
		const sectionStarts: number[] = [];
		let nextHeading = 0;
		yield* tokenizeInChunks(text, (value, start, end) => {
			const id = idOf(value);
			// The first token at or after a heading's line starts its section (the heading's own words are in it).
			if (nextHeading < headingOffsets.length && start >= (headingOffsets[nextHeading] as number)) {
				while (nextHeading < headingOffsets.length && start >= (headingOffsets[nextHeading] as number)) nextHeading++;
				if (body.count > 0) sectionStarts.push(body.count);
			}
			body.write(id);
			if (!counted(value, start, end)) uncounted.push(id);
		});
		const titleTokens = tokenize(title);
		const titleIds = Uint32Array.from(titleTokens, (token) => idOf(token.value));
		const headingIds = yield* ids(yield* namesTextInSteps(headings, folderWords(path)));
		// Aliases, whole, while their words fit SEARCH_ALIAS_MAX_WORDS: a search looks through each name once for each of its words.
		const aliasIds: Uint32Array[] = [];
		let aliasWords = 0;
		for (const alias of aliases) {
			const words = yield* ids(alias);
			if (words.length === 0 || aliasWords + words.length > SEARCH_ALIAS_MAX_WORDS) continue;
			aliasIds.push(words);
			aliasWords += words.length;
		}
		const names = { title: titleIds, headings: headingIds, aliases: aliasIds };
		const bodyLength = body.count;
		const bodyBytes = body.byteLength;
		const sketchBytes = pairSketchBytes(bodyLength);
		body.skip(sketchBytes);
		for (const name of [names.title, names.headings, ...names.aliases]) yield* writeRun(body, name);
		const packed = body.finish();
		writePairSketch(packed, bodyBytes, bodyBytes, sketchBytes, this.dictionary.hashes);
		const sections = bodyLength >= SECTION_MIN_TOKENS && sectionStarts.length > 0 ? Uint32Array.from(sectionStarts) : null;
		return { doc: { path, modified, packed, bodyBytes, bodyLength, sections }, names, uncounted, titleWholes: derivedWholes(titleTokens) };
	}

	/** A document's names, read from its buffer (new arrays: a caller may keep them). */
	namesOf(doc: IndexedDocument): DocumentNames {
		const [title = new Uint32Array(0), headings = new Uint32Array(0), ...aliases] = readRuns(doc.packed, doc.bodyBytes + pairSketchBytes(doc.bodyLength));
		return { title, headings, aliases };
	}

	/**
	 * A document's names unpacked as `writeRun` laid them (the title, the headings, then each
	 * alias, each run after its count), in scratch that the next call overwrites: a search looks at
	 * the names of thousands of notes, and new arrays for each were most of its garbage.
	 */
	unpackNames(doc: IndexedDocument): { ids: Uint32Array; count: number } {
		const from = doc.bodyBytes + pairSketchBytes(doc.bodyLength);
		const names = this.unpackedNames;
		names.ids = growUint32(names.ids, doc.packed.length - from);
		names.count = unpackIds(doc.packed, names.ids, from);
		return names;
	}

	/** `phrasePairBound` of the note at `slot`; BODY_COUNT (no bound) for a slot without a note. */
	pairBoundAt(slot: number, pairs: readonly PhrasePair[]): number {
		const at = slot < this.sketchAt.length ? (this.sketchAt[slot] as number) : 0;
		if (at > 0) return sketchedPairBound(this.compacted, at - 1, this.bodyLengths[slot] as number, pairs);
		const doc = this.documents[slot];
		return doc ? phrasePairBound(doc, pairs) : BODY_COUNT;
	}

	/** Adds or replaces a prepared document, in one piece. */
	commit(prepared: PreparedDocument): void {
		this.install(runSteps(this.planCommit(prepared)));
	}

	/**
	 * The work of a commit that can pause, in steps (`CommitPlan`): the note's postings, and a new
	 * buffer with the lists that have no room for them copied in. The index is unchanged: `install`
	 * then makes the note the index's in one short piece, whatever changed meanwhile.
	 */
	*planCommit(prepared: PreparedDocument): Generator<void, CommitPlan, void> {
		const { ids, values } = yield* this.postingsSteps(prepared);
		return yield* this.placementSteps(prepared, ids, values, undefined);
	}

	/** Whether `install` takes a plan as it is: no note was removed or replaced since it was made, and the note's own slot is the one it measured. */
	isCurrent(plan: CommitPlan): boolean {
		return plan.generation === this.generation && (this.slotOfPath.get(plan.prepared.doc.path) ?? -1) === plan.oldSlot;
	}

	/**
	 * A stale plan made again, in steps: only what depends on the index (the version replaced, room for
	 * the lists). The note's postings do not, and are kept: counted again, a note of 4 MB held the
	 * server 212–226 ms at start, when other notes' versions replaced during its plan made it stale.
	 */
	*replanSteps(plan: CommitPlan): Generator<void, CommitPlan, void> {
		const oldSlot = this.slotOfPath.get(plan.prepared.doc.path) ?? -1;
		return yield* this.placementSteps(plan.prepared, plan.ids, plan.values, oldSlot === plan.oldSlot ? plan.oldTerms : undefined);
	}

	/** The part of a plan that depends on the index now: the version replaced and its terms (unless given, for the same slot), and room for each list. */
	private *placementSteps(
		prepared: PreparedDocument,
		ids: Uint32Array,
		values: Uint32Array,
		knownOldTerms: Uint32Array | undefined,
	): Generator<void, CommitPlan, void> {
		const generation = this.generation;
		const oldSlot = this.slotOfPath.get(prepared.doc.path) ?? -1;
		const oldDoc = oldSlot >= 0 ? this.documents[oldSlot] : undefined;
		const oldTerms = knownOldTerms ?? (oldDoc ? yield* this.termsSteps(oldDoc) : new Uint32Array(0));
		const count = ids.length;
		const stepped = installedInSteps(count, oldTerms.length, COMMIT_STEP_POSTINGS);
		// Too few terms to move as many lists: each grows at install, as it must.
		if (count < COMMIT_BLOCK_MIN_LISTS)
			return {
				prepared,
				ids,
				values,
				generation,
				oldSlot,
				oldTerms,
				block: null,
				blockAt: NO_IDS,
				blockRoom: NO_IDS,
				sourceLength: NO_IDS,
				sourceOwn: [],
			};
		const sourceLength = new Uint32Array(count);
		const sourceOwn = new Array<Postings | undefined>(count);
		const blockRoom = new Uint32Array(count);
		let moving = 0;
		let size = 0;
		for (let from = 0; from < count; from += COMMIT_STEP_POSTINGS) {
			for (let index = from; index < Math.min(count, from + COMMIT_STEP_POSTINGS); index++) {
				const id = ids[index] as number;
				const length = this.lengthOf(id);
				sourceLength[index] = length;
				sourceOwn[index] = this.postings[id];
				// The old version's posting leaves room for the new one, unless the install is in steps: both are in the list until its last step.
				const needed = length + 1 - (!stepped && oldSlot >= 0 && length > 0 && this.holds(id, oldSlot) ? 1 : 0);
				if (needed <= this.roomOf(id)) continue;
				// Room to grow into, as a list grown alone doubles: with room for one more only, the next note of these words moved them all again.
				const room = Math.max(needed, length * 2);
				blockRoom[index] = room;
				size += room * 2;
				moving++;
			}
			yield;
		}
		if (moving < COMMIT_BLOCK_MIN_LISTS)
			return { prepared, ids, values, generation, oldSlot, oldTerms, block: null, blockAt: NO_IDS, blockRoom: NO_IDS, sourceLength, sourceOwn };
		const blockAt = new Uint32Array(count);
		const block = new Uint32Array(size);
		let at = 0;
		let since = 0;
		for (let index = 0; index < count; index++) {
			const room = blockRoom[index] as number;
			if (room === 0) continue;
			blockAt[index] = at;
			this.copyInto(ids[index] as number, sourceLength[index] as number, block, at, room);
			at += room * 2;
			since += (sourceLength[index] as number) + 1;
			if (since >= COMMIT_STEP_POSTINGS) {
				since = 0;
				yield;
			}
		}
		return { prepared, ids, values, generation, oldSlot, oldTerms, block, blockAt, blockRoom, sourceLength, sourceOwn };
	}

	/**
	 * Makes a planned note the index's version of it, in one piece: the old version out, the new
	 * one's postings in (the moved lists from the plan's buffer). A plan that is not current
	 * (`isCurrent`) is made again first, at once: callers that can pause make it again in steps
	 * (`replanSteps`) before. An install under way in steps (`installSteps`) is finished first.
	 */
	install(plan: CommitPlan): void {
		this.finishPending();
		if (!this.isCurrent(plan)) plan = runSteps(this.replanSteps(plan));
		const slot = this.nextSlot;
		const fromPlan = this.planListsKept(plan);
		if (plan.oldSlot >= 0) this.removeSlotOf(plan.prepared.doc.path, plan.oldSlot, plan.oldTerms);
		let placed = 0;
		try {
			const base = this.takeBlock(plan);
			for (let index = 0; index < plan.ids.length; index++) {
				placed = index + 1;
				this.placePosting(plan, index, slot, base, fromPlan[index] === 1);
			}
			this.publish(plan.prepared, slot);
		} catch (error) {
			// Out of memory: the note is left out whole (its old version was taken out), never in by some of its words.
			this.takeOutUnpublished(plan, slot, placed);
			throw error;
		}
	}

	/**
	 * `install` in steps of `stepPostings` postings when it writes or takes out more than that: each
	 * posting is written past the end of its list under a slot (`nextSlot`) no search reads yet (every
	 * search cuts its lists to the slots there were when it began), and one step makes the note
	 * the index's in one short piece by taking that slot. Searches meanwhile answer as if the note were
	 * not there yet (or with its old version whole), never with some of its words. A note of a million
	 * new words was one piece of 98–199 ms. A new version's old one is retired in that same step
	 * (`retire`: its slot is no current note's, and searches count only the current ones while its
	 * postings are in lists), then its postings are taken out a step's lists at a time: in one piece
	 * with the new version, a 5 MB note was 50–60 ms. Its plan gave every list room for both versions.
	 * Until the last step, no other change may come first: a second note would take the same slot.
	 * Callers that can pause wait for it (`installing`) or help it along (`removeSteps`); the one-piece
	 * `install` and `remove` finish it at once. A step that fails takes out what it wrote: the index
	 * is then as it was, and its error is thrown to the install's own caller, whoever ran that step.
	 */
	*installSteps(plan: CommitPlan, stepPostings = COMMIT_STEP_POSTINGS): Generator<void, boolean, void> {
		this.finishPending();
		if (!this.isCurrent(plan)) plan = runSteps(this.replanSteps(plan));
		if (!installedInSteps(plan.ids.length, plan.oldTerms.length, stepPostings)) {
			this.install(plan);
			return true;
		}
		const slot = this.nextSlot;
		// Kept where any change can finish it: this generator then finds it done.
		const pending: PendingInstall = { path: plan.prepared.doc.path, steps: this.pendingSteps(plan, slot, stepPostings), failure: null };
		this.pending = pending;
		yield* pending.steps;
		// Failed in a step another change ran: its log line named no error kind ("undefined").
		if (pending.failure) throw pending.failure.error;
		return this.documents[slot] === plan.prepared.doc;
	}

	/** Whether `plan`'s note is the index's version of it: from its install's publishing step on, while the old version's postings are still being taken out too. */
	isInstalled(plan: CommitPlan): boolean {
		const slot = this.slotOfPath.get(plan.prepared.doc.path);
		return slot !== undefined && this.documents[slot] === plan.prepared.doc;
	}

	/** Whether an install is under way in steps (`installSteps`): a caller that can pause waits for it to end before it installs. */
	get installing(): boolean {
		return this.pending !== null;
	}

	/**
	 * The work of an install in steps (`installSteps`), `stepPostings` postings a step, then the slot
	 * taken; for a new version of a note, its old slot retired in the same step (`retire`), then that
	 * slot's postings taken out of `stepPostings` of its lists a step.
	 */
	private *pendingSteps(plan: CommitPlan, slot: number, stepPostings: number): Generator<void, void, void> {
		let placed = 0;
		let published = false;
		let cleared = 0;
		try {
			const base = this.takeBlock(plan);
			for (let from = 0; from < plan.ids.length; from += stepPostings) {
				for (let index = from; index < Math.min(plan.ids.length, from + stepPostings); index++) {
					// Counted first: a posting whose list failed to grow is looked for too (and not found).
					placed = index + 1;
					this.placePosting(plan, index, slot, base, this.listKept(plan, index));
				}
				yield;
			}
			this.publish(plan.prepared, slot);
			published = true;
			if (plan.oldSlot < 0) return;
			this.retire(plan.oldSlot);
			for (; cleared < plan.oldTerms.length; cleared = Math.min(plan.oldTerms.length, cleared + stepPostings)) {
				yield;
				this.clearRetired(plan, cleared, cleared + stepPostings);
			}
		} finally {
			// Failed (a list that could not grow: out of memory), or let go: the postings written under a
			// slot no note holds would be read as the next note's. Stuck pending, every later install waited for ever.
			this.pending = null;
			if (!published) this.takeOutUnpublished(plan, slot, placed);
			// Let go while the old version's postings were taken out: the rest at once (a retired slot left in lists made every search filtered).
			else if (plan.oldSlot >= 0 && this.retired === plan.oldSlot) this.clearRetired(plan, cleared, plan.oldTerms.length);
		}
	}

	/**
	 * Retires the slot of a note's version a new one replaced (already published): from here searches
	 * work over the accepted notes only (`retiredSlotHeld`), which it is not among, while its postings
	 * are still in lists. Bumps the generation: a search that paused before it starts again.
	 */
	private retire(slot: number): void {
		const doc = this.documents[slot];
		this.generation++;
		this.documents[slot] = undefined;
		if (slot < this.sketchAt.length) this.sketchAt[slot] = 0;
		if (doc) this.totalBodyLength -= doc.bodyLength;
		this.retired = slot;
		// Last, as the one step that can fail (out of memory): retired first, the old version is then taken out at
		// once (pendingSteps). Logged first, it stayed whole beside the new one, found by unfiltered searches as a second hit.
		try {
			this.logChanged(slot);
		} catch (error) {
			// No kept filter answer can be brought up to date past an unlogged change.
			this.acceptedMemos.clear();
			throw error;
		}
	}

	/** Takes the retired old slot's postings out of a plan's old terms `[from, to)`: the last share ends the retirement. Rewrites lists in place: bumps the generation. */
	private clearRetired(plan: CommitPlan, from: number, to: number): void {
		const end = Math.min(plan.oldTerms.length, to);
		for (let index = from; index < end; index++) this.removeSlot(plan.oldTerms[index] as number, plan.oldSlot);
		this.generation++;
		if (end === plan.oldTerms.length) this.retired = -1;
	}

	/**
	 * Whether a retired slot (a note's version replaced by an install in steps) still has postings in
	 * lists: a search then asks which notes are current (`acceptedSlots`), and counts only those.
	 */
	get retiredSlotHeld(): boolean {
		return this.retired >= 0;
	}

	/** Takes the postings of an install that never took its slot out of the first `placed` lists of its plan (where written, they are last). */
	private takeOutUnpublished(plan: CommitPlan, slot: number, placed: number): void {
		for (let index = 0; index < placed; index++) this.removeSlot(plan.ids[index] as number, slot);
	}

	/** Ends an install under way in steps, at once: before any other change to the index. */
	private finishPending(): void {
		while (this.pending) this.stepPending();
	}

	/** Runs a step of the install under way in steps. One that fails is that install's failure, not the change's that ran it: it took out what it wrote, and its caller is thrown the error. */
	private stepPending(): void {
		const pending = this.pending;
		if (!pending) return;
		try {
			pending.steps.next();
		} catch (error) {
			pending.failure = { error };
		}
	}

	/** For each of a plan's terms, 1 when its list is still as the plan copied it into its buffer (then taken from there), measured before the old version is taken out. */
	private planListsKept(plan: CommitPlan): Uint8Array {
		const kept = new Uint8Array(plan.block ? plan.ids.length : 0);
		for (let index = 0; index < kept.length; index++) if (this.listKept(plan, index)) kept[index] = 1;
		return kept;
	}

	/** Whether a plan's `index`-th list was moved into its buffer and is as it was then (a moved list another note was appended to meanwhile is grown instead). */
	private listKept(plan: CommitPlan, index: number): boolean {
		const id = plan.ids[index] as number;
		return (
			plan.block !== null && plan.blockRoom[index] !== 0 && this.postings[id] === plan.sourceOwn[index] && this.lengthOf(id) === plan.sourceLength[index]
		);
	}

	/** Adds a plan's buffer to the arenas (where no list points yet): the offset its lists start at. */
	private takeBlock(plan: CommitPlan): number {
		if (!plan.block) return 0;
		const last = this.arenas.length - 1;
		const base = (this.arenaBases[last] as number) + (this.arenas[last] as Uint32Array).length;
		this.arenas.push(plan.block);
		this.arenaBases.push(base);
		const terms = this.dictionary.size;
		// The three grow together: the room of a term past their length is 0.
		this.arenaStart = growUint32(this.arenaStart, terms);
		this.arenaRoom = growUint32(this.arenaRoom, this.arenaStart.length);
		this.arenaLength = growUint32(this.arenaLength, this.arenaStart.length);
		return base;
	}

	/** Writes the plan's `index`-th posting under `slot`: into the list's copy in the plan's buffer when `fromBlock` (the list then moves there), else appended where the list is. */
	private placePosting(plan: CommitPlan, index: number, slot: number, base: number, fromBlock: boolean): void {
		const id = plan.ids[index] as number;
		const value = plan.values[index] as number;
		const block = plan.block;
		if (!fromBlock || !block) {
			this.append(id, slot, value);
			return;
		}
		const at = plan.blockAt[index] as number;
		const room = plan.blockRoom[index] as number;
		const length = plan.sourceLength[index] as number;
		block[at + length] = slot;
		block[at + room + length] = value;
		// (Only where one is: writing past the array's end would leave holes, and a slow array.)
		if (this.postings[id]) this.postings[id] = undefined;
		this.arenaStart[id] = base + at;
		this.arenaRoom[id] = room;
		this.arenaLength[id] = length + 1;
	}

	/** Makes the note the index's, in `slot` (`nextSlot`, whose postings are written): from here searches find it. */
	private publish(prepared: PreparedDocument, slot: number): void {
		const { doc, names } = prepared;
		// Room first: a growth that fails (out of memory) leaves the index as it was, not a note half published.
		this.bodyLengths = growUint32(this.bodyLengths, slot + 1);
		this.modifiedTimes = growFloat64(this.modifiedTimes, slot + 1);
		this.titleLengths = growUint8(this.titleLengths, slot + 1);
		this.titleWholes = growUint32(this.titleWholes, slot + 1);
		this.aliased = growUint8(this.aliased, slot + 1);
		this.logChanged(slot);
		this.nextSlot = slot + 1;
		this.slotOfPath.set(doc.path, slot);
		this.documents[slot] = doc;
		this.bodyLengths[slot] = doc.bodyLength;
		this.titleLengths[slot] = Math.min(TITLE_LENGTH_MAX, names.title.length - bitCount(prepared.titleWholes));
		this.titleWholes[slot] = prepared.titleWholes;
		this.aliased[slot] = names.aliases.length > 0 ? 1 : 0;
		this.modifiedTimes[slot] = doc.modified;
		this.totalBodyLength += doc.bodyLength;
	}

	/**
	 * A prepared note's terms and the value of its posting in each (body count, title count and
	 * flags, packed). A long body is counted in steps, in arrays of its own (`countingScratch`).
	 */
	private *postingsSteps(prepared: PreparedDocument): Generator<void, { ids: Uint32Array; values: Uint32Array }, void> {
		const { doc, names } = prepared;
		const { counts, long } = this.countingScratch(doc, namesLength(names));
		const touched: number[] = [];
		yield* this.countBodySteps(doc, counts, touched, long);
		// Each word left out was counted once before it (repeatedAddressWords): at least that one stays.
		for (const id of prepared.uncounted) {
			const value = counts[id] as number;
			if (value < BODY_COUNT) counts[id] = value - 1;
		}
		for (const id of names.title) {
			if (counts[id] === 0) touched.push(id);
			counts[id] = mergeValues(counts[id] as number, packValue(0, 1, false));
		}
		// An alias finds and ranks like the title, but is not counted as title words: the share of
		// the title a query covers stays about the title. Names, like the body, are counted in steps:
		// a note of a million different headings named a million terms in one piece of 90-400 ms.
		for (const alias of names.aliases) yield* markNamed(alias, IN_TITLE, counts, touched, long);
		yield* markNamed(names.headings, IN_HEADING, counts, touched, long);
		const ids = new Uint32Array(touched.length);
		const values = new Uint32Array(touched.length);
		for (let from = 0; from < ids.length; from += COMMIT_STEP_POSTINGS) {
			for (let index = from; index < Math.min(ids.length, from + COMMIT_STEP_POSTINGS); index++) {
				const id = touched[index] as number;
				ids[index] = id;
				values[index] = counts[id] as number;
				counts[id] = 0;
			}
			if (long) yield;
		}
		return { ids, values };
	}

	/** A note's distinct terms, in its body and its names (in steps for a long body, as `postingsSteps`). */
	private *termsSteps(doc: IndexedDocument): Generator<void, Uint32Array, void> {
		const names = this.namesOf(doc);
		const { counts, long } = this.countingScratch(doc, namesLength(names));
		const touched: number[] = [];
		yield* this.countBodySteps(doc, counts, touched, long);
		for (const field of [names.title, names.headings, ...names.aliases]) yield* markNamed(field, 1, counts, touched, long);
		const terms = new Uint32Array(touched.length);
		for (let from = 0; from < terms.length; from += COMMIT_STEP_POSTINGS) {
			for (let index = from; index < Math.min(terms.length, from + COMMIT_STEP_POSTINGS); index++) {
				const id = touched[index] as number;
				terms[index] = id;
				counts[id] = 0;
			}
			if (long) yield;
		}
		return terms;
	}

	/**
	 * Where a note's tokens are counted: the shared scratch for a short body (counted at once), an
	 * array of its own for a long one, counted in steps (another note may be committed, or a phrase
	 * read, with the shared scratch meanwhile).
	 */
	private countingScratch(doc: IndexedDocument, namesLength: number): { counts: Uint32Array; long: boolean } {
		const long = doc.bodyLength + namesLength > COMMIT_STEP_POSTINGS;
		if (!long) return { counts: (this.counts = growUint32(this.counts, this.dictionary.size)), long };
		return { counts: new Uint32Array(this.dictionary.size), long };
	}

	/**
	 * Counts a note's body into `counts` (`countPacked`), COMMIT_STEP_POSTINGS tokens a step when `long`. Read from
	 * `doc.packed` at each step: a compaction during a pause moves its bytes to the shared buffer, the same bytes.
	 */
	private *countBodySteps(doc: IndexedDocument, counts: Uint32Array, touched: number[], long: boolean): Generator<void, void, void> {
		for (let at = 0; at < doc.bodyBytes;) {
			at = countPacked(doc.packed, at, doc.bodyBytes, COMMIT_STEP_POSTINGS, counts, touched);
			if (long) yield;
		}
	}

	/**
	 * Appends a posting to a term's list: in place when it has room (in the arena too: a search
	 * that paused reads its list only up to the length it took), else grown (out of the arena).
	 */
	private append(id: number, slot: number, value: number): void {
		const room = id < this.arenaRoom.length ? (this.arenaRoom[id] as number) : 0;
		const length = this.arenaLength[id] as number;
		if (!this.postings[id] && length < room) {
			const buffer = this.arenaOf(id);
			const at = this.arenaOffsetOf(id);
			buffer[at + length] = slot;
			buffer[at + room + length] = value;
			this.arenaLength[id] = length + 1;
			return;
		}
		let list = this.postings[id] ?? this.leaveArena(id);
		if (!list) this.postings[id] = list = { slots: new Uint32Array(FIRST_POSTINGS_CAPACITY), values: new Uint32Array(FIRST_POSTINGS_CAPACITY), length: 0 };
		if (list.length === list.slots.length) {
			list.slots = growUint32(list.slots, list.length + 1);
			list.values = growUint32(list.values, list.length + 1);
		}
		list.slots[list.length] = slot;
		list.values[list.length] = value;
		list.length++;
	}

	/** Postings in a term's list now. */
	private lengthOf(id: number): number {
		const own = this.postings[id];
		if (own) return own.length;
		return id < this.arenaRoom.length && this.arenaRoom[id] !== 0 ? (this.arenaLength[id] as number) : 0;
	}

	/** Postings a term's list has room for where it is. */
	private roomOf(id: number): number {
		const own = this.postings[id];
		if (own) return own.slots.length;
		return id < this.arenaRoom.length ? (this.arenaRoom[id] as number) : 0;
	}

	/** The arena buffer holding a term's list (no object made: a commit asks for 40,000 of them). */
	private arenaOf(id: number): Uint32Array {
		return this.arenas[this.arenaIndexOf(id)] as Uint32Array;
	}

	/** Where a term's list starts in its arena buffer. */
	private arenaOffsetOf(id: number): number {
		return (this.arenaStart[id] as number) - (this.arenaBases[this.arenaIndexOf(id)] as number);
	}

	private arenaIndexOf(id: number): number {
		const start = this.arenaStart[id] as number;
		let index = this.arenaBases.length - 1;
		while (index > 0 && (this.arenaBases[index] as number) > start) index--;
		return index;
	}

	/** Whether a term's list holds `slot` (a binary search, no views made). */
	private holds(id: number, slot: number): boolean {
		const own = this.postings[id];
		if (own) {
			const at = seek(own.slots, own.length, 0, slot);
			return at < own.length && own.slots[at] === slot;
		}
		const buffer = this.arenaOf(id);
		const at = this.arenaOffsetOf(id);
		const end = at + (this.arenaLength[id] as number);
		const found = lowerSlot(buffer, at, end, slot);
		return found < end && buffer[found] === slot;
	}

	/**
	 * Copies the first `length` postings of a term's list into `block` at `at` (room `room`). Notes
	 * appended since the plan measured the list are left out (install grows such a list instead); a
	 * plan made before a removal is never installed.
	 */
	private copyInto(id: number, length: number, block: Uint32Array, at: number, room: number): void {
		const own = this.postings[id];
		if (own) return copyPostings(own.slots, 0, own.values, 0, Math.min(length, own.length), block, at, room);
		const arenaRoom = id < this.arenaRoom.length ? (this.arenaRoom[id] as number) : 0;
		if (arenaRoom === 0) return;
		const buffer = this.arenaOf(id);
		const from = this.arenaOffsetOf(id);
		copyPostings(buffer, from, buffer, from + arenaRoom, Math.min(length, this.arenaLength[id] as number), block, at, room);
	}

	/**
	 * Gives back the room postings grew into while the index was built (lists double as they
	 * grow, so about a quarter of it stood empty), and puts every list in one buffer, the arena: a
	 * typed array of its own cost each of the thousands of rare terms more than its postings. A
	 * later note grows a list out of the arena again as needed; the room it leaves behind is given
	 * back by the next build. Not from a note's commit: moving every list is work as long as the
	 * index (a 4 MB note's commit that set it off held the server 0.4 s).
	 */
	compact(): void {
		runSteps(this.compactSteps());
	}

	/**
	 * `compact` with a pause point every COMPACT_STEP_TERMS terms or notes (one piece was 0.4 s at
	 * the end of a build that took in 35,000 new words): the new buffers are filled beside the
	 * index and swapped in at the last step, so a search between steps reads the lists as they
	 * were. A note committed or removed meanwhile leaves the index as it was (false): its room is
	 * given back by the next build.
	 */
	*compactSteps(): Generator<void, boolean, void> {
		if (this.pending) return false;
		// An install begun meanwhile is pending (its lists are half written); one begun and ended took a slot.
		const { nextSlot, generation } = this;
		const changed = () => this.nextSlot !== nextSlot || this.generation !== generation || this.pending !== null;
		const terms = this.dictionary.size;
		let postings = 0;
		for (let id = 0; id < terms; id++) {
			postings += this.listLength(id);
			if ((id & COMPACT_STEP_MASK) === COMPACT_STEP_MASK) {
				yield;
				if (changed()) return false;
			}
		}
		const arena = new Uint32Array(postings * 2);
		const start = new Uint32Array(terms);
		const room = new Uint32Array(terms);
		let at = 0;
		let pausedAt = 0;
		for (let id = 0; id < terms; id++) {
			at = this.copyList(id, arena, at, start, room);
			// By postings copied too: the common words come first (ids go by first use), so the first
			// 4,096 terms of 20,000 notes held most postings, one step of 50–90 ms.
			if ((id & COMPACT_STEP_MASK) === COMPACT_STEP_MASK || at - pausedAt >= COMPACT_STEP_SLOTS) {
				pausedAt = at;
				yield;
				if (changed()) return false;
			}
		}
		let bytes = 0;
		for (const doc of this.documents) bytes += doc?.packed.length ?? 0;
		const shared = new Uint8Array(bytes);
		const offsets = new Float64Array(this.documents.length);
		at = 0;
		pausedAt = 0;
		for (let slot = 0; slot < this.documents.length; slot++) {
			const doc = this.documents[slot];
			if (!doc) continue;
			shared.set(doc.packed, at);
			offsets[slot] = at;
			at += doc.packed.length;
			if ((slot & COMPACT_STEP_MASK) === COMPACT_STEP_MASK || at - pausedAt >= COMPACT_STEP_BYTES) {
				pausedAt = at;
				yield;
				if (changed()) return false;
			}
		}
		this.postings.length = 0;
		this.arenas = [arena];
		this.arenaBases = [0];
		this.arenaStart = start;
		this.arenaRoom = room;
		this.arenaLength = room.slice();
		// Every note's buffer in one: a buffer each cost about 90 bytes beside the note's few hundred.
		// A note replaced or removed later leaves its bytes there until the next build.
		const sketchAt = new Float64Array(this.documents.length);
		this.documents.forEach((doc, slot) => {
			if (!doc) return;
			doc.packed = shared.subarray(offsets[slot], (offsets[slot] as number) + doc.packed.length);
			sketchAt[slot] = (offsets[slot] as number) + doc.bodyBytes + 1;
		});
		this.compacted = shared;
		this.sketchAt = sketchAt;
		// A phrase's candidates may hold views of lists in the buffers just let go: kept, they would keep those buffers too.
		this.wordUnions.clear();
		this.phraseCandidates.clear();
		this.forgetPhrasesLearnt();
		return true;
	}

	/** Copies term `id`'s list to `arena` at `at` (its slots, then its values), noting where in `start` and `room`; the next free offset. */
	private copyList(id: number, arena: Uint32Array, at: number, start: Uint32Array, room: Uint32Array): number {
		// Element by element, without views: most lists hold a posting or two, and two views a list cost more than copying them.
		const own = this.postings[id];
		let source: Postings | Uint32Array;
		let slotsFrom = 0;
		let valuesFrom = 0;
		let length: number;
		if (own) {
			source = own;
			length = own.length;
		} else {
			const inArena = id < this.arenaRoom.length ? (this.arenaRoom[id] as number) : 0;
			if (inArena === 0) return at;
			source = this.arenaOf(id);
			slotsFrom = this.arenaOffsetOf(id);
			valuesFrom = slotsFrom + inArena;
			length = this.arenaLength[id] as number;
		}
		if (length === 0) return at;
		const slots = source instanceof Uint32Array ? source : source.slots;
		const values = source instanceof Uint32Array ? source : source.values;
		for (let index = 0; index < length; index++) {
			arena[at + index] = slots[slotsFrom + index] as number;
			arena[at + length + index] = values[valuesFrom + index] as number;
		}
		start[id] = at;
		room[id] = length;
		return at + length * 2;
	}

	/** How many notes hold `word` now, as typed (0 for a word no note holds). */
	notesHolding(word: string): number {
		const id = this.dictionary.lookup(word);
		return id === undefined ? 0 : this.listLength(id);
	}

	/**
	 * Lets go what searches keep for the next (filters' accepted notes, words' merged lists, phrases'
	 * candidates): the server's warm-up searches leave nothing a person's search would be served from.
	 */
	forgetKept(): void {
		this.acceptedMemos.clear();
		this.wordUnions.clear();
		this.phraseCandidates.clear();
		this.forgetPhrasesLearnt();
	}

	/** How many notes hold term `id` now. */
	private listLength(id: number): number {
		const own = this.postings[id];
		if (own) return own.length;
		return id < this.arenaRoom.length && this.arenaRoom[id] !== 0 ? (this.arenaLength[id] as number) : 0;
	}

	/** A term's list as it is now (views on the arena for one in it), or undefined for a term no note holds. */
	private listOf(id: number): Postings | undefined {
		const own = this.postings[id];
		if (own) return own;
		const room = id < this.arenaRoom.length ? (this.arenaRoom[id] as number) : 0;
		if (room === 0) return undefined;
		const buffer = this.arenaOf(id);
		const at = this.arenaOffsetOf(id);
		return {
			slots: buffer.subarray(at, at + room),
			values: buffer.subarray(at + room, at + room * 2),
			length: this.arenaLength[id] as number,
		};
	}

	/**
	 * Moves a term's list out of the arena, to grow: a copy with room to grow into (its room in the
	 * arena stays as it was, for a search that paused with views on it). Undefined for a term not there.
	 */
	private leaveArena(id: number): Postings | undefined {
		const inArena = this.listOf(id);
		if (!inArena) return undefined;
		const list = { slots: new Uint32Array(inArena.length + 1), values: new Uint32Array(inArena.length + 1), length: inArena.length };
		list.slots.set(inArena.slots.subarray(0, inArena.length));
		list.values.set(inArena.values.subarray(0, inArena.length));
		this.arenaRoom[id] = 0;
		this.postings[id] = list;
		return list;
	}

	remove(path: string): void {
		runSteps(this.removeSteps(path));
	}

	/**
	 * Takes a note out as `remove` does, its distinct terms counted first in steps (for a long body):
	 * the index is unchanged until the last step, so searches meanwhile still see the note, as they
	 * see the old version of one being added in slices. A note of 90,000 words counted in one piece
	 * held the server 50–70 ms on each rename or delete.
	 */
	*removeSteps(path: string): Generator<void, void, void> {
		// A note being installed in steps is taken out once it is in: its removal must not come first.
		yield* this.pendingHelped(path);
		const slot = this.slotOfPath.get(path);
		if (slot === undefined) return;
		const doc = this.documents[slot];
		const terms = doc ? yield* this.termsSteps(doc) : [];
		// Another note's install begun meanwhile ends first, a step at a time too: at once, a note of a million new words was one piece.
		yield* this.pendingHelped();
		// A slot holds one version of one note, never reused: another slot (or none) means a newer
		// version replaced this one meanwhile, taking its postings out. Compacting may have moved the
		// note's buffer, not its terms.
		if (this.slotOfPath.get(path) !== slot) return;
		this.removeSlotOf(path, slot, terms);
	}

	/**
	 * Runs the install under way in steps (`installSteps`) a step at a time, pausing after each, until
	 * none is (or, given `path`, until none of that note is): a change that must come after it helps it
	 * along instead of finishing it in one piece. Its last step leaves no pause before the change.
	 */
	private *pendingHelped(path?: string): Generator<void, void, void> {
		while (this.pending && (path === undefined || this.pending.path === path)) {
			this.stepPending();
			if (this.pending) yield;
		}
	}

	/** Takes a note out: its slot, and its postings from the lists of `terms` (its distinct terms). */
	private removeSlotOf(path: string, slot: number, terms: ArrayLike<number>): void {
		this.finishPending();
		this.generation++;
		this.logChanged(slot);
		const doc = this.documents[slot];
		this.slotOfPath.delete(path);
		this.documents[slot] = undefined;
		if (slot < this.sketchAt.length) this.sketchAt[slot] = 0;
		if (!doc) return;
		this.totalBodyLength -= doc.bodyLength;
		for (let index = 0; index < terms.length; index++) this.removeSlot(terms[index] as number, slot);
	}

	/** Takes `slot`'s posting out of a term's list, where the list is (no views made: a note of 40,000 words is as many lists). */
	private removeSlot(id: number, slot: number): void {
		const own = this.postings[id];
		if (own) {
			const at = seek(own.slots, own.length, 0, slot);
			if (at >= own.length || own.slots[at] !== slot) return;
			own.slots.copyWithin(at, at + 1, own.length);
			own.values.copyWithin(at, at + 1, own.length);
			own.length--;
			return;
		}
		const room = id < this.arenaRoom.length ? (this.arenaRoom[id] as number) : 0;
		if (room === 0) return;
		const buffer = this.arenaOf(id);
		const start = this.arenaOffsetOf(id);
		const length = this.arenaLength[id] as number;
		const at = lowerSlot(buffer, start, start + length, slot);
		if (at >= start + length || buffer[at] !== slot) return;
		buffer.copyWithin(at, at + 1, start + length);
		buffer.copyWithin(at + room, at + room + 1, start + room + length);
		this.arenaLength[id] = length - 1;
	}

	/**
	 * The accepted documents by slot (1 = accepted), with their count and total body length. In
	 * steps (it yields every ACCEPT_STEP_MASK + 1 notes, where the caller may pause); notes added
	 * meanwhile are left out, as they are of the search's postings. A filter naming its notes
	 * (`among`) asks only about those, not about every indexed note.
	 */
	*acceptedSlots(filter: NoteFilter): Generator<void, { slots: Uint8Array; count: number; totalLength: number }, void> {
		const key = typeof filter === "function" ? undefined : filter.key;
		const logged = this.changedFrom + this.changedSlots.length;
		if (key !== undefined && typeof filter !== "function") {
			const memo = this.acceptedMemos.get(key);
			if (memo && memo.logged === logged) return memo.accepted;
			const accepts = filter.among ? filter.accepts : filter.include;
			if (memo && accepts && memo.logged >= this.changedFrom) return this.keepAccepted(key, logged, this.patchedAccepted(memo, accepts));
		}
		const slots = new Uint8Array(this.nextSlot);
		let count = 0;
		let totalLength = 0;
		let seen = 0;
		const accept = (path: string, slot: number | undefined, include: (path: string) => boolean): void => {
			if (slot === undefined || slot >= slots.length || slots[slot] === 1 || !include(path)) return;
			slots[slot] = 1;
			count++;
			totalLength += this.bodyLengths[slot] as number;
		};
		if (typeof filter === "function") {
			for (const [path, slot] of this.slotOfPath) {
				if ((++seen & ACCEPT_STEP_MASK) === 0) yield;
				accept(path, slot, filter);
			}
		} else if (filter.among) {
			for (const path of filter.among()) {
				if ((++seen & ACCEPT_STEP_MASK) === 0) yield;
				accept(path, this.slotOfPath.get(path), filter.include);
			}
		} else {
			for (const [path, slot] of this.slotOfPath) {
				if ((++seen & ACCEPT_STEP_MASK) === 0) yield;
				accept(path, slot, filter.include);
			}
		}
		const accepted = { slots, count, totalLength };
		// Kept only if the index did not change while it paused (the search starts again then anyway).
		if (key !== undefined && this.changedFrom + this.changedSlots.length === logged) this.keepAccepted(key, logged, accepted);
		return accepted;
	}

	/** Keeps an accepted answer under its key, newest last, at most ACCEPTED_FILTERS_KEPT. */
	private keepAccepted(key: string, logged: number, accepted: AcceptedMemo["accepted"]): AcceptedMemo["accepted"] {
		this.acceptedMemos.delete(key);
		this.acceptedMemos.set(key, { logged, accepted });
		for (const old of this.acceptedMemos.keys()) {
			if (this.acceptedMemos.size <= ACCEPTED_FILTERS_KEPT) break;
			this.acceptedMemos.delete(old);
		}
		return accepted;
	}

	/**
	 * A kept answer brought up to date: each slot changed since is accepted when it holds a note's
	 * current version and the filter accepts that note. A copy: a search paused on the kept one
	 * still reads it as it was.
	 */
	private patchedAccepted(memo: AcceptedMemo, accepts: (path: string) => boolean): AcceptedMemo["accepted"] {
		const slots = new Uint8Array(this.nextSlot);
		slots.set(memo.accepted.slots);
		let { count, totalLength } = memo.accepted;
		for (let index = memo.logged - this.changedFrom; index < this.changedSlots.length; index++) {
			const slot = this.changedSlots[index] as number;
			const doc = this.documents[slot];
			const wanted = doc !== undefined && this.slotOfPath.get(doc.path) === slot && accepts(doc.path) ? 1 : 0;
			if (slots[slot] === wanted) continue;
			slots[slot] = wanted;
			count += wanted === 1 ? 1 : -1;
			totalLength += wanted === 1 ? (this.bodyLengths[slot] as number) : -(this.bodyLengths[slot] as number);
		}
		return { slots, count, totalLength };
	}

	/** Logs a slot whose filter answers may have changed; past ACCEPTED_PATCH_SLOTS the older half of the log is dropped. */
	private logChanged(slot: number): void {
		if (this.changedSlots.length >= ACCEPTED_PATCH_SLOTS) {
			// The older half goes: an answer kept since fewer changes than that is still brought up to date.
			const dropped = this.changedSlots.length - (ACCEPTED_PATCH_SLOTS >> 1);
			this.changedFrom += dropped;
			this.changedSlots = this.changedSlots.slice(dropped);
		}
		this.changedSlots.push(slot);
	}

	/**
	 * Tells the kept filter answers that a note's own filter answer may have changed (its tags did)
	 * without a new version of it in the index.
	 */
	recheck(path: string): void {
		const slot = this.slotOfPath.get(path);
		if (slot !== undefined) this.logChanged(slot);
	}

	/**
	 * The packed value of a term in a note when the note matches it (in the body or the title),
	 * else 0. A heading alone is not a match: it ranks, it does not find. `bound`: a phrase's
	 * bound in this note (phraseValueBound), when known: names it rules out are not read.
	 */
	matchValue(term: ResolvedTerm, at: number, doc: IndexedDocument | undefined, bound = IN_TITLE | IN_HEADING, bodyCount?: number): number {
		let value: number;
		if (term.phrase && doc) {
			// A long phrase read in steps (CandidateFinder) gives its count as `bodyCount`.
			const body = bodyCount ?? phraseBodyCount(term, term.phrase.length, doc);
			if ((bound & (IN_TITLE | IN_HEADING)) === 0) value = packValue(body, 0, false);
			else {
				// The title's and the headings' runs (the first two, each after its length) in scratch: new arrays for a
				// note's every name (namesOf) were the most time of any one function reading a first-time phrase's notes.
				const { ids, count } = this.unpackNames(doc);
				const titleTo = count > 0 ? Math.min(count, 1 + (ids[0] as number)) : 0;
				const headingsTo = titleTo < count ? Math.min(count, titleTo + 1 + (ids[titleTo] as number)) : titleTo;
				const inTitle = countPhrase(ids, term.phrase, Math.min(1, titleTo), titleTo);
				const inHeadings = countPhrase(ids, term.phrase, Math.min(titleTo + 1, headingsTo), headingsTo);
				value = packValue(body, inTitle * term.phrase.length, inHeadings > 0);
			}
		} else value = term.values[at] as number;
		return (value & BODY_COUNT) > 0 || (value & IN_TITLE) !== 0 ? value >>> 0 : 0;
	}

	/**
	 * The notes holding any of `words` (each a prefix when long enough) in the body or the title,
	 * by slot (1 = holds one), or null for no words: marks, not a union, as an exclusion needs no
	 * counts, so excluding every two-letter start of a 50,000-note vault is one pass over postings.
	 * Throws TooManyWordsExcluded when the notes `accepted` accepts (null: every note) hold more
	 * than EXCLUDED_SEARCH_MAX_WORDS words the prefixes and `phraseEnds` start: an exclusion cannot be cut.
	 * `phraseEnds` are the last words of the search's excluded phrases (each a prefix, each phrase's
	 * own): they are only counted here, as each phrase walks and merges every word its last word starts
	 * (`resolveSteps`), and their notes are not marked.
	 */
	notesHoldingAny(words: readonly string[], accepted: Uint8Array | null = null, phraseEnds: readonly string[] = []): Uint8Array | null {
		return runSteps(this.notesHoldingAnySteps(words, accepted, phraseEnds));
	}

	/** `notesHoldingAny` in steps that yield where a search may pause; notes added meanwhile are left out. */
	*notesHoldingAnySteps(
		words: readonly string[],
		accepted: Uint8Array | null = null,
		phraseEnds: readonly string[] = [],
	): Generator<void, Uint8Array | null, void> {
		if (words.length === 0 && phraseEnds.length === 0) return null;
		const slotCount = this.nextSlot;
		const ids: number[] = [];
		const starting: string[][] = [];
		const prefixes = words.filter(isPrefixWord);
		const walking = new Set<string>();
		for (const word of words) {
			if (!isPrefixWord(word)) ids.push(...optional(this.dictionary.lookup(word)));
			// A prefix typed again, or one another starts (`cox` beside `co`), adds no word: its words were counted twice against the bound.
			else if (!walking.has(word) && !prefixes.some((other) => other !== word && word.startsWith(other))) {
				walking.add(word);
				starting.push(yield* this.dictionary.wordsWithPrefixSteps(word));
			}
		}
		// Counted, never marked: each phrase walks its last word's words again whoever else walked them (`-"alpha co" -"beta co"` twice).
		const counted = starting.length;
		for (const end of phraseEnds) if (isPrefixWord(end)) starting.push(yield* this.dictionary.wordsWithPrefixSteps(end));
		// Past the bound only the words the searched notes hold count (as for a wanted prefix): the answer
		// must not depend on notes the search may not read, nor on words of deleted notes the dictionary keeps.
		const walked = starting.reduce((sum, started) => sum + started.length, 0);
		const held = walked <= EXCLUDED_SEARCH_MAX_WORDS ? undefined : accepted ? this.heldAmong(accepted) : this.heldAnywhere();
		let room = EXCLUDED_SEARCH_MAX_WORDS;
		for (const [at, started] of starting.entries()) {
			const found = yield* this.dictionary.heldIdsSteps(started, held, room);
			if (found === null) throw new TooManyWordsExcluded();
			room -= found.length;
			if (at < counted) for (const id of found) ids.push(id);
		}
		if (words.length === 0) return null;
		return yield* holderMarkSteps(yield* this.runsOfSteps(ids, slotCount), slotCount);
	}

	/**
	 * A wanted term by evidence: a one-word term's notes holding the word as typed, another form
	 * of it, or (2+ letters) a longer word it starts; a phrase's notes as `resolve` finds them.
	 */
	resolveEvidence(tokens: readonly string[], stem: Stemmer | null, accepted: Uint8Array | null = null, prefixWords = PREFIX_MAX_WORDS): TermEvidence {
		return runSteps(this.resolveEvidenceSteps(tokens, stem, this.mergeScratch, accepted, prefixWords));
	}

	/**
	 * `resolveEvidence` in steps that yield where a search may pause, merging in `scratch` (a search
	 * that may pause brings its own). Every list is taken when it starts, so notes added meanwhile
	 * are left out of all three unions alike. `stem` is the dictionary's stemmer (memoized) or null:
	 * an unfiltered union is kept by word and that stemmer (`wordUnions`). `prefixWords`: the most
	 * longer words the word stands for as a prefix (its share of the search's, `prefixWordsEach`).
	 */
	*resolveEvidenceSteps(
		tokens: readonly string[],
		stem: Stemmer | null,
		scratch: UnionScratch,
		accepted: Uint8Array | null = null,
		prefixWords = PREFIX_MAX_WORDS,
	): Generator<void, TermEvidence, void> {
		if (tokens.length !== 1) {
			const said = { cut: false };
			return {
				any: (yield* this.resolveSteps(tokens, scratch, { most: prefixWords, accepted, said })) ?? emptyTerm(),
				exact: null,
				forms: null,
				related: null,
				strongIds: null,
				relatedIds: null,
				strongNotes: 0,
				...(said.cut ? { prefixCut: true } : {}),
			};
		}
		const word = tokens[0] ?? "";
		// Every list is cut to the notes there are now: the walks below pause, and notes added meanwhile are appended to lists.
		const slotCount = this.nextSlot;
		const generation = this.generation;
		// As the merge starts: a stemmer changed while it pauses must not be kept beside a union of the old one's forms.
		const stemmer = this.dictionary.stemmer;
		const exactId = this.dictionary.lookup(word);
		// A word stays in the dictionary once no note holds it (its notes deleted, or moved into an
		// excluded folder): such words are passed over too, or they took the places of real forms.
		const held = accepted ? this.heldAmong(accepted) : this.heldAnywhere();
		const formIds = yield* this.dictionary.formsOfSteps(word, stem, held);
		const strongIds = new Set<number>([...optional(exactId), ...formIds]);
		// The words meaning the same (an abbreviation's full form, or back: expansions.ts) and their forms, none of the word's own.
		const relatedIds = new Set<number>();
		for (const other of expansionsOf(word, this.dictionary.stemmer)) {
			const otherId = this.dictionary.lookup(other);
			if (otherId !== undefined && !strongIds.has(otherId) && held.holds(otherId)) relatedIds.add(otherId);
			for (const id of yield* this.dictionary.formsOfSteps(other, stem, held)) if (!strongIds.has(id)) relatedIds.add(id);
		}
		const exactLists = this.listsCut(optional(exactId), slotCount);
		const exactList = exactLists[0];
		const exact = exactId === undefined ? null : exactList ? wordTerm(exactList.slots, exactList.values, exactList.length) : emptyTerm();
		const formLists = this.listsCut(formIds, slotCount);
		// The forms are merged only into `any`: the engine merges a note's forms when it scores the note (formsValueAt).
		const forms: FormLists | null = formLists.length > 0 ? { lists: formLists, cursors: new Array<number>(formLists.length).fill(0) } : null;
		const relatedLists = this.listsCut([...relatedIds], slotCount);
		const related: FormLists | null = relatedLists.length > 0 ? { lists: relatedLists, cursors: new Array<number>(relatedLists.length).fill(0) } : null;
		const found = { exact, forms, related, strongIds, relatedIds: relatedIds.size > 0 ? relatedIds : null };
		// Over every note, the word's union is the one merged last time while no note was added or removed since, nor the stemmer changed.
		// Kept by the prefix's share too: the same word in a search of more prefixes stands for fewer words.
		const key = accepted === null ? `${stem === null ? "=" : "~"}${prefixWords}:${word}` : null;
		const kept = key === null ? undefined : this.keptUnion(this.wordUnions, key, slotCount);
		if (kept) return { ...found, any: kept.any, strongNotes: kept.strongNotes, ...(kept.prefixCut ? { prefixCut: true } : {}) };
		const said = { cut: false };
		const prefixIds = isPrefixWord(word)
			? yield* this.dictionary.withPrefixSteps(word, new Set([...strongIds, ...relatedIds]), prefixWords, held, said)
			: [];
		// A prefix's lists by place, with no views: a two-letter prefix of a planted vocabulary takes hundreds of thousands.
		const anyRuns = PostingRuns.of(exactLists);
		const strongLists = [...exactLists, ...formLists];
		for (const list of formLists) anyRuns.add(list.slots, 0, list.values, 0, list.length);
		for (const list of relatedLists) anyRuns.add(list.slots, 0, list.values, 0, list.length);
		yield* this.runsOfSteps(prefixIds, slotCount, anyRuns);
		// The notes holding the word as typed or in another form are counted as `any` merges them.
		const tally: UnionTally = { lists: strongLists.length, notes: strongLists.length === 1 ? (strongLists[0] as Postings).length : 0 };
		const merged = anyRuns.count > 1;
		const any = strongIds.size + relatedIds.size + prefixIds.length > 0 ? yield* this.unionOfLists(anyRuns, slotCount, scratch, tally) : emptyTerm();
		// Only a merge is kept: its arrays are its own, where a single list is a view of postings that later changes rewrite.
		if (key !== null && merged)
			this.keepUnion(this.wordUnions, WORD_UNION_MEMO_WORDS, key, {
				generation,
				slotCount,
				stemmer,
				any,
				strongNotes: tally.notes,
				prefixCut: said.cut,
			});
		return { ...found, any, strongNotes: tally.notes, ...(said.cut ? { prefixCut: true } : {}) };
	}

	/** The union kept in `memo` under `key` if it is still the index's answer: no note removed since (nor added: `slotCount`), the same stemmer. */
	private keptUnion(memo: Map<string, WordUnion>, key: string, slotCount: number): WordUnion | undefined {
		const kept = memo.get(key);
		return kept && kept.generation === this.generation && kept.slotCount === slotCount && kept.stemmer === this.dictionary.stemmer ? kept : undefined;
	}

	/**
	 * Keeps a union in `memo` for the next search of its word or phrase, the oldest let go past
	 * `limit`; not one merged while a note was removed (its lists were rewritten under it: the search
	 * starts again).
	 */
	private keepUnion(memo: Map<string, WordUnion>, limit: number, key: string, union: WordUnion): void {
		if (union.generation !== this.generation) return;
		memo.delete(key);
		memo.set(key, union);
		if (memo.size > limit) memo.delete(memo.keys().next().value as string);
	}

	/**
	 * The notes that may hold a term: the last word is a prefix (when long enough), the others
	 * whole words. Null when some word is in no note at all.
	 */
	resolve(tokens: readonly string[]): ResolvedTerm | null {
		return runSteps(this.resolveSteps(tokens, this.mergeScratch));
	}

	/**
	 * `resolve` in steps that yield where a search may pause (a phrase whose last word is a
	 * two-letter prefix of a planted vocabulary walks and merges its words), merging in `scratch`;
	 * every list cut to the notes there were when it began, as in `resolveEvidenceSteps`. The last
	 * word stands for at most `prefix.most` words (a wanted phrase's share of the search's, as a
	 * word's: `prefixWordsEach`), the shortest the notes `prefix.accepted` (all when null) hold;
	 * `prefix.said.cut` is set when longer ones were left out. An excluded phrase stands for all.
	 */
	*resolveSteps(tokens: readonly string[], scratch: UnionScratch, prefix: PhrasePrefix = WHOLE_PREFIX): Generator<void, ResolvedTerm | null, void> {
		if (tokens.length < 2) return yield* this.candidatesSteps(tokens, scratch, prefix);
		// A phrase's candidates are the last ones found while no note was added or removed since: its words' unions and their intersection.
		// Kept by the prefix's share; not kept when a cut would follow the notes searched (which words their notes hold).
		const key = prefix.accepted === null || !isPrefixWord(tokens.at(-1) ?? "") ? `${prefix.most}"${tokens.join(" ")}` : null;
		const slotCount = this.nextSlot;
		const generation = this.generation;
		const stemmer = this.dictionary.stemmer;
		const kept = key === null ? undefined : this.keptUnion(this.phraseCandidates, key, slotCount);
		if (kept) {
			if (kept.prefixCut && prefix.said) prefix.said.cut = true;
			// Its reads are this search's too (kept with its candidates, the same object).
			if (key !== null) this.touchLearnt(key);
			return kept.any;
		}
		const said = { cut: false };
		const resolved = yield* this.candidatesSteps(tokens, scratch, { ...prefix, said });
		if (said.cut && prefix.said) prefix.said.cut = true;
		if (resolved && key !== null) this.keepLearnt(key, resolved, generation, slotCount, stemmer);
		if (resolved && key !== null)
			this.keepUnion(this.phraseCandidates, PHRASE_CANDIDATES_MEMO_PHRASES, key, {
				generation,
				slotCount,
				stemmer,
				any: resolved,
				strongNotes: 0,
				prefixCut: said.cut,
			});
		return resolved;
	}

	/**
	 * Tells the index a search begins: the phrases it resolves from here on are its own, whose reads
	 * `keepLearnt` keeps before any earlier search's.
	 */
	beginSearch(): void {
		this.searches++;
	}

	/**
	 * Gives a phrase resolved afresh what earlier searches of it read of its notes' bodies, when the
	 * index is as it was then (the same notes in the same slots), and keeps it for the next search:
	 * its candidates are kept for only a few phrases (a phrase's tables are large), its reads for many
	 * (they are the costly part). Past `phraseLearntMemoNotes` the phrases of earlier searches are let
	 * go, oldest first, never the search's own: it keeps the reads of the first of its phrases that
	 * fit, not the last. Letting go its own oldest, a search of more phrases than fit, called again
	 * as its answer invites when stopped at its work budget, found none of its phrases' reads (each
	 * had let go the one it would resolve next) and read every body again, at every call.
	 */
	private keepLearnt(key: string, resolved: ResolvedTerm, generation: number, slotCount: number, stemmer: Stemmer | null): void {
		if (!resolved.phraseLearnt || generation !== this.generation) return;
		const kept = this.phrasesLearnt.get(key);
		if (kept) {
			this.phrasesLearnt.delete(key);
			this.phrasesLearntNotes -= kept.learnt.notes;
			if (kept.generation === generation && kept.slotCount === slotCount && kept.stemmer === stemmer && kept.learnt.notes === resolved.length)
				resolved.phraseLearnt = kept.learnt;
		}
		const learnt = resolved.phraseLearnt;
		// Oldest first, and each search's phrases after the last's: the first of this search's own ends the loop.
		for (const [oldKey, old] of this.phrasesLearnt) {
			if (this.phrasesLearntNotes + learnt.notes <= this.phraseLearntMemoNotes || old.search === this.searches) break;
			this.phrasesLearnt.delete(oldKey);
			this.phrasesLearntNotes -= old.learnt.notes;
		}
		// A phrase larger than the bound alone is still kept (alone): its notes are the vault's.
		if (this.phrasesLearntNotes + learnt.notes > this.phraseLearntMemoNotes && this.phrasesLearnt.size > 0) return;
		this.phrasesLearnt.set(key, { generation, slotCount, stemmer, learnt, search: this.searches });
		this.phrasesLearntNotes += learnt.notes;
	}

	/** Marks a phrase's kept reads as the search's under way (newest), when its candidates were kept too. */
	private touchLearnt(key: string): void {
		const kept = this.phrasesLearnt.get(key);
		if (!kept) return;
		this.phrasesLearnt.delete(key);
		kept.search = this.searches;
		this.phrasesLearnt.set(key, kept);
	}

	private forgetPhrasesLearnt(): void {
		this.phrasesLearnt.clear();
		this.phrasesLearntNotes = 0;
	}

	/** `resolveSteps`' work, done afresh. */
	private *candidatesSteps(tokens: readonly string[], scratch: UnionScratch, prefix: PhrasePrefix): Generator<void, ResolvedTerm | null, void> {
		const slotCount = this.nextSlot;
		const idsByPosition: number[][] = [];
		// Only a cut needs to know which words the searched notes hold (as a prefix word's: withPrefixSteps).
		const held = prefix.most === Infinity ? undefined : prefix.accepted ? this.heldAmong(prefix.accepted) : this.heldAnywhere();
		for (const [index, token] of tokens.entries()) {
			const ids =
				index === tokens.length - 1 && isPrefixWord(token)
					? yield* this.dictionary.withPrefixSteps(token, undefined, prefix.most, held, prefix.said)
					: optional(this.dictionary.lookup(token));
			if (ids.length === 0) return null;
			idsByPosition.push(ids);
		}
		if (tokens.length === 1) return yield* this.unionCut(idsByPosition[0] as number[], slotCount, scratch);
		// A phrase: the notes holding every word, checked for the words in a row when they are
		// candidates. A word the phrase repeats is looked up once ("very very very…" is one list).
		const keyOf = (index: number) => (index === tokens.length - 1 ? `${tokens[index] ?? ""}*` : (tokens[index] ?? ""));
		const distinct = new Map<string, { ids: number[]; repeats: number }>();
		idsByPosition.forEach((ids, index) => {
			const key = keyOf(index);
			const seen = distinct.get(key);
			if (seen) seen.repeats++;
			else distinct.set(key, { ids, repeats: 1 });
		});
		const words: Array<{ term: ResolvedTerm; repeats: number }> = [];
		for (const { ids, repeats } of distinct.values()) words.push({ term: yield* this.unionCut(ids, slotCount, scratch), repeats });
		words.sort((a, b) => a.term.length - b.term.length);
		const positions = words.map((word) => word.term);
		const phraseWordRepeats = words.map((word) => word.repeats);
		const { slots, phraseBounds, length } = phraseCandidatesOf(positions, phraseWordRepeats, tokens.length);
		const hashes = this.dictionary.hashes;
		const phrasePairs = phrasePairsOf(idsByPosition.map((ids) => ids.map((id) => hashes[id] as number)));
		// Once for the phrase's notes, not at each search of it: a sketch read is a cache miss in a buffer as large as the vault.
		if (pairsBoundWhenResolved(phrasePairs))
			for (let from = 0; from < length; from += PAIR_BOUND_STEP) {
				if (from > 0) yield;
				this.tightenByPairs(slots, phraseBounds, from, Math.min(length, from + PAIR_BOUND_STEP), phrasePairs);
			}
		// One set a distinct word: a word the phrase repeats shares it.
		const tables = new Map<string, AcceptedIds>();
		const phrase = idsByPosition.map((ids, index) => {
			const key = keyOf(index);
			let accepted = tables.get(key);
			if (!accepted) {
				accepted = acceptedIds(ids, this.dictionary.size);
				tables.set(key, accepted);
			}
			return accepted;
		});
		if (phrase.length > MAX_PHRASE_WORDS) {
			const phraseChunkMasks = Array.from({ length: Math.ceil(phrase.length / MAX_PHRASE_WORDS) }, () => new Uint32Array(this.dictionary.size));
			idsByPosition.forEach((ids, position) => {
				const masks = phraseChunkMasks[Math.floor(position / MAX_PHRASE_WORDS)] as Uint32Array;
				for (const id of ids) masks[id] = ((masks[id] as number) | (1 << (position % MAX_PHRASE_WORDS))) >>> 0;
			});
			return {
				slots,
				values: new Uint32Array(0),
				length,
				phrase,
				phraseMasks: undefined,
				phraseChunkMasks,
				phraseAnchor: undefined,
				phraseWords: positions,
				phraseWordRepeats,
				phraseBounds,
				phrasePairs,
				phraseLearnt: new PhraseLearnt(length),
			};
		}
		const phraseMasks = new Uint32Array(this.dictionary.size);
		idsByPosition.forEach((ids, position) => {
			for (const id of ids) phraseMasks[id] = ((phraseMasks[id] as number) | (1 << position)) >>> 0;
		});
		const firstIds = idsByPosition[0] ?? [];
		const phraseAnchor = firstIds.length === 1 ? packedAnchor(firstIds[0] as number) : undefined;
		return {
			slots,
			values: new Uint32Array(0),
			length,
			phrase,
			phraseMasks,
			phraseAnchor,
			phraseWords: positions,
			phraseWordRepeats,
			phraseBounds,
			phrasePairs,
			phraseLearnt: new PhraseLearnt(length),
		};
	}

	/**
	 * Tightens a phrase's bounds `bounds[from, to)` in its notes `slots[from, to)` by their pair
	 * sketches (pairBoundAt). A plain method, not the generator's loop: V8 runs a loop inside a
	 * generator several times slower; and a loop of nothing else lets the processor wait on many
	 * sketch reads at once.
	 */
	private tightenByPairs(slots: Uint32Array, bounds: Uint32Array, from: number, to: number, pairs: readonly PhrasePair[]): void {
		for (let index = from; index < to; index++) {
			const bound = bounds[index] as number;
			if (bound !== 0) bounds[index] = tightenedBound(bound, this.pairBoundAt(slots[index] as number, pairs));
		}
	}

	/** Whether any note in the index holds the word. */
	private isHeld(id: number): boolean {
		const own = this.postings[id];
		if (own) return own.length > 0 && (this.pending === null || (own.slots[0] as number) < this.nextSlot);
		if (id >= this.arenaRoom.length || this.arenaRoom[id] === 0 || this.arenaLength[id] === 0) return false;
		// A word only the note being installed holds is not held yet (searches cut its posting away).
		return this.pending === null || (this.arenaOf(id)[this.arenaOffsetOf(id)] as number) < this.nextSlot;
	}

	/** Whether any note holds a word (`isHeld`): one look a word, so nothing to count. */
	private heldAnywhere(): HeldAmong {
		return { walked: 0, holds: (id: number): boolean => this.isHeld(id) };
	}

	/** Whether a note of `accepted` (by slot) holds a word, counting the postings entries walked to know. */
	private heldAmong(accepted: Uint8Array): HeldAmong {
		const held = {
			walked: 0,
			holds: (id: number): boolean => {
				const list = this.listOf(id);
				if (!list) return false;
				for (let index = 0; index < list.length; index++) {
					if (accepted[list.slots[index] as number] === 1) {
						held.walked += index + 1;
						return true;
					}
				}
				held.walked += list.length;
				return false;
			},
		};
		return held;
	}

	/** The notes holding a term whose words are all whole words (a stop word): null when none does. */
	resolveWhole(tokens: readonly string[]): ResolvedTerm | null {
		if (tokens.length !== 1) return null;
		const id = this.dictionary.lookup(tokens[0] ?? "");
		return id === undefined ? null : this.union([id]);
	}

	/**
	 * The notes holding a word as typed or in another form (`unuses` finds `unused`), as one term:
	 * null when no note of `accepted` (all when null) holds either. The forms are looked up as a
	 * search's are (formsOf, bounded by MAX_WORD_FORM_CANDIDATES), not by prefix.
	 */
	resolveWithForms(word: string, stem: Stemmer | null, accepted: Uint8Array | null = null): ResolvedTerm | null {
		return runSteps(this.resolveWithFormsSteps(word, stem, this.mergeScratch, accepted));
	}

	/** `resolveWithForms` in steps that yield where a search may pause, merging in `scratch` (a search that may pause brings its own). */
	*resolveWithFormsSteps(
		word: string,
		stem: Stemmer | null,
		scratch: UnionScratch,
		accepted: Uint8Array | null = null,
	): Generator<void, ResolvedTerm | null, void> {
		const slotCount = this.nextSlot;
		const held = accepted ? this.heldAmong(accepted) : this.heldAnywhere();
		const exactId = this.dictionary.lookup(word);
		const ids = [...(exactId !== undefined && held.holds(exactId) ? [exactId] : []), ...(yield* this.dictionary.formsOfSteps(word, stem, held))];
		const lists = this.listsCut(ids, slotCount);
		return lists.length > 0 ? yield* this.unionOfLists(PostingRuns.of(lists), slotCount, scratch) : null;
	}

	/** The postings of several terms as one: body counts added, title and heading flags combined. */
	private union(ids: readonly number[]): ResolvedTerm {
		return runSteps(this.unionOfLists(PostingRuns.of(this.listsOf(ids)), this.nextSlot, this.mergeScratch));
	}

	/** The postings of `ids` as they are now: a union that pauses leaves out what is appended meanwhile. */
	private listsOf(ids: readonly number[]): Postings[] {
		return this.listsCut(ids, this.nextSlot);
	}

	/**
	 * The postings of `ids` in the notes below `slotCount` (those there were when a search began):
	 * a note added since takes a higher slot and is appended to each list it is in, and a change
	 * that rewrites lists in place bumps `generation`, which makes a paused search start again. So
	 * lists taken at different moments of one search are the lists as they were at its start.
	 */
	private listsCut(ids: readonly number[], slotCount: number): Postings[] {
		const lists: Postings[] = [];
		for (const id of ids) {
			const list = this.listOf(id);
			if (!list || list.length === 0) continue;
			const length = (list.slots[list.length - 1] as number) < slotCount ? list.length : seek(list.slots, list.length, 0, slotCount);
			if (length > 0) lists.push({ slots: list.slots, values: list.values, length });
		}
		return lists;
	}

	/**
	 * The lists of `ids` cut to the notes below `slotCount` (as `listsCut` cuts them) added to
	 * `runs` by place, no view made (PostingRuns), in steps of LISTS_TAKEN_STEP lists that yield
	 * where a search may pause.
	 */
	private *runsOfSteps(ids: readonly number[], slotCount: number, runs = new PostingRuns()): Generator<void, PostingRuns, void> {
		runs.reserve(ids.length);
		for (let from = 0; from < ids.length; from += LISTS_TAKEN_STEP) {
			if (from > 0) yield;
			this.runsCut(ids, from, Math.min(ids.length, from + LISTS_TAKEN_STEP), slotCount, runs);
		}
		return runs;
	}

	/** `runsOfSteps`' work for `ids[from, to)`, in one piece. */
	private runsCut(ids: readonly number[], from: number, to: number, slotCount: number, runs: PostingRuns): void {
		for (let index = from; index < to; index++) {
			const id = ids[index] as number;
			const own = this.postings[id];
			let slots: Uint32Array;
			let values: Uint32Array;
			let slotStart = 0;
			let valueStart = 0;
			let length: number;
			if (own) {
				slots = own.slots;
				values = own.values;
				length = own.length;
			} else {
				const room = id < this.arenaRoom.length ? (this.arenaRoom[id] as number) : 0;
				if (room === 0) continue;
				slots = values = this.arenaOf(id);
				slotStart = this.arenaOffsetOf(id);
				valueStart = slotStart + room;
				length = this.arenaLength[id] as number;
			}
			if (length === 0) continue;
			const cut = (slots[slotStart + length - 1] as number) < slotCount ? length : seek(slots, slotStart + length, slotStart, slotCount) - slotStart;
			if (cut > 0) runs.add(slots, slotStart, values, valueStart, cut);
		}
	}

	/** The union of the lists of `ids` cut to the notes below `slotCount` (runsOfSteps), in steps. */
	private *unionCut(ids: readonly number[], slotCount: number, scratch: UnionScratch): Generator<void, ResolvedTerm, void> {
		return yield* this.unionOfLists(yield* this.runsOfSteps(ids, slotCount), slotCount, scratch);
	}

	/** One list as it is (no copy, no steps), or the union of several in steps (`tally`: see unionSteps). */
	private *unionOfLists(runs: PostingRuns, slotCount: number, scratch: UnionScratch, tally?: UnionTally): Generator<void, ResolvedTerm, void> {
		if (runs.count === 1) {
			const list = runs.list(0);
			return wordTerm(list.slots, list.values, list.length);
		}
		return yield* unionSteps(runs, slotCount, scratch, tally);
	}
}

/**
 * `[...headings, last].join("\n")` without the headings that are sentences (isSentenceHeading), a
 * step's worth of headings at a time: a note's million headings, copied and joined at once, were
 * one piece of about 0.2 s.
 */
function* namesTextInSteps(headings: Iterable<string>, last: string): Generator<void, string, void> {
	const pieces: string[] = [];
	let step: string[] = [];
	for (const heading of headings) {
		// A heading that is a sentence names no section: its words count as the body's, which holds them.
		if (isSentenceHeading(heading)) continue;
		step.push(heading);
		if (step.length < HEADINGS_JOINED_STEP) continue;
		pieces.push(step.join("\n"));
		step = [];
		yield;
	}
	step.push(last);
	pieces.push(step.join("\n"));
	return pieces.join("\n");
}
