/**
 * JSON text shared by the tools' answers (mcp/answerJson.ts) and the transport that writes them
 * (http/jsonPieces.ts), which never import each other.
 *
 * A tool's answer is made as JSON text once (its `content` text) and the same value goes out again
 * as its `structuredContent`: the transport writes the text it has instead of serialising a
 * megabyte of rows or cards again in one piece. A value remembered here is plain data that nothing
 * changes once its text is made.
 */

/** A base class whose constructor gives back the object it is handed, so a subclass's private field lands on that object. */
class OnTheObject {
	constructor(value: object) {
		// The point: a subclass's field is added to `value`, not to a new object.
		return value;
	}
}

/**
 * A value's remembered text, kept in a private field added to the value itself: no key, symbol,
 * spread, copy or JSON shows it, and it is not inherited. A WeakMap entry made for every answer (two a
 * call) cost 2.5 µs of a 2025 `read_note`'s ~85 in V8's ephemeron write barrier (perf, 8 clients);
 * a symbol property set with `defineProperty` cost as much (a runtime call); this field 0.1 µs.
 */
class JsonTextOf extends OnTheObject {
	#text: string;

	private constructor(value: object, text: string) {
		super(value);
		this.#text = text;
	}

	/** False for a value that takes no new field (see textsOfClosed); a field it has already is set, closed or not. */
	static remember(value: object, text: string): boolean {
		if (#text in value) value.#text = text;
		else if (Object.isExtensible(value)) new JsonTextOf(value, text);
		else return false;
		return true;
	}

	static known(value: object): string | undefined {
		return #text in value ? value.#text : undefined;
	}
}

/** The texts of values that take no new field (frozen, sealed, prevented from extension): rare, kept aside. */
const textsOfClosed = new WeakMap<object, string>();

/** Remembers that `text` is `JSON.stringify(value)`. */
export function rememberJsonText(value: object, text: string): void {
	// A value remembered while open and closed since keeps its field: a text put aside instead was never read back.
	if (!JsonTextOf.remember(value, text)) textsOfClosed.set(value, text);
}

/** `JSON.stringify(value)` if it was made and remembered, else undefined. */
export function knownJsonText(value: object): string | undefined {
	// A value remembered while closed stays closed: an open one was never put aside.
	return JsonTextOf.known(value) ?? (Object.isExtensible(value) ? undefined : textsOfClosed.get(value));
}

/**
 * Where the piece of `text` from `start` of about `chars` characters ends: never between the two
 * halves of a surrogate pair, so each piece is well-formed on its own (its UTF-8 bytes, and its
 * JSON escapes, are those it has in the whole text).
 */
export function pieceEnd(text: string, start: number, chars: number): number {
	const end = Math.min(text.length, start + chars);
	const last = text.charCodeAt(end - 1);
	return end < text.length && last >= 0xd800 && last <= 0xdbff ? end + 1 : end;
}

/** Control characters JSON writes as a two-character escape (`\b`, `\t`, `\n`, `\f`, `\r`); the others take six (`\u0000`). */
const SHORT_JSON_ESCAPES = new Set([0x08, 0x09, 0x0a, 0x0c, 0x0d]);

/**
 * Bytes of UTF-8 the character at `index` of `text` takes inside a JSON string as `JSON.stringify`
 * writes it: 4 for a surrogate pair (the only character of two code units, and the only one of 4
 * bytes), 6 for a lone surrogate or a control character written `\u00xx`.
 */
export function jsonCharBytes(text: string, index: number): number {
	const code = text.charCodeAt(index);
	if (code < 0x20) return SHORT_JSON_ESCAPES.has(code) ? 2 : 6;
	if (code === 0x22 || code === 0x5c) return 2;
	if (code < 0x80) return 1;
	if (code < 0x800) return 2;
	if (code >= 0xd800 && code <= 0xdfff) {
		const next = text.charCodeAt(index + 1);
		return code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff ? 4 : 6;
	}
	return 3;
}

/**
 * Characters JSON writes as an escape of six: control characters other than the five short ones,
 * and lone surrogates (a surrogate pair is one character of four UTF-8 bytes). Rare in a note.
 */
// eslint-disable-next-line no-control-regex -- control characters are exactly what is looked for here
const LONG_ESCAPES = /[\u0000-\u0007\u000b\u000e-\u001f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
/** Characters JSON writes as a backslash and one more: `"`, `\`, backspace, tab, line feed, form feed, carriage return. */
const SHORT_ESCAPES = ['"', "\\", "\b", "\t", "\n", "\f", "\r"];

/**
 * The UTF-8 bytes of a string written as JSON, quotes included: its own UTF-8 bytes and a byte more
 * for each short escape, found with `indexOf` (native: as fast on a call's first megabyte as later,
 * where a loop over the characters ran interpreted for its first 25–30 ms). A string holding a long
 * escape is counted character by character. Counted as UTF-8 alone, a text of control characters
 * was taken for a sixth of what it is once sent.
 */
export function jsonStringBytes(text: string): number {
	let bytes = 2;
	if (LONG_ESCAPES.test(text)) {
		for (let index = 0; index < text.length; index++) {
			const size = jsonCharBytes(text, index);
			bytes += size;
			// A pair is the only character of four bytes, and of two code units.
			if (size === 4) index++;
		}
		return bytes;
	}
	bytes += Buffer.byteLength(text);
	for (const escaped of SHORT_ESCAPES) for (let at = text.indexOf(escaped); at !== -1; at = text.indexOf(escaped, at + 1)) bytes++;
	return bytes;
}
