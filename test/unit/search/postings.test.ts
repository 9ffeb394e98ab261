import fc from "fast-check";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import {
	ACCEPTED_PATCH_SLOTS,
	COMMIT_STEP_POSTINGS,
	EXCLUDED_SEARCH_MAX_WORDS,
	PREFIX_MAX_WORDS,
	PREFIX_WALK_STEP_WORDS,
	WORD_UNION_MEMO_WORDS,
} from "../../../src/config/limits";
import { BODY_COUNT, IN_HEADING, IN_TITLE, type FormLists, type ResolvedTerm } from "../../../src/search/postingValues";
import { runSteps, unionScratch, unionSteps } from "../../../src/search/unions";
import { PackedIdWriter } from "../../../src/search/packedIds";
import { phrasePairBound, PostingsIndex, TooManyWordsExcluded } from "../../../src/search/postings";
import { DEFAULT_SEARCH_LANGUAGE, stemmerFor } from "../../../src/search/stemmers";
import { tokenize } from "../../../src/search/text";
import { SearchEngine } from "../../../src/search/engine";
import { parseQuery } from "../../../src/search/query";

/**
 * The inverted index through what the search engine asks of it: which notes a word, a prefix, a
 * word's other forms or a phrase's words find, as notes are added, replaced and removed. Notes are
 * named through `acceptedSlots` (the index's own answer to "which slots are these paths"), never
 * through how the index stores its documents.
 */

const stem = stemmerFor(DEFAULT_SEARCH_LANGUAGE);

/** Runs a stepped computation of the index to its end. */
function run<T>(steps: Generator<void, T, void>): T {
	for (;;) {
		const next = steps.next();
		if (next.done) return next.value;
	}
}

/** The slot a path holds now, or -1. */
function slotOf(index: PostingsIndex, path: string): number {
	return run(index.acceptedSlots((candidate) => candidate === path)).slots.indexOf(1);
}

/** The paths (among `paths`) a term finds: those whose postings entry is a match (a heading alone ranks, it does not find). */
/** A word's other forms (each its own list) as one term, to ask which notes they find. */
function formsOf(index: PostingsIndex, forms: FormLists | null): ResolvedTerm | null {
	return forms && runSteps(unionSteps(forms.lists, index.nextSlot, unionScratch()));
}

function found(index: PostingsIndex, term: ResolvedTerm | null, paths: readonly string[]): string[] {
	if (term === null) return [];
	const bySlot = new Map(paths.map((path) => [slotOf(index, path), path]));
	const result: string[] = [];
	for (let at = 0; at < term.length; at++) {
		const path = bySlot.get(term.slots[at] as number);
		if (path !== undefined && index.matchValue(term, at, undefined) !== 0) result.push(path);
	}
	return result.sort();
}

/** The paths among `paths` holding the term at all (its postings, headings included). */
function listed(index: PostingsIndex, term: ResolvedTerm | null, paths: readonly string[]): string[] {
	if (term === null) return [];
	const slots = new Set(term.slots.subarray(0, term.length));
	return paths.filter((path) => slots.has(slotOf(index, path))).sort();
}

/** The packed value of a term in one note (0 when the note does not hold it). */
function valueIn(index: PostingsIndex, term: ResolvedTerm | null, path: string): number {
	if (term === null) return 0;
	const slot = slotOf(index, path);
	for (let at = 0; at < term.length; at++) if (term.slots[at] === slot) return term.values[at] as number;
	return 0;
}

const PATHS = ["Garden.md", "Kitchen.md", "Projects/Roadmap.md", "Travel.md"];

function gardenIndex(): PostingsIndex {
	const index = new PostingsIndex(stem);
	index.add("Garden.md", "Garden plan", 1, "Tomatoes need sun. Tomatoes need water. Plant basil beside them.", ["Watering"]);
	index.add("Kitchen.md", "Kitchen", 2, "Basil pesto recipe: basil, garlic, pine nuts.", ["Recipes"], ["Cookbook"]);
	index.add("Projects/Roadmap.md", "Roadmap", 3, "Ship the search index by spring.", ["Milestones", "Watering the garden"]);
	index.add("Travel.md", "Travel", 4, "Running shoes, a water bottle and a map.", []);
	return index;
}

