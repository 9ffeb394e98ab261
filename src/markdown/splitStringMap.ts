import { SPLIT_SET_AT, SPLIT_SET_PARTS } from "../config/limits";

/**
 * A map keyed by strings whose every step is short however many it holds: one `Map` until it
 * reaches SPLIT_SET_AT keys, then SPLIT_SET_PARTS of them, each key in the one its hash picks. A
 * single `Map` grows by copying all its entries at once (see SPLIT_SET_AT); here a growth copies
 * one part's. The hash is seeded per process, so a planted note cannot put every key in one part.
 * Its keys come in no particular order.
 */
export class SplitStringMap<V> {
	private whole: Map<string, V> | null = new Map();
	private readonly parts: Array<Map<string, V>> = [];
	private count = 0;

	get size(): number {
		return this.count;
	}

	get(key: string): V | undefined {
		return this.mapFor(key).get(key);
	}

	has(key: string): boolean {
		return this.mapFor(key).has(key);
	}

	set(key: string, value: V): void {
		this.setIn(this.mapFor(key), key, value);
	}

	/** Removes `key`; true if it was there. A part's table is not made smaller. */
	delete(key: string): boolean {
		const removed = this.mapFor(key).delete(key);
		if (removed) this.count--;
		return removed;
	}

	/** The entries, in no particular order. */
	*entries(): IterableIterator<[string, V]> {
		if (this.whole !== null) yield* this.whole;
		for (const part of this.parts) yield* part;
	}

	/** The value `key` has; when it has none, sets it to `value` and gives undefined. One hash of the key, not two (`get` then `set`). */
	getOrAdd(key: string, value: V): V | undefined {
		const map = this.mapFor(key);
		const known = map.get(key);
		if (known === undefined) this.setIn(map, key, value);
		return known;
	}

	private setIn(map: Map<string, V>, key: string, value: V): void {
		const size = map.size;
		map.set(key, value);
		if (map.size === size) return;
		this.count++;
		if (this.whole !== null && this.count >= SPLIT_SET_AT) this.split(this.whole);
	}

	private split(whole: Map<string, V>): void {
		this.whole = null;
		for (let part = 0; part < SPLIT_SET_PARTS; part++) this.parts.push(new Map());
		for (const [key, value] of whole) this.mapFor(key).set(key, value);
	}

	private mapFor(key: string): Map<string, V> {
		return this.whole ?? (this.parts[partOf(key)] as Map<string, V>);
	}
}

/** A set of strings on a SplitStringMap: no step copies more than a part of it to grow. */
export class SplitStringSet {
	private readonly map = new SplitStringMap<true>();

	get size(): number {
		return this.map.size;
	}

	has(value: string): boolean {
		return this.map.has(value);
	}

	/** Adds `value`; true if it was not in the set. */
	add(value: string): boolean {
		return this.map.getOrAdd(value, true) === undefined;
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
