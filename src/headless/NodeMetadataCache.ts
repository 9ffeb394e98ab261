import type { CachedMetadata, EventRef } from "obsidian";
import type { HostAbstractFile, HostFile, HostMetadataCache, LinkMap } from "../host/Host";
import { NoteTooLargeError } from "../host/NoteTooLargeError";
import {
	MAX_STARTUP_PARSE_BYTES,
	MAX_VAULT_PATH_CHARS,
	METADATA_PARSE_SLICE_MS,
	NOTE_READ_RETRY_PAUSES_MS,
	NOTE_REPARSE_GAP_MAX_MS,
	NOTE_REPARSE_GAP_PARSE_TIMES,
	RESOLVE_CHECK_INTERVAL,
	HUGE_NOTE_LINKS,
} from "../config/limits";
import { metadataRecordsSteps, parseMetadataOnClock } from "../markdown/metadata";
import { canvasLinksSteps } from "../canvas/canvasLinks";
import { SliceClock, type Steps } from "../markdown/steps";
import { HostEvents } from "./events";
import { LinkFileIndex } from "../paths/linkResolution";
import { askedName, LinkSourcesByName, namesAnsweredBy } from "./linkSourcesByName";
import { linkpathOf } from "../markdown/inline";
import { frontmatterBoundProblemSteps, splitFrontmatter, wikilinkTextsOf } from "../markdown/frontmatter";
import { detachStrings, detachStringsSteps } from "./detachedStrings";
import { compactMetadataSteps, linkTextsInSteps, PackedMetadataStore, packedReferencesSteps } from "./compactMetadata";
import { sha256HexInPieces } from "../sha256";
import type { NodeVault } from "./NodeVault";
import { eventLoopTurns } from "../turns";
import { LinkCountsInParts } from "./linkCountsInParts";
import { isInFolder } from "../vault/scope";

/**
 * Obsidian's `MetadataCache` for the headless host: every Markdown note's `CachedMetadata`,
 * `resolvedLinks` and `unresolvedLinks` for the whole vault, link resolution, and Obsidian's
 * events (`changed`, `deleted`, `resolved`), kept current from the vault's events — the file
 * watcher's included, so edits made by other programs are followed.
 */
export class NodeMetadataCache implements HostMetadataCache {
	readonly resolvedLinks: LinkMap = {};
	readonly unresolvedLinks: LinkMap = {};
	private readonly caches = new Map<string, CachedMetadata>();
	/**
	 * The note or canvas each metadata or canvas link list was parsed for: a path's entry may be another file's, parsed
	 * at the path it has now (`onRename`).
	 */
	private readonly parsedFor = new WeakMap<CachedMetadata | string[], HostFile>();
	/** The link texts each canvas holds, for resolution (a note's are read from its metadata). */
	private readonly canvasLinks = new Map<string, string[]>();
	private readonly resolver = new LinkFileIndex<HostFile>();
	/** The sources a created, deleted or renamed file can change: those with a link asking for its name. */
	private readonly linkSources = new LinkSourcesByName();
	/**
	 * The link texts of notes with many links, by their metadata (a note's is replaced when it changes,
	 * never changed): a file created, deleted or renamed under any name such a note links to resolves
	 * all its links again, and listing a 5 MB note's 700,000 link texts each time was one piece of about 0.1 s.
	 */
	private readonly hugeNoteLinkTexts = new WeakMap<CachedMetadata, string[]>();
	/**
	 * The `[[link]]` texts of a note's frontmatter that is over a YAML bound, so not read as
	 * properties (no `frontmatterLinks`): Obsidian reads it and resolves those links, so they are
	 * resolved here too. A rename then finds the note among those linking to the renamed one and names
	 * it in `frontmatter_not_rewritten` (it was left out when such a link was the note's only one).
	 */
	private readonly unreadFrontmatterLinkTexts = new WeakMap<CachedMetadata, string[]>();
	/**
	 * The names the links of a source with many links asked for, as they were last resolved, to be
	 * forgotten in runs that pause: reading them back from its records (below) lists all their keys
	 * in one piece first, about 0.1 s for a note linking 200,000 names. With the lists of link texts
	 * they came from: resolved again with the same links (a file created under one of its names),
	 * the source asks for the same names, and forgetting and adding them all again is skipped.
	 */
	private readonly hugeSourceAskedNames = new Map<string, { lists: ReadonlyArray<readonly string[]>; names: string[] }>();
	/**
	 * The text each huge note kept as parsed was parsed from (its metadata's strings are mostly
	 * slices of it, so it is held anyway): a rename's plan reads that note's links from its metadata
	 * when it reads the same text (`parsedFrom`), instead of parsing a megabyte again.
	 */
	private readonly parsedTexts = new WeakMap<CachedMetadata, string>();
	/**
	 * The SHA-256 of the text each note's metadata (or canvas's link list) was parsed from (`parseNow`, and `build` at
	 * start): a parse that reads that very text again keeps them unparsed, as Obsidian keeps the metadata it has for a
	 * text's hash. A writer's parse ahead and the write's own queued parse read the same text; so did every parse queued
	 * behind another program's writes once they stopped, and a note's first touch after start. Hashing at start costs
	 * about 1% of the start's CPU (6,571 notes of 15 M characters: 36–54 ms of 3–5 s) and 0.9 MB of heap. A rename's
	 * plan reads a packed note's links from its metadata when it reads that very text (`parsedFrom`): every linking
	 * note was parsed for the plan, then again once written, 0.8 of the 2.6 GB a rename of 171,500 links allocated.
	 */
	private readonly textDigests = new WeakMap<CachedMetadata | string[], string>();
	/** How many links of each source point nowhere (`unresolvedLinkTotal`): set and dropped with its `unresolvedLinks` record. */
	private readonly unresolvedTotals = new Map<string, number>();
	/** Sources whose links are being resolved again: their asked names are part forgotten, part added, their records the old ones. */
	private readonly resolving = new Set<string>();
	/** Tags and link texts shared by the notes' compact metadata, and their lists lately read. */
	private readonly packed = new PackedMetadataStore();
	private readonly events = new HostEvents();
	private readonly vaultRefs: EventRef[] = [];
	/** Notes whose read failed for a passing reason, by path: the tries made, and the timer of the next. */
	private readonly readRetries = new Map<string, { tries: number; timer: ReturnType<typeof setTimeout> | null }>();
	/**
	 * Notes changed on disk whose parse found nothing where they were (moved or deleted before it read them): their
	 * metadata is that of an older text. Another program that rewrites a note and renames it before the parse reads it
	 * gives a rename whose stats are the rewrite's, already seen, so no change comes with it: the rename parses it again.
	 * Until a parse reads them they are named as not read yet (`notesAwaitingReread`); dropped from here when deleted.
	 */
	private readonly movedBeforeRead = new Set<HostFile>();
	/**
	 * Notes whose parse found nothing at the path the vault still lists them at, to be read again once the watcher has
	 * told what other programs did before (`rereadOnceSeen`), and the wait under way. Moved or deleted, their rename
	 * or delete is queued by then; still listed there, they (or their folder) were moved away and back, and the
	 * watcher, finding them as it last saw them, tells nothing: no event would read them again.
	 */
	private readonly rereadsDue = new Set<{ file: HostFile; path: string }>();
	private rereading: Promise<void> | null = null;
	/** Notes read again after a miss, until a read of them succeeds: one not found twice waits for its event (a vault not watched would loop). */
	private readonly rereadAfterMiss = new WeakSet<HostFile>();
	private closed = false;
	/** Vault changes are applied one at a time, in order. */
	private updates: Promise<unknown> = Promise.resolve();
	/** Notes and canvases with parses queued or under way, and how many: their links are not their text's yet (`notesBeingParsed`). */
	private readonly parsesDue = new Map<HostFile, number>();
	/**
	 * The queued parse of each note (or canvas) that has not begun, queued since the last delete or rename: it reads the
	 * text when it begins, so a change of the note reported meanwhile is parsed by it, not queued again (`enqueueModify`).
	 * With one queued for each change, another program appending to a 5,000-line note every 5 ms left 60–100 full parses
	 * of its last text queued when it stopped: 5–12 s of CPU, the metadata settled 13–30 s later.
	 */
	private readonly parsesNotBegun = new Map<HostFile, QueuedChange>();
	/** When each note's (or canvas's) last parse ended, and how long it took from its read: the gap before its next (`reparseWait`). */
	private readonly lastParses = new WeakMap<HostFile, { endedAt: number; took: number }>();
	/**
	 * Parses of notes changed again within the gap after their last parse (`reparseWait`), not queued yet: counted in
	 * `parsesDue` and `parsesNotBegun` already, queued when their timer fires, or at once by `queueNow` (a write's wait,
	 * `settled`).
	 */
	private readonly parsesWaiting = new Map<QueuedChange, { timer?: ReturnType<typeof setTimeout>; readonly queueNow: () => void }>();
	/**
	 * Parsing and link resolution pause on this clock, so one huge note (or a big vault) never
	 * holds the event loop for more than about a slice: the server keeps answering. The turns are
	 * the process's lane, shared with the search index's updates and request bodies.
	 */
	private readonly clock = new SliceClock(METADATA_PARSE_SLICE_MS, () => this.pause());
	/** The clock of reads from outside the queue (`parsedFrom`): their pauses are no place for the queue's work to give way. */
	private readonly readingClock = new SliceClock(METADATA_PARSE_SLICE_MS, () => eventLoopTurns.take());
	/** Pauses the note being parsed may still take before the build returns (`build`'s `parseSlicesPerNote`); no bound after. */
	private pausesLeft = Infinity;
	/**
	 * Notes a write asked to have parsed ahead of the queue (`caughtUpWithNotes`), and the callers
	 * waiting: each is resolved once the note is parsed, ahead or in its turn. By file, not path: a
	 * note renamed during its last queued parse is answered as that parse ends, at its new path.
	 */
	private readonly parsesAsked = new Map<HostFile, Array<() => void>>();
	/** How many notes asked for each folder holds (at any depth), kept as they move: a move's end looks for those under its paths only where there are some. */
	private readonly askedFolders = new Map<string, number>();
	/** How many times a note was added to those asked for: a run of parses ahead goes on while asks came during its last round. */
	private asks = 0;
	/** Notes asked for that were deleted since: no longer the vault's file at their path, so not found there by a move's end. */
	private readonly askedGone = new Set<HostFile>();
	/** Paths (of files or folders) with a delete or rename queued or under way: a note there or under it is left to the queue (or `movedAhead`). */
	private readonly movesDue = new Map<string, number>();
	/** The vault's changes queued, in order, the first the one under way: what each concerns, for renames run ahead (`movedAhead`). */
	private readonly changesQueued: QueuedChange[] = [];
	/**
	 * The queued change that kept a note's moves from running ahead when last looked at (`movedAhead`): while it is
	 * queued they still may not, since changes leave the queue but never enter it ahead of others. Looked at again
	 * at every pause of the queue, 2,000 notes renamed behind another program's 5,000 queued deletes each walked the
	 * whole queue at each pause: 40 s of CPU before the writer was answered.
	 */
	private readonly movesHeldBy = new WeakMap<HostFile, QueuedChange>();
	/** Changes that have left `changesQueued` (ended, or run ahead). */
	private readonly changesGone = new WeakSet<QueuedChange>();
	/**
	 * The queue's parse under way (its read included): the note, the path it is read at, and whether a parse ahead of the
	 * same note overtook it: that one read the note's newer text, so this one ends at its next pause keeping nothing
	 * (`givingWay`). A parse ahead is never one: it runs inside the queue's pause, and its own ending cleared this one's.
	 */
	private queueParse: { readonly file: HostFile; readonly path: string; overtaken: boolean } | null = null;
	/** True while the queue's work waits at a pause or a read: the place where notes asked for may be parsed ahead. */
	private queueWaiting = false;
	/** The run of parses ahead under way, if any: the queue's work does not go on until it ends. */
	private parsingAhead: Promise<void> | null = null;

