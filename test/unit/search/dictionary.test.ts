import fc from "fast-check";
import { TermDictionary } from "../../../src/search/dictionary";
import { stemmerFor } from "../../../src/search/stemmers";

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
