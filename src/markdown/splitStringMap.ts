import { SPLIT_MAP_FIRST_KEYS, SPLIT_MAP_HASHED_CHARS, SPLIT_MAP_PARTS, V8_HASHED_STRING_MAX_CHARS } from "../config/limits";
import { ChunkedArray } from "./chunkedArray";

/** Picks a key's table: drawn per process, so a planted note cannot choose keys that land in one table. */
const SEED = (Math.random() * 0x1_0000_0000) | 0;
/** Read once: an imported constant is a property read each time under the tests' module transform. */
const HALF_HASHED = SPLIT_MAP_HASHED_CHARS / 2;
const PARTS = SPLIT_MAP_PARTS;
const LONGEST_V8_HASHED = V8_HASHED_STRING_MAX_CHARS;

/**
 * The table of `key`: FNV-1a from the seed over its first and last SPLIT_MAP_HASHED_CHARS / 2
 * characters and its length, the high bits folded into the low (FNV's low bits depend only on the
 * characters' low bits). The multiply by FNV's prime is spelt in shifts, not `Math.imul`: under the
 * tests' module sandbox a builtin of another context is not inlined (650,000 keys took 0.9 s with it, 30 ms so).
 */
function partOf(key: string): number {
	const length = key.length;
	let hash = SEED ^ length;
	const head = length < HALF_HASHED ? length : HALF_HASHED;
	for (let at = 0; at < head; at++) {
		hash ^= key.charCodeAt(at);
		hash = ((hash << 24) + (hash << 8) + hash * 0x93) | 0;
	}
	for (let at = length - HALF_HASHED > head ? length - HALF_HASHED : head; at < length; at++) {
		hash ^= key.charCodeAt(at);
		hash = ((hash << 24) + (hash << 8) + hash * 0x93) | 0;
	}
	hash ^= hash >>> 16;
	hash ^= hash >>> 8;
	return (hash >>> 0) % PARTS;
}

/**
 * A seeded FNV-1a of every character of `key` and its length, in 30 bits (a small integer: a Map hashes
 * it well). For keys V8 hashes by length alone: a note cannot choose keys that share it, not knowing the seed.
 */
function wholeKeyHash(key: string): number {
	const length = key.length;
	let hash = SEED ^ length;
	for (let at = 0; at < length; at++) {
		hash ^= key.charCodeAt(at);
		hash = ((hash << 24) + (hash << 8) + hash * 0x93) | 0;
	}
	return (hash ^ (hash >>> 15)) & 0x3fff_ffff;
}

/**
 * Keys longer than V8_HASHED_STRING_MAX_CHARS, which V8 would hash by their length alone (every look
 * compared in full with every key of that length): bucketed by `wholeKeyHash`, the few keys of a
 * bucket compared in full.
 */
class LongKeys<V> {
	private readonly buckets = new Map<number, Array<[string, V]>>();
	size = 0;

	get(key: string): V | undefined {
		for (const entry of this.buckets.get(wholeKeyHash(key)) ?? []) if (entry[0] === key) return entry[1];
		return undefined;
	}

	/** Sets `key`; true if it was not held before. */
	set(key: string, value: V): boolean {
		const hash = wholeKeyHash(key);
		const bucket = this.buckets.get(hash);
		const held = bucket?.find((entry) => entry[0] === key);
		if (held === undefined) return this.added(hash, bucket, key, value);
		held[1] = value;
		return false;
	}

	/** The value `key` has; when it has none, sets it to `value` and gives undefined. Its characters hashed once, not to look then to add. */
	getOrAdd(key: string, value: V): V | undefined {
		const hash = wholeKeyHash(key);
		const bucket = this.buckets.get(hash);
		const held = bucket?.find((entry) => entry[0] === key);
		if (held !== undefined) return held[1];
		this.added(hash, bucket, key, value);
		return undefined;
	}

	/** Adds `key`, not held, to its bucket (`hash`'s, undefined while it has none). True. */
	private added(hash: number, bucket: Array<[string, V]> | undefined, key: string, value: V): true {
		if (bucket === undefined) this.buckets.set(hash, [[key, value]]);
		else bucket.push([key, value]);
		this.size++;
		return true;
	}

	delete(key: string): boolean {
		const hash = wholeKeyHash(key);
		const bucket = this.buckets.get(hash);
		const at = bucket ? bucket.findIndex((held) => held[0] === key) : -1;
		if (!bucket || at === -1) return false;
		if (bucket.length === 1) this.buckets.delete(hash);
		else bucket.splice(at, 1);
		this.size--;
		return true;
	}

	*entries(): IterableIterator<[string, V]> {
		for (const bucket of this.buckets.values()) for (const [key, value] of bucket) yield [key, value];
	}
}

/**
 * A map keyed by strings whose every step is short however many it holds: its first `firstKeys`
 * keys (SPLIT_MAP_FIRST_KEYS unless told) in one `Map`, found with V8's hash alone (kept in the
 * string), the keys after them spread over SPLIT_MAP_PARTS `Map`s by a seeded hash. A single `Map`
 * grows by copying all its entries at once (see SPLIT_MAP_FIRST_KEYS); here a growth copies at
 * most half the first table or one part, and nothing is moved when the parts begin. Its keys come
 * in no particular order (`OrderedSplitStringMap` keeps the order they were first set in). A key longer
 * than V8 hashes whole (V8_HASHED_STRING_MAX_CHARS) is kept apart (`LongKeys`), so keys of any length
 * cost their length, never the number of others as long.
 */
