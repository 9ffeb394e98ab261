/**
 * Phrases: a query's words in a row, checked against a note's token ids. Only candidates that
 * hold every word of a phrase are checked, in one pass over the packed body when the phrase is
 * short enough for a 32-bit state. Pure.
 */

/** Words of a phrase checked in one pass over a packed body (one bit each of a 32-bit state); a longer phrase is checked 32 positions a state word (countLongPackedPhrase). */
export const MAX_PHRASE_WORDS = 32;

/** The token ids one position of a phrase accepts. */
export interface AcceptedIds {
	has(id: number): boolean;
}

/**
 * The token ids each position of a phrase accepts (positions of one word share one). A set unless
 * the word stands for many ids (a prefix): a table by id is the dictionary's size, and a query's
 * phrase of 165 distinct two-letter words held 50 MB of them at 300,000 dictionary words, kept for
 * the next search of it (four phrases).
 */
export type CompiledPhrase = readonly AcceptedIds[];

/** A word's ids as a phrase position accepts them: a set, or a table by id (`dictionarySize` bytes) once that is smaller. */
export function acceptedIds(ids: readonly number[], dictionarySize: number): AcceptedIds {
	// A set costs tens of bytes an id.
	if (ids.length * 32 < dictionarySize) return new Set(ids);
	const table = new Uint8Array(dictionarySize);
	for (const id of ids) table[id] = 1;
	return { has: (id) => table[id] === 1 };
}

/**
 * How many times a phrase of `length` words (at most 32) stands in a row in a packed body (`packed[0, end)`), read
 * once without unpacking it (shift-and): bit i of the state is set while the last i + 1 ids read
 * are the phrase's first i + 1 words, so each id costs a shift and a mask, whatever the phrase.
 */
