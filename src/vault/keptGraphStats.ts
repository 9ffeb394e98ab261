import type { EventRef } from "obsidian";
import { ASKERS_COMPARED_PER_LOOK, GRAPH_TOP_REFILL_CHANGES, KEPT_GRAPH_STATS_SCOPES } from "../config/limits";
import type { Host, HostAbstractFile } from "../host/Host";
import { GraphCounts } from "./graphCounts";
import { graphStats, noteGraphLinks, type GraphStats } from "./links";
import { noteVisibility, visibleLinkResolverOnBudget, type VisibleLinkResolver } from "./notes";
import { scopeKey, type Scope } from "./scope";
import type { CallBudget } from "./workBudget";

/** One scope's kept counts, and the paths whose part must be worked out again before the next answer. */
interface ScopeCounts {
	readonly scope: Scope;
	readonly counts: GraphCounts;
	/** Paths whose note (or its links) may have changed since their part was last set. */
	readonly changed: Set<string>;
	/** Notes whose links were resolved again among the visible files (a target is hidden): any file coming, going or moving may move them. */
	readonly reresolved: Set<string>;
	/**
	 * Notes with links pointing nowhere, each with the host's `unresolvedLinks` record its part was worked
	 * out from: a note coming to exist is counted for the links asking for it once the host resolves
	 * them again, which replaces that record. Whether Obsidian then sends `resolve` for each asking
	 * note is not documented (only that `resolved` follows changes), so the records are compared.
	 */
	readonly askers: Map<string, unknown>;
	/** Paths to look at before answering: every note, when the counts are first made or a folder changed; null when none. */
	walk: { paths: string[]; at: number } | null;
	/** Where links lead among the visible files, for the notes resolved again; null after any file came, went or moved (it gathers the files by name once). */
	resolve: VisibleLinkResolver | null;
	/** Files come, gone or moved: a note worked out across one of them is worked out again. */
	filesMoved: number;
	/** The answer being made (calls for one scope take turns: one note's part is set whole). */
	turn: Promise<unknown>;
}

/**
 * get_graph_stats counts kept per scope note by note, from the host's events, so that a call after
 * an edit costs about the notes that changed, not the vault: at 50,000 notes a count from nothing
 * was 250–640 ms of CPU on every call after any change. A note's part (where its links lead, how many
 * point nowhere) is worked out again when its links are resolved again (`resolve`), when it is
 * made, deleted or moved; a note whose links lead to a hidden note also whenever any file comes,
 * goes or moves, since its links are resolved again among the visible files at once (the host
 * resolves again only the notes asking for the file's name, after). Scope is applied as the part is worked out; the key is the whole
 * scope, so a token, or the settings after their excluded folders changed, never gets counts made
 * for another. At most KEPT_GRAPH_STATS_SCOPES scopes are kept, the one asked longest ago dropped.
 */
export class KeptGraphStats {
	private readonly scopes = new Map<string, ScopeCounts>();
	private refs: Array<{ from: "vault" | "metadata"; ref: EventRef }> = [];

	constructor(private readonly host: Host) {}

	start(): void {
		const { vault, metadataCache } = this.host;
		const moved = (file: HostAbstractFile, oldPath?: string, folderEmptied = oldPath !== undefined) => {
			const folder = !("extension" in file);
			for (const kept of this.scopes.values()) {
				// A folder's notes have events of their own, in Obsidian and headless; all looked at again in case a host sends none.
				if (folder && folderEmptied) kept.walk = null;
				kept.resolve = null;
				kept.filesMoved++;
				kept.changed.add(file.path);
				if (oldPath !== undefined) kept.changed.add(oldPath);
				for (const path of kept.reresolved) kept.changed.add(path);
				// The notes linking to a path gone or moved away, worked out again whether or not the host resolves
				// them again with a `resolve` each (Obsidian may remap its resolved links in place on a rename).
				if (folderEmptied && !folder) for (const path of kept.counts.linkersOf(oldPath ?? file.path)) kept.changed.add(path);
			}
		};
		this.refs.push(
			{ from: "vault", ref: vault.on("create", (file) => moved(file, undefined, false)) },
			{ from: "vault", ref: vault.on("delete", (file) => moved(file, undefined, true)) },
			{ from: "vault", ref: vault.on("rename", (file, oldPath) => moved(file, oldPath)) },
			{
				from: "metadata",
				ref: metadataCache.on("resolve", (file) => {
					for (const kept of this.scopes.values()) kept.changed.add(file.path);
				}),
			},
			{
				// A note read for the first time counts from then (`setNote`), whether or not a `resolve` follows (not documented).
				from: "metadata",
				ref: metadataCache.on("changed", (file) => {
					for (const kept of this.scopes.values()) kept.changed.add(file.path);
				}),
			},
		);
	}

	stop(): void {
		for (const { from, ref } of this.refs) (from === "vault" ? this.host.vault : this.host.metadataCache).offref(ref);
		this.refs = [];
		this.scopes.clear();
	}

	/**
	 * The graph counts for `scope`: the kept ones, each note that changed since worked out again first
	 * (pausing on `budget`); made from every note at the first call for a scope. A call stopped over
	 * its budget keeps what it worked out, so the next one goes on from there.
	 */
	async stats(scope: Scope, topCount: number, budget?: CallBudget): Promise<GraphStats> {
		if (this.refs.length === 0) return graphStats(this.host, scope, topCount, budget);
		const kept = this.scopeCounts(scope);
		const answer = kept.turn.then(() => this.catchUp(kept, topCount, budget));
		kept.turn = answer.catch(() => undefined);
		return answer;
	}

