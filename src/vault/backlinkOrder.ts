import { BACKLINK_CHANGES_PER_CLOCK_CHECK, KEPT_BACKLINK_COUNT_CHANGES } from "../config/limits";
import { comparePathsStrictly } from "./notes";
import { MergeSortInPieces, type CallBudget } from "./workBudget";

/**
 * A note's backlinks in their answer's order (most links first, then by path), kept between calls and changed in place
 * when a count changes, and the pages of that order as a client reads them while counts change. Pure but for the pauses
 * of `changedSince`.
 */

/** A linking file and its links to the target: the answer's entry, and the key a page's cursor names. */
export interface CountedSource {
	path: string;
	count: number;
}

/** The answer's order: most links first, then by path (`comparePathsStrictly`). */
export function byCount(a: CountedSource, b: CountedSource): number {
	return b.count - a.count || comparePathsStrictly(a.path, b.path);
}

/**
 * Where `key` goes in `order` (sorted by `byCount`, each path's count in `counts`): the first place whose entry is not
 * before it, or with `past`, the first whose entry is after it.
 */
function placeOf(order: readonly string[], counts: ReadonlyMap<string, number>, key: CountedSource, past = false): number {
	let low = 0;
	let high = order.length;
	while (low < high) {
		const middle = (low + high) >>> 1;
		const path = order[middle] as string;
		const against = byCount({ path, count: counts.get(path) ?? 0 }, key);
		if (against < 0 || (past && against === 0)) low = middle + 1;
		else high = middle;
	}
	return low;
}

/**
 * Moves `path` in `order` from its place at count `was` to its place at `now` (0: not in the order), each found by binary
 * search, the entries between shifted by one: at 100,000 linking files a move is about 17 comparisons and a shift of at
 * most the list, where sorting it again was 200–320 ms. `counts` holds every other path's count (`path`'s own is not
 * read). False when `path` is not where its count `was` puts it (the caller sorts again).
 */
export function moveInOrder(order: string[], counts: ReadonlyMap<string, number>, path: string, was: number, now: number): boolean {
	const others = { get: (other: string) => (other === path ? was : counts.get(other)) } as ReadonlyMap<string, number>;
	let from = order.length;
	if (was > 0) {
		from = placeOf(order, others, { path, count: was });
		if (order[from] !== path) return false;
	}
	if (now <= 0) {
		if (from < order.length) order.splice(from, 1);
		return true;
	}
	// Where it goes among the others (itself taken out of the count: it compares equal to its old key only).
	let to = placeOf(order, others, { path, count: now });
	if (from < order.length && to > from) to--;
	if (from === order.length) {
		order.splice(to, 0, path);
		return true;
	}
	// One shift between the two places (a splice out and one in moved twice as many, and copied the list at 100,000).
	if (from < to) for (let index = from; index < to; index++) order[index] = order[index + 1] as string;
	else for (let index = from; index > to; index--) order[index] = order[index - 1] as string;
	order[to] = path;
	return true;
}

/**
 * The counts a backlinks walk changed since it first answered, the last KEPT_BACKLINK_COUNT_CHANGES of them at least:
 * what a later page needs to know each linking file's count as it was when its client read the first page. Versions
 * count the changes: the walk's order at version `v` is the order once the first `v` changes were made.
 */
export class CountChanges {
	/** Each change: its path and the count it had before (0: it did not link). */
	private changes: Array<{ path: string; before: number }> = [];
	/** The version before the first change kept. */
	private base = 0;

	/** The version now: changes made since the walk first answered. */
	get version(): number {
		return this.base + this.changes.length;
	}

	/** Entries kept: the walk's bytes count them. */
	get size(): number {
		return this.changes.length;
	}

