import { randomBytes } from "node:crypto";
import { closeSync, fstatSync, fsyncSync, mkdirSync, openSync, readFileSync, readSync, renameSync, rmSync, statSync, writeSync } from "node:fs";
import * as nodePath from "node:path";
import { z } from "zod";
import { JOURNAL_KEEP_AFTER_TRIM, MAX_JOURNAL_BYTES, MAX_JOURNAL_ENTRIES } from "../config/limits";
import { PLUGIN_ID } from "../config/store";
import type { JournalCall, JournalChange, JournalEntry, WriteJournal } from "./entry";

/** The journal's file name, beside data.json in the plugin's folder. */
export const JOURNAL_FILE_NAME = "journal.jsonl";

/** Where a vault's journal lives: `<vault>/<configDir>/plugins/vault-mcp/journal.jsonl`, never among the notes. */
export function journalPathFor(vaultRoot: string, configDir: string): string {
	return nodePath.join(vaultRoot, configDir, "plugins", PLUGIN_ID, JOURNAL_FILE_NAME);
}

const hash = z.string().regex(/^[0-9a-f]{64}$/);
/** One line of the file. Each line is one fact, appended; the state is their replay in order. */
const JournalLine = z.discriminatedUnion("kind", [
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
	}),
	z.object({ kind: z.literal("drop"), id: z.string().min(1), path: z.string().min(1) }),
	z.object({ kind: z.literal("undone"), id: z.string().min(1), time: z.string(), by: z.string() }),
]);
type JournalLine = z.infer<typeof JournalLine>;

/** Options for tests and tuning; the defaults are the named limits. */
export interface JournalFileOptions {
	maxEntries?: number;
	maxBytes?: number;
	/** Share of each bound kept after a trim. */
	keepAfterTrim?: number;
}

/** What the file looked like on disk when last read or written: a change of either means another program touched it. */
interface DiskState {
	ino: number;
	/** Bytes read and applied: everything up to the last complete line. */
	size: number;
}

/**
 * The write journal in one append-only file of JSON lines. Each record is appended with one write
 * and fsynced before `recordChange` returns, so a change is on disk before the note is written.
 * The journal keeps at most `maxEntries` calls and `maxBytes` of file; past either bound the
 * oldest calls are dropped by rewriting the file (a temporary file renamed over it, so a crash
 * leaves the old or the new file, never half of one).
 *
 * The file is the truth and the entries in memory are its replay: before each operation the file
 * is looked at (one stat), and lines another process appended (the CLI's `undo` while Obsidian
 * runs, say) are read in, so two processes sharing a vault agree. Lines that cannot be read — the
 * last line of a file cut short by a crash, or garbage — are skipped; every complete line before
 * and after them still counts, and the file is rewritten without the damaged complete lines. A
 * last piece without a line end is left in place, since it may be another process's line still
 * being written; the next append starts on a line of its own.
 *
 * Nothing here logs: the records hold note text.
 */
export class JournalFile implements WriteJournal {
	private entries = new Map<string, JournalEntry>();
	private disk: DiskState | null = null;
	private readonly maxEntries: number;
	private readonly maxBytes: number;
	private readonly keepAfterTrim: number;
	/** Lines skipped as unreadable since the journal was opened (a crash's cut line, or damage). */
	skippedLines = 0;

	private constructor(
		readonly path: string,
		options: JournalFileOptions,
	) {
		this.maxEntries = options.maxEntries ?? MAX_JOURNAL_ENTRIES;
		this.maxBytes = options.maxBytes ?? MAX_JOURNAL_BYTES;
		this.keepAfterTrim = options.keepAfterTrim ?? JOURNAL_KEEP_AFTER_TRIM;
	}

	/** Opens (reads back) the journal at `path`; a missing file is an empty journal, created at the first record. */
	static open(path: string, options: JournalFileOptions = {}): JournalFile {
		const journal = new JournalFile(path, options);
		journal.reload();
		return journal;
	}

	/** The journal of a vault folder, in the plugin's folder under `configDir`. */
	static forVault(vaultRoot: string, configDir: string, options: JournalFileOptions = {}): JournalFile {
		return JournalFile.open(journalPathFor(vaultRoot, configDir), options);
	}

	recordChange(call: JournalCall, change: JournalChange): void {
		this.append({ kind: "change", id: call.id, time: call.time, tokenName: call.tokenName, tool: call.tool, ...change }, call.id);
	}

	dropChange(callId: string, path: string): void {
		this.syncWithDisk();
		if (!this.entries.get(callId)?.changes.some((change) => change.path === path)) return;
		this.append({ kind: "drop", id: callId, path }, callId);
	}

