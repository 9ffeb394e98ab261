/**
 * A write as data, and the one applier that makes it. A tool call (and an undo) is planned once as
 * a change set: per note, the exact text it had when planned and the text it is to have. The
 * person approves that set; `applyChangeSet` writes it, note by note, each only if the note still
 * holds the text the set was planned on (compared inside the host's atomic edit, `vault.process`),
 * and records each note in the journal right before its bytes are written, with the text it
 * really replaced and the text it really wrote.
 */
import { FileOverBytesError } from "../host/FileOverBytesError";
import type { Host, HostFile, ProcessOptions } from "../host/Host";
import { ensureParentFolder, folderAt, hashText, overEditedBytesMessage } from "../vault/writes";
import {
	MAX_EDITED_NOTE_CHARS,
	NOTE_TEXT_PIECE_CHARS,
	NOTE_TEXT_SLICE_MS,
	REDO_IN_EDIT_MAX_CHARS,
	REDO_OUTSIDE_EDIT_ATTEMPTS,
	RELINKS_APPLIED_AT_ONCE,
} from "../config/limits";
import { runSteps, runStepsInSlices, SliceClock, type Steps } from "../markdown/steps";
import { sha256HexInPieces } from "../sha256";
import { yieldToEventLoop } from "../vault/workBudget";
import type { JournalCall, JournalChange, WriteJournal } from "./entry";

/** One note a call changes: its text before (null: the call creates it) and after; `movedFrom` when the call moves it there. */
export interface NoteChange {
	path: string;
	/** The note's path before the call, when the call moves it. */
	movedFrom?: string;
	/** For a move: `path` as the disk is to spell it (MoveOptions.spelling): undo of a rename puts the note back under the name it had. */
	spelling?: string;
	before: string | null;
	after: string;
	/** A created note holding a copy of the note at this path (a backup, a conflict copy): made as private as that note (ProcessOptions.sameAccessAs). */
	copyOf?: string;
	/**
	 * The file whose text the change was planned on (the note at `movedFrom` for a move). A change the person approved
	 * is written only to it (`ApplyOptions.shownFiles`): a note renamed away while they decided, and another made at its
	 * path, is not the note they were shown.
	 */
	plannedOn?: HostFile;
	/**
	 * The same edit made again on newer text (a pure function of the text). Used only where nobody
	 * saw the planned text: a call allowed without asking, or a rename's link rewriting, which
	 * changes only the link paths the person approved and keeps everything else of the note.
	 */
	redo?: (text: string) => string;
	/** Set on a rename's link rewriting: `redo` may be used even for a call the person approved. */
	relink?: boolean;
	/**
	 * `redo` refuses any note longer than this many bytes (the edit's tool refuses a note that long): a
	 * note grown past it since planning is refused without being read.
	 */
	redoRefusesOverBytes?: number;
}

/** A note no longer holds the text its change was planned on (or a new note's path was taken): this note was not written. */
export class NoteChangedSinceError extends Error {
	readonly code = "ENOTECHANGED";
	constructor(
		readonly path: string,
		/** Notes of the same set already written before this one. */
		readonly written: readonly string[],
		/** A new note's path turned out to be taken on disk by something the vault does not list: plan the note elsewhere. */
		readonly takenOnDisk = false,
	) {
		super(`"${path}" changed after this call was planned, so it was not written.`);
		this.name = "NoteChangedSinceError";
	}
}

/**
 * A note grew, since the call was planned, past the longest its tool changes, seen from its size
 * before it was read (another program appending fast): nothing was written. The tool's own refusal.
 */
export class NoteTooLongError extends Error {
	readonly code = "ENOTETOOLONG";
	constructor(readonly path: string) {
		super(overEditedBytesMessage(path));
		this.name = "NoteTooLongError";
	}
}

/** The call's token, its right for the tool or the write switch changed while it was being applied: the notes not yet written were not. */
export class WriteNoLongerAllowedError extends Error {
	readonly code = "ENOLONGERALLOWED";
	constructor(readonly written: readonly string[]) {
		super("This call is no longer allowed for this token (its rights, the token or the write switch changed).");
		this.name = "WriteNoLongerAllowedError";
	}
}

/** Where a set is written and recorded: the vault, the journal, and the call each note's record belongs to. */
export interface ApplyTarget {
	host: Host;
	journal: WriteJournal;
	call: JournalCall;
	/** Asked again once a note's record is written ahead of the note (that takes event-loop turns): whether the call may still write. */
	mayWrite?: () => boolean;
}

/** Whether an edit made again on newer text `before` (giving `after`) may be written; stepped, as it may compare two 1 MiB texts. */
export type RedoCheck = (before: string, after: string) => Steps<boolean>;

