import type { CachedMetadata, DataAdapter, EventRef, OpenViewState, PaneType, TAbstractFile, TFile, Workspace } from "obsidian";

/**
 * The seam between Vault MCP and Obsidian: the narrow part of Obsidian's `App` the code uses, with
 * Obsidian's names and meanings. In the plugin it is the real `App` (see ObsidianHost.ts, which
 * checks at compile time that `App` fits); headless and in tests it is `NodeHost` over a folder.
 * Code outside main.ts, ui/ and host/ reaches the vault only through this (and imports Obsidian's types, never its values).
 */

/** A file in the vault: the members of Obsidian's `TFile` the code reads. */
export type HostFile = Pick<TFile, "path" | "name" | "basename" | "extension" | "stat">;

/** A file or folder, as vault events report them. */
export type HostAbstractFile = Pick<TAbstractFile, "path" | "name">;

/** What a caller of `process` asks of the write. */
export interface ProcessOptions {
	/**
	 * Called last before the new text is written, after `fn` and after every pause the write takes
	 * (a long note is read and written in pieces, other requests answered between them): throws to
	 * write nothing (the caller's token was revoked, or its right or folders changed, meanwhile).
	 */
	beforeWrite?: () => void;
	/**
	 * A file longer than this many bytes when the write opens it is not read: `fn` does not run,
	 * nothing is written, and `process` throws FileOverBytesError (FileOverBytesError.ts). For an edit that refuses a text
	 * over a length anyway: a note another program grew to hundreds of megabytes is refused without
	 * reading it in.
	 */
	refuseOverBytes?: number;
	/**
	 * `create` only, headless: the new file takes the permission bits of the note at this vault path
	 * (a backup or conflict copy of a note only its owner may read is not left readable by every
	 * local user). Ignored when that note is not there; Obsidian makes files its own way.
	 */
	sameAccessAs?: string;
}

/** What a caller of `rename` or `trashFile` asks of the move. */
export interface MoveOptions {
	/**
	 * Headless only: the note's text as the caller read it and decided on. The move opens the file and checks it still
	 * holds this text (from that open to the move itself it checks the file is that one), so a save by rename another
	 * program made after the caller's read is not what is moved: refused as a note that changed while it was being
	 * moved, nothing moved. Obsidian moves the file it knows, unchecked.
	 */
	textRead?: string;
	/**
	 * Headless only: called last before the file moves, after every pause the move takes (its check of `textRead` reads
	 * a long note in pieces, other requests answered between them): throws to move nothing (the caller's token was
	 * revoked, or its right or folders changed, meanwhile). Obsidian moves at once, with no pause to ask it after.
	 */
	beforeMove?: () => void;
	/**
	 * Headless only: the new path as the disk is to spell it, when it is another spelling of it (NFD, a no-break space
	 * normalizePath makes a space): undo of a rename puts a note back under the name it had. Anything else is ignored.
	 * Obsidian's `Vault.rename` takes a path only.
	 */
	spelling?: string;
}

/**
 * `listedFolderNames`' answer for a folder holding more entries than one listing reads (FOLDER_LISTING_MAX_ENTRIES,
 * headless): its names were not all read, so whether a name is among them is not known. `bound`: the entries read.
 */
export interface ListingOverBound {
	readonly bound: number;
}

/** A folder's listing (HostVault.listedFolderNames): its folders' names, null when there is no such folder, or ListingOverBound. */
export type FolderListing = string[] | null | ListingOverBound;

/** Whether a listing stopped at its bound (ListingOverBound). */
export function isListingOverBound(listing: Readonly<FolderListing> | readonly string[]): listing is ListingOverBound {
	return listing !== null && !Array.isArray(listing);
}

