import { NOTE_PATHS_CHECK_MASK, SCOPE_VIEWS_KEPT } from "../config/limits";
import type { EventRef } from "obsidian";
import type { Host } from "../host/Host";
import { isNoteInScope, scopeKey, type Scope } from "./scope";
import { sortInSlices, type CallBudget } from "./workBudget";

/** What a sliced step of work pauses on: a call's budget, or only its slices. */
type Slices = Pick<CallBudget, "due" | "checkpoint">;

/** A note path and the lower-case forms a typed prefix is compared with. */
interface IndexedNotePath {
	path: string;
	/** The whole path, lower-case. */
	key: string;
	/** The file name without `.md`, lower-case. */
	nameKey: string;
}

/** Note paths sorted twice, by whole path and by file name, so a typed prefix is found by binary search. */
export interface SortedNotePaths {
	byPath: IndexedNotePath[];
	byName: IndexedNotePath[];
}

/** What a completion answers: at most `max` values, and whether more would have matched. */
export interface PathCompletion {
	values: string[];
	hasMore: boolean;
}

function byKey(a: string, b: string): number {
	return a < b ? -1 : a > b ? 1 : 0;
}

function indexed(path: string): IndexedNotePath {
	const key = path.toLowerCase();
	const name = key.slice(key.lastIndexOf("/") + 1);
	return { path, key, nameKey: name.endsWith(".md") ? name.slice(0, -3) : name };
}

const inPathOrder = (a: IndexedNotePath, b: IndexedNotePath) => byKey(a.key, b.key) || byKey(a.path, b.path);
const inNameOrder = (a: IndexedNotePath, b: IndexedNotePath) => byKey(a.nameKey, b.nameKey) || inPathOrder(a, b);

/** Note paths sorted for completion (all of them: scope is applied per caller). Pure. */
export function sortNotePaths(paths: readonly string[]): SortedNotePaths {
	const entries = paths.map(indexed);
	return { byPath: [...entries].sort(inPathOrder), byName: entries.sort(inNameOrder) };
}

/**
 * The same lists as `sortNotePaths`, made in slices on `budget`: the sort of every note of a large
 * vault, the first completion's work, is never one long piece.
 */
export async function sortNotePathsInSlices(paths: readonly string[], budget: Slices): Promise<SortedNotePaths> {
	const entries: IndexedNotePath[] = [];
	for (let index = 0; index < paths.length; index++) {
		entries.push(indexed(paths[index] as string));
		if ((index & NOTE_PATHS_CHECK_MASK) === NOTE_PATHS_CHECK_MASK && budget.due()) await budget.checkpoint();
	}
	return { byPath: await sortInSlices(entries, inPathOrder, budget), byName: await sortInSlices(entries, inNameOrder, budget) };
}

/** The index where `entry` sits, or would sit, in `entries` sorted by `order` (binary search). Pure. */
export function positionOf<T>(entries: readonly T[], entry: T, order: (a: T, b: T) => number): number {
	let low = 0;
	let high = entries.length;
	while (low < high) {
		const middle = (low + high) >>> 1;
		if (order(entries[middle] as T, entry) < 0) low = middle + 1;
		else high = middle;
	}
	return low;
}

/** Adds one note path to both orders, in place: a binary search and one move of the entries after it, never a sort. */
export function addNotePath(sorted: SortedNotePaths, path: string): void {
	const entry = indexed(path);
	const at = positionOf(sorted.byPath, entry, inPathOrder);
	if (sorted.byPath[at]?.path === path) return;
	sorted.byPath.splice(at, 0, entry);
	sorted.byName.splice(positionOf(sorted.byName, entry, inNameOrder), 0, entry);
}

/** Removes one note path from both orders, in place. */
export function removeNotePath(sorted: SortedNotePaths, path: string): void {
	const entry = indexed(path);
	for (const [entries, order] of [
		[sorted.byPath, inPathOrder],
		[sorted.byName, inNameOrder],
	] as const) {
		const at = positionOf(entries, entry, order);
		if (entries[at]?.path === path) entries.splice(at, 1);
	}
}

/** The first index whose key is at or after `prefix` (binary search). */
function lowerBound(entries: readonly IndexedNotePath[], prefix: string, keyOf: (entry: IndexedNotePath) => string): number {
	let low = 0;
	let high = entries.length;
	while (low < high) {
		const middle = (low + high) >>> 1;
		if (keyOf(entries[middle] as IndexedNotePath) < prefix) low = middle + 1;
		else high = middle;
	}
	return low;
}

/**
 * The note paths a typed value completes to: paths that start with it (letter case ignored), then
 * notes whose file name starts with it, each only if `visible` says the caller may see it. Looks at
 * no more than `scanLimit` entries from the first candidate of each list, so a keystroke costs the
 * same in a vault of a million notes; `hasMore` says a further visible match was seen. Pure.
 */
