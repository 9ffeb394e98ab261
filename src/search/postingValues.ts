import type { PhraseLearnt } from "./phraseLearnt";
import type { CompiledPhrase } from "./phrases";

/**
 * Postings and their packed values: which notes hold a term, in slot order, and what each holds
 * of it. The small pure helpers every part of the engine reads them with.
 */

/**
 * A posting's value packs four facts about one term in one note: how often it is in the body
 * (low 24 bits; a searchable body holds under 3 million tokens), how many of the title's words
 * it is (6 bits, at most 63 counted), whether it is in the title, whether it is in a heading. The
 * title count lets a search weigh how much of a title the query covers from the postings alone.
 */
export const BODY_COUNT = 0x00ffffff;
const TITLE_COUNT_SHIFT = 24;
const TITLE_COUNT_MAX = 0x3f;
/** A title count this high may stand for more title words (it saturates). */
export const TITLE_COUNT_SATURATED = TITLE_COUNT_MAX;
export const IN_TITLE = 0x40000000;
export const IN_HEADING = 0x80000000;

/** The notes holding one term, in slot order, each with its packed value. */
export interface Postings {
	slots: Uint32Array;
	values: Uint32Array;
	length: number;
}

/**
 * A required or excluded term resolved against the postings: the notes that may hold it, in slot
 * order, with packed values. For a one-word term they are exact; for a phrase they are the notes
 * holding every word somewhere (values unknown), to be checked against `phrase`.
 */
export interface ResolvedTerm {
	slots: Uint32Array;
	values: Uint32Array;
	length: number;
	phrase: CompiledPhrase | null;
	/** For a phrase of at most MAX_PHRASE_WORDS words: by token id, bit i set if the id is accepted at position i. */
	phraseMasks?: Uint32Array;
	/** For a longer phrase: `phraseMasks` for each 32 of its positions in turn (countLongPackedPhrase). */
	phraseChunkMasks?: Uint32Array[];
	/** With `phraseMasks`: the phrase's first word as packed bytes, where a body's phrase count starts looking. */
	phraseAnchor?: Uint8Array;
	/**
	 * For a phrase: the postings of each of its distinct words (the last one's as a prefix), from
	 * which its count in a note is bounded before the note's body is read (candidates.ts).
	 */
	phraseWords?: ResolvedTerm[];
	/** With `phraseWords`: how many of the phrase's positions each of those words stands at (`very very good`: 2 for `very`). */
	phraseWordRepeats?: number[];
	/**
	 * For a phrase: its bound in each of its notes (as `slots`), from its words' postings
	 * (phraseValueBound) and, for a phrase of several pairs, the notes' pair sketches
	 * (pairsBoundWhenResolved), worked out while finding the notes. 0: the note cannot hold it.
	 */
	phraseBounds?: Uint32Array;
	/**
	 * For a phrase: its distinct pairs of neighbouring positions, each the first word and the
	 * words the next position accepts (the last word, a prefix, may be several), from which a
	 * note's pair sketch bounds its count (pairSketch.ts). A prefix of very many words is left out.
	 */
	phrasePairs?: PhrasePair[];
	/** For a phrase: what its searches learnt of its notes (as `slots`) by reading their sketches and bodies, for the next search of it. */
	phraseLearnt?: PhraseLearnt;
}

/**
 * Two neighbouring positions of a phrase, as the pairs of words they accept (the first position's
 * word with each word the second accepts): each pair's two hashes in a row (pairHash, secondHash).
 */
export type PhrasePair = Uint32Array;

/**
 * A wanted term by the strength of its evidence. `any` finds the notes (the word, its forms, the
 * longer words it starts; a phrase's notes); `exact` and `forms` tell, per note, how it matched.
 * A phrase has neither: it matches as typed or not at all.
 */
export interface TermEvidence {
	any: ResolvedTerm;
	exact: ResolvedTerm | null;
	forms: FormLists | null;
	/** The words meaning the same (expansions.ts) and their forms, each its own list as `forms`; null for a phrase or a word in no group. */
	related: FormLists | null;
	/** The ids of the word as typed and its forms; null for a phrase. */
	strongIds: ReadonlySet<number> | null;
	/** The ids of the words meaning the same and their forms (`related`'s words); null for a phrase or a word in no group. */
	relatedIds: ReadonlySet<number> | null;
	/** The notes holding the word as typed or in another form, counted as `any` was merged (countEither of `exact` and `forms`); 0 for a phrase. */
	strongNotes: number;
	/** Present when the word, as a prefix, stood for only the PREFIX_MAX_WORDS shortest words it starts (`withPrefixSteps`). */
	prefixCut?: true;
}

