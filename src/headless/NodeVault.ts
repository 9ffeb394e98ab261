import { randomBytes } from "node:crypto";
import { closeSync, constants as fsConstants, fstatSync, lstatSync, openSync, promises as fs, readFileSync, realpathSync, type Dirent, type Stats } from "node:fs";
import type { FileHandle } from "node:fs/promises";
import * as nodePath from "node:path";
import { watch, type FSWatcher } from "chokidar";
import type { EventRef } from "obsidian";
import type { HostAbstractFile, HostFile, HostVault } from "../host/Host";
import { MAX_CACHED_TEXT_CHARS, MAX_SYNC_READ_BYTES, OPEN_ATTEMPTS, RENAME_PAIRING_MS, WRITE_RETRY_BUDGET_MS, WRITE_RETRY_FIRST_PAUSE_MS, WRITE_RETRY_MAX_PAUSE_MS } from "../config/limits";
import { TextCache } from "./TextCache";
import { normalizeVaultPath } from "../paths/spelling";
import { HostEvents } from "./events";

export { normalizeVaultPath };

/** Opening a symbolic link fails instead of following it (0 where the platform has no such flag; the checks below still hold). */
const O_NOFOLLOW: number = fsConstants.O_NOFOLLOW ?? 0;

/**
 * A path whose bytes are not where the vault says they are: a symbolic link (in the name or in a
 * folder above it), or something that is not a plain file or folder. The message never says what,
 * if anything, is on the other side.
 */
export class OutsideVaultError extends Error {
	readonly code = "EOUTSIDEVAULT";
	constructor() {
		super("That path is not part of the vault this server gives access to.");
		this.name = "OutsideVaultError";
	}
}

/** Another program kept replacing the note while it was being opened: nothing was read or written. */
export class NoteKeptChangingError extends Error {
	readonly code = "EWRITECONFLICT";
	constructor() {
		super("The note kept changing while it was being opened (another program is saving it); nothing was read or written. Try again in a moment.");
		this.name = "NoteKeptChangingError";
	}
}

/** The note kept changing under other programs' writes for every attempt: nothing was written. */
export class WriteConflictError extends Error {
	readonly code = "EWRITECONFLICT";
	constructor() {
		super(`The note kept changing while it was being written (another program changed it on every attempt for ${WRITE_RETRY_BUDGET_MS / 1000} s); nothing was written. Read it again and retry.`);
		this.name = "WriteConflictError";
	}
}

/** A file NodeVault knows, with what it needs to tell its own writes from someone else's. */
interface KnownFile extends HostFile {
	ino: number;
	/** Where it is on disk (its name as the disk spells it, which may be another Unicode form). */
	diskPath: string;
}

/** The vault's own trash folder, where Obsidian's "Move to Obsidian trash" puts deleted files. */
export const TRASH_FOLDER = ".trash";

/** Obsidian's default config folder name. */
export const DEFAULT_CONFIG_DIR = ".obsidian";

/**
 * Obsidian's `Vault` over a folder on disk. Lists files the way Obsidian does (dot-files and
 * dot-folders, the config folder among them, are not part of the vault), writes atomically
 * (a temporary file renamed over the note, one write per note at a time), and reports changes
 * made by other programs through a file watcher as Obsidian's vault events.
 *
 * The jail: every read and write checks, at the moment the bytes move, that the file and each
 * folder above it are really where the vault path says — no symbolic link anywhere below the
 * vault's real root — and refuses with OutsideVaultError otherwise. Symbolic links are never
 * listed; `hiddenLinks` names them so a person can be told why a folder is missing.
 */
export class NodeVault implements HostVault {
	readonly adapter: HostVault["adapter"] & { getBasePath(): string };
	private readonly files = new Map<string, KnownFile>();
	private readonly contents = new TextCache(MAX_CACHED_TEXT_CHARS);
	private readonly events = new HostEvents();
	private readonly writeLocks = new Map<string, Promise<unknown>>();
	private readonly links = new Set<string>();
	private watcher: FSWatcher | null = null;
	private readonly pendingUnlinks = new Set<NodeJS.Timeout>();

	private constructor(
		/** The vault folder's real path (symbolic links above it resolved once, at open). */
		readonly root: string,
		readonly configDir: string,
	) {
		this.adapter = {
			getBasePath: () => this.root,
			read: async (path: string) => (await this.readInside(this.toDiskPath(path))).toString("utf8"),
			copy: async (from: string, to: string) => {
				const bytes = await this.readInside(this.toDiskPath(from));
				const target = this.toDiskPath(to);
				await this.makeFoldersInside(nodePath.dirname(target));
				await fs.writeFile(target, bytes, { flag: fsConstants.O_WRONLY | fsConstants.O_CREAT | fsConstants.O_EXCL | O_NOFOLLOW });
			},
			// Only an empty folder (never recursive, so nothing in it can be lost), never the vault's root, never through a link.
			rmdir: async (path: string) => {
				const diskPath = this.toDiskPath(path);
				if (diskPath === this.root) throw new OutsideVaultError();
				await this.checkFolderIsReal(diskPath);
				await fs.rmdir(diskPath);
			},
			exists: async (path: string) => {
				try {
					const diskPath = this.toDiskPath(path);
					await this.checkFolderIsReal(nodePath.dirname(diskPath));
					const stats = await fs.lstat(diskPath);
					// A link (which the jail never follows) still takes its name: nothing new may be written there.
					return stats.isFile() || stats.isDirectory() || stats.isSymbolicLink();
				} catch {
					return false;
				}
			},
		};
	}

