import { promises as fs, lstatSync, watch, type FSWatcher, type Stats } from "node:fs";
import * as nodePath from "node:path";
import type { FolderJail } from "../host/FolderJail";
import { RENAME_PAIRING_LOOKS_MS, RENAME_PAIRING_MS, SCAN_BATCH_FILES, WATCH_SETTLE_MS } from "../config/limits";
import { OpenEvents, type OpenEvent } from "./openEvents";
import { FilesByPath } from "./filesByPath";

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
	/** The listed files inside a folder ("" for the whole vault), at any depth. */
	knownUnder(folder: string): WatchedFile[];
}

/**
 * Follows changes other programs make in the vault folder and reports them to the vault, which
 * turns them into Obsidian's vault events. Dot-files and dot-folders are ignored (not part of the
 * vault, and our temporary files are dot-files); links are never followed, only named.
 *
 * One `fs.watch` per folder (inotify names the entry made, removed, renamed or changed in it), put
 * on each folder by the vault's own first listing just before it reads that folder: a change made
 * by another program after that is reported, one made before it is in the listing. The events that
 * come while the listing goes on are kept and looked at once it is done (`ready`). chokidar, used
 * before, listed and stat-ed the whole vault a second time after ours, and put a watch on every
 * file, in pieces of 150–260 ms at 20,000 notes before serve listened; and a note made, changed or
 * deleted between our listing and its own was never reported (its first listing is silent).
 */
export class DiskWatcher {
	/**
	 * The watched folders by disk path, each with the inode watched (a watch follows its folder when it is moved), and
	 * how many lie under each folder: every gone path asks (`unwatchUnder`), and a walk of every watched folder for each
	 * made a mass delete's cost the deletes times the folders.
	 */
	private readonly folders = new FilesByPath<{ watcher: FSWatcher; ino: number }>(nodePath.sep);
	/** Unlinks waiting RENAME_PAIRING_MS for a rename's other half, each with what ends its wait at close. */
	private readonly pendingUnlinks = new Map<NodeJS.Timeout, () => void>();
	/** The unlinks not yet told (waiting for a rename's other half, or dropped meanwhile), so `caughtUp` waits for them too. */
	private readonly unlinking = new Set<Promise<void>>();
	/** Events that came during the first listing, looked at once it is done; null after. */
	private early: Array<{ folder: string; event: string; name: string | null }> | null = [];
	private closed = false;
	/** Paths being looked at, and whether another event came for them meanwhile (and whether all were changes). */
	private readonly looking = new Map<string, LookUnderWay>();
	/** Events had so far: each event's number is the count when it came. */
	private eventsHad = 0;
	/** Events not yet answered by a look or listing, and dropping unlinks waiting for them (`eventsSoFarAnswered`). */
	private readonly openEvents = new OpenEvents();
	/** The looks and folder listings under way, so a caller can wait for what was already reported (`caughtUp`). */
	private readonly running = new Set<Promise<void>>();

	private constructor(private readonly vault: WatchedVault) {}

	/** A watcher that keeps what it sees until `ready`: the vault calls `watchFolder` on each folder before listing it. */
	static begin(vault: WatchedVault): DiskWatcher {
		return new DiskWatcher(vault);
	}

	/** Starts watching a folder (before it is listed); a folder that cannot be watched (gone, or the system's limit reached) is left unwatched. */
	watchFolder(diskFolder: string): void {
		if (this.closed || this.folders.has(diskFolder)) return;
		try {
			// Looked at before the watch is put on: a folder swapped between the two is then found to be another at the next look.
			const stats = lstatSync(diskFolder, { throwIfNoEntry: false });
			if (!stats?.isDirectory()) return;
			const watcher = watch(diskFolder, { persistent: true }, (event, name) => this.onEvent(diskFolder, event, name === null ? null : String(name)));
			watcher.on("error", () => this.unwatch(diskFolder));
			this.folders.set(diskFolder, { watcher, ino: stats.ino });
		} catch {
			// Gone already, or the system's watch limit: as chokidar did, such a folder is not followed.
		}
	}

	/** The first listing is done: what changed during it is looked at now, and later events at once. */
	ready(): void {
		const early = this.early ?? [];
		this.early = null;
		for (const { folder, event, name } of early) this.onEvent(folder, event, name);
	}

