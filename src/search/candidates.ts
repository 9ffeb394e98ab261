import { CANDIDATES_COUNT_STEP, GATHER_STEP_MASK, PHRASE_READ_STEP_BYTES, RULED_OUT_MIN_NOTES } from "../config/limits";
import { PAUSE_FIRST } from "./bestFirst";
import { phrasePairBound, type IndexedDocument, type PostingsIndex } from "./postings";
import { longPhraseRead, readLongPackedPhrase, readShortPhrase, shortPhraseRead, type LongPhraseRead, type ShortPhraseRead } from "./phrases";
import {
	BODY_COUNT,
	growUint32,
	IN_HEADING,
	IN_TITLE,
	pairsBoundWhenResolved,
	phraseBoundValue,
	phraseWordBody,
	phraseWordTitle,
	seek,
	tightenedBound,
	type PhrasePair,
	type ResolvedTerm,
} from "./postingValues";

/** The notes a search ranks, gathered from the postings of its terms, in scratch reused across searches. */
export interface Gathered {
	slots: Uint32Array;
	/** Each term's packed value, row-major: one row of the terms' count per note (0: lacks it). */
	values: Uint32Array;
	total: number;
	/**
	 * The wanted phrases (by term index) whose values are still bounds (phraseValueBound), not
	 * counts: their notes' bodies are read by `verify`, which may drop a note. Empty: every value is exact.
	 */
	unverified: number[];
	/** A note stays a candidate holding every term (null) or, in a partial answer, this many (joinsPartialAnswer). */
	minimum: number | null;
}

/**
 * A bound on a phrase's packed value in the note at `slot`, from its words' postings alone, no
 * smaller in any field than the value its body gives (PostingsIndex.matchValue): the phrase stands
 * in a row at most as often as its scarcest word stands anywhere (a word standing at m of its
 * positions, less m − 1: each place of the phrase after the first adds at least one of the word's
 * occurrences), in the title at most as often as that word is there, and in a heading only if
 * every word is in one. 0 when the note cannot hold it in its body or title. `cursors` (one per
 * distinct word) move forward: call in slot order. Pure.
 */
export function phraseValueBound(term: ResolvedTerm, cursors: number[], slot: number): number {
	const words = term.phraseWords ?? [];
	const repeats = term.phraseWordRepeats;
	let body = BODY_COUNT;
	let title = 0x3f;
	let heading = true;
	for (let wordIndex = 0; wordIndex < words.length; wordIndex++) {
		const word = words[wordIndex] as ResolvedTerm;
		const at = seek(word.slots, word.length, cursors[wordIndex] as number, slot);
		cursors[wordIndex] = at;
		if (at >= word.length || word.slots[at] !== slot) return 0;
		const value = word.values[at] as number;
		body = Math.min(body, phraseWordBody(value, repeats?.[wordIndex] ?? 1));
		title = Math.min(title, phraseWordTitle(value, repeats?.[wordIndex] ?? 1));
		heading &&= (value & IN_HEADING) !== 0;
	}
	return phraseBoundValue(body, title, heading, term.phrase?.length ?? 1);
}

/**
 * Whether a note holding some of a query's words joins a partial answer: it holds at least
 * `minimum` of them, or one fewer when its title or an alias holds one (`named`). A note named for
 * what the query asks about often lacks the query's other words: the page titled `rebuild` need
 * not say `native` or `upgrading`. Pure.
 */
export function joinsPartialAnswer(holding: number, minimum: number, named: boolean): boolean {
	return holding >= minimum || (named && holding > 0 && holding >= minimum - 1);
}

const GATHER_STEP = GATHER_STEP_MASK + 1;

/** Where `holdingAll` stands in intersecting its terms' postings, between two steps. */
interface Intersection {
	required: readonly ResolvedTerm[];
	/** The terms' indexes, rarest first. */
	order: readonly number[];
	/** Per term, where its postings were last sought. */
	cursors: number[];
	excluded: readonly ResolvedTerm[];
	excludedCursors: number[];
	/** Per term, per word of a phrase, where the word's postings were last sought. */
	wordCursors: number[][];
	needsDocument: boolean;
	excludedWords: Uint8Array | null;
	accepted: Uint8Array | null;
	slots: Uint32Array;
	values: Uint32Array;
	/** Notes gathered so far. */
	total: number;
}

/**
 * One word's postings `[from, to)` into `slots` and `values` from `total` on, less the notes that
 * only have it in a heading, that are not accepted or hold an excluded word; the new total.
 */
