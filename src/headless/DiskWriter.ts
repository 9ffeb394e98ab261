import { randomBytes } from "node:crypto";
import { isUtf8 } from "node:buffer";
import {
	close,
	closeSync,
	constants as fsConstants,
	fstatSync,
	lstatSync,
	openSync,
	promises as fs,
	readFileSync,
	readSync,
	renameSync,
	rmSync,
	writeSync,
	type Stats,
} from "node:fs";
import * as nodePath from "node:path";
import { LATE_APPEND_RECHECK_MS, NOTE_TEXT_PIECE_CHARS } from "../config/limits";
import { O_NOFOLLOW, OutsideVaultError, type FolderJail } from "../host/FolderJail";
import { pieceEnd } from "../sha256";

/** What one attempt of an edit did: the text the note now has, and the file's stats after our write (null: nothing was written). */
export interface EditResult {
	text: string;
	stats: Stats | null;
	/** Whether the file holds exactly `text` (false when another program's bytes were carried over beside ours). */
	exact: boolean;
}

const CREATE_NEW = fsConstants.O_WRONLY | fsConstants.O_CREAT | fsConstants.O_EXCL;

/**
 * The headless vault's writes to disk, each inside the jail. An edit is one synchronous critical
 * section per note (open, read, compare, write, rename: about twenty system calls, well under a
 * millisecond for a note of a few kilobytes): nothing else in this process can come in between, and
 * a rename's thousand link rewrites cost a thousand short turns of the event loop instead of twenty
 * thousand thread-pool round trips (which the profile showed dominating the rename). Other programs
 * can still write at any moment, so each edit compares at the moment of its write and never
 * overwrites bytes it did not read.
 */
export class DiskWriter {
	constructor(private readonly jail: FolderJail) {}

	/** Descriptors of files just replaced: kept open a moment longer for carryLateAppends, which closes them. */
	private readonly replacedDescriptors = new Set<number>();

	/**
	 * Where the late appends of each file just replaced go: the note's path, moved along when the note is
	 * renamed or trashed in the meantime (another note made at the old path is not theirs).
	 */
	private readonly lateCarries = new Set<{ target: string }>();

