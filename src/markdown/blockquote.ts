import type MarkdownIt from "markdown-it";
import type { Steps } from "./steps";

/**
 * markdown-it's blockquote rule (lib/rules_block/blockquote.mjs, 14.1.0), step for step, with the
 * same tokens and the same line marks, made linear in a note of deep quotes.
 *
 * The original first walks every line of the quote (to its end), strips one `>` from the lines
 * inside and marks the others lazy continuation lines (`sCount = -1`), then parses the quote's
 * lines, where each nested quote walks them all again. A quote 700 deep followed by lines without
 * `>` walks those lines 700 times: 1,400 lines took 0.3 s, 10,000 lines under a 990-deep quote 3 s.
 *
 * A line an enclosing quote already marked lazy keeps its marks until that quote ends, and the
 * rules that may end a quote (fence, blockquote, hr, list, html_block, heading, `%%`, `$$`) read
 * only the line itself and, at `sCount = -1`, never its indent against blkIndent or listIndent: so
 * whether such a line ends a quote is the same at every deeper level. The first deeper quote that
 * walks it remembers that it does not; every deeper one after jumps over a run of such lines in
 * one step (a bit set, 32 lines a word). Marks are saved and restored only for the lines a quote
 * changes (the original also saves and restores the unchanged ones), on one stack for all quotes.
 */

type StateBlock = MarkdownIt.StateBlock;

/** Per parse: which lines an open quote marked lazy, and which of those are known not to end a quote. */
class LazyLines {
	/** 1 while the quote that marked the line lazy is open. */
	readonly lazy: Uint8Array;
	/** Bit set: the line is lazy and, with the line after it lazy too, ends no quote. */
	private readonly skippable: Uint32Array;
	/** Bit set over the words of `skippable`: the word's 32 lines are all skippable (a jump over 50,000 lines reads 50 words). */
	private readonly full: Uint32Array;

	constructor(lines: number) {
		this.lazy = new Uint8Array(lines + 1);
		this.skippable = new Uint32Array((lines >>> 5) + 2);
		this.full = new Uint32Array((lines >>> 10) + 2);
	}

	isSkippable(line: number): boolean {
		return ((this.skippable[line >>> 5] ?? 0) & (1 << (line & 31))) !== 0;
	}

	setSkippable(line: number): void {
		const word = line >>> 5;
		this.skippable[word] = (this.skippable[word] ?? 0) | (1 << (line & 31));
		if (this.skippable[word] === ALL_SET) this.full[word >>> 5] = (this.full[word >>> 5] ?? 0) | (1 << (word & 31));
	}

	clear(line: number): void {
		const word = line >>> 5;
		this.lazy[line] = 0;
		this.skippable[word] = (this.skippable[word] ?? 0) & ~(1 << (line & 31));
		this.full[word >>> 5] = (this.full[word >>> 5] ?? 0) & ~(1 << (word & 31));
	}

	/** The first line at or after `line` that is not skippable. */
	nextStop(line: number): number {
		let word = line >>> 5;
		const bits = firstClear(this.skippable[word] ?? 0, line & 31);
		if (bits !== -1) return (word << 5) + bits;
		word++;
		let group = word >>> 5;
		let clear = firstClear(this.full[group] ?? 0, word & 31);
		while (clear === -1) clear = firstClear(this.full[++group] ?? 0, 0);
		word = (group << 5) + clear;
		return (word << 5) + firstClear(this.skippable[word] ?? 0, 0);
	}
}

/** A word of 32 set bits, as a Uint32Array holds it. */
const ALL_SET = 0xffffffff;

/** The lowest clear bit of `bits` at or above bit `from`, or -1. */
function firstClear(bits: number, from: number): number {
	// Bits below `from` count as set, so they are passed over.
	const clear = ~(bits | ((1 << from) - 1));
	return clear === 0 ? -1 : 31 - Math.clz32(clear & -clear);
}

const lazyLinesOfState = new WeakMap<StateBlock, LazyLines>();

function lazyLinesOf(state: StateBlock): LazyLines {
	let lines = lazyLinesOfState.get(state);
	if (!lines || lines.lazy.length < state.bMarks.length + 1) {
		lines = new LazyLines(state.bMarks.length);
		lazyLinesOfState.set(state, lines);
	}
	return lines;
}

/** What the restore does with a saved line: give its marks back, and for a line this quote made lazy, unmark it. */
const CHANGED = 0;
const MADE_LAZY = 1;
/** Numbers saved for one line: kind, line, bMarks, bsCount, sCount, tShift. */
const MARKS_PER_LINE = 6;
/**
 * Lines of saved marks in the largest chunk of a `SavedMarks`, and the lines a quote opened in steps
 * gives back between two pause points. Marks grown into one array doubled by copying it: a quote of
 * 2 million lines copied tens of megabytes in one step (40-80 ms), then copied them all again once
 * its `>` markers were read, and gave them all back in one step.
 */
