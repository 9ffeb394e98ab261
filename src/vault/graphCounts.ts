import { comparePathsStrictly } from "./notes";
import type { CallBudget } from "./workBudget";
import { GRAPH_TOP_KEPT } from "../config/limits";
import type { GraphStats } from "./links";

/** What one note adds to the graph counts: its links to each other path (links to itself left out), and how many point nowhere. */
interface NoteLinks {
	targets: readonly string[];
	counts: readonly number[];
	unresolved: number;
}

/**
 * The counts `get_graph_stats` answers for one scope, kept note by note: setting one note's links
 * (or taking the note away) costs its links and the notes linking to it, not the vault, so after
 * an edit the next call costs about that note. Pure: the caller says which notes are in the scope
 * and where their links lead for it; the answer is what a count over all of them from nothing
 * gives (`graphStats`), byte for byte. A link counts while both its ends are notes here; a link to
 * a path that is not (yet) a note is kept, uncounted, and counts once a note comes there.
 */
export class GraphCounts {
	private readonly notes = new Map<string, NoteLinks>();
	/**
	 * Target path (a note or not) → the notes linking to it and their links, while any note links to
	 * it. One record a target, changed in place: two maps (linkers, incoming) were twice the inserts,
	 * and twice the tables V8 copies whole as they grow, in a scope's first count.
	 */
	private readonly linked = new Map<string, LinkedTarget>();
	/** Note → how many notes it links to (absent: none). */
	private readonly notesLinked = new Map<string, number>();
	private links = 0;
	private unresolved = 0;
	private orphans = 0;
	/** Notes that some note links to. */
	private linkedNotes = 0;
	/**
	 * The first of the notes linked to, most links first (then by path): exactly the first of them
	 * all, at most GRAPH_TOP_KEPT (the rest are spares, so a note leaving the first few rarely needs a
	 * look at every note to fill them again); null until looked for again (`fillTop`) after many
	 * changes at once. Sorting every note linked to was most of a count from nothing.
	 */
	private top: string[] | null = [];

	/** `topKept`: how many of the most linked-to notes are kept in order (GRAPH_TOP_KEPT; a test keeps a few); more once more are asked for. */
	constructor(private topKept: number = GRAPH_TOP_KEPT) {}

	/** The notes held. */
	paths(): IterableIterator<string> {
		return this.notes.keys();
	}

	/** The notes whose links lead to `path`, as held. */
	linkersOf(path: string): Iterable<string> {
		const linked = this.linked.get(path);
		return linked === undefined ? [] : sourcesOf(linked);
	}

	/** Whether the `topCount` most linked-to notes must be looked for again (`fillTop`) before an answer. */
	topMissing(topCount: number): boolean {
		return this.top === null || (this.top.length < topCount && this.top.length < this.linkedNotes);
	}

	/**
	 * Stops keeping the most linked-to notes until `fillTop`: many changes to come are cheaper with
	 * one look at every note after than with each kept in place as it comes.
	 */
	dropTop(): void {
		this.top = null;
	}

	/**
	 * Looks for the most linked-to notes again among every note linked to, at least `topCount` of
	 * them, pausing on `budget`: one comparison a note, mostly of two numbers.
	 */
	async fillTop(topCount: number, budget?: Pick<CallBudget, "due" | "checkpoint">): Promise<void> {
		this.topKept = Math.max(this.topKept, topCount);
		const top: string[] = [];
		for (const target of this.linked.keys()) {
			if (budget?.due()) await budget.checkpoint();
			if (this.notes.has(target)) this.keepIfAmongFirst(top, target, true);
		}
		this.top = top;
	}

	/** The counts, with the `topCount` most linked-to notes. Only when `topMissing` is false. */
	answer(topCount: number): GraphStats {
		if (this.top === null || this.topMissing(topCount)) throw new Error("GraphCounts: the most linked-to notes must be looked for again first");
		return {
			notes: this.notes.size,
			links: this.links,
			unresolved_links: this.unresolved,
			orphans: this.orphans,
			top_linked: this.top.slice(0, topCount).map((path) => ({ path, backlinks: (this.linked.get(path) as LinkedTarget).incoming })),
		};
	}

	/** Sets a note's links (target path → links to it, and how many point nowhere), or takes the path away (null: no note here now). */
	set(path: string, links: { targets: Readonly<Record<string, number>>; unresolved: number } | null): void {
		const before = this.notes.get(path);
		const after = links && noteLinksOf(path, links.targets, links.unresolved);
		if (before && after) this.replaceLinks(path, before, after);
		else if (before) this.removeNote(path, before);
		else if (after) this.addNote(path, after);
	}

	private addNote(path: string, links: NoteLinks): void {
		this.notes.set(path, links);
		this.unresolved += links.unresolved;
		const linked = this.linked.get(path);
		if (linked) {
			// The links already pointing here count now.
			this.links += linked.incoming;
			this.linkedNotes++;
			for (const source of sourcesOf(linked)) this.countNotesLinked(source, 1);
			this.putInOrder(path);
		} else this.orphans++;
		for (let at = 0; at < links.targets.length; at++) this.addLink(path, links.targets[at] as string, links.counts[at] as number);
	}

	private removeNote(path: string, links: NoteLinks): void {
		for (let at = 0; at < links.targets.length; at++) this.removeLink(path, links.targets[at] as string, links.counts[at] as number);
		this.unresolved -= links.unresolved;
		const linked = this.linked.get(path);
		if (linked) {
			this.takeFromOrder(path);
			this.linkedNotes--;
			this.links -= linked.incoming;
			this.notes.delete(path);
			for (const source of sourcesOf(linked)) this.countNotesLinked(source, -1);
		} else {
			this.orphans--;
			this.notes.delete(path);
		}
	}

