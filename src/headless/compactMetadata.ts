import {
	MAX_POOLED_STRINGS,
	MAX_MATERIALIZED_NOTES,
	MAX_KEPT_SCRATCH_NUMBERS,
	METADATA_PACK_STEP_ENTRIES,
	METADATA_READ_STEP_ENTRIES,
	METADATA_DECODE_STEP_CODES,
	V8_HASHED_STRING_MAX_CHARS,
} from "../config/limits";
import type { BlockCache, CachedMetadata, HeadingCache, ListItemCache, Loc, Pos, ReferenceCache, SectionCache, TagCache } from "obsidian";
import { lineStartsOf } from "../markdown/lines";
import { exposeBlocks, unreadBlockRecords, type BlockRecords, type ListItemRecords } from "../markdown/metadata";
import { runSteps, type Steps } from "../markdown/steps";
import { headingsLeftOutOf, type HeadingPlaces, type NotePart } from "../markdown/subpath";

/**
 * A note's `CachedMetadata` kept small. Obsidian's shape gives every link, tag, heading, section
 * and list item an object and a `position` of three more: on a typical vault that is most of the
 * cache's heap, several times the notes' own size, although most of it is never read (nothing
 * here reads sections, and a search reads only headings). Here a note keeps its entries packed:
 * every number (line starts, each entry's two offsets, levels, parents, flags) in one string of
 * one byte a character, every string (link texts, tags, headings, ids) in one array, tags and link texts
 * shared between notes. The note's metadata object has the same keys in the same order; each
 * entry list is a getter that builds, on first read, the plain objects the parser built (equal
 * to them field by field, `position` included), kept while the note is among the last
 * MAX_MATERIALIZED_NOTES read. `getFileCache` returns the same object until the note changes, and
 * unpacks nothing: only a list read is unpacked, and only that list.
 */

/** Section types a store numbers (the parser has about a dozen); a note with one more stays as parsed. */
const MAX_SECTION_TYPES = 255;

/** Char codes turned into a string at a time: `String.fromCharCode(...codes)` takes its codes as arguments. */
const CODES_PER_CHUNK = 4096;

/** Bytes of the longest number's code: seven bits a byte, up to 2^53. */
const MAX_CODE_BYTES = 8;

/**
 * One copy of each tag and link text, shared by every note that holds it: a vault's tags repeat
 * across thousands of notes, and a popular note is linked from many. Once full, strings are kept
 * as they come.
 */
export class StringPool {
	private readonly strings = new Map<string, string>();

	intern(value: string): string {
		// Kept by no key: V8 hashes a longer string by its length alone (V8_HASHED_STRING_MAX_CHARS).
		if (value.length > V8_HASHED_STRING_MAX_CHARS) return value;
		const known = this.strings.get(value);
		if (known !== undefined) return known;
		if (this.strings.size < MAX_POOLED_STRINGS) this.strings.set(value, value);
		return value;
	}
}

/** What the notes of one metadata cache share: the string pool, the section types, the notes whose lists are built. */
export class PackedMetadataStore {
	readonly sectionTypes: string[] = [];
	/** Notes holding built lists, oldest first (a Map keeps insertion order). */
	private readonly materialized = new Map<PackedNote, true>();

	private numbers = new Int32Array(256);

	constructor(readonly pool: StringPool = new StringPool()) {}

	/** Room for `count` numbers, reused by every note's next unpacking (a rare huge note's is not kept). */
	scratch(count: number): Int32Array {
		if (count > MAX_KEPT_SCRATCH_NUMBERS) return new Int32Array(count);
		if (this.numbers.length < count) this.numbers = new Int32Array(Math.max(count, Math.min(MAX_KEPT_SCRATCH_NUMBERS, this.numbers.length * 2)));
		return this.numbers;
	}

	sectionTypeCode(type: string): number {
		const known = this.sectionTypes.indexOf(type);
		if (known !== -1) return known;
		this.sectionTypes.push(type);
		return this.sectionTypes.length - 1;
	}

	/** Notes `note` as holding built lists, dropping the oldest note's once more than MAX_MATERIALIZED_NOTES do. */
	keep(note: PackedNote): void {
		this.materialized.set(note, true);
		if (this.materialized.size <= MAX_MATERIALIZED_NOTES) return;
		for (const oldest of this.materialized.keys()) {
			this.materialized.delete(oldest);
			oldest.dropBuilt();
			return;
		}
	}
}

/** The packed lists, in the order a kind's number is its place in the directory at the start of the numbers. */
const PACKED_KEYS = ["links", "embeds", "tags", "headings", "sections", "listItems", "blocks", "frontmatterPosition"] as const;
type PackedKey = (typeof PACKED_KEYS)[number];
const KIND: Record<PackedKey, number> = Object.fromEntries(PACKED_KEYS.map((key, index) => [key, index])) as Record<PackedKey, number>;
/** The directory (each kind's first number and first string), then the line count: the line starts follow. */
const LINE_COUNT_AT = PACKED_KEYS.length * 2;
const LINE_STARTS_AT = LINE_COUNT_AT + 1;

/** How a reference's displayText is kept. */
const DISPLAY_SAME_AS_LINK = 0;
const DISPLAY_UNDEFINED = 1;
const DISPLAY_OWN = 2;
const DISPLAY_MASK = 3;
/** A reference's original text, when it is its link's plain wikilink (most are): not kept, written again when read. */
const ORIGINAL_WIKILINK = 4;
const ORIGINAL_EMBED = 8;
const wikilink = (link: string) => `[[${link}]]`;
const embed = (link: string) => `![[${link}]]`;
/** A list item's flags. */
const ITEM_TASK = 1;
const ITEM_ID = 2;

/**
 * A note's packed entries: numbers in a string of one byte a character (seven bits of a number a
 * byte, as LEB128: most are small, as line starts and each entry's start are kept as the step
 * from the one before and its end as its length), strings in an array.
 */
class PackedNote {
	/** Lists built and kept while the note is among the last read (by kind); dropped by the store. */
	private built: Array<unknown> | undefined = undefined;

	constructor(
		private readonly store: PackedMetadataStore,
		private readonly codes: string,
		private readonly strings: readonly string[],
		/** Its list items' count and whether any is a task, noted as they were packed (`listItemsShape`). */
		private readonly itemsShape: Readonly<ListItemsShape>,
	) {}

	/** The list `key` holds, built now unless it was lately. */
	read(key: PackedKey): unknown {
		const kind = KIND[key];
		const kept = this.built?.[kind];
		if (kept !== undefined) return kept;
		if (!this.built) {
			this.built = [];
			this.store.keep(this);
		}
		const made = this.build(kind);
		this.built[kind] = made;
		return made;
	}

	dropBuilt(): void {
		this.built = undefined;
	}

	/** The link texts of the note's links and embeds, in that order, without building their entries. */
	linkTexts(): string[] {
		return runSteps(this.linkTextsSteps(false));
	}