describe("PostingsIndex: notes in, answers out", () => {
	test("a word finds the notes holding it in the body or the title; a heading alone ranks but does not find", () => {
		const index = gardenIndex();
		expect(index.size).toBe(4);
		expect(PATHS.every((path) => index.has(path))).toBe(true);
		expect(found(index, index.resolve(["basil"]), PATHS)).toEqual(["Garden.md", "Kitchen.md"]);
		expect(found(index, index.resolve(["kitchen"]), PATHS)).toEqual(["Kitchen.md"]);
		// "watering" is a heading in two notes and in no body or title.
		const watering = index.resolveWhole(["watering"]);
		expect(listed(index, watering, PATHS)).toEqual(["Garden.md", "Projects/Roadmap.md"]);
		expect(found(index, watering, PATHS)).toEqual([]);
		expect(valueIn(index, watering, "Garden.md") & IN_HEADING).not.toBe(0);
		// A folder's words count as the note's headings: they rank, they do not find.
		expect(found(index, index.resolveWhole(["projects"]), PATHS)).toEqual([]);
		expect(listed(index, index.resolveWhole(["projects"]), PATHS)).toEqual(["Projects/Roadmap.md"]);
		expect(index.resolve(["nowhere"])).toBeNull();
	});

	test("a note's value for a word counts its body occurrences and marks a title word", () => {
		const index = gardenIndex();
		const tomatoes = index.resolve(["tomatoes"]);
		expect(valueIn(index, tomatoes, "Garden.md") & BODY_COUNT).toBe(2);
		expect(valueIn(index, index.resolve(["basil"]), "Garden.md") & IN_TITLE).toBe(0);
		// "plan" is a title word only ("Plant" in the body is another word).
		expect(valueIn(index, index.resolveWhole(["plan"]), "Garden.md") & IN_TITLE).not.toBe(0);
		expect(valueIn(index, index.resolveWhole(["plan"]), "Garden.md") & BODY_COUNT).toBe(0);
		// An alias finds and ranks like the title.
		expect(found(index, index.resolve(["cookbook"]), PATHS)).toEqual(["Kitchen.md"]);
		expect(valueIn(index, index.resolve(["cookbook"]), "Kitchen.md") & IN_TITLE).not.toBe(0);
	});

	test("the last word of a term of two letters or more also finds the longer words it starts; a whole-word lookup does not", () => {
		const index = gardenIndex();
		expect(found(index, index.resolve(["wat"]), PATHS)).toEqual(["Garden.md", "Travel.md"]);
		expect(found(index, index.resolveWhole(["wat"]), PATHS)).toEqual([]);
		expect(found(index, index.resolve(["w"]), PATHS)).toEqual([]);
	});

	test("evidence tells a word as typed from its other forms and from longer words it starts", () => {
		const index = new PostingsIndex(stem);
		index.add("a.md", "A", 1, "I was running late.", []);
		index.add("b.md", "B", 1, "She runs every day.", []);
		index.add("c.md", "C", 1, "A runningboard on the old car.", []);
		index.add("d.md", "D", 1, "Nothing here.", []);
		const paths = ["a.md", "b.md", "c.md", "d.md"];
		const evidence = index.resolveEvidence(["running"], stem);
		expect(found(index, evidence.exact, paths)).toEqual(["a.md"]);
		expect(found(index, formsOf(index, evidence.forms), paths)).toEqual(["b.md"]);
		expect(found(index, evidence.any, paths)).toEqual(["a.md", "b.md", "c.md"]);
		// Without a stemmer, words match as typed and as prefixes only.
		const plain = index.resolveEvidence(["running"], null);
		expect(plain.forms).toBeNull();
		expect(found(index, plain.any, paths)).toEqual(["a.md", "c.md"]);
	});

	test("a phrase's candidates are the notes holding every one of its words, in any order", () => {
		const index = gardenIndex();
		index.add("Reversed.md", "Reversed", 5, "Water the plants, then the tomatoes need nothing.", []);
		const phrase = index.resolve(["tomatoes", "need"]);
		expect(phrase?.phrase).not.toBeNull();
		expect(listed(index, phrase, [...PATHS, "Reversed.md"])).toEqual(["Garden.md", "Reversed.md"]);
		expect(index.resolve(["tomatoes", "nowhere"])).toBeNull();
	});

	test("notesHoldingAny marks the notes an exclusion removes: a word or a prefix in the body or title, not a heading", () => {
		const index = gardenIndex();
		const marks = index.notesHoldingAny(["pesto", "ship"]);
		expect(PATHS.filter((path) => marks?.[slotOf(index, path)] === 1)).toEqual(["Kitchen.md", "Projects/Roadmap.md"]);
		const headingOnly = index.notesHoldingAny(["milestones"]);
		expect(PATHS.filter((path) => headingOnly?.[slotOf(index, path)] === 1)).toEqual([]);
		expect(index.notesHoldingAny([])).toBeNull();
	});

	test("replacing a note: its old words no longer find it, its new ones do, and searches that paused are told", () => {
		const index = gardenIndex();
		const before = index.generation;
		index.add("Kitchen.md", "Kitchen", 9, "Bread and butter.", []);
		expect(index.size).toBe(4);
		expect(found(index, index.resolve(["basil"]), PATHS)).toEqual(["Garden.md"]);
		expect(found(index, index.resolve(["bread"]), PATHS)).toEqual(["Kitchen.md"]);
		expect(index.resolve(["cookbook"]) === null || found(index, index.resolve(["cookbook"]), PATHS).length === 0).toBe(true);
		expect(index.generation).toBeGreaterThan(before);
	});

	test("removing a note: nothing finds it, the totals drop; removing an unknown path changes nothing", () => {
		const index = gardenIndex();
		const totalBefore = index.totalBodyLength;
		const before = index.generation;
		index.remove("Garden.md");
		expect(index.has("Garden.md")).toBe(false);
		expect(index.size).toBe(3);
		expect(found(index, index.resolve(["basil"]), PATHS)).toEqual(["Kitchen.md"]);
		expect(index.resolve(["tomatoes"])?.length ?? 0).toBe(0);
		expect(index.totalBodyLength).toBeLessThan(totalBefore);
		expect(index.generation).toBeGreaterThan(before);
		const after = index.generation;
		index.remove("Missing.md");
		expect(index.generation).toBe(after);
		expect(index.size).toBe(3);
	});

	test("a new note does not disturb a paused search: the generation stays, and the notes it started with keep their slots", () => {
		const index = gardenIndex();
		const before = index.generation;
		const slots = PATHS.map((path) => slotOf(index, path));
		index.add("New.md", "New", 6, "Fresh basil.", []);
		expect(index.generation).toBe(before);
		expect(PATHS.map((path) => slotOf(index, path))).toEqual(slots);
		expect(found(index, index.resolve(["basil"]), [...PATHS, "New.md"])).toEqual(["Garden.md", "Kitchen.md", "New.md"]);
	});

	test("a prepared note changes nothing until it is committed, so searches meanwhile see the old version", () => {
		const index = gardenIndex();
		const prepared = run(index.prepare("Garden.md", "Garden plan", 7, "Only roses now.", []));
		expect(found(index, index.resolve(["tomatoes"]), PATHS)).toEqual(["Garden.md"]);
		expect(found(index, index.resolve(["roses"]), PATHS)).toEqual([]);
		index.commit(prepared);
		expect(found(index, index.resolve(["tomatoes"]), PATHS)).toEqual([]);
		expect(found(index, index.resolve(["roses"]), PATHS)).toEqual(["Garden.md"]);
	});

	test("a filter naming its notes is asked about those only; a keyed one is answered again only while the index is unchanged", () => {
		const index = gardenIndex();
		const asked: string[] = [];
		const include = (path: string) => (asked.push(path), path !== "Kitchen.md");
		const named = run(index.acceptedSlots({ among: () => ["Kitchen.md", "Travel.md", "Travel.md", "Gone.md"], include }));
		expect(asked.sort()).toEqual(["Kitchen.md", "Travel.md"]);
		expect([named.count, named.totalLength]).toEqual([1, 8]);
		asked.length = 0;
		const keyed = { include, key: "not kitchen" };
		const first = run(index.acceptedSlots(keyed));
		expect(first.count).toBe(3);
		expect(asked).toHaveLength(4);
		expect(run(index.acceptedSlots(keyed))).toBe(first);
		expect(asked).toHaveLength(4);
		index.add("After.md", "After", 8, "Basil again.", []);
		expect(run(index.acceptedSlots(keyed)).count).toBe(4);
		index.remove("Travel.md");
		expect(run(index.acceptedSlots(keyed)).count).toBe(3);
		expect(slotOf(index, "Travel.md")).toBe(-1);
	});

	test("a kept filter answer brought up to date after random changes is the one worked out afresh, for each key", () => {
		const paths = ["A/one.md", "A/two.md", "B/one.md", "B/deep/two.md", "C.md", "A/three.md"];
		const tags = ["t", "t/x", "u", "T/y"];
		const change = fc.oneof(
			fc.record({
				kind: fc.constant("add" as const),
				path: fc.constantFrom(...paths),
				words: fc.integer({ min: 0, max: 6 }),
				tag: fc.constantFrom(null, ...tags),
			}),
			fc.record({ kind: fc.constant("remove" as const), path: fc.constantFrom(...paths) }),
			fc.record({ kind: fc.constant("retag" as const), path: fc.constantFrom(...paths), tag: fc.constantFrom(null, ...tags) }),
			fc.record({ kind: fc.constant("compact" as const) }),
			// Asked often, by six keys (more than are kept), so a kept answer is often asked again after changes.
			{
				arbitrary: fc.record({ kind: fc.constant("ask" as const), folder: fc.constantFrom(null, "A"), tag: fc.constantFrom(null, "t", "t/x") }),
				weight: 4,
			},
		);
		fc.assert(
			fc.property(fc.array(change, { minLength: 20, maxLength: 60 }), (changes) => {
				const index = new PostingsIndex(stem);
				const tagOf = new Map<string, string | null>();
				const carries = (path: string, tag: string) => {
					const own = tagOf.get(path)?.toLowerCase();
					return own !== undefined && (own === tag || own.startsWith(`${tag}/`));
				};
				const filterOf = (folder: string | null, tag: string | null) => {
					const include = (path: string) => folder === null || path.startsWith(`${folder}/`);
					const accepts = (path: string) => include(path) && (tag === null || carries(path, tag));
					const among = tag === null ? undefined : () => [...tagOf.keys()].filter((path) => carries(path, tag));
					return { include: among ? include : accepts, accepts, among, key: JSON.stringify([folder, tag]) };
				};
				for (const step of changes) {
					if (step.kind === "add") {
						index.add(step.path, step.path, 1, "word ".repeat(step.words), []);
						tagOf.set(step.path, step.tag);
					} else if (step.kind === "remove") {
						index.remove(step.path);
						tagOf.delete(step.path);
					} else if (step.kind === "retag") {
						if (!tagOf.has(step.path)) continue;
						tagOf.set(step.path, step.tag);
						index.recheck(step.path);
					} else if (step.kind === "compact") {
						index.compact();
					} else {
						const { key, ...fresh } = filterOf(step.folder, step.tag);
						const kept = run(index.acceptedSlots({ ...fresh, key }));
						const anew = run(index.acceptedSlots(fresh));
						expect([Buffer.from(kept.slots).toString("hex"), kept.count, kept.totalLength]).toEqual([
							Buffer.from(anew.slots).toString("hex"),
							anew.count,
							anew.totalLength,
						]);
					}
				}
			}),
			{ numRuns: 100 },
		);
	});

	test("a kept filter answer is brought up to date by asking about the changed notes alone, and worked out again past ACCEPTED_PATCH_SLOTS changes", () => {
		const index = new PostingsIndex(stem);
		for (let note = 0; note < 500; note++) index.add(`n${note}.md`, `n${note}`, 1, "plan", []);
		const asked: string[] = [];
		const accepts = (path: string) => (asked.push(path), path !== "n3.md");
		const keyed = { among: () => index.slotOfPath.keys(), include: accepts, accepts, key: "k" };
		expect(run(index.acceptedSlots(keyed)).count).toBe(499);
		expect(asked).toHaveLength(500);
		asked.length = 0;
		index.add("n7.md", "n7", 2, "plan again", []);
		index.remove("n8.md");
		const patched = run(index.acceptedSlots(keyed));
		expect([patched.count, patched.totalLength]).toEqual([498, 499]);
		expect(asked).toEqual(["n7.md"]);
		asked.length = 0;
		for (let change = 0; change <= ACCEPTED_PATCH_SLOTS; change++) index.add("n9.md", "n9", 3, "plan", []);
		expect(run(index.acceptedSlots(keyed)).count).toBe(498);
		expect(asked).toHaveLength(499);
	});

	test("acceptedSlots counts the notes a filter accepts and their body length; compact changes no answer", () => {
		const index = gardenIndex();
		const all = run(index.acceptedSlots(() => true));
		expect(all.count).toBe(4);
		expect(all.totalLength).toBe(index.totalBodyLength);
		const one = run(index.acceptedSlots((path) => path === "Travel.md"));
		expect(one.count).toBe(1);
		// "Running shoes, a water bottle and a map." is eight words.
		expect(one.totalLength).toBe(8);
		const answers = () => ["basil", "wat", "pesto", "running"].map((word) => found(index, index.resolve([word]), PATHS));
		const before = answers();
		index.compact();
		expect(answers()).toEqual(before);
		index.add("After.md", "After", 8, "Basil again.", []);
		expect(found(index, index.resolve(["basil"]), [...PATHS, "After.md"])).toEqual(["After.md", "Garden.md", "Kitchen.md"]);
	});

	test("compact pauses by postings moved too: a few words held by many notes are not moved in one piece", () => {
		// The end of a build of 20,000 notes: the common words come first, and their lists were moved in one step of 50–90 ms.
		const NOTES = 6_000;
		const common = Array.from({ length: 30 }, (_, index) => `common${index}`).join(" ");
		const index = new PostingsIndex(stem);
		for (let note = 0; note < NOTES; note++) index.add(`N${note}.md`, `N${note}`, 1, common, []);
		const before = found(index, index.resolve(["common7"]), ["N0.md", `N${NOTES - 1}.md`, "Missing.md"]);
		const steps = index.compactSteps();
		let pauses = 0;
		for (let next = steps.next(); !next.done; next = steps.next()) pauses++;
		// 30 terms, 6,000 notes each: 360,000 slots. Before: 3 pauses (6 at 12,000 notes), none while the lists were moved.
		expect(pauses).toBeGreaterThanOrEqual((30 * NOTES * 2) / 65_536);
		expect(found(index, index.resolve(["common7"]), ["N0.md", `N${NOTES - 1}.md`, "Missing.md"])).toEqual(before);
		expect(before).toEqual(["N0.md", `N${NOTES - 1}.md`]);
	});

	test("compact pauses by the notes' words copied too: a few long notes are not copied in one piece", () => {
		// The end of a build of a 150 MB vault: every note's packed words (tens of MB) were copied in one step of 130–215 ms.
		// About 1 MB of packed words in all, three times the most a step may copy below: copied in one step, they fail it.
		const NOTES = 12;
		const last = `N${NOTES - 1}.md`;
		const body = (note: number) => Array.from({ length: 20_000 }, (_, word) => `n${note}w${word % 5_000}`).join(" ");
		const index = new PostingsIndex(stem);
		for (let note = 0; note < NOTES; note++) index.add(`N${note}.md`, `N${note}`, 1, body(note), []);
		const answers = () => ["n0w0", `n${NOTES - 1}w4999`, "n7w123"].map((word) => found(index, index.resolve([word]), ["N0.md", "N7.md", last]));
		const before = answers();
		const typedArraySet = Object.getPrototypeOf(Uint8Array.prototype) as { set: (this: Uint8Array, source: ArrayLike<number>, offset?: number) => void };
		const copy = typedArraySet.set;
		const perStep = [0];
		const copied = jest.spyOn(typedArraySet, "set").mockImplementation(function (this: Uint8Array, source, offset) {
			if (this instanceof Uint8Array) perStep[perStep.length - 1] = (perStep.at(-1) ?? 0) + source.length;
			copy.call(this, source, offset);
		});
		try {
			const steps = index.compactSteps();
			for (let next = steps.next(); !next.done; next = steps.next()) perStep.push(0);
		} finally {
			copied.mockRestore();
		}
		const noteBytes = Math.max(...index.documents.map((doc) => doc?.packed.length ?? 0));
		const total = perStep.reduce((sum, bytes) => sum + bytes, 0);
		// Notes of 20,000 words: about 80 KB each. Before: all of them copied in one step.
		expect(total).toBeGreaterThanOrEqual(NOTES * noteBytes * 0.9);
		expect(Math.max(...perStep)).toBeLessThanOrEqual(65_536 * 4 + noteBytes);
		expect(answers()).toEqual(before);
		expect(before).toEqual([["N0.md"], [last], ["N7.md"]]);
	});

	test("compact pauses between slices of terms and notes, and a note added or removed between its steps leaves the index as it was", () => {
		// One piece moved every list: 0.4 s at the end of a build that took in a note of 35,000 new words.
		const words = (from: number) => Array.from({ length: 10_000 }, (_, index) => `w${from + index}`).join(" ");
		const index = new PostingsIndex(stem);
		index.add("A.md", "A", 1, words(0), []);
		index.add("B.md", "B", 1, words(5_000), []);
		const answers = () => ["w0", "w7000", "w14999"].map((word) => found(index, index.resolve([word]), ["A.md", "B.md", "C.md"]));
		const before = answers();
		const steps = index.compactSteps();
		let pauses = 0;
		for (let next = steps.next(); !next.done; next = steps.next()) {
			pauses++;
			expect(answers()).toEqual(before);
		}
		expect(pauses).toBeGreaterThanOrEqual(15_000 / 4096);
		expect(answers()).toEqual(before);

		// Interrupted by a note added: nothing is swapped in, and the index answers as a fresh one.
		const interrupted = index.compactSteps();
		interrupted.next();
		index.add("C.md", "C", 2, "w0 w14999 new", []);
		let done = interrupted.next();
		while (!done.done) done = interrupted.next();
		expect(done.value).toBe(false);
		expect(answers()).toEqual([
			["A.md", "C.md"],
			["A.md", "B.md"],
			["B.md", "C.md"],
		]);
		index.compact();
		expect(answers()).toEqual([
			["A.md", "C.md"],
			["A.md", "B.md"],
			["B.md", "C.md"],
		]);
	});

	test("after compact, notes edited and removed again and again (lists growing out of the shared buffer, a second compact among them) answer as a fresh index", () => {
		const words = ["basil", "tomato", "rose", "pepper", "mint", "kale"];
		const paths = Array.from({ length: 12 }, (_, note) => `n${note}.md`);
		const textOf = (note: number, round: number) => words.filter((_, word) => (note + word + round) % 3 !== 0).join(" ");
		const index = new PostingsIndex(stem);
		paths.forEach((path, note) => index.add(path, path, 1, textOf(note, 0), []));
		index.compact();
		for (let round = 1; round <= 40; round++) {
			const note = round % paths.length;
			index.add(paths[note] as string, paths[note] as string, round, textOf(note, round), []);
			if (round % 3 === 0) index.remove(paths[(note + 5) % paths.length] as string);
			if (round === 20) index.compact();
			const fresh = new PostingsIndex(stem);
			for (const path of paths) {
				const at = index.has(path) ? paths.indexOf(path) : -1;
				if (at === -1) continue;
				const lastRound = [...Array(round + 1).keys()].reverse().find((earlier) => earlier > 0 && earlier % paths.length === at) ?? 0;
				fresh.add(path, path, 1, textOf(at, lastRound), []);
			}
			for (const word of words) expect(found(index, index.resolve([word]), paths)).toEqual(found(fresh, fresh.resolve([word]), paths));
		}
	});

	test("a phrase's pair bound read by slot is the one the note's own sketch gives, for notes compacted, edited after and removed", () => {
		const words = ["basil", "tomato", "rose", "pepper", "mint", "kale"];
		const paths = Array.from({ length: 12 }, (_, note) => `n${note}.md`);
		// Long enough bodies that the sketch's counters are spread over several bytes.
		const textOf = (note: number, round: number) => Array.from({ length: 40 + note }, (_, at) => words[(at * (note + 2) + round) % words.length]).join(" ");
		const index = new PostingsIndex(stem);
		paths.forEach((path, note) => index.add(path, path, 1, textOf(note, 0), []));
		index.compact();
		for (let round = 1; round <= 6; round++) index.add(paths[round] as string, paths[round] as string, round, textOf(round, round), []);
		const removed = slotOf(index, paths[8] as string);
		index.remove(paths[8] as string);
		const phrases = words.flatMap((first) => words.map((second) => [first, second, first]));
		let ruledOut = 0;
		for (const phrase of phrases) {
			const pairs = index.resolve(phrase)?.phrasePairs ?? [];
			for (let slot = 0; slot < index.nextSlot; slot++) {
				const doc = index.documents[slot];
				if (!doc) continue;
				const bound = index.pairBoundAt(slot, pairs);
				expect(bound).toBe(phrasePairBound(doc, pairs));
				if (bound === 0) ruledOut++;
			}
			expect(index.pairBoundAt(removed, pairs)).toBe(BODY_COUNT);
		}
		// The bound tells notes apart: a check reading the wrong bytes would rule out none or all.
		expect(ruledOut).toBeGreaterThan(0);
	});

	test("changing the stemmer changes which other forms are found, from the next lookup on", () => {
		const index = new PostingsIndex(stem);
		index.add("a.md", "A", 1, "Gardens everywhere.", []);
		expect(found(index, formsOf(index, index.resolveEvidence(["garden"], index.dictionary.stemmer).forms), ["a.md"])).toEqual(["a.md"]);
		index.setStemmer(null);
		expect(index.resolveEvidence(["garden"], index.dictionary.stemmer).forms).toBeNull();
	});
});