/** How a set is applied. */
export interface ApplyOptions {
	/** Asked right before each note is written: whether the call may still write (token, right, write switch). */
	mayWrite: () => boolean;
	/** Whether an edit's `redo` may run on a note that changed since it was planned (never when the person saw the planned text). */
	redoEdits: boolean;
	/**
	 * When `redoEdits` is off: whether an edit made again on newer text is still the change the
	 * person approved (the same lines removed and added), decided inside the note's atomic edit.
	 */
	acceptsRedo?: RedoCheck;
	/**
	 * The person saw each link change's new text (a rename approved in Ask mode): a note changed since
	 * is not relinked on its new text (a link added meanwhile, never shown, would be rewritten or left
	 * dangling) but found changed, so the call is planned again and, if the change differs, asked again.
	 */
	shownRelinks?: boolean;
	/**
	 * The person saw each change: an edit, a move or a rename's link change is made only in the file it was planned on
	 * (`NoteChange.plannedOn`), not in another note at its path.
	 */
	shownFiles?: boolean;
	/**
	 * The folders the plan found missing: all a move may make (create_note's right judged them, a question listed them).
	 * A move into a folder removed since is a changed note, planned again, so that the right and the person judge the
	 * folder too: made here, it was made with create_note at Deny. Absent (undo, the person's own): any folder is made.
	 */
	plannedFolders?: readonly string[];
	/**
	 * Inside Obsidian with "Automatically update internal links" on, a move is made by the host's own
	 * `fileManager.renameFile`, which also rewrites the links; each planned link change is then
	 * checked and completed where the host did not make it, and the journal keeps what the host wrote.
	 */
	hostUpdatesLinks?: boolean;
}

/** The bytes a set's journal records take (JSON-escaped texts and paths, hashes and field names). */
export function journalBytesOf(changes: readonly NoteChange[]): number {
	return runSteps(journalBytesSteps(changes));
}

/**
 * `journalBytesOf` in steps that may pause every NOTE_TEXT_PIECE_CHARS characters and after each
 * change: a call's check of a 1 MB note's two texts against MAX_JOURNAL_CALL_BYTES was one piece of
 * 5–10 ms, and a rename relinking 10,000 small notes (no text long enough to pause in) one of 30–130 ms.
 */
export function* journalBytesSteps(changes: readonly NoteChange[]): Steps<number> {
	const RECORD_OVERHEAD_BYTES = 300;
	let bytes = 0;
	for (const change of changes) {
		bytes += RECORD_OVERHEAD_BYTES + 2 * (yield* jsonStringBytes(change.path)) + (yield* jsonStringBytes(change.after));
		if (change.movedFrom !== undefined) bytes += yield* jsonStringBytes(change.movedFrom);
		if (change.before !== null) bytes += yield* jsonStringBytes(change.before);
		yield;
	}
	return bytes;
}

/**
 * The UTF-8 bytes of `text` as a JSON string, counted without making it (a megabyte note's two
 * texts took most of 30 ms to serialise just to be counted): its bytes, the quotes, and the escapes
 * JSON adds, found by character code (a regular expression keeping them made a string of a note's
 * 50,000 line ends and looked each up, 0.1 s). A lone surrogate (escaped as six bytes, counted as
 * three) is the one thing counted short. May pause every NOTE_TEXT_PIECE_CHARS characters.
 */
function* jsonStringBytes(text: string): Steps<number> {
	let bytes = Buffer.byteLength(text, "utf8") + 2;
	for (let index = 0; index < text.length; index++) {
		if (index % NOTE_TEXT_PIECE_CHARS === NOTE_TEXT_PIECE_CHARS - 1) yield;
		const code = text.charCodeAt(index);
		// `"` and `\` take a backslash; \b \t \n \f \r a letter after one; other control characters \u00XX.
		if (code === 0x22 || code === 0x5c) bytes += 1;
		else if (code < 0x20) bytes += code === 0x08 || code === 0x09 || code === 0x0a || code === 0x0c || code === 0x0d ? 1 : 5;
	}
	return bytes;
}

/** The note's text now, or null when no file is at `path`. */
export async function currentText(host: Host, path: string): Promise<string | null> {
	const file = host.vault.getFileByPath(path);
	// The host's cached read is checked against the file on disk; each write compares again at its moment.
	return file ? host.vault.cachedRead(file) : null;
}

/** Whether nothing (no note, no folder, nothing the vault does not list) is at `path`. */
export async function isPathFree(host: Host, path: string): Promise<boolean> {
	if (host.vault.getFileByPath(path) || host.vault.getFolderByPath(path)) return false;
	return !(await host.vault.adapter.exists(path));
}

/**
 * The first change whose note no longer holds its planned `before` (a new note's path taken, a
 * moved note's target taken), or null when every note is as planned. Read before the first byte
 * is written, so a set that cannot be applied as planned writes nothing.
 */
export async function findChangedNote(
	host: Host,
	changes: readonly NoteChange[],
	options?: Pick<ApplyOptions, "redoEdits" | "shownRelinks" | "plannedFolders" | "shownFiles">,
): Promise<string | null> {
	// A set's only edit that may be made again on newer text is compared inside its atomic edit instead:
	// a note another program keeps appending to changes between any look and the write.
	const redoneAtWrite = (change: NoteChange) =>
		(change.relink === true && options?.shownRelinks !== true) || (options?.redoEdits === true && changes.length === 1 && change.redo !== undefined);
	const moved = new Set(changes.flatMap((change) => (change.movedFrom === undefined ? [] : [change.path])));
	// Shown to the person: another file at a note's path (the one shown deleted or renamed away, another made there) is
	// not the note they saw, whatever it holds; a rename's linking note so replaced was relinked on its equal text.
	const notTheFileShown = (change: NoteChange, path: string) =>
		options?.shownFiles === true && change.plannedOn !== undefined && host.vault.getFileByPath(path) !== change.plannedOn;
	// Paused between notes: a shown rename's 3,000 linking notes, each looked at, took 56–77 ms of CPU in one piece.
	const clock = new SliceClock(NOTE_TEXT_SLICE_MS, yieldToEventLoop);
	for (const change of changes) {
		await clock.checkpoint();
		if (change.movedFrom !== undefined) {
			if (notTheFileShown(change, change.movedFrom) || (await currentText(host, change.movedFrom)) !== change.before) return change.movedFrom;
			if (change.path.toLowerCase() !== change.movedFrom.toLowerCase() && !(await isPathFree(host, change.path))) return change.path;
			if (makesUnplannedFolder(host, change.path, options?.plannedFolders)) return change.path;
		} else if (change.before === null) {
			if (!(await isPathFree(host, change.path))) return change.path;
		} else if (!moved.has(change.path) && notTheFileShown(change, change.path)) {
			return change.path;
		} else if (!moved.has(change.path) && !redoneAtWrite(change) && (await currentText(host, change.path)) !== change.before) {
			return change.path;
		}
	}
	return null;
}

