import { closeSync, fstatSync, fsyncSync } from "node:fs";
import * as nodePath from "node:path";
import { NOTE_TEXT_SLICE_MS } from "../config/limits";
import { APPEND_FLAGS, checkOwnFolder, openOwnFile } from "../config/ownFiles";
import { SliceClock } from "../markdown/steps";
import { yieldToEventLoop } from "../vault/workBudget";
import type { JournalCall, JournalChange, JournalEntry, WriteJournal } from "./entry";
import { copyEntry, endsInCutLine, lineBytes, lineBytesInPieces, replayLine, syncFolder, withCutLineEnd, writeAll, type JournalLine } from "./journalLines";

/**
 * A journal file written to by appending only, never read (the CLI's `undo`, opened by
 * `JournalFile.openToUndo` with the one call it undoes): it knows that call and the calls it
 * records itself, nothing else. Each record is one write at the end of the file, made durable
 * before it returns, as JournalFile appends: a line cut short by a crash before it is ended first,
 * and the journal, its folder and its name are refused when they are a link or lead outside the vault.
 * A drop or an undone mark goes in unchecked: one for a change or call the file no longer holds
 * (trimmed away meanwhile by serve) is read as nothing. A drop that cannot be appended (the write it
 * follows failed for the same passing reason, too many open files say) is owed, as JournalFile owes
 * it: applied to what `get` and `list` answer at once, carried before the next record, and given a
 * last try at `close`, so the file does not keep a change that was never made.
 */
export class AppendOnlyJournal implements WriteJournal {
	private readonly entries = new Map<string, JournalEntry>();
	/** Drop lines not yet in the file (already applied to `entries`). */
	private owedDrops: JournalLine[] = [];

	constructor(
		readonly path: string,
		private readonly vaultRoot: string,
		known: readonly JournalEntry[],
		/** The lines that record every call's notes at `from` as moved to `to`, read from the file (see `noteMoved`). */
		private readonly movesOf: (from: string, to: string) => JournalLine[] = () => [],
	) {
		for (const entry of known) this.entries.set(entry.id, entry);
	}

	recordChange(call: JournalCall, change: JournalChange): void {
		this.recordChanges(call, [change]);
	}

	recordChanges(call: JournalCall, changes: readonly JournalChange[]): void {
		if (changes.length === 0) return;
		const lines = changeLines(call, changes);
		this.append(lines, lineBytes(lines));
	}

	async recordChangesAhead(call: JournalCall, changes: readonly JournalChange[]): Promise<void> {
		if (changes.length === 0) return;
		const lines = changeLines(call, changes);
		this.append(lines, await lineBytesInPieces(lines, new SliceClock(NOTE_TEXT_SLICE_MS, yieldToEventLoop)));
	}

	/** Never throws: a drop that cannot be appended now is owed (see the class). */
	dropChange(callId: string, path: string): void {
		const line: JournalLine = { kind: "drop", id: callId, path };
		replayLine(line, this.entries);
		this.owedDrops.push(line);
		try {
			this.append([], Buffer.alloc(0));
		} catch {
			// Owed: carried by the next record, or written at `close`.
		}
	}

	/** Appends the drops still owed, a last try before the process ends; a failure leaves them listed, as a crash would. */
	close(): void {
		try {
			this.append([], Buffer.alloc(0));
		} catch {
			// Nothing more can be done: the file stays as it is.
		}
	}

	/**
	 * A note this process moved (the undo of a rename moving it back): the other calls' changes to it are recorded as
	 * now there, as serve records them, so their undo finds it. Never throws: unrecorded, undo takes the note for deleted.
	 */
	noteMoved(from: string, to: string): void {
		try {
			const lines = this.movesOf(from, to);
			if (lines.length > 0) this.append(lines, lineBytes(lines));
		} catch {
			// Not recorded (the journal is a link, the disk full): as before moves were followed.
		}
	}

	markUndone(callId: string, by: string): void {
		const line: JournalLine = { kind: "undone", id: callId, time: new Date().toISOString(), by };
		this.append([line], lineBytes([line]));
	}

	/** The call opened for, and the calls recorded since, newest first. */
	list(limit?: number): JournalEntry[] {
		const newestFirst = [...this.entries.values()].reverse();
		return (limit === undefined ? newestFirst : newestFirst.slice(0, Math.max(0, limit))).map(copyEntry);
	}

	get(callId: string): JournalEntry | null {
		const entry = this.entries.get(callId);
		return entry ? copyEntry(entry) : null;
	}

	/**
	 * Appends the drops owed and then `bytes` (the lines' bytes) with one write, fsynced; the folder
	 * too when the write made the file. The lines are applied once written (the drops were already).
	 */
	private append(lines: readonly JournalLine[], linesBytes: Buffer): void {
		const drops = this.owedDrops;
		if (lines.length === 0 && drops.length === 0) return;
		const bytes = drops.length === 0 ? linesBytes : Buffer.concat([lineBytes(drops), linesBytes]);
		const folder = nodePath.dirname(this.path);
		checkOwnFolder(this.vaultRoot, folder);
		const descriptor = openOwnFile(this.vaultRoot, this.path, APPEND_FLAGS) as number;
		let made: boolean;
		try {
			const size = fstatSync(descriptor).size;
			made = size === 0;
			writeAll(descriptor, withCutLineEnd(bytes, endsInCutLine(descriptor, size)));
			fsyncSync(descriptor);
		} finally {
			closeSync(descriptor);
		}
		if (made) syncFolder(folder);
		this.owedDrops = this.owedDrops.slice(drops.length);
		for (const line of lines) replayLine(line, this.entries);
	}
}

/** A call's changes as the file's lines. */
function changeLines(call: JournalCall, changes: readonly JournalChange[]): JournalLine[] {
	return changes.map((change) => ({ kind: "change", id: call.id, time: call.time, tokenName: call.tokenName, tool: call.tool, ...change }));
}
