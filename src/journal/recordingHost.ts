/**
 * The host a write tool call is planned on: the real one for reading, with its writing calls
 * (`vault.process`, `vault.create`, `vault.rename` and `fileManager.renameFile`) turned into
 * entries of a change set. The tool's handler runs once on it; nothing reaches the disk. The set
 * is then shown to the person (for Ask) and written by `applyChangeSet`, which compares each note
 * with the text it was planned on. Later reads in the same call see its earlier changes, so a call
 * that creates a note and then edits it plans one new note.
 */
import type { Host, HostAbstractFile, HostFile, HostFileManager, HostVault } from "../host/Host";
import { isRelinkEdit, moveWithRelinks, planRename } from "../vault/rename";
import { isPathVisible, type Scope } from "../vault/scope";
import { hashText } from "../vault/writes";
import type { NoteChange } from "./changeSet";
import { MAX_JOURNAL_CALL_BYTES } from "../config/limits";
import { fileExistsError } from "../host/fileErrors";

/** A change a tool call would make: the note's text before (null: a new note) and after. */
export type PlannedChange = NoteChange;

/** The writes a wrapped host routes through the wrapper; reads may be overridden too, so a preview sees its own changes. */
interface Writes
	extends
		Pick<HostVault, "process" | "create" | "rename">,
		Partial<Pick<HostVault, "read" | "readToLook" | "cachedRead" | "getFileByPath" | "createFolder">> {
	renameFile: HostFileManager["renameFile"];
}

/** The note's text is not the version the caller read: nothing was written. */
class NoteChangedError extends Error {
	readonly code = "EHASHMISMATCH";
	constructor(
		readonly path: string,
		readonly currentHash: string | null,
	) {
		super(
			currentHash === null
				? `"${path}" does not exist, so it cannot have the expected_hash given. Nothing was written.`
				: `"${path}" changed since it was read: its hash is now ${currentHash}. Nothing was written. Read it again (read_note), then retry with that hash as expected_hash.`,
		);
		this.name = "NoteChangedError";
	}
}

/** Checks the first note a call writes against `expected`, once. */
class ExpectedHash {
	private checked = false;
	constructor(private readonly expected: string | undefined) {}

	/** Throws NoteChangedError when this is the call's first write and `current` (null: no note yet) is not the expected version. */
	check(path: string, current: string | null): void {
		if (this.expected === undefined || this.checked) return;
		const currentHash = current === null ? null : hashText(current);
		if (currentHash !== this.expected) throw new NoteChangedError(path, currentHash);
	}

	/** The first write went through: later writes of the same call are not checked again. */
	passed(): void {
		this.checked = true;
	}
}

/** A host whose vault writes go through `process` and `create` given here; everything else is the real host's. */
function withWrites(host: Host, writes: Writes): Host {
	const vault = host.vault;
	const wrapped: HostVault = {
		get configDir() {
			return vault.configDir;
		},
		adapter: vault.adapter,
		getName: () => vault.getName(),
		getMarkdownFiles: () => vault.getMarkdownFiles(),
		getFiles: () => vault.getFiles(),
		getFileByPath: writes.getFileByPath ?? ((path) => vault.getFileByPath(path)),
		getFolderByPath: (path) => vault.getFolderByPath(path),
		listedFolderNames: (path) => vault.listedFolderNames(path),
		...(vault.getFolderByPathAsync ? { getFolderByPathAsync: (path: string) => vault.getFolderByPathAsync?.(path) ?? Promise.resolve(null) } : {}),
		cachedRead: writes.cachedRead ?? ((file) => vault.cachedRead(file)),
		read: writes.read ?? ((file) => vault.read(file)),
		...(writes.readToLook ? { readToLook: writes.readToLook } : {}),
		process: writes.process,
		create: writes.create,
		createFolder: writes.createFolder ?? ((path) => vault.createFolder(path)),
		rename: writes.rename,
		on: (name: string, callback: (...data: never[]) => unknown) =>
			(vault.on as (name: string, callback: (...data: never[]) => unknown) => ReturnType<HostVault["on"]>)(name, callback),
		offref: (ref) => vault.offref(ref),
	};
	// Nothing a planned call does may reach the disk: no write tool trashes a note.
	const fileManager: HostFileManager = {
		trashFile: (file) => Promise.reject(new Error(`"${file.path}" cannot be moved to the trash while a call is planned.`)),
		renameFile: writes.renameFile,
	};
	// Spelled out, not spread alone: a class host's methods (NodeHost's hiddenLinks) are not own properties.
	return { ...host, hiddenLinks: () => host.hiddenLinks(), vault: wrapped, fileManager };
}