	private constructor(private readonly vault: NodeVault) {}

	private pause(): Promise<void> {
		if (this.pausesLeft-- <= 0) return Promise.reject(new ParsedAfterStart());
		return this.givingWay(eventLoopTurns.take());
	}

	/**
	 * Waits for `waiting` (the queue's turn of the lane, or its read of a note), parsing meanwhile the
	 * notes a write asked for (`caughtUpWithNotes`), and goes on only once those parses ended: the
	 * queue's work and a parse ahead never run interleaved, so a parse ahead finds the queue's work
	 * as it was at one of its pauses. A parse ahead's own pauses and reads just wait. The queue's parse of
	 * a note parsed ahead meanwhile from newer text ends here (`ParseOvertaken`).
	 */
	private async givingWay<T>(waiting: Promise<T>): Promise<T> {
		if (this.parsingAhead !== null) return waiting;
		this.queueWaiting = true;
		let waited: PromiseSettledResult<T>;
		try {
			this.parseAsked();
			[waited] = await Promise.allSettled([waiting]);
		} finally {
			await this.parsesAheadEnded();
			this.queueWaiting = false;
		}
		// Thrown at a pause or read only: the parse's work between two never stops half done. Over a failed read too: a
		// read of the older text refused as too large was kept as an empty note after the writer's answer, until its own parse.
		if (this.queueParse?.overtaken === true) throw new ParseOvertaken();
		if (waited.status === "rejected") throw waited.reason;
		return waited.value;
	}

	/** Resolves once no run of parses ahead is under way: a new run may start as one ends, so each end is looked past. */
	private async parsesAheadEnded(): Promise<void> {
		while (this.parsingAhead !== null) await this.parsingAhead;
	}

	/** Starts parsing the notes asked for, when there are some and the queue waits (`givingWay`). */
	private parseAsked(): void {
		if (!this.queueWaiting || this.parsingAhead !== null || this.parsesAsked.size === 0) return;
		// Set before the run starts: its own first read or pause must find it under way.
		let ended!: () => void;
		this.parsingAhead = new Promise<void>((resolve) => (ended = resolve));
		void this.parseAskedNow()
			.catch(() => undefined)
			.finally(() => {
				this.parsingAhead = null;
				ended();
			});
	}

