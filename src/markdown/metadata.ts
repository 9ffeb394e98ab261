import type { BlockCache, CachedMetadata, EmbedCache, HeadingCache, LinkCache, ListItemCache, Pos, SectionCache, TagCache } from "obsidian";
import {
	BLOCK_CHUNK_LINES,
	INLINE_ITEMS_PAUSE_COUNT,
	INLINE_PASS_STEP_CHARS,
	MAX_NOTE_HEADINGS,
	MAX_NOTE_SECTIONS,
	TOKEN_VISIT_PAUSE_TOKENS,
} from "../config/limits";
import { SplitStringMap } from "./splitStringMap";
import { ChunkedArray } from "./chunkedArray";
import { LEFT_OUT_TOKEN, parseBlocks, type MarkdownToken } from "./blocks";
import { frontmatterFences, frontmatterLinks, parseFrontmatterSteps } from "./frontmatter";
import { FindingMarkers, scanInlineSteps, trailingBlockId, type InlineLink } from "./inline";
import { LineIndex } from "./lines";
import { runSteps, type SliceClock, type Steps } from "./steps";
import { HEADING_LEVELS, HEADINGS_LEFT_OUT_KEY } from "./subpath";

/**
 * The metadata Obsidian's cache holds for one Markdown note (`CachedMetadata`), computed from its
 * text. Pure. Block structure comes from markdown-it (CommonMark, plus tables); Obsidian's own
 * syntax — frontmatter, `%%` comments, `$$` math, callouts, wikilinks, embeds, tags, block ids —
 * is added on top, and positions are computed from the source as Obsidian reports them.
 * Linear in the note's length, whatever it holds.
 */
export function parseMetadata(text: string): CachedMetadata {
	return runSteps(metadataSteps(text));
}

/** The same metadata, pausing on a clock shared with other work. */
export function parseMetadataOnClock(text: string, clock: SliceClock): Promise<CachedMetadata> {
	return clock.run(metadataSteps(text));
}

/** The parse as pausable steps; `chunkLines` is exposed so tests can cut blocks into tiny chunks. */
export function* metadataSteps(text: string, chunkLines = BLOCK_CHUNK_LINES): Steps<CachedMetadata> {
	const { cache, listItems, blocks } = yield* metadataRecordsSteps(text, chunkLines);
	if (listItems.length > 0) cache.listItems = yield* listItems.toCaches();
	if (blocks.length > 0) exposeBlocks(cache, blocks);
	return cache;
}

/**
 * The parse for a reader of links only (a rename's plan): the metadata with no list items' or
 * blocks' objects built, as `metadataRecordsSteps` leaves it (`listItems`, `blocks` undefined). A note of 20,000 list items
 * built 20,000 entries, a fifth of a rename's work, that nothing read.
 */
export function* linkMetadataSteps(text: string): Steps<CachedMetadata> {
	return (yield* metadataRecordsSteps(text)).cache;
}

/**
 * The parse for a cache that keeps list items and blocks packed: the metadata without their objects
 * (`listItems` and `blocks` are in their places among the keys when the note has any, but
 * undefined), and the items and block ids as records. Never hand the metadata itself to a reader:
 * set `listItems` and `blocks` first (`exposeBlocks`).
 */
export function* metadataRecordsSteps(
	text: string,
	chunkLines = BLOCK_CHUNK_LINES,
): Steps<{ cache: CachedMetadata; listItems: ListItemRecords; blocks: BlockRecords }> {
	const lines = yield* LineIndex.inSteps(text);
	const builder = new MetadataBuilder(text, lines, chunkLines, true);
	return { cache: yield* builder.build(), listItems: builder.listItems, blocks: builder.blocks };
}

/**
 * The note's tasks as the full parse finds them (each task list item's first line and checkbox
 * character, in order), for a reader of nothing else (add_task's check of its new line,
 * complete_task's look at a note the cache is behind on): the block structure alone, which settles
 * what is a list item and a task; the lines' links, embeds, tags and block ids are not looked for
 * (a third to half of a parse), and no list item's object is built.
 */
