import { DISPLAY_TEXT_STEP_CHARS, INLINE_PASS_STEP_CHARS, INLINE_SCAN_PAUSE_STEPS, DECODE_CUT_SEARCH_CHARS, ZEROED_INTS_CHUNK } from "../config/limits";
import { runSteps, type Steps } from "./steps";
import { tagBodyLength } from "./tags";

/**
 * Obsidian's inline syntax inside one block of Markdown: wikilinks, embeds, internal Markdown
 * links and tags. Pure. Code spans, escapes and `<!-- HTML comments -->` hide what is inside them,
 * as in Obsidian; `%% comments %%` do not (Obsidian's own metadata cache reports tags and links
 * inside them: see the comments_markdown_style capture).
 */

/** A link found in text, with offsets into that text. */
export interface InlineLink {
	link: string;
	displayText: string;
	original: string;
	start: number;
	end: number;
}

interface InlineTag {
	tag: string;
	start: number;
	end: number;
}

export interface InlineFindings {
	links: InlineLink[];
	embeds: InlineLink[];
	tags: InlineTag[];
}

/**
 * The tag whose `#` is at `index`, or null. Tags next to backslash escapes follow
 * Obsidian's rule as we settle it:
 *
 * - CommonMark 0.31 §2.4 (Backslash escapes): a backslash before an ASCII punctuation character
 *   makes that character literal; before any other character (a space, a letter, a line break —
 *   the last is a hard line break, §6.7) the backslash is itself a literal character.
 * - So `\#word` is no tag: the `#` is escaped text (Obsidian's help, "Escaping Markdown syntax",
 *   names `\#` for exactly this; users report Obsidian ignoring `\#not-a-tag`, e.g.
 *   taskgenius/taskgenius-plugin#438, jackyzha0/quartz#593 and #1542).
 * - A tag starts at a `#` at the start of the block's text or after whitespace. In all 71 captures
 *   every one of the 150 tags follows a space or a line break and no `#` after another character
 *   is a tag. `\\#word` is an escaped backslash and then `#word`: the `#` follows `\`, not
 *   whitespace, so it is no tag (an unescaped `\` before the `#` would escape it: no tag either).
 *   `a\ #word` is a literal backslash, a space, and the tag `#word`.
 * - A tag runs over the source characters, not the escape-processed text: the backslash is ASCII
 *   punctuation, so it ends the tag. `#tag\.`, `#tag\,x`, `#tag\#x`, `#tag\` at a line's end, and
 *   also `#tag\_x`, `#tag\-x`, `#tag\/x` (whose escaped character could stand in a tag) all give
 *   `#tag`, with a position covering `#tag` only. Obsidian reports every tag as the source text at
 *   its position (all captures), and Dataview's tag grammar likewise excludes `\` from tags.
 *   What follows the backslash is then read as an escape, so in `#tag\#x` the `#x` is no tag.
 *
 * - One capture does hold escapes: in `\[\[#Escaped Links\]\]` Obsidian finds the tag `#Escaped`
 *   (obsidian-tasks' internal_heading_links). So a `#` right after an escaped punctuation
 *   character starts a tag too, as after whitespace: the escape ends the text before it. An escaped
 *   backslash (`\\#word`) is kept as above, no tag: it prints the very `\` that would escape the `#`.
 *
 * Apart from that capture these are derived, not observed: the cases in test/golden/cases/ pin them down.
 */
function tagAt(text: string, index: number): InlineTag | null {
	if (index > 0 && !/\s/u.test(text[index - 1] ?? "") && !followsEscape(text, index)) return null;
	const length = tagBodyLength(text, index + 1);
	return length > 0 ? { tag: text.slice(index, index + 1 + length), start: index, end: index + 1 + length } : null;
}

/**
 * True when the character before `index` is ASCII punctuation other than a backslash, escaped by an
 * unescaped backslash (an odd run of backslashes before it).
 */
function followsEscape(text: string, index: number): boolean {
	const escaped = text.charCodeAt(index - 1);
	if (index < 2 || escaped === 0x5c || !isAsciiPunctuation(escaped)) return false;
	let backslashes = 0;
	for (let at = index - 2; at >= 0 && text[at] === "\\"; at--) backslashes++;
	return backslashes % 2 === 1;
}