/**
 * A word's other forms, each its own list, merged for a note only when it is scored (formsValueAt):
 * their union over every note holding one was a pass as long as the word's notes, for the few
 * hundred notes a search scores. `cursors`: where each list was last sought.
 */
export interface FormLists {
	lists: Postings[];
	cursors: number[];
}

/**
 * `valueAt` of the union of a word's forms (FormLists), merged as unionSteps merges them. The
 * lists keep their own cursors: `cursors[index]` is 0 when the caller starts over (it resets its
 * cursors for a pass, or before a note out of slot order), which sends them back to the start too.
 */
export function formsValueAt(forms: FormLists, cursors: number[], index: number, slot: number): number {
	if (cursors[index] === 0) {
		forms.cursors.fill(0);
		cursors[index] = 1;
	}
	let value = 0;
	for (let listIndex = 0; listIndex < forms.lists.length; listIndex++) {
		const list = forms.lists[listIndex] as Postings;
		const at = seek(list.slots, list.length, forms.cursors[listIndex] as number, slot);
		forms.cursors[listIndex] = at;
		if (at >= list.length || list.slots[at] !== slot) continue;
		const held = list.values[at] as number;
		value = value === 0 ? held : mergeValues(value, held);
	}
	return (value & BODY_COUNT) > 0 || (value & IN_TITLE) !== 0 ? value >>> 0 : 0;
}