const SAVED_CHUNK_LINES = 1024;
/** Lines the shared stack's first chunk holds, kept between notes: a note of deep quotes saves one line per `>`. */
const SHARED_FIRST_LINES = 1024;
/** Lines the first chunk of a quote opened in steps holds: a quote 700 deep opens 700 of them. */
const OWN_FIRST_LINES = 16;

/**
 * A stack of saved marks that grows a chunk at a time (each twice the last, up to SAVED_CHUNK_LINES
 * lines), never copying what it holds. Chunks stay allocated while the stack shrinks and grows again:
 * a note of deep quotes empties the stack at each quote's end, and allocating again each time (with
 * the collections it starts) made a 1,400-line note of deep quotes 3-4 times slower. Past its first
 * chunk, what a stack held is kept only weakly once it is empty (`release`).
 */
class SavedMarks {
	private chunks: Int32Array[];
	private spare: WeakRef<Int32Array[]> | null = null;
	/** The chunk written next, and the place in it. */
	private chunk = 0;
	private at = 0;
	/** Numbers held. */
	top = 0;

	constructor(firstLines: number) {
		this.chunks = [new Int32Array(MARKS_PER_LINE * firstLines)];
	}

	save(state: StateBlock, kind: number, line: number): void {
		let chunk = this.chunks[this.chunk] as Int32Array;
		if (this.at === chunk.length) {
			const next = this.chunks[++this.chunk] ?? this.spare?.deref()?.[this.chunk];
			chunk = next ?? new Int32Array(Math.min(2 * chunk.length, MARKS_PER_LINE * SAVED_CHUNK_LINES));
			this.chunks[this.chunk] = chunk;
			this.at = 0;
		}
		const at = this.at;
		chunk[at] = kind;
		chunk[at + 1] = line;
		chunk[at + 2] = state.bMarks[line] ?? 0;
		chunk[at + 3] = state.bsCount[line] ?? 0;
		chunk[at + 4] = state.sCount[line] ?? 0;
		chunk[at + 5] = state.tShift[line] ?? 0;
		this.at += MARKS_PER_LINE;
		this.top += MARKS_PER_LINE;
	}

	/**
	 * Gives lines back the marks saved since `base`, latest first (a line saved twice gets its first
	 * saved marks back), at most `maxLines` of them; true when all are given back.
	 */
	restore(state: StateBlock, lazy: LazyLines, base: number, maxLines: number): boolean {
		for (let lines = 0; this.top > base; lines++) {
			if (lines === maxLines) return false;
			if (this.at === 0) this.at = (this.chunks[--this.chunk] as Int32Array).length;
			const chunk = this.chunks[this.chunk] as Int32Array;
			this.at -= MARKS_PER_LINE;
			this.top -= MARKS_PER_LINE;
			const at = this.at;
			const line = chunk[at + 1] ?? 0;
			state.bMarks[line] = chunk[at + 2] ?? 0;
			state.bsCount[line] = chunk[at + 3] ?? 0;
			state.sCount[line] = chunk[at + 4] ?? 0;
			state.tShift[line] = chunk[at + 5] ?? 0;
			if (chunk[at] === MADE_LAZY) lazy.clear(line);
		}
		return true;
	}

	/** Once empty, keeps its first chunk and holds the others weakly, for the next note of deep quotes to reuse. */
	release(): void {
		if (this.top !== 0 || this.chunks.length === 1) return;
		this.spare = new WeakRef(this.chunks);
		this.chunks = [this.chunks[0] as Int32Array];
	}
}

/** Saved marks of every quote parsed by the rule in one call (a quote opened in steps has a stack of its own). */
let saved = new SavedMarks(SHARED_FIRST_LINES);

function save(state: StateBlock, kind: number, line: number): void {
	saved.save(state, kind, line);
}

function restore(state: StateBlock, lazy: LazyLines, base: number): void {
	saved.restore(state, lazy, base, Number.POSITIVE_INFINITY);
	saved.release();
}

function isSpace(code: number): boolean {
	return code === 0x09 || code === 0x20;
}

type BlockRule = (state: StateBlock, startLine: number, endLine: number, silent: boolean) => boolean;

