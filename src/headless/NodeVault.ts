import { randomBytes } from "node:crypto";
import { promises as fs, readFileSync, statSync, type Dirent, type Stats } from "node:fs";
import * as nodePath from "node:path";
import { watch, type FSWatcher } from "chokidar";
import type { EventRef } from "obsidian";
import type { HostAbstractFile, HostFile, HostVault } from "../host/Host";
import { HostEvents } from "./events";

/** A file NodeVault knows, with what it needs to tell its own writes from someone else's. */
interface KnownFile extends HostFile {
	ino: number;
}

/** Obsidian's default config folder name. */
export const DEFAULT_CONFIG_DIR = ".obsidian";

/** Turns a path as users write it into the vault's form, like Obsidian's `normalizePath`. */
export function normalizeVaultPath(path: string): string {
	const cleaned = path
		.replace(/[\\/]+/g, "/")
		.replace(/^\/+|\/+$/g, "")
		.replace(/\u00a0|\u202f/g, " ")
		.normalize("NFC");
	return cleaned === "" ? "/" : cleaned;
}

/**
 * Obsidian's `Vault` over a folder on disk. Lists files the way Obsidian does (dot-files and
 * dot-folders, the config folder among them, are not part of the vault), writes atomically
 * (a temporary file renamed over the note, one write per note at a time), and reports changes
 * made by other programs through a file watcher as Obsidian's vault events.
 */
export class NodeVault implements HostVault {
	readonly adapter: HostVault["adapter"];
	private readonly files = new Map<string, KnownFile>();
	private readonly contents = new Map<string, string>();
	private readonly events = new HostEvents();
	private readonly writeLocks = new Map<string, Promise<unknown>>();
	private watcher: FSWatcher | null = null;
	private readonly pendingUnlinks = new Set<NodeJS.Timeout>();

	private constructor(
		readonly root: string,
		readonly configDir: string,
	) {
		this.adapter = {
			read: (path: string) => fs.readFile(this.toDiskPath(path), "utf8"),
			exists: async (path: string) => {
				try {
					await fs.stat(this.toDiskPath(path));
					return true;
				} catch {
					return false;
				}
			},
		};
	}

	/** Lists the folder and, with `watch`, follows changes made on disk by other programs. */
	static async open(root: string, options: { configDir?: string; watch?: boolean } = {}): Promise<NodeVault> {
		const absoluteRoot = nodePath.resolve(root);
		const rootStat = await fs.stat(absoluteRoot);
		if (!rootStat.isDirectory()) throw new Error(`Not a folder: ${absoluteRoot}`);
		const vault = new NodeVault(absoluteRoot, options.configDir ?? DEFAULT_CONFIG_DIR);
		await vault.scan("");
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
		if (normalized === "/" || normalized.split("/").some((part) => part.startsWith("."))) return normalized === "/" ? { path: "/", name: "" } : null;
		try {
			return statSync(this.toDiskPath(normalized)).isDirectory() ? { path: normalized, name: nodePath.posix.basename(normalized) } : null;
		} catch {
			return null;
		}
	}

	/**
	 * The note's text, from memory when the file on disk is unchanged. Each call checks the disk
	 * (one stat), so an edit or delete by another program is never answered with old text, even
	 * before the watcher reports it.
	 */
	async cachedRead(file: HostFile): Promise<string> {
		const known = this.files.get(file.path);
		const stats = await fs.lstat(this.toDiskPath(file.path));
		const cached = this.contents.get(file.path);
		if (cached !== undefined && known && this.isOwnWrite(known, stats)) return cached;
		return this.read(file);
	}

	/**
	 * A synchronous read, for building the cache at start-up: on these machines it is several
	 * times faster than the thread-pool reads for thousands of small notes. Callers yield between batches.
	 */
	readSync(file: HostFile): string {
		const text = readFileSync(this.toDiskPath(file.path), "utf8");
		if (this.files.has(file.path)) this.contents.set(file.path, text);
		return text;
	}

	async read(file: HostFile): Promise<string> {
		const text = await fs.readFile(this.toDiskPath(file.path), "utf8");
		if (this.files.has(file.path)) this.contents.set(file.path, text);
		return text;
	}

	process(file: HostFile, fn: (data: string) => string): Promise<string> {
		return this.withWriteLock(file.path, async () => {
			const known = this.files.get(file.path);
			if (!known) throw new Error(`File does not exist: ${file.path}`);
			const before = await fs.readFile(this.toDiskPath(file.path), "utf8");
			const after = fn(before);
			if (after === before) return after;
			await this.writeAtomically(file.path, after);
			await this.remember(file.path, after);
			this.events.trigger("modify", this.files.get(file.path));
			return after;
		});
	}

	async create(path: string, data: string): Promise<HostFile> {
		const normalized = normalizeVaultPath(path);
		return this.withWriteLock(normalized, async () => {
			if (this.files.has(normalized)) throw new Error(`File already exists: ${normalized}`);
			const diskPath = this.toDiskPath(normalized);
			await fs.mkdir(nodePath.dirname(diskPath), { recursive: true });
			// 'wx' fails if another program created the file a moment ago: never overwrite it.
			await fs.writeFile(diskPath, data, { encoding: "utf8", flag: "wx" });
			const file = await this.remember(normalized, data);
			this.events.trigger("create", file);
			return file;
		});
	}

