import fc from "fast-check";
import { byLength, TermDictionary } from "../../../src/search/dictionary";
import { stemmerFor } from "../../../src/search/stemmers";
import { CHUNKED_ARRAY_CHUNK, DICTIONARY_FIRST_WORDS } from "../../../src/config/limits";
import { largestTableWhile } from "../../helpers/tableGrowth";
import { replaceMethod } from "../../helpers/replaceMethod";

describe("TermDictionary: words and their ids", () => {
	test("a word keeps its id; a new word gets the next one", () => {
		const dictionary = new TermDictionary(null);
		expect([dictionary.idOf("tomato"), dictionary.idOf("basil"), dictionary.idOf("tomato")]).toEqual([0, 1, 0]);
		expect(dictionary.size).toBe(2);
		expect(dictionary.lookup("basil")).toBe(1);
		expect(dictionary.lookup("garlic")).toBeUndefined();
	});

	test("withPrefix finds exactly the words that start with the prefix, words added after a lookup included", () => {
		fc.assert(
			fc.property(fc.uniqueArray(fc.stringMatching(/^[a-c]{1,4}$/), { maxLength: 30 }), fc.stringMatching(/^[a-c]{0,2}$/), (words, prefix) => {
				const dictionary = new TermDictionary(null);
				const half = Math.floor(words.length / 2);
				for (const word of words.slice(0, half)) dictionary.idOf(word);
				dictionary.withPrefix("a");
				for (const word of words.slice(half)) dictionary.idOf(word);
				const found = dictionary.withPrefix(prefix).sort((a, b) => a - b);
				const expected = words.flatMap((word, id) => (word.startsWith(prefix) ? [id] : []));
				expect(found).toEqual(expected);
			}),
		);
	});

	test("withPrefix stays exact across rounds of a few or many new words between lookups (inserted in place, or merged in)", () => {
		fc.assert(
			fc.property(
				fc.uniqueArray(fc.stringMatching(/^[a-e]{1,6}$/), { minLength: 600, maxLength: 1500 }),
				fc.array(fc.integer({ min: 1, max: 700 }), { minLength: 1, maxLength: 8 }),
				fc.stringMatching(/^[a-d]{0,2}$/),
				(words, batches, prefix) => {
					const dictionary = new TermDictionary(null);
					let added = 0;
					for (const size of batches) {
						for (const word of words.slice(added, added + size)) dictionary.idOf(word);
						added = Math.min(words.length, added + size);
						const found = dictionary.withPrefix(prefix).sort((a, b) => a - b);
						expect(found).toEqual(words.slice(0, added).flatMap((word, id) => (word.startsWith(prefix) ? [id] : [])));
					}
				},
			),
			{ numRuns: 40 },
		);
	});

	test("formsOf: the other forms of a word with the same stem, never the word itself; none without a stemmer or for short words", () => {
		const dictionary = new TermDictionary(stemmerFor("english"));
		const ids = Object.fromEntries(["meeting", "meetings", "meet", "meat", "met"].map((word) => [word, dictionary.idOf(word)]));
		expect(dictionary.formsOf("meeting").sort()).toEqual([ids.meetings, ids.meet].sort());
		expect(dictionary.formsOf("meeting")).not.toContain(ids.meeting);
		expect(dictionary.formsOf("me")).toEqual([]);
		dictionary.setStemmer(null);
		expect(dictionary.formsOf("meeting")).toEqual([]);
	});
});

describe("TermDictionary: the first words met", () => {
	test("in the order first met, at most the count asked for, across the map's chunks, whatever was sorted since", () => {
		const dictionary = new TermDictionary(null);
		const words = Array.from({ length: DICTIONARY_FIRST_WORDS + 10 }, (_, index) => `w${index}`);
		for (const word of ["tomato", "basil", "tomato", ...words]) dictionary.idOf(word);
		expect(dictionary.withPrefix("w1").length).toBeGreaterThan(0);
		expect(dictionary.firstTokens(3)).toEqual(["tomato", "basil", "w0"]);
		expect(dictionary.firstTokens(DICTIONARY_FIRST_WORDS + 100)).toEqual(["tomato", "basil", ...words]);
		expect(new TermDictionary(null).firstTokens(5)).toEqual([]);
	});
});