	/**
	 * `linkTexts` in steps of METADATA_READ_STEP_ENTRIES: a rename read a planted note's 90,000 link texts
	 * in one piece of 60–80 ms. When it may pause (`fresh`), the numbers are its own copy, as a
	 * pause lets other notes' reads use the store's scratch.
	 */
	*linkTextsSteps(fresh: boolean): Steps<string[]> {
		const numbers = fresh ? yield* this.numbersSteps() : this.numbers();
		const texts: string[] = [];
		for (const kind of [KIND.links, KIND.embeds]) {
			const at = numbers[kind * 2] as number;
			if (at === 0) continue;
			const count = numbers[at] as number;
			let next = numbers[kind * 2 + 1] as number;
			for (let entry = 0; entry < count; entry++) {
				texts.push(this.strings[next] as string);
				const flags = numbers[at + 3 + entry * 3] as number;
				next += 1 + ((flags & DISPLAY_MASK) === DISPLAY_OWN ? 1 : 0) + (flags & (ORIGINAL_WIKILINK | ORIGINAL_EMBED) ? 0 : 1);
				if (entry % METADATA_READ_STEP_ENTRIES === METADATA_READ_STEP_ENTRIES - 1) yield;
			}
		}
		return texts;
	}

	/**
	 * How many list items the note has, and whether any is a task, as noted when it was packed: decoded,
	 * the numbers of a note of 400,000 headings were one piece of 10-20 ms, and the look for notes with
	 * tasks read a slice's worth of such notes at start (pieces of 90-116 ms with ten of them).
	 */
	listItemsShape(): ListItemsShape {
		return { ...this.itemsShape };
	}

	/**
	 * The note's task items one at a time, in order (`taskItems` a call at a time): the caller pauses
	 * between them, and no list of them all is made (a note of 200,000 tasks made one in a piece of 50 ms).
	 */
	taskItemReader(): () => TaskItem | undefined {
		// Its own numbers: the shared scratch is overwritten by the next note unpacked while the caller pauses.
		const numbers = this.numbers(true);
		let at = numbers[KIND.listItems * 2] as number;
		if (at === 0) return () => undefined;
		let next = numbers[KIND.listItems * 2 + 1] as number;
		const count = numbers[at++] as number;
		const positions = new Positions(numbers);
		let entry = 0;
		return () => {
			while (entry < count) {
				// Every entry's start is read: each is a step from the one before it.
				const offset = positions.startOffset(at);
				const flags = numbers[at + 3] as number;
				entry++;
				at += 4;
				const task = flags & ITEM_TASK ? { line: positions.lineOf(offset), status: this.strings[next++] as string } : undefined;
				if (flags & ITEM_ID) next++;
				if (task) return task;
			}
			return undefined;
		};
	}

	/** The texts and levels of the note's headings, in order, without building their entries (a heading's text is its only string). */
	headingTexts(): HeadingTexts {
		const numbers = this.numbers();
		let at = numbers[KIND.headings * 2] as number;
		if (at === 0) return { texts: [], levels: [] };
		const first = numbers[KIND.headings * 2 + 1] as number;
		const count = numbers[at++] as number;
		const levels = new Array<number>(count);
		for (let entry = 0; entry < count; entry++, at += 3) levels[entry] = numbers[at + 2] as number;
		return { texts: this.strings.slice(first, first + count), levels };
	}

	/**
	 * The texts of the note's headings, in order, without their levels or entries, in chunks of
	 * METADATA_READ_STEP_ENTRIES read a chunk a step (and the numbers decoded in steps): the search index
	 * listed a note's million heading texts in one piece of about 60 ms, most of it making one
	 * array of a million.
	 */
	*headingTextChunks(): Steps<string[][]> {
		const numbers = yield* this.numbersSteps();
		const at = numbers[KIND.headings * 2] as number;
		if (at === 0) return [];
		const first = numbers[KIND.headings * 2 + 1] as number;
		const end = first + (numbers[at] as number);
		const chunks: string[][] = [];
		for (let from = first; from < end; from += METADATA_READ_STEP_ENTRIES) {
			chunks.push(this.strings.slice(from, Math.min(end, from + METADATA_READ_STEP_ENTRIES)));
			if (from + METADATA_READ_STEP_ENTRIES < end) yield;
		}
		return chunks;
	}

	/**
	 * Each heading's text, level, start offset and line, pausing every METADATA_READ_STEP_ENTRIES without
	 * building entries: read_note of a missing heading built a note's 150,000 in one piece of about
	 * 0.2 s. The numbers are its own copy, as a pause lets other notes' reads use the store's scratch.
	 */
	*headingPlaces(): Steps<HeadingPlaces> {
		const numbers = yield* this.numbersSteps();
		let at = numbers[KIND.headings * 2] as number;
		if (at === 0) return noHeadingPlaces();
		const first = numbers[KIND.headings * 2 + 1] as number;
		const count = numbers[at++] as number;
		const places: HeadingPlaces = {
			texts: new Array<string>(count),
			levels: new Uint8Array(count),
			offsets: new Int32Array(count),
			lines: new Int32Array(count),
		};
		const positions = new Positions(numbers);
		let line = 0;
		for (let entry = 0; entry < count; entry++, at += 3) {
			places.texts[entry] = this.strings[first + entry] as string;
			places.levels[entry] = numbers[at + 2] as number;
			const offset = positions.startOffset(at);
			places.offsets[entry] = offset;
			// Headings come in the order of the text: each is on the line of the one before or a later one.
			line = positions.lineOf(offset, line);
			places.lines[entry] = line;
			if (entry % METADATA_READ_STEP_ENTRIES === METADATA_READ_STEP_ENTRIES - 1) yield;
		}
		return places;
	}

	/**
	 * The block whose id, in lower case, is `id`, as a part of the note, looked for without building
	 * the note's block entries and pausing every METADATA_READ_STEP_ENTRIES: read_note of `Note#^id` built a
	 * note's 100,000 blocks in one piece of about 0.15 s. As the unpacked lookups do, a block whose
	 * id is exactly `id` wins over an earlier one differing only in case (`^A` before `^a`), else
	 * the first that matches in lower case. The numbers are its own copy, as a pause lets other
	 * notes' reads use the store's scratch.
	 */
	*blockPart(id: string): Steps<NotePart | null> {
		const numbers = yield* this.numbersSteps();
		let at = numbers[KIND.blocks * 2] as number;
		if (at === 0) return null;
		let next = numbers[KIND.blocks * 2 + 1] as number;
		const count = numbers[at++] as number;
		const positions = new Positions(numbers);
		let firstInAnyCase: NotePart | null = null;
		for (let entry = 0; entry < count; entry++, at += 2) {
			const blockId = this.strings[next++] as string;
			// Every entry's start is read: each is a step from the one before.
			const start = positions.startOffset(at);
			if (blockId === id) return { name: `^${blockId}`, start, end: start + (numbers[at + 1] as number) };
			if (firstInAnyCase === null && blockId.toLowerCase() === id)
				firstInAnyCase = { name: `^${blockId}`, start, end: start + (numbers[at + 1] as number) };
			if (entry % METADATA_READ_STEP_ENTRIES === METADATA_READ_STEP_ENTRIES - 1) yield;
		}
		return firstInAnyCase;
	}

	/**
	 * The text of the note's first heading when it is its one level-1 heading, else null; looks no
	 * further than the second level-1 heading. Its numbers decoded in steps: the search index decoded
	 * a note of a million headings whole, in one piece, to ask.
	 */
	*soleLevelOneHeadingSteps(): Steps<string | null> {
		const numbers = yield* this.numbersSteps();
		let at = numbers[KIND.headings * 2] as number;
		if (at === 0) return null;
		const first = numbers[KIND.headings * 2 + 1] as number;
		const count = numbers[at++] as number;
		if (numbers[at + 2] !== 1) return null;
		for (let entry = 1, level = at + 3 + 2; entry < count; entry++, level += 3) if (numbers[level] === 1) return null;
		return this.strings[first] ?? null;
	}

