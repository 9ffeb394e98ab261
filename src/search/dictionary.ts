import { MAX_WORD_FORM_CANDIDATES } from "../config/limits";
import { tokenHash } from "./pairSketch";
import { growUint32 } from "./postingValues";
import type { Stemmer } from "./stemmers";
import { runSteps } from "./unions";

/** Shortest query word whose other forms are looked for: `is` and `ga` have none worth the look. */
const MIN_FORM_WORD_CHARS = 3;

/**
 * New tokens a lookup inserts one by one into the sorted view; more are sorted and merged into it
 * in one pass. An insertion moves half the view on average (about 17 µs at 290,000 tokens), a
 * merge all of it once (about 15 ms): a note of 40,000 new words, inserted one by one, took 0.7 s.
 */
const TOKENS_INSERTED_IN_PLACE = 512;

/**
 * Tokens sorted or merged between two chances to pause while the sorted view is built or brought
 * up to date: sorting 290,000 tokens in one piece held the server 113–117 ms; a step of this many is
 * 1–3 ms.
 */
const SORT_STEP_TOKENS = 8192;

/**
 * Token ↔ id, with prefix lookups over a sorted view. The view is built on the first lookup; new
 * tokens wait beside it and are merged in by the next lookup, so a note edited with a new word
 * does not make the next search re-sort the whole dictionary. A search that may pause builds or
 * merges the view in steps first (`sortedViewSteps`).
 */
export class TermDictionary {
	private readonly ids = new Map<string, number>();
	private sorted: string[] | null = null;
	/** Tokens added since the sorted view was last brought up to date (or since a sort in steps took its tokens). */
	private notYetSorted: string[] = [];
	/** The sort or merge in steps under way, shared: whichever lookup comes next carries it on. */
	private sorting: Generator<void, void, void> | null = null;
	/**
	 * Id → a hash of the token's text: what a note's pair sketch is keyed by (pairSketch.ts), so a
	 * note's sketch, and what it rules out, is the same whatever order the notes were indexed in.
	 */
	hashes: Uint32Array = new Uint32Array(256);

	constructor(private stem: Stemmer | null) {}

	/** Changes how word forms are found; the dictionary and the index are unchanged. */
	setStemmer(stem: Stemmer | null): void {
		this.stem = stem;
	}

	get stemmer(): Stemmer | null {
		return this.stem;
	}

	/**
	 * Ids of the other forms of `word` (same stem, not the word itself). Stemmers strip endings, so
	 * a form starts with the stem less its last letter (`happi` for `happy`): only those words are
	 * stemmed, at most MAX_WORD_FORM_CANDIDATES of them.
	 */
	formsOf(word: string, stem: Stemmer | null = this.stem): number[] {
		if (!stem || word.length < MIN_FORM_WORD_CHARS) return [];
		const target = stem(word);
		const start = target.slice(0, Math.max(2, target.length - 1));
		if (start.length < 2) return [];
		const sorted = this.sortedTokens();
		const found: number[] = [];
		const end = Math.min(sorted.length, lowerBound(sorted, start) + MAX_WORD_FORM_CANDIDATES);
		for (let index = lowerBound(sorted, start); index < end; index++) {
			const token = sorted[index] ?? "";
			if (!token.startsWith(start)) break;
			if (token === word || stem(token) !== target) continue;
			const id = this.ids.get(token);
			if (id !== undefined) found.push(id);
		}
		return found;
	}

	idOf(token: string): number {
		let id = this.ids.get(token);
		if (id === undefined) {
			id = this.ids.size;
			this.ids.set(token, id);
			this.hashes = growUint32(this.hashes, id + 1);
			this.hashes[id] = tokenHash(token);
			if (this.sorted || this.sorting) this.notYetSorted.push(token);
		}
		return id;
	}

	get size(): number {
		return this.ids.size;
	}

	lookup(token: string): number | undefined {
		return this.ids.get(token);
	}

	/** Ids of every token starting with `prefix`. */
	withPrefix(prefix: string): number[] {
		const sorted = this.sortedTokens();
		const found: number[] = [];
		for (let index = lowerBound(sorted, prefix); index < sorted.length && (sorted[index] ?? "").startsWith(prefix); index++) {
			const id = this.ids.get(sorted[index] ?? "");
			if (id !== undefined) found.push(id);
		}
		return found;
	}

