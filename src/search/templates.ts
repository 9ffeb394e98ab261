import { BODY_COUNT, IN_TITLE, type ResolvedTerm } from "./postingValues";

/**
 * Words of a template that most notes of a vault were made from: a community vault's footer
 * (`Edit In GitHub`, `Hub footer`) or a people note's empty `Discord:` line puts the same word the
 * same number of times in thousands of notes. Its idf is then about zero, so a note titled for it
 * (`Using Discord`) ranked like any other, and each note's count of it said nothing. A word the
 * notes are about (`package` in npm's docs, `note` in Obsidian's help) is said a different number
 * of times in each note, so it is not taken for one.
 */

/** A word in fewer notes than this share of the searched notes is not looked at: a template's word is in most of them. */
export const TEMPLATE_MIN_NOTE_SHARE = 0.25;
/** Nor in fewer than this many notes: fewer say little about how often a template repeats it. */
export const TEMPLATE_MIN_NOTES = 50;
/**
 * Share of the notes holding a word that hold it exactly as many times, at least twice (the
 * template's count), for it to be a template's word. Measured: template words 0.85–0.96 of the
 * Obsidian Hub's notes (`discord` 2 times, `github` 8, `hub` 12); words the notes are about 0.30
 * at most (npm's docs, Obsidian Help). Once is not a template's count: in a vault of short notes
 * most words are said once.
 */
export const TEMPLATE_COUNT_SHARE = 0.8;
/** Counts above this are never a template's (and are not tallied). */
const TEMPLATE_COUNT_MAX = 63;

/** A template's word: how many times the template says it, and how many notes hold it beyond that (in the title, or a count other than the template's). */
export interface TemplateWord {
	count: number;
	notes: number;
}

/** The template count of a word's postings among the accepted notes (null: all), or null when it is no template's word. Pure. */
export function templateWord(term: ResolvedTerm, accepted: Uint8Array | null, corpusSize: number): TemplateWord | null {
	if (term.length < Math.max(TEMPLATE_MIN_NOTES, corpusSize * TEMPLATE_MIN_NOTE_SHARE)) return null;
	const tally = new Uint32Array(TEMPLATE_COUNT_MAX + 1);
	let holders = 0;
	for (let index = 0; index < term.length; index++) {
		if (accepted && accepted[term.slots[index] as number] !== 1) continue;
		holders++;
		const count = (term.values[index] as number) & BODY_COUNT;
		if (count <= TEMPLATE_COUNT_MAX) tally[count] = (tally[count] as number) + 1;
	}
	if (holders < Math.max(TEMPLATE_MIN_NOTES, corpusSize * TEMPLATE_MIN_NOTE_SHARE)) return null;
	let count = 2;
	for (let each = 3; each <= TEMPLATE_COUNT_MAX; each++) if ((tally[each] as number) > (tally[count] as number)) count = each;
	if ((tally[count] as number) < holders * TEMPLATE_COUNT_SHARE) return null;
	let notes = 0;
	for (let index = 0; index < term.length; index++) {
		if (accepted && accepted[term.slots[index] as number] !== 1) continue;
		const value = term.values[index] as number;
		if ((value & BODY_COUNT) !== count || (value & IN_TITLE) !== 0) notes++;
	}
	return { count, notes };
}

/** A posting value less the template's count of the word: a note saying it fewer times was not made from the template, and keeps its count. Pure. */
export function withoutTemplate(value: number, template: TemplateWord): number {
	const count = value & BODY_COUNT;
	return count < template.count ? value : ((value & ~BODY_COUNT) | (count - template.count)) >>> 0;
}