	/**
	 * The note's tags' texts read one at a time from its strings, its numbers decoded in steps: the
	 * search index decoded a note of a million headings whole, in one piece, to read its tags.
	 */
	*tagTextReaderSteps(): Steps<TagTextReader> {
		// A note without tags says so in its directory, the first numbers of its codes: every read_note and
		// every index update of such a note decoded all its numbers, line starts included, into an array of its own.
		if (directoryNumber(this.codes, KIND.tags * 2) === 0) return NO_TAG_TEXTS;
		const numbers = yield* this.numbersSteps();
		const at = numbers[KIND.tags * 2] as number;
		const first = numbers[KIND.tags * 2 + 1] as number;
		const strings = this.strings;
		return { count: numbers[at] as number, text: (index) => strings[first + index] as string };
	}

	/** True when the note's body holds no tag: its directory says so, nothing decoded. */
	hasNoTags(): boolean {
		return directoryNumber(this.codes, KIND.tags * 2) === 0;
	}

	/** The texts of the note's tags, in order, without building their entries (a tag's is its only string). */
	tagTexts(): string[] {
		const numbers = this.numbers();
		const at = numbers[KIND.tags * 2] as number;
		if (at === 0) return [];
		const first = numbers[KIND.tags * 2 + 1] as number;
		return this.strings.slice(first, first + (numbers[at] as number));
	}

	/**
	 * The link text, start offset and line of each entry of the links or embeds list, in the list's
	 * order, without building the entries, pausing every METADATA_READ_STEP_ENTRIES: a note's 100,000 links
	 * were built into objects in one piece of about 0.1 s on a call's first read. The numbers are
	 * its own copy, as a pause lets other notes' reads use the store's scratch.
	 */
	*referencePlaces(key: "links" | "embeds"): Steps<ReferencePlaces> {
		const kind = KIND[key];
		const numbers = yield* this.numbersSteps();
		let at = numbers[kind * 2] as number;
		if (at === 0) return { texts: [], offsets: new Int32Array(0), lines: new Int32Array(0) };
		const count = numbers[at++] as number;
		const places = { texts: new Array<string>(count), offsets: new Int32Array(count), lines: new Int32Array(count) };
		const positions = new Positions(numbers);
		let next = numbers[kind * 2 + 1] as number;
		for (let entry = 0; entry < count; entry++, at += 3) {
			places.texts[entry] = this.strings[next] as string;
			const flags = numbers[at + 2] as number;
			next += 1 + ((flags & DISPLAY_MASK) === DISPLAY_OWN ? 1 : 0) + (flags & (ORIGINAL_WIKILINK | ORIGINAL_EMBED) ? 0 : 1);
			const offset = positions.startOffset(at);
			places.offsets[entry] = offset;
			places.lines[entry] = positions.lineOf(offset);
			if (entry % METADATA_READ_STEP_ENTRIES === METADATA_READ_STEP_ENTRIES - 1) yield;
		}
		return places;
	}

	/**
	 * The entries of the links or embeds list, as `read` builds them, pausing every METADATA_READ_STEP_ENTRIES
	 * (built in one piece, a planted note's 100,000 took about 0.1 s). Not kept: a rename's plan reads them once.
	 */
	*referencesSteps(key: "links" | "embeds"): Steps<ReferenceCache[]> {
		const kind = KIND[key];
		const numbers = yield* this.numbersSteps();
		let at = numbers[kind * 2] as number;
		if (at === 0) return [];
		const count = numbers[at++] as number;
		const positions = new Positions(numbers);
		let next = numbers[kind * 2 + 1] as number;
		const strings = this.strings;
		const string = () => strings[next++] as string;
		const list = new Array<ReferenceCache>(count);
		for (let entry = 0; entry < count; entry++, at += 3) {
			const link = string();
			const flags = numbers[at + 2] as number;
			const original = flags & ORIGINAL_WIKILINK ? wikilink(link) : flags & ORIGINAL_EMBED ? embed(link) : string();
			const display = flags & DISPLAY_MASK;
			const displayText = display === DISPLAY_SAME_AS_LINK ? link : display === DISPLAY_UNDEFINED ? undefined : string();
			list[entry] = { link, original, displayText, position: positions.pos(at) };
			if (entry % METADATA_READ_STEP_ENTRIES === METADATA_READ_STEP_ENTRIES - 1) yield;
		}
		return list;
	}

	/**
	 * The numbers, line starts made whole again (positions stay steps: `Positions` reads them), in
	 * the store's scratch, which the next call overwrites (in an array of their own when `fresh`). A packed note is at most
	 * MAX_STARTUP_PARSE_BYTES long, so every number fits the 31 bits the shifts below handle.
	 */
	private numbers(fresh = false): Int32Array {
		const codes = this.codes;
		const numbers = fresh ? new Int32Array(codes.length) : this.store.scratch(codes.length);
		decodeCodes(codes, numbers, { code: 0, count: 0, value: 0, shift: 0 }, codes.length);
		addUpLineStarts(numbers, LINE_STARTS_AT + 1, LINE_STARTS_AT + (numbers[LINE_COUNT_AT] as number));
		return numbers;
	}

	/**
	 * `numbers` in an array of their own (a pause lets other notes' reads use the store's scratch),
	 * decoded in steps of METADATA_DECODE_STEP_CODES codes and line starts: a note of a million headings has
	 * about seven million codes, decoded in one piece before any reader of its entries could pause.
	 */
	private *numbersSteps(): Steps<Int32Array> {
		const codes = this.codes;
		const numbers = new Int32Array(codes.length);
		const at: DecodeCursor = { code: 0, count: 0, value: 0, shift: 0 };
		while (at.code < codes.length) {
			decodeCodes(codes, numbers, at, Math.min(codes.length, at.code + METADATA_DECODE_STEP_CODES));
			if (at.code < codes.length) yield;
		}
		const lastLine = LINE_STARTS_AT + (numbers[LINE_COUNT_AT] as number);
		for (let from = LINE_STARTS_AT + 1; from < lastLine; from += METADATA_DECODE_STEP_CODES) {
			addUpLineStarts(numbers, from, Math.min(lastLine, from + METADATA_DECODE_STEP_CODES));
			if (from + METADATA_DECODE_STEP_CODES < lastLine) yield;
		}
		return numbers;
	}