export function* taskLinesSteps(text: string): Steps<Array<{ line: number; status: string }>> {
	const lines = yield* LineIndex.inSteps(text);
	const builder = new MetadataBuilder(text, lines, BLOCK_CHUNK_LINES, false);
	yield* builder.build();
	return builder.listItems.taskLines();
}

/**
 * A note's list items as the parser makes them, a number a field, with no object per item: a note
 * of 40,000 items made 160,000 objects (an item, its position, two Locs) that lived until the parse
 * ended, so every young-generation collection meanwhile copied them, and they died in the old
 * generation. Obsidian's `ListItemCache`s are built from them at the end (`toCaches`), or the
 * headless cache packs them as they are.
 */
export class ListItemRecords {
	/** Each item's start and end offsets, and its parent (see ListItemCache.parent). */
	readonly starts: number[] = [];
	readonly ends: number[] = [];
	readonly parents: number[] = [];
	/** Each item's task character, "" for an item that is no task. */
	readonly tasks: string[] = [];
	/** Block ids, by item. */
	readonly ids: Record<number, string> = {};

	constructor(private readonly lines: LineIndex) {}

	get length(): number {
		return this.starts.length;
	}

	/** Adds an item; returns its number. */
	add(start: number, end: number, parent: number, task: string): number {
		this.starts.push(start);
		this.ends.push(end);
		this.parents.push(parent);
		this.tasks.push(task);
		return this.starts.length - 1;
	}

	/** Each task item's first line and checkbox character, in order. */
	taskLines(): Array<{ line: number; status: string }> {
		const tasks: Array<{ line: number; status: string }> = [];
		for (let index = 0; index < this.length; index++) {
			const status = this.tasks[index] as string;
			if (status !== "") tasks.push({ line: this.lines.lineOf(this.starts[index] as number), status });
		}
		return tasks;
	}

	/** Obsidian's objects for the items, in order, keys as Obsidian orders them. */
	*toCaches(): Steps<ListItemCache[]> {
		const caches: ListItemCache[] = new Array<ListItemCache>(this.length);
		const lines = this.lines;
		// Each item's lines looked for from the item before's: most items are a line after it (two binary searches an item were a tenth of a list's parse).
		let line = 0;
		for (let index = 0; index < caches.length; index++) {
			const start = this.starts[index] as number;
			const end = this.ends[index] as number;
			line = lines.lineNear(start, line);
			const cache: ListItemCache = {
				parent: this.parents[index] as number,
				position: { start: lines.loc(start, line), end: lines.loc(end, lines.lineNear(end, line)) },
			};
			const task = this.tasks[index] as string;
			if (task !== "") cache.task = task;
			const id = this.ids[index];
			if (id !== undefined) cache.id = id;
			caches[index] = cache;
			if (index % INLINE_ITEMS_PAUSE_COUNT === INLINE_ITEMS_PAUSE_COUNT - 1) yield;
		}
		return caches;
	}
}

/**
 * A note's block ids as the parser finds them, with no object keyed by them. Obsidian's `blocks` is
 * one plain object, which V8 grows by copying it whole: a note of 400,000 ids held the event loop
 * 0.1–0.7 s in one `blocks[id] =`, and counting its keys took 0.13 s more. Here an id's place is
 * kept in a SplitStringMap, whose growth copies a part; `blocks` is built from the records only
 * when a reader asks for it (`exposeBlocks`), and the headless cache packs them as they are.
 */
export class BlockRecords {
	/** Each id in the order it first appears, and the position of its last block (as `blocks[id] =` leaves it). */
	readonly ids: string[] = [];
	readonly positions: Pos[] = [];
	private readonly places = new SplitStringMap<number>();

	get length(): number {
		return this.ids.length;
	}

	/** Records a block; an id seen before keeps its place and takes the new position. */
	add(id: string, position: Pos): void {
		const place = this.places.get(id);
		if (place !== undefined) {
			this.positions[place] = position;
			return;
		}
		this.places.set(id, this.ids.length);
		this.ids.push(id);
		this.positions.push(position);
	}

	/** The place of the block whose id is exactly `id`, or undefined. */
	placeOf(id: string): number | undefined {
		return this.places.get(id);
	}

