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
 * Postings lists by place, with no view made of any: list i is `length[i]` postings, its slots
 * at `slotBuffers[i]` from `slotStarts[i]` and its values at `valueBuffers[i]` from
 * `valueStarts[i]` (an arena's list: one shared buffer at two offsets). A prefix of a large
 * vocabulary takes hundreds of thousands of lists: two views and an object each were a million
 * small objects a search, and major collections of 70–340 ms.
 */
export class PostingRuns {
	count = 0;
	/** The buffers the runs are in, each once: an arena's for all its lists, an own list's slots and values. */
	readonly buffers: Uint32Array[] = [];
	/** Per run, its slots' and its values' buffer (an index into `buffers`), where each starts, and its length. */
	slotBuffers = new Uint32Array(8);
	valueBuffers = new Uint32Array(8);
	slotStarts = new Uint32Array(8);
	valueStarts = new Uint32Array(8);
	lengths = new Uint32Array(8);
	private readonly bufferIndex = new Map<Uint32Array, number>();

	/** Runs of `lists`, in order. */
	static of(lists: readonly Postings[]): PostingRuns {
		const runs = new PostingRuns();
		for (const list of lists) runs.add(list.slots, 0, list.values, 0, list.length);
		return runs;
	}

	/** Room for `more` runs beyond those added, grown once rather than as they come. */
	reserve(more: number): void {
		const wanted = this.count + more;
		if (wanted <= this.lengths.length) return;
		const size = Math.max(wanted, this.lengths.length * 2);
		const grown = (from: Uint32Array) => {
			const to = new Uint32Array(size);
			to.set(from.subarray(0, this.count));
			return to;
		};
		this.slotBuffers = grown(this.slotBuffers);
		this.valueBuffers = grown(this.valueBuffers);
		this.slotStarts = grown(this.slotStarts);
		this.valueStarts = grown(this.valueStarts);
		this.lengths = grown(this.lengths);
	}

	add(slots: Uint32Array, slotStart: number, values: Uint32Array, valueStart: number, length: number): void {
		this.reserve(1);
		const run = this.count++;
		this.slotBuffers[run] = this.indexOf(slots);
		this.valueBuffers[run] = this.indexOf(values);
		this.slotStarts[run] = slotStart;
		this.valueStarts[run] = valueStart;
		this.lengths[run] = length;
	}

	/** Run `index` as a list (views of its buffers): for one list, which a term keeps as it is. */
	list(index: number): Postings {
		const length = this.lengths[index] as number;
		const slotStart = this.slotStarts[index] as number;
		const valueStart = this.valueStarts[index] as number;
		return {
			slots: this.slotsOf(index).subarray(slotStart, slotStart + length),
			values: this.valuesOf(index).subarray(valueStart, valueStart + length),
			length,
		};
	}

	/** The buffer holding run `index`'s slots (from `slotStarts[index]`). */
	slotsOf(index: number): Uint32Array {
		return this.buffers[this.slotBuffers[index] as number] as Uint32Array;
	}

	/** The buffer holding run `index`'s values (from `valueStarts[index]`). */
	valuesOf(index: number): Uint32Array {
		return this.buffers[this.valueBuffers[index] as number] as Uint32Array;
	}

	private indexOf(buffer: Uint32Array): number {
		let index = this.bufferIndex.get(buffer);
		if (index === undefined) {
			index = this.buffers.length;
			this.buffers.push(buffer);
			this.bufferIndex.set(buffer, index);
		}
		return index;
	}
}

/**
 * Adds postings `[from, to)` of a run (its slots from `slotStart` in `slots`, values from
 * `valueStart` in `values`) into `merged` by slot and says how many slots it filled that were empty.
 * A plain function, not the generator's own loop: V8 runs a loop inside a generator several times slower.
 */
function mergeInto(merged: Uint32Array, slots: Uint32Array, slotStart: number, values: Uint32Array, valueStart: number, from: number, to: number): number {
	let filled = 0;
	for (let index = from; index < to; index++) {
		const slot = slots[slotStart + index] as number;
		const value = values[valueStart + index] as number;
		const before = merged[slot] as number;
		// A slot's first value is its merge with nothing: a posting's value is already packed as mergeValues packs.
		if (before === 0) {
			filled++;
			merged[slot] = value;
		} else merged[slot] = mergeValues(before, value);
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
export function* unionSteps(
	lists: readonly Postings[] | PostingRuns,
	slotCount: number,
	scratch: UnionScratch,
	tally?: UnionTally,
): Generator<void, ResolvedTerm, void> {
	const runs = lists instanceof PostingRuns ? lists : PostingRuns.of(lists);
	const merged = (scratch.merged = growUint32(scratch.merged, slotCount));
	const step = UNION_STEP_MASK + 1;
	let low = slotCount;
	let high = -1;
	let count = 0;
	let done = false;
	try {
		let since = 0;
		for (let listIndex = 0; listIndex < runs.count; listIndex++) {
			// Every posting's value is non-zero, so the slots filled so far are the notes these lists hold.
			if (tally && listIndex === tally.lists) tally.notes = count;
			const length = runs.lengths[listIndex] as number;
			if (length === 0) continue;
			const slots = runs.slotsOf(listIndex);
			const slotStart = runs.slotStarts[listIndex] as number;
			const values = runs.valuesOf(listIndex);
			const valueStart = runs.valueStarts[listIndex] as number;
			low = Math.min(low, slots[slotStart] as number);
			high = Math.max(high, slots[slotStart + length - 1] as number);
			for (let from = 0; from < length; from += step) {
				const to = Math.min(length, from + step);
				count += mergeInto(merged, slots, slotStart, values, valueStart, from, to);
				since += to - from;
				if (since >= step) {
					since = 0;
					yield;
				}
			}
		}
		if (tally && tally.lists >= runs.count) tally.notes = count;
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
export function* holderMarkSteps(lists: readonly Postings[] | PostingRuns, slotCount: number): Generator<void, Uint8Array, void> {
	const runs = lists instanceof PostingRuns ? lists : PostingRuns.of(lists);
	const marks = new Uint8Array(slotCount);
	let since = 0;
	for (let listIndex = 0; listIndex < runs.count; listIndex++) {
		const slots = runs.slotsOf(listIndex);
		const slotStart = runs.slotStarts[listIndex] as number;
		const values = runs.valuesOf(listIndex);
		const valueStart = runs.valueStarts[listIndex] as number;
		const length = runs.lengths[listIndex] as number;
		for (let index = 0; index < length; index++) {
			if (((values[valueStart + index] as number) & (BODY_COUNT | IN_TITLE)) !== 0) marks[slots[slotStart + index] as number] = 1;
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