/**
 * Writes a planned set: first every note is checked (nothing is written if one changed since the
 * plan), then each note in order, each recorded in `journal` right before it is written. Returns
 * the text written to each path. Throws NoteChangedSinceError when a note changed in the meantime
 * and its edit cannot be made again, WriteNoLongerAllowedError when `mayWrite` turns false.
 */
export async function applyChangeSet(target: ApplyTarget, changes: readonly NoteChange[], options: ApplyOptions): Promise<Map<string, string>> {
	// Sets that touch a path in common are checked and written one after another: two overwrites of one
	// note planned the same backup name at once, and the second wrote its note before finding the name taken.
	const paths = changes.flatMap((change) => (change.movedFrom === undefined ? [change.path] : [change.path, change.movedFrom]));
	return withPathTurns(paths, () => applyInTurn(target, changes, options));
}

/** The end of the last set applied on each path (lower-cased), for `withPathTurns`. */
const pathTurns = new Map<string, Promise<unknown>>();

/** Runs `work` once every set applied earlier on any of `paths` has ended; later sets on them wait for this one. */
export async function withPathTurns<T>(paths: readonly string[], work: () => Promise<T>): Promise<T> {
	const keys = [...new Set(paths.map((path) => path.toLowerCase()))];
	// Only the paths another set holds are waited for: a settled promise made for each of a rename's 10,000 paths was most of a 20-30 ms piece.
	const earlier = keys.flatMap((key) => pathTurns.get(key) ?? []);
	const mine = Promise.allSettled(earlier).then(work);
	const settled = mine.catch(() => undefined);
	for (const key of keys) pathTurns.set(key, settled);
	try {
		return await mine;
	} finally {
		for (const key of keys) if (pathTurns.get(key) === settled) pathTurns.delete(key);
	}
}

async function applyInTurn(target: ApplyTarget, changes: readonly NoteChange[], options: ApplyOptions): Promise<Map<string, string>> {
	const changed = await findChangedNote(target.host, changes, options);
	if (changed !== null) throw new NoteChangedSinceError(changed, []);
	const written = new Map<string, string>();
	const done: string[] = [];
	const moveByHost = options.hostUpdatesLinks === true ? changes.find((change) => change.movedFrom !== undefined) : undefined;
	const applyOne = async (change: NoteChange) => {
		// An overwrite's backup keeps only what its note held: once the note is replaced, it is written even if the
		// token was revoked in between (refused, the replaced text would be left only in the journal).
		const keepsReplaced = isBackupOfReplaced(change, changes, done);
		const mayWrite = keepsReplaced ? () => true : options.mayWrite;
		if (!mayWrite()) throw new WriteNoLongerAllowedError(done);
		try {
			if (moveByHost !== undefined && change === moveByHost) {
				await moveWithHostLinks(target, change, changes, written);
			} else if (moveByHost !== undefined && written.has(change.path)) {
				// Completed by the host's rename above.
				return;
			} else {
				const text = await applyChange(
					{ ...target, mayWrite },
					change,
					options.redoEdits || (change.relink === true && options.shownRelinks !== true) ? true : (options.acceptsRedo ?? false),
					options.shownFiles === true ? change.plannedOn : undefined,
					options.plannedFolders,
				);
				if (text !== null) written.set(change.path, text);
			}
		} catch (error) {
			if (error instanceof NoteChangedSinceError) throw new NoteChangedSinceError(error.path, done, error.takenOnDisk);
			if (error instanceof WriteNoLongerAllowedError) throw new WriteNoLongerAllowedError(done);
			// Refused unread as the tool's own answer only when nothing of the set was written before it.
			if (error instanceof NoteTooLongError && done.length > 0) throw new NoteChangedSinceError(error.path, done);
			throw error;
		}
		done.push(change.path);
	};
	// A rename's link changes are independent edits of different notes: applied a group at a time,
	// each group recorded in the journal with one write (one disk flush, not one per note) and then
	// written at once, each note still compared at the moment of its own write.
	let group: NoteChange[] = [];
	// One slice clock for the whole set: each note's edit is one synchronous piece (its last look and write), so
	// the edits of a group pause between them once the slice is used up (64 back to back took up to 235 ms).
	const clock = new SliceClock(NOTE_TEXT_SLICE_MS, yieldToEventLoop);
	const flush = async () => {
		for (let start = 0; start < group.length; start += RELINKS_APPLIED_AT_ONCE)
			await applyRelinks(target, group.slice(start, start + RELINKS_APPLIED_AT_ONCE), options, written, done, clock);
		group = [];
	};
	for (const change of changes) {
		if (change.relink === true && change.movedFrom === undefined && change.before !== null && change.redo !== undefined && moveByHost === undefined) {
			group.push(change);
			continue;
		}
		await flush();
		await applyOne(change);
	}
	await flush();
	return written;
}

