import { KEPT_NOTE_LISTINGS, NOTE_LISTING_FILTER_CHECK_MASK } from "../config/limits";
import type { EventRef } from "obsidian";
import type { Host, HostAbstractFile, HostFile } from "../host/Host";
import { positionOf } from "./notePaths";
import { comparePathsStrictly, noteVisibility } from "./notes";
import { isInFolder, scopeKey, type Scope } from "./scope";
import { sortInSlices, type CallBudget } from "./workBudget";

/** The two orders `list_notes` answers in. */
export type ListingOrder = "path" | "modified";

/** Which notes a listing holds besides scope: those in `folder` (absent: the whole vault), or only its direct notes. */
export interface ListingFilter {
	folder?: string;
	recursive: boolean;
}

/**
 * A note as the sorted lists hold it: the path and time it was placed by, so it is found again after its
 * file object changed. Never changed once made (an edit makes a new one): a listing handed out holds
 * these, sorted by them, and a page's cursor is found in it by binary search.
 */
export interface ListedNote {
	readonly file: HostFile;
	readonly path: string;
	readonly mtime: number;
}

/**
 * Path order (`comparePathsStrictly`): total, so a note is found again by binary search, and a page
 * cursor's path key (pageCursor) seeks in it. Pure.
 */
export function inPathOrder(a: ListedNote, b: ListedNote): number {
	return comparePathsStrictly(a.path, b.path);
}

/** Newest first, then path order. Pure. */
export function inModifiedOrder(a: ListedNote, b: ListedNote): number {
	return b.mtime - a.mtime || inPathOrder(a, b);
}

const ORDERS: Record<ListingOrder, (a: ListedNote, b: ListedNote) => number> = { path: inPathOrder, modified: inModifiedOrder };

/** Puts `entry` in its place in `entries`, in place: a binary search and one move, never a sort. */
export function insertListed(entries: ListedNote[], entry: ListedNote, order: (a: ListedNote, b: ListedNote) => number): void {
	entries.splice(positionOf(entries, entry, order), 0, entry);
}

/**
 * Takes `entry` (found by the path and time it was placed by) out of `entries`, in place. By its path,
 * not the object: a list sorted by path while the note was edited holds the entry made before the edit.
 */
export function removeListed(entries: ListedNote[], entry: ListedNote, order: (a: ListedNote, b: ListedNote) => number): void {
	const at = positionOf(entries, entry, order);
	if (entries[at]?.path === entry.path) entries.splice(at, 1);
}

/** True when the note at `path` belongs in a listing with `filter` (scope is checked apart). Pure. */
export function isListed(path: string, filter: ListingFilter): boolean {
	const { folder, recursive } = filter;
	if (folder === undefined) return recursive || !path.includes("/");
	if (!isInFolder(path, folder)) return false;
	return recursive || !path.slice(folder.length + 1).includes("/");
}

/**
 * How many of a listing's notes are still in sight of `visible` now: a note renamed out of sight
 * (into an excluded folder, out of a token's folders) while the listing was made or its page built
 * is not counted, as it is not shown. Counted in slices on `budget`: a listing may hold the whole vault.
 */
export async function countStillVisible(
	notes: readonly ListedNote[],
	visible: (path: string) => boolean,
	budget: Pick<CallBudget, "due" | "checkpoint">,
): Promise<number> {
	let count = 0;
	for (let index = 0; index < notes.length; index++) {
		const { file, path } = notes[index] as ListedNote;
		// Listed at its path after scope was applied: only a note renamed since can have gone out of sight.
		if (file.path === path || visible(file.path)) count++;
		if ((index & NOTE_LISTING_FILTER_CHECK_MASK) === NOTE_LISTING_FILTER_CHECK_MASK && budget.due()) await budget.checkpoint();
	}
	return count;
}

/** The vault's notes by path, and the lists sorted so far (each made when a listing first needs it). */
interface ListingState {
	byPath: Map<string, ListedNote>;
	sorted: Record<ListingOrder, ListedNote[] | null>;
}

function listedNote(file: HostFile): ListedNote {
	return { file, path: file.path, mtime: file.stat.mtime };
}

function isNote(file: HostAbstractFile): file is HostFile {
	return "extension" in file && file.path.endsWith(".md");
}

/**
 * The notes `list_notes` pages through, kept sorted while the server runs: each order is sorted once
 * (in slices, on the first call that needs it) and then kept in order as notes are created, changed,
 * renamed or deleted (a binary search each; a folder's rename or delete sorts again at the next
 * call). A listing of one scope and filter is kept until a note changes, so a client paging or
 * asking again costs its page, not a walk of the vault. Scope is applied when a listing is made,
 * and again to each page.
 */
export class NoteListing {
	private state: ListingState | null = null;
	/** Bumped when what a listing in that order holds may have changed. */
	private readonly versions: Record<ListingOrder, number> = { path: 0, modified: 0 };
	private readonly kept = new Map<string, { version: number; files: ListedNote[] }>();
	private refs: EventRef[] = [];
	private following = false;

	constructor(private readonly host: Host) {}

