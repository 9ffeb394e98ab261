import type { QueryTerm } from "./query";
import type { Stemmer } from "./stemmers";
import { BODY_COUNT, IN_HEADING, IN_TITLE } from "./postingValues";

/** How a candidate note is scored: BM25 with field weights, evidence weights, tiers. Pure. */

/** BM25's usual constants; title and heading matches add a fixed weight on top of the body score. */
export const BM25_K1 = 1.2;
export const BM25_B = 0.75;
const TITLE_WEIGHT = 3;
const HEADING_WEIGHT = 1.5;
/**
 * How much a stop word the query holds (optional: it never finds a note) counts against a content
 * word as rare. In a technical vault `I`, `my` or `how` are rarer than `package` and `publish`, so
 * at full weight the page that says "how do I … my" outranked the pages about the content words.
 */
export const OPTIONAL_WORD_WEIGHT = 0.5;
/** Weight of how well a title and the query overlap (titleCoverage), times the query terms' mean idf. */
export const TITLE_COVERAGE_WEIGHT = 3;
/**
 * How much a match counts by its evidence: the word as typed, another form of it (same stem), a
 * longer word it starts. For a one-word query the tier already puts the word as typed above its
 * forms, and its forms above its extensions; for several words these weigh each word's score.
 */
export const FORM_MATCH_WEIGHT = 0.7;
export const PREFIX_MATCH_WEIGHT = 0.3;
/**
 * How much a word meaning the same as the query's (`parameters` for `params`, `prohibit` for
 * `forbid`: expansions.ts) counts: less than the word's own forms, which are surely the same word,
 * more than a longer word it starts, which often is not (`cat` → `catalog`).
 */
export const EXPANSION_MATCH_WEIGHT = 0.5;
/**
 * How much a word that two adjacent query words make together (`log in` → `login`, `back up` →
 * `backup`, `setting up` → `setup`) counts, against a query word as typed: it is what the person
 * meant as often as the two words are, but it finds no note by itself, so it only ranks.
 */
export const JOINED_WORD_WEIGHT = 1;
/** Title tiers: no query word in the title or an alias, some, all, the whole name is the query's words. */
export const TITLE_TIER_SOME = 1;
export const TITLE_TIER_ALL = 2;
export const TITLE_TIER_WHOLE = 3;
/**
 * How much a note's score keeps when it lacks some query words: the share of the query's idf it
 * holds (a word held only as a longer word it starts counts PREFIX_MATCH_WEIGHT of its idf),
 * raised to this power. Below 1, so missing an everyday word ("make", "give") costs little and
 * missing the one rare word costs much: a note is not ranked first for holding more words, but
 * for holding the words that tell notes apart.
 */
export const COVERAGE_POWER = 0.5;
/**
 * The share of the query (COVERAGE_POWER) a note counts as holding, at least, when its title is
 * nothing but query words (as typed or in another form) and each of them titles no other note:
 * the page the vault names for the question's topic. `Logging` for `turn on logging`: documentation
 * says its topic word on most pages (low idf) and the question's everyday word in passing on a
 * few (high idf), so by idf alone the topic's own page held a sixth of the query and fell behind
 * pages mentioning both words. A word titling several notes (`Rules`, `Plugins`) is a category of
 * the vault, not a topic: those notes are not lifted.
 */
export const NAMED_TOPIC_SHARE = 0.5;

/**
 * How much of its idf a query word that no note names (in no title, alias or heading of the notes
 * searched, as typed or in another form) counts for in the share of the query a note holds
 * (COVERAGE_POWER). Documentation names its topics in titles and headings and says its everyday
 * words (`better`, `between`, `extra`, `write`) in passing, on a few pages: by idf alone such a word
 * outweighed the topic words, so the page about the topic that does not happen to say it lost to
 * pages that do. Its score (BM25) is untouched: a note saying the word still gains by it.
 */
export const UNNAMED_WORD_SHARE_WEIGHT = 0.5;

