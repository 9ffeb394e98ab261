/**
 * A note's word pairs in a few bits: for each pair of ids standing next to each other in its body,
 * small saturating counters at two hashed places (a count-min sketch). Read back, the smaller of
 * the two counters is never below how often the pair stands in the body, so a phrase stands in a
 * row at most that often: a note whose words are all there but never side by side is ruled out,
 * and one that holds the phrase once is bounded by about one, without reading its body. Pure.
 */

import { MAX_SKETCHED_BODY_WORDS } from "../config/limits";

/** Bits of one counter: counts 0, 1 and 2, and 3 for "three or more". */
const COUNTER_BITS = 2;
const COUNTER_MASK = (1 << COUNTER_BITS) - 1;
const COUNTERS_PER_BYTE = 8 / COUNTER_BITS;
/** A pair's counters that say "three or more": the pair bounds nothing beyond its words' counts. */
export const PAIR_COUNT_SATURATED = COUNTER_MASK;
/**
 * Counters per pair of the body (adjacent ids, repeats included). At 4, two hashed places a pair
 * and most pairs distinct, a pair absent from a note finds both its counters taken by others about
 * one time in seven; the sketch costs a byte per word of the body, next to one or two for the
 * packed body itself.
 */
const COUNTERS_PER_PAIR = 4;

/**
 * Bytes of the sketch of a body of `tokens` ids (tokens − 1 pairs): none for a body without pairs,
 * and none for a body over MAX_SKETCHED_BODY_WORDS (hasPairSketch tells the two apart).
 */
export function pairSketchBytes(tokens: number): number {
	return tokens < 2 || !hasPairSketch(tokens) ? 0 : Math.ceil(((tokens - 1) * COUNTERS_PER_PAIR) / COUNTERS_PER_BYTE);
}

/** Whether a body of `tokens` ids is sketched: a longer one is looked through for a phrase instead. */
export function hasPairSketch(tokens: number): boolean {
	return tokens <= MAX_SKETCHED_BODY_WORDS;
}

/** A 32-bit hash of a token's text (FNV-1a over its UTF-16 units, then mixed). */
export function tokenHash(token: string): number {
	let hash = 0x811c9dc5;
	for (let index = 0; index < token.length; index++) hash = Math.imul(hash ^ token.charCodeAt(index), 0x01000193);
	hash ^= hash >>> 13;
	hash = Math.imul(hash, 0x5bd1e995);
	return (hash ^ (hash >>> 15)) >>> 0;
}

/** A 32-bit hash of the ordered pair of tokens (first, second), from their tokenHash: where its first counter is. */
export function pairHash(first: number, second: number): number {
	let hash = Math.imul(first ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(second ^ 0x7f4a7c15, 0xc2b2ae35);
	hash ^= hash >>> 16;
	hash = Math.imul(hash, 0x7feb352d);
	hash ^= hash >>> 15;
	hash = Math.imul(hash, 0x846ca68b);
	return (hash ^ (hash >>> 16)) >>> 0;
}

/** Where a pair's second counter is, from its pairHash: another mix of the same bits. */
export function secondHash(hash: number): number {
	let mixed = Math.imul(hash ^ 0x5bd1e995, 0x27d4eb2d);
	mixed ^= mixed >>> 15;
	return mixed >>> 0;
}

/** 2⁻³², to scale a 32-bit hash into [0, 1). */
const HASH_SCALE = 1 / 0x1_0000_0000;

/** A counter among `counters` (under 2³¹), from a 32-bit hash: its high bits, scaled, so the sketch's size need not be a power of two. */
function place(hash: number, counters: number): number {
	return (hash * HASH_SCALE * counters) | 0;
}

function counterAt(bytes: Uint8Array, from: number, counter: number): number {
	return ((bytes[from + (counter >>> 2)] as number) >>> ((counter & 3) * COUNTER_BITS)) & COUNTER_MASK;
}

function bump(bytes: Uint8Array, from: number, counter: number): void {
	const shift = (counter & 3) * COUNTER_BITS;
	const at = from + (counter >>> 2);
	const byte = bytes[at] as number;
	if (((byte >>> shift) & COUNTER_MASK) !== COUNTER_MASK) bytes[at] = byte + (1 << shift);
}

/**
 * Writes the sketch of the packed body in `packed[0, bodyBytes)` (packedIds.ts) into
 * `packed[from, from + size)`, which must be zero; `hashes`: each id's tokenHash.
 */
export function writePairSketch(packed: Uint8Array, bodyBytes: number, from: number, size: number, hashes: Uint32Array): void {
	const counters = size * COUNTERS_PER_BYTE;
	if (counters === 0) return;
	let previous = 0;
	let index = 0;
	let first = true;
	while (index < bodyBytes) {
		let byte = packed[index++] as number;
		let id = byte & 0x7f;
		for (let shift = 7; byte & 0x80; shift += 7) {
			byte = packed[index++] as number;
			id |= (byte & 0x7f) << shift;
		}
		const token = hashes[id >>> 0] as number;
		if (!first) {
			const hash = pairHash(previous, token);
			bump(packed, from, place(hash, counters));
			bump(packed, from, place(secondHash(hash), counters));
		}
		previous = token;
		first = false;
	}
}

/**
 * A count never below how often a pair of tokens stands in the body whose sketch is
 * `packed[from, from + size)`, the pair given by its two hashes (pairHash of the tokens' hashes,
 * then secondHash of it: the same for every note, so a search works them out once);
 * PAIR_COUNT_SATURATED means three or more, so it bounds nothing the words' own counts do not.
 */
export function pairCountBound(packed: Uint8Array, from: number, size: number, hash: number, second: number): number {
	const counters = size * COUNTERS_PER_BYTE;
	if (counters === 0) return 0;
	const held = counterAt(packed, from, place(hash, counters));
	return held === 0 ? 0 : Math.min(held, counterAt(packed, from, place(second, counters)));
}
