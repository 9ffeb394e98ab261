import { promises as fs, type Stats } from "node:fs";
import * as nodePath from "node:path";
import { watch, type FSWatcher } from "chokidar";
import type { FolderJail } from "../host/FolderJail";
import { RENAME_PAIRING_MS } from "../config/limits";

/** A file the vault lists, as the watcher needs it. */
interface WatchedFile {
	path: string;
	ino: number;
	diskPath: string;
}

/** The vault's own bookkeeping, which the watcher keeps in step with what other programs do on disk. */
export interface WatchedVault {
	readonly jail: FolderJail;
	known(path: string): WatchedFile | undefined;
	/** Another listed file with this inode (the other half of a rename). */
	knownByInode(ino: number, exceptPath: string): WatchedFile | undefined;
	/** Whether the stats are those of our own last write of the file (so the event is ours). */
	isOwnWrite(file: WatchedFile | undefined, stats: Stats): boolean;
	/** Resolves once any write of ours to the path has finished. */
	writeSettled(path: string): Promise<unknown>;
	/** A file another program made or changed (its text in memory is stale). */
	changedOnDisk(path: string, stats: Stats, diskPath: string): void;
	/** A listed file another program renamed. */
	movedOnDisk(file: WatchedFile, path: string, diskPath: string, stats: Stats): void;
	/** A file gone from disk. */
	drop(path: string, file: WatchedFile): void;
	/** A listed file swapped for a link: no longer part of the vault, its name hidden. */
	forget(path: string): void;
	/** A symbolic link seen (hidden) or gone. */
	hideLink(path: string): void;
	unhideLink(path: string): void;
	isHiddenLink(path: string): boolean;
}

/**
 * Follows changes other programs make in the vault folder and reports them to the vault, which
 * turns them into Obsidian's vault events. Dot-files and dot-folders are ignored (not part of the
 * vault, and our temporary files are dot-files); links are never followed, only named.
 */
export class DiskWatcher {
	private watcher: FSWatcher | null = null;
	private readonly pendingUnlinks = new Set<NodeJS.Timeout>();

	private constructor(private readonly vault: WatchedVault) {}

	/** Starts watching; resolves once the first scan of the watcher is done. */
	static async start(vault: WatchedVault): Promise<DiskWatcher> {
		const watching = new DiskWatcher(vault);
		const root = vault.jail.root;
		const watcher = watch(root, {
			ignoreInitial: true,
			followSymlinks: false,
			alwaysStat: true,
			ignored: (diskPath: string) =>
				diskPath !== root &&
				watching
					.vaultPath(diskPath)
					.split("/")
					.some((part) => part.startsWith(".")),
		});
		watcher.on("add", (diskPath) => void watching.onAdd(watching.vaultPath(diskPath), diskPath));
		watcher.on("change", (diskPath) => void watching.onChange(watching.vaultPath(diskPath), diskPath));
		watcher.on("unlink", (diskPath) => watching.onUnlink(watching.vaultPath(diskPath)));
		watcher.on("addDir", (diskPath, stats) => {
			if (stats?.isSymbolicLink()) vault.hideLink(watching.vaultPath(diskPath));
		});
		// chokidar stats through a new symbolic link and drops it when its target does not exist, so a
		// dangling link made while serving stayed unknown while a live one was hidden, and the answers
		// told the two apart. fs.watch's raw events name every new or removed entry: each one is looked at.
		watcher.on("raw", (event, name, details) => {
			const folder = (details as { watchedPath?: unknown }).watchedPath;
			if (event === "rename" && typeof name === "string" && name !== "" && typeof folder === "string")
				void watching.onRawRename(nodePath.join(folder, name));
		});
		watcher.on("error", () => undefined);
		await new Promise<void>((resolve) => watcher.once("ready", () => resolve()));
		watching.watcher = watcher;
		return watching;
	}

	/** Stops watching. */
	async close(): Promise<void> {
		for (const timer of this.pendingUnlinks) clearTimeout(timer);
		this.pendingUnlinks.clear();
		await this.watcher?.close();
		this.watcher = null;
	}

	private vaultPath(diskPath: string): string {
		return this.vault.jail.vaultPath(diskPath);
	}

	/**
	 * The file's stats once any write of ours to it has finished: an event can arrive between our
	 * rename and our bookkeeping, and must then be compared with the finished write, not mid-way.
	 * Always lstat: the watcher's stats may come from before a swap.
	 */
	private async settledStats(path: string, diskPath: string): Promise<Stats | undefined> {
		await this.vault.writeSettled(path);
		return fs.lstat(diskPath).catch(() => undefined);
	}

