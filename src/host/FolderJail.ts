import { MAX_FOLDERS_SEARCHED, OPEN_ATTEMPTS } from "../config/limits";
import { normalizeVaultPath } from "../paths/spelling";
import { NoteTooLargeError } from "./NoteTooLargeError";
import { removeWhereMade, sameFile } from "./madeFile";
import {
	closeSync,
	constants as fsConstants,
	existsSync,
	fstatSync,
	lstatSync,
	mkdirSync,
	openSync,
	promises as fs,
	readlinkSync,
	readSync,
	realpathSync,
	renameSync,
	rmSync,
	type Dirent,
	type Stats,
} from "node:fs";
import type { FileHandle } from "node:fs/promises";
import * as nodePath from "node:path";
import { fileExistsError } from "./fileErrors";

/** Error code of a path the jail refuses; the message never says what, if anything, is behind it. */
export const OUTSIDE_VAULT = "EOUTSIDEVAULT";

/** Opening a symbolic link fails instead of following it (0 where the platform has no such flag; the checks below still hold). */
export const O_NOFOLLOW: number = fsConstants.O_NOFOLLOW ?? 0;

/** Making a new file: never over an existing one, never through a link in its name. */
const CREATE_NEW = fsConstants.O_WRONLY | fsConstants.O_CREAT | fsConstants.O_EXCL;

/** Opening only a folder (0 where the platform has no such flag). */
const O_DIRECTORY: number = fsConstants.O_DIRECTORY ?? 0;

/**
 * Where an open descriptor's folder is reachable by a path (`<this>/<fd>/<name>` is `name` in that
 * very folder, whatever its path leads to now): Linux's /proc/self/fd; null elsewhere.
 */
const OPEN_FOLDERS_BY_PATH: string | null = process.platform === "linux" && existsSync("/proc/self/fd") ? "/proc/self/fd" : null;

/**
 * Opening never waits (0 where the platform has no such flag). A regular file ignores it; a named
 * pipe another program renamed over a note would otherwise hold the open until a writer came: the
 * synchronous read stopped the whole server, the asynchronous one a thread of the pool. Opened at
 * once, it is then refused as not a plain file.
 */
const O_NONBLOCK: number = fsConstants.O_NONBLOCK ?? 0;

/** A terminal opened never becomes the server's controlling terminal (0 where the platform has no such flag). */
const O_NOCTTY: number = fsConstants.O_NOCTTY ?? 0;

/**
 * A path whose bytes are not where the vault says they are: a symbolic link (in the name or in a
 * folder above it), something that is not a plain file or folder, or a path that climbs out. The
 * message never says what, if anything, is on the other side.
 */
export class OutsideVaultError extends Error {
	readonly code = OUTSIDE_VAULT;
	constructor() {
		super("That path is not part of the vault this server gives access to.");
		this.name = "OutsideVaultError";
	}
}

/** Another program kept replacing the file while it was being opened: nothing was read or written. */
class NoteKeptChangingError extends Error {
	readonly code = "EWRITECONFLICT";
	constructor() {
		super("The note kept changing while it was being opened (another program is saving it); nothing was read or written. Try again in a moment.");
		this.name = "NoteKeptChangingError";
	}
}

/** A file opened inside the jail, and what it was when opened. */
export interface JailedHandle {
	handle: FileHandle;
	stats: Stats;
}

/** A file opened synchronously inside the jail: its descriptor, and what it was when opened. */
export interface JailedDescriptor {
	fd: number;
	stats: Stats;
}

/**
 * The vault folder's jail, the one set of rules both hosts go through. Nothing outside the vault's
 * real root is read or written, and no symbolic link below it is ever followed: a file is opened
 * only with `open`/`openSync` (not following a link in its name, a plain file, every folder above
 * it a real folder before and after the open, and the same file its path names once open), new
 * folders are made one part at a time with `makeFolders`, and `check` answers for a host that moves
 * bytes itself (Obsidian's adapter follows links, so the plugin asks `check` right before each
 * read or write). `findLinks` lists the links so they can be hidden and named to the person.
 * Node's file system only: desktop Obsidian and headless.
 */
