import type { EventRef } from "obsidian";
import { KEPT_NOTE_LINK_BYTES, KEPT_NOTE_LINK_WALKS, KEPT_WALK_LEAD_ASKS, LINKS_PER_CLOCK_CHECK } from "../config/limits";
import type { Host, HostAbstractFile, HostFile } from "../host/Host";
import { backlinks, BacklinksWalk, emptyNoteLinks, NoteLinksWalk, type NoteLinks } from "./links";
import type { BacklinksPage, CountedSource } from "./backlinkOrder";
import { scopeKey, type Scope } from "./scope";
import type { CallBudget } from "./workBudget";

/** One kept walk, and the call walking it now (calls on one walk take turns: a link, or a linking file, is taken whole by one). */
interface KeptWalk<W> {
	readonly walk: W;
	turn: Promise<unknown>;
	/** When it was last asked, counted in asks of either kind: the walk asked longest ago has the least. */
	asked: number;
}

/** How far on a walk is: links taken, or linking files counted. */
function progressOf(walk: NoteLinksWalk | BacklinksWalk): number {
	return walk instanceof NoteLinksWalk ? walk.linksTaken : walk.sourcesCounted;
}

/**
 * get_note_links' walks, kept between calls so that a call stopped at its budget is gone on with by
 * the next, and a finished walk answers again for a lookup (a page of backlinks after another): the
 * walks over notes' own links (`NoteLinksWalk`) and over the vault's linking files for a note's
 * backlinks (`BacklinksWalk`). A walk over a note's links is for one version of the note (its
 * metadata object: both hosts replace it when the note is read again), at one path, for one scope;
 * it is dropped when the host resolves the note's links again, when the note moves or goes, and
 * when a file comes, goes or moves whose name one of its link paths asks for (only such a file can
 * change where a link leads). Dropped at any file's move before, a walk on a vault where another
 * client made notes between a client's calls started over at each and never ended. A backlinks walk
 * counts again the linking files resolved again, moved, made or deleted, and those counted with a
 * hidden target when a file of the note's name comes, goes or moves; it is dropped when the note
 * itself moves or goes. A folder's move or delete drops every walk. A walk of fewer than
 * LINKS_PER_CLOCK_CHECK links is done between two looks at the clock and is not kept. At most
 * KEPT_NOTE_LINK_WALKS walks of each kind and `heldBytesBound` (KEPT_NOTE_LINK_BYTES) held by the walks of both kinds
 * (`dropPastBounds`: finished walks first, then the one stopped furthest behind; past the bytes, the one asked and the
 * one furthest on of those still asked for are kept). get_note_links asks a backlinks walk for a page (`backlinksPage`),
 * made from its kept order after its last pause, in the order of the client's first page while counts change; a walk
 * dropped meanwhile is made again, and a page of its cursor says the order may have changed.
 */
export class KeptNoteLinks {
	/** By note path and scope, the one asked longest ago first. */
	private readonly walks = new Map<string, KeptWalk<NoteLinksWalk>>();
	/** By target path and scope, the one asked longest ago first. */
	private readonly backlinkWalks = new Map<string, KeptWalk<BacklinksWalk>>();
	private refs: Array<{ from: "vault" | "metadata"; ref: EventRef }> = [];
	/** Asks so far, of either kind: the next ask's stamp. */
	private asks = 0;

	constructor(
		private readonly host: Host,
		private readonly heldBytesBound = KEPT_NOTE_LINK_BYTES,
	) {}

	/** The memory the kept walks hold, about, as the bound counts it. */
	get heldBytes(): number {
		let held = 0;
		for (const { walk } of this.walks.values()) held += walk.heldBytes;
		for (const { walk } of this.backlinkWalks.values()) held += walk.heldBytes;
		return held;
	}