	private replaceLinks(path: string, before: NoteLinks, after: NoteLinks): void {
		// Resolved again to the same places (another note of a name it asks for came or went): nothing moves.
		if (sameLinks(before, after)) return;
		for (let at = 0; at < before.targets.length; at++) this.removeLink(path, before.targets[at] as string, before.counts[at] as number);
		this.unresolved += after.unresolved - before.unresolved;
		this.notes.set(path, after);
		for (let at = 0; at < after.targets.length; at++) this.addLink(path, after.targets[at] as string, after.counts[at] as number);
	}

	/** `count` links from the note `source` to `target` (another path). */
	private addLink(source: string, target: string, count: number): void {
		const targetIsNote = this.notes.has(target);
		const wasOrphan = this.isOrphan(target);
		if (targetIsNote) this.takeFromOrder(target);
		const linked = this.linked.get(target);
		if (linked === undefined) this.linked.set(target, { linkers: source, incoming: count });
		else {
			if (typeof linked.linkers === "string") linked.linkers = new Set([linked.linkers, source]);
			else linked.linkers.add(source);
			linked.incoming += count;
		}
		if (!targetIsNote) return;
		if (!linked) this.linkedNotes++;
		this.links += count;
		this.countNotesLinked(source, 1);
		this.putInOrder(target);
		if (wasOrphan) this.orphans--;
	}

	private removeLink(source: string, target: string, count: number): void {
		const targetIsNote = this.notes.has(target);
		if (targetIsNote) this.takeFromOrder(target);
		const linked = this.linked.get(target) as LinkedTarget;
		const stillLinked = typeof linked.linkers !== "string" && linked.linkers.delete(source) && linked.linkers.size > 0;
		if (stillLinked) linked.incoming -= count;
		else this.linked.delete(target);
		if (!targetIsNote) return;
		this.links -= count;
		this.countNotesLinked(source, -1);
		if (stillLinked) this.putInOrder(target);
		else {
			this.linkedNotes--;
			if (this.isOrphan(target)) this.orphans++;
		}
	}

	/** One note more (or fewer) that `source` links to; it is an orphan while it links to none and none links to it. */
	private countNotesLinked(source: string, change: 1 | -1): void {
		const wasOrphan = this.isOrphan(source);
		const linked = (this.notesLinked.get(source) ?? 0) + change;
		if (linked === 0) this.notesLinked.delete(source);
		else this.notesLinked.set(source, linked);
		this.orphans += Number(this.isOrphan(source)) - Number(wasOrphan);
	}

	private isOrphan(path: string): boolean {
		return this.notes.has(path) && !this.linked.has(path) && !this.notesLinked.has(path);
	}

	/** Most links first, then by path (as `graphStats` orders them). */
	private readonly byBacklinks = (a: string, b: string): number =>
		(this.linked.get(b) as LinkedTarget).incoming - (this.linked.get(a) as LinkedTarget).incoming || comparePathsStrictly(a, b);

	/** Where `path` stands, or would stand, in `top` (by its links now). */
	private placeIn(top: readonly string[], path: string): number {
		let low = 0;
		let high = top.length;
		while (low < high) {
			const middle = (low + high) >>> 1;
			if (this.byBacklinks(top[middle] as string, path) < 0) low = middle + 1;
			else high = middle;
		}
		return low;
	}

	/**
	 * Puts `path` in `top` where it stands when it is among the first GRAPH_TOP_KEPT: when it comes
	 * before the last held, or when `top` holds every other note linked to (`whole`).
	 */
	private keepIfAmongFirst(top: string[], path: string, whole: boolean): void {
		const last = top[top.length - 1];
		if (!(whole && top.length < this.topKept) && (last === undefined || this.byBacklinks(path, last) > 0)) return;
		top.splice(this.placeIn(top, path), 0, path);
		if (top.length > this.topKept) top.pop();
	}

	/** Puts a linked-to note among the first by its links now, if it is one. */
	private putInOrder(path: string): void {
		if (this.top) this.keepIfAmongFirst(this.top, path, this.top.length === this.linkedNotes - 1);
	}

	/** Takes a linked-to note out of the first, before its links change. */
	private takeFromOrder(path: string): void {
		const at = this.top ? this.top.indexOf(path) : -1;
		if (at >= 0) this.top?.splice(at, 1);
	}
}

/** The notes linking to one path (one held as its path: most paths are linked to by one; more as a set), and their links to it. */
interface LinkedTarget {
	linkers: string | Set<string>;
	incoming: number;
}

function sourcesOf(linked: LinkedTarget): Iterable<string> {
	return typeof linked.linkers === "string" ? [linked.linkers] : linked.linkers;
}

const NO_LINKS: NoteLinks = { targets: [], counts: [], unresolved: 0 };

/** A note's links as kept: to every other path, in the record's order. */
function noteLinksOf(path: string, record: Readonly<Record<string, number>>, unresolved: number): NoteLinks {
	// for…in over an empty record is cheaper than two arrays a note: most of a vault's notes link nowhere, or to a few.
	let empty = true;
	for (const target in record)
		if (target !== path) {
			empty = false;
			break;
		}
	if (empty) return unresolved === 0 ? NO_LINKS : { ...NO_LINKS, unresolved };
	const targets: string[] = [];
	const counts: number[] = [];
	for (const target in record) {
		if (target === path) continue;
		targets.push(target);
		counts.push(record[target] as number);
	}
	return { targets, counts, unresolved };
}

function sameLinks(a: NoteLinks, b: NoteLinks): boolean {
	return (
		a.unresolved === b.unresolved &&
		a.targets.length === b.targets.length &&
		a.targets.every((target, at) => b.targets[at] === target && a.counts[at] === b.counts[at])
	);
}