	/** Lists the folder and, with `watch`, follows changes made on disk by other programs. */
	static async open(root: string, options: { configDir?: string; watch?: boolean } = {}): Promise<NodeVault> {
		const absoluteRoot = await fs.realpath(nodePath.resolve(root));
		const rootStat = await fs.stat(absoluteRoot);
		if (!rootStat.isDirectory()) throw new Error(`Not a folder: ${absoluteRoot}`);
		const vault = new NodeVault(absoluteRoot, options.configDir ?? DEFAULT_CONFIG_DIR);
		await vault.scan("", absoluteRoot);
		if (options.watch) await vault.startWatching();
		return vault;
	}

	getName(): string {
		return nodePath.basename(this.root);
	}

	getFiles(): HostFile[] {
		return [...this.files.values()];
	}

	getMarkdownFiles(): HostFile[] {
		return this.getFiles().filter((file) => file.extension === "md");
	}

	getFileByPath(path: string): HostFile | null {
		return this.files.get(normalizeVaultPath(path)) ?? null;
	}

	getFolderByPath(path: string): HostAbstractFile | null {
		const normalized = normalizeVaultPath(path);
		if (normalized === "/") return { path: "/", name: "" };
		if (normalized.split("/").some((part) => part.startsWith("."))) return null;
		try {
			const diskPath = this.toDiskPath(normalized);
			// lstat and realpath: a symbolic link to a folder is not a folder of this vault.
			if (!lstatSync(diskPath).isDirectory() || realpathSync(diskPath) !== diskPath) return null;
			return { path: normalized, name: nodePath.posix.basename(normalized) };
		} catch {
			return null;
		}
	}

	/** Vault paths of the symbolic links found in the vault: the jail hides them and what they lead to. */
	hiddenLinks(): string[] {
		return [...this.links].sort();
	}

	/**
	 * The note's text, from memory when the file on disk is unchanged. Each call checks the disk
	 * (one lstat: same inode, size and time as the text in memory), so an edit, delete or swap by
	 * another program is never answered with old text, even before the watcher reports it.
	 */
	async cachedRead(file: HostFile): Promise<string> {
		const known = this.files.get(file.path);
		const cached = this.contents.get(file.path);
		if (known && cached !== undefined) {
			// Synchronous: a local lstat takes microseconds, the thread-pool round trip many times that (issue 16's profile).
			const stats = lstatSync(known.diskPath, { throwIfNoEntry: false });
			if (stats?.isFile() && this.isOwnWrite(known, stats)) return cached;
		}
		// The text cache holds only the notes in use, so building the search index reads most notes again:
		// one at a time through the thread pool, 10,000 small notes took seconds (issue 16).
		if (known && known.stat.size <= MAX_SYNC_READ_BYTES) {
			try {
				return this.readSync(file);
			} catch {
				// The asynchronous read reports it, and drops a file the jail refuses for good.
			}
		}
		return this.read(file);
	}

	/**
	 * A synchronous read, for building the cache at start-up: on these machines it is several
	 * times faster than the thread-pool reads for thousands of small notes. Callers yield between batches.
	 */
	readSync(file: HostFile): string {
		const diskPath = this.diskPathOf(file.path);
		const descriptor = openSync(diskPath, fsConstants.O_RDONLY | O_NOFOLLOW);
		try {
			if (!fstatSync(descriptor).isFile() || realpathSync(nodePath.dirname(diskPath)) !== nodePath.dirname(diskPath)) throw new OutsideVaultError();
			const text = readFileSync(descriptor, "utf8");
			if (this.files.has(file.path)) this.contents.set(file.path, text);
			return text;
		} finally {
			closeSync(descriptor);
		}
	}

	async read(file: HostFile): Promise<string> {
		let bytes: Buffer;
		try {
			bytes = await this.readInside(this.diskPathOf(file.path));
		} catch (error) {
			if (error instanceof OutsideVaultError && (await this.isRefusedForGood(this.diskPathOf(file.path)))) this.forget(file.path);
			throw error;
		}
		const text = bytes.toString("utf8");
		if (this.files.has(file.path)) this.contents.set(file.path, text);
		return text;
	}