const EXTERNAL_URL = /^(?:[a-z][a-z0-9+.-]*:|\/\/)/i;
const AUTOLINK = /^<[a-z][a-z0-9+.-]*:[^\s<>]*>/i;

/**
 * Finds links, embeds and tags in a block's text (lines joined by `\n`). Linear in the text's
 * length whatever it holds: every search forward for a closer (`]]`, a backtick run,
 * a bracket, a parenthesis) is either remembered or answered from one pass over the text, so a
 * thousand unclosed openers cost one scan, not a thousand.
 */
export function scanInline(text: string): InlineFindings {
	return runSteps(scanInlineSteps(text));
}

/**
 * scanInline as pausable steps, for a block the size of a whole note. Each pass over the whole text
 * (listing its backticks, brackets, parentheses; decoding a destination) reads `passStepChars`
 * characters between two pauses; the findings are the same whatever that number.
 */
export function* scanInlineSteps(text: string, passStepChars = INLINE_PASS_STEP_CHARS): Steps<InlineFindings> {
	const found: InlineFindings = { links: [], embeds: [], tags: [] };
	const scan = new ScanMemo(text, passStepChars);
	let index = 0;
	let steps = 0;
	const special = /[\\`<[!#]/g;
	while (index < text.length) {
		if (++steps % INLINE_SCAN_PAUSE_STEPS === 0) yield;
		// Jump to the next character that can start something: most of a note is plain text.
		special.lastIndex = index;
		const next = special.exec(text);
		if (next === null) break;
		index = next.index;
		const char = text[index];
		if (char === "\\") {
			// A backslash escape (CommonMark 2.4) hides the punctuation after it; before anything else it is a literal backslash.
			index += isAsciiPunctuation(text.charCodeAt(index + 1)) ? 2 : 1;
		} else if (char === "`") {
			index = yield* scan.codeSpanEnd(index);
		} else if (text.startsWith("<!--", index)) {
			const close = scan.commentClose.from(index + 4);
			index = close === -1 ? text.length : close + 3;
		} else if (char === "<" && AUTOLINK.test(text.slice(index, index + 2048))) {
			index = text.indexOf(">", index) + 1;
		} else if (text.startsWith("![[", index) || text.startsWith("[[", index)) {
			const embed = char === "!";
			const wikilink = yield* readWikilink(scan, index, embed);
			if (wikilink) {
				(embed ? found.embeds : found.links).push(wikilink);
				index = wikilink.end;
			} else {
				index += embed ? 3 : 2;
			}
		} else if (char === "[" || (char === "!" && text[index + 1] === "[")) {
			const embed = char === "!";
			const markdownLink = yield* readMarkdownLink(scan, index, embed);
			if (markdownLink === null) {
				index += embed ? 2 : 1;
			} else {
				if (markdownLink.link !== null) (embed ? found.embeds : found.links).push({ ...markdownLink, link: markdownLink.link });
				index = markdownLink.end;
			}
		} else if (char === "#") {
			// A backslash ends a tag; the escape it starts is read next (see tagAt).
			const tag = tagAt(text, index);
			if (tag) found.tags.push(tag);
			index = tag ? tag.end : index + 1;
		} else {
			index += 1;
		}
	}
	return found;
}

/**
 * What every finding holds in its text: a tag its `#`, a wikilink or a wikilink embed its `[[`, a
 * Markdown link or embed the `](` between its text and its destination (see readMarkdownLink).
 * Code spans, escapes and comments only hide findings, so text holding none of these finds nothing.
 */
const FINDING_MARKERS = ["#", "[[", "]("];

/**
 * Whether a stretch of one text could hold a finding, asked for stretches that mostly move forward
 * (the blocks of a note, in order): each marker's next occurrence is remembered, so the whole
 * note is searched about once. Most blocks of a note hold no link or tag, and scanning one costs
 * a dozen objects for nothing (a note of 40,000 task lines made 120 MB of them).
 */
export class FindingMarkers {
	private readonly searches: ForwardSearch[];

	constructor(text: string) {
		this.searches = FINDING_MARKERS.map((marker) => new ForwardSearch(text, marker));
	}

	/** False when text[start, end) holds no marker: scanInline on any part of it finds nothing. */
	mayFind(start: number, end: number): boolean {
		for (const search of this.searches) {
			const at = search.from(start);
			if (at !== -1 && at < end) return true;
		}
		return false;
	}
}

