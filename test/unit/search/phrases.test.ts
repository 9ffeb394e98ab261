import fc from "fast-check";
import { PackedIdWriter } from "../../../src/search/packedIds";
import { expectEqual } from "../../helpers/plainEqual";
import {
	acceptedIds,
	type CompiledPhrase,
	countAnchoredPhrase,
	countLongPackedPhrase,
	countPackedPhrase,
	countPhrase,
	longPhraseRead,
	MAX_PHRASE_WORDS,
	packedAnchor,
	readLongPackedPhrase,
	readShortPhrase,
	shortPhraseRead,
} from "../../../src/search/phrases";

function pack(ids: readonly number[]): Uint8Array {
	const writer = new PackedIdWriter(ids.length);
	for (const id of ids) writer.write(id);
	return writer.finish();
}

/** Masks as the index builds them: bit i of an id's mask set when position i accepts it. */
function masksOf(positions: ReadonlyArray<readonly number[]>, size: number): Uint32Array {
	const masks = new Uint32Array(size);
	positions.forEach((ids, position) => {
		for (const id of ids) masks[id] = ((masks[id] as number) | (1 << position)) >>> 0;
	});
	return masks;
}

// Ids of one, two and three packed bytes, and ones whose last byte equals a one-byte id (5 and 5 + 128·k).
const ID_POOL = [0, 1, 5, 7, 127, 128, 133, 5 + 128 * 3, 300, 16_383, 16_384, 16_389, 40_000];