	/** Stops watching. */
	close(): Promise<void> {
		for (const [timer, end] of this.pendingUnlinks) {
			clearTimeout(timer);
			end();
		}
		this.pendingUnlinks.clear();
		this.closed = true;
		this.early = null;
		for (const { watcher } of this.folders.values()) watcher.close();
		this.folders.clear();
		this.openEvents.endAll();
		return Promise.resolve();
	}

	private vaultPath(diskPath: string): string {
		return this.vault.jail.vaultPath(diskPath);
	}

	/** Stops watching a folder and every folder below it; true when one was watched. */
	unwatchUnder(diskFolder: string): boolean {
		if (!this.folders.has(diskFolder) && !this.folders.holdsUnder(diskFolder)) return false;
		let watched = false;
		for (const folder of [...this.folders.keys()])
			if (folder === diskFolder || folder.startsWith(diskFolder + nodePath.sep)) {
				this.unwatch(folder);
				watched = true;
			}
		return watched;
	}

	private unwatch(diskFolder: string): void {
		this.folders.get(diskFolder)?.watcher.close();
		this.folders.delete(diskFolder);
	}

	/** An entry of a watched folder made, removed, renamed (`rename`) or written (`change`); no name: look at the whole folder. */
	private onEvent(folder: string, event: string, name: string | null): void {
		if (this.closed) return;
		if (this.early !== null) {
			this.early.push({ folder, event, name });
			return;
		}
		const number = ++this.eventsHad;
		if (name !== null && name !== "") {
			this.track(this.look(nodePath.join(folder, name), event === "change", true, number));
			return;
		}
		const open = this.openEvents.opened(number);
		this.track(this.relist(folder).finally(() => this.openEvents.answered(open)));
	}

	/**
	 * Resolves once the events had so far are answered: each look at a path they named has made a
	 * pass begun after them (or ended), and each listing they started has ended. A file that keeps
	 * changing keeps its look going, but each pass of it ends within WATCH_SETTLE_MS and a look.
	 * Constant work for each call and each event, however many are open (a folder of 20,000 notes deleted).
	 */
	private eventsSoFarAnswered(boundMs: number): Promise<void> {
		return new Promise((resolve) => {
			let bound: NodeJS.Timeout | undefined;
			const endSooner = this.openEvents.waitFor(this.eventsHad, () => {
				clearTimeout(bound);
				resolve();
			});
			if (endSooner === null) resolve();
			else bound = setTimeout(endSooner, boundMs);
		});
	}

	private track(work: Promise<void>): void {
		this.running.add(work);
		void work.finally(() => this.running.delete(work));
	}

	/**
	 * Resolves once what other programs did on disk before this call is told to the vault: the events
	 * the system queued reach the watch at the event loop's next look at the network and files (two
	 * turns), then the looks and listings under way finish (WATCH_SETTLE_MS each, more while a file
	 * keeps changing: the caller bounds the wait), then the unlinks they found are told (a file gone
	 * is dropped RENAME_PAIRING_MS after, unless it turned up under another name).
	 */
	async caughtUp(): Promise<void> {
		for (let turn = 0; turn < 2; turn++) await new Promise((resolve) => setImmediate(resolve));
		await Promise.allSettled(this.running);
		await Promise.allSettled(this.unlinking);
	}

	/**
	 * Looks at a path, WATCH_SETTLE_MS after the event and once at a time: events that come meanwhile
	 * (a file written in many pieces gives one per write) are answered by one more look once it is done.
	 */
	private async look(diskPath: string, changed: boolean, settle = true, number = this.eventsHad): Promise<void> {
		const running = this.looking.get(diskPath);
		if (running) {
			running.again = true;
			running.changed &&= changed;
			running.unanswered ??= this.openEvents.opened(number);
			return;
		}
		const state: LookUnderWay = { again: false, changed, unanswered: this.openEvents.opened(number), answering: null };
		this.looking.set(diskPath, state);
		try {
			for (let more = true; more && !this.closed;) {
				// A moment for the write that made the event to finish (a new note shows empty first).
				if (settle || state.again) await new Promise((resolve) => setTimeout(resolve, WATCH_SETTLE_MS));
				if (this.closed) return;
				const asChange = state.changed;
				state.again = false;
				state.changed = true;
				state.answering = state.unanswered;
				state.unanswered = null;
				await this.lookOnce(diskPath, asChange);
				this.openEvents.answered(state.answering);
				state.answering = null;
				more = state.again;
			}
		} finally {
			this.looking.delete(diskPath);
			this.openEvents.answered(state.answering);
			this.openEvents.answered(state.unanswered);
		}
	}