describe("PostingsIndex: a query word's merged forms are kept for its next search", () => {
	/** Every note accepted: the same answer as over all notes, worked out afresh (a filter's answer is never kept). */
	function everyNote(index: PostingsIndex): Uint8Array {
		return new Uint8Array(index.nextSlot).fill(1);
	}

	/** The merged term's notes and values, to compare two answers. */
	function entries(term: ResolvedTerm): number[] {
		return [...term.slots.subarray(0, term.length), ...term.values.subarray(0, term.length)];
	}

	/** Where a note is among a phrase's candidates (past the end when it is not one). */
	function slotAt(index: PostingsIndex, term: ResolvedTerm | null, path: string): number {
		if (term === null) return 0;
		const at = term.slots.subarray(0, term.length).indexOf(slotOf(index, path));
		return at < 0 ? term.length : at;
	}

	/** Whether a lookup merged the word's postings again (a merge makes new arrays) rather than giving the kept union. */
	const mergedAgain = (before: ResolvedTerm, after: ResolvedTerm) => after.slots !== before.slots;

	test("the same word searched again merges nothing until a note is added or removed, or the stemmer changes", () => {
		const index = new PostingsIndex(stem);
		index.add("a.md", "A", 1, "A garden here.", []);
		index.add("b.md", "B", 1, "Gardens there.", []);
		index.add("c.md", "C", 1, "Gardening everywhere.", []);
		const first = index.resolveEvidence(["garden"], index.dictionary.stemmer);
		const again = index.resolveEvidence(["garden"], index.dictionary.stemmer);
		expect(mergedAgain(first.any, again.any)).toBe(false);
		expect(again.strongNotes).toBe(first.strongNotes);
		expect(found(index, again.any, ["a.md", "b.md", "c.md"])).toEqual(["a.md", "b.md", "c.md"]);
		// Filtered, worked out every time.
		expect(mergedAgain(first.any, index.resolveEvidence(["garden"], index.dictionary.stemmer, everyNote(index)).any)).toBe(true);
		index.add("d.md", "D", 1, "More gardens.", []);
		const added = index.resolveEvidence(["garden"], index.dictionary.stemmer);
		expect(mergedAgain(again.any, added.any)).toBe(true);
		expect(found(index, added.any, ["a.md", "b.md", "c.md", "d.md"])).toEqual(["a.md", "b.md", "c.md", "d.md"]);
		index.remove("b.md");
		const removed = index.resolveEvidence(["garden"], index.dictionary.stemmer);
		expect(mergedAgain(added.any, removed.any)).toBe(true);
		expect(found(index, removed.any, ["a.md", "c.md", "d.md"])).toEqual(["a.md", "c.md", "d.md"]);
		expect(removed.strongNotes).toBe(3);
		index.setStemmer(null);
		const plain = index.resolveEvidence(["garden"], null);
		expect(plain.forms).toBeNull();
		expect(mergedAgain(removed.any, plain.any)).toBe(true);
	});

	test("a phrase searched again finds its candidates without intersecting its words again, until a note is added or removed", () => {
		const index = new PostingsIndex(stem);
		index.add("a.md", "A", 1, "The garden project starts.", []);
		index.add("b.md", "B", 1, "A project for the garden.", []);
		const first = index.resolve(["garden", "project"]) as ResolvedTerm;
		expect(mergedAgain(first, index.resolve(["garden", "project"]) as ResolvedTerm)).toBe(false);
		expect(listed(index, first, ["a.md", "b.md"])).toEqual(["a.md", "b.md"]);
		index.add("c.md", "C", 1, "Another garden project.", []);
		const added = index.resolve(["garden", "project"]) as ResolvedTerm;
		expect(mergedAgain(first, added)).toBe(true);
		expect(listed(index, added, ["a.md", "b.md", "c.md"])).toEqual(["a.md", "b.md", "c.md"]);
		index.remove("a.md");
		const removed = index.resolve(["garden", "project"]) as ResolvedTerm;
		expect(mergedAgain(added, removed)).toBe(true);
		expect(listed(index, removed, ["a.md", "b.md", "c.md"])).toEqual(["b.md", "c.md"]);
		// Compacting lets go of the buffers a kept phrase's word lists may be views of: the phrase is resolved again from the new ones.
		index.compact();
		expect(mergedAgain(removed, index.resolve(["garden", "project"]) as ResolvedTerm)).toBe(true);
	});

	test("past WORD_UNION_MEMO_WORDS other words, the first is merged again", () => {
		const index = new PostingsIndex(stem);
		const words = Array.from({ length: WORD_UNION_MEMO_WORDS + 1 }, (_, at) => `word${String.fromCharCode(97 + at)}`);
		for (const word of words) index.add(`${word}.md`, word, 1, `${word} ${word}s ${word}ing`, []);
		const firsts = words.map((word) => index.resolveEvidence([word], index.dictionary.stemmer).any);
		const last = words.length - 1;
		expect(mergedAgain(firsts[last] as ResolvedTerm, index.resolveEvidence([words[last] as string], index.dictionary.stemmer).any)).toBe(false);
		expect(mergedAgain(firsts[0] as ResolvedTerm, index.resolveEvidence([words[0] as string], index.dictionary.stemmer).any)).toBe(true);
	});

	test("whatever notes are added, replaced or removed between searches, a word's kept union is the one merged afresh", () => {
		const vocabulary = ["garden", "gardens", "gardening", "gardener", "plan", "plans", "planning", "plant"];
		const operation = fc.oneof(
			fc.record({
				kind: fc.constant("put" as const),
				note: fc.integer({ min: 0, max: 5 }),
				words: fc.array(fc.constantFrom(...vocabulary), { maxLength: 6 }),
			}),
			fc.record({ kind: fc.constant("remove" as const), note: fc.integer({ min: 0, max: 5 }) }),
			fc.record({ kind: fc.constant("search" as const), word: fc.constantFrom("garden", "gardening", "plan", "pla", "gar") }),
			fc.record({ kind: fc.constant("phrase" as const), words: fc.constantFrom(["garden", "plan"], ["plans", "gar"], ["gardening", "plant", "garden"]) }),
			fc.record({ kind: fc.constant("compact" as const) }),
		);
		fc.assert(
			fc.property(fc.array(operation, { maxLength: 30 }), (operations) => {
				const index = new PostingsIndex(stem);
				const notes = new Map<string, string>();
				for (const step of operations) {
					if (step.kind === "put") {
						index.add(`n${step.note}.md`, `N${step.note}`, 1, step.words.join(" "), []);
						notes.set(`n${step.note}.md`, step.words.join(" "));
					} else if (step.kind === "remove") {
						index.remove(`n${step.note}.md`);
						notes.delete(`n${step.note}.md`);
					} else if (step.kind === "compact") run(index.compactSteps());
					else if (step.kind === "phrase") {
						const fresh = new PostingsIndex(stem);
						for (const [path, text] of notes) fresh.add(path, `N${path.slice(1, -3)}`, 1, text, []);
						const paths = [...notes.keys()];
						const kept = index.resolve(step.words);
						const afresh = fresh.resolve(step.words);
						expect(listed(index, kept, paths)).toEqual(listed(fresh, afresh, paths));
						const counted = (at: PostingsIndex, term: ResolvedTerm | null, path: string) =>
							at.matchValue(term as ResolvedTerm, slotAt(at, term, path), at.documents[slotOf(at, path)]);
						for (const path of listed(index, kept, paths)) expect(counted(index, kept, path)).toBe(counted(fresh, afresh, path));
					} else {
						const kept = index.resolveEvidence([step.word], index.dictionary.stemmer);
						const fresh = index.resolveEvidence([step.word], index.dictionary.stemmer, everyNote(index));
						expect(entries(kept.any)).toEqual(entries(fresh.any));
						expect(kept.strongNotes).toBe(fresh.strongNotes);
					}
				}
			}),
		);
	});
});

