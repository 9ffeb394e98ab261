import { randomBytes } from "node:crypto";
import {
	close,
	closeSync,
	constants as fsConstants,
	fstatSync,
	linkSync,
	lstatSync,
	openSync,
	promises as fs,
	readFileSync,
	readSync,
	renameSync,
	rmSync,
	unlinkSync,
	write,
	writeSync,
	type Stats,
} from "node:fs";
import * as nodePath from "node:path";
import { sameFile } from "../host/madeFile";
import { promisify } from "node:util";
import {
	EMPTY_NOTE_SETTLE_MS,
	LATE_APPEND_PIECE_BYTES,
	LATE_APPEND_RECHECK_MS,
	MAX_READ_NOTE_BYTES,
	NOTE_TEXT_PIECE_CHARS,
	RACED_REWRITE_RECHECKS,
	TRASH_NAMES_PER_PIECE,
	TRUNCATING_NOTE_SETTLE_MS,
} from "../config/limits";
import { O_NOFOLLOW, OutsideVaultError, type FolderJail } from "../host/FolderJail";
import { FileOverBytesError } from "../host/FileOverBytesError";
import { NoteTooLargeError } from "../host/NoteTooLargeError";
import type { ProcessOptions } from "../host/Host";
import { pieceEnd } from "../sha256";
import { eventLoopTurns } from "../turns";
import { copyNameBeside } from "../vault/copyName";
import { encodeInPieces, fileHoldsAt, fileStartsWith, lengthOf, readBytesInPieces, readInPieces, type Pause } from "./bytePieces";
import { fileExistsError, fileMissingError } from "../host/fileErrors";

/** What one attempt of an edit did: the text the note now has, and the file's stats after our write (null: nothing was written). */
export interface EditResult {
	text: string;
	stats: Stats | null;
	/** Whether the file holds exactly `text` (false when another program's bytes were carried over beside ours). */
	exact: boolean;
}

/** What a copy of another program's version of a note, kept beside it after it raced an edit, is named by (see keepRacedVersion). */
const RACED_COPY_LABEL = "another program's version";

/** The name of a replace's temporary file, beside the note (made in replaceFile); one a crash left behind is removed at a later start (NodeVault.removeLeftTemporaries). */
export const TEMPORARY_NOTE_NAME = /^\.vault-mcp-[0-9a-f]{12}\.tmp$/;

/**
 * Where the late appends of a file just replaced go: the note's path, moved along when this writer
 * renames or trashes the note in the meantime, and the file the edit wrote there, followed through
 * this writer's later replaces of it. Another file at that path (the person moved the note away and
 * another program made a note of that name) is not theirs: they were appended into an unrelated note.
 */
interface LateCarryTarget {
	target: string;
	file: Pick<Stats, "ino" | "dev">;
	/**
	 * A descriptor of that file, open until the late appends are carried: a file deleted meanwhile keeps its
	 * inode number while it is open. Closed, ext4 gives the number at once to the next file made, and a new
	 * note made at the path after the person deleted this one passed as the file the edit wrote.
	 */
	pin: number;
}

/** Bytes carried from a replaced note's old file: the first piece at once, the rest (if any) in later turns. */
interface LateCarry {
	first: Buffer[];
	rest: Promise<Buffer[]> | null;
}

const NOTHING_CARRIED: LateCarry = { first: [], rest: null };

/**
 * A change of a note that is not valid UTF-8 (another program saved it in another encoding) other
 * than an append: its text as read holds U+FFFD for those bytes, and writing it back would lose them.
 */
class NotUtf8NoteError extends Error {
	readonly code = "ENOTUTF8";
	constructor() {
		super("The note is not valid UTF-8: a change other than an append would replace its other bytes.");
		this.name = "NotUtf8NoteError";
	}
}

/**
 * The file at a note's name is no longer the one a trash or move opened at its start: another program
 * replaced it (a save by rename) meanwhile, and moving what is there now would move that program's file.
 */
class ReplacedWhileMovedError extends Error {
	readonly code = "EWRITECONFLICT";
	constructor(what: "moved to the trash" | "moved") {
		super(`The note changed while it was being ${what} (another program replaced it), so nothing was moved. Read it again and retry.`);
		this.name = "ReplacedWhileMovedError";
	}
}

/** LATE_APPEND_RECHECK_MS, without keeping the process alive; a named frame a test can find the timer by. */
function lateRecheckDelay(): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, LATE_APPEND_RECHECK_MS).unref());
}

/**
 * The headless vault's writes to disk, each inside the jail. An edit reads the note, works out its
 * new text and writes it, then, in one last synchronous look (a few system calls, and a comparison
 * of the bytes at memory speed, about a quarter of a millisecond per megabyte), checks that the file
 * still holds exactly what was read and puts the new text in place. A note of one piece
 * (NOTE_TEXT_PIECE_CHARS bytes) is all of that in one turn: a rename's thousand link rewrites cost a
 * thousand short turns of the event loop instead of twenty thousand thread-pool round trips (which
 * the profile showed dominating the rename). A longer note is read, decoded, encoded and written a
 * piece at a time, giving the event loop back between pieces: in one piece a megabyte note's
 * append held every other client 20–70 ms. Other programs can write at any moment, so each edit
 * compares at the moment of its write and never overwrites bytes it did not read; the edits of
 * this process are one per note at a time (the vault's write lock).
 */
export class DiskWriter {
	constructor(
		private readonly jail: FolderJail,
		/** Gives the event loop back between two pieces of a long note's edit. */
		private readonly pause: Pause = eventLoopTurns.take,
		/** Whether a file at this disk path would be in a folder the person has excluded now: no copy is kept there. */
		private readonly isExcludedNow: (diskPath: string) => boolean = () => false,
	) {}

