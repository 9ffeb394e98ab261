/**
 * Text as search sees it: folded (lower case, diacritics removed, compatibility forms unified)
 * and cut into tokens, with offsets into the original text for snippets. Pure, and on the hot path
 * of both indexing and scanning: ASCII is handled by character code, the rest by Unicode classes.
 */
import { MAX_WORD_CHARS, TOKENIZE_CHUNK_CHARS } from "../config/limits";

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

const MARKS = /\p{M}/gu;

/**
 * Folds one string: `Café` → `cafe`, `ＡＢＣ` → `abc`. Marks are dropped before the decomposition
 * too: every character of a non-zero combining class is a mark, and no mark decomposes into
 * anything but marks (a unit test checks both over all of Unicode), so decomposing then dropping
 * marks works character by character and gives the same text; but ICU puts a run of marks of two
 * classes in order in quadratic time (`e` and 500,000 such marks: 155 s in one piece).
 */
export function foldText(text: string): string {
	return text.replace(MARKS, "").normalize("NFKD").replace(MARKS, "").toLowerCase();
}

/** 0-9, A-Z, a-z and `_` (lower case looked at first: most of a text's characters). */
function isAsciiWordCode(code: number): boolean {
	return (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57) || code === 95;
}

/** Takes each token as it is read: its folded value and where it stands. */
type TokenSink = (value: string, start: number, end: number) => void;

/** A sink adding each token to `tokens`. */
function pushTo(tokens: Token[]): TokenSink {
	return (value, start, end) => {
		tokens.push({ value, start, end });
	};
}

/** Tokens of `text` in order, each folded, with original offsets. */
export function tokenize(text: string): Token[] {
	const tokens: Token[] = [];
	const sink = pushTo(tokens);
	const tokenizer = new Tokenizer(text, 0);
	tokenizer.read(text.length, sink);
	tokenizer.finish(sink);
	return tokens;
}

/**
 * The tokens of `text`, read in chunks of about TOKENIZE_CHUNK_CHARS with a pause point after
 * each, passed to `consume` one by one: the same tokens `tokenize` gives, with no object made for
 * each (a note's index keeps only their ids: a 1 MB note made 160,000 token objects).
 */
export function* tokenizeInChunks(text: string, consume: TokenSink): Generator<void, void, void> {
	const tokenizer = new Tokenizer(text, 0);
	while (tokenizer.index < text.length) {
		tokenizer.read(Math.min(text.length, tokenizer.index + TOKENIZE_CHUNK_CHARS), consume);
		if (tokenizer.index >= text.length) tokenizer.finish(consume);
		yield;
	}
}

/**
 * The tokens of text[from, end) in chunks of about `chunkChars` characters read, so a caller can
 * stop early: the same tokens `tokenize` gives. A word that runs on past a chunk's end is carried
 * into the next and comes with the chunk where it ends (a chunk may be empty), so text with no
 * ASCII between its words (zero-width spaces, CJK, one long word) is still read a chunk at a time.
 */
export function* tokenChunks(text: string, from: number, chunkChars: number): Generator<Token[], void, void> {
	const tokenizer = new Tokenizer(text, from);
	while (tokenizer.index < text.length) {
		const tokens: Token[] = [];
		const sink = pushTo(tokens);
		tokenizer.read(Math.min(text.length, tokenizer.index + chunkChars), sink);
		if (tokenizer.index >= text.length) tokenizer.finish(sink);
		yield tokens;
	}
}

/**
 * Reads text[from, …) into tokens a piece at a time, the same tokens `tokenChunks` gives, each
 * passed to a sink with no object made for it. With `firstCodes` (1 at each wanted character
 * code below 128), a plain ASCII word (no capital inside it, no `_`, not a version word) whose
 * folded first letter is not wanted comes with an empty value, its place and offsets kept: no
 * string is cut for it. A caller matching a few words thus reads a note without a string for
 * every word of it.
 */
export class TokenReader {
	private readonly tokenizer: Tokenizer;

	constructor(
		private readonly text: string,
		from: number,
		firstCodes: Uint8Array | null = null,
	) {
		this.tokenizer = new Tokenizer(text, from, firstCodes);
	}

	/** Whether the whole text has been read. */
	get done(): boolean {
		return this.tokenizer.index >= this.text.length;
	}

