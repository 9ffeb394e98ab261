/**
 * Text a note holds that a person reading it in Obsidian's reading view would not see: comments
 * and invisible characters. A model reads all of it, so it is where a prompt injection would hide;
 * `read_note` reports where, so a client can warn. Pure, one linear pass.
 */

/** What kind of hidden text. */
export type HiddenKind = "html_comment" | "obsidian_comment" | "invisible_characters" | "bidi_controls" | "tag_characters";

/** One stretch of hidden text: its kind, the 0-based line it starts on, and how many characters (UTF-16 units) it spans. */
export interface HiddenContent {
	kind: HiddenKind;
	line: number;
	characters: number;
}

/**
 * Runs of characters that show nothing: zero-width and other invisible format characters,
 * direction controls, and Unicode tag characters (invisible ASCII). Invisible wherever they stand, code included.
 */
// eslint-disable-next-line no-misleading-character-class -- each listed code point is matched on its own
const INVISIBLE_RUNS = /([\u200b-\u200d\u2060-\u2064\ufeff\u00ad\u180e\u034f]+)|([\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]+)|((?:\udb40[\udc00-\udc7f])+)/g;

/**
 * One pattern for every kind, alternatives in priority order, leftmost start first:
 * 1–2: a fenced code block, to its closing fence or the note's end.
 * 3: the backtick run that may open an inline code span (CodeSpans finds where it closes).
 *   Reading view shows code as written, so a `%%` or `<!--` inside hides nothing.
 * 4: an HTML comment at the start of a line: an HTML block, hiding the rest of the note when unclosed.
 * 5: `<!--` inside a line: a comment only if `-->` closes it within its paragraph; otherwise shown as written.
 * 6: a `%%` comment, closed or unclosed (Obsidian hides the rest of the note after an unclosed `%%`).
 * 7–9: runs of invisible characters (INVISIBLE_RUNS).
 * Closings that depend on the paragraph are found outside the pattern, so each character is read a bounded number of times.
 */
const HIDDEN = new RegExp(
	[
		String.raw`(^ {0,3}(\`{3,}(?![^\n]*\`)|~{3,})[\s\S]*?(?:\n {0,3}\2[\`~]*[ \t]*(?=\n|$(?![\s\S]))|$(?![\s\S])))`,
		String.raw`((?<!\`)\`+(?!\`))`,
		String.raw`((?<=^ {0,3})<!--[\s\S]*?(?:-->|$(?![\s\S])))`,
		String.raw`(<!--)`,
		String.raw`(%%[\s\S]*?(?:%%|$(?![\s\S])))`,
		INVISIBLE_RUNS.source,
	].join("|"),
	"gm",
);

const FENCED_CODE = 1;
const CODE_SPAN_OPENER = 3;
const INLINE_HTML_OPENER = 5;
/** The kind each reporting group of HIDDEN stands for, by group number. */
const KIND_OF_GROUP: ReadonlyArray<readonly [number, HiddenKind]> = [
	[4, "html_comment"],
	[6, "obsidian_comment"],
	[7, "invisible_characters"],
	[8, "bidi_controls"],
	[9, "tag_characters"],
];
const INVISIBLE_KINDS: readonly HiddenKind[] = ["invisible_characters", "bidi_controls", "tag_characters"];
const HTML_COMMENT_CLOSE = "-->";

