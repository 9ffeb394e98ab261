/**
 * A note's bytes read, decoded, encoded and compared a bounded piece at a time, for the headless
 * vault's reads and edits: a megabyte note decoded or encoded in one piece held every other
 * client 10–20 ms (more under load), and a program appending megabytes to a file held the server
 * for the read. `pause` gives the event loop back between two pieces.
 */
import { isUtf8 } from "node:buffer";
import { readSync } from "node:fs";
import { NOTE_READ_GROWTH_BYTES, NOTE_TEXT_PIECE_CHARS } from "../config/limits";
import { pieceEnd } from "../sha256";

/** Gives the event loop back (a turn of the process's lane). */
export type Pause = () => Promise<void>;

/** Where the piece of `bytes` starting at `start` ends: at most `size` bytes, cut before a character's first byte (continuation bytes are 10xxxxxx). */
function bytePieceEnd(bytes: Buffer, start: number, size: number): number {
	let end = Math.min(bytes.length, start + size);
	// Back to a character's first byte: in valid UTF-8 at most three continuation bytes, so never past `start`.
	const floor = Math.max(start + 1, end - 3);
	while (end < bytes.length && end > floor && ((bytes[end] ?? 0) & 0xc0) === 0x80) end--;
	return end;
}

/**
 * `bytes` as UTF-8 text, NOTE_TEXT_PIECE_CHARS bytes at a time (each piece cut before a character's
 * first byte), pausing between pieces: a 1 MB note read back from disk was decoded in one piece of
 * about 10 ms. Bytes that are not valid UTF-8 are decoded in pieces too (`decodeInvalidInPieces`),
 * with exactly the replacement characters of a decoding of the whole.
 */
export async function decodeInPieces(bytes: Buffer, pause: Pause): Promise<string> {
	if (bytes.length <= NOTE_TEXT_PIECE_CHARS) return bytes.toString("utf8");
	if (!isUtf8(bytes)) return decodeInvalidInPieces(bytes, pause);
	let text = "";
	for (let start = 0; start < bytes.length;) {
		const end = bytePieceEnd(bytes, start, NOTE_TEXT_PIECE_CHARS);
		text += bytes.toString("utf8", start, end);
		start = end;
		if (start < bytes.length) await pause();
	}
	return text;
}

/**
 * Bytes that are not all valid UTF-8, decoded NOTE_TEXT_PIECE_CHARS bytes at a time, pausing between
 * pieces. A streaming decoder carries a character cut between two pieces over to the next, so the
 * text, replacement characters included, is that of a decoding of the whole (the WHATWG decoder,
 * which `Buffer#toString` follows too; a byte-order mark is kept, as `toString` keeps it). Decoded
 * whole, a note of a few megabytes with one bad byte held every other client for the decode.
 */
export async function decodeInvalidInPieces(bytes: Uint8Array, pause: Pause): Promise<string> {
	const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
	let text = "";
	for (let start = 0; start < bytes.length;) {
		if (start > 0) await pause();
		const end = Math.min(bytes.length, start + NOTE_TEXT_PIECE_CHARS);
		text += decoder.decode(bytes.subarray(start, end), { stream: true });
		start = end;
	}
	return text + decoder.decode();
}

/** A file's bytes and their text, as `readInPieces` read them. */
export interface ReadText {
	bytes: Buffer;
	text: string;
	/** Whether the bytes are valid UTF-8 (so the text encodes back to exactly them). */
	utf8: boolean;
}

/**
 * The bytes of the file open as `fd` from its start, and their text: to its end, or, when another
 * program keeps adding to it, to NOTE_READ_GROWTH_BYTES past `size` (its size when it was opened).
 * Read to the end whatever came, a program appending faster than this reads (`yes >> note.md`)
 * kept it reading for as long as it ran, memory growing with the file. Stopped by that bound, the
 * bytes end after the last line end of their last piece (after a whole character when it has
 * none): a prefix of the file, and of whole lines where it can be, so the edit's last look sees
 * what came after it as lines added at the end (carried, or the edit made again; see DiskWriter).
 * Each piece reads and decodes at most NOTE_TEXT_PIECE_CHARS bytes, pausing between pieces; a
 * file of one piece takes no pause at all (a rename's thousand small notes cost no more turns than
 * before). Bytes from the first that is not valid UTF-8 on are decoded after the read, in pieces too.
 */