	/** Obsidian's `blocks`, made as its own assignments make it (so ids that are array indices come first, as there). */
	toObject(): Record<string, BlockCache> {
		const blocks: Record<string, BlockCache> = {};
		for (let place = 0; place < this.ids.length; place++) {
			const id = this.ids[place] as string;
			blocks[id] = { id, position: this.positions[place] as Pos };
		}
		return blocks;
	}
}

/** The block records behind a metadata's `blocks` that no reader has asked for yet. */
const unreadBlocks = new WeakMap<CachedMetadata, BlockRecords>();

/**
 * Sets `cache.blocks` (in its place among the keys) to Obsidian's object built from `blocks` on
 * first read, then kept as a plain value. A reader of the whole object builds it in one piece, as
 * it reads it in one piece; one that looks for one block (`unreadBlockRecords`) never builds it.
 */
export function exposeBlocks(cache: CachedMetadata, blocks: BlockRecords): void {
	unreadBlocks.set(cache, blocks);
	Object.defineProperty(cache, "blocks", { configurable: true, enumerable: true, get: readBlocks, set: setBlocks });
}

/** The records behind `cache.blocks` while it has not been read or set, else undefined. */
export function unreadBlockRecords(cache: CachedMetadata): BlockRecords | undefined {
	return unreadBlocks.get(cache);
}

function readBlocks(this: CachedMetadata): Record<string, BlockCache> | undefined {
	const blocks = unreadBlocks.get(this)?.toObject();
	setBlocks.call(this, blocks);
	return blocks;
}

function setBlocks(this: CachedMetadata, blocks: Record<string, BlockCache> | undefined): void {
	unreadBlocks.delete(this);
	Object.defineProperty(this, "blocks", { configurable: true, enumerable: true, writable: true, value: blocks });
}

/** Section types by the markdown-it token that opens a top-level block. */
const SECTION_TYPES: Record<string, string> = {
	paragraph_open: "paragraph",
	heading_open: "heading",
	bullet_list_open: "list",
	ordered_list_open: "list",
	fence: "code",
	code_block: "code",
	html_block: "html",
	hr: "thematicBreak",
	table_open: "table",
	obsidian_comment: "comment",
	obsidian_math: "math",
};

/** A container a line's prefix passes through: a blockquote (`>`) or a list item (its content indent). */
type Container = { kind: "quote" } | { kind: "item"; firstLine: number; contentCol: number; contentIndent: number };

interface OpenList {
	startLine: number;
	token: MarkdownToken;
	section: SectionCache | undefined;
}

interface OpenItem {
	/** The item's number among the records, its first line and its start offset. */
	index: number;
	line: number;
	start: number;
	/** The item's lines: a top-level list's item is handed over before its end is known (read at its close). */
	map: [number, number];
	firstChildListLine: number | null;
}

/** True for the paragraph token that blocks.ts opens for a footnote definition. */
function isFootnoteDefinition(token: MarkdownToken): boolean {
	return token.type === "paragraph_open" && (token.meta as { footnoteDefinition?: boolean } | null)?.footnoteDefinition === true;
}

const CALLOUT_START = /^\s*\[!/;
/**
 * A task is a list item whose own content starts with `[c]` (any one character c) followed by
 * whitespace or the line's end, tested at the item's content column on its first line. The block
 * structure is settled first, by CommonMark: a list marker opens a nested list only where a block
 * may start, at the very start of an item's content (§5.2: `- - foo` is an item holding a list),
 * never after text on the same line, so in `- [ ] - foo` or `1. [ ] * foo` the rest of the line is
 * the task's text: one task, no child item. `- - [ ] foo` is the other way round: an item that is no
 * task, holding a nested list whose item is the task.
 */
const TASK_START = /\[(.)\](?:\s|$)/uy;
/**
 * Real Obsidian departs from CommonMark on one form: a task whose text starts with an ordered list
 * marker (`1. ` or `3) `, digits then `.` or `)`) gives a second list item on the same line, starting
 * at that marker, whose parent is the task's own line; `2 text`, `4 - `, `5: ` and `(6) ` do not
 * (captured from Obsidian: obsidian-tasks' numbered_tasks_issue_3481).
 */
const ORDERED_MARKER_AFTER_TASK = /\[.\][ \t]+(?=\d{1,9}[.)](?:[ \t]|$))/uy;
const OPEN_BRACKET = 0x5b;

