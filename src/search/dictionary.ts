import {
	MAX_WORD_FORM_CANDIDATES,
	FORM_WALK_STEP_WORDS,
	FORM_WALK_STEP_POSTINGS,
	PREFIX_WALK_STEP_WORDS,
	TOKENS_INSERTED_IN_PLACE,
	DICTIONARY_SORT_STEP_TOKENS,
	DICTIONARY_FIRST_WORDS,
} from "../config/limits";
import { tokenHash } from "./pairSketch";
import { growUint32 } from "./postingValues";
import { ChunkedArray } from "../markdown/chunkedArray";
import { OrderedSplitStringMap } from "../markdown/splitStringMap";
import type { Stemmer } from "./stemmers";
import { runSteps } from "./unions";

/** Shortest query word whose other forms are looked for: `is` and `ga` have none worth the look. */
const MIN_FORM_WORD_CHARS = 3;

/**
 * Whether the notes a search is limited to hold a word (`holds`), and what asking has cost so far:
 * `walked`, the postings entries looked at (a word held only outside them is walked whole).
 */
export interface HeldAmong {
	holds(id: number): boolean;
	readonly walked: number;
}

/**
 * Token ↔ id, with prefix lookups over a sorted view. The view is built on the first lookup; new
 * tokens wait beside it and are merged in by the next lookup, so a note edited with a new word
 * does not make the next search re-sort the whole dictionary. A search that may pause builds or
 * merges the view in steps first (`sortedViewSteps`).
 */
