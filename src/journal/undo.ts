import { randomBytes } from "node:crypto";
import { MAX_NOTE_NAME_BYTES } from "../config/limits";
import type { Host, HostFile } from "../host/Host";
import { linkpathOf } from "../markdown/inline";
import { rewriteLinks } from "../markdown/linkRewrite";
import { parseMetadata } from "../markdown/metadata";
import { ensureParentFolder } from "../vault/dailyNotes";
import { hashText } from "../vault/writes";
import type { JournalCall, JournalChange, JournalEntry, WriteJournal } from "./entry";

/** The name an undo made by a person is recorded under, in history. */
export const UNDO_BY_PERSON = "you";
/** The tool name history shows for an undo. */
export const UNDO_TOOL = "undo";

/** A new tool call id: 12 hex characters, short enough to type after `vault-mcp undo`. */
export function newCallId(): string {
	return randomBytes(6).toString("hex");
}

/** Why an id cannot be undone when the journal does not hold it. */
export function unknownCallReason(callId: string): string {
	return `No change with id "${callId}" in the journal: the id is unknown, or the change was among the oldest and was dropped.`;
}

/** What undo did with one note. */
export type UndoneNote =
	| { path: string; result: "restored" }
	/** The call moved it (rename_note) and it was as the call left it: moved back to `path` with its earlier text, from `from`. */
	| { path: string; result: "moved back"; from: string }
	/** The call created it and it was unchanged since: moved to the trash. */
	| { path: string; result: "trashed" }
	/** Not as the call left it (edited, renamed or deleted since): left alone, its earlier text saved as `copy`. */
	| { path: string; result: "conflict"; copy: string }
	/** The call renamed a note that cannot move back (edited since, or its old path taken): this note's links to it, at `to`, were left so they keep reaching it. */
	| { path: string; result: "links kept"; to: string }
	/** A note whose links the call's rename changed, edited since: its text kept, only those links pointed back at the note's old path. */
	| { path: string; result: "relinked" }
	/** Already exactly as it was before the call: nothing to do. */
	| { path: string; result: "unchanged" }
	/** The call created it and it was edited since: left alone, since there is no earlier text to save. */
	| { path: string; result: "kept" }
	/** The call created it and it is gone already. */
	| { path: string; result: "gone" };

export type UndoOutcome = { ok: true; entry: JournalEntry; undoId: string; notes: UndoneNote[] } | { ok: false; reason: string };

/**
 * Undoes one tool call, note by note in reverse order. A note still exactly as the call left it
 * (its SHA-256 equals the recorded `afterHash`, checked again inside the atomic write) gets its
 * earlier bytes back; a note the call created is moved to the trash, never deleted. A note changed
 * since is never written over: its earlier text is saved beside it as a conflict copy,
 * `<name> (before <tool> <YYYY-MM-DD HH-mm>).md`. Each write goes through the host and is recorded
 * first, as a call of the tool "undo" by `undoneBy`, so history shows it and it can be undone too.
 */
export async function undoCall(host: Host, journal: WriteJournal, callId: string, undoneBy = UNDO_BY_PERSON): Promise<UndoOutcome> {
	const entry = journal.get(callId);
	if (!entry) return { ok: false, reason: unknownCallReason(callId) };
	if (entry.undone) return { ok: false, reason: `The change ${callId} was already undone, at ${entry.undone.time} (by ${entry.undone.by}).` };
	const undo: JournalCall = { id: newCallId(), time: new Date().toISOString(), tokenName: undoneBy, tool: UNDO_TOOL };
	const recorder = new RecordedWrites(host, journal, undo);
	const notes: UndoneNote[] = [];
	// A rename whose note must stay where it went: the links it changed keep reaching it there, instead of pointing back at a path it is not at.
	const move = entry.changes.find((change) => change.movedFrom !== undefined);
	const noteStays = move?.movedFrom !== undefined && !(await canMoveBack(host, move, move.movedFrom));
	try {
		for (const change of [...entry.changes].reverse()) {
			if (noteStays && move && change !== move) notes.push({ path: change.path, result: "links kept", to: move.path });
			else if (move && change !== move) notes.push(await undoRelinkedNote(recorder, entry, change));
			else notes.push(await undoChange(recorder, entry, change));
		}
	} catch (error) {
		const done = notes.length > 0 ? ` Done before it stopped: ${describeNotes(notes)}` : " Nothing was changed.";
		return { ok: false, reason: `Undo of ${callId} stopped at "${entry.changes[entry.changes.length - 1 - notes.length]?.path ?? ""}": ${error instanceof Error ? error.message : String(error)}.${done} Running it again carries on.` };
	}
	journal.markUndone(callId, undo.id);
	return { ok: true, entry, undoId: undo.id, notes };
}

