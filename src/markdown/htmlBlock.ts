import type MarkdownIt from "markdown-it";

/*
 * The HTML block rule (CommonMark's seven kinds of HTML block), as markdown-it's (14.1.0,
 * lib/rules_block/html_block.mjs) except for one pattern. markdown-it's seventh kind, a line that is
 * one whole open or close tag, lets an unquoted attribute value hold any whitespace `\s` takes
 * apart from ASCII's, so a non-breaking space may end a value or separate two attributes: a line
 * of about 100 characters (`<A\t:` then `= : :` with non-breaking spaces, a dozen times, then
 * `'>">`) took its regular expression a second to refuse, twice as long for every 7 characters
 * more; every note parse froze the server. Here an unquoted value holds no whitespace at all, as in
 * the HTML standard and in CodeMirror's Markdown parser (the one Obsidian's editor uses), and the
 * pattern is linear (recheck, test/unit/superLinearPatterns.test.ts). The only lines this tells
 * apart from markdown-it are tags with a non-breaking space inside an unquoted value followed by
 * what cannot start an attribute (`<a x=b\u00a0/c>`).
 */

type StateBlock = MarkdownIt.StateBlock;

/** CommonMark's block-level tag names (HTML block kind 6), as markdown-it lists them. */
const BLOCK_TAG_NAMES = [
	"address", "article", "aside", "base", "basefont", "blockquote", "body", "caption", "center", "col", "colgroup", "dd", "details", "dialog", "dir", "div",
	"dl", "dt", "fieldset", "figcaption", "figure", "footer", "form", "frame", "frameset", "h1", "h2", "h3", "h4", "h5", "h6", "head", "header", "hr", "html",
	"iframe", "legend", "li", "link", "main", "menu", "menuitem", "nav", "noframes", "ol", "optgroup", "option", "p", "param", "search", "section", "summary",
	"table", "tbody", "td", "tfoot", "th", "thead", "title", "tr", "track", "ul",
]; // prettier-ignore

const ATTRIBUTE_NAME = "[a-zA-Z_:][a-zA-Z0-9:._-]*";
/** markdown-it's unquoted value without any whitespace (markdown-it's left out only ASCII's): see above. */
const UNQUOTED_VALUE = "[^\\s\"'=<>`\\x00-\\x20]+";
const ATTRIBUTE = `(?:\\s+${ATTRIBUTE_NAME}(?:\\s*=\\s*(?:${UNQUOTED_VALUE}|'[^']*'|"[^"]*"))?)`;
const OPEN_TAG = `<[A-Za-z][A-Za-z0-9\\-]*${ATTRIBUTE}*\\s*\\/?>`;
const CLOSE_TAG = "<\\/[A-Za-z][A-Za-z0-9\\-]*\\s*>";

/** Each kind of HTML block: the pattern its first line starts with, the one its last line holds, and whether it may end a paragraph. */
export const HTML_BLOCK_KINDS: ReadonlyArray<readonly [RegExp, RegExp, boolean]> = [
	[/^<(script|pre|style|textarea)(?=(\s|>|$))/i, /<\/(script|pre|style|textarea)>/i, true],
	[/^<!--/, /-->/, true],
	[/^<\?/, /\?>/, true],
	[/^<![A-Z]/, />/, true],
	[/^<!\[CDATA\[/, /\]\]>/, true],
	[new RegExp(`^</?(${BLOCK_TAG_NAMES.join("|")})(?=(\\s|/?>|$))`, "i"), /^$/, true],
	[new RegExp(`^(?:${OPEN_TAG}|${CLOSE_TAG})\\s*$`), /^$/, false],
];

/** The kind of HTML block starting at `line` (see HTML_BLOCK_KINDS), as markdown-it's rule tells it; undefined when none does. */
export function htmlBlockKind(state: StateBlock, line: number): (typeof HTML_BLOCK_KINDS)[number] | undefined {
	// Indented four columns or more it is a code block.
	if (state.sCount[line]! - state.blkIndent >= 4) return undefined;
	if (!state.md.options.html) return undefined;
	const start = state.bMarks[line]! + state.tShift[line]!;
	if (state.src.charCodeAt(start) !== 0x3c /* < */) return undefined;
	const lineText = htmlLineText(state, line);
	return HTML_BLOCK_KINDS.find(([opens]) => opens.test(lineText));
}

/**
 * How `line` meets an HTML block whose end `closes` tests, as markdown-it's rule tests it after the
 * block's first line: a line that ends it before itself (a lazy line; an empty line, for the kinds
 * ended by one), a line it ends on, or a line inside it.
 */
export function htmlBlockLine(state: StateBlock, line: number, closes: RegExp): "ends" | "closes" | "inside" {
	if (state.sCount[line]! < state.blkIndent) return "ends";
	const lineText = htmlLineText(state, line);
	if (!closes.test(lineText)) return "inside";
	return lineText.length !== 0 ? "closes" : "ends";
}

function htmlLineText(state: StateBlock, line: number): string {
	return state.src.slice(state.bMarks[line]! + state.tShift[line]!, state.eMarks[line]);
}

/** The block rule itself, markdown-it's step for step (see above for the one pattern that differs). */
export function htmlBlock(state: StateBlock, startLine: number, endLine: number, silent: boolean): boolean {
	const kind = htmlBlockKind(state, startLine);
	if (!kind) return false;
	if (silent) return kind[2];
	const closes = kind[1];
	let nextLine = startLine + 1;
	if (!closes.test(htmlLineText(state, startLine))) {
		for (; nextLine < endLine; nextLine++) {
			const meets = htmlBlockLine(state, nextLine, closes);
			if (meets === "inside") continue;
			if (meets === "closes") nextLine++;
			break;
		}
	}
	state.line = nextLine;
	const token = state.push("html_block", "", 0);
	token.map = [startLine, nextLine];
	token.content = state.getLines(startLine, nextLine, state.blkIndent, true);
	return true;
}
