import {
	BACKLINK_ORDER_MOVES_PER_SORT,
	BACKLINK_RECOUNTS_PER_CALL,
	KEPT_BACKLINK_BYTES,
	KEPT_BACKLINK_CHANGE_BYTES,
	KEPT_BACKLINK_SORTING_BYTES,
	KEPT_BACKLINK_SOURCE_BYTES,
	KEPT_LINK_PATH_BYTES,
	LINKS_PER_CLOCK_CHECK,
	MAX_VAULT_PATH_CHARS,
} from "../config/limits";
import { randomBytes } from "node:crypto";
import type { CachedMetadata, FrontmatterLinkCache, ReferenceCache } from "obsidian";
import { packedReferencePlaces, type ReferencePlaces } from "../headless/compactMetadata";
import type { Host, HostFile } from "../host/Host";
import { canvasLinksSteps } from "../canvas/canvasLinks";
import { linkpathOf } from "../markdown/inline";
import type { Steps } from "../markdown/steps";
import { isNoteInScope, isPathVisible, scopeKey, type Scope } from "./scope";
import { comparePathsStrictly, visibleLinkResolver, visibleLinkResolverOnBudget, visibleNotesOnBudget, type VisibleLinkResolver } from "./notes";
import { sharedNoteMemo, type NoteMemo } from "./noteMemo";
import { OrderedSplitStringMap } from "../markdown/splitStringMap";
import { askedName, namesAnsweredBy } from "../headless/linkSourcesByName";
import { pickLinkTarget } from "../paths/linkResolution";
import { backlinksPage, byCount, changedSince, CountChanges, moveInOrder, type BacklinksPage, type CountedSource } from "./backlinkOrder";
import { mapOnBudget, MergeSortInPieces, runStepsOnBudget, sortInSlices, type CallBudget } from "./workBudget";

interface OutgoingLink {
	link: string;
	/** The resolved vault path, or null if the link points nowhere (or somewhere this token may not see). */
	target: string | null;
	/** 0-based line of the link; null for links in frontmatter properties. */
	line: number | null;
}

/** A note's links as `get_note_links` lists them: the first of each list, and how many there are in all. */
export interface NoteLinks {
	/** Frontmatter links first, then links and embeds in the order of the text; each resolved like Obsidian resolves it (among the files this token may see). */
	outgoing: OutgoingLink[];
	outgoingTotal: number;
	/**
	 * The link paths that point nowhere, once each, in the order they first appear. A link into a
	 * folder this token may not see counts exactly as if its target did not exist, in the same place
	 * in the list: otherwise guessing names and watching which links resolve (or where they land in
	 * the list) would tell what an excluded folder holds.
	 */
	unresolved: string[];
	unresolvedTotal: number;
	/** Every link path met, once, in the order first met, and the path it reached (null: nowhere): the unresolved ones counted again as the answer leaves. */
	linkpathTargets: Iterable<[string, string | null]>;
	/** Each file reached, by the path it had then: a file renamed meanwhile is answered at its new path. */
	reachedFiles: ReadonlyMap<string, HostFile>;
}

/**
 * The note's links, at most `listed` of each list, with the totals. Every link is resolved to count
 * the ones pointing nowhere (each link path once), pausing on `budget`: a planted note may hold
 * 100,000 links, and resolving them and building the whole list once held every client a second.
 */
export async function noteLinks(host: Host, scope: Scope, file: HostFile, listed: number, budget?: CallBudget): Promise<NoteLinks> {
	const cache = host.metadataCache.getFileCache(file);
	return cache ? new NoteLinksWalk(cache, file.path, listed).walk(host, scope, budget) : emptyNoteLinks();
}

/** What get_note_links answers for a note whose metadata is not read. */
export function emptyNoteLinks(): NoteLinks {
	return { outgoing: [], outgoingTotal: 0, unresolved: [], unresolvedTotal: 0, linkpathTargets: new Map(), reachedFiles: new Map() };
}

/**
 * The walk over one version of a note's links (`cache`, at `sourcePath`) that `noteLinks` makes: a
 * walk stopped at its call's budget is where it stopped, every link before it resolved and listed,
 * so the server keeps it (KeptNoteLinks) and the same call again goes on from there. A planted note
 * of 400,000 link paths was resolved from its first on every call: 0.8 s of CPU here, more than the
 * whole budget on a slower or busier machine, where it could never be answered. Valid while no file
 * comes, goes or moves, and for one scope: where a link path leads depends on both.
 */
export class NoteLinksWalk {
	// Split: a planted note's 650,000 link paths in one map grew it in pieces of 40–70 ms.
	private readonly targets = new OrderedSplitStringMap<string | null>();
	private readonly outgoing: OutgoingLink[] = [];
	private readonly unresolvedListed: string[] = [];
	private unresolvedTotal = 0;
	private readonly reachedFiles = new Map<string, HostFile>();
	private body: BodyLinks | null = null;
	/** The names the link paths resolved so far ask for (lower case): only a file answering one of them changes the walk. */
	private readonly askedNames = new Set<string>();
	/** Links taken so far: the frontmatter's first, then the body's in the text's order. */
	private taken = 0;

	constructor(
		readonly cache: CachedMetadata,
		readonly sourcePath: string,
		readonly listed: number,
	) {}

	/** Whether every link was taken: the walk answers again without resolving any. */
	get finished(): boolean {
		return this.body !== null && this.taken === (this.cache.frontmatterLinks?.length ?? 0) + this.body.order.length;
	}

	/** Links taken so far: how far on the walk is. */
	get linksTaken(): number {
		return this.taken;
	}