	markUndone(callId: string, by: string): void {
		this.syncWithDisk();
		// The call may have been dropped as the oldest meanwhile (by the undo's own records): nothing to mark.
		if (!this.entries.has(callId)) return;
		this.append({ kind: "undone", id: callId, time: new Date().toISOString(), by }, by);
	}

	list(limit?: number): JournalEntry[] {
		this.syncWithDisk();
		const newestFirst = [...this.entries.values()].reverse();
		return (limit === undefined ? newestFirst : newestFirst.slice(0, Math.max(0, limit))).map(copyEntry);
	}

	get(callId: string): JournalEntry | null {
		this.syncWithDisk();
		const entry = this.entries.get(callId);
		return entry ? copyEntry(entry) : null;
	}

	/** Size of the file on disk, in bytes (0 before the first record). */
	get sizeOnDisk(): number {
		this.syncWithDisk();
		return this.disk?.size ?? 0;
	}

	/**
	 * Appends one line and makes it durable, then reads back what the file gained (this line, and
	 * any another process appended meanwhile), then trims if a bound is passed. `touched` is the
	 * call the line belongs to (or, for an undone mark, the undo), which a trim never drops.
	 */
	private append(line: JournalLine, touched: string): void {
		this.syncWithDisk();
		mkdirSync(nodePath.dirname(this.path), { recursive: true });
		// Bytes after the last complete line: another process's line cut short by a crash. A line end first
		// keeps this line from continuing it (the cut piece is then skipped as a line of its own).
		const cutBefore = (statSync(this.path, { throwIfNoEntry: false })?.size ?? 0) > (this.disk?.size ?? 0);
		const bytes = Buffer.from(`${cutBefore ? "\n" : ""}${JSON.stringify(line)}\n`, "utf8");
		// Owner-only: the journal holds note text.
		const descriptor = openSync(this.path, "a", 0o600);
		try {
			writeAll(descriptor, bytes);
			fsyncSync(descriptor);
		} finally {
			closeSync(descriptor);
		}
		if (this.disk === null) syncFolder(nodePath.dirname(this.path));
		this.syncWithDisk();
		if (this.entries.size > this.maxEntries || (this.disk?.size ?? 0) > this.maxBytes) this.trim(touched);
	}

	/** Reads in what changed on disk since last time: appended lines, or the whole file when it was replaced or shrank. */
	private syncWithDisk(): void {
		const stats = statSync(this.path, { throwIfNoEntry: false });
		if (!stats) {
			if (this.disk !== null) this.reset();
			return;
		}
		if (this.disk === null || stats.ino !== this.disk.ino || stats.size < this.disk.size) {
			this.reload();
			return;
		}
		if (stats.size === this.disk.size) return;
		const descriptor = openSync(this.path, "r");
		try {
			if (fstatSync(descriptor).ino !== this.disk.ino) {
				this.reload();
				return;
			}
			const tail = readFrom(descriptor, this.disk.size);
			this.disk.size += this.applyLines(tail, false).consumed;
		} finally {
			closeSync(descriptor);
		}
	}

	private reset(): void {
		this.entries = new Map();
		this.disk = null;
	}

	/** Reads the whole file again; rewrites it without the lines that could not be read, if there were any. */
	private reload(): void {
		this.reset();
		let descriptor: number;
		try {
			descriptor = openSync(this.path, "r");
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
			throw error;
		}
		let damaged: number;
		try {
			const { ino } = fstatSync(descriptor);
			const text = readFrom(descriptor, 0);
			const read = this.applyLines(text, true);
			this.disk = { ino, size: read.consumed };
			damaged = read.damaged;
		} finally {
			closeSync(descriptor);
		}
		// Only damaged complete lines go: rewriting away a last piece without a line end would lose
		// the line of another process still writing it (`history` run during a big write, say).
		if (damaged > 0) this.rewrite();
	}

	/**
	 * Applies the complete lines of `text` in order; returns the bytes consumed (up to the last line
	 * end) and how many complete lines were damaged. A trailing piece without a line end is never
	 * consumed: a crash's cut line, or another process's line still being written. At a full read
	 * (`final`) it counts as skipped, as a crash's cut line would.
	 */
	private applyLines(text: Buffer, final: boolean): { consumed: number; damaged: number } {
		let start = 0;
		let damaged = 0;
		while (start < text.length) {
			const end = text.indexOf(0x0a, start);
			if (end === -1) {
				if (final) this.skippedLines++;
				break;
			}
			const parsed = parseLine(text.subarray(start, end).toString("utf8"));
			if (parsed === null) damaged++;
			else this.apply(parsed);
			start = end + 1;
		}
		this.skippedLines += damaged;
		return { consumed: start, damaged };
	}