	/** Descriptors of files just replaced: kept open a moment longer for carryLateAppends, which closes them. */
	private readonly replacedDescriptors = new Set<number>();

	/** Where the late appends of each file just replaced go (see LateCarryTarget). */
	private readonly lateCarries = new Set<LateCarryTarget>();

	/**
	 * One attempt of an edit of the file at `diskPath`: reads it, runs `fn`, and writes the result
	 * only if the file still holds what was read; null when it changed under us (the caller runs
	 * `fn` again on the fresh text). A change that only adds to the end is appended in place
	 * (O_APPEND), so another program appending at the same moment loses nothing; any other change
	 * replaces the file atomically (temporary file, rename): whole lines another program added at the
	 * end since the note was read go after the edit, and bytes it appended to the old file in the
	 * instant before the rename are carried over. A file longer than `options.refuseOverBytes` when
	 * opened is not read: FileOverBytesError; nor is one over MAX_READ_NOTE_BYTES: NoteTooLargeError.
	 */
	async editOnce(diskPath: string, fn: (data: string) => string, options?: ProcessOptions, ownWrite?: Stats): Promise<EditResult | null> {
		const { fd, stats } = this.jail.openSync(diskPath, fsConstants.O_RDONLY);
		try {
			if (options?.refuseOverBytes !== undefined && stats.size > options.refuseOverBytes) throw new FileOverBytesError(stats.size);
			if (stats.size > MAX_READ_NOTE_BYTES) throw new NoteTooLargeError(stats.size);
			const read = await readInPieces(fd, stats.size, this.pause);
			// Read in the middle of another program's rewrite (truncated, its text not yet all written): made on that
			// prefix of the note, the edit would pass its last look while the write still stood there, and its rename cut the note there.
			if (read.bytes.length % WRITE_STEP_BYTES === 0 && isBeingRewritten(fstatSync(fd), read.bytes.length, ownWrite)) return null;
			const before = read.text;
			const after = fn(before);
			if (after === before) return { text: after, stats: null, exact: true };
			// In place only for a file with one name: appending through a hard link would change the
			// bytes under its other name too (perhaps outside the vault); a replace gives this name its own file.
			if (stats.nlink === 1 && after.length > before.length && after.startsWith(before)) {
				const suffix = await encodeInPieces(after.slice(before.length), this.pause);
				const appended = this.appendInPlace(diskPath, fd, stats, read.bytes, after, suffix, options?.beforeWrite);
				// Bytes that are not UTF-8 stay as they were, so the text as read is not the file's (it holds U+FFFD for them).
				return appended === null || read.utf8 ? appended : { ...appended, exact: false };
			}
			// Only valid UTF-8 decodes and encodes back to the same bytes (checked without encoding the note again):
			// written back, another program's bytes in another encoding would be lost, in the note and in the journal.
			if (!read.utf8) throw new NotUtf8NoteError();
			return await this.replaceFile(diskPath, fd, stats, read.bytes, after, options?.beforeWrite);
		} finally {
			// Closed off the event loop: once the file was replaced this is its last descriptor, and
			// freeing a replaced file's blocks made a synchronous close the slowest step of a rename.
			if (!this.replacedDescriptors.delete(fd)) close(fd, () => undefined);
		}
	}

	/**
	 * Adds `suffix` at the end of the file (O_APPEND: other programs' appends interleave, never
	 * vanish). If the file grew since it was read, only by whole lines added at its end (the bytes
	 * read still there, the new ones ending in a line end), the edit's whole lines go after them: the
	 * same lines added at the end of the note as it is now. A program appending every few
	 * milliseconds otherwise wins every race against an edit that takes longer than that to compute.
	 * One synchronous piece: the last look and the write.
	 */
	private appendInPlace(
		diskPath: string,
		readFd: number,
		read: Stats,
		beforeBytes: Buffer,
		after: string,
		suffix: Buffer[],
		beforeWrite?: () => void,
	): EditResult | null {
		const size = beforeBytes.length;
		const suffixLength = lengthOf(suffix);
		// Opened for reading too: a note another program saved atomically since it was read is checked through it.
		const { fd, stats } = this.jail.openSync(diskPath, fsConstants.O_RDWR | fsConstants.O_APPEND);
		try {
			// Replaced by another program's atomic save (a new file renamed over it): appended to only
			// if the new file holds the bytes read followed by whole lines, as for a note that grew. An
			// editor saving every few milliseconds otherwise wins every race (20 of 100 appends went in).
			const replaced = stats.ino !== read.ino;
			// One name, checked again here: a hard link made while the edit was computed (another name,
			// perhaps outside the vault) would show our bytes there too. Tried again, it is replaced instead.
			if (stats.nlink !== 1) return null;
			const grew = replaced || stats.size !== size;
			// Not grown: the same bytes still, checked (another program may have rewritten it in place, same size, meanwhile).
			if (grew ? !this.grewByWholeLines(replaced ? fd : readFd, beforeBytes, stats.size, suffix) : !fileStartsWith(readFd, [beforeBytes], true))
				return null;
			// The suffix was made in pieces, other requests answered between them: the caller may no longer write.
			beforeWrite?.();
			for (const piece of suffix) writeAll(fd, piece);
			const final = fstatSync(fd);
			const named = lstatSync(diskPath, { throwIfNoEntry: false });
			if (named && named.ino !== final.ino) {
				// Another program saved the note atomically (a new file renamed over it) as we wrote:
				// our bytes went to the file it replaced. If its new text already holds them (it read
				// them first), they landed; if not, the edit is made again on its text.
				let fresh: Buffer | null;
				try {
					fresh = this.readBytesSync(diskPath);
				} catch {
					fresh = null;
				}
				if (fresh === null || !fresh.includes(Buffer.concat(suffix))) return null;
				return { text: after, stats: named, exact: false };
			}
			return { text: after, stats: final, exact: !grew && final.size === size + suffixLength };
		} finally {
			closeSync(fd);
		}
	}