	start(): void {
		const { vault, metadataCache } = this.host;
		const changed = (file: HostAbstractFile, oldPath?: string) => {
			// A folder: every file under it moved or went, each maybe without its own event.
			if ("children" in file) {
				this.walks.clear();
				this.backlinkWalks.clear();
				return;
			}
			const oldName = oldPath?.slice(oldPath.lastIndexOf("/") + 1);
			const paths = oldPath === undefined ? [file.path] : [file.path, oldPath];
			for (const [key, { walk }] of this.walks)
				if (paths.includes(walk.sourcePath) || walk.mayBeChangedBy(file.name) || (oldName !== undefined && walk.mayBeChangedBy(oldName)))
					this.walks.delete(key);
			for (const [key, { walk }] of this.backlinkWalks) {
				if (paths.includes(walk.target)) {
					this.backlinkWalks.delete(key);
					continue;
				}
				for (const path of paths) walk.recount(path);
				walk.nameChanged(file.name);
				if (oldName !== undefined) walk.nameChanged(oldName);
			}
		};
		const resolvedAgain = (file: HostFile) => {
			for (const [key, { walk }] of this.walks) if (walk.sourcePath === file.path) this.walks.delete(key);
			for (const { walk } of this.backlinkWalks.values()) walk.recount(file.path);
		};
		this.refs = [
			{ from: "vault", ref: vault.on("create", (file) => changed(file)) },
			{ from: "vault", ref: vault.on("delete", (file) => changed(file)) },
			{ from: "vault", ref: vault.on("rename", changed) },
			{ from: "metadata", ref: metadataCache.on("resolve", resolvedAgain) },
		];
	}

	stop(): void {
		for (const { from, ref } of this.refs) (from === "vault" ? this.host.vault : this.host.metadataCache).offref(ref);
		this.refs = [];
		this.walks.clear();
		this.backlinkWalks.clear();
	}

	/** The visible files linking to `path`, as `backlinks` gives them, going on from the kept walk for it in this scope when there is one. */
	async backlinks(scope: Scope, path: string, budget?: CallBudget): Promise<Array<{ path: string; count: number }>> {
		if (this.refs.length === 0) return backlinks(this.host, scope, path, budget);
		const key = JSON.stringify([path, scopeKey(scope)]);
		const kept = this.backlinkWalks.get(key) ?? { walk: new BacklinksWalk(this.host, path), turn: Promise.resolve(), asked: 0 };
		return this.walkInTurn(this.backlinkWalks, key, kept, () => kept.walk.walk(this.host, scope, budget), budget);
	}

	/**
	 * A page of the visible files linking to `path` (`BacklinksWalk.page`: after `cursor`'s place, in its first page's
	 * order while counts change), going on from the kept walk for it in this scope; null when the keeper is stopped (the
	 * caller pages `backlinks`' answer).
	 */
	async backlinksPage(
		scope: Scope,
		path: string,
		limit: number,
		cursor: { after: CountedSource; order?: string } | undefined,
		budget?: CallBudget,
	): Promise<(BacklinksPage & { nextOrder?: string }) | null> {
		if (this.refs.length === 0) return null;
		const key = JSON.stringify([path, scopeKey(scope)]);
		const kept = this.backlinkWalks.get(key) ?? { walk: new BacklinksWalk(this.host, path), turn: Promise.resolve(), asked: 0 };
		return this.walkInTurn(this.backlinkWalks, key, kept, () => kept.walk.page(this.host, scope, limit, cursor, budget), budget);
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
				: { walk: new NoteLinksWalk(cache, file.path, listed), turn: Promise.resolve(), asked: 0 };
		return this.walkInTurn(
			this.walks,
			key,
			kept,
			() => kept.walk.walk(this.host, scope, budget),
			budget,
			(links) => links.outgoingTotal < LINKS_PER_CLOCK_CHECK,
		);
	}

