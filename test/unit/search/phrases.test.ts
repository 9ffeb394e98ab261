import fc from "fast-check";
import { PackedIdWriter } from "../../../src/search/packedIds";
import { countPackedPhrase, countPhrase, MAX_PHRASE_WORDS, type CompiledPhrase } from "../../../src/search/phrases";

const VOCABULARY = 6;

/** A phrase compiled to one accepted id per position (what a quoted phrase of plain words becomes). */
function compile(words: readonly number[]): CompiledPhrase {
	return words.map((word) => {
		const table = new Uint8Array(VOCABULARY);
		table[word] = 1;
		return table;
	});
}

/** The shift-and masks of the same phrase: bit i set for the ids position i accepts. */
function masks(phrase: CompiledPhrase): Uint32Array {
	const result = new Uint32Array(VOCABULARY);
	phrase.forEach((table, position) => table.forEach((accepted, id) => (result[id] = (result[id] ?? 0) | (accepted << position))));
	return result;
}

function pack(ids: readonly number[]): Uint8Array {
	const writer = new PackedIdWriter(ids.length);
	for (const id of ids) writer.write(id);
	return writer.finish();
}

describe("phrases: words in a row", () => {
	test("counts each place the words stand in a row, overlapping ones included", () => {
		expect(countPhrase(Uint32Array.from([1, 2, 1, 2, 1, 2]), compile([1, 2]))).toBe(3);
		expect(countPhrase(Uint32Array.from([1, 1, 1]), compile([1, 1]))).toBe(2);
		expect(countPhrase(Uint32Array.from([1, 3, 2]), compile([1, 2]))).toBe(0);
		expect(countPhrase(Uint32Array.from([1]), compile([1, 2]))).toBe(0);
		expect(countPhrase(Uint32Array.from([1, 2]), [])).toBe(0);
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
});