	/** An entry made, removed or renamed in a watched folder: a link there is hidden whether or not its target exists; a link gone is forgotten. */
	private async onRawRename(diskPath: string): Promise<void> {
		if (!diskPath.startsWith(this.vault.jail.root + nodePath.sep)) return;
		const path = this.vaultPath(diskPath);
		if (path.split("/").some((part) => part.startsWith(".") || part === "")) return;
		const stats = await fs.lstat(diskPath).catch(() => undefined);
		if (stats?.isSymbolicLink()) await this.onAdd(path, diskPath);
		else if (this.vault.isHiddenLink(path) && !this.vault.known(path)) this.vault.unhideLink(path);
	}

	private async onAdd(path: string, diskPath: string): Promise<void> {
		const stats = await this.settledStats(path, diskPath);
		if (!stats) return;
		if (!stats.isFile()) {
			// A link made (or swapped in for a note) while serving: never part of the vault.
			if (stats.isSymbolicLink()) {
				if (this.vault.known(path)) this.vault.forget(path);
				else this.vault.hideLink(path);
			} else this.dropUnlessFolder(path, stats);
			return;
		}
		if (!(await this.vault.jail.isFolderReal(nodePath.dirname(diskPath)))) return;
		const known = this.vault.known(path);
		if (this.vault.isOwnWrite(known, stats)) return;
		if (known) {
			await this.onChange(path, diskPath);
			return;
		}
		// A rename by another program arrives as an add and an unlink: the inode pairs them.
		const renamedFrom = this.vault.knownByInode(stats.ino, path);
		if (renamedFrom && !(await isPlainFile(renamedFrom.diskPath))) {
			this.vault.movedOnDisk(renamedFrom, path, diskPath, stats);
			return;
		}
		this.vault.changedOnDisk(path, stats, diskPath);
	}

	private async onChange(path: string, diskPath: string): Promise<void> {
		const stats = await this.settledStats(path, diskPath);
		if (!stats?.isFile()) {
			if (stats?.isSymbolicLink() && this.vault.known(path)) this.vault.forget(path);
			else if (stats) this.dropUnlessFolder(path, stats);
			return;
		}
		const known = this.vault.known(path);
		if (this.vault.isOwnWrite(known, stats)) return;
		if (!known) {
			await this.onAdd(path, diskPath);
			return;
		}
		this.vault.changedOnDisk(path, stats, known.diskPath);
	}

	/**
	 * A note swapped for something that is neither a file nor a link (a named pipe, a socket) is no
	 * note any more: dropped as if deleted, so a search does not stumble on it before a read would.
	 */
	private dropUnlessFolder(path: string, stats: Stats): void {
		const known = this.vault.known(path);
		if (known && !stats.isDirectory()) this.vault.drop(path, known);
	}

	private onUnlink(path: string): void {
		const known = this.vault.known(path);
		if (!known) {
			// chokidar reports a note swapped for a dangling link as unlinked: the link is still there, and stays hidden.
			void fs.lstat(this.vault.jail.diskPath(path)).then(
				(stats) => {
					if (!stats.isSymbolicLink()) this.vault.unhideLink(path);
				},
				() => this.vault.unhideLink(path),
			);
			return;
		}
		// Wait a moment: if the same inode shows up under another name, it was a rename, reported by onAdd.
		const timer = setTimeout(() => {
			this.pendingUnlinks.delete(timer);
			if (this.vault.known(path) !== known) return;
			void isPlainFile(known.diskPath).then((exists) => {
				if (this.vault.known(path) !== known || exists) return;
				void fs.lstat(known.diskPath).then(
					// Swapped for a link (one whose target is missing is reported as an unlink): hidden, like any link.
					(stats) => (stats.isSymbolicLink() ? this.vault.forget(path) : this.vault.drop(path, known)),
					() => this.vault.drop(path, known),
				);
			});
		}, RENAME_PAIRING_MS);
		this.pendingUnlinks.add(timer);
	}
}

/** True when a plain file (not a link, which a check that follows links would report) is at the disk path. */
function isPlainFile(diskPath: string): Promise<boolean> {
	return fs.lstat(diskPath).then(
		(stats) => stats.isFile(),
		() => false,
	);
}