	/** Reads about `chars` characters more (as one chunk of `tokenChunks`), passing the tokens that ended to `sink`; the last read ends the last word. */
	read(chars: number, sink: TokenSink): void {
		const tokenizer = this.tokenizer;
		tokenizer.read(Math.min(this.text.length, tokenizer.index + chars), sink);
		if (tokenizer.index >= this.text.length) tokenizer.finish(sink);
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

/**
 * The parts of an ASCII identifier, with offsets into it: `peerDependencies` → `peer`,
 * `dependencies`; `XMLHttpRequest` → `xml`, `http`, `request`; `no_unused_vars` → `no`, `unused`,
 * `vars`. A capital run keeps a lone trailing lower-case letter (`URLs`, `IDs` stay whole), and so
 * does one lower-case letter opening the word (`iOS`). Empty
 * when the word has no parts other than itself. Pure.
 */
export function identifierParts(word: string): Array<{ value: string; start: number; end: number }> {
	const parts: Array<{ value: string; start: number; end: number }> = [];
	let partStart = -1;
	const close = (end: number) => {
		if (partStart !== -1 && end > partStart) parts.push({ value: word.slice(partStart, end).toLowerCase(), start: partStart, end });
		partStart = -1;
	};
	for (let index = 0; index < word.length; index++) {
		const code = word.charCodeAt(index);
		if (code === UNDERSCORE) {
			close(index);
			continue;
		}
		if (partStart === -1) {
			partStart = index;
			continue;
		}
		if (!isAsciiUpper(code)) continue;
		const previous = word.charCodeAt(index - 1);
		// A capital after a lower-case letter or digit starts a part (`peerDependencies`), unless one
		// lower-case letter opens the word (`iOS`, `eBay`); so does the last capital of a run
		// followed by two or more lower-case letters (`XMLHttp`).
		if (!isAsciiUpper(previous)) {
			if (!(index === 1 && isAsciiLower(previous))) close(index);
		} else if (isAsciiLower(word.charCodeAt(index + 1)) && isAsciiLower(word.charCodeAt(index + 2))) close(index);
		if (partStart === -1) partStart = index;
	}
	close(word.length);
	return parts.length === 1 && parts[0]?.start === 0 && parts[0].end === word.length ? [] : parts;
}

/** How many of a name's first tokens `derivedWholes` marks: one bit each in a 32-bit mask. */
export const DERIVED_WHOLES_MAX_TOKENS = 32;

/**
 * Which of a name's tokens (the first DERIVED_WHOLES_MAX_TOKENS, one bit each) are a whole word
 * the tokenizer also gave in parts: an identifier before its parts (`MockAgent` before `mock`,
 * `agent`), a version word before its number (`v5` before `5`). A part starts inside the word
 * before it; nothing else does. A title's words are its parts: `MockAgent` is two words, as
 * `Mock Agent` is, and `mock agent` is the whole of it. Pure.
 */
export function derivedWholes(tokens: readonly Token[]): number {
	let mask = 0;
	const end = Math.min(tokens.length - 1, DERIVED_WHOLES_MAX_TOKENS);
	for (let index = 0; index < end; index++) {
		const token = tokens[index] as Token;
		if ((tokens[index + 1] as Token).start < token.end) mask |= 1 << index;
	}
	return mask >>> 0;
}

/** How many bits of a 32-bit mask are set. Pure. */
export function bitCount(mask: number): number {
	let count = 0;
	for (let rest = mask >>> 0; rest !== 0; rest = (rest & (rest - 1)) >>> 0) count++;
	return count;
}

const UNDERSCORE = 95;
const LOWER_V = 118;
const UPPER_V = 86;

/**
 * A version written with its `v` (`v5`, `V20`): the tokenizer gives the number too, so `fastify 5`
 * finds `Migration-Guide-V5` and `v5` still finds itself (a phrase of `v5`, `5`). Pure.
 */
export function isVersionWord(word: string): boolean {
	if (word.length < 2) return false;
	const first = word.charCodeAt(0);
	if (first !== LOWER_V && first !== UPPER_V) return false;
	for (let index = 1; index < word.length; index++) {
		const code = word.charCodeAt(index);
		if (code < 48 || code > 57) return false;
	}
	return true;
}

function isAsciiUpper(code: number): boolean {
	return code >= 65 && code <= 90;
}

function isAsciiLower(code: number): boolean {
	return code >= 97 && code <= 122;
}

/** What a character outside ASCII is to the tokenizer: part of a word, a token of its own (unspaced scripts), or neither. */
const WORD = 1;
const UNSPACED = 2;
const OTHER = 3;
/** The class of each character of the Basic Multilingual Plane met so far (0: not yet): two regular expressions per character were most of tokenizing non-Latin text. */
const bmpClasses = new Uint8Array(0x10000);

function classOf(char: string): number {
	if (UNSPACED_SCRIPT.test(char)) return UNSPACED;
	return WORD_CHAR.test(char) ? WORD : OTHER;
}

function classOfCode(codePoint: number): number {
	if (codePoint >= 0x10000) return classOf(String.fromCodePoint(codePoint));
	let found = bmpClasses[codePoint] ?? 0;
	if (found === 0) {
		found = classOf(String.fromCharCode(codePoint));
		bmpClasses[codePoint] = found;
	}
	return found;
}

/**
 * Each character of the Basic Multilingual Plane that is a token of its own (an unspaced script's),
 * folded, as met so far: folding each one anew (two regular expressions and a normalization) was
 * most of tokenizing a note of Hangul jamo or CJK, 16,384 tokens a chunk in pieces of up to 0.25 s.
 */
const bmpFolded = new Array<string | undefined>(0x10000);

function foldedChar(code: number): string {
	let folded = bmpFolded[code];
	if (folded === undefined) {
		folded = foldText(String.fromCharCode(code));
		bmpFolded[code] = folded;
	}
	return folded;
}

/**
 * Reads a text into tokens from `index` on, as far as it is asked each time, carrying a word that
 * runs on from one read into the next. An ASCII identifier written in camel case or with
 * underscores gives the whole word, then each of its parts (identifierParts), so `peer
 * dependencies` finds `peerDependencies`; a query tokenizes the same way, so a typed identifier is
 * a phrase of the same tokens and still finds itself. A version word (`v5`) gives its number after
 * it the same way (isVersionWord). A run of word characters longer than MAX_WORD_CHARS is read as
 * words of that length, the last one shorter (Lucene's tokenizer cuts its tokens so): one word of a
 * megabyte was stemmed and hashed whole, one piece of 3–4 s, and quoted whole in every snippet and
 * in `matched_words` (an answer over 2 MiB). A word is cut where it would grow past the bound, so
 * the same word cuts the same way in a note and in a query. Offsets are into the whole text.
 */
class Tokenizer {
	private wordStart = -1;
	private asciiOnly = true;
	/** Set when an ASCII word holds a capital after its first letter or an underscore: it may have parts. */
	private compound = false;

	constructor(
		private readonly text: string,
		/** Where the next read starts: past `stop` when the last character read spans it. */
		public index: number,
		/** When set, a plain ASCII word whose folded first letter has no 1 here comes with an empty value (TokenReader). */
		private readonly firstCodes: Uint8Array | null = null,
	) {}

	/** Reads up to `stop` (a character spanning it whole), appending the tokens that ended to `tokens`. */
	read(stop: number, sink: TokenSink): void {
		const text = this.text;
		let index = this.index;
		while (index < stop) {
			const code = text.charCodeAt(index);
			if (code < ASCII_LIMIT) {
				if (isAsciiWordCode(code)) index = this.readAsciiRun(index, stop, sink);
				else {
					if (this.wordStart !== -1) this.flush(index, sink);
					index += 1;
				}
				continue;
			}
			const codePoint = text.codePointAt(index) ?? code;
			const length = codePoint >= 0x10000 ? 2 : 1;
			const kind = classOfCode(codePoint);
			if (kind === UNSPACED) {
				this.flush(index, sink);
				sink(length === 1 ? foldedChar(code) : foldText(text.slice(index, index + length)), index, index + length);
			} else if (kind === WORD) {
				this.extendWord(index, sink);
				this.asciiOnly = false;
			} else {
				this.flush(index, sink);
			}
			index += length;
		}
		this.index = index;
	}

	/**
	 * Takes the run of ASCII word characters at `index` into the open word (or a new one), up to
	 * `stop`, another character, or the word's MAX_WORD_CHARS (the next turn cuts it there); returns
	 * where reading goes on. A plain word `firstCodes` does not want, ended by an ASCII character
	 * outside words, is ended here as `flush` ends it, that character read too. In locals, with no
	 * method call or field read and write for each character and no `flush` call for each space:
	 * tokenizing is about 40 % of a search's snippets, and this took it to 0.86× a character.
	 */
	private readAsciiRun(index: number, stop: number, sink: TokenSink): number {
		this.extendWord(index, sink);
		const text = this.text;
		const wordStart = this.wordStart;
		const runEnd = Math.min(stop, wordStart + MAX_WORD_CHARS);
		let compound = this.compound;
		let code = text.charCodeAt(index);
		for (;;) {
			if (code === UNDERSCORE || (isAsciiUpper(code) && index > wordStart)) compound = true;
			index += 1;
			if (index >= runEnd) break;
			code = text.charCodeAt(index);
			if (isAsciiWordCode(code)) continue;
			if (code < ASCII_LIMIT && !compound && this.firstCodes !== null && this.asciiOnly && this.unwanted(wordStart)) {
				sink("", wordStart, index);
				this.wordStart = -1;
				return index + 1;
			}
			break;
		}
		this.compound = compound;
		return index;
	}

	/** Takes the character at `index` into the open word, or starts one there: after the word's MAX_WORD_CHARS, a new one. */
	private extendWord(index: number, sink: TokenSink): void {
		if (this.wordStart !== -1 && index - this.wordStart >= MAX_WORD_CHARS) this.flush(index, sink);
		if (this.wordStart === -1) this.wordStart = index;
	}

	/** Ends the word being read, if any, where the reading stopped. */
	finish(sink: TokenSink): void {
		this.flush(this.index, sink);
	}

	private flush(end: number, sink: TokenSink): void {
		const wordStart = this.wordStart;
		if (wordStart === -1) return;
		if (this.firstCodes !== null && this.asciiOnly && !this.compound && this.unwanted(wordStart)) {
			sink("", wordStart, end);
			this.wordStart = -1;
			return;
		}
		const raw = this.text.slice(wordStart, end);
		const value = this.asciiOnly ? raw.toLowerCase() : foldText(raw);
		if (value !== "") sink(value, wordStart, end);
		if (this.compound && this.asciiOnly) {
			for (const part of identifierParts(raw)) sink(part.value, wordStart + part.start, wordStart + part.end);
		} else if (this.asciiOnly && isVersionWord(raw)) sink(raw.slice(1), wordStart + 1, end);
		this.wordStart = -1;
		this.asciiOnly = true;
		this.compound = false;
	}

	/**
	 * Whether the plain ASCII word at `wordStart` starts with a letter `firstCodes` does not want.
	 * A version word (`v5`) is always wanted: the number it also gives starts otherwise.
	 */
	private unwanted(wordStart: number): boolean {
		const code = this.text.charCodeAt(wordStart);
		if (code === LOWER_V || code === UPPER_V) return false;
		return this.firstCodes?.[isAsciiUpper(code) ? code + 32 : code] !== 1;
	}
}

/** Whether a character code ends a link address written in a note: white space, or what closes a Markdown link, an autolink, a title or a table cell. */
function endsAddress(code: number): boolean {
	// ) < > ] " ' ` |
	return code <= 32 || code === 41 || code === 60 || code === 62 || code === 93 || code === 34 || code === 39 || code === 96 || code === 124;
}

/**
 * Which of a note's tokens, taken in text order, its word counts keep: all but a word of a link
 * address (`https://…`, `obsidian://…`) that an earlier address of the note already held. An
 * address says where a link points, not what the note is about: badges and footers repeat a
 * repository's or a path's words in every address, which made a short page seem to say them
 * ten times. Each of an address's words still counts once, so a note is found by the addresses
 * it holds (and a phrase in any of them, as the body keeps every token). Pure but for its own
 * memory of the words seen.
 */
export function repeatedAddressWords(text: string): (value: string, start: number, end: number) => boolean {
	let addressEnd = -1;
	const seen = new Set<string>();
	return (value, start, tokenEnd) => {
		if (start >= addressEnd) {
			if (!text.startsWith("://", tokenEnd)) return true;
			let end = tokenEnd + 3;
			while (end < text.length && !endsAddress(text.charCodeAt(end))) end++;
			addressEnd = end;
		}
		if (seen.has(value)) return false;
		seen.add(value);
		return true;
	};
}