/**
 * Whether `change` makes an overwrite's backup (`Note.md.bak`, `Note.md.2.bak`…, a new file holding
 * exactly the text its note's change replaced) of a note this set has already written.
 */
function isBackupOfReplaced(change: NoteChange, changes: readonly NoteChange[], done: readonly string[]): boolean {
	if (change.before !== null || change.movedFrom !== undefined || !change.path.endsWith(".bak")) return false;
	return changes.some((note) => note !== change && note.before === change.after && done.includes(note.path) && isBackupName(note.path, change.path));
}

/** Whether `candidate` is one of `path`'s backup names (backupPath: `path.bak`, `path.2.bak`, `path.3.bak`…). */
function isBackupName(path: string, candidate: string): boolean {
	if (!candidate.startsWith(`${path}.`) || !candidate.endsWith(".bak")) return false;
	const middle = candidate.slice(path.length + 1, -".bak".length);
	return middle === "" || /^[1-9]\d{0,8}$/u.test(middle);
}

/** The folders above `path` that do not exist yet, outermost first: creating the note makes them. */
export function missingFolders(host: Host, path: string): string[] {
	const missing: string[] = [];
	for (let slash = path.lastIndexOf("/"); slash > 0; slash = path.lastIndexOf("/", slash - 1)) {
		const folder = path.slice(0, slash);
		if (host.vault.getFolderByPath(folder)) break;
		missing.unshift(folder);
	}
	return missing;
}

/**
 * Whether a note at `path` needs a folder made that the plan did not make (`ApplyOptions.plannedFolders`; absent: none
 * counts). A folder replaced by a link is not missing: the write refuses it as a link, and says so.
 */
function makesUnplannedFolder(host: Host, path: string, plannedFolders: readonly string[] | undefined): boolean {
	if (plannedFolders === undefined) return false;
	const links = host.hiddenLinks();
	const underLink = (folder: string) => links.some((link) => folder === link || folder.startsWith(`${link}/`));
	return missingFolders(host, path).some((folder) => !plannedFolders.includes(folder) && !underLink(folder));
}

/**
 * Applies a group of link changes: the call's right is checked, the group recorded with one
 * journal write, then each note edited in its own atomic edit. A note changed since the plan has
 * the same link change made on its new text (its record replaced by what was really written); a
 * note that could not be written has its record dropped. Throws, once every note of the group has
 * settled, the first note's error (with every note written so far in `done`).
 */
async function applyRelinks(
	target: ApplyTarget,
	group: readonly NoteChange[],
	options: ApplyOptions,
	written: Map<string, string>,
	done: string[],
	clock: SliceClock,
): Promise<void> {
	if (!options.mayWrite()) throw new WriteNoLongerAllowedError(done);
	await recordEditsAhead(target, group);
	// Checked again: the right may have been taken while the records were written.
	if (!options.mayWrite()) {
		for (const change of group) target.journal.dropChange(target.call.id, change.path);
		throw new WriteNoLongerAllowedError(done);
	}
	// Started one after another, pausing between them once the slice is used up (a note's write asks `mayWrite` as
	// it starts and again last before its bytes go, so a right taken during a pause stops every note not yet written).
	// Each settles into `results` as it starts, so one refused while later ones wait to start is not left unhandled.
	const results: Array<Promise<PromiseSettledResult<string | null>>> = [];
	for (const change of group) {
		if (results.length > 0) await clock.checkpoint();
		results.push(settled(writeRecordedRelink(target, change, options)));
	}
	const settledResults = await Promise.all(results);
	let failure: Error | null = null;
	for (const [index, result] of settledResults.entries()) {
		const change = group[index]!;
		if (result.status === "rejected") failure ??= result.reason instanceof Error ? result.reason : new Error("A note of this rename could not be written.");
		else if (result.value !== null) {
			written.set(change.path, result.value);
			done.push(change.path);
		}
	}
	if (failure instanceof NoteChangedSinceError) throw new NoteChangedSinceError(failure.path, done, failure.takenOnDisk);
	if (failure instanceof WriteNoLongerAllowedError) throw new WriteNoLongerAllowedError(done);
	if (failure !== null) throw failure;
}

/**
 * Records edits of different notes (a rename's link changes, an undo's) ahead with one journal
 * write and one disk flush; each is then written (`writeRecordedRelink`, `writeRecordedEdit`), and
 * any not written must have its record dropped (`journal.dropChange`).
 */
export async function recordEditsAhead({ journal, call }: ApplyTarget, changes: readonly NoteChange[]): Promise<void> {
	const records: JournalChange[] = [];
	for (const change of changes) records.push(await recordInPieces(change.path, change.before, change.after));
	await journal.recordChangesAhead(call, records);
}

/**
 * Writes one edit recorded by `recordEditsAhead`, in its own atomic edit; returns the text
 * written, or null when the note is gone or no longer holds the change's `before` (nothing
 * written, its record dropped). Once `mayWrite` says no, before the bytes go,
 * WriteNoLongerAllowedError. Other errors are thrown, the record dropped.
 */