/**
 * `text.indexOf(needle, from)`, remembering its last answer: when no occurrence lies between the
 * last start and the last answer, a later start in that stretch has the same answer. The scanner
 * asks with starts that only grow, so each stretch of text is searched once.
 */
class ForwardSearch {
	private lastFrom = -1;
	private lastFound = -1;

	constructor(
		private readonly text: string,
		private readonly needle: string,
	) {}

	from(start: number): number {
		if (this.lastFrom !== -1 && start >= this.lastFrom && (this.lastFound === -1 || start <= this.lastFound)) return this.lastFound;
		this.lastFrom = start;
		this.lastFound = this.text.indexOf(this.needle, start);
		return this.lastFound;
	}
}

/**
 * Where `value` would go in ascending `sorted[from, to)`: the index of its first element there at or
 * after `value` (`to` when there is none). A search, not a cursor: a link that fails asks about brackets
 * and parentheses behind the ones its outer link asked about (`[ [a]( ](` ×100,000 reset a cursor
 * that walked back from the start each time: seconds in one piece).
 */
function firstAtOrAfter(sorted: ArrayLike<number>, value: number, from = 0, to = sorted.length): number {
	let low = from;
	let high = to;
	while (low < high) {
		const middle = (low + high) >>> 1;
		if ((sorted[middle] ?? 0) < value) low = middle + 1;
		else high = middle;
	}
	return low;
}

/** The first of the ascending offsets at or after `from`, or -1. */
function nextOffset(offsets: ArrayLike<number>, from: number): number {
	return offsets[firstAtOrAfter(offsets, from)] ?? -1;
}

/**
 * `length` ints that read 0 until set, kept in arrays of ZEROED_INTS_CHUNK made when first written: none made
 * whole in one piece. The last array holds only what is left of `length`: a full chunk (256 KiB) for each of a
 * note's five match lists, made for a note of a few brackets, was 1.3 MB outside the heap a note, and renaming a
 * note linked from 1,501 notes made V8 collect for that memory 2,014 times (11 s of wall time at a load of 11),
 * and the parse of ordinary notes 3-4 times dearer (gc169, review170).
 */
class ZeroedInts {
	private readonly chunks: Array<Int32Array | undefined> = [];

	constructor(private readonly length: number) {}

	get(index: number): number {
		return this.chunks[Math.floor(index / ZEROED_INTS_CHUNK)]?.[index % ZEROED_INTS_CHUNK] ?? 0;
	}

	set(index: number, value: number): void {
		const first = index - (index % ZEROED_INTS_CHUNK);
		const chunk = (this.chunks[first / ZEROED_INTS_CHUNK] ??= new Int32Array(Math.min(ZEROED_INTS_CHUNK, this.length - first)));
		chunk[index - first] = value;
	}
}

/**
 * Openers of one kind (`[` or `(`) in order, each with where it closes: what a forward scan
 * started after it would find. Typed arrays, so a note of a million brackets costs megabytes,
 * not a Map of a million entries. An offset is kept plus one, so zeros read as "none", in
 * ZeroedInts made a chunk at a time as the pass writes them: arrays of every opener filled with -1
 * first were written whole in one piece, and a note of 8 million parentheses was one piece of
 * 180-200 ms (most of it the system's first touch of each page).
 */
class Openers {
	constructor(
		private readonly positions: Int32Array,
		/** Each opener's close, plus one (0: none). */
		private readonly closesPlusOne: ZeroedInts,
		/** Each opener's first space, plus one (0: none); null for brackets. */
		private readonly spacesPlusOne: ZeroedInts | null,
	) {}

	/** The opener's index, or -1 if `position` holds no opener of this kind. */
	indexOf(position: number): number {
		const index = firstAtOrAfter(this.positions, position);
		return this.positions[index] === position ? index : -1;
	}

	/** Where the opener at `index` closes, or -1. */
	close(index: number): number {
		return this.closesPlusOne.get(index) - 1;
	}

	/** The opener at `index`'s first space, or -1. */
	space(index: number): number {
		return (this.spacesPlusOne?.get(index) ?? 0) - 1;
	}
}

/**
 * Every maximal run of backticks: its start and end, in order; and the starts again, grouped by the
 * run's length (as markdown-it lists them), so a code span's closer is looked up, never scanned for.
 * Typed arrays throughout: pushing two million starts into arrays cost a piece of 100 ms.
 */