/** A sticky pattern's match starting exactly at `at` (a `[`, so never inside a surrogate pair): the line is not copied from there on for each list item. */
function matchedAt(pattern: RegExp, text: string, at: number): RegExpExecArray | null {
	pattern.lastIndex = at;
	return pattern.exec(text);
}

/** Whether it matches there, without making a match (one per task). */
function matchesAt(pattern: RegExp, text: string, at: number): boolean {
	pattern.lastIndex = at;
	return pattern.test(text);
}

/** The code point at `at` as a string, as `(.)` with the `u` flag captures it: a surrogate pair whole, a lone surrogate alone. */
function codePointAt(text: string, at: number): string {
	return (text.codePointAt(at) ?? 0) > 0xffff ? text.slice(at, at + 2) : (text[at] ?? "");
}
const TAB_WIDTH = 4;
const MAX_SPACES_AFTER_MARKER = 4;

class MetadataBuilder {
	// Gathered in chunks, made into Obsidian's arrays at the end: a note of a million headings grew
	// its two arrays of objects by copying them whole, pieces of 75–80 ms (see ChunkedArray).
	private readonly sections = new ChunkedArray<SectionCache>();
	private readonly headings = new ChunkedArray<HeadingCache>();
	/** Past MAX_NOTE_HEADINGS, where the first heading left out of each level or a higher one starts (`headingsLeftOutOf`); null until one is. */
	private headingsLeftOut: number[] | null = null;
	/** Whether the last top-level block visited was kept as a section (past MAX_NOTE_SECTIONS, none is). */
	private lastSectionKept = false;
	readonly listItems: ListItemRecords;
	private readonly links = new ChunkedArray<LinkCache>();
	private readonly embeds = new ChunkedArray<EmbedCache>();
	private readonly tags = new ChunkedArray<TagCache>();
	readonly blocks = new BlockRecords();
	private readonly containers: Container[] = [];
	private readonly lists: OpenList[] = [];
	private readonly items: OpenItem[] = [];
	private readonly markers: FindingMarkers;
	/** The line whose block id was looked up last, and its id (see blockIdOfLine). */
	private blockIdLine = -1;
	private blockIdOfLastLine: string | null = null;

	constructor(
		private readonly text: string,
		private readonly lines: LineIndex,
		private readonly chunkLines: number,
		/** Whether lines are read for links, embeds, tags and block ids (false: the block structure only). */
		private readonly readsLines: boolean,
	) {
		this.markers = new FindingMarkers(text);
		this.listItems = new ListItemRecords(lines);
	}

	*build(): Steps<CachedMetadata> {
		const cache: CachedMetadata = {};
		// A byte-order mark stands before line 0 (LineIndex): the Markdown parser never sees it.
		let body = this.text.slice(this.lines.lineStart(0));
		const fences = frontmatterFences(this.text);
		const frontmatterEnd = fences === null ? null : this.lines.lineOf(fences.closeStart);
		if (frontmatterEnd !== null) {
			const position = this.lines.linesPos(0, 0, frontmatterEnd);
			this.sections.push({ type: "yaml", position });
			const yaml = this.text.slice(this.lines.lineStart(1), this.lines.lineStart(frontmatterEnd));
			// A block over one of the YAML bounds is treated like broken YAML (no properties). Not read for the block structure alone.
			const frontmatter = this.readsLines ? yield* parseFrontmatterSteps(yaml) : null;
			if (frontmatter) {
				cache.frontmatter = frontmatter;
				cache.frontmatterPosition = position;
				yield;
				cache.frontmatterLinks = frontmatterLinks(frontmatter);
			}
			// The Markdown parser sees blank lines where the frontmatter was, so line numbers stay true.
			body = "\n".repeat(frontmatterEnd + 1) + this.text.slice(this.lines.lineStart(frontmatterEnd + 1));
		}
		yield;
		// Nothing here reads a paragraph's `hidden`.
		yield* parseBlocks(body, (tokens, count) => this.visitTokens(tokens, count), this.chunkLines, { hidden: false });

		if (this.links.length) cache.links = yield* this.links.toArraySteps();
		if (this.embeds.length) cache.embeds = yield* this.embeds.toArraySteps();
		if (this.tags.length) cache.tags = yield* this.tags.toArraySteps();
		if (this.headings.length) cache.headings = yield* this.headings.toArraySteps();
		if (this.headingsLeftOut) (cache as Record<string, unknown>)[HEADINGS_LEFT_OUT_KEY] = this.headingsLeftOut;
		if (this.sections.length) cache.sections = yield* this.sections.toArraySteps();
		// The keys in their places; the caller sets the items and blocks (metadataSteps, or a packing cache).
		if (this.listItems.length) cache.listItems = undefined;
		if (this.blocks.length) cache.blocks = undefined;
		return cache;
	}

