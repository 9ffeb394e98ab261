import { close, closeSync, constants as fsConstants, fstatSync, fsync, fsyncSync, openSync, readFileSync, readSync, writeSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { z } from "zod";
import { JOURNAL_READ_PIECE_BYTES, NOTE_TEXT_PIECE_CHARS, JOURNAL_LINE_FIELDS_MAX_BYTES } from "../config/limits";
import type { SliceClock, Steps } from "../markdown/steps";
import { pieceEnd } from "../sha256";
import type { JournalChange, JournalEntry } from "./entry";

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
		movedFromOnDisk: z.string().min(1).optional(),
		before: z.string().nullable(),
		beforeHash: hash.nullable(),
		after: z.string().nullable(),
		afterHash: hash.nullable(),
		createdFolders: z.array(z.string().min(1)).optional(),
		nowAt: z.string().min(1).optional(),
	}),
	z.object({ kind: z.literal("drop"), id: z.string().min(1), path: z.string().min(1) }),
	/** The note a call changed at `path` was moved since, by the person or another program: it is at `nowAt` now. */
	z.object({ kind: z.literal("moved"), id: z.string().min(1), path: z.string().min(1), nowAt: z.string().min(1) }),
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

/**
 * Strings longer than this, in bytes of the line, are taken out of a long line before its JSON is
 * parsed and decoded on their own, in pieces: a note's texts, and nothing else a record holds (a
 * path is at most MAX_PATH_LENGTH characters, so even a deep new note's folders stay small).
 */
const LONG_STRING_BYTES = 256;

/**
 * `parseLine` of a line's bytes (without its line end), in steps that may pause between pieces of
 * at most JOURNAL_READ_PIECE_BYTES: the same record, or null where `parseLine` finds none. Its
 * long strings (a note's texts) are found by their quotes, each replaced by a stand-in, and
 * decoded piece by piece (each piece is JSON too, cut between escapes and between UTF-8
 * characters, so it decodes as it does within the whole); the rest is parsed at once and checked
 * as `parseLine` checks it. Parsed whole, a change to a 1 MiB note was one piece of 20–60 ms.
 */
export function* lineSteps(bytes: Buffer): Steps<JournalLine | null> {
	if (bytes.length <= JOURNAL_READ_PIECE_BYTES) return parseLine(bytes.toString("utf8"));
	// A stand-in no field of the line can hold by chance (random each time: a planted line cannot know it).
	const stand = `long-${randomBytes(12).toString("hex")}-`;
	const fields: string[] = [];
	const long = new Map<string, string>();
	let copied = 0;
	let fieldBytes = 0;
	let scanned = 0;
	for (let at = bytes.indexOf(0x22); at !== -1;) {
		const end = yield* closingQuoteSteps(bytes, at + 1);
		if (end === -1) return null;
		if (end - at - 1 > LONG_STRING_BYTES) {
			const key = `${stand}${long.size}`;
			fields.push(bytes.toString("utf8", copied, at), `"${key}"`);
			fieldBytes += at - copied + key.length + 2;
			const text = yield* jsonStringSteps(bytes, at + 1, end);
			if (text === null) return null;
			long.set(key, text);
			copied = end + 1;
		}
		if (fieldBytes + (end + 1 - copied) > JOURNAL_LINE_FIELDS_MAX_BYTES) return null;
		scanned += end + 1 - at;
		if (scanned >= JOURNAL_READ_PIECE_BYTES) {
			scanned = 0;
			yield;
		}
		at = bytes.indexOf(0x22, end + 1);
	}
	if (fieldBytes + bytes.length - copied > JOURNAL_LINE_FIELDS_MAX_BYTES) return null;
	fields.push(bytes.toString("utf8", copied));
	const rest = fields.join("");
	let value: unknown;
	try {
		value = JSON.parse(rest);
	} catch {
		return null;
	}
	const parsed = JournalLine.safeParse(withLongStrings(value, long));
	return parsed.success ? parsed.data : null;
}

