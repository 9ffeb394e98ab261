import { randomBytes } from "node:crypto";
import { promises as fs, closeSync, fstatSync, fsync, fsyncSync, lstatSync, read, readSync, renameSync, rmSync, write } from "node:fs";
import * as nodePath from "node:path";
import * as nodeTimers from "node:timers";
import {
	JOURNAL_DROP_RETRY_PAUSES_MS,
	JOURNAL_KEEP_AFTER_TRIM,
	JOURNAL_NEWEST_CALLS_KEPT,
	JOURNAL_READ_PIECE_BYTES,
	JOURNAL_STALE_TRIM_FILE_MS,
	JOURNAL_TRIM_MAX_WAIT_MS,
	JOURNAL_TRIM_QUIET_MS,
	JOURNAL_TRIM_TAIL_BYTES,
	MAX_JOURNAL_BYTES,
	MAX_JOURNAL_ENTRIES,
	NOTE_TEXT_SLICE_MS,
} from "../config/limits";
import { APPEND_FLAGS, checkOwnFolder, CREATE_NEW_FLAGS, openOwnFile, OwnFileLinkError, READ_FLAGS } from "../config/ownFiles";
import { PLUGIN_ID } from "../config/store";
import type { JournalCall, JournalChange, JournalEntry, WriteJournal } from "./entry";
import { runSteps, SliceClock } from "../markdown/steps";
import { AppendOnlyJournal } from "./AppendOnlyJournal";
import { removeWhereMade } from "../host/madeFile";
import { yieldToEventLoop } from "../vault/workBudget";
import {
	copyEntry,
	endsInCutLine,
	estimatedBytes,
	lineBytes,
	lineBytesInPieces,
	entryLines,
	lineSteps,
	linesOf,
	flushAndClose,
	readFrom,
	replayLine,
	syncFolder,
	syncFolderOffLoop,
	withCutLineEnd,
	writeAll,
	movedLines,
	type JournalLine,
} from "./journalLines";

/** The journal's file name, beside data.json in the plugin's folder. */
const JOURNAL_FILE_NAME = "journal.jsonl";
/** A trim's temporary file beside it (see trimFileName), matched whole: no other file of the folder is ever taken for one. */
const TRIM_FILE_NAME = /^\.journal\.jsonl\.[0-9a-f]{12}\.tmp$/;

/** A new temporary file name for a trim (TRIM_FILE_NAME). */
function trimFileName(): string {
	return `.${JOURNAL_FILE_NAME}.${randomBytes(6).toString("hex")}.tmp`;
}

/** Where a vault's journal lives: `<vault>/<configDir>/plugins/vault-mcp/journal.jsonl`, never among the notes. */
export function journalPathFor(vaultRoot: string, configDir: string): string {
	return nodePath.join(vaultRoot, configDir, "plugins", PLUGIN_ID, JOURNAL_FILE_NAME);
}

/** Options for tests and tuning; the defaults are the named limits. */
export interface JournalFileOptions {
	maxEntries?: number;
	maxBytes?: number;
	/** Share of each bound kept after a trim. */
	keepAfterTrim?: number;
	/**
	 * The vault the journal belongs to: its folder must be a real folder inside it (no link on the
	 * way) and the file is never opened through a link. Absent (tests of the file format): the
	 * file's own folder is the jail.
	 */
	vaultRoot?: string;
	/** Told once each time the journal turns out to be linked (so writes stop): serve prints it, the settings tab shows `problem`. */
	onProblem?: (message: string) => void;
	/**
	 * Read a journal over JOURNAL_READ_PIECE_BYTES in pieces after opening (`catchUp`), not whole in
	 * the open: Obsidian opens it on its UI thread as the plugin loads. A link is still found at once.
	 */
	readInPieces?: boolean;
}

/** What the file looked like on disk when last read or written: a change of either means another program touched it. */
interface DiskState {
	ino: number;
	/** Bytes read and applied: everything up to the last complete line. */
	size: number;
}