interface BacktickRuns {
	starts: Int32Array;
	ends: Int32Array;
	/** The starts of all runs, those of one length together, each group in order. */
	startsByLength: Int32Array;
	/** For each length, where its group lies in startsByLength: [first, past the last). */
	groups: Map<number, [number, number]>;
}

/**
 * The scanner's memory for one text: remembered searches, and marks listed in one pass each, built
 * in steps of `stepChars` at the first question that needs them (a note's first code span or link).
 */
class ScanMemo {
	readonly wikilinkClose: ForwardSearch;
	readonly newline: ForwardSearch;
	readonly commentClose: ForwardSearch;
	readonly linkMiddle: ForwardSearch;
	private backtickRuns: BacktickRuns | null = null;
	private brackets: Openers | null = null;
	private parentheses: Openers | null = null;
	private readonly offsetsOf = new Map<string, Int32Array>();

	constructor(
		readonly text: string,
		readonly stepChars: number,
	) {
		this.wikilinkClose = new ForwardSearch(text, "]]");
		this.newline = new ForwardSearch(text, "\n");
		this.commentClose = new ForwardSearch(text, "-->");
		this.linkMiddle = new ForwardSearch(text, "](");
	}

	/**
	 * After the code span whose opening backticks start at `start`, or past those backticks if no
	 * run of the same length follows. The opening backticks run from `start` to the end of the
	 * maximal run holding it (an escaped backtick before it is not one of them).
	 */
	*codeSpanEnd(start: number): Steps<number> {
		const runs = (this.backtickRuns ??= yield* listBacktickRuns(this.text, this.stepChars));
		const runEnd = runs.ends[firstAtOrAfter(runs.starts, start + 1) - 1] ?? start + 1;
		const group = runs.groups.get(runEnd - start);
		if (group === undefined) return runEnd;
		const closer = firstAtOrAfter(runs.startsByLength, runEnd, group[0], group[1]);
		return closer === group[1] ? runEnd : (runs.startsByLength[closer] ?? 0) + (runEnd - start);
	}

	/** The `]` matching the `[` at `open` (escapes skipped, nested brackets counted), or -1. */
	*bracketMatch(open: number): Steps<number> {
		const brackets = (this.brackets ??= yield* matchBrackets(this.text, this.stepChars));
		const index = brackets.indexOf(open);
		return index === -1 ? -1 : brackets.close(index);
	}

	/**
	 * Where a link destination after the `(` at `open` runs into its matching `)` on the line and
	 * into its first space outside nested parentheses (-1 for none); null if no `(` is there.
	 */
	*parenthesis(open: number): Steps<{ match: number; space: number } | null> {
		const parentheses = (this.parentheses ??= yield* matchParentheses(this.text, this.stepChars));
		const index = parentheses.indexOf(open);
		if (index === -1) return null;
		return { match: parentheses.close(index), space: parentheses.space(index) };
	}

	/** `text.indexOf(char, from)`, answered from the offsets of every `char`, listed once: asked in any order. */
	*next(char: ">" | ")", from: number): Steps<number> {
		let offsets = this.offsetsOf.get(char);
		if (offsets === undefined) this.offsetsOf.set(char, (offsets = yield* positionsOf(this.text, char, this.stepChars)));
		return nextOffset(offsets, from);
	}
}

/** The maximal runs of backticks of the text, listed from the offsets of its backticks, `stepChars` of them at a time. */
function* listBacktickRuns(text: string, stepChars: number): Steps<BacktickRuns> {
	const ticks = yield* positionsOf(text, "`", stepChars);
	let count = 0;
	for (let index = 0; index < ticks.length; index++) {
		if (index === 0 || ticks[index - 1] !== (ticks[index] ?? 0) - 1) count++;
		if (index % stepChars === stepChars - 1) yield;
	}
	const starts = new Int32Array(count);
	const ends = new Int32Array(count);
	const sizes = new Map<number, number>();
	for (let index = 0, run = -1; index < ticks.length; index++) {
		const at = ticks[index] ?? 0;
		if (index === 0 || ticks[index - 1] !== at - 1) starts[++run] = at;
		ends[run] = at + 1;
		if (index % stepChars === stepChars - 1) yield;
	}
	for (let run = 0; run < count; run++) {
		const length = (ends[run] ?? 0) - (starts[run] ?? 0);
		sizes.set(length, (sizes.get(length) ?? 0) + 1);
		if (run % stepChars === stepChars - 1) yield;
	}
	// Runs of n backticks are about n² characters of text, so there are few lengths (under 3,000 in 4 MiB).
	const groups = new Map<number, [number, number]>();
	const filled = new Map<number, number>();
	let first = 0;
	for (const [length, size] of sizes) {
		groups.set(length, [first, first + size]);
		filled.set(length, first);
		first += size;
	}
	const startsByLength = new Int32Array(count);
	for (let run = 0; run < count; run++) {
		const length = (ends[run] ?? 0) - (starts[run] ?? 0);
		const slot = filled.get(length) ?? 0;
		startsByLength[slot] = starts[run] ?? 0;
		filled.set(length, slot + 1);
		if (run % stepChars === stepChars - 1) yield;
	}
	return { starts, ends, startsByLength, groups };
}