	/**
	 * Reads, changes and writes a note as one critical section: one write per note at a time here,
	 * and other programs' writes are never overwritten. Right before the write the file is checked
	 * again; if it changed, `fn` runs again on the fresh text (for up to WRITE_RETRY_BUDGET_MS, with
	 * pauses that grow and jitter so a program writing on a steady beat stops winning every race,
	 * so `fn` must be a pure function of the text). A change that only adds to the end is appended in
	 * place (O_APPEND), so another program appending at the same moment loses nothing; any other
	 * change replaces the file atomically (temporary file, rename), and bytes another program
	 * appended to the old file in the instant before the rename are carried over.
	 */
	process(file: HostFile, fn: (data: string) => string): Promise<string> {
		return this.withWriteLock(file.path, async () => {
			const deadline = Date.now() + WRITE_RETRY_BUDGET_MS;
			for (let attempt = 0; ; attempt++) {
				const known = this.files.get(file.path);
				if (!known) throw Object.assign(new Error(`File does not exist: ${file.path}`), { code: "ENOENT" });
				const written = await this.tryProcess(known, fn);
				if (written !== null) return written;
				if (Date.now() >= deadline) throw new WriteConflictError();
				// The first retry follows at once (most races are lost once); later ones back off.
				if (attempt > 0) await sleep(retryPause(attempt));
			}
		});
	}

	async create(path: string, data: string): Promise<HostFile> {
		const normalized = normalizeVaultPath(path);
		return this.withWriteLock(normalized, async () => {
			if (this.files.has(normalized)) throw new Error(`File already exists: ${normalized}`);
			const diskPath = this.toDiskPath(normalized);
			await this.makeFoldersInside(nodePath.dirname(diskPath));
			let handle: FileHandle;
			try {
				// Exclusive and not following links: fails if another program created the file a moment ago, never overwrites it.
				handle = await fs.open(diskPath, fsConstants.O_WRONLY | fsConstants.O_CREAT | fsConstants.O_EXCL | O_NOFOLLOW, 0o666);
			} catch (error) {
				if ((error as NodeJS.ErrnoException).code === "EEXIST" && (await fs.lstat(diskPath)).isSymbolicLink()) throw new OutsideVaultError();
				throw error;
			}
			try {
				await handle.writeFile(data, "utf8");
			} finally {
				await handle.close();
			}
			// A folder swapped for a link while the file was being made: take back what was written there.
			if (!(await this.isFolderReal(nodePath.dirname(diskPath)))) {
				await fs.rm(diskPath, { force: true });
				throw new OutsideVaultError();
			}
			const file = await this.remember(normalized, data);
			this.events.trigger("create", file);
			return file;
		});
	}

	/**
	 * Moves a file to the vault's `.trash` folder, as Obsidian's "Move to Obsidian trash" does: under
	 * its own name, or with a number added when that name is taken there. Jailed like every write:
	 * the file must be a plain file where its path says, and `.trash` a real folder of the vault.
	 * The name in `.trash` is taken first (an empty file made exclusively), so nothing already in the
	 * trash is ever replaced.
	 */
	async trash(file: HostFile): Promise<void> {
		await this.withWriteLock(file.path, async () => {
			const known = this.files.get(file.path);
			if (!known) throw Object.assign(new Error(`File does not exist: ${file.path}`), { code: "ENOENT" });
			const { handle } = await this.openInside(known.diskPath, fsConstants.O_RDONLY);
			await handle.close();
			const trashFolder = nodePath.join(this.root, TRASH_FOLDER);
			await this.makeFoldersInside(trashFolder);
			const { basename, extension } = nameParts(known.path);
			const dot = extension === "" ? "" : `.${extension}`;
			for (let number = 0; ; number++) {
				const target = nodePath.join(trashFolder, `${basename}${number === 0 ? "" : ` ${number}`}${dot}`);
				try {
					await (await fs.open(target, fsConstants.O_WRONLY | fsConstants.O_CREAT | fsConstants.O_EXCL | O_NOFOLLOW, 0o600)).close();
				} catch (error) {
					if ((error as NodeJS.ErrnoException).code === "EEXIST") continue;
					throw error;
				}
				try {
					// The last look before the move: still a plain file, in a real folder.
					await this.checkFolderIsReal(nodePath.dirname(known.diskPath));
					if (!(await fs.lstat(known.diskPath)).isFile()) throw new OutsideVaultError();
					await fs.rename(known.diskPath, target);
				} catch (error) {
					await fs.rm(target, { force: true });
					throw error;
				}
				break;
			}
			this.drop(known.path, known);
		});
	}