	/** A file's bytes, read through the jail's `openSync`. */
	private readBytesSync(diskPath: string): Buffer {
		const { fd } = this.jail.openSync(diskPath, fsConstants.O_RDONLY);
		try {
			return readFileSync(fd);
		} finally {
			closeSync(fd);
		}
	}

	/** Whether the file read as `beforeBytes` now holds them followed only by whole lines (and both it and `suffix` end lines). */
	private grewByWholeLines(readFd: number, beforeBytes: Buffer, size: number, suffix: Buffer[]): boolean {
		return endsLines(beforeBytes, suffix) && size >= beforeBytes.length && endsWithNewline(readFd, size) && fileStartsWith(readFd, [beforeBytes]);
	}

	/**
	 * The whole lines the file read as `beforeBytes` now holds after them, taken from the same read
	 * that checked them (read again, a program rewriting the file a moment later could give half a
	 * line of its new text); null when it holds anything else (and both it and `suffix` must end
	 * lines), or more than LATE_APPEND_PIECE_BYTES were added (the edit is then made again on the
	 * fresh text, which holds them: copied here, in the last look's one piece, they would hold the server).
	 */
	private wholeLinesAdded(readFd: number, beforeBytes: Buffer, size: number, suffix: Buffer[]): Buffer | null {
		if (size <= beforeBytes.length || size - beforeBytes.length > LATE_APPEND_PIECE_BYTES || !endsLines(beforeBytes, suffix)) return null;
		const added = Buffer.alloc(size - beforeBytes.length);
		// The added bytes first, then the bytes before them: a rewrite in place between the two reads changes what
		// was read before, which the second read then sees (a program appending only never changes them).
		if (readSync(readFd, added, 0, added.length, beforeBytes.length) !== added.length || added[added.length - 1] !== NEWLINE) return null;
		return fileStartsWith(readFd, [beforeBytes]) ? added : null;
	}