describe("phrases counted in packed bodies", () => {
	test("jumping between the first word's occurrences counts what reading every id counts", () => {
		fc.assert(
			fc.property(
				fc.array(fc.constantFrom(...ID_POOL), { maxLength: 60 }),
				fc.constantFrom(...ID_POOL),
				fc.array(fc.array(fc.constantFrom(...ID_POOL), { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 4 }),
				(body, first, rest) => {
					const positions = [[first], ...rest];
					const masks = masksOf(positions, 40_001);
					const packed = pack(body);
					expectEqual(countAnchoredPhrase(packed, packedAnchor(first), masks, positions.length), countPackedPhrase(packed, masks, positions.length));
				},
			),
			{ numRuns: 2_000 },
		);
	});

	test("a short phrase's read stopped after any work and resumed counts what one read counts, by anchors or id by id (a 4.4 MB note's was one piece of 77–79 ms)", () => {
		// Few ids, so the first word is often most of the body and the anchored read starts over id by id.
		const few = ID_POOL.slice(0, 6);
		fc.assert(
			fc.property(
				fc.array(fc.constantFrom(...few), { maxLength: 80 }),
				fc.array(fc.constantFrom(...few), { maxLength: 4 }),
				fc.constantFrom(...few),
				fc.array(fc.array(fc.constantFrom(...few), { minLength: 1, maxLength: 2 }), { minLength: 1, maxLength: 6 }),
				fc.integer({ min: 1, max: 40 }),
				fc.boolean(),
				(body, after, first, rest, budget, anchored) => {
					const positions = [[first], ...rest];
					const masks = masksOf(positions, 200);
					const end = pack(body).length;
					// Bytes past the body (a note's pair sketch) are not read.
					const packed = pack([...body, ...after]);
					const read = shortPhraseRead(anchored);
					let steps = 1;
					let work = 0;
					for (; !readShortPhrase(packed, packedAnchor(first), masks, positions.length, end, read, budget); steps++) {
						// Each step does its share of work, and no more than a phrase's ids past it.
						expect(read.work - work).toBeGreaterThanOrEqual(budget);
						expect(read.work - work).toBeLessThanOrEqual(budget + positions.length + 4);
						work = read.work;
					}
					expect(steps).toBeLessThanOrEqual(Math.ceil((3 * end + 1) / budget) + 1);
					expectEqual(read.count, countPackedPhrase(packed, masks, positions.length, end));
					expectEqual(read.count, countAnchoredPhrase(packed, packedAnchor(first), masks, positions.length, end));
				},
			),
			{ numRuns: 2_000 },
		);
	});

	test("an anchor byte inside a longer id is not a start, and overlapping occurrences all count", () => {
		// 5 + 128·3 packs as [0x85, 0x03]; 3 + 5·128 as [0x83, 0x05]: its last byte is 5's only byte.
		const masks = masksOf([[5], [7]], 1_000);
		expect(countAnchoredPhrase(pack([3 + 5 * 128, 7]), packedAnchor(5), masks, 2)).toBe(0);
		expect(countAnchoredPhrase(pack([3 + 5 * 128, 5, 7]), packedAnchor(5), masks, 2)).toBe(1);
		const repeated = masksOf([[5], [5]], 10);
		expect(countAnchoredPhrase(pack([5, 5, 5]), packedAnchor(5), repeated, 2)).toBe(2);
		expect(countAnchoredPhrase(pack([5]), packedAnchor(5), repeated, 2)).toBe(0);
	});
});

const VOCABULARY = 6;

/** A phrase compiled to one accepted id per position (what a quoted phrase of plain words becomes). */
function compile(words: readonly number[]): CompiledPhrase {
	return words.map((word) => acceptedIds([word], 1_000));
}

/** The shift-and masks of the same phrase: bit i set for the ids position i accepts. */
function masks(phrase: CompiledPhrase): Uint32Array {
	const result = new Uint32Array(VOCABULARY);
	phrase.forEach((accepted, position) => {
		for (let id = 0; id < VOCABULARY; id++) if (accepted.has(id)) result[id] = (result[id] as number) | (1 << position);
	});
	return result;
}

describe("phrases: words in a row", () => {
	test("a position's accepted ids answer alike as a set (few ids) or a table by id (many, a prefix's)", () => {
		fc.assert(
			fc.property(fc.uniqueArray(fc.nat(199)), fc.integer({ min: 200, max: 20_000 }), (ids, dictionarySize) => {
				const accepted = acceptedIds(ids, dictionarySize);
				for (let id = 0; id < 200; id++) expect(accepted.has(id)).toBe(ids.includes(id));
			}),
		);
	});

	test("counts each place the words stand in a row, overlapping ones included", () => {
		expect(countPhrase(Uint32Array.from([1, 2, 1, 2, 1, 2]), compile([1, 2]))).toBe(3);
		expect(countPhrase(Uint32Array.from([1, 1, 1]), compile([1, 1]))).toBe(2);
		expect(countPhrase(Uint32Array.from([1, 3, 2]), compile([1, 2]))).toBe(0);
		expect(countPhrase(Uint32Array.from([1]), compile([1, 2]))).toBe(0);
		expect(countPhrase(Uint32Array.from([1, 2]), [])).toBe(0);
	});

	test("counted in a range of the tokens, the same as over that range alone, never across its ends", () => {
		// A note's names unpacked one after another (unpackNames): a phrase counts within one name's run only.
		fc.assert(
			fc.property(
				fc.array(fc.integer({ min: 0, max: VOCABULARY - 1 }), { maxLength: 60 }),
				fc.array(fc.integer({ min: 0, max: VOCABULARY - 1 }), { minLength: 1, maxLength: 4 }),
				fc.nat(),
				fc.nat(),
				(tokens, words, start, end) => {
					const ids = Uint32Array.from(tokens);
					const from = start % (ids.length + 1);
					const to = from + (end % (ids.length - from + 1));
					const phrase = compile(words);
					expect(countPhrase(ids, phrase, from, to)).toBe(countPhrase(ids.slice(from, to), phrase));
				},
			),
		);
		expect(countPhrase(Uint32Array.from([1, 2, 1, 2]), compile([1, 2]), 1, 3)).toBe(0);
		expect(countPhrase(Uint32Array.from([1, 2, 1, 2]), compile([1, 2]), 2, 4)).toBe(1);
	});

	test(`read from the packed body in one pass (up to ${MAX_PHRASE_WORDS} words), the count is the same as over the token list`, () => {
		fc.assert(
			fc.property(
				fc.array(fc.integer({ min: 0, max: VOCABULARY - 1 }), { maxLength: 200 }),
				fc.array(fc.integer({ min: 0, max: VOCABULARY - 1 }), { minLength: 1, maxLength: 4 }),
				(body, words) => {
					const phrase = compile(words);
					expect(countPackedPhrase(pack(body), masks(phrase), phrase.length)).toBe(countPhrase(Uint32Array.from(body), phrase));
				},
			),
		);
	});

	test("a phrase of the longest length counted in one pass is found", () => {
		const words = Array.from({ length: MAX_PHRASE_WORDS }, (_, index) => index % VOCABULARY);
		const phrase = compile(words);
		expect(countPackedPhrase(pack([5, ...words, 5]), masks(phrase), phrase.length)).toBe(1);
	});

	test(`a phrase longer than ${MAX_PHRASE_WORDS} words, counted ${MAX_PHRASE_WORDS} positions a word of state, has the count of checking each start`, () => {
		// Two words, so long runs of the phrase (`a b a b …`) and overlapping matches are common.
		const chunkMasks = (phrase: CompiledPhrase) =>
			Array.from({ length: Math.ceil(phrase.length / MAX_PHRASE_WORDS) }, (_, chunk) =>
				masks(phrase.slice(chunk * MAX_PHRASE_WORDS, (chunk + 1) * MAX_PHRASE_WORDS)),
			);
		fc.assert(
			fc.property(
				fc.array(fc.integer({ min: 0, max: 1 }), { maxLength: 400 }),
				fc.array(fc.integer({ min: 0, max: 1 }), { minLength: 1, maxLength: 100 }),
				fc.integer({ min: 0, max: 12 }),
				(noise, words, repeats) => {
					const phrase = compile(words);
					const body = [...Array.from({ length: repeats }, () => words).flat(), ...noise, ...words];
					expect(countLongPackedPhrase(pack(body), chunkMasks(phrase), phrase.length)).toBe(countPhrase(Uint32Array.from(body), phrase));
				},
			),
		);
	});

	test("a long phrase's read stopped at any bytes and resumed has the count of one read (a 5 MB note's was one piece of 84 ms)", () => {
		fc.assert(
			fc.property(
				// Ids past 127 take two bytes: a stop may fall inside one, and the read ends the id first.
				fc.array(fc.constantFrom(1, 2, 300), { maxLength: 600 }),
				fc.array(fc.constantFrom(1, 2, 300), { minLength: 33, maxLength: 90 }),
				fc.integer({ min: 1, max: 50 }),
				(noise, words, share) => {
					const phrase = compile(words);
					const chunks = Array.from({ length: Math.ceil(words.length / MAX_PHRASE_WORDS) }, (_, chunk) =>
						masksOf(
							words.slice(chunk * MAX_PHRASE_WORDS, (chunk + 1) * MAX_PHRASE_WORDS).map((word) => [word]),
							301,
						),
					);
					const packed = pack([...words, ...noise, ...words, ...words]);
					const read = longPhraseRead(chunks.length);
					let reads = 0;
					while (!readLongPackedPhrase(packed, chunks, phrase.length, packed.length, read, read.index + share)) reads++;
					expect(reads).toBeGreaterThanOrEqual(Math.floor((packed.length - 1) / (share + 1)));
					expect(read.count).toBe(countLongPackedPhrase(packed, chunks, phrase.length));
					expect(read.count).toBe(countPhrase(Uint32Array.from([...words, ...noise, ...words, ...words]), phrase));
				},
			),
		);
	});
});