describe("TermDictionary: the sorted view is built in steps a search can pause between", () => {
	const words = (count: number, from = 0) => Array.from({ length: count }, (_, index) => `w${((from + index) * 7919) % 1_000_003}`);
	const prefixed = (all: readonly string[], prefix: string) => all.flatMap((word, id) => (word.startsWith(prefix) ? [id] : [])).sort((a, b) => a - b);

	test("the first sort of 40,000 words pauses between pieces, and words added meanwhile are found by the next lookup", () => {
		const dictionary = new TermDictionary(null);
		const first = words(40_000);
		for (const word of first) dictionary.idOf(word);
		const later = words(700, 40_000);
		const steps = dictionary.sortedViewSteps();
		let pauses = 0;
		while (steps.next().done !== true) {
			// New words arrive while the search waits: more than are inserted one by one.
			if (pauses++ === 2) for (const word of later) dictionary.idOf(word);
		}
		// Five runs of 8,192 sorted, then three rounds of merges, each a step per 8,192 words (the count is not a timing).
		expect(pauses).toBeGreaterThanOrEqual(10);
		const all = [...first, ...later];
		for (const prefix of ["w1", "w99", "w5"]) expect(dictionary.withPrefix(prefix).sort((a, b) => a - b)).toEqual(prefixed(all, prefix));
	});

	test("a lookup without pauses while a sort in steps is under way finishes it, and the view stays exact", () => {
		const dictionary = new TermDictionary(null);
		const first = words(20_000);
		for (const word of first) dictionary.idOf(word);
		const steps = dictionary.sortedViewSteps();
		steps.next();
		steps.next();
		expect(dictionary.withPrefix("w12").sort((a, b) => a - b)).toEqual(prefixed(first, "w12"));
		// The search that paused goes on: nothing left to do.
		expect(steps.next()).toEqual({ done: true, value: true });
		const later = words(2_000, 20_000);
		for (const word of later) dictionary.idOf(word);
		// 2,000 new words: merged in steps, not inserted one by one, and not a new sort of every word.
		let pauses = 0;
		for (const next = dictionary.sortedViewSteps(); next.next().done !== true;) pauses++;
		expect(pauses).toBeGreaterThanOrEqual(2);
		expect(pauses).toBeLessThan(6);
		expect(dictionary.withPrefix("w3").sort((a, b) => a - b)).toEqual(prefixed([...first, ...later], "w3"));
	});
});

describe("TermDictionary: a prefix's words are walked in steps a search can pause between", () => {
	/** The n-th made-up word starting `co`. */
	const word = (n: number) => `co${n.toString(36)}q`;

	test("30,000 words of one prefix are walked in several pieces, and found as in one piece, whatever is added during the pauses", () => {
		const dictionary = new TermDictionary(null);
		for (let n = 0; n < 30_000; n++) dictionary.idOf(word(n));
		dictionary.idOf("apple");
		dictionary.idOf("cz");
		const expected = dictionary.withPrefix("co").sort((a, b) => a - b);
		expect(expected).toHaveLength(30_000);
		const steps = dictionary.withPrefixSteps("co");
		let pauses = 0;
		let next = steps.next();
		for (; !next.done; next = steps.next()) {
			// A note of many new words arrives during a pause: the view is merged in steps, the walk goes on where it was.
			if (pauses++ === 1) for (let n = 0; n < 2_000; n++) dictionary.idOf(`zz${n}`);
		}
		expect(pauses).toBeGreaterThanOrEqual(3);
		expect(next.value.sort((a, b) => a - b)).toEqual(expected);
	});

	test("the ids to skip are left out, and the rest found", () => {
		const dictionary = new TermDictionary(null);
		const ids = ["cod", "code", "coffee", "cat"].map((text) => dictionary.idOf(text));
		expect(runAll(dictionary.withPrefixSteps("co", new Set([ids[1] as number]))).sort()).toEqual([ids[0], ids[2]].sort());
	});
});

describe("TermDictionary: a note of very many new words", () => {
	test("grows no Map past DICTIONARY_FIRST_WORDS (one Map of 550,000 words grew in a piece of 40–70 ms), and every word keeps its id and is found", () => {
		const WORDS = DICTIONARY_FIRST_WORDS + 40_000;
		const dictionary = new TermDictionary(null);
		dictionary.idOf("seed");
		// A search made the sorted view: new words wait beside it.
		expect(dictionary.withPrefix("se")).toEqual([0]);
		const word = (n: number) => `w${n.toString(36)}`;
		const { largest } = largestTableWhile(() => {
			for (let n = 0; n < WORDS; n++) dictionary.idOf(word(n));
		});
		expect(largest).toBeLessThan(DICTIONARY_FIRST_WORDS);
		expect(dictionary.size).toBe(WORDS + 1);
		for (let n = 0; n < WORDS; n++) if (dictionary.lookup(word(n)) !== n + 1) throw new Error(`${word(n)} lost its id`);
		expect(dictionary.idOf(word(WORDS - 1))).toBe(WORDS);
		expect(dictionary.lookup("wnot-a-word")).toBeUndefined();
		// The sorted view takes the waiting words in: a prefix over both chunks finds exactly its words.
		const prefix = "w2";
		const expected = Array.from({ length: WORDS }, (_, n) => n)
			.filter((n) => word(n).startsWith(prefix))
			.map((n) => n + 1);
		expect(runAll(dictionary.withPrefixSteps(prefix)).sort((a, b) => a - b)).toEqual(expected);
		expect(dictionary.withPrefix("se")).toEqual([0]);
	});
});

