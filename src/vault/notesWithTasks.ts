import type { EventRef } from "obsidian";
import type { Host, HostFile } from "../host/Host";
import { NOTES_WITH_TASKS_LOOK_STEP } from "../config/limits";
import { listItemsShapeOf } from "../headless/compactMetadata";

/**
 * The notes whose metadata holds a task, kept from the vault's events so that `list_tasks` walks
 * them rather than every note: at 50,000 notes each call listed the visible notes in one piece and
 * walked every note twice. Held: each note with a task item when the vault was first looked through
 * (in slices, after `start`), and each note whose metadata has changed to hold one since; let go
 * when its metadata changes to hold none, or when asked once it is no longer in the vault. Holding a note whose metadata no longer has a task costs a look and
 * changes nothing (its tasks are read from its metadata at answer time, as before). Scope is never
 * kept: each call applies its own to the notes held.
 */
export class NotesWithTasks {
	private readonly held = new Set<HostFile>();
	/** Notes whose metadata was not there when last looked at. */
	private readonly unread = new Set<HostFile>();
	/** Whether `held` holds every note with a task: false until the first look through the vault ends, and while a later one runs. */
	private known = false;
	/** Bumped by each look through the vault begun: an older one still running stops. */
	private looks = 0;
	private ref: EventRef | null = null;

	constructor(
		private readonly host: Host,
		private readonly pause: () => Promise<void>,
	) {}

	/** Follows the vault's events, and looks through its notes in slices. */
	start(): void {
		const { metadataCache } = this.host;
		// A rename moves the same file object (its path is read at answer time); a deleted note is let go when next asked.
		this.ref = metadataCache.on("changed", (file) => this.look(file));
		void this.lookThrough();
	}

	stop(): void {
		if (this.ref) this.host.metadataCache.offref(this.ref);
		this.ref = null;
		this.looks++;
		this.known = false;
		this.held.clear();
		this.unread.clear();
	}

	/** Every note in the vault whose metadata may hold a task (each still there), in no order; null until they are known (the caller walks the vault then). */
	notes(): HostFile[] | null {
		if (!this.known) return null;
		for (const file of this.unread) {
			if (this.host.vault.getFileByPath(file.path) !== file) this.unread.delete(file);
			else this.look(file);
		}
		const notes: HostFile[] = [];
		for (const file of this.held) {
			if (this.host.vault.getFileByPath(file.path) === file) notes.push(file);
			else this.held.delete(file);
		}
		return notes;
	}

	private look(file: HostFile): void {
		if (file.extension !== "md") return;
		const cache = this.host.metadataCache.getFileCache(file);
		// Metadata not read yet may come without a "changed" event (Obsidian loads its stored cache at start): looked at again by each call until it comes.
		if (!cache) this.unread.add(file);
		else {
			this.unread.delete(file);
			if (listItemsShapeOf(cache).tasks) this.held.add(file);
			else this.held.delete(file);
		}
	}

	/** Looks through the vault's notes in slices, holding each whose metadata has a task; `known` once it ends, unless a newer look began. */
	private async lookThrough(): Promise<void> {
		const look = ++this.looks;
		this.known = false;
		const notes = this.host.vault.getMarkdownFiles();
		for (let index = 0; index < notes.length; index++) {
			if (index % NOTES_WITH_TASKS_LOOK_STEP === NOTES_WITH_TASKS_LOOK_STEP - 1) await this.pause();
			if (look !== this.looks) return;
			this.look(notes[index] as HostFile);
		}
		this.known = true;
	}
}
