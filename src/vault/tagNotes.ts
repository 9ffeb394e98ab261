import type { EventRef } from "obsidian";
import {
	KEPT_PAGED_TAG_WALK_TAGS,
	KEPT_PAGED_TAG_WALKS,
	KEPT_TAG_COUNT_SCOPES,
	KEPT_TAG_NOTE_ANSWERS,
	RUNS_WHILE_RENAMED,
	TAG_NOTES_CHECK_MASK,
} from "../config/limits";
import { untilNoneMovedOutOfSight } from "./renamesSeen";
import type { Host, HostAbstractFile } from "../host/Host";
import { noteVisibility } from "./notes";
import { sharedNoteMemo, type NoteMemo } from "./noteMemo";
import { scopeKey, type Scope } from "./scope";
import { inTagPathOrder, isTagOrNested, noteTagsInSteps, tagKey, tagKeysIn, type NoteTags } from "./tags";
import { runStepsOnBudget, sortInSlices, type CallBudget } from "./workBudget";
import { TagCountWalk } from "./tagCounts";
import { SplitStringMap, SplitStringSet } from "../markdown/splitStringMap";

/** Where `path` is, or would go, in `paths` sorted by `inTagPathOrder`. Pure. */
function positionIn(paths: readonly string[], path: string): number {
	let low = 0;
	let high = paths.length;
	while (low < high) {
		const middle = (low + high) >> 1;
		if (inTagPathOrder(paths[middle] as string, path) < 0) low = middle + 1;
		else high = middle;
	}
	return low;
}

/**
 * `a` and `b` (each sorted by `inTagPathOrder`, each path once) as one sorted list, each path once,
 * merged in slices on `budget`. Pure but for the pauses.
 */
export async function mergeInSlices(a: readonly string[], b: readonly string[], budget: Pick<CallBudget, "due" | "checkpoint">): Promise<string[]> {
	const merged: string[] = [];
	let left = 0;
	let right = 0;
	while (left < a.length || right < b.length) {
		if ((merged.length & TAG_NOTES_CHECK_MASK) === TAG_NOTES_CHECK_MASK && budget.due()) await budget.checkpoint();
		if (right >= b.length) merged.push(a[left++] as string);
		else if (left >= a.length) merged.push(b[right++] as string);
		else {
			const order = inTagPathOrder(a[left] as string, b[right] as string);
			if (order <= 0) merged.push(a[left++] as string);
			else merged.push(b[right++] as string);
			if (order === 0) right++;
		}
	}
	return merged;
}

/** The notes holding one tag key: sorted by `inTagPathOrder` once a call has needed them sorted, kept sorted from then on. */
interface KeyNotes {
	paths: string[];
	sorted: boolean;
}

/**
 * Which notes hold each tag, kept while the server runs, so `find_notes_by_tag` costs about its
 * answer rather than a walk of every note. Changes only mark a note (a metadata change, a delete, a
 * rename); the next call brings those notes up to date, pausing on its budget, before it answers.
 * The first call indexes every note the same way (in slices). A folder's rename or delete, which may
 * move notes without an event each, marks the notes indexed under it (and where a rename took
 * them); a folder made holds no note yet, its notes come with events of their own. A note without metadata yet is
 * looked at again by every call until it has some. Scope is applied to each answer, never kept.
 * An answer for a scope and tag is kept until a note's tags change.
 */
