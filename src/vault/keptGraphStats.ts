import type { EventRef } from "obsidian";
import { KEPT_GRAPH_STATS_SCOPES } from "../config/limits";
import type { Host } from "../host/Host";
import { graphStats, type GraphStats } from "./links";
import { scopeKey, type Scope } from "./scope";
import type { CallBudget } from "./workBudget";

/**
 * get_graph_stats answers kept per scope until any note changes, so asking again costs nothing: at
 * 50,000 notes each call walked every note. The counts are read from the notes' paths and their
 * metadata only, so what drops them all is a note made, renamed or deleted (the notes counted, and
 * where links land), and the links resolved again, which the host does after every note's metadata
 * is read (an edit's links, a link of another note landing on a new note): one change can move any count.
 * An answer counted while such an event came is not kept. The key is the whole scope, so a token,
 * or the settings after their excluded folders changed, never gets an answer made for another.
 */
export class KeptGraphStats {
	private readonly answers = new Map<string, GraphStats>();
	/** Bumped by every event: an answer counted across one is stale before it is kept. */
	private changes = 0;
	private refs: Array<{ from: "vault" | "metadata"; ref: EventRef }> = [];

	constructor(private readonly host: Host) {}

	start(): void {
		const { vault, metadataCache } = this.host;
		const changed = () => {
			this.changes++;
			this.answers.clear();
		};
		this.refs.push(
			{ from: "vault", ref: vault.on("create", changed) },
			{ from: "vault", ref: vault.on("delete", changed) },
			{ from: "vault", ref: vault.on("rename", changed) },
			{ from: "metadata", ref: metadataCache.on("resolved", changed) },
		);
	}

	stop(): void {
		for (const { from, ref } of this.refs) (from === "vault" ? this.host.vault : this.host.metadataCache).offref(ref);
		this.refs = [];
		this.changes++;
		this.answers.clear();
	}

	/** The graph counts for `scope`: kept ones while no note changed, else counted (pausing on `budget`) and kept. */
	async stats(scope: Scope, topCount: number, budget?: CallBudget): Promise<GraphStats> {
		const key = JSON.stringify([scopeKey(scope), topCount]);
		const kept = this.answers.get(key);
		if (kept) return copyOf(kept);
		const changesBefore = this.changes;
		const counted = await graphStats(this.host, scope, topCount, budget);
		if (this.changes === changesBefore && this.refs.length > 0) {
			if (this.answers.size >= KEPT_GRAPH_STATS_SCOPES) this.answers.clear();
			this.answers.set(key, copyOf(counted));
		}
		return counted;
	}
}

/** A copy the caller may change without changing the kept answer. */
function copyOf(stats: GraphStats): GraphStats {
	return { ...stats, top_linked: stats.top_linked.map((entry) => ({ ...entry })) };
}