	/**
	 * Moves a file to `newPath`, as Obsidian's `Vault.rename` does (no link changes). Jailed like
	 * every write: the file must be a plain file where its path says, and the target's folders real
	 * folders of the vault (made as needed). Never replaces anything: the new name is taken with a
	 * hard link, which fails if it exists, and only then the old name is removed; a file system
	 * without hard links gets a checked rename instead. A move that only changes letter case is a
	 * plain rename (on a case-insensitive disk both names are the same file).
	 */
	async rename(file: HostFile, newPath: string): Promise<void> {
		const target = normalizeVaultPath(newPath);
		await this.withWriteLock(file.path, () =>
			this.withWriteLock(target, async () => {
				const known = this.files.get(file.path);
				if (!known) throw Object.assign(new Error(`File does not exist: ${file.path}`), { code: "ENOENT" });
				if (this.files.has(target) && target.toLowerCase() !== known.path.toLowerCase()) throw Object.assign(new Error(`File already exists: ${target}`), { code: "EEXIST" });
				const { handle, stats } = await this.openInside(known.diskPath, fsConstants.O_RDONLY);
				await handle.close();
				const diskTarget = this.toDiskPath(target);
				await this.makeFoldersInside(nodePath.dirname(diskTarget));
				await this.checkFolderIsReal(nodePath.dirname(known.diskPath));
				await this.moveWithoutReplacing(known.diskPath, diskTarget, stats);
				// A folder swapped for a link while the file was moved: put it back where it was.
				if (!(await this.isFolderReal(nodePath.dirname(diskTarget)))) {
					await fs.rename(diskTarget, known.diskPath).catch(() => undefined);
					throw new OutsideVaultError();
				}
				const oldPath = known.path;
				const text = this.contents.get(oldPath);
				this.files.delete(oldPath);
				this.contents.delete(oldPath);
				// The same object, as Obsidian renames the TFile it handed out.
				Object.assign(known, { path: target, ...nameParts(target), diskPath: diskTarget });
				this.files.set(target, known);
				this.record(target, await fs.lstat(diskTarget), diskTarget);
				if (text !== undefined) this.contents.set(target, text);
				this.events.trigger("rename", known, oldPath);
			}),
		);
	}

	/** Gives the file at `from` (opened as `stats`) the name `to`, failing with EEXIST rather than replacing whatever is there. */
	private async moveWithoutReplacing(from: string, to: string, stats: Stats): Promise<void> {
		const existing = await fs.lstat(to).catch(() => null);
		// A link there is not part of the vault: refused like any path through a link, never named as taken.
		if (existing?.isSymbolicLink()) throw new OutsideVaultError();
		if (existing && !(existing.ino === stats.ino && existing.dev === stats.dev)) throw Object.assign(new Error(`File already exists: ${this.toVaultPath(to)}`), { code: "EEXIST" });
		if (existing) {
			await fs.rename(from, to);
			return;
		}
		try {
			await fs.link(from, to);
		} catch (error) {
			const code = (error as NodeJS.ErrnoException).code;
			if (code !== "EPERM" && code !== "ENOTSUP" && code !== "EXDEV" && code !== "ENOSYS") throw error;
			if (await fs.lstat(to).then(() => true, () => false)) throw Object.assign(new Error(`File already exists: ${this.toVaultPath(to)}`), { code: "EEXIST" });
			await fs.rename(from, to);
			return;
		}
		await fs.unlink(from);
	}

	async createFolder(path: string): Promise<HostAbstractFile> {
		const normalized = normalizeVaultPath(path);
		await this.makeFoldersInside(this.toDiskPath(normalized));
		return { path: normalized, name: nodePath.posix.basename(normalized) };
	}

	on(name: "create" | "modify" | "delete", callback: (file: HostAbstractFile) => unknown): EventRef;
	on(name: "rename", callback: (file: HostAbstractFile, oldPath: string) => unknown): EventRef;
	on(name: string, callback: (file: HostAbstractFile, oldPath: string) => unknown): EventRef {
		return this.events.on(name, callback);
	}

	offref(ref: EventRef): void {
		this.events.offref(ref);
	}

	/** Listeners registered on the vault, for leak tests. */
	get listenerCount(): number {
		return this.events.listenerCount;
	}

	/** Stops the file watcher. */
	async close(): Promise<void> {
		for (const timer of this.pendingUnlinks) clearTimeout(timer);
		this.pendingUnlinks.clear();
		await this.watcher?.close();
		this.watcher = null;
	}

	/** The absolute path on disk for a vault path (lexically: links are checked where bytes move). Refuses paths that would leave the vault folder. */
	toDiskPath(path: string): string {
		const normalized = normalizeVaultPath(path);
		const diskPath = nodePath.resolve(this.root, normalized === "/" ? "." : normalized);
		if (diskPath !== this.root && !diskPath.startsWith(this.root + nodePath.sep)) {
			throw new OutsideVaultError();
		}
		return diskPath;
	}

	/** A known file's disk path (as the disk spells it), else the lexical one. */
	private diskPathOf(path: string): string {
		return this.files.get(path)?.diskPath ?? this.toDiskPath(path);
	}