export class FolderJail {
	private constructor(
		/** The vault folder's real path (symbolic links above it resolved once, when the jail is made). */
		readonly root: string,
		/** OPEN_FOLDERS_BY_PATH where it names an open file by its real path (`namesOpenFilesByRealPath`), else null. */
		private readonly openFileNames: string | null,
	) {}

	/** A jail over the folder at `basePath` (its own real path resolved once). */
	static async open(basePath: string): Promise<FolderJail> {
		const root = await fs.realpath(nodePath.resolve(basePath));
		return new FolderJail(root, (await namesOpenFilesByRealPath(root)) ? OPEN_FOLDERS_BY_PATH : null);
	}

	/** The absolute path on disk for a vault path, lexically (links are checked where bytes move); refuses a path that would leave the vault folder. */
	diskPath(vaultPath: string): string {
		const normalized = normalizeVaultPath(vaultPath);
		const diskPath = nodePath.resolve(this.root, normalized === "/" ? "." : normalized);
		if (!this.isBelowRoot(diskPath)) throw new OutsideVaultError();
		return diskPath;
	}

	/** The vault path of a disk path below the root (Unicode NFC, forward slashes). */
	vaultPath(diskPath: string): string {
		return nodePath.relative(this.root, diskPath).split(nodePath.sep).join("/").normalize("NFC");
	}

	/** True for the root and every path lexically below it. */
	isBelowRoot(diskPath: string): boolean {
		return diskPath === this.root || diskPath.startsWith(this.root + nodePath.sep);
	}

	/** Resolves when every part of the vault path that exists is a real folder or plain file where its path says; rejects with OutsideVaultError otherwise. */
	async check(vaultPath: string): Promise<void> {
		const lexical = nodePath.resolve(this.root, vaultPath === "/" ? "." : vaultPath);
		if (!this.isBelowRoot(lexical)) throw new OutsideVaultError();
		for (let current = lexical; ; current = nodePath.dirname(current)) {
			let stats;
			try {
				stats = await fs.lstat(current);
			} catch (error) {
				if ((error as NodeJS.ErrnoException).code === "ENOENT" && current !== this.root) continue;
				throw new OutsideVaultError();
			}
			if (!stats.isFile() && !stats.isDirectory()) throw new OutsideVaultError();
			if ((await fs.realpath(current)) !== current) throw new OutsideVaultError();
			return;
		}
	}

	/** True when the folder (or, if it does not exist yet, its nearest existing ancestor) is where its path says: no link on the way. */
	async isFolderReal(folder: string): Promise<boolean> {
		if (!this.isBelowRoot(folder)) return false;
		for (let current = folder; ; current = nodePath.dirname(current)) {
			try {
				return (await fs.realpath(current)) === current && (await fs.lstat(current)).isDirectory();
			} catch (error) {
				if ((error as NodeJS.ErrnoException).code !== "ENOENT" || current === this.root) return false;
			}
		}
	}

	/** `isFolderReal` without the thread pool: two system calls, for the write path's synchronous edits. */
	isFolderRealSync(folder: string): boolean {
		if (!this.isBelowRoot(folder)) return false;
		for (let current = folder; ; current = nodePath.dirname(current)) {
			try {
				return realpathSync.native(current) === current && lstatSync(current).isDirectory();
			} catch (error) {
				if ((error as NodeJS.ErrnoException).code !== "ENOENT" || current === this.root) return false;
			}
		}
	}

	/** Rejects with OutsideVaultError unless `isFolderReal`. */
	async checkFolder(folder: string): Promise<void> {
		if (!(await this.isFolderReal(folder))) throw new OutsideVaultError();
	}