export function completeNotePath(sorted: SortedNotePaths, typed: string, visible: (path: string) => boolean, max: number, scanLimit: number): PathCompletion {
	const prefix = typed.toLowerCase();
	const values: string[] = [];
	const seen = new Set<string>();
	let hasMore = false;
	const walk = (entries: readonly IndexedNotePath[], keyOf: (entry: IndexedNotePath) => string): void => {
		const end = Math.min(entries.length, lowerBound(entries, prefix, keyOf) + scanLimit);
		for (let index = lowerBound(entries, prefix, keyOf); index < end && !hasMore; index++) {
			const entry = entries[index] as IndexedNotePath;
			if (!keyOf(entry).startsWith(prefix)) return;
			if (seen.has(entry.path) || !visible(entry.path)) continue;
			// Only a visible match past the last value says "more": a hidden one must not show through.
			if (values.length >= max) hasMore = true;
			else {
				seen.add(entry.path);
				values.push(entry.path);
			}
		}
	};
	walk(sorted.byPath, (entry) => entry.key);
	// A name match is a second way in: "meet" finds "Work/Meetings.md". The empty value is every path already.
	if (prefix !== "" && !prefix.includes("/")) walk(sorted.byName, (entry) => entry.nameKey);
	return { values, hasMore };
}

/** The entries of `sorted` that `visible` accepts, in the same orders, looked at in slices on `budget`. */
async function visibleNotePaths(sorted: SortedNotePaths, visible: (path: string) => boolean, budget: Slices): Promise<SortedNotePaths> {
	const kept = async (entries: readonly IndexedNotePath[]) => {
		const out: IndexedNotePath[] = [];
		for (let index = 0; index < entries.length; index++) {
			const entry = entries[index] as IndexedNotePath;
			if (visible(entry.path)) out.push(entry);
			if ((index & NOTE_PATHS_CHECK_MASK) === NOTE_PATHS_CHECK_MASK && budget.due()) await budget.checkpoint();
		}
		return out;
	};
	return { byPath: await kept(sorted.byPath), byName: await kept(sorted.byName) };
}

/**
 * The vault's note paths kept sorted for completion while the server runs: sorted once, in slices,
 * when a completion first asks, then kept in order as notes are created, deleted or renamed (one
 * binary search each; a folder's rename or delete sorts again at the next completion). A client
 * typing costs a binary search, never a walk of the vault. A list made while a path changed is used
 * for the completion that made it and not kept (the change may have missed it), as `NoteListing` does.
 */
export class NotePathIndex {
	private sorted: SortedNotePaths | null = null;
	/** Bumped at every create, delete or rename, so a list sorted across turns is kept only if none came meanwhile. */
	private version = 0;
	/** Per scope (by its key), the paths it shows: a completion walks these only, so notes it may not see never count against its bound. */
	private views = new Map<string, { visible: (path: string) => boolean; sorted: SortedNotePaths }>();
	private refs: EventRef[] = [];
	private following = false;

	constructor(private readonly host: Host) {}

	/** Starts following the vault's creates, deletes and renames. */
	start(): void {
		const { vault } = this.host;
		this.refs.push(
			vault.on("create", (file) => this.added(file.path)),
			vault.on("delete", (file) => this.removed(file.path)),
			vault.on("rename", (file, oldPath) => {
				this.removed(oldPath);
				this.added(file.path);
			}),
		);
		this.following = true;
	}

	private added(path: string): void {
		this.version++;
		if (this.sorted === null || !path.endsWith(".md")) return;
		addNotePath(this.sorted, path);
		for (const view of this.views.values()) if (view.visible(path)) addNotePath(view.sorted, path);
	}

	private removed(path: string): void {
		this.version++;
		if (this.sorted === null) return;
		// A folder: the notes in it are gone or moved too, which the next completion's sort sees.
		if (path.endsWith(".md")) {
			removeNotePath(this.sorted, path);
			for (const view of this.views.values()) removeNotePath(view.sorted, path);
		} else {
			this.sorted = null;
			this.views.clear();
		}
	}

	stop(): void {
		for (const ref of this.refs) this.host.vault.offref(ref);
		this.refs = [];
		this.following = false;
		this.sorted = null;
		this.views.clear();
	}

	/** The sorted paths, made now in slices on `budget` if a folder changed since the last time (every time while not started: nothing tells it of changes). */
	async paths(budget: Slices): Promise<SortedNotePaths> {
		if (this.sorted) return this.sorted;
		const version = this.version;
		const sorted = await sortNotePathsInSlices(
			this.host.vault.getMarkdownFiles().map((file) => file.path),
			budget,
		);
		if (this.following && this.version === version) this.sorted = sorted;
		return sorted;
	}

	/**
	 * The sorted paths of the notes `scope` shows, made from `paths()` the first time that scope asks
	 * and then kept in order with it. The scope is taken as it is now: a caller's scope read later
	 * follows the settings, and a list kept under one key by another scope's view missed the notes
	 * made meanwhile, never to offer them once the settings came back to that key.
	 */
	async visiblePaths(scope: Scope, budget: Slices): Promise<SortedNotePaths> {
		const key = scopeKey(scope);
		const visible = (path: string) => isNoteInScope(path, scope);
		const kept = this.sorted ? this.views.get(key) : undefined;
		if (kept) {
			this.views.delete(key);
			this.views.set(key, kept);
			return kept.sorted;
		}
		const version = this.version;
		const view = { visible, sorted: await visibleNotePaths(await this.paths(budget), visible, budget) };
		if (this.following && this.version === version) {
			if (this.views.size >= SCOPE_VIEWS_KEPT) this.views.delete(this.views.keys().next().value as string);
			this.views.set(key, view);
		}
		return view.sorted;
	}
}