	private toVaultPath(diskPath: string): string {
		return nodePath.relative(this.root, diskPath).split(nodePath.sep).join("/").normalize("NFC");
	}

	/** True when the folder (or, if it does not exist yet, its nearest existing ancestor) is where its path says: no link on the way. */
	private async isFolderReal(folder: string): Promise<boolean> {
		for (let current = folder; ; current = nodePath.dirname(current)) {
			try {
				return (await fs.realpath(current)) === current && (await fs.lstat(current)).isDirectory();
			} catch (error) {
				if ((error as NodeJS.ErrnoException).code !== "ENOENT" || current === this.root) return false;
			}
		}
	}

	private async checkFolderIsReal(folder: string): Promise<void> {
		if (!(await this.isFolderReal(folder))) throw new OutsideVaultError();
	}

	/**
	 * Opens a file only where it really is: no link in its folders (checked before and after the
	 * open, so a folder swapped in between is caught), not a link itself (O_NOFOLLOW), a plain
	 * file, and the same file the path names once open (inode), so a swap mid-way is refused.
	 */
	private async openInside(diskPath: string, flags: number): Promise<{ handle: FileHandle; stats: Stats }> {
		const folder = nodePath.dirname(diskPath);
		for (let attempt = 1; ; attempt++) {
			await this.checkFolderIsReal(folder);
			let handle: FileHandle;
			try {
				handle = await fs.open(diskPath, flags | O_NOFOLLOW);
			} catch (error) {
				const code = (error as NodeJS.ErrnoException).code;
				if (code === "ELOOP" || code === "EMLINK" || code === "ENOTDIR") throw new OutsideVaultError();
				throw error;
			}
			try {
				const stats = await handle.stat();
				if (!stats.isFile()) throw new OutsideVaultError();
				await this.checkFolderIsReal(folder);
				const named = await fs.lstat(diskPath);
				if (named.ino === stats.ino && named.dev === stats.dev) return { handle, stats };
				// Another file is at the path now: an atomic replace (ours or another program's) between
				// the open and the check, or a folder swapped and swapped back. Open again; only a path
				// that keeps changing under us is refused.
				if (!named.isFile()) throw new OutsideVaultError();
				if (attempt >= OPEN_ATTEMPTS) throw new NoteKeptChangingError();
			} catch (error) {
				await handle.close();
				throw error;
			}
			await handle.close();
		}
	}

	/** True when the jail refused a path because something there is not part of the vault (a link), not because of a race. */
	private async isRefusedForGood(diskPath: string): Promise<boolean> {
		if (!(await this.isFolderReal(nodePath.dirname(diskPath)))) return true;
		return fs.lstat(diskPath).then(
			(stats) => !stats.isFile(),
			() => false,
		);
	}

	private async readInside(diskPath: string): Promise<Buffer> {
		const { handle } = await this.openInside(diskPath, fsConstants.O_RDONLY);
		try {
			return await handle.readFile();
		} finally {
			await handle.close();
		}
	}

	/** Makes a folder and its missing parents one at a time, refusing at the first part that is a link or not a folder. */
	private async makeFoldersInside(folder: string): Promise<void> {
		if (folder !== this.root && !folder.startsWith(this.root + nodePath.sep)) throw new OutsideVaultError();
		const parts = nodePath.relative(this.root, folder).split(nodePath.sep).filter((part) => part !== "");
		let current = this.root;
		for (const part of parts) {
			current = nodePath.join(current, part);
			try {
				await fs.mkdir(current);
			} catch (error) {
				if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
			}
			const stats = await fs.lstat(current);
			if (!stats.isDirectory()) {
				if (stats.isSymbolicLink()) throw new OutsideVaultError();
				throw Object.assign(new Error(`Not a folder: ${this.toVaultPath(current)}`), { code: "ENOTDIR" });
			}
		}
		await this.checkFolderIsReal(folder);
	}

	/** One attempt of `process`: the written text, or null when the note changed under it and the edit must be redone. */
	private async tryProcess(known: KnownFile, fn: (data: string) => string): Promise<string | null> {
		const diskPath = known.diskPath;
		let opened: { handle: FileHandle; stats: Stats };
		try {
			opened = await this.openInside(diskPath, fsConstants.O_RDONLY);
		} catch (error) {
			if (error instanceof OutsideVaultError && (await this.isRefusedForGood(diskPath))) this.forget(known.path);
			throw error;
		}
		const { handle, stats } = opened;
		try {
			const beforeBytes = await handle.readFile();
			const before = beforeBytes.toString("utf8");
			const after = fn(before);
			if (after === before) return after;
			// In place only for a file with one name: appending through a hard link would change the
			// bytes under its other name too (perhaps outside the vault); a replace gives this name its own file.
			if (stats.nlink === 1 && after.startsWith(before) && Buffer.from(before, "utf8").equals(beforeBytes)) {
				return await this.appendInPlace(known, stats, beforeBytes.length, after, Buffer.from(after.slice(before.length), "utf8"));
			}
			return await this.replaceFile(known, handle, stats, beforeBytes, after);
		} finally {
			await handle.close();
		}
	}