	/** Throws OutsideVaultError unless `isFolderRealSync`. */
	checkFolderSync(folder: string): void {
		if (!this.isFolderRealSync(folder)) throw new OutsideVaultError();
	}

	/**
	 * Opens a file only where it really is: no link in its folders (checked before the open, so a
	 * link already there is not opened through), not a link itself (O_NOFOLLOW), a plain file, and
	 * once open the very file its path names, in real folders: where the system names an open file
	 * by its real path (`openFileNames`) that name must be `diskPath` exactly; elsewhere the
	 * folders are checked again and the path must name the same file (inode). A path replaced
	 * atomically, or whose folder was swapped, between the open and the check is opened again, up to
	 * OPEN_ATTEMPTS.
	 */
	async open(diskPath: string, flags: number, mode?: number): Promise<JailedHandle> {
		const folder = nodePath.dirname(diskPath);
		for (let attempt = 1; ; attempt++) {
			await this.checkFolder(folder);
			let handle: FileHandle;
			try {
				handle = await fs.open(diskPath, flags | O_NOFOLLOW | O_NONBLOCK, mode);
			} catch (error) {
				throw refusedOpen(error);
			}
			try {
				const stats = await handle.stat();
				if (!stats.isFile()) throw new OutsideVaultError();
				const namedHere = await this.isOpenedAt(handle.fd, diskPath);
				if (namedHere === true) return { handle, stats };
				await this.checkFolder(folder);
				if (isStillNamed(await fs.lstat(diskPath), stats, attempt, namedHere)) return { handle, stats };
			} catch (error) {
				await handle.close();
				throw error;
			}
			await handle.close();
		}
	}

	/** `open` without the thread pool (the same checks), for the write path's synchronous edits: the caller closes `fd`. */
	openSync(diskPath: string, flags: number, mode?: number): JailedDescriptor {
		const folder = nodePath.dirname(diskPath);
		for (let attempt = 1; ; attempt++) {
			this.checkFolderSync(folder);
			let fd: number;
			try {
				fd = openSync(diskPath, flags | O_NOFOLLOW | O_NONBLOCK, mode);
			} catch (error) {
				throw refusedOpen(error);
			}
			try {
				const stats = fstatSync(fd);
				if (!stats.isFile()) throw new OutsideVaultError();
				const namedHere = this.isOpenedAtSync(fd, diskPath);
				if (namedHere === true) return { fd, stats };
				this.checkFolderSync(folder);
				if (isStillNamed(lstatSync(diskPath), stats, attempt, namedHere)) return { fd, stats };
			} catch (error) {
				closeSync(fd);
				throw error;
			}
			closeSync(fd);
		}
	}

	/**
	 * `openSync` for reading, in four system calls where the system names an open file by its real
	 * path (`openFileNames`): what the path names must be a plain file (lstat), then it is opened (not
	 * following a link in its name, never waiting, never becoming a terminal of the server's), and
	 * before a byte of it is read it must be a plain file the system names exactly `diskPath`, in a
	 * folder below the root. Where `openSync` walks the folder's real path before the open (a readlink
	 * for every folder from the disk's root down), this opens at once: opening a plain file has no
	 * effect a link followed could carry out of the vault, and the name refuses what was opened
	 * through one. Anything else (not a plain file, an open that fails, a link, a file replaced) is
	 * left to `openSync`, which refuses, retries or reports it as always. A cold search result or a
	 * note read for the index is the common case this is for.
	 */
	private openToReadSync(diskPath: string): JailedDescriptor {
		if (this.openFileNames !== null && this.isBelowRoot(nodePath.dirname(diskPath))) {
			let fd: number | null = null;
			try {
				// Only what is a plain file now is opened at once: an open alone has effects for a named pipe (a program
				// waiting to write into it goes on, and dies of the closed pipe) or a device, and one outside the vault
				// behind a folder swapped for a link was opened before the name refused it. The rest goes to `openSync`,
				// which looks at the folders first, as before.
				if (!lstatSync(diskPath).isFile()) throw new OutsideVaultError();
				fd = openSync(diskPath, fsConstants.O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY);
				const stats = fstatSync(fd);
				if (stats.isFile() && this.isOpenedAtSync(fd, diskPath)) return { fd, stats };
			} catch {
				// `openSync` below meets the same cause and answers it as it always has.
			}
			if (fd !== null) closeSync(fd);
		}
		return this.openSync(diskPath, fsConstants.O_RDONLY);
	}