	/** Replaces the file atomically with `after`, if it still holds exactly `beforeBytes` (`old` is the descriptor it was read through). */
	private async replaceFile(
		diskPath: string,
		old: number,
		read: Stats,
		beforeBytes: Buffer,
		after: string,
		beforeWrite?: () => void,
	): Promise<EditResult | null> {
		const folder = nodePath.dirname(diskPath);
		// A short dot-name in the same folder: the rename is atomic, the watcher and listing ignore
		// it, and it fits beside a note whose own name is near the file system's limit.
		const temporary = nodePath.join(folder, `.vault-mcp-${randomBytes(6).toString("hex")}.tmp`);
		/** Whole lines another program added at the end after the note was read, written after the edit. */
		let added: Buffer = Buffer.alloc(0);
		let written: Stats;
		/** The file written, kept open for the late carry (LateCarryTarget.pin) once it is renamed over the note. */
		let pin = -1;
		let afterLength = 0;
		/** The edit's last bytes (whether it ends a line). */
		let lastPiece = Buffer.alloc(0);
		try {
			const created = this.createTemporary(temporary, read.mode & 0o777);
			let renaming = false;
			try {
				// The new text, a piece at a time: made into bytes and written, the event loop given back between pieces.
				for (let start = 0; start < after.length;) {
					if (start > 0) await this.pause();
					const end = pieceEnd(after, start, NOTE_TEXT_PIECE_CHARS);
					lastPiece = Buffer.from(after.slice(start, end), "utf8");
					writeAll(created, lastPiece);
					afterLength += lastPiece.length;
					start = end;
				}
				// The last look before the rename, in one piece: same bytes, then same real folder and same file. The bytes
				// are read through the descriptor the note was read by: a change to that file after this look is carried
				// or kept beside it (carryLateAppends, keepRacedVersion). Only another program's save renamed over the
				// note is lost if it lands between the look at the name and the rename, so that look is the last.
				if (!fileStartsWith(old, [beforeBytes], true)) {
					// Another program added whole lines at the end since the note was read (a logger): they
					// go after the edit, as for an append (see appendInPlace). Any other change, or a line
					// still being written, and the edit is made again on the fresh text. A program appending
					// every 2 ms otherwise won every race: 4 of 50 property changes went in, after 3 s each.
					// The lines are the bytes checked, from that one read: read again, a program rewriting the
					// note in place a moment later could give half a line of its new text after the edit.
					// Grown to a page's end a moment ago: perhaps a write still going on (see isBeingRewritten), whose last lines are not yet there.
					const now = fstatSync(old);
					const midWrite = now.size % WRITE_STEP_BYTES === 0 && isBeingRewritten(now, now.size);
					added = midWrite ? Buffer.alloc(0) : (this.wholeLinesAdded(old, beforeBytes, now.size, [lastPiece]) ?? Buffer.alloc(0));
					if (added.length === 0) {
						rmSync(temporary, { force: true });
						return null;
					}
					writeAll(created, added);
				}
				written = fstatSync(created);
				// The note was read and its new text written in pieces, other requests answered between them: the caller may no longer write (the temporary file is removed below).
				beforeWrite?.();
				// Nothing but these four between here and the rename: beside a program saving every 2 ms, each microsecond
				// here is a chance for its save to land unseen and be replaced.
				// Renamed to its own name: nothing changes, but Linux serves it only once any rename in the folder under way
				// is done. A look at the name does not wait for one: another program's save renamed over the note, still under way
				// (on ext4 it writes the new file's data out first, milliseconds for a long note), showed the old file, and our
				// rename, queued behind it, replaced its save (27 of 3,565 edits lost one beside a saver every ~1 ms; 1 of 2,301 with this).
				// Only a wait: a system that refuses it (or a name gone, which the checks below see) changes nothing.
				try {
					renameSync(temporary, temporary);
				} catch {
					// the checks below decide
				}
				// The folder after the wait, not before it: moved out of the vault and a link put in its place during the
				// wait (milliseconds), it led the rename out of the vault.
				this.jail.checkFolderSync(folder);
				// The temporary name still leads to the file written: it was written in pieces, with turns between them, in which
				// another program may have put another file there (a hard link to a file outside the vault), which the rename would make the note.
				if (!sameFile(lstatSync(temporary, { throwIfNoEntry: false }) ?? null, written)) return null;
				if (lstatSync(diskPath).ino !== read.ino) {
					rmSync(temporary, { force: true });
					return null;
				}
				renaming = true;
			} finally {
				if (!renaming) closeSync(created);
			}
			pin = created;
			renameSync(temporary, diskPath);
			this.followLateCarries(diskPath, written);
		} catch (error) {
			if (pin !== -1) closeSync(pin);
			rmSync(temporary, { force: true });
			throw error;
		}
		// Another program may have appended to the old file in the instant between the last look
		// and the rename: those bytes went to the file just replaced, so add them to the new one, now
		// and once more a moment later (a writer that opened the old file may be descheduled before it writes).
		const seen = [beforeBytes, added];
		const carry: LateCarryTarget = { target: diskPath, file: written, pin };
		// The edit is made: a note gone, or its folder swapped for a link, since the rename only leaves nothing to carry them to.
		let carried: LateCarry;
		try {
			carried = this.carryLateAppends(carry, old, seen);
		} catch {
			carried = NOTHING_CARRIED;
		}
		this.replacedDescriptors.add(old);
		this.lateCarries.add(carry);
		// Returned before any pause, so the vault records this write before the watcher can report it as another program's.
		void (async () => {
			try {
				try {
					const carriedLater = (await carried.rest) ?? [];
					await lateRecheckDelay();
					await this.carryLateAppends(carry, old, [...seen, ...carried.first, ...carriedLater]).rest;
				} catch {
					// The note or its folder went meanwhile (moved or deleted by the person): nothing to carry them to. The
					// copy below is still made, beside where the note was: stopping here lost the other program's version.
				} finally {
					// Nothing more is appended: the copy below may wait for the other program a while.
					this.unpin(carry);
				}
				await this.keepRacedVersion(carry, old, seen, read);
			} catch {
				// Its folder went too, or the disk refused the copy.
			} finally {
				this.unpin(carry);
				this.lateCarries.delete(carry);
				close(old, () => undefined);
			}
		})();
		const exact = added.length === 0 && carried.first.length === 0 && carried.rest === null;
		// The file written, as its name shows it now; if the name no longer leads to it (gone, or through a
		// folder swapped for a link), as it was written: the edit was made all the same.
		let named: Stats | undefined;
		try {
			named = lstatSync(diskPath, { throwIfNoEntry: false });
		} catch {
			named = undefined;
		}
		const stats = named !== undefined && sameFile(named, written) ? named : written;
		return { text: after, stats, exact: exact && stats.size === afterLength };
	}

	/**
	 * Makes the temporary file beside the note, in its real folder held open (FolderJail.createFileSync). A long note is
	 * read in pieces before this, with turns between them, in which another program may swap the folder for a link out
	 * of the vault: the new text was then written there, and left there when the folder was swapped back before the last
	 * look. Made on the event loop, not through the thread pool (tried: loop99 in bench/README): a pooled open gave
	 * another program a window between the folder check and the open, and a crash left behind the temporary file of
	 * every edit waiting on the pool.
	 */
	private createTemporary(temporary: string, mode: number): number {
		return this.jail.createFileSync(temporary, mode).fd;
	}

	/**
	 * Bytes another program appended to a replaced file (`old`, read as `seen`) after it was read:
	 * added at the end of the note as it is now, LATE_APPEND_PIECE_BYTES at a time. The first piece
	 * now (`first`); any more in later turns (`rest`, null when there are none), the event loop
	 * given back between pieces: a program appending megabytes to the old file held the server for
	 * the whole read. Only an append is carried over: if the old file was rewritten instead, its tail
	 * is not an addition to our text. Only from a file no name leads to any more (checked at every
	 * piece): bytes written under another name (a hard link, perhaps outside the vault or an excluded
	 * note, or another note) are not lost, and are not this note's. And only into a note with one name
	 * (`carry.target`, which follows the note through this writer's renames and trash moves):
	 * appending through a hard link would write under its other name too.
	 */
	private carryLateAppends(carry: LateCarryTarget, old: number, seen: readonly Buffer[]): LateCarry {
		const seenLength = lengthOf(seen);
		const late = fstatSync(old);
		const end = late.size;
		if (late.nlink !== 0 || end <= seenLength || !fileStartsWith(old, seen)) return NOTHING_CARRIED;
		const first = this.carryPiece(carry, old, seenLength, end);
		if (first === null) return NOTHING_CARRIED;
		const rest = async (): Promise<Buffer[]> => {
			const carried: Buffer[] = [];
			for (let at = seenLength + first.length; at < end;) {
				await this.pause();
				// Still an addition to what was carried: the program that holds the old file open may have rewritten it
				// in place meanwhile, and what follows then never followed our text. The last piece carried must still be
				// where it was, compared in the same piece as the next one is read (the re-look compares everything).
				const last = carried.at(-1) ?? first;
				if (!fileHoldsAt(old, last, at - last.length)) break;
				const piece = this.carryPiece(carry, old, at, end);
				if (piece === null) break;
				carried.push(piece);
				at += piece.length;
			}
			return carried;
		};
		return { first: [first], rest: seenLength + first.length < end ? rest() : null };
	}

