import fc from "fast-check";
import { CandidateFinder, joinsPartialAnswer, phraseValueBound, type Gathered } from "../../../src/search/candidates";
import { SearchEngine } from "../../../src/search/engine";
import { PostingsIndex } from "../../../src/search/postings";
import { BODY_COUNT, emptyTerm, IN_HEADING, IN_TITLE, pairsBoundWhenResolved, tightenedBound, titleCount } from "../../../src/search/postingValues";
import { parseQuery } from "../../../src/search/query";

describe("which notes join a partial answer", () => {
	test("a note holding the minimum joins; one word fewer joins only when its title or an alias holds one", () => {
		expect(joinsPartialAnswer(3, 3, false)).toBe(true);
		expect(joinsPartialAnswer(2, 3, false)).toBe(false);
		expect(joinsPartialAnswer(2, 3, true)).toBe(true);
		expect(joinsPartialAnswer(1, 3, true)).toBe(false);
		expect(joinsPartialAnswer(0, 1, true)).toBe(false);
	});

	test("the note titled with one word of a five-word question is found, though it holds only two of the words", async () => {
		const engine = new SearchEngine();
		const texts = new Map<string, string>([
			["Rebuild.md", "Run the build steps again for every installed package on this machine."],
			["Config.md", "Rebuild native addons after upgrading: the config lists every option."],
			["Other.md", "Nothing about the question here at all."],
		]);
		engine.index.add("Rebuild.md", "rebuild", 1, texts.get("Rebuild.md") ?? "", []);
		engine.index.add("Config.md", "config", 1, texts.get("Config.md") ?? "", []);
		engine.index.add("Other.md", "other", 1, texts.get("Other.md") ?? "", []);
		const answer = await engine.search(parseQuery("rebuild native addons every machine"), null, 10, async (path) => texts.get(path) ?? "");
		expect(answer.results.map((hit) => [hit.path, hit.matched_words])).toContainEqual(["Rebuild.md", ["rebuild", "every", "machine"]]);
		const partial = await engine.search(parseQuery("rebuild native addons upgrading machine"), null, 10, async (path) => texts.get(path) ?? "");
		expect(partial.results.map((hit) => hit.path)).toEqual(["Config.md", "Rebuild.md"]);
	});
});

/** Runs one of the finder's stepped gatherings to its end; a copy, as the finder's scratch is reused. */
function gathered(steps: Generator<void, Gathered, void>, termCount: number): Array<[number, number[]]> {
	let next = steps.next();
	while (!next.done) next = steps.next();
	const { slots, values, total } = next.value;
	return Array.from({ length: total }, (_, row) => [slots[row] as number, Array.from(values.subarray(row * termCount, (row + 1) * termCount))]);
}

describe("notes named by some of the words, joined to the notes holding every word", () => {
	const VOCABULARY = ["alpha", "beta", "gamma", "delta", "omega"];
	const text = (maxLength: number) => fc.array(fc.constantFrom(...VOCABULARY), { maxLength }).map((list) => list.join(" "));

	test("they are exactly the notes a partial answer gathers that hold every word or have one in the title, with the same values, in slot order", () => {
		fc.assert(
			fc.property(
				fc.array(fc.record({ title: text(3), body: text(12) }), { minLength: 1, maxLength: 30 }),
				fc.uniqueArray(fc.constantFrom(...VOCABULARY), { minLength: 2, maxLength: 4 }),
				fc.option(fc.constantFrom(...VOCABULARY), { nil: undefined }),
				(notes, query, excludedWord) => {
					const index = new PostingsIndex(null);
					notes.forEach((note, at) => index.add(`${at}.md`, note.title, 1, note.body, []));
					const required = query.map((word) => index.resolve([word]) ?? emptyTerm());
					const excludedWords = excludedWord === undefined ? null : new Uint8Array(index.nextSlot);
					if (excludedWords) for (const slot of index.resolve([excludedWord ?? ""])?.slots ?? []) excludedWords[slot] = 1;
					const minimum = Math.max(1, Math.ceil(query.length / 2));
					const finder = new CandidateFinder(index);
					const all = (() => {
						const steps = finder.holdingAll(required, excludedWords, [], null);
						let next = steps.next();
						while (!next.done) next = steps.next();
						return next.value;
					})();
					const joined = gathered(finder.withNamedPartials(required, minimum, all, excludedWords, [], null), query.length);
					const expected = gathered(new CandidateFinder(index).holdingMost(required, minimum, excludedWords, [], null), query.length).filter(
						([, values]) => values.every((value) => value !== 0) || values.some((value) => (value & IN_TITLE) !== 0),
					);
					expect(joined).toEqual(expected);
				},
			),
		);
	});
});