	/**
	 * Whether the system names the file open as `fd` exactly `diskPath` now, null where it cannot tell (`openFileNames`): its
	 * real path, so every folder above it is the real folder the path names, and the file is still
	 * there under that name. A file opened through a link is named where it really is; one removed
	 * or replaced since the open is named "… (deleted)". Unlike a check of the path after the open
	 * (a folder may be a link again by the time the path is looked up, naming the file opened through
	 * it), this is a fact about the file opened itself.
	 */
	private isOpenedAtSync(fd: number, diskPath: string): boolean | null {
		if (this.openFileNames === null) return null;
		const name = `${this.openFileNames}/${fd}`;
		try {
			return isNamedExactly(readlinkSync(name), diskPath) ?? readlinkSync(name, { encoding: "buffer" }).equals(Buffer.from(diskPath));
		} catch {
			return false;
		}
	}

	/** `isOpenedAtSync` through the thread pool. */
	private async isOpenedAt(fd: number, diskPath: string): Promise<boolean | null> {
		if (this.openFileNames === null) return null;
		const name = `${this.openFileNames}/${fd}`;
		try {
			return isNamedExactly(await fs.readlink(name), diskPath) ?? (await fs.readlink(name, { encoding: "buffer" })).equals(Buffer.from(diskPath));
		} catch {
			return false;
		}
	}

	/** A file's bytes, read through `open`; NoteTooLargeError past `maxBytes`. */
	async readFile(diskPath: string, maxBytes = Infinity): Promise<Buffer> {
		const { handle, stats } = await this.open(diskPath, fsConstants.O_RDONLY);
		try {
			// Known from its size when opened; a file that grew past it while read is refused too, once one byte past it is
			// read (read whole, a settings file grown to 1.5 GB after the size was known was read into memory first).
			if (stats.size > maxBytes) throw new NoteTooLargeError(stats.size);
			return await handleBytesToEnd(handle, stats.size, maxBytes);
		} finally {
			await handle.close();
		}
	}

	/** A file's text, read through `openToReadSync`. */
	readTextSync(diskPath: string, maxBytes = Infinity): string {
		const { fd, stats } = this.openToReadSync(diskPath);
		try {
			// As `readFile`: the caller chose this read by the size it knew, which another program may have changed since.
			if (stats.size > maxBytes) throw new NoteTooLargeError(stats.size);
			return bytesToEnd(fd, stats.size, maxBytes).toString("utf8");
		} finally {
			closeSync(fd);
		}
	}

	/** True when the jail refused a path because something there is not part of the vault (a link), not because of a race. */
	async isRefusedForGood(diskPath: string): Promise<boolean> {
		if (!(await this.isFolderReal(nodePath.dirname(diskPath)))) return true;
		return fs.lstat(diskPath).then(
			(stats) => !stats.isFile(),
			() => false,
		);
	}