	/** Visits tokens[0, count) as the block parser hands them over. */
	private *visitTokens(tokens: readonly MarkdownToken[], count: number): Steps<void> {
		for (let index = 0; index < count; index++) {
			const token = tokens[index];
			if (token) this.visit(token, tokens[index + 1]);
			const start = this.pendingScanStart;
			const end = this.pendingScanEnd;
			this.pendingScanStart = -1;
			// Asked before the scan is made: a scan's steps cost some 500 bytes even when they find nothing.
			if (start !== -1 && this.readsLines && this.mayFind(start, end)) yield* this.scanLines(start, end);
			if (index % TOKEN_VISIT_PAUSE_TOKENS === TOKEN_VISIT_PAUSE_TOKENS - 1) yield;
		}
	}

	private visit(token: MarkdownToken, next: MarkdownToken | undefined): void {
		const map = token.map;
		const section = token.level === 0 && map && token.type in SECTION_TYPES ? this.addSection(token, map) : undefined;
		switch (token.type) {
			case "blockquote_open":
				// A top-level quote's end is known only at its close (the parser hands its start over early).
				if (token.level === 0 && map) this.openQuote = { token, section: this.addSection(token, map) };
				this.containers.push({ kind: "quote" });
				break;
			case "blockquote_close": {
				const quoteMap = this.openQuote?.token.map;
				if (token.level === 0 && this.openQuote?.section && quoteMap)
					this.openQuote.section.position = this.lines.linesPos(quoteMap[0], 0, this.lastContentLine(quoteMap[0], quoteMap[1]));
				if (token.level === 0) this.openQuote = null;
				this.containers.pop();
				break;
			}
			case "bullet_list_open":
			case "ordered_list_open":
				if (map) {
					const parent = this.items.at(-1);
					if (parent && parent.firstChildListLine === null) parent.firstChildListLine = map[0];
					// A top-level list's end is known only at its close (the parser hands its start over early).
					this.lists.push({ startLine: map[0], token, section });
				}
				break;
			case "bullet_list_close":
			case "ordered_list_close": {
				const list = this.lists.pop();
				const listMap = list?.token.map;
				if (list?.section && listMap) list.section.position = this.lines.linesPos(listMap[0], 0, this.lastContentLine(listMap[0], listMap[1]));
				break;
			}
			case "list_item_open":
				if (map) this.openListItem(token, map);
				break;
			case "list_item_close":
				this.closeListItem(next?.type !== "list_item_open");
				break;
			case "heading_open":
				if (map) this.addHeading(token, map, next);
				break;
			case "inline":
				if (map && !this.openTable) this.scanNext(map[0], map[1]);
				break;
			case "table_open":
				// A huge table's opening token is handed over before its last rows are parsed: its lines are read at its close.
				this.openTable = { token, section };
				break;
			case "table_close": {
				const tableMap = this.openTable?.token.map;
				if (this.openTable?.section && tableMap)
					this.openTable.section.position = this.lines.linesPos(tableMap[0], 0, this.lastContentLine(tableMap[0], tableMap[1]));
				if (tableMap) this.scanNext(tableMap[0], tableMap[1]);
				this.openTable = null;
				break;
			}
			case LEFT_OUT_TOKEN:
				// Blocks nested past the parser's bounds: their links and tags count, as in Obsidian (a rename must rewrite them).
				if (map) this.scanNext(map[0], map[1]);
				break;
			case "obsidian_comment":
				// Obsidian still reports tags and links written inside a %% comment block.
				if (map) this.scanNext(map[0], map[1]);
				break;
		}
		if (token.type === "paragraph_open" && map) this.addParagraphBlockId(token, map);
	}