/** The part of Obsidian's `Vault` the code uses. */
export interface HostVault {
	readonly configDir: string;
	/**
	 * `read` reads only the config folder's settings files, and refuses one over OBSIDIAN_SETTINGS_MAX_BYTES by its size,
	 * unread, or once it grows past it while read (FileOverBytesError, `readSettingsFile`). `rmdir` is only ever asked to remove an empty folder (`recursive` false): undo removes
	 * the folders a create made.
	 */
	readonly adapter: Pick<DataAdapter, "read" | "exists" | "copy" | "rmdir">;
	getName(): string;
	getMarkdownFiles(): HostFile[];
	/** Every file, attachments included (a link can point to any of them). */
	getFiles(): HostFile[];
	getFileByPath(path: string): HostFile | null;
	/**
	 * The folder at exactly `path`, as Obsidian's tree holds it: headless, a folder the disk's listing names so (a disk that
	 * folds case opens `Notes` for `notes`, and the folder lookups do not answer for it).
	 */
	getFolderByPath(path: string): HostAbstractFile | null;
	/**
	 * Headless only: `getFolderByPath` without holding the event loop. Its answer there comes from the
	 * disk (a real folder, not a link), and the synchronous system calls waited up to 0.28 s behind
	 * other writes into the same folder while every client waited. Only a hint: the jail checks the
	 * folder again where bytes move. Obsidian answers `getFolderByPath` from memory and has none.
	 */
	getFolderByPathAsync?(path: string): Promise<HostAbstractFile | null>;
	/**
	 * The names of the folders directly in the folder at `path` ("" for the vault's root) as the host lists them, or null when
	 * it lists no folder there: Obsidian's own folder's children (hidden ones are not in its tree); headless, the disk's listing
	 * without hidden names and links, read off the event loop a few names at a time. A name as listed, which a lookup of a path
	 * is not: a disk that folds case answers a lookup of `notes` for `Notes`, and on Windows one of `PRIVAT~1` for `Private notes`.
	 * Headless, a folder of more than FOLDER_LISTING_MAX_ENTRIES entries answers ListingOverBound, read no further.
	 */
	listedFolderNames(path: string): Promise<FolderListing>;
	cachedRead(file: HostFile): Promise<string>;
	/**
	 * Headless only: `cachedRead`, but a note read empty (or a whole number of pages long) while
	 * another program rewrites it in place (truncated a moment ago, its text not yet all written) is
	 * read again once its size changes (for EMPTY_PLAN_READ_WAIT_MS at most). A write call's plan reads
	 * through it. Obsidian has none.
	 */
	cachedReadPastRewrite?(file: HostFile): Promise<string>;
	read(file: HostFile): Promise<string>;
	/**
	 * The planning host only: a note's text read to look through it, not as a text the call changes
	 * (a rename's look for its name in notes the cache has not parsed), so not counted against the
	 * call's MAX_JOURNAL_CALL_BYTES. Counted, two unparsed notes of 7 MiB linking elsewhere refused the rename.
	 */
	readToLook?(file: HostFile): Promise<string>;
	/** Atomically reads, changes and writes a file: no other write to it can come in between. */
	process(file: HostFile, fn: (data: string) => string, options?: ProcessOptions): Promise<string>;
	/** Makes a new file; `options.beforeWrite` as for `process` (a long text is written in pieces once the file is made). */
	create(path: string, data: string, options?: ProcessOptions): Promise<HostFile>;
	createFolder(path: string): Promise<unknown>;
	/**
	 * Headless only: makes one folder whose parent is there; true when this call made it, false when
	 * it was there already. A stopped create (and its undo) takes away only the folders it made.
	 */
	makeFolder?(path: string): Promise<boolean>;
	/**
	 * Headless only: how the vault asks for the person's excluded folders as they are at the moment
	 * of a write it makes on its own (the copy of another program's version of a note that raced an
	 * edit, kept beside the note up to a second later), and how it says one such copy was not kept
	 * because the folder is excluded now. Obsidian makes no such copy.
	 */
	followExcludedFolders?(excludedNow: () => readonly string[], copyNotKept: () => void): void;
	/**
	 * Headless only: removes the temporary files of edits a crash cut short that the listing at open
	 * found, outside the folders excluded now (followExcludedFolders), in pieces; the server calls it as it starts.
	 * Resolves once they are looked at (called again meanwhile: the same removal).
	 */
	removeLeftTemporaries?(): Promise<void>;
	/** Moves a file to `newPath` (which must be free) and nothing else: no link in any note changes. */
	rename(file: HostFile, newPath: string, options?: MoveOptions): Promise<void>;
	/** Headless only: the file's vault path as the disk spells it (a name in NFD keeps its NFD), where that differs from `file.path`. */
	pathOnDisk?(file: HostFile): string | undefined;
	on(name: "create" | "modify" | "delete", callback: (file: HostAbstractFile) => unknown): EventRef;
	on(name: "rename", callback: (file: HostAbstractFile, oldPath: string) => unknown): EventRef;
	offref(ref: EventRef): void;
}

/** Obsidian's link maps: source path → target path (or unresolved link text) → count. */
export type LinkMap = Record<string, Record<string, number>>;