export async function writeRecordedEdit(target: ApplyTarget, change: NoteChange, mayWrite: () => boolean = () => true): Promise<string | null> {
	try {
		return await writeRecordedRelink(target, { ...change, redo: undefined }, { mayWrite, redoEdits: false });
	} catch (error) {
		if (error instanceof NoteChangedSinceError) return null;
		throw error;
	}
}

/** What `Promise.allSettled` gives for one promise, handled from the moment it is made. */
function settled<T>(promise: Promise<T>): Promise<PromiseSettledResult<T>> {
	return promise.then(
		(value) => ({ status: "fulfilled", value }),
		(reason: unknown) => ({ status: "rejected", reason }),
	);
}

/** Writes one link change already recorded as planned; returns the text written (null: nothing written, its record dropped). */
async function writeRecordedRelink({ host, journal, call }: ApplyTarget, change: NoteChange, options: ApplyOptions): Promise<string | null> {
	let recorded: { before: string; after: string } | null = { before: change.before ?? "", after: change.after };
	const forget = () => {
		if (recorded !== null) journal.dropChange(call.id, change.path);
		recorded = null;
	};
	const file = host.vault.getFileByPath(change.path);
	// Another file at the path than the linking note the person was shown (replaced since `findChangedNote` looked): not relinked.
	const replaced = file !== null && options.shownFiles === true && change.plannedOn !== undefined && file !== change.plannedOn;
	if (!file || replaced || !options.mayWrite()) {
		forget();
		if (!file || replaced) throw new NoteChangedSinceError(change.path, []);
		throw new WriteNoLongerAllowedError([]);
	}
	let text: string | null = null;
	// Changed since the person saw its new text: not relinked on text they did not see (the call is planned again).
	let changedSinceShown = false;
	try {
		await processWhileAllowed(host, file, change.path, options.mayWrite, (data) => {
			changedSinceShown = data !== change.before && options.shownRelinks === true;
			const next = data === change.before ? change.after : changedSinceShown ? data : (change.redo?.(data) ?? data);
			text = next === data ? null : next;
			if (recorded !== null && recorded.before === data && recorded.after === next) return next;
			// The note changed since the plan: the record says what this edit really replaces and writes.
			forget();
			if (next !== data) {
				journal.recordChange(call, record(change.path, data, next));
				recorded = { before: data, after: next };
			}
			return next;
		});
	} catch (error) {
		forget();
		throw error;
	}
	if (changedSinceShown) throw new NoteChangedSinceError(change.path, []);
	return text;
}

/**
 * `host.vault.process`, asked to check `mayWrite` last before it writes: a long note is read and
 * written in pieces, other requests answered between them, and a token revoked (or its right or
 * folders changed) in one of them must write nothing. A file over `refuseOverBytes` is not read in.
 */
function processWhileAllowed(
	host: Host,
	file: HostFile,
	path: string,
	mayWrite: (() => boolean) | undefined,
	fn: (data: string) => string,
	refuseOverBytes?: number,
): Promise<string> {
	const allowed = mayWrite === undefined ? undefined : refusedOnceNotAllowed(mayWrite).beforeWrite;
	const options: ProcessOptions = {
		// Moved since it was planned at `path` (into an excluded folder, by the person: the same file object, renamed):
		// not written where it is now, which nobody planned or checked. An append went into the excluded note.
		beforeWrite: () => {
			if (file.path !== path) throw new NoteChangedSinceError(path, []);
			allowed?.();
		},
		...(refuseOverBytes === undefined ? {} : { refuseOverBytes }),
	};
	return host.vault.process(file, fn, options);
}

/** The check a write makes last before its bytes go (and between their pieces): throws once `mayWrite` says no. */
function refusedOnceNotAllowed(mayWrite: () => boolean): ProcessOptions {
	return {
		beforeWrite: () => {
			if (!mayWrite()) throw new WriteNoLongerAllowedError([]);
		},
	};
}

/** `record`, with the two texts hashed in pieces between which the event loop is given back (a 1 MiB note's two hashes took up to 50 ms). */
async function recordInPieces(path: string, before: string | null, after: string, moved?: Move): Promise<JournalChange> {
	const clock = new SliceClock(NOTE_TEXT_SLICE_MS, yieldToEventLoop);
	const beforeHash = before === null ? null : await sha256HexInPieces(before, clock);
	const afterHash = before === after && beforeHash !== null ? beforeHash : await sha256HexInPieces(after, clock);
	return { path, ...moved, before, beforeHash, after, afterHash };
}

/** Where a moved note came from, as its journal record keeps it. */
type Move = Required<Pick<JournalChange, "movedFrom">> & Pick<JournalChange, "movedFromOnDisk">;

/** The move of a note at `movedFrom`, `file`: with its name on disk when that is another spelling (HostVault.pathOnDisk). */
function moveOf(host: Host, file: HostFile, movedFrom: string): Move {
	const onDisk = host.vault.pathOnDisk?.(file);
	return onDisk === undefined || onDisk === movedFrom ? { movedFrom } : { movedFrom, movedFromOnDisk: onDisk };
}

function record(path: string, before: string | null, after: string, moved?: Move): JournalChange {
	return {
		path,
		...moved,
		before,
		beforeHash: before === null ? null : hashText(before),
		after,
		afterHash: hashText(after),
	};
}