	private build(kind: number): unknown {
		const numbers = this.numbers();
		const positions = new Positions(numbers);
		let at = numbers[kind * 2] as number;
		let next = numbers[kind * 2 + 1] as number;
		const strings = this.strings;
		const string = () => strings[next++] as string;
		if (kind === KIND.frontmatterPosition) return positions.pos(at);
		const count = numbers[at++] as number;
		if (kind === KIND.blocks) {
			const blocks: Record<string, BlockCache> = {};
			for (let entry = 0; entry < count; entry++, at += 2) {
				const id = string();
				blocks[id] = { id, position: positions.pos(at) };
			}
			return blocks;
		}
		const list: unknown[] = new Array(count);
		for (let entry = 0; entry < count; entry++) {
			if (kind === KIND.links || kind === KIND.embeds) {
				const link = string();
				const flags = numbers[at + 2] as number;
				const original = flags & ORIGINAL_WIKILINK ? wikilink(link) : flags & ORIGINAL_EMBED ? embed(link) : string();
				const display = flags & DISPLAY_MASK;
				const displayText = display === DISPLAY_SAME_AS_LINK ? link : display === DISPLAY_UNDEFINED ? undefined : string();
				list[entry] = { link, original, displayText, position: positions.pos(at) } satisfies ReferenceCache;
				at += 3;
			} else if (kind === KIND.tags) {
				list[entry] = { tag: string(), position: positions.pos(at) } satisfies TagCache;
				at += 2;
			} else if (kind === KIND.headings) {
				list[entry] = { heading: string(), level: numbers[at + 2] as number, position: positions.pos(at) } satisfies HeadingCache;
				at += 3;
			} else if (kind === KIND.sections) {
				const type = this.store.sectionTypes[numbers[at + 2] as number] as string;
				const position = positions.pos(at);
				list[entry] = numbers[at + 3] === 1 ? ({ type, position, id: string() } satisfies SectionCache) : ({ type, position } satisfies SectionCache);
				at += 4;
			} else {
				const item: ListItemCache = { parent: unzigzag(numbers[at + 2] as number), position: positions.pos(at) };
				const flags = numbers[at + 3] as number;
				if (flags & ITEM_TASK) item.task = string();
				if (flags & ITEM_ID) item.id = string();
				list[entry] = item;
				at += 4;
			}
		}
		return list;
	}
}

/** Positions read in the order they were written: each start a step from the one before it in its list, each end a length. */
class Positions {
	private lastStart = 0;

	constructor(private readonly numbers: Int32Array) {}

	pos(at: number): Pos {
		const startOffset = this.startOffset(at);
		const start = this.loc(startOffset);
		return { start, end: this.loc(startOffset + (this.numbers[at + 1] as number), start.line) };
	}

	/** The start offset of the position at `at` (the next one's is a step from it). */
	startOffset(at: number): number {
		this.lastStart += unzigzag(this.numbers[at] as number);
		return this.lastStart;
	}

	/** The Loc of `offset`, which falls on line `fromLine` or a later one (as LineIndex gives it). */
	private loc(offset: number, fromLine = 0): Loc {
		const line = this.lineOf(offset, fromLine);
		return { line, col: offset - (this.numbers[LINE_STARTS_AT + line] as number), offset };
	}

	/** The line `offset` falls on, `fromLine` or a later one. */
	lineOf(offset: number, fromLine = 0): number {
		const numbers = this.numbers;
		let low = fromLine;
		let high = (numbers[LINE_COUNT_AT] as number) - 1;
		// Most entries (links, tags, headings, list items) end on the line they start on.
		if (low === high || (numbers[LINE_STARTS_AT + low + 1] as number) > offset) high = low;
		while (low < high) {
			const middle = (low + high + 1) >> 1;
			if ((numbers[LINE_STARTS_AT + middle] as number) <= offset) low = middle;
			else high = middle - 1;
		}
		return low;
	}
}

/** Integers as the non-negative numbers the codes hold: 0, −1, 1, −2 … → 0, 1, 2, 3 … */
/** Where decoding a note's codes is: the next code, how many numbers are out, and the number being read. */
interface DecodeCursor {
	code: number;
	count: number;
	value: number;
	shift: number;
}

/**
 * Decodes `codes` from `at` up to code `stop` into `numbers` (seven bits of a number a byte, as
 * LEB128), moving `at`. A plain function, not a generator's own loop: V8 runs a loop inside a
 * generator several times slower.
 */
function decodeCodes(codes: string, numbers: Int32Array, at: DecodeCursor, stop: number): void {
	let { count, value, shift } = at;
	for (let index = at.code; index < stop; index++) {
		const byte = codes.charCodeAt(index);
		value |= (byte & 0x7f) << shift;
		if (byte & 0x80) {
			shift += 7;
			continue;
		}
		numbers[count++] = value;
		value = 0;
		shift = 0;
	}
	at.code = stop;
	at.count = count;
	at.value = value;
	at.shift = shift;
}

/** The number at `index` of a note's directory (below LINE_COUNT_AT), decoded from the start of `codes` and no further. */
function directoryNumber(codes: string, index: number): number {
	let count = 0;
	let value = 0;
	let shift = 0;
	for (let code = 0; code < codes.length; code++) {
		const byte = codes.charCodeAt(code);
		value |= (byte & 0x7f) << shift;
		if (byte & 0x80) {
			shift += 7;
			continue;
		}
		if (count++ === index) return value;
		value = 0;
		shift = 0;
	}
	return 0;
}

/** What a packed note without tags reads as: one reader for all of them. */
const NO_TAG_TEXTS: TagTextReader = { count: 0, text: () => "" };

/** Makes the line starts `numbers[from, to)`, kept as steps from the one before, whole (the one before `from` is whole). */
function addUpLineStarts(numbers: Int32Array, from: number, to: number): void {
	for (let line = from; line < to; line++) numbers[line] = (numbers[line] as number) + (numbers[line - 1] as number);
}

function zigzag(value: number): number {
	return value < 0 ? -value * 2 - 1 : value * 2;
}

function unzigzag(code: number): number {
	return code % 2 === 1 ? -(code + 1) / 2 : code / 2;
}

/** The keys each entry the parser makes has, in order (made once: an array written in a call is made at every call, for every entry). */
const POSITION_KEYS = ["start", "end"];
const LOC_KEYS = ["line", "col", "offset"];
const TAG_KEYS = ["tag", "position"];
const HEADING_KEYS = ["heading", "level", "position"];
const SECTION_KEYS = ["type", "position", "id"];
const ID_OPTIONAL = ["id"];
const LIST_ITEM_KEYS = ["parent", "position", "task", "id"];
const LIST_ITEM_OPTIONAL = ["task", "id"];
const BLOCK_KEYS = ["id", "position"];
const REFERENCE_KEYS = ["link", "original", "displayText", "position"];
const NONE: readonly string[] = [];

/** True when `entry`'s own keys are exactly `keys`, in that order (with `optional` ones allowed where they stand). */
function hasKeys(entry: object, keys: readonly string[], optional: readonly string[] = NONE): boolean {
	let index = 0;
	for (const key in entry) {
		while (index < keys.length && keys[index] !== key && optional.includes(keys[index] as string)) index++;
		if (keys[index] !== key) return false;
		index++;
	}
	while (index < keys.length && optional.includes(keys[index] as string)) index++;
	return index === keys.length;
}

/** Numbers and strings as they are written, with the note's line starts to check each position against. */
class PackWriter {
	readonly numbers: number[] = new Array<number>(LINE_STARTS_AT).fill(0);
	readonly strings: string[] = [];
	/** The list items written (`packListItem`), and whether any is a task. */
	readonly items: ListItemsShape = { count: 0, tasks: false };

	/** The start of the list's last position, from which the next one's is a step. */
	private lastStart = 0;

	constructor(
		readonly store: PackedMetadataStore,
		private readonly starts: Uint16Array | Int32Array,
	) {
		this.numbers[LINE_COUNT_AT] = starts.length;
	}

	/** Writes the line starts, each a step from the one before, pausing every METADATA_PACK_STEP_ENTRIES (a note of 250,000 short lines wrote them in one piece). */
	*lineStarts(): Steps<void> {
		const starts = this.starts;
		for (let line = 0; line < starts.length; line++) {
			if (line % METADATA_PACK_STEP_ENTRIES === METADATA_PACK_STEP_ENTRIES - 1) yield;
			this.numbers.push(line === 0 ? (starts[0] as number) : (starts[line] as number) - (starts[line - 1] as number));
		}
	}