// "blue" is also the start of "bluer": a phrase's last word is a prefix.
const WORDS = ["red", "green", "blue", "bluer"];
const words = (maxLength: number) => fc.array(fc.constantFrom(...WORDS), { maxLength }).map((list) => list.join(" "));

describe("a phrase's value bounded from its words' postings", () => {
	test("no field of the value a note's body and title give exceeds the bound, and a note the bound rules out holds no phrase", () => {
		fc.assert(
			fc.property(
				fc.array(fc.record({ title: words(4), heading: words(4), body: words(40) }), { minLength: 1, maxLength: 12 }),
				fc.array(fc.constantFrom(...WORDS), { minLength: 2, maxLength: 3 }),
				(notes, phrase) => {
					const index = new PostingsIndex(null);
					notes.forEach((note, at) => index.add(`${at}.md`, note.title, 1, note.body, [note.heading]));
					const term = index.resolve(phrase);
					if (!term) return;
					const cursors = new Array<number>(term.phraseWords?.length ?? 0).fill(0);
					for (let at = 0; at < term.length; at++) {
						const slot = term.slots[at] as number;
						const bound = phraseValueBound(term, cursors, slot);
						const value = index.matchValue(term, at, index.documents[slot]);
						if (bound === 0) expect(value).toBe(0);
						expect(value & BODY_COUNT).toBeLessThanOrEqual(bound & BODY_COUNT);
						expect(titleCount(value)).toBeLessThanOrEqual(titleCount(bound));
						for (const flag of [IN_TITLE, IN_HEADING]) if ((value & flag) !== 0) expect((bound & flag) !== 0).toBe(true);
					}
				},
			),
			{ numRuns: 500 },
		);
	});
});

describe("a phrase repeating a word", () => {
	test("is bounded by the word's count less its repeats, in the body and in the title: no note is ruled out that holds it, and a note with too few is", () => {
		fc.assert(
			fc.property(
				fc.array(fc.record({ title: words(6), body: words(40) }), { minLength: 1, maxLength: 12 }),
				fc.constantFrom(...WORDS),
				fc.integer({ min: 2, max: 8 }),
				(notes, word, repeats) => {
					const index = new PostingsIndex(null);
					notes.forEach((note, at) => index.add(`${at}.md`, note.title, 1, note.body, []));
					const phrase = new Array<string>(repeats).fill(word);
					const term = index.resolve(phrase);
					if (!term) return;
					const cursors = new Array<number>(term.phraseWords?.length ?? 0).fill(0);
					for (let at = 0; at < term.length; at++) {
						const slot = term.slots[at] as number;
						const words = phraseValueBound(term, cursors, slot);
						// The bound worked out while finding the notes: the same, tightened by the note's pair sketch for a phrase of several pairs (`blue blue blue*`).
						const pairs = term.phrasePairs ?? [];
						const bound = pairsBoundWhenResolved(pairs) ? tightenedBound(words, index.pairBoundAt(slot, pairs)) : words;
						expect(term.phraseBounds?.[at]).toBe(bound);
						const value = index.matchValue(term, at, index.documents[slot]);
						expect(value & BODY_COUNT).toBeLessThanOrEqual(bound & BODY_COUNT);
						expect(titleCount(value)).toBeLessThanOrEqual(titleCount(bound));
						// `word` as a whole word (not `bluer` for `blue`) at every position but the last.
						const held = (text: string | undefined) => (text ?? "").split(" ").filter((token) => token === word).length;
						if (held(notes[slot]?.body) < repeats - 1 && held(notes[slot]?.title) < repeats - 1) expect(bound).toBe(0);
					}
				},
			),
			{ numRuns: 300 },
		);
	});
});

describe("the notes holding every word of a phrase of three", () => {
	test("are gathered each with its own bound, no field below what its body and title give, and none holding the phrase is left out", () => {
		fc.assert(
			fc.property(
				fc.array(fc.record({ title: words(3), body: words(40) }), { minLength: 1, maxLength: 40 }),
				fc.array(fc.constantFrom(...WORDS), { minLength: 3, maxLength: 4 }),
				fc.boolean(),
				(notes, phrase, compacted) => {
					const index = new PostingsIndex(null);
					notes.forEach((note, at) => index.add(`${at}.md`, note.title, 1, note.body, []));
					if (compacted) index.compact();
					const term = index.resolve(phrase);
					if (!term) return;
					const steps = new CandidateFinder(index).holdingAll([term], null, [], null);
					let next = steps.next();
					while (!next.done) next = steps.next();
					const { slots, values, total } = next.value;
					const gathered = new Map(Array.from(slots.subarray(0, total), (slot, at) => [slot, values[at] as number]));
					for (let at = 0; at < term.length; at++) {
						const slot = term.slots[at] as number;
						const value = index.matchValue(term, at, index.documents[slot]);
						if (value === 0) continue;
						const bound = gathered.get(slot) ?? 0;
						expect(bound & BODY_COUNT).toBeGreaterThanOrEqual(value & BODY_COUNT);
						expect(titleCount(bound)).toBeGreaterThanOrEqual(titleCount(value));
					}
				},
			),
			{ numRuns: 300 },
		);
	});
});