/**
 * Makes one change: creates, moves or edits the note, recorded right before the bytes are
 * written. An edit is made only on the text it was planned on, or, when `redo` is allowed, made
 * again on the note's current text. Returns the note's text as written (null: nothing to write).
 */
export async function applyChange(
	target: ApplyTarget,
	change: NoteChange,
	mayRedo: boolean | RedoCheck,
	onlyIn?: HostFile,
	plannedFolders?: readonly string[],
): Promise<string | null> {
	if (change.movedFrom !== undefined) return moveNote(target, change, change.movedFrom, mayRedo === true, onlyIn, plannedFolders);
	if (change.before === null) {
		await createNote(target, change.path, change.after, change.copyOf);
		return change.after;
	}
	const file = target.host.vault.getFileByPath(change.path);
	// Another note at the path (`onlyIn`, the one the person was shown, renamed away): not the note approved.
	if (!file || (onlyIn !== undefined && file !== onlyIn)) throw new NoteChangedSinceError(change.path, []);
	return editWithCompare(target, file, change, mayRedo);
}

async function createNote(target: ApplyTarget, path: string, text: string, copyOf?: string): Promise<void> {
	if (!(await isPathFree(target.host, path))) throw new NoteChangedSinceError(path, []);
	const madeFolders: string[] = [];
	try {
		await makeMissingFolders(target.host, missingFolders(target.host, path), madeFolders);
		await createInFolders(target, path, text, madeFolders, copyOf);
	} catch (error) {
		// Refused (a revocation, a name taken): the folders made for the note go too, so the vault is as it was.
		await removeEmptyFolders(target.host, madeFolders);
		throw error;
	}
}

/**
 * Makes `folders` (outermost first) one at a time, adding to `made` each that this call made: one
 * the person or another client made in the moment since it was seen missing is theirs, and is
 * neither recorded as made by the call (undo would take it away) nor taken away if the call stops.
 */
async function makeMissingFolders(host: Host, folders: readonly string[], made: string[]): Promise<void> {
	for (const folder of folders) {
		if (host.vault.makeFolder) {
			if (await host.vault.makeFolder(folder)) made.push(folder);
			continue;
		}
		if (await folderAt(host, folder)) continue;
		try {
			await host.vault.createFolder(folder);
		} catch (error) {
			// Made by someone else in the instant since it was looked at (Obsidian: "Folder already exists.").
			if (/already exists/i.test((error as Error).message ?? "") && (await folderAt(host, folder))) continue;
			throw error;
		}
		made.push(folder);
	}
}

/**
 * Takes away `folders` (a create's missing folders, outermost first), innermost first, each only
 * while it is empty (the host's `rmdir` is never recursive): one that holds anything, another
 * note made there meanwhile say, stays, and so does every folder above it.
 */
async function removeEmptyFolders(host: Host, folders: readonly string[]): Promise<void> {
	for (const folder of [...folders].reverse()) {
		if (!host.vault.getFolderByPath(folder)) continue;
		try {
			await host.vault.adapter.rmdir(folder, false);
		} catch {
			return;
		}
	}
}

async function createInFolders(
	{ host, journal, call, mayWrite }: ApplyTarget,
	path: string,
	text: string,
	createdFolders: readonly string[],
	copyOf?: string,
): Promise<void> {
	// The parent removed by someone else since: made again (not the call's to take away; the create fails on without it).
	await ensureParentFolder(host, path);
	await journal.recordChangesAhead(call, [
		{ ...(await recordInPieces(path, null, text)), ...(createdFolders.length > 0 ? { createdFolders: [...createdFolders] } : {}) },
	]);
	if (mayWrite?.() === false) {
		journal.dropChange(call.id, path);
		throw new WriteNoLongerAllowedError([]);
	}
	try {
		const options: ProcessOptions = {
			...(mayWrite === undefined ? {} : refusedOnceNotAllowed(mayWrite)),
			...(copyOf === undefined ? {} : { sameAccessAs: copyOf }),
		};
		await host.vault.create(path, text, options);
	} catch (error) {
		journal.dropChange(call.id, path);
		// Taken on disk by something the vault does not list (a folder, a link the jail refuses): planned again elsewhere.
		const code = String((error as NodeJS.ErrnoException).code);
		if (["EEXIST", "EISDIR", "EOUTSIDEVAULT"].includes(code) || /already exists/i.test((error as Error).message ?? ""))
			throw new NoteChangedSinceError(path, [], true);
		throw error;
	}
}

/**
 * Writes `change.after` over `change.before` in one atomic edit, or nothing when the note holds
 * other text (then, when allowed, the edit is made again on that text). The host may run the edit
 * again on fresher text; the journal record follows the run that is written.
 */