	/**
	 * Parses each note asked for that the queue's work ahead of it does not touch, and resolves its
	 * callers. One the queue is resolving now, or parsing with no newer parse of it queued, or with a
	 * delete or rename queued at its path (or its folder's) that cannot run ahead (`movedAhead`), is
	 * left to its turn (`answerCaughtUp`): those change where links lead and which file a path is.
	 * One the queue is parsing from an older text is parsed ahead, and the queue's parse ends unkept.
	 */
	private async parseAskedNow(): Promise<void> {
		const leftToTurn = new Set<HostFile>();
		for (;;) {
			// A writer that asks while this run is under way finds it under way (`parseAsked`): its note is looked at by the next round.
			const asksBefore = this.asks;
			const ready: HostFile[] = [];
			// Those asked from now on may have written after these notes are read: answered by a later round.
			const answers: Array<() => void> = [];
			for (const [file, callers] of [...this.parsesAsked]) {
				if (leftToTurn.has(file)) continue;
				// Deleted since (or its path another file's now): nothing of it left to parse.
				const present = () => this.vault.getFileByPath(file.path) === file;
				// Its move still queued behind the change that held it: left to its turn with nothing looked up again. Each
				// pause of the queue looked up each waiting note's queued moves: more pauses on a busier machine, more lookups.
				if (present() && this.heldStill(file)) {
					leftToTurn.add(file);
					continue;
				}
				if (present() && this.moveDueAt(file.path) && this.queueParse?.path !== file.path && !this.resolving.has(file.path))
					await this.movedAhead(file);
				const due = present() && this.parsesDue.has(file);
				const overtakable = due ? this.overtakableParse(file) : null;
				const busy = (this.queueParse?.path === file.path && overtakable === null) || this.resolving.has(file.path);
				if (present() && (this.moveDueAt(file.path) || (due && busy))) {
					leftToTurn.add(file);
					continue;
				}
				this.forgetAsked(file);
				answers.push(...callers);
				if (due) ready.push(file);
				if (overtakable !== null) overtakable.overtaken = true;
			}
			if (ready.length > 0) await this.parseAhead(ready);
			for (const answer of answers) answer();
			if (answers.length === 0 && this.asks === asksBefore) return;
		}
	}

	/**
	 * The queue's parse under way when it is of `file`, where it still is, with a newer parse of it queued after (the
	 * write's): a parse ahead may overtake it, since what it read is replaced anyway. A big note another program saved,
	 * then written by the server during its parse, had its writer wait for the rest of that parse before its own.
	 */
	private overtakableParse(file: HostFile): { overtaken: boolean } | null {
		const underWay = this.queueParse;
		return underWay?.file === file && underWay.path === file.path && (this.parsesDue.get(file) ?? 0) >= 2 ? underWay : null;
	}

	/**
	 * Parses notes ahead of the queue: their metadata and their own links, against the files the vault
	 * holds now (a created one is added to them first, so notes one call created link to each other;
	 * its queued create adds nothing more). Their queued parses still run in turn and read their text
	 * then: the cache ends with the newest text, and links to their names from other notes are
	 * resolved by their queued creates.
	 */
	private async parseAhead(files: readonly HostFile[]): Promise<void> {
		for (const file of files) this.resolver.add(file);
		for (const file of files) {
			try {
				await this.parse(file, true);
				await this.resolveSource(file.path);
			} catch {
				// As a queued change that fails: its queued parse is still to come.
			}
		}
		this.events.trigger("resolved");
	}

	/**
	 * Resolves the callers of each note asked for among `files` with nothing of it left queued: no parse, no delete or
	 * rename at its path. Called as a change ends with the notes that change may have freed, not every note asked for:
	 * a rename relinking thousands of notes, beside another program's mass delete, asked thousands at each of its ends.
	 */
	private answerCaughtUp(files: Iterable<HostFile>): void {
		for (const file of files) if (this.parsesAsked.has(file) && !this.parsesDue.has(file) && !this.moveDueAt(file.path)) this.answerAsked(file);
	}

	/**
	 * The notes asked for at `paths` or under them (a moved folder's): looked up by path, and walked only for a path that
	 * holds some. Each end of another program's 5,000 queued deletes walked the 2,000 notes a rename's writer asked for.
	 */
	private askedAt(paths: readonly string[]): Set<HostFile> {
		const found = new Set<HostFile>();
		for (const path of paths) {
			const at = this.vault.getFileByPath(path);
			if (at !== null && this.parsesAsked.has(at)) found.add(at);
			if (this.askedFolders.has(path)) for (const file of this.parsesAsked.keys()) if (isInFolder(file.path, path)) found.add(file);
			for (const file of this.askedGone) if (isInFolder(file.path, path)) found.add(file);
		}
		return found;
	}

	/** Adds one to (or, with -1, takes one from) the count of notes asked for in each folder holding `path`. */
	private countAskedFolders(path: string, by: 1 | -1): void {
		for (let end = path.lastIndexOf("/"); end > 0; end = path.lastIndexOf("/", end - 1)) {
			const folder = path.slice(0, end);
			const count = (this.askedFolders.get(folder) ?? 0) + by;
			if (count > 0) this.askedFolders.set(folder, count);
			else this.askedFolders.delete(folder);
		}
	}

	/** Drops `file` from the notes asked for (its callers are answered by the caller). */
	private forgetAsked(file: HostFile): void {
		if (this.parsesAsked.delete(file)) this.countAskedFolders(file.path, -1);
		this.askedGone.delete(file);
	}

	/** Resolves the callers waiting for `file` to be parsed. */
	private answerAsked(file: HostFile): void {
		const callers = this.parsesAsked.get(file);
		this.forgetAsked(file);
		for (const resolve of callers ?? []) resolve();
	}

	/**
	 * Runs ahead of the queue the moves queued at `file`'s path, when only they keep it from being
	 * parsed ahead: its own renames (a note the server renamed, or one written just after a rename;
	 * every rename of a chain, the first ones from paths it has left), and the delete of another file
	 * that was at its path (a note deleted, then made again).
	 * Nothing runs ahead while the queue's pause is in a delete, a rename, a resolution of links or a
	 * change of `file`. The moves at its path then run one at a time, in order, up to the first that
	 * may not:
	 * - a rename of another file, or of a folder holding it; a delete of anything but another file at exactly its path;
	 * - a move of the file whose change is under way;
	 * - a move after a change that concerns its paths (or a folder of them) or a file by one of its
	 *   names (links to a name lead to the nearest, then the shortest path): the moved file's own
	 *   queued parses aside.
	 * Then the note's links are resolved against the files the vault holds now, and none leads to a path gone.
	 */
	private async movedAhead(file: HostFile): Promise<void> {
		const underWay = this.changesQueued[0];
		if (underWay === undefined || underWay.kind !== "parse" || underWay.file === file || this.resolving.size > 0) return;
		if (this.heldStill(file)) return;
		const held = (by: QueuedChange) => void this.movesHeldBy.set(file, by);
		for (let at = 1; at < this.changesQueued.length; at++) {
			const change = this.changesQueued[at]!;
			if (change.kind === "parse") continue;
			// Each of its own renames, not only the last: a note renamed twice before the queue reached the first comes to its path through both.
			const ownRename = change.kind === "rename" && change.file === file;
			if (!ownRename && !change.paths.some((path) => concerns(path, file.path))) continue;
			const own = ownRename || (change.kind === "delete" && change.paths[0] === file.path && change.file !== file);
			if (!own || change.runAhead === null) return held(change);
			if (underWay.file === change.file) return held(underWay);
			// Links lead to a name's files by path (the nearest, then the shortest): a change of another file by one of its names moves them too.
			const names = new Set(change.paths.map(linkedName));
			for (let before = 0; before < at; before++) {
				const earlier = this.changesQueued[before]!;
				if (before > 0 && earlier.kind === "parse" && earlier.file === change.file) continue;
				if (earlier.paths.some((path) => names.has(linkedName(path)) || change.paths.some((other) => concerns(path, other)))) return held(earlier);
			}
			this.changesQueued.splice(at--, 1);
			this.changesGone.add(change);
			await change.runAhead();
			// The delete resolved the links to the name without the note made again there: they reach it now, not at its queued create.
			if (change.kind === "delete") {
				this.resolver.add(file);
				await this.resolveAsking(file.name);
			}
		}
	}