const BACKSLASH = 0x5c;

/** ASCII punctuation, the characters a backslash escapes (CommonMark 2.1, 2.4). */
function isAsciiPunctuation(code: number): boolean {
	return (code >= 0x21 && code <= 0x2f) || (code >= 0x3a && code <= 0x40) || (code >= 0x5b && code <= 0x60) || (code >= 0x7b && code <= 0x7e);
}
const NEWLINE = 0x0a;
const SPACE = 0x20;

/**
 * Offsets of every `char` in the text, escaped ones too (a bracket or parenthesis is never asked
 * about at an escaped one; a `>` or `)` searched for may be one, as by `indexOf`), looked for
 * `stepChars` characters of text at a time, with a pause between: counted first, then listed, so
 * the list is one typed array.
 */
function* positionsOf(text: string, char: string, stepChars: number): Steps<Int32Array> {
	let count = 0;
	for (let start = 0; start < text.length; start += stepChars) {
		const piece = text.slice(start, start + stepChars);
		for (let index = piece.indexOf(char); index !== -1; index = piece.indexOf(char, index + 1)) count++;
		yield;
	}
	const positions = new Int32Array(count);
	count = 0;
	for (let start = 0; start < text.length; start += stepChars) {
		const piece = text.slice(start, start + stepChars);
		for (let index = piece.indexOf(char); index !== -1; index = piece.indexOf(char, index + 1)) positions[count++] = start + index;
		yield;
	}
	return positions;
}

/** Each `[` → its matching `]`, in one pass with a stack; a backslash hides the next character, as in readMarkdownLink. */
function* matchBrackets(text: string, stepChars: number): Steps<Openers> {
	const positions = yield* positionsOf(text, "[", stepChars);
	// Offsets plus one (see Openers): written as the pass finds them, never all at once.
	const closes = new ZeroedInts(positions.length);
	// The open brackets' ordinals, innermost last.
	const open = new ZeroedInts(positions.length);
	let depth = 0;
	let ordinal = 0;
	for (let index = 0, pause = stepChars; index < text.length; index++) {
		if (index >= pause) {
			pause += stepChars;
			yield;
		}
		const code = text.charCodeAt(index);
		if (code === BACKSLASH) {
			index++;
		} else if (code === 0x5b) {
			while (positions[ordinal] !== index) ordinal++;
			open.set(depth++, ordinal);
		} else if (code === 0x5d && depth > 0) {
			closes.set(open.get(--depth), index + 1);
		}
	}
	return new Openers(positions, closes, null);
}

/**
 * Each `(` → its matching `)` on the same line, and the first space after it (past the spaces
 * right after the parenthesis) while it is the innermost open one: exactly where the scan in
 * readDestination, started after that `(`, would stop. One pass with a stack; an unescaped line
 * break closes nothing and empties it, as it ends a destination.
 */
