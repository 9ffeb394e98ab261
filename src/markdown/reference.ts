import type MarkdownIt from "markdown-it";
import { REFERENCE_DATA_HOST_READ_CHARS, DECIDING_DESTINATION_LENGTH } from "../config/limits";
import type { Steps } from "./steps";

type StateBlock = MarkdownIt.StateBlock;
type TitleState = ReturnType<MarkdownIt["helpers"]["parseLinkTitle"]>;

/**
 * markdown-it's link reference definition rule (14.1.0, lib/rules_block/reference.mjs) step for
 * step, pausing after every `chunkLines` lines it takes in. The rule reads on to the note's end
 * (`state.lineMax`, not the end it is given) while a label or title stays open and no empty line or
 * block that may end it comes, all in one call: `[a]: /url "` and 400,000 lines after it held the
 * server in one piece. `state.line` is set only when not `silent`; no token is made, as the rule
 * makes none. The definition itself is not kept (markdown-it keeps it in `env.references` for its
 * inline rules, which this parser does not run: links are read by the metadata's own inline scan), so
 * its label and destination are only looked at as far as deciding whether the lines are one: the
 * label's key, the whole label normalized, was one linear step over a label of any length that does
 * close, and markdown-it's normalizing of a destination of megabytes held the server 3-5 s. Whether
 * the label holds anything but white space, all markdown-it asks of it, is seen line by line as the
 * label is read.
 */
export function* referenceSteps(state: StateBlock, startLine: number, silent: boolean, chunkLines: number): Steps<boolean> {
	let pos = state.bMarks[startLine]! + state.tShift[startLine]!;
	let nextLine = startLine + 1;
	// Indented four columns or more it is a code block.
	if (state.sCount[startLine]! - state.blkIndent >= 4) return false;
	if (state.src.charCodeAt(pos) !== 0x5b /* [ */) return false;

	// markdown-it appends each line to one string and reads it by index; the string appended to is then
	// copied whole at each read (V8 flattens it), over and over: 100,000 lines ran out of memory. Here
	// `str` is the line being read (positions are the rule's, less `strStart`).
	let str = state.src.slice(pos, state.eMarks[startLine]! + 1);
	let strStart = 0;
	let max = str.length;
	let labelOpen = true;
	/** Whether the label read so far holds anything but white space (markdown-it: its normalized key is not empty). */
	let labelHasText = false;
	/** Notes whether the label's part in the line being read, `[from, to)` in the rule's positions, holds anything but white space. */
	const readLabel = (from: number, to: number): void => {
		if (!labelHasText) labelHasText = NOT_WHITE_SPACE.test(str.slice(from - strStart, to - strStart));
	};
	/** Goes on to the next line, if it goes on the definition (markdown-it's getNextLine), pausing every `chunkLines` lines. */
	function* takeLine(): Steps<boolean> {
		const lineContent = nextLineContent(state, nextLine);
		if (lineContent === null) return false;
		if (labelOpen) readLabel(Math.max(strStart, 1), max);
		strStart = max;
		str = lineContent;
		max += lineContent.length;
		nextLine++;
		if ((nextLine - startLine) % chunkLines === 0) yield;
		return true;
	}
	const at = (position: number): number => str.charCodeAt(position - strStart);

	let labelEnd = -1;
	for (pos = 1; pos < max; pos++) {
		const ch = at(pos);
		if (ch === 0x5b /* [ */) return false;
		if (ch === 0x5d /* ] */) {
			labelEnd = pos;
			break;
		} else if (ch === 0x0a) {
			yield* takeLine();
		} else if (ch === 0x5c /* \ */) {
			pos++;
			if (pos < max && at(pos) === 0x0a) yield* takeLine();
		}
	}
	if (labelEnd < 0 || at(labelEnd + 1) !== 0x3a /* : */) return false;
	labelOpen = false;
	readLabel(Math.max(strStart, 1), labelEnd);

	// [label]:   destination   'title'
	//         ^^^ skip optional whitespace here
	for (pos = labelEnd + 2; pos < max; pos++) {
		const ch = at(pos);
		if (ch === 0x0a) yield* takeLine();
		else if (!isSpace(ch)) break;
	}
	// The destination ends before its line's end.
	const destination = state.md.helpers.parseLinkDestination(str, pos - strStart, max - strStart);
	if (!destination.ok) return false;
	if (!isLinkDestination(state.md, destination.str)) return false;
	pos = destination.pos + strStart;
	// Where to roll back to when the title turns out not to be one: the destination's line is kept for that.
	const destEndPos = pos;
	const destEndLineNo = nextLine;
	const destStr = str;
	const destStrStart = strStart;

	// [label]:   destination   'title'
	//                       ^^^ skipping those spaces
	const start = pos;
	for (; pos < max; pos++) {
		const ch = at(pos);
		if (ch === 0x0a) yield* takeLine();
		else if (!isSpace(ch)) break;
	}
	let titleState: TitleState = state.md.helpers.parseLinkTitle(str, pos - strStart, max - strStart);
	while (titleState.can_continue) {
		if (!(yield* takeLine())) break;
		pos = strStart;
		// markdown-it's own types leave out the fourth parameter (the title so far).
		titleState = (state.md.helpers.parseLinkTitle as (...args: unknown[]) => TitleState)(str, 0, str.length, titleState);
	}
	let title: string;
	if (pos < max && start !== pos && titleState.ok) {
		title = titleState.str;
		pos = titleState.pos + strStart;
	} else {
		title = "";
		pos = destEndPos;
		nextLine = destEndLineNo;
	}
	/** Rolls back to the destination's end: the rest of its line is read again (it ends with its line end, or at the note's end). */
	const rollBack = (): void => {
		pos = destEndPos;
		nextLine = destEndLineNo;
		str = destStr;
		strStart = destStrStart;
		max = strStart + str.length;
	};
	if (pos === destEndPos) rollBack();
	// skip trailing spaces until the rest of the line
	while (pos < max && isSpace(at(pos))) pos++;
	if (pos < max && at(pos) !== 0x0a && title) {
		// garbage at the end of the line after title, but it could still be a valid reference if we roll back
		title = "";
		rollBack();
		while (pos < max && isSpace(at(pos))) pos++;
	}
	// garbage at the end of the line
	if (pos < max && at(pos) !== 0x0a) return false;
	// CommonMark 0.20 disallows empty labels
	if (!labelHasText) return false;
	if (silent) return true;
	state.line = nextLine;
	return true;
}