	/**
	 * Whether the change that last kept `file`'s moves from running ahead (`movesHeldBy`) is still queued: they still
	 * may not, and one of them is still queued behind it (so a move is due at the note's path).
	 */
	private heldStill(file: HostFile): boolean {
		const heldBy = this.movesHeldBy.get(file);
		return heldBy !== undefined && !this.changesGone.has(heldBy);
	}

	/**
	 * Whether a queued delete or rename names `path` or a folder holding it: the path and each of its folders looked up,
	 * one lookup a folder level, not one a queued move (another program's mass delete queues thousands).
	 */
	private moveDueAt(path: string): boolean {
		for (let end = path.length; end > 0; end = path.lastIndexOf("/", end - 1)) if (this.movesDue.has(path.slice(0, end))) return true;
		return false;
	}

	/**
	 * Parses every note and resolves every link, then follows the vault's changes. With
	 * `parseSlicesPerNote`, a note whose parse is not done within that many slices
	 * (METADATA_PARSE_SLICE_MS each) is left, and parsed again just after the build returns, in
	 * slices, like a note over MAX_STARTUP_PARSE_BYTES: serve listens first. A note of 100,000
	 * `- [ ]` lines, or a table of 30,000 rows with a link and a tag, cost 400–600 ms before serve listened.
	 */
	static async build(vault: NodeVault, { parseSlicesPerNote = Infinity } = {}): Promise<NodeMetadataCache> {
		const cache = new NodeMetadataCache(vault);
		const files = vault.getFiles();
		for (const file of files) cache.resolver.add(file);
		const linkable = files.filter(isLinkSource);
		// A huge note would hold back the server's start for seconds: it is parsed just after, in slices, like an edit.
		const deferred = linkable.filter((file) => file.stat.size > MAX_STARTUP_PARSE_BYTES);
		for (const file of linkable) {
			if (file.stat.size > MAX_STARTUP_PARSE_BYTES) continue;
			let text: string;
			try {
				text = vault.readSync(file, MAX_STARTUP_PARSE_BYTES);
			} catch {
				// Grown past the bound since it was listed, or moved or unreadable now: tried again after start with the huge
				// notes, at its path then. A note moved before the cache listened was otherwise never parsed, for good.
				deferred.push(file);
				continue;
			}
			// Kept so that its first change to this very text (a touch, the same text written again) is no parse either.
			const digest = await sha256HexInPieces(text, cache.clock);
			// The slice the note starts in counts as its first: a pause is the end of one.
			cache.pausesLeft = parseSlicesPerNote - 1;
			try {
				await cache.index(file, text, digest);
			} catch (error) {
				if (!(error instanceof ParsedAfterStart)) throw error;
				deferred.push(file);
			} finally {
				cache.pausesLeft = Infinity;
			}
			await cache.clock.checkpoint();
		}
		// Most notes hold a few links, far under a run between two looks at the clock: looked at after each note
		// too, or 20,000 notes' links were resolved in one piece of 300–400 ms before the server listened.
		for (const file of linkable) {
			await cache.resolveSource(file.path);
			await cache.clock.checkpoint();
		}
		cache.linkSources.compact();
		cache.listen();
		for (const file of deferred) cache.enqueueModify(file);
		return cache;
	}

	/**
	 * A cache of one note's (or canvas's) metadata and links, resolved against every file of the
	 * vault, following nothing: for a command that prints only that note's (a note's links lead
	 * where they do whatever the other notes hold).
	 */
	static async ofOne(vault: NodeVault, file: HostFile): Promise<NodeMetadataCache> {
		const cache = new NodeMetadataCache(vault);
		for (const other of vault.getFiles()) cache.resolver.add(other);
		const text = await vault.cachedRead(file);
		await cache.index(file, text, await sha256HexInPieces(text, cache.clock));
		await cache.resolveSource(file.path);
		return cache;
	}

	/** A cache that holds no note's metadata and follows nothing: for a command that only writes notes back (see NodeHostOptions.metadata). */
	static unparsed(vault: NodeVault): NodeMetadataCache {
		return new NodeMetadataCache(vault);
	}

	/** Resolves once every change seen so far (and every note deferred at start) is in the cache: parses waiting out their gap are queued now. */
	async settled(): Promise<void> {
		for (let previous = null as Promise<unknown> | null; previous !== this.updates || this.parsesWaiting.size > 0;) {
			for (const { queueNow } of [...this.parsesWaiting.values()]) queueNow();
			previous = this.updates;
			await previous;
		}
	}

	/**
	 * Resolves once the notes at `paths` (a write's) are parsed from their text as it is now or newer,
	 * and any rename queued for them is in: ahead of other notes' queued parses, at the queue's next
	 * pause, so a huge note another program saved does not hold them (it held every write for the
	 * whole bound). A note with a delete queued at its path, or with a rename that cannot run ahead
	 * (`movedAhead`), once those ran in turn; a path a delete left, once every change reported
	 * before this call is in (changes reported later are not waited for, so a vault that keeps
	 * changing never holds the caller).
	 */
	async caughtUpWithNotes(paths: readonly string[]): Promise<void> {
		const files = new Set<HostFile>();
		const left: string[] = [];
		for (const path of new Set(paths)) {
			const file = this.vault.getFileByPath(path);
			if (file !== null) files.add(file);
			else if (this.moveDueAt(path)) left.push(path);
		}
		// A written note is parsed without its gap (`reparseWait`): the write's answer reads it.
		for (const [change, { queueNow }] of [...this.parsesWaiting]) if (files.has(change.file as HostFile)) queueNow();
		// A path left by one of these notes' renames is followed with the note; one left by a delete, with the whole queue.
		const byOthers = (path: string) =>
			this.changesQueued.some(
				(change) => change.kind !== "parse" && !files.has(change.file as HostFile) && change.paths.some((moved) => concerns(moved, path)),
			);
		if (left.some(byOthers)) {
			await this.updates;
			return;
		}
		const parsed: Array<Promise<void>> = [];
		for (const file of files) {
			if (!this.parsesDue.has(file) && !this.moveDueAt(file.path)) continue;
			parsed.push(
				new Promise<void>((resolve) => {
					const callers = this.parsesAsked.get(file);
					if (callers) callers.push(resolve);
					else {
						this.parsesAsked.set(file, [resolve]);
						this.countAskedFolders(file.path, 1);
						this.asks++;
					}
				}),
			);
		}
		this.parseAsked();
		await Promise.all(parsed);
	}

	async caughtUpWithDisk(): Promise<void> {
		await this.vault.outsideChangesSeen();
		// A parse that missed its note meanwhile queues its read again after a wait of its own.
		do {
			while (this.rereading !== null) await this.rereading;
			await this.settled();
		} while (this.rereading !== null);
	}

	notesAwaitingReread(): HostFile[] {
		return [...this.movedBeforeRead].filter((file) => this.vault.getFileByPath(file.path) === file);
	}