describe("a phrase counted in a note whose pair sketch may rule it out", () => {
	// "blue" also starts "bluer": a phrase's last word is a prefix.
	const WORDS = ["red", "green", "blue", "bluer", "teal"];
	const text = (maxLength: number) => fc.array(fc.constantFrom(...WORDS), { maxLength }).map((list) => list.join(" "));
	/** How often the phrase stands in a row in `body`, its last word as a prefix. */
	function naiveCount(body: string, phrase: readonly string[]): number {
		const tokens = body.split(" ").filter((token) => token.length > 0);
		let count = 0;
		for (let start = 0; start + phrase.length <= tokens.length; start++) {
			if (phrase.every((word, at) => (at === phrase.length - 1 ? (tokens[start + at] ?? "").startsWith(word) : tokens[start + at] === word))) count++;
		}
		return count;
	}

	test("the body count is the count of the words in a row, whatever the notes around it and the order they came in", () => {
		fc.assert(
			fc.property(
				fc.array(text(60), { minLength: 1, maxLength: 10 }),
				fc.array(fc.constantFrom(...WORDS), { minLength: 2, maxLength: 4 }),
				fc.boolean(),
				(bodies, phrase, reversed) => {
					const index = new PostingsIndex(null);
					const order = bodies.map((_, at) => at);
					if (reversed) order.reverse();
					for (const at of order) index.add(`${at}.md`, "note", 1, bodies[at] ?? "", []);
					const term = index.resolve(phrase);
					if (!term) return;
					for (let at = 0; at < term.length; at++) {
						const doc = index.documents[term.slots[at] as number];
						const body = bodies[Number(doc?.path.replace(/\.md$/, ""))] ?? "";
						expect(index.matchValue(term, at, doc) & BODY_COUNT).toBe(naiveCount(body, phrase));
					}
				},
			),
			{ numRuns: 300 },
		);
	});
});