	/** Adds `suffix` at the end of the file, if it is still exactly `size` bytes long: other programs' appends interleave, never vanish. */
	private async appendInPlace(known: KnownFile, read: Stats, size: number, after: string, suffix: Buffer): Promise<string | null> {
		const { handle, stats } = await this.openInside(known.diskPath, fsConstants.O_WRONLY | fsConstants.O_APPEND);
		try {
			if (stats.ino !== read.ino || stats.size !== size) return null;
			await handle.writeFile(suffix);
			const final = await handle.stat();
			const named = await fs.lstat(known.diskPath).catch(() => null);
			if (named && named.ino !== final.ino) {
				// Another program saved the note atomically (a new file renamed over it) as we wrote:
				// our bytes went to the file it replaced. If its new text already holds them (it read
				// them first), they landed; if not, redo the edit on its text.
				const fresh = await this.readInside(known.diskPath).catch(() => null);
				if (fresh === null || !fresh.includes(suffix)) return null;
				this.afterWrite(known, named, null);
				return after;
			}
			this.afterWrite(known, final, final.size === size + suffix.length ? after : null);
			return after;
		} finally {
			await handle.close();
		}
	}

	/** Replaces the file atomically with `after`, if it still holds exactly `beforeBytes`. */
	private async replaceFile(known: KnownFile, old: FileHandle, read: Stats, beforeBytes: Buffer, after: string): Promise<string | null> {
		const diskPath = known.diskPath;
		const folder = nodePath.dirname(diskPath);
		// A short dot-name in the same folder: the rename is atomic, the watcher and listing ignore
		// it, and it fits beside a note whose own name is near the file system's limit.
		const temporary = nodePath.join(folder, `.vault-mcp-${randomBytes(6).toString("hex")}.tmp`);
		const afterBytes = Buffer.from(after, "utf8");
		try {
			const created = await fs.open(temporary, fsConstants.O_WRONLY | fsConstants.O_CREAT | fsConstants.O_EXCL | O_NOFOLLOW, read.mode & 0o777);
			try {
				await created.writeFile(afterBytes);
			} finally {
				await created.close();
			}
			// The last look before the rename: same file, same bytes, same real folder.
			await this.checkFolderIsReal(folder);
			const named = await fs.lstat(diskPath);
			const now = Buffer.alloc(beforeBytes.length + 1);
			const { bytesRead } = await old.read(now, 0, now.length, 0);
			if (named.ino !== read.ino || bytesRead !== beforeBytes.length || !now.subarray(0, bytesRead).equals(beforeBytes)) {
				await fs.rm(temporary, { force: true });
				return null;
			}
			await fs.rename(temporary, diskPath);
		} catch (error) {
			await fs.rm(temporary, { force: true });
			throw error;
		}
		// Another program may have appended to the old file in the instant between the last look
		// and the rename: those bytes went to the file just replaced, so add them to the new one.
		const late = await old.stat();
		let final = afterBytes.length;
		// Only an append to the old file is carried over: if it was rewritten instead, its tail is not an addition to our text.
		const head = Buffer.alloc(beforeBytes.length);
		const stillStartsAsRead = late.size > beforeBytes.length && (await old.read(head, 0, head.length, 0)).bytesRead === head.length && head.equals(beforeBytes);
		if (stillStartsAsRead) {
			const extra = Buffer.alloc(late.size - beforeBytes.length);
			await old.read(extra, 0, extra.length, beforeBytes.length);
			const { handle } = await this.openInside(diskPath, fsConstants.O_WRONLY | fsConstants.O_APPEND);
			try {
				await handle.writeFile(extra);
			} finally {
				await handle.close();
			}
			final = -1;
		}
		const stats = await fs.lstat(diskPath);
		this.afterWrite(known, stats, stats.size === final ? after : null);
		return after;
	}

	/** Records our own write (so the watcher does not report it as someone else's) and tells listeners. */
	private afterWrite(known: KnownFile, stats: Stats, text: string | null): void {
		this.record(known.path, stats, known.diskPath);
		if (text === null) this.contents.delete(known.path);
		else this.contents.set(known.path, text);
		this.events.trigger("modify", known);
	}

	/** Drops a file the jail refused (swapped for a link): it is no longer part of the vault. */
	private forget(path: string): void {
		const known = this.files.get(path);
		if (!known) return;
		this.files.delete(path);
		this.contents.delete(path);
		this.links.add(path);
		this.events.trigger("delete", known);
	}