	/** What is at a path now, told to the vault: a file made or changed, a link, a new folder (watched and listed), or something gone. */
	private async lookOnce(diskPath: string, changed: boolean): Promise<void> {
		if (!diskPath.startsWith(this.vault.jail.root + nodePath.sep)) return;
		const path = this.vaultPath(diskPath);
		if (path.split("/").some((part) => part.startsWith(".") || part === "")) return;
		const stats = await fs.lstat(diskPath).catch(() => undefined);
		if (this.closed) return;
		if (stats === undefined) {
			this.gone(path, diskPath);
			return;
		}
		if (stats.isDirectory()) {
			// A note swapped for a folder: gone (after the wait for a rename's other half), and the folder followed.
			if (this.vault.known(path)) this.onUnlink(path);
			const watched = this.folders.get(diskPath);
			if (watched !== undefined && watched.ino !== stats.ino) {
				// Another folder at the name: the watched one was moved away (its watch went with it, and named what changed
				// there as here), this one is not watched yet.
				this.unwatchUnder(diskPath);
				await this.addFolder(diskPath);
			} else if (watched === undefined) await this.addFolder(diskPath);
			// Watched already, yet named by a rename (or listed again with its parent): moved away and back, its notes
			// perhaps followed under the other name meanwhile (and dropped there once that name is gone). Listed again,
			// its folders too; a note still known where it is costs two lstats.
			else if (!changed) await this.relist(diskPath);
			return;
		}
		if (this.folders.has(diskPath)) this.gone(path, diskPath);
		if (stats.isFile() && changed) await this.onChange(path, diskPath);
		else await this.onAdd(path, diskPath);
	}

	/** A folder made (or moved in) while watching: watched, then listed, each file in it reported as added. */
	private async addFolder(diskFolder: string): Promise<void> {
		// A folder swapped for a link since it was seen: not watched (a watch follows the link).
		if (!(await this.vault.jail.isFolderReal(diskFolder)) || this.closed) return;
		this.watchFolder(diskFolder);
		await this.relist(diskFolder);
	}

	/**
	 * Every entry of a folder looked at, and the known files directly in it that are no longer there reported gone.
	 * Its watched folders are listed again too (`lookOnce`: a folder named again may have been moved away and back),
	 * so a listing costs the folder's whole subtree, about two lstats a note: the vault's, for an event with no name at its root.
	 */
	private async relist(diskFolder: string): Promise<void> {
		const names = await fs.readdir(diskFolder).catch(() => null);
		if (this.closed) return;
		// Checked after the listing too: a folder swapped for a link meanwhile was listed through it, and
		// each folder found there would be watched and listed in turn, outside the vault. Its link is
		// reported by the watch on the folder above.
		if (names !== null && !(await this.vault.jail.isFolderReal(diskFolder))) {
			this.unwatchUnder(diskFolder);
			return;
		}
		if (names === null) {
			if (diskFolder !== this.vault.jail.root) this.gone(this.vaultPath(diskFolder), diskFolder);
			return;
		}
		const present = new Set(names.map((name) => nodePath.join(diskFolder, name)));
		// A few at a time, without the wait: a folder moved in is paired with the one gone before the gone one's notes count as deleted.
		const entries = names.filter((name) => !name.startsWith("."));
		for (let first = 0; first < entries.length; first += SCAN_BATCH_FILES)
			await Promise.all(entries.slice(first, first + SCAN_BATCH_FILES).map((name) => this.look(nodePath.join(diskFolder, name), false, false)));
		for (const file of this.vault.knownUnder(diskFolder === this.vault.jail.root ? "" : this.vaultPath(diskFolder)))
			if (nodePath.dirname(file.diskPath) === diskFolder && !present.has(file.diskPath)) this.onUnlink(file.path);
	}