describe("PostingsIndex: a commit in steps (planCommit, then install)", () => {
	/** The n-th made-up word: letters only, two of them first so it is never a stop word or a number. */
	const word = (n: number) => `zq${String.fromCharCode(...[...n.toString(26)].map((digit) => 97 + parseInt(digit, 26)))}`;

	/**
	 * Each word's postings as (path, value), by path: what every search reads from the index (while a
	 * replaced version's postings are taken out, searches count only the current notes' postings).
	 */
	function postingsByPath(index: PostingsIndex, words: readonly string[], paths: readonly string[]): string[] {
		const pathOf = new Map(paths.map((path) => [slotOf(index, path), path]));
		return words.map((text) => {
			const term = index.resolveWhole([text]);
			const pairs: string[] = [];
			for (let at = 0; term && at < term.length; at++) {
				const path = pathOf.get(term.slots[at] as number);
				if (path !== undefined || !index.retiredSlotHeld) pairs.push(`${path ?? "?"}=${term.values[at] as number}`);
			}
			return `${text}: ${pairs.sort().join(" ")}`;
		});
	}

	test("a note of 40,000 new words is committed in many steps; searches between them see the old version; then the new one whole", () => {
		const index = new PostingsIndex(null);
		index.add("Small.md", "Small", 1, `${word(1)} ${word(2)}`, []);
		index.compact();
		const body = Array.from({ length: 40_000 }, (_, n) => word(n)).join(" ");
		const prepared = run(index.prepare("Big.md", "Big", 2, body, []));
		const steps = index.planCommit(prepared);
		let pauses = 0;
		let next = steps.next();
		for (; !next.done; next = steps.next()) {
			pauses++;
			expect(index.size).toBe(1);
			expect(index.resolveWhole([word(30_000)])?.length ?? 0).toBe(0);
			expect(found(index, index.resolveWhole([word(1)]), ["Small.md", "Big.md"])).toEqual(["Small.md"]);
		}
		// Counting 40,000 words and planning and copying their lists, 16,384 at a time (a count, not a timing).
		expect(pauses).toBeGreaterThanOrEqual(6);
		index.install(next.value);
		expect(index.size).toBe(2);
		for (const n of [0, 1, 2, 17_000, 39_999])
			expect(found(index, index.resolveWhole([word(n)]), ["Small.md", "Big.md"])).toEqual(n === 1 || n === 2 ? ["Big.md", "Small.md"] : ["Big.md"]);
		// Saved again with one word changed: the lists have room where they are; the old version's postings are gone.
		index.commit(run(index.prepare("Big.md", "Big", 3, body.replace(word(39_999), word(50_000)), [])));
		expect(found(index, index.resolveWhole([word(39_999)]), ["Small.md", "Big.md"])).toEqual([]);
		expect(found(index, index.resolveWhole([word(50_000)]), ["Small.md", "Big.md"])).toEqual(["Big.md"]);
		expect(index.size).toBe(2);
	});

	test("a big note removed in steps: found until the last step, then as if removed in one piece; replaced meanwhile, the new version stays", () => {
		const body = Array.from({ length: 40_000 }, (_, n) => word(n)).join(" ");
		const setUp = () => {
			const index = new PostingsIndex(null);
			index.add("A.md", "note", 1, word(1), []);
			index.add("Big.md", "big", 1, body, ["Heading"]);
			return index;
		};
		const whole = setUp();
		whole.remove("Big.md");
		const index = setUp();
		const steps = index.removeSteps("Big.md");
		let pauses = 0;
		for (let next = steps.next(); !next.done; next = steps.next()) {
			pauses++;
			expect(found(index, index.resolveWhole([word(1)]), ["A.md", "Big.md"])).toEqual(["A.md", "Big.md"]);
		}
		// Its 40,000 words counted in one piece held the server 50–70 ms on each rename or delete of such a note.
		expect(pauses).toBeGreaterThanOrEqual(2);
		for (const words of [[word(1)], [word(39_999)], ["big"], ["heading"]])
			expect(found(index, index.resolveWhole(words), ["A.md", "Big.md"])).toEqual(found(whole, whole.resolveWhole(words), ["A.md", "Big.md"]));
		expect([index.size, index.totalBodyLength, index.has("Big.md")]).toEqual([whole.size, whole.totalBodyLength, false]);

		const replaced = setUp();
		const racing = replaced.removeSteps("Big.md");
		racing.next();
		replaced.add("Big.md", "big", 2, word(7), []);
		while (!racing.next().done);
		expect(found(replaced, replaced.resolveWhole([word(7)]), ["A.md", "Big.md"])).toEqual(["Big.md"]);
		expect(found(replaced, replaced.resolveWhole([word(39_999)]), ["A.md", "Big.md"])).toEqual([]);
	});

	test("a note of 50,000 headings, each a new word, has its names written and counted in steps (a million were pieces of 90-400 ms in serve)", () => {
		const index = new PostingsIndex(null);
		index.add("Small.md", "Small", 1, word(1), []);
		// Two and a half times the most a piece may write or note below: in one piece, they fail it.
		const HEADINGS = 50_000;
		const headings = Array.from({ length: HEADINGS }, (_, n) => word(n));
		// Ids written into the note's buffer, per piece of its preparing.
		const write = jest.spyOn(PackedIdWriter.prototype, "write");
		const writtenPerPiece: number[] = [];
		const preparing = index.prepare("Big.md", "Big", 2, "A short body.", headings);
		let ready = preparing.next();
		for (; ; ready = preparing.next()) {
			writtenPerPiece.push(write.mock.calls.length);
			write.mockClear();
			if (ready.done) break;
		}
		write.mockRestore();
		const prepared = ready.value;
		// Before: every heading's id written in one piece.
		expect(writtenPerPiece.reduce((sum, count) => sum + count, 0)).toBeGreaterThan(HEADINGS);
		expect(Math.max(...writtenPerPiece)).toBeLessThanOrEqual(20_000);
		// Terms noted for the first time, counted per piece of the commit's plan (Array's push replaced outright: a spy of 200,000 calls is slow).
		const push = Array.prototype.push;
		const perPiece: number[] = [0];
		Array.prototype.push = function (this: unknown[], ...items: unknown[]) {
			perPiece[perPiece.length - 1]! += items.length;
			return push.apply(this, items);
		};
		let next;
		try {
			const steps = index.planCommit(prepared);
			for (next = steps.next(); !next.done; next = steps.next()) perPiece.push(0);
		} finally {
			Array.prototype.push = push;
		}
		expect(perPiece.reduce((sum, count) => sum + count, 0)).toBeGreaterThanOrEqual(HEADINGS);
		// Before: every heading's term noted in one piece, before the first pause.
		expect(Math.max(...perPiece)).toBeLessThanOrEqual(20_000);
		index.install(next.value);
		// The same postings as the note added in one piece, and none left once it is replaced by a short version (its old names taken out too).
		const whole = new PostingsIndex(null);
		whole.add("Small.md", "Small", 1, word(1), []);
		whole.add("Big.md", "Big", 2, "A short body.", headings);
		const words = [word(0), word(1), word(HEADINGS - 1), "short"];
		expect(postingsByPath(index, words, ["Small.md", "Big.md"])).toEqual(postingsByPath(whole, words, ["Small.md", "Big.md"]));
		expect(postingsByPath(index, [word(HEADINGS - 1)], ["Small.md", "Big.md"])).not.toEqual([`${word(HEADINGS - 1)}: `]);
		index.commit(run(index.prepare("Big.md", "Big", 3, "short", [])));
		expect(postingsByPath(index, [word(0), word(HEADINGS - 1)], ["Small.md", "Big.md"])).toEqual([`${word(0)}: `, `${word(HEADINGS - 1)}: `]);
	});

	test("a big note's new version is planned reading at most a step's share of either version's packed words between two pauses (each was unpacked whole in one piece: 8-51 ms for 5 MB)", () => {
		const DISTINCT = 40_000;
		const oldBody = Array.from({ length: DISTINCT }, (_, n) => word(n)).join(" ");
		const newBody = Array.from({ length: DISTINCT }, (_, n) => word(n + DISTINCT / 2)).join(" ");
		const index = new PostingsIndex(null);
		index.add("Small.md", "Small", 1, `${word(1)} ${word(DISTINCT)}`, []);
		index.add("Big.md", "Big", 1, oldBody, []);
		index.compact();
		let read = 0;
		/** The same bytes, each element read counted. */
		const counted = (packed: Uint8Array): Uint8Array =>
			new Proxy(packed, {
				get(target, key) {
					if (typeof key === "string" && /^\d+$/.test(key)) read++;
					const value = Reflect.get(target, key) as unknown;
					return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
				},
			});
		const documents = (index as unknown as { documents: Array<{ packed: Uint8Array; bodyBytes: number } | undefined> }).documents;
		const oldDoc = documents[slotOf(index, "Big.md")];
		if (!oldDoc) throw new Error("Big.md is not indexed");
		oldDoc.packed = counted(oldDoc.packed);
		const prepared = run(index.prepare("Big.md", "Big", 2, newBody, []));
		prepared.doc.packed = counted(prepared.doc.packed);
		const perPiece: number[] = [];
		const steps = index.planCommit(prepared);
		let next = steps.next();
		for (; ; next = steps.next()) {
			perPiece.push(read);
			read = 0;
			if (next.done) break;
		}
		// Both versions' words read (the new one's to count, the old one's to know its terms)...
		expect(perPiece.reduce((sum, count) => sum + count, 0)).toBeGreaterThanOrEqual(oldDoc.bodyBytes + prepared.doc.bodyBytes);
		// ...a step's share of tokens at a time, of three bytes at most here. Before: each body whole in one piece (100 KB).
		expect(Math.max(...perPiece)).toBeLessThanOrEqual(3 * COMMIT_STEP_POSTINGS);
		run(index.installSteps(next.value));
		const whole = new PostingsIndex(null);
		whole.add("Small.md", "Small", 1, `${word(1)} ${word(DISTINCT)}`, []);
		whole.add("Big.md", "Big", 2, newBody, []);
		const words = [word(0), word(1), word(DISTINCT / 2), word(DISTINCT), word(DISTINCT + DISTINCT / 2 - 1)];
		expect(postingsByPath(index, words, ["Small.md", "Big.md"])).toEqual(postingsByPath(whole, words, ["Small.md", "Big.md"]));
		expect([index.size, index.totalBodyLength]).toEqual([whole.size, whole.totalBodyLength]);
	});

	test("a big note's plan made stale by a note replaced meanwhile is made again without counting the note again, in steps when asked (at start, one piece of 212-226 ms in serve)", () => {
		const DISTINCT = 60_000;
		const body = Array.from({ length: 3 * DISTINCT }, (_, n) => word(n % DISTINCT)).join(" ");
		const words = [word(0), word(1), word(2), word(DISTINCT - 1), word(DISTINCT + 1)];
		const setUp = () => {
			const index = new PostingsIndex(null);
			index.add("A.md", "note", 1, word(1), []);
			index.add("Big.md", "big", 1, `${word(1)} ${word(DISTINCT + 1)}`, []);
			return index;
		};
		const whole = setUp();
		whole.add("A.md", "note", 3, word(1), []);
		whole.add("Big.md", "big", 2, body, []);
		/** The plan of Big.md's new version, made stale: another note's new version took its postings out of lists the plan measured. */
		const stalePlan = (index: PostingsIndex) => {
			const plan = run(index.planCommit(run(index.prepare("Big.md", "big", 2, body, []))));
			index.add("A.md", "note", 2, `${word(1)} ${word(2)}`, []);
			return plan;
		};
		// Terms noted for the first time (each counting of a note's words notes each of its terms), per piece.
		const push = Array.prototype.push;
		const perPiece: number[] = [0];
		const counting = <T>(work: () => T): T => {
			Array.prototype.push = function (this: unknown[], ...items: unknown[]) {
				perPiece[perPiece.length - 1]! += items.length;
				return push.apply(this, items);
			};
			try {
				return work();
			} finally {
				Array.prototype.push = push;
			}
		};

		// Installed at once, as it is (the one piece that installs it makes it again).
		const atOnce = setUp();
		const plan = stalePlan(atOnce);
		atOnce.add("A.md", "note", 3, word(1), []);
		counting(() => atOnce.install(plan));
		// Before: the whole body counted again, 60,000 terms noted in one piece. Now the few arrays install grows.
		expect(perPiece).toHaveLength(1);
		expect(perPiece[0]).toBeLessThanOrEqual(16);
		expect(postingsByPath(atOnce, words, ["A.md", "Big.md"])).toEqual(postingsByPath(whole, words, ["A.md", "Big.md"]));
		expect([atOnce.size, atOnce.totalBodyLength]).toEqual([whole.size, whole.totalBodyLength]);

		// Made again in steps first (`addToIndex`), then stale again when installed.
		perPiece.splice(0, perPiece.length, 0);
		const stepped = setUp();
		const stale = stalePlan(stepped);
		expect(stepped.isCurrent(stale)).toBe(false);
		counting(() => {
			const replanning = stepped.replanSteps(stale);
			let again = replanning.next();
			for (; !again.done; again = replanning.next()) perPiece.push(0);
			expect(stepped.isCurrent(again.value)).toBe(true);
			stepped.add("A.md", "note", 3, word(1), []);
			perPiece.push(0);
			stepped.install(again.value);
		});
		// Its 60,000 lists measured in steps of COMMIT_STEP_POSTINGS, with no term noted again.
		expect(perPiece.length).toBeGreaterThanOrEqual(5);
		expect(Math.max(...perPiece)).toBeLessThanOrEqual(16);
		expect(postingsByPath(stepped, words, ["A.md", "Big.md"])).toEqual(postingsByPath(whole, words, ["A.md", "Big.md"]));
		expect([stepped.size, stepped.totalBodyLength]).toEqual([whole.size, whole.totalBodyLength]);
	});

	test("a note added while a big note's commit waits is kept in the lists the commit moved", () => {
		const index = new PostingsIndex(null);
		// Two notes fill the shared word's list (room for two): the big note's commit moves it.
		index.add("A.md", "note", 1, word(1), []);
		index.add("B.md", "note", 1, word(1), []);
		const steps = index.planCommit(run(index.prepare("Big.md", "note", 1, Array.from({ length: 400 }, (_, n) => word(n)).join(" "), [])));
		let next = steps.next();
		let pauses = 0;
		for (; !next.done; next = steps.next()) if (pauses++ === 0) index.add("C.md", "note", 1, word(1), []);
		expect(pauses).toBeGreaterThan(0);
		index.install(next.value);
		expect(found(index, index.resolveWhole([word(1)]), ["A.md", "B.md", "C.md", "Big.md"])).toEqual(["A.md", "B.md", "Big.md", "C.md"]);
	});

	test("a note removed and another added while a big note's lists are being copied: the commit is planned again, nothing of the removed note stays", () => {
		const setUp = () => {
			const index = new PostingsIndex(null);
			// The shared word's list is full (two notes): the big note's commit copies it first, then 20,000 new words' lists.
			index.add("A.md", "note", 1, word(1), []);
			index.add("B.md", "note", 1, word(1), []);
			const body = [word(1), ...Array.from({ length: 20_000 }, (_, n) => word(100 + n))].join(" ");
			return { index, steps: index.planCommit(run(index.prepare("Big.md", "note", 1, body, []))) };
		};
		let total = 0;
		for (const dry = setUp().steps; !dry.next().done;) total++;
		const { index, steps } = setUp();
		let pauses = 0;
		let next = steps.next();
		for (; !next.done; next = steps.next()) {
			// At the last pause, the shared word's list is copied already: the same length again, other notes.
			if (++pauses === total) {
				index.remove("A.md");
				index.add("C.md", "note", 1, word(1), []);
			}
		}
		index.install(next.value);
		expect(found(index, index.resolveWhole([word(1)]), ["A.md", "B.md", "C.md", "Big.md"])).toEqual(["B.md", "Big.md", "C.md"]);
	});

	test("whatever other notes are added, replaced or removed, or the index compacted, between its steps, the index is the one built in one piece", () => {
		const WORD_COUNT = 700;
		const words = Array.from({ length: WORD_COUNT }, (_, n) => word(n));
		// Small notes share a few words with each other and with every big note: their lists fill up, and grow while a big note's commit waits.
		const SHARED = 30;
		const noteText = fc.array(fc.integer({ min: 0, max: SHARED - 1 }), { minLength: 1, maxLength: 12 }).map((ids) => ids.map((n) => words[n]).join(" "));
		// A big note: enough distinct words that its lists are moved into a buffer of their own.
		const bigText = fc
			.integer({ min: 0, max: WORD_COUNT - 1 })
			.map((start) =>
				[...words.slice(0, SHARED), ...Array.from({ length: 370 }, (_, n) => words[SHARED + ((start + n * 3) % (WORD_COUNT - SHARED))])].join(" "),
			);
		const path = fc.constantFrom("A.md", "B.md", "C.md", "D.md", "E.md", "F.md", "G.md", "Big.md");
		const change = fc.oneof(
			fc.record({ kind: fc.constant("add" as const), path, text: noteText }),
			fc.record({ kind: fc.constant("remove" as const), path }),
			fc.record({ kind: fc.constant("compact" as const) }),
		);
		fc.assert(
			fc.property(
				fc.array(fc.record({ path, text: noteText }), { maxLength: 4 }),
				fc.boolean(),
				fc.array(
					fc.record({
						text: bigText,
						during: fc.array(change, { maxLength: 4 }),
						again: fc.array(change, { maxLength: 3 }),
						replan: fc.boolean(),
						installing: fc.array(change, { maxLength: 4 }),
					}),
					{
						minLength: 1,
						maxLength: 3,
					},
				),
				(first, compactFirst, bigCommits) => {
					const index = new PostingsIndex(null);
					const notes = new Map<string, string>();
					const put = (notePath: string, text: string) => {
						index.add(notePath, "note", 1, text, []);
						notes.set(notePath, text);
					};
					for (const note of first) put(note.path, note.text);
					if (compactFirst) index.compact();
					const makeChange = (made: (typeof bigCommits)[number]["during"][number] | undefined) => {
						if (made?.kind === "add") put(made.path, made.text);
						else if (made?.kind === "remove") {
							index.remove(made.path);
							notes.delete(made.path);
						} else if (made?.kind === "compact") index.compact();
					};
					for (const big of bigCommits) {
						const steps = index.planCommit(run(index.prepare("Big.md", "note", 1, big.text, [])));
						let next = steps.next();
						const changes = [...big.during];
						for (; !next.done; next = steps.next()) makeChange(changes.shift());
						let plan = next.value;
						// Made stale meanwhile: made again in steps (as `addToIndex` does), other notes changing between them too.
						const againChanges = [...big.again];
						if (big.replan && !index.isCurrent(plan)) {
							const replanning = index.replanSteps(plan);
							let again = replanning.next();
							for (; !again.done; again = replanning.next()) makeChange(againChanges.shift());
							plan = again.value;
						}
						// The plan is installed last, in steps of 64 postings: its version of the note is the index's. One step at most
						// changes what a search sees, and to the new version whole; other changes between them finish it first.
						const installing = index.installSteps(plan, 64);
						const installChanges = [...big.installing];
						// Any change between its steps comes after the install: it finishes the install first.
						notes.set("Big.md", big.text);
						let seenChanged = 0;
						for (;;) {
							const paths = [...notes.keys()];
							const seen = postingsByPath(index, words, paths);
							const done = installing.next().done;
							const now = postingsByPath(index, words, paths);
							if (JSON.stringify(now) !== JSON.stringify(seen)) {
								seenChanged++;
								const whole = new PostingsIndex(null);
								for (const [notePath, text] of notes) whole.add(notePath, "note", 1, text, []);
								expect(now).toEqual(postingsByPath(whole, words, paths));
							}
							if (done) break;
							makeChange(installChanges.shift());
						}
						expect(seenChanged).toBeLessThanOrEqual(1);
						for (const made of installChanges) makeChange(made);
					}
					const expected = new PostingsIndex(null);
					for (const [notePath, text] of notes) expected.add(notePath, "note", 1, text, []);
					const paths = [...notes.keys()];
					expect(index.size).toBe(expected.size);
					expect(index.totalBodyLength).toBe(expected.totalBodyLength);
					expect(postingsByPath(index, words, paths)).toEqual(postingsByPath(expected, words, paths));
				},
			),
			{ numRuns: 40 },
		);
	});

	describe("an install in steps (installSteps)", () => {
		const STEP = 64;
		const words = Array.from({ length: 1_000 }, (_, n) => word(n));
		const OLD_BIG = words.slice(0, 600).join(" ");
		const NEW_BIG = words.slice(300).join(" ");
		const PATHS = ["Small.md", "Other.md", "Big.md", "Next.md"];
		type Internals = { lengthOf(id: number): number };
		/** Postings in the lists of `words`, searched or not yet: what installs have written so far. */
		const written = (index: PostingsIndex) =>
			words.reduce((sum, text) => {
				const id = index.dictionary.lookup(text);
				return sum + (id === undefined ? 0 : (index as unknown as Internals).lengthOf(id));
			}, 0);
		/** An index of Small.md and Other.md, and Big.md's old version when `replacing`; compacted, as after a build. */
		const indexWith = (replacing: boolean) => {
			const index = new PostingsIndex(null);
			index.add("Small.md", "note", 1, `${word(1)} ${word(2)}`, []);
			index.add("Other.md", "note", 1, `${word(2)} ${word(900)}`, []);
			if (replacing) index.add("Big.md", "note", 1, OLD_BIG, []);
			index.compact();
			return index;
		};
		/** The same notes added in one piece each. */
		const builtAtOnce = (notes: Record<string, string>) => {
			const index = new PostingsIndex(null);
			for (const [path, text] of Object.entries(notes)) index.add(path, "note", 1, text, []);
			return index;
		};
		const planOf = (index: PostingsIndex, text: string) => run(index.planCommit(run(index.prepare("Big.md", "note", 1, text, []))));

		test("a new note goes in at most a step's postings at a time; searches between see the index as before, then the note whole", () => {
			const index = indexWith(false);
			const before = postingsByPath(index, words, PATHS);
			const installing = index.installSteps(planOf(index, NEW_BIG), STEP);
			const perStep: number[] = [];
			for (;;) {
				const writtenBefore = written(index);
				const next = installing.next();
				perStep.push(written(index) - writtenBefore);
				if (next.done) {
					expect(next.value).toBe(true);
					break;
				}
				expect(postingsByPath(index, words, PATHS)).toEqual(before);
			}
			expect(perStep.length).toBeGreaterThanOrEqual(700 / STEP);
			expect(Math.max(...perStep)).toBeLessThanOrEqual(STEP);
			const expected = builtAtOnce({ "Small.md": `${word(1)} ${word(2)}`, "Other.md": `${word(2)} ${word(900)}`, "Big.md": NEW_BIG });
			expect(postingsByPath(index, words, PATHS)).toEqual(postingsByPath(expected, words, PATHS));
		});

		test("a new version of a note goes in, and its old one out, at most a step's postings at a time; searches between see the old version whole, then the new one", () => {
			const index = indexWith(true);
			const oldNotes = { "Small.md": `${word(1)} ${word(2)}`, "Other.md": `${word(2)} ${word(900)}`, "Big.md": OLD_BIG };
			const before = postingsByPath(index, words, PATHS);
			const after = postingsByPath(builtAtOnce({ ...oldNotes, "Big.md": NEW_BIG }), words, PATHS);
			expect(postingsByPath(builtAtOnce(oldNotes), words, PATHS)).toEqual(before);
			const installing = index.installSteps(planOf(index, NEW_BIG), STEP);
			const perStep: number[] = [];
			const seen: string[] = [];
			for (;;) {
				const writtenBefore = written(index);
				const next = installing.next();
				// Written under the new slot, or the old slot's taken out.
				perStep.push(Math.abs(written(index) - writtenBefore));
				const now = postingsByPath(index, words, PATHS);
				seen.push(JSON.stringify(now) === JSON.stringify(before) ? "old" : JSON.stringify(now) === JSON.stringify(after) ? "new" : "mixed");
				if (next.done) {
					expect(next.value).toBe(true);
					break;
				}
			}
			// 700 postings written and 600 taken out.
			expect(perStep.length).toBeGreaterThanOrEqual(1_300 / STEP);
			expect(Math.max(...perStep)).toBeLessThanOrEqual(STEP);
			expect(seen).not.toContain("mixed");
			expect(seen.indexOf("new")).toBeGreaterThan(0);
			expect(seen.slice(seen.indexOf("new")).every((state) => state === "new")).toBe(true);
			expect(index.installing).toBe(false);
			expect(index.retiredSlotHeld).toBe(false);
			expect(written(index)).toBe(words.reduce((sum, text) => sum + (index.resolveWhole([text])?.length ?? 0), 0));
		});

		test.each([
			["another note", "Other.md"],
			["the note being installed", "Big.md"],
		])("a removal of %s meanwhile helps the install along a step at a time (it finished it in one piece), then takes the note out", (_, removed) => {
			const index = indexWith(false);
			const installing = index.installSteps(planOf(index, NEW_BIG), STEP);
			expect(installing.next().done).toBe(false);
			const removing = index.removeSteps(removed);
			const perStep: number[] = [];
			for (;;) {
				const writtenBefore = written(index);
				const next = removing.next();
				perStep.push(written(index) - writtenBefore);
				if (next.done) break;
			}
			expect(Math.max(...perStep)).toBeLessThanOrEqual(STEP);
			expect(index.installing).toBe(false);
			expect(installing.next()).toEqual({ done: true, value: removed !== "Big.md" });
			const notes: Record<string, string> = { "Small.md": `${word(1)} ${word(2)}`, "Other.md": `${word(2)} ${word(900)}`, "Big.md": NEW_BIG };
			delete notes[removed];
			expect(postingsByPath(index, words, PATHS)).toEqual(postingsByPath(builtAtOnce(notes), words, PATHS));
		});

		describe("a step that fails (a list that cannot grow: out of memory)", () => {
			// Counted from the install on (set up before it, the index places postings too).
			let placed = Number.NEGATIVE_INFINITY;
			let placing: jest.SpyInstance | undefined;
			beforeEach(() => {
				placed = Number.NEGATIVE_INFINITY;
				const proto = PostingsIndex.prototype as unknown as { placePosting: (...args: unknown[]) => void };
				const place = proto.placePosting;
				placing = jest.spyOn(proto, "placePosting").mockImplementation(function (this: PostingsIndex, ...args: unknown[]) {
					if (++placed === 5 * STEP + 7) throw new RangeError("Array buffer allocation failed");
					place.apply(this, args);
				});
			});
			afterEach(() => placing?.mockRestore());
			const notesAfter = (): Record<string, string> => ({
				"Small.md": `${word(1)} ${word(2)}`,
				"Other.md": `${word(2)} ${word(900)}`,
				"Next.md": `${word(2)} ${word(5)} ${word(950)}`,
			});

			test("takes out what it wrote: no install is left under way (later ones waited for ever), and the next note goes in", () => {
				const index = indexWith(false);
				const before = postingsByPath(index, words, PATHS);
				const plan = planOf(index, NEW_BIG);
				placed = 0;
				const installing = index.installSteps(plan, STEP);
				expect(() => run(installing)).toThrow(RangeError);
				expect(index.installing).toBe(false);
				expect(postingsByPath(index, words, PATHS)).toEqual(before);
				placing?.mockRestore();
				index.add("Next.md", "note", 1, `${word(2)} ${word(5)} ${word(950)}`, []);
				expect(postingsByPath(index, words, PATHS)).toEqual(postingsByPath(builtAtOnce(notesAfter()), words, PATHS));
			});

			test("run by a removal helping it along: the removal goes on, and the install's own caller is thrown the step's error (it was told only that the note did not go in)", () => {
				const index = indexWith(false);
				const plan = planOf(index, NEW_BIG);
				placed = 0;
				const installing = index.installSteps(plan, STEP);
				expect(installing.next().done).toBe(false);
				run(index.removeSteps("Other.md"));
				expect(index.installing).toBe(false);
				expect(() => installing.next()).toThrow(RangeError);
				placing?.mockRestore();
				index.add("Next.md", "note", 1, `${word(2)} ${word(5)} ${word(950)}`, []);
				const notes = notesAfter();
				delete notes["Other.md"];
				expect(postingsByPath(index, words, PATHS)).toEqual(postingsByPath(builtAtOnce(notes), words, PATHS));
			});

			test("in a new version of a note: the old version stays whole, never found by some of the new one's words, and the next note goes in", () => {
				const index = indexWith(true);
				const plan = planOf(index, NEW_BIG);
				placed = 0;
				expect(() => run(index.installSteps(plan, STEP))).toThrow(RangeError);
				expect(index.installing).toBe(false);
				expect(index.retiredSlotHeld).toBe(false);
				placing?.mockRestore();
				index.add("Next.md", "note", 1, `${word(2)} ${word(5)} ${word(950)}`, []);
				expect(postingsByPath(index, words, PATHS)).toEqual(postingsByPath(builtAtOnce({ ...notesAfter(), "Big.md": OLD_BIG }), words, PATHS));
			});

			test("in retiring the old version, once the new one is published: the old one is taken out all the same, never found beside the new one", () => {
				placing?.mockRestore();
				const index = indexWith(true);
				const oldSlot = (index as unknown as { slotOfPath: Map<string, number> }).slotOfPath.get("Big.md");
				const plan = planOf(index, NEW_BIG);
				const proto = PostingsIndex.prototype as unknown as { logChanged: (slot: number) => void };
				const log = proto.logChanged;
				const logging = jest.spyOn(proto, "logChanged").mockImplementation(function (this: PostingsIndex, slot: number) {
					if (slot === oldSlot) throw new RangeError("Array buffer allocation failed");
					log.call(this, slot);
				});
				try {
					expect(() => run(index.installSteps(plan, STEP))).toThrow(RangeError);
				} finally {
					logging.mockRestore();
				}
				expect(index.installing).toBe(false);
				expect(index.retiredSlotHeld).toBe(false);
				const notes = { "Small.md": `${word(1)} ${word(2)}`, "Other.md": `${word(2)} ${word(900)}`, "Big.md": NEW_BIG };
				expect(postingsByPath(index, words, PATHS)).toEqual(postingsByPath(builtAtOnce(notes), words, PATHS));
				expect(index.totalBodyLength).toBe(builtAtOnce(notes).totalBodyLength);
			});

			test("in a new version of a note installed at once (few words): the note is left out whole, never found by some of its words", () => {
				const index = indexWith(true);
				const plan = planOf(index, NEW_BIG);
				placed = 0;
				expect(() => index.install(plan)).toThrow(RangeError);
				placing?.mockRestore();
				index.add("Next.md", "note", 1, `${word(2)} ${word(5)} ${word(950)}`, []);
				expect(postingsByPath(index, words, PATHS)).toEqual(postingsByPath(builtAtOnce(notesAfter()), words, PATHS));
			});
		});
	});
});