/** The first index in slots[from, length) holding a slot not below `slot`: galloping, so a rare term skips through a common one. */
export function seek(slots: Uint32Array, length: number, from: number, slot: number): number {
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

/** `array` when it holds `minimum` items; else a copy of it at least twice as long, so appends one at a time cost amortized O(1). */
function grow<A extends Uint32Array | Uint8Array | Float64Array>(array: A, minimum: number): A {
	if (array.length >= minimum) return array;
	const grown = new (array.constructor as new (length: number) => A)(Math.max(minimum, array.length * 2));
	grown.set(array);
	return grown;
}

export const growUint32: (array: Uint32Array, minimum: number) => Uint32Array = grow;
export const growUint8: (array: Uint8Array, minimum: number) => Uint8Array = grow;
export const growFloat64: (array: Float64Array, minimum: number) => Float64Array = grow;

/** A term no note holds. */
export function emptyTerm(): ResolvedTerm {
	return wordTerm(new Uint32Array(0), new Uint32Array(0), 0);
}

/**
 * A term that is not a phrase, with every field a phrase has (left undefined): every term then
 * has one shape, so the search's loops over terms stay compiled for it. Terms of several shapes
 * (a spread list, a union, a phrase) made V8 drop their compiled code and compile them again in
 * a vault's first hundreds of searches, which is CPU time the searches pay.
 */
export function wordTerm(slots: Uint32Array, values: Uint32Array, length: number): ResolvedTerm {
	return {
		slots,
		values,
		length,
		phrase: null,
		phraseMasks: undefined,
		phraseAnchor: undefined,
		phraseWords: undefined,
		phraseWordRepeats: undefined,
		phraseBounds: undefined,
		phrasePairs: undefined,
		phraseLearnt: undefined,
	};
}

/** A term's value in the note at `slot` when the note matches it (body or title), else 0; `cursors[index]` moves forward. */
export function valueAt(term: ResolvedTerm, cursors: number[], index: number, slot: number): number {
	const at = seek(term.slots, term.length, cursors[index] as number, slot);
	cursors[index] = at;
	if (at >= term.length || term.slots[at] !== slot) return 0;
	const value = term.values[at] as number;
	return (value & BODY_COUNT) > 0 || (value & IN_TITLE) !== 0 ? value : 0;
}

/** A posting value from its parts, each count saturating at its field's largest value. */
export function packValue(bodyCount: number, titleWords: number, inHeading: boolean): number {
	const title = Math.min(TITLE_COUNT_MAX, titleWords);
	return (Math.min(BODY_COUNT, bodyCount) | (title << TITLE_COUNT_SHIFT) | (title > 0 ? IN_TITLE : 0) | (inHeading ? IN_HEADING : 0)) >>> 0;
}

/**
 * How often a phrase may stand in a row in a note's body as far as one of its words says: the
 * word's count there (`value`), less its other places in the phrase (`repeats` − 1: each place of
 * the phrase after the first adds at least one of its occurrences); a saturated count bounds nothing.
 */
export function phraseWordBody(value: number, repeats: number): number {
	const count = value & BODY_COUNT;
	return count === BODY_COUNT ? count : Math.max(0, count - (repeats - 1));
}

/**
 * How often a phrase may stand in a row in a note's title as far as one of its words says: as
 * `phraseWordBody`, from the word's count among the title's words; a saturated count bounds nothing.
 * A word repeated more often than the title holds it (`"garden garden garden"` for a title holding
 * `garden` once) rules the title out.
 */
export function phraseWordTitle(value: number, repeats: number): number {
	const count = titleCount(value);
	return count === TITLE_COUNT_MAX ? count : Math.max(0, count - (repeats - 1));
}

/**
 * A phrase of `length` words' bounded value from the least body count and title count its words
 * allow and whether every word is in a heading: 0 when neither the body nor the title may hold it.
 */
export function phraseBoundValue(body: number, title: number, heading: boolean, length: number): number {
	const value = packValue(body, title * length, heading);
	return (value & BODY_COUNT) > 0 || (value & IN_TITLE) !== 0 ? value : 0;
}

/**
 * Fewest pairs (a phrase of three words or more) for which a phrase's bound in each note holding
 * its words is tightened by the note's pair sketch once, when its notes are found (and kept with
 * them for the next search of the phrase), rather than when the note comes up to be read. Timed on
 * 10,000 and 50,000 common-word notes: for three words nearly every note holding the words comes up
 * otherwise, and in no order (2–4× the CPU); for two, often only dozens do (a sketch read for every
 * note cost 1.5–3×).
 */
const RESOLVED_PAIR_BOUND_MIN_PAIRS = 2;

/** Whether a phrase of these pairs (PhrasePair each) has its bounds tightened by its notes' pair sketches when resolved (RESOLVED_PAIR_BOUND_MIN_PAIRS). */
export function pairsBoundWhenResolved(pairs: readonly unknown[]): boolean {
	return pairs.length >= RESOLVED_PAIR_BOUND_MIN_PAIRS;
}

/** A phrase's bound with its body count no higher than `body`: 0 when neither the body nor the title may hold it. */
export function tightenedBound(bound: number, body: number): number {
	const count = Math.min(bound & BODY_COUNT, body);
	const value = ((bound & ~BODY_COUNT) | count) >>> 0;
	return count > 0 || (value & IN_TITLE) !== 0 ? value : 0;
}

/** How many of the title's words a posting value counts. */
export function titleCount(value: number): number {
	return (value >>> TITLE_COUNT_SHIFT) & TITLE_COUNT_MAX;
}

/**
 * Two posting values as one (a prefix's several words in one note): counts added (each saturating
 * as packValue saturates it), flags combined. As int32 (IN_HEADING is the sign bit): a union merges
 * hundreds of thousands of values into a Uint32Array, which stores it as the same bits, and a
 * uint32 above 2³¹ returned from a call that is not inlined is a heap number each time.
 */
export function mergeValues(a: number, b: number): number {
	const body = Math.min(BODY_COUNT, (a & BODY_COUNT) + (b & BODY_COUNT));
	const title = Math.min(TITLE_COUNT_MAX, titleCount(a) + titleCount(b));
	// IN_TITLE is kept as well: an alias's word is in the title without counting as one of its words.
	return body | (title << TITLE_COUNT_SHIFT) | (title > 0 ? IN_TITLE : 0) | ((a | b) & (IN_TITLE | IN_HEADING));
}

/**
 * How many accepted notes hold a word as typed (`exact`) or in another form (`forms`): a note
 * holding it both ways counts once, so a word all notes hold keeps an idf of about zero, not below.
 */
export function countEither(exact: ResolvedTerm | null, forms: FormLists | null, accepted: Uint8Array): number {
	const counted = new Uint8Array(accepted.length);
	let count = 0;
	for (const list of [...optional(exact), ...(forms?.lists ?? [])]) {
		for (let index = 0; index < list.length; index++) {
			const slot = list.slots[index] as number;
			if (accepted[slot] !== 1 || counted[slot] === 1) continue;
			counted[slot] = 1;
			count++;
		}
	}
	return count;
}

/** How many of a term's notes are accepted. */
export function countAccepted(term: ResolvedTerm, accepted: Uint8Array): number {
	let count = 0;
	for (let index = 0; index < term.length; index++) count += accepted[term.slots[index] as number] as number;
	return count;
}

export function optional<T>(value: T | undefined | null): T[] {
	return value === undefined || value === null ? [] : [value];
}