/** The part of Obsidian's `MetadataCache` the code uses. */
export interface HostMetadataCache {
	readonly resolvedLinks: LinkMap;
	readonly unresolvedLinks: LinkMap;
	getFileCache(file: HostFile): CachedMetadata | null;
	getCache(path: string): CachedMetadata | null;
	getFirstLinkpathDest(linkpath: string, sourcePath: string): HostFile | null;
	/**
	 * Headless only: the note's metadata (at least its links, embeds, frontmatter links and
	 * frontmatter position, positions and all) when the cache parsed it from exactly `text`, else
	 * null. A rename's plan then reads its links from it instead of parsing the note again.
	 * Obsidian has none.
	 */
	parsedFrom?(path: string, text: string): Promise<CachedMetadata | null>;
	/**
	 * Headless only: resolves once the notes other programs made or changed on disk before this call
	 * (events already queued, looks under way) are parsed and their links resolved. Obsidian has none:
	 * its cache follows its own file watcher, with the same short lag.
	 */
	caughtUpWithDisk?(): Promise<void>;
	/**
	 * Headless only: resolves once the notes at `paths` are parsed from their text as it is now or
	 * newer, and their queued renames are in, ahead of other notes' queued parses (a note with a delete
	 * queued at its path, or a rename that cannot go first, once those ran in turn). Obsidian has none.
	 */
	caughtUpWithNotes?(paths: readonly string[]): Promise<void>;
	/**
	 * Headless only: the notes and canvases whose parse is queued or under way (created or changed on
	 * disk, or left at start to be parsed once serve listens): their links in `resolvedLinks` are older
	 * than their text, or missing. Obsidian has none (a note it has not indexed has no cached metadata).
	 */
	notesBeingParsed?(): HostFile[];
	/**
	 * Headless only: the notes whose last parse found nothing where the vault lists them (moved away and back, or
	 * moved or deleted with the watcher's event still to come): their metadata is that of an older text until a parse
	 * reads them, which may wait for the watcher to catch up (seconds). Vault-wide answers name them in
	 * `still_being_read`. Obsidian has none.
	 */
	notesAwaitingReread?(): HostFile[];
	/**
	 * Headless only: how many of `source`'s links point nowhere (its `unresolvedLinks` record's counts
	 * added up), kept as the record is made. Adding them up lists every key of the record first, in one
	 * piece whatever the pauses: a planted note of 700,000 links to names no file has held the server
	 * 0.2 s each time. Obsidian has none: its record is added up.
	 */
	unresolvedLinkTotal?(source: string): number;
	/**
	 * Headless only: whether `source` has a link a file called `fileName` could answer, or its links are
	 * being resolved again (its records may still be the old ones). A reader asks this instead of looking
	 * through the note's `unresolvedLinks` record for the name, which lists all its keys in one piece.
	 * Obsidian has none.
	 */
	mayAskForName?(source: string, fileName: string): boolean;
	on(name: "changed", callback: (file: HostFile, data: string, cache: CachedMetadata) => unknown): EventRef;
	on(name: "deleted", callback: (file: HostFile, prevCache: CachedMetadata | null) => unknown): EventRef;
	/** One note's (or canvas's) `resolvedLinks` and `unresolvedLinks` were set again (Obsidian's per-file event). */
	on(name: "resolve", callback: (file: HostFile) => unknown): EventRef;
	on(name: "resolved", callback: () => unknown): EventRef;
	offref(ref: EventRef): void;
}

/** A tab of Obsidian's window (a `WorkspaceLeaf`), as far as the code uses it: show this very file in it. */
interface HostLeaf {
	openFile(file: HostFile, openState?: OpenViewState): Promise<void>;
}

/**
 * The part of Obsidian's `Workspace` the code uses: a tab to open a note in, and the note in the
 * focused editor. A note is opened as the file itself (`getLeaf().openFile`), never as link text
 * (`openLinkText`): Obsidian would read a path holding `#` as a link to another note, perhaps an excluded one.
 */
export type HostWorkspace = Pick<Workspace, "getActiveFile" | "activeEditor"> & { getLeaf(newLeaf?: PaneType | boolean): HostLeaf };

/** The part of Obsidian's `FileManager` the code uses. */
export interface HostFileManager {
	/**
	 * Moves a file to the trash the person chose in Obsidian (the system's, or the vault's `.trash`
	 * folder); headless, always the vault's `.trash`. Undo uses it, so undoing a new note never deletes for good.
	 */
	trashFile(file: HostFile, options?: MoveOptions): Promise<void>;
	/**
	 * The host's own rename: moves a file and updates the links to it as the host does (Obsidian:
	 * by its "Automatically update internal links" setting; headless, as Obsidian with it on). The
	 * write path uses it inside Obsidian when that setting is on, then reads back what it wrote;
	 * otherwise it moves with `vault.rename` and writes the planned link changes itself.
	 */
	renameFile(file: HostFile, newPath: string): Promise<void>;
}

/** Everything the server reaches the vault through. */
export interface Host {
	readonly vault: HostVault;
	readonly metadataCache: HostMetadataCache;
	/** Obsidian's open tabs and editors: only inside Obsidian (headless there is no window, so none). */
	readonly workspace?: HostWorkspace;

	readonly fileManager: HostFileManager;
	/**
	 * Vault paths of the symbolic links in the vault folder. The jail never follows them; they are
	 * hidden like excluded folders (so Obsidian's own index of what is behind them is never shown)
	 * and named to the person in the settings tab and on `serve`'s stderr.
	 */
	hiddenLinks(): readonly string[];
}