	/**
	 * Goes on with `kept` (at `key` of `from`, now the one asked last) once the calls before on it are done, then drops
	 * walks past the bounds; `kept` too when its answer says it `takesNoPlace` (done between two looks at the clock).
	 */
	private async walkInTurn<W extends NoteLinksWalk | BacklinksWalk, T>(
		from: Map<string, KeptWalk<W>>,
		key: string,
		kept: KeptWalk<W>,
		walk: () => Promise<T>,
		budget?: CallBudget,
		takesNoPlace: (answer: T) => boolean = () => false,
	): Promise<T> {
		kept.asked = this.asks++;
		// Last asked last, as the stamps go.
		from.delete(key);
		from.set(key, kept);
		const answer = kept.turn.then(() => {
			// The wait behind another call on the walk was that call's work, not this one's.
			budget?.beginSlice();
			return walk();
		});
		// Not the answer itself: a turn kept holding a finished walk's last answer held 40 B more a linking note, uncounted.
		kept.turn = answer.then(
			() => undefined,
			() => undefined,
		);
		try {
			const found = await answer;
			if (takesNoPlace(found) && from.get(key) === kept) from.delete(key);
			return found;
		} finally {
			this.dropPastBounds(key);
		}
	}

	/**
	 * Drops walks, never those of `asked` (a note's own links and its backlinks share the key), until the kept ones are
	 * within the bounds: KEPT_NOTE_LINK_WALKS of each kind, `heldBytesBound` held by both kinds. The finished ones first,
	 * the one asked longest ago first; then the one stopped furthest behind (links taken or linking files counted), of two
	 * as far the one asked last. A walk stopped part way was promised to its caller (the same call again gets further).
	 * Dropped by age, one stopped for the finished walks of another token's calls meanwhile (eight notes of 512+ links
	 * asked between two of its calls) started over at every call, and so did each of nine stopped walks called in turn:
	 * none ended. Dropped by progress, the one furthest on is kept and ends, then the next. It is kept past the bound of
	 * bytes too, when only it and the one asked are left, if asked within the last KEPT_WALK_LEAD_ASKS asks: dropped there,
	 * two stopped walks each holding over half the bound, called alternately, dropped each other at every call and neither
	 * ended; a walk its client no longer asks for is dropped there as before, or it would hold the place forever. So at
	 * most two walks are held past the bound, and the one furthest on of the walks asked in turn ends, then the next.
	 * Backlinks walks held their memory outside the bound of bytes: eight of a hub linked from 100,000 notes, 74 MB.
	 */
	private dropPastBounds(asked: string): void {
		type Candidate = { key: string; kept: KeptWalk<NoteLinksWalk | BacklinksWalk>; from: Map<string, KeptWalk<NoteLinksWalk | BacklinksWalk>> };
		let held = this.heldBytes;
		const overIn = (from: Map<string, unknown>) => from.size > KEPT_NOTE_LINK_WALKS || held > this.heldBytesBound;
		const candidates = (): Candidate[] => {
			const all: Candidate[] = [];
			for (const from of [this.walks, this.backlinkWalks] as Array<Map<string, KeptWalk<NoteLinksWalk | BacklinksWalk>>>)
				for (const [key, kept] of from) if (key !== asked && overIn(from)) all.push({ key, kept, from });
			return all.sort((a, b) => a.kept.asked - b.kept.asked);
		};
		const drop = ({ key, kept, from }: Candidate) => {
			from.delete(key);
			held -= kept.walk.heldBytes;
		};
		for (const candidate of candidates()) if (candidate.kept.walk.finished && overIn(candidate.from)) drop(candidate);
		for (;;) {
			const left = candidates();
			let behind: Candidate | null = null;
			for (const candidate of left) if (behind === null || progressOf(candidate.kept.walk) <= progressOf(behind.kept.walk)) behind = candidate;
			if (behind === null) return;
			// The one furthest on, its client still calling, is kept beside the one asked, past the bound of bytes.
			if (left.length === 1 && this.asks - behind.kept.asked <= KEPT_WALK_LEAD_ASKS) return;
			drop(behind);
		}
	}
}