	begin(kind: number): void {
		this.numbers[kind * 2] = this.numbers.length;
		this.numbers[kind * 2 + 1] = this.strings.length;
		this.lastStart = 0;
	}

	/** Writes a position's two offsets; false when the line starts do not give back exactly the position the parser wrote. */
	position(position: unknown): boolean {
		if (typeof position !== "object" || position === null || !hasKeys(position, POSITION_KEYS)) return false;
		const { start, end } = position as Pos;
		if (!this.isLoc(start) || !this.isLoc(end) || end.offset < start.offset) return false;
		this.offsets(start.offset, end.offset);
		return true;
	}

	/** Writes a position by its two offsets, whose lines and columns are those the line starts give (as the parser's are). */
	offsets(start: number, end: number): void {
		this.numbers.push(zigzag(start - this.lastStart), end - start);
		this.lastStart = start;
	}

	private isLoc(loc: unknown): loc is Loc {
		if (typeof loc !== "object" || loc === null || !hasKeys(loc, LOC_KEYS)) return false;
		const { line, col, offset } = loc as Loc;
		if (!Number.isInteger(offset) || offset < 0 || !Number.isInteger(line) || line < 0 || line >= this.starts.length) return false;
		const lineStart = this.starts[line] as number;
		const nextStart = this.starts[line + 1];
		// The line LineIndex gives: the last whose start is not past the offset (line 0 for a byte-order mark's).
		return col === offset - lineStart && (line === 0 || offset >= lineStart) && (nextStart === undefined || offset < nextStart);
	}

	/** The numbers as a string of one byte a character, seven bits of a number a byte (LEB128). */
	*codes(): Steps<string> {
		const numbers = this.numbers;
		// Most numbers take one byte; room grows by doubling (a plain array of bytes and the pieces cut from it made 20 MB of garbage for a 1 MB note).
		let bytes = new Uint8Array(numbers.length + 16);
		let length = 0;
		for (let index = 0; index < numbers.length; index++) {
			if (index % METADATA_PACK_STEP_ENTRIES === METADATA_PACK_STEP_ENTRIES - 1) yield;
			if (bytes.length - length < MAX_CODE_BYTES) {
				const grown = new Uint8Array(bytes.length * 2);
				grown.set(bytes);
				bytes = grown;
			}
			let rest = numbers[index] as number;
			while (rest >= 0x80) {
				bytes[length++] = (rest % 0x80) | 0x80;
				rest = Math.floor(rest / 0x80);
			}
			bytes[length++] = rest;
		}
		const chunks: string[] = [];
		for (let from = 0; from < length; from += CODES_PER_CHUNK)
			chunks.push(String.fromCharCode.apply(null, bytes.subarray(from, Math.min(length, from + CODES_PER_CHUNK)) as unknown as number[]));
		return chunks.join("");
	}
}

const isString = (value: unknown): value is string => typeof value === "string";

/** Each packer writes one list (its count, then each entry); false when an entry is not the shape the parser makes. */
const PACKERS: Record<PackedKey, (writer: PackWriter, value: unknown) => Steps<boolean>> = {
	links: packReferences,
	embeds: packReferences,
	tags: (writer, value) =>
		packList(writer, value, 0, (entry: TagCache) => {
			if (!hasKeys(entry, TAG_KEYS) || !isString(entry.tag) || !writer.position(entry.position)) return false;
			writer.strings.push(writer.store.pool.intern(entry.tag));
			return true;
		}),
	headings: (writer, value) =>
		packList(writer, value, 1, (entry: HeadingCache) => {
			if (!hasKeys(entry, HEADING_KEYS) || !isString(entry.heading) || !isCount(entry.level) || !writer.position(entry.position)) return false;
			writer.numbers.push(entry.level);
			writer.strings.push(entry.heading);
			return true;
		}),
	sections: (writer, value) =>
		packList(writer, value, 2, (entry: SectionCache) => {
			if (!hasKeys(entry, SECTION_KEYS, ID_OPTIONAL) || !isString(entry.type) || !writer.position(entry.position)) return false;
			const type = writer.store.sectionTypeCode(entry.type);
			if (type >= MAX_SECTION_TYPES) return false;
			const hasId = entry.id !== undefined;
			if (hasId && !isString(entry.id)) return false;
			writer.numbers.push(type, hasId ? 1 : 0);
			if (hasId) writer.strings.push(entry.id as string);
			return true;
		}),
	listItems: (writer, value) =>
		packList(writer, value, 2, (entry: ListItemCache) => {
			if (!hasKeys(entry, LIST_ITEM_KEYS, LIST_ITEM_OPTIONAL) || !Number.isInteger(entry.parent) || !writer.position(entry.position)) return false;
			const hasTask = entry.task !== undefined;
			const hasId = entry.id !== undefined;
			if ((hasTask && !isString(entry.task)) || (hasId && !isString(entry.id))) return false;
			packListItem(writer, entry.parent, entry.task, entry.id);
			return true;
		}),
	*blocks(writer, value) {
		if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
		const entries = Object.entries(value as Record<string, BlockCache>);
		writer.numbers.push(entries.length);
		for (const [index, [id, block]] of entries.entries()) {
			if (index % METADATA_PACK_STEP_ENTRIES === METADATA_PACK_STEP_ENTRIES - 1) yield;
			if (typeof block !== "object" || block === null || !hasKeys(block, BLOCK_KEYS) || block.id !== id || !writer.position(block.position)) return false;
			writer.strings.push(id);
		}
		return true;
	},
	frontmatterPosition: (writer, value) => onePosition(writer, value),
};

/** A single position: nothing to pause between, so it is done before the first step. */
function onePosition(writer: PackWriter, value: unknown): Steps<boolean> {
	const written = writer.position(value);
	return (function* (): Steps<boolean> {
		yield* [];
		return written;
	})();
}

/** A list item's numbers and strings after its position. */
function packListItem(writer: PackWriter, parent: number, task: string | undefined, id: string | undefined): void {
	writer.items.count++;
	if (task !== undefined) writer.items.tasks = true;
	writer.numbers.push(zigzag(parent), (task !== undefined ? ITEM_TASK : 0) | (id !== undefined ? ITEM_ID : 0));
	if (task !== undefined) writer.strings.push(writer.store.pool.intern(task));
	if (id !== undefined) writer.strings.push(id);
}

/** The parser's list item records, written as `listItems` packs its objects, with no object made per item. */
function* packListItemRecords(writer: PackWriter, records: ListItemRecords): Steps<boolean> {
	const { starts, ends, parents, tasks, ids } = records;
	writer.numbers.push(records.length);
	for (let index = 0; index < records.length; index++) {
		if (index % METADATA_PACK_STEP_ENTRIES === METADATA_PACK_STEP_ENTRIES - 1) yield;
		const task = tasks[index] as string;
		writer.offsets(starts[index] as number, ends[index] as number);
		packListItem(writer, parents[index] as number, task === "" ? undefined : task, ids[index]);
	}
	return true;
}

