/**
 * Text from notes, file names and tokens, made safe to print on a terminal. A terminal acts on
 * more than it draws: an escape sequence can move the cursor and rewrite lines already shown, a
 * carriage return overwrites the line, a bidi control reorders what follows, a line separator or
 * a zero-width character hides or splits text. Printed raw, any of them could make a person
 * approve (or believe) something other than what is written, so each is shown as its code.
 */

/**
 * The characters a terminal may act on instead of drawing: every control character (C0, DEL, C1),
 * every format character (bidi embeddings, overrides and isolates, the marks LRM/RLM/ALM,
 * zero-width space and joiners, word joiner, invisible operators, BOM, soft hyphen, tag
 * characters), the line and paragraph separators, lone surrogate halves, the combining grapheme
 * joiner, the Hangul fillers, Khmer's inherent vowels, Mongolian's variation selectors and the
 * unassigned U+2065, U+FFF0–U+FFF8, U+E0000–U+E00FF and U+E01F0–U+E0FFF (drawn as nothing by most
 * fonts; `\p{Cf}` holds no unassigned one, and U+E0080–U+E00FF spell ASCII a byte each); and variation selectors (U+FE00–U+FE0F,
 * U+E0100–U+E01EF) two or more in a row. One chooses the look of the character before it (an emoji
 * or its text form) and is drawn as that look; a run is drawn as nothing and carries a byte each, so
 * a text hidden after one visible character was approved unseen.
 */
const ACTS_ON_TERMINAL =
	// eslint-disable-next-line no-misleading-character-class -- each listed code point is matched on its own
	/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}\u034f\u115f\u1160\u17b4\u17b5\u180b-\u180f\u2065\u3164\uffa0\ufff0-\ufff8\u{e0000}-\u{e00ff}\u{e01f0}-\u{e0fff}]|[\ufe00-\ufe0f\u{e0100}-\u{e01ef}]{2,}/gu;

/**
 * `text` with every character in `ACTS_ON_TERMINAL` written as its code: `\xNN` up to U+00FF,
 * `\u{NNNN}` above. Characters in `kept` stay as they are (a diff line keeps its tabs, a
 * multi-line message its line breaks); everything else is unchanged, so plain text reads the same.
 */
export function visibleInTerminal(text: string, kept = ""): string {
	return text.replace(ACTS_ON_TERMINAL, (found) => (kept.includes(found) ? found : [...found].map(codeOf).join("")));
}

function codeOf(char: string): string {
	const code = char.codePointAt(0) ?? 0;
	return code <= 0xff ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u{${code.toString(16)}}`;
}

/**
 * `value` as JSON for a terminal: what `JSON.stringify` writes, with every character in
 * `ACTS_ON_TERMINAL` inside its strings written as its `\uXXXX` escape (its line breaks, between
 * values, stay), so the JSON parses to the same value and the terminal draws every character of it.
 */
export function jsonForTerminal(value: unknown, space?: number): string {
	return JSON.stringify(value, null, space).replace(ACTS_ON_TERMINAL, (char) =>
		char === "\n" ? char : [...Array(char.length).keys()].map((index) => `\\u${char.charCodeAt(index).toString(16).padStart(4, "0")}`).join(""),
	);
}