/**
 * The write journal in one append-only file of JSON lines. Each record is appended with one write
 * and fsynced before `recordChange` returns, so a change is on disk before the note is written;
 * an append never rewrites the file, so a record costs the same in a full journal as in an empty one.
 * The journal keeps at most `maxEntries` calls and `maxBytes` of file; past either bound the
 * oldest calls are dropped by rewriting the file (a temporary file renamed over it, so a crash
 * leaves the old or the new file, never half of one). That trim is off the write path: when the
 * journal is opened, and once it has been quiet for a moment after passing a bound. A trim drops
 * whole calls only, and never the newest `JOURNAL_NEWEST_CALLS_KEPT`: one big call cannot evict
 * the undo of the call before it.
 *
 * The journal is one of the plugin's own files, in the jail like the notes: its folder is checked
 * to be a real folder inside the vault, the file is opened without following links and created
 * owner-only; a link there throws OwnFileLinkError and the record, and so the write, is not made.
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
	/**
	 * The lines this process is appending, until they are taken in: read back from the file (the
	 * journal's first record, or one that shares the file with other appends), each is taken from
	 * memory instead of parsed again. Parsing a 1 MiB note's line back took ~100 ms in one piece.
	 */
	private readonly ownLines = new OwnLines();
	private readonly maxEntries: number;
	private readonly maxBytes: number;
	private readonly keepAfterTrim: number;
	private readonly vaultRoot: string;
	/** The deferred trim, once a bound is passed: started when appends pause, or at the latest after the longest wait. */
	private trimTimer: NodeJS.Timeout | null = null;
	private trimDue: number | null = null;
	/** Lines skipped as unreadable since the journal was opened (a crash's cut line, or damage). */
	skippedLines = 0;

	private constructor(
		readonly path: string,
		private readonly options: JournalFileOptions,
	) {
		this.maxEntries = options.maxEntries ?? MAX_JOURNAL_ENTRIES;
		this.maxBytes = options.maxBytes ?? MAX_JOURNAL_BYTES;
		this.keepAfterTrim = options.keepAfterTrim ?? JOURNAL_KEEP_AFTER_TRIM;
		this.vaultRoot = options.vaultRoot ?? nodePath.dirname(path);
	}

	/**
	 * Opens (reads back) the journal at `path`, trimming it first when a bound is passed; a missing
	 * file is an empty journal, created at the first record. A linked journal or folder is not read:
	 * the journal opens empty with `problem` set, and every record throws.
	 */
	static open(path: string, options: JournalFileOptions = {}): JournalFile {
		const journal = new JournalFile(path, options);
		try {
			if (options.readInPieces === true) journal.syncWithDisk();
			else journal.reload();
			journal.trimNow();
		} catch (error) {
			if (!(error instanceof OwnFileLinkError)) throw error;
			journal.problem = error.message;
		}
		return journal;
	}

	/** The journal of a vault folder, in the plugin's folder under `configDir`. */
	static forVault(vaultRoot: string, configDir: string, options: JournalFileOptions = {}): JournalFile {
		return JournalFile.open(journalPathFor(vaultRoot, configDir), { vaultRoot, ...options });
	}

	/** Why records cannot be stored (the journal or its folder is a link), found when it was opened; null when they can. Shown to the person; holds no note text. */
	problem: string | null = null;

	/**
	 * The calls of the journal at `path`, newest first (at most `limit`), without their note texts
	 * (`before` and `after` are "" where they hold text): the CLI's `history`, which shows none. The
	 * file is read JOURNAL_READ_PIECE_BYTES at a time and one line is held at a time, not the file and
	 * every text in it (a 30 MB journal took about three times that). Nothing is written: a journal
	 * past a bound is listed whole (serve and the plugin, which add to it, trim it off their write
	 * path), and a damaged line is skipped and counted, left for them to rewrite away (read whole and
	 * rewritten here, a 240 MB journal took 860 MB of memory). Null when it is linked: the caller
	 * opens it as before, which refuses it and says why. A missing journal lists nothing.
	 */
	static listWithoutTexts(path: string, limit: number, options: JournalFileOptions = {}): { entries: JournalEntry[]; skippedLines: number } | null {
		const journal = new JournalFile(path, options);
		const read = JournalFile.replayInPieces(journal, path, withoutTexts);
		if (read === null) return null;
		return { entries: [...journal.entries.values()].reverse().slice(0, Math.max(0, limit)), skippedLines: read.damaged + (read.cutAtEnd ? 1 : 0) };
	}

	/**
	 * The journal at `path` for undoing the call `callId` (the CLI's `undo`): read a piece at a time,
	 * one line held at a time, and only the lines that name the call parsed (a line that holds the
	 * id's JSON string: a record of the call always does, as this journal writes it); then only
	 * appended to (AppendOnlyJournal), never read whole or rewritten. Each line of every call was
	 * parsed before, every note text decoded: 2.3 s of CPU for a 240 MB journal. As `listWithoutTexts`,
	 * it writes nothing else: a journal past a bound is not trimmed, a damaged line naming the call is
	 * skipped and counted (serve and the plugin trim and repair it). Null when it is linked: the caller
	 * opens it as before, which refuses it. A missing journal holds no call.
	 */
	static openToUndo(path: string, callId: string, options: JournalFileOptions = {}): { journal: AppendOnlyJournal; skippedLines: number } | null {
		const journal = new JournalFile(path, options);
		const read = JournalFile.replayInPieces(journal, path, (line) => line, Buffer.from(JSON.stringify(callId), "utf8"));
		if (read === null) return null;
		const entry = journal.entries.get(callId);
		// The undo of a rename moves its note back: the other calls' changes to it are found in the whole journal then.
		const movesOf = (from: string, to: string) => JournalFile.movedLinesIn(path, from, to, options);
		return {
			journal: new AppendOnlyJournal(path, journal.vaultRoot, entry === undefined ? [] : [entry], movesOf),
			skippedLines: read.damaged + (read.cutAtEnd ? 1 : 0),
		};
	}

	/**
	 * The lines recording the notes of every call at `from` as moved to `to` (see `noteMoved`), from the journal at
	 * `path` read in pieces without the notes' texts, as `listWithoutTexts`: for a journal that is only appended to.
	 */
	private static movedLinesIn(path: string, from: string, to: string, options: JournalFileOptions): JournalLine[] {
		const journal = new JournalFile(path, options);
		if (JournalFile.replayInPieces(journal, path, withoutTexts) === null) return [];
		return [...journal.entries.values()].flatMap((entry) => movedLines(entry, from, to));
	}

	/**
	 * Replays the journal at `path` on `journal`'s entries, each line as `keep` makes it, reading the
	 * file JOURNAL_READ_PIECE_BYTES at a time and holding one line at a time; with `naming`, only the
	 * lines holding those bytes are parsed (the rest are records of other calls). Returns how many
	 * lines parsed were damaged, whether it ends in a piece without a line end, and the size read; a
	 * missing journal (or folder) is an empty one; null when it is linked. Without a pause: only the
	 * CLI's `history` and `undo` read this way, where no other client waits (serve and the plugin read
	 * a journal in with pauses, `catchUp`).
	 */
	private static replayInPieces(
		journal: JournalFile,
		path: string,
		keep: (line: JournalLine) => JournalLine,
		naming?: Buffer,
	): { damaged: number; cutAtEnd: boolean; size: number } | null {
		let descriptor: number | null;
		try {
			if (checkOwnFolder(journal.vaultRoot, nodePath.dirname(path), false) === null) return { damaged: 0, cutAtEnd: false, size: 0 };
			descriptor = openOwnFile(journal.vaultRoot, path, READ_FLAGS);
		} catch (error) {
			// Opened as before, which refuses it and says why (history and undo exit 1 naming the link).
			if (error instanceof OwnFileLinkError) return null;
			throw error;
		}
		if (descriptor === null) return { damaged: 0, cutAtEnd: false, size: 0 };
		let damaged = 0;
		try {
			const size = fstatSync(descriptor).size;
			const buffer = Buffer.allocUnsafe(JOURNAL_READ_PIECE_BYTES);
			// The parts of the line being read, when it is longer than one piece.
			let parts: Buffer[] = [];
			for (let position = 0; position < size;) {
				const count = readSync(descriptor, buffer, 0, Math.min(buffer.length, size - position), position);
				if (count === 0) break;
				position += count;
				let start = 0;
				for (let end = buffer.indexOf(0x0a, start); end !== -1 && end < count; end = buffer.indexOf(0x0a, start)) {
					parts.push(buffer.subarray(start, end));
					if (naming === undefined || partsHold(parts, naming)) {
						const parsed = runSteps(lineSteps(parts.length === 1 ? parts[0]! : Buffer.concat(parts)));
						if (parsed === null) damaged++;
						else journal.apply(keep(parsed));
					}
					parts = [];
					start = end + 1;
				}
				// Copied: the buffer is read into again.
				if (start < count) parts.push(Buffer.from(buffer.subarray(start, count)));
			}
			return { damaged, cutAtEnd: parts.length > 0, size };
		} finally {
			closeSync(descriptor);
		}
	}

	/**
	 * Lets the journal go (the server stopping, the plugin unloading, the CLI done): drops still owed
	 * get one last try first, since a retry timer never keeps a process alive and the process may end
	 * now (a change never made would be listed again at the next start); then the deferred trim and
	 * drop retries stop.
	 */
	close(): void {
		this.appendPendingDrops("before return");
		if (this.trimTimer) nodeTimers.clearTimeout(this.trimTimer);
		this.trimTimer = null;
		this.trimDue = null;
		if (this.dropRetryTimer) nodeTimers.clearTimeout(this.dropRetryTimer);
		this.dropRetryTimer = null;
	}

	recordChange(call: JournalCall, change: JournalChange): void {
		this.recordChanges(call, [change]);
	}

	/** Records several changes of a call with one append and one fsync (a rename's relinks: one disk flush per group, not per note). */
	recordChanges(call: JournalCall, changes: readonly JournalChange[]): void {
		if (changes.length === 0) return;
		// Flushed before it returns: its promise is already settled.
		void this.append(changes.map((change) => ({ kind: "change", id: call.id, time: call.time, tokenName: call.tokenName, tool: call.tool, ...change })));
	}

	async recordChangesAhead(call: JournalCall, changes: readonly JournalChange[]): Promise<void> {
		if (changes.length === 0) return;
		// A journal another process replaced (the CLI's trim) or added much to is read in here in pieces, not at the append in one.
		await this.catchUp();
		const lines: JournalLine[] = changes.map((change) => ({
			kind: "change",
			id: call.id,
			time: call.time,
			tokenName: call.tokenName,
			tool: call.tool,
			...change,
		}));
		const changeBytes = await lineBytesInPieces(lines, new SliceClock(NOTE_TEXT_SLICE_MS, yieldToEventLoop));
		// Drops still owed of these records' calls and paths go first, in the same write: a drop takes the last change of its
		// path, never this newer one. Another's drop is left to a synchronous append (a record made at once, the retry): carried
		// here, it could land after that call's newer record, written meanwhile while this write waited in the thread pool, and
		// take that record instead of the one never written.
		const drops = this.pendingDrops.filter(
			(pending) => !pending.inFlight && pending.line.id === call.id && changes.some((change) => change.path === pending.line.path),
		);
		for (const pending of drops) pending.inFlight = true;
		const withDrops = [...drops.map((pending) => pending.line), ...lines];
		const bytes = drops.length === 0 ? changeBytes : Buffer.concat([lineBytes(withDrops.slice(0, drops.length)), changeBytes]);
		this.appendsInFlight++;
		const forget = this.ownLines.add(withDrops, bytes);
		try {
			await this.appendOffLoop(withDrops, bytes);
		} catch (error) {
			for (const pending of drops) pending.inFlight = false;
			// A retry that came while they were on their way passed them by (a flush once took 0.78 s, the first pause is 0.5 s).
			if (drops.length > 0) this.scheduleDropRetry();
			this.noteLinkProblem(error);
			throw error;
		} finally {
			this.forgetOwnLinesOnceRead(forget);
			this.appendsInFlight--;
		}
		this.forgetPendingDrops(drops);
		this.problem = null;
	}

	/**
	 * Drops whose append failed (the write they undo failed for a passing reason, too many open files
	 * say, and so did the drop): appended before the next record made at once (or the next one of the
	 * same call and note written ahead), or at a retry, whichever comes first, and until then applied to what `list` and `get` answer, so a change never made is never
	 * shown as made. The change stays recorded before its write (a crash between the two leaves a
	 * record whose undo finds the note as it was before, never a write without a record); only a
	 * crash before the drop lands leaves it listed.
	 */
	private pendingDrops: PendingDrop[] = [];
	private dropRetryTimer: NodeJS.Timeout | null = null;
	/** Retries made since the last drop failed, against JOURNAL_DROP_RETRY_PAUSES_MS. */
	private dropRetries = 0;

	/**
	 * Never throws: a drop that cannot be appended now (the write it follows usually failed for the
	 * same reason) is owed, hidden from `list` and `get` at once and appended later (`pendingDrops`);
	 * the caller goes on to report the write's own error.
	 */
	dropChange(callId: string, path: string, withNextRecord = false): void {
		const pending: PendingDrop = { line: { kind: "drop", id: callId, path }, inFlight: false };
		try {
			this.syncWithDisk();
			// Behind (what another process wrote still being read in), the drop goes in unchecked: every caller drops a
			// change it recorded, and a drop of a change the file no longer holds (trimmed away) is read as nothing.
			if (!this.behind && !this.shown(this.entries.get(callId))?.changes.some((change) => change.path === path)) return;
		} catch {
			// Checked when it is appended: a drop of a change the file does not hold is read as nothing.
		}
		this.pendingDrops.push(pending);
		// Carried by the next record's write, first (off the event loop for a record made ahead); if none comes, by a retry.
		if (withNextRecord) this.scheduleDropRetry();
		else this.appendPendingDrops();
	}

	/**
	 * Appends the drops owed (those not in an append under way), or schedules the next try after a failure. Written
	 * at once, flushed through the thread pool (`close`, the last try before the process may end, flushes before it
	 * returns): a drop lost at a crash leaves a record whose undo finds the note as it was, as a crash before it would.
	 */
	private appendPendingDrops(flush: Flush = "off the loop"): void {
		const drops = this.pendingDrops.filter((pending) => !pending.inFlight);
		if (drops.length === 0) return;
		try {
			this.append(
				drops.map((pending) => pending.line),
				flush,
			).catch(() => undefined);
		} catch {
			this.scheduleDropRetry();
			return;
		}
		this.forgetPendingDrops(drops);
	}

	/** Drops now on disk: no longer owed, and the retries start over at the next failure. */
	private forgetPendingDrops(drops: readonly PendingDrop[]): void {
		if (drops.length === 0) return;
		this.pendingDrops = this.pendingDrops.filter((pending) => !drops.includes(pending));
		this.dropRetries = 0;
		if (this.pendingDrops.length === 0 && this.dropRetryTimer) {
			nodeTimers.clearTimeout(this.dropRetryTimer);
			this.dropRetryTimer = null;
		}
	}

	/** The next retry of the owed drops, after the next of JOURNAL_DROP_RETRY_PAUSES_MS; past the last, the next record carries them. */
	private scheduleDropRetry(): void {
		if (this.dropRetryTimer) return;
		const pause = JOURNAL_DROP_RETRY_PAUSES_MS[this.dropRetries];
		if (pause === undefined) return;
		this.dropRetries++;
		this.dropRetryTimer = nodeTimers.setTimeout(() => {
			this.dropRetryTimer = null;
			this.appendPendingDrops();
		}, pause);
		// Never keeps a process alive: `close` gives the drops a last try as the process lets the journal go (a crash leaves them listed).
		this.dropRetryTimer.unref();
	}

	/** A call as shown: with the drops still owed applied (null when none of its changes is left). */
	private shown(entry: JournalEntry | undefined): JournalEntry | null {
		if (entry === undefined) return null;
		const owed = this.pendingDrops.filter((pending) => pending.line.id === entry.id);
		if (owed.length === 0) return entry;
		const copy = copyEntry(entry);
		for (const { line } of owed) {
			const index = copy.changes.map((change) => change.path).lastIndexOf(line.path);
			if (index !== -1) copy.changes.splice(index, 1);
		}
		return copy.changes.length === 0 ? null : copy;
	}

	noteMoved(from: string, to: string): void {
		try {
			this.syncWithDisk();
			const lines: JournalLine[] = [];
			for (const id of this.callsAt().get(from) ?? []) {
				const entry = this.entries.get(id);
				if (entry) lines.push(...movedLines(entry, from, to));
			}
			// Flushed through the thread pool: lost at a crash, undo takes the note for deleted, as when it cannot be recorded.
			if (lines.length > 0) this.append(lines, "off the loop").catch(() => undefined);
		} catch {
			// Not recorded (the journal is a link, the disk full): undo takes the note for deleted, as it did before moves were followed.
		}
	}

	/**
	 * The calls by where the notes they changed are now (a note a change took to the trash is
	 * nowhere; one moved since is where it went), made when first asked and kept up to date by each
	 * move replayed, remade after any other line: Obsidian reports a folder's move as one `rename`
	 * per note in it, and looking through every call's changes for each took 0.26 ms a note with
	 * 11,000 changes journalled (2.6 s for a folder of 10,000 notes). May name calls no longer held.
	 */
	private callsByPlace: Map<string, Set<string>> | null = null;

	private callsAt(): Map<string, Set<string>> {
		if (this.callsByPlace) return this.callsByPlace;
		const byPlace = new Map<string, Set<string>>();
		for (const entry of this.entries.values())
			for (const change of entry.changes) if (change.after !== null) addCallAt(byPlace, change.nowAt ?? change.path, entry.id);
		return (this.callsByPlace = byPlace);
	}

	/**
	 * Written at once (a refusal, a link say, is thrown here), flushed through the thread pool: the promise resolves once
	 * on disk, or once the flush failed (the undo is made either way; a mark lost at a crash leaves the call listed as not
	 * undone, as a crash just before it would, and its undo run again finds its notes already put back).
	 */
	markUndone(callId: string, by: string): Promise<void> {
		this.syncWithDisk();
		// The call may have been dropped as the oldest meanwhile (by the undo's own records): nothing to mark. Behind,
		// marked unchecked: a mark of a call the file no longer holds is read as nothing.
		if (!this.behind && !this.entries.has(callId)) return Promise.resolve();
		return this.append([{ kind: "undone", id: callId, time: new Date().toISOString(), by }], "off the loop").catch(() => undefined);
	}

	/**
	 * Calls newest first. While a journal another process replaced or added much to is read in (in
	 * pieces, see `catchUp`), this is what was read in so far: the calls before, or a part of what
	 * was added; `await catchUp()` first for all of it.
	 */
	list(limit?: number): JournalEntry[] {
		this.syncWithDisk();
		const newestFirst = [...this.entries.values()]
			.reverse()
			.map((entry) => this.shown(entry))
			.filter((entry): entry is JournalEntry => entry !== null);
		return (limit === undefined ? newestFirst : newestFirst.slice(0, Math.max(0, limit))).map(copyEntry);
	}

	/** One call, as `list` has it (`await catchUp()` first to be sure of what another process wrote). */
	get(callId: string): JournalEntry | null {
		this.syncWithDisk();
		const entry = this.shown(this.entries.get(callId));
		return entry ? copyEntry(entry) : null;
	}

	/** Size of the file on disk, in bytes (0 before the first record). */
	get sizeOnDisk(): number {
		this.syncWithDisk();
		return this.disk?.size ?? 0;
	}

	/**
	 * Appends lines (in one write) and makes them durable as `flush` says, then reads back what the file gained (this
	 * line, and any another process appended meanwhile). Past a bound, a trim is scheduled, never run here. Throws
	 * when the write fails; the promise, when the flush does.
	 */
	private append(lines: readonly JournalLine[], flush: Flush = "before return"): Promise<void> {
		// Drops still owed go first, in the same write (see `recordChangesAhead`); a drop's own append carries them itself.
		const drops = lines.every((line) => line.kind === "drop") ? [] : this.pendingDrops.filter((pending) => !pending.inFlight);
		let flushed: Promise<void>;
		try {
			flushed = this.appendLines([...drops.map((pending) => pending.line), ...lines], flush);
		} catch (error) {
			this.noteLinkProblem(error);
			throw error;
		}
		this.forgetPendingDrops(drops);
		this.problem = null;
		return flushed;
	}

	/** A record refused because the journal or its folder is a link: remembered and told once. */
	private noteLinkProblem(error: unknown): void {
		if (error instanceof OwnFileLinkError && this.problem !== error.message) {
			this.problem = error.message;
			this.options.onProblem?.(error.message);
		}
	}

	/**
	 * Appends by `recordChangesAhead` under way: while one is, this process never replaces the file
	 * (trim, rewrite), so its bytes cannot land in a file already replaced.
	 */
	private appendsInFlight = 0;

	/**
	 * `appendLines` with the write and the flush to disk made through the thread pool: the event
	 * loop serves meanwhile (other records of this process may be appended in between; each is one
	 * write at the end of the file, so none is cut into another).
	 */
	private async appendOffLoop(lines: readonly JournalLine[], bytes: Buffer): Promise<void> {
		const opened = this.openForAppend();
		const first = this.disk === null;
		let sizeAfter: number;
		try {
			await writeAllOffLoop(opened.descriptor, withCutLineEnd(bytes, opened.cutBefore));
			await new Promise<void>((resolve, reject) => fsync(opened.descriptor, (error) => (error ? reject(error) : resolve())));
			// The file this record made, or a trim just renamed into place, named durably too.
			if (first) await syncFolderOffLoop(nodePath.dirname(this.path));
			await this.folderFlush;
			sizeAfter = fstatSync(opened.descriptor).size;
		} finally {
			closeSync(opened.descriptor);
		}
		this.afterAppend(lines, bytes.length, opened, sizeAfter, true);
		if (this.behind) {
			// The file written to is the journal: the lines are in it, read in by the catch-up under way.
			if (this.inoOnDisk() === opened.before.ino) return;
			// Replaced meanwhile: whether the replacing process carried them is known once its file is read in.
			await this.catchUp();
		}
		// Another program replaced the file while the bytes were on their way: they went to the old one.
		if (!this.holdsLines(lines)) void this.appendLines(lines);
	}

	/**
	 * Opens the journal to append (synced with the disk first, or a catch-up started when there is
	 * much to read in: the record is appended without waiting for it), and notes what it held: its
	 * size and inode, and whether it ends in bytes after the last complete line (another process's
	 * line cut short by a crash, or still being written; its last byte tells). Owner-only: the
	 * journal holds note text. Never through a link: it would carry note text out of the vault.
	 */
	private openForAppend(): OpenedForAppend {
		this.syncWithDisk();
		this.checkFolder();
		const descriptor = openOwnFile(this.vaultRoot, this.path, APPEND_FLAGS) as number;
		try {
			const stats = fstatSync(descriptor);
			return { descriptor, before: { size: stats.size, ino: stats.ino }, cutBefore: endsInCutLine(descriptor, stats.size) };
		} catch (error) {
			closeSync(descriptor);
			throw error;
		}
	}

	/**
	 * After an append written: the folder synced on the first record (unless the caller flushes it off the loop), the
	 * lines taken in, a trim scheduled past a bound.
	 */
	private afterAppend(lines: readonly JournalLine[], length: number, opened: OpenedForAppend, sizeAfter: number, folderFlushedByCaller = false): void {
		if (this.disk === null && !folderFlushedByCaller) syncFolder(nodePath.dirname(this.path));
		this.takeInOwnLines(lines, length, opened.before, opened.cutBefore, sizeAfter);
		if (this.overBound()) this.scheduleTrim();
	}

	/**
	 * Reads in the lines this process just appended: from memory when the file holds exactly what it
	 * held before plus them (nothing else came in), else from the file, as any other lines. Parsing a
	 * 1 MiB note's record back took longer than writing it.
	 */
	private takeInOwnLines(lines: readonly JournalLine[], length: number, before: { size: number; ino: number }, cutBefore: boolean, sizeAfter: number): void {
		// Behind: the catch-up under way reads them in, in their place after what came before them.
		if (this.behind) return;
		const disk = this.disk;
		const exactly =
			disk !== null &&
			!cutBefore &&
			disk.ino === before.ino &&
			disk.size === before.size &&
			sizeAfter === before.size + length &&
			this.inoOnDisk() === before.ino;
		if (!exactly) {
			this.syncWithDisk();
			return;
		}
		for (const line of lines) this.apply(line);
		disk.size += length;
	}

	/** The journal file's inode now, or null when there is none. */
	private inoOnDisk(): number | null {
		return lstatSync(this.path, { throwIfNoEntry: false })?.ino ?? null;
	}

	/**
	 * Whether the journal holds these change lines (each the last record of its call and path). Each
	 * call's records are looked through once, from its newest, where lines just appended are: looking
	 * through all of them for each line was quadratic in a rename's relinks (64 lines a group against up
	 * to 10,000 records of the call: about 5e7 comparisons over a rename of 10,000 notes, pieces of up
	 * to 24 ms profiled).
	 */
	private holdsLines(lines: readonly JournalLine[]): boolean {
		const wantedByCall = new Map<string, Set<string>>();
		for (const line of lines) {
			if (line.kind !== "change") continue;
			let wanted = wantedByCall.get(line.id);
			if (!wanted) wantedByCall.set(line.id, (wanted = new Set()));
			wanted.add(changeKey(line));
		}
		for (const [id, wanted] of wantedByCall) {
			const changes = this.entries.get(id)?.changes ?? [];
			for (let index = changes.length - 1; index >= 0 && wanted.size > 0; index--) wanted.delete(changeKey(changes[index]!));
			if (wanted.size > 0) return false;
		}
		return true;
	}

	/**
	 * Writes lines at the end of the file in one write, on the event loop (their place in the file is taken before any
	 * later record's), and flushes them as `flush` says. Returns the flush: done already when made before returning.
	 */
	private appendLines(lines: readonly JournalLine[], flush: Flush = "before return"): Promise<void> {
		const bytes = lineBytes(lines);
		const forget = this.ownLines.add(lines, bytes);
		try {
			const opened = this.openForAppend();
			let sizeAfter: number;
			try {
				writeAll(opened.descriptor, withCutLineEnd(bytes, opened.cutBefore));
				if (flush === "before return") fsyncSync(opened.descriptor);
				sizeAfter = fstatSync(opened.descriptor).size;
			} catch (error) {
				closeSync(opened.descriptor);
				throw error;
			}
			if (flush === "before return") {
				closeSync(opened.descriptor);
				this.flushFolderNowIfOwed();
				this.afterAppend(lines, bytes.length, opened, sizeAfter);
				return Promise.resolve();
			}
			const first = this.disk === null;
			const folderFlush = this.folderFlush;
			const flushed = (async () => {
				await flushAndClose(opened.descriptor);
				// The file made by this line (or renamed into place by a trim) is named durably too.
				if (first) await syncFolderOffLoop(nodePath.dirname(this.path));
				await folderFlush;
			})();
			try {
				this.afterAppend(lines, bytes.length, opened, sizeAfter, true);
			} catch (error) {
				// The lines are written; the caller gets the error of reading them in, not a flush nobody awaits.
				flushed.catch(() => undefined);
				throw error;
			}
			return flushed;
		} finally {
			this.forgetOwnLinesOnceRead(forget);
		}
	}

	/**
	 * Own lines appended while a catch-up is under way are kept until it has read them back (taken
	 * from memory then, not parsed: a 1 MiB note's line took ~100 ms to parse); else let go now.
	 */
	private forgetOwnLinesOnceRead(forget: () => void): void {
		if (this.behind) this.ownLinesBehind.push(forget);
		else forget();
	}

	/** Forgets of own lines kept for the catch-up under way. */
	private readonly ownLinesBehind: Array<() => void> = [];

	/**
	 * The folder's flush through the thread pool after a trim renamed its file into place; null once done. Until it is,
	 * a crash may leave the folder naming the old file, and a record flushed into the new one would be lost with it: an
	 * append made durable meanwhile waits for it, or (one flushed before it returns) flushes the folder itself.
	 */
	private folderFlush: Promise<void> | null = null;

	private flushFolderNowIfOwed(): void {
		if (this.folderFlush !== null) syncFolder(nodePath.dirname(this.path));
	}

	/** The journal's folder, checked to be a real folder in the vault (made where missing). */
	private checkFolder(): void {
		checkOwnFolder(this.vaultRoot, nodePath.dirname(this.path));
	}

	private overBound(): boolean {
		return this.entries.size > this.maxEntries || (this.disk?.size ?? 0) > this.maxBytes;
	}

	/**
	 * Runs the trim once appends have paused for `JOURNAL_TRIM_QUIET_MS` (a call's records come in a
	 * burst, so a pause means no call is half-recorded here), or after `JOURNAL_TRIM_MAX_WAIT_MS` of
	 * steady writing at the latest. The timer never keeps a process alive.
	 */
	private scheduleTrim(): void {
		const now = Date.now();
		this.trimDue ??= now + JOURNAL_TRIM_MAX_WAIT_MS;
		if (this.trimTimer) nodeTimers.clearTimeout(this.trimTimer);
		this.trimTimer = nodeTimers.setTimeout(
			() => {
				this.trimTimer = null;
				this.trimDue = null;
				// The next open or the next bound passed tries again; a record never waits on a trim.
				this.trimInBackground().catch(() => undefined);
			},
			Math.max(0, Math.min(JOURNAL_TRIM_QUIET_MS, this.trimDue - now)),
		);
		this.trimTimer.unref();
	}

	/**
	 * Trims now if a bound is passed: drops the oldest whole calls (never the newest
	 * `JOURNAL_NEWEST_CALLS_KEPT`) until the journal holds at most `keepAfterTrim` of each bound,
	 * and rewrites the file with what is left. The journal does this by itself off the write path.
	 */
	trimNow(): void {
		this.syncWithDisk();
		if (!this.overBound() || this.appendsInFlight > 0 || this.behind) return;
		for (const id of this.callsToDrop()) this.entries.delete(id);
		this.rewrite();
	}

	/** Ids of the records apply() read in while a background trim was writing; null when none runs. */
	private touchedWhileTrimming: Set<string> | null = null;

	/**
	 * The trim as the running server does it: the kept calls are written to a temporary file while
	 * the event loop goes on serving (and this journal goes on appending); then, in one synchronous
	 * step, the lines appended meanwhile are copied after them and the file replaced. If a line of
	 * a call being dropped came in meanwhile (an undo of it, say), nothing is replaced and the trim
	 * is tried again later: a call is dropped whole or kept whole.
	 */
	private async trimInBackground(): Promise<void> {
		if (this.touchedWhileTrimming !== null) return;
		this.syncWithDisk();
		// Behind, the catch-up schedules the trim again once the journal is read in.
		if (this.behind || !(this.overBound() || this.rewriteDue) || this.disk === null) return;
		const dropped = new Set(this.overBound() ? this.callsToDrop() : []);
		const snapshot = { ...this.disk };
		// From the snapshot on, every line read in is noted, before the first wait.
		this.touchedWhileTrimming = new Set();
		// Copies as they are now: lines read in later reach the new file through the tail, never twice.
		const kept = [...this.entries.values()].filter((entry) => !dropped.has(entry.id)).map(copyEntry);
		const folder = nodePath.dirname(this.path);
		const temporary = nodePath.join(folder, trimFileName());
		let handle: fs.FileHandle;
		try {
			this.checkFolder();
			// A new name opened exclusively never follows a link (O_CREAT|O_EXCL refuses one); owner-only.
			handle = await fs.open(temporary, CREATE_NEW_FLAGS, 0o600);
			// Made through the thread pool: with the folder swapped for a link out of the vault while the open waited, and back
			// before its answer, the file was made outside, and the calls' texts were copied there and left.
			if (!madeInFolder(handle.fd, temporary, () => this.checkFolder())) {
				await handle.close();
				throw new OwnFileLinkError(nodePath.relative(this.vaultRoot, folder).split(nodePath.sep).join("/"));
			}
		} catch (error) {
			this.touchedWhileTrimming = null;
			throw error;
		}
		let replaced = false;
		try {
			await this.removeStaleTrimFiles(folder, temporary, (await handle.stat()).mtimeMs);
			// Off the event loop: each call's lines made in pieces and written in turn (the event loop serves between them).
			const clock = new SliceClock(NOTE_TEXT_SLICE_MS, yieldToEventLoop);
			let keptBytes = 0;
			for (const entry of kept) {
				const lines = await lineBytesInPieces(entryLines(entry), clock);
				await handle.write(lines, 0, lines.length, keptBytes);
				keptBytes += lines.length;
			}
			// The lines appended meanwhile, copied after them a piece at a time while much is left, then the rest at once below.
			let copied = snapshot.size;
			const unchanged = () =>
				!this.behind &&
				this.disk !== null &&
				this.disk.ino === snapshot.ino &&
				this.disk.size >= copied &&
				// Never chased for ever: a program adding without pause leaves the trim to a later try.
				this.disk.size - snapshot.size <= JOURNAL_TRIM_TAIL_BYTES;
			for (;;) {
				this.syncWithDisk();
				if (!unchanged() || this.disk === null) return;
				if (this.disk.size - copied <= JOURNAL_READ_PIECE_BYTES) break;
				copied = await this.copyRangeOffLoop(handle, copied, this.disk.size, keptBytes - snapshot.size, snapshot.ino);
			}
			// The last lines appended meanwhile copied, and the file flushed through the thread pool; looked at again after
			// each flush, it is replaced only once nothing came in during one (a program adding without pause leaves the trim
			// to a later try, by the tail's bound above). Flushed with fsyncSync, one flush held the event loop up to 0.3 s.
			// Held open past the rename: what another process appends to it after the last look is still read there.
			const replacing = openOwnFile(this.vaultRoot, this.path, READ_FLAGS);
			if (replacing === null) return;
			try {
				if (fstatSync(replacing).ino !== snapshot.ino) return;
				let nothingCameIn = false;
				while (!nothingCameIn) {
					const size = this.disk.size;
					if (size > copied) {
						const rest = readFrom(replacing, copied, size);
						if (rest.length !== size - copied) return;
						await handle.write(rest, 0, rest.length, keptBytes + copied - snapshot.size);
						copied = size;
					}
					await handle.sync();
					this.syncWithDisk();
					if (!unchanged() || this.disk === null || this.appendsInFlight > 0 || [...this.touchedWhileTrimming].some((id) => dropped.has(id))) return;
					nothingCameIn = this.disk.size === copied;
				}
				// From the look above to the rename, synchronous: no append of this process can come in between. The last
				// look at the name: another process (the CLI beside Obsidian) may have appended a record since, which the
				// rename would drop with the file it replaces.
				const last = lstatSync(this.path, { throwIfNoEntry: false });
				if (last?.ino !== snapshot.ino || last.size !== copied) return;
				renameSync(temporary, this.path);
				replaced = true;
				const folderFlush = syncFolderOffLoop(folder).finally(() => {
					if (this.folderFlush === folderFlush) this.folderFlush = null;
				});
				this.folderFlush = folderFlush;
				this.carryLinesAppendedAtRename(replacing, copied);
			} finally {
				closeSync(replacing);
			}
			for (const id of dropped) this.entries.delete(id);
			this.disk = { ino: lstatSync(this.path).ino, size: keptBytes + copied - snapshot.size };
			this.rewriteDue = false;
		} finally {
			this.touchedWhileTrimming = null;
			await handle.close().catch(() => undefined);
			if (!replaced) rmSync(temporary, { force: true });
			if (!replaced && (this.overBound() || this.rewriteDue)) this.scheduleTrim();
		}
	}

	/**
	 * Removes the temporary files of trims that never ended (TRIM_FILE_NAME, not written to for
	 * JOURNAL_STALE_TRIM_FILE_MS): each is a copy of the journal, up to tens of megabytes of note
	 * texts, and one more was left in the plugin's folder for good by each crash during a trim. A
	 * younger one may be another process's trim under way. Only a plain file, each looked at and
	 * removed in one synchronous step after the folder's check: never through a link, never outside.
	 * Their age is told by the file system's clock, `now` (the mtime of this trim's file, `own`, made
	 * just before): a share's server stamps its files with its own, and with the computer's clock
	 * hours ahead of it every trim's file, its own too, looked stale and was removed.
	 */
	private async removeStaleTrimFiles(folder: string, own: string, now: number): Promise<void> {
		const names = await fs.readdir(folder).catch((): string[] => []);
		for (const name of names) {
			if (!TRIM_FILE_NAME.test(name)) continue;
			const at = nodePath.join(folder, name);
			if (at === own) continue;
			try {
				this.checkFolder();
				const stat = lstatSync(at, { throwIfNoEntry: false });
				if (stat?.isFile() === true && now - stat.mtimeMs > JOURNAL_STALE_TRIM_FILE_MS) rmSync(at, { force: true });
			} catch {
				// The folder moved or refused: left for a later trim, which is made all the same.
			}
		}
	}

	/**
	 * The whole lines another process appended to the journal just replaced (`replaced`, read up to `size`) between
	 * the trim's last look and its rename: they went to the file replaced, so they are appended to the new one (read
	 * in by the next look at the disk, as any other process's lines). A record the other process appended in that
	 * instant was lost with the old file. Only up to JOURNAL_TRIM_TAIL_BYTES: the trim never chases more.
	 */
	private carryLinesAppendedAtRename(replaced: number, size: number): void {
		try {
			const grown = fstatSync(replaced).size;
			if (grown <= size || grown - size > JOURNAL_TRIM_TAIL_BYTES) return;
			const added = readFrom(replaced, size, grown);
			const whole = added.subarray(0, added.lastIndexOf("\n") + 1);
			if (whole.length === 0) return;
			const descriptor = openOwnFile(this.vaultRoot, this.path, APPEND_FLAGS);
			if (descriptor === null) return;
			try {
				writeAll(descriptor, whole);
				fsyncSync(descriptor);
			} finally {
				closeSync(descriptor);
			}
		} catch {
			// The journal or its folder went meanwhile: the trim is made all the same.
		}
	}

	/**
	 * Copies bytes `from` to `to` of the journal file (the file `ino`: a file put in its place is not
	 * copied from) to `handle`, each at its position plus `shift`, JOURNAL_READ_PIECE_BYTES at a time
	 * through the thread pool. Returns where the copy stopped: `to`, or sooner when the file is shorter or another one.
	 */
	private async copyRangeOffLoop(handle: fs.FileHandle, from: number, to: number, shift: number, ino: number): Promise<number> {
		const descriptor = openOwnFile(this.vaultRoot, this.path, READ_FLAGS);
		if (descriptor === null) return from;
		let at = from;
		try {
			if (fstatSync(descriptor).ino !== ino) return from;
			const buffer = Buffer.allocUnsafe(JOURNAL_READ_PIECE_BYTES);
			while (at < to) {
				const length = Math.min(buffer.length, to - at);
				const count = await new Promise<number>((resolve, reject) =>
					read(descriptor, buffer, 0, length, at, (error, bytesRead) => (error ? reject(error) : resolve(bytesRead))),
				);
				if (count === 0) break;
				await handle.write(buffer, 0, count, at + shift);
				at += count;
			}
		} finally {
			closeSync(descriptor);
		}
		return at;
	}

	/** The oldest whole calls to drop (never the newest `JOURNAL_NEWEST_CALLS_KEPT`) so that at most `keepAfterTrim` of each bound is left. */
	private callsToDrop(): string[] {
		const entryTarget = Math.floor(this.maxEntries * this.keepAfterTrim);
		const byteTarget = Math.floor(this.maxBytes * this.keepAfterTrim);
		const lines = new Map([...this.entries.values()].map((entry) => [entry.id, estimatedBytes(entry)]));
		let bytes = [...lines.values()].reduce((sum, size) => sum + size, 0);
		const droppable = [...this.entries.keys()].slice(0, Math.max(0, this.entries.size - JOURNAL_NEWEST_CALLS_KEPT));
		const dropped: string[] = [];
		for (const id of droppable) {
			if (this.entries.size - dropped.length <= entryTarget && bytes <= byteTarget) break;
			bytes -= lines.get(id) ?? 0;
			dropped.push(id);
		}
		return dropped;
	}

	/**
	 * Reads in what changed on disk since last time, as every read and record does, but a piece at a
	 * time: the file's bytes through the thread pool, then its lines parsed JOURNAL_READ_PIECE_BYTES
	 * at a time (a line is never cut), the event loop given back between pieces, until what is left
	 * to read is small (then read at once). Resolves once everything the file held when it was called
	 * is read in. Started by itself when a record, a drop or a listing finds much to read (a journal
	 * another process replaced, as the CLI's trim does, or a large tail it appended): those go on at
	 * once without reading it (see `behind`). Read whole in one piece, tens of megabytes of note
	 * texts held the event loop (Obsidian's UI) for seconds. A link or anything unusual is left to
	 * the next synchronous read, which refuses it.
	 */
	catchUp(): Promise<void> {
		if (this.catchingUp !== null) return this.catchingUp;
		const run = this.readInPieces();
		// Still reading: later callers wait for the same run (it reads on until little is left).
		if (this.behind) this.catchingUp = run;
		return run;
	}

	/**
	 * True while `catchUp` reads in what another process wrote: the entries are the file up to
	 * `disk.size` (or, for a replaced file, the old file's until the new one is read in whole), the
	 * synchronous reads leave the file to it, and records are appended after the unread lines without
	 * reading them: the catch-up takes them in, in their place.
	 */
	private behind = false;
	/** The catch-up under way, which later callers of `catchUp` wait for; null when none is. */
	private catchingUp: Promise<void> | null = null;
	/** A replaced journal read in held damaged lines: the next trim rewrites the file without them, even under the bounds. */
	private rewriteDue = false;

	/** A catch-up started from a synchronous read or record, which does not wait for it. */
	private startCatchUp(): void {
		this.catchUp().catch(() => undefined);
	}

	private async readInPieces(): Promise<void> {
		let passes = 0;
		try {
			for (; ; passes++) {
				// A link or a missing file is the synchronous read's to answer (it throws or empties the journal).
				if (checkOwnFolder(this.vaultRoot, nodePath.dirname(this.path), false) === null) break;
				const stats = lstatSync(this.path, { throwIfNoEntry: false });
				if (!stats?.isFile()) break;
				const disk = this.disk;
				const whole = disk === null || stats.ino !== disk.ino || stats.size < disk.size;
				if (stats.size - (whole ? 0 : disk.size) <= JOURNAL_READ_PIECE_BYTES) break;
				this.behind = true;
				if (!(await this.readPassInPieces())) break;
			}
		} catch {
			// Left to the synchronous read below, or the next one: it reads what it can, or throws to its caller.
		}
		this.behind = false;
		this.catchingUp = null;
		try {
			// What is left is small (or another process added much again just now: a new catch-up then starts).
			this.syncWithDisk();
		} catch {
			// The next synchronous read or record meets it and says so.
		}
		if (this.behind) return;
		for (const forget of this.ownLinesBehind.splice(0)) forget();
		// A trim (or a rewrite without damaged lines) left while behind is due now.
		if (passes > 0 && (this.overBound() || this.rewriteDue)) this.scheduleTrim();
	}

	/**
	 * One pass of `readInPieces`: the file read up to the size it has when opened, whole when it is
	 * not the file read last (replaced, or shrunk) and else from where the last read stopped. A tail
	 * is taken in line by line (the entries are always the file up to `disk.size`); a whole file is
	 * replayed aside and put in place at the end, so listings show the old journal until then.
	 * Returns false when nothing was read in (no file, or only part of one line so far).
	 */
	private async readPassInPieces(): Promise<boolean> {
		const descriptor = openOwnFile(this.vaultRoot, this.path, READ_FLAGS);
		if (descriptor === null) return false;
		const before = this.disk;
		let bytes: Buffer;
		let ino: number;
		let whole: boolean;
		let from: number;
		try {
			// Whole or from where the last read stopped, as the file opened says (the name may lead to a new file since it was looked at).
			const opened = fstatSync(descriptor);
			ino = opened.ino;
			whole = before === null || opened.ino !== before.ino || opened.size < before.size;
			from = whole || before === null ? 0 : before.size;
			// Never past the size at open: a program appending all the time is not chased.
			bytes = await readRangeOffLoop(descriptor, from, opened.size);
		} finally {
			closeSync(descriptor);
		}
		const target = whole ? new Map<string, JournalEntry>() : this.entries;
		// A long line (a big note's texts) is parsed in pieces too, pausing on this clock between them.
		const clock = new SliceClock(NOTE_TEXT_SLICE_MS, yieldToEventLoop);
		let start = 0;
		let sincePause = 0;
		let damaged = 0;
		for (;;) {
			const end = bytes.indexOf(0x0a, start);
			if (end === -1) break;
			const piece = bytes.subarray(start, end);
			const parsed = this.ownLines.lineOf(piece) ?? (await clock.run(lineSteps(piece)));
			if (parsed === null) damaged++;
			else this.apply(parsed, target);
			sincePause += end + 1 - start;
			start = end + 1;
			if (!whole && before !== null) before.size = from + start;
			if (sincePause >= JOURNAL_READ_PIECE_BYTES) {
				await yieldToEventLoop();
				sincePause = 0;
			}
		}
		this.skippedLines += damaged;
		if (!whole) return start > 0;
		// As a whole read counts it: a crash's cut line, or another process's line still being written.
		if (start < bytes.length) this.skippedLines++;
		this.entries = target;
		this.callsByPlace = null;
		this.disk = { ino, size: start };
		if (damaged > 0) this.rewriteDue = true;
		return true;
	}

	/**
	 * Reads in what changed on disk since last time: appended lines, or the whole file when it was
	 * replaced or shrank. Only when that is little (JOURNAL_READ_PIECE_BYTES): more starts a catch-up
	 * (`catchUp`) and returns at once, and while one is under way this reads nothing.
	 */
	private syncWithDisk(): void {
		// A linked folder on the way is refused before anything is read through it.
		const folderThere = checkOwnFolder(this.vaultRoot, nodePath.dirname(this.path), false) !== null;
		const stats = folderThere ? lstatSync(this.path, { throwIfNoEntry: false }) : undefined;
		if (stats?.isSymbolicLink()) throw new OwnFileLinkError(nodePath.relative(this.vaultRoot, this.path).split(nodePath.sep).join("/"));
		if (this.behind) return;
		if (!stats) {
			if (this.disk !== null) this.reset();
			return;
		}
		if (this.disk === null || stats.ino !== this.disk.ino || stats.size < this.disk.size) {
			this.reload(true);
			return;
		}
		if (stats.size === this.disk.size) return;
		if (stats.size - this.disk.size > JOURNAL_READ_PIECE_BYTES) {
			this.startCatchUp();
			return;
		}
		const descriptor = openOwnFile(this.vaultRoot, this.path, READ_FLAGS);
		if (descriptor === null) {
			this.reset();
			return;
		}
		try {
			const opened = fstatSync(descriptor);
			if (opened.ino !== this.disk.ino || opened.size < this.disk.size) {
				this.reload(true);
				return;
			}
			// Grown much more in the instant since it was looked at.
			if (opened.size - this.disk.size > JOURNAL_READ_PIECE_BYTES) {
				this.startCatchUp();
				return;
			}
			const tail = readFrom(descriptor, this.disk.size, opened.size);
			this.disk.size += this.applyLines(tail, false).consumed;
		} finally {
			closeSync(descriptor);
		}
	}

	private reset(): void {
		this.entries = new Map();
		this.callsByPlace = null;
		this.disk = null;
	}

	/**
	 * Reads the whole file again; rewrites it without the lines that could not be read, if there
	 * were any. `bounded` (every read but the one at open): a file over JOURNAL_READ_PIECE_BYTES is
	 * left to a catch-up instead, the entries kept as they are until it has read the file in.
	 */
	private reload(bounded = false): void {
		if (checkOwnFolder(this.vaultRoot, nodePath.dirname(this.path), false) === null) {
			this.reset();
			return;
		}
		const descriptor = openOwnFile(this.vaultRoot, this.path, READ_FLAGS);
		if (descriptor === null) {
			this.reset();
			return;
		}
		let damaged: number;
		try {
			const { ino, size } = fstatSync(descriptor);
			if (bounded && size > JOURNAL_READ_PIECE_BYTES) {
				this.startCatchUp();
				return;
			}
			this.reset();
			const text = readFrom(descriptor, 0, bounded ? size : undefined);
			const read = this.applyLines(text, true);
			this.disk = { ino, size: read.consumed };
			damaged = read.damaged;
		} finally {
			closeSync(descriptor);
		}
		// Only damaged complete lines go: rewriting away a last piece without a line end would lose
		// the line of another process still writing it (`history` run during a big write, say).
		if (damaged === 0) return;
		// Read again while serving (another process wrote them): rewritten as a trim is, off the write path and flushed
		// through the thread pool. At open, before anything is served, at once.
		if (bounded) {
			this.rewriteDue = true;
			this.scheduleTrim();
		} else this.rewrite();
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
			const piece = text.subarray(start, end);
			const parsed = this.ownLines.lineOf(piece) ?? runSteps(lineSteps(piece));
			if (parsed === null) damaged++;
			else this.apply(parsed);
			start = end + 1;
		}
		this.skippedLines += damaged;
		return { consumed: start, damaged };
	}

	/** Replays one line on `entries` (the journal's own, or a replaced file's being read in aside). */
	private apply(line: JournalLine, entries = this.entries): void {
		this.touchedWhileTrimming?.add(line.id);
		if (line.kind === "moved" && entries === this.entries && this.callsByPlace) {
			addCallAt(this.callsByPlace, line.nowAt, line.id);
			// Left at its old place too when it is the call's old place for another note: looked at again when used.
		} else this.callsByPlace = null;
		replayLine(line, entries);
	}

	/** Replaces the file with one line per change held (and one per undone mark), atomically. */
	private rewrite(): void {
		const folder = nodePath.dirname(this.path);
		const temporary = nodePath.join(folder, trimFileName());
		const text = Buffer.concat([...this.entries.values()].map(linesOf));
		this.checkFolder();
		const descriptor = openOwnFile(this.vaultRoot, temporary, CREATE_NEW_FLAGS) as number;
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
		this.disk = { ino: lstatSync(this.path).ino, size: text.length };
	}
}

