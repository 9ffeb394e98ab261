import { lstatSync, opendirSync, promises as fs, rmSync, type Dirent, type Stats } from "node:fs";
import * as nodePath from "node:path";
import type { EventRef } from "obsidian";
import { type FolderListing, type HostAbstractFile, type HostFile, type HostVault, type MoveOptions, type ProcessOptions } from "../host/Host";
import { FolderJail, OutsideVaultError } from "../host/FolderJail";
import { NoteTooLargeError } from "../host/NoteTooLargeError";
import { eventLoopTurns } from "../turns";
import { SliceClock } from "../markdown/steps";
import {
	EMPTY_PLAN_READ_POLL_MS,
	EMPTY_PLAN_READ_WAIT_MS,
	FOLDER_LISTING_MAX_ENTRIES,
	FOLDER_LISTING_PIECE_NAMES,
	LEFT_TEMPORARIES_PIECE_FILES,
	MAX_CACHED_TEXT_CHARS,
	MAX_READ_NOTE_BYTES,
	MAX_SYNC_READ_BYTES,
	METADATA_PARSE_SLICE_MS,
	NAME_SPELLINGS_MIXED_LETTERS,
	SCAN_BATCH_FILES,
	STALE_NOTE_TEMPORARY_MS,
	WRITE_RETRY_BUDGET_MS,
	WRITE_RETRY_FIRST_PAUSE_MS,
	WRITE_RETRY_MAX_PAUSE_MS,
} from "../config/limits";
import { TextCache } from "./TextCache";
import { normalizeVaultPath } from "../paths/spelling";
import { isExcludedPath } from "../vault/scope";
import { HostEvents } from "./events";
import { DiskWriter, isBeingRewritten, TEMPORARY_NOTE_NAME, WRITE_STEP_BYTES } from "./DiskWriter";
import { decodeInPieces } from "./bytePieces";
import { DiskWatcher, type WatchedVault } from "./DiskWatcher";
import { FilesByPath } from "./filesByPath";
import { readSettingsFile } from "../host/settingsFile";
import { fileExistsError, fileMissingError } from "../host/fileErrors";

export { normalizeVaultPath };