export class TagNotes {
	/** Each note's tags as indexed; null until the first call (or once stopped). */
	private indexed: Map<string, NoteTags> | null = null;
	/** Split, as every set of tag keys here: V8 hashes a key longer than V8_HASHED_STRING_MAX_CHARS by its length alone. */
	private byKey = new SplitStringMap<KeyNotes>();
	/** Notes changed since they were last indexed. */
	private readonly dirty = new Set<string>();
	/** Notes whose metadata the host did not have yet when they were last looked at. */
	private readonly waiting = new Set<string>();
	/**
	 * Notes whose update was stopped between two pauses (the call ran out of budget, or its token lost
	 * the tool): every key they had before or were getting, to be put right idempotently.
	 */
	private readonly unfinished = new Map<string, SplitStringSet>();
	/** Notes new to the index whose keys a stopped call was adding: the tags it was adding, and how far it got (keys and spellings). */
	private readonly newNotesStarted = new Map<string, { tags: NoteTags; done: number }>();
	/** Bumped whenever a note is added to or taken from a key. */
	private version = 0;
	/** Bumped when everything is dropped (see forget). */
	private era = 0;
	private readonly kept = new Map<string, { version: number; notes: readonly string[] }>();
	/** The call bringing the index up to date (one at a time); others wait for it. */
	private busy: Promise<void> | null = null;
	private refs: Array<{ ref: EventRef; from: "vault" | "metadata" }> = [];
	/** The tag counts of each scope asked for since no note's tags changed: finished, or where a stopped call left them. */
	private readonly countWalks = new Map<string, TagCountWalk>();
	/**
	 * Finished walks a list_tags page with a next page came from, by scope key and walk id (the cursor's `order`), the one
	 * paged longest ago first: kept after notes' tags change so a client's later pages keep its first page's order.
	 */
	private readonly pagedWalks = new Map<string, TagCountWalk>();
	/** Bumped at every rename of a note or folder: a walk that ran meanwhile may have counted a note moved out of its scope. */
	private moves = 0;

	constructor(
		private readonly host: Host,
		private readonly memo: NoteMemo = sharedNoteMemo,
	) {}

	/** Starts following the notes' metadata changes, deletes and renames. */
	start(): void {
		const { vault, metadataCache } = this.host;
		this.refs.push(
			{ from: "metadata", ref: metadataCache.on("changed", (file) => this.mark(file.path)) },
			{ from: "metadata", ref: metadataCache.on("deleted", (file) => this.mark(file.path)) },
			{ from: "vault", ref: vault.on("create", (file) => (isFile(file) ? this.mark(file.path) : undefined)) },
			{ from: "vault", ref: vault.on("delete", (file) => (isFile(file) ? this.mark(file.path) : this.markUnder(file.path, null))) },
			{
				from: "vault",
				ref: vault.on("rename", (file, oldPath) => {
					this.moves++;
					if (!isFile(file)) return this.markUnder(oldPath, file.path);
					this.mark(oldPath);
					this.mark(file.path);
				}),
			},
		);
	}

	stop(): void {
		for (const { ref, from } of this.refs) (from === "vault" ? this.host.vault : this.host.metadataCache).offref(ref);
		this.refs = [];
		this.forget();
	}

	/**
	 * What `read` takes from the tag counts of `scope` (see TagCountWalk), finished: kept until a note
	 * changes, and, when a call runs out of budget, kept where it stopped so the same call again goes
	 * on from there. Counted and read again when a note or folder moved out of `scope`'s sight while the
	 * call waited: the walk's notes are file objects renamed in place, and the tags of one moved into an
	 * excluded folder meanwhile were in the answer (an edit, or a move within sight, only makes the counts
	 * a moment old, as any walk's are). Null when something moved out of sight in each of RUNS_WHILE_RENAMED runs.
	 */
	async tagCounts<T>(scope: Scope, budget: CallBudget, read: (walk: TagCountWalk) => T | Promise<T>): Promise<{ value: T } | null> {
		const key = scopeKey(scope);
		// A walk in the map has seen no rename since it began (each drops every walk): only this call's waits matter.
		return untilNoneMovedOutOfSight(this.host, scope, RUNS_WHILE_RENAMED, async () => {
			let walk = this.countWalks.get(key);
			if (!walk) {
				walk = new TagCountWalk(this.host, scope, this.memo);
				// Only while following changes: otherwise nothing would tell the walk it is out of date.
				if (this.refs.length > 0) {
					if (this.countWalks.size >= KEPT_TAG_COUNT_SCOPES) this.countWalks.delete(this.countWalks.keys().next().value as string);
					this.countWalks.set(key, walk);
				}
			}
			await walk.finish(budget);
			return read(walk);
		});
	}