	notesBeingParsed(): HostFile[] {
		return [...this.parsesDue.keys()].filter((file) => this.vault.getFileByPath(file.path) === file);
	}

	getFileCache(file: HostFile): CachedMetadata | null {
		return this.caches.get(file.path) ?? null;
	}

	getCache(path: string): CachedMetadata | null {
		return this.caches.get(path) ?? null;
	}

	getFirstLinkpathDest(linkpath: string, sourcePath: string): HostFile | null {
		return this.resolver.resolve(linkpath, sourcePath);
	}

	async parsedFrom(path: string, text: string): Promise<CachedMetadata | null> {
		const cache = this.caches.get(path);
		if (cache === undefined) return null;
		if (this.parsedTexts.get(cache) === text) return cache;
		const digest = this.textDigests.get(cache);
		if (digest === undefined || (await sha256HexInPieces(text, this.readingClock)) !== digest) return null;
		const references = await this.readingClock.run(packedReferencesSteps(cache));
		if (references === null) return cache;
		return { ...references, frontmatterLinks: cache.frontmatterLinks, frontmatterPosition: cache.frontmatterPosition };
	}

	unresolvedLinkTotal(source: string): number {
		return this.unresolvedTotals.get(source) ?? 0;
	}

	mayAskForName(source: string, fileName: string): boolean {
		return this.resolving.has(source) || this.linkSources.asks(source, fileName);
	}

	on(name: "changed", callback: (file: HostFile, data: string, cache: CachedMetadata) => unknown): EventRef;
	on(name: "deleted", callback: (file: HostFile, prevCache: CachedMetadata | null) => unknown): EventRef;
	on(name: "resolve", callback: (file: HostFile) => unknown): EventRef;
	on(name: "resolved", callback: () => unknown): EventRef;
	on(name: string, callback: (...args: never[]) => unknown): EventRef {
		return this.events.on(name, callback);
	}

	offref(ref: EventRef): void {
		this.events.offref(ref);
	}

	/** Listeners registered on the cache, for leak tests. */
	get listenerCount(): number {
		return this.events.listenerCount;
	}

	/** Stops following the vault. */
	close(): void {
		this.closed = true;
		this.movedBeforeRead.clear();
		for (const ref of this.vaultRefs.splice(0)) this.vault.offref(ref);
		for (const retry of this.readRetries.values()) if (retry.timer) clearTimeout(retry.timer);
		this.readRetries.clear();
		for (const { timer } of this.parsesWaiting.values()) clearTimeout(timer);
		this.parsesWaiting.clear();
		for (const file of [...this.parsesAsked.keys()]) this.answerAsked(file);
	}

	private listen(): void {
		this.vaultRefs.push(
			this.vault.on("create", (file) => this.enqueueParse(file, () => this.onCreate(file))),
			this.vault.on("modify", (file) => {
				this.forgetReadRetry(file.path);
				this.enqueueModify(file);
			}),
			this.vault.on("delete", (file) => {
				if (this.parsesAsked.has(file as HostFile)) this.askedGone.add(file as HostFile);
				this.enqueueMove(file, "delete", [file.path], () => this.onDelete(file));
			}),
			this.vault.on("rename", (file, oldPath) => {
				// A note asked for is counted in the folders it is in now.
				if (this.parsesAsked.has(file as HostFile)) {
					this.countAskedFolders(oldPath, -1);
					this.countAskedFolders(file.path, 1);
				}
				this.enqueueMove(file, "rename", [file.path, oldPath], () => this.onRename(file, oldPath));
			}),
		);
	}

	/**
	 * Enqueues a delete or rename, its paths counted in `movesDue` from now until it ends. It runs once:
	 * in its turn, or before, when a write's note waits for it (`movedAhead`: a file's, not a folder's).
	 */
	private enqueueMove(file: HostAbstractFile, kind: "delete" | "rename", paths: readonly string[], work: () => Promise<void>): void {
		for (const path of paths) this.movesDue.set(path, (this.movesDue.get(path) ?? 0) + 1);
		// A change reported from now on is after this move: a parse queued before the move does not stand for it.
		this.parsesNotBegun.clear();
		let ran: Promise<void> | null = null;
		const run = (): Promise<void> =>
			(ran ??= (async () => {
				try {
					await work();
				} finally {
					for (const path of paths) {
						const left = (this.movesDue.get(path) ?? 1) - 1;
						if (left > 0) this.movesDue.set(path, left);
						else this.movesDue.delete(path);
					}
					this.answerCaughtUp(this.askedAt(paths));
				}
			})());
		this.enqueue({ file, paths, kind, runAhead: "extension" in file ? run : null }, run);
	}

	/** Queues `work`, listed in `changesQueued` (as `change`) until it ends or runs ahead. */
	private enqueue(change: QueuedChange, work: () => Promise<void>): void {
		this.changesQueued.push(change);
		this.updates = this.updates
			.then(work)
			.catch(() => undefined)
			.finally(() => this.dropQueued(change));
	}

	private dropQueued(change: QueuedChange): void {
		this.changesGone.add(change);
		// In order, but for a delete or rename run ahead (dropped then).
		if (this.changesQueued[0] === change) this.changesQueued.shift();
		else {
			const at = this.changesQueued.indexOf(change);
			if (at >= 0) this.changesQueued.splice(at, 1);
		}
	}

	/**
	 * Enqueues a parse of a changed note (or canvas), unless one queued has not begun yet (`parsesNotBegun`): that one
	 * reads this change. Changed again within the gap after its last parse (`reparseWait`), it is queued once the gap ends.
	 */
	private enqueueModify(file: HostAbstractFile): void {
		if ("extension" in file && this.parsesNotBegun.has(file as HostFile)) return;
		this.enqueueParse(file, () => this.onModify(file), "extension" in file ? this.reparseWait(file as HostFile) : 0);
	}

	/**
	 * How long a note's next parse waits: until NOTE_REPARSE_GAP_PARSE_TIMES its last parse's time (at most
	 * NOTE_REPARSE_GAP_MAX_MS) has passed since that parse ended; 0 or less when it may be queued now.
	 */
	private reparseWait(note: HostFile): number {
		const last = this.lastParses.get(note);
		if (last === undefined) return 0;
		return last.endedAt + Math.min(NOTE_REPARSE_GAP_MAX_MS, NOTE_REPARSE_GAP_PARSE_TIMES * last.took) - performance.now();
	}