	/** The table being visited (its cells are read with its lines, at its close), and its section when it is top-level. */
	private openTable: { token: MarkdownToken; section: SectionCache | undefined } | null = null;
	/** The top-level quote being visited, and its section. */
	private openQuote: { token: MarkdownToken; section: SectionCache | undefined } | null = null;
	/** Lines [start, end) the token just visited asks to be scanned for links, embeds and tags (-1: none). */
	private pendingScanStart = -1;
	private pendingScanEnd = -1;

	private scanNext(start: number, end: number): void {
		this.pendingScanStart = start;
		this.pendingScanEnd = end;
	}

	/** False when lines [start, end) can hold no link, embed or tag: their contents lie inside the note's text from the first line's start to the last one's end. */
	private mayFind(start: number, end: number): boolean {
		const last = Math.min(end, this.lines.lineCount) - 1;
		return last >= start && this.markers.mayFind(this.lines.lineStart(start), this.lines.lineEnd(last));
	}

	private addSection(token: MarkdownToken, map: [number, number]): SectionCache | undefined {
		const type =
			token.type === "blockquote_open"
				? this.isCallout(map[0])
					? "callout"
					: "blockquote"
				: isFootnoteDefinition(token)
					? "footnoteDefinition"
					: SECTION_TYPES[token.type];
		this.lastSectionKept = false;
		if (!type) return undefined;
		// Past the bound the note's blocks are still read for links, tags, items and ids: only their sections are not kept.
		if (this.sections.length >= MAX_NOTE_SECTIONS) return undefined;
		this.lastSectionKept = true;
		const section: SectionCache = { type, position: this.lines.linesPos(map[0], 0, this.lastContentLine(map[0], map[1])) };
		this.sections.push(section);
		return section;
	}

	private isCallout(line: number): boolean {
		const text = this.lines.lineText(line);
		const quote = text.indexOf(">");
		return quote !== -1 && CALLOUT_START.test(text.slice(quote + 1));
	}

	/**
	 * The `^block-id` `line` ends with, looked up once however many blocks end on the line: one line of
	 * `- - - … x` closes 640 list items, and a line ending in megabytes of white space is read back over them.
	 */
	private blockIdOfLine(line: number): string | null {
		if (this.blockIdLine !== line) {
			this.blockIdLine = line;
			this.blockIdOfLastLine = trailingBlockId(this.lines.lineText(line));
		}
		return this.blockIdOfLastLine;
	}

	/** The last non-blank line in [start, end), or `start`. */
	private lastContentLine(start: number, end: number): number {
		let line = Math.min(end, this.lines.lineCount) - 1;
		while (line > start && this.lines.isBlank(line)) line--;
		return Math.max(line, start);
	}

	/** Column where a line's content starts once the open containers' prefixes are stripped. */
	private contentStart(line: number, containers: readonly Container[] = this.containers, text = this.lines.lineText(line)): number {
		let col = 0;
		for (const container of containers) {
			if (container.kind === "quote") {
				let index = col;
				let spaces = 0;
				while (text[index] === " " && spaces < 3) {
					index++;
					spaces++;
				}
				// A lazy continuation line has no `>`: its content starts where the prefix stopped.
				if (text[index] !== ">") return col;
				index++;
				if (text[index] === " " || text[index] === "\t") index++;
				col = index;
			} else if (line === container.firstLine) {
				col = container.contentCol;
			} else {
				let index = col;
				let width = 0;
				while (index < text.length && width < container.contentIndent && (text[index] === " " || text[index] === "\t")) {
					width += text[index] === "\t" ? TAB_WIDTH - (width % TAB_WIDTH) : 1;
					index++;
				}
				col = index;
			}
		}
		return col;
	}