	/**
	 * The memory the walk holds, about: its link paths resolved (each in the map of targets and the set of asked names)
	 * and its order of every link, four bytes a link (an `Int32Array`; a sorted order, when a list was out of the
	 * text's order, is an array of more). The lists answered are a thousand entries at most.
	 */
	get heldBytes(): number {
		return this.targets.size * KEPT_LINK_PATH_BYTES + (this.body?.order.length ?? 0) * 4;
	}

	/** Whether a file called `fileName` coming, going or moving may change where a link taken so far leads (links not taken yet are resolved as the vault is then). */
	mayBeChangedBy(fileName: string): boolean {
		return namesAnsweredBy(fileName).some((name) => this.askedNames.has(name));
	}

	/**
	 * Goes on from the last link taken to the end, pausing on `budget`; the walk stays consistent at
	 * every pause (a link is counted once taken whole), so a call stopped there leaves it to the next.
	 */
	async walk(host: Host, scope: Scope, budget?: CallBudget): Promise<NoteLinks> {
		const resolve = visibleLinkResolver(host, scope);
		// A link path met for the first time is compared with every file of the name it asks for: with a
		// name 3,000 folders hold, 512 such paths between two looks at the clock held the server 230 ms.
		let resolvedSinceLook = false;
		const take = (link: string, line: number | null): void => {
			const linkpath = linkpathOf(link);
			let target = this.targets.get(linkpath);
			if (target === undefined) {
				const reached = resolve(linkpath, this.sourcePath);
				const name = askedName(linkpath, this.sourcePath);
				if (name !== null) this.askedNames.add(name);
				target = reached?.path ?? null;
				this.targets.add(linkpath, target);
				if (reached) this.reachedFiles.set(reached.path, reached);
				// Each link path is resolved once, the first time it is met: the unresolved ones listed in the order they first appear.
				else if (this.unresolvedTotal++ < this.listed) this.unresolvedListed.push(linkpath);
				resolvedSinceLook = true;
			}
			if (this.outgoing.length < this.listed) this.outgoing.push({ link, target, line });
			this.taken++;
		};
		/** Whether to look at the clock before the next link: every LINKS_PER_CLOCK_CHECK links, and after each new link path resolved. */
		const lookNow = (): boolean => {
			const look = (this.taken + 1) % LINKS_PER_CLOCK_CHECK === 0 || resolvedSinceLook;
			resolvedSinceLook = false;
			return look;
		};
		// Frontmatter links first, then the body's by their place in the text.
		const frontmatter = this.cache.frontmatterLinks ?? [];
		while (this.taken < frontmatter.length) {
			if (lookNow() && budget?.due()) await budget.checkpoint();
			const entry = frontmatter[this.taken] as FrontmatterLinkCache;
			take(entry.link, null);
		}
		this.body ??= await bodyLinksInOrder(this.cache, budget);
		const body = this.body;
		for (let index = this.taken - frontmatter.length; index < body.order.length; index = this.taken - frontmatter.length) {
			if (lookNow() && budget?.due()) await budget.checkpoint();
			const at = body.order[index] as number;
			const [list, entry] = at < body.links.count ? [body.links, at] : [body.embeds, at - body.links.count];
			take(list.text(entry), list.line(entry));
		}
		// Copies of the lists (a thousand entries at most): the walk's own stay as the next call finds them.
		return {
			outgoing: [...this.outgoing],
			outgoingTotal: this.taken,
			unresolved: [...this.unresolvedListed],
			unresolvedTotal: this.unresolvedTotal,
			linkpathTargets: this.targets,
			reachedFiles: this.reachedFiles,
		};
	}
}

/**
 * The note's links as the vault stands after the call's last pause. A target renamed meanwhile to
 * a path the token sees is answered at its new path; one moved out of sight (into an excluded
 * folder, say) or deleted points nowhere now, and its link paths count with the unresolved ones,
 * after those found first: it was answered at the path it had left, which holds nothing now. Every
 * link path counts, not only those of the listed links (past the first `listed`, the total missed
 * them), each once. Each file reached is looked up once (a map lookup); the links are gone over
 * again only when one has moved. In one piece: a pause here would reopen the window it closes.
 * `scope` shows what it showed when the links were resolved (a read call whose folders change is
 * stopped, at its pauses and as its answer leaves), so a file still at its path is still visible:
 * only a moved one's visibility is asked (for 100,000 files reached, asking each took 50–57 ms with
 * 3 excluded folders, 230 ms with 30, in this one piece).
 */
export function noteLinksAsNow(host: Host, scope: Scope, links: NoteLinks, listed: number): NoteLinks {
	// Path when resolved → path now (null: out of sight), for the files that moved.
	const movedTo = new Map<string, string | null>();
	for (const [path, file] of links.reachedFiles) {
		if (file.path === path && host.vault.getFileByPath(path) === file) continue;
		if (isVisibleFileAt(host, scope, path)) continue;
		const renamedInSight = file.path !== path && host.vault.getFileByPath(file.path) === file && isPathVisible(file.path, scope);
		movedTo.set(path, renamedInSight ? file.path : null);
	}
	if (movedTo.size === 0) return links;
	const outgoing = links.outgoing.map((link) =>
		link.target !== null && movedTo.has(link.target) ? { ...link, target: movedTo.get(link.target) ?? null } : link,
	);
	const unresolved = [...links.unresolved];
	let unresolvedTotal = links.unresolvedTotal;
	for (const [linkpath, target] of links.linkpathTargets) {
		// Out of sight now (`movedTo` holds null; a target that stayed is absent, undefined).
		if (target === null || movedTo.get(target) !== null) continue;
		unresolvedTotal++;
		if (unresolved.length < listed) unresolved.push(linkpath);
	}
	return { ...links, outgoing, unresolved, unresolvedTotal };
}

/** Whether a file is at `path` now (not moved from it, as the same file object renamed in place, nor deleted). */
export function isFileAt(host: Host, path: string): boolean {
	return host.vault.getFileByPath(path)?.path === path;
}