describe("PostingsIndex: a hostile vocabulary is resolved in steps a search can pause between", () => {
	/** The n-th made-up word starting `co`. */
	const word = (n: number) => `co${n.toString(36)}q`;

	/** Runs steps to their end, calling `during` at each pause; the result and the pauses. */
	function counted<T>(steps: Generator<void, T, void>, during: (pause: number) => void = () => undefined): { value: T; pauses: number } {
		let pauses = 0;
		for (;;) {
			const next = steps.next();
			if (next.done) return { value: next.value, pauses };
			during(pauses++);
		}
	}

	/** A term's notes and values as text, to compare two answers. */
	const shown = (term: ResolvedTerm) => Array.from(term.slots.subarray(0, term.length), (slot, at) => `${slot}=${term.values[at] as number}`).join(" ");

	test("a word's union merged while the stemmer changed under its pauses is not kept for the new stemmer", () => {
		const index = new PostingsIndex(stem);
		for (let note = 0; note < 6; note++)
			index.add(`Planted ${note}.md`, "Planted", 0, Array.from({ length: 10_000 }, (_, n) => word(note * 10_000 + n)).join(" "), []);
		index.add("Coffee.md", "Coffee", 0, "coffee and code", []);
		const french = stemmerFor("french");
		const { value, pauses } = counted(index.resolveEvidenceSteps(["co"], stem, unionScratch()), (pause) => {
			if (pause === 1) index.setStemmer(french);
		});
		expect(pauses).toBeGreaterThan(1);
		expect(value.any.slots).not.toBe(index.resolveEvidence(["co"], index.dictionary.stemmer).any.slots);
	});

	test("a two-letter prefix of 60,000 planted words pauses while it walks them and takes their lists; a note added meanwhile is in none of them", () => {
		const paths = Array.from({ length: 6 }, (_, note) => `Planted ${note}.md`);
		const planted = () => {
			const built = new PostingsIndex(stem);
			paths.forEach((path, note) => built.add(path, "Planted", 0, Array.from({ length: 10_000 }, (_, n) => word(note * 10_000 + n)).join(" "), []));
			built.add("Coffee.md", "Coffee", 0, "coffee and code", []);
			built.compact();
			return built;
		};
		// From an index of its own: the word's union, once merged, is kept for the next search of it.
		const expected = planted().resolveEvidence(["co"], stem);
		const index = planted();
		// A note holding the first, a middle and the last of the words arrives during the pauses.
		const late = `${word(0)} ${word(30_000)} ${word(59_999)} coffee`;
		const { value, pauses } = counted(index.resolveEvidenceSteps(["co"], stem, unionScratch()), (pause) => {
			if (pause === 2) index.add("Late.md", "Late", 0, late, []);
		});
		// 60,000 words walked, 8,192 a step, then the lists of the PREFIX_MAX_WORDS shortest taken and merged.
		expect(pauses).toBeGreaterThanOrEqual(Math.floor(60_000 / PREFIX_WALK_STEP_WORDS));
		expect(shown(value.any)).toBe(shown(expected.any));
		expect(value.strongNotes).toBe(expected.strongNotes);
		expect(found(index, value.any, [...paths, "Coffee.md", "Late.md"])).not.toContain("Late.md");
		// The next search sees it.
		expect(found(index, index.resolveEvidence(["co"], stem).any, ["Late.md"])).toEqual(["Late.md"]);
	});

	test("a two-letter prefix of 60,000 planted words stands for its PREFIX_MAX_WORDS shortest words: no more lists are taken, and a short word it starts is found", () => {
		const index = new PostingsIndex(stem);
		for (let note = 0; note < 6; note++)
			index.add(`Planted ${note}.md`, "Planted", 0, Array.from({ length: 10_000 }, (_, n) => word(note * 10_000 + n)).join(" "), []);
		index.add("Code.md", "Code", 0, "code review", []);
		index.add("Longer.md", "Longer", 0, "cozzzzzzzz", []);
		const dictionary = index.dictionary;
		const walk = dictionary.withPrefixSteps.bind(dictionary);
		let taken = 0;
		jest.spyOn(dictionary, "withPrefixSteps").mockImplementation(function* (prefix, skip, most) {
			const ids = yield* walk(prefix, skip, most);
			taken += ids.length;
			return ids;
		});
		const value = index.resolveEvidence(["co"], stem);
		// Every one of the 60,002 words was taken, each a list to merge: 0.4-0.5 s of CPU a search word at 111,000.
		expect(taken).toBeLessThanOrEqual(PREFIX_MAX_WORDS);
		expect(found(index, value.any, ["Code.md", "Longer.md"])).toEqual(["Code.md"]);
		// An exclusion still takes every word the prefix starts.
		expect(Array.from(index.notesHoldingAny(["co"]) ?? [])).toEqual([1, 1, 1, 1, 1, 1, 1, 1]);
	});

	test("the PREFIX_MAX_WORDS words a prefix stands for are words the searched notes hold: a planted vocabulary held only by other notes, or deleted, takes none of their places", () => {
		const index = new PostingsIndex(stem);
		const paths = Array.from({ length: 6 }, (_, note) => `Planted ${note}.md`);
		paths.forEach((path, note) => index.add(path, "Planted", 0, Array.from({ length: 10_000 }, (_, n) => word(note * 10_000 + n)).join(" "), []));
		index.add("Longer.md", "Longer", 0, "cozzzzzzzz", []);
		// A token of Longer.md's folder only: the 60,000 shorter words are in notes it may not see.
		const accepted = new Uint8Array(index.nextSlot);
		accepted[slotOf(index, "Longer.md")] = 1;
		expect(found(index, run(index.resolveEvidenceSteps(["co"], stem, unionScratch(), accepted)).any, ["Longer.md"])).toEqual(["Longer.md"]);
		// The planted notes deleted: their words stay in the dictionary, held by no note.
		for (const path of paths) index.remove(path);
		expect(found(index, index.resolveEvidence(["co"], stem).any, ["Longer.md"])).toEqual(["Longer.md"]);
	});

	test("excluding a two-letter prefix of 60,000 planted words pauses while it walks them, and marks the notes one piece marks", () => {
		const index = new PostingsIndex(null);
		for (let note = 0; note < 6; note++)
			index.add(`Planted ${note}.md`, "Planted", 0, Array.from({ length: 10_000 }, (_, n) => word(note * 10_000 + n)).join(" "), []);
		index.add("Other.md", "Other", 0, "nothing here", []);
		const { value, pauses } = counted(index.notesHoldingAnySteps(["co"]));
		expect(pauses).toBeGreaterThanOrEqual(14);
		expect(value).toEqual(index.notesHoldingAny(["co"]));
		expect(Array.from(value ?? [])).toEqual([1, 1, 1, 1, 1, 1, 0]);
	});

	test("excluding prefixes that start more than EXCLUDED_SEARCH_MAX_WORDS words the searched notes hold is refused before their lists are taken; words held only elsewhere, or by no note, do not count", () => {
		const index = new PostingsIndex(null);
		const notes = Math.ceil((EXCLUDED_SEARCH_MAX_WORDS + 1) / 20_000);
		const paths = Array.from({ length: notes }, (_, note) => `Planted/${note}.md`);
		paths.forEach((path, note) => index.add(path, "Planted", 0, Array.from({ length: 20_000 }, (_, n) => word(note * 20_000 + n)).join(" "), []));
		index.add("Mine/Code.md", "Code", 0, "code review", []);
		index.add("Mine/Other.md", "Other", 0, "nothing here", []);
		const listOf = jest.spyOn(index as unknown as { listOf: (id: number) => unknown }, "listOf");
		// `main` took every one of the 140,002 words' lists (about a microsecond a word); now none.
		expect(() => index.notesHoldingAny(["co"])).toThrow(TooManyWordsExcluded);
		expect(listOf).not.toHaveBeenCalled();
		// The search's prefixes share the bound: `co` typed as its 36 three-letter starts, none of which passes it alone.
		const starts = [..."0123456789abcdefghijklmnopqrstuvwxyz"].map((digit) => `co${digit}`);
		expect(() => index.notesHoldingAny(starts)).toThrow(TooManyWordsExcluded);
		expect(() => index.notesHoldingAny(["co1"])).not.toThrow();
		// An excluded phrase's last word (`-"code co"`) takes every word it starts too: counted, refused the same (lead11 walked them all).
		expect(() => index.notesHoldingAny([], null, ["co"])).toThrow(TooManyWordsExcluded);
		expect(index.notesHoldingAny([], null, ["co1"])).toBeNull();
		expect(listOf).not.toHaveBeenCalled();
		// A token of Mine/ holds two of the words: its search does not depend on the planted notes it may not read.
		const mine = run(index.acceptedSlots((path) => path.startsWith("Mine/"))).slots;
		const marks = index.notesHoldingAny(["co"], mine);
		expect(index.notesHoldingAny([], mine, ["co"])).toBeNull();
		expect(marks?.[slotOf(index, "Mine/Code.md")]).toBe(1);
		expect(marks?.[slotOf(index, "Mine/Other.md")]).toBe(0);
		// Deleted: their words stay in the dictionary, held by no note.
		for (const path of paths) index.remove(path);
		expect(Array.from(index.notesHoldingAny(["co"]) ?? []).filter((mark) => mark === 1)).toHaveLength(1);
	});

	test("excluded prefixes that start one another count each word once against EXCLUDED_SEARCH_MAX_WORDS", () => {
		const index = new PostingsIndex(null);
		// 70,000 words starting `cox`, so `co` too: about half the bound, counted twice when `-co -cox` counted both.
		for (let note = 0; note < 4; note++)
			index.add(`Planted/${note}.md`, "Planted", 0, Array.from({ length: 17_500 }, (_, n) => `cox${(note * 17_500 + n).toString(36)}`).join(" "), []);
		index.add("Other.md", "Other", 0, "nothing here", []);
		const holders = (words: string[]) => Array.from(index.notesHoldingAny(words) ?? []).filter((mark) => mark === 1).length;
		// On lead10 each of these was refused: "The excluded words start more than 131,072 words", 70,000 being there.
		expect(holders(["co", "cox"])).toBe(4);
		expect(holders(["cox", "co", "cox"])).toBe(4);
		expect(holders(["co", "co"])).toBe(4);
	});

	test("the look for a word's forms among notes that hold none of the words it passes over pauses by postings walked, not only by words", () => {
		// 1,000 words starting "co" (the start of "cod"'s forms), each held by 600 notes outside Tiny: 600,000 postings
		// walked to learn Tiny holds none of them, in one piece when only words (4,096 a step) were counted.
		const index = new PostingsIndex(stem);
		const words = Array.from({ length: 1_000 }, (_, n) => word(n)).join(" ");
		for (let note = 0; note < 600; note++) index.add(`Big/Note ${note}.md`, "Note", 0, words, []);
		index.add("Tiny/Fish.md", "Fish", 0, "cod and codding", []);
		const accepted = run(index.acceptedSlots((path) => path.startsWith("Tiny/"))).slots;
		const expected = index.resolveEvidence(["cod"], stem, accepted);
		const { value, pauses } = counted(index.resolveEvidenceSteps(["cod"], stem, unionScratch(), accepted));
		expect(pauses).toBeGreaterThanOrEqual(2);
		expect([...(value.strongIds ?? [])].sort()).toEqual([...(expected.strongIds ?? [])].sort());
		expect(found(index, value.any, ["Tiny/Fish.md"])).toEqual(["Tiny/Fish.md"]);
		expect(value.strongIds?.size).toBe(2);
	});
});