async function editWithCompare(target: ApplyTarget, file: HostFile, change: NoteChange, mayRedo: boolean | RedoCheck, moved?: Move): Promise<string | null> {
	const { host, journal, call } = target;
	// Every record, drop and error of this edit names the path it was planned at, which `file` held when it was looked up: a
	// note the person moves meanwhile (into an excluded folder) is the same file object, renamed. Named by `file.path`, a
	// record made before the move was left in the journal by the drop after it (undo then copied the moved note's text back
	// out of the excluded folder), and the refusal of a note grown past the bound told the client its new, excluded path.
	const path = change.path;
	// The record this call's write of the note must match, or drop before recording what it really writes.
	let recorded: { before: string; after: string } | null = null;
	let conflict = false;
	let changedText: string | null = null;
	// `withNextRecord`: this edit's new record follows at once, and carries the drop in its own write.
	const forget = (withNextRecord = false) => {
		if (recorded !== null) journal.dropChange(call.id, path, withNextRecord);
		recorded = null;
	};
	// What the atomic edit expects to find and write: the plan, then the edit made again on newer text outside it.
	let expected: { before: string | null; after: string } = { before: change.before, after: change.after };
	// The planned change is recorded before the atomic edit, its texts hashed, escaped and written off the
	// event loop; inside the edit, a note still holding the planned text only confirms it.
	const recordAhead = async (before: string, after: string) => {
		await journal.recordChangesAhead(call, [await recordInPieces(path, before, after, moved)]);
		recorded = { before, after };
		if (target.mayWrite?.() === false) {
			forget();
			throw new WriteNoLongerAllowedError([]);
		}
	};
	if (change.before !== null && (change.after !== change.before || moved !== undefined)) await recordAhead(change.before, change.after);
	// A note too long for the redo is not read in: refused with the tool's reason, or changed since planning when no redo is allowed.
	const redoUsed = mayRedo !== false && change.redo !== undefined;
	const accepts = (data: string, redone: string): Steps<boolean> | boolean => mayRedo === true || (typeof mayRedo === "function" && mayRedo(data, redone));
	for (let outside = 0; ; outside++) {
		// A long note found changed since planning: its edit is made again, checked and recorded out here in slices, then tried again.
		let newer: string | null = null;
		try {
			const edit = (data: string): string => {
				conflict = false;
				changedText = null;
				newer = null;
				let next: string;
				if (data === expected.before) next = expected.after;
				else if (data === change.before) next = change.after;
				else if (
					// Made again on newer text (allowed on any, or approved if it makes the same change), hashed and recorded out of
					// the atomic edit, in slices and flushed through the thread pool: inside, a long note's record alone was one piece
					// of 2 million characters, and any note's record (and the drop of the planned one) was flushed on the event loop,
					// 0.78 s once on a busy disk. A short note is taken out once (after the call's own earlier edit of it, say); one that
					// changes again meanwhile (another program writing it) is then edited inside rather than chased.
					mayRedo !== false &&
					change.redo &&
					// Longer, the tools' own edit refuses it at once: no long work to take out, and no round that lets the note grow on.
					data.length <= MAX_EDITED_NOTE_CHARS &&
					outside < (data.length > REDO_IN_EDIT_MAX_CHARS ? REDO_OUTSIDE_EDIT_ATTEMPTS : 1)
				) {
					newer = data;
					return data;
				} else {
					const redone = mayRedo !== false && change.redo ? change.redo(data) : null;
					const accepted = redone === null ? false : accepts(data, redone);
					if (redone !== null && (accepted === true || (accepted !== false && runSteps(accepted)))) next = redone;
					else {
						forget();
						conflict = true;
						return data;
					}
				}
				if (next === data && moved === undefined) {
					forget();
					// Made again on newer text, an edit that changed the note as planned changes nothing there: the tool's own
					// check failed on that text (a note another program grew past the longest the tools edit, say). Reported as
					// written, the call's change was lost; planned again on that text, the call answers with the tool's reason.
					if (data !== change.before && change.after !== change.before && change.relink !== true) conflict = true;
					return data;
				}
				if (recorded === null || recorded.before !== data || recorded.after !== next) {
					forget(true);
					journal.recordChange(call, record(path, data, next, moved));
					recorded = { before: data, after: next };
				}
				changedText = next;
				return next;
			};
			await processWhileAllowed(host, file, path, target.mayWrite, edit, change.redoRefusesOverBytes);
		} catch (error) {
			forget();
			// The tool's own refusal only for the note still at its path: one moved away meanwhile is answered as gone (planned
			// again, it is not found), not as a note of that size.
			if (error instanceof FileOverBytesError) throw redoUsed && file.path === path ? new NoteTooLongError(path) : new NoteChangedSinceError(path, []);
			throw error;
		}
		if (newer === null) break;
		const data: string = newer;
		const redone = change.redo?.(data) ?? data;
		const accepted = accepts(data, redone);
		if (!(accepted === true || (accepted !== false && (await runStepsInSlices(accepted, NOTE_TEXT_SLICE_MS, yieldToEventLoop))))) {
			forget();
			throw new NoteChangedSinceError(path, []);
		}
		if (redone === data && moved === undefined) {
			// As inside the edit: nothing to write, and the call's change lost unless the note was only relinked.
			forget();
			if (data !== change.before && change.after !== change.before && change.relink !== true) throw new NoteChangedSinceError(path, []);
			return null;
		}
		forget(true);
		await recordAhead(data, redone);
		expected = { before: data, after: redone };
	}
	if (conflict) throw new NoteChangedSinceError(path, []);
	return changedText;
}

/**
 * Moves a note (nothing else: no link in another note changes), then makes its own planned edit
 * in one atomic edit at the new path, which also records the move with the text the note really
 * had when it moved. A note that changed just before it moved keeps that text (its own edit made
 * again on it when allowed), so nothing another writer added is lost.
 */