	/**
	 * Enqueues `work`, which parses `file`, now or after `waitMs` (`parsesWaiting`): counted in `parsesDue` from now
	 * until it ends (a folder is not counted).
	 */
	private enqueueParse(file: HostAbstractFile, work: () => Promise<void>, waitMs = 0): void {
		const note = "extension" in file && isLinkSource(file as HostFile) ? (file as HostFile) : null;
		const change: QueuedChange = { file, paths: [file.path], kind: "parse", runAhead: null };
		if (note === null) return this.enqueue(change, work);
		this.parsesDue.set(note, (this.parsesDue.get(note) ?? 0) + 1);
		this.parsesNotBegun.set(note, change);
		const parse = async () => {
			if (this.parsesNotBegun.get(note) === change) this.parsesNotBegun.delete(note);
			try {
				await work();
			} finally {
				const left = (this.parsesDue.get(note) ?? 1) - 1;
				if (left > 0) this.parsesDue.set(note, left);
				else {
					this.parsesDue.delete(note);
					this.answerCaughtUp([note]);
				}
			}
		};
		if (waitMs <= 0) return this.enqueue(change, parse);
		const queueNow = () => {
			const waiting = this.parsesWaiting.get(change);
			if (waiting === undefined) return;
			clearTimeout(waiting.timer);
			this.parsesWaiting.delete(change);
			this.enqueue(change, parse);
			// A writer waiting for this note while the queue is at a pause parses it ahead now.
			this.parseAsked();
		};
		const waiting: { timer?: ReturnType<typeof setTimeout>; readonly queueNow: () => void } = { queueNow };
		const due = performance.now() + waitMs;
		// Set again for what is left when it fires early: a timer counts from the event loop's time, which a long turn leaves behind.
		const wait = (ms: number) => {
			waiting.timer = setTimeout(() => (performance.now() < due ? wait(due - performance.now()) : queueNow()), ms);
			// A parse waiting never keeps a finished command's process alive.
			waiting.timer.unref?.();
		};
		wait(waitMs);
		this.parsesWaiting.set(change, waiting);
	}

	private async onCreate(abstractFile: HostAbstractFile): Promise<void> {
		const file = this.vault.getFileByPath(abstractFile.path);
		if (!file) return;
		this.resolver.add(file);
		if (isLinkSource(file)) {
			await this.parse(file, true);
			await this.resolveSource(file.path);
		}
		// A new file can resolve links that pointed nowhere before, or be nearer than their target.
		await this.resolveAsking(file.name);
	}

	private async onModify(abstractFile: HostAbstractFile): Promise<void> {
		const file = this.vault.getFileByPath(abstractFile.path);
		if (!file || !isLinkSource(file)) return;
		await this.parse(file, true);
		await this.resolveSource(file.path);
		this.events.trigger("resolved");
	}

	private async onDelete(file: HostAbstractFile): Promise<void> {
		this.movedBeforeRead.delete(file as HostFile);
		this.resolver.remove(file.path);
		const previous = this.caches.get(file.path) ?? null;
		await this.forget(file.path);
		if (previous) this.events.trigger("deleted", file, previous);
		await this.resolveAsking(file.name);
	}

	private async onRename(abstractFile: HostAbstractFile, oldPath: string): Promise<void> {
		this.resolver.remove(oldPath);
		const file = this.vault.getFileByPath(abstractFile.path);
		if (file) this.resolver.add(file);
		let cache = this.caches.get(oldPath);
		let links = this.canvasLinks.get(oldPath);
		// Parsed since for another note (or canvas) now at the old path (its change queued before this rename, parsed where
		// that file is now, its own rename onto the path still queued): that file's, left to it. Carried here, it stayed for good.
		const kept = cache ?? links;
		const another = kept !== undefined && this.parsedFor.get(kept) !== abstractFile;
		if (another) [cache, links] = [undefined, undefined];
		// Dropped and set again in one turn: no reader sees the note at neither path. A parse that ended after
		// the move (queued before it, or ahead of the queue) stored newer metadata at the new path: kept.
		const forgetting = another ? Promise.resolve() : this.forget(oldPath);
		if (cache && !this.caches.has(abstractFile.path)) this.caches.set(abstractFile.path, cache);
		if (links && !this.canvasLinks.has(abstractFile.path)) this.canvasLinks.set(abstractFile.path, links);
		await forgetting;
		const parsed = this.caches.has(abstractFile.path) || this.canvasLinks.has(abstractFile.path);
		// Never parsed, or not since its last change (it could not be read where it was): read where it is now.
		if (file && isLinkSource(file) && (!parsed || this.movedBeforeRead.has(file))) await this.parse(file, true);
		// Its own links: relative ones and the same-folder preference follow where it now is.
		if (this.caches.has(abstractFile.path) || this.canvasLinks.has(abstractFile.path)) await this.resolveSource(abstractFile.path);
		await this.resolveAsking(nameOf(oldPath), abstractFile.name);
	}

	/** Drops a source at once; its asked names are forgotten after, pausing (await it before resolving again). */
	private async forget(path: string): Promise<void> {
		const resolved = this.resolvedLinks[path];
		const unresolved = this.unresolvedLinks[path];
		this.caches.delete(path);
		this.canvasLinks.delete(path);
		delete this.resolvedLinks[path];
		delete this.unresolvedLinks[path];
		this.unresolvedTotals.delete(path);
		await this.forgetAskedNames(path, resolved, unresolved);
	}

	/** Reads and parses one note (or canvas); with `announce`, reports `changed` like Obsidian. */
	private async parse(file: HostFile, announce = false): Promise<void> {
		if (this.parsingAhead !== null) return this.parseNow(file, announce);
		// The path it is read at: a rename meanwhile changes the file's.
		this.queueParse = { file, path: file.path, overtaken: false };
		try {
			await this.parseNow(file, announce);
		} catch (error) {
			// Its note's newer text is parsed already: the caller goes on (resolving its links, or its name's) as after a parse.
			if (!(error instanceof ParseOvertaken)) throw error;
		} finally {
			this.queueParse = null;
		}
	}

	/** `parse`'s work. */
	private async parseNow(file: HostFile, announce: boolean): Promise<void> {
		const began = performance.now();
		let text: string;
		try {
			text = await this.givingWay(this.vault.cachedRead(file));
		} catch (error) {
			if (error instanceof ParseOvertaken) throw error;
			if (!(error instanceof NoteTooLargeError)) {
				if (isPassingReadError(error) && this.retryReadLater(file.path)) return;
				// Moved or deleted meanwhile: its rename or delete event follows, and reads it where it is; or moved
				// away and back, and read again once the watcher has told what came before.
				if (!isPassingReadError(error) && !isRefusedReadError(error)) {
					this.movedBeforeRead.add(file);
					this.rereadOnceSeen(file, file.path);
					return;
				}
			}
			// Not read (over MAX_READ_NOTE_BYTES, refused, or failing still after every retry): parsed as an empty
			// note, so nothing it held before is still claimed for it, and tools do not call it still being read for ever.
			text = "";
		}
		this.readRetries.delete(file.path);
		this.movedBeforeRead.delete(file);
		this.rereadAfterMiss.delete(file);
		const digest = await sha256HexInPieces(text, this.clock);
		// Parsed from this very text by this very file (not another file now at its path): kept, and told again as Obsidian tells it.
		const kept = file.extension === "canvas" ? this.canvasLinks.get(file.path) : this.caches.get(file.path);
		const ended = () => {
			const endedAt = performance.now();
			this.lastParses.set(file, { endedAt, took: endedAt - began });
		};
		if (kept !== undefined && this.parsedFor.get(kept) === file && this.textDigests.get(kept) === digest) {
			ended();
			if (announce && !Array.isArray(kept)) this.events.trigger("changed", file, text, kept);
			return;
		}
		const cache = await this.index(file, text, digest);
		ended();
		if (announce && cache) this.events.trigger("changed", file, text, cache);
	}