	/**
	 * Keeps the text another program wrote to a replaced file (`old`, read as `seen`) after the edit
	 * read it, whole, in a new file beside the note (`carry.target`). Carried into the note, its lines
	 * can still be lost: a program that rewrites the note in place (reads it, truncates it, writes it
	 * back with a line more) may have read the new note just before they were carried, and its write
	 * then goes over them. Such a program may also have truncated the old file just before the
	 * rename and write it only later: a file shorter than what was read, or empty, is looked at
	 * again, up to RACED_REWRITE_RECHECKS times. Nothing is kept when the old file holds exactly what
	 * was read (`read`: its stats when opened), is empty, still has a name (its bytes are not lost),
	 * or is over MAX_READ_NOTE_BYTES, nor in a folder the person has excluded since (`isExcludedNow`).
	 */
	private async keepRacedVersion(carry: LateCarryTarget, old: number, seen: readonly Buffer[], read: Stats): Promise<void> {
		const seenLength = lengthOf(seen);
		for (let wait = 0; wait < RACED_REWRITE_RECHECKS && isShortOf(fstatSync(old), seenLength); wait++) await lateRecheckDelay();
		const late = fstatSync(old);
		if (late.nlink !== 0 || late.size === 0 || late.size > MAX_READ_NOTE_BYTES) return;
		// Not written since it was opened (the common case, not compared again: a rename's thousand notes), or holding what was read.
		if (late.size === seenLength && (late.mtimeMs === read.mtimeMs || fileStartsWith(old, seen, true))) return;
		// A piece of its own: the late re-check before this may have compared and carried a piece already.
		await this.pause();
		const bytes = await readBytesInPieces(old, MAX_READ_NOTE_BYTES, this.pause);
		const folder = nodePath.dirname(carry.target);
		// Only into the folder the note is in: one moved away meanwhile is not made again for the copy.
		if (!(await fs.lstat(folder).catch(() => null))?.isDirectory()) return;
		// Excluded folders are never written by the server, even in the second since the note was edited there: the
		// other program's version is left to the note itself, the person's (the vault says so in the log, without the path).
		if (this.isExcludedNow(carry.target)) return;
		for (let number = 0; ; number++) {
			const copy = nodePath.join(folder, copyNameBeside(nodePath.basename(carry.target), RACED_COPY_LABEL, new Date(), number));
			try {
				// As private as the note: another program's version of a note only its owner may read is not left readable by others.
				await this.create(copy, bytes, undefined, read.mode & 0o777);
				return;
			} catch (error) {
				// Taken (by another program, or a race a second earlier): the next number. Taken by a link, `create` refuses it
				// as outside the vault, and stopping there lost the only copy of the other program's text.
				if ((await fs.lstat(copy).catch(() => null)) === null) throw error;
			}
		}
	}

	/**
	 * Reads up to LATE_APPEND_PIECE_BYTES of the old file from `at` (not past `end`), each byte read
	 * once, and appends them to the note as it is now; null when nothing was left, a name leads to the
	 * old file again, the note has another name, or its path leads to another file than the one the
	 * edit wrote (their bytes are then kept in the copy beside it, keepRacedVersion).
	 */
	private carryPiece(carry: LateCarryTarget, old: number, at: number, end: number): Buffer | null {
		if (fstatSync(old).nlink !== 0) return null;
		const piece = Buffer.alloc(Math.min(LATE_APPEND_PIECE_BYTES, end - at));
		const got = readSync(old, piece, 0, piece.length, at);
		if (got === 0) return null;
		const { fd, stats } = this.jail.openSync(carry.target, fsConstants.O_WRONLY | fsConstants.O_APPEND);
		try {
			if (carry.pin === -1 || stats.nlink !== 1 || stats.ino !== carry.file.ino || stats.dev !== carry.file.dev) return null;
			writeAll(fd, piece.subarray(0, got));
		} finally {
			closeSync(fd);
		}
		return piece.subarray(0, got);
	}

	/**
	 * Late appends of an earlier edit of the note at `diskPath` still being carried go on into the file
	 * `written` that has just replaced it there, pinned as LateCarryTarget says; if the name no longer
	 * leads to that file (another program was quicker), they keep their target and go to the copy.
	 */
	private followLateCarries(diskPath: string, written: Stats): void {
		for (const carry of this.lateCarries) {
			if (carry.target !== diskPath || carry.pin === -1) continue;
			let pin: number;
			try {
				// Not blocking: another program may have put a pipe there since the rename.
				pin = openSync(diskPath, fsConstants.O_RDONLY | O_NOFOLLOW | fsConstants.O_NONBLOCK);
			} catch {
				continue;
			}
			if (!sameFile(fstatSync(pin), written)) {
				closeSync(pin);
				continue;
			}
			closeSync(carry.pin);
			carry.pin = pin;
			carry.file = written;
		}
	}