	private openListItem(token: MarkdownToken, map: [number, number]): void {
		const line = map[0];
		const text = this.lines.lineText(line);
		// A nested item starts where its parent's content starts, before its own indentation (as Obsidian reports it).
		const startCol = this.contentStart(line, this.containers, text);
		let markerCol = startCol;
		while (text[markerCol] === " " || text[markerCol] === "\t") markerCol++;
		const markerEnd = markerCol + token.markup.length + (token.info !== "" && /^\d+$/.test(token.info) ? token.info.length : 0);
		let contentCol = markerEnd;
		while (text[contentCol] === " " || text[contentCol] === "\t") contentCol++;
		if (contentCol === text.length || contentCol - markerEnd > MAX_SPACES_AFTER_MARKER) contentCol = Math.min(markerEnd + 1, text.length);

		const list = this.lists.at(-1);
		const parentItem = this.items.at(-1);
		const listStart = list?.startLine ?? line;
		// Root items point at their list's first line, negated; a list on line 0 gives -1.
		const parent = parentItem ? parentItem.line : listStart === 0 ? -1 : -listStart;
		const lineStart = this.lines.lineStart(line);
		const lineEnd = this.lines.lineEnd(line);
		const task = text.charCodeAt(contentCol) === OPEN_BRACKET && matchesAt(TASK_START, text, contentCol) ? codePointAt(text, contentCol + 1) : "";
		// Until its close, an item ends at its first line's end.
		const index = this.listItems.add(lineStart + startCol, lineEnd, parent, task);
		const orderedMarker = task === "" ? null : matchedAt(ORDERED_MARKER_AFTER_TASK, text, contentCol);
		if (orderedMarker) this.listItems.add(lineStart + contentCol + orderedMarker[0].length, lineEnd, line, "");
		this.items.push({ index, line, start: lineStart + startCol, map, firstChildListLine: null });
		this.containers.push({ kind: "item", firstLine: line, contentCol, contentIndent: contentCol - startCol });
	}

	/**
	 * An item ends where its own content ends: before its first nested list, and, when it is the
	 * last item of its list, before trailing blank lines. An item followed by a sibling keeps the
	 * blank lines between them.
	 */
	private closeListItem(isLastInList: boolean): void {
		this.containers.pop();
		const item = this.items.pop();
		if (!item) return;
		const startLine = item.line;
		const endExclusive = item.firstChildListLine ?? item.map[1];
		const endLine =
			isLastInList || item.firstChildListLine !== null ? this.lastContentLine(startLine, endExclusive) : Math.max(startLine, endExclusive - 1);
		const end = this.lines.lineEnd(endLine);
		this.listItems.ends[item.index] = end;
		const id = this.blockIdOfLine(this.lastContentLine(startLine, endLine + 1));
		if (id !== null) {
			this.listItems.ids[item.index] = id;
			this.blocks.add(id, this.lines.pos(item.start, end));
		}
	}

	private addHeading(token: MarkdownToken, map: [number, number], inline: MarkdownToken | undefined): void {
		// Past the bound a heading's line is still read for links and tags; the heading is not kept (describeHeadingPlaces says so).
		const level = Number(token.tag.slice(1));
		if (this.headings.length >= MAX_NOTE_HEADINGS) {
			// Where it starts is kept while it is the first left out of its level or a higher one: the kept headings' sections end there.
			const ends = (this.headingsLeftOut ??= new Array<number>(HEADING_LEVELS).fill(-1));
			if (ends[level - 1] !== -1) return;
			const start = this.lines.linesPos(map[0], this.contentStart(map[0]), map[0]).start.offset;
			for (let deeper = level; deeper <= HEADING_LEVELS; deeper++) if (ends[deeper - 1] === -1) ends[deeper - 1] = start;
			return;
		}
		this.headings.push({
			heading: inline?.content ?? "",
			level,
			position: this.lines.linesPos(map[0], this.contentStart(map[0]), this.lastContentLine(map[0], map[1])),
		});
	}

