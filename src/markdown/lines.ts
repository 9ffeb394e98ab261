import type { Loc, Pos } from "obsidian";
import { LINE_INDEX_PAUSE_LINES } from "../config/limits";
import type { Steps } from "./steps";

/**
 * Line starts of a text, to turn character offsets into Obsidian's `{line, col, offset}` and back.
 * A line's content excludes its `\n` and a `\r` before it, so CRLF notes get the same columns as LF ones.
 * A byte-order mark that opens the text stands before line 0 (its offset is 0, line 0 starts at
 * offset 1), so a heading, task or fence on the first line is seen, and offsets stay the text's own.
 */
export class LineIndex {
	private readonly starts: number[] | Int32Array;

	constructor(
		readonly text: string,
		starts?: number[] | Int32Array,
	) {
		if (starts) {
			this.starts = starts;
			return;
		}
		this.starts = [firstLineStart(text)];
		for (let index = text.indexOf("\n"); index !== -1; index = text.indexOf("\n", index + 1)) this.starts.push(index + 1);
	}

	/**
	 * The same index, built in pausable steps (a 10 MB note has hundreds of thousands of lines): the
	 * lines are counted first, then their starts filled into a typed array of that size. Pushed one by
	 * one, an array is copied whole into new memory each time it grows: a note of 2.5 million short
	 * lines spent one piece of 130 ms on a single growth. Both passes pause every
	 * LINE_INDEX_PAUSE_LINES lines: looking for a line break costs the same whether its place is kept
	 * or only counted (counted 131,072 lines a piece, a 6 MB note of 200,000 task lines had two pieces of 55 ms).
	 */
	static *inSteps(text: string): Steps<LineIndex> {
		let count = 1;
		for (let index = text.indexOf("\n"); index !== -1; index = text.indexOf("\n", index + 1)) {
			count++;
			if (count % LINE_INDEX_PAUSE_LINES === 0) yield;
		}
		const starts = new Int32Array(count);
		starts[0] = firstLineStart(text);
		let line = 1;
		for (let index = text.indexOf("\n"); index !== -1; index = text.indexOf("\n", index + 1)) {
			starts[line++] = index + 1;
			if (line % LINE_INDEX_PAUSE_LINES === 0) yield;
		}
		return new LineIndex(text, starts);
	}

	get lineCount(): number {
		return this.starts.length;
	}

	/** Offset of the first character of a line. */
	lineStart(line: number): number {
		return this.starts[line] ?? this.text.length;
	}

	/** Offset just past the last content character of a line (before `\r\n` or `\n`). */
	lineEnd(line: number): number {
		const next = this.starts[line + 1];
		if (next === undefined) return this.text.length;
		return this.text[next - 2] === "\r" ? next - 2 : next - 1;
	}

	/** A line's text without its line ending. */
	lineText(line: number): string {
		return this.text.slice(this.lineStart(line), this.lineEnd(line));
	}

	/** True when the line holds only white space (what `trim` removes), read in place: asked for most lines of a note. */
	isBlank(line: number): boolean {
		const end = this.lineEnd(line);
		for (let index = this.lineStart(line); index < end; index++) {
			const code = this.text.charCodeAt(index);
			if (code === SPACE || code === TAB) continue;
			if ((code > SPACE && code < DELETE) || !WHITE_SPACE.test(this.text[index] ?? "")) return false;
		}
		return true;
	}

	/** The line an offset falls on. */
	lineOf(offset: number): number {
		let low = 0;
		let high = this.starts.length - 1;
		while (low < high) {
			const middle = (low + high + 1) >> 1;
			if ((this.starts[middle] ?? 0) <= offset) low = middle;
			else high = middle - 1;
		}
		return low;
	}

	loc(offset: number, line = this.lineOf(offset)): Loc {
		return { line, col: offset - this.lineStart(line), offset };
	}

	/** `lineOf(offset)`, `near` tried first: a run of positions in order (a list's items) finds most on the line of the one before. */
	lineNear(offset: number, near: number): number {
		const start = this.starts[near];
		const next = this.starts[near + 1];
		return start !== undefined && start <= offset && (next === undefined || next > offset) ? near : this.lineOf(offset);
	}

	/** Position from a start offset to an end offset (exclusive), as Obsidian writes it. */
	pos(start: number, end: number): Pos {
		return { start: this.loc(start), end: this.loc(end) };
	}

	/** Position from a column on one line to the end of the content of another. */
	linesPos(startLine: number, startCol: number, endLine: number): Pos {
		return this.pos(this.lineStart(startLine) + startCol, this.lineEnd(endLine));
	}
}

const SPACE = 0x20;
const TAB = 0x09;
/** Printable ASCII lies between SPACE and DELETE: none of it is white space. */
const DELETE = 0x7f;
/** `\s` is the set `trim` removes (ECMAScript: WhiteSpace and LineTerminator). */
const WHITE_SPACE = /^\s$/u;

/** Largest offset a 16-bit line start holds. */
const MAX_UINT16 = 0xffff;

/**
 * The line starts `LineIndex` finds in `text`, packed: 16 bits each when the text is short enough,
 * else 32. Counted and written in steps that pause every LINE_INDEX_PAUSE_LINES lines (a note of
 * 250,000 short lines was gone through twice in one piece).
 */
export function* lineStartsOf(text: string): Steps<Uint16Array | Int32Array> {
	let count = 1;
	for (let index = text.indexOf("\n"); index !== -1; index = text.indexOf("\n", index + 1)) {
		if (count++ % LINE_INDEX_PAUSE_LINES === 0) yield;
	}
	const starts = text.length <= MAX_UINT16 ? new Uint16Array(count) : new Int32Array(count);
	starts[0] = firstLineStart(text);
	let line = 1;
	for (let index = text.indexOf("\n"); index !== -1; index = text.indexOf("\n", index + 1)) {
		starts[line++] = index + 1;
		if (line % LINE_INDEX_PAUSE_LINES === 0) yield;
	}
	return starts;
}

/** Where line 0's content starts: past a byte-order mark that opens the text. */
function firstLineStart(text: string): number {
	return text.startsWith("\uFEFF") ? 1 : 0;
}