	/** Lets the file a late carry went into go (LateCarryTarget.pin): nothing more is appended to it. */
	private unpin(carry: LateCarryTarget): void {
		if (carry.pin === -1) return;
		close(carry.pin, () => undefined);
		carry.pin = -1;
	}

	/** The late appends of a note just replaced at `from` now go to `to` (the note was moved there). */
	private moveLateCarries(from: string, to: string): void {
		for (const carry of this.lateCarries) if (carry.target === from) carry.target = to;
	}

	/**
	 * Makes a new file holding `data`, never replacing anything (exclusive, not following links); folders made as needed.
	 * Made on the event loop in its folder held open (FolderJail.createFileSync): opened through the thread pool, a folder
	 * swapped for a link out of the vault while the open waited for a thread had the file made outside, and left there
	 * when swapped back before the look after it. The text is then written through the pool, into that file.
	 */
	async create(diskPath: string, data: string | Buffer, beforeWrite?: () => void, mode = 0o666): Promise<Stats> {
		await this.jail.makeFolders(nodePath.dirname(diskPath));
		const { fd, stats } = this.jail.createFileSync(diskPath, mode);
		let made = stats;
		try {
			try {
				// Written in pieces through the thread pool: the caller may no longer write by the next one, or by the end.
				await writeInPieces(fd, data, beforeWrite);
				beforeWrite?.();
			} catch (error) {
				this.jail.removeIfSameSync(diskPath, made);
				throw error;
			}
			made = fstatSync(fd);
		} finally {
			await closeOffLoop(fd);
		}
		// A folder swapped for a link while the text was written: take back what was written, if the name still leads to
		// it. Through the link it may name another file, outside the vault: left alone.
		if (!(await this.jail.isFolderReal(nodePath.dirname(diskPath)))) {
			this.jail.removeIfSameSync(diskPath, made);
			throw new OutsideVaultError();
		}
		return fs.lstat(diskPath);
	}

	/** Copies a file's bytes to a new file (never replacing one), both inside the jail: made as `create` makes a note. */
	async copy(from: string, to: string): Promise<void> {
		await this.create(to, await this.jail.readFile(from));
	}

	/**
	 * Moves a file into `trashFolder` under its own name, or with a number added when that name is
	 * taken there. The name is taken first (an empty file made exclusively), so nothing already in
	 * the trash is ever replaced; the file must be a plain file where its path says. The name taken
	 * and the move are made with the folders held open (FolderJail.createFileSync, moveFileSync): through
	 * the thread pool, a trash folder swapped for a link out of the vault while the rename waited for a
	 * thread took the note out of the vault, and the look after it saw the folder swapped back.
	 * `textRead`: the text the caller read and decided on, which the file must still hold (see openToMove).
	 */
	async trash(diskPath: string, trashFolder: string, basename: string, extension: string, textRead?: string): Promise<void> {
		const stats = await this.openToMove(diskPath, "moved to the trash", textRead);
		await this.jail.makeFolders(trashFolder);
		const dot = extension === "" ? "" : `.${extension}`;
		for (let number = 0; ; number++) {
			const target = nodePath.join(trashFolder, `${basename}${number === 0 ? "" : ` ${number}`}${dot}`);
			let placeholder: Stats;
			try {
				const made = this.jail.createFileSync(target, 0o600);
				closeSync(made.fd);
				placeholder = made.stats;
			} catch (error) {
				if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
				// Each name is tried on the event loop: a trash holding thousands of this name is tried in pieces.
				if ((number + 1) % TRASH_NAMES_PER_PIECE === 0) await this.pause();
				continue;
			}
			try {
				// The last look before the move, in the same piece: still the file opened above (not one another program put at its
				// name since), going to the name just taken (nothing another program put there since is replaced).
				let atName: Stats | undefined;
				const moved = this.jail.moveFileSync(diskPath, target, (found, there) => {
					atName = found;
					return sameFile(found, stats) && sameFile(there, placeholder);
				});
				if (!moved) throw trashRefusal(atName, stats, this.jail.vaultPath(diskPath));
				this.moveLateCarries(diskPath, target);
			} catch (error) {
				// Only the name taken, if it still leads to it.
				this.jail.removeIfSameSync(target, placeholder);
				throw error;
			}
			// The trash folder swapped for a link since: put the note back where it was, if the name still leads to it.
			if (!(await this.jail.isFolderReal(trashFolder))) {
				this.putBack(target, diskPath, stats);
				throw new OutsideVaultError();
			}
			return;
		}
	}

	/**
	 * Gives the file at `from` the name `to` (folders made as needed), never replacing anything: the
	 * new name is taken with a hard link, which fails if it exists, and only then the old name is
	 * removed; a file system without hard links gets a checked rename instead. A move that only
	 * changes letter case is a plain rename (on a case-insensitive disk both names are the same file).
	 * `textRead` as for `trash`; `beforeMove` is called last before the file moves (throws to move nothing). Returns the moved file's stats.
	 */
	async move(from: string, to: string, textRead?: string, beforeMove?: () => void): Promise<Stats> {
		const stats = await this.openToMove(from, "moved", textRead);
		await this.jail.makeFolders(nodePath.dirname(to));
		// After the pauses above (the text read in pieces, the folders made): a token revoked meanwhile moves nothing.
		beforeMove?.();
		this.moveWithoutReplacing(from, to, stats);
		this.moveLateCarries(from, to);
		// A folder swapped for a link since the file was moved: put it back where it was, if the new name still
		// leads to it. Through the link it may name another file, outside the vault, which must not be moved in.
		if (!(await this.jail.isFolderReal(nodePath.dirname(to)))) {
			this.putBack(to, from, stats);
			throw new OutsideVaultError();
		}
		return fs.lstat(to);
	}