/** Whether a file the token may see is at `path` now. */
function isVisibleFileAt(host: Host, scope: Scope, path: string): boolean {
	return isFileAt(host, path) && isPathVisible(path, scope);
}

/** One of a note's two lists of references (links, embeds), read entry by entry. */
interface ReferenceList {
	count: number;
	text(entry: number): string;
	line(entry: number): number;
	offset(entry: number): number;
}

function plainList(entries: readonly ReferenceCache[]): ReferenceList {
	return {
		count: entries.length,
		text: (entry) => (entries[entry] as ReferenceCache).link,
		line: (entry) => (entries[entry] as ReferenceCache).position.start.line,
		offset: (entry) => (entries[entry] as ReferenceCache).position.start.offset,
	};
}

function placesList(places: ReferencePlaces): ReferenceList {
	return {
		count: places.texts.length,
		text: (entry) => places.texts[entry] as string,
		line: (entry) => places.lines[entry] as number,
		offset: (entry) => places.offsets[entry] as number,
	};
}

/** A note's body links and embeds, and their order in the text (`bodyLinksInOrder`). */
interface BodyLinks {
	links: ReferenceList;
	embeds: ReferenceList;
	order: ArrayLike<number>;
}

/**
 * The body's links and embeds by their place in the text: `order` lists links as their index and
 * embeds as the links' count plus theirs. A note kept packed (headless) is read without building
 * its entries, in steps (100,000 links built into objects were one piece of 0.1 s). Each list is
 * already in the text's order, as the parser finds them, so the two are merged, pausing on
 * `budget` (a planted note holds 700,000 links: copying them into objects and sorting them held
 * the server 0.4 s); sorted when one is not.
 */
async function bodyLinksInOrder(cache: CachedMetadata, budget?: CallBudget): Promise<BodyLinks> {
	const packed = await runStepsOnBudget(packedReferencePlaces(cache), budget);
	const links = packed ? placesList(packed.links) : plainList(cache.links ?? []);
	const embeds = packed ? placesList(packed.embeds) : plainList(cache.embeds ?? []);
	const placeOf = (at: number) => (at < links.count ? links.offset(at) : embeds.offset(at - links.count));
	const order = new Int32Array(links.count + embeds.count);
	let fromLinks = 0;
	let fromEmbeds = 0;
	let last = Number.NEGATIVE_INFINITY;
	for (let out = 0; out < order.length; out++) {
		if (out % LINKS_PER_CLOCK_CHECK === LINKS_PER_CLOCK_CHECK - 1 && budget?.due()) await budget.checkpoint();
		const takeLink = fromEmbeds >= embeds.count || (fromLinks < links.count && links.offset(fromLinks) <= embeds.offset(fromEmbeds));
		const next = takeLink ? fromLinks++ : links.count + fromEmbeds++;
		const place = placeOf(next);
		// Out of order: a list was not in the text's order, so the whole is sorted instead (stable: links before embeds at one place).
		if (place < last) {
			const all = Array.from({ length: order.length }, (_, at) => at);
			const byPlace = (a: number, b: number) => placeOf(a) - placeOf(b);
			return { links, embeds, order: budget ? await sortInSlices(all, byPlace, budget) : all.sort(byPlace) };
		}
		last = place;
		order[out] = next;
	}
	return { links, embeds, order };
}

/**
 * Where a note's links lead for this token: target path → number of links, plus how many point
 * nowhere. Obsidian's `resolvedLinks` as is when every target is visible (the usual case); null when
 * a target is hidden, and the note's links must be resolved again (`visibleTargets`). In steps of
 * LINKS_PER_CLOCK_CHECK targets: each is checked against every excluded folder (0.5 µs a target with
 * 3 folders, 2.3 µs with 30), so a note of 100,000 links held the index or a graph count 50–230 ms.
 */
function* wholeVaultTargetsSteps(host: Host, scope: Scope, source: string): Steps<{ targets: Record<string, number>; unresolved: number } | null> {
	const resolved = host.metadataCache.resolvedLinks[source] ?? {};
	let checked = 0;
	for (const target in resolved) {
		if (++checked % LINKS_PER_CLOCK_CHECK === 0) yield;
		if (!isPathVisible(target, scope)) return null;
	}
	return { targets: resolved, unresolved: yield* unresolvedCountSteps(host, source) };
}

/**
 * How many of a note's links point nowhere: the headless cache's kept total, or (Obsidian) its record
 * added up in steps like its targets'. Pausing does not split the listing of the record's keys before
 * the first step: a planted note of 700,000 such links is a piece of 0.2 s in Obsidian still.
 */
function* unresolvedCountSteps(host: Host, source: string): Steps<number> {
	const kept = host.metadataCache.unresolvedLinkTotal?.(source);
	if (kept !== undefined) return kept;
	const unresolved = host.metadataCache.unresolvedLinks[source] ?? {};
	let sum = 0;
	let counted = 0;
	for (const linkpath in unresolved) {
		if (++counted % LINKS_PER_CLOCK_CHECK === 0) yield;
		sum += unresolved[linkpath] as number;
	}
	return sum;
}

/**
 * Where a note's links lead for this token: as `wholeVaultTargetsSteps`, and when a link's target is
 * hidden, that link resolved again as if the target did not exist. Each link path is resolved once
 * and the walk pauses on `budget`: a planted note of 60,000 links, one of them to a hidden note, was
 * walked whole in one piece (its links unpacked, each resolved) on every backlinks call, for any
 * note, holding every client about a second the first time and a fifth of one after.
 */