/** Writes the parser's block records as the blocks packer writes Obsidian's object (its count, then each block's position and id). */
function* packBlockRecords(writer: PackWriter, records: BlockRecords): Steps<boolean> {
	const { ids, positions } = records;
	writer.numbers.push(records.length);
	for (let index = 0; index < records.length; index++) {
		if (index % METADATA_PACK_STEP_ENTRIES === METADATA_PACK_STEP_ENTRIES - 1) yield;
		if (!writer.position(positions[index])) return false;
		writer.strings.push(ids[index] as string);
	}
	return true;
}

function isCount(value: unknown): value is number {
	return Number.isInteger(value) && (value as number) >= 0;
}

/** Writes a list: its count, then each entry (its position's two offsets, `extra` numbers, its strings). */
function* packList<T>(writer: PackWriter, value: unknown, extra: number, pack: (entry: T) => boolean): Steps<boolean> {
	if (!Array.isArray(value)) return false;
	writer.numbers.push(value.length);
	// By index: an entries() iterator makes a pair for every entry.
	for (let index = 0; index < value.length; index++) {
		if (index % METADATA_PACK_STEP_ENTRIES === METADATA_PACK_STEP_ENTRIES - 1) yield;
		const entry: unknown = value[index];
		if (typeof entry !== "object" || entry === null) return false;
		const before = writer.numbers.length;
		if (!pack(entry as T) || writer.numbers.length !== before + 2 + extra) return false;
	}
	return true;
}

function packReferences(writer: PackWriter, value: unknown): Steps<boolean> {
	return packList(writer, value, 1, (entry: ReferenceCache) => {
		if (!hasKeys(entry, REFERENCE_KEYS) || !isString(entry.link) || !isString(entry.original)) return false;
		if (entry.displayText !== undefined && !isString(entry.displayText)) return false;
		if (!writer.position(entry.position)) return false;
		const link = writer.store.pool.intern(entry.link);
		const display = entry.displayText === entry.link ? DISPLAY_SAME_AS_LINK : entry.displayText === undefined ? DISPLAY_UNDEFINED : DISPLAY_OWN;
		const original = entry.original === wikilink(entry.link) ? ORIGINAL_WIKILINK : entry.original === embed(entry.link) ? ORIGINAL_EMBED : 0;
		writer.numbers.push(display | original);
		writer.strings.push(link);
		if (original === 0) writer.strings.push(writer.store.pool.intern(entry.original));
		if (display === DISPLAY_OWN) writer.strings.push(entry.displayText as string);
		return true;
	});
}

/** Where a packed note's metadata object keeps its packed entries: not enumerable, so no copy or JSON sees it. */
const PACKED = Symbol("packed entries");
interface PackedCarrier {
	[PACKED]: PackedNote;
}

/** One getter and one setter per packed key, shared by every note. Setting a list replaces the getter with the value, as on a plain object. */
const ACCESSORS = Object.fromEntries(
	PACKED_KEYS.map((key) => [
		key,
		{
			get(this: PackedCarrier): unknown {
				return this[PACKED].read(key);
			},
			set(this: object, value: unknown): void {
				Object.defineProperty(this, key, { value, writable: true, enumerable: true, configurable: true });
			},
			enumerable: true,
			configurable: true,
		},
	]),
) as Record<PackedKey, PropertyDescriptor>;

const isPackedKey = (key: string): key is PackedKey => key in KIND;

/**
 * The compact form of `cache`, the metadata parsed from `text`: the same keys in the same order,
 * each entry list read through a getter that builds it from the packed form (tags and link texts
 * taken from the store's pool). A note with an entry the parser would not make (a position the
 * line starts do not give back, an unexpected field) is returned as it is, so a reader never
 * sees a difference.
 */
export function compactMetadata(cache: CachedMetadata, text: string, store: PackedMetadataStore = new PackedMetadataStore()): CachedMetadata {
	return runSteps(compactMetadataSteps(cache, text, store));
}

/**
 * `compactMetadata` in steps that may pause between runs of entries (see `runStepsInSlices`). With
 * `listItems` and `blocks`, the note's list items and block ids come as the parser's records
 * (`metadataRecordsSteps`: the metadata's own `listItems` and `blocks` are placeholders), packed
 * without building their objects, which are built only for a note that stays as parsed. Blocks no
 * reader has asked for (`exposeBlocks`) are packed from their records too.
 */
export function* compactMetadataSteps(
	cache: CachedMetadata,
	text: string,
	store: PackedMetadataStore = new PackedMetadataStore(),
	listItems?: ListItemRecords,
	blocks: BlockRecords | undefined = unreadBlockRecords(cache),
): Steps<CachedMetadata> {
	const asParsed = function* (): Steps<CachedMetadata> {
		if (listItems && listItems.length > 0) cache.listItems = yield* listItems.toCaches();
		if (blocks && blocks.length > 0 && unreadBlockRecords(cache) !== blocks) exposeBlocks(cache, blocks);
		return cache;
	};
	const keys = Object.keys(cache);
	if (!keys.some(isPackedKey)) return yield* asParsed();
	const writer = new PackWriter(store, yield* lineStartsOf(text));
	yield* writer.lineStarts();
	for (const key of keys) {
		if (!isPackedKey(key)) continue;
		writer.begin(KIND[key]);
		const packed =
			key === "listItems" && listItems
				? yield* packListItemRecords(writer, listItems)
				: key === "blocks" && blocks
					? yield* packBlockRecords(writer, blocks)
					: yield* PACKERS[key](writer, (cache as Record<string, unknown>)[key]);
		if (!packed) return yield* asParsed();
	}
	const codes = yield* writer.codes();
	const compact: Record<string, unknown> = {};
	// A copy of exactly their number: the array grew by pushes, with room to spare (about 30% of it).
	Object.defineProperty(compact, PACKED, { value: new PackedNote(store, codes, writer.strings.slice(), writer.items) });
	for (const key of keys) {
		if (isPackedKey(key)) Object.defineProperty(compact, key, ACCESSORS[key]);
		else compact[key] = yield* fittedArraysSteps((cache as Record<string, unknown>)[key], { looked: 0 });
	}
	return compact;
}

/**
 * `value` with every array in it (at any depth) copied to exactly its length; objects are kept, their
 * values replaced. The YAML parser grows a property's list by pushes, so a list of two tags held room
 * for 17 (a note's frontmatter and its `frontmatterLinks` are kept as parsed): 0.6 MiB of the
 * realistic 10,000-note vault's cache. Pauses every METADATA_PACK_STEP_ENTRIES entries looked at.
 */
function* fittedArraysSteps(value: unknown, count: { looked: number }): Steps<unknown> {
	if (typeof value !== "object" || value === null) return value;
	const holder = (Array.isArray(value) ? value.slice() : value) as Record<string, unknown>;
	for (const key of Object.keys(holder)) {
		holder[key] = yield* fittedArraysSteps(holder[key], count);
		if (++count.looked % METADATA_PACK_STEP_ENTRIES === 0) yield;
	}
	return holder;
}

/** Each entry of a links or embeds list, by its place in the list: its link text, start offset and line. */
export interface ReferencePlaces {
	texts: string[];
	offsets: Int32Array;
	lines: Int32Array;
}

/**
 * A packed note's links and embeds as `ReferencePlaces`, read in steps without building their
 * entries; null for a note kept as parsed (its lists are plain arrays already).
 */
