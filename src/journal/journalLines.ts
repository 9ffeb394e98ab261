import { closeSync, constants as fsConstants, fstatSync, fsyncSync, openSync, readFileSync, readSync, writeSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { z } from "zod";
import { NOTE_TEXT_PIECE_CHARS } from "../config/limits";
import type { SliceClock } from "../markdown/steps";
import { pieceEnd } from "../sha256";
import type { JournalEntry } from "./entry";

/*
 * The journal file's lines and the synchronous byte moves JournalFile makes with them: what one
 * line may hold (checked on every read, so a damaged or planted line is skipped, never trusted),
 * an entry's lines, their estimated size, and whole writes and reads at a position.
 */

const hash = z.string().regex(/^[0-9a-f]{64}$/);
/** One line of the file. Each line is one fact, appended; the state is their replay in order. */
export const JournalLine = z.discriminatedUnion("kind", [
	z.object({
		kind: z.literal("change"),
		id: z.string().min(1),
		time: z.string(),
		tokenName: z.string(),
		tool: z.string(),
		path: z.string().min(1),
		movedFrom: z.string().min(1).optional(),
		before: z.string().nullable(),
		beforeHash: hash.nullable(),
		after: z.string().nullable(),
		afterHash: hash.nullable(),
		createdFolders: z.array(z.string().min(1)).optional(),
	}),
	z.object({ kind: z.literal("drop"), id: z.string().min(1), path: z.string().min(1) }),
	z.object({ kind: z.literal("undone"), id: z.string().min(1), time: z.string(), by: z.string() }),
]);
export type JournalLine = z.infer<typeof JournalLine>;

/** A line's record, or null when it is not one (cut short, damaged, or from a future version). */
export function parseLine(text: string): JournalLine | null {
	try {
		const parsed = JournalLine.safeParse(JSON.parse(text));
		return parsed.success ? parsed.data : null;
	} catch {
		return null;
	}
}

/** An entry's lines as a fresh file holds them: its changes, then its undone mark. */
export function linesOf(entry: JournalEntry): Buffer {
	const { id, time, tokenName, tool } = entry;
	const lines: JournalLine[] = entry.changes.map((change) => ({ kind: "change", id, time, tokenName, tool, ...change }));
	if (entry.undone) lines.push({ kind: "undone", id, time: entry.undone.time, by: entry.undone.by });
	return lineBytes(lines);
}

/** Lines as the file holds them: each line's JSON and a line end, in UTF-8. */
export function lineBytes(lines: readonly JournalLine[]): Buffer {
	return Buffer.from(lines.map((line) => `${JSON.stringify(line)}\n`).join(""), "utf8");
}

/**
 * The same bytes as `lineBytes`, made piece by piece, pausing on `clock` between pieces: the two
 * texts of a change line (a note's before and after) are escaped and encoded in pieces of
 * NOTE_TEXT_PIECE_CHARS, cut between surrogate pairs, so each piece comes out as it does within the whole.
 */
export async function lineBytesInPieces(lines: readonly JournalLine[], clock: Pick<SliceClock, "checkpoint">): Promise<Buffer> {
	const parts: Buffer[] = [];
	for (const line of lines) {
		if (line.kind !== "change") {
			parts.push(lineBytes([line]));
			continue;
		}
		// Stand-ins no field of the line can hold by chance, replaced below by the texts' own JSON, in order.
		const marker = `\u0001text-${randomBytes(12).toString("hex")}`;
		const before = `${marker}-before`;
		const after = `${marker}-after`;
		let rest = JSON.stringify({ ...line, before: line.before === null ? null : before, after: line.after === null ? null : after });
		const texts: Array<[string | null, string]> = [
			[line.before, before],
			[line.after, after],
		];
		for (const [text, stand] of texts) {
			if (text === null) continue;
			const at = rest.indexOf(JSON.stringify(stand));
			parts.push(Buffer.from(`${rest.slice(0, at)}"`, "utf8"));
			for (let start = 0; start < text.length;) {
				const end = pieceEnd(text, start, NOTE_TEXT_PIECE_CHARS);
				parts.push(Buffer.from(JSON.stringify(text.slice(start, end)).slice(1, -1), "utf8"));
				start = end;
				await clock.checkpoint();
			}
			rest = `"${rest.slice(at + JSON.stringify(stand).length)}`;
		}
		parts.push(Buffer.from(`${rest}\n`, "utf8"));
	}
	return Buffer.concat(parts);
}

/**
 * About how many bytes an entry's lines take, without serialising them (which for a full journal
 * took seconds of the event loop): the texts' UTF-8 size plus each line's fields. Escapes in JSON
 * (a line end is two characters) make the real size a little larger.
 */
export function estimatedBytes(entry: JournalEntry): number {
	const fields = entry.id.length + entry.time.length + entry.tokenName.length + entry.tool.length + LINE_OVERHEAD_BYTES;
	let bytes = entry.undone ? fields + entry.undone.by.length : 0;
	for (const change of entry.changes)
		bytes +=
			fields +
			Buffer.byteLength(change.path) * (change.movedFrom === undefined ? 1 : 2) +
			Buffer.byteLength(change.before ?? "") +
			Buffer.byteLength(change.after ?? "");
	return bytes;
}

/** The bytes of a change line besides its texts: field names, quotes and the two hashes. */
const LINE_OVERHEAD_BYTES = 260;

/** A copy the caller may keep or change without touching the journal's own. */
export function copyEntry(entry: JournalEntry): JournalEntry {
	return { ...entry, changes: entry.changes.map((change) => ({ ...change })), undone: entry.undone ? { ...entry.undone } : null };
}

export function writeAllAt(descriptor: number, bytes: Buffer, position: number): void {
	for (let offset = 0; offset < bytes.length;) offset += writeSync(descriptor, bytes, offset, bytes.length - offset, position + offset);
}

export function writeAll(descriptor: number, bytes: Buffer): void {
	for (let offset = 0; offset < bytes.length;) offset += writeSync(descriptor, bytes, offset, bytes.length - offset);
}

/** The file's bytes from `position` to its end, or to `end` when given (never more: another process may be adding to it). */
export function readFrom(descriptor: number, position: number, end?: number): Buffer {
	const size = Math.min(fstatSync(descriptor).size, end ?? Number.POSITIVE_INFINITY);
	if (size <= position) return Buffer.alloc(0);
	if (position === 0 && end === undefined) return readFileSync(descriptor);
	const buffer = Buffer.alloc(size - position);
	let read = 0;
	while (read < buffer.length) {
		const count = readSync(descriptor, buffer, read, buffer.length - read, position + read);
		if (count === 0) break;
		read += count;
	}
	return buffer.subarray(0, read);
}

/** Makes a new name in the folder durable (a rename or a new file); not possible on every platform, and then skipped. */
export function syncFolder(folder: string): void {
	let descriptor: number;
	try {
		// Only a folder, and without waiting: a named pipe another program put in its place would hold the open (and the server) until it had a writer.
		descriptor = openSync(folder, fsConstants.O_RDONLY | (fsConstants.O_DIRECTORY ?? 0) | (fsConstants.O_NONBLOCK ?? 0));
	} catch {
		return;
	}
	try {
		fsyncSync(descriptor);
	} catch {
		// Windows cannot open a folder for syncing; its rename is durable once it returns.
	} finally {
		closeSync(descriptor);
	}
}