	/**
	 * Opens the file a trash or move takes, through the jail, and returns its stats: from here to the move itself, the
	 * move checks the file at the name is this one. The caller's own read came before this open (undo's look at a
	 * created note's text, a rename's read of the note): given that text (`textRead`), the file must still hold it, so a
	 * save by rename another program made in between is not what is moved (it would be, unchecked: the person asked
	 * for the note they read). Read in pieces, as an edit reads. A move takes a note grown only at its end since (another
	 * program's appended line) as main did: everything read moves with it, and the rename records the text it moved
	 * (refused, a rename of a note a capture tool appends to failed where main's succeeded). The trash takes only the
	 * text read: undo trashes a note as the call left it, never a line added since.
	 */
	private async openToMove(diskPath: string, what: "moved to the trash" | "moved", textRead?: string): Promise<Stats> {
		const { handle, stats } = await this.jail.open(diskPath, fsConstants.O_RDONLY);
		try {
			if (textRead === undefined) return stats;
			// Past what a read reads, it is not the text read (that read would have refused it): not read in to be compared.
			if (stats.size > MAX_READ_NOTE_BYTES) throw new ReplacedWhileMovedError(what);
			const held = (await readInPieces(handle.fd, stats.size, this.pause)).text;
			if (what === "moved" ? !held.startsWith(textRead) : held !== textRead) throw new ReplacedWhileMovedError(what);
		} finally {
			await handle.close();
		}
		return stats;
	}

	/** Moves the file `moved` describes from `at` back to `to`, if `at` still leads to it and nothing took `to` meanwhile. */
	private putBack(at: string, to: string, moved: Stats): void {
		try {
			if (this.jail.moveFileSync(at, to, (found, there) => there === undefined && sameFile(found, moved))) this.moveLateCarries(at, to);
		} catch {
			// Its folder gone, or swapped for a link too: left where it is.
		}
	}

	/**
	 * The move itself, in one piece on the event loop with both folders held open (FolderJail.inFolderSync): through the
	 * thread pool, a folder swapped for a link out of the vault while a call waited for a thread had the note linked
	 * there, or a file of that name outside removed by the unlink of the old name.
	 */
	private moveWithoutReplacing(from: string, to: string, stats: Stats): void {
		const taken = () => fileExistsError(this.jail.vaultPath(to));
		this.jail.inFolderSync(nodePath.dirname(from), (fromEntry) =>
			this.jail.inFolderSync(nodePath.dirname(to), (toEntry) => {
				const source = fromEntry(nodePath.basename(from));
				const target = toEntry(nodePath.basename(to));
				// Still the file opened at the start: another program may have put another at the old name since, or removed it.
				const atStart = lstatSync(source, { throwIfNoEntry: false });
				// Nothing at its name: another program deleted or moved it since the call opened it (answered as a note gone).
				if (atStart === undefined) throw fileMissingError(this.jail.vaultPath(from));
				if (!sameFile(atStart, stats)) throw new ReplacedWhileMovedError("moved");
				const existing = lstatSync(target, { throwIfNoEntry: false });
				// A link there is not part of the vault: refused like any path through a link, never named as taken.
				if (existing?.isSymbolicLink()) throw new OutsideVaultError();
				if (existing && !(existing.ino === stats.ino && existing.dev === stats.dev)) throw taken();
				if (existing) {
					renameSync(source, target);
					return;
				}
				try {
					linkSync(source, target);
				} catch (error) {
					const code = (error as NodeJS.ErrnoException).code;
					if (code !== "EPERM" && code !== "ENOTSUP" && code !== "EXDEV" && code !== "ENOSYS") throw error;
					if (lstatSync(target, { throwIfNoEntry: false }) !== undefined) throw taken();
					renameSync(source, target);
					return;
				}
				// Both names must lead to the file opened before the old one is removed: another program may have put another
				// file at the old name since the look above, before the link (the link then named that one) or after it (removing
				// the old name then removed that program's save). The name just made, if it leads to the file opened or to the one
				// at the old name, is taken back: that program's file stays there alone, as if it had saved just before the move.
				const linked = lstatSync(target, { throwIfNoEntry: false });
				const atOldName = lstatSync(source, { throwIfNoEntry: false });
				if (!sameFile(linked, stats) || !sameFile(atOldName, stats)) {
					if (linked !== undefined && (sameFile(linked, stats) || sameFile(atOldName, linked))) unlinkSync(target);
					throw atOldName === undefined ? fileMissingError(this.jail.vaultPath(from)) : new ReplacedWhileMovedError("moved");
				}
				unlinkSync(source);
			}),
		);
	}
}

/**
 * Why a trash's move was not made, from what its last look found at the note's name (`found`): nothing (the note
 * gone), another plain file than the one opened (`opened`: replaced by another program), or anything else (a link,
 * a folder, or the name taken in the trash since: not part of the vault).
 */
function trashRefusal(found: Stats | undefined, opened: Stats, vaultPath: string): Error {
	if (found === undefined) return fileMissingError(vaultPath);
	if (found.isFile() && !sameFile(found, opened)) return new ReplacedWhileMovedError("moved to the trash");
	return new OutsideVaultError();
}

