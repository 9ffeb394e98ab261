import { BODY_COUNT, growUint32, IN_TITLE, mergeValues, wordTerm, type Postings, type ResolvedTerm } from "./postingValues";

/**
 * A union yields every this many postings or slots (a power of two, less one: a mask), where a
 * search may pause: the postings of every word a two-letter prefix starts are millions in a large vault.
 */
export const UNION_STEP_MASK = 16_383;

/** Where unions add up values by slot: all zero between unions, also after a union given up part way. */
export interface UnionScratch {
	merged: Uint32Array;
}

/** A new scratch, for a search that may pause (another search reuses the shared one meanwhile). */
export function unionScratch(): UnionScratch {
	return { merged: new Uint32Array(64) };
}

/**
 * Adds `list[from, to)` into `merged` by slot and says how many slots it filled that were empty.
 * A plain function, not the generator's own loop: V8 runs a loop inside a generator several times slower.
 */
function mergeInto(merged: Uint32Array, list: Postings, from: number, to: number): number {
	const { slots, values } = list;
	let filled = 0;
	for (let index = from; index < to; index++) {
		const slot = slots[index] as number;
		const before = merged[slot] as number;
		// A slot's first value is its merge with nothing: a posting's value is already packed as mergeValues packs.
		if (before === 0) {
			filled++;
			merged[slot] = values[index] as number;
		} else merged[slot] = mergeValues(before, values[index] as number);
	}
	return filled;
}

/** Moves the filled slots of `merged[from, to)` to `out` from `length` on, zeroing them; the new length. */
function collectMerged(merged: Uint32Array, from: number, to: number, out: Postings, length: number): number {
	const { slots, values } = out;
	for (let slot = from; slot < to; slot++) {
		const value = merged[slot] as number;
		if (value === 0) continue;
		slots[length] = slot;
		values[length++] = value;
		merged[slot] = 0;
	}
	return length;
}

/** How many notes the first `lists` lists of a union hold together (`notes`, set by the union): a word's count as typed or in another form, merged anyway for `any`. */
export interface UnionTally {
	lists: number;
	notes: number;
}

/**
 * The postings of several terms as one, in steps: body counts added, title and heading flags
 * combined, by slot. `lists` are taken as they are when it starts, their values packed as the
 * index packs them (packValue; IN_TITLE alone for an alias's word); `slotCount` is above every
 * slot they hold. A union stopped between steps (`return()`) zeroes what it wrote. Pure but for
 * `scratch` and `tally`.
 */
export function* unionSteps(lists: readonly Postings[], slotCount: number, scratch: UnionScratch, tally?: UnionTally): Generator<void, ResolvedTerm, void> {
	const merged = (scratch.merged = growUint32(scratch.merged, slotCount));
	const step = UNION_STEP_MASK + 1;
	let low = slotCount;
	let high = -1;
	let count = 0;
	let done = false;
	try {
		let since = 0;
		for (let listIndex = 0; listIndex < lists.length; listIndex++) {
			// Every posting's value is non-zero, so the slots filled so far are the notes these lists hold.
			if (tally && listIndex === tally.lists) tally.notes = count;
			const list = lists[listIndex] as Postings;
			if (list.length === 0) continue;
			low = Math.min(low, list.slots[0] as number);
			high = Math.max(high, list.slots[list.length - 1] as number);
			for (let from = 0; from < list.length; from += step) {
				const to = Math.min(list.length, from + step);
				count += mergeInto(merged, list, from, to);
				since += to - from;
				if (since >= step) {
					since = 0;
					yield;
				}
			}
		}
		if (tally && tally.lists >= lists.length) tally.notes = count;
		const out: Postings = { slots: new Uint32Array(count), values: new Uint32Array(count), length: 0 };
		for (let from = low; from <= high && out.length < count; from += step) {
			out.length = collectMerged(merged, from, Math.min(high + 1, from + step), out, out.length);
			if (from + step <= high) yield;
		}
		done = true;
		return wordTerm(out.slots, out.values, out.length);
	} finally {
		if (!done && high >= low) merged.fill(0, low, high + 1);
	}
}

/**
 * The slots of the notes holding any of `lists` in the body or the title (1 = holds one), in
 * steps: marks, not a union, as an exclusion needs no counts. Pure.
 */
export function* holderMarkSteps(lists: readonly Postings[], slotCount: number): Generator<void, Uint8Array, void> {
	const marks = new Uint8Array(slotCount);
	let since = 0;
	for (const list of lists) {
		for (let index = 0; index < list.length; index++) {
			if (((list.values[index] as number) & (BODY_COUNT | IN_TITLE)) !== 0) marks[list.slots[index] as number] = 1;
			if ((++since & UNION_STEP_MASK) === 0) yield;
		}
	}
	return marks;
}

/** Runs steps to their end in one piece. */
export function runSteps<T>(steps: Generator<void, T, void>): T {
	for (;;) {
		const next = steps.next();
		if (next.done) return next.value;
	}
}