	/**
	 * Reads a note again after the next of NOTE_READ_RETRY_PAUSES_MS, as a change of it would; false
	 * when no try is left (a change reported by the vault gives it all its tries again).
	 */
	private retryReadLater(path: string): boolean {
		const retry = this.readRetries.get(path) ?? { tries: 0, timer: null };
		if (retry.timer !== null) return true;
		const pause = NOTE_READ_RETRY_PAUSES_MS[retry.tries];
		if (this.closed || pause === undefined) {
			this.readRetries.delete(path);
			return false;
		}
		retry.tries++;
		retry.timer = setTimeout(() => {
			retry.timer = null;
			const file = this.vault.getFileByPath(path);
			if (file) this.enqueueModify(file);
			else this.readRetries.delete(path);
		}, pause);
		// A retry never keeps a finished command's process alive.
		retry.timer.unref?.();
		this.readRetries.set(path, retry);
		return true;
	}

	/**
	 * Queues a parse of a note whose read found nothing at `path`, once the watcher has told what other programs did
	 * before (`outsideChangesSeen`), if the vault still lists it there and nothing read it since. Once until a read of
	 * it succeeds. The misses of a mass delete share a wait: one for those missed before it began, one for the rest.
	 */
	private rereadOnceSeen(file: HostFile, path: string): void {
		if (this.closed || this.rereadAfterMiss.has(file)) return;
		this.rereadAfterMiss.add(file);
		this.rereadsDue.add({ file, path });
		this.rereading ??= this.rereadWhenSeen();
	}

	private async rereadWhenSeen(): Promise<void> {
		while (this.rereadsDue.size > 0) {
			const missed = [...this.rereadsDue];
			this.rereadsDue.clear();
			await this.vault.outsideChangesSeen();
			for (const { file, path } of missed)
				if (!this.closed && this.movedBeforeRead.has(file) && this.vault.getFileByPath(path) === file) this.enqueueModify(file);
		}
		this.rereading = null;
	}

	/** Drops a note's pending retry: a change the vault reported reads it now, with every try again. */
	private forgetReadRetry(path: string): void {
		const retry = this.readRetries.get(path);
		if (retry?.timer) clearTimeout(retry.timer);
		this.readRetries.delete(path);
	}

	/** Parses a note's (or canvas's) text into the cache, with the text's SHA-256 (`textDigests`); returns the note's metadata. */
	private async index(file: HostFile, text: string, digest: string): Promise<CachedMetadata | null> {
		if (file.extension === "canvas") {
			const links = detachStrings(await this.clock.run(canvasLinkListSteps(text)));
			this.canvasLinks.set(file.path, links);
			this.parsedFor.set(links, file);
			this.textDigests.set(links, digest);
			return null;
		}
		// A huge note is kept as parsed: copying its strings or compacting its entries would hold the
		// event loop in one pass, and it keeps only its own text.
		if (text.length > MAX_STARTUP_PARSE_BYTES) {
			const parsed = await parseMetadataOnClock(text, this.clock);
			await this.keepUnreadFrontmatterLinks(parsed, text);
			this.caches.set(file.path, parsed);
			this.parsedFor.set(parsed, file);
			this.parsedTexts.set(parsed, text);
			this.textDigests.set(parsed, digest);
			return parsed;
		}
		// The list items are packed from the parser's records, never made into objects (unless the note stays as parsed).
		const parsed = await this.clock.run(metadataRecordsSteps(text));
		detachStrings(parsed.listItems.ids);
		await this.clock.run(detachStringsSteps(parsed.blocks.ids));
		const detached = await this.clock.run(detachStringsSteps(parsed.cache));
		const cache = await this.clock.run(compactMetadataSteps(detached, text, this.packed, parsed.listItems, parsed.blocks));
		await this.keepUnreadFrontmatterLinks(cache, text);
		this.caches.set(file.path, cache);
		this.parsedFor.set(cache, file);
		this.textDigests.set(cache, digest);
		return cache;
	}

	/** Keeps the link texts of `text`'s frontmatter when it is over a YAML bound (`unreadFrontmatterLinkTexts`). */
	private async keepUnreadFrontmatterLinks(cache: CachedMetadata, text: string): Promise<void> {
		if (cache.frontmatter !== undefined) return;
		const yaml = splitFrontmatter(text)?.yaml;
		if (yaml === undefined || !yaml.includes("[[")) return;
		// Broken YAML is not read by Obsidian either: its links are no links.
		if ((await this.clock.run(frontmatterBoundProblemSteps(yaml))) === null) return;
		const texts = detachStrings(wikilinkTextsOf(yaml));
		if (texts.length > 0) this.unreadFrontmatterLinkTexts.set(cache, texts);
	}

	/**
	 * Takes `path`'s links out of the index of asked names, before they are resolved again or the
	 * source goes. The names are read back from where its links led (a link reached a file of the name
	 * it asked for, or that name plus `.md`) rather than kept twice: that doubled the index's memory.
	 */
	private async forgetAskedNames(path: string, resolved: LinkMap[string] | undefined, unresolved: LinkMap[string] | undefined): Promise<void> {
		let index = 0;
		const asked = this.hugeSourceAskedNames.get(path);
		if (asked) {
			this.hugeSourceAskedNames.delete(path);
			for (const name of asked.names) {
				if (index++ % RESOLVE_CHECK_INTERVAL === RESOLVE_CHECK_INTERVAL - 1) await this.clock.checkpoint();
				this.linkSources.delete(name, path);
			}
			return;
		}
		// A planted note's 700,000 distinct link paths are read back in runs, pausing like its resolution.
		for (const target in resolved ?? {}) {
			if (index++ % RESOLVE_CHECK_INTERVAL === RESOLVE_CHECK_INTERVAL - 1) await this.clock.checkpoint();
			for (const name of namesAnsweredBy(nameOf(target))) this.linkSources.delete(name, path);
		}
		for (const linkpath in unresolved ?? {}) {
			if (index++ % RESOLVE_CHECK_INTERVAL === RESOLVE_CHECK_INTERVAL - 1) await this.clock.checkpoint();
			const name = askedName(linkpath, path);
			if (name !== null) this.linkSources.delete(name, path);
		}
	}

	/**
	 * Resolves again the sources with a link asking for one of `fileNames`, then says the links are
	 * resolved. The clock is looked at after each source, as at start: a source's links are far under
	 * a run between two looks, so 300 notes of 300 links each were resolved in one piece of 0.3-0.5 s.
	 */
	private async resolveAsking(...fileNames: string[]): Promise<void> {
		const sources = new Set(fileNames.flatMap((name) => this.linkSources.sourcesAsking(name)));
		for (const path of sources) {
			if (!this.caches.has(path) && !this.canvasLinks.has(path)) continue;
			await this.resolveSource(path);
			await this.clock.checkpoint();
		}
		this.events.trigger("resolved");
	}

	/** The link texts a note (body links and embeds, then frontmatter links, then those of a frontmatter over a YAML bound) or a canvas holds, as lists not to be changed: not copied into one. */
	private async linkTexts(path: string): Promise<ReadonlyArray<readonly string[]>> {
		const canvas = this.canvasLinks.get(path);
		if (canvas) return [canvas];
		const cache = this.caches.get(path);
		if (!cache) return [];
		let texts = this.hugeNoteLinkTexts.get(cache);
		if (!texts) {
			// In steps: a rename's move re-resolved a planted note's 100,000 link texts, read in one piece of 45 ms.
			texts = await this.clock.run(linkTextsInSteps(cache));
			if (texts.length >= HUGE_NOTE_LINKS) this.hugeNoteLinkTexts.set(cache, texts);
		}
		const unread = this.unreadFrontmatterLinkTexts.get(cache);
		return [texts, (cache.frontmatterLinks ?? []).map((entry) => entry.link), ...(unread ? [unread] : [])];
	}