function gatherWord(
	term: ResolvedTerm,
	from: number,
	to: number,
	accepted: Uint8Array | null,
	excludedWords: Uint8Array | null,
	slots: Uint32Array,
	values: Uint32Array,
	total: number,
): number {
	for (let index = from; index < to; index++) {
		const slot = term.slots[index] as number;
		const value = term.values[index] as number;
		if ((value & (BODY_COUNT | IN_TITLE)) === 0 || (accepted && accepted[slot] !== 1) || (excludedWords && excludedWords[slot] === 1)) continue;
		slots[total] = slot;
		values[total++] = value;
	}
	return total;
}

/**
 * `CandidateFinder.intersect` for words only (no wanted phrase, no excluded phrase): the same notes
 * and values, in a loop of its own. The general loop's phrase bounds and excluded phrases, though
 * never met, kept V8 from making it tight: two common words at 10,000 notes (7,000-8,000 postings
 * each) took 0.31-0.43 ms in it against 0.21 here. The rarest term is where `index` is, by
 * construction; a note whose value for a term is only a heading's is left out, as `matchValue` does.
 */
function intersectWords(state: Intersection, from: number, to: number): number {
	const { required, order, cursors, excludedWords, accepted, slots, values } = state;
	const termCount = required.length;
	const rarestIndex = order[0] as number;
	const rarestSlots = (required[rarestIndex] as ResolvedTerm).slots;
	candidates: for (let index = from; index < to; index++) {
		const slot = rarestSlots[index] as number;
		cursors[rarestIndex] = index;
		for (let orderIndex = 1; orderIndex < termCount; orderIndex++) {
			const termIndex = order[orderIndex] as number;
			const term = required[termIndex] as ResolvedTerm;
			const at = seek(term.slots, term.length, cursors[termIndex] as number, slot);
			cursors[termIndex] = at;
			if (at >= term.length) return -1;
			if (term.slots[at] !== slot) continue candidates;
		}
		if ((accepted && accepted[slot] !== 1) || (excludedWords && excludedWords[slot] === 1)) continue;
		const row = state.total * termCount;
		for (let termIndex = 0; termIndex < termCount; termIndex++) {
			const value = (required[termIndex] as ResolvedTerm).values[cursors[termIndex] as number] as number;
			if ((value & (BODY_COUNT | IN_TITLE)) === 0) continue candidates;
			values[row + termIndex] = value >>> 0;
		}
		slots[state.total++] = slot;
	}
	return to;
}

/**
 * A lone phrase's notes `[from, to)` (those holding its words, with their bounds: resolveSteps)
 * into `slots` and `values` from `total` on, less the notes whose bound rules the phrase out, that
 * are not accepted or hold an excluded word; the new total. What `intersect` gathers for the
 * phrase, without seeking its one list note by note: the list is already the words' intersection.
 */
function gatherPhrase(
	term: ResolvedTerm,
	bounds: Uint32Array,
	from: number,
	to: number,
	accepted: Uint8Array | null,
	excludedWords: Uint8Array | null,
	slots: Uint32Array,
	values: Uint32Array,
	total: number,
): number {
	for (let index = from; index < to; index++) {
		const slot = term.slots[index] as number;
		const value = bounds[index] as number;
		if (value === 0 || (accepted && accepted[slot] !== 1) || (excludedWords && excludedWords[slot] === 1)) continue;
		slots[total] = slot;
		values[total++] = value;
	}
	return total;
}

/** Adds one to `held` for each note of the term's postings `[from, to)`; how many notes reached `gathered` terms. */
function countHeld(term: ResolvedTerm, from: number, to: number, held: Uint16Array, gathered: number): number {
	let reached = 0;
	for (let index = from; index < to; index++) {
		const slot = term.slots[index] as number;
		const count = held[slot] as number;
		if (count + 1 === gathered) reached++;
		held[slot] = count + 1;
	}
	return reached;
}

/** Lists in `named` each note of the term's postings `[from, to)` holding it in the title or an alias that `seen` lacks, marking it seen. */
function listNamed(term: ResolvedTerm, from: number, to: number, seen: Uint8Array, named: number[]): void {
	for (let index = from; index < to; index++) {
		if (((term.values[index] as number) & IN_TITLE) === 0) continue;
		const slot = term.slots[index] as number;
		if (seen[slot] === 1) continue;
		seen[slot] = 1;
		named.push(slot);
	}
}

/** A phrase's read of one note in steps: a long phrase's (`long`) or a short one's (`short`). */
interface PhraseReading {
	readonly term: ResolvedTerm;
	readonly doc: IndexedDocument;
	readonly long?: LongPhraseRead;
	readonly short?: ShortPhraseRead;
}

/** Finds the candidates of a search: the notes holding every term, or most of them. */
export class CandidateFinder {
	/** Scratch for a search's candidates and their packed values, reused: a common word has thousands. */
	private candidateSlots: Uint32Array = new Uint32Array(64);
	private candidateValues: Uint32Array = new Uint32Array(64);