	private async scan(folder: string, diskFolder: string): Promise<void> {
		let entries: Dirent[];
		try {
			entries = await fs.readdir(diskFolder, { withFileTypes: true });
		} catch {
			return;
		}
		await Promise.all(
			entries.map(async (entry) => {
				if (entry.name.startsWith(".")) return;
				const name = entry.name.normalize("NFC");
				const path = folder === "" ? name : `${folder}/${name}`;
				const diskPath = nodePath.join(diskFolder, entry.name);
				// Symbolic links are not followed: they could lead out of the vault. They are named, so a person can be told.
				if (entry.isSymbolicLink()) this.links.add(path);
				else if (entry.isDirectory()) await this.scan(path, diskPath);
				else if (entry.isFile()) await this.rememberFromDisk(path, diskPath);
			}),
		);
	}

	private async rememberFromDisk(path: string, diskPath: string): Promise<KnownFile | null> {
		try {
			return this.record(path, await fs.lstat(diskPath), diskPath);
		} catch {
			return null;
		}
	}

	private async remember(path: string, text: string): Promise<KnownFile> {
		const diskPath = this.toDiskPath(path);
		const file = this.record(path, await fs.lstat(diskPath), diskPath);
		this.contents.set(path, text);
		return file;
	}

	private record(path: string, stats: Stats, diskPath: string): KnownFile {
		const known = this.files.get(path);
		const stat = { ctime: stats.birthtimeMs || stats.ctimeMs, mtime: stats.mtimeMs, size: stats.size };
		if (known) {
			// Keep the object: callers hold on to it, as they hold on to Obsidian's TFile.
			Object.assign(known.stat, stat);
			known.ino = stats.ino;
			return known;
		}
		const file: KnownFile = { path, ...nameParts(path), stat, ino: stats.ino, diskPath };
		this.files.set(path, file);
		this.links.delete(path);
		return file;
	}

	private withWriteLock<T>(path: string, work: () => Promise<T>): Promise<T> {
		const previous = this.writeLocks.get(path) ?? Promise.resolve();
		const next = previous.then(work, work);
		const settled = next.catch(() => undefined);
		this.writeLocks.set(path, settled);
		void settled.then(() => {
			if (this.writeLocks.get(path) === settled) this.writeLocks.delete(path);
		});
		return next;
	}

	private async startWatching(): Promise<void> {
		const watcher = watch(this.root, {
			ignoreInitial: true,
			followSymlinks: false,
			alwaysStat: true,
			ignored: (diskPath: string) => diskPath !== this.root && this.toVaultPath(diskPath).split("/").some((part) => part.startsWith(".")),
		});
		watcher.on("add", (diskPath, stats) => void this.onDiskAdd(this.toVaultPath(diskPath), diskPath, stats));
		watcher.on("change", (diskPath, stats) => void this.onDiskChange(this.toVaultPath(diskPath), diskPath, stats));
		watcher.on("unlink", (diskPath) => this.onDiskUnlink(this.toVaultPath(diskPath)));
		watcher.on("addDir", (diskPath, stats) => this.onDiskAddDir(this.toVaultPath(diskPath), stats));
		// chokidar stats through a new symbolic link and drops it when its target does not exist, so a
		// dangling link made while serving stayed unknown while a live one was hidden, and the answers
		// told the two apart. fs.watch's raw events name every new or removed entry: each one is looked at.
		watcher.on("raw", (event, name, details) => {
			const folder = (details as { watchedPath?: unknown }).watchedPath;
			if (event === "rename" && typeof name === "string" && name !== "" && typeof folder === "string") void this.onRawRename(nodePath.join(folder, name));
		});
		watcher.on("error", () => undefined);
		await new Promise<void>((resolve) => watcher.once("ready", () => resolve()));
		this.watcher = watcher;
	}

	private isOwnWrite(known: KnownFile | undefined, stats: Stats | undefined): boolean {
		return known !== undefined && stats !== undefined && known.stat.mtime === stats.mtimeMs && known.stat.size === stats.size && known.ino === stats.ino;
	}

	/**
	 * The file's stats once any write of ours to it has finished: an event can arrive between our
	 * rename and our bookkeeping, and must then be compared with the finished write, not mid-way.
	 * Always lstat: the watcher's stats may come from before a swap.
	 */
	private async settledStats(path: string, diskPath: string): Promise<Stats | undefined> {
		await this.writeLocks.get(path);
		return fs.lstat(diskPath).catch(() => undefined);
	}

	/** An entry made, removed or renamed in a watched folder: a link there is hidden whether or not its target exists; a link gone is forgotten. */
	private async onRawRename(diskPath: string): Promise<void> {
		if (!diskPath.startsWith(this.root + nodePath.sep)) return;
		const path = this.toVaultPath(diskPath);
		if (path.split("/").some((part) => part.startsWith(".") || part === "")) return;
		const stats = await fs.lstat(diskPath).catch(() => undefined);
		if (stats?.isSymbolicLink()) await this.onDiskAdd(path, diskPath, stats);
		else if (this.links.has(path) && !this.files.has(path)) this.links.delete(path);
	}