export function* packedReferencePlaces(cache: CachedMetadata): Steps<{ links: ReferencePlaces; embeds: ReferencePlaces } | null> {
	const packed = (cache as Partial<PackedCarrier>)[PACKED];
	// A list set on the object since (as on a plain one) is read as set.
	const asPacked = (key: "links" | "embeds") => {
		const own = Object.getOwnPropertyDescriptor(cache, key);
		return own === undefined || own.get === ACCESSORS[key].get;
	};
	if (!packed || !asPacked("links") || !asPacked("embeds")) return null;
	return { links: yield* packed.referencePlaces("links"), embeds: yield* packed.referencePlaces("embeds") };
}

/**
 * A packed note's links and embeds, their entries built in steps and not kept (`cache.links` builds
 * and keeps them in one piece); null for a note kept as parsed, or whose lists were set since.
 */
export function* packedReferencesSteps(cache: CachedMetadata): Steps<{ links: ReferenceCache[]; embeds: ReferenceCache[] } | null> {
	const packed = (cache as Partial<PackedCarrier>)[PACKED];
	const asPacked = (key: "links" | "embeds") => {
		const own = Object.getOwnPropertyDescriptor(cache, key);
		return own === undefined || own.get === ACCESSORS[key].get;
	};
	if (!packed || !asPacked("links") || !asPacked("embeds")) return null;
	return { links: yield* packed.referencesSteps("links"), embeds: yield* packed.referencesSteps("embeds") };
}

/**
 * The texts of a note's body tags, in order: read from the packed form without building their
 * entries (a one-line note of 330,000 tags built 1.6 million objects in one piece of 0.7 s when
 * the search index, list_tags or read_note read its tags).
 */
export function tagTextsOf(cache: CachedMetadata): string[] {
	const packed = (cache as Partial<PackedCarrier>)[PACKED];
	const own = Object.getOwnPropertyDescriptor(cache, "tags");
	// A list set on the object since (as on a plain one) is read as set.
	if (packed && (own === undefined || own.get === ACCESSORS.tags.get)) return packed.tagTexts();
	return (cache.tags ?? []).map((entry) => entry.tag);
}

/** A note's tags' texts, in order, read one at a time (see tagTextReaderOf). */
export interface TagTextReader {
	readonly count: number;
	text(index: number): string;
}

/**
 * A note's tags' texts without a second list of them: a packed note's from its strings, a plain
 * note's from its entries (a huge note is kept as parsed, and mapping its 800,000 entries into a
 * list of texts was one piece).
 */
export function tagTextReaderOf(cache: CachedMetadata): TagTextReader {
	const packed = (cache as Partial<PackedCarrier>)[PACKED];
	const own = Object.getOwnPropertyDescriptor(cache, "tags");
	if (packed && (own === undefined || own.get === ACCESSORS.tags.get)) {
		const texts = packed.tagTexts();
		return { count: texts.length, text: (index) => texts[index] as string };
	}
	const tags = cache.tags ?? [];
	return { count: tags.length, text: (index) => (tags[index] as TagCache).tag };
}

/** True when a note's body holds no tag (`tagTextReaderOf` would read none), known without reading its tags. */
export function hasNoBodyTags(cache: CachedMetadata): boolean {
	const packed = (cache as Partial<PackedCarrier>)[PACKED];
	const own = Object.getOwnPropertyDescriptor(cache, "tags");
	if (packed && (own === undefined || own.get === ACCESSORS.tags.get)) return packed.hasNoTags();
	return (cache.tags ?? []).length === 0;
}

/** `tagTextReaderOf` with a packed note's numbers decoded in steps. */
export function* tagTextReaderInSteps(cache: CachedMetadata): Steps<TagTextReader> {
	const packed = (cache as Partial<PackedCarrier>)[PACKED];
	const own = Object.getOwnPropertyDescriptor(cache, "tags");
	if (packed && (own === undefined || own.get === ACCESSORS.tags.get)) return yield* packed.tagTextReaderSteps();
	return tagTextReaderOf(cache);
}

/** A note's headings' texts and levels, in order, in two lists. */
export interface HeadingTexts {
	texts: string[];
	levels: number[];
}

/**
 * The texts and levels of a note's headings: read from the packed form without building entries
 * (the search index reads them on each change of a note, and a note's 38,000 headings were built in
 * one piece of about 50 ms).
 */
export function headingTextsOf(cache: CachedMetadata): HeadingTexts {
	const packed = (cache as Partial<PackedCarrier>)[PACKED];
	const own = Object.getOwnPropertyDescriptor(cache, "headings");
	// A list set on the object since (as on a plain one) is read as set.
	if (packed && (own === undefined || own.get === ACCESSORS.headings.get)) return packed.headingTexts();
	const headings = cache.headings ?? [];
	return { texts: headings.map((entry) => entry.heading), levels: headings.map((entry) => entry.level) };
}

function noHeadingPlaces(): HeadingPlaces {
	return { texts: [], levels: new Uint8Array(0), offsets: new Int32Array(0), lines: new Int32Array(0) };
}

/**
 * A note's headings as `HeadingPlaces`, in steps of METADATA_READ_STEP_ENTRIES: a packed note's read
 * without building their entries (which `cache.headings` does in one piece), a plain one's copied.
 */
export function* headingPlacesInSteps(cache: CachedMetadata | null): Steps<HeadingPlaces> {
	if (!cache) return noHeadingPlaces();
	const places = yield* keptHeadingPlacesInSteps(cache);
	const leftOutEnds = headingsLeftOutOf(cache);
	return leftOutEnds === undefined ? places : { ...places, leftOutEnds };
}

/** The headings `cache` holds as `HeadingPlaces`, in steps. */
function* keptHeadingPlacesInSteps(cache: CachedMetadata): Steps<HeadingPlaces> {
	const packed = (cache as Partial<PackedCarrier>)[PACKED];
	const own = Object.getOwnPropertyDescriptor(cache, "headings");
	// A list set on the object since (as on a plain one) is read as set.
	if (packed && (own === undefined || own.get === ACCESSORS.headings.get)) return yield* packed.headingPlaces();
	const headings = cache.headings ?? [];
	const places: HeadingPlaces = {
		texts: new Array<string>(headings.length),
		levels: new Uint8Array(headings.length),
		offsets: new Int32Array(headings.length),
		lines: new Int32Array(headings.length),
	};
	for (let entry = 0; entry < headings.length; entry++) {
		const heading = headings[entry] as HeadingCache;
		places.texts[entry] = heading.heading;
		places.levels[entry] = heading.level;
		places.offsets[entry] = heading.position.start.offset;
		places.lines[entry] = heading.position.start.line;
		if (entry % METADATA_READ_STEP_ENTRIES === METADATA_READ_STEP_ENTRIES - 1) yield;
	}
	return places;
}

/**
 * The block of a note's metadata whose id, in lower case, is `id`, as a part of the note, in steps:
 * a packed note's blocks are looked through without being built, others' a few thousand a step.
 */