/**
 * `value` with each stand-in string replaced by the long string it stands for, where a record holds
 * strings: its fields, and the items of a field that is a list. No deeper: a stand-in there is
 * where the schema wants no string, or under a key it drops, so JournalLine reads the same either
 * way; and a planted line nested 100,000 lists deep, which JSON.parse reads, overflowed the stack
 * of a walk into every level.
 */
function withLongStrings(value: unknown, long: ReadonlyMap<string, string>): unknown {
	if (value === null || typeof value !== "object" || Array.isArray(value)) return value;
	const record = value as Record<string, unknown>;
	for (const key of Object.keys(record)) {
		const field = record[key];
		if (typeof field === "string") record[key] = long.get(field) ?? field;
		else if (Array.isArray(field)) record[key] = field.map((item: unknown) => (typeof item === "string" ? (long.get(item) ?? item) : item));
	}
	return value;
}

/**
 * The index of the quote that ends the JSON string starting at `from` (after its opening quote): the
 * first one not escaped; -1 when none. A step every JOURNAL_READ_PIECE_BYTES looked through (a text of escaped quotes).
 */
function* closingQuoteSteps(bytes: Buffer, from: number): Steps<number> {
	let lastStep = from;
	for (let at = bytes.indexOf(0x22, from); at !== -1; at = bytes.indexOf(0x22, at + 1)) {
		let backslashes = 0;
		while (at - backslashes - 1 >= from && bytes[at - backslashes - 1] === 0x5c) backslashes++;
		if (backslashes % 2 === 0) return at;
		if (at - lastStep >= JOURNAL_READ_PIECE_BYTES) {
			lastStep = at;
			yield;
		}
	}
	return -1;
}

/**
 * The text of the JSON string whose bytes between the quotes are `start`..`end`, decoded a piece at
 * a time (a step between pieces); null when it is not valid JSON. Each piece ends before an escape
 * it would cut and before a UTF-8 character it would cut, so it decodes as within the whole: a
 * surrogate pair escaped as two `\u` escapes may fall in two pieces, and joined it is the pair again.
 */
function* jsonStringSteps(bytes: Buffer, start: number, end: number): Steps<string | null> {
	const pieces: string[] = [];
	for (let from = start; from < end;) {
		let cut = Math.min(end, from + JOURNAL_READ_PIECE_BYTES);
		// Back to the first byte of a UTF-8 character (at most three continuation bytes lead there).
		for (let back = 0; cut < end && back < 3 && (bytes[cut]! & 0xc0) === 0x80; back++) cut--;
		// Before an escape the cut would split (`\n` is two bytes, `\u00e9` six); looked for in this piece only.
		const piece = bytes.subarray(0, cut);
		for (let escape = piece.indexOf(0x5c, from); escape !== -1;) {
			const escapeEnd = escape + (bytes[escape + 1] === 0x75 ? 6 : 2);
			// An escape cut short by the string's end (`\u12"`) is no JSON: cut before it, the next piece began there again, for ever.
			if (escapeEnd > end) return null;
			if (escapeEnd > cut) {
				cut = escape;
				break;
			}
			escape = piece.indexOf(0x5c, escapeEnd);
		}
		try {
			pieces.push(JSON.parse(`"${bytes.toString("utf8", from, cut)}"`) as string);
		} catch {
			return null;
		}
		from = cut;
		if (from < end) yield;
	}
	return pieces.join("");
}

/** An entry's lines as a fresh file holds them: its changes, then its undone mark. */
export function entryLines(entry: JournalEntry): JournalLine[] {
	const { id, time, tokenName, tool } = entry;
	const lines: JournalLine[] = entry.changes.map((change) => ({ kind: "change", id, time, tokenName, tool, ...change }));
	if (entry.undone) lines.push({ kind: "undone", id, time: entry.undone.time, by: entry.undone.by });
	return lines;
}

/** An entry's lines' bytes as a fresh file holds them. */
export function linesOf(entry: JournalEntry): Buffer {
	return lineBytes(entryLines(entry));
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
	for (const change of entry.changes) bytes += fields + changeBytes(change);
	return bytes;
}

/** Each change's text bytes, counted once: a trim counting a 30 MB journal's texts at once was one piece of 15–70 ms. */
const changeBytesKept = new WeakMap<JournalChange, number>();

