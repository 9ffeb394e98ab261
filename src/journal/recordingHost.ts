/**
 * The host a write tool gets: the real one, with its writing calls (`vault.process`,
 * `vault.create`, `vault.rename` and `fileManager.renameFile`) wrapped. A tool cannot write around them, so every change it makes is
 *  - checked against the caller's `expected_hash` (the first note the call writes),
 *  - journalled before its bytes reach the disk (`journalledHost`), or
 *  - only computed and shown, never written (`previewHost`), for the approval window.
 */
import type { Host, HostAbstractFile, HostFile, HostFileManager, HostVault } from "../host/Host";
import { pathAfter, planRename } from "../vault/rename";
import { hashText } from "../vault/writes";
import type { JournalCall, JournalChange, WriteJournal } from "./entry";

/** A change a tool call would make (preview) or made: the note's text before (null: a new note) and after. */
export interface PlannedChange {
	path: string;
	/** The note's path before the call, when the call moves it. */
	movedFrom?: string;
	before: string | null;
	after: string;
}

/** The writes a wrapped host routes through the wrapper; reads may be overridden too, so a preview sees its own changes. */
interface Writes extends Pick<HostVault, "process" | "create" | "rename">, Partial<Pick<HostVault, "read" | "cachedRead" | "getFileByPath" | "createFolder">> {
	renameFile: HostFileManager["renameFile"];
}

/** The note's text is not the version the caller read: nothing was written. */
export class NoteChangedError extends Error {
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
		cachedRead: writes.cachedRead ?? ((file) => vault.cachedRead(file)),
		read: writes.read ?? ((file) => vault.read(file)),
		process: writes.process,
		create: writes.create,
		createFolder: writes.createFolder ?? ((path) => vault.createFolder(path)),
		rename: writes.rename,
		on: ((name: string, callback: (...data: never[]) => unknown) => (vault.on as (name: string, callback: (...data: never[]) => unknown) => ReturnType<HostVault["on"]>)(name, callback)),
		offref: (ref) => vault.offref(ref),
	};
	const fileManager: HostFileManager = { trashFile: (file) => host.fileManager.trashFile(file), renameFile: writes.renameFile };
	// Spelled out, not spread alone: a class host's methods (NodeHost's hiddenLinks) are not own properties.
	return { ...host, hiddenLinks: () => host.hiddenLinks(), vault: wrapped, fileManager };
}

/**
 * The host for a tool call that writes for real. Each change is recorded in `journal` inside the
 * note's atomic edit, after its new text is known and before it is written; a write that then
 * fails takes its record back. `expectedHash`, when given, must be the hash of the first note the
 * call writes (absent note: never matches), checked in that same atomic edit.
 */
export function journalledHost(host: Host, journal: WriteJournal, call: JournalCall, expectedHash?: string): Host {
	const expected = new ExpectedHash(expectedHash);
	return withWrites(host, {
		process: async (file, fn) => {
			let recorded = false;
			let changed = false;
			const forget = () => {
				if (recorded) journal.dropChange(call.id, file.path);
				recorded = false;
			};
			try {
				// The host may run the edit again on fresher text (another program wrote meanwhile): the record follows the last run.
				const written = await host.vault.process(file, (before) => {
					expected.check(file.path, before);
					const after = fn(before);
					forget();
					changed = after !== before;
					if (changed) {
						journal.recordChange(call, { path: file.path, before, beforeHash: hashText(before), after, afterHash: hashText(after) });
						recorded = true;
					}
					return after;
				});
				expected.passed();
				return written;
			} catch (error) {
				forget();
				throw error;
			}
		},
		create: async (path, data) => {
			expected.check(path, null);
			journal.recordChange(call, { path, before: null, beforeHash: null, after: data, afterHash: hashText(data) });
			try {
				const file = await host.vault.create(path, data);
				expected.passed();
				return file;
			} catch (error) {
				journal.dropChange(call.id, path);
				throw error;
			}
		},
		rename: async (file, newPath) => {
			const text = await host.vault.read(file);
			expected.check(file.path, text);
			const from = file.path;
			journal.recordChange(call, moveChange(from, newPath, text, text));
			try {
				await host.vault.rename(file, newPath);
				expected.passed();
			} catch (error) {
				journal.dropChange(call.id, newPath);
				throw error;
			}
		},
		renameFile: (file, newPath) => journalledRenameFile(host, journal, call, expected, file, newPath),
	});
}

function moveChange(from: string, to: string, before: string, after: string): JournalChange {
	return { path: to, movedFrom: from, before, beforeHash: hashText(before), after, afterHash: hashText(after) };
}