/** Whether a note of `values` (a term's postings) holds the word in its title, an alias or a heading; over `accepted` notes only when given. */
export function namesWord(list: { slots: Uint32Array; values: Uint32Array; length: number } | null, accepted: Uint8Array | null): boolean {
	if (!list) return false;
	for (let at = 0; at < list.length; at++)
		if (((list.values[at] as number) & (IN_TITLE | IN_HEADING)) !== 0 && (accepted === null || accepted[list.slots[at] as number] === 1)) return true;
	return false;
}

/** A ranked candidate: compared by tier (search() says what it holds), score, the more recently modified, then path. */
export interface Ranked {
	slot: number;
	score: number;
	tier: number;
	/** Per wanted term, 1 if the note holds it: copied when the candidate is kept. */
	matched?: Uint8Array;
}

/**
 * How well a title and the query overlap, from 0 to 1: the share of the title's words that are
 * query words, times the root (COVERAGE_POWER) of the share of the query's idf the title holds
 * (`queryShare`), so a title wins by being mostly the query's words and by holding the words that
 * tell notes apart: for `garden tool shed`, `Garden Tools` over `Garden`, which the share of the
 * title alone ranks equal.
 */
export function titleCoverage(titleWords: number, titleLength: number, queryShare: number): number {
	if (titleWords === 0 || queryShare <= 0) return 0;
	const titleShare = Math.min(1, titleWords / Math.max(1, titleLength));
	return titleShare * Math.pow(queryShare, COVERAGE_POWER);
}

/**
 * Content words of a title (the search's stop words left out) up to which each of its words weighs
 * TITLE_WEIGHT; a longer title's words share it (LONG_TITLE_WORDS / its length each). A title that
 * long lists several things (a newsletter's `2022-11-05 Email Fetching, Fancy Templating &
 * Improved Longform Writing`): one word of it says less about the note than the one word of
 * `Readwise` or the two of `Auto Link Title`. Stop words are left out so that a guide titled as a
 * question (`How to add your theme to the community theme store`) keeps its weight.
 */
export const LONG_TITLE_WORDS = 6;

/**
 * Words (runs of non-space) past which a heading is a sentence, not a section's name: its words are
 * the body's (they stay in it), not heading words. Rule pages head sections with their description
 * (`Require private members to be marked as readonly if they're never modified outside of the
 * constructor.`), FAQ-like pages with a whole question (`Case: I got the error "…" How can I fix
 * this?`), API references with a signature; each word of such a heading took HEADING_WEIGHT and
 * counted as a word the vault names, as the one word of `Timeouts` does. 15 rather than 8–12: at 8
 * and 10 sections named by a long phrase lost it (typescript-eslint −0.04 and −0.01 MRR, jest −0.009).
 */
export const SENTENCE_HEADING_WORDS = 15;

/** Whether a heading has more than SENTENCE_HEADING_WORDS words (counted only that far: a heading may be megabytes). */
export function isSentenceHeading(heading: string): boolean {
	const words = /\S+/g;
	for (let count = 0; count <= SENTENCE_HEADING_WORDS; count++) if (words.exec(heading) === null) return false;
	return true;
}

/** What a title word's TITLE_WEIGHT loses in a title of `contentWords` content words (LONG_TITLE_WORDS). */
export function longTitleCut(contentWords: number): number {
	return contentWords > LONG_TITLE_WORDS ? TITLE_WEIGHT * (1 - LONG_TITLE_WORDS / contentWords) : 0;
}

/** The largest `fieldScore` of any value: BM25's body part stays below k1 + 1, plus both fixed weights. */
export const FIELD_SCORE_MAX = BM25_K1 + 1 + TITLE_WEIGHT + HEADING_WEIGHT;

/** A term's BM25 body score in one note, plus its fixed title and heading weights. */
export function fieldScore(value: number, norm: number): number {
	const tf = value & BODY_COUNT;
	return (tf * (BM25_K1 + 1)) / (tf + norm) + (value & IN_TITLE ? TITLE_WEIGHT : 0) + (value & IN_HEADING ? HEADING_WEIGHT : 0);
}