	private addParagraphBlockId(token: MarkdownToken, map: [number, number]): void {
		const lastLine = this.lastContentLine(map[0], map[1]);
		const id = this.blockIdOfLine(lastLine);
		// A list item's paragraph belongs to the item, which records the id itself.
		if (id === null || this.items.length > 0) return;
		const position: Pos = this.lines.linesPos(map[0], this.contentStart(map[0]), lastLine);
		this.blocks.add(id, position);
		if (token.level === 0 && this.lastSectionKept) {
			const section = this.sections.last();
			if (section) section.id = id;
		}
	}

	/** Scans lines [start, end) — each from where its content starts — for links, embeds and tags. */
	private *scanLines(start: number, end: number): Steps<void> {
		// The lines are joined a step's worth at a time, then the steps' texts joined: joined whole, the
		// 800,000 lines of a paragraph of tags were one piece of 100–200 ms, and each line's text lived
		// until then (long collections besides).
		const stepTexts: string[] = [];
		const lineTexts: string[] = [];
		let stepChars = 0;
		// For each line, where it starts in the joined text and in the note: one pair per line, so
		// mapping a finding back is a binary search, not a walk over the block's lines.
		const joinedStarts: number[] = [];
		const sourceStarts: number[] = [];
		let cursor = 0;
		for (let line = start; line < Math.min(end, this.lines.lineCount); line++) {
			const col = this.contentStart(line);
			const text = this.lines.lineText(line).slice(col);
			lineTexts.push(text);
			joinedStarts.push(cursor);
			sourceStarts.push(this.lines.lineStart(line) + col);
			cursor += text.length + 1;
			stepChars += text.length + 1;
			// Or by characters: lines nested past the bound are left out of the parse whole (200 lines of 18.7 KB, say),
			// and joined as one step they were a piece of 30-60 ms of their own besides the join of the block below.
			if (lineTexts.length === INLINE_ITEMS_PAUSE_COUNT || stepChars >= INLINE_PASS_STEP_CHARS) {
				stepTexts.push(lineTexts.join("\n"));
				lineTexts.length = 0;
				stepChars = 0;
				yield;
			}
		}
		if (lineTexts.length > 0) {
			stepTexts.push(lineTexts.join("\n"));
			// A long block's text is joined in a piece of its own (one copy of it, which the scan must have whole).
			if (cursor >= INLINE_PASS_STEP_CHARS) yield;
		}
		const toSource = (index: number): number => {
			let low = 0;
			let high = joinedStarts.length - 1;
			while (low < high) {
				const middle = (low + high + 1) >> 1;
				if ((joinedStarts[middle] ?? 0) <= index) low = middle;
				else high = middle - 1;
			}
			return (sourceStarts[low] ?? 0) + index - (joinedStarts[low] ?? 0);
		};
		const found = yield* scanInlineSteps(stepTexts.join("\n"));
		const toCache = (link: InlineLink): LinkCache => {
			const sourceStart = toSource(link.start);
			const sourceEnd = toSource(link.end);
			return {
				link: link.link,
				original: this.text.slice(sourceStart, sourceEnd),
				displayText: link.displayText,
				position: this.lines.pos(sourceStart, sourceEnd),
			};
		};
		// One push per finding: spreading a block's findings into push() overflows the stack past ~100,000.
		for (const [index, link] of found.links.entries()) {
			this.links.push(toCache(link));
			if (index % INLINE_ITEMS_PAUSE_COUNT === INLINE_ITEMS_PAUSE_COUNT - 1) yield;
		}
		for (const [index, embed] of found.embeds.entries()) {
			this.embeds.push(toCache(embed));
			if (index % INLINE_ITEMS_PAUSE_COUNT === INLINE_ITEMS_PAUSE_COUNT - 1) yield;
		}
		for (const [index, tag] of found.tags.entries()) {
			this.tags.push({ tag: tag.tag, position: this.lines.pos(toSource(tag.start), toSource(tag.end)) });
			if (index % INLINE_ITEMS_PAUSE_COUNT === INLINE_ITEMS_PAUSE_COUNT - 1) yield;
		}
	}
}
