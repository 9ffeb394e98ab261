/**
 * Pure edits that add text to a note in the note's own format: outline (bullets, with the note's
 * indentation and marker) or freeform (paragraphs). Line-based on purpose: an edit runs inside
 * `vault.process` on the exact text being changed, so it never trusts a cache of an older version.
 */
import { fail, ok, type Result } from "../result";
import { HEADINGS_LISTED, MATCHES_LISTED } from "../config/limits";
import { frontmatterEndLine } from "./frontmatter";
import { echoed } from "./echo";
import { HEADING_LEVELS } from "./subpath";

/** How a note is written, so added text matches it. */
export interface NoteFormat {
	lineEnding: "\n" | "\r\n";
	finalNewline: boolean;
	/** One level of indentation: a tab or N spaces. */
	indentUnit: string;
	/** The bullet marker: `-`, `*` or `+`. */
	marker: string;
}

/** Used when the note has no indentation or marker of its own to copy. */
export interface FormatDefaults {
	useTab?: boolean;
	tabSize?: number;
}

export type EditMode = "outliner" | "freeform";

/** A note's new text and the line the edit reports, or why nothing was written. */
export type EditResult = Result<{ text: string; line: number }>;

const DEFAULT_INDENT = "    ";
const DEFAULT_MARKER = "-";
// The text after the marker starts with no space or tab, so the spaces before it have one place to go.
const LIST_LINE = /^([ \t]*)([-*+]|\d+[.)])([ \t]+|$)(\[.\](?:[ \t]+|$))?([^ \t\n\r\u2028\u2029].*|)$/u;
/**
 * A line LIST_LINE matches, with the same first two groups (indent, marker), found without running
 * `.*` to the line's end: the groups after the marker always leave a remainder that the pattern's
 * last group takes unless the line holds a line terminator. Running LIST_LINE over every line of a
 * megabyte note was most of an append's one piece (a test checks the two agree on any line).
 */
