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
 * (trimmed away meanwhile by serve) is read as nothing.
 */
export class AppendOnlyJournal implements WriteJournal {
	private readonly entries = new Map<string, JournalEntry>();

	constructor(
		readonly path: string,
		private readonly vaultRoot: string,
		known: readonly JournalEntry[],
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

	dropChange(callId: string, path: string): void {
		const line: JournalLine = { kind: "drop", id: callId, path };
		this.append([line], lineBytes([line]));
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

	/** Appends `bytes` (the lines' bytes) with one write, fsynced; the folder too when the write made the file. */
	private append(lines: readonly JournalLine[], bytes: Buffer): void {
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
		for (const line of lines) replayLine(line, this.entries);
	}
}

/** A call's changes as the file's lines. */
function changeLines(call: JournalCall, changes: readonly JournalChange[]): JournalLine[] {
	return changes.map((change) => ({ kind: "change", id: call.id, time: call.time, tokenName: call.tokenName, tool: call.tool, ...change }));
}