	/**
	 * One attempt of an edit of the file at `diskPath`: reads it, runs `fn`, and writes the result
	 * only if the file still holds what was read; null when it changed under us (the caller runs
	 * `fn` again on the fresh text). A change that only adds to the end is appended in place
	 * (O_APPEND), so another program appending at the same moment loses nothing; any other change
	 * replaces the file atomically (temporary file, rename): whole lines another program added at the
	 * end since the note was read go after the edit, and bytes it appended to the old file in the
	 * instant before the rename are carried over.
	 */
	editOnce(diskPath: string, fn: (data: string) => string): EditResult | null {
		const { fd, stats } = this.jail.openSync(diskPath, fsConstants.O_RDONLY);
		try {
			const beforeBytes = readFileSync(fd);
			const before = beforeBytes.toString("utf8");
			const after = fn(before);
			if (after === before) return { text: after, stats: null, exact: true };
			// In place only for a file with one name: appending through a hard link would change the
			// bytes under its other name too (perhaps outside the vault); a replace gives this name its own file.
			// Valid UTF-8 decodes and encodes back to the same bytes (checked without encoding the note again).
			if (stats.nlink === 1 && after.startsWith(before) && isUtf8(beforeBytes)) {
				return this.appendInPlace(diskPath, fd, stats, beforeBytes, after, Buffer.from(after.slice(before.length), "utf8"));
			}
			return this.replaceFile(diskPath, fd, stats, beforeBytes, after);
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
	 */
	private appendInPlace(diskPath: string, readFd: number, read: Stats, beforeBytes: Buffer, after: string, suffix: Buffer): EditResult | null {
		const size = beforeBytes.length;
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
			if (grew && !this.grewByWholeLines(replaced ? fd : readFd, beforeBytes, stats.size, suffix)) return null;
			writeAll(fd, suffix);
			const final = fstatSync(fd);
			const named = lstatSync(diskPath, { throwIfNoEntry: false });
			if (named && named.ino !== final.ino) {
				// Another program saved the note atomically (a new file renamed over it) as we wrote:
				// our bytes went to the file it replaced. If its new text already holds them (it read
				// them first), they landed; if not, the edit is made again on its text.
				let fresh: Buffer | null;
				try {
					fresh = Buffer.from(this.jail.readTextSync(diskPath), "utf8");
				} catch {
					fresh = null;
				}
				if (fresh === null || !fresh.includes(suffix)) return null;
				return { text: after, stats: named, exact: false };
			}
			return { text: after, stats: final, exact: !grew && final.size === size + suffix.length };
		} finally {
			closeSync(fd);
		}
	}

	/** Whether the file read as `beforeBytes` now holds them followed only by whole lines (and both it and `suffix` end lines). */
	private grewByWholeLines(readFd: number, beforeBytes: Buffer, size: number, suffix: Buffer): boolean {
		return this.wholeLinesAdded(readFd, beforeBytes, size, suffix) !== null;
	}

	/**
	 * The whole lines the file read as `beforeBytes` now holds after them, taken from the same read
	 * that checked them (read again, a program rewriting the file a moment later could give half a
	 * line of its new text); null when it holds anything else (and both it and `suffix` must end lines).
	 */
	private wholeLinesAdded(readFd: number, beforeBytes: Buffer, size: number, suffix: Buffer): Buffer | null {
		const newline = 0x0a;
		if (size < beforeBytes.length || (beforeBytes.length > 0 && beforeBytes[beforeBytes.length - 1] !== newline) || suffix[suffix.length - 1] !== newline)
			return null;
		const now = Buffer.alloc(size);
		if (readSync(readFd, now, 0, size, 0) !== size) return null;
		return now[size - 1] === newline && now.subarray(0, beforeBytes.length).equals(beforeBytes) ? now.subarray(beforeBytes.length) : null;
	}

	/** Replaces the file atomically with `after`, if it still holds exactly `beforeBytes` (`old` is the descriptor it was read through). */
	private replaceFile(diskPath: string, old: number, read: Stats, beforeBytes: Buffer, after: string): EditResult | null {
		const folder = nodePath.dirname(diskPath);
		// A short dot-name in the same folder: the rename is atomic, the watcher and listing ignore
		// it, and it fits beside a note whose own name is near the file system's limit.
		const temporary = nodePath.join(folder, `.vault-mcp-${randomBytes(6).toString("hex")}.tmp`);
		const afterBytes = Buffer.from(after, "utf8");
		/** Whole lines another program added at the end after the note was read, written after the edit. */
		let added: Buffer = Buffer.alloc(0);
		let written: Stats;
		try {
			const created = openSync(temporary, CREATE_NEW | O_NOFOLLOW, read.mode & 0o777);
			try {
				writeAll(created, afterBytes);
				// The last look before the rename: same file, same bytes, same real folder.
				this.jail.checkFolderSync(folder);
				const named = lstatSync(diskPath);
				const now = Buffer.alloc(beforeBytes.length + 1);
				const bytesRead = readSync(old, now, 0, now.length, 0);
				if (named.ino !== read.ino) {
					rmSync(temporary, { force: true });
					return null;
				}
				if (bytesRead !== beforeBytes.length || !now.subarray(0, bytesRead).equals(beforeBytes)) {
					// Another program added whole lines at the end since the note was read (a logger): they
					// go after the edit, as for an append (see appendInPlace). Any other change, or a line
					// still being written, and the edit is made again on the fresh text. A program appending
					// every 2 ms otherwise won every race: 4 of 50 property changes went in, after 3 s each.
					// The lines are the bytes checked, from that one read: read again, a program rewriting the
					// note in place a moment later could give half a line of its new text after the edit.
					const size = fstatSync(old).size;
					added = (size > beforeBytes.length ? this.wholeLinesAdded(old, beforeBytes, size, afterBytes) : null) ?? Buffer.alloc(0);
					if (added.length === 0) {
						rmSync(temporary, { force: true });
						return null;
					}
					writeAll(created, added);
				}
				written = fstatSync(created);
			} finally {
				closeSync(created);
			}
			renameSync(temporary, diskPath);
		} catch (error) {
			rmSync(temporary, { force: true });
			throw error;
		}
		// Another program may have appended to the old file in the instant between the last look
		// and the rename: those bytes went to the file just replaced, so add them to the new one, now
		// and once more a moment later (a writer that opened the old file may be descheduled before it writes).
		const seen = Buffer.concat([beforeBytes, added]);
		const carry = { target: diskPath };
		// The edit is made: a note gone, or its folder swapped for a link, since the rename only leaves nothing to carry them to.
		let carried: Buffer;
		try {
			carried = this.carryLateAppends(diskPath, old, seen);
		} catch {
			carried = Buffer.alloc(0);
		}
		this.replacedDescriptors.add(old);
		this.lateCarries.add(carry);
		const carriedBefore = Buffer.concat([seen, carried]);
		setTimeout(() => {
			try {
				this.carryLateAppends(carry.target, old, carriedBefore);
			} catch {
				// The note or its folder went meanwhile: nothing to carry them to.
			} finally {
				this.lateCarries.delete(carry);
				close(old, () => undefined);
			}
		}, LATE_APPEND_RECHECK_MS).unref();
		const exact = added.length === 0 && carried.length === 0;
		// The file written, as its name shows it now; if the name no longer leads to it (gone, or through a
		// folder swapped for a link), as it was written: the edit was made all the same.
		let named: Stats | undefined;
		try {
			named = lstatSync(diskPath, { throwIfNoEntry: false });
		} catch {
			named = undefined;
		}
		const stats = named !== undefined && sameFile(named, written) ? named : written;
		return { text: after, stats, exact: exact && stats.size === afterBytes.length };
	}

	/**
	 * Bytes another program appended to a replaced file (`old`, read as `seen`) after it was read:
	 * added at the end of the note as it is now, and returned. Only an append is carried over: if
	 * the old file was rewritten instead, its tail is not an addition to our text. Only from a file no
	 * name leads to any more: bytes written under another name (a hard link, perhaps outside the vault
	 * or an excluded note, or another note) are not lost, and are not this note's. And only into a
	 * note with one name: appending through a hard link would write under its other name too.
	 */
	private carryLateAppends(diskPath: string, old: number, seen: Buffer): Buffer {
		const late = fstatSync(old);
		if (late.nlink !== 0 || late.size <= seen.length) return Buffer.alloc(0);
		// One read, checked and carried: read twice, a program rewriting the file in between could give
		// bytes that never followed `seen` (or, truncated, zeros).
		const now = Buffer.alloc(late.size);
		if (readSync(old, now, 0, now.length, 0) !== now.length || !now.subarray(0, seen.length).equals(seen)) return Buffer.alloc(0);
		const extra = now.subarray(seen.length);
		const { fd, stats } = this.jail.openSync(diskPath, fsConstants.O_WRONLY | fsConstants.O_APPEND);
		try {
			if (stats.nlink !== 1) return Buffer.alloc(0);
			writeAll(fd, extra);
		} finally {
			closeSync(fd);
		}
		return extra;
	}

	/** The late appends of a note just replaced at `from` now go to `to` (the note was moved there). */
	private moveLateCarries(from: string, to: string): void {
		for (const carry of this.lateCarries) if (carry.target === from) carry.target = to;
	}

	/** Makes a new file holding `data`, never replacing anything (exclusive, not following links); folders made as needed. */
	async create(diskPath: string, data: string): Promise<Stats> {
		await this.jail.makeFolders(nodePath.dirname(diskPath));
		let handle;
		try {
			// Exclusive and not following links: fails if another program created the file a moment ago, never overwrites it.
			handle = await fs.open(diskPath, CREATE_NEW | O_NOFOLLOW, 0o666);
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code === "EEXIST" && (await fs.lstat(diskPath)).isSymbolicLink()) throw new OutsideVaultError();
			throw error;
		}
		let made: Stats;
		try {
			await writeInPieces(handle, data);
			made = await handle.stat();
		} finally {
			await handle.close();
		}
		// A folder swapped for a link while the file was being made: take back what was written there, if
		// the name still leads to it. Through the link it may name another file, outside the vault: left alone.
		if (!(await this.jail.isFolderReal(nodePath.dirname(diskPath)))) {
			if (sameFile(await fs.lstat(diskPath).catch(() => null), made)) await fs.rm(diskPath, { force: true });
			throw new OutsideVaultError();
		}
		return fs.lstat(diskPath);
	}