describe("PostingsIndex: notes sharing many words do not move every list again on each commit", () => {
	test("64 notes of the same 400 words: the lists are moved to new room in a few commits, not in every one", () => {
		// Moved with room for one more posting only, the next note's lists had none: each commit copied every list
		// (and kept the old copies until the index was compacted), quadratic in the notes: 400 notes of 8,192 shared
		// words took 82 s and 5 GB to index.
		const index = new PostingsIndex(null);
		const body = Array.from({ length: 400 }, (_, n) => `zq${n.toString(36)}`).join(" ");
		let moves = 0;
		for (let note = 0; note < 64; note++) {
			const plan = run(index.planCommit(run(index.prepare(`Note ${note}.md`, "Note", 0, body, []))));
			if (plan.block !== null) moves++;
			index.install(plan);
		}
		expect(moves).toBeLessThanOrEqual(8);
		const term = index.resolveWhole(["zq0"]);
		expect(term?.length).toBe(64);
	});
});

describe("PostingsIndex: a phrase ending in a prefix of a planted vocabulary is resolved in steps", () => {
	test("a phrase whose last word starts 60,000 planted words pauses while it walks and merges them, and finds what one piece finds", () => {
		const planted = () => {
			const built = new PostingsIndex(null);
			for (let note = 0; note < 6; note++)
				built.add(
					`Planted ${note}.md`,
					"Planted",
					0,
					Array.from({ length: 10_000 }, (_, n) => `alpha co${(note * 10_000 + n).toString(36)}q`).join(" "),
					[],
				);
			built.add("Other.md", "Other", 0, "alpha beta coffee", []);
			return built;
		};
		// From an index of its own: a phrase's candidates, once found, are kept for the next search of it.
		const expected = planted().resolve(["alpha", "co"]);
		const index = planted();
		// As an excluded phrase is resolved: every word its last one starts (a wanted one stands for its share, below).
		const steps = index.resolveSteps(["alpha", "co"], unionScratch());
		let pauses = 0;
		let next = steps.next();
		for (; !next.done; next = steps.next()) pauses++;
		expect(pauses).toBeGreaterThanOrEqual(14);
		const found = next.value;
		expect(Array.from(found?.slots.subarray(0, found.length) ?? [])).toEqual(Array.from(expected?.slots.subarray(0, expected.length) ?? []));
		// Candidates: every note holding both words (Other.md too, checked for the words in a row later).
		expect(found?.length).toBe(7);
		// Wanted, the phrase's last word stands for its PREFIX_MAX_WORDS shortest words, all of them the first note's, and says it was cut.
		const wanted = runSteps(planted().resolveEvidenceSteps(["alpha", "co"], null, unionScratch()));
		expect(wanted.prefixCut).toBe(true);
		expect(wanted.any.length).toBe(1);
	});
});