const DATA_PROTOCOL = /^data:/iu;
const DATA_HOST_END = /[/?#]/u;

/**
 * markdown-it's `validateLink(normalizeLink(destination))`, on a prefix that decides it: the whole
 * destination of megabytes was normalized in one piece of 3-5 s (mdurl builds the encoded string a
 * character at a time).
 */
function isLinkDestination(md: MarkdownIt, destination: string): boolean {
	const trimmed = destination.trim();
	let deciding = DECIDING_DESTINATION_LENGTH;
	if (DATA_PROTOCOL.test(trimmed)) {
		const host = trimmed.slice(0, REFERENCE_DATA_HOST_READ_CHARS);
		const hostEnd = host.slice("data:".length).search(DATA_HOST_END);
		deciding = hostEnd < 0 ? host.length : "data:".length + hostEnd + DECIDING_DESTINATION_LENGTH;
	}
	return md.validateLink(md.normalizeLink(trimmed.slice(0, deciding)));
}

/** markdown-it's getNextLine in its reference rule: the text of `line` with its line end, or null when the definition cannot go on there. */
function nextLineContent(state: StateBlock, line: number): string | null {
	if (line >= state.lineMax || state.isEmpty(line)) return null;
	// Indented as code, or marked lazy by a quote (which checked it): a continuation line, whatever it holds.
	const continuation = state.sCount[line]! - state.blkIndent > 3 || state.sCount[line]! < 0;
	if (!continuation) {
		const terminators = state.md.block.ruler.getRules("reference");
		const oldParentType = state.parentType;
		state.parentType = "reference";
		const terminates = terminators.some((rule) => rule(state, line, state.lineMax, true));
		state.parentType = oldParentType;
		if (terminates) return null;
	}
	return state.src.slice(state.bMarks[line]! + state.tShift[line]!, state.eMarks[line]! + 1);
}

/** Anything trimmed or collapsed by markdown-it's normalizeReference (`trim`, then `\s+`: the same characters) is white space. */
const NOT_WHITE_SPACE = /\S/;

/** markdown-it's isSpace: a space or a tab. */
function isSpace(code: number): boolean {
	return code === 0x09 || code === 0x20;
}