async function visibleTargets(
	host: Host,
	scope: Scope,
	source: string,
	budget?: CallBudget,
	resolve: VisibleLinkResolver = visibleLinkResolver(host, scope),
): Promise<{ targets: Record<string, number>; unresolved: number }> {
	const whole = await runStepsOnBudget(wholeVaultTargetsSteps(host, scope, source), budget);
	if (whole) return whole;
	const resolved = host.metadataCache.resolvedLinks[source] ?? {};
	let unresolved = await runStepsOnBudget(unresolvedCountSteps(host, source), budget);
	const targets: Record<string, number> = {};
	let kept = 0;
	for (const target in resolved) {
		if (++kept % LINKS_PER_CLOCK_CHECK === 0 && budget?.due()) await budget.checkpoint();
		if (isPathVisible(target, scope)) targets[target] = resolved[target] as number;
	}
	// Link path → where it leads instead of a hidden target (null: nowhere), or undefined when Obsidian's target stands.
	const again = new Map<string, string | null | undefined>();
	let checked = 0;
	for (const links of await linkTextLists(host, source, budget))
		for (const link of links) {
			if (++checked % LINKS_PER_CLOCK_CHECK === 0 && budget?.due()) await budget.checkpoint();
			const linkpath = linkpathOf(link);
			// Longer than any path, it reaches no file, Obsidian's target or another, and is kept by no key (V8_HASHED_STRING_MAX_CHARS).
			if (linkpath.length > MAX_VAULT_PATH_CHARS) continue;
			let reached = again.get(linkpath);
			if (!again.has(linkpath)) {
				const first = host.metadataCache.getFirstLinkpathDest(linkpath, source);
				reached = !first || isPathVisible(first.path, scope) ? undefined : (resolve(linkpath, source)?.path ?? null);
				again.set(linkpath, reached);
			}
			if (reached === undefined) continue;
			if (reached === null) unresolved += 1;
			else targets[reached] = (targets[reached] ?? 0) + 1;
		}
	return { targets, unresolved };
}

/**
 * How many of `source`'s links lead to `target` for this token, in steps, and whether a target of the note is hidden
 * (`reresolved`): then only its links asking for a name `target` answers can reach it, each resolved again among the
 * visible files when Obsidian's target is hidden (`visibleNamed` gives the visible files of a name). Obsidian's count
 * stands for the links that reach `target` (visible, picked among all files, it is picked among the visible ones too).
 * A planted note of 10,000 link paths, one to a hidden note, was resolved whole on every backlinks call, for any note.
 */
function* visibleLinkCountSteps(
	host: Host,
	scope: Scope,
	source: string,
	target: string,
	visibleNamed: (name: string) => readonly HostFile[],
): Steps<{ count: number; reresolved: boolean }> {
	const resolved = host.metadataCache.resolvedLinks[source] ?? {};
	let count = resolved[target] ?? 0;
	// A hub note linking 6,000 notes, each target's path checked against 300 excluded folders, was one piece of 135 ms.
	let checked = 0;
	let hidden = false;
	for (const other in resolved) {
		if (++checked % LINKS_PER_CLOCK_CHECK === 0) yield;
		if (!isPathVisible(other, scope)) {
			hidden = true;
			break;
		}
	}
	if (!hidden) return { count, reresolved: false };
	const targetNames = new Set(namesAnsweredBy(target.slice(target.lastIndexOf("/") + 1)));
	for (const links of yield* linkTextListsSteps(host, source))
		for (const link of links) {
			if (++checked % LINKS_PER_CLOCK_CHECK === 0) yield;
			const linkpath = linkpathOf(link);
			const name = askedName(linkpath, source);
			if (name === null || !targetNames.has(name)) continue;
			const first = host.metadataCache.getFirstLinkpathDest(linkpath, source);
			if (!first || isPathVisible(first.path, scope)) continue;
			const candidates = [...visibleNamed(name), ...visibleNamed(`${name}.md`)];
			if (pickLinkTarget(linkpath, source, candidates)?.path === target) count++;
		}
	return { count, reresolved: true };
}

/**
 * A canvas's links as the metadata cache reads them, each distinct one once with how often it
 * stands there: its text cards' link paths, and the files its file cards show. A backlinks call
 * resolves each once: a card of 540,000 links to one note was resolved 540,000 times a call.
 */
interface CanvasLinkTexts {
	cardLinks: Map<string, number>;
	shownFiles: Map<string, number>;
}

/**
 * Each canvas's links, read again when the canvas changes: when the metadata cache resolved it
 * again (a new `resolvedLinks` record) or its size or time differ. The record alone catches a
 * second save within the same millisecond that kept the size.
 */
const canvasLinksRead = new WeakMap<HostFile, { record: unknown; mtime: number; size: number; links: CanvasLinkTexts }>();

/** A canvas's links from its text, read as the metadata cache reads them, one card between two looks at `budget`; null when it cannot be read. */
async function canvasLinkTexts(host: Host, path: string, budget?: CallBudget): Promise<CanvasLinkTexts | null> {
	const file = host.vault.getFileByPath(path);
	if (!file) return null;
	const record = host.metadataCache.resolvedLinks[path];
	const known = canvasLinksRead.get(file);
	if (known && known.record === record && known.mtime === file.stat.mtime && known.size === file.stat.size) return known.links;
	const { mtime, size } = file.stat;
	let text: string;
	try {
		text = await host.vault.cachedRead(file);
	} catch {
		return null;
	}
	// Not parseCanvas: it refuses a whole canvas for one card of a plugin's own type or an edge to a
	// deleted card, whose links the metadata cache still counts, so a hidden note took them all away.
	const links: CanvasLinkTexts = { cardLinks: new Map(), shownFiles: new Map() };
	// A path or link path longer than any file's reaches none, and is kept by no key (V8_HASHED_STRING_MAX_CHARS).
	const count = (counts: Map<string, number>, key: string) => key.length > MAX_VAULT_PATH_CHARS || counts.set(key, (counts.get(key) ?? 0) + 1);
	await runStepsOnBudget(
		canvasLinksSteps(text, (link, shown) => (shown ? count(links.shownFiles, link) : count(links.cardLinks, linkpathOf(link)))),
		budget,
	);
	canvasLinksRead.set(file, { record, mtime, size, links });
	return links;
}