	add(path: string, before: number): void {
		this.changes.push({ path, before });
		// Let go in halves: dropping one at a time shifted the whole list at each change.
		if (this.changes.length >= 2 * KEPT_BACKLINK_COUNT_CHANGES) {
			const dropped = this.changes.length - KEPT_BACKLINK_COUNT_CHANGES;
			this.changes = this.changes.slice(dropped);
			this.base += dropped;
		}
	}

	/** For each path whose count changed since `version`, its count then; null when those changes are no longer kept (or `version` is not one of this walk's). */
	countsAt(version: number): Map<string, number> | null {
		if (!this.keeps(version)) return null;
		const then = new Map<string, number>();
		for (let index = version - this.base; index < this.changes.length; index++) {
			const { path, before } = this.changes[index] as { path: string; before: number };
			if (!then.has(path)) then.set(path, before);
		}
		return then;
	}

	/**
	 * `countsAt`, read in pieces on `budget` (none: in one piece), looking at its clock every BACKLINK_CHANGES_PER_CLOCK_CHECK
	 * changes: up to 2 × KEPT_BACKLINK_COUNT_CHANGES are kept, and read in one piece they took 1.7-10 ms at every page of
	 * an old cursor. The changes are those kept when it begins (a change added at a pause is not read, as in one piece).
	 */
	async countsAtInPieces(version: number, budget?: Pick<CallBudget, "due" | "checkpoint">): Promise<Map<string, number> | null> {
		if (!this.keeps(version)) return null;
		const { changes, base } = this;
		const end = changes.length;
		const then = new Map<string, number>();
		for (let index = version - base, read = 0; index < end; index++) {
			const { path, before } = changes[index] as { path: string; before: number };
			if (!then.has(path)) then.set(path, before);
			if (++read % BACKLINK_CHANGES_PER_CLOCK_CHECK === 0 && budget?.due()) await budget.checkpoint();
		}
		return then;
	}

	/** Whether the changes since `version` are kept (and it is one of this walk's versions). */
	private keeps(version: number): boolean {
		return Number.isInteger(version) && version >= this.base && version <= this.version;
	}
}

/** A page of backlinks, and how it stands to the pages before it. */
export interface BacklinksPage {
	items: CountedSource[];
	/** Linking files now. */
	total: number;
	/** The next page's place: the last item's key in the order paged, and that order's version; absent on the last page. */
	next?: { after: CountedSource; version: number };
	/**
	 * "kept": counts changed since the first page; the pages keep that page's order, so each linking file comes once (a
	 * count is as now). "lost": they changed past what the walk keeps (or the cursor is not this walk's): the page is of the
	 * order now, after the cursor's key, where a file that moved may come again or not at all.
	 */
	orderChanged?: "kept" | "lost";
}

/** The current order and counts of a walk that has answered, what it changed since, and which of its paths may be gone. */
export interface CountedOrder {
	order: readonly string[];
	counts: ReadonlyMap<string, number>;
	changes: CountChanges;
	/** Paths counted that are not at their path now: never answered. */
	gone: ReadonlySet<string>;
}

/** The files whose count changed since a version: each one's count then, and their keys then (path, count then) in the answer's order. */
export interface ChangedSince {
	then: ReadonlyMap<string, number>;
	sorted: readonly CountedSource[];
}

/** The keys then of the files whose counts changed since `version`, sorted. */
function keysThen(then: ReadonlyMap<string, number>): CountedSource[] {
	return [...then].map(([path, count]) => ({ path, count }));
}

/**
 * What changed since `version` (null: no longer kept, or not one of this walk's), its keys sorted in pieces on `budget`:
 * sorted at once, the keys of KEPT_BACKLINK_COUNT_CHANGES and more changed files were one piece of 17–24 ms at 100,000
 * linking notes (load 23), at every page read with a cursor of that version; the changes are read in pieces too.
 */
export async function changedSince(changes: CountChanges, version: number, budget?: Pick<CallBudget, "due" | "checkpoint">): Promise<ChangedSince | null> {
	const then = await changes.countsAtInPieces(version, budget);
	return then && { then, sorted: await new MergeSortInPieces(keysThen(then), byCount).run(budget) };
}