async function undoChange(writes: RecordedWrites, entry: JournalEntry, change: JournalChange): Promise<UndoneNote> {
	if (change.movedFrom !== undefined) return undoMove(writes, entry, change, change.movedFrom);
	const { path } = change;
	const file = writes.host.vault.getFileByPath(path);
	// The change moved the note to the trash (an undo of its creation): bring its text back where it was, if nothing is there.
	if (change.after === null) {
		if (file || change.before === null) return conflict(writes, entry, change);
		await writes.create(path, change.before);
		return { path, result: "restored" };
	}
	if (!file) return change.before === null ? { path, result: "gone" } : conflict(writes, entry, change);
	const currentHash = hashText(await writes.host.vault.read(file));
	if (currentHash === change.afterHash) {
		if (change.before === null) {
			await writes.trash(file, change.after);
			return { path, result: "trashed" };
		}
		return (await writes.restore(file, change.afterHash, change.before)) ? { path, result: "restored" } : conflict(writes, entry, change);
	}
	if (change.before === null) return { path, result: "kept" };
	if (currentHash === change.beforeHash) return { path, result: "unchanged" };
	return conflict(writes, entry, change);
}

/**
 * Moves a renamed note back, with its earlier text, if it is still exactly as the call left it
 * and its old path is free. Otherwise nothing is moved or written over: its earlier text is saved
 * as a conflict copy beside the old path. The links the rename changed in other notes are their
 * own changes of the same call, restored byte for byte before this (undo runs in reverse order)
 * when the note can move back, and left reaching it where it is when it cannot.
 */
async function undoMove(writes: RecordedWrites, entry: JournalEntry, change: JournalChange, movedFrom: string): Promise<UndoneNote> {
	const file = writes.host.vault.getFileByPath(change.path);
	if (!file || change.before === null || change.afterHash === null || !(await canMoveBack(writes.host, change, movedFrom))) return conflict(writes, entry, { ...change, path: movedFrom });
	await writes.move(file, movedFrom);
	const moved = writes.host.vault.getFileByPath(movedFrom);
	if (moved && change.before !== change.after && !(await writes.restore(moved, change.afterHash, change.before))) return conflict(writes, entry, { ...change, path: movedFrom });
	return { path: movedFrom, result: "moved back", from: change.path };
}

/**
 * Undoes a rename's change to a note that links to the renamed note. As any change when the note
 * is as the call left it; edited since, its text is kept and only the links the rename changed
 * are pointed back, so they reach the note at its old path once it is moved back there.
 */
async function undoRelinkedNote(writes: RecordedWrites, entry: JournalEntry, change: JournalChange): Promise<UndoneNote> {
	const file = writes.host.vault.getFileByPath(change.path);
	if (!file || change.before === null || change.after === null) return undoChange(writes, entry, change);
	const currentHash = hashText(await writes.host.vault.read(file));
	if (currentHash === change.afterHash || currentHash === change.beforeHash) return undoChange(writes, entry, change);
	const back = renamedLinkpaths(change.before, change.after);
	if (back.size === 0) return conflict(writes, entry, change);
	const relinked = await writes.edit(file, (text) => rewriteLinks(text, parseMetadata(text), (linkpath) => back.get(linkpath) ?? null).text);
	return relinked ? { path: change.path, result: "relinked" } : conflict(writes, entry, change);
}