function* matchParentheses(text: string, stepChars: number): Steps<Openers> {
	const positions = yield* positionsOf(text, "(", stepChars);
	// Offsets plus one (see Openers): written as the pass finds them, never all at once.
	const closes = new ZeroedInts(positions.length);
	const spaces = new ZeroedInts(positions.length);
	const open = new ZeroedInts(positions.length);
	let depth = 0;
	// Whether the innermost open parenthesis has seen anything but spaces yet.
	let innermostHasContent = false;
	let ordinal = 0;
	for (let index = 0, pause = stepChars; index < text.length; index++) {
		if (index >= pause) {
			pause += stepChars;
			yield;
		}
		const code = text.charCodeAt(index);
		const innermost = depth > 0 ? open.get(depth - 1) : -1;
		if (code === SPACE) {
			if (innermost !== -1 && innermostHasContent && spaces.get(innermost) === 0) spaces.set(innermost, index + 1);
			continue;
		}
		innermostHasContent = true;
		if (code === BACKSLASH) {
			index++;
		} else if (code === NEWLINE) {
			depth = 0;
		} else if (code === 0x28) {
			while (positions[ordinal] !== index) ordinal++;
			open.set(depth++, ordinal);
			innermostHasContent = false;
		} else if (code === 0x29) {
			if (depth > 0) depth--;
			if (innermost !== -1) closes.set(innermost, index + 1);
		}
	}
	return new Openers(positions, closes, spaces);
}

/** `[[target#sub|alias]]` or `![[…]]` at `start`, on one line; null if not a wikilink. */
function* readWikilink(scan: ScanMemo, start: number, embed: boolean): Steps<InlineLink | null> {
	const text = scan.text;
	const innerStart = start + (embed ? 3 : 2);
	const close = scan.wikilinkClose.from(innerStart);
	const newline = scan.newline.from(innerStart);
	if (close === -1 || (newline !== -1 && newline < close)) return null;
	const inner = text.slice(innerStart, close);
	if (inner === "") return null;
	// The alias separator is the first `|` after the first character: `[[|x]]` links to "|x".
	const separator = inner.indexOf("|", 1);
	// In a table the pipe is escaped (`[[Note\\|alias]]`): Obsidian links that to Note, the backslash part of neither.
	const pathEnd = separator > 0 && inner[separator - 1] === "\\" ? separator - 1 : separator;
	const link = separator === -1 ? inner : inner.slice(0, pathEnd);
	const displayText = separator === -1 ? yield* defaultDisplayText(link) : inner.slice(separator + 1);
	const end = close + 2;
	return { link, displayText, original: text.slice(start, end), start, end };
}

/**
 * A link's path part: `Note#Heading` → `Note`; `#Heading` → `` (the note itself). The `|alias`
 * is not this function's to strip: the parser already keeps it apart (`readWikilink`), so a link
 * as the metadata cache stores it never has one.
 */
export function linkpathOf(link: string): string {
	const hash = link.indexOf("#");
	return hash === -1 ? link : link.slice(0, hash);
}

/**
 * How Obsidian shows a link without an alias: subpaths joined with " > " (`a#b#c` → `a > b > c`).
 * A link of megabytes (one line of `[[a#a#a#…]]`) is read DISPLAY_TEXT_STEP_CHARS at a time, with a
 * pause between: split whole, two million subpaths took one piece of 500 ms.
 */
function* defaultDisplayText(link: string): Steps<string> {
	let shown = "";
	let start = 0;
	while (start < link.length) {
		// Pieces end at a `#`, so each is split exactly as the whole link would be.
		const cut = link.indexOf("#", start + DISPLAY_TEXT_STEP_CHARS);
		const end = cut === -1 ? link.length : cut;
		const parts = link
			.slice(start, end)
			.split("#")
			.filter((part) => part !== "")
			.join(" > ");
		if (parts !== "") shown = shown === "" ? parts : `${shown} > ${parts}`;
		start = end;
		if (start < link.length) yield;
	}
	return shown;
}

/**
 * `[text](destination)` or `![alt](destination)` at `start`. Returns null when it is not a link
 * at all; a link with `link: null` when it is a link that Obsidian does not track (external, empty).
 */
function* readMarkdownLink(scan: ScanMemo, start: number, embed: boolean): Steps<(Omit<InlineLink, "link"> & { link: string | null }) | null> {
	const text = scan.text;
	const textStart = start + (embed ? 2 : 1);
	// The matching `]` lies past the `[`: with no `](` after it, there is no link, and no need to match every bracket of the text (a task's `[ ]`).
	if (scan.linkMiddle.from(textStart) === -1) return null;
	const textEnd = yield* scan.bracketMatch(textStart - 1);
	if (textEnd === -1 || text[textEnd + 1] !== "(") return null;
	const destination = yield* readDestination(scan, textEnd + 2);
	if (destination === null) return null;
	const end = destination.end;
	const original = text.slice(start, end);
	const displayText = text.slice(textStart, textEnd);
	const raw = destination.value.trim();
	if (raw === "" || EXTERNAL_URL.test(raw)) return { link: null, displayText, original, start, end };
	return { link: yield* decodeLinkDestination(raw, scan.stepChars), displayText, original, start, end };
}