/**
 * The page of at most `limit` linking files after `after`, in the order of version `version` (the first page's), their
 * counts as now. A file whose count changed since is placed by its count then (one that did not link then: after all that
 * did, by path), so a client reading the pages one after another while notes are edited gets each linking file once;
 * a file that stopped linking is left out. Cost: the changes since `version` (KEPT_BACKLINK_COUNT_CHANGES at most kept)
 * looked at, two binary searches, and the page; their keys sorted too unless `since` (`changedSince`, sorted in pieces) is
 * given. Without a cursor, the order now; with one whose version is no longer kept, the order now after the cursor's
 * key, said ("lost").
 */
export function backlinksPage(
	{ order, counts, changes, gone }: CountedOrder,
	limit: number,
	cursor?: { after: CountedSource; version: number | null },
	since?: ChangedSince | null,
): BacklinksPage {
	const total = order.length - [...gone].filter((path) => counts.has(path)).length;
	const kept = since !== undefined ? since : cursor?.version == null ? null : changesThen(changes.countsAt(cursor.version));
	const lost = cursor !== undefined && kept === null;
	const version = kept === null ? changes.version : (cursor?.version as number);
	const moved = kept?.then ?? new Map<string, number>();
	const after = cursor?.after;
	// Those not changed since stand in the order now as they stood then.
	let next = after === undefined ? 0 : placeOf(order, counts, after, true);
	const unchanged = (): CountedSource | undefined => {
		for (; next < order.length; next++) {
			const path = order[next] as string;
			if (!moved.has(path) && !gone.has(path)) return { path, count: counts.get(path) as number };
		}
		return undefined;
	};
	// Those changed, at their place then: a key (count then, path), after the cursor's key (a binary search); linking now.
	const changed = kept?.sorted ?? [];
	let changedNext = after === undefined ? 0 : firstAfter(changed, after);
	const changedLinking = (): CountedSource | undefined => {
		for (; changedNext < changed.length; changedNext++) {
			const key = changed[changedNext] as CountedSource;
			if (counts.has(key.path) && !gone.has(key.path)) return key;
		}
		return undefined;
	};
	const items: CountedSource[] = [];
	let last: CountedSource | undefined;
	for (;;) {
		const fromOrder = unchanged();
		const fromChanged = changedLinking();
		const takeChanged = fromChanged !== undefined && (fromOrder === undefined || byCount(fromChanged, fromOrder) < 0);
		const key = takeChanged ? fromChanged : fromOrder;
		if (key === undefined) break;
		if (items.length === limit) return { items, total, next: { after: last as CountedSource, version }, ...orderNote(lost, moved) };
		if (takeChanged) changedNext++;
		else next++;
		items.push({ path: key.path, count: counts.get(key.path) as number });
		last = key;
	}
	return { items, total, ...orderNote(lost, moved) };
}

/** `changedSince`'s answer sorted at once (pages made in one piece: tests, and a walk's answer without a budget). */
function changesThen(then: Map<string, number> | null): ChangedSince | null {
	return then && { then, sorted: keysThen(then).sort(byCount) };
}

/** The first place in `sorted` (by `byCount`) whose key is after `key`. */
function firstAfter(sorted: readonly CountedSource[], key: CountedSource): number {
	let low = 0;
	let high = sorted.length;
	while (low < high) {
		const middle = (low + high) >>> 1;
		if (byCount(sorted[middle] as CountedSource, key) <= 0) low = middle + 1;
		else high = middle;
	}
	return low;
}

function orderNote(lost: boolean, moved: ReadonlyMap<string, number>): Pick<BacklinksPage, "orderChanged"> {
	return lost ? { orderChanged: "lost" } : moved.size > 0 ? { orderChanged: "kept" } : {};
}