/** The notes a call would change hold more text than one call may keep in the undo journal: planning stopped, nothing was written. */
export class CallTooLargeError extends Error {
	readonly code = "ECALLTOOLARGE";
	constructor() {
		super(
			`This call would change notes holding more than the ${MAX_JOURNAL_CALL_BYTES / (1024 * 1024)} MiB of text one call may keep in the undo journal.`,
		);
		this.name = "CallTooLargeError";
	}
}

/**
 * A host on which a tool call is planned without writing anything: each change is computed on the
 * note's current text and collected (`changes()` once the call has run). A rename is planned among
 * the notes `scope` shows only. `expectedHash`, when given, must be the hash of the first note the call changes.
 */
export function planningHost(
	host: Host,
	scope: Scope,
	expectedHash?: string,
	takenOnDisk: ReadonlySet<string> = new Set(),
): { host: Host; changes: () => PlannedChange[] } {
	const expected = new ExpectedHash(expectedHash);
	const planned = new Map<string, PlannedChange>();
	const files = new Map<string, HostFile>();
	const movedAway = new Set<string>();
	let charsRead = 0;
	/** Each note's text as the plan first read it: a plan is made on one text of a note, however often the tool reads it. */
	const readTexts = new Map<string, string>();
	/**
	 * Notes read only to look through them (`readToLook`), until the plan reads one: a rename's look at a note not yet
	 * parsed, then its plan of that note, read it twice. At most the RENAME_UNPARSED_LOOK_BYTES a rename looks through.
	 */
	const lookedTexts = new Map<string, string>();
	// The host's cached read (checked against the disk): a plan made on stale text is caught when each note is written.
	const textOf = async (file: HostFile) => {
		const earlier = planned.get(file.path)?.after ?? readTexts.get(file.path);
		if (earlier !== undefined) return earlier;
		// A call whose notes hold more text than its journal records may keep stops being planned here,
		// before the rest is read: a rename linked from 20 MB of notes is refused after reading the bound, not the 20 MB.
		if (charsRead + file.stat.size > MAX_JOURNAL_CALL_BYTES) throw new CallTooLargeError();
		const looked = lookedTexts.get(file.path);
		lookedTexts.delete(file.path);
		// Headless, a note caught empty in another program's rewrite in place is read again once its text is back.
		const text = looked ?? (await (host.vault.cachedReadPastRewrite?.(file) ?? host.vault.cachedRead(file)));
		// Moved out of sight while it was read (into an excluded folder, by the person: the same file object,
		// renamed): as if deleted then. Its text would otherwise be planned on, and a plan's error quotes it (its headings).
		if (!isPathVisible(file.path, scope)) throw Object.assign(new Error("The note was moved out of sight while it was read."), { code: "ENOENT" });
		charsRead += text.length;
		readTexts.set(file.path, text);
		return text;
	};
	/** Adds an edit of `path`; on a note the call already changed, the edit follows the earlier one (and so does its redo). */
	const plan = (file: HostFile, before: string, after: string, redo: (text: string) => string, refuseOverBytes?: number) => {
		const path = file.path;
		const earlier = planned.get(path);
		const earlierRedo = earlier?.redo;
		const relink = isRelinkEdit(redo) && (earlier === undefined || earlier.relink === true);
		const composed = earlier === undefined ? redo : earlierRedo ? (text: string) => redo(earlierRedo(text)) : undefined;
		// The redo refuses a note over the first edit's bound (a later edit's bound applies to the earlier one's text).
		const bound = earlier === undefined && refuseOverBytes !== undefined ? { redoRefusesOverBytes: refuseOverBytes } : {};
		// A later edit of a note the call made or moved keeps the file the first change was planned on (none for a new note).
		const plannedOn = earlier === undefined ? { plannedOn: file } : {};
		planned.set(path, { ...earlier, ...bound, ...plannedOn, path, before: earlier ? earlier.before : before, after, redo: composed, relink });
	};
	const fileAt = (path: string, size: number): HostFile => {
		const name = path.slice(path.lastIndexOf("/") + 1);
		const dot = name.lastIndexOf(".");
		const now = Date.now();
		return {
			path,
			name,
			basename: dot > 0 ? name.slice(0, dot) : name,
			extension: dot > 0 ? name.slice(dot + 1) : "",
			stat: { ctime: now, mtime: now, size },
		};
	};
	const planning = withWrites(host, {
		getFileByPath: (path) => files.get(path) ?? (movedAway.has(path) ? null : host.vault.getFileByPath(path)),
		read: textOf,
		cachedRead: textOf,
		readToLook: async (file) => {
			const earlier = planned.get(file.path)?.after ?? readTexts.get(file.path);
			if (earlier !== undefined) return earlier;
			const text = await host.vault.read(file);
			if (!isPathVisible(file.path, scope)) throw Object.assign(new Error("The note was moved out of sight while it was read."), { code: "ENOENT" });
			lookedTexts.set(file.path, text);
			return text;
		},
		createFolder: (path): Promise<HostAbstractFile> => Promise.resolve({ path, name: path.slice(path.lastIndexOf("/") + 1) }),
		process: async (file, fn, options) => {
			const before = await textOf(file);
			expected.check(file.path, before);
			const after = fn(before);
			expected.passed();
			if (after !== before) plan(file, before, after, fn, options?.refuseOverBytes);
			return after;
		},
		create: async (path, data, options) => {
			// Taken also when something the vault does not list is there (a folder, a link, a file made a moment ago):
			// a backup then moves to its next name now, in the plan, not at the write. A name the jail refuses (a link) is taken too.
			if (
				files.has(path) ||
				host.vault.getFileByPath(path) ||
				takenOnDisk.has(path) ||
				host.hiddenLinks().includes(path) ||
				(await host.vault.adapter.exists(path).catch(() => true))
			)
				throw fileExistsError(path);
			expected.check(path, null);
			expected.passed();
			const file = fileAt(path, Buffer.byteLength(data));
			files.set(path, file);
			planned.set(path, { path, before: null, after: data, ...(options?.sameAccessAs === undefined ? {} : { copyOf: options.sameAccessAs }) });
			return file;
		},
		rename: async (file, newPath) => {
			const text = await textOf(file);
			expected.check(file.path, text);
			expected.passed();
			const earlier = planned.get(file.path);
			if (earlier?.before === null) throw new Error("A note made by this call cannot be moved in the same call.");
			planned.delete(file.path);
			// Moving keeps whatever the note holds when it moves, so the move may be made on newer text; its own edits follow it.
			planned.set(newPath, {
				path: newPath,
				movedFrom: earlier?.movedFrom ?? file.path,
				plannedOn: earlier?.plannedOn ?? file,
				before: earlier ? earlier.before : text,
				after: text,
				redo: earlier ? earlier.redo : (current) => current,
				relink: earlier ? earlier.relink : true,
			});
			const movedFile = fileAt(newPath, Buffer.byteLength(text));
			files.set(newPath, movedFile);
			movedAway.add(file.path);
		},
		renameFile: async (file, newPath) => {
			// Planned on this host, so earlier changes of the same call are seen.
			const renamePlan = await planRename(planning, scope, file, newPath);
			expected.check(file.path, renamePlan.movedText);
			await moveWithRelinks(planning, file, renamePlan);
		},
	});
	return { host: planning, changes: () => [...planned.values()] };
}