const LIST_LINE_START = /^([ \t]*)([-*+]|\d+[.)])(?:[ \t]|$)/u;
const LINE_TERMINATOR = /[\n\r\u2028\u2029]/u;
export function listLineStart(line: string): RegExpExecArray | null {
	const match = LIST_LINE_START.exec(line);
	return match !== null && !LINE_TERMINATOR.test(line) ? match : null;
}
const HEADING_OPENING = /^ {0,3}(#{1,6})(?![^ \t])/u;
const FENCE_LINE = /^ {0,3}(`{3,}|~{3,})/u;

const isSpaceOrTab = (char: string | undefined) => char === " " || char === "\t";

/**
 * An ATX heading line's level and text (its closing `#`s and the spaces around it dropped), or null.
 * Cut by hand: a pattern with spaces on both sides of a lazy text can split them in quadratically
 * many ways on a long line.
 */
function headingLine(line: string): { level: number; text: string } | null {
	const opening = HEADING_OPENING.exec(line);
	if (!opening || /[\n\r\u2028\u2029]/u.test(line)) return null;
	let start = opening[0].length;
	let end = line.length;
	while (start < end && isSpaceOrTab(line[start])) start++;
	while (end > start && isSpaceOrTab(line[end - 1])) end--;
	let hashes = end;
	while (hashes > start && line[hashes - 1] === "#") hashes--;
	// A closing sequence of `#`s counts only after a space or tab; otherwise it is part of the text.
	if (hashes < end && hashes > start && isSpaceOrTab(line[hashes - 1])) end = hashes;
	return { level: opening[1]?.length ?? 1, text: line.slice(start, end).trim() };
}

/**
 * The last text split and its lines: one atomic edit splits the same note for its style checks and
 * for the edit itself (a megabyte note's split was about 10 ms each). Callers never change the lines.
 */
let lastSplit: { text: string; lines: readonly string[] } | null = null;

function splitLines(text: string): readonly string[] {
	if (lastSplit?.text !== text) lastSplit = { text, lines: text.split(/\r?\n/) };
	return lastSplit.lines;
}

/** Index of the first line after YAML frontmatter (0 when there is none), by the one fence rule. */
export function bodyStartLine(lines: readonly string[]): number {
	const end = frontmatterEndLine({ lineCount: lines.length, lineText: (line) => lines[line] ?? "" });
	return end === null ? 0 : end + 1;
}

/** The width of leading whitespace, a tab counting as one unit of `tabSize` columns. */
function indentWidth(whitespace: string, tabSize = 4): number {
	let width = 0;
	for (const char of whitespace) width += char === "\t" ? tabSize - (width % tabSize) : 1;
	return width;
}

/** The note's line ending, final newline, indentation unit and bullet marker. */
export function detectFormat(text: string, defaults: FormatDefaults = {}): NoteFormat {
	const lines = splitLines(text);
	const listLines: RegExpExecArray[] = [];
	for (let index = bodyStartLine(lines); index < lines.length; index++) {
		const match = listLineStart(lines[index] ?? "");
		if (match !== null) listLines.push(match);
	}
	const indents = listLines.map((match) => match[1] ?? "");
	let indentUnit: string | null = null;
	if (indents.some((indent) => indent.startsWith("\t"))) indentUnit = "\t";
	else {
		const widths = [...new Set(indents.map((indent) => indent.length))].filter((width) => width > 0).sort((a, b) => a - b);
		if (widths.length) indentUnit = " ".repeat(widths[0] ?? 4);
	}
	indentUnit ??= defaults.useTab ? "\t" : defaults.tabSize ? " ".repeat(defaults.tabSize) : DEFAULT_INDENT;
	const bullet = listLines.map((match) => match[2] ?? "").find((marker) => /^[-*+]$/.test(marker));
	return {
		lineEnding: text.includes("\r\n") ? "\r\n" : "\n",
		finalNewline: text === "" || text.endsWith("\n"),
		indentUnit,
		marker: bullet ?? DEFAULT_MARKER,
	};
}

/**
 * True when the note is an outline: its frontmatter says `mode: outliner`, or, with no `mode`,
 * its body (after frontmatter) is list content only. Any other `mode` means freeform.
 */
export function isOutline(text: string, frontmatterMode: unknown): boolean {
	if (typeof frontmatterMode === "string") return frontmatterMode.trim().toLowerCase() === "outliner";
	const lines = splitLines(withoutByteOrderMark(text));
	let inList = false;
	let any = false;
	for (let index = bodyStartLine(lines); index < lines.length; index++) {
		const line = lines[index] ?? "";
		if (line.trim() === "") continue;
		any = true;
		if (listLineStart(line) !== null) inList = true;
		// An indented line inside a list continues the item above; anything else is not list content.
		else if (!(inList && /^[ \t]+\S/.test(line))) return false;
	}
	return any;
}

/** Content lines with blank lines at both ends dropped and line endings unified. */
function contentLines(content: string): string[] {
	const lines = content.trimEnd().split(/\r?\n/);
	while (lines.length && lines[0]?.trim() === "") lines.shift();
	return lines;
}

/**
 * Content as bullets: every non-blank line becomes a bullet; relative indentation becomes
 * nesting (a line indented more than the one above is its child, however many spaces or tabs);
 * lines that already have a list marker or a checkbox keep it, never doubled.
 */
export function formatAsOutline(content: string, format: NoteFormat, baseLevel: number, baseIndent = "", numbering: ListNumbering | null = null): string[] {
	const output: string[] = [];
	let nextNumber = numbering?.next ?? 0;
	const stack: Array<{ width: number; level: number }> = [];
	for (const line of contentLines(content)) {
		if (line.trim() === "") continue;
		const whitespace = /^[ \t]*/.exec(line)?.[0] ?? "";
		const width = indentWidth(whitespace);
		while (stack.length && (stack.at(-1)?.width ?? 0) > width) stack.pop();
		let level: number;
		const top = stack.at(-1);
		if (!top) level = 0;
		else if (top.width === width) level = top.level;
		else level = top.level + 1;
		if (top && top.width === width) stack.pop();
		stack.push({ width, level });
		const text = line.slice(whitespace.length);
		// A line with its own marker keeps it; anything else, a bare checkbox included, gets the note's marker.
		// Top-level items that continue a numbered list are numbered on from it: a bullet there would start a new list.
		const marker = numbering && level === 0 ? `${nextNumber++}${numbering.delimiter}` : format.marker;
		const item = LIST_LINE.test(text) ? text : `${marker} ${text}`;
		output.push(baseIndent + format.indentUnit.repeat(baseLevel + level) + item);
	}
	return output;
}

/** An ordered list that added items continue: the number the next item takes and its delimiter. */
export interface ListNumbering {
	next: number;
	delimiter: "." | ")";
}

/**
 * The numbering a list item added after line `after`, at `indent`, continues: the last item at that
 * indentation above it, if it is numbered (`3.` → 4; `7)` → 8); null when it is a bullet or when a
 * line less indented (its parent, or text that ends the list) comes first.
 */
function listNumberingAt(lines: readonly string[], after: number, indent: number): ListNumbering | null {
	for (let index = after; index >= 0; index--) {
		const line = lines[index] ?? "";
		if (line.trim() === "") continue;
		const match = LIST_LINE.exec(line);
		const width = indentWidth(match ? (match[1] ?? "") : (/^[ \t]*/.exec(line)?.[0] ?? ""));
		if (width > indent) continue;
		if (!match || width < indent) return null;
		const ordered = /^(\d+)([.)])$/.exec(match[2] ?? "");
		return ordered ? { next: Number(ordered[1]) + 1, delimiter: ordered[2] as "." | ")" } : null;
	}
	return null;
}

/**
 * A byte-order mark that opens a note stands before its line 0, as Obsidian reads it (LineIndex and the frontmatter
 * rule do so too): each edit reads the text past it and puts it back in front. Read as part of line 0, a first-line
 * `# H` that read_note and Obsidian find was no heading to add_task or append_to_note, and `- a` no bullet.
 */
const BYTE_ORDER_MARK = "\uFEFF";

function withoutByteOrderMark(text: string): string {
	return text.startsWith(BYTE_ORDER_MARK) ? text.slice(1) : text;
}

/**
 * `edit` of the text past one opening mark, the mark put back first (its lines are numbered alike: the mark is no
 * line). One mark only, not each in turn: a note of a million marks was a million nested edits.
 */
function pastMark(text: string, edit: (past: string) => EditResult): EditResult {
	if (!text.startsWith(BYTE_ORDER_MARK)) return edit(text);
	const edited = edit(text.slice(1));
	return edited.ok ? ok({ ...edited.value, text: BYTE_ORDER_MARK + edited.value.text }) : edited;
}

/** The note's lines, without the empty string a final newline leaves at the end. */
function noteLines(text: string, format: NoteFormat): readonly string[] {
	const lines = splitLines(text);
	return format.finalNewline && lines.at(-1) === "" ? lines.slice(0, -1) : lines;
}

/** Index of the last non-blank line in [from, to), or from - 1 when all are blank. */
function lastContentLine(lines: readonly string[], from: number, to: number): number {
	let index = to - 1;
	while (index >= from && (lines[index] ?? "").trim() === "") index--;
	return index;
}

/**
 * Inserts `added` after line `after`. Freeform content gets one blank line above it (and below,
 * if text follows) — except list lines added right after a list, which continue it.
 */
function insertAt(lines: readonly string[], after: number, added: readonly string[], mode: EditMode): { block: string[]; line: number } {
	const previous = after >= 0 ? (lines[after] ?? "") : "";
	const continuesList = LIST_LINE.test(previous) && LIST_LINE.test(added[0] ?? "");
	const blankAbove = mode === "freeform" && previous.trim() !== "" && !continuesList;
	const blankBelow = mode === "freeform" && after + 1 < lines.length && (lines[after + 1] ?? "").trim() !== "";
	const block = [...(blankAbove ? [""] : []), ...added, ...(blankBelow ? [""] : [])];
	return { block, line: after + 1 + (blankAbove ? 1 : 0) };
}

/**
 * The note's text with `added` inserted after line `after` of `lines` (its noteLines), joined in
 * its format. A note with one kind of line end keeps the text around the insertion as it is
 * (sliced, not split and joined again: a megabyte note's lines were most of an edit's work);
 * one with `\r\n` is joined line by line, which makes its line ends all one kind, as before.
 */
function insertedText(
	text: string,
	lines: readonly string[],
	after: number,
	added: readonly string[],
	mode: EditMode,
	format: NoteFormat,
): { text: string; line: number } {
	const { block, line } = insertAt(lines, after, added, mode);
	const end = format.finalNewline ? format.lineEnding : "";
	if (text.includes("\r")) return { text: [...lines.slice(0, after + 1), ...block, ...lines.slice(after + 1)].join(format.lineEnding) + end, line };
	// Without `\r`, lines [0, k) are text[0, start(k) - 1): each line and the `\n` after it.
	let restStart = 0;
	for (let index = 0; index <= after; index++) restStart += (lines[index]?.length ?? 0) + 1;
	let restEnd = restStart - 1;
	for (let index = after + 1; index < lines.length; index++) restEnd += (lines[index]?.length ?? 0) + 1;
	// Joined with `+`, not `Array.join`: joining a megabyte's slice copied it, 10–50 ms in the edit's one piece.
	let joined = block.join("\n");
	if (after >= 0) joined = text.slice(0, restStart - 1) + "\n" + joined;
	if (after + 1 < lines.length) joined = joined + "\n" + text.slice(restStart, restEnd);
	return { text: joined + end, line };
}

/** Appends content to the end of the note, as bullets or as paragraphs. */
export function appendToEnd(text: string, content: string, mode: EditMode, format: NoteFormat): EditResult {
	return pastMark(text, (past) => appendToEndPastMark(past, content, mode, format));
}

function appendToEndPastMark(text: string, content: string, mode: EditMode, format: NoteFormat): EditResult {
	const lines = noteLines(text, format);
	const last = lastContentLine(lines, 0, lines.length);
	const added = mode === "outliner" ? formatAsOutline(content, format, 0, "", listNumberingAt(lines, last, 0)) : contentLines(content);
	if (added.length === 0) return fail("The content is empty; nothing was written.");
	return ok(insertedText(text, lines, last, added, mode, { ...format, finalNewline: format.finalNewline || lines.length === 0 }));
}

interface HeadingLine {
	line: number;
	level: number;
	text: string;
}

/** ATX headings outside fenced code. */
function headingLines(lines: readonly string[]): HeadingLine[] {
	const headings: HeadingLine[] = [];
	let fence: string | null = null;
	for (let index = bodyStartLine(lines); index < lines.length; index++) {
		const line = lines[index] ?? "";
		const fenceMatch = FENCE_LINE.exec(line);
		if (fenceMatch) {
			const marker = fenceMatch[1] ?? "";
			if (fence === null) fence = marker;
			else if (marker.startsWith(fence)) fence = null;
			continue;
		}
		if (fence !== null) continue;
		const heading = headingLine(line);
		if (heading) headings.push({ line: index, ...heading });
	}
	return headings;
}

/**
 * Each heading's parent (the nearest heading before it of a lower level), -1 for none: one number
 * a heading, where a path of texts a heading was 48,000 arrays for a planted note of headings.
 */
function headingParents(headings: readonly HeadingLine[]): Int32Array {
	const parents = new Int32Array(headings.length);
	const stack: number[] = [];
	headings.forEach((heading, index) => {
		while (stack.length && (headings[stack.at(-1) ?? 0]?.level ?? 0) >= heading.level) stack.pop();
		parents[index] = stack.at(-1) ?? -1;
		stack.push(index);
	});
	return parents;
}

/** The texts of the headings heading `index` sits under, outermost first, then its own (at most six: levels only rise). */
function headingPath(headings: readonly HeadingLine[], parents: Int32Array, index: number): string[] {
	const path: string[] = [];
	for (let at = index; at !== -1; at = parents[at] ?? -1) path.unshift(headings[at]?.text ?? "");
	return path;
}

/** A heading path as a person writes it and `heading` accepts it back: `Parent > Child`. */
function formatHeadingPath(path: readonly string[]): string {
	return path.join(" > ");
}

const headingPart = (part: string) =>
	part
		.trim()
		.replace(/^#+\s*/, "")
		.toLowerCase();

/**
 * The headings `wanted` names: a heading's own text (`Tasks`), or the end of its path of parents
 * (`Project A > Tasks`, `# Plan > ## Tasks`), compared case-insensitively. A heading whose own
 * text holds ` > ` is found by that text too.
 */
function matchHeadings(headings: readonly HeadingLine[], parents: Int32Array, wanted: string): number[] {
	const whole = headingPart(wanted);
	// A path names at most HEADING_LEVELS headings (each one's parent is of a lower level), so one of more
	// parts matches none and is not split: a heading of a million `>` was a million parts, 150-350 ms in one piece.
	const parts = splitAtMost(wanted, ">", HEADING_LEVELS)?.map(headingPart) ?? [];
	const matches: number[] = [];
	headings.forEach((heading, index) => {
		if (heading.text.toLowerCase() === whole) {
			matches.push(index);
			return;
		}
		if (parts.length < 2) return;
		// The path's end, walked from the heading up through its parents, against the parts from the last.
		let at = index;
		for (let part = parts.length - 1; part >= 0; part--, at = parents[at] ?? -1) {
			if (at === -1 || headings[at]?.text.toLowerCase() !== parts[part]) return;
		}
		matches.push(index);
	});
	return matches;
}

/** `text` split at each `separator`, or null when that would make more than `max` parts (the rest is not looked at). Pure. */
function splitAtMost(text: string, separator: string, max: number): string[] | null {
	const parts: string[] = [];
	let from = 0;
	for (let at = text.indexOf(separator); at !== -1; at = text.indexOf(separator, from)) {
		// This part, and at least the one after it.
		if (parts.length + 2 > max) return null;
		parts.push(text.slice(from, at));
		from = at + separator.length;
	}
	parts.push(text.slice(from));
	return parts;
}

/**
 * The first `max` items joined, and how many more there are: a note may hold 25,000 headings or
 * bullets, and an error naming all of them was half a megabyte.
 */
function listedWithMore(items: readonly string[], max: number, separator: string, total = items.length): string {
	const more = total > max ? ` and ${total - max} more` : "";
	return `${items.slice(0, max).join(separator)}${more}`;
}

/**
 * Appends content at the end of the section under `heading`: the heading's own text or its
 * `Parent > Child` path, case-insensitive. A heading that is missing, or that names several
 * sections, is an error and nothing is written: no heading is ever created, and nothing goes to
 * the note's end instead.
 */
export function appendUnderHeading(text: string, heading: string, content: string, mode: EditMode, format: NoteFormat): EditResult {
	return pastMark(text, (past) => appendUnderHeadingPastMark(past, heading, content, mode, format));
}

function appendUnderHeadingPastMark(text: string, heading: string, content: string, mode: EditMode, format: NoteFormat): EditResult {
	const lines = noteLines(text, format);
	const headings = headingLines(lines);
	const parents = headingParents(headings);
	const matches = matchHeadings(headings, parents, heading);
	if (matches.length === 0) {
		// Only the headings listed are written out, and the count of the rest.
		const available = listedWithMore(
			headings.slice(0, HEADINGS_LISTED).map((entry) => `${"#".repeat(entry.level)} ${echoed(entry.text)} (line ${entry.line})`),
			HEADINGS_LISTED,
			"; ",
			headings.length,
		);
		return fail(
			`No heading "${echoed(heading)}" in this note. ${headings.length ? `Its headings: ${available}.` : "It has no headings."} Nothing was written; pass one of these, or omit heading to append at the end.`,
		);
	}
	if (matches.length > 1) {
		const candidates = matches.map((index) => ({ path: formatHeadingPath(headingPath(headings, parents, index)), line: headings[index]?.line ?? 0 }));
		const listed = listedWithMore(
			candidates.map((candidate) => `"${echoed(candidate.path)}" (line ${candidate.line})`),
			MATCHES_LISTED,
			", ",
		);
		const same = new Set(candidates.map((candidate) => candidate.path.toLowerCase())).size < candidates.length;
		const next = same
			? "Some of them have the same path, so no heading argument can tell them apart: rename one heading in the note first."
			: "Pass one of these paths as heading.";
		return fail(`The heading "${echoed(heading)}" matches ${matches.length} sections: ${listed}. Nothing was written. ${next}`);
	}
	const target = headings[matches[0] ?? 0] as HeadingLine;
	const next = headings.find((entry) => entry.line > target.line && entry.level <= target.level);
	const sectionEnd = next?.line ?? lines.length;
	const last = Math.max(target.line, lastContentLine(lines, target.line + 1, sectionEnd));
	const added =
		mode === "outliner" ? formatAsOutline(content, format, 0, "", last > target.line ? listNumberingAt(lines, last, 0) : null) : contentLines(content);
	if (added.length === 0) return fail("The content is empty; nothing was written.");
	return ok(insertedText(text, lines, last, added, mode, format));
}

interface BulletLine {
	line: number;
	indent: number;
	text: string;
}

function bulletLines(lines: readonly string[]): BulletLine[] {
	const bullets: BulletLine[] = [];
	for (let index = bodyStartLine(lines); index < lines.length; index++) {
		const match = LIST_LINE.exec(lines[index] ?? "");
		if (match) bullets.push({ line: index, indent: indentWidth(match[1] ?? ""), text: (match[5] ?? "").trim() });
	}
	return bullets;
}

/**
 * Adds content as the last children of the one bullet whose own text contains `bullet`
 * (case-insensitive), after its existing subtree. None or several matches → an error, nothing written.
 */
export function insertUnderBullet(text: string, bullet: string, content: string, format: NoteFormat): EditResult {
	return pastMark(text, (past) => insertUnderBulletPastMark(past, bullet, content, format));
}

function insertUnderBulletPastMark(text: string, bullet: string, content: string, format: NoteFormat): EditResult {
	const lines = noteLines(text, format);
	const wanted = bullet.trim().toLowerCase();
	if (wanted === "") return fail("bullet is empty: pass some of the bullet's text.");
	const bullets = bulletLines(lines);
	const matches = bullets.filter((entry) => entry.text.toLowerCase().includes(wanted));
	if (matches.length === 0) return fail(`No bullet contains "${echoed(bullet)}". Nothing was written; call read_note to see the bullets.`);
	if (matches.length > 1) {
		const candidates = listedWithMore(
			matches.map((entry) => `line ${entry.line}: "${echoed(entry.text)}"`),
			MATCHES_LISTED,
			"; ",
		);
		return fail(
			`${matches.length} bullets contain "${echoed(bullet)}": ${candidates}. Nothing was written; pass more of the text so that exactly one matches.`,
		);
	}
	const target = matches[0] as BulletLine;
	// The subtree: every following line indented deeper than the bullet (blank lines inside it included).
	let end = target.line;
	for (let index = target.line + 1; index < lines.length; index++) {
		const line = lines[index] ?? "";
		if (line.trim() === "") continue;
		if (indentWidth(/^[ \t]*/.exec(line)?.[0] ?? "") <= target.indent) break;
		end = index;
	}
	const targetIndent = /^[ \t]*/.exec(lines[target.line] ?? "")?.[0] ?? "";
	const childIndent = indentWidth(targetIndent + format.indentUnit);
	const added = formatAsOutline(content, format, 1, targetIndent, end > target.line ? listNumberingAt(lines, end, childIndent) : null);
	if (added.length === 0) return fail("The content is empty; nothing was written.");
	return ok({ text: insertedText(text, lines, end, added, "outliner", format).text, line: target.line });
}