	async createFolder(path: string): Promise<HostAbstractFile> {
		const normalized = normalizeVaultPath(path);
		await fs.mkdir(this.toDiskPath(normalized), { recursive: true });
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

	/** The absolute path on disk for a vault path. Refuses paths that would leave the vault folder. */
	toDiskPath(path: string): string {
		const normalized = normalizeVaultPath(path);
		const diskPath = nodePath.resolve(this.root, normalized === "/" ? "." : normalized);
		if (diskPath !== this.root && !diskPath.startsWith(this.root + nodePath.sep)) {
			throw new Error("Path is outside the vault.");
		}
		return diskPath;
	}

	private toVaultPath(diskPath: string): string {
		return nodePath.relative(this.root, diskPath).split(nodePath.sep).join("/").normalize("NFC");
	}

	private async scan(folder: string): Promise<void> {
		let entries: Dirent[];
		try {
			entries = await fs.readdir(this.toDiskPath(folder === "" ? "/" : folder), { withFileTypes: true });
		} catch {
			return;
		}
		await Promise.all(
			entries.map(async (entry) => {
				if (entry.name.startsWith(".")) return;
				const path = folder === "" ? entry.name.normalize("NFC") : `${folder}/${entry.name.normalize("NFC")}`;
				// Symbolic links are not followed: they could lead out of the vault.
				if (entry.isDirectory()) await this.scan(path);
				else if (entry.isFile()) await this.rememberFromDisk(path);
			}),
		);
	}

	private async rememberFromDisk(path: string): Promise<KnownFile | null> {
		try {
			return this.record(path, await fs.lstat(this.toDiskPath(path)));
		} catch {
			return null;
		}
	}

	private async remember(path: string, text: string): Promise<KnownFile> {
		const file = this.record(path, await fs.lstat(this.toDiskPath(path)));
		this.contents.set(path, text);
		return file;
	}

	private record(path: string, stats: Stats): KnownFile {
		const known = this.files.get(path);
		const stat = { ctime: stats.birthtimeMs || stats.ctimeMs, mtime: stats.mtimeMs, size: stats.size };
		if (known) {
			// Keep the object: callers hold on to it, as they hold on to Obsidian's TFile.
			Object.assign(known.stat, stat);
			known.ino = stats.ino;
			return known;
		}
		const file: KnownFile = { path, ...nameParts(path), stat, ino: stats.ino };
		this.files.set(path, file);
		return file;
	}

	private async writeAtomically(path: string, text: string): Promise<void> {
		const diskPath = this.toDiskPath(path);
		// A dot-name in the same folder: the rename is atomic, and the watcher and listing ignore it.
		const temporary = nodePath.join(nodePath.dirname(diskPath), `.${nodePath.basename(diskPath)}.${randomBytes(6).toString("hex")}.tmp`);
		try {
			await fs.writeFile(temporary, text, "utf8");
			await fs.rename(temporary, diskPath);
		} catch (error) {
			await fs.rm(temporary, { force: true });
			throw error;
		}
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
		watcher.on("add", (diskPath, stats) => void this.onDiskAdd(this.toVaultPath(diskPath), stats));
		watcher.on("change", (diskPath, stats) => void this.onDiskChange(this.toVaultPath(diskPath), stats));
		watcher.on("unlink", (diskPath) => this.onDiskUnlink(this.toVaultPath(diskPath)));
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
	 */
	private async settledStats(path: string, stats: Stats | undefined): Promise<Stats | undefined> {
		const ownWrite = this.writeLocks.get(path);
		if (!ownWrite && stats) return stats;
		await ownWrite;
		return fs.lstat(this.toDiskPath(path)).catch(() => undefined);
	}

	private async onDiskAdd(path: string, given: Stats | undefined): Promise<void> {
		const stats = await this.settledStats(path, given);
		if (!stats?.isFile()) return;
		if (this.isOwnWrite(this.files.get(path), stats)) return;
		if (this.files.has(path)) {
			await this.onDiskChange(path, stats);
			return;
		}
		// A rename by another program arrives as an add and an unlink: the inode pairs them.
		const renamedFrom = [...this.files.values()].find((file) => file.ino === stats.ino && file.path !== path);
		if (renamedFrom && !(await this.adapter.exists(renamedFrom.path))) {
			const oldPath = renamedFrom.path;
			this.files.delete(oldPath);
			this.contents.delete(oldPath);
			Object.assign(renamedFrom, { path, ...nameParts(path) });
			this.files.set(path, renamedFrom);
			this.record(path, stats);
			this.events.trigger("rename", renamedFrom, oldPath);
			return;
		}
		const file = this.record(path, stats);
		this.contents.delete(path);
		this.events.trigger("create", file);
	}

	private async onDiskChange(path: string, given: Stats | undefined): Promise<void> {
		const stats = await this.settledStats(path, given);
		if (!stats?.isFile()) return;
		const known = this.files.get(path);
		if (this.isOwnWrite(known, stats)) return;
		if (!known) {
			await this.onDiskAdd(path, stats);
			return;
		}
		this.record(path, stats);
		this.contents.delete(path);
		this.events.trigger("modify", known);
	}

	private onDiskUnlink(path: string): void {
		const known = this.files.get(path);
		if (!known) return;
		// Wait a moment: if the same inode shows up under another name, it was a rename, reported by onDiskAdd.
		const timer = setTimeout(() => {
			this.pendingUnlinks.delete(timer);
			if (this.files.get(path) !== known) return;
			void this.adapter.exists(path).then((exists) => {
				if (exists || this.files.get(path) !== known) return;
				this.files.delete(path);
				this.contents.delete(path);
				this.events.trigger("delete", known);
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

/** How long an unlink waits for the matching add of a rename. */
const RENAME_PAIRING_MS = 150;