	private onDiskAddDir(path: string, stats: Stats | undefined): void {
		if (stats?.isSymbolicLink()) this.links.add(path);
	}

	private async onDiskAdd(path: string, diskPath: string, _given: Stats | undefined): Promise<void> {
		const stats = await this.settledStats(path, diskPath);
		if (!stats) return;
		if (!stats.isFile()) {
			// A link made (or swapped in for a note) while serving: never part of the vault.
			if (stats.isSymbolicLink()) {
				if (this.files.has(path)) this.forget(path);
				else this.links.add(path);
			}
			return;
		}
		if (!(await this.isFolderReal(nodePath.dirname(diskPath)))) return;
		if (this.isOwnWrite(this.files.get(path), stats)) return;
		if (this.files.has(path)) {
			await this.onDiskChange(path, diskPath, stats);
			return;
		}
		// A rename by another program arrives as an add and an unlink: the inode pairs them.
		const renamedFrom = [...this.files.values()].find((file) => file.ino === stats.ino && file.path !== path);
		if (renamedFrom && !(await this.isPlainFile(renamedFrom.diskPath))) {
			const oldPath = renamedFrom.path;
			this.files.delete(oldPath);
			this.contents.delete(oldPath);
			Object.assign(renamedFrom, { path, ...nameParts(path), diskPath });
			this.files.set(path, renamedFrom);
			this.record(path, stats, diskPath);
			this.events.trigger("rename", renamedFrom, oldPath);
			return;
		}
		const file = this.record(path, stats, diskPath);
		this.contents.delete(path);
		this.events.trigger("create", file);
	}

	private async onDiskChange(path: string, diskPath: string, given: Stats | undefined): Promise<void> {
		const stats = await this.settledStats(path, diskPath);
		if (!stats?.isFile()) {
			if (stats?.isSymbolicLink() && this.files.has(path)) this.forget(path);
			return;
		}
		const known = this.files.get(path);
		if (this.isOwnWrite(known, stats)) return;
		if (!known) {
			await this.onDiskAdd(path, diskPath, given);
			return;
		}
		this.record(path, stats, known.diskPath);
		this.contents.delete(path);
		this.events.trigger("modify", known);
	}

	/** True when a plain file (not a link, which a check that follows links would report) is at the disk path. */
	private async isPlainFile(diskPath: string): Promise<boolean> {
		return fs.lstat(diskPath).then(
			(stats) => stats.isFile(),
			() => false,
		);
	}

	/** A file gone from disk: no longer part of the vault. */
	private drop(path: string, known: KnownFile): void {
		if (this.files.get(path) !== known) return;
		this.files.delete(path);
		this.contents.delete(path);
		this.events.trigger("delete", known);
	}

	private onDiskUnlink(path: string): void {
		const known = this.files.get(path);
		if (!known) {
			// chokidar reports a note swapped for a dangling link as unlinked: the link is still there, and stays hidden.
			void fs.lstat(this.toDiskPath(path)).then(
				(stats) => {
					if (!stats.isSymbolicLink()) this.links.delete(path);
				},
				() => this.links.delete(path),
			);
			return;
		}
		// Wait a moment: if the same inode shows up under another name, it was a rename, reported by onDiskAdd.
		const timer = setTimeout(() => {
			this.pendingUnlinks.delete(timer);
			if (this.files.get(path) !== known) return;
			void this.isPlainFile(known.diskPath).then((exists) => {
				if (this.files.get(path) !== known) return;
				if (exists) return;
				void fs.lstat(known.diskPath).then(
					// Swapped for a link (one whose target is missing is reported as an unlink): hidden, like any link.
					(stats) => (stats.isSymbolicLink() ? this.forget(path) : this.drop(path, known)),
					() => this.drop(path, known),
				);
			});
		}, RENAME_PAIRING_MS);
		this.pendingUnlinks.add(timer);
	}
}

/** A path's name, basename and extension, as Obsidian's TFile has them (the extension keeps its case). */
function nameParts(path: string): Pick<HostFile, "name" | "basename" | "extension"> {
	const name = nodePath.posix.basename(path);
	const dot = name.lastIndexOf(".");
	return { name, basename: dot > 0 ? name.slice(0, dot) : name, extension: dot > 0 ? name.slice(dot + 1) : "" };
}

/** The pause before the next attempt of an edit another program keeps changing: doubling, capped, with up to half of it random. */
function retryPause(attempt: number): number {
	const pause = Math.min(WRITE_RETRY_MAX_PAUSE_MS, WRITE_RETRY_FIRST_PAUSE_MS * 2 ** Math.min(attempt - 1, 30));
	return pause / 2 + Math.random() * (pause / 2);
}

function sleep(ms: number): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, ms));
}
