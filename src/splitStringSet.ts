import { SPLIT_SET_AT, SPLIT_SET_PARTS } from "./config/limits";

/**
 * A set of strings whose every step is short however many it holds: one `Set` until it reaches
 * SPLIT_SET_AT strings, then SPLIT_SET_PARTS of them, each string in the one its hash picks. A
 * single `Set` grows by copying all its entries at once (see SPLIT_SET_AT); here a growth copies
 * one part's. The hash is seeded per process, so a planted note cannot put every string in one part.
 */
export class SplitStringSet {
	private whole: Set<string> | null = new Set();
	private readonly parts: Array<Set<string>> = [];
	private count = 0;

	get size(): number {
		return this.count;
	}

	has(value: string): boolean {
		return this.setFor(value).has(value);
	}

	/** Adds `value`; true if it was not in the set. */
	add(value: string): boolean {
		const set = this.setFor(value);
		if (set.has(value)) return false;
		set.add(value);
		this.count++;
		if (this.whole !== null && this.count >= SPLIT_SET_AT) this.split(this.whole);
		return true;
	}

	private split(whole: Set<string>): void {
		this.whole = null;
		for (let part = 0; part < SPLIT_SET_PARTS; part++) this.parts.push(new Set());
		for (const value of whole) this.setFor(value).add(value);
	}

	private setFor(value: string): Set<string> {
		return this.whole ?? (this.parts[partOf(value)] as Set<string>);
	}
}

/** FNV-1a from a random start, per process, its bits mixed at the end (murmur3's finalizer): FNV's low bits depend only on the characters' low bits. */
const HASH_SEED = (Math.random() * 0x1_0000_0000) >>> 0;

function partOf(value: string): number {
	let hash = HASH_SEED;
	for (let index = 0; index < value.length; index++) hash = Math.imul(hash ^ value.charCodeAt(index), 0x0100_0193);
	hash = Math.imul(hash ^ (hash >>> 16), 0x85eb_ca6b);
	hash = Math.imul(hash ^ (hash >>> 13), 0xc2b2_ae35);
	return ((hash ^ (hash >>> 16)) >>> 0) % SPLIT_SET_PARTS;
}