describe("a phrase searched alone", () => {
	/** Every step of a gathering, then its notes and their values, copied out of the finder's scratch. */
	const drain = (steps: Generator<void, Gathered, void>) => {
		let next = steps.next();
		while (!next.done) next = steps.next();
		const { slots, values, total } = next.value;
		return { slots: Array.from(slots.subarray(0, total)), values: Array.from(values.subarray(0, total)) };
	};

	test("gathers the notes and bounds that intersecting its list note by note gives, through a folder or tag's notes and excluded words", () => {
		fc.assert(
			fc.property(
				fc.array(fc.record({ title: words(3), body: words(40), accepted: fc.boolean(), excluded: fc.boolean() }), { minLength: 1, maxLength: 40 }),
				fc.array(fc.constantFrom(...WORDS), { minLength: 2, maxLength: 4 }),
				fc.boolean(),
				fc.boolean(),
				fc.boolean(),
				(notes, phrase, compacted, filtered, excluding) => {
					const index = new PostingsIndex(null);
					notes.forEach((note, at) => index.add(`${at}.md`, note.title, 1, note.body, []));
					// Two words no note says in a row: as an excluded phrase it leaves every note in, but takes the gathering note by note.
					index.add("apart.md", "apart", 1, "never said together", []);
					if (compacted) index.compact();
					const term = index.resolve(phrase);
					const nowhere = index.resolve(["never", "together"]);
					if (!term || !nowhere) return;
					const accepted = filtered ? Uint8Array.from([...notes.map((note) => (note.accepted ? 1 : 0)), 1]) : null;
					const excludedWords = excluding ? Uint8Array.from([...notes.map((note) => (note.excluded ? 1 : 0)), 0]) : null;
					const alone = drain(new CandidateFinder(index).holdingAll([term], excludedWords, [], accepted));
					const noteByNote = drain(new CandidateFinder(index).holdingAll([term], excludedWords, [nowhere], accepted));
					expect(alone).toEqual(noteByNote);
				},
			),
			{ numRuns: 300 },
		);
	});
});

describe("the notes holding every word, searched without a phrase", () => {
	// Every note's row of values: one a term.
	const drain = (steps: Generator<void, Gathered, void>, termCount: number) => {
		let next = steps.next();
		while (!next.done) next = steps.next();
		const { slots, values, total } = next.value;
		return { slots: Array.from(slots.subarray(0, total)), values: Array.from(values.subarray(0, total * termCount)), total };
	};

	test("are the notes and values the general intersection gives (words in titles, headings only, folder or tag, excluded words, deleted notes)", () => {
		fc.assert(
			fc.property(
				fc.array(
					fc.record({ title: words(3), body: words(30), heading: words(3), accepted: fc.boolean(), excluded: fc.boolean(), deleted: fc.boolean() }),
					{
						minLength: 1,
						maxLength: 40,
					},
				),
				fc.uniqueArray(fc.constantFrom(...WORDS), { minLength: 2, maxLength: 4 }),
				fc.boolean(),
				fc.boolean(),
				fc.boolean(),
				(notes, query, compacted, filtered, excluding) => {
					const index = new PostingsIndex(null);
					notes.forEach((note, at) => index.add(`${at}.md`, note.title, 1, note.body, [note.heading]));
					// An excluded phrase no note says leaves every note in, but takes the general loop (phrases, exclusions).
					index.add("apart.md", "apart", 1, "never said together", []);
					// Some deleted before the search, after a compaction or not.
					if (compacted) index.compact();
					notes.forEach((note, at) => note.deleted && index.remove(`${at}.md`));
					const required = query.map((word) => index.resolve([word]) ?? emptyTerm());
					const nowhere = index.resolve(["never", "together"]);
					if (!nowhere) return;
					const accepted = filtered ? Uint8Array.from([...notes.map((note) => (note.accepted ? 1 : 0)), 1]) : null;
					const excludedWords = excluding ? Uint8Array.from([...notes.map((note) => (note.excluded ? 1 : 0)), 0]) : null;
					const wordsOnly = drain(new CandidateFinder(index).holdingAll(required, excludedWords, [], accepted), query.length);
					const general = drain(new CandidateFinder(index).holdingAll(required, excludedWords, [nowhere], accepted), query.length);
					expect(wordsOnly).toEqual(general);
				},
			),
			{ numRuns: 300 },
		);
	});
});
