/**
 * Phrases: a query's words in a row, checked against a note's token ids. Only candidates that
 * hold every word of a phrase are checked, in one pass over the packed body when the phrase is
 * short enough for a 32-bit state. Pure.
 */

/** Words of a phrase checked in one pass over a packed body (one bit each of a 32-bit state); a longer phrase unpacks the body first. */
export const MAX_PHRASE_WORDS = 32;

/** A table indexed by token id (1 = accepted) for each position of a phrase. */
export type CompiledPhrase = Uint8Array[];

/**
 * How many times a phrase of `length` words (at most 32) stands in a row in a packed body, read
 * once without unpacking it (shift-and): bit i of the state is set while the last i + 1 ids read
 * are the phrase's first i + 1 words, so each id costs a shift and a mask, whatever the phrase.
 */
export function countPackedPhrase(packed: Uint8Array, masks: Uint32Array, length: number): number {
	const last = 1 << (length - 1);
	let state = 0;
	let count = 0;
	let index = 0;
	while (index < packed.length) {
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

/** How many times the phrase's words stand in a row in `tokens`. */
export function countPhrase(tokens: Uint32Array, phrase: CompiledPhrase): number {
	let count = 0;
	const length = phrase.length;
	const first = phrase[0];
	if (!first) return 0;
	const last = tokens.length - length;
	for (let start = 0; start <= last; start++) {
		if (first[tokens[start] as number] !== 1) continue;
		let matches = true;
		for (let offset = 1; offset < length && matches; offset++) matches = phrase[offset]?.[tokens[start + offset] as number] === 1;
		if (matches) count++;
	}
	return count;
}