	/**
	 * Bytes of bodies read for phrases since the last pause (PHRASE_READ_STEP_BYTES), each as many
	 * times as a long phrase has state words (a 250-word phrase costs eight reads of each byte).
	 */
	private phraseBytesRead = 0;
	/** A phrase's read of a note that ran out of the step's share, resumed after the pause (`phraseBodyInSteps`): a long phrase's, or a short one's. */
	private reading: PhraseReading | null = null;

	constructor(private readonly index: PostingsIndex) {}

	/**
	 * Whether the note at `slot` holds an excluded phrase (`doc`: the note, needed only for a
	 * phrase). `cursors` (one per excluded term) move on, so slots must be asked in increasing order.
	 */
	private holdsExcluded(excluded: readonly ResolvedTerm[], cursors: number[], slot: number, doc: IndexedDocument | undefined): boolean | typeof PAUSE_FIRST {
		for (let termIndex = 0; termIndex < excluded.length; termIndex++) {
			const term = excluded[termIndex] as ResolvedTerm;
			const at = seek(term.slots, term.length, cursors[termIndex] as number, slot);
			cursors[termIndex] = at;
			if (at >= term.length || term.slots[at] !== slot) continue;
			if (!term.phrase || !doc) {
				if (this.index.matchValue(term, at, doc) !== 0) return true;
				continue;
			}
			// A phrase is a read of the body, remembered (phraseLearnt): the note is asked again after a pause.
			let value = term.phraseLearnt?.value(at) ?? -1;
			if (value < 0) {
				if (this.phraseBytesRead >= PHRASE_READ_STEP_BYTES) return PAUSE_FIRST;
				if (this.readsInSteps(term, doc)) {
					// Within the step's share, read on after the pause (the share is then spent).
					const body = this.phraseBodyInSteps(term, doc);
					if (body === null) return PAUSE_FIRST;
					value = this.index.matchValue(term, at, doc, IN_TITLE | IN_HEADING, body);
				} else {
					value = this.index.matchValue(term, at, doc);
					// Once, not once per state word: a long phrase comes here only when its pair sketch rules it out, nothing read;
					// a short one when its note is within what is left of the share.
					this.phraseBytesRead += doc.bodyBytes;
				}
				term.phraseLearnt?.learnValue(at, value);
			}
			if (value !== 0) return true;
		}
		return false;
	}

	/** Whether reading phrases has used this step's share (PHRASE_READ_STEP_BYTES): then the caller yields, and a new share begins. */
	private phraseShareUsed(): boolean {
		if (this.phraseBytesRead < PHRASE_READ_STEP_BYTES) return false;
		this.phraseBytesRead = 0;
		return true;
	}

	/**
	 * The notes holding every required term, no excluded word (`excludedWords`, by slot: 1 = holds
	 * one; null: none) and no excluded phrase, accepted (null: all), in slot
	 * order, with each term's packed value (row-major: one row of `required.length` per note), in
	 * scratch arrays that the next search overwrites. A wanted phrase's value is a bound until
	 * `verify` reads the note's body (`unverified`). In steps: it yields every few hundred
	 * candidates, where the caller may pause.
	 */
	*holdingAll(
		required: readonly ResolvedTerm[],
		excludedWords: Uint8Array | null,
		excluded: readonly ResolvedTerm[],
		accepted: Uint8Array | null,
	): Generator<void, Gathered, void> {
		const termCount = required.length;
		const order = required.map((_, index) => index).sort((a, b) => (required[a]?.length ?? 0) - (required[b]?.length ?? 0));
		const rarest = required[order[0] ?? 0] as ResolvedTerm;
		const slots = (this.candidateSlots = growUint32(this.candidateSlots, rarest.length));
		const values = (this.candidateValues = growUint32(this.candidateValues, rarest.length * termCount));
		let total = 0;
		const unverified = phrasesOf(required);
		if (termCount === 1 && excluded.length === 0 && !rarest.phrase) {
			// One word, the commonest query: its postings are the answer, less the notes that only have it in a heading.
			for (let from = 0; from < rarest.length; from += GATHER_STEP) {
				if (from > 0) yield;
				total = gatherWord(rarest, from, Math.min(rarest.length, from + GATHER_STEP), accepted, excludedWords, slots, values, total);
			}
			return { slots, values, total, unverified, minimum: null };
		}
		if (termCount === 1 && excluded.length === 0 && rarest.phraseBounds) {
			// One phrase, nothing excluded but words: its list is the answer, less the notes its bounds rule out.
			for (let from = 0; from < rarest.length; from += GATHER_STEP) {
				if (from > 0) yield;
				total = gatherPhrase(
					rarest,
					rarest.phraseBounds,
					from,
					Math.min(rarest.length, from + GATHER_STEP),
					accepted,
					excludedWords,
					slots,
					values,
					total,
				);
			}
			return { slots, values, total, unverified, minimum: null };
		}
		const intersection: Intersection = {
			required,
			order,
			cursors: new Array<number>(termCount).fill(0),
			excluded,
			excludedCursors: new Array<number>(excluded.length).fill(0),
			wordCursors: required.map((term) => new Array<number>(term.phraseWords?.length ?? 0).fill(0)),
			// Only an excluded phrase needs the note's tokens here: a wanted one is bounded from its words' postings.
			needsDocument: excluded.some((term) => term.phrase),
			excludedWords,
			accepted,
			slots,
			values,
			total: 0,
		};
		this.phraseBytesRead = 0;
		// Words only (the commonest query of several words): no phrase to bound or read, nothing excluded but words.
		const wordsOnly = excluded.length === 0 && required.every((term) => !term.phrase);
		for (let from = 0; from < rarest.length;) {
			const to = Math.min(rarest.length, from + GATHER_STEP);
			const stoppedAt = wordsOnly ? intersectWords(intersection, from, to) : this.intersect(intersection, from, to);
			if (stoppedAt < 0) break;
			from = stoppedAt;
			if (from < rarest.length) {
				yield;
				this.phraseBytesRead = 0;
			}
		}
		return { slots, values, total: intersection.total, unverified, minimum: null };
	}