async function moveNote(
	target: ApplyTarget,
	change: NoteChange,
	movedFrom: string,
	mayRedo: boolean,
	onlyIn?: HostFile,
	plannedFolders?: readonly string[],
): Promise<string | null> {
	const { host, journal, call } = target;
	const file = host.vault.getFileByPath(movedFrom);
	if (!file || change.before === null || (onlyIn !== undefined && file !== onlyIn)) throw new NoteChangedSinceError(movedFrom, []);
	const text = await host.vault.read(file);
	if (text !== change.before && !(mayRedo && change.redo)) throw new NoteChangedSinceError(movedFrom, []);
	// Looked at again after the read: the folder may have gone while the set's earlier notes were written.
	if (makesUnplannedFolder(host, change.path, plannedFolders)) throw new NoteChangedSinceError(change.path, []);
	const moved = moveOf(host, file, movedFrom);
	const madeFolders: string[] = [];
	try {
		await makeMissingFolders(host, missingFolders(host, change.path), madeFolders);
		await moveRecorded(target, file, change, moved, text);
	} catch (error) {
		// Refused at a last check (a revocation, the note changed, its path taken): the folders made for it go too, as a
		// stopped create's do. Left, a refused `New/Sub/Plan.md` left `New/Sub/` behind, empty.
		await removeEmptyFolders(host, madeFolders);
		throw error;
	}
	const movedFile = host.vault.getFileByPath(change.path);
	if (!movedFile) return null;
	journal.dropChange(call.id, change.path);
	// Recorded again inside the edit, with the text the note holds at its new path.
	try {
		return await editWithCompare(target, movedFile, { ...change, redo: change.redo ?? ((current) => current) }, true, moved);
	} catch (error) {
		// The move itself is done: it stays recorded even if its own edit could not be made.
		journal.recordChange(call, record(change.path, text, text, moved));
		throw error;
	}
}

/** The move itself, recorded first (with the text read) and dropped from the journal if refused. */
async function moveRecorded(target: ApplyTarget, file: HostFile, change: NoteChange, moved: Move, text: string): Promise<void> {
	const { host, journal, call } = target;
	const { path } = change;
	const { movedFrom } = moved;
	await journal.recordChangesAhead(call, [await recordInPieces(path, text, text, moved)]);
	if (target.mayWrite?.() === false) {
		journal.dropChange(call.id, path);
		throw new WriteNoLongerAllowedError([]);
	}
	// Moved meanwhile (into an excluded folder, by the person: the same file object, renamed): not moved from where it is
	// now, which nobody planned. It was moved from the excluded folder to the call's new path, back in every client's sight.
	if (file.path !== movedFrom) {
		journal.dropChange(call.id, path);
		throw new NoteChangedSinceError(movedFrom, []);
	}
	try {
		// Only the file that still holds the text read and recorded: another program's save by rename since is not moved.
		// Asked again last before the move: the move reads the note in pieces to check it (other requests answered between
		// them), and a token revoked or narrowed, or the new path's folder excluded, in one of them moved the note anyway.
		await host.vault.rename(file, path, {
			textRead: text,
			beforeMove: refusedOnceNotAllowed(() => target.mayWrite?.() !== false).beforeWrite,
			...(change.spelling === undefined ? {} : { spelling: change.spelling }),
		});
	} catch (error) {
		journal.dropChange(call.id, path);
		throw error;
	}
}

/**
 * A rename made by the host itself (Obsidian's `fileManager.renameFile`, which rewrites links as
 * it moves). It cannot be watched write by write, so each planned note is recorded first; once the
 * host is done, each planned link change it did not make is made (compared as any edit), and a
 * note the host wrote differently is recorded with what it wrote.
 */
async function moveWithHostLinks(target: ApplyTarget, move: NoteChange, changes: readonly NoteChange[], written: Map<string, string>): Promise<void> {
	const { host, journal, call } = target;
	const from = move.movedFrom ?? move.path;
	const file = host.vault.getFileByPath(from);
	if (!file || move.before === null) throw new NoteChangedSinceError(from, []);
	const relinks = changes.filter((change) => change !== move && change.relink === true && change.before !== null && !written.has(change.path));
	// Its name on disk looked at before the move, which renames `file` in place.
	const moved = moveOf(host, file, from);
	journal.recordChange(call, record(move.path, move.before, move.after, moved));
	for (const change of relinks) journal.recordChange(call, record(change.path, change.before, change.after));
	try {
		await host.fileManager.renameFile(file, move.path);
	} catch (error) {
		for (const change of [move, ...relinks]) journal.dropChange(call.id, change.path);
		throw error;
	}
	for (const change of [move, ...relinks]) {
		const now = host.vault.getFileByPath(change.path);
		if (!now) {
			journal.dropChange(call.id, change.path);
			continue;
		}
		let text = await host.vault.read(now);
		if (text === change.after) {
			// The host wrote exactly the planned change: its record stands.
		} else if (text === change.before) {
			// The host left this note's links: our rewriting makes the planned change.
			journal.dropChange(call.id, change.path);
			const made = await editWithCompare(target, now, change, true, change === move ? moved : undefined);
			text = made ?? text;
		} else if (text !== change.after) {
			journal.dropChange(call.id, change.path);
			journal.recordChange(call, record(change.path, change.before, text, change === move ? moved : undefined));
		}
		written.set(change.path, text);
	}
}