	/**
	 * Removes an empty folder of the vault (never recursive: a folder that holds anything stays, and
	 * rejects), never the root, never through a link. Where the system names an open folder by a path
	 * (Linux's /proc/self/fd), each folder from the root down is opened without following a link and
	 * the folder removed by its name in the last one opened: a folder above it swapped for a link
	 * after it was looked at cannot lead the removal out of the vault (checked by path and then
	 * removed by path, an empty folder outside was removed). Elsewhere it is checked, then removed.
	 */
	async removeEmptyFolder(folder: string): Promise<void> {
		const parts = this.foldersDown(folder).map((down) => nodePath.basename(down));
		const name = parts.pop();
		if (name === undefined) throw new OutsideVaultError();
		if (!OPEN_FOLDERS_BY_PATH) {
			await this.checkFolder(folder);
			await fs.rmdir(folder);
			return;
		}
		let parent = await fs.open(this.root, fsConstants.O_RDONLY | O_DIRECTORY);
		try {
			for (const part of parts) {
				const next = await fs
					.open(nodePath.join(OPEN_FOLDERS_BY_PATH, String(parent.fd), part), fsConstants.O_RDONLY | O_DIRECTORY | O_NOFOLLOW)
					.catch((error: unknown) => {
						throw refusedOpen(error);
					});
				await parent.close();
				parent = next;
			}
			await fs.rmdir(nodePath.join(OPEN_FOLDERS_BY_PATH, String(parent.fd), name)).catch((error: unknown) => {
				throw refusedOpen(error);
			});
		} finally {
			await parent.close();
		}
	}

	/**
	 * Runs `act` with a way to name an entry of `folder` that stays in that very folder, whatever its
	 * path leads to a moment later. Where the system names an open folder by a path (`openFileNames`),
	 * the folder is opened (not following a link in its name), must then be named exactly `folder`,
	 * below the root, and each entry is named through it (`/proc/self/fd/<fd>/<name>`): a folder swapped
	 * for a link out of the vault after that look cannot lead `act`'s system calls out of the vault.
	 * Checked by path and then acted on by path through the thread pool, a swap while the call waited
	 * for a thread made, moved or removed files outside. Elsewhere the folder is checked
	 * (`checkFolderSync`) and each entry named by its path. Synchronous: a few metadata calls.
	 */
	inFolderSync<T>(folder: string, act: (entry: (name: string) => string) => T): T {
		if (!this.isBelowRoot(folder)) throw new OutsideVaultError();
		const byPath = this.openFileNames;
		if (byPath === null) {
			this.checkFolderSync(folder);
			return act((name) => nodePath.join(folder, name));
		}
		const fd = openFolderSync(folder);
		try {
			if (this.isOpenedAtSync(fd, folder) !== true) throw new OutsideVaultError();
			return act((name) => nodePath.join(byPath, String(fd), name));
		} finally {
			closeSync(fd);
		}
	}

	/**
	 * Makes a new, empty file at `diskPath` (exclusive: never over anything, never through a link)
	 * in its folder held open (`inFolderSync`), opened for writing; the caller closes `fd`. The file
	 * made must be the one its path leads to, in a real folder (a swap after the open, or a system
	 * where the folder is not held open), or it is removed where it was made and refused.
	 */
	createFileSync(diskPath: string, mode?: number): JailedDescriptor {
		const folder = nodePath.dirname(diskPath);
		const name = nodePath.basename(diskPath);
		let fd: number;
		try {
			fd = this.inFolderSync(folder, (entry) => openSync(entry(name), CREATE_NEW | O_NOFOLLOW, mode));
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
			if (lstatSync(diskPath, { throwIfNoEntry: false })?.isSymbolicLink() === true) throw new OutsideVaultError();
			// Named by the vault path: the system's message would name the open folder's /proc path.
			throw fileExistsError(this.vaultPath(diskPath));
		}
		let made: Stats | null = null;
		try {
			made = fstatSync(fd);
			if (this.isFolderRealSync(folder) && sameFile(lstatSync(diskPath, { throwIfNoEntry: false }), made)) return { fd, stats: made };
		} catch {
			// Refused below.
		}
		try {
			// Ours either way: through a link still there, its name leads to it; swapped back, it is found by its descriptor.
			if (made !== null && sameFile(lstatSync(diskPath, { throwIfNoEntry: false }), made)) rmSync(diskPath, { force: true });
			else if (made !== null) removeWhereMade(fd, made);
		} catch {
			// Its folder gone meanwhile: nothing left to remove there.
		} finally {
			closeSync(fd);
		}
		throw new OutsideVaultError();
	}

