import type { EventRef } from "obsidian";
import type { Host, HostAbstractFile, HostFile } from "../host/Host";
import { STILL_BEING_READ_LISTED, FIRST_LOOK_STEP_NOTES } from "../config/limits";
import { comparePathsStrictly, noteVisibility, visibleNotes } from "./notes";
import type { Scope } from "./scope";
import type { CallBudget } from "./workBudget";

/**
 * The first STILL_BEING_READ_LISTED of `notes`, in path order, whose metadata the host has not read
 * yet: their tags, tasks and links are not known, which is not "none". Vault-wide answers name them
 * so the model asks again rather than hearing that such a note holds nothing. The files, not their
 * paths: a note renamed while the call pauses is named where it is when answered (stillBeingReadField).
 * A note whose metadata is that of an older text, its parse having found it missing (headless:
 * `notesAwaitingReread`), is named too: no parse of it is queued until the watcher catches up.
 */
export async function notesStillBeingRead(host: Host, notes: readonly HostFile[], budget?: Pick<CallBudget, "due" | "checkpoint">): Promise<HostFile[]> {
	const awaitingReread = new Set(host.metadataCache.notesAwaitingReread?.());
	// Only the first few kept while walking: while Obsidian builds its cache every note is unread, and sorting them all would be one piece.
	const first: HostFile[] = [];
	for (const file of notes) {
		if (budget?.due()) await budget.checkpoint();
		if (file.extension !== "md" || (host.metadataCache.getFileCache(file) && !awaitingReread.has(file))) continue;
		keepAmongFirst(first, file);
	}
	return first;
}

/** Puts `file` in its place among `first` (in strict path order: which of two paths the collator calls equal is kept never hangs on which came first) when it is among the first STILL_BEING_READ_LISTED. */
function keepAmongFirst(first: HostFile[], file: HostFile): void {
	const last = first[first.length - 1];
	if (first.length >= STILL_BEING_READ_LISTED && last !== undefined && comparePathsStrictly(file.path, last.path) >= 0) return;
	const at = first.findIndex((kept) => comparePathsStrictly(file.path, kept.path) < 0);
	first.splice(at < 0 ? first.length : at, 0, file);
	if (first.length > STILL_BEING_READ_LISTED) first.pop();
}

/**
 * The same among every note `scope` shows: any of them may hold a tag, a task or a link the answer
 * counts. From `kept` when it knows (see NotesNotYetRead), else by a walk of the vault.
 */
export async function visibleNotesStillBeingRead(
	host: Host,
	scope: Scope,
	budget?: Pick<CallBudget, "due" | "checkpoint">,
	kept?: NotesNotYetRead,
): Promise<HostFile[]> {
	return (await kept?.visible(scope, budget)) ?? notesStillBeingRead(host, visibleNotes(host, scope), budget);
}

/**
 * The notes whose metadata the host may not have read yet, kept from the vault's events so that a
 * vault-wide answer's `still_being_read` costs the notes it may name, not a walk of the vault: at
 * 50,000 notes, listing the visible notes was one piece of 17–90 ms and the walk 30–60 ms more, on
 * every call of six tools. Held: each note without metadata when the vault was first looked through
 * (in slices, after `start`), and each note created, changed or renamed since, whose metadata may be
 * dropped or not read yet. Each is looked at again when asked, and let go once read or gone; a
 * folder's rename or deletion looks through the vault again.
 */
export class NotesNotYetRead {
	private readonly held = new Set<HostFile>();
	/** Whether `held` holds every unread note: false until the first look through the vault ends, and while a later one runs. */
	private known = false;
	/** Bumped by each look through the vault begun: an older one still running stops. */
	private looks = 0;
	private refs: Array<{ from: "vault" | "metadata"; ref: EventRef }> = [];

	constructor(
		private readonly host: Host,
		private readonly pause: () => Promise<void>,
	) {}

	/** Follows the vault's events, and looks through its notes in slices. */
	start(): void {
		const { vault, metadataCache } = this.host;
		this.refs.push(
			// A new folder holds no note yet; a folder renamed or deleted moves or takes the notes in it.
			{ from: "vault", ref: vault.on("create", (file) => (isFile(file) ? this.mark(file) : undefined)) },
			{ from: "vault", ref: vault.on("modify", (file) => (isFile(file) ? this.mark(file) : undefined)) },
			{ from: "vault", ref: vault.on("rename", (file) => (isFile(file) ? this.mark(file) : void this.lookThrough())) },
			{ from: "vault", ref: vault.on("delete", (file) => (isFile(file) ? this.held.delete(file) : void this.lookThrough())) },
			{ from: "metadata", ref: metadataCache.on("changed", (file) => void this.held.delete(file)) },
		);
		void this.lookThrough();
	}

	stop(): void {
		for (const { from, ref } of this.refs) (from === "vault" ? this.host.vault : this.host.metadataCache).offref(ref);
		this.refs = [];
		this.looks++;
		this.known = false;
		this.held.clear();
	}

	/**
	 * The first STILL_BEING_READ_LISTED notes `scope` shows whose metadata is not read, in path order,
	 * each looked at now, among those `asked` keeps when given; null until the notes are known (the caller walks the vault then).
	 */
	async visible(scope: Scope, budget?: Pick<CallBudget, "due" | "checkpoint">, asked?: (file: HostFile) => boolean): Promise<HostFile[] | null> {
		if (!this.known) return null;
		const visible = noteVisibility(scope);
		const first: HostFile[] = [];
		for (const file of this.held) {
			if (budget?.due()) await budget.checkpoint();
			if (!this.stillUnread(file)) {
				this.held.delete(file);
				continue;
			}
			if (visible(file.path) && (asked?.(file) ?? true)) keepAmongFirst(first, file);
		}
		// Read from an older text (not held: they have metadata): few, and the cache lets them go once read.
		for (const file of this.host.metadataCache.notesAwaitingReread?.() ?? []) {
			if (budget?.due()) await budget.checkpoint();
			if (file.extension === "md" && visible(file.path) && (asked?.(file) ?? true) && !first.includes(file)) keepAmongFirst(first, file);
		}
		return first;
	}

	private stillUnread(file: HostFile): boolean {
		return file.extension === "md" && this.host.vault.getFileByPath(file.path) === file && this.host.metadataCache.getFileCache(file) === null;
	}

	private mark(file: HostFile): void {
		if (file.extension === "md") this.held.add(file);
	}

	/** Looks through the vault's notes in slices, holding each without metadata; `known` once it ends, unless a newer look began. */
	private async lookThrough(): Promise<void> {
		const look = ++this.looks;
		this.known = false;
		const notes = this.host.vault.getMarkdownFiles();
		for (let index = 0; index < notes.length; index++) {
			if (index % FIRST_LOOK_STEP_NOTES === FIRST_LOOK_STEP_NOTES - 1) await this.pause();
			if (look !== this.looks) return;
			const file = notes[index] as HostFile;
			if (this.host.metadataCache.getFileCache(file) === null) this.held.add(file);
		}
		this.known = true;
	}
}

function isFile(file: HostAbstractFile): file is HostFile {
	return "extension" in file;
}