/**
 * Writes `text` as UTF-8 into the file open as `fd`, NOTE_TEXT_PIECE_CHARS characters at a time (cut between
 * surrogate pairs, so the bytes are those of the whole): each piece is made into bytes in its own
 * turn of the event loop, between two thread-pool writes. `writeFile` made a 1 MB note's bytes in one
 * piece of 5-8 ms, and a flood of such creates held other clients that long each time. Bytes (a copy
 * of another program's version of a note) go as they are, NOTE_TEXT_PIECE_CHARS at a time.
 */
async function writeInPieces(fd: number, text: string | Buffer, beforeWrite?: () => void): Promise<void> {
	for (let start = 0; start < text.length;) {
		if (start > 0) beforeWrite?.();
		const end = typeof text === "string" ? pieceEnd(text, start, NOTE_TEXT_PIECE_CHARS) : Math.min(text.length, start + NOTE_TEXT_PIECE_CHARS);
		const bytes = typeof text === "string" ? Buffer.from(text.slice(start, end), "utf8") : text.subarray(start, end);
		for (let offset = 0; offset < bytes.length;) offset += (await writeOffLoop(fd, bytes, offset, bytes.length - offset)).bytesWritten;
		start = end;
	}
}

/** `write` through the thread pool, into a file already open. */
const writeOffLoop = promisify(write);

/** Closes `fd` through the thread pool. */
function closeOffLoop(fd: number): Promise<void> {
	return new Promise((resolve) => close(fd, () => resolve()));
}

/** Whether a replaced file is shorter than the `seenLength` bytes read, or empty: truncated by a program rewriting it, its text perhaps still to come. */
function isShortOf(stats: Stats, seenLength: number): boolean {
	return stats.size < seenLength || stats.size === 0;
}

/**
 * The steps in which a file's length grows while one write to it is under way: the kernel copies a
 * write into the page cache a page (or a larger folio, a multiple of it) at a time and moves the end
 * of the file after each, so a read in the middle of another program's write ends at a multiple of
 * this. Seen beside a program rewriting a note in place (one 43 KB write): an edit read the note
 * 32,768 bytes long, mid-line, its last look saw the same, and its rename left 755 of the other
 * program's lines out of the note (kept in a copy) and one cut in two.
 */
export const WRITE_STEP_BYTES = 4096;

/**
 * Whether a file read `length` bytes long (0 or a multiple of WRITE_STEP_BYTES) is most likely
 * another program's rewrite in place still under way (truncated, its text not yet all written):
 * changed in the last EMPTY_NOTE_SETTLE_MS, and neither a file made empty and left so nor the file
 * as `ownWrite` (the stats of this vault's last edit of it) describes it; or read empty and still
 * 0 bytes holding blocks, changed in the last TRUNCATING_NOTE_SETTLE_MS (a truncation not finished).
 */
export function isBeingRewritten(stats: Stats, length = 0, ownWrite?: Stats): boolean {
	// As this vault's own last edit left it (no write since: its change time is the same): whole, not waited for.
	// A client's edits of a note 8,192 bytes long waited 200 ms each after the one before (10 in 2 s).
	if (isAsWritten(stats, ownWrite)) return false;
	// Either way: a file time ahead of this clock (another machine's, on a shared disk) is not waited for without end.
	const age = Math.abs(Date.now() - stats.mtimeMs);
	// Emptied, its old text's blocks not yet let go: ext4 finishes a truncation only once the disk has written the pages it
	// drops, and beside a busy disk the note stayed so 230+ ms at a time (the file system frees the blocks as the truncation ends).
	if (length === 0 && stats.size === 0 && stats.blocks > 0 && age < TRUNCATING_NOTE_SETTLE_MS) return true;
	// A file made empty and never written since (its change time its birth time). Not the file this vault's edit wrote
	// with text: file times move in steps of a clock tick (4 ms here), and another program truncating it within the same
	// tick as our rename made it look so; planned on that empty text, complete_task refused as "not the task".
	const oursWithText = ownWrite !== undefined && sameFile(stats, ownWrite) && ownWrite.size > 0;
	const madeEmpty = length === 0 && !oursWithText && stats.birthtimeMs > 0 && stats.mtimeMs - stats.birthtimeMs < 1;
	return !madeEmpty && age < EMPTY_NOTE_SETTLE_MS;
}

/**
 * Whether `now` is the file exactly as an edit of ours left it (`ours`, its stats then): the same file,
 * length and times, the change time included, which any write or truncation since would have moved.
 */
function isAsWritten(now: Stats, ours: Stats | undefined): boolean {
	return ours !== undefined && sameFile(now, ours) && now.size === ours.size && now.mtimeMs === ours.mtimeMs && now.ctimeMs === ours.ctimeMs;
}

function writeAll(fd: number, bytes: Buffer): void {
	for (let offset = 0; offset < bytes.length;) offset += writeSync(fd, bytes, offset, bytes.length - offset);
}

const NEWLINE = 0x0a;

/** Whether `before` is empty or ends a line, and the last of `suffix`'s bytes ends one. */
function endsLines(before: Buffer, suffix: readonly Buffer[]): boolean {
	let last: Buffer | undefined;
	for (const piece of suffix) if (piece.length > 0) last = piece;
	return (before.length === 0 || before[before.length - 1] === NEWLINE) && last !== undefined && last[last.length - 1] === NEWLINE;
}

/** Whether the file open as `fd`, `size` bytes long, ends in a line end. */
function endsWithNewline(fd: number, size: number): boolean {
	const last = Buffer.alloc(1);
	return size > 0 && readSync(fd, last, 0, 1, size - 1) === 1 && last[0] === NEWLINE;
}