/** The link paths a rename changed in a note, new → old. Its rewriting changes only path parts, so the links of the text before and after pair up in order. */
function renamedLinkpaths(before: string, after: string): Map<string, string> {
	const linkpaths = (text: string) => {
		const cache = parseMetadata(text);
		return [...(cache.links ?? []), ...(cache.embeds ?? []), ...(cache.frontmatterLinks ?? [])].map((link) => linkpathOf(link.link));
	};
	const old = linkpaths(before);
	const renamed = linkpaths(after);
	const back = new Map<string, string>();
	if (old.length !== renamed.length) return back;
	renamed.forEach((linkpath, index) => {
		const was = old[index];
		if (was !== undefined && was !== linkpath) back.set(linkpath, was);
	});
	return back;
}

/** Whether a renamed note is still exactly as the call left it and its old path is free. */
async function canMoveBack(host: Host, change: JournalChange, movedFrom: string): Promise<boolean> {
	const file = host.vault.getFileByPath(change.path);
	if (!file || change.before === null || change.afterHash === null) return false;
	if (host.vault.getFileByPath(movedFrom) !== null || (await host.vault.adapter.exists(movedFrom))) return false;
	return hashText(await host.vault.read(file)) === change.afterHash;
}

async function conflict(writes: RecordedWrites, entry: JournalEntry, change: JournalChange): Promise<UndoneNote> {
	if (change.before === null) return { path: change.path, result: "kept" };
	const copy = await writes.createBeside(change.path, (number) => conflictCopyName(change.path, entry.tool, new Date(entry.time), number), change.before);
	return { path: change.path, result: "conflict", copy };
}

/**
 * The host's writes, each recorded in the journal before it is made and forgotten again if it
 * fails — what the write tools' recording does, for the undo's own call.
 */
class RecordedWrites {
	constructor(
		readonly host: Host,
		private readonly journal: WriteJournal,
		private readonly call: JournalCall,
	) {}

	/** Puts `before` back if the note still hashes to `afterHash` at the moment of writing; false (nothing written) if it does not. */
	async restore(file: HostFile, afterHash: string, before: string): Promise<boolean> {
		let matched = false;
		let recorded = false;
		try {
			await this.host.vault.process(file, (data) => {
				// Run again on fresh text if the note changed before the write: decide again each time.
				matched = hashText(data) === afterHash;
				if (!matched) return data;
				this.journal.recordChange(this.call, { path: file.path, before: data, beforeHash: afterHash, after: before, afterHash: hashText(before) });
				recorded = true;
				return before;
			});
		} catch (error) {
			if (recorded) this.journal.dropChange(this.call.id, file.path);
			throw error;
		}
		if (!matched && recorded) this.journal.dropChange(this.call.id, file.path);
		return matched;
	}

	/** Changes a note in one atomic edit, recorded; false (nothing written) when `change` leaves its text as it is. */
	async edit(file: HostFile, change: (text: string) => string): Promise<boolean> {
		let changed = false;
		let recorded = false;
		try {
			await this.host.vault.process(file, (data) => {
				const next = change(data);
				changed = next !== data;
				if (!changed) return data;
				this.journal.recordChange(this.call, { path: file.path, before: data, beforeHash: hashText(data), after: next, afterHash: hashText(next) });
				recorded = true;
				return next;
			});
		} catch (error) {
			if (recorded) this.journal.dropChange(this.call.id, file.path);
			throw error;
		}
		if (!changed && recorded) this.journal.dropChange(this.call.id, file.path);
		return changed;
	}

	/** Moves a note (no link changes: the call's other records restore those), recorded as a move. */
	async move(file: HostFile, to: string): Promise<void> {
		const text = await this.host.vault.read(file);
		const from = file.path;
		this.journal.recordChange(this.call, { path: to, movedFrom: from, before: text, beforeHash: hashText(text), after: text, afterHash: hashText(text) });
		try {
			await ensureParentFolder(this.host, to);
			await this.host.vault.rename(file, to);
		} catch (error) {
			this.journal.dropChange(this.call.id, to);
			throw error;
		}
	}

