import { SPLIT_MAP_HASHED_CHARS, SPLIT_MAP_PARTS } from "../config/limits";

/** Picks a key's table: drawn per process, so keys cannot be chosen to land in one table. */
const SEED = Math.floor(Math.random() * 0x7fffffff) | 1;
/** Read once: an imported constant is a property read each time under the tests' module transform. */
const HALF_HASHED = SPLIT_MAP_HASHED_CHARS / 2;
const PARTS = SPLIT_MAP_PARTS;

/**
 * A number from `key`'s first and last SPLIT_MAP_HASHED_CHARS / 2 characters and its length: the
 * string hash ×31 from a seed, its high bits folded into the low. No `Math` call: under the tests'
 * module sandbox a builtin of another context is not inlined (650,000 keys took 0.9 s with `Math.imul`, 30 ms so).
 */
function partOf(key: string): number {
	const length = key.length;
	let hash = SEED ^ length;
	const head = length < HALF_HASHED ? length : HALF_HASHED;
	for (let at = 0; at < head; at++) hash = ((hash << 5) - hash + key.charCodeAt(at)) | 0;
	for (let at = length - HALF_HASHED > head ? length - HALF_HASHED : head; at < length; at++) hash = ((hash << 5) - hash + key.charCodeAt(at)) | 0;
	hash ^= hash >>> 16;
	hash ^= hash >>> 8;
	return (hash >>> 0) % PARTS;
}

/**
 * A map of string keys, iterated in the order keys were first set, held in SPLIT_MAP_PARTS hash
 * tables: one table of 650,000 keys copied them all in one piece as it grew (40–70 ms), a 64th of
 * them here. For maps a single note can make that large (its distinct link paths).
 */
export class SplitStringMap<V> {
	private readonly parts: Array<Map<string, V> | undefined> = [];
	private readonly order: string[] = [];

	get size(): number {
		return this.order.length;
	}

	get(key: string): V | undefined {
		return this.parts[partOf(key)]?.get(key);
	}

	has(key: string): boolean {
		return this.parts[partOf(key)]?.has(key) ?? false;
	}

	set(key: string, value: V): this {
		const at = partOf(key);
		const part = (this.parts[at] ??= new Map());
		const size = part.size;
		part.set(key, value);
		if (part.size !== size) this.order.push(key);
		return this;
	}

	*[Symbol.iterator](): IterableIterator<[string, V]> {
		for (const key of this.order) yield [key, this.get(key) as V];
	}
}
