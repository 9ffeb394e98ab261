import { CHUNKED_MAP_KEYS } from "../config/limits";

/**
 * A Map from strings that grows without copying more than a chunk: keys in Maps of at most
 * CHUNKED_MAP_KEYS each, filled one after another and looked up oldest first (a word met early
 * is found in the first). V8 grows a Map by copying every entry into a table twice the size, in
 * one step: the search dictionary paid 40–70 ms at once when a note brought 550,000 new words.
 * Never removes a key; iterates keys in the order they were added, as a Map does.
 */
export class ChunkedMap<V> {
	private readonly chunks: Map<string, V>[] = [new Map<string, V>()];

	get size(): number {
		return (this.chunks.length - 1) * CHUNKED_MAP_KEYS + (this.chunks.at(-1) as Map<string, V>).size;
	}

	get(key: string): V | undefined {
		for (const chunk of this.chunks) {
			const value = chunk.get(key);
			if (value !== undefined) return value;
		}
		return undefined;
	}

	/** Adds a key not held yet (the caller has looked: `get` gave undefined). */
	add(key: string, value: V): void {
		let last = this.chunks.at(-1) as Map<string, V>;
		if (last.size >= CHUNKED_MAP_KEYS) {
			last = new Map<string, V>();
			this.chunks.push(last);
		}
		last.set(key, value);
	}

	*keys(): Generator<string, void, void> {
		for (const chunk of this.chunks) yield* chunk.keys();
	}
}