/**
 * The UTF-8 bytes of a change's paths and texts, remembered for the change (the journal counts each
 * as it reads it in, one line at a time, so a trim later only adds them up).
 */
function changeBytes(change: JournalChange): number {
	let bytes = changeBytesKept.get(change);
	if (bytes === undefined) {
		bytes =
			Buffer.byteLength(change.path) * (change.movedFrom === undefined ? 1 : 2) +
			Buffer.byteLength(change.movedFromOnDisk ?? "") +
			Buffer.byteLength(change.before ?? "") +
			Buffer.byteLength(change.after ?? "");
		changeBytesKept.set(change, bytes);
	}
	return bytes;
}

/** The bytes of a change line besides its texts: field names, quotes and the two hashes. */
const LINE_OVERHEAD_BYTES = 260;

/** A copy the caller may keep or change without touching the journal's own. */
export function copyEntry(entry: JournalEntry): JournalEntry {
	return { ...entry, changes: entry.changes.map((change) => ({ ...change })), undone: entry.undone ? { ...entry.undone } : null };
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
	const descriptor = openFolderToFlush(folder);
	if (descriptor === null) return;
	try {
		fsyncSync(descriptor);
	} catch {
		// Windows cannot open a folder for syncing; its rename is durable once it returns.
	} finally {
		closeSync(descriptor);
	}
}

/**
 * `syncFolder` with the flush made through the thread pool (the folder opened on the event loop):
 * a folder's flush may wait on the disk as long as a file's.
 */
export async function syncFolderOffLoop(folder: string): Promise<void> {
	const descriptor = openFolderToFlush(folder);
	if (descriptor === null) return;
	// An error is Windows, which cannot flush a folder (its rename is durable once it returns): nothing is owed.
	await new Promise<void>((resolve) => fsync(descriptor, () => close(descriptor, () => resolve())));
}

function openFolderToFlush(folder: string): number | null {
	try {
		// Only a folder, and without waiting: a named pipe another program put in its place would hold the open (and the server) until it had a writer.
		return openSync(folder, fsConstants.O_RDONLY | (fsConstants.O_DIRECTORY ?? 0) | (fsConstants.O_NONBLOCK ?? 0));
	} catch {
		return null;
	}
}

/** Flushes the file open as `descriptor` through the thread pool, then closes it. */
export function flushAndClose(descriptor: number): Promise<void> {
	return new Promise<void>((resolve, reject) => fsync(descriptor, (error) => close(descriptor, () => (error ? reject(error) : resolve()))));
}

/** The lines that record a call's notes at `from` as moved to `to`: one for each note its changes left there, none for a call undone. */
export function movedLines(entry: JournalEntry, from: string, to: string): JournalLine[] {
	if (entry.undone) return [];
	const paths = new Set<string>();
	for (const change of entry.changes) if (change.after !== null && (change.nowAt ?? change.path) === from) paths.add(change.path);
	return [...paths].map((path) => ({ kind: "moved", id: entry.id, path, nowAt: to }));
}

/** A call's changes by path, with the list and its length and last change they were made from. */
interface ChangesByPath {
	changes: readonly JournalChange[];
	length: number;
	last: JournalChange | undefined;
	byPath: Map<string, JournalChange[]>;
}

const changesByPathOf = new WeakMap<JournalEntry, ChangesByPath>();

/**
 * The index of `entry`'s changes by path, for `moved` and `drop` lines. Looking through all of a
 * call's changes for each such line made a journal read quadratic: a rename that relinked 10,000
 * notes, whose folder the person then moved (a line a note), cost 0.8 s more CPU at every read of
 * the whole journal, in one piece; a rename stopped after recording its 10,000 relinks drops them
 * all (a line a note). Made again when the list is not the one it was made from: a replay only
 * adds or replaces a change at the end (a new object) or takes one out (`dropLastChangeAt` keeps
 * the index up to date itself).
 */
