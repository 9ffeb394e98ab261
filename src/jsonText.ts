/**
 * JSON text shared by the tools' answers (mcp/answerJson.ts) and the transport that writes them
 * (http/jsonPieces.ts), which never import each other.
 *
 * A tool's answer is made as JSON text once (its `content` text) and the same value goes out again
 * as its `structuredContent`: the transport writes the text it has instead of serialising a
 * megabyte of rows or cards again in one piece. A value remembered here is plain data that nothing
 * changes once its text is made.
 */
const texts = new WeakMap<object, string>();

/** Remembers that `text` is `JSON.stringify(value)`. */
export function rememberJsonText(value: object, text: string): void {
	texts.set(value, text);
}

/** `JSON.stringify(value)` if it was made and remembered, else undefined. */
export function knownJsonText(value: object): string | undefined {
	return texts.get(value);
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