	/** Removes the plain file at `diskPath` if it is the file `ours` describes, in its folder held open (`inFolderSync`); never through a link. */
	removeIfSameSync(diskPath: string, ours: Pick<Stats, "ino" | "dev">): void {
		try {
			this.inFolderSync(nodePath.dirname(diskPath), (entry) => {
				const at = entry(nodePath.basename(diskPath));
				if (sameFile(lstatSync(at, { throwIfNoEntry: false }), ours)) rmSync(at, { force: true });
			});
		} catch {
			// Its folder gone or swapped for a link: nothing of the vault's to remove there.
		}
	}

	/**
	 * Renames `from` to `to` (replacing what is there, as rename does) with both folders held open
	 * (`inFolderSync`), if `isMoved` accepts what `from` and `to` name (their lstat) at that moment;
	 * false when it does not.
	 */
	moveFileSync(from: string, to: string, isMoved: (found: Stats | undefined, there: Stats | undefined) => boolean): boolean {
		return this.inFolderSync(nodePath.dirname(from), (fromEntry) =>
			this.inFolderSync(nodePath.dirname(to), (toEntry) => {
				const source = fromEntry(nodePath.basename(from));
				const target = toEntry(nodePath.basename(to));
				if (!isMoved(lstatSync(source, { throwIfNoEntry: false }), lstatSync(target, { throwIfNoEntry: false }))) return false;
				renameSync(source, target);
				return true;
			}),
		);
	}

	/**
	 * Makes a folder and its missing parents one at a time, refusing at the first part that is a link
	 * or not a folder. Where the system names an open folder by a path (`openFileNames`), walked down
	 * from the root held open: each folder is made through the thread pool by its name in its parent
	 * held open (`/proc/self/fd/<fd>/<name>`, resolved in that very folder whatever its path leads to
	 * by then), then opened there, not following a link. Made on the event loop, a note 500 folders
	 * deep held it 50-220 ms of CPU in one piece (a mkdir each); each parent opened by its whole path,
	 * the walks also grew with the depth.
	 */
	async makeFolders(folder: string): Promise<void> {
		// There already, a real folder (the common case: a note made beside others): nothing to make, two system calls.
		if (this.isFolderThereSync(folder)) return;
		const byPath = this.openFileNames;
		if (byPath === null) {
			// Elsewhere than Linux: each parent checked by its path (inFolderSync), then the folder made by its path.
			for (const current of this.foldersDown(folder))
				this.inFolderSync(nodePath.dirname(current), (entry) => {
					const at = entry(nodePath.basename(current));
					try {
						mkdirSync(at);
					} catch (error) {
						if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
					}
					this.refuseUnlessFolder(current, lstatSync(at));
				});
		} else {
			let held = this.openRootSync();
			try {
				for (const current of this.foldersDown(folder)) {
					const at = nodePath.join(byPath, String(held), nodePath.basename(current));
					try {
						await fs.mkdir(at);
					} catch (error) {
						if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
					}
					this.refuseUnlessFolder(current, lstatSync(at));
					const next = openFolderSync(at);
					closeSync(held);
					held = next;
				}
			} finally {
				closeSync(held);
			}
		}
		this.checkFolderSync(folder);
	}

	/**
	 * Makes one folder whose parent is a real folder of the vault; true when this call made it, false
	 * when it was there already (made by another client or the person meanwhile). Never through a
	 * link: made in its parent held open (`inFolderSync`).
	 */
	async makeFolder(folder: string): Promise<boolean> {
		if (!this.isBelowRoot(folder) || folder === this.root) throw new OutsideVaultError();
		const parent = nodePath.dirname(folder);
		const makeHere = (): void => this.inFolderSync(parent, (entry) => mkdirSync(entry(nodePath.basename(folder))));
		let made = true;
		try {
			try {
				makeHere();
			} catch (error) {
				// Its parent removed by someone else since it was seen: made again (theirs to remove), then this one.
				if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
				await this.makeFolders(parent);
				makeHere();
			}
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
			made = false;
		}
		this.refuseUnlessFolder(folder, await fs.lstat(folder));
		return made;
	}