	/**
	 * Builds the sorted view, or merges many new tokens into it, in steps that yield where a search
	 * may pause; true once the view is up to date but for at most TOKENS_INSERTED_IN_PLACE new
	 * tokens (the next lookup inserts those). The work is shared: a search that gave up part way
	 * leaves it for the next lookup to carry on.
	 */
	*sortedViewSteps(): Generator<void, true, void> {
		while (this.sorting || !this.sorted || this.notYetSorted.length > TOKENS_INSERTED_IN_PLACE) {
			this.sorting ??= this.sortSteps();
			if (this.sorting.next().done) this.sorting = null;
			else yield;
		}
		return true;
	}

	/** One round of `sortedViewSteps`: the first sort of every token, or the merge of the tokens added since. */
	private *sortSteps(): Generator<void, void, void> {
		// Tokens added while this runs wait in notYetSorted: the view it makes leaves them out.
		const added = this.sorted ? this.notYetSorted : [...this.ids.keys()];
		this.notYetSorted = [];
		const sortedAdded = yield* sortTokensSteps(added);
		this.sorted = this.sorted ? yield* mergeSteps(this.sorted, sortedAdded) : sortedAdded;
	}

	/** Every token, sorted: built on the first call (in one piece, unless a search built it in steps), then brought up to date with the tokens added since. */
	private sortedTokens(): string[] {
		runSteps(this.sortedViewSteps());
		const sorted = this.sorted as string[];
		const added = this.notYetSorted;
		this.notYetSorted = [];
		for (const token of added) sorted.splice(lowerBound(sorted, token), 0, token);
		return sorted;
	}
}

/** Distinct tokens sorted (the order of `<`, as `sort()` and lowerBound use), in steps: runs of SORT_STEP_TOKENS sorted, then merged two by two. */
function* sortTokensSteps(tokens: readonly string[]): Generator<void, string[], void> {
	let runs: string[][] = [];
	for (let start = 0; start < tokens.length; start += SORT_STEP_TOKENS) {
		runs.push(tokens.slice(start, start + SORT_STEP_TOKENS).sort());
		yield;
	}
	while (runs.length > 1) {
		const merged: string[][] = [];
		for (let index = 0; index < runs.length; index += 2) {
			const second = runs[index + 1];
			merged.push(second ? yield* mergeSteps(runs[index] as string[], second) : (runs[index] as string[]));
		}
		runs = merged;
	}
	return runs[0] ?? [];
}

/** `mergeSorted` in steps of SORT_STEP_TOKENS tokens. */
function* mergeSteps(a: readonly string[], b: readonly string[]): Generator<void, string[], void> {
	const merged = new Array<string>(a.length + b.length);
	const at = { a: 0, b: 0, out: 0 };
	while (at.out < merged.length) {
		mergeSorted(a, b, merged, at, Math.min(merged.length, at.out + SORT_STEP_TOKENS));
		if (at.out < merged.length) yield;
	}
	return merged;
}

/**
 * Merges two sorted arrays of distinct tokens (the order of `<`, as `sort()` and lowerBound use)
 * into `merged` from `at` on, up to `end`, moving `at`. A plain function, not a generator's own
 * loop: V8 runs a loop inside a generator several times slower.
 */
function mergeSorted(a: readonly string[], b: readonly string[], merged: string[], at: { a: number; b: number; out: number }, end: number): void {
	let { a: i, b: j } = at;
	for (let out = at.out; out < end; out++)
		merged[out] = j >= b.length || (i < a.length && (a[i] as string) < (b[j] as string)) ? (a[i++] as string) : (b[j++] as string);
	at.a = i;
	at.b = j;
	at.out = end;
}

/** The first index in a sorted array whose value is not below `value`. */
function lowerBound(sorted: readonly string[], value: string): number {
	let low = 0;
	let high = sorted.length;
	while (low < high) {
		const middle = (low + high) >> 1;
		if ((sorted[middle] ?? "") < value) low = middle + 1;
		else high = middle;
	}
	return low;
}