	/**
	 * Gathers the notes among the rarest term's postings `[from, to)` that hold every term (see
	 * `holdingAll`) into `state`; false once a term's postings are used up (no later note holds
	 * it). A plain method, not the generator's loop: V8 runs a loop inside a generator several times slower.
	 */
	private intersect(state: Intersection, from: number, to: number): number {
		const { required, order, cursors, excluded, excludedCursors, wordCursors, needsDocument, excludedWords, accepted, slots, values } = state;
		const termCount = required.length;
		const rarest = required[order[0] as number] as ResolvedTerm;
		candidates: for (let index = from; index < to; index++) {
			const slot = rarest.slots[index] as number;
			for (let orderIndex = 0; orderIndex < termCount; orderIndex++) {
				const termIndex = order[orderIndex] as number;
				const term = required[termIndex] as ResolvedTerm;
				const at = seek(term.slots, term.length, cursors[termIndex] as number, slot);
				cursors[termIndex] = at;
				if (at >= term.length) return -1;
				if (term.slots[at] !== slot) continue candidates;
			}
			if ((accepted && accepted[slot] !== 1) || (excludedWords && excludedWords[slot] === 1)) continue;
			const doc = needsDocument ? this.index.documents[slot] : undefined;
			if (needsDocument && !doc) continue;
			const excludedHere = this.holdsExcluded(excluded, excludedCursors, slot, doc);
			// This note again after a pause: its phrases read so far are remembered.
			if (excludedHere === PAUSE_FIRST) return index;
			if (excludedHere) continue;
			const row = state.total * termCount;
			for (let termIndex = 0; termIndex < termCount; termIndex++) {
				const term = required[termIndex] as ResolvedTerm;
				const value = term.phrase
					? this.wordsPhraseBound(term, wordCursors[termIndex] as number[], slot, cursors[termIndex] as number)
					: this.index.matchValue(term, cursors[termIndex] as number, undefined);
				if (value === 0) continue candidates;
				values[row + termIndex] = value;
			}
			slots[state.total++] = slot;
		}
		return to;
	}