export function countPackedPhrase(packed: Uint8Array, masks: Uint32Array, length: number, end = packed.length): number {
	const last = 1 << (length - 1);
	let state = 0;
	let count = 0;
	let index = 0;
	while (index < end) {
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

/** Where a read of a long phrase in a body stands (`readLongPackedPhrase`): the next byte, the state words, and the count so far. */
export interface LongPhraseRead {
	index: number;
	readonly state: Uint32Array;
	count: number;
}

/** A read of a phrase of `words` state words (of 32 positions each), at the body's start. */
export function longPhraseRead(words: number): LongPhraseRead {
	return { index: 0, state: new Uint32Array(words), count: 0 };
}

/**
 * `countPackedPhrase` for a phrase of any length: `masks[k]` holds, by token id, the bits of
 * positions 32k to 32k + 31, and the state is one 32-bit word per 32 positions, so each id costs
 * a shift and a mask per 32 words. Checking each start word by word (countPhrase) cost a note of
 * `a b a b …` the phrase's length per word: a 60-word phrase held a 5 MB note's read 190 ms.
 */
export function countLongPackedPhrase(packed: Uint8Array, masks: readonly Uint32Array[], length: number, end = packed.length): number {
	const read = longPhraseRead(masks.length);
	readLongPackedPhrase(packed, masks, length, end, read, end);
	return read.count;
}

/**
 * `countLongPackedPhrase` from where `read` stands up to byte `until` (at the end of the id there),
 * `read` left where it stopped: true once the body's end is reached, `read.count` then its count. A
 * 250-word phrase's read of a 5 MB note (eight state words an id) was one piece of 84 ms.
 */
export function readLongPackedPhrase(
	packed: Uint8Array,
	masks: readonly Uint32Array[],
	length: number,
	end: number,
	read: LongPhraseRead,
	until: number,
): boolean {
	const words = masks.length;
	const state = read.state;
	const lastWord = words - 1;
	const last = 1 << ((length - 1) & 31);
	const stop = Math.min(end, until);
	let count = read.count;
	let index = read.index;
	while (index < stop) {
		let byte = packed[index++] as number;
		let id = byte & 0x7f;
		for (let shift = 7; byte & 0x80; shift += 7) {
			byte = packed[index++] as number;
			id |= (byte & 0x7f) << shift;
		}
		// Bit 31 of each word carries into bit 0 of the next; a new match may start at position 0.
		let carry = 1;
		for (let word = 0; word < words; word++) {
			const before = state[word] as number;
			state[word] = ((before << 1) | carry) & ((masks[word] as Uint32Array)[id >>> 0] ?? 0);
			carry = before >>> 31;
		}
		if ((state[lastWord] as number) & last) count++;
	}
	read.index = index;
	read.count = count;
	return index >= end;
}

/** A phrase's first word as its packed bytes (a phrase's first word is one whole word: one id). */
export function packedAnchor(id: number): Uint8Array {
	const bytes: number[] = [];
	let rest = id >>> 0;
	while (rest >= 0x80) {
		bytes.push((rest & 0x7f) | 0x80);
		rest >>>= 7;
	}
	bytes.push(rest);
	return Uint8Array.from(bytes);
}

/**
 * The same count as `countPackedPhrase` (the phrase's first position accepts exactly the id whose
 * bytes are `anchor`), found by jumping between the first word's occurrences with the engine's own
 * byte search and decoding only the ids after each: the body is not decoded id by id, which was
 * nearly all of a phrase query's time on a large vault. A byte starts an id when the byte before it
 * ends one (high bit clear), so an anchor byte inside a longer id is skipped.
 */
export function countAnchoredPhrase(packed: Uint8Array, anchor: Uint8Array, masks: Uint32Array, length: number, end = packed.length): number {
	const first = anchor[0] as number;
	let count = 0;
	// Bytes read after anchors: a body that is mostly the first word (`a b a b …`) has each byte read
	// again by up to `length` - 1 anchors. Past one body's worth the one-pass count is cheaper, and
	// the most it costs is two passes (a phrase of 32 words on 5 MB of `a b` read for 1.3 s in one piece).
	let reread = 0;
	candidates: for (let at = packed.indexOf(first); at !== -1 && at < end; at = packed.indexOf(first, at + 1)) {
		if (at > 0 && ((packed[at - 1] as number) & 0x80) !== 0) continue;
		if (at + anchor.length > end) break;
		for (let offset = 1; offset < anchor.length; offset++) if (packed[at + offset] !== anchor[offset]) continue candidates;
		let index = at + anchor.length;
		for (let position = 1; position < length; position++) {
			if (index >= end) continue candidates;
			if (++reread > end) return countPackedPhrase(packed, masks, length, end);
			let byte = packed[index++] as number;
			let id = byte & 0x7f;
			for (let shift = 7; byte & 0x80; shift += 7) {
				byte = packed[index++] as number;
				id |= (byte & 0x7f) << shift;
			}
			if ((((masks[id >>> 0] ?? 0) >>> position) & 1) === 0) continue candidates;
		}
		count++;
	}
	return count;
}

/**
 * Where a stepped read of a phrase of up to 32 words in a body stands (`readShortPhrase`): the next
 * byte to read or to look for the first word from, the state, the count so far, and the work done.
 */
export interface ShortPhraseRead {
	index: number;
	state: number;
	count: number;
	/** Still jumping between the first word's occurrences (countAnchoredPhrase), not reading id by id. */
	anchored: boolean;
	/** Ids read after anchors; past the body's bytes, the read starts over id by id, as countAnchoredPhrase does. */
	reread: number;
	/** Bytes looked through for the first word, and bytes read, so far. */
	work: number;
}

/** A stepped read of a short phrase at the body's start: by its first word when it has one (`anchor`). */
export function shortPhraseRead(anchored: boolean): ShortPhraseRead {
	return { index: 0, state: 0, count: 0, anchored, reread: 0, work: 0 };
}

/**
 * `countAnchoredPhrase` (with `anchor`) or `countPackedPhrase` read on from where `read` stands for
 * about `budget` bytes of work (looked through or read, the ids after an anchor as many times as
 * they are read again), `read` left where it stopped: true once the body's end is reached,
 * `read.count` then its count. A two-word phrase's read of a 4.4 MB note of `a-a-…` was one piece of 77–79 ms.
 */
export function readShortPhrase(
	packed: Uint8Array,
	anchor: Uint8Array | undefined,
	masks: Uint32Array,
	length: number,
	end: number,
	read: ShortPhraseRead,
	budget: number,
): boolean {
	const target = read.work + budget;
	if (read.anchored && anchor) {
		const done = readAnchoredPhrase(packed, anchor, masks, length, end, read, target);
		if (done || read.anchored) return done;
	}
	const last = 1 << (length - 1);
	const stop = Math.min(end, read.index + Math.max(1, target - read.work));
	let { state, count, index } = read;
	const from = index;
	while (index < stop) {
		let byte = packed[index++] as number;
		let id = byte & 0x7f;
		for (let shift = 7; byte & 0x80; shift += 7) {
			byte = packed[index++] as number;
			id |= (byte & 0x7f) << shift;
		}
		state = ((state << 1) | 1) & (masks[id >>> 0] ?? 0);
		if (state & last) count++;
	}
	read.work += index - from;
	read.index = index;
	read.state = state;
	read.count = count;
	return index >= end;
}

/**
 * `countAnchoredPhrase`'s jumps from `read.index` until `read.work` reaches `target`: true once no
 * anchor is left before the end; `read.anchored` false once the ids read after anchors pass the
 * body's bytes (the read then starts over id by id from the body's start).
 */
function readAnchoredPhrase(
	packed: Uint8Array,
	anchor: Uint8Array,
	masks: Uint32Array,
	length: number,
	end: number,
	read: ShortPhraseRead,
	target: number,
): boolean {
	const first = anchor[0] as number;
	const from = read.index;
	const rereadBefore = read.reread;
	const budget = Math.max(1, target - read.work);
	// `indexOf` looks to the end of what it is given: no further than the work left allows.
	const seen = Math.min(end, from + budget);
	const view = packed.subarray(0, seen);
	let count = read.count;
	let reread = rereadBefore;
	let looked = from;
	let at = view.indexOf(first, from);
	// The work so far is the bytes looked through and the ids read after anchors; one anchor at least a call.
	candidates: for (; at !== -1 && (looked === from || looked - from + reread - rereadBefore < budget); at = view.indexOf(first, at + 1)) {
		looked = at + 1;
		if (at > 0 && ((packed[at - 1] as number) & 0x80) !== 0) continue;
		if (at + anchor.length > end) {
			read.count = count;
			return true;
		}
		for (let offset = 1; offset < anchor.length; offset++) if (packed[at + offset] !== anchor[offset]) continue candidates;
		let index = at + anchor.length;
		for (let position = 1; position < length; position++) {
			if (index >= end) continue candidates;
			if (++reread > end) {
				read.work += looked - from + reread - rereadBefore;
				read.index = 0;
				read.state = 0;
				read.count = 0;
				read.reread = reread;
				read.anchored = false;
				return false;
			}
			let byte = packed[index++] as number;
			let id = byte & 0x7f;
			for (let shift = 7; byte & 0x80; shift += 7) {
				byte = packed[index++] as number;
				id |= (byte & 0x7f) << shift;
			}
			if ((((masks[id >>> 0] ?? 0) >>> position) & 1) === 0) continue candidates;
		}
		count++;
	}
	// No anchor left before `seen`: all of it is looked through.
	if (at === -1) looked = seen;
	read.work += looked - from + reread - rereadBefore;
	read.index = looked;
	read.count = count;
	read.reread = reread;
	return looked >= end;
}

/** How many times the phrase's words stand in a row in `tokens[from, to)` (all of it by default). */
export function countPhrase(tokens: Uint32Array, phrase: CompiledPhrase, from = 0, to = tokens.length): number {
	let count = 0;
	const length = phrase.length;
	const first = phrase[0];
	if (!first) return 0;
	const last = to - length;
	for (let start = from; start <= last; start++) {
		if (!first.has(tokens[start] as number)) continue;
		let matches = true;
		for (let offset = 1; offset < length && matches; offset++) matches = phrase[offset]?.has(tokens[start + offset] as number) === true;
		if (matches) count++;
	}
	return count;
}

/** How many of the notes holding every word of a search's phrases it read, when it did not read them all. */
export interface PhraseChecks {
	/** Notes read, best bound first. */
	checked: number;
	/** Notes holding every word, the ones that may hold the phrases. */
	candidates: number;
}

/** What a phrase search that did not read every note holding its words tells the reader. */
export function phraseChecksNotice(checks: PhraseChecks, held: number): string {
	return `phrase: looked for in ${checks.checked} of the ${checks.candidates} notes holding all its words, best first, until no other could rank higher, and found in ${held}; total counts only these.`;
}