	async trash(file: HostFile, text: string): Promise<void> {
		this.journal.recordChange(this.call, { path: file.path, before: text, beforeHash: hashText(text), after: null, afterHash: null });
		try {
			await this.host.fileManager.trashFile(file);
		} catch (error) {
			this.journal.dropChange(this.call.id, file.path);
			throw error;
		}
	}

	async create(path: string, text: string): Promise<void> {
		this.journal.recordChange(this.call, { path, before: null, beforeHash: null, after: text, afterHash: hashText(text) });
		try {
			await ensureParentFolder(this.host, path);
			await this.host.vault.create(path, text);
		} catch (error) {
			this.journal.dropChange(this.call.id, path);
			throw error;
		}
	}

	/** Creates a new note at the first free name `nameAt(0)`, `nameAt(1)`, …; returns its path. */
	async createBeside(path: string, nameAt: (number: number) => string, text: string): Promise<string> {
		for (let number = 0; ; number++) {
			const candidate = nameAt(number);
			if (this.host.vault.getFileByPath(candidate) || (await this.host.vault.adapter.exists(candidate))) continue;
			try {
				await this.create(candidate, text);
				return candidate;
			} catch (error) {
				// Taken a moment ago by another program: the next number.
				if (this.host.vault.getFileByPath(candidate) || (await this.host.vault.adapter.exists(candidate))) continue;
				throw error;
			}
		}
	}
}

/**
 * `<folder>/<name> (before <tool> <YYYY-MM-DD HH-mm>).<ext>` in local time, with ` 2`, ` 3`, …
 * before the closing parenthesis for `number` 1, 2, …; the name is shortened to fit the file-name limit.
 */
export function conflictCopyName(path: string, tool: string, time: Date, number = 0): string {
	const slash = path.lastIndexOf("/");
	const folder = path.slice(0, slash + 1);
	const name = path.slice(slash + 1);
	const dot = name.lastIndexOf(".");
	const extension = dot > 0 ? name.slice(dot) : "";
	let base = dot > 0 ? name.slice(0, dot) : name;
	const suffix = ` (before ${tool} ${localStamp(time)}${number === 0 ? "" : ` ${number + 1}`})${extension}`;
	while (base.length > 1 && Buffer.byteLength(base + suffix) > MAX_NOTE_NAME_BYTES) base = [...base].slice(0, -1).join("");
	return `${folder}${base}${suffix}`;
}

function localStamp(time: Date): string {
	const two = (value: number) => String(value).padStart(2, "0");
	return `${time.getFullYear()}-${two(time.getMonth() + 1)}-${two(time.getDate())} ${two(time.getHours())}-${two(time.getMinutes())}`;
}

/** What an undo did, in one sentence per note, for the CLI's line and the plugin's notice. */
export function describeNotes(notes: readonly UndoneNote[]): string {
	return notes
		.map((note) => {
			switch (note.result) {
				case "restored":
					return `restored "${note.path}"`;
				case "moved back":
					return `moved "${note.from}" back to "${note.path}"`;
				case "trashed":
					return `moved "${note.path}" to the trash`;
				case "conflict":
					return `"${note.path}" had changed since, so it was left as it is and its earlier text was saved as "${note.copy}"`;
				case "relinked":
					return `"${note.path}" had changed since, so it keeps its text and only its links to the renamed note were pointed back`;
				case "links kept":
					return `"${note.path}" keeps its links to "${note.to}", which could not move back`;
				case "unchanged":
					return `"${note.path}" was already as it was before`;
				case "kept":
					return `"${note.path}" (new with that change) had been edited since, so it was left as it is`;
				case "gone":
					return `"${note.path}" (new with that change) was already gone`;
			}
		})
		.join("; ");
}

/** One line saying what an undo did. */
export function describeUndo(outcome: Extract<UndoOutcome, { ok: true }>): string {
	const { entry } = outcome;
	return `Undid ${entry.id} (${entry.tool} by ${entry.tokenName}, ${entry.time}): ${describeNotes(outcome.notes)}.`;
}