/**
 * How many of a canvas's links lead to `target` for this token. When one of them leads where the
 * token may not see, its links are read from the canvas: a text card's link is resolved again among
 * the visible files, as a note's is, and a card showing a hidden file is dropped, as `read_canvas`
 * drops it. Counting only the visible targets instead let a hidden note of the same name take a
 * text card's link away from the visible one: a count that told of the hidden note.
 */
async function visibleCanvasLinkCount(
	host: Host,
	scope: Scope,
	source: string,
	target: string,
	resolver: () => Promise<VisibleLinkResolver>,
	budget?: CallBudget,
): Promise<number> {
	const resolved = host.metadataCache.resolvedLinks[source] ?? {};
	if (Object.keys(resolved).every((other) => isPathVisible(other, scope))) return resolved[target] ?? 0;
	const links = await canvasLinkTexts(host, source, budget);
	if (!links) return 0;
	// Where a link leads among the visible files, as over a vault without the hidden ones.
	const resolve = await resolver();
	const reached = (linkpath: string) => resolve(linkpath, source);
	let count = 0;
	let checked = 0;
	// A file card's file is a link too (`Plan.md` reaches `Projects/Plan.md`); one naming a hidden path is dropped, as read_canvas drops it.
	for (const [file, times] of links.shownFiles) {
		if (++checked % LINKS_PER_CLOCK_CHECK === 0 && budget?.due()) await budget.checkpoint();
		if (isPathVisible(file, scope) && reached(file)?.path === target) count += times;
	}
	// A planted canvas may hold 150,000 different link paths: resolved again on every backlinks call, they pause like a note's.
	for (const [linkpath, times] of links.cardLinks) {
		if (++checked % LINKS_PER_CLOCK_CHECK === 0 && budget?.due()) await budget.checkpoint();
		if (reached(linkpath)?.path === target) count += times;
	}
	return count;
}

/**
 * Visible notes and canvases that link to `path`, with how many links each has to it: a canvas
 * showing the note as a card, or linking to it from a text card, is listed as Obsidian's backlinks
 * pane lists it. Excluded notes and canvases never appear. The walk over every linking file pauses on `budget`.
 */
export async function backlinks(host: Host, scope: Scope, path: string, budget?: CallBudget): Promise<Array<{ path: string; count: number }>> {
	const found = await new BacklinksWalk(host, path).walk(host, scope, budget);
	// A walk no keeper tells of changes: a linking file moved or deleted at one of its pauses is left out here, after the last.
	return budget ? found.filter(({ path: source }) => isFileAt(host, source)) : found;
}

/** The source being counted when a call stopped, and its count's steps (null: a canvas, counted in one go). */
interface SourceCounting {
	readonly source: string;
	readonly steps: Steps<{ count: number; reresolved: boolean }> | null;
}

/**
 * The walk over the vault's linking files that `backlinks` makes for one target path, in one scope: stopped at its
 * call's budget, it is where it stopped (each source counted whole, or the one under way part way), so the server
 * keeps it (KeptNoteLinks) and the same call again goes on from there; finished, it answers again after counting only
 * the sources changed since. Redone every call, the backlinks of a vault too large for one call's budget were never
 * answered. The keeper tells it what changed: `recount` a source resolved again, moved or deleted; `nameChanged` a file
 * that may answer a link asking for the target's name came, went or moved.
 */
export class BacklinksWalk {
	/** The linking files when the walk began, taken in this order (let go once taken: 8 B a vault file); then those to count again. */
	private sources: string[];
	private next = 0;
	private readonly again = new Set<string>();
	private readonly counts = new Map<string, number>();
	/** Sources counted with a hidden target: their count changes when a file of the target's name comes, goes or moves. */
	private readonly reresolved = new Set<string>();
	private counting: SourceCounting | null = null;
	/** Visible files by lower-case name, of the names links to the target ask for, gathered when first needed. */
	private readonly visibleByName = new Map<string, HostFile[]>();
	/**
	 * The linking files in the answer's order, kept until a count changes: a finished walk answering a page of backlinks
	 * after another sorted every linking file again, in one piece (100,000 linking notes: 1.9 s at load 12, comparing
	 * paths by collator). Paths alone: 8 B a linking file, where the answer's entries took 48.
	 */
	private order: string[] | null = null;
	/**
	 * The sort making `order`, in pieces, kept where a call stopped: at 100,000 linking notes it was one piece of 200–320 ms
	 * (main thread's CPU, load 12), redone whole by a call stopped in it. It sorts entries, not paths looking up their
	 * counts: that doubled its work.
	 */
	private sorting: MergeSortInPieces<{ path: string; count: number }> | null = null;
	/**
	 * Sources counted that may not be at their path any more: counted again since (moved or deleted: the cache may still
	 * hold their old record), or not there when counted. Only these are looked up as the walk answers: looking up every
	 * linking file after each call (`backlinksAsNow`) was one piece of 74–160 ms at 100,000 linking notes (load 12).
	 */
	private readonly mayBeGone = new Set<string>();
	/** Counts changed since the walk was made: an answer's entries are for one. */
	private countsChanged = 0;
	/** Counts moved in the order since it was last sorted. */
	private movesSinceSort = 0;
	/** Whether the walk has answered: from then on the counts it changes are kept (`changes`) for the pages after. */
	private answered = false;
	private readonly changes = new CountChanges();
	/**
	 * This walk's name in its pages' cursors: a cursor of another walk (this one dropped and made again, or of a server run
	 * before) does not page this one's changes. Random: named by a count of walks made (and the server's start time), two
	 * of a token's cursors told it how many notes' backlinks other tokens had asked for between them.
	 */
	readonly id = randomBytes(9).toString("base64url");