export const blockquote: BlockRule = (state, startLine, endLine, silent) => {
	if ((state.sCount[startLine] ?? 0) - state.blkIndent >= 4) return false;
	if (state.src.charCodeAt((state.bMarks[startLine] ?? 0) + (state.tShift[startLine] ?? 0)) !== 0x3e) return false;
	if (silent) return true;

	const lazy = lazyLinesOf(state);
	const base = saved.top;
	const oldLineMax = state.lineMax;
	const oldParentType = state.parentType;
	const oldIndent = state.blkIndent;
	state.parentType = "blockquote";
	try {
		const nextLine = quoteEnd(state, lazy, startLine, endLine);
		state.blkIndent = 0;
		const open = state.push("blockquote_open", "blockquote", 1);
		open.markup = ">";
		const lines: [number, number] = [startLine, 0];
		open.map = lines;
		state.md.block.tokenize(state, startLine, nextLine);
		const close = state.push("blockquote_close", "blockquote", -1);
		close.markup = ">";
		lines[1] = state.line;
	} finally {
		state.lineMax = oldLineMax;
		state.parentType = oldParentType;
		restore(state, lazy, base);
		state.blkIndent = oldIndent;
	}
	return true;
};

/**
 * A quote opened by `openQuoteSteps`, its lines parsed by the caller in steps (blocks.ts, at the top level
 * and inside such quotes): the same work as the rule's, cut where it calls `tokenize`.
 */
export interface OpenQuote {
	/** The line the quote ends before: its lines are parsed as a nested `tokenize(state, start, end)`. */
	readonly end: number;
	readonly lines: [number, number];
	/** This quote's saved marks, off the shared stack: other parses run while it is open. */
	readonly saved: SavedMarks;
	readonly lineMax: number;
	readonly parentType: StateBlock["parentType"];
	readonly blkIndent: number;
}

/** True if the blockquote rule takes `line`. */
export function startsQuote(state: StateBlock, line: number, endLine: number): boolean {
	return blockquote(state, line, endLine, true);
}

/**
 * The rule's work up to its `tokenize` call, in steps: the quote's lines get their marks inside it
 * (`scanLines` lines a step: 20,000 lines of a quote were one piece of 20–60 ms before its first
 * block was parsed), and its opening token is pushed. Between steps other parses may save marks
 * too: this quote's go to a stack of its own, never the shared one.
 */
export function* openQuoteSteps(state: StateBlock, startLine: number, endLine: number, scanLines: number): Steps<OpenQuote> {
	const lazy = lazyLinesOf(state);
	const { lineMax, parentType, blkIndent } = state;
	state.parentType = "blockquote";
	const scan: QuoteScan = { line: startLine, lastLineEmpty: false, ended: false };
	const own = new SavedMarks(OWN_FIRST_LINES);
	try {
		for (;;) {
			// The shared stack is this quote's own while a step runs (nothing else runs meanwhile).
			const shared = saved;
			saved = own;
			try {
				scanQuote(state, lazy, scan, endLine, scanLines);
			} finally {
				saved = shared;
			}
			if (scan.ended) break;
			yield;
		}
	} catch (error) {
		state.lineMax = lineMax;
		state.parentType = parentType;
		own.restore(state, lazy, 0, Number.POSITIVE_INFINITY);
		throw error;
	}
	state.blkIndent = 0;
	const open = state.push("blockquote_open", "blockquote", 1);
	open.markup = ">";
	const lines: [number, number] = [startLine, 0];
	open.map = lines;
	return { end: scan.line, lines, saved: own, lineMax, parentType, blkIndent };
}

/**
 * The rule's work after its `tokenize` call, once the quote's lines are all parsed: the closing
 * token, then every mark given back, `maxLines` lines between two pause points.
 */
export function* closeQuoteSteps(state: StateBlock, quote: OpenQuote, maxLines: number): Steps<void> {
	const close = state.push("blockquote_close", "blockquote", -1);
	close.markup = ">";
	quote.lines[1] = state.line;
	const lazy = lazyLinesOf(state);
	while (!quote.saved.restore(state, lazy, 0, maxLines)) yield;
	leaveQuote(state, quote);
}

/** Gives every mark back at once, with no closing token: for a parse of the quote's lines that threw. */
export function abandonQuote(state: StateBlock, quote: OpenQuote): void {
	quote.saved.restore(state, lazyLinesOf(state), 0, Number.POSITIVE_INFINITY);
	leaveQuote(state, quote);
}

function leaveQuote(state: StateBlock, quote: OpenQuote): void {
	state.lineMax = quote.lineMax;
	state.parentType = quote.parentType;
	state.blkIndent = quote.blkIndent;
}

/**
 * The line where the quote starting on `startLine` ends, with the marks of its lines set as its
 * content is parsed (saved, to be restored when the quote is parsed).
 */