	/** Whether `folder` is there and a real folder; false for a path through a file (ENOTDIR: refused by name on the way down). */
	private isFolderThereSync(folder: string): boolean {
		try {
			return lstatSync(folder, { throwIfNoEntry: false })?.isDirectory() === true && this.isFolderRealSync(folder);
		} catch {
			return false;
		}
	}

	/** The vault's root folder, open, and named by the system exactly as the root. */
	private openRootSync(): number {
		const fd = openFolderSync(this.root);
		if (this.isOpenedAtSync(fd, this.root) === true) return fd;
		closeSync(fd);
		throw new OutsideVaultError();
	}

	/** Vault paths of the symbolic links under the root (not followed), dot-folders skipped. */
	async findLinks(): Promise<string[]> {
		const links: string[] = [];
		const queue: string[] = [""];
		for (let searched = 0; queue.length > 0 && searched < MAX_FOLDERS_SEARCHED; searched++) {
			const folder = queue.shift() ?? "";
			let entries: Dirent[];
			try {
				entries = await fs.readdir(nodePath.join(this.root, folder), { withFileTypes: true });
			} catch {
				continue;
			}
			for (const entry of entries) {
				if (entry.name.startsWith(".")) continue;
				const path = folder === "" ? entry.name.normalize("NFC") : `${folder}/${entry.name.normalize("NFC")}`;
				if (entry.isSymbolicLink()) links.push(path);
				else if (entry.isDirectory()) queue.push(path);
			}
		}
		return links.sort();
	}

	/** The folders from just below the root down to `folder`, each a disk path. */
	private foldersDown(folder: string): string[] {
		if (!this.isBelowRoot(folder)) throw new OutsideVaultError();
		const parts = nodePath
			.relative(this.root, folder)
			.split(nodePath.sep)
			.filter((part) => part !== "");
		return parts.map((_part, index) => nodePath.join(this.root, ...parts.slice(0, index + 1)));
	}

	private refuseUnlessFolder(diskPath: string, stats: Stats): void {
		if (stats.isDirectory()) return;
		if (stats.isSymbolicLink()) throw new OutsideVaultError();
		throw Object.assign(new Error(`Not a folder: ${this.vaultPath(diskPath)}`), { code: "ENOTDIR" });
	}
}

/**
 * The bytes of an open plain file from its start to its end, read by the size it had when opened
 * (`size`) and one byte more, which only a file grown since fills: one system call for most notes,
 * where `readFileSync(fd)` asked the size again first (a search reads each result note the text
 * cache does not hold). A read that stops short of `size` is read on (some file systems return
 * less than asked); one short of what was asked at or past `size` is the end.
 * NoteTooLargeError once past `maxBytes`.
 */
function bytesToEnd(fd: number, size: number, maxBytes: number): Buffer {
	let bytes = Buffer.allocUnsafe(Math.min(size, maxBytes) + 1);
	let length = 0;
	for (;;) {
		const asked = bytes.length - length;
		const read = readSync(fd, bytes, length, asked, null);
		length += read;
		if (length > maxBytes) throw new NoteTooLargeError(length);
		if (read === 0 || (read < asked && length >= size)) return bytes.subarray(0, length);
		if (length < bytes.length) continue;
		const grown = Buffer.allocUnsafe(Math.min(maxBytes + 1, length * 2));
		bytes.copy(grown, 0, 0, length);
		bytes = grown;
	}
}

