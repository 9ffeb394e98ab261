import { SEARCH_WARM_UP_WORDS } from "../config/limits";

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

/** The shortest word the warm-up asks about: shorter ones are mostly stop words, numbers and parts of identifiers. */
const WARM_UP_MIN_WORD_CHARS = 3;
/** Paragraphs of the warm-up's made-up note (warmUpText): about 2 KB, a note's usual length. */
const WARM_UP_TEXT_PARAGRAPHS = 12;
/** Letters a warm-up prefix leaves off its word: a word not in the dictionary, found only as the start of a few words (a short prefix starts hundreds: 47 ms of a first search at 10,000 notes). */
const WARM_UP_PREFIX_CUT = 1;

/**
 * Up to `count` of `words` for the warm-up: those of letters only, WARM_UP_MIN_WORD_CHARS or
 * longer, not stop words, that the most notes hold (`notesHolding`, 0 for a word no note holds),
 * the most held first (ties in the order given), leaving out a word that starts another taken or
 * is started by one (`plans` beside `plan`: one word's forms, not two words). A common word's
 * search runs the loops a person's common words run, often enough for the runtime to optimize them.
 */
export function warmUpWords(
	words: Iterable<string>,
	notesHolding: (word: string) => number,
	isStopWord: (word: string) => boolean,
	count = SEARCH_WARM_UP_WORDS,
): string[] {
	const held = new Map<string, number>();
	for (const word of words) {
		if (held.has(word) || word.length < WARM_UP_MIN_WORD_CHARS || !/^\p{L}+$/u.test(word) || isStopWord(word)) continue;
		held.set(word, notesHolding(word));
	}
	const taken: string[] = [];
	for (const [word, notes] of [...held].sort((a, b) => b[1] - a[1])) {
		if (taken.length >= count || notes === 0) break;
		if (!taken.some((other) => other.startsWith(word) || word.startsWith(other))) taken.push(word);
	}
	return taken;
}

/**
 * A made-up note's text for the warm-up's snippets, holding `words` (a heading of the first two,
 * then paragraphs of them between everyday words, with a link, a tag, code and a web address, as
 * notes have): the snippet code runs as on a note, and no note is read (a read is work a person
 * would see: in another program's file, or in a test that counts them).
 */
export function warmUpText(words: readonly string[]): string {
	const at = (index: number) => words[index % Math.max(1, words.length)] ?? "";
	const lines = [`# ${at(0)} ${at(1)}`, ""];
	for (let paragraph = 0; paragraph < WARM_UP_TEXT_PARAGRAPHS; paragraph++) {
		const sentence = (from: number) =>
			`The ${at(from)} and ${at(from + 1)} of a ${at(from + 2)}, then ${at(from + 3)} ${at(from + 4)} for the ${at(from + 5)}.`;
		lines.push(
			`${sentence(paragraph)} See [[${at(paragraph + 2)}]] and #${at(paragraph + 3)}; \`${at(paragraph + 4)}\` at https://example.com/${at(paragraph + 1)}. ${sentence(paragraph + 3)}`,
			"",
		);
		if (paragraph % 3 === 2) lines.push(`## ${at(paragraph + 5)}`, "");
	}
	return lines.join("\n");
}

/**
 * The warm-up's searches on `words` (most held first), every kind in the first ten (the warm-up
 * may end at its work bound before the last): one word (three: the kind people ask most), two
 * words, a phrase of two, a prefix, an exclusion, a stop word beside a word, a word in `folder` and
 * among the notes carrying `tag` (when there are such); then three more of one word, two words, and
 * a phrase of three. A query
 * whose words are not there is left out; none when there are no words.
 */
export function warmUpSearches(words: readonly string[], folder?: string, tag?: string): WarmUpSearch[] {
	const [first, second, third, fourth, fifth, sixth] = words;
	if (first === undefined) return [];
	const kinds: Array<[unknown, () => WarmUpSearch]> = [
		[first, () => ({ query: first })],
		[second, () => ({ query: `${second}` })],
		[third, () => ({ query: `${third}` })],
		[second, () => ({ query: `${first} ${second}` })],
		[second, () => ({ query: `"${first} ${second}"` })],
		[first, () => ({ query: prefixOf(fourth ?? first) })],
		[third, () => ({ query: `${second} -${third}` })],
		[first, () => ({ query: `the ${third ?? first}` })],
		[folder, () => ({ query: fourth ?? first, folder })],
		[tag, () => ({ query: fifth ?? first, tag })],
		[fourth, () => ({ query: `${fourth}` })],
		[fifth, () => ({ query: `${fifth}` })],
		[sixth, () => ({ query: `${sixth}` })],
		[fourth, () => ({ query: `${third} ${fourth}` })],
		[fifth, () => ({ query: `"${third} ${fourth} ${fifth}"` })],
	];
	return kinds.filter(([needed]) => needed !== undefined).map(([, search]) => search());
}

/** The start of `word` a warm-up prefix search asks for (WARM_UP_PREFIX_CUT letters off), at least WARM_UP_MIN_WORD_CHARS letters. */
function prefixOf(word: string): string {
	return word.slice(0, Math.max(WARM_UP_MIN_WORD_CHARS, word.length - WARM_UP_PREFIX_CUT));
}
