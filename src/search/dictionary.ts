import { MAX_WORD_FORM_CANDIDATES } from "../config/limits";
import { tokenHash } from "./pairSketch";
import { growUint32 } from "./postingValues";
import type { Stemmer } from "./stemmers";

/** Shortest query word whose other forms are looked for: `is` and `ga` have none worth the look. */
const MIN_FORM_WORD_CHARS = 3;

/**
 * New tokens a lookup inserts one by one into the sorted view; more are sorted and merged into it
 * in one pass. An insertion moves half the view on average (about 17 µs at 290,000 tokens), a
 * merge all of it once (about 15 ms): a note of 40,000 new words, inserted one by one, took 0.7 s.
 */
const TOKENS_INSERTED_IN_PLACE = 512;

/**
 * Token ↔ id, with prefix lookups over a sorted view. The view is built on the first lookup; new
 * tokens wait beside it and are merged in by the next lookup, so a note edited with a new word
 * does not make the next search re-sort the whole dictionary.
 */
export class TermDictionary {
	private readonly ids = new Map<string, number>();
	private sorted: string[] | null = null;
	/** Tokens added since the sorted view was last brought up to date. */
	private notYetSorted: string[] = [];
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
			if (this.sorted) this.notYetSorted.push(token);
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

	/** Every token, sorted: built on the first call, then brought up to date with the tokens added since. */
	private sortedTokens(): string[] {
		if (!this.sorted) {
			this.sorted = [...this.ids.keys()].sort();
			this.notYetSorted = [];
			return this.sorted;
		}
		const added = this.notYetSorted;
		if (added.length === 0) return this.sorted;
		this.notYetSorted = [];
		if (added.length <= TOKENS_INSERTED_IN_PLACE) {
			for (const token of added) this.sorted.splice(lowerBound(this.sorted, token), 0, token);
		} else {
			this.sorted = mergeSorted(this.sorted, added.sort());
		}
		return this.sorted;
	}
}

/** Two sorted arrays of distinct tokens as one sorted array (the order of `<`, as `sort()` and lowerBound use). */
function mergeSorted(a: readonly string[], b: readonly string[]): string[] {
	const merged = new Array<string>(a.length + b.length);
	let i = 0;
	let j = 0;
	for (let out = 0; out < merged.length; out++)
		merged[out] = j >= b.length || (i < a.length && (a[i] as string) < (b[j] as string)) ? (a[i++] as string) : (b[j++] as string);
	return merged;
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