	constructor(
		host: Host,
		readonly target: string,
	) {
		this.sources = Object.keys(host.metadataCache.resolvedLinks);
	}

	/** Whether every source is counted: the walk answers again without counting any. */
	get finished(): boolean {
		return this.next >= this.sources.length && this.again.size === 0 && this.counting === null && this.order !== null;
	}

	/**
	 * The memory the walk holds, about: KEPT_BACKLINK_SOURCE_BYTES a vault file not taken yet (its list of them),
	 * KEPT_BACKLINK_BYTES a linking file counted (its count, its place in the order), and KEPT_BACKLINK_SORTING_BYTES more
	 * while the sort is under way.
	 */
	get heldBytes(): number {
		const notTaken = this.sources.length - Math.min(this.next, this.sources.length);
		const counted = this.counts.size * (KEPT_BACKLINK_BYTES + (this.sorting ? KEPT_BACKLINK_SORTING_BYTES : 0));
		return notTaken * KEPT_BACKLINK_SOURCE_BYTES + counted + this.changes.size * KEPT_BACKLINK_CHANGE_BYTES;
	}

	/** Sources counted so far: how far on the walk is. */
	get sourcesCounted(): number {
		return this.next;
	}

	/** `source`'s links were resolved again, or it moved, came or went: counted again before the walk answers. */
	recount(source: string): void {
		if (this.counting?.source === source) this.counting = null;
		this.again.add(source);
		this.mayBeGone.add(source);
	}

	/** A file called `fileName` came, went or moved: the sources counted with a hidden target are counted again if it may answer their links to the target. */
	nameChanged(fileName: string): void {
		const targetNames = namesAnsweredBy(this.target.slice(this.target.lastIndexOf("/") + 1));
		if (!namesAnsweredBy(fileName).some((name) => targetNames.includes(name))) return;
		this.visibleByName.clear();
		for (const source of this.reresolved) this.recount(source);
		if (this.counting) this.recount(this.counting.source);
	}

	/** Goes on from the last source counted to the end, pausing on `budget`; the walk stays consistent at every pause. */
	async walk(host: Host, scope: Scope, budget?: CallBudget): Promise<Array<{ path: string; count: number }>> {
		// The answer's entries, made for one version of the counts: while no count changes, every count in them is still the count now.
		let answered = null as { counted: number; entries: Array<{ path: string; count: number }> } | null;
		await this.settle(host, scope, budget, async (order) => {
			// Building the answer's entries of a finished walk was one piece of 33-43 ms at 100,000 linking notes (load 12).
			const { counts, countsChanged } = this;
			if (answered === null || answered.counted !== countsChanged)
				answered = { counted: countsChanged, entries: await mapOnBudget(order, (path) => ({ path, count: counts.get(path) as number }), budget) };
		});
		const { mayBeGone } = this;
		this.dropGone(host);
		const { entries } = answered as unknown as { entries: Array<{ path: string; count: number }> };
		return mayBeGone.size === 0 ? entries : entries.filter(({ path }) => !mayBeGone.has(path));
	}

	/**
	 * A page of the linking files, after `cursor`'s place (none: the first page), pausing on `budget` as `walk` does. The
	 * page is made after the last pause from the kept order (a binary search and the page: no entry made for every linking
	 * file, as `walk`'s answer makes). A cursor of this walk pages the order of its first page (`backlinksPage`), counts
	 * changed since placed as they were then; one of another walk (dropped meanwhile, or another scope's) pages the order now.
	 */
	async page(
		host: Host,
		scope: Scope,
		limit: number,
		cursor: { after: CountedSource; order?: string } | undefined,
		budget?: CallBudget,
	): Promise<BacklinksPage & { nextOrder?: string }> {
		await this.settle(host, scope, budget);
		const [walk, version] = (cursor?.order ?? "").split("/");
		const asOf = cursor && { after: cursor.after, version: walk === this.id && version !== undefined && /^\d+$/u.test(version) ? Number(version) : null };
		// The changes since the cursor's version sorted in pieces: at its pauses only events come (`recount`, `nameChanged`:
		// no count is set but by a call, and calls on a walk take turns), and those are looked at after (`dropGone`).
		const since = asOf?.version == null ? null : await changedSince(this.changes, asOf.version, budget);
		this.dropGone(host);
		const page = backlinksPage({ order: this.order ?? [], counts: this.counts, changes: this.changes, gone: this.mayBeGone }, limit, asOf, since);
		return page.next ? { ...page, nextOrder: `${this.id}/${page.next.version}` } : page;
	}