/**
 * A rename with link updates, journalled. The host makes it as one operation (inside Obsidian,
 * Obsidian's own `renameFile`), so its writes cannot be recorded one by one as they happen:
 * every note it will change is recorded first, with the text our rewriting predicts; once it is
 * done, each note is read again and a record whose prediction differs from what the host wrote
 * is replaced by what it wrote (and a note it did not write is forgotten), so undo restores exactly.
 */
async function journalledRenameFile(host: Host, journal: WriteJournal, call: JournalCall, expected: ExpectedHash, file: HostFile, newPath: string): Promise<void> {
	const plan = await planRename(host, file, newPath);
	expected.check(file.path, plan.movedText);
	const moved = plan.notes.find((note) => note.path === plan.from);
	const recorded: JournalChange[] = [moveChange(plan.from, plan.to, plan.movedText, moved?.after ?? plan.movedText)];
	for (const note of plan.notes) {
		if (note.path !== plan.from) recorded.push({ path: note.path, before: note.before, beforeHash: hashText(note.before), after: note.after, afterHash: hashText(note.after) });
	}
	for (const change of recorded) journal.recordChange(call, change);
	try {
		await host.fileManager.renameFile(file, newPath);
		expected.passed();
	} finally {
		// What the host really wrote, note by note (also when it failed part-way).
		for (const change of recorded) {
			const now = host.vault.getFileByPath(change.path);
			const text = now ? await host.vault.read(now).catch(() => null) : null;
			if (text === change.after) continue;
			journal.dropChange(call.id, change.path);
			const wasWritten = text !== null && (change.movedFrom !== undefined || text !== change.before);
			if (wasWritten) journal.recordChange(call, { ...change, after: text, afterHash: hashText(text) });
		}
	}
}

/**
 * A host on which a tool call runs without writing anything: each change is computed on the
 * note's current text and collected (`changes()` once the call has run), and later reads in the same call see it, so a
 * call that creates a note and then edits it previews as one new note.
 */
export function previewHost(host: Host, expectedHash?: string): { host: Host; changes: () => PlannedChange[] } {
	const expected = new ExpectedHash(expectedHash);
	const planned = new Map<string, PlannedChange>();
	const files = new Map<string, HostFile>();
	const textOf = async (file: HostFile) => planned.get(file.path)?.after ?? (await host.vault.read(file));
	const plan = (path: string, before: string | null, after: string) => {
		const earlier = planned.get(path);
		planned.set(path, { ...earlier, path, before: earlier ? earlier.before : before, after });
	};
	const preview = withWrites(host, {
		getFileByPath: (path) => files.get(path) ?? host.vault.getFileByPath(path),
		read: textOf,
		cachedRead: textOf,
		createFolder: (path): Promise<HostAbstractFile> => Promise.resolve({ path, name: path.slice(path.lastIndexOf("/") + 1) }),
		process: async (file, fn) => {
			const before = await textOf(file);
			expected.check(file.path, before);
			const after = fn(before);
			expected.passed();
			if (after !== before) plan(file.path, before, after);
			return after;
		},
		create: (path, data) => {
			if (files.has(path) || host.vault.getFileByPath(path)) return Promise.reject(Object.assign(new Error(`File already exists: ${path}`), { code: "EEXIST" }));
			expected.check(path, null);
			expected.passed();
			const name = path.slice(path.lastIndexOf("/") + 1);
			const dot = name.lastIndexOf(".");
			const now = Date.now();
			const file: HostFile = { path, name, basename: dot > 0 ? name.slice(0, dot) : name, extension: dot > 0 ? name.slice(dot + 1) : "", stat: { ctime: now, mtime: now, size: Buffer.byteLength(data) } };
			files.set(path, file);
			plan(path, null, data);
			return Promise.resolve(file);
		},
		rename: async (file, newPath) => {
			const text = await textOf(file);
			expected.check(file.path, text);
			expected.passed();
			planned.set(newPath, { path: newPath, movedFrom: file.path, before: text, after: text });
		},
		renameFile: async (file, newPath) => {
			// Planned on the preview, so earlier changes of the same call are seen.
			const renamePlan = await planRename(preview, file, newPath);
			expected.check(file.path, renamePlan.movedText);
			expected.passed();
			const moved = renamePlan.notes.find((note) => note.path === renamePlan.from);
			const earlier = planned.get(file.path);
			planned.delete(file.path);
			planned.set(newPath, { path: newPath, movedFrom: file.path, before: earlier ? earlier.before : renamePlan.movedText, after: moved?.after ?? renamePlan.movedText });
			for (const note of renamePlan.notes) if (note.path !== renamePlan.from) plan(pathAfter(renamePlan, note.path), note.before, note.after);
		},
	});
	return { host: preview, changes: () => [...planned.values()] };
}