	/**
	 * `all` (what `holdingAll` gathered into this finder's scratch) joined by the notes that lack a
	 * term but have one in the title or an alias and hold at least `minimum` less one of the terms
	 * (joinsPartialAnswer), with no excluded word or phrase, accepted; in slot order and laid out as
	 * `all`. For a search without wanted phrases. The terms' postings are read for their title flag
	 * only, and only the notes so named are looked at: far cheaper than `holdingMost`'s count of
	 * every note. In steps, as `holdingAll`.
	 */
	*withNamedPartials(
		required: readonly ResolvedTerm[],
		minimum: number,
		all: Gathered,
		excludedWords: Uint8Array | null,
		excluded: readonly ResolvedTerm[],
		accepted: Uint8Array | null,
	): Generator<void, Gathered, void> {
		const termCount = required.length;
		// 1: holds every term (already in `all`) or already listed as named.
		const seen = new Uint8Array(this.index.nextSlot);
		for (let index = 0; index < all.total; index++) seen[all.slots[index] as number] = 1;
		const named: number[] = [];
		for (const term of required) {
			for (let from = 0; from < term.length; from += CANDIDATES_COUNT_STEP) {
				if (from > 0) yield;
				listNamed(term, from, Math.min(term.length, from + CANDIDATES_COUNT_STEP), seen, named);
			}
		}
		named.sort((a, b) => a - b);
		const extraSlots: number[] = [];
		const extraValues: number[] = [];
		const cursors = new Array<number>(termCount).fill(0);
		const excludedCursors = new Array<number>(excluded.length).fill(0);
		const needsDocument = excluded.some((term) => term.phrase);
		for (let namedIndex = 0; namedIndex < named.length; namedIndex++) {
			if ((namedIndex & GATHER_STEP_MASK) === GATHER_STEP_MASK) yield;
			const slot = named[namedIndex] as number;
			if ((accepted && accepted[slot] !== 1) || (excludedWords && excludedWords[slot] === 1)) continue;
			const doc = needsDocument ? this.index.documents[slot] : undefined;
			if (needsDocument && !doc) continue;
			let excludedHere = this.holdsExcluded(excluded, excludedCursors, slot, doc);
			for (; excludedHere === PAUSE_FIRST; excludedHere = this.holdsExcluded(excluded, excludedCursors, slot, doc)) if (this.phraseShareUsed()) yield;
			if (excludedHere) continue;
			const row = extraValues.length;
			let holding = 0;
			for (let termIndex = 0; termIndex < termCount; termIndex++) {
				const term = required[termIndex] as ResolvedTerm;
				const at = seek(term.slots, term.length, cursors[termIndex] as number, slot);
				cursors[termIndex] = at;
				const value = at < term.length && term.slots[at] === slot ? this.index.matchValue(term, at, undefined) : 0;
				extraValues.push(value);
				if (value !== 0) holding++;
			}
			if (joinsPartialAnswer(holding, minimum, true)) extraSlots.push(slot);
			else extraValues.length = row;
		}
		if (extraSlots.length === 0) return all;
		// Merged from the back, in place: `all` is this finder's scratch, grown (its contents kept) to hold both.
		const total = all.total + extraSlots.length;
		const slots = (this.candidateSlots = growUint32(all.slots, total));
		const values = (this.candidateValues = growUint32(all.values, total * termCount));
		let fromAll = all.total - 1;
		let fromExtra = extraSlots.length - 1;
		for (let out = total - 1; out >= 0; out--) {
			if (fromExtra >= 0 && (fromAll < 0 || (extraSlots[fromExtra] as number) > (slots[fromAll] as number))) {
				slots[out] = extraSlots[fromExtra] as number;
				for (let termIndex = 0; termIndex < termCount; termIndex++)
					values[out * termCount + termIndex] = extraValues[fromExtra * termCount + termIndex] as number;
				fromExtra--;
			} else {
				slots[out] = slots[fromAll] as number;
				values.copyWithin(out * termCount, fromAll * termCount, (fromAll + 1) * termCount);
				fromAll--;
			}
		}
		return { slots, values, total, unverified: [], minimum };
	}