export async function readInPieces(fd: number, size: number, pause: Pause): Promise<ReadText> {
	const limit = Math.max(size, 0) + NOTE_READ_GROWTH_BYTES;
	let bytes = Buffer.allocUnsafe(Math.max(size, 0) + 1);
	let length = 0;
	let decoded = 0;
	let text = "";
	let utf8 = true;
	/** Decodes the bytes read up to `end` (whole characters) after those decoded already. */
	const decodeTo = (end: number): void => {
		if (!utf8 || end <= decoded) return;
		const piece = bytes.subarray(decoded, end);
		// Each piece starts at a character's first byte and ends after a whole character: it is valid on its own exactly when the whole is valid there.
		if (isUtf8(piece)) {
			text += piece.toString("utf8");
			decoded = end;
		} else utf8 = false;
	};
	/** Bytes read and decoded since the last pause. */
	let work = 0;
	let ended = false;
	while (length < limit) {
		if (work >= NOTE_TEXT_PIECE_CHARS) {
			await pause();
			work = 0;
		}
		if (length === bytes.length) {
			const grown = Buffer.allocUnsafe(Math.min(limit, bytes.length * 2));
			bytes.copy(grown, 0, 0, length);
			bytes = grown;
		}
		const got = readSync(fd, bytes, length, Math.min(NOTE_TEXT_PIECE_CHARS, bytes.length - length), length);
		length += got;
		work += got;
		if (got === 0) {
			ended = true;
			break;
		}
		decodeTo(completeEnd(bytes, decoded, length));
	}
	// At the bound: the end if nothing follows, else a prefix of whole lines where the last piece has a line end.
	let end = length;
	if (!ended && readSync(fd, Buffer.allocUnsafe(1), 0, 1, length) > 0) {
		const from = Math.max(0, length - NOTE_TEXT_PIECE_CHARS);
		const lineEnd = bytes.subarray(from, length).lastIndexOf(NEWLINE);
		end = lineEnd >= 0 ? from + lineEnd + 1 : completeEnd(bytes, decoded, length);
	}
	if (end < decoded) {
		// Cut inside text decoded already, at a line end (so between characters): those characters taken back.
		text = text.slice(0, text.length - bytes.toString("utf8", end, decoded).length);
		decoded = end;
	} else decodeTo(end);
	const read = bytes.subarray(0, end);
	if (decoded === end) return { bytes: read, text, utf8: true };
	// Not valid UTF-8 from `decoded` on (the bytes before it are whole valid characters, so this is how the whole decodes).
	return { bytes: read, text: text + (await decodeInvalidInPieces(read.subarray(decoded), pause)), utf8: false };
}

/**
 * The bytes of the file open as `fd` from its start to its end, `limit` at most, read
 * NOTE_TEXT_PIECE_CHARS at a time with a pause between reads, and not decoded: for a file whose
 * bytes are kept as they are (a copy of another program's version of a note), where readInPieces'
 * decode was work for nothing (about 4 ms a 5 MB note, 13 ms with a byte that is not UTF-8).
 */
export async function readBytesInPieces(fd: number, limit: number, pause: Pause): Promise<Buffer> {
	const pieces: Buffer[] = [];
	for (let length = 0; length < limit;) {
		if (length > 0) await pause();
		const piece = Buffer.allocUnsafe(Math.min(NOTE_TEXT_PIECE_CHARS, limit - length));
		const got = readSync(fd, piece, 0, piece.length, length);
		if (got === 0) break;
		pieces.push(piece.subarray(0, got));
		length += got;
	}
	return Buffer.concat(pieces);
}

const NEWLINE = 0x0a;

/** Where the whole characters of `bytes` from `start` to `end` end: before the last character's first byte when the bytes read so far stop inside it. */
function completeEnd(bytes: Buffer, start: number, end: number): number {
	let first = end - 1;
	while (first > start && end - first < 4 && ((bytes[first] ?? 0) & 0xc0) === 0x80) first--;
	if (first < start) return end;
	const lead = bytes[first] ?? 0;
	const length = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
	return end - first >= length ? end : first;
}

/** `text` as UTF-8, NOTE_TEXT_PIECE_CHARS characters per piece (cut between surrogate pairs, so the bytes are those of the whole), pausing between pieces. */
export async function encodeInPieces(text: string, pause: Pause): Promise<Buffer[]> {
	const pieces: Buffer[] = [];
	for (let start = 0; start < text.length;) {
		if (start > 0) await pause();
		const end = pieceEnd(text, start, NOTE_TEXT_PIECE_CHARS);
		pieces.push(Buffer.from(text.slice(start, end), "utf8"));
		start = end;
	}
	return pieces;
}

/** The total length of `parts`. */
export function lengthOf(parts: readonly Buffer[]): number {
	let length = 0;
	for (const part of parts) length += part.length;
	return length;
}

/**
 * Whether the file open as `fd` begins with the bytes of `parts`, one after the other (and, with
 * `exactly`, holds nothing more). Read NOTE_TEXT_PIECE_CHARS bytes at a time into one buffer and
 * compared as they come: one piece of work, about a quarter of a millisecond per megabyte, with no
 * copy of the file kept. It is the last look before a write, so it must not pause.
 */
export function fileStartsWith(fd: number, parts: readonly Buffer[], exactly = false): boolean {
	const scratch = Buffer.allocUnsafe(NOTE_TEXT_PIECE_CHARS);
	let position = 0;
	for (const part of parts) {
		for (let offset = 0; offset < part.length;) {
			const want = Math.min(scratch.length, part.length - offset);
			const got = readSync(fd, scratch, 0, want, position);
			if (got === 0 || !scratch.subarray(0, got).equals(part.subarray(offset, offset + got))) return false;
			offset += got;
			position += got;
		}
	}
	return !exactly || readSync(fd, scratch, 0, 1, position) === 0;
}

/** Whether the file open as `fd` holds `bytes` at `position` (read into one buffer, compared, no copy kept). */
export function fileHoldsAt(fd: number, bytes: Buffer, position: number): boolean {
	const scratch = Buffer.allocUnsafe(bytes.length);
	return readSync(fd, scratch, 0, bytes.length, position) === bytes.length && scratch.equals(bytes);
}