export class TermDictionary {
	private readonly ids = new OrderedSplitStringMap<number>(DICTIONARY_FIRST_WORDS);
	private sorted: string[] | null = null;
	/**
	 * Tokens added since the sorted view was last brought up to date (or since a sort in steps took
	 * its tokens), in chunks: one array of them grew by copying all it held, a piece of about 50 ms
	 * at 330,000 and 540,000 words when a note brought that many new words between two searches.
	 */
	private notYetSorted = new ChunkedArray<string>();
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
	 * stemmed, at most MAX_WORD_FORM_CANDIDATES of them. `held`, for a search among some notes only
	 * (a token's folders): whether those notes hold a word; the others are passed over uncounted,
	 * so words only notes outside them hold never take the place of a form.
	 */
	formsOf(word: string, stem: Stemmer | null = this.stem, held?: HeldAmong): number[] {
		return runSteps(this.formsOfSteps(word, stem, held));
	}

	/**
	 * `formsOf` in steps that yield where a search may pause, every FORM_WALK_STEP_WORDS words looked
	 * at or FORM_WALK_STEP_POSTINGS postings entries `held` walked, whichever comes first: the words
	 * `held` passes over are not bounded (any number of notes outside the searched ones may hold
	 * words of the stem's start), and were walked in one piece.
	 */
	*formsOfSteps(word: string, stem: Stemmer | null = this.stem, held?: HeldAmong): Generator<void, number[], void> {
		if (!stem || word.length < MIN_FORM_WORD_CHARS) return [];
		const target = stem(word);
		const start = target.slice(0, Math.max(2, target.length - 1));
		if (start.length < 2) return [];
		let sorted = this.sortedTokens();
		const found: number[] = [];
		let looked = 0;
		let walked = 0;
		let stepEnd = FORM_WALK_STEP_POSTINGS;
		for (let index = lowerBound(sorted, start); index < sorted.length; index++) {
			if (++walked % FORM_WALK_STEP_WORDS === 0 || (held && held.walked >= stepEnd)) {
				walked = 0;
				if (held) stepEnd = held.walked + FORM_WALK_STEP_POSTINGS;
				const next = sorted[index] ?? "";
				sorted = yield* this.sortedAfterPause();
				// Carry on from this word where it is now.
				index = lowerBound(sorted, next);
				if (index >= sorted.length) break;
			}
			const token = sorted[index] ?? "";
			if (!token.startsWith(start)) break;
			const id = this.ids.get(token);
			if (held && (id === undefined || !held.holds(id))) continue;
			if (++looked > MAX_WORD_FORM_CANDIDATES) break;
			if (token === word || stem(token) !== target) continue;
			if (id !== undefined) found.push(id);
		}
		return found;
	}

	/**
	 * Yields once, then the sorted view up to date: words added meanwhile are inserted in place, or
	 * (many of them, as a note of thousands of new words brings) merged in steps that yield too.
	 */
	private *sortedAfterPause(): Generator<void, string[], void> {
		yield;
		yield* this.sortedViewSteps();
		return this.sortedTokens();
	}

	idOf(token: string): number {
		let id = this.ids.getOrAdd(token, this.ids.size);
		if (id === undefined) {
			id = this.ids.size - 1;
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
		return runSteps(this.withPrefixSteps(prefix));
	}

	/**
	 * `withPrefix` in steps that yield where a search may pause, every PREFIX_WALK_STEP_WORDS words,
	 * leaving out the ids in `skip`. A word added meanwhile may be found or not: only a note added
	 * meanwhile holds it, and a search that pauses leaves such notes out (`PostingsIndex.listsOfSteps`).
	 * When more than `most` words start with `prefix`, only the `most` shortest that `held` holds are
	 * taken (the nearest completions of a word being typed; alphabetical among the same length): a word
	 * no note holds any more (its notes deleted or excluded), or only notes outside the searched ones,
	 * takes no place, as in `formsOfSteps`. The look pauses too, every FORM_WALK_STEP_POSTINGS entries.
	 * `said.cut` is set when longer words were left out so (the answer says so).
	 */
	*withPrefixSteps(prefix: string, skip?: ReadonlySet<number>, most = Infinity, held?: HeldAmong, said?: { cut: boolean }): Generator<void, number[], void> {
		const words = yield* this.wordsWithPrefixSteps(prefix);
		const found: number[] = [];
		if (words.length <= most) {
			for (let from = 0; from < words.length; from += PREFIX_WALK_STEP_WORDS) {
				if (from > 0) yield;
				this.idsOf(words, from, Math.min(words.length, from + PREFIX_WALK_STEP_WORDS), skip, found);
			}
			return found;
		}
		// The walk's last step, the sort, each step of the held look and the caller's first lists were one piece: 48,000 words
		// starting `b1` cut to 4,096 were 15 ms sorted, 31 ms looked up and 20 ms of lists taken, a piece of 82–99 ms.
		yield;
		const shortest = byLength(words);
		// One word past `most` is looked for: only a held word left out is a cut. Words after the last held one that no
		// searched note holds (a deleted note's, another folder's) left out nothing, and the notice must not tell of them.
		for (let from = 0; from < shortest.length && found.length <= most;) {
			yield;
			const stepEnd = held ? held.walked + FORM_WALK_STEP_POSTINGS : Infinity;
			from = this.heldIdsOf(shortest, from, Math.min(shortest.length, from + PREFIX_WALK_STEP_WORDS), { skip, held, stepEnd }, most + 1, found);
		}
		if (found.length > most) {
			found.length = most;
			if (said) said.cut = true;
		}
		yield;
		return found;
	}

	/** The words starting with `prefix`, alphabetical, walked in steps that yield every PREFIX_WALK_STEP_WORDS words. */
	*wordsWithPrefixSteps(prefix: string): Generator<void, string[], void> {
		let sorted = this.sortedTokens();
		const words: string[] = [];
		let index = lowerBound(sorted, prefix);
		for (;;) {
			index = prefixRun(sorted, index, prefix, words);
			if (index < 0) break;
			const next = sorted[index] ?? "";
			sorted = yield* this.sortedAfterPause();
			index = lowerBound(sorted, next);
		}
		return words;
	}

	/**
	 * The ids of the words `held` holds among `words` (every one without `held`), in steps
	 * (PREFIX_WALK_STEP_WORDS words or FORM_WALK_STEP_POSTINGS entries walked); null as soon as
	 * more than `most` are held.
	 */
	*heldIdsSteps(words: readonly string[], held: HeldAmong | undefined, most: number): Generator<void, number[] | null, void> {
		const found: number[] = [];
		for (let from = 0; from < words.length;) {
			if (from > 0) yield;
			const stepEnd = held ? held.walked + FORM_WALK_STEP_POSTINGS : Infinity;
			from = this.heldIdsOf(words, from, Math.min(words.length, from + PREFIX_WALK_STEP_WORDS), { skip: undefined, held, stepEnd }, most + 1, found);
			if (found.length > most) return null;
		}
		return found;
	}

	/** Adds to `found` the ids of `words[from…to)` not in `skip`. A plain function, not the generator's own loop: V8 runs a loop inside a generator several times slower. */
	private idsOf(words: readonly string[], from: number, to: number, skip: ReadonlySet<number> | undefined, found: number[]): void {
		for (let index = from; index < to; index++) {
			const id = this.ids.get(words[index] as string);
			if (id !== undefined && skip?.has(id) !== true) found.push(id);
		}
	}

	/**
	 * `idsOf`, less the words `held` does not hold, until `found` has `most` or `held` has walked to
	 * `stepEnd` postings entries (a word held only outside the searched notes is walked whole); where to go on.
	 */
	private heldIdsOf(
		words: readonly string[],
		from: number,
		to: number,
		look: { skip: ReadonlySet<number> | undefined; held: HeldAmong | undefined; stepEnd: number },
		most: number,
		found: number[],
	): number {
		const { skip, held, stepEnd } = look;
		let index = from;
		while (index < to && found.length < most) {
			const id = this.ids.get(words[index++] as string);
			if (id !== undefined && skip?.has(id) !== true && held?.holds(id) !== false) found.push(id);
			if (held && held.walked >= stepEnd) break;
		}
		return index;
	}

	/**
	 * The first `count` tokens in the order they were first met (the map keeps it): the words of the
	 * first notes indexed, the words most notes hold among the first met.
	 */
	firstTokens(count: number): string[] {
		const tokens: string[] = [];
		for (const token of this.ids.keys()) {
			if (tokens.length >= count) break;
			tokens.push(token);
		}
		return tokens;
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
		const waiting = this.notYetSorted;
		if (this.sorted) this.notYetSorted = new ChunkedArray<string>();
		const added = this.sorted ? yield* waiting.toArraySteps() : yield* this.tokensSteps();
		const sortedAdded = yield* sortTokensSteps(added);
		const sorted = this.sorted;
		if (!sorted) {
			this.sorted = sortedAdded;
			return;
		}
		// The view and the new tokens, two sorted runs, merged (never copied into one array first: that copy of the view was one piece).
		const merged = new Array<string>(sorted.length + sortedAdded.length);
		yield* mergeSteps({ tokens: sorted, at: 0, end: sorted.length }, { tokens: sortedAdded, at: 0, end: sortedAdded.length }, merged, 0, merged.length);
		this.sorted = merged;
	}

	/**
	 * Every token there is now, in steps: the map keeps insertion order and never loses a token, so
	 * its first `size` keys are exactly these, whatever is added meanwhile (into notYetSorted).
	 */
	private *tokensSteps(): Generator<void, string[], void> {
		const tokens = new Array<string>(this.ids.size);
		this.notYetSorted = new ChunkedArray<string>();
		const keys = this.ids.keys();
		for (let index = 0; index < tokens.length; index++) {
			tokens[index] = keys.next().value as string;
			if ((index + 1) % DICTIONARY_SORT_STEP_TOKENS === 0) yield;
		}
		return tokens;
	}

	/** Every token, sorted: built on the first call (in one piece, unless a search built it in steps), then brought up to date with the tokens added since. */
	private sortedTokens(): string[] {
		runSteps(this.sortedViewSteps());
		const sorted = this.sorted as string[];
		const added = this.notYetSorted;
		this.notYetSorted = new ChunkedArray<string>();
		for (let index = 0; index < added.length; index++) {
			const token = added.get(index);
			sorted.splice(lowerBound(sorted, token), 0, token);
		}
		return sorted;
	}
}

/**
 * Distinct tokens sorted in place (the order of `<`, as `sort()` and lowerBound use), in steps:
 * runs of DICTIONARY_SORT_STEP_TOKENS sorted, then merged two by two between it and one more array, as
 * sortInSlices does (src/vault/workBudget.ts). Returns whichever of the two holds the result.
 */
function* sortTokensSteps(tokens: string[]): Generator<void, string[], void> {
	for (let start = 0; start < tokens.length; start += DICTIONARY_SORT_STEP_TOKENS) {
		const run = tokens.slice(start, start + DICTIONARY_SORT_STEP_TOKENS).sort();
		copyRun(run, tokens, start);
		yield;
	}
	let from = tokens;
	let into = new Array<string>(tokens.length);
	for (let width = DICTIONARY_SORT_STEP_TOKENS; width < from.length; width *= 2) {
		for (let start = 0; start < from.length; start += 2 * width) {
			const middle = Math.min(start + width, from.length);
			const end = Math.min(start + 2 * width, from.length);
			yield* mergeSteps({ tokens: from, at: start, end: middle }, { tokens: from, at: middle, end }, into, start, end);
		}
		[from, into] = [into, from];
	}
	return from;
}

/** A sorted run of distinct tokens, `tokens[at, end)`: `at` moves on as a merge takes them. */
interface Run {
	readonly tokens: readonly string[];
	at: number;
	readonly end: number;
}

/** Copies `run` into `into` from `at` on. */
function copyRun(run: readonly string[], into: string[], at: number): void {
	for (let index = 0; index < run.length; index++) into[at + index] = run[index] as string;
}

/** Merges the sorted runs `left` and `right` into `into[start, end)`, in steps of DICTIONARY_SORT_STEP_TOKENS tokens. */
function* mergeSteps(left: Run, right: Run, into: string[], start: number, end: number): Generator<void, void, void> {
	for (let out = start; out < end; out += DICTIONARY_SORT_STEP_TOKENS) {
		mergeRuns(left, right, into, out, Math.min(end, out + DICTIONARY_SORT_STEP_TOKENS));
		if (out + DICTIONARY_SORT_STEP_TOKENS < end) yield;
	}
}

/**
 * Merges on two sorted runs of distinct tokens, from where each has got to (moved), into
 * `into[out, stop)`. A plain function, not a generator's own loop: V8 runs a loop inside a
 * generator several times slower.
 */
function mergeRuns(left: Run, right: Run, into: string[], out: number, stop: number): void {
	const { tokens: lefts, end: leftEnd } = left;
	const { tokens: rights, end: rightEnd } = right;
	let { at: next } = left;
	let { at: other } = right;
	for (let place = out; place < stop; place++)
		into[place] =
			other >= rightEnd || (next < leftEnd && (lefts[next] as string) < (rights[other] as string))
				? (lefts[next++] as string)
				: (rights[other++] as string);
	left.at = next;
	right.at = other;
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

/**
 * Adds to `words` the words from `sorted[from]` on that start with `prefix`, at most
 * PREFIX_WALK_STEP_WORDS of them; where to go on, or -1 past the last. Pure.
 */
function prefixRun(sorted: readonly string[], from: number, prefix: string, words: string[]): number {
	const end = Math.min(sorted.length, from + PREFIX_WALK_STEP_WORDS);
	for (let index = from; index < end; index++) {
		const token = sorted[index] as string;
		if (!token.startsWith(prefix)) return -1;
		words.push(token);
	}
	return end < sorted.length ? end : -1;
}

/**
 * `words` (sorted) shortest first, alphabetical among the same length: counted by length, then each
 * put in its place, in two passes (buckets joined by flatMap were 13 ms at 110,000 words). Pure.
 */
export function byLength(words: readonly string[]): string[] {
	const startOfLength: number[] = [];
	for (const word of words) startOfLength[word.length] = (startOfLength[word.length] ?? 0) + 1;
	let start = 0;
	for (let length = 0; length < startOfLength.length; length++) {
		const count = startOfLength[length] ?? 0;
		startOfLength[length] = start;
		start += count;
	}
	const ordered = new Array<string>(words.length);
	for (const word of words) ordered[(startOfLength[word.length] as number)++] = word;
	return ordered;
}