/** What tells one change record from another of its call: its path and the hashes before and after. */
function changeKey(change: Pick<JournalChange, "path" | "beforeHash" | "afterHash">): string {
	return `${change.path}\0${change.beforeHash ?? ""}\0${change.afterHash ?? ""}`;
}

function addCallAt(byPlace: Map<string, Set<string>>, place: string, id: string): void {
	let calls = byPlace.get(place);
	if (!calls) byPlace.set(place, (calls = new Set()));
	calls.add(id);
}

/** Whether the bytes of `parts`, one after another, hold `bytes` (also across two parts). */
function partsHold(parts: readonly Buffer[], bytes: Buffer): boolean {
	for (let index = 0; index < parts.length; index++) {
		const part = parts[index]!;
		if (part.includes(bytes)) return true;
		const next = parts[index + 1];
		// Across the cut: the end of this part and the start of the next, each shorter than `bytes`.
		if (next !== undefined && Buffer.concat([part.subarray(-(bytes.length - 1)), next.subarray(0, bytes.length - 1)]).includes(bytes)) return true;
	}
	return false;
}

/** A line as `listWithoutTexts` keeps it: a change's texts dropped ("" where text was, so a new note stays null). */
function withoutTexts(line: JournalLine): JournalLine {
	if (line.kind !== "change") return line;
	return { ...line, before: line.before === null ? null : "", after: line.after === null ? null : "" };
}

