import type { EventRef } from "obsidian";
import { KEPT_NOTE_LINK_PATHS, KEPT_NOTE_LINK_WALKS, LINKS_PER_CLOCK_CHECK } from "../config/limits";
import type { Host, HostFile } from "../host/Host";
import { emptyNoteLinks, NoteLinksWalk, type NoteLinks } from "./links";
import { scopeKey, type Scope } from "./scope";
import type { CallBudget } from "./workBudget";

/** One note's kept walk, and the call walking it now (calls on one walk take turns: a link is taken whole by one). */
interface KeptWalk {
	readonly walk: NoteLinksWalk;
	turn: Promise<unknown>;
}

/**
 * get_note_links' walks over notes' links, kept between calls so that a call stopped at its budget
 * is gone on with by the next, and a finished walk answers again for a lookup (a page of backlinks
 * after another). A walk is for one version of the note (its metadata object: both hosts replace it
 * when the note is read again), at one path, for one scope; every walk is dropped when any file
 * comes, goes or moves, since where a link path leads depends on every file's name, and a note's
 * walks when the host resolves its links again: the headless host takes a file made into its link
 * resolver in its queue of changes, after the vault's `create`, and a walk made between the two was
 * kept with the new file reached by none of its links until another file came, went or moved. A walk of fewer
 * than LINKS_PER_CLOCK_CHECK links is done between two looks at the clock and is not kept. At most
 * KEPT_NOTE_LINK_WALKS walks and KEPT_NOTE_LINK_PATHS link paths among them (`dropPastBounds`: finished
 * walks first, then the one stopped furthest behind).
 */
export class KeptNoteLinks {
	/** By note path and scope, the one asked longest ago first. */
	private readonly walks = new Map<string, KeptWalk>();
	private refs: Array<{ from: "vault" | "metadata"; ref: EventRef }> = [];

	constructor(private readonly host: Host) {}

	start(): void {
		const { vault, metadataCache } = this.host;
		const dropAll = () => this.walks.clear();
		const dropWalksOf = (file: HostFile) => {
			for (const [key, { walk }] of this.walks) if (walk.sourcePath === file.path) this.walks.delete(key);
		};
		this.refs = [
			{ from: "vault", ref: vault.on("create", dropAll) },
			{ from: "vault", ref: vault.on("delete", dropAll) },
			{ from: "vault", ref: vault.on("rename", dropAll) },
			{ from: "metadata", ref: metadataCache.on("resolve", dropWalksOf) },
		];
	}

	stop(): void {
		for (const { from, ref } of this.refs) (from === "vault" ? this.host.vault : this.host.metadataCache).offref(ref);
		this.refs = [];
		this.walks.clear();
	}

	/** `file`'s links as `noteLinks` gives them, going on from the kept walk of its version in this scope when there is one. */
	async links(scope: Scope, file: HostFile, listed: number, budget?: CallBudget): Promise<NoteLinks> {
		const cache = this.host.metadataCache.getFileCache(file);
		if (!cache) return emptyNoteLinks();
		if (this.refs.length === 0) return new NoteLinksWalk(cache, file.path, listed).walk(this.host, scope, budget);
		const key = JSON.stringify([file.path, scopeKey(scope)]);
		const known = this.walks.get(key);
		const kept =
			known && known.walk.cache === cache && known.walk.listed === listed
				? known
				: { walk: new NoteLinksWalk(cache, file.path, listed), turn: Promise.resolve() };
		// Last asked last: the first is the one to drop.
		this.walks.delete(key);
		this.walks.set(key, kept);
		const answer = kept.turn.then(() => {
			// The wait behind another call on the walk was that call's work, not this one's.
			budget?.beginSlice();
			return kept.walk.walk(this.host, scope, budget);
		});
		kept.turn = answer.catch(() => undefined);
		try {
			const links = await answer;
			if (links.outgoingTotal < LINKS_PER_CLOCK_CHECK && this.walks.get(key) === kept) this.walks.delete(key);
			return links;
		} finally {
			this.dropPastBounds(key);
		}
	}

	/**
	 * Drops walks, never `asked`'s, until the kept ones are within both bounds: the finished ones first, the one asked
	 * longest ago first; then the one stopped furthest behind, of two as far the one asked last. A walk stopped part way
	 * was promised to its caller (the same call again gets further). Dropped by age, one stopped for the finished walks of
	 * another token's calls meanwhile (eight notes of 512+ links asked between two of its calls) started over at every
	 * call, and so did each of nine stopped walks called in turn: none ended. Dropped by progress, the one furthest on is
	 * kept (bar the bound of link paths, when only it and the one asked are left) and ends, then the next.
	 */
	private dropPastBounds(asked: string): void {
		let linkPaths = 0;
		for (const { walk } of this.walks.values()) linkPaths += walk.linkPaths;
		const over = () => this.walks.size > KEPT_NOTE_LINK_WALKS || linkPaths > KEPT_NOTE_LINK_PATHS;
		const drop = (key: string, walk: NoteLinksWalk) => {
			this.walks.delete(key);
			linkPaths -= walk.linkPaths;
		};
		for (const [key, { walk }] of this.walks) {
			if (!over()) return;
			if (key !== asked && walk.finished) drop(key, walk);
		}
		while (over()) {
			let behind: { key: string; walk: NoteLinksWalk } | null = null;
			for (const [key, { walk }] of this.walks)
				if (key !== asked && (behind === null || walk.linksTaken <= behind.walk.linksTaken)) behind = { key, walk };
			if (behind === null) return;
			drop(behind.key, behind.walk);
		}
	}
}
