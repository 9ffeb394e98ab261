import { comparePathsStrictly } from "./notes";
import { sortInSlices, type CallBudget } from "./workBudget";
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
	/** Target path (a note or not) → the notes linking to it. */
	private readonly linkers = new Map<string, Set<string>>();
	/** Target path → its links from the notes, while any note links to it. */
	private readonly incoming = new Map<string, number>();
	/** Note → how many notes it links to (absent: none). */
	private readonly notesLinked = new Map<string, number>();
	private links = 0;
	private unresolved = 0;
	private orphans = 0;
	/** The notes linked to, most links first (then by path); null until sorted again (`sortOrder`), after many changes at once. */
	private order: string[] | null = null;

	/** The notes held. */
	paths(): IterableIterator<string> {
		return this.notes.keys();
	}

	/** Whether the order of the most linked-to notes must be sorted again before an answer. */
	get orderDropped(): boolean {
		return this.order === null;
	}

	/**
	 * Drops the order of the most linked-to notes: many changes to come are cheaper sorted once after
	 * (each kept in order moves part of the list) than kept in order one by one.
	 */
	dropOrder(): void {
		this.order = null;
	}

	/** Sorts the order of the most linked-to notes again, pausing on `budget`. */
	async sortOrder(budget?: Pick<CallBudget, "due" | "checkpoint">): Promise<void> {
		if (this.order !== null) return;
		const linked: string[] = [];
		for (const target of this.incoming.keys()) {
			if (budget?.due()) await budget.checkpoint();
			if (this.notes.has(target)) linked.push(target);
		}
		this.order = budget ? await sortInSlices(linked, this.byBacklinks, budget) : linked.sort(this.byBacklinks);
	}

	/** The counts, with the `topCount` most linked-to notes. Only after `sortOrder` when the order was dropped. */
	answer(topCount: number): GraphStats {
		if (this.order === null) throw new Error("GraphCounts: the order of the most linked-to notes was not sorted again");
		return {
			notes: this.notes.size,
			links: this.links,
			unresolved_links: this.unresolved,
			orphans: this.orphans,
			top_linked: this.order.slice(0, topCount).map((path) => ({ path, backlinks: this.incoming.get(path) as number })),
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
		const linkers = this.linkers.get(path);
		if (linkers) {
			// The links already pointing here count now.
			this.links += this.incoming.get(path) as number;
			for (const source of linkers) this.countNotesLinked(source, 1);
			this.putInOrder(path);
		} else this.orphans++;
		for (let at = 0; at < links.targets.length; at++) this.addLink(path, links.targets[at] as string, links.counts[at] as number);
	}

	private removeNote(path: string, links: NoteLinks): void {
		for (let at = 0; at < links.targets.length; at++) this.removeLink(path, links.targets[at] as string, links.counts[at] as number);
		this.unresolved -= links.unresolved;
		const linkers = this.linkers.get(path);
		if (linkers) {
			this.takeFromOrder(path);
			this.links -= this.incoming.get(path) as number;
			this.notes.delete(path);
			for (const source of linkers) this.countNotesLinked(source, -1);
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
		const linkers = this.linkers.get(target);
		if (linkers) linkers.add(source);
		else this.linkers.set(target, new Set([source]));
		this.incoming.set(target, (this.incoming.get(target) ?? 0) + count);
		if (!targetIsNote) return;
		this.links += count;
		this.countNotesLinked(source, 1);
		this.putInOrder(target);
		if (wasOrphan) this.orphans--;
	}

	private removeLink(source: string, target: string, count: number): void {
		const targetIsNote = this.notes.has(target);
		if (targetIsNote) this.takeFromOrder(target);
		const linkers = this.linkers.get(target) as Set<string>;
		linkers.delete(source);
		if (linkers.size === 0) {
			this.linkers.delete(target);
			this.incoming.delete(target);
		} else this.incoming.set(target, (this.incoming.get(target) as number) - count);
		if (!targetIsNote) return;
		this.links -= count;
		this.countNotesLinked(source, -1);
		if (linkers.size > 0) this.putInOrder(target);
		else if (this.isOrphan(target)) this.orphans++;
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
		return this.notes.has(path) && !this.linkers.has(path) && !this.notesLinked.has(path);
	}

	/** Most links first, then by path (as `graphStats` orders them). */
	private readonly byBacklinks = (a: string, b: string): number =>
		(this.incoming.get(b) as number) - (this.incoming.get(a) as number) || comparePathsStrictly(a, b);

	/** Where `path` stands, or would stand, in the order (by its links now). */
	private placeInOrder(order: readonly string[], path: string): number {
		let low = 0;
		let high = order.length;
		while (low < high) {
			const middle = (low + high) >>> 1;
			if (this.byBacklinks(order[middle] as string, path) < 0) low = middle + 1;
			else high = middle;
		}
		return low;
	}

	/** Puts a linked-to note in the order by its links now. */
	private putInOrder(path: string): void {
		if (this.order) this.order.splice(this.placeInOrder(this.order, path), 0, path);
	}

	/** Takes a linked-to note out of the order, before its links change. */
	private takeFromOrder(path: string): void {
		if (!this.order || !this.linkers.has(path)) return;
		const at = this.placeInOrder(this.order, path);
		if (this.order[at] === path) this.order.splice(at, 1);
	}
}

/** A note's links as kept: to every other path, in the record's order. */
function noteLinksOf(path: string, record: Readonly<Record<string, number>>, unresolved: number): NoteLinks {
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
