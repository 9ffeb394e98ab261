/**
 * Text a note holds that a person reading it in Obsidian's reading view would not see: comments
 * and invisible characters. A model reads all of it, so it is where a prompt injection would hide;
 * `read_note` reports where, so a client can warn. Pure, one linear pass.
 */

/** What kind of hidden text. */
type HiddenKind = "html_comment" | "obsidian_comment" | "invisible_characters" | "bidi_controls" | "tag_characters";

/** One stretch of hidden text: its kind, the 0-based line it starts on, and how many characters (UTF-16 units) it spans. */
export interface HiddenContent {
	kind: HiddenKind;
	line: number;
	characters: number;
}

/**
 * One pattern for every kind, alternatives in priority order: a comment (closed, or unclosed —
 * Obsidian hides the rest of the note after an unclosed `%%`), then runs of invisible characters.
 * Invisible: every code point drawn as nothing (Unicode's Default_Ignorable_Code_Point) but the
 * bidi controls and tags, which have kinds of their own, and the variation selectors; the astral
 * ones (shorthand format controls U+1BCA0–U+1BCA3, musical beams and ties U+1D173–U+1D17A, the
 * unassigned U+E0080–U+E00FF and U+E01F0–U+E0FFF) as surrogate pairs; with the format characters outside it drawn as
 * nothing (U+FFF9–U+FFFB, U+110BD, U+110CD, U+13430–U+1343F), as the path key leaves them out. Variation selectors
 * (U+FE00–U+FE0F, U+E0100–U+E01EF) only two or more in a row: one chooses the look of the
 * character before it (an emoji or its text form, a kanji's variant), while a run of them is never
 * drawn and carries a byte each (text hidden after one visible character, a model reading every
 * byte). Their run is the last group, named as invisible.
 */
const HIDDEN =
	// eslint-disable-next-line no-misleading-character-class -- each listed code point is matched on its own
	/(<!--[\s\S]*?(?:-->|$(?![\s\S])))|(%%[\s\S]*?(?:%%|$(?![\s\S])))|((?:[\u200b-\u200d\u2060-\u2065\u206a-\u206f\ufeff\u00ad\u180b-\u180f\u034f\u115f\u1160\u17b4\u17b5\u3164\uffa0\ufff0-\ufffb]|\ud804[\udcbd\udccd]|\ud80d[\udc30-\udc3f]|\ud82f[\udca0-\udca3]|\ud834[\udd73-\udd7a]|\udb40[\udc80-\udcff\uddf0-\udfff]|[\udb41-\udb43][\udc00-\udfff])+)|([\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]+)|((?:\udb40[\udc00-\udc7f])+)|((?:[\ufe00-\ufe0f]|\udb40[\udd00-\uddef]){2,})/g;

const KINDS: readonly HiddenKind[] = ["html_comment", "obsidian_comment", "invisible_characters", "bidi_controls", "tag_characters", "invisible_characters"];

/** Where the note holds hidden text, at most `limit` stretches, in order. A byte-order mark at the very start is not reported. */
export function findHiddenContent(text: string, limit: number): HiddenContent[] {
	const found: HiddenContent[] = [];
	let line = 0;
	let counted = 0;
	HIDDEN.lastIndex = 0;
	for (let match = HIDDEN.exec(text); match !== null && found.length < limit; match = HIDDEN.exec(text)) {
		if (match[0] === "") {
			HIDDEN.lastIndex++;
			continue;
		}
		const start = match.index;
		if (start === 0 && match[0] === "\ufeff") continue;
		line += countNewlines(text, counted, start);
		counted = start;
		const group = match.slice(1).findIndex((value) => value !== undefined);
		const kind = KINDS[group];
		if (kind) found.push({ kind, line, characters: match[0].length });
	}
	return found;
}

function countNewlines(text: string, from: number, to: number): number {
	let count = 0;
	for (let index = text.indexOf("\n", from); index !== -1 && index < to; index = text.indexOf("\n", index + 1)) count++;
	return count;
}