describe("a note's names, tokenized in steps", () => {
	test("a note of 38,000 headings and many aliases is prepared in pieces of bounded work, with the names one tokenizing gives (its headings were one piece of about 0.1 s)", () => {
		const index = gardenIndex();
		const headings = Array.from({ length: 38_000 }, (_, n) => `Heading ${n} word${n}`);
		// Three aliases past SEARCH_ALIAS_MAX_WORDS (tokenized, then left out of the names), and one that fits.
		const aliases = [...Array.from({ length: 3 }, (_, n) => Array.from({ length: 5_000 }, (_, m) => `alias${n}x${m}`).join(" ")), "Short alias"];
		const idOf = jest.spyOn(index.dictionary, "idOf");
		const perPiece: number[] = [];
		const steps = index.prepare("Deep Folder/Headings.md", "Headings", 5, "A short body.", headings, aliases);
		let next = steps.next();
		for (; ; next = steps.next()) {
			perPiece.push(idOf.mock.calls.length);
			idOf.mockClear();
			if (next.done) break;
		}
		idOf.mockRestore();
		const total = perPiece.reduce((sum, count) => sum + count, 0);
		expect(total).toBeGreaterThan(3 * 38_000 + 15_000);
		// Before: one piece looked up every heading's and alias's words.
		expect(Math.max(...perPiece)).toBeLessThan(10_000);
		const idsOf = (value: string) => Array.from(tokenize(value), (token) => index.dictionary.idOf(token.value));
		const prepared = next.value;
		expect(Array.from(prepared.names.headings)).toEqual(idsOf([...headings, "Deep Folder"].join("\n")));
		expect(prepared.names.aliases.map((alias) => Array.from(alias))).toEqual([idsOf("Short alias")]);
		index.commit(prepared);
		expect(found(index, index.resolve(["word37999"]), [...PATHS, "Deep Folder/Headings.md"])).toEqual([]);
		expect(found(index, index.resolve(["short"]), [...PATHS, "Deep Folder/Headings.md"])).toEqual(["Deep Folder/Headings.md"]);
		expect(found(index, index.resolve(["alias2x4999"]), [...PATHS, "Deep Folder/Headings.md"])).toEqual([]);
	});
});

describe("a phrase of three words searched again", () => {
	test("reads no note's pair sketch: its notes' bounds were tightened by their sketches once, when its notes were found, and the answer is the same", async () => {
		const engine = new SearchEngine();
		const texts = new Map<string, string>();
		for (let note = 0; note < 300; note++) {
			// Every note holds the three words; one in five says them in a row, the rest apart.
			const text = note % 5 === 0 ? `the garden project meeting went well ${note}` : `a meeting about the project of the garden ${note}`;
			texts.set(`${note}.md`, text);
			engine.index.add(`${note}.md`, `note ${note}`, 1, text, []);
		}
		engine.index.compact();
		const read = async (path: string) => texts.get(path) ?? "";
		const sketchReads = jest.spyOn(engine.index, "pairBoundAt");
		const first = await engine.search(parseQuery('"garden project meeting"'), null, 10, read);
		const firstReads = sketchReads.mock.calls.length;
		const again = await engine.search(parseQuery('"garden project meeting"'), null, 10, read);
		expect(first.total).toBe(60);
		expect(again).toEqual(first);
		// The first search read the sketch of each note holding the words, in resolving the phrase.
		expect(firstReads).toBeGreaterThanOrEqual(300);
		expect(sketchReads.mock.calls.length - firstReads).toBe(0);
	});
});

describe("a phrase searched again", () => {
	/** 300 notes holding `garden` and `project`, one in five saying them in a row (`garden project`) one to four times, the rest apart. */
	function gardenNotes(engine: SearchEngine): Map<string, string> {
		const texts = new Map<string, string>();
		for (let note = 0; note < 300; note++) {
			const text = note % 5 === 0 ? `the ${"garden project ".repeat(1 + (note % 4))}went well ${note}` : `a project about the garden ${note}`;
			texts.set(`${note}.md`, text);
			engine.index.add(`${note}.md`, `note ${note}`, 1, text, []);
		}
		engine.index.compact();
		return texts;
	}

	test.each([['"garden project"'], ['"garden project" well']])(
		"%s reads no pair sketch and no body read by its first search, and answers the same, notice included",
		async (query) => {
			// Read best first (more notes hold the words than are read all at once), as a phrase of common words is.
			const engine = new SearchEngine(undefined, 10);
			const texts = gardenNotes(engine);
			const read = async (path: string) => texts.get(path) ?? "";
			const sketchReads = jest.spyOn(engine.index, "pairBoundAt");
			const bodyReads = jest.spyOn(engine.index, "matchValue");
			const first = await engine.search(parseQuery(query), null, 10, read);
			const firstSketchReads = sketchReads.mock.calls.length;
			const firstBodyReads = bodyReads.mock.calls.filter(([term]) => term.phrase !== null).length;
			const again = await engine.search(parseQuery(query), null, 10, read);
			expect(again).toEqual(first);
			expect(first.total_is_lower_bound).toBe(true);
			expect(first.notice).toMatch(/looked for in \d+ of the \d+ notes/);
			expect(firstSketchReads).toBeGreaterThan(0);
			expect(firstBodyReads).toBeGreaterThan(0);
			expect(sketchReads.mock.calls.length).toBe(firstSketchReads);
			expect(bodyReads.mock.calls.filter(([term]) => term.phrase !== null).length).toBe(firstBodyReads);
		},
	);

	// Dozens of phrases, more than the index keeps the candidates of (PHRASE_CANDIDATES_MEMO_PHRASES): a search of them
	// stopped at its work budget says the same call again gets further, and read every body again at each call.
	const WORDS = Array.from({ length: 27 }, (_, at) => `w${at}`);
	const PAIRS = WORDS.slice(1).map((word, at) => `"${WORDS[at] as string} ${word}"`);
	const REVERSED_PAIRS = WORDS.slice(1).map((word, at) => `-"${word} ${WORDS[at] as string}"`);
	const QUERIES: Array<[string, string]> = [
		["26 phrases", PAIRS.join(" ")],
		["a word less 26 phrases", `w0 ${REVERSED_PAIRS.join(" ")}`],
	];

	/**
	 * Searches `query` twice over 40 notes, half saying WORDS in order (every phrase), half in reverse (no phrase, every
	 * excluded one), with room for `learntMemoNotes` notes' worth of phrases' reads: both answers, and the phrase bodies
	 * each search read.
	 */
	async function searchedTwice(query: string, learntMemoNotes?: number) {
		const engine = new SearchEngine(undefined, undefined, undefined, learntMemoNotes);
		const texts = new Map<string, string>();
		for (let note = 0; note < 40; note++) {
			const text = `${(note % 2 === 0 ? WORDS : [...WORDS].reverse()).join(" ")} ${note}`;
			texts.set(`${note}.md`, text);
			engine.index.add(`${note}.md`, `note ${note}`, 1, text, []);
		}
		engine.index.compact();
		const read = async (path: string) => texts.get(path) ?? "";
		const bodyReads = jest.spyOn(engine.index, "matchValue");
		const phraseReads = () => bodyReads.mock.calls.filter(([term]) => term.phrase !== null).length;
		const first = await engine.search(parseQuery(query), null, 40, read);
		const firstReads = phraseReads();
		const again = await engine.search(parseQuery(query), null, 40, read);
		return { first, again, firstReads, againReads: phraseReads() - firstReads };
	}

	test.each(QUERIES)("%s: searched again, reads no body read by its first search", async (_name, query) => {
		const { first, again, firstReads, againReads } = await searchedTwice(query);
		expect(first.total).toBe(20);
		expect(again).toEqual(first);
		expect(firstReads).toBeGreaterThanOrEqual(20 * 26);
		expect(againReads).toBe(0);
	});

	// The index keeps the reads of PHRASE_LEARNT_MEMO_NOTES notes' worth of phrases; here room for 25 of the 26 (40 notes each).
	// The last phrases a search resolved let go of its first ones' reads, so called again it read every body again, at every call.
	test.each(QUERIES)("%s, the reads of only 25 kept: searched again, reads only the last phrase's bodies again", async (_name, query) => {
		const { first, again, firstReads, againReads } = await searchedTwice(query, 25 * 40);
		expect(again).toEqual(first);
		expect(firstReads).toBeGreaterThanOrEqual(20 * 26);
		// The last phrase's reads only, at most one a note (the first search read 540 or 1,040).
		expect(againReads).toBeLessThanOrEqual(40);
	});

	test("after a note changes, reads it again: a note that now says the phrase is found", async () => {
		const engine = new SearchEngine(undefined, 10);
		const texts = gardenNotes(engine);
		const read = async (path: string) => texts.get(path) ?? "";
		const before = await engine.search(parseQuery('"garden project"'), null, 300, read);
		expect(before.results.map((hit) => hit.path)).not.toContain("1.md");
		texts.set("1.md", "the garden project again and again, garden project");
		engine.index.add("1.md", "note 1", 2, texts.get("1.md") ?? "", []);
		const after = await engine.search(parseQuery('"garden project"'), null, 300, read);
		expect(after.results.map((hit) => hit.path)).toContain("1.md");
		// And a note that no longer says it is gone.
		texts.set("0.md", "a project about the garden 0");
		engine.index.add("0.md", "note 0", 2, texts.get("0.md") ?? "", []);
		const later = await engine.search(parseQuery('"garden project"'), null, 300, read);
		expect(later.results.map((hit) => hit.path)).not.toContain("0.md");
		expect(later.results.map((hit) => hit.path)).toContain("1.md");
	});
});

describe("a phrase of many distinct words", () => {
	test("is resolved without a table the dictionary's size for each word (kept for its next search), and found in the body (a heading that long is a sentence: the body's)", () => {
		const index = new PostingsIndex(stemmerFor(DEFAULT_SEARCH_LANGUAGE));
		// A dictionary of 100,000 words; the phrase: 160 distinct two-letter words, as a query of 500 characters may hold.
		for (let note = 0; note < 10; note++)
			index.add(`filler${note}.md`, `filler ${note}`, 0, Array.from({ length: 10_000 }, (_, word) => `w${note}x${word}`).join(" "), []);
		const words = Array.from({ length: 160 }, (_, at) => `${String.fromCharCode(97 + Math.floor(at / 26))}${String.fromCharCode(97 + (at % 26))}`);
		index.add("phrase.md", "phrase", 0, `zz ${words.join(" ")} zz`, [words.join(" ")]);
		index.add("apart.md", "apart", 0, [...words].reverse().join(" "), []);
		// Collected before and after: what the resolved phrase holds, not the garbage of the notes' adding.
		setFlagsFromString("--expose-gc");
		const collect = runInNewContext("gc") as () => void;
		collect();
		const before = process.memoryUsage().arrayBuffers;
		const term = index.resolve(words) as ResolvedTerm;
		collect();
		const grown = process.memoryUsage().arrayBuffers - before;
		// Before: 160 tables of 100,000 bytes (16 MB) besides its masks (2.4 MB: 4 bytes a dictionary word per 32 positions).
		expect(grown).toBeLessThan(6_000_000);
		const values = Array.from({ length: term.length }, (_, at) => [
			index.documents[term.slots[at] as number]?.path,
			index.matchValue(term, at, index.documents[term.slots[at] as number]),
		]);
		expect(values.filter(([, value]) => value !== 0).map(([path]) => path)).toEqual(["phrase.md"]);
		const [, value] = values.find(([path]) => path === "phrase.md") as [string, number];
		expect(value & BODY_COUNT).toBe(1);
		// A heading of 160 words names no section (SENTENCE_HEADING_WORDS): the phrase is the body's only.
		expect(value & IN_HEADING).toBe(0);
	});
});
