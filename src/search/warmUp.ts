import { tokenize } from "./text";

/**
 * The searches a server asks itself once its index is ready (SEARCH_WARM_UP_WORK_MS): the kinds of
 * query people ask, on words the vault's notes use, so the code they run has run before a person's
 * first search. Pure.
 */

/** One warm-up search: a query as typed, and its folder or tag filter. */
export interface WarmUpSearch {
	query: string;
	folder?: string;
	tag?: string;
}

/** Words the warm-up asks about: enough for its queries' kinds (see `warmUpSearches`). */
export const WARM_UP_WORDS = 10;
/** The shortest word the warm-up asks about: shorter ones are mostly stop words, numbers and parts of identifiers. */
const WARM_UP_MIN_WORD_CHARS = 3;
/** Letters a warm-up prefix keeps of its word: a prefix as short as people type, which starts a few words. */
const WARM_UP_PREFIX_CHARS = 3;

/**
 * Up to `count` words of `texts` for the warm-up: the words of letters only, WARM_UP_MIN_WORD_CHARS
 * or longer, not stop words, that the most notes hold (`notesHolding`, 0 for a word no note
 * holds), the most held first; ties in the order first met. A common word's search runs the loops
 * a person's common words run, often enough for the runtime to optimize them.
 */
export function warmUpWords(texts: readonly string[], notesHolding: (word: string) => number, isStopWord: (word: string) => boolean, count = WARM_UP_WORDS): string[] {
	const held = new Map<string, number>();
	for (const text of texts) {
		for (const token of tokenize(text)) {
			const word = token.value;
			if (held.has(word) || word.length < WARM_UP_MIN_WORD_CHARS || !/^\p{L}+$/u.test(word) || isStopWord(word)) continue;
			held.set(word, notesHolding(word));
		}
	}
	return [...held]
		.filter(([, notes]) => notes > 0)
		.sort((a, b) => b[1] - a[1])
		.slice(0, count)
		.map(([word]) => word);
}

/**
 * The warm-up's searches on `words` (most held first): one word on each of the first six, then two
 * words, a phrase of two and of three, a prefix, an exclusion and a stop word beside a word, and a
 * word in `folder` and among the notes carrying `tag` when there are such. A query whose words are
 * not there is left out; none when there are no words.
 */
export function warmUpSearches(words: readonly string[], folder?: string, tag?: string): WarmUpSearch[] {
	const [first, second, third, fourth, fifth] = words;
	if (first === undefined) return [];
	const searches: WarmUpSearch[] = words.slice(0, 6).map((word) => ({ query: word }));
	const kinds: Array<[string | undefined, () => WarmUpSearch]> = [
		[second, () => ({ query: `${first} ${second}` })],
		[fourth, () => ({ query: `${third} ${fourth}` })],
		[second, () => ({ query: `"${first} ${second}"` })],
		[fifth, () => ({ query: `"${third} ${fourth} ${fifth}"` })],
		[first, () => ({ query: first.slice(0, WARM_UP_PREFIX_CHARS) })],
		[second, () => ({ query: `${first} -${second}` })],
		[first, () => ({ query: `the ${first}` })],
		[folder, () => ({ query: first, folder })],
		[tag, () => ({ query: first, tag })],
	];
	for (const [needed, search] of kinds) if (needed !== undefined) searches.push(search());
	return searches;
}