function changesByPath(entry: JournalEntry): ChangesByPath {
	const { changes } = entry;
	let kept = changesByPathOf.get(entry);
	if (kept === undefined || kept.changes !== changes || kept.length !== changes.length || kept.last !== changes.at(-1)) {
		const byPath = new Map<string, JournalChange[]>();
		for (const change of changes) {
			const same = byPath.get(change.path);
			if (same === undefined) byPath.set(change.path, [change]);
			else same.push(change);
		}
		kept = { changes, length: changes.length, last: changes.at(-1), byPath };
		changesByPathOf.set(entry, kept);
	}
	return kept;
}

/** The changes of `entry` at `path`, for a `moved` line. */
function changesAt(entry: JournalEntry, path: string): readonly JournalChange[] {
	return changesByPath(entry).byPath.get(path) ?? [];
}

/**
 * Takes out the last change of `entry` at `path` (a `drop` line). Its place is looked for from both
 * ends at once: a call drops the changes it recorded ahead in the order it recorded them (the
 * first left is then at the front) or the one it recorded last (at the end), each found in a step.
 */
function dropLastChangeAt(entry: JournalEntry, path: string): void {
	const kept = changesByPath(entry);
	const same = kept.byPath.get(path);
	const dropped = same?.at(-1);
	if (same === undefined || dropped === undefined) return;
	const { changes } = entry;
	let index = -1;
	for (let front = 0, back = changes.length - 1; front <= back; front++, back--) {
		if (changes[back] === dropped) {
			index = back;
			break;
		}
		if (changes[front] === dropped) {
			index = front;
			break;
		}
	}
	if (index === -1) return;
	changes.splice(index, 1);
	same.pop();
	if (same.length === 0) kept.byPath.delete(path);
	kept.length = changes.length;
	kept.last = changes.at(-1);
}

/** Replays one line on `entries`: a change adds to (or replaces the last attempt of) its call, a mark, a move or a drop changes the call. */
export function replayLine(line: JournalLine, entries: Map<string, JournalEntry>): void {
	if (line.kind === "change") {
		const { kind: _kind, id, time, tokenName, tool, ...change } = line;
		let entry = entries.get(id);
		if (!entry) {
			entry = { id, time, tokenName, tool, changes: [], undone: null };
			entries.set(id, entry);
		}
		const last = entry.changes.at(-1);
		// The headless vault runs an edit again on fresh text when another program changed the note
		// before it could write (vault.process retries): the attempt recorded before was never
		// written, so the new record replaces it. A second real change of the same note follows
		// on from the first one's text, so it is added.
		if (last !== undefined && last.path === change.path && last.before !== null && last.afterHash !== change.beforeHash)
			entry.changes[entry.changes.length - 1] = change;
		else entry.changes.push(change);
		// Counted now, line by line, so a trim only adds the counts up.
		changeBytes(change);
		return;
	}
	const entry = entries.get(line.id);
	if (!entry) return;
	if (line.kind === "undone") {
		entry.undone = { time: line.time, by: line.by };
		return;
	}
	if (line.kind === "moved") {
		for (const change of changesAt(entry, line.path)) change.nowAt = line.nowAt;
		return;
	}
	dropLastChangeAt(entry, line.path);
	if (entry.changes.length === 0) entries.delete(line.id);
}

/**
 * Ends a line cut short by a crash before a new record is appended. A NUL is not JSON, so the cut
 * piece stays a skipped line even when the crash lost only its line end: a record whose write was
 * never finished was never acknowledged, and is not read back later either.
 */
const CUT_LINE_END = "\u0000\n";

/**
 * The bytes to append: after a line cut short by a crash, CUT_LINE_END first keeps them from
 * continuing it, and keeps the cut piece unreadable even when only its line end was lost.
 */
export function withCutLineEnd(bytes: Buffer, cutBefore: boolean): Buffer {
	return cutBefore ? Buffer.concat([Buffer.from(CUT_LINE_END, "utf8"), bytes]) : bytes;
}

/** Whether the file (`size` bytes) ends in bytes after its last line end: a line cut short by a crash, or still being written. */
export function endsInCutLine(descriptor: number, size: number): boolean {
	if (size === 0) return false;
	const last = Buffer.alloc(1);
	return readSync(descriptor, last, 0, 1, size - 1) === 1 && last[0] !== 0x0a;
}