	private apply(line: JournalLine): void {
		if (line.kind === "change") {
			const { kind: _kind, id, time, tokenName, tool, ...change } = line;
			let entry = this.entries.get(id);
			if (!entry) {
				entry = { id, time, tokenName, tool, changes: [], undone: null };
				this.entries.set(id, entry);
			}
			const last = entry.changes.at(-1);
			// The headless vault runs an edit again on fresh text when another program changed the note
			// before it could write (vault.process retries): the attempt recorded before was never
			// written, so the new record replaces it. A second real change of the same note follows
			// on from the first one's text, so it is added.
			if (last !== undefined && last.path === change.path && last.before !== null && last.afterHash !== change.beforeHash) entry.changes[entry.changes.length - 1] = change;
			else entry.changes.push(change);
			return;
		}
		const entry = this.entries.get(line.id);
		if (!entry) return;
		if (line.kind === "undone") {
			entry.undone = { time: line.time, by: line.by };
			return;
		}
		const index = entry.changes.map((change) => change.path).lastIndexOf(line.path);
		if (index !== -1) entry.changes.splice(index, 1);
		if (entry.changes.length === 0) this.entries.delete(line.id);
	}

	/**
	 * Drops the oldest calls (never `keep`, the call just recorded) until the journal holds at most
	 * `keepAfterTrim` of each bound, and rewrites the file with what is left.
	 */
	private trim(keep: string): void {
		const entryTarget = Math.floor(this.maxEntries * this.keepAfterTrim);
		const byteTarget = Math.floor(this.maxBytes * this.keepAfterTrim);
		const lines = new Map([...this.entries.values()].map((entry) => [entry.id, linesOf(entry)]));
		let bytes = [...lines.values()].reduce((sum, text) => sum + text.length, 0);
		for (const id of [...this.entries.keys()]) {
			if (this.entries.size <= entryTarget && bytes <= byteTarget) break;
			if (id === keep) continue;
			bytes -= lines.get(id)?.length ?? 0;
			this.entries.delete(id);
		}
		this.rewrite();
	}

	/** Replaces the file with one line per change held (and one per undone mark), atomically. */
	private rewrite(): void {
		const folder = nodePath.dirname(this.path);
		const temporary = nodePath.join(folder, `.${JOURNAL_FILE_NAME}.${randomBytes(6).toString("hex")}.tmp`);
		const text = Buffer.concat([...this.entries.values()].map(linesOf));
		const descriptor = openSync(temporary, "wx", 0o600);
		try {
			writeAll(descriptor, text);
			fsyncSync(descriptor);
		} catch (error) {
			closeSync(descriptor);
			rmSync(temporary, { force: true });
			throw error;
		}
		closeSync(descriptor);
		try {
			renameSync(temporary, this.path);
		} catch (error) {
			rmSync(temporary, { force: true });
			throw error;
		}
		syncFolder(folder);
		this.disk = { ino: statSync(this.path).ino, size: text.length };
	}
}

/** A line's record, or null when it is not one (cut short, damaged, or from a future version). */
function parseLine(text: string): JournalLine | null {
	try {
		const parsed = JournalLine.safeParse(JSON.parse(text));
		return parsed.success ? parsed.data : null;
	} catch {
		return null;
	}
}

/** An entry's lines as a fresh file holds them: its changes, then its undone mark. */
function linesOf(entry: JournalEntry): Buffer {
	const { id, time, tokenName, tool } = entry;
	const lines: JournalLine[] = entry.changes.map((change) => ({ kind: "change", id, time, tokenName, tool, ...change }));
	if (entry.undone) lines.push({ kind: "undone", id, time: entry.undone.time, by: entry.undone.by });
	return Buffer.from(lines.map((line) => `${JSON.stringify(line)}\n`).join(""), "utf8");
}

/** A copy the caller may keep or change without touching the journal's own. */
function copyEntry(entry: JournalEntry): JournalEntry {
	return { ...entry, changes: entry.changes.map((change) => ({ ...change })), undone: entry.undone ? { ...entry.undone } : null };
}

function writeAll(descriptor: number, bytes: Buffer): void {
	for (let offset = 0; offset < bytes.length; ) offset += writeSync(descriptor, bytes, offset, bytes.length - offset);
}

function readFrom(descriptor: number, position: number): Buffer {
	const size = fstatSync(descriptor).size;
	if (size <= position) return Buffer.alloc(0);
	if (position === 0) return readFileSync(descriptor);
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
function syncFolder(folder: string): void {
	let descriptor: number;
	try {
		descriptor = openSync(folder, "r");
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