	/**
	 * Resolves one source's links; a note with a million links pauses on the clock between runs of them,
	 * each run bounded by the files its links are compared with (a link to a name 3,000 folders hold
	 * costs 3,000: 512 such links a run held the server 250 ms at a time).
	 */
	private async resolveSource(path: string): Promise<void> {
		this.resolving.add(path);
		try {
			await this.resolveSourceLinks(path);
		} finally {
			this.resolving.delete(path);
		}
		// As Obsidian: kept counts over the link graph (get_graph_stats) follow one source at a time.
		const file = this.vault.getFileByPath(path);
		if (file) this.events.trigger("resolve", file);
	}

	/** `resolveSource`'s work: the source's records, its total of links pointing nowhere, and the names it asks for. */
	private async resolveSourceLinks(path: string): Promise<void> {
		const lists = await this.linkTexts(path);
		const resolved = lists.some((links) => links.length > 0) ? hashedRecord() : {};
		const huge = lists.reduce((count, links) => count + links.length, 0) >= HUGE_NOTE_LINKS;
		// A huge note's links pointing nowhere are counted in parts: one plain object of them grew in pieces of 0.1 s.
		const unresolved: Record<string, number> | LinkCountsInParts = huge ? new LinkCountsInParts() : {};
		let nowhere = 0;
		const kept = this.hugeSourceAskedNames.get(path);
		// The same links from the same path ask for the same names: those in the index stay.
		const sameNames = kept !== undefined && sameLinkTexts(kept.lists, lists);
		if (!sameNames) await this.forgetAskedNames(path, this.resolvedLinks[path], this.unresolvedLinks[path]);
		const asked: string[] | null = !sameNames && huge ? [] : null;
		// Each link counts one, and one more for each file it is compared with.
		const work = { compared: 0 };
		// Where each link path led since the last pause: a note's links mostly ask for a few paths (1,500 notes of 81 links
		// to one note were resolved link by link, 0.35 of the 1.7 GB a rename of them allocated). Forgotten at each pause,
		// where a file may come or go; a path longer than any file's is left out (V8 hashes such a key by its length only).
		let reached = new Map<string, HostFile | null>();
		for (const links of lists)
			for (const link of links) {
				if (work.compared >= RESOLVE_CHECK_INTERVAL) {
					work.compared = 0;
					await this.clock.checkpoint();
					reached = new Map();
				}
				work.compared++;
				const linkpath = linkpathOf(link);
				let target = reached.get(linkpath);
				if (target === undefined) {
					// A path's name was added to the index when it was first resolved since the pause.
					const name = sameNames ? null : askedName(linkpath, path);
					if (name !== null) {
						this.linkSources.add(name, path);
						if (asked && asked[asked.length - 1] !== name) asked.push(name);
					}
					target = this.resolver.resolve(linkpath, path, work);
					if (linkpath.length <= MAX_VAULT_PATH_CHARS) reached.set(linkpath, target);
				}
				if (target) resolved[target.path] = (resolved[target.path] ?? 0) + 1;
				else {
					// Longer than any path (and than V8 hashes whole), it is counted but kept by no key: 4 planted notes of 480
					// distinct 17,000-character links in these records held the server 15 s at start (see V8_HASHED_STRING_MAX_CHARS).
					if (linkpath.length <= MAX_VAULT_PATH_CHARS) {
						if (unresolved instanceof LinkCountsInParts) unresolved.add(linkpath);
						// Own counts only: a link to [[constructor]] counted on from `Object.prototype.constructor`, a function's text.
						else unresolved[linkpath] = (Object.hasOwn(unresolved, linkpath) ? (unresolved[linkpath] as number) : 0) + 1;
					}
					nowhere++;
				}
			}
		this.resolvedLinks[path] = resolved;
		this.unresolvedLinks[path] = unresolved instanceof LinkCountsInParts ? unresolved.record() : unresolved;
		if (nowhere > 0) this.unresolvedTotals.set(path, nowhere);
		else this.unresolvedTotals.delete(path);
		if (asked) this.hugeSourceAskedNames.set(path, { lists, names: asked });
	}
}

/** A change of the vault in the cache's queue: the file or folder it is about, and its paths when reported (a rename's new and old). */
interface QueuedChange {
	readonly file: HostAbstractFile;
	readonly paths: readonly string[];
	/** A parse (a create or a change), a delete or a rename. */
	readonly kind: "parse" | "delete" | "rename";
	/** A file's delete or rename: runs it now rather than in its turn (once either way). */
	readonly runAhead: (() => Promise<void>) | null;
}

/** The name links find a file by (`LinkFileIndex`: any case). */
function linkedName(path: string): string {
	return nameOf(path).toLowerCase();
}

/** Whether one of two paths is the other or a folder holding it. */
function concerns(path: string, other: string): boolean {
	return isInFolder(path, other) || isInFolder(other, path);
}

/** A note's parse before the build returns ran out of slices: it is parsed after (nothing of it was kept). */
class ParsedAfterStart extends Error {}

/** The queue's parse of a note that a parse ahead read newer text of meanwhile (`overtakableParse`): it ends, nothing of it kept. */
class ParseOvertaken extends Error {}

/** Whether two sets of lists of link texts hold the same texts in the same order (a huge note's kept list is the same array). */
function sameLinkTexts(before: ReadonlyArray<readonly string[]>, after: ReadonlyArray<readonly string[]>): boolean {
	if (before.length !== after.length) return false;
	return before.every((list, at) => {
		const other = after[at];
		return list === other || (other !== undefined && list.length === other.length && list.every((text, index) => text === other[index]));
	});
}

/**
 * An empty plain object (Obsidian's records are plain objects) that V8 keeps as a hash table.
 * A note's link targets are paths few other records hold in the same order, so a record filled
 * the usual way gets hidden classes of its own, and enumeration caches once it is listed: about
 * half again its memory for every note. V8 turns an object into a hash table when a property
 * other than its last is deleted; in another engine this is just an empty object.
 */
function hashedRecord(): Record<string, number> {
	const record: Record<string, number> = { first: 0, second: 0 };
	delete record.first;
	delete record.second;
	return record;
}

/** The file name at the end of a vault path. */
function nameOf(path: string): string {
	return path.slice(path.lastIndexOf("/") + 1);
}

/** Files whose links Obsidian tracks: Markdown notes and canvases. */
function isLinkSource(file: HostFile): boolean {
	return file.extension === "md" || file.extension === "canvas";
}

/** Links in a canvas, in the order of its cards: those written in its text cards, and the files its file cards show. */
function* canvasLinkListSteps(text: string): Steps<string[]> {
	const links: string[] = [];
	yield* canvasLinksSteps(text, (link) => links.push(link));
	return links;
}

/** Errors of a read the file's permissions refuse: it stays unread until it changes. */
function isRefusedReadError(error: unknown): boolean {
	const code = (error as { code?: unknown } | null)?.code;
	return code === "EACCES" || code === "EPERM";
}

/** Errors of a read that may well succeed a moment later: too many open files, a busy, locked or interrupted file. */
function isPassingReadError(error: unknown): boolean {
	const code = (error as { code?: unknown } | null)?.code;
	return code === "EMFILE" || code === "ENFILE" || code === "EBUSY" || code === "EAGAIN" || code === "EINTR";
}
