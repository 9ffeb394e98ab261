import { PackedIdWriter } from "../../../src/search/packedIds";
import { NO_TERM, passageEvidence, proximityScratch, type ProximityTerms } from "../../../src/search/proximity";

/** A body of words packed as the index keeps it, each word's id its place in `vocabulary`. */
function packed(words: readonly string[], vocabulary: string[]): { bytes: Uint8Array; length: number } {
	const writer = new PackedIdWriter(words.length);
	for (const word of words) {
		if (!vocabulary.includes(word)) vocabulary.push(word);
		writer.write(vocabulary.indexOf(word));
	}
	return { bytes: writer.finish(), length: writer.byteLength };
}

/** Terms for query words (each its own term, idf as given); `related` words count for the term at their index at half weight. */
function termsOf(vocabulary: string[], words: Record<string, number>, related: Record<string, number> = {}): ProximityTerms {
	const names = Object.keys(words);
	const codeOf = (word: string): number => {
		if (names.includes(word)) return names.indexOf(word) * 2;
		if (word in related) return (related[word] as number) * 2 + 1;
		return NO_TERM;
	};
	return {
		codes: Int32Array.from(vocabulary, (word) => codeOf(word) + 1),
		idf: Float64Array.from(Object.values(words)),
		relatedWeight: 0.5,
	};
}

const filler = (count: number) => Array.from({ length: count }, () => "filler");

function evidence(
	words: readonly string[],
	query: Record<string, number>,
	options: { window?: number; maxTokens?: number; named?: number[]; related?: Record<string, number>; sections?: number[] } = {},
) {
	const vocabulary: string[] = [];
	const body = packed(words, vocabulary);
	const terms = termsOf(vocabulary, query, options.related);
	const named = new Uint8Array(terms.idf.length);
	for (const term of options.named ?? []) named[term] = 1;
	const scratch = proximityScratch(options.window ?? 10, terms.idf.length);
	passageEvidence(
		body.bytes,
		body.length,
		options.maxTokens ?? 1_000,
		options.window ?? 10,
		terms,
		named,
		scratch,
		options.sections ? Uint32Array.from(options.sections) : null,
	);
	return { held: scratch.heldIdf, passage: scratch.passageIdf, ...(options.sections ? { section: scratch.sectionIdf } : {}) };
}

describe("passageEvidence: the most idf one passage of a body holds, against what the body holds", () => {
	test("words said together are one passage; the same words pages apart are not", () => {
		const query = { retry: 2, failed: 1, step: 3 };
		expect(evidence(["retry", "a", "failed", "step", ...filler(50)], query)).toEqual({ held: 6, passage: 6 });
		// Each word 30 tokens from the next: the best passage holds the rarest word alone.
		expect(evidence(["retry", ...filler(30), "failed", ...filler(30), "step"], query)).toEqual({ held: 6, passage: 3 });
		// Two of the three close together.
		expect(evidence(["retry", ...filler(30), "failed", ...filler(5), "step"], query)).toEqual({ held: 6, passage: 4 });
	});

	test("a word leaves the passage once the window slides past it, however often it came before", () => {
		const query = { alpha: 1, beta: 1 };
		expect(evidence(["alpha", "alpha", "alpha", ...filler(9), "beta"], query, { window: 10 })).toEqual({ held: 2, passage: 1 });
		expect(evidence(["alpha", "alpha", "alpha", ...filler(6), "beta"], query, { window: 10 })).toEqual({ held: 2, passage: 2 });
	});

	test("a word of the title or an alias is near every word of the body", () => {
		const query = { retry: 2, failed: 1, step: 3 };
		expect(evidence(["retry", ...filler(30), "failed", ...filler(30), "step"], query, { named: [0] })).toEqual({ held: 6, passage: 5 });
		// Named and nowhere in the body: still held.
		expect(evidence([...filler(30), "step"], query, { named: [0, 1] })).toEqual({ held: 6, passage: 6 });
	});

	test("a word meaning the same counts at its weight, the word itself in full", () => {
		const query = { forbid: 2, exports: 2 };
		expect(evidence(["prohibit", "default", "exports"], query, { related: { prohibit: 0 } })).toEqual({ held: 3, passage: 3 });
		expect(evidence(["prohibit", "forbid", "exports"], query, { related: { prohibit: 0 } })).toEqual({ held: 4, passage: 4 });
	});

	test("only the first maxTokens tokens of a body are read: a huge note costs what a long one does", () => {
		const query = { alpha: 1, beta: 1 };
		expect(evidence([...filler(100), "alpha", "beta"], query, { maxTokens: 50 })).toEqual({ held: 0, passage: 0 });
		expect(evidence(["alpha", ...filler(100), "alpha", "beta"], query, { maxTokens: 50 })).toEqual({ held: 1, passage: 1 });
	});
});

describe("passageEvidence's sections: the most idf one section of a body holds", () => {
	const query = { retry: 2, failed: 1, step: 3 };
	const body = ["retry", ...filler(30), "failed", ...filler(30), "step", ...filler(10)];

	test("words far apart in one section are in it together; a section's start leaves the words before it out", () => {
		expect(evidence(body, query, { sections: [] })).toEqual({ held: 6, passage: 3, section: 6 });
		// `step` (token 62) in a section of its own.
		expect(evidence(body, query, { sections: [50] })).toEqual({ held: 6, passage: 3, section: 3 });
		// Each word in a section of its own, and an empty section.
		expect(evidence(body, query, { sections: [20, 21, 50] })).toEqual({ held: 6, passage: 3, section: 3 });
		expect(evidence(body, { retry: 2, failed: 1 }, { sections: [20] })).toEqual({ held: 3, passage: 2, section: 2 });
	});

	test("a word of the title or an alias is in every section", () => {
		expect(evidence(body, query, { sections: [20, 50], named: [1] })).toEqual({ held: 6, passage: 4, section: 4 });
	});

	test("a word meaning the same counts at its weight in its section, even beside the word itself in the section before", () => {
		const query = { forbid: 2, exports: 2 };
		const words = ["forbid", ...filler(3), "prohibit", "exports"];
		// One passage holds `forbid` and `exports`; the second section holds `exports` and only the word meaning the same.
		expect(evidence(words, query, { related: { prohibit: 0 } })).toEqual({ held: 4, passage: 4 });
		expect(evidence(words, query, { related: { prohibit: 0 }, sections: [4] })).toEqual({ held: 4, passage: 4, section: 3 });
	});
});
