import type { BlockCache, CachedMetadata, HeadingCache, ListItemCache, Loc, Pos, ReferenceCache, SectionCache, TagCache } from "obsidian";
import { lineStartsOf } from "../markdown/lines";

/**
 * A note's `CachedMetadata` kept small. Obsidian's shape gives every link, tag, heading, section
 * and list item a `position` of three objects (a `Pos` and two `Loc`s): on a typical vault that
 * is most of the cache's heap, several times the notes' own size. Here each entry keeps only the
 * two offsets of its position, as plain fields, and the note keeps its line starts once, in a
 * typed array; `position` is a getter on the entry's class that builds Obsidian's `{start, end}`
 * from them when read. Callers read the same fields with the same values (the getters are on the
 * prototype, so no entry pays for a closure); `JSON.stringify` gives what it gives for the plain
 * metadata, key order included. The metadata object and its entries are built once per parse,
 * so `getFileCache` still returns the same object until the note changes.
 */

/** Most strings a pool keeps: strings of notes since deleted stay in it, so it is bounded. */
const MAX_POOLED_STRINGS = 50_000;

/**
 * One copy of each tag and link text, shared by every note that holds it: a vault's tags repeat
 * across thousands of notes, and a popular note is linked from many. Once full, strings are kept
 * as they come.
 */
export class StringPool {
	private readonly strings = new Map<string, string>();

	intern(value: string): string {
		const known = this.strings.get(value);
		if (known !== undefined) return known;
		if (this.strings.size < MAX_POOLED_STRINGS) this.strings.set(value, value);
		return value;
	}
}

/** A note's line starts: turns an offset into Obsidian's `{line, col, offset}` as `LineIndex` does. */
export class NoteLines {
	constructor(private readonly starts: Uint16Array | Int32Array) {}

	/** The line starts of `text`, each in 16 bits when the text is short enough. */
	static of(text: string): NoteLines {
		return new NoteLines(lineStartsOf(text));
	}

	/** The Loc of `offset`, which falls on line `fromLine` or a later one. */
	loc(offset: number, fromLine = 0): Loc {
		const starts = this.starts;
		let low = fromLine;
		let high = starts.length - 1;
		// Most entries (links, tags, headings, list items) end on the line they start on.
		if (low === high || (starts[low + 1] as number) > offset) high = low;
		while (low < high) {
			const middle = (low + high + 1) >> 1;
			if ((starts[middle] as number) <= offset) low = middle;
			else high = middle - 1;
		}
		return { line: low, col: offset - (starts[low] as number), offset };
	}

	pos(start: number, end: number): Pos {
		const startLoc = this.loc(start);
		return { start: startLoc, end: this.loc(end, startLoc.line) };
	}
}

/** An entry of the cache whose position is kept as two offsets into its note's lines. */
abstract class Positioned {
	readonly #lines: NoteLines;
	readonly #start: number;
	readonly #end: number;

	constructor(lines: NoteLines, position: Pos) {
		this.#lines = lines;
		this.#start = position.start.offset;
		this.#end = position.end.offset;
	}

	get position(): Pos {
		return this.#lines.pos(this.#start, this.#end);
	}
}

class CompactReference extends Positioned implements ReferenceCache {
	readonly link: string;
	readonly original: string;
	readonly displayText: string | undefined;

	constructor(lines: NoteLines, entry: ReferenceCache, pool: StringPool) {
		super(lines, entry.position);
		this.link = pool.intern(entry.link);
		this.original = pool.intern(entry.original);
		// Most links show their own target: one string serves both.
		this.displayText = entry.displayText === entry.link ? this.link : entry.displayText;
	}

	toJSON(): ReferenceCache {
		return { link: this.link, original: this.original, displayText: this.displayText, position: this.position };
	}
}

class CompactTag extends Positioned implements TagCache {
	readonly tag: string;

	constructor(lines: NoteLines, entry: TagCache, pool: StringPool) {
		super(lines, entry.position);
		this.tag = pool.intern(entry.tag);
	}

	toJSON(): TagCache {
		return { tag: this.tag, position: this.position };
	}
}

class CompactHeading extends Positioned implements HeadingCache {
	readonly heading: string;
	readonly level: number;

	constructor(lines: NoteLines, entry: HeadingCache) {
		super(lines, entry.position);
		this.heading = entry.heading;
		this.level = entry.level;
	}

	toJSON(): HeadingCache {
		return { heading: this.heading, level: this.level, position: this.position };
	}
}