	/**
	 * Keeps `walk` (finished, of `scope`) for the pages after one it gave (`pagedWalk`); false when it is not kept (the
	 * server does not follow changes, or the walk holds more than KEPT_PAGED_TAG_WALK_TAGS tags).
	 */
	keepPaged(scope: Scope, walk: TagCountWalk): boolean {
		if (this.refs.length === 0 || walk.distinct > KEPT_PAGED_TAG_WALK_TAGS) return false;
		const key = JSON.stringify([scopeKey(scope), walk.id]);
		this.pagedWalks.delete(key);
		if (this.pagedWalks.size >= KEPT_PAGED_TAG_WALKS) this.pagedWalks.delete(this.pagedWalks.keys().next().value as string);
		this.pagedWalks.set(key, walk);
		return true;
	}

	/** The walk named `id` kept for `scope`'s pages (`keepPaged`): only a walk of the same scope, so a cursor of another token's scope pages nothing of it. */
	pagedWalk(scope: Scope, id: string): TagCountWalk | undefined {
		return this.pagedWalks.get(JSON.stringify([scopeKey(scope), id]));
	}

	/**
	 * Visible notes of `scope` carrying `tag` or a tag nested under it, sorted by path; null when notes kept moving out of
	 * `scope`'s sight (RUNS_WHILE_RENAMED runs). The caller must not change the array.
	 */
	async notesWith(scope: Scope, tag: string, budget: CallBudget): Promise<readonly string[] | null> {
		// The lists hold paths: a note moved out of sight while they were merged and checked (into an excluded folder, say) was
		// named, and counted, at the path it had left. Asked again, the marks of the rename are taken in first. A move within
		// sight leaves a path the caller saw: made again at every rename, a busy vault kept the call going until its budget ran out.
		const ran = await untilNoneMovedOutOfSight(this.host, scope, RUNS_WHILE_RENAMED, () => this.notesWithSince(scope, tag, budget, this.moves));
		return ran && ran.value;
	}

	/** `notesWith` as of the index now; an answer is kept only when no note or folder was renamed since `moves` was read. */
	private async notesWithSince(scope: Scope, tag: string, budget: CallBudget, moves: number): Promise<readonly string[]> {
		const wanted = tagKey(tag);
		const taken = await this.exclusive(async () => {
			// Everything was dropped meanwhile (forget): what was read so far is gone, so it starts over.
			for (;;) {
				const era = this.era;
				await this.bringUpToDate(budget);
				const kept = this.kept.get(JSON.stringify([scopeKey(scope), wanted]));
				if (kept?.version === this.version) return kept;
				const sorted = await this.sortedListsFor(wanted, budget);
				// The version the copies were taken at: a call waiting behind this one may change the index before this one goes on.
				if (era === this.era) return { lists: sorted, version: this.version };
			}
		});
		if ("notes" in taken) return taken.notes;
		const { lists, version } = taken;
		let merged: readonly string[] = lists[0] ?? [];
		// Pairwise, like the passes of a merge sort: each path is compared about log2(lists) times.
		for (let round = lists as ReadonlyArray<readonly string[]>; round.length > 1;) {
			const next: Array<readonly string[]> = [];
			for (let index = 0; index < round.length; index += 2) {
				const second = round[index + 1];
				next.push(second ? await mergeInSlices(round[index] as readonly string[], second, budget) : (round[index] as readonly string[]));
			}
			round = next;
			merged = round[0] ?? [];
		}
		const visible = noteVisibility(scope);
		const notes: string[] = [];
		for (let index = 0; index < merged.length; index++) {
			if ((index & TAG_NOTES_CHECK_MASK) === TAG_NOTES_CHECK_MASK && budget.due()) await budget.checkpoint();
			const path = merged[index] as string;
			if (visible(path)) notes.push(path);
		}
		if (this.refs.length > 0 && this.version === version && this.moves === moves) this.keep(JSON.stringify([scopeKey(scope), wanted]), { version, notes });
		return notes;
	}

	private keep(key: string, answer: { version: number; notes: readonly string[] }): void {
		this.kept.delete(key);
		if (this.kept.size >= KEPT_TAG_NOTE_ANSWERS) this.kept.delete(this.kept.keys().next().value as string);
		this.kept.set(key, answer);
	}