/**
 * The destination inside `( … )`, with an optional title; null if the parenthesis never closes.
 * The destination may hold balanced parentheses, ends at a space (a title follows, up to the next
 * `)`), and never crosses a line break.
 */
function* readDestination(scan: ScanMemo, start: number): Steps<{ value: string; end: number } | null> {
	const text = scan.text;
	let index = start;
	while (text[index] === " ") index++;
	if (text[index] === "<") {
		const close = yield* scan.next(">", index);
		if (close === -1) return null;
		const after = yield* scan.next(")", close);
		if (after === -1) return null;
		return { value: text.slice(index + 1, close), end: after + 1 };
	}
	const facts = yield* scan.parenthesis(start - 1);
	if (facts === null) return null;
	if (facts.space !== -1 && (facts.match === -1 || facts.space < facts.match)) {
		// A title may follow the destination: `(dest "title")`.
		const close = yield* scan.next(")", facts.space);
		if (close === -1) return null;
		return { value: text.slice(index, facts.space), end: close + 1 };
	}
	if (facts.match === -1) return null;
	return { value: text.slice(index, facts.match), end: facts.match + 1 };
}

/**
 * Obsidian stores Markdown link targets decoded: `Test%20Data/a.md` → `Test Data/a.md`; a target
 * that does not decode is stored as written. Decoded `stepChars` at a time, each piece
 * cut where no escape of one character is (see nextDecodeCut), so the pieces decode, or fail, as the whole does.
 */
function* decodeLinkDestination(raw: string, stepChars: number): Steps<string> {
	let decoded = "";
	try {
		for (let start = 0; start < raw.length;) {
			const cut = nextDecodeCut(raw, start + stepChars);
			decoded += decodeURIComponent(raw.slice(start, cut));
			start = cut;
			if (start < raw.length) yield;
		}
		return decoded;
	} catch {
		return raw;
	}
}

/**
 * The first place at or after `from` (or the end) where `raw` may be cut for decoding: not inside a
 * `%XX`, and not before a `%XX` continuing a character of several bytes (80 to BF); or, when there
 * is none within DECODE_CUT_SEARCH_CHARS, a place in text that cannot decode anyway.
 */
function nextDecodeCut(raw: string, from: number): number {
	const last = Math.min(raw.length, from + DECODE_CUT_SEARCH_CHARS);
	for (let cut = from; cut < last; cut++) {
		if (raw[cut - 1] === "%" || raw[cut - 2] === "%") continue;
		if (raw[cut] === "%" && /^[89ab][0-9a-f]$/iu.test(raw.slice(cut + 1, cut + 3))) continue;
		return cut;
	}
	return last;
}

/**
 * The `^block-id` a block's last line ends with, if any: what `/(?:^|\s)\^([A-Za-z0-9-]+)\s*$/`
 * finds, read backwards from the line's end. The regular expression tried a match at every
 * character of the line, and a line of `- - - … x` closes 640 list items, each asking: a 4 MiB
 * line spent 0.7 s there.
 */
export function trailingBlockId(line: string): string | null {
	let end = line.length;
	while (end > 0 && isWhiteSpace(line, end - 1)) end--;
	let start = end;
	while (start > 0 && isBlockIdChar(line.charCodeAt(start - 1))) start--;
	if (start === end || line.charCodeAt(start - 1) !== CARET) return null;
	if (start > 1 && !isWhiteSpace(line, start - 2)) return null;
	return line.slice(start, end);
}

const CARET = 0x5e;
/** One UTF-16 unit that `\s` matches (it matches no character outside the Basic Multilingual Plane). */
const WHITE_SPACE_UNIT = /^\s$/;

function isWhiteSpace(text: string, index: number): boolean {
	const code = text.charCodeAt(index);
	if (code === SPACE || (code >= 0x09 && code <= 0x0d)) return true;
	return code > 0x7f && WHITE_SPACE_UNIT.test(text.charAt(index));
}

/** `[A-Za-z0-9-]`. */
function isBlockIdChar(code: number): boolean {
	return (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a) || code === 0x2d;
}