describe("TermDictionary: words added between two searches", () => {
	test("wait in no array grown past a chunk (one array of 330,000–540,000 waiting words grew in pieces of about 50 ms), and a search after finds each of them", () => {
		const WORDS = 60_000;
		const dictionary = new TermDictionary(null);
		dictionary.idOf("seed");
		// A search made the sorted view: new words wait beside it until the next search.
		expect(dictionary.withPrefix("se")).toEqual([0]);
		const word = (n: number) => `w${n.toString(36)}`;
		let longest = 0;
		const push = Object.getOwnPropertyDescriptor(Array.prototype, "push")?.value as (this: unknown[], ...values: unknown[]) => number;
		const pushing = replaceMethod(Array.prototype, "push", function (this: unknown[], ...values: unknown[]) {
			longest = Math.max(longest, this.length + values.length);
			return push.apply(this, values);
		});
		try {
			for (let n = 0; n < WORDS; n++) dictionary.idOf(word(n));
		} finally {
			pushing.restore();
		}
		expect(longest).toBeLessThanOrEqual(CHUNKED_ARRAY_CHUNK);
		// The next search merges them into the view in steps: every prefix finds exactly its words.
		for (const prefix of ["w", "w1", "wz", "s"]) {
			const expected = [0, ...Array.from({ length: WORDS }, (_, n) => n + 1)].filter((id) => (id === 0 ? "seed" : word(id - 1)).startsWith(prefix));
			expect(runAll(dictionary.withPrefixSteps(prefix)).sort((a, b) => a - b)).toEqual(expected);
		}
	});
});

function runAll<T>(steps: Generator<void, T, void>): T {
	for (;;) {
		const next = steps.next();
		if (next.done) return next.value;
	}
}

describe("byLength", () => {
	test("puts sorted words shortest first, alphabetical among the same length", () => {
		const words = ["co", "coa", "coaxial", "cob", "code", "coffee", "cog"].sort();
		expect(byLength(words)).toEqual(["co", "coa", "cob", "cog", "code", "coffee", "coaxial"]);
	});

	test("keeps every word once, none after a longer one, and the same length in their order", () => {
		fc.assert(
			fc.property(fc.uniqueArray(fc.string({ maxLength: 6 }), { maxLength: 40 }), (unsorted) => {
				const words = [...unsorted].sort();
				const ordered = byLength(words);
				expect([...ordered].sort()).toEqual(words);
				for (let at = 1; at < ordered.length; at++) expect((ordered[at] as string).length).toBeGreaterThanOrEqual((ordered[at - 1] as string).length);
				for (let length = 0; length <= 6; length++)
					expect(ordered.filter((word) => word.length === length)).toEqual(words.filter((word) => word.length === length));
			}),
		);
	});
});

describe("withPrefixSteps past its most", () => {
	test("takes the `most` shortest words `held` holds, passing over the ones it does not", () => {
		const dictionary = new TermDictionary(null);
		const ids = new Map(["co", "coa", "cob", "cog", "code", "coffee", "coaxial"].map((word) => [word, dictionary.idOf(word)]));
		const gone = new Set([ids.get("coa"), ids.get("cog")]);
		const held = { walked: 0, holds: (id: number) => !gone.has(id) };
		const taken = runAll(dictionary.withPrefixSteps("co", new Set([ids.get("co") as number]), 3, held));
		expect(taken).toEqual(["cob", "code", "coffee"].map((word) => ids.get(word)));
		expect(runAll(dictionary.withPrefixSteps("co", undefined, 3))).toEqual(["co", "coa", "cob"].map((word) => ids.get(word)));
	});

	test("looks up the held words in pieces of their own: not with the walk and sort before, nor with the caller's lists after", () => {
		const dictionary = new TermDictionary(null);
		// Fewer words than a walk's step: lead11 walked, sorted, looked up and returned them in one piece (a phrase's last
		// word `b1` of 48,000 words, cut to 4,096, then took its first lists in the same piece: 82–99 ms).
		for (let n = 0; n < 600; n++) dictionary.idOf(`co${n.toString(36)}`);
		let looked = 0;
		const held = { walked: 0, holds: () => ++looked > 0 };
		const steps = dictionary.withPrefixSteps("co", undefined, 100, held);
		const lookedAtPauses: number[] = [];
		let next = steps.next();
		for (; !next.done; next = steps.next()) lookedAtPauses.push(looked);
		expect(next.value).toHaveLength(100);
		// A pause before the first look up and one after the last.
		expect(lookedAtPauses[0]).toBe(0);
		expect(lookedAtPauses.at(-1)).toBe(looked);
		expect(looked).toBe(101);
	});
});