/**
 * When an append is made durable: before it returns (a record the note's write follows, or the last try before the
 * process may end), or through the thread pool after it is written on the event loop (a line whose loss at a crash
 * leaves what a crash just before it would: a drop, an undone mark, a move). Any later flush of the file holds it too.
 */
type Flush = "before return" | "off the loop";

/** What an append found on opening the journal (`openForAppend`). */
/** A drop owed to the file (see `pendingDrops`); in flight while an append that carries it is under way. */
interface PendingDrop {
	line: Extract<JournalLine, { kind: "drop" }>;
	inFlight: boolean;
}

interface OpenedForAppend {
	descriptor: number;
	before: { size: number; ino: number };
	cutBefore: boolean;
}

/**
 * Lines being appended, by their bytes in the file (without the line end). A line read back whose
 * bytes are the same as one of them holds the same record: it is taken as it is, with no parse.
 */
class OwnLines {
	private readonly byLength = new Map<number, Array<{ bytes: Buffer; line: JournalLine }>>();

	/** Adds the lines whose bytes (each ending in a line end, as `lineBytes` makes them) are `bytes`; returns what takes them out again. */
	add(lines: readonly JournalLine[], bytes: Buffer): () => void {
		const added: Array<{ bytes: Buffer; line: JournalLine }> = [];
		for (let start = 0, index = 0; index < lines.length; index++) {
			const end = bytes.indexOf(0x0a, start);
			// JSON never holds a raw line end: a line of its own per record, always. Anything else is read back by parsing.
			if (end === -1) break;
			added.push({ bytes: bytes.subarray(start, end), line: lines[index] as JournalLine });
			start = end + 1;
		}
		for (const own of added) {
			const same = this.byLength.get(own.bytes.length);
			if (same) same.push(own);
			else this.byLength.set(own.bytes.length, [own]);
		}
		return () => {
			for (const own of added) {
				const same = this.byLength.get(own.bytes.length) ?? [];
				same.splice(same.indexOf(own), 1);
				if (same.length === 0) this.byLength.delete(own.bytes.length);
			}
		};
	}