function quoteEnd(state: StateBlock, lazy: LazyLines, startLine: number, endLine: number): number {
	const scan: QuoteScan = { line: startLine, lastLineEmpty: false, ended: false };
	scanQuote(state, lazy, scan, endLine, Number.POSITIVE_INFINITY);
	return scan.line;
}

/** Where a quote's scan for its end is: the next line to read, whether the line before was empty, and whether the end is found (at `line`). */
interface QuoteScan {
	line: number;
	lastLineEmpty: boolean;
	ended: boolean;
}

/**
 * Reads at most `maxLines` lines of the quote's scan for its end, from `scan.line`. A function of
 * its own: each nesting level runs it once, so it is optimized early, while the rule's own frames
 * stay on the stack.
 */
function scanQuote(state: StateBlock, lazy: LazyLines, scan: QuoteScan, endLine: number, maxLines: number): void {
	const { bMarks, eMarks, tShift, sCount, src } = state;
	const terminatorRules = state.md.block.ruler.getRules("blockquote") as BlockRule[];
	let lastLineEmpty = scan.lastLineEmpty;
	let nextLine = scan.line;
	let read = 0;
	for (; nextLine < endLine; nextLine++) {
		if (read++ === maxLines) {
			scan.line = nextLine;
			scan.lastLineEmpty = lastLineEmpty;
			return;
		}
		if (!lastLineEmpty && lazy.isSkippable(nextLine)) {
			// Lines up to the one before the next stop are lazy and end no quote; the last of them is
			// read again below (the line after it may not be lazy any more).
			nextLine = Math.min(endLine, Math.max(nextLine, lazy.nextStop(nextLine) - 1));
			if (nextLine >= endLine) break;
		}
		const lineSCount = sCount[nextLine] ?? 0;
		const pos = (bMarks[nextLine] ?? 0) + (tShift[nextLine] ?? 0);
		// An empty line ends the quote.
		if (pos >= (eMarks[nextLine] ?? 0)) break;
		if (src.charCodeAt(pos) === 0x3e && lineSCount >= state.blkIndent) {
			lastLineEmpty = enterLine(state, nextLine, pos + 1);
			continue;
		}
		// A line after an empty line inside the quote ends it.
		if (lastLineEmpty) break;
		if (terminatorRules.some((rule) => rule(state, nextLine, endLine, true))) {
			// markdown-it's "hard termination": paragraphs in the quote must not look past its end.
			state.lineMax = nextLine;
			if (state.blkIndent !== 0) {
				save(state, CHANGED, nextLine);
				sCount[nextLine] = lineSCount - state.blkIndent;
			}
			break;
		}
		if (lazy.lazy[nextLine] === 1 && lineSCount === -1) {
			// Marked lazy by an enclosing quote: its marks stay. Deeper quotes may jump over it while the line after it is lazy too.
			if (lazy.lazy[nextLine + 1] === 1 && sCount[nextLine + 1] === -1) lazy.setSkippable(nextLine);
		} else {
			// A lazy continuation line of a paragraph in the quote.
			save(state, MADE_LAZY, nextLine);
			sCount[nextLine] = -1;
			lazy.lazy[nextLine] = 1;
		}
	}
	scan.line = nextLine;
	scan.ended = true;
}

/** Moves the marks of a line inside the quote past its `>` (at `pos - 1`) and one optional space; true if nothing follows. */
function enterLine(state: StateBlock, line: number, pos: number): boolean {
	const { bMarks, eMarks, tShift, sCount, bsCount, src } = state;
	const max = eMarks[line] ?? 0;
	const lineSCount = sCount[line] ?? 0;
	let initial = lineSCount + 1;
	let spaceAfterMarker = false;
	let adjustTab = false;
	if (src.charCodeAt(pos) === 0x20) {
		pos++;
		initial++;
		spaceAfterMarker = true;
	} else if (src.charCodeAt(pos) === 0x09) {
		spaceAfterMarker = true;
		if (((bsCount[line] ?? 0) + initial) % 4 === 3) {
			pos++;
			initial++;
		} else {
			adjustTab = true;
		}
	}
	let offset = initial;
	save(state, CHANGED, line);
	bMarks[line] = pos;
	for (; pos < max; pos++) {
		const ch = src.charCodeAt(pos);
		if (!isSpace(ch)) break;
		if (ch === 0x09) offset += 4 - ((offset + (bsCount[line] ?? 0) + (adjustTab ? 1 : 0)) % 4);
		else offset++;
	}
	bsCount[line] = lineSCount + 1 + (spaceAfterMarker ? 1 : 0);
	sCount[line] = offset - initial;
	tShift[line] = pos - (bMarks[line] ?? 0);
	return pos >= max;
}