	/** Runs `work` once no other call is bringing the index up to date or sorting it. */
	private async exclusive<T>(work: () => Promise<T>): Promise<T> {
		while (this.busy) await this.busy;
		let release: () => void = () => undefined;
		this.busy = new Promise((resolve) => (release = resolve));
		try {
			return await work();
		} finally {
			this.busy = null;
			release();
		}
	}

	/** Copies of the lists of `wanted` and the keys nested under it, each sorted (sorting any not sorted yet, in slices). */
	private async sortedListsFor(wanted: string, budget: CallBudget): Promise<string[][]> {
		const keys: KeyNotes[] = [];
		let seen = 0;
		for (const [key, notes] of this.byKey.entries()) {
			if ((++seen & TAG_NOTES_CHECK_MASK) === 0 && budget.due()) await budget.checkpoint();
			if (isTagOrNested(key, wanted) && notes.paths.length > 0) keys.push(notes);
		}
		const lists: string[][] = [];
		for (const notes of keys) {
			if (!notes.sorted) {
				// Nothing changes the list meanwhile: updates wait for this call (see exclusive).
				notes.paths = await sortInSlices(notes.paths, inTagPathOrder, budget);
				notes.sorted = true;
			}
			lists.push(notes.paths.slice());
		}
		return lists;
	}

	/** Indexes every note marked since the last call (every note at the first), pausing on `budget`. */
	private async bringUpToDate(budget: CallBudget): Promise<void> {
		if (!this.indexed) {
			this.indexed = new Map();
			for (const file of this.host.vault.getMarkdownFiles()) this.dirty.add(file.path);
		}
		for (const path of this.waiting) this.dirty.add(path);
		this.waiting.clear();
		for (const path of this.dirty) {
			if (budget.due()) await budget.checkpoint();
			// Unmarked first: a change while its tags are read marks it again, for this loop to reach.
			this.dirty.delete(path);
			try {
				await this.update(path, budget);
			} catch (error) {
				this.dirty.add(path);
				throw error;
			}
		}
	}

	/** Puts one note's tags in the index: its keys gained and lost, each a binary search once its list is sorted. */
	private async update(path: string, budget: CallBudget): Promise<void> {
		const indexed = this.indexed;
		if (!indexed) return;
		const file = this.host.vault.getFileByPath(path);
		const cache = file && file.extension === "md" ? this.host.metadataCache.getFileCache(file) : null;
		if (file && file.extension === "md" && !cache) this.waiting.add(path);
		let tags: NoteTags = [];
		if (cache) {
			tags = this.memo.tags.get(cache) ?? (await runStepsOnBudget(noteTagsInSteps(cache, this.memo.strings), budget));
			this.memo.tags.set(cache, tags);
			if (this.indexed !== indexed) return;
		}
		const wasUnfinished = this.unfinished.get(path);
		const started = this.newNotesStarted.get(path);
		const previous = indexed.get(path) ?? (started ? started.tags.slice(0, started.done) : undefined);
		if (!wasUnfinished && (!previous || started?.tags === tags)) {
			// A note new to the index (each key once): its keys are added in order, no sets; a call stopped
			// part-way leaves how far it got, and the next goes on from there (a note of 800,000 tags was
			// started over by every call, and no call reached its end).
			const progress = started ?? { tags, done: 0 };
			this.newNotesStarted.set(path, progress);
			while (progress.done < tags.length) {
				if (((progress.done >> 1) & TAG_NOTES_CHECK_MASK) === TAG_NOTES_CHECK_MASK && budget.due() && (await this.pausedAndDropped(indexed, budget)))
					return;
				this.put(tags[progress.done] as string, path, false);
				progress.done += 2;
			}
			this.newNotesStarted.delete(path);
			if (tags.length > 0) indexed.set(path, tags);
			return;
		}
		let step = 0;
		/** True every TAG_NOTES_CHECK_MASK + 1 keys when the slice is used up: the loop pauses, and stops if everything was dropped meanwhile. */
		const due = (): boolean => (++step & TAG_NOTES_CHECK_MASK) === 0 && budget.due();
		// Until it ends, the note may be in any of `touched`'s keys: a later call puts each right whatever was done.
		// The sets are filled in slices too: a note of 800,000 tags made them in one piece of 0.2–1 s.
		const touched = new SplitStringSet();
		let before = wasUnfinished;
		if (!before) {
			before = new SplitStringSet();
			for (const key of tagKeysIn(previous ?? [])) {
				if (due() && (await this.pausedAndDropped(indexed, budget))) return;
				before.add(key);
				touched.add(key);
			}
		} else {
			for (const key of before) {
				if (due() && (await this.pausedAndDropped(indexed, budget))) return;
				touched.add(key);
			}
		}
		const after = new SplitStringSet();
		for (const key of tagKeysIn(tags)) {
			if (due() && (await this.pausedAndDropped(indexed, budget))) return;
			after.add(key);
			touched.add(key);
		}
		// Nothing in the index changed yet: a call stopped above leaves the note marked (see bringUpToDate).
		this.unfinished.set(path, touched);
		// Keys a stopped call had added for the note's earlier tags are among `touched` now.
		this.newNotesStarted.delete(path);
		indexed.delete(path);
		for (const key of touched) {
			if (due() && (await this.pausedAndDropped(indexed, budget))) return;
			const keep = after.has(key);
			if (!keep) this.take(key, path);
			else if (!before.has(key) || wasUnfinished) this.put(key, path, wasUnfinished !== undefined);
		}
		this.unfinished.delete(path);
		if (tags.length > 0) indexed.set(path, tags);
	}