/** Where the note holds hidden text, at most `limit` stretches, in order. A byte-order mark at the very start is not reported. */
export function findHiddenContent(text: string, limit: number): HiddenContent[] {
	const found: HiddenContent[] = [];
	const closings = new Closings(text);
	let line = 0;
	let counted = 0;
	const lineAt = (position: number): number => {
		line += countNewlines(text, counted, position);
		counted = position;
		return line;
	};
	/** Code hides no comment, but an invisible character in it is as invisible as anywhere. */
	const invisibleIn = (from: number, to: number): void => {
		// Searched in the code's own text: a search of the whole note would read on past the code, to the next invisible character.
		const code = text.slice(from, to);
		INVISIBLE_RUNS.lastIndex = 0;
		for (let run = INVISIBLE_RUNS.exec(code); run !== null && found.length < limit; run = INVISIBLE_RUNS.exec(code)) {
			const kind = INVISIBLE_KINDS[run.slice(1).findIndex((value) => value !== undefined)];
			if (kind) found.push({ kind, line: lineAt(from + run.index), characters: run[0].length });
		}
	};
	HIDDEN.lastIndex = 0;
	for (let match = HIDDEN.exec(text); match !== null && found.length < limit; match = HIDDEN.exec(text)) {
		if (match[0] === "") {
			HIDDEN.lastIndex++;
			continue;
		}
		const start = match.index;
		if (start === 0 && match[0] === "\ufeff") continue;
		if (match[FENCED_CODE] !== undefined) {
			invisibleIn(start, start + match[0].length);
		} else if (match[CODE_SPAN_OPENER] !== undefined) {
			const end = closings.codeSpanEnd(start, match[0].length);
			// An opener nothing closes is shown as backticks.
			if (end !== -1) {
				invisibleIn(start, end);
				HIDDEN.lastIndex = end;
			}
		} else if (match[INLINE_HTML_OPENER] !== undefined) {
			const end = closings.htmlCommentEnd(start);
			if (end !== -1) {
				found.push({ kind: "html_comment", line: lineAt(start), characters: end - start });
				HIDDEN.lastIndex = end;
			}
		} else {
			const kind = KIND_OF_GROUP.find(([group]) => match[group] !== undefined)?.[1];
			if (kind) found.push({ kind, line: lineAt(start), characters: match[0].length });
		}
	}
	return found;
}

/**
 * Where inline code spans and inline HTML comments close: within their paragraph (up to the next
 * blank line), as CommonMark reads them. Each answer is remembered while it can still serve a later
 * opener, so a paragraph full of openers that never close is read once, not once per opener.
 */
class Closings {
	private paragraphEnd = -1;
	/** Positions of the backtick runs of each length in the current paragraph, and how many lie before the last opener asked about. */
	private runs = new Map<number, { positions: number[]; passed: number }>();
	private nextHtmlClose = -2;

	constructor(private readonly text: string) {}

	/** The end of the code span a backtick run of `length` at `start` opens, or -1: it closes at the next run of exactly as many backticks. */
	codeSpanEnd(start: number, length: number): number {
		if (start >= this.paragraphEnd) this.readParagraph(start);
		const runs = this.runs.get(length);
		if (!runs) return -1;
		while (runs.passed < runs.positions.length && (runs.positions[runs.passed] ?? 0) <= start) runs.passed++;
		const close = runs.positions[runs.passed];
		return close === undefined ? -1 : close + length;
	}

	/** The end of the HTML comment `<!--` at `start` opens, or -1 when no `-->` closes it within its paragraph. */
	htmlCommentEnd(start: number): number {
		const from = start + "<!--".length;
		if (this.nextHtmlClose !== -1 && this.nextHtmlClose < from) this.nextHtmlClose = this.text.indexOf(HTML_COMMENT_CLOSE, from);
		if (start >= this.paragraphEnd) this.readParagraph(start);
		return this.nextHtmlClose !== -1 && this.nextHtmlClose < this.paragraphEnd ? this.nextHtmlClose + HTML_COMMENT_CLOSE.length : -1;
	}

	private readParagraph(start: number): void {
		const blank = /\n[ \t]*(?:\n|$(?![\s\S]))/g;
		blank.lastIndex = start;
		this.paragraphEnd = blank.exec(this.text)?.index ?? this.text.length;
		this.runs = new Map();
		const backticks = /`+/g;
		backticks.lastIndex = start;
		for (let run = backticks.exec(this.text); run !== null && run.index < this.paragraphEnd; run = backticks.exec(this.text)) {
			const runs = this.runs.get(run[0].length) ?? { positions: [], passed: 0 };
			runs.positions.push(run.index);
			this.runs.set(run[0].length, runs);
		}
	}
}

function countNewlines(text: string, from: number, to: number): number {
	let count = 0;
	for (let index = text.indexOf("\n", from); index !== -1 && index < to; index = text.indexOf("\n", index + 1)) count++;
	return count;
}