/** `bytesToEnd` through a file handle, each read awaited (`readFile`'s, where the whole file was read before its size was compared). */
async function handleBytesToEnd(handle: FileHandle, size: number, maxBytes: number): Promise<Buffer> {
	let bytes = Buffer.allocUnsafe(Math.min(size, maxBytes) + 1);
	let length = 0;
	for (;;) {
		const asked = bytes.length - length;
		const { bytesRead } = await handle.read(bytes, length, asked, null);
		length += bytesRead;
		if (length > maxBytes) throw new NoteTooLargeError(length);
		if (bytesRead === 0 || (bytesRead < asked && length >= size)) return bytes.subarray(0, length);
		if (length < bytes.length) continue;
		const grown = Buffer.allocUnsafe(Math.min(maxBytes + 1, length * 2));
		bytes.copy(grown, 0, 0, length);
		bytes = grown;
	}
}

/**
 * Whether a file's name as the system gives it, read as UTF-8 (`named`), is exactly the bytes of `diskPath`; null when
 * the text cannot tell, and the name must be read and compared as bytes. Valid UTF-8 decodes to one text only and a
 * text (with no lone surrogate) encodes to that UTF-8 only, so equal texts are equal bytes, and a text with a lone
 * surrogate equals no decoded name, as its bytes (U+FFFD's) equal no name that decoded without U+FFFD. A name that is
 * not valid UTF-8 decodes with U+FFFD in it, as does a name holding U+FFFD itself: only then are bytes read (a second
 * readlink, a moment later: a name changed in between is one a single readlink could have met then as well). A path
 * asked with a lone surrogate is opened as U+FFFD's bytes, so its name holds U+FFFD and the bytes decide, as before. Two
 * strings compared, where the bytes took a buffer for the name and one for `diskPath` each time (a search's reads).
 */
function isNamedExactly(named: string, diskPath: string): boolean | null {
	return named.includes("\uFFFD") ? null : named === diskPath;
}

/**
 * Whether OPEN_FOLDERS_BY_PATH names the vault's root, opened, by its real path: the descriptors
 * there are this process's own (not another process's, as a /proc mounted from another namespace
 * would show), and the system spells their paths as `realpath` does, so a file's can be compared with
 * the path it was opened by (`openToReadSync`).
 */
async function namesOpenFilesByRealPath(root: string): Promise<boolean> {
	if (OPEN_FOLDERS_BY_PATH === null) return false;
	try {
		const folder = await fs.open(root, fsConstants.O_RDONLY | O_DIRECTORY);
		try {
			return (await fs.readlink(nodePath.join(OPEN_FOLDERS_BY_PATH, String(folder.fd)), { encoding: "buffer" })).equals(Buffer.from(root));
		} finally {
			await folder.close();
		}
	} catch {
		return false;
	}
}

/** Opens the folder at `path` to act in, not following a link in its last part; a link or a file there is refused as outside the vault. */
function openFolderSync(path: string): number {
	try {
		return openSync(path, fsConstants.O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
	} catch (error) {
		throw refusedOpen(error);
	}
}

/** An open that failed because of a link on the way is refused like any path through a link. */
function refusedOpen(error: unknown): unknown {
	const code = (error as NodeJS.ErrnoException).code;
	return code === "ELOOP" || code === "EMLINK" || code === "ENOTDIR" ? new OutsideVaultError() : error;
}

/**
 * Whether the path still names the file just opened. Another file at the path means an atomic
 * replace (ours or another program's) between the open and the check, or a folder swapped and
 * swapped back: the caller opens again, and only a path that keeps changing is refused. `namedHere`:
 * whether the system names the open file by this path (null where it cannot tell); false, the file
 * was opened elsewhere (through a link that is gone again, or since moved), whatever inode the
 * path shows now.
 */
function isStillNamed(named: Stats, opened: Stats, attempt: number, namedHere: boolean | null): boolean {
	if (namedHere !== false && named.ino === opened.ino && named.dev === opened.dev) return true;
	if (!named.isFile()) throw new OutsideVaultError();
	if (attempt >= OPEN_ATTEMPTS) throw new NoteKeptChangingError();
	return false;
}
