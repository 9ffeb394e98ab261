/**
 * Text as search sees it: folded (lower case, diacritics removed, compatibility forms unified)
 * and cut into tokens, with offsets into the original text for snippets. Pure, and on the hot path
 * of both indexing and scanning: ASCII is handled by character code, the rest by Unicode classes.
 */
import { TOKENIZE_CHUNK_CHARS } from "../config/limits";

/** A token and where it stands in the original text. */
export interface Token {
	value: string;
	start: number;
	end: number;
}

/** Scripts written without spaces between words: each character is its own token. */
const UNSPACED_SCRIPT = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}]/u;
const WORD_CHAR = /[\p{L}\p{N}\p{M}_]/u;
const ASCII_LIMIT = 0x80;

/** Folds one string: `Café` → `cafe`, `ＡＢＣ` → `abc`. */
export function foldText(text: string): string {
	return text.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase();
}

/** 0-9, A-Z, a-z and `_`. */
function isAsciiWordCode(code: number): boolean {
	return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95;
}

/** Tokens of `text` in order, each folded, with original offsets. */
export function tokenize(text: string): Token[] {
	return tokenizeRange(text, 0, text.length, []);
}

/**
 * The tokens of `text`, in chunks of about TOKENIZE_CHUNK_CHARS, each passed to `consume` with a
 * pause point after it: the same tokens `tokenize` gives.
 */
export function* tokenizeInChunks(text: string, consume: (tokens: Token[]) => void): Generator<void, void, void> {
	for (const tokens of tokenChunks(text, 0, TOKENIZE_CHUNK_CHARS)) {
		consume(tokens);
		yield;
	}
}

/**
 * The tokens of text[from, end) in chunks of about `chunkChars`, so a caller can stop early: the
 * same tokens `tokenize` gives, as every chunk ends just before an ASCII character that is not
 * part of a word, where the tokenizer ends a word anyway.
 */
export function* tokenChunks(text: string, from: number, chunkChars: number): Generator<Token[], void, void> {
	let start = from;
	while (start < text.length) {
		let end = Math.min(text.length, start + chunkChars);
		while (end < text.length) {
			const code = text.charCodeAt(end);
			if (code < ASCII_LIMIT && !isAsciiWordCode(code)) break;
			end++;
		}
		yield tokenizeRange(text, start, end, []);
		start = end;
	}
}

/** UTF-8 length of a text, counted without encoding it. */
export function utf8Length(text: string): number {
	let bytes = 0;
	for (let index = 0; index < text.length; index++) {
		const code = text.charCodeAt(index);
		if (code < 0x80) bytes += 1;
		else if (code < 0x800) bytes += 2;
		else if (code >= 0xd800 && code <= 0xdbff && index + 1 < text.length) {
			// A surrogate pair is one 4-byte character; a lone surrogate is written as U+FFFD, 3 bytes.
			const next = text.charCodeAt(index + 1);
			if (next >= 0xdc00 && next <= 0xdfff) {
				bytes += 4;
				index++;
			} else bytes += 3;
		} else bytes += 3;
	}
	return bytes;
}

/** Tokens of text[start, end), appended to `tokens`, with offsets into the whole text. */
function tokenizeRange(text: string, start: number, stop: number, tokens: Token[]): Token[] {
	let wordStart = -1;
	let asciiOnly = true;
	const flush = (end: number) => {
		if (wordStart === -1) return;
		const raw = text.slice(wordStart, end);
		const value = asciiOnly ? raw.toLowerCase() : foldText(raw);
		if (value !== "") tokens.push({ value, start: wordStart, end });
		wordStart = -1;
		asciiOnly = true;
	};
	let index = start;
	while (index < stop) {
		const code = text.charCodeAt(index);
		if (code < ASCII_LIMIT) {
			if (isAsciiWordCode(code)) {
				if (wordStart === -1) wordStart = index;
			} else {
				flush(index);
			}
			index += 1;
			continue;
		}
		const char = String.fromCodePoint(text.codePointAt(index) ?? code);
		if (UNSPACED_SCRIPT.test(char)) {
			flush(index);
			tokens.push({ value: foldText(char), start: index, end: index + char.length });
		} else if (WORD_CHAR.test(char)) {
			if (wordStart === -1) wordStart = index;
			asciiOnly = false;
		} else {
			flush(index);
		}
		index += char.length;
	}
	flush(index);
	return tokens;
}
