import { createHash } from "node:crypto";
import { NOTE_TEXT_PIECE_CHARS } from "./config/limits";
import type { SliceClock } from "./markdown/steps";

/** Hex SHA-256 of a text's UTF-8 bytes: a note's version, a token's stored hash. */
export function sha256Hex(text: string): string {
	return createHash("sha256").update(text, "utf8").digest("hex");
}

/**
 * The end of the piece of `text` starting at `start`: `size` characters on, moved back one when that
 * would split a surrogate pair, so each piece encodes (to UTF-8 or JSON) exactly as it does within
 * the whole text.
 */
export function pieceEnd(text: string, start: number, size: number): number {
	const end = Math.min(text.length, start + size);
	if (end >= text.length || end - start < 2) return end;
	const last = text.charCodeAt(end - 1);
	const next = text.charCodeAt(end);
	return last >= 0xd800 && last <= 0xdbff && next >= 0xdc00 && next <= 0xdfff ? end - 1 : end;
}

/** `sha256Hex` of a long text, hashed piece by piece, pausing on `clock` between pieces (the same digest). */
export async function sha256HexInPieces(text: string, clock: Pick<SliceClock, "checkpoint">): Promise<string> {
	if (text.length <= NOTE_TEXT_PIECE_CHARS) return sha256Hex(text);
	const hash = createHash("sha256");
	for (let start = 0; start < text.length;) {
		const end = pieceEnd(text, start, NOTE_TEXT_PIECE_CHARS);
		hash.update(text.slice(start, end), "utf8");
		start = end;
		if (start < text.length) await clock.checkpoint();
	}
	return hash.digest("hex");
}