	private scopeCounts(scope: Scope): ScopeCounts {
		const key = scopeKey(scope);
		let kept = this.scopes.get(key);
		if (kept) this.scopes.delete(key);
		else {
			if (this.scopes.size >= KEPT_GRAPH_STATS_SCOPES) this.scopes.delete(this.scopes.keys().next().value as string);
			kept = {
				scope,
				counts: new GraphCounts(),
				changed: new Set(),
				reresolved: new Set(),
				askers: new Map(),
				walk: null,
				resolve: null,
				filesMoved: 0,
				turn: Promise.resolve(),
			};
		}
		// Last asked last: the first is the one to drop.
		this.scopes.set(key, kept);
		return kept;
	}

	/** Works out again every note changed (or, at first, every note), then answers: the answer and the last note set in one piece. */
	private async catchUp(kept: ScopeCounts, topCount: number, budget?: CallBudget): Promise<GraphStats> {
		const visible = noteVisibility(kept.scope);
		for (;;) {
			kept.walk ??= await this.everyPath(kept, budget);
			if (kept.walk.paths.length - kept.walk.at + kept.changed.size > GRAPH_TOP_REFILL_CHANGES) kept.counts.dropTop();
			// A folder moved meanwhile drops the walk (null): begun again from the top.
			for (let walk = kept.walk; walk === kept.walk && walk.at < walk.paths.length; walk.at++)
				await this.setNote(kept, walk.paths[walk.at] as string, visible, budget);
			await this.markAskersResolvedAgain(kept, budget);
			for (const path of kept.changed) {
				kept.changed.delete(path);
				try {
					await this.setNote(kept, path, visible, budget);
				} catch (error) {
					kept.changed.add(path);
					throw error;
				}
			}
			if (kept.counts.topMissing(topCount)) await kept.counts.fillTop(topCount, budget);
			// Nothing came while the last part was worked out: the answer is the vault as it is now.
			if (kept.changed.size === 0 && kept.walk !== null && kept.walk.at === kept.walk.paths.length) return kept.counts.answer(topCount);
		}
	}

	/** Marks changed each note with links pointing nowhere whose links the host resolved again since its part was set (see `askers`). */
	private async markAskersResolvedAgain(kept: ScopeCounts, budget?: CallBudget): Promise<void> {
		const { unresolvedLinks } = this.host.metadataCache;
		let looked = 0;
		for (const [path, record] of kept.askers) {
			// One comparison a note: the clock is looked at every ASKERS_COMPARED_PER_LOOK of them, not each time.
			if (++looked % ASKERS_COMPARED_PER_LOOK === 0 && budget?.due()) await budget.checkpoint();
			if (unresolvedLinks[path] !== record) kept.changed.add(path);
		}
	}

	/** Every note of the vault, and every path held (a folder gone takes its notes along), listed in slices. */
	private async everyPath(kept: ScopeCounts, budget?: CallBudget): Promise<{ paths: string[]; at: number }> {
		const paths: string[] = [];
		for (const file of this.host.vault.getMarkdownFiles()) {
			if (budget?.due()) await budget.checkpoint();
			paths.push(file.path);
		}
		for (const path of kept.counts.paths()) {
			if (budget?.due()) await budget.checkpoint();
			paths.push(path);
		}
		return { paths, at: 0 };
	}

	/** The scope's resolver among the visible files, gathered in slices when none is kept (kept unless a file moved meanwhile). */
	private async resolverOf(kept: ScopeCounts, budget?: CallBudget): Promise<VisibleLinkResolver> {
		if (kept.resolve) return kept.resolve;
		const filesMoved = kept.filesMoved;
		const resolve = await visibleLinkResolverOnBudget(this.host, kept.scope, budget);
		if (kept.filesMoved === filesMoved) kept.resolve = resolve;
		return resolve;
	}

	/** Works out one path's part again: the note's links for this scope, or none when no visible note is there now. */
	private async setNote(kept: ScopeCounts, path: string, visible: (path: string) => boolean, budget?: CallBudget): Promise<void> {
		if (budget?.due()) await budget.checkpoint();
		const file = this.host.vault.getFileByPath(path);
		// A note whose metadata is not read yet counts nowhere (as `graphStats`): the answer names it in `still_being_read`. The
		// cache's `changed` once it is read sets it here. A note given up at start was counted as an orphan until then.
		if (file?.extension !== "md" || !visible(path) || this.host.metadataCache.getFileCache(file) === null) {
			kept.counts.set(path, null);
			kept.reresolved.delete(path);
			kept.askers.delete(path);
			return;
		}
		const filesMoved = kept.filesMoved;
		// Taken before the links are worked out: resolved again meanwhile, the note is worked out again at the next look.
		const unresolvedRecord = this.host.metadataCache.unresolvedLinks[path];
		const links = await noteGraphLinks(this.host, kept.scope, path, budget, undefined, () => this.resolverOf(kept, budget));
		// Worked out over pauses: when the note's links changed meanwhile it is in `changed` again, and set again after; when
		// any file moved, where its links lead among the visible files may have too.
		kept.counts.set(path, links);
		if (links.unresolved > 0) kept.askers.set(path, unresolvedRecord);
		else kept.askers.delete(path);
		if (kept.filesMoved !== filesMoved) kept.changed.add(path);
		if (links.reresolved) kept.reresolved.add(path);
		else kept.reresolved.delete(path);
	}
}