	/** Starts following the vault's creates, changes, deletes and renames. */
	start(): void {
		const { vault } = this.host;
		this.refs.push(
			vault.on("create", (file) => {
				if (isNote(file)) this.added(file);
			}),
			vault.on("modify", (file) => {
				if (isNote(file)) this.changed(file);
			}),
			vault.on("delete", (file) => {
				if (!("extension" in file)) this.forget();
				else this.removed(file.path);
			}),
			vault.on("rename", (file, oldPath) => {
				if (!("extension" in file)) return this.forget();
				this.removed(oldPath);
				if (isNote(file)) this.added(file);
			}),
		);
		this.following = true;
	}

	stop(): void {
		for (const ref of this.refs) this.host.vault.offref(ref);
		this.refs = [];
		this.following = false;
		this.forget();
	}

	/**
	 * The notes of `scope` that `filter` holds, sorted by `order`: kept from an earlier call when no
	 * note changed since, else filtered from the kept sorted list in slices on `budget`. Each with the
	 * path and time it was sorted by, which a page's cursor names (a note renamed meanwhile keeps the
	 * path it was listed at). The caller must change neither the array nor its entries.
	 */
	async list(scope: Scope, filter: ListingFilter, order: ListingOrder, budget: CallBudget): Promise<readonly ListedNote[]> {
		const key = JSON.stringify([scopeKey(scope), filter.folder ?? null, filter.recursive, order]);
		const version = this.versions[order];
		const kept = this.kept.get(key);
		if (kept?.version === version) {
			this.kept.delete(key);
			this.kept.set(key, kept);
			return kept.files;
		}
		const notes = await this.sorted(order, budget);
		const visible = noteVisibility(scope);
		const files: ListedNote[] = [];
		for (let index = 0; index < notes.length; index++) {
			const entry = notes[index] as ListedNote;
			if (isListed(entry.path, filter) && visible(entry.path)) files.push(entry);
			if ((index & NOTE_LISTING_FILTER_CHECK_MASK) === NOTE_LISTING_FILTER_CHECK_MASK && budget.due()) await budget.checkpoint();
		}
		if (this.following && this.versions[order] === version) {
			if (this.kept.size >= KEPT_NOTE_LISTINGS) this.kept.delete(this.kept.keys().next().value as string);
			this.kept.set(key, { version, files });
		}
		return files;
	}

	/** A copy of every note sorted by `order`: the kept list, or one sorted now (and kept when nothing changed meanwhile). */
	private async sorted(order: ListingOrder, budget: CallBudget): Promise<ListedNote[]> {
		const state = this.state ?? this.fresh();
		const ready = state.sorted[order];
		if (ready) return ready.slice();
		const version = this.versions[order];
		const sorted = await sortInSlices([...state.byPath.values()], ORDERS[order], budget);
		if (this.state === state && this.versions[order] === version) state.sorted[order] = sorted.slice();
		return sorted;
	}

	private fresh(): ListingState {
		const byPath = new Map<string, ListedNote>();
		for (const file of this.host.vault.getMarkdownFiles()) byPath.set(file.path, listedNote(file));
		const state: ListingState = { byPath, sorted: { path: null, modified: null } };
		if (this.following) this.state = state;
		return state;
	}

	private bump(orders: readonly ListingOrder[]): void {
		for (const order of orders) this.versions[order]++;
	}

	private added(file: HostFile): void {
		this.bump(["path", "modified"]);
		const state = this.state;
		if (!state) return;
		if (state.byPath.has(file.path)) this.removed(file.path);
		const entry = listedNote(file);
		state.byPath.set(entry.path, entry);
		for (const order of ["path", "modified"] as const) {
			const sorted = state.sorted[order];
			if (sorted) insertListed(sorted, entry, ORDERS[order]);
		}
	}

	private changed(file: HostFile): void {
		const state = this.state;
		const entry = state?.byPath.get(file.path);
		if (!state || !entry) return this.added(file);
		this.bump(["modified"]);
		// A new entry: the old one's time changed in place put it out of order in a listing being made
		// (or kept), and a page's seek there skipped up to half the notes.
		const edited = listedNote(file);
		state.byPath.set(edited.path, edited);
		const byTime = state.sorted.modified;
		if (byTime) {
			removeListed(byTime, entry, inModifiedOrder);
			insertListed(byTime, edited, inModifiedOrder);
		}
		const byPath = state.sorted.path;
		if (byPath) {
			const at = positionOf(byPath, entry, inPathOrder);
			if (byPath[at]?.path === edited.path) byPath[at] = edited;
		}
	}

	private removed(path: string): void {
		this.bump(["path", "modified"]);
		const state = this.state;
		const entry = state?.byPath.get(path);
		if (!state || !entry) return;
		state.byPath.delete(path);
		for (const order of ["path", "modified"] as const) {
			const sorted = state.sorted[order];
			if (sorted) removeListed(sorted, entry, ORDERS[order]);
		}
	}

	/** Drops everything kept: a folder's rename or delete moves notes without an event each, so the next call sorts again. */
	private forget(): void {
		this.bump(["path", "modified"]);
		this.state = null;
		this.kept.clear();
	}
}