export class SplitStringMap<V> {
	private readonly first = new Map<string, V>();
	/** The maps after the first, begun when it is full; a key set once they are goes to one of them unless the first holds it. */
	private parts: Array<Map<string, V>> | null = null;
	/** Keys of the first table and the parts (not the long ones). */
	private count = 0;
	private long: LongKeys<V> | null = null;

	constructor(private readonly firstKeys: number = SPLIT_MAP_FIRST_KEYS) {}

	get size(): number {
		return this.count + (this.long?.size ?? 0);
	}

	get(key: string): V | undefined {
		if (key.length > LONGEST_V8_HASHED) return this.long?.get(key);
		if (this.parts === null) return this.first.get(key);
		const part = this.parts[partOf(key)] as Map<string, V>;
		// The tables likelier to hold it first: a look in the first one costs 1.2 times as much again when most keys are in the parts.
		const likelier = this.mostInParts() ? part : this.first;
		const value = likelier.get(key);
		return value !== undefined ? value : (likelier === part ? this.first : part).get(key);
	}

	has(key: string): boolean {
		if (key.length > LONGEST_V8_HASHED) return this.long?.get(key) !== undefined;
		return this.first.has(key) || (this.parts !== null && (this.parts[partOf(key)] as Map<string, V>).has(key));
	}

	/** Sets `key`; true if it was not held before. */
	set(key: string, value: V): boolean {
		if (key.length > LONGEST_V8_HASHED) return (this.long ??= new LongKeys<V>()).set(key, value);
		return this.setIn(this.mapFor(key), key, value);
	}

	/** Sets a key not held yet (the caller has looked: `get` gave undefined), without looking again. */
	add(key: string, value: V): void {
		if (key.length > LONGEST_V8_HASHED) (this.long ??= new LongKeys<V>()).set(key, value);
		else this.setIn(this.parts === null ? this.first : (this.parts[partOf(key)] as Map<string, V>), key, value);
	}

	/** Removes `key`; true if it was there. A table is not made smaller. */
	delete(key: string): boolean {
		if (key.length > LONGEST_V8_HASHED) return this.long?.delete(key) ?? false;
		const removed = this.first.delete(key) || (this.parts !== null && (this.parts[partOf(key)] as Map<string, V>).delete(key));
		if (removed) this.count--;
		return removed;
	}

	/** The entries, in no particular order. */
	*entries(): IterableIterator<[string, V]> {
		yield* this.first;
		for (const part of this.parts ?? []) yield* part;
		if (this.long) yield* this.long.entries();
	}

	/** The value `key` has; when it has none, sets it to `value` and gives undefined. One look in each table, not two (`get` then `set`). */
	getOrAdd(key: string, value: V): V | undefined {
		if (key.length > LONGEST_V8_HASHED) return (this.long ??= new LongKeys<V>()).getOrAdd(key, value);
		const map = this.mapFor(key);
		const known = map.get(key);
		if (known === undefined) this.setIn(map, key, value);
		return known;
	}

	private setIn(map: Map<string, V>, key: string, value: V): boolean {
		const size = map.size;
		map.set(key, value);
		if (map.size === size) return false;
		if (++this.count >= this.firstKeys && this.parts === null) this.parts = Array.from({ length: PARTS }, () => new Map<string, V>());
		return true;
	}

	/** The table that holds `key`, or would: the first while it has room or holds the key, else the part its hash picks. */
	private mapFor(key: string): Map<string, V> {
		if (this.parts === null) return this.first;
		const part = this.parts[partOf(key)] as Map<string, V>;
		if (this.mostInParts()) return part.has(key) || !this.first.has(key) ? part : this.first;
		return this.first.has(key) ? this.first : part;
	}

	/** Whether the parts hold more keys than the first table: then a key is looked for in its part first. */
	private mostInParts(): boolean {
		return this.count > 2 * this.first.size;
	}
}

/**
 * A SplitStringMap that lists its keys in the order they were first set, as a `Map` does (kept in a
 * ChunkedArray, which never copies what it holds to grow). Keys are never removed.
 */
export class OrderedSplitStringMap<V> {
	private readonly map: SplitStringMap<V>;
	private readonly order = new ChunkedArray<string>();

	constructor(firstKeys: number = SPLIT_MAP_FIRST_KEYS) {
		this.map = new SplitStringMap<V>(firstKeys);
	}

	get size(): number {
		return this.order.length;
	}

	get(key: string): V | undefined {
		return this.map.get(key);
	}

	set(key: string, value: V): void {
		if (this.map.set(key, value)) this.order.push(key);
	}

	/** Sets a key not held yet (the caller has looked: `get` gave undefined), without looking again. */
	add(key: string, value: V): void {
		this.map.add(key, value);
		this.order.push(key);
	}

	/** The value `key` has; when it has none, sets it to `value` and gives undefined. */
	getOrAdd(key: string, value: V): V | undefined {
		const known = this.map.getOrAdd(key, value);
		if (known === undefined) this.order.push(key);
		return known;
	}

	/** The keys in the order first set; a key set while this runs is listed too. */
	keys(): IterableIterator<string> {
		return this.order.values();
	}

	*[Symbol.iterator](): IterableIterator<[string, V]> {
		for (const key of this.order.values()) yield [key, this.map.get(key) as V];
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

	/** Removes `value`; true if it was there. */
	delete(value: string): boolean {
		return this.map.delete(value);
	}

	/** Its strings, in no particular order. */
	*[Symbol.iterator](): IterableIterator<string> {
		for (const [value] of this.map.entries()) yield value;
	}
}