export function* blockPartInSteps(cache: CachedMetadata | null, id: string): Steps<NotePart | null> {
	if (!cache) return null;
	const packed = (cache as Partial<PackedCarrier>)[PACKED];
	const own = Object.getOwnPropertyDescriptor(cache, "blocks");
	// A record set on the object since (as on a plain one) is read as set.
	if (packed && (own === undefined || own.get === ACCESSORS.blocks.get)) return yield* packed.blockPart(id);
	const partOf = (block: BlockCache): NotePart => ({ name: `^${block.id}`, start: block.position.start.offset, end: block.position.end.offset });
	const records = unreadBlockRecords(cache);
	if (records) return yield* recordsBlockPart(records, id, partOf);
	const blocks = cache.blocks ?? {};
	// Keyed as written: found at once unless the id differs in case (listing a record of 100,000 keys took 0.2 s).
	const keyed = Object.prototype.hasOwnProperty.call(blocks, id) ? blocks[id] : undefined;
	if (keyed && keyed.id.toLowerCase() === id) return partOf(keyed);
	let looked = 0;
	for (const block of Object.values(blocks)) {
		if (block.id.toLowerCase() === id) return partOf(block);
		if (++looked % METADATA_READ_STEP_ENTRIES === 0) yield;
	}
	return null;
}

/** `blockPartInSteps` on a parsed note's block records, looked through without building its `blocks` (a note of 400,000 took 0.1–0.7 s to build). */
function* recordsBlockPart(records: BlockRecords, id: string, partOf: (block: BlockCache) => NotePart): Steps<NotePart | null> {
	const { ids, positions } = records;
	const keyed = records.placeOf(id);
	if (keyed !== undefined) return partOf({ id, position: positions[keyed] as Pos });
	for (let place = 0; place < ids.length; place++) {
		const blockId = ids[place] as string;
		if (blockId.toLowerCase() === id) return partOf({ id: blockId, position: positions[place] as Pos });
		if (place % METADATA_READ_STEP_ENTRIES === METADATA_READ_STEP_ENTRIES - 1) yield;
	}
	return null;
}

/** A note's headings' texts, in order: headingTextsOf's texts without making the list of levels too. */
export function headingTextListOf(cache: CachedMetadata): string[] {
	return runSteps(headingTextChunksInSteps(cache)).flat();
}

/**
 * `headingTextListOf` in chunks of at most METADATA_READ_STEP_ENTRIES, a chunk a step: a note of a million
 * headings had their texts listed in one piece of 25–60 ms, most of it making one array of a
 * million (kept as parsed or packed alike).
 */
export function* headingTextChunksInSteps(cache: CachedMetadata): Steps<string[][]> {
	const packed = (cache as Partial<PackedCarrier>)[PACKED];
	const own = Object.getOwnPropertyDescriptor(cache, "headings");
	if (packed && (own === undefined || own.get === ACCESSORS.headings.get)) return yield* packed.headingTextChunks();
	const headings = cache.headings ?? [];
	const chunks: string[][] = [];
	for (let from = 0; from < headings.length; from += METADATA_READ_STEP_ENTRIES) {
		chunks.push(headings.slice(from, from + METADATA_READ_STEP_ENTRIES).map((entry) => entry.heading));
		if (from + METADATA_READ_STEP_ENTRIES < headings.length) yield;
	}
	return chunks;
}

/**
 * The text of a note's first heading when it is level 1 and the note's only level-1 heading, else
 * null (what search shows as a title), looking at levels only: the search index asked for a changed
 * note's title made the texts and levels of all its headings, for a million headings one piece of
 * about 0.3 s.
 */
export function soleLevelOneHeadingOf(cache: CachedMetadata): string | null {
	return runSteps(soleLevelOneHeadingInSteps(cache));
}

/** `soleLevelOneHeadingOf` in steps: a packed note's numbers decoded in steps, a plain note's levels looked at METADATA_READ_STEP_ENTRIES a step. */
export function* soleLevelOneHeadingInSteps(cache: CachedMetadata): Steps<string | null> {
	const packed = (cache as Partial<PackedCarrier>)[PACKED];
	const own = Object.getOwnPropertyDescriptor(cache, "headings");
	if (packed && (own === undefined || own.get === ACCESSORS.headings.get)) return yield* packed.soleLevelOneHeadingSteps();
	const headings = cache.headings ?? [];
	if (headings[0]?.level !== 1) return null;
	for (let index = 1; index < headings.length; index++) {
		if (headings[index]?.level === 1) return null;
		if (index % METADATA_READ_STEP_ENTRIES === 0) yield;
	}
	return headings[0].heading;
}

/** How many list items a note has, and whether any of them is a task. */
export interface ListItemsShape {
	count: number;
	tasks: boolean;
}

/**
 * A note's `ListItemsShape`, read from the packed form without building its list items: asking
 * whether a note of 250,000 nested list items held a task built them all, in one piece of about
 * 0.25 s, on each list_tasks call.
 */
export function listItemsShapeOf(cache: CachedMetadata): ListItemsShape {
	const packed = (cache as Partial<PackedCarrier>)[PACKED];
	const own = Object.getOwnPropertyDescriptor(cache, "listItems");
	// A list set on the object since (as on a plain one) is read as set.
	if (packed && (own === undefined || own.get === ACCESSORS.listItems.get)) return packed.listItemsShape();
	const items = cache.listItems ?? [];
	return { count: items.length, tasks: items.some((item) => item.task !== undefined) };
}

/** A task among a note's list items: the line it starts on and its status character. */
export interface TaskItem {
	line: number;
	status: string;
}

/**
 * A note's `TaskItem`s, read from the packed form without building its list items (complete_task
 * on a note of 250,000 nested list items built them all in one piece of about 0.25 s).
 */
export function taskItemsOf(cache: CachedMetadata): TaskItem[] {
	const read = taskItemReaderOf(cache);
	const tasks: TaskItem[] = [];
	for (let task = read(); task !== undefined; task = read()) tasks.push(task);
	return tasks;
}

/** A note's `TaskItem`s one a call, in order, then undefined: `taskItemsOf` for a caller that pauses between them. */
export function taskItemReaderOf(cache: CachedMetadata): () => TaskItem | undefined {
	const packed = (cache as Partial<PackedCarrier>)[PACKED];
	const own = Object.getOwnPropertyDescriptor(cache, "listItems");
	if (packed && (own === undefined || own.get === ACCESSORS.listItems.get)) return packed.taskItemReader();
	const items = cache.listItems ?? [];
	let index = 0;
	return () => {
		for (; index < items.length; index++) {
			const item = items[index] as ListItemCache;
			if (item.task !== undefined) {
				index++;
				return { line: item.position.start.line, status: item.task };
			}
		}
		return undefined;
	};
}

/** The link texts of a note's links and embeds, in that order: read from the packed form without building entries. */
export function linkTextsOf(cache: CachedMetadata): string[] {
	const packed = (cache as Partial<PackedCarrier>)[PACKED];
	if (packed) return packed.linkTexts();
	return [...(cache.links ?? []), ...(cache.embeds ?? [])].map((entry) => entry.link);
}

/**
 * `linkTextsOf` in steps of METADATA_READ_STEP_ENTRIES, for a caller that pauses between them: a note
 * just parsed is not packed yet, and a planted note's 650,000 link texts were copied out of its
 * entries in one piece of 25 ms as it was first resolved.
 */
export function* linkTextsInSteps(cache: CachedMetadata): Steps<string[]> {
	const packed = (cache as Partial<PackedCarrier>)[PACKED];
	if (packed) return yield* packed.linkTextsSteps(true);
	const texts: string[] = [];
	for (const entries of [cache.links ?? [], cache.embeds ?? []])
		for (let at = 0; at < entries.length; at++) {
			texts.push((entries[at] as { link: string }).link);
			if (at % METADATA_READ_STEP_ENTRIES === METADATA_READ_STEP_ENTRIES - 1) yield;
		}
	return texts;
}