	/**
	 * Counts what changed and sorts, then `answer` (pausing too), until nothing was heard at the pauses since the last count
	 * (at most BACKLINK_RECOUNTS_PER_CALL passes more); ends with the order made. What the keeper heard at the pauses
	 * (`recount`: a linking note edited, moved or deleted) is counted before the walk answers, so the answer is the
	 * vault's as it is now: answered as counted before, a note edited to link once more kept its old count and place for
	 * that call (review183). Notes edited at every pause would otherwise keep the call sorting until its budget ran out.
	 */
	private async settle(host: Host, scope: Scope, budget?: CallBudget, answer?: (order: string[]) => Promise<void>): Promise<void> {
		// One for the call, made at the first canvas that needs it (a walk over the vault).
		let shared: VisibleLinkResolver | undefined;
		const resolver = async () => (shared ??= await visibleLinkResolverOnBudget(host, scope, budget));
		const visibleNamed = (name: string): HostFile[] => {
			let files = this.visibleByName.get(name);
			if (files === undefined) {
				files = host.vault.getFiles().filter((file) => file.name.toLowerCase() === name && isPathVisible(file.path, scope));
				this.visibleByName.set(name, files);
			}
			return files;
		};
		for (let recounts = 0; ; recounts++) {
			await this.countChanged(host, scope, visibleNamed, resolver, budget);
			// Strictly: the sources come in the order they were last read, so two paths the collator calls equal were listed in that order.
			// The lists below are made in pieces too: each was a piece of tens of ms at 100,000 linking notes. Only a count set
			// (`setCount`, in `countChanged`) changes the counts or the order, and the keeper's calls on a walk take turns.
			if (this.order === null) {
				this.sorting ??= new MergeSortInPieces(await mapOnBudget(this.counts, ([path, count]) => ({ path, count }), budget), byCount);
				const sorted = await this.sorting.run(budget);
				this.order = await mapOnBudget(sorted, ({ path }) => path, budget);
				this.sorting = null;
				this.movesSinceSort = 0;
			}
			await answer?.(this.order);
			if (this.again.size === 0 || recounts === BACKLINK_RECOUNTS_PER_CALL) break;
		}
		// From here the walk answers: the counts changed after this are kept for the pages of its answers (`changes`).
		this.answered = true;
	}

	/** After the walk's last pause, in the answer's piece: a linking file moved or deleted meanwhile is not named at the path it left. */
	private dropGone(host: Host): void {
		const { counts, mayBeGone } = this;
		for (const path of mayBeGone) if (!counts.has(path) || isFileAt(host, path)) mayBeGone.delete(path);
	}

	/** Counts the sources not counted yet (first those never counted, then those to count again), pausing on `budget`. */
	private async countChanged(
		host: Host,
		scope: Scope,
		visibleNamed: (name: string) => HostFile[],
		resolver: () => Promise<VisibleLinkResolver>,
		budget?: CallBudget,
	): Promise<void> {
		// Sources to count again are taken as many as were waiting once the new ones are counted: one edited at every pause
		// (a note another program appends to every 2 ms) was counted again for ever. Those heard since wait for the walk's
		// next pass (`walk`, at most BACKLINK_RECOUNTS_PER_CALL a call) or its next call.
		let recountsLeft: number | null = null;
		for (;;) {
			if (budget?.due()) await budget.checkpoint();
			if (this.counting === null) {
				if (this.next >= this.sources.length) {
					recountsLeft ??= this.again.size;
					if (recountsLeft === 0) return;
					recountsLeft--;
				}
				const source = this.nextSource();
				if (source === undefined) return;
				const isCanvas = source.endsWith(".canvas");
				if (!isNoteInScope(source, scope) && !(isCanvas && isPathVisible(source, scope))) {
					this.setCount(source, 0);
					continue;
				}
				this.counting = { source, steps: isCanvas ? null : visibleLinkCountSteps(host, scope, source, this.target, visibleNamed) };
			}
			const counting = this.counting;
			const { count, reresolved } = counting.steps
				? await runStepsOnBudget(counting.steps, budget)
				: { count: await visibleCanvasLinkCount(host, scope, counting.source, this.target, resolver, budget), reresolved: true };
			// Counted again meanwhile (`recount`): the count is of what changed, and the source waits its turn again.
			if (this.counting !== counting) continue;
			this.counting = null;
			this.setCount(counting.source, count);
			if (count > 0 && !isFileAt(host, counting.source)) this.mayBeGone.add(counting.source);
			if (reresolved) this.reresolved.add(counting.source);
			else this.reresolved.delete(counting.source);
		}
	}

	/**
	 * Sets `source`'s count (0: none); if it changed, moves it in the order (or drops the order past
	 * BACKLINK_ORDER_MOVES_PER_SORT moves since it was sorted: sorted again, it costs less), drops a sort under way, and,
	 * once the walk has answered, keeps the change for later pages. Each count changed sorted every linking file again
	 * (200–320 ms at 100,000).
	 */
	private setCount(source: string, count: number): void {
		const was = this.counts.get(source) ?? 0;
		if (was === count) return;
		if (this.order !== null && !(this.movesSinceSort++ < BACKLINK_ORDER_MOVES_PER_SORT && moveInOrder(this.order, this.counts, source, was, count)))
			this.order = null;
		if (count > 0) this.counts.set(source, count);
		else this.counts.delete(source);
		this.sorting = null;
		this.countsChanged++;
		if (this.answered) this.changes.add(source, was);
	}

	private nextSource(): string | undefined {
		if (this.next < this.sources.length) {
			const source = this.sources[this.next++];
			if (this.next === this.sources.length) this.sources = [];
			return source;
		}
		for (const source of this.again) {
			this.again.delete(source);
			return source;
		}
		return undefined;
	}
}

/**
 * Every link text in a note, body links, embeds and frontmatter links, as lists not joined: a note
 * kept packed (headless) is read from its packed form in steps, no entries built (60,000 link texts
 * read in one piece were most of a backlinks call's work).
 */
function* linkTextListsSteps(host: Host, path: string): Steps<ReadonlyArray<readonly string[]>> {
	const cache = host.metadataCache.getCache(path);
	if (!cache) return [];
	const frontmatter = (cache.frontmatterLinks ?? []).map((entry) => entry.link);
	const packed = yield* packedReferencePlaces(cache);
	if (packed) return [packed.links.texts, packed.embeds.texts, frontmatter];
	return [(cache.links ?? []).map((entry) => entry.link), (cache.embeds ?? []).map((entry) => entry.link), frontmatter];
}

/** `linkTextListsSteps`, pausing on `budget`. */
function linkTextLists(host: Host, path: string, budget?: CallBudget): Promise<ReadonlyArray<readonly string[]>> {
	return runStepsOnBudget(linkTextListsSteps(host, path), budget);
}