	/** The record of a line read back, when it is one of these, byte for byte; else null. */
	lineOf(piece: Buffer): JournalLine | null {
		return this.byLength.get(piece.length)?.find((own) => own.bytes.equals(piece))?.line ?? null;
	}
}

/** The file's bytes from `from` to `to` (or to its end, if it is shorter now), read through the thread pool. */
async function readRangeOffLoop(descriptor: number, from: number, to: number): Promise<Buffer> {
	const buffer = Buffer.allocUnsafe(Math.max(0, to - from));
	let length = 0;
	while (length < buffer.length) {
		const count = await new Promise<number>((resolve, reject) =>
			read(descriptor, buffer, length, buffer.length - length, from + length, (error, bytesRead) => (error ? reject(error) : resolve(bytesRead))),
		);
		if (count === 0) break;
		length += count;
	}
	return buffer.subarray(0, length);
}

/** Writes all of `bytes` at the end of the file (opened to append) through the thread pool. */
async function writeAllOffLoop(descriptor: number, bytes: Buffer): Promise<void> {
	for (let offset = 0; offset < bytes.length;) {
		offset += await new Promise<number>((resolve, reject) =>
			write(descriptor, bytes, offset, bytes.length - offset, null, (error, written) => (error ? reject(error) : resolve(written))),
		);
	}
}

/**
 * Whether the file just made and open as `fd` is the one `path` names, in its folder checked now
 * (`checkFolder` throws when it is no real folder of the vault); if not, it is removed where it was made.
 */
function madeInFolder(fd: number, path: string, checkFolder: () => void): boolean {
	const made = fstatSync(fd);
	try {
		checkFolder();
		const named = lstatSync(path, { throwIfNoEntry: false });
		if (named?.isFile() === true && named.dev === made.dev && named.ino === made.ino) return true;
	} catch {
		// Refused below.
	}
	removeWhereMade(fd, made);
	return false;
}
