/**
 * Text as search sees it: folded (lower case, diacritics removed, compatibility forms unified)
 * and cut into tokens, with a map back to the original text for snippets. Pure.
 */

/** A token and where it stands in the original text. */
export interface Token {
	value: string;
	start: number;
	end: number;
}

/** Scripts written without spaces between words: each character is its own token. */
const UNSPACED_SCRIPT = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}]/u;
const WORD_CHAR = /[\p{L}\p{N}\p{M}_]/u;

/** Folds one string: `Café` → `cafe`, `ＡＢＣ` → `abc`. */
export function foldText(text: string): string {
	return text.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase();
}

/** Tokens of `text` in order, each folded, with original offsets. */
export function tokenize(text: string): Token[] {
	const tokens: Token[] = [];
	let wordStart = -1;
	let word = "";
	const flush = (end: number) => {
		if (wordStart !== -1 && word !== "") tokens.push({ value: word, start: wordStart, end });
		wordStart = -1;
		word = "";
	};
	let index = 0;
	for (const char of text) {
		const length = char.length;
		if (UNSPACED_SCRIPT.test(char)) {
			flush(index);
			tokens.push({ value: foldText(char), start: index, end: index + length });
		} else if (WORD_CHAR.test(char)) {
			if (wordStart === -1) wordStart = index;
			word += foldText(char);
		} else {
			flush(index);
		}
		index += length;
	}
	flush(index);
	return tokens;
}