class CompactSection extends Positioned implements SectionCache {
	readonly type: string;
	declare readonly id?: string;

	constructor(lines: NoteLines, entry: SectionCache) {
		super(lines, entry.position);
		this.type = entry.type;
		// Absent, not undefined, as in the plain metadata: `"id" in section` answers the same.
		if (entry.id !== undefined) (this as { id?: string }).id = entry.id;
	}

	toJSON(): SectionCache {
		return this.id === undefined ? { type: this.type, position: this.position } : { type: this.type, position: this.position, id: this.id };
	}
}

class CompactListItem extends Positioned implements ListItemCache {
	readonly parent: number;
	declare readonly task?: string;
	declare readonly id?: string;

	constructor(lines: NoteLines, entry: ListItemCache) {
		super(lines, entry.position);
		this.parent = entry.parent;
		if (entry.task !== undefined) (this as { task?: string }).task = entry.task;
		if (entry.id !== undefined) (this as { id?: string }).id = entry.id;
	}

	toJSON(): ListItemCache {
		const plain: ListItemCache = { parent: this.parent, position: this.position };
		if (this.task !== undefined) plain.task = this.task;
		if (this.id !== undefined) plain.id = this.id;
		return plain;
	}
}

class CompactBlock extends Positioned implements BlockCache {
	readonly id: string;

	constructor(lines: NoteLines, entry: BlockCache) {
		super(lines, entry.position);
		this.id = entry.id;
	}

	toJSON(): BlockCache {
		return { id: this.id, position: this.position };
	}
}

/** True when `lines` gives back exactly the position the parser wrote. */
function roundTrips(lines: NoteLines, position: Pos): boolean {
	const start = lines.loc(position.start.offset);
	const end = lines.loc(position.end.offset);
	return start.line === position.start.line && start.col === position.start.col && end.line === position.end.line && end.col === position.end.col;
}

/** Every entry of `entries` made compact, or null when one's position is not what `lines` gives (then the note stays plain). */
function compactEach<T extends { position: Pos }>(lines: NoteLines, entries: readonly T[], make: (lines: NoteLines, entry: T) => T): T[] | null {
	if (!entries.every((entry) => roundTrips(lines, entry.position))) return null;
	// `map` sizes the array exactly; one grown by pushes keeps up to half its room empty.
	return entries.map((entry) => make(lines, entry));
}

const makeHeading = (lines: NoteLines, entry: HeadingCache) => new CompactHeading(lines, entry);
const makeSection = (lines: NoteLines, entry: SectionCache) => new CompactSection(lines, entry);
const makeListItem = (lines: NoteLines, entry: ListItemCache) => new CompactListItem(lines, entry);
const makeBlock = (lines: NoteLines, entry: BlockCache) => new CompactBlock(lines, entry);

/**
 * The compact form of `cache`, the metadata parsed from `text`: the same fields in the same
 * order, each entry reading its position from the note's line starts, tags and link texts taken
 * from `pool`. A note whose positions the
 * line starts do not give back exactly is returned as it is, so a reader never sees a difference.
 */
export function compactMetadata(cache: CachedMetadata, text: string, pool: StringPool = new StringPool()): CachedMetadata {
	const lines = NoteLines.of(text);
	const makeReference = (lines: NoteLines, entry: ReferenceCache) => new CompactReference(lines, entry, pool);
	const makeTag = (lines: NoteLines, entry: TagCache) => new CompactTag(lines, entry, pool);
	const compact: Record<string, unknown> = {};
	for (const [key, value] of Object.entries(cache) as Array<[keyof CachedMetadata, unknown]>) {
		let made: unknown = value;
		if (key === "links" || key === "embeds") made = compactEach(lines, value as ReferenceCache[], makeReference);
		else if (key === "tags") made = compactEach(lines, value as TagCache[], makeTag);
		else if (key === "headings") made = compactEach(lines, value as HeadingCache[], makeHeading);
		else if (key === "sections") made = compactEach(lines, value as SectionCache[], makeSection);
		else if (key === "listItems") made = compactEach(lines, value as ListItemCache[], makeListItem);
		else if (key === "blocks") {
			const blocks = Object.entries(value as Record<string, BlockCache>);
			const compactBlocks = compactEach(
				lines,
				blocks.map(([, block]) => block),
				makeBlock,
			);
			made = compactBlocks && Object.fromEntries(blocks.map(([id], index) => [id, compactBlocks[index]]));
		}
		if (made === null) return cache;
		compact[key] = made;
	}
	return compact;
}