	/**
	 * Nothing at a path any more: a file gone, or a folder with all it held (each file reported as unlinked, which a
	 * rename pairs). A folder's notes are looked up whether it was watched or not: one moved away and back while its
	 * look was under way may have been found away and unwatched, and back again before it could be watched anew,
	 * its notes still listed; gone once more, they were kept for good (only a watched folder's were unlinked).
	 */
	private gone(path: string, diskPath: string): void {
		this.unwatchUnder(diskPath);
		if (this.vault.known(path)) {
			this.onUnlink(path);
			return;
		}
		const under = this.vault.knownUnder(path);
		if (under.length === 0) this.onUnlink(path);
		for (const file of under) this.onUnlink(file.path);
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

	/**
	 * A known file unlinked RENAME_PAIRING_MS ago and not yet seen under another name: dropped, once
	 * the events had meanwhile are answered (RENAME_PAIRING_LOOKS_MS at most), since the rename's
	 * other half may be among them (a moved folder's notes, listed a few at a time). Not once every
	 * look under way has ended: a note another program kept appending to held each delete the whole
	 * bound, and 20,000 deletes each waiting for 20,000 looks held the event loop 25 s.
	 */
	private async dropUnlessMoved(path: string, known: WatchedFile): Promise<void> {
		await this.eventsSoFarAnswered(RENAME_PAIRING_LOOKS_MS);
		if (this.closed || this.vault.known(path) !== known) return;
		// One look decides. Two (a plain file? then what is there?) dropped a note made again between them (an editor
		// saving by delete and create, a checkout), and it stayed out when the look its own event made had come first.
		const stats = await this.settledStats(path, known.diskPath);
		if (this.closed || this.vault.known(path) !== known) return;
		if (stats?.isFile() === true) await this.keepMadeAgain(path, known, stats);
		// Swapped for a link (one whose target is missing is reported as an unlink): hidden, like any link.
		else if (stats?.isSymbolicLink() === true) this.vault.forget(path);
		else this.vault.drop(path, known);
	}

	/**
	 * A plain file at a known note's path again once its unlink's wait is over: the note is kept, and read again unless
	 * these are the stats it has (its event's look came first). Found through a folder swapped for a link, it is outside
	 * the vault: dropped, never read.
	 */
	private async keepMadeAgain(path: string, known: WatchedFile, stats: Stats): Promise<void> {
		const real = await this.vault.jail.isFolderReal(nodePath.dirname(known.diskPath));
		if (this.closed || this.vault.known(path) !== known) return;
		if (!real) this.vault.drop(path, known);
		else if (!this.vault.isOwnWrite(known, stats)) this.vault.changedOnDisk(path, stats, known.diskPath);
	}

	private onUnlink(path: string): void {
		const known = this.vault.known(path);
		if (!known) {
			// Gone, or swapped for a link (a dangling one too): a link that is still there stays hidden.
			void fs.lstat(this.vault.jail.diskPath(path)).then(
				(stats) => {
					if (!stats.isSymbolicLink()) this.vault.unhideLink(path);
				},
				() => this.vault.unhideLink(path),
			);
			return;
		}
		// Wait a moment: if the same inode shows up under another name, it was a rename, reported by onAdd.
		const told = new Promise<void>((end) => {
			const timer = setTimeout(() => {
				this.pendingUnlinks.delete(timer);
				void this.dropUnlessMoved(path, known).finally(end);
			}, RENAME_PAIRING_MS);
			this.pendingUnlinks.set(timer, end);
		});
		this.unlinking.add(told);
		void told.finally(() => this.unlinking.delete(told));
	}
}

/** A path being looked at: whether another event came for it meanwhile (and whether all were changes), and the events its looks answer. */
interface LookUnderWay {
	again: boolean;
	changed: boolean;
	/** The first event for the path since its last look began, answered by the next look. */
	unanswered: OpenEvent | null;
	/** The first event the look being made now answers (null between looks). */
	answering: OpenEvent | null;
}

/** True when a plain file (not a link, which a check that follows links would report) is at the disk path. */
function isPlainFile(diskPath: string): Promise<boolean> {
	return fs.lstat(diskPath).then(
		(stats) => stats.isFile(),
		() => false,
	);
}