export interface GraphStats {
	notes: number;
	links: number;
	unresolved_links: number;
	orphans: number;
	top_linked: Array<{ path: string; backlinks: number }>;
}

/** Each scope object's key, made once: the graph counts ask it for every note. */
const scopeKeys = new WeakMap<Scope, string>();

function scopeKeyOf(scope: Scope): string {
	let key = scopeKeys.get(scope);
	if (key === undefined) {
		key = scopeKey(scope);
		scopeKeys.set(scope, key);
	}
	return key;
}

/**
 * What a note's links add to the graph counts for this scope, kept per version of its
 * `resolvedLinks` record, or null when one of its targets is hidden: then it is worked out again on
 * every call (`visibleTargets`), since where that link lands instead depends on every other file.
 */
function* keptLinkContributionSteps(
	host: Host,
	scope: Scope,
	scopeKey: string,
	source: string,
	memo: NoteMemo,
): Steps<{ targets: Readonly<Record<string, number>>; unresolved: number } | null> {
	const record = host.metadataCache.resolvedLinks[source];
	const unresolvedRecord = host.metadataCache.unresolvedLinks[source];
	const known = record ? memo.links.get(record) : undefined;
	if (known && known.unresolvedRecord === unresolvedRecord && known.scopeKey === scopeKey) return known;
	const whole = yield* wholeVaultTargetsSteps(host, scope, source);
	if (!whole) return null;
	// The usual targets are the `resolvedLinks` record itself (every target visible): kept as is, not copied. Kept under
	// the records it was worked out from, which are never changed in place: resolved again over a pause, it is for them still.
	const contribution = { unresolvedRecord, scopeKey, ...whole };
	if (record) memo.links.set(record, contribution);
	return contribution;
}

/**
 * Works out and keeps what a note's links add to the graph counts for this scope (the search index
 * does, as it reads each note), in steps: the index runs them in its slices.
 */
export function* rememberLinksSteps(host: Host, scope: Scope, source: string, memo: NoteMemo = sharedNoteMemo): Steps<void> {
	yield* keptLinkContributionSteps(host, scope, scopeKeyOf(scope), source, memo);
}

/**
 * Where a visible note's links lead for this scope (target path → links) and how many point
 * nowhere: what it adds to the graph counts. `reresolved` when one of its targets is hidden and its
 * links were resolved again among the visible files: then the answer changes whenever a file comes,
 * goes or moves, whatever its name.
 */
export async function noteGraphLinks(
	host: Host,
	scope: Scope,
	source: string,
	budget?: CallBudget,
	memo: NoteMemo = sharedNoteMemo,
	resolver: () => Promise<VisibleLinkResolver> = () => visibleLinkResolverOnBudget(host, scope, budget),
): Promise<{ targets: Readonly<Record<string, number>>; unresolved: number; reresolved: boolean }> {
	const kept = await runStepsOnBudget(keptLinkContributionSteps(host, scope, scopeKeyOf(scope), source, memo), budget);
	if (kept) return { targets: kept.targets, unresolved: kept.unresolved, reresolved: false };
	// A link to a note this token may not see counts as if that note did not exist.
	return { ...(await visibleTargets(host, scope, source, budget, await resolver())), reresolved: true };
}

/**
 * Counts over the visible part of the link graph; excluded notes count nowhere. Each note's part
 * is kept until its links change; the walk over the vault pauses on `budget`. The server keeps
 * these counts note by note instead (`KeptGraphStats`); this is the count from nothing.
 */
export async function graphStats(host: Host, scope: Scope, topCount: number, budget?: CallBudget, memo: NoteMemo = sharedNoteMemo): Promise<GraphStats> {
	// A note whose metadata is not read yet (named in `still_being_read`) counts nowhere: its links are not known, which is not "none".
	const notes: HostFile[] = [];
	const visible = new Set<string>();
	for (const file of await visibleNotesOnBudget(host, scope, budget)) {
		if (budget?.due()) await budget.checkpoint();
		if (host.metadataCache.getFileCache(file) === null) continue;
		notes.push(file);
		visible.add(file.path);
	}
	// One for the whole count, made at the first note that needs it: each gathers the visible files by name, a walk over
	// the vault (one a note linking into a hidden folder cost 1.8 s at 10,000 notes with a folder hidden).
	let shared: VisibleLinkResolver | undefined;
	const resolver = async () => (shared ??= await visibleLinkResolverOnBudget(host, scope, budget));
	const incoming = new Map<string, number>();
	const hasOutgoing = new Set<string>();
	let links = 0;
	let unresolved = 0;
	for (const source of visible) {
		if (budget?.due()) await budget.checkpoint();
		const { targets, unresolved: nowhere } = await noteGraphLinks(host, scope, source, budget, memo, resolver);
		unresolved += nowhere;
		for (const target in targets) {
			const count = targets[target] as number;
			if (!visible.has(target) || target === source) continue;
			links += count;
			hasOutgoing.add(source);
			incoming.set(target, (incoming.get(target) ?? 0) + count);
		}
	}
	let orphans = 0;
	for (const file of notes) {
		if (budget?.due()) await budget.checkpoint();
		if (!incoming.has(file.path) && !hasOutgoing.has(file.path)) orphans++;
	}
	// Sorted in slices: at 50,000 linked notes one sort was a piece of about 50 ms.
	const byBacklinks = (a: [string, number], b: [string, number]) => b[1] - a[1] || comparePathsStrictly(a[0], b[0]);
	const linked = [...incoming.entries()];
	const topLinked = (budget ? await sortInSlices(linked, byBacklinks, budget) : linked.sort(byBacklinks))
		.slice(0, topCount)
		.map(([path, count]) => ({ path, backlinks: count }));
	return { notes: notes.length, links, unresolved_links: unresolved, orphans, top_linked: topLinked };
}