/** The note kept changing under other programs' writes for every attempt: nothing was written. */
class WriteConflictError extends Error {
	readonly code = "EWRITECONFLICT";
	constructor() {
		super(
			`The note kept changing while it was being written (another program changed it on every attempt for ${WRITE_RETRY_BUDGET_MS / 1000} s); nothing was written. Read it again and retry.`,
		);
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
const TRASH_FOLDER = ".trash";

/** Obsidian's default config folder name. */
export const DEFAULT_CONFIG_DIR = ".obsidian";

/**
 * Obsidian's `Vault` over a folder on disk. Lists files the way Obsidian does (dot-files and
 * dot-folders, the config folder among them, are not part of the vault), writes atomically through
 * a DiskWriter (one write per note at a time), and reports changes made by other programs, which a
 * DiskWatcher follows, as Obsidian's vault events.
 *
 * The jail (FolderJail, the same one the plugin puts in front of Obsidian's adapter): every read and
 * write checks, at the moment the bytes move, that the file and each folder above it are really
 * where the vault path says — no symbolic link anywhere below the vault's real root — and refuses
 * with OutsideVaultError otherwise. Symbolic links are never listed; `hiddenLinks` names them so a
 * person can be told why a folder is missing.
 */
export class NodeVault implements HostVault, WatchedVault {
	readonly adapter: HostVault["adapter"] & { getBasePath(): string };
	private readonly files = new FilesByPath<KnownFile>();
	private readonly contents = new TextCache(MAX_CACHED_TEXT_CHARS);
	/** How many times each known file's stats were recorded (its own writes and others' seen): a read whose decode saw this change keeps no text. */
	private readonly recordings = new WeakMap<KnownFile, number>();
	/** Each note's stats after this vault's last edit of it that left exactly the text written: a note so left is not another program's rewrite under way. */
	private readonly ownWrites = new WeakMap<KnownFile, Stats>();
	private readonly events = new HostEvents();
	private readonly writeLocks = new Map<string, Promise<unknown>>();
	private readonly links = new Set<string>();
	private sortedLinks: readonly string[] | null = null;
	private readonly writer: DiskWriter;
	private watcher: DiskWatcher | null = null;
	/** The temporary files of replaces (TEMPORARY_NOTE_NAME) the listing at open found, until removeLeftTemporaries takes them. */
	private leftTemporaries: string[] = [];

	/** Entries one folder listing reads at most (FOLDER_LISTING_MAX_ENTRIES; NodeHostOptions.folderListingMaxEntries). */
	private listingMaxEntries = FOLDER_LISTING_MAX_ENTRIES;

	private constructor(
		readonly jail: FolderJail,
		readonly configDir: string,
	) {
		this.writer = new DiskWriter(jail, undefined, (diskPath) => this.isExcludedNow(diskPath));
		this.adapter = {
			getBasePath: () => this.root,
			read: (path: string) => readSettingsFile(this.jail, this.toDiskPath(path)),
			copy: (from: string, to: string) => this.writer.copy(this.toDiskPath(from), this.toDiskPath(to)),
			// Only an empty folder (never recursive, so nothing in it can be lost), never the vault's root, never through a link.
			rmdir: (path: string) => this.jail.removeEmptyFolder(this.toDiskPath(path)),
			exists: async (path: string) => {
				try {
					const diskPath = this.toDiskPath(path);
					await this.jail.checkFolder(nodePath.dirname(diskPath));
					// Whatever is there takes its name, listed or not: a link (which the jail never follows), a named pipe or a
					// socket. A move onto a pipe's name was let through, then failed inside the server (EEXIST).
					await fs.lstat(diskPath);
					return true;
				} catch {
					return false;
				}
			},
		};
	}

	/** The person's excluded folders now, and what is told when a copy was not kept in one (HostVault.followExcludedFolders). */
	private exclusions: { excludedNow: () => readonly string[]; copyNotKept: () => void } = { excludedNow: () => [], copyNotKept: () => undefined };

	followExcludedFolders(excludedNow: () => readonly string[], copyNotKept: () => void): void {
		this.exclusions = { excludedNow, copyNotKept };
	}

	/**
	 * Removes the temporary files of replaces that a crash cut short (not written to for STALE_NOTE_TEMPORARY_MS): each
	 * holds a copy of a note's new text, hidden beside it for good (a serve killed during a hub rename of 400 linking notes
	 * left 1 in 8 kills). Only those the listing at open found, outside the folders excluded at the moment each is looked
	 * at, each a plain file looked at and removed synchronously in its folder held open (FolderJail.inFolderSync): never
	 * through a link, never outside the vault. Their age by this computer's clock: one of another process's edit under way, removed when that
	 * clock runs far ahead of a share's, only makes that edit be made again. In pieces of LEFT_TEMPORARIES_PIECE_FILES
	 * files, the event loop turning between them: it runs as the server starts, when other clients may be connected (in
	 * one piece, 20,000 files held the loop 789 ms). Called again while under way: the same removal.
	 */
	removeLeftTemporaries(): Promise<void> {
		this.temporariesRemoval ??= this.removeTemporaries(this.leftTemporaries);
		this.leftTemporaries = [];
		return this.temporariesRemoval;
	}

	private temporariesRemoval: Promise<void> | undefined;

	private async removeTemporaries(found: readonly string[]): Promise<void> {
		for (const [index, diskPath] of found.entries()) {
			if (index > 0 && index % LEFT_TEMPORARIES_PIECE_FILES === 0) await eventLoopTurns.take();
			const path = nodePath.relative(this.root, diskPath).split(nodePath.sep).join("/");
			if (isExcludedPath(path, { configDir: this.configDir, excludedFolders: this.exclusions.excludedNow() })) continue;
			try {
				// Looked at and removed in its folder held open: checked and then removed by path, a folder swapped for a link
				// out of the vault between the two led the removal outside (3 of 3,000 such files there removed, red106).
				this.jail.inFolderSync(nodePath.dirname(diskPath), (entry) => {
					const at = entry(nodePath.basename(diskPath));
					const stats = lstatSync(at, { throwIfNoEntry: false });
					if (stats?.isFile() === true && Date.now() - stats.mtimeMs > STALE_NOTE_TEMPORARY_MS) rmSync(at, { force: true });
				});
			} catch {
				// Its folder moved or was swapped for a link: left there.
			}
		}
	}

	/** Whether the file at `diskPath` would be in a folder the person has excluded now (then told as a copy not kept). */
	private isExcludedNow(diskPath: string): boolean {
		const path = nodePath.relative(this.root, diskPath).split(nodePath.sep).join("/");
		const excluded = isExcludedPath(path, { configDir: this.configDir, excludedFolders: this.exclusions.excludedNow() });
		if (excluded) this.exclusions.copyNotKept();
		return excluded;
	}

	/** Resolves once the changes other programs made on disk before this call are told as vault events (DiskWatcher.caughtUp); at once when not watching. */
	outsideChangesSeen(): Promise<void> {
		return this.watcher?.caughtUp() ?? Promise.resolve();
	}

	/** The vault folder's real path (symbolic links above it resolved once, at open). */
	get root(): string {
		return this.jail.root;
	}

	/** Lists the folder and, with `watch`, follows changes made on disk by other programs. */
	static async open(root: string, options: { configDir?: string; watch?: boolean; folderListingMaxEntries?: number } = {}): Promise<NodeVault> {
		const jail = await FolderJail.open(root);
		const rootStat = await fs.stat(jail.root);
		if (!rootStat.isDirectory()) throw new Error(`Not a folder: ${jail.root}`);
		const vault = new NodeVault(jail, options.configDir ?? DEFAULT_CONFIG_DIR);
		vault.listingMaxEntries = options.folderListingMaxEntries ?? FOLDER_LISTING_MAX_ENTRIES;
		// The watcher is put on each folder just before the listing reads it, so nothing another program does meanwhile is missed.
		const watcher = options.watch === true ? DiskWatcher.begin(vault) : null;
		vault.watcher = watcher;
		await vault.scan("", jail.root, new SliceClock(METADATA_PARSE_SLICE_MS, eventLoopTurns.take));
		watcher?.ready();
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
		// A file's own path first, as spelt: a name holding a no-break space (made outside Obsidian) is read as a plain
		// space by normalizeVaultPath, so the file at `c\u00a0d.md` was looked up as `c d.md`, another file or none.
		return this.files.get(path) ?? this.files.get(normalizeVaultPath(path)) ?? null;
	}

	getFolderByPath(path: string): HostAbstractFile | null {
		const asked = this.folderAsked(path);
		if (typeof asked !== "string") return asked;
		try {
			const diskPath = this.toDiskPath(asked);
			// A symbolic link to a folder is not a folder of this vault.
			if (!this.jail.isFolderRealSync(diskPath) || !lstatSync(diskPath).isDirectory()) return null;
			for (const [parent, name] of this.foldersToFindListed(asked)) {
				if (!this.mayBeAnotherCaseSync(parent, name)) continue;
				const listing = this.folderNamesSync(parent);
				if (!Array.isArray(listing) || !isListedAs(listing, name)) return null;
			}
			return folderAt(asked);
		} catch {
			return null;
		}
	}

	/** `getFolderByPath` with its checks on the thread pool, so a folder busy with other writes holds no other client. */
	async getFolderByPathAsync(path: string): Promise<HostAbstractFile | null> {
		const asked = this.folderAsked(path);
		if (typeof asked !== "string") return asked;
		try {
			const diskPath = this.toDiskPath(asked);
			if (!(await this.jail.isFolderReal(diskPath)) || !(await fs.lstat(diskPath)).isDirectory()) return null;
			for (const [parent, name] of this.foldersToFindListed(asked)) {
				if (!(await this.mayBeAnotherCase(parent, name))) continue;
				const listing = await this.listedFolderNames(parent);
				if (!Array.isArray(listing) || !isListedAs(listing, name)) return null;
			}
			return folderAt(asked);
		} catch {
			return null;
		}
	}

	/**
	 * Whether the disk opens the folder `name` in `parent` by another letter case too (it folds case there), so the name it
	 * holds may be another: one lstat of the name with one letter's case changed, finding the same folder. A disk that tells
	 * case apart (Linux, most often) answers no, and the folder found by the name as asked is named so: its parent's listing,
	 * 15 ms of CPU at 20,000 entries in one piece for the synchronous lookup, is read only where the disk folds case.
	 */
	private mayBeAnotherCaseSync(parent: string, name: string): boolean {
		const other = otherLetterCase(name);
		if (other === undefined) return false;
		const asked = lstatSync(this.toDiskPath(joinVaultPath(parent, name)), { throwIfNoEntry: false });
		const changed = lstatSync(this.toDiskPath(joinVaultPath(parent, other)), { throwIfNoEntry: false });
		return asked !== undefined && changed !== undefined && asked.ino === changed.ino && asked.dev === changed.dev;
	}

	/** `mayBeAnotherCaseSync` through the thread pool. */
	private async mayBeAnotherCase(parent: string, name: string): Promise<boolean> {
		const other = otherLetterCase(name);
		if (other === undefined) return false;
		const [asked, changed] = await Promise.all([name, other].map((each) => fs.lstat(this.toDiskPath(joinVaultPath(parent, each))).catch(() => undefined)));
		return asked !== undefined && changed !== undefined && asked.ino === changed.ino && asked.dev === changed.dev;
	}

	/**
	 * The folders of `path` (normalised, a folder there on disk) whose name is to be found in their parent's listing, each as
	 * [parent, name]: a disk that folds case (macOS, Windows, a FAT drive) opens `Notes` when asked for `notes`, so that a
	 * folder is there says nothing of its name, and Obsidian, answering from the names it listed, has no folder `notes`. A
	 * folder holding a file the vault knows is listed by exactly its name (the listing gave the file's path), and so is every
	 * folder above it: only the folders below the deepest such one (empty ones, or another's name on such a disk) are looked
	 * for, most often none.
	 */
	private foldersToFindListed(path: string): Array<[string, string]> {
		const parts = path.split("/");
		let held = parts.length;
		while (held > 0 && !this.files.holdsUnder(parts.slice(0, held).join("/"))) held--;
		const toFind: Array<[string, string]> = [];
		for (let depth = held; depth < parts.length; depth++) toFind.push([parts.slice(0, depth).join("/"), parts[depth] ?? ""]);
		return toFind;
	}

	/**
	 * HostVault.listedFolderNames: the disk's listing of the folder (no hidden names, no links, each name in NFC as `scan`
	 * lists it), opened through the thread pool and read a few entries a system call, the event loop turning between pieces.
	 * Not through a link: the folder is checked real before
	 * and after it is read, so a folder swapped for a link meanwhile lists nothing. In pieces of FOLDER_LISTING_PIECE_NAMES
	 * names, and no more than FOLDER_LISTING_MAX_ENTRIES entries: past them, ListingOverBound.
	 */
	async listedFolderNames(path: string): Promise<FolderListing> {
		const diskPath = this.listedFolderDiskPath(path);
		if (diskPath === null) return null;
		try {
			if (!(await this.jail.isFolderReal(diskPath))) return null;
			const names: string[] = [];
			// Read a few entries a system call, the event loop turning every FOLDER_LISTING_PIECE_NAMES names: each entry awaited
			// (the folder's async iterator) was 40-45 ms of CPU for a root of 20,000 names.
			const dir = await fs.opendir(diskPath);
			try {
				let read = 0;
				for (let entry = dir.readSync(); entry !== null; entry = dir.readSync()) {
					if (++read > this.listingMaxEntries) return { bound: this.listingMaxEntries };
					if (read % FOLDER_LISTING_PIECE_NAMES === 0) await eventLoopTurns.take();
					if (entry.isDirectory() && !entry.name.startsWith(".")) names.push(entry.name.normalize("NFC"));
				}
			} finally {
				dir.closeSync();
			}
			return (await this.jail.isFolderReal(diskPath)) ? names : null;
		} catch {
			return null;
		}
	}

	/** `listedFolderNames` in one piece (opened and read without a pause), for the synchronous folder lookup (`getFolderByPath`). */
	private folderNamesSync(path: string): FolderListing {
		const diskPath = this.listedFolderDiskPath(path);
		if (diskPath === null) return null;
		try {
			if (!this.jail.isFolderRealSync(diskPath)) return null;
			const names: string[] = [];
			const dir = opendirSync(diskPath);
			try {
				let read = 0;
				for (let entry = dir.readSync(); entry !== null; entry = dir.readSync()) {
					if (++read > this.listingMaxEntries) return { bound: this.listingMaxEntries };
					if (entry.isDirectory() && !entry.name.startsWith(".")) names.push(entry.name.normalize("NFC"));
				}
			} finally {
				dir.closeSync();
			}
			return this.jail.isFolderRealSync(diskPath) ? names : null;
		} catch {
			return null;
		}
	}

	/** The disk path of the folder a listing is asked of ("" or "/" for the root), or null for a hidden one. */
	private listedFolderDiskPath(path: string): string | null {
		const asked = this.folderAsked(path === "" ? "/" : path);
		if (asked === null) return null;
		try {
			return typeof asked === "string" ? this.toDiskPath(asked) : this.root;
		} catch {
			return null;
		}
	}

	/** What the folder lookups answer before asking the disk (the root, or null for a hidden part), else the normalised path to check. */
	private folderAsked(path: string): HostAbstractFile | null | string {
		const normalized = normalizeVaultPath(path);
		if (normalized === "/") return { path: "/", name: "" };
		if (normalized.split("/").some((part) => part.startsWith("."))) return null;
		return normalized;
	}

	/** Vault paths of the symbolic links found in the vault: the jail hides them and what they lead to. */
	hiddenLinks(): readonly string[] {
		// Kept until a link comes or goes: every request's scope reads it, and compares it by identity first.
		this.sortedLinks ??= [...this.links].sort();
		return this.sortedLinks;
	}

	private addLink(path: string): void {
		if (this.links.has(path)) return;
		this.links.add(path);
		this.sortedLinks = null;
	}

	private dropLink(path: string): void {
		if (this.links.delete(path)) this.sortedLinks = null;
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
			// Synchronous: a local lstat takes microseconds, the thread-pool round trip many times that.
			const stats = lstatSync(known.diskPath, { throwIfNoEntry: false });
			// Our own write's text, kept: refused all the same past the bound, as a read from disk is.
			if (stats?.isFile() && this.isOwnWrite(known, stats)) {
				if (stats.size > MAX_READ_NOTE_BYTES) throw new NoteTooLargeError(stats.size);
				return cached;
			}
		}
		// The text cache holds only the notes in use, so building the search index reads most notes again:
		// one at a time through the thread pool, 10,000 small notes took seconds.
		if (known && known.stat.size <= MAX_SYNC_READ_BYTES) {
			try {
				// Bounded when opened too: the size known is the one last seen, and a note another program grew since
				// (megabytes, past MAX_READ_NOTE_BYTES) was read whole on the event loop, then answered.
				return this.readSync(file, MAX_SYNC_READ_BYTES);
			} catch {
				// The asynchronous read reports it (past MAX_READ_NOTE_BYTES, refused), and drops a file the jail refuses for good.
			}
		}
		return this.read(file);
	}

	/**
	 * `cachedRead` for a write call's plan: a note read empty (or a whole number of pages long)
	 * whose last change is a moment old is most likely another program's rewrite in place
	 * (truncated, its text not yet all written, for tens to hundreds of milliseconds on a busy
	 * machine); planned on that text, a complete_task was refused as "not the task". Its size is
	 * looked at every EMPTY_PLAN_READ_POLL_MS and the note read again once it changed, for
	 * EMPTY_PLAN_READ_WAIT_MS at most: read at set times instead, the note was found empty each time.
	 */
	async cachedReadPastRewrite(file: HostFile): Promise<string> {
		const deadline = Date.now() + EMPTY_PLAN_READ_WAIT_MS;
		let text = await this.cachedRead(file);
		for (;;) {
			const length = text === "" ? 0 : Buffer.byteLength(text);
			const known = this.files.get(file.path);
			if (length % WRITE_STEP_BYTES !== 0 || !known) return text;
			let stats = lstatSync(known.diskPath, { throwIfNoEntry: false });
			if (!stats?.isFile() || !isBeingRewritten(stats, length, this.ownWrites.get(known))) return text;
			// Until its size moves from the length read (the other program wrote), it is gone, or its rewrite is over.
			do {
				if (Date.now() >= deadline) return text;
				await sleep(EMPTY_PLAN_READ_POLL_MS);
				stats = lstatSync(known.diskPath, { throwIfNoEntry: false });
			} while (stats?.isFile() && stats.size === length && isBeingRewritten(stats, length, this.ownWrites.get(known)));
			text = await this.cachedRead(file);
		}
	}

	/**
	 * A synchronous read, for building the cache at start-up: on these machines it is several
	 * times faster than the thread-pool reads for thousands of small notes. Callers yield between batches.
	 * A file over `maxBytes` when opened is not read (NoteTooLargeError): its size may have changed
	 * since the caller chose this read by it.
	 */
	readSync(file: HostFile, maxBytes = MAX_READ_NOTE_BYTES): string {
		const text = this.jail.readTextSync(this.diskPathOf(file.path), maxBytes);
		if (this.files.has(file.path)) this.contents.set(file.path, text);
		return text;
	}

	async read(file: HostFile): Promise<string> {
		// What the vault knew of the file before the read: its text is kept only if nothing was recorded
		// since (a write of ours, or another program's seen by the watcher). The decode below takes lane
		// turns, and an append confirmed meanwhile would otherwise be hidden by this older text for good.
		const known = this.files.get(file.path);
		const recordedBefore = known && this.recordings.get(known);
		const path = file.path;
		const diskPath = this.diskPathOf(path);
		let bytes: Buffer;
		try {
			bytes = await this.jail.readFile(diskPath, MAX_READ_NOTE_BYTES);
		} catch (error) {
			if (error instanceof OutsideVaultError && (await this.jail.isRefusedForGood(this.diskPathOf(file.path)))) this.forget(file.path);
			throw error;
		}
		// Moved while the read waited for the disk: what it opened at the old path may be another file moved there since
		// (the server renamed this note away and another onto its name: the metadata cache kept the other's links as
		// this note's, at its new path, for good). Not its text: as if it had been gone (its rename reads it again).
		if (known !== undefined && known.diskPath !== diskPath) throw fileMissingError(path);
		const text = await decodeInPieces(bytes, eventLoopTurns.take);
		if (known !== undefined && this.files.get(file.path) === known && this.recordings.get(known) === recordedBefore) this.contents.set(file.path, text);
		return text;
	}

	/**
	 * Reads, changes and writes a note as one critical section: one write per note at a time here,
	 * and other programs' writes are never overwritten (see DiskWriter.editOnce). If the note changed
	 * right before the write, `fn` runs again on the fresh text, for up to WRITE_RETRY_BUDGET_MS, with
	 * pauses that grow and jitter so a program writing on a steady beat stops winning every race; so
	 * `fn` must be a pure function of the text.
	 */
	process(file: HostFile, fn: (data: string) => string, options?: ProcessOptions): Promise<string> {
		return this.withWriteLock(file.path, async () => {
			const deadline = Date.now() + WRITE_RETRY_BUDGET_MS;
			for (let attempt = 0; ; attempt++) {
				const known = this.files.get(file.path);
				if (!known) throw fileMissingError(file.path);
				let written: string | null;
				try {
					written = await this.editOnce(known, fn, options);
				} catch (error) {
					if (error instanceof OutsideVaultError && (await this.jail.isRefusedForGood(known.diskPath))) this.forget(known.path);
					throw error;
				}
				if (written !== null) return written;
				if (Date.now() >= deadline) throw new WriteConflictError();
				// The first retry follows at once (most races are lost once); later ones back off.
				if (attempt > 0) await sleep(retryPause(attempt));
			}
		});
	}

	/** One attempt of `process`: the text written, or null when the note changed under it and the edit must be made again. */
	private async editOnce(known: KnownFile, fn: (data: string) => string, options?: ProcessOptions): Promise<string | null> {
		const result = await this.writer.editOnce(known.diskPath, fn, options, this.ownWrites.get(known));
		if (result === null) return null;
		if (result.stats !== null) {
			if (result.exact) this.ownWrites.set(known, result.stats);
			else this.ownWrites.delete(known);
			// Our own write: recorded so the watcher does not report it as someone else's.
			this.record(known.path, result.stats, known.diskPath);
			if (result.exact) this.contents.set(known.path, result.text);
			else this.contents.delete(known.path);
			this.events.trigger("modify", known);
		}
		return result.text;
	}

	async create(path: string, data: string, options?: ProcessOptions): Promise<HostFile> {
		const normalized = normalizeVaultPath(path);
		return this.withWriteLock(normalized, async () => {
			if (this.files.has(normalized)) throw fileExistsError(normalized);
			const diskPath = this.toDiskPath(normalized);
			const mode = options?.sameAccessAs === undefined ? undefined : await this.permissionBitsOf(options.sameAccessAs);
			const stats = await this.writer.create(diskPath, data, options?.beforeWrite, mode);
			const file = this.record(normalized, stats, diskPath);
			this.contents.set(normalized, data);
			this.events.trigger("create", file);
			return file;
		});
	}

	/** The permission bits of the note at `path` as it is on disk now; undefined when no note is there (ProcessOptions.sameAccessAs). */
	private async permissionBitsOf(path: string): Promise<number | undefined> {
		const known = this.files.get(normalizeVaultPath(path));
		if (!known) return undefined;
		const stats = await fs.lstat(known.diskPath).catch(() => null);
		return stats?.isFile() ? stats.mode & 0o777 : undefined;
	}

	/**
	 * Moves a file to the vault's `.trash` folder, as Obsidian's "Move to Obsidian trash" does: under
	 * its own name, or with a number added when that name is taken there; nothing in the trash is
	 * ever replaced. Jailed like every write; `options.textRead` as for `rename`.
	 */
	async trash(file: HostFile, options?: MoveOptions): Promise<void> {
		// From where it was asked to go, as `rename`: one moved while its turn was waited for (into an excluded folder, the
		// same file object renamed in place) is not moved to the trash from wherever it went.
		const from = file.path;
		await this.withWriteLock(from, async () => {
			const known = file.path === from ? this.files.get(from) : undefined;
			if (!known) throw fileMissingError(from);
			const { basename, extension } = nameParts(known.path);
			await this.writer.trash(known.diskPath, nodePath.join(this.root, TRASH_FOLDER), basename, extension, options?.textRead);
			this.drop(known.path, known);
		});
	}

	/**
	 * Moves a file to `newPath`, as Obsidian's `Vault.rename` does (no link changes). Jailed like
	 * every write; never replaces anything (see DiskWriter.move). Given the text the caller read (`options.textRead`), a
	 * file that no longer holds it when the move opens it is not moved (ReplacedWhileMovedError).
	 */
	async rename(file: HostFile, newPath: string, options?: MoveOptions): Promise<void> {
		// Given another spelling of the path to move to (undo putting a note back under its name on disk), the file is named
		// so, and known by that name as the listing knows it (NFC, a no-break space kept).
		const spelt = spellingOf(normalizeVaultPath(newPath), options?.spelling);
		const target = spelt?.path ?? normalizeVaultPath(newPath);
		// The file where it was asked to move from: one moved meanwhile (while the locks were waited for) is not moved from
		// wherever it went, an excluded folder say, to `target`.
		const from = file.path;
		await this.withWriteLock(from, () =>
			this.withWriteLock(target, async () => {
				const known = file.path === from ? this.files.get(from) : undefined;
				if (!known) throw fileMissingError(from);
				if (this.files.has(target) && target.toLowerCase() !== known.path.toLowerCase()) throw fileExistsError(target);
				const diskTarget = spelt === undefined ? this.toDiskPath(target) : nodePath.join(nodePath.dirname(this.toDiskPath(target)), spelt.name);
				const stats = await this.writer.move(known.diskPath, diskTarget, options?.textRead, options?.beforeMove);
				const oldPath = known.path;
				// Written by another program before the watcher looked: the text kept is not the one moved, and the write's event,
				// matching the stats recorded here, would be dropped as seen. Reported changed too, as an outside move (movedOnDisk).
				const written = known.stat.mtime !== stats.mtimeMs || known.stat.size !== stats.size;
				const text = written ? undefined : this.contents.get(oldPath);
				// Another file the watcher listed at the target while the move waited (moved there by another program, and away
				// again: the move never replaces) is gone from there. Dropped, with its delete, before this file takes the
				// path: replaced silently, its metadata stayed at the path as this file's, with no event to read it again.
				const listedThere = this.files.get(target);
				if (listedThere !== undefined && listedThere !== known) this.drop(target, listedThere);
				this.files.delete(oldPath);
				this.contents.delete(oldPath);
				// The same object, as Obsidian renames the TFile it handed out.
				Object.assign(known, { path: target, ...nameParts(target), diskPath: diskTarget });
				this.files.set(target, known);
				this.record(target, stats, diskTarget);
				if (text !== undefined) this.contents.set(target, text);
				this.events.trigger("rename", known, oldPath);
				if (written) this.events.trigger("modify", known);
			}),
		);
	}

	async createFolder(path: string): Promise<HostAbstractFile> {
		const normalized = normalizeVaultPath(path);
		await this.jail.makeFolders(this.toDiskPath(normalized));
		return { path: normalized, name: nodePath.posix.basename(normalized) };
	}

	async makeFolder(path: string): Promise<boolean> {
		return await this.jail.makeFolder(this.toDiskPath(normalizeVaultPath(path)));
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
		await this.watcher?.close();
		this.watcher = null;
	}

	/**
	 * The absolute path on disk for a vault path (links are checked where bytes move). Refuses paths that would leave the
	 * vault folder. A name on disk under another Unicode spelling of the path's (a folder made on macOS is named in NFD, and
	 * known here by its NFC spelling: `scan`) is spelt as the disk spells it: on Linux the NFC spelling names nothing, so a
	 * note made or moved into such a folder went to a second folder of the same name beside it.
	 */
	toDiskPath(path: string): string {
		const lexical = this.jail.diskPath(path);
		const parts = nodePath.relative(this.root, lexical).split(nodePath.sep);
		// Almost always one look, or none: there as spelt, or no name on the way has another spelling (ASCII has none).
		if (parts.every(hasOneSpelling) || lstatSync(lexical, { throwIfNoEntry: false }) !== undefined) return lexical;
		let at = this.root;
		for (const [index, part] of parts.entries()) {
			const spelt = lstatSync(nodePath.join(at, part), { throwIfNoEntry: false }) === undefined ? spellingOnDisk(at, part) : part;
			if (spelt === undefined) return nodePath.join(at, ...parts.slice(index));
			at = nodePath.join(at, spelt);
			// Through a link nothing is looked for: its folder may be outside the vault, and the write refuses it anyway.
			if (index < parts.length - 1 && lstatSync(at, { throwIfNoEntry: false })?.isDirectory() !== true)
				return nodePath.join(at, ...parts.slice(index + 1));
		}
		return at;
	}

	pathOnDisk(file: HostFile): string | undefined {
		const known = this.files.get(file.path);
		if (known === undefined) return undefined;
		const onDisk = nodePath.relative(this.root, known.diskPath).split(nodePath.sep).join("/");
		return onDisk === known.path ? undefined : onDisk;
	}

	/** A known file's disk path (as the disk spells it), else the lexical one. */
	private diskPathOf(path: string): string {
		return this.files.get(path)?.diskPath ?? this.toDiskPath(path);
	}

	// The bookkeeping the DiskWatcher keeps in step with other programs' changes (WatchedVault).

	known(path: string): KnownFile | undefined {
		return this.files.get(path);
	}

	knownByInode(ino: number, exceptPath: string): KnownFile | undefined {
		for (const file of this.files.values()) if (file.ino === ino && file.path !== exceptPath) return file;
		return undefined;
	}

	isOwnWrite(known: KnownFile | undefined, stats: Stats): boolean {
		return known !== undefined && known.stat.mtime === stats.mtimeMs && known.stat.size === stats.size && known.ino === stats.ino;
	}

	writeSettled(path: string): Promise<unknown> {
		return this.writeLocks.get(path) ?? Promise.resolve();
	}

	changedOnDisk(path: string, stats: Stats, diskPath: string): void {
		const existed = this.files.has(path);
		const file = this.record(path, stats, diskPath);
		this.contents.delete(path);
		this.events.trigger(existed ? "modify" : "create", file);
	}

	movedOnDisk(file: KnownFile, path: string, diskPath: string, stats: Stats): void {
		const oldPath = file.path;
		// Moved and written before the watcher looked (its write's event then matches these stats and is
		// dropped as seen): the text is not the one read at the old path, so it is reported changed too.
		const written = file.stat.mtime !== stats.mtimeMs || file.stat.size !== stats.size;
		this.files.delete(oldPath);
		this.contents.delete(oldPath);
		Object.assign(file, { path, ...nameParts(path), diskPath });
		this.files.set(path, file);
		this.record(path, stats, diskPath);
		this.events.trigger("rename", file, oldPath);
		if (written) this.events.trigger("modify", file);
	}

	/** A file gone from disk: no longer part of the vault. */
	drop(path: string, known: KnownFile): void {
		if (this.files.get(path) !== known) return;
		this.files.delete(path);
		this.contents.delete(path);
		this.events.trigger("delete", known);
	}

	/** Drops a file the jail refused (swapped for a link): it is no longer part of the vault. */
	forget(path: string): void {
		const known = this.files.get(path);
		if (!known) return;
		this.files.delete(path);
		this.contents.delete(path);
		this.addLink(path);
		this.events.trigger("delete", known);
	}

	hideLink(path: string): void {
		this.addLink(path);
	}

	unhideLink(path: string): void {
		this.dropLink(path);
	}

	isHiddenLink(path: string): boolean {
		return this.links.has(path);
	}

	knownUnder(folder: string): KnownFile[] {
		if (!this.files.holdsUnder(folder)) return [];
		const prefix = folder === "" ? "" : `${folder}/`;
		return [...this.files.values()].filter((file) => file.path.startsWith(prefix));
	}

	private async scan(folder: string, diskFolder: string, clock: SliceClock): Promise<void> {
		this.watcher?.watchFolder(diskFolder);
		let entries: Dirent[];
		try {
			entries = await fs.readdir(diskFolder, { withFileTypes: true });
		} catch {
			return;
		}
		// Swapped for a link since its parent was listed: listed (and watched) through it, so nothing of it is kept
		// and no folder found there is listed in turn. The watch on the folder above reports the link.
		if (!(await this.jail.isFolderReal(diskFolder))) {
			this.watcher?.unwatchUnder(diskFolder);
			return;
		}
		// A few files at a time, and one folder after another, pausing on the clock: every file's stats asked
		// for at once came back in batches of thousands, each handled in one piece (20,000 notes: pieces of
		// 300–450 ms before the server listened).
		const folders: Array<{ path: string; diskPath: string }> = [];
		for (let first = 0; first < entries.length; first += SCAN_BATCH_FILES) {
			const files: Array<{ path: string; diskPath: string }> = [];
			for (const entry of entries.slice(first, first + SCAN_BATCH_FILES)) {
				if (entry.name.startsWith(".")) {
					if (entry.isFile() && TEMPORARY_NOTE_NAME.test(entry.name)) this.leftTemporaries.push(nodePath.join(diskFolder, entry.name));
					continue;
				}
				const name = entry.name.normalize("NFC");
				const path = folder === "" ? name : `${folder}/${name}`;
				const diskPath = nodePath.join(diskFolder, entry.name);
				// Symbolic links are not followed: they could lead out of the vault. They are named, so a person can be told.
				if (entry.isSymbolicLink()) this.addLink(path);
				else if (entry.isDirectory()) folders.push({ path, diskPath });
				else if (entry.isFile()) files.push({ path, diskPath });
			}
			await Promise.all(
				files.map(async ({ path, diskPath }) => {
					const stats = await fs.lstat(diskPath).catch(() => null);
					if (stats) this.record(path, stats, diskPath);
				}),
			);
			await clock.checkpoint();
		}
		for (const inner of folders) await this.scan(inner.path, inner.diskPath, clock);
	}

	private record(path: string, stats: Stats, diskPath: string): KnownFile {
		const known = this.files.get(path);
		const stat = { ctime: stats.birthtimeMs || stats.ctimeMs, mtime: stats.mtimeMs, size: stats.size };
		if (known) {
			this.recordings.set(known, (this.recordings.get(known) ?? 0) + 1);
			// Keep the object: callers hold on to it, as they hold on to Obsidian's TFile.
			Object.assign(known.stat, stat);
			known.ino = stats.ino;
			return known;
		}
		// Its fields written out, not spread: a spread's fields go into a second array, about 50 bytes a file more.
		const { name, basename, extension } = nameParts(path);
		const file: KnownFile = { path, name, basename, extension, stat, ino: stats.ino, diskPath };
		this.files.set(path, file);
		this.dropLink(path);
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
}

/**
 * Whether `listing` (names in NFC) holds the folder name `name` (a part of a normalised vault path): as spelt, or as the path
 * policy spells a name on disk (a no-break space read as a space), never in other letter case.
 */
function isListedAs(listing: readonly string[], name: string): boolean {
	return listing.some((listed) => listed === name || (listed.length === name.length && normalizeVaultPath(listed) === name));
}

/** `name` in the folder `parent` ("" for the vault's root). */
function joinVaultPath(parent: string, name: string): string {
	return parent === "" ? name : `${parent}/${name}`;
}

/**
 * `name` with the case of its first letter that has one other case (one character each way, and back) changed; undefined
 * when it has none (digits, most CJK): no disk reads such a name as another by case.
 */
function otherLetterCase(name: string): string | undefined {
	let at = 0;
	for (const character of name) {
		const upper = character.toUpperCase();
		const lower = character.toLowerCase();
		const changed = character === upper ? lower : upper;
		// Only a letter whose other case comes back to it: `ı` upper-cased is `I`, which a disk folds to `i`, not to `ı`.
		const comesBack = (character === upper ? changed.toUpperCase() : changed.toLowerCase()) === character;
		if (upper !== lower && upper.length === character.length && lower.length === character.length && comesBack) {
			return `${name.slice(0, at)}${changed}${name.slice(at + character.length)}`;
		}
		at += character.length;
	}
	return undefined;
}

/** The folder at a normalised vault path, as Obsidian's TFolder names it. */
function folderAt(path: string): HostAbstractFile {
	return { path, name: nodePath.posix.basename(path) };
}

const MARKDOWN_EXTENSION = "md";

/** A path's name, basename and extension, as Obsidian's TFile has them (the extension keeps its case). */
function nameParts(path: string): Pick<HostFile, "name" | "basename" | "extension"> {
	const name = nodePath.posix.basename(path);
	const dot = name.lastIndexOf(".");
	const extension = dot > 0 ? name.slice(dot + 1) : "";
	// Most files are notes: one string "md" for them all, not a copy each.
	return { name, basename: dot > 0 ? name.slice(0, dot) : name, extension: extension === MARKDOWN_EXTENSION ? MARKDOWN_EXTENSION : extension };
}

/** The pause before the next attempt of an edit another program keeps changing: doubling, capped, with up to half of it random. */
function retryPause(attempt: number): number {
	const pause = Math.min(WRITE_RETRY_MAX_PAUSE_MS, WRITE_RETRY_FIRST_PAUSE_MS * 2 ** Math.min(attempt - 1, 30));
	return pause / 2 + Math.random() * (pause / 2);
}

function sleep(ms: number): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * `spelling` as the path to move a file to, when it is the normalised `target` spelt as a disk may hold it (NFD, a no-break
 * space): its vault path (NFC, as the listing keys a name) and its name on disk. Anything else (another path, slashes
 * normalizePath would clean, a backslash) is not a spelling of `target`, and is ignored.
 */
function spellingOf(target: string, spelling: string | undefined): { path: string; name: string } | undefined {
	if (spelling === undefined || spelling === target || spelling.includes("\\") || normalizeVaultPath(spelling) !== target) return undefined;
	const path = spelling.normalize("NFC");
	if (path.split("/").includes("")) return undefined;
	return { path, name: nodePath.posix.basename(spelling) };
}

/**
 * Whether `name` has no other Unicode spelling a disk could hold: ASCII, or a name its composed and decomposed forms
 * spell alike (most CJK, emoji, plain Cyrillic), for which a missing path listed its folder for nothing.
 */
function hasOneSpelling(name: string): boolean {
	for (let index = 0; index < name.length; index++) if (name.charCodeAt(index) > 0x7f) return name.normalize("NFC") === name.normalize("NFD");
	return true;
}

/**
 * The name in the folder `diskFolder` that is another Unicode spelling of `name`, if one is there: its NFD (as macOS names a
 * folder), its NFC, then, when neither is there, each mix of the two (each accented letter composed or decomposed, as a name
 * typed partly on macOS and partly elsewhere, or pasted from both, may be spelt on disk), for a name of at most
 * NAME_SPELLINGS_MIXED_LETTERS such letters: at most 2^NAME_SPELLINGS_MIXED_LETTERS looks, never a listing of the folder
 * (which a read call naming a missing accented folder made on every call: 14.7 ms of CPU at 20,000 names, in one piece).
 * A name holding more such letters is looked for in its two whole spellings only.
 */
function spellingOnDisk(diskFolder: string, name: string): string | undefined {
	if (hasOneSpelling(name)) return undefined;
	for (const spelling of otherSpellings(name))
		if (spelling !== name && lstatSync(nodePath.join(diskFolder, spelling), { throwIfNoEntry: false }) !== undefined) return spelling;
	return undefined;
}

/** `name`'s other Unicode spellings, whole ones first: NFD, NFC, then the mixes of its first NAME_SPELLINGS_MIXED_LETTERS accented letters. */
function* otherSpellings(name: string): Generator<string> {
	const nfd = name.normalize("NFD");
	const nfc = name.normalize("NFC");
	yield nfd;
	yield nfc;
	const letters = [...nfc];
	const mixed = letters.flatMap((letter, index) => (letter.normalize("NFD") === letter ? [] : [index]));
	if (mixed.length > NAME_SPELLINGS_MIXED_LETTERS) return;
	// Every mix but the two whole spellings (no letter decomposed; every one).
	for (let decomposed = 1; decomposed < (1 << mixed.length) - 1; decomposed++) {
		const spelt = [...letters];
		for (const [bit, index] of mixed.entries()) if ((decomposed >> bit) & 1) spelt[index] = (letters[index] ?? "").normalize("NFD");
		yield spelt.join("");
	}
}