	/** Pauses on `budget`; true when everything was dropped meanwhile (see forget), so `indexed` is no longer the index. */
	private async pausedAndDropped(indexed: Map<string, NoteTags>, budget: CallBudget): Promise<boolean> {
		await budget.checkpoint();
		return this.indexed !== indexed;
	}

	private put(key: string, path: string, unlessThere: boolean): void {
		let notes = this.byKey.get(key);
		if (!notes) {
			// Sorted when a call first needs it (in slices): the first call's walk of every note only appends.
			notes = { paths: [], sorted: false };
			this.byKey.set(key, notes);
		}
		if (notes.sorted) {
			const at = positionIn(notes.paths, path);
			if (unlessThere && notes.paths[at] === path) return;
			notes.paths.splice(at, 0, path);
		} else {
			if (unlessThere && notes.paths.includes(path)) return;
			notes.paths.push(path);
		}
		this.version++;
	}

	private take(key: string, path: string): void {
		const notes = this.byKey.get(key);
		if (!notes) return;
		const at = notes.sorted ? positionIn(notes.paths, path) : notes.paths.lastIndexOf(path);
		if (at < 0 || notes.paths[at] !== path) return;
		notes.paths.splice(at, 1);
		if (notes.paths.length === 0) this.byKey.delete(key);
		this.version++;
	}

	private mark(path: string): void {
		this.countWalks.clear();
		if (this.indexed) this.dirty.add(path);
	}

	/**
	 * A folder deleted or renamed (to `movedTo`): its notes may have gone or moved without an event
	 * each, so every note the index knows under it is marked, and where it went. A note under it that
	 * the index does not know holds no tag, and holds none where it went.
	 */
	private markUnder(folder: string, movedTo: string | null): void {
		this.countWalks.clear();
		if (!this.indexed) return;
		const prefix = `${folder}/`;
		const known = [...this.indexed.keys(), ...this.dirty, ...this.waiting, ...this.unfinished.keys(), ...this.newNotesStarted.keys()];
		for (const path of known) {
			if (!path.startsWith(prefix)) continue;
			this.dirty.add(path);
			if (movedTo !== null) this.dirty.add(`${movedTo}/${path.slice(prefix.length)}`);
		}
	}

	/** Drops everything: the next call indexes every note again. */
	private forget(): void {
		this.indexed = null;
		this.byKey = new SplitStringMap();
		this.dirty.clear();
		this.waiting.clear();
		this.unfinished.clear();
		this.newNotesStarted.clear();
		this.kept.clear();
		this.countWalks.clear();
		this.pagedWalks.clear();
		this.version++;
		this.era++;
	}
}

function isFile(file: HostAbstractFile): boolean {
	return "extension" in file;
}
