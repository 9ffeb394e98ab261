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
const TEMPLATE_MIN_NOTE_SHARE = 0.25;
/** Nor in fewer than this many notes: fewer say little about how often a template repeats it. */
export const TEMPLATE_MIN_NOTES = 50;
/**
 * Share of the notes holding a word that hold it exactly as many times as one of its two most
 * common counts of 2 or more (a vault may have two templates: plugin notes and people notes), for
 * it to be a template's word. Measured on the Obsidian Hub: `discord` 0.96 (2 times), `plugins`
 * 0.96 (2 or 3), `github` 0.92 (8 or 7), `hub` 0.92, `note` 0.91, but `obsidian` 0.78, said in
 * notes of every kind; words the notes are about in npm's docs and Obsidian Help 0.36 at most.
 * Once is not a template's count: in a vault of short notes most words are said once or twice.
 */
const TEMPLATE_COUNT_SHARE = 0.85;
/** Counts above this are never a template's (and are not tallied). */
const TEMPLATE_COUNT_MAX = 63;

/** A template's word: how many times its templates say it (`low` ≤ `high`; the same for one template), and how many notes hold it beyond that (in the title, or a count other than the templates'). */
export interface TemplateWord {
	low: number;
	high: number;
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
	let first = 2;
	for (let each = 3; each <= TEMPLATE_COUNT_MAX; each++) if ((tally[each] as number) > (tally[first] as number)) first = each;
	let second = first === 2 ? 3 : 2;
	for (let each = 2; each <= TEMPLATE_COUNT_MAX; each++) if (each !== first && (tally[each] as number) > (tally[second] as number)) second = each;
	const share = (tally[first] as number) + (tally[second] as number);
	if (share < holders * TEMPLATE_COUNT_SHARE) return null;
	// One template when fewer than TEMPLATE_MIN_NOTES notes say the second count: only the first's notes are its copies.
	const two = (tally[second] as number) >= TEMPLATE_MIN_NOTES;
	const low = two ? Math.min(first, second) : first;
	const high = two ? Math.max(first, second) : first;
	let notes = 0;
	for (let index = 0; index < term.length; index++) {
		if (accepted && accepted[term.slots[index] as number] !== 1) continue;
		const value = term.values[index] as number;
		const count = value & BODY_COUNT;
		if ((count !== low && count !== high) || (value & IN_TITLE) !== 0) notes++;
	}
	return { low, high, notes };
}

/**
 * A posting value less the templates' count of the word: the larger count it reaches (a note
 * said `high` times is a copy of that template; one said more, that copy and its own mentions).
 * A note saying it fewer times than either template was made from neither, and keeps its count. Pure.
 */
export function withoutTemplate(value: number, template: TemplateWord): number {
	const count = value & BODY_COUNT;
	const copied = count >= template.high ? template.high : count >= template.low ? template.low : 0;
	return ((value & ~BODY_COUNT) | (count - copied)) >>> 0;
}
