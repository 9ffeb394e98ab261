import { ENGLISH_STOP_WORDS } from "../src/search/stopWords";

/** The fixed mixed query set the benchmark times and the index tests compare against a scan. */
export interface BenchQuery {
	label: string;
	query: string;
	folder?: string;
	tag?: string;
}

/** Queries for the synthetic vaults (their words come from bench/syntheticVault.ts). */
export const SYNTHETIC_QUERIES: BenchQuery[] = [
	{ label: "one word", query: "garden" },
	{ label: "several words", query: "budget review quarter" },
	{ label: "phrase", query: '"project meeting"' },
	{ label: "prefix", query: "gard" },
	{ label: "exclusion", query: "travel -recipe" },
	{ label: "tag filter", query: "plan", tag: "project" },
	{ label: "folder filter", query: "notes", folder: "Projects" },
	{ label: "diacritics", query: "cafe naive" },
	{ label: "CJK", query: "東京" },
	{ label: "no hits", query: "xylophone" },
	{ label: "stop words", query: "how to plan the garden" },
	{ label: "stop words, tag filter", query: "what is the plan", tag: "project" },
];

/** Queries for tasks-demo. */
export const TASKS_DEMO_QUERIES: BenchQuery[] = [
	{ label: "one word", query: "recurring" },
	{ label: "several words", query: "due date done" },
	{ label: "phrase", query: '"dataview format"' },
	{ label: "prefix", query: "sched" },
	{ label: "exclusion", query: "task -dataview" },
	{ label: "tag filter", query: "task", tag: "task" },
	{ label: "folder filter", query: "query", folder: "Test Data" },
	{ label: "no hits", query: "xylophone" },
	{ label: "whole title", query: "tasks" },
	{ label: "stop words", query: "how to access links" },
	{ label: "stop words, folder filter", query: "how to use the filters", folder: "Filters" },
	{ label: "only stop words", query: "the to" },
];

/**
 * Common-word queries for the common-vocabulary vault: each word is a stem in most
 * notes (the bench checks that at least half match), one word and two.
 */
export const COMMON_QUERIES: BenchQuery[] = [
	{ label: "one common word", query: "garden" },
	{ label: "one common word", query: "project" },
	{ label: "one common word", query: "review" },
	{ label: "one common word", query: "market" },
	{ label: "two common words", query: "meeting plan" },
	{ label: "two common words", query: "garden review" },
	{ label: "two common words", query: "project market" },
	{ label: "two common words", query: "plan market" },
];

/**
 * Common-word queries that no other query of this file asks, for the bench's "first time" rows:
 * COMMON_QUERIES are asked again and again, so their searches are served partly from what the
 * engine keeps between searches (merged lists, templates and phrase candidates by word, snippets
 * by words and note, stems by word). `oneWord`: the common-vocabulary vault's `count` most common
 * stems (`stemsByRank`, most common first), leaving out COMMON_QUERIES' words, stop words, and a
 * stem another stem starts or is started by (`nemo` beside `nemoni`: a prefix of two words, not
 * one common word). `twoWords`: every pair of the first `pairWords` of those, ordered so that a
 * pair shares no word with the one before it where it can. Which notes they match is the bench's
 * to check (at least half, as for COMMON_QUERIES). `twoWordPhrases`: the same pairs quoted;
 * `threeWordPhrases`: each run of three of the first `pairWords` words, quoted (a phrase's words are
 * in most notes, the phrase itself in few: they are not checked for a share). `skip`: the first
 * `skip` of those stems are left out (queries of the same kinds on other words: the bench's untimed
 * warm-up before its timed first-time rows).
 */
export function firstTimeCommonQueries(
	stemsByRank: readonly string[],
	count: number,
	pairWords: number,
	skip = 0,
): { oneWord: BenchQuery[]; twoWords: BenchQuery[]; twoWordPhrases: BenchQuery[]; threeWordPhrases: BenchQuery[] } {
	const asked = new Set(COMMON_QUERIES.flatMap((entry) => entry.query.split(" ")));
	const stopWords = new Set(ENGLISH_STOP_WORDS);
	const related = (stem: string) => stemsByRank.some((other) => other !== stem && (other.startsWith(stem) || stem.startsWith(other)));
	const words = stemsByRank.filter((stem) => !asked.has(stem) && !stopWords.has(stem) && !related(stem)).slice(skip, skip + count);
	const pairs: Array<[string, string]> = [];
	const pairSource = words.slice(0, pairWords);
	pairSource.forEach((first, index) => pairSource.slice(index + 1).forEach((second) => pairs.push([first, second])));
	const ordered: Array<[string, string]> = [];
	while (pairs.length > 0) {
		const last = ordered.at(-1);
		const apart = pairs.findIndex((pair) => !last || !pair.some((word) => last.includes(word)));
		ordered.push(...pairs.splice(Math.max(apart, 0), 1));
	}
	return {
		oneWord: words.map((word) => ({ label: "one common word", query: word })),
		twoWords: ordered.map((pair) => ({ label: "two common words", query: pair.join(" ") })),
		twoWordPhrases: ordered.map((pair) => ({ label: "phrase of two common words", query: `"${pair.join(" ")}"` })),
		threeWordPhrases: pairSource
			.slice(2)
			.map((_, index) => ({ label: "phrase of three common words", query: `"${pairSource.slice(index, index + 3).join(" ")}"` })),
	};
}

/** Every two-letter start of the common-vocabulary vault's words (its syllables' first letters and vowels). */
const TWO_LETTER_PREFIXES = [..."klmnrtpsfgdvbz"].flatMap((consonant) => [..."aeiou"].map((vowel) => consonant + vowel));

/**
 * The slowest queries a person can type on the common-vocabulary vault: short
 * prefixes that expand to many word forms, long queries, phrases and exclusions of common words,
 * filters that leave almost nothing, non-Latin and accented prefixes, and a longest-allowed token.
 */
export const WORST_CASE_QUERIES: BenchQuery[] = [
	{ label: "one-letter prefix", query: "k" },
	{ label: "one-letter stop word", query: "a" },
	{ label: "two-letter prefix", query: "ka" },
	{
		label: "thirty common words",
		query: "garden project meeting review plan market gardens projects meetings reviews plans markets gardening planning marketing reviewed planned gardened garden project meeting review plan market gardens projects meetings reviews plans markets",
	},
	{ label: "only stop words", query: "the to of and a in is it" },
	{ label: "phrase of two common words", query: '"garden project"' },
	{ label: "phrase of three common words", query: '"garden project meeting"' },
	{
		label: "many exclusions",
		query: "garden -project -review -market -plan -meeting -gardens -projects -reviews -markets -plans -meetings -k -l -m -n -r -t -p -s",
	},
	{ label: "folder matching nothing", query: "garden", folder: "Nowhere" },
	{ label: "tag matching almost nothing", query: "garden", tag: "status/none" },
	{ label: "accented prefix", query: "é" },
	{ label: "non-Latin prefix", query: "東" },
	{ label: "longest token", query: "k".repeat(500) },
	{ label: "many one-letter prefixes", query: "k l m n r t p s f g d v b z k l m n r t p s f g d v b z" },
	{ label: "many one-letter exclusions", query: `garden ${"-k ".repeat(160)}` },
	{ label: "phrase of many words", query: `"${"garden ".repeat(60)}"` },
	{ label: "many two-letter exclusions", query: `garden ${TWO_LETTER_PREFIXES.map((prefix) => `-${prefix}`).join(" ")}` },
	{ label: "many two-letter prefixes", query: TWO_LETTER_PREFIXES.join(" ") },
];