	/** Copies a file's bytes to a new file (never replacing one), both inside the jail. */
	async copy(from: string, to: string): Promise<void> {
		const bytes = await this.jail.readFile(from);
		await this.jail.makeFolders(nodePath.dirname(to));
		await fs.writeFile(to, bytes, { flag: CREATE_NEW | O_NOFOLLOW });
	}

	/**
	 * Moves a file into `trashFolder` under its own name, or with a number added when that name is
	 * taken there. The name is taken first (an empty file made exclusively), so nothing already in
	 * the trash is ever replaced; the file must be a plain file where its path says.
	 */
	async trash(diskPath: string, trashFolder: string, basename: string, extension: string): Promise<void> {
		const { handle, stats } = await this.jail.open(diskPath, fsConstants.O_RDONLY);
		await handle.close();
		await this.jail.makeFolders(trashFolder);
		const dot = extension === "" ? "" : `.${extension}`;
		for (let number = 0; ; number++) {
			const target = nodePath.join(trashFolder, `${basename}${number === 0 ? "" : ` ${number}`}${dot}`);
			let placeholder: Stats;
			try {
				const made = await fs.open(target, CREATE_NEW | O_NOFOLLOW, 0o600);
				try {
					placeholder = await made.stat();
				} finally {
					await made.close();
				}
			} catch (error) {
				if ((error as NodeJS.ErrnoException).code === "EEXIST") continue;
				throw error;
			}
			try {
				// The last look before the move: still a plain file, in a real folder, going to a real trash folder
				// (swapped for a link since it was made, the note would leave the vault through it).
				await this.jail.checkFolder(trashFolder);
				await this.jail.checkFolder(nodePath.dirname(diskPath));
				if (!(await fs.lstat(diskPath)).isFile()) throw new OutsideVaultError();
				await fs.rename(diskPath, target);
				this.moveLateCarries(diskPath, target);
			} catch (error) {
				// Only the name taken, if it still leads to it: through a link it may name another file, outside the vault.
				if (sameFile(await fs.lstat(target).catch(() => null), placeholder)) await fs.rm(target, { force: true });
				throw error;
			}
			// The trash folder swapped for a link while the note was moved: put it back where it was, if the name still leads to it.
			if (!(await this.jail.isFolderReal(trashFolder))) {
				if (sameFile(await fs.lstat(target).catch(() => null), stats) && (await fs.lstat(diskPath).catch(() => null)) === null)
					await fs.rename(target, diskPath).then(
						() => this.moveLateCarries(target, diskPath),
						() => undefined,
					);
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
	 * Returns the moved file's stats.
	 */
	async move(from: string, to: string): Promise<Stats> {
		const { handle, stats } = await this.jail.open(from, fsConstants.O_RDONLY);
		await handle.close();
		await this.jail.makeFolders(nodePath.dirname(to));
		await this.jail.checkFolder(nodePath.dirname(from));
		await this.moveWithoutReplacing(from, to, stats);
		this.moveLateCarries(from, to);
		// A folder swapped for a link while the file was moved: put it back where it was, if the new name still
		// leads to it. Through the link it may name another file, outside the vault, which must not be moved in.
		if (!(await this.jail.isFolderReal(nodePath.dirname(to)))) {
			if (sameFile(await fs.lstat(to).catch(() => null), stats))
				await fs.rename(to, from).then(
					() => this.moveLateCarries(to, from),
					() => undefined,
				);
			throw new OutsideVaultError();
		}
		return fs.lstat(to);
	}

	private async moveWithoutReplacing(from: string, to: string, stats: Stats): Promise<void> {
		const taken = () => Object.assign(new Error(`File already exists: ${this.jail.vaultPath(to)}`), { code: "EEXIST" });
		const existing = await fs.lstat(to).catch(() => null);
		// A link there is not part of the vault: refused like any path through a link, never named as taken.
		if (existing?.isSymbolicLink()) throw new OutsideVaultError();
		if (existing && !(existing.ino === stats.ino && existing.dev === stats.dev)) throw taken();
		if (existing) {
			await fs.rename(from, to);
			return;
		}
		try {
			await fs.link(from, to);
		} catch (error) {
			const code = (error as NodeJS.ErrnoException).code;
			if (code !== "EPERM" && code !== "ENOTSUP" && code !== "EXDEV" && code !== "ENOSYS") throw error;
			if (
				await fs.lstat(to).then(
					() => true,
					() => false,
				)
			)
				throw taken();
			await fs.rename(from, to);
			return;
		}
		await fs.unlink(from);
	}
}

/**
 * Writes `text` as UTF-8 through `handle`, NOTE_TEXT_PIECE_CHARS characters at a time (cut between
 * surrogate pairs, so the bytes are those of the whole): each piece is made into bytes in its own
 * turn of the event loop, between two thread-pool writes. `writeFile` made a 1 MB note's bytes in one
 * piece of 5-8 ms, and a flood of such creates held other clients that long each time.
 */
async function writeInPieces(handle: fs.FileHandle, text: string): Promise<void> {
	for (let start = 0; start < text.length;) {
		const end = pieceEnd(text, start, NOTE_TEXT_PIECE_CHARS);
		const bytes = Buffer.from(text.slice(start, end), "utf8");
		for (let offset = 0; offset < bytes.length;) offset += (await handle.write(bytes, offset, bytes.length - offset)).bytesWritten;
		start = end;
	}
}

/** Whether `found` (an lstat, or null) is the file `ours` describes: the same inode on the same device. */
function sameFile(found: Stats | null, ours: Stats): boolean {
	return found !== null && found.isFile() && found.ino === ours.ino && found.dev === ours.dev;
}

function writeAll(fd: number, bytes: Buffer): void {
	for (let offset = 0; offset < bytes.length;) offset += writeSync(fd, bytes, offset, bytes.length - offset);
}