	/**
	 * The notes holding at least `minimum` of the wanted terms, or one fewer with one of them in
	 * the title or an alias (joinsPartialAnswer; value 0 for a term a note lacks),
	 * no excluded word or phrase, accepted (null: all), in slot order and laid out as `intersect`
	 * lays them: one pass over each term's postings, so it costs what the terms' notes cost. A
	 * wanted phrase's value is a bound, as in `holdingAll`. In steps, as `holdingAll`.
	 */
	*holdingMost(
		required: readonly ResolvedTerm[],
		minimum: number,
		excludedWords: Uint8Array | null,
		excluded: readonly ResolvedTerm[],
		accepted: Uint8Array | null,
	): Generator<void, Gathered, void> {
		const termCount = required.length;
		// A note named by one of the words may hold one word fewer: those are gathered too.
		const gathered = Math.max(1, minimum - 1);
		const held = new Uint16Array(this.index.nextSlot);
		let low = this.index.nextSlot;
		let high = -1;
		let candidates = 0;
		for (const term of required) {
			for (let from = 0; from < term.length; from += CANDIDATES_COUNT_STEP) {
				if (from > 0) yield;
				candidates += countHeld(term, from, Math.min(term.length, from + CANDIDATES_COUNT_STEP), held, gathered);
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
		const wordCursors = required.map((term) => new Array<number>(term.phraseWords?.length ?? 0).fill(0));
		let total = 0;
		for (let slot = low; slot <= high; slot++) {
			if ((slot & GATHER_STEP_MASK) === GATHER_STEP_MASK) yield;
			if ((held[slot] as number) < gathered) continue;
			if ((accepted && accepted[slot] !== 1) || (excludedWords && excludedWords[slot] === 1)) continue;
			const doc = this.index.documents[slot];
			if (!doc) continue;
			let excludedHere = this.holdsExcluded(excluded, excludedCursors, slot, doc);
			for (; excludedHere === PAUSE_FIRST; excludedHere = this.holdsExcluded(excluded, excludedCursors, slot, doc)) if (this.phraseShareUsed()) yield;
			if (excludedHere) continue;
			let holding = 0;
			let named = false;
			for (let termIndex = 0; termIndex < termCount; termIndex++) {
				const term = required[termIndex] as ResolvedTerm;
				const at = seek(term.slots, term.length, cursors[termIndex] as number, slot);
				cursors[termIndex] = at;
				const held = at < term.length && term.slots[at] === slot;
				const value = !held
					? 0
					: term.phrase
						? this.wordsPhraseBound(term, wordCursors[termIndex] as number[], slot, at)
						: this.index.matchValue(term, at, doc);
				values[total * termCount + termIndex] = value;
				if (value !== 0) holding++;
				if (value & IN_TITLE) named = true;
			}
			if (joinsPartialAnswer(holding, minimum, named)) slots[total++] = slot;
		}
		return { slots, values, total, unverified: phrasesOf(required), minimum };
	}

	/** A phrase's bound in the note at `slot` (its `at`-th): as resolved (from its words' postings, and its pairs: pairsBoundWhenResolved), else from its words' postings (phraseValueBound). */
	private wordsPhraseBound(term: ResolvedTerm, cursors: number[], slot: number, at: number): number {
		return term.phraseBounds ? (term.phraseBounds[at] as number) : phraseValueBound(term, cursors, slot);
	}

	/**
	 * Tightens the bounds of `gathered`'s note at `index` on its unverified phrases from the note's
	 * pair sketch, without reading its body, and says whether it may still be a candidate (as
	 * `verify` does). Done for a note only when its bound comes up to be read (rankByBounds).
	 */
	refine(required: readonly ResolvedTerm[], gathered: Gathered, index: number): boolean {
		const slot = gathered.slots[index] as number;
		// Compared, not tested for truth: testing an object's truth reads its map, a cache miss on a note's object
		// for each of the thousands of notes a two-word phrase refines (the most of any one line of refining).
		if (this.index.documents[slot] === undefined) return false;
		const termCount = required.length;
		const row = index * termCount;
		const values = gathered.values;
		for (const termIndex of gathered.unverified) {
			const bound = values[row + termIndex] as number;
			const pairs = (required[termIndex] as ResolvedTerm).phrasePairs;
			// A phrase whose pairs bound it when resolved (pairsBoundWhenResolved) has nothing left to tighten.
			if (bound === 0 || !pairs || pairsBoundWhenResolved(pairs)) continue;
			values[row + termIndex] = tightenedBound(bound, this.pairBound(required[termIndex] as ResolvedTerm, pairs, slot));
		}
		return holdsEnough(gathered.values, row, termCount, gathered.minimum);
	}

	/**
	 * Per candidate of `gathered`, 1 when `refine` would rule it out, known without reading a
	 * sketch: an earlier search of its phrase learnt from the note's sketch that the phrase is not
	 * there (PhraseLearnt), and without the phrase the note is no candidate. Null when no phrase
	 * has learnt it of RULED_OUT_MIN_NOTES notes. In steps: it yields every few thousand candidates.
	 */
	*ruledOutSteps(required: readonly ResolvedTerm[], gathered: Gathered): Generator<void, Uint8Array | null, void> {
		const refinable = gathered.unverified.filter((termIndex) => {
			const term = required[termIndex] as ResolvedTerm;
			const pairless = term.phraseLearnt?.pairlessNotes ?? 0;
			return pairless >= RULED_OUT_MIN_NOTES && term.phrasePairs !== undefined && !pairsBoundWhenResolved(term.phrasePairs);
		});
		if (refinable.length === 0) return null;
		const termCount = required.length;
		const ruledOut = new Uint8Array(gathered.total);
		const row = new Uint32Array(termCount);
		// Candidates are in slot order, as each phrase's notes: one cursor a phrase.
		const cursors = new Array<number>(termCount).fill(0);
		for (let from = 0; from < gathered.total; from += CANDIDATES_COUNT_STEP) {
			if (from > 0) yield;
			this.markRuledOut(required, gathered, refinable, cursors, row, from, Math.min(gathered.total, from + CANDIDATES_COUNT_STEP), ruledOut);
		}
		return ruledOut;
	}

	/** `ruledOutSteps` for candidates `[from, to)`, into `ruledOut`. A plain method: V8 runs a loop inside a generator several times slower. */
	private markRuledOut(
		required: readonly ResolvedTerm[],
		gathered: Gathered,
		refinable: readonly number[],
		cursors: number[],
		row: Uint32Array,
		from: number,
		to: number,
		ruledOut: Uint8Array,
	): void {
		const termCount = required.length;
		for (let index = from; index < to; index++) {
			const slot = gathered.slots[index] as number;
			for (let termIndex = 0; termIndex < termCount; termIndex++) row[termIndex] = gathered.values[index * termCount + termIndex] as number;
			let learnt = false;
			for (const termIndex of refinable) {
				const bound = row[termIndex] as number;
				if (bound === 0) continue;
				const term = required[termIndex] as ResolvedTerm;
				const at = seek(term.slots, term.length, cursors[termIndex] as number, slot);
				cursors[termIndex] = at;
				if (at >= term.length || term.slots[at] !== slot) continue;
				const pairBound = term.phraseLearnt?.pairBound(at) ?? -1;
				if (pairBound < 0) continue;
				row[termIndex] = tightenedBound(bound, pairBound);
				learnt = true;
			}
			if (learnt && !holdsEnough(row, 0, termCount, gathered.minimum)) ruledOut[index] = 1;
		}
	}

	/** The phrase's pairs' bound in the note at `slot` from its sketch (PostingsIndex.pairBoundAt), read once a phrase's memo (PhraseLearnt). */
	private pairBound(term: ResolvedTerm, pairs: readonly PhrasePair[], slot: number): number {
		const at = positionOf(term, slot);
		const learnt = at >= 0 ? (term.phraseLearnt?.pairBound(at) ?? -1) : -1;
		if (learnt >= 0) return learnt;
		const bound = this.index.pairBoundAt(slot, pairs);
		if (at >= 0) term.phraseLearnt?.learnPairBound(at, bound);
		return bound;
	}

	/** The phrase's value in `doc` (at `slot`) read from its body (PostingsIndex.matchValue, within `bound`), read once a phrase's memo (PhraseLearnt). */
	private readValue(term: ResolvedTerm, slot: number, doc: IndexedDocument, bound: number, bodyCount?: number): number {
		const at = positionOf(term, slot);
		const learnt = at >= 0 ? (term.phraseLearnt?.value(at) ?? -1) : -1;
		if (learnt >= 0) return learnt;
		const value = this.index.matchValue(term, 0, doc, bound, bodyCount);
		if (at >= 0) term.phraseLearnt?.learnValue(at, value);
		return value;
	}

	/**
	 * Reads the body of `gathered`'s note at `index` for its unverified phrases, puts their counts
	 * in its row, and says whether it is still a candidate: it holds every term, or (a partial
	 * answer) enough of them. Call once per note.
	 */
	verify(required: readonly ResolvedTerm[], gathered: Gathered, index: number): boolean | typeof PAUSE_FIRST {
		const slot = gathered.slots[index] as number;
		const doc = this.index.documents[slot];
		if (!doc) return false;
		const termCount = required.length;
		const row = index * termCount;
		const values = gathered.values;
		for (const termIndex of gathered.unverified) {
			const bound = values[row + termIndex] as number;
			if (bound === 0) continue;
			const term = required[termIndex] as ResolvedTerm;
			// Each phrase is a read of the whole body: past the step's share, this note is asked again
			// after a pause, its phrases read so far remembered (a phrase with no memo here is read at once).
			const at = positionOf(term, slot);
			const remembered = at >= 0 && term.phraseLearnt ? term.phraseLearnt.value(at) >= 0 : false;
			if (!remembered && at >= 0 && term.phraseLearnt && this.phraseShareUsed()) return PAUSE_FIRST;
			if (!remembered && at >= 0 && term.phraseLearnt && this.readsInSteps(term, doc)) {
				// Read within the step's share and on after the pause, not a whole body at once.
				const body = this.phraseBodyInSteps(term, doc);
				if (body === null) {
					// The pause the caller makes next begins the next share.
					this.phraseShareUsed();
					return PAUSE_FIRST;
				}
				values[row + termIndex] = this.readValue(term, slot, doc, bound, body);
				continue;
			}
			values[row + termIndex] = this.readValue(term, slot, doc, bound);
			if (!remembered) this.phraseBytesRead += doc.bodyBytes * readsPerByte(term);
		}
		return holdsEnough(gathered.values, row, termCount, gathered.minimum);
	}

	/**
	 * Whether a phrase's read of `doc` goes in steps (`phraseBodyInSteps`): not when its pair sketch
	 * rules the phrase out (nothing is read); a long phrase's always; a short one's when the body is
	 * more than what is left of the step's share, or its read began so (a two-word phrase's read of a
	 * 4.4 MB note of `a-a-…` was one piece of 77–79 ms).
	 */
	private readsInSteps(term: ResolvedTerm, doc: IndexedDocument): boolean {
		const steps =
			term.phraseChunkMasks !== undefined ||
			doc.bodyBytes > PHRASE_READ_STEP_BYTES - this.phraseBytesRead ||
			(this.reading?.term === term && this.reading.doc === doc);
		// The sketch last: a note read in one piece has it read there (phraseBodyCount), once.
		return steps && !(term.phrasePairs && phrasePairBound(doc, term.phrasePairs) === 0);
	}

	/**
	 * A phrase's count in `doc`'s body, read on from where the last call for it stopped, within
	 * what is left of the step's share (a long phrase's byte counted once per state word): null when
	 * that ran out first (the share is then spent: the caller pauses, then asks again).
	 */
	private phraseBodyInSteps(term: ResolvedTerm, doc: IndexedDocument): number | null {
		let reading = this.reading;
		if (reading?.term !== term || reading.doc !== doc) {
			const chunks = term.phraseChunkMasks;
			reading = this.reading = chunks
				? { term, doc, long: longPhraseRead(chunks.length) }
				: { term, doc, short: shortPhraseRead(term.phraseAnchor !== undefined) };
		}
		const share = PHRASE_READ_STEP_BYTES - this.phraseBytesRead;
		const length = term.phrase?.length ?? 0;
		let done: boolean;
		let count: number;
		if (reading.long) {
			const masks = term.phraseChunkMasks ?? [];
			const from = reading.long.index;
			done = readLongPackedPhrase(doc.packed, masks, length, doc.bodyBytes, reading.long, from + Math.max(1, Math.floor(share / masks.length)));
			this.phraseBytesRead += (reading.long.index - from) * masks.length;
			count = reading.long.count;
		} else {
			const read = reading.short as ShortPhraseRead;
			const from = read.work;
			done = readShortPhrase(doc.packed, term.phraseAnchor, term.phraseMasks as Uint32Array, length, doc.bodyBytes, read, Math.max(1, share));
			this.phraseBytesRead += read.work - from;
			count = read.count;
		}
		if (!done) {
			this.phraseBytesRead = PHRASE_READ_STEP_BYTES;
			return null;
		}
		this.reading = null;
		return count;
	}

	/**
	 * `gathered` with every note's phrases read from its body (`verify`), less the notes that do
	 * not hold them, in the same scratch. In steps: it yields every few hundred notes.
	 */
	*verifyAll(required: readonly ResolvedTerm[], gathered: Gathered): Generator<void, Gathered, void> {
		if (gathered.unverified.length === 0) return gathered;
		const termCount = required.length;
		const { slots, values } = gathered;
		let kept = 0;
		for (let index = 0; index < gathered.total; index++) {
			if ((index & GATHER_STEP_MASK) === GATHER_STEP_MASK) yield;
			// A big note's phrases are read a step or more each (seven phrases on two 5 MB notes were one piece of 1–1.9 s between two pauses).
			let held = this.verify(required, gathered, index);
			for (; held === PAUSE_FIRST; held = this.verify(required, gathered, index)) yield;
			if (!held) continue;
			if (kept !== index) {
				slots[kept] = slots[index] as number;
				values.copyWithin(kept * termCount, index * termCount, (index + 1) * termCount);
			}
			kept++;
		}
		return { ...gathered, total: kept, unverified: [] };
	}
}

/** How many times reading a phrase reads each byte of a body: once, or once per state word of a long phrase (countLongPackedPhrase). */
function readsPerByte(term: ResolvedTerm): number {
	return term.phraseChunkMasks?.length ?? 1;
}

/** Whether the note whose values start at `values[row]` holds every term (`minimum` null), or (a partial answer) enough of them (joinsPartialAnswer). */
function holdsEnough(values: Uint32Array, row: number, termCount: number, minimum: number | null): boolean {
	let holding = 0;
	let named = false;
	for (let termIndex = 0; termIndex < termCount; termIndex++) {
		const value = values[row + termIndex] as number;
		if (value !== 0) holding++;
		if (value & IN_TITLE) named = true;
	}
	return minimum === null ? holding === termCount : joinsPartialAnswer(holding, minimum, named);
}

/** Where the note at `slot` stands in the phrase's list of notes; −1 when it is not there. */
function positionOf(term: ResolvedTerm, slot: number): number {
	const at = seek(term.slots, term.length, 0, slot);
	return at < term.length && term.slots[at] === slot ? at : -1;
}

/** The wanted terms that are phrases, by index. */
function phrasesOf(required: readonly ResolvedTerm[]): number[] {
	return required.flatMap((term, index) => (term.phrase ? [index] : []));
}