/** A stemmer that remembers its answers (up to `words` of them, then forgets them all and starts again); null stays null. */
export function memoized(stem: Stemmer | null, words = Number.POSITIVE_INFINITY): Stemmer | null {
	if (!stem) return null;
	const known = new Map<string, string>();
	return (word) => {
		let answer = known.get(word);
		if (answer === undefined) {
			// Kept as a copy: a word cut from a note's text may be a view of the whole text, which a
			// memo living across searches would otherwise keep alive (and its stem, cut from the word, too).
			const kept = word.split("").join("");
			answer = stem(kept);
			if (known.size >= words) known.clear();
			known.set(kept, answer);
		}
		return answer;
	};
}

/** A filter that keeps the first of the terms with the same words. */
export function onceEach(): (term: QueryTerm) => boolean {
	const seen = new Set<string>();
	return (term) => {
		const key = term.tokens.join(" ");
		if (seen.has(key)) return false;
		seen.add(key);
		return true;
	};
}

/**
 * How much of a top note's score rests on its query words standing close together: the score is
 * times the root (COVERAGE_POWER) of 1 − PASSAGE_SHARE + PASSAGE_SHARE · (the most idf one passage
 * holds / the idf the note holds). A note saying its words in one passage (or in its title) keeps
 * its score; a long page saying them pages apart keeps at least the root of 1 − PASSAGE_SHARE of
 * it. Below 1, so holding a word far away still counts: a note is cut, never dropped, for it.
 * 0.8 rather than 0.6: a long reference page that says each word of the question in another
 * section (fastify's `Decorators` for a question about a decorator not visible in another plugin)
 * still outranked the page saying them in one paragraph; at 0.9 a short page's one everyday word
 * said apart cost it its place (Obsidian Help), so 0.8.
 */
const PASSAGE_SHARE = 0.8;

/**
 * How much of a long note's score rests on the query's words standing in one of its level-1 or
 * level-2 sections (sections.ts, in a body of SECTION_MIN_TOKENS or more): the score is times the
 * root of 1 − SECTION_SHARE + SECTION_SHARE · (the most idf one section holds / the idf the note
 * holds), on top of PASSAGE_SHARE's cut. A long page holds the words of many questions, each in
 * the section about its topic: Homebrew's 89 KB formula cookbook, serverless.yml's reference of
 * every setting, a guide's sections on deploying and on testing. A passage of 80 tokens tells a
 * paragraph from a page, not one topic from another: words said three paragraphs apart in one
 * section are about one thing, and about two things in two sections. 0.4, 0.5 and 0.6 found the
 * same questions. Sections of every level cost jest a question and npm 0.026 MRR, and at 1,000
 * tokens Cargo 0.015 MRR; of levels 1–3 a CodeceptJS question (a `###` is a part of one topic:
 * `Options`, `Examples`); level 1 only changed nothing (rank87).
 */
const SECTION_SHARE = 0.5;

/** The least `proximityFactor` gives a note without sections: one whose words all stand pages apart keeps this share of its score. */
export const LEAST_PASSAGE_FACTOR = Math.pow(1 - PASSAGE_SHARE, COVERAGE_POWER);

/** The least `proximityFactor` gives: a note whose words all stand pages apart, each in another section, keeps this share of its score. */
export const LEAST_PROXIMITY_FACTOR = LEAST_PASSAGE_FACTOR * Math.pow(1 - SECTION_SHARE, COVERAGE_POWER);

/**
 * What a top note's score is multiplied by for how close it keeps the query's words: by the best
 * passage (PASSAGE_SHARE) and the best section (SECTION_SHARE; `sectionIdf` is `heldIdf` for a note
 * without sections); 1 when it holds none.
 */
export function proximityFactor(passageIdf: number, sectionIdf: number, heldIdf: number): number {
	if (heldIdf <= 0) return 1;
	const passage = 1 - PASSAGE_SHARE + (PASSAGE_SHARE * Math.min(passageIdf, heldIdf)) / heldIdf;
	const section = 1 - SECTION_SHARE + (SECTION_SHARE * Math.min(sectionIdf, heldIdf)) / heldIdf;
	return Math.pow(passage * section, COVERAGE_POWER);
}
