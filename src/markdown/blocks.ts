import MarkdownIt from "markdown-it";
import { htmlBlock, htmlBlockKind, htmlBlockLine } from "./htmlBlock";
import {
	BLOCK_CHUNK_LINES,
	LINE_SPLIT_PAUSE_LINES,
	MAX_MARKDOWN_NESTING,
	MAX_STEPPED_BLOCK_DEPTH,
	TABLE_CHUNK_CELLS,
	MAX_AUTOCOMPLETED_CELLS,
	NORMALIZE_STEP_CHARS,
	LINE_COUNT_PAUSE_LINES,
	NESTED_PAUSE_LINES,
	TOP_LEVEL_PAUSE_CHARS,
} from "../config/limits";
import { abandonQuote, blockquote, closeQuoteSteps, openQuoteSteps, startsQuote } from "./blockquote";
import { skipBulletListMarker, skipOrderedListMarker } from "./listMarkers";
import { referenceSteps } from "./reference";
import { runSteps, type Steps } from "./steps";

/**
 * The block structure of a note, from markdown-it (CommonMark, plus tables) with Obsidian's `%%`
 * comment and `$$` math blocks, produced in pieces a caller can pause between.
 *
 * markdown-it's own top-level loop runs each top-level block to its end in one call, and one
 * paragraph or list can be a whole 10 MB note. Here the top-level loop is ours (the same steps as
 * markdown-it's `ParserBlock.tokenize`), and a block that can run long (a list, a quote, a table, a
 * paragraph, a code, HTML, `%%` or `$$` block) is read in steps that test each line as markdown-it's
 * rule does, giving the tokens the rule gives. Any other block is one rule call, as markdown-it makes it.
 */

export type MarkdownToken = MarkdownIt.Token;
/** A token markdown-it never makes: lines nested past the parser's bounds, parsed into no blocks (`map` gives them). */
export const LEFT_OUT_TOKEN = "nested_past_bound";
type StateBlock = MarkdownIt.StateBlock;
type BlockRule = (state: StateBlock, startLine: number, endLine: number, silent: boolean) => boolean;

/** Obsidian's blocks that run from a line starting with a delimiter to the next line containing it: `%%` comments, `$$` math. */
const DELIMITED_BLOCKS = [
	{ tokenType: "obsidian_comment", delimiter: "%%" },
	{ tokenType: "obsidian_math", delimiter: "$$" },
] as const;
type DelimitedBlock = (typeof DELIMITED_BLOCKS)[number];

/** True if `line` opens the block (asked of every line of every paragraph: answered without copying the line). */
function opensDelimitedBlock(state: StateBlock, line: number, { delimiter }: DelimitedBlock): boolean {
	if ((state.sCount[line] ?? 0) - state.blkIndent >= 4) return false;
	return state.src.startsWith(delimiter, (state.bMarks[line] ?? 0) + (state.tShift[line] ?? 0));
}

/**
 * The block opening on `startLine`, its lines looked through for the closing one `chunkLines` between
 * two pause points: an unclosed `%%` in a list item ran to the note's end in one piece (270 ms at 6.7 MB).
 */
function* delimitedBlockSteps(
	state: StateBlock,
	startLine: number,
	endLine: number,
	{ tokenType, delimiter }: DelimitedBlock,
	chunkLines: number,
): Steps<void> {
	const content = (line: number): string => state.src.slice((state.bMarks[line] ?? 0) + (state.tShift[line] ?? 0), state.eMarks[line]);
	let last = startLine;
	if (!content(startLine).slice(delimiter.length).includes(delimiter)) {
		last = endLine - 1;
		for (let line = startLine + 1; line < endLine; line++) {
			if ((line - startLine) % chunkLines === 0) yield;
			if (content(line).includes(delimiter)) {
				last = line;
				break;
			}
		}
	}
	state.line = last + 1;
	const token = state.push(tokenType, "", 0);
	token.map = [startLine, state.line];
	token.block = true;
}

/** The block as a rule of markdown-it's, for the quotes it parses in one call. */
function delimitedBlockRule(block: DelimitedBlock): BlockRule {
	return (state, startLine, endLine, silent) => {
		if (!opensDelimitedBlock(state, startLine, block)) return false;
		if (!silent) runSteps(delimitedBlockSteps(state, startLine, endLine, block, Number.POSITIVE_INFINITY));
		return true;
	};
}

// markdown-it reads maxNesting from its options; its type declarations leave the option out.
const parserOptions: MarkdownIt.Options & { maxNesting: number } = { html: true, maxNesting: MAX_MARKDOWN_NESTING };
const markdownParser = new MarkdownIt("commonmark", parserOptions).enable(["table", "strikethrough"]);
const containerAlternatives = { alt: ["paragraph", "reference", "blockquote", "list"] };
// The same rule, linear in a note of deep quotes (see blockquote.ts).
markdownParser.block.ruler.at("blockquote", blockquote, containerAlternatives);
// The same rule, reading a long line natively (see thematicBreak).
markdownParser.block.ruler.at("hr", thematicBreak, containerAlternatives);
// The same rule with a linear tag pattern (see htmlBlock.ts).
markdownParser.block.ruler.at("html_block", htmlBlock, { alt: ["paragraph", "reference", "blockquote"] });
// The same rule, read in steps where a definition may run on (see reference.ts and paragraphInSteps).
markdownParser.block.ruler.at("reference", (state, startLine, _endLine, silent) =>
	runSteps(referenceSteps(state, startLine, silent, Number.POSITIVE_INFINITY)),
);
for (const block of DELIMITED_BLOCKS) markdownParser.block.ruler.before("fence", block.tokenType, delimitedBlockRule(block), containerAlternatives);

const FOOTNOTE_DEFINITION_START = /^\[\^[^\]\s]+\]:/u;
function ruleNamed(name: string): BlockRule {
	const rule = (markdownParser.block.ruler as unknown as { __rules__: Array<{ name: string; fn: BlockRule }> }).__rules__.find(
		(candidate) => candidate.name === name,
	)?.fn;
	if (!rule) throw new Error(`markdown-it has no ${name} rule`);
	return rule;
}
const paragraphRule = ruleNamed("paragraph");
const fenceRule = ruleNamed("fence");
const listRule = ruleNamed("list");
/**
 * A footnote definition (`[^1]: text`) is read as a paragraph whose opening token says it is one,
 * so its links, embeds and tags are found as Obsidian finds them: CommonMark alone takes
 * `[^1]: [[Note]]` for a link reference definition and drops the line. Like markdown-it-footnote's
 * rule, a definition line ends the paragraph before it, so two definitions on consecutive lines are
 * two blocks.
 */
const footnoteDefinition: BlockRule = (state, startLine, endLine, silent) => {
	if ((state.sCount[startLine] ?? 0) - state.blkIndent >= 4) return false;
	const start = (state.bMarks[startLine] ?? 0) + (state.tShift[startLine] ?? 0);
	if (!state.src.startsWith("[^", start) || !FOOTNOTE_DEFINITION_START.test(state.src.slice(start, state.eMarks[startLine]))) return false;
	if (silent) return true;
	const first = state.tokens.length;
	if (!paragraphRule(state, startLine, endLine, false)) return false;
	const open = state.tokens[first];
	if (open) open.meta = { footnoteDefinition: true };
	return true;
};
markdownParser.block.ruler.before("reference", "obsidian_footnote", footnoteDefinition, { alt: ["paragraph", "reference"] });
const blockRules = markdownParser.block.ruler.getRules("") as BlockRule[];
/**
 * The rules markdown-it tries before its list rule: when none takes a line and the list rule does, a
 * list starts there. Less the code rule, which pushes its token even when asked silently: a line it
 * takes (indented 4 or more) the list rule refuses too.
 */
const codeRule = ruleNamed("code");
const rulesBeforeList = blockRules.slice(0, blockRules.indexOf(listRule)).filter((rule) => rule !== codeRule);
/** The rules that end a list item's list (markdown-it's list rule asks them). */
const listTerminators = markdownParser.block.ruler.getRules("list") as BlockRule[];
/** The rules that end a table (markdown-it's table rule uses the blockquote's terminators). */
const tableTerminators = markdownParser.block.ruler.getRules("blockquote") as BlockRule[];

/**
 * markdown-it's core `normalize` rule, the only core rule before `block` (inline parsing is not
 * used), in steps: line ends `\r\n` and `\r` as `\n`, NUL as U+FFFD. Its `\n` → `\n` replacement
 * is skipped: it copies a 10 MB note in one go for nothing. Split and joined, not replaced by a
 * regular expression (see NORMALIZE_STEP_CHARS); a `\r\n` is never cut between two steps.
 */
export function* normalizeSteps(source: string): Steps<string> {
	const returns = source.includes("\r");
	const nuls = source.includes("\0");
	if (!returns && !nuls) return source;
	const parts: string[] = [];
	for (let from = 0; from < source.length;) {
		let to = Math.min(source.length, from + NORMALIZE_STEP_CHARS);
		if (to < source.length && source.charCodeAt(to - 1) === CARRIAGE_RETURN) to++;
		let part = source.slice(from, to);
		if (returns && part.includes("\r")) part = part.split("\r\n").join("\n").split("\r").join("\n");
		if (nuls && part.includes("\0")) part = part.split("\0").join("\uFFFD");
		parts.push(part);
		from = to;
		if (from < source.length) yield;
	}
	return parts.join("");
}

const CARRIAGE_RETURN = 13;
const PIPE = 0x7c;
const BACKSLASH = 0x5c;
const DASH = 0x2d;
const ASTERISK = 0x2a;
const UNDERSCORE = 0x5f;
const COLON = 0x3a;
const SPACE = 0x20;
const TAB = 0x09;

/**
 * markdown-it's block state for `src`. Its constructor finds every line's marks in one loop;
 * here the same marks are found in pausable steps, as the same loop would set them. The marks are
 * kept in typed arrays sized by a first count of the lines: arrays grown a push at a time copy
 * their whole contents into new memory at each growth, so a note of 250,000 short lines spent one
 * piece of 50-90 ms growing its five mark arrays (2.5 million lines, 0.6 s), where a typed array's
 * memory is only touched as its lines are filled in, step by step.
 */
function* blockState(src: string, tokens: MarkdownToken[], env: ParseEnv): Steps<StateBlock> {
	const state = new markdownParser.block.State("", markdownParser, env, tokens);
	state.src = src;
	// One more than the line breaks: the last line, then the end mark.
	const size = (yield* lineBreaksSteps(src)) + 2;
	const bMarks = new Int32Array(size);
	const eMarks = new Int32Array(size);
	const tShift = new Int32Array(size);
	const sCount = new Int32Array(size);
	// bsCount stays 0 for every line here (the blockquote rule sets it).
	const bsCount = new Int32Array(size);
	let start = 0;
	let line = 0;
	for (; start < src.length; line++) {
		const newline = src.indexOf("\n", start);
		const end = newline === -1 ? src.length : newline;
		let pos = start;
		let offset = 0;
		for (; pos < end; pos++) {
			const code = src.charCodeAt(pos);
			if (code === 0x20) offset++;
			else if (code === 0x09) offset += 4 - (offset % 4);
			else break;
		}
		// As in markdown-it's loop: a last line of only spaces and tabs, with no line break after it, is no line.
		if (newline === -1 && pos === end) break;
		bMarks[line] = start;
		eMarks[line] = end;
		tShift[line] = pos - start;
		sCount[line] = offset;
		start = end + 1;
		if (line % LINE_SPLIT_PAUSE_LINES === LINE_SPLIT_PAUSE_LINES - 1) yield;
	}
	bMarks[line] = src.length;
	eMarks[line] = src.length;
	const marks = (array: Int32Array): number[] => array.subarray(0, line + 1) as unknown as number[];
	Object.assign(state, {
		bMarks: marks(bMarks),
		eMarks: marks(eMarks),
		tShift: marks(tShift),
		sCount: marks(sCount),
		bsCount: marks(bsCount),
		lineMax: line,
		stepCounts: { depth: 0, nestedLines: 0, quoteLines: 0, topPauseLine: 0, topPauseOffset: 0 } satisfies StepCounts,
	});
	return state;
}

/** The `\n`s in `text`, counted in pausable steps. */
function* lineBreaksSteps(text: string): Steps<number> {
	let count = 0;
	for (let index = text.indexOf("\n"); index !== -1; index = text.indexOf("\n", index + 1)) {
		count++;
		if (count % LINE_COUNT_PAUSE_LINES === 0) yield;
	}
	return count;
}

/**
 * Hands over block tokens as they become final: `consume(tokens, count)` reads tokens[0, count),
 * with tokens[count] (when present) as the next one; they are dropped after, so a huge note's
 * tokens never pile up (they would make a heap of hundreds of MiB, and long garbage collections).
 */
export type TokenConsumer = (tokens: readonly MarkdownToken[], count: number) => Steps<void>;

/**
 * What a parse's caller reads beyond the tokens' types, lines and markup, kept in markdown-it's `env`
 * (which its rules pass along). `hidden`: whether a tight list's paragraphs are marked hidden, as
 * markdown-it marks them once the list ends — which keeps every such paragraph's tokens until then
 * (a list of 40,000 items kept 80,000 tokens alive, copied by each young-generation collection).
 */
export interface ParseEnv {
	hidden: boolean;
}

/**
 * The block tokens markdown-it's `parse` gives for `source` (inline rules off), in order, handed
 * to `consume` in pausable steps. A top-level list's opening token is handed over before the list
 * ends: its `map` gets its final end line only when the list's closing token is handed over.
 */
export function* parseBlocks(source: string, consume: TokenConsumer, chunkLines = BLOCK_CHUNK_LINES, env: ParseEnv = { hidden: true }): Steps<void> {
	const tokens: MarkdownToken[] = [];
	if (!source) return;
	const state = yield* blockState(yield* normalizeSteps(source), tokens, env);
	yield* blocksInSteps(state, state.line, state.lineMax, chunkLines, consume);
}

/**
 * markdown-it's ParserBlock.tokenize over lines [startLine, endLine): at the top level, inside a quote
 * parsed in steps (there blkIndent is 0 too, and the lines' marks are those inside the quote), or in a
 * list item (a paragraph of 400,000 lines in an item was one rule call of 0.8 s). `emptyLinesBefore`:
 * whether the lines parsed before `startLine` in the same container held an empty line (see listInSteps).
 */
function* blocksInSteps(
	state: StateBlock,
	startLine: number,
	endLine: number,
	chunkLines: number,
	consume: TokenConsumer,
	emptyLinesBefore = false,
): Steps<void> {
	const counts = countsOf(state);
	// Each call is a quote's or a list item's content, and two generators on the stack under it.
	const depth = counts.depth + 1;
	if (depth > MAX_STEPPED_BLOCK_DEPTH) {
		leaveOut(state, startLine, endLine);
		return;
	}
	counts.depth = depth;
	try {
		const tokens = state.tokens;
		let line = startLine;
		let hasEmptyLines = emptyLinesBefore;
		const nested = state.level > 0;
		while (line < endLine) {
			state.line = line = state.skipEmptyLines(line);
			if (line >= endLine) break;
			// Inside a quote, a lazy line (sCount -1) ends it.
			if ((state.sCount[line] ?? 0) < state.blkIndent) break;
			if (state.level >= MAX_MARKDOWN_NESTING) {
				leaveOut(state, line, endLine);
				break;
			}
			const startsAQuote = startsQuote(state, line, endLine);
			const quote = nested && startsAQuote;
			// The table rule comes first: a line it accepts starts a table. No rule before the blockquote
			// rule takes a line starting with `>` (code needs an indent of 4, which it refuses too). A quote
			// goes to quoteInSteps from here, not through topLevelBlock: each level of a deep quote is then
			// two generators on the stack, not three (quotes 1,000 deep overflowed it).
			const head = mayOpenTable(state, line, endLine) ? yield* tableHeadSteps(state, line, endLine) : null;
			if (head) yield* tableSteps(state, line, endLine, chunkLines, consume, head);
			else if (startsAQuote) yield* quoteInSteps(state, line, endLine, chunkLines, consume);
			// Most blocks of most notes: a paragraph (a list item's too) opening with a word, asked of no other rule.
			else if (!(opensParagraphOnly(state, line) && shortParagraph(state, line, endLine, chunkLines)))
				yield* topLevelBlock(state, line, endLine, chunkLines, consume);
			yield* handOver(tokens, tokens.length, consume);
			state.tight = !hasEmptyLines;
			if (state.isEmpty(state.line - 1)) hasEmptyLines = true;
			const blockLines = state.line - line;
			line = state.line;
			if (line < endLine && state.isEmpty(line)) {
				hasEmptyLines = true;
				line++;
				state.line = line;
			}
			if (nested) {
				// A quote's lines were counted inside it, a quote counts one.
				const since = counts.nestedLines + (quote ? 1 : blockLines);
				counts.nestedLines = since >= NESTED_PAUSE_LINES ? 0 : since;
				if (since < NESTED_PAUSE_LINES) continue;
			} else {
				// At the top level by lines and characters: a pause after every block made a note of 400,000 one-line paragraphs 400,000 steps.
				const offset = state.bMarks[line] ?? state.src.length;
				if (line - counts.topPauseLine < NESTED_PAUSE_LINES && offset - counts.topPauseOffset < TOP_LEVEL_PAUSE_CHARS) continue;
				counts.topPauseLine = line;
				counts.topPauseOffset = offset;
			}
			yield;
		}
	} finally {
		counts.depth = depth - 1;
	}
}

/**
 * True when a list item's content opens (on `line`) with a paragraph or setext heading that
 * blocksInSteps would read first by `shortParagraph`, and it is read: no bound reached, no quote
 * or table opening there, only a paragraph's rule able to take the line, and its end within
 * `chunkLines` lines. False, with nothing read, otherwise.
 */
function opensWithShortParagraph(state: StateBlock, line: number, endLine: number, chunkLines: number): boolean {
	if (countsOf(state).depth >= MAX_STEPPED_BLOCK_DEPTH || state.level >= MAX_MARKDOWN_NESTING) return false;
	if (state.isEmpty(line) || (state.sCount[line] ?? 0) < state.blkIndent) return false;
	// A line opening with no block's character opens no quote: the table is the one rule left to ask.
	return opensParagraphOnly(state, line) && !mayOpenTable(state, line, endLine) && shortParagraph(state, line, endLine, chunkLines);
}

/** What a parse in steps counts beside markdown-it's block state, kept on it (looked up once for each item of a list of 400,000). */
interface StepCounts {
	/** blocksInSteps calls open on the stack. */
	depth: number;
	/** Lines (or quotes) parsed inside quotes and items since the last pause (see NESTED_PAUSE_LINES). */
	nestedLines: number;
	/** Lines read by opening quotes since the last pause (see quoteInSteps). */
	quoteLines: number;
	/** The line and offset where the last top-level pause came. */
	topPauseLine: number;
	topPauseOffset: number;
}
type CountedState = StateBlock & { stepCounts: StepCounts };

function countsOf(state: StateBlock): StepCounts {
	return (state as CountedState).stepCounts;
}

/**
 * Marks lines nested past a bound (MAX_STEPPED_BLOCK_DEPTH, MAX_MARKDOWN_NESTING), where markdown-it
 * would leave them out. They are parsed into no blocks, but handed over as one LEFT_OUT_TOKEN, so
 * their text is still read for links, embeds and tags: Obsidian finds links at any depth, and a
 * rename left a link 640 quotes deep pointing at the old name.
 */
function leaveOut(state: StateBlock, startLine: number, endLine: number): void {
	if (startLine < endLine) state.push(LEFT_OUT_TOKEN, "", 0).map = [startLine, endLine];
	state.line = endLine;
}

function* handOver(tokens: MarkdownToken[], count: number, consume: TokenConsumer): Steps<void> {
	if (count <= 0) return;
	yield* consume(tokens, count);
	tokens.splice(0, count);
}

/** Runs the block rules at `line` as markdown-it does: the first that accepts the line wins. */
function runRules(state: StateBlock, line: number, endLine: number): void {
	const before = state.line;
	for (const rule of blockRules) {
		if (rule(state, line, endLine, false)) {
			if (before >= state.line) throw new Error("block rule didn't increment state.line");
			return;
		}
	}
	throw new Error("none of the block rules matched");
}

/**
 * One top-level block other than a table or a quote (blocksInSteps parses those): a list, or a long
 * code, HTML, `%%`, `$$` block or paragraph, read in steps; any other block, or one whose lines fit
 * in a chunk, in one rule call, as markdown-it parses it.
 */
function* topLevelBlock(state: StateBlock, blockStart: number, endLine: number, chunkLines: number, consume: TokenConsumer): Steps<void> {
	// A top-level list whose item holds a table is parsed item by item, the table in chunks of rows.
	if (startsList(state, blockStart, endLine)) return yield* listInSteps(state, blockStart, endLine, chunkLines, consume);
	if (yield* longBlockInSteps(state, blockStart, endLine, chunkLines)) return;
	runRules(state, blockStart, endLine);
}

/** A quote whose lines are parsed in steps, as blocks are at the top level: tables and quotes inside it in chunks too. */
function* quoteInSteps(state: StateBlock, blockStart: number, endLine: number, chunkLines: number, consume: TokenConsumer): Steps<void> {
	const quote = yield* openQuoteSteps(state, blockStart, endLine, chunkLines);
	// Opening a quote reads each of its lines, and a nested quote opens before anything else pauses: a
	// note of 1,000 lines each 641 `> ` deep read 641,000 lines in one piece (0.15 s CPU, a second of wall).
	const counts = countsOf(state);
	const read = counts.quoteLines + quote.end - blockStart;
	counts.quoteLines = read >= chunkLines ? 0 : read;
	if (read >= chunkLines) yield;
	try {
		yield* blocksInSteps(state, blockStart, quote.end, chunkLines, consume);
	} catch (error) {
		abandonQuote(state, quote);
		throw error;
	}
	yield* closeQuoteSteps(state, quote, chunkLines);
}

const hrRule = ruleNamed("hr");

/**
 * The run of a thematic break's marker, spaces and tabs from where it is read, for each of its three
 * markers: a loop over a 4 MiB line's characters took 20–30 ms (before V8 optimized it), the
 * expression 2–3 ms.
 */
const HR_LINE_RUNS = new Map([
	[ASTERISK, /[*\t ]*/y],
	[DASH, /[-\t ]*/y],
	[UNDERSCORE, /[_\t ]*/y],
]);
/**
 * markdown-it's hr rule (lib/rules_block/hr.mjs, 14.1.0) with the same answers and token, its line read
 * by HR_LINE_RUNS: the rule read a thematic break's line a character at a time, then built its markup
 * with `Array(count + 1).join`, and a note of one 8 MB line of `*` (or `- - …`) was one piece of
 * 400–600 ms, its line read again by each rule that asks whether it ends a paragraph or a list.
 */
function thematicBreak(state: StateBlock, startLine: number, _endLine: number, silent: boolean): boolean {
	if ((state.sCount[startLine] ?? 0) - state.blkIndent >= 4) return false;
	const start = (state.bMarks[startLine] ?? 0) + (state.tShift[startLine] ?? 0);
	const end = state.eMarks[startLine] ?? 0;
	const marker = state.src.charCodeAt(start);
	const run = HR_LINE_RUNS.get(marker);
	if (!run) return false;
	run.lastIndex = start;
	run.test(state.src);
	if (run.lastIndex < end) return false;
	// The line alone (a slice, not a copy): in the note, a search for a space could read on to its end at every line.
	const line = state.src.slice(start, end);
	const markerText = String.fromCharCode(marker);
	// At least three markers: the third found, not all of them counted (only the token's markup needs the count).
	const second = line.indexOf(markerText, 1);
	if (second === -1 || line.indexOf(markerText, second + 1) === -1) return false;
	if (silent) return true;
	state.line = startLine + 1;
	const token = state.push("hr", "hr", 0);
	token.map = [startLine, state.line];
	const spaced = line.includes(" ") || line.includes("\t");
	token.markup = markerText.repeat(spaced ? markersIn(line, marker) : line.length);
	return true;
}

/** How many of `line`'s characters are `marker`. */
function markersIn(line: string, marker: number): number {
	let markers = 0;
	for (let at = 0; at < line.length; at++) if (line.charCodeAt(at) === marker) markers++;
	return markers;
}

/**
 * Where markdown-it's hr rule last failed on a line, per parse: from `from`, its marker and spaces run
 * to `failsAt`, a character that is neither, where the rule refuses the line.
 */
const hrFailures = new WeakMap<StateBlock, { line: number; marker: number; from: number; failsAt: number }>();

/**
 * markdown-it's hr rule, asked silently. Asked again on the same line from a later start (an item's
 * content, one nesting level in) with the same marker before where it failed, it fails there again:
 * answered without reading the line. A line of `- - - … x` nests 640 items, and the rule read the
 * rest of the line at each: a 4 MiB line was one piece of 4.4 s. The rule refuses a line where a
 * character is neither its marker nor a space or tab, so where the line holds one the rule is not
 * asked (markdown-it's read a 4 MiB line once more, a character at a time: 30 ms).
 */
function hrTakes(state: StateBlock, line: number, endLine: number): boolean {
	const start = (state.bMarks[line] ?? 0) + (state.tShift[line] ?? 0);
	const marker = state.src.charCodeAt(start);
	const failure = hrFailures.get(state);
	if (failure?.line === line && failure.marker === marker && start >= failure.from && start < failure.failsAt) return false;
	const run = HR_LINE_RUNS.get(marker);
	// Not a marker of a thematic break: the rule refuses the line.
	if (!run) return false;
	const end = state.eMarks[line] ?? 0;
	run.lastIndex = start;
	run.test(state.src);
	const at = Math.min(run.lastIndex, end);
	if (at === end) return hrRule(state, line, endLine, true);
	hrFailures.set(state, { line, marker, from: start, failsAt: at });
	return false;
}

/** True if markdown-it's list rule takes `line`: no rule before it does, and it does. */
function startsList(state: StateBlock, line: number, endLine: number): boolean {
	if (rulesBeforeList.some((rule) => (rule === hrRule ? hrTakes(state, line, endLine) : rule(state, line, endLine, true)))) return false;
	// markdown-it's lheading rule leaves parentType "paragraph" when it finds no underline (after every
	// paragraph). Asked silently then, the list rule answers as if the list cut a paragraph short and
	// refuses an empty first item: the parse asks it not silently, where that check is not made.
	const parentType = state.parentType;
	if (parentType === "paragraph") state.parentType = "root";
	try {
		return listRule(state, line, endLine, true);
	} finally {
		state.parentType = parentType;
	}
}

/**
 * markdown-it's list rule (lib/rules_block/list.mjs, 14.1.0) step for step, its items' lines parsed
 * by `blocksInSteps` instead of one `tokenize` call: a table in an item is cut in chunks of rows
 * (20,000 rows in an item were one piece of 150–280 ms). Tokens are handed over as the items'
 * blocks are parsed: an item's opening token before its end is known (its `map` gets its end at
 * its close), an item's closing token only with the token after it. Paragraphs of a tight list are
 * marked hidden once the list ends, as markdown-it marks them.
 */
function* listInSteps(state: StateBlock, startLine: number, endLine: number, chunkLines: number, consume: TokenConsumer): Steps<void> {
	let nextLine = startLine;
	let tight = true;
	let start = 0;
	let posAfterMarker = skipOrderedListMarker(state, nextLine);
	const isOrdered = posAfterMarker >= 0;
	if (isOrdered) start = (state.bMarks[nextLine] ?? 0) + (state.tShift[nextLine] ?? 0);
	else posAfterMarker = skipBulletListMarker(state, nextLine);
	const markerCharCode = state.src.charCodeAt(posAfterMarker - 1);
	const markup = String.fromCharCode(markerCharCode);
	const listOpen = state.push(isOrdered ? "ordered_list_open" : "bullet_list_open", isOrdered ? "ol" : "ul", 1);
	if (isOrdered) {
		const markerValue = Number(state.src.slice(start, posAfterMarker - 1));
		// A number, as markdown-it sets it.
		if (markerValue !== 1) listOpen.attrs = [["start", markerValue as unknown as string]];
	}
	const listLines: [number, number] = [nextLine, 0];
	listOpen.map = listLines;
	listOpen.markup = markup;
	// markTightParagraphs' level: the list's level after its close.
	const paragraphLevel = state.level - 1 + 2;
	const marksHidden = (state.env as ParseEnv).hidden;
	const handed = handedParagraphsOf(state);
	// Only the outermost open list looks at the tokens handed over, for the lists inside it too.
	const consumeItems: TokenConsumer = marksHidden && handed.openLists === 0 ? handed.collecting(consume) : consume;
	handed.openLists++;
	const paragraphs = (handed.byLevel[paragraphLevel] ??= []);
	const firstParagraph = paragraphs.length;
	let prevEmptyEnd = false;
	const oldParentType = state.parentType;
	state.parentType = "list";
	while (nextLine < endLine) {
		let pos = posAfterMarker;
		const max = state.eMarks[nextLine] ?? 0;
		const initial = (state.sCount[nextLine] ?? 0) + posAfterMarker - ((state.bMarks[nextLine] ?? 0) + (state.tShift[nextLine] ?? 0));
		let offset = initial;
		for (; pos < max; pos++) {
			const ch = state.src.charCodeAt(pos);
			if (ch === 0x09) offset += 4 - ((offset + (state.bsCount[nextLine] ?? 0)) % 4);
			else if (ch === 0x20) offset++;
			else break;
		}
		const contentStart = pos;
		let indentAfterMarker = contentStart >= max ? 1 : offset - initial;
		// More than 4 spaces: the indent is 1 (the rest is an indented code block).
		if (indentAfterMarker > 4) indentAfterMarker = 1;
		const indent = initial + indentAfterMarker;
		const itemOpen = state.push("list_item_open", "li", 1);
		itemOpen.markup = markup;
		const itemLines: [number, number] = [nextLine, 0];
		itemOpen.map = itemLines;
		if (isOrdered) itemOpen.info = state.src.slice(start, posAfterMarker - 1);
		const oldTight = state.tight;
		const oldTShift = state.tShift[nextLine] ?? 0;
		const oldSCount = state.sCount[nextLine] ?? 0;
		const oldListIndent = state.listIndent;
		state.listIndent = state.blkIndent;
		state.blkIndent = indent;
		state.tight = true;
		state.tShift[nextLine] = contentStart - (state.bMarks[nextLine] ?? 0);
		state.sCount[nextLine] = offset;
		try {
			// markdown-it's workaround: an empty item followed by a blank line ends the list.
			if (contentStart >= max && state.isEmpty(nextLine + 1)) state.line = Math.min(state.line + 2, endLine);
			else if (opensWithShortParagraph(state, nextLine, endLine, chunkLines)) {
				// blocksInSteps' first turn, taken here without a generator of its own: most items are a line of text.
				const tokens = state.tokens;
				const count = tokens.length;
				yield* consumeItems(tokens, count);
				tokens.splice(0, count);
				const counts = countsOf(state);
				const since = counts.nestedLines + state.line - nextLine;
				let line = state.line;
				let emptyLineAfter = false;
				if (line < endLine && state.isEmpty(line)) {
					emptyLineAfter = true;
					line++;
				}
				state.line = line;
				counts.nestedLines = since >= NESTED_PAUSE_LINES ? 0 : since;
				if (since >= NESTED_PAUSE_LINES) yield;
				if (line < endLine) state.line = line = state.skipEmptyLines(line);
				// More of the item (a nested list, a lazy or indented line after an empty one): its blocks parsed as they were.
				if (line < endLine && (state.sCount[line] ?? 0) >= state.blkIndent)
					yield* blocksInSteps(state, line, endLine, chunkLines, consumeItems, emptyLineAfter);
			} else yield* blocksInSteps(state, nextLine, endLine, chunkLines, consumeItems);
		} finally {
			state.blkIndent = state.listIndent;
			state.listIndent = oldListIndent;
			state.tShift[nextLine] = oldTShift;
			state.sCount[nextLine] = oldSCount;
		}
		if (!state.tight || prevEmptyEnd) tight = false;
		// An item ending with a blank line is loose, unless it is the last (the blank line ends the list).
		prevEmptyEnd = state.line - nextLine > 1 && state.isEmpty(state.line - 1);
		state.tight = oldTight;
		const itemClose = state.push("list_item_close", "li", -1);
		itemClose.markup = markup;
		nextLine = state.line;
		itemLines[1] = nextLine;
		if (nextLine >= endLine) break;
		if ((state.sCount[nextLine] ?? 0) < state.blkIndent) break;
		if ((state.sCount[nextLine] ?? 0) - state.blkIndent >= 4) break;
		if (listTerminators.some((rule) => rule(state, nextLine, endLine, true))) break;
		if (isOrdered) {
			posAfterMarker = skipOrderedListMarker(state, nextLine);
			if (posAfterMarker < 0) break;
			start = (state.bMarks[nextLine] ?? 0) + (state.tShift[nextLine] ?? 0);
		} else {
			posAfterMarker = skipBulletListMarker(state, nextLine);
			if (posAfterMarker < 0) break;
		}
		if (markerCharCode !== state.src.charCodeAt(posAfterMarker - 1)) break;
	}
	const listClose = state.push(isOrdered ? "ordered_list_close" : "bullet_list_close", isOrdered ? "ol" : "ul", -1);
	listClose.markup = markup;
	listLines[1] = nextLine;
	state.line = nextLine;
	state.parentType = oldParentType;
	handed.openLists--;
	if (tight && marksHidden) for (let index = firstParagraph; index < paragraphs.length; index++) (paragraphs[index] as MarkdownToken).hidden = true;
	paragraphs.length = firstParagraph;
	// Paragraphs handed over at a level where no list was open then are kept by none.
	if (handed.openLists === 0) handed.byLevel.length = 0;
	if (tight && marksHidden) {
		// Those not handed over yet are still among the state's tokens.
		const tokens = state.tokens;
		for (let index = 0; index < tokens.length - 2; index++) {
			const token = tokens[index];
			if (token?.type === "paragraph_open" && token.level === paragraphLevel && tokens[index + 2]) {
				token.hidden = true;
				(tokens[index + 2] as MarkdownToken).hidden = true;
				index += 2;
			}
		}
	}
}

/**
 * The paragraphs handed over while lists are open, by level (with their closing tokens): a list
 * that ends tight marks those at its own paragraph level hidden. Every token is looked at once,
 * by the outermost open list, however deep lists nest: each list looking at every token handed
 * over inside it made a note of lists in quotes 400 deep spend half of its parse there.
 */
class HandedParagraphs {
	openLists = 0;
	readonly byLevel: MarkdownToken[][] = [];

	collecting(consume: TokenConsumer): TokenConsumer {
		const byLevel = this.byLevel;
		return function* (tokens, count) {
			for (let index = 0; index < count; index++) {
				const token = tokens[index];
				if (token?.type !== "paragraph_open") continue;
				const level = byLevel[token.level];
				// No list open at that paragraph level: no list marks it.
				if (level === undefined) continue;
				level.push(token);
				const close = tokens[index + 2];
				if (close) level.push(close);
				index += 2;
			}
			yield* consume(tokens, count);
		};
	}
}

const handedParagraphs = new WeakMap<StateBlock, HandedParagraphs>();

function handedParagraphsOf(state: StateBlock): HandedParagraphs {
	let handed = handedParagraphs.get(state);
	if (!handed) {
		handed = new HandedParagraphs();
		handedParagraphs.set(state, handed);
	}
	return handed;
}

/**
 * A table, as markdown-it's table rule (lib/rules_block/table.mjs, 14.1) makes it, in steps: the
 * same tokens, pushed cell by cell, with a pause after every TABLE_CHUNK_CELLS cells (header cells
 * and filled-in cells count) or `chunkLines` rows. A row, or the header, may be cut between two
 * cells: a header of 20,000 columns is 60,000 tokens, and each row under it as many. Before a
 * pause the tokens so far are handed over, all but the table's closing ones (the consumer reads a
 * table's lines at its close). The caller has checked that the rule accepts `startLine`.
 */
function* tableSteps(state: StateBlock, startLine: number, endLine: number, chunkLines: number, consume: TokenConsumer, head: TableHead): Steps<void> {
	const { aligns, columns } = head;
	const columnCount = columns.length;
	let cells = 0;
	let rows = 0;
	function* pauseIfDue(): Steps<void> {
		if (cells < TABLE_CHUNK_CELLS && rows < chunkLines) return;
		cells = 0;
		rows = 0;
		yield* handOver(state.tokens, state.tokens.length, consume);
		yield;
	}
	const tableOpen = state.push("table_open", "table", 1);
	const tableLines: [number, number] = [startLine, 0];
	tableOpen.map = tableLines;
	state.push("thead_open", "thead", 1).map = [startLine, startLine + 1];
	state.push("tr_open", "tr", 1).map = [startLine, startLine + 1];
	for (let index = 0; index < columnCount; index++) {
		pushCell(state, "th", aligns[index], columns[index]?.trim() ?? "");
		cells++;
		yield* pauseIfDue();
	}
	state.push("tr_close", "tr", -1);
	state.push("thead_close", "thead", -1);
	let bodyLines: [number, number] | undefined;
	let autocompletedCells = 0;
	let nextLine = startLine + 2;
	for (; nextLine < endLine; nextLine++) {
		if ((state.sCount[nextLine] ?? 0) < state.blkIndent || endsTable(state, nextLine, endLine)) break;
		const text = lineText(state, nextLine).trim();
		if (!text) break;
		if ((state.sCount[nextLine] ?? 0) - state.blkIndent >= 4) break;
		const row = yield* tableCellsSteps(text);
		autocompletedCells += columnCount - row.length;
		if (autocompletedCells > MAX_AUTOCOMPLETED_CELLS) break;
		if (nextLine === startLine + 2) state.push("tbody_open", "tbody", 1).map = bodyLines = [startLine + 2, 0];
		state.push("tr_open", "tr", 1).map = [nextLine, nextLine + 1];
		for (let index = 0; index < columnCount; index++) {
			const cell = row[index];
			pushCell(state, "td", aligns[index], cell ? cell.trim() : "");
			cells++;
			// The row's last cell waits for its close: a pause comes after the row.
			if (index < columnCount - 1) yield* pauseIfDue();
		}
		state.push("tr_close", "tr", -1);
		rows++;
		// Not after the table's last line: its closing tokens come first.
		if (nextLine + 1 < endLine) yield* pauseIfDue();
	}
	if (bodyLines) {
		state.push("tbody_close", "tbody", -1);
		bodyLines[1] = nextLine;
	}
	state.push("table_close", "table", -1);
	tableLines[1] = nextLine;
	state.line = nextLine;
}

/** A line's text from its first non-space character, as markdown-it's table rule reads it. */
function lineText(state: StateBlock, line: number): string {
	return state.src.slice((state.bMarks[line] ?? 0) + (state.tShift[line] ?? 0), state.eMarks[line]);
}

/**
 * False when the table rule refuses `startLine` at its first checks (the line under it is no
 * delimiter line: indented out, shorter than two characters, or opening with none of `|`, `-`, `:`),
 * asked before tableHeadSteps is made: of nearly every block, and of every line of a paragraph.
 */
function mayOpenTable(state: StateBlock, startLine: number, endLine: number): boolean {
	if (startLine + 2 > endLine) return false;
	const delimiterLine = startLine + 1;
	const delimiterIndent = state.sCount[delimiterLine] as number;
	if (delimiterIndent < state.blkIndent || delimiterIndent - state.blkIndent >= 4) return false;
	const start = (state.bMarks[delimiterLine] as number) + (state.tShift[delimiterLine] as number);
	if (start + 1 >= (state.eMarks[delimiterLine] as number)) return false;
	const first = state.src.charCodeAt(start);
	return first === PIPE || first === DASH || first === COLON;
}

/** A table's alignments (one a column) and header cells, as markdown-it's table rule reads them from its first two lines. */
interface TableHead {
	aligns: string[];
	columns: string[];
}

/** A delimiter line's cell as the table rule accepts it: dashes, with a colon at either end for the alignment. */
const DELIMITER_CELL = /^:?-+:?$/;

/** The characters the table rule allows on a delimiter line besides its pipes: `-`, `:`, space and tab. */
function isDelimiterChar(code: number): boolean {
	return code === DASH || code === COLON || code === SPACE || code === TAB;
}

/**
 * Whether markdown-it's table rule (lib/rules_block/table.mjs, 14.1) accepts `startLine` as a
 * table's header (asked silently, as it is by the parse), and then its head; null when it does not.
 * The same checks, made a column at a time with a pause every TABLE_CHUNK_CELLS columns: the rule
 * splits the two lines whole, and a header of a million columns was one piece of about a second
 * (a 250,000-column header in a 1 MB note, 0.3 s).
 */
function* tableHeadSteps(state: StateBlock, startLine: number, endLine: number): Steps<TableHead | null> {
	if (!mayOpenTable(state, startLine, endLine)) return null;
	const delimiterLine = startLine + 1;
	const src = state.src;
	const start = (state.bMarks[delimiterLine] as number) + (state.tShift[delimiterLine] as number);
	const max = state.eMarks[delimiterLine] as number;
	const first = src.charCodeAt(start);
	const second = src.charCodeAt(start + 1);
	if (second !== PIPE && !isDelimiterChar(second)) return null;
	// A `-` then a space is a list item.
	if (first === DASH && (second === SPACE || second === TAB)) return null;
	const aligns: string[] = [];
	let pieces = 0;
	for (let pieceStart = start; ;) {
		let pieceEnd = src.indexOf("|", pieceStart);
		if (pieceEnd === -1 || pieceEnd > max) pieceEnd = max;
		for (let at = pieceStart; at < pieceEnd; at++) if (!isDelimiterChar(src.charCodeAt(at))) return null;
		const text = src.slice(pieceStart, pieceEnd).trim();
		// Only the first and last pieces may be empty (` |---| `, never ` ---||--- `).
		if (!text) {
			if (pieceStart !== start && pieceEnd !== max) return null;
		} else {
			if (!DELIMITER_CELL.test(text)) return null;
			if (text.endsWith(":")) aligns.push(text.startsWith(":") ? "center" : "right");
			else aligns.push(text.startsWith(":") ? "left" : "");
		}
		if (++pieces % TABLE_CHUNK_CELLS === 0) yield;
		if (pieceEnd === max) break;
		pieceStart = pieceEnd + 1;
	}
	const header = lineText(state, startLine).trim();
	if (!header.includes("|")) return null;
	if ((state.sCount[startLine] as number) - state.blkIndent >= 4) return null;
	const columns = yield* tableCellsSteps(header);
	if (columns.length === 0 || columns.length !== aligns.length) return null;
	return { aligns, columns };
}

/** One header or body cell's three tokens, as the table rule pushes them (their types constant strings, see pushParagraph). */
function pushCell(state: StateBlock, tag: "th" | "td", align: string | undefined, content: string): void {
	const open = state.push(tag === "th" ? "th_open" : "td_open", tag, 1);
	if (align) open.attrs = [["style", `text-align:${align}`]];
	const inline = state.push("inline", "", 0);
	inline.content = content;
	inline.children = [];
	state.push(tag === "th" ? "th_close" : "td_close", tag, -1);
}

/** True if a rule that ends a table (the blockquote's terminators) starts on `line`, asked as the table rule asks. */
function endsTable(state: StateBlock, line: number, endLine: number): boolean {
	const parentType = state.parentType;
	// markdown-it's types leave out the parent type its table rule sets.
	state.parentType = "table" as StateBlock["parentType"];
	try {
		return tableTerminators.some((rule) => rule(state, line, endLine, true));
	} finally {
		state.parentType = parentType;
	}
}

/**
 * A row's cells as markdown-it's table rule reads them from its trimmed text: its `escapedSplit`
 * (a `|` splits unless right after a `\`, and `\|` becomes `|`), less an empty first and last piece;
 * a pause every TABLE_CHUNK_CELLS cells.
 */
function* tableCellsSteps(text: string): Steps<string[]> {
	const result: string[] = [];
	let isEscaped = false;
	let lastPos = 0;
	let current = "";
	for (let pos = 0; pos < text.length; pos++) {
		const code = text.charCodeAt(pos);
		if (code === PIPE) {
			if (!isEscaped) {
				result.push(current + text.substring(lastPos, pos));
				current = "";
				lastPos = pos + 1;
				if (result.length % TABLE_CHUNK_CELLS === 0) yield;
			} else {
				current += text.substring(lastPos, pos - 1);
				lastPos = pos;
			}
		}
		isEscaped = code === BACKSLASH;
	}
	result.push(current + text.substring(lastPos));
	if (result.length && result[0] === "") result.shift();
	if (result.length && result[result.length - 1] === "") result.pop();
	return result;
}

/**
 * A code block (fenced or indented) or an HTML block starting at `startLine` that may run past
 * `chunkLines` lines, read in steps: markdown-it's rule reads it to its end in one call (an HTML
 * block of a million lines held the event loop 0.7–1.8 s). A `%%` or `$$` block or a paragraph the same way.
 * False, with nothing read, when none starts there or the rest of the lines fit in a chunk.
 */
function* longBlockInSteps(state: StateBlock, startLine: number, endLine: number, chunkLines: number): Steps<boolean> {
	if (startLine + chunkLines >= endLine) return false;
	return (
		(yield* indentedCodeInSteps(state, startLine, endLine, chunkLines)) ||
		(yield* delimitedInSteps(state, startLine, endLine, chunkLines)) ||
		(yield* fenceInSteps(state, startLine, endLine, chunkLines)) ||
		(yield* htmlBlockInSteps(state, startLine, endLine, chunkLines)) ||
		(yield* paragraphInSteps(state, startLine, endLine, chunkLines))
	);
}

/** A `%%` or `$$` block read in steps (see delimitedBlockSteps). The code rule, which refuses no line these rules take, comes before them. */
function* delimitedInSteps(state: StateBlock, startLine: number, endLine: number, chunkLines: number): Steps<boolean> {
	const block = DELIMITED_BLOCKS.find((candidate) => opensDelimitedBlock(state, startLine, candidate));
	if (!block) return false;
	yield* delimitedBlockSteps(state, startLine, endLine, block, chunkLines);
	return true;
}

/**
 * A paragraph, a setext heading or a footnote definition read in steps: markdown-it's lheading and
 * paragraph rules (lib/rules_block/lheading.mjs, paragraph.mjs, 14.1.0) test each line after the
 * first, as they do, `chunkLines` lines between two pause points, then take the lines' text a
 * chunk at a time. Each line is tested as the rules test it, so a pause may come before any line:
 * cut into chunks that each began a paragraph of their own, a paragraph went on in one call through
 * lines that could begin no chunk (400,000 lazy lines in a list item held the server 0.8-1.2 s;
 * lines indented, or opening with `-`, `*`, `` ` `` or holding a `|`, the same at the top level).
 * Called where no list starts (`startsList`) and every block rule before the paragraph's but the
 * footnote's refuses the line; false, with nothing read, when one takes it or the rest of the lines fit in a chunk.
 */
function* paragraphInSteps(state: StateBlock, startLine: number, endLine: number, chunkLines: number): Steps<boolean> {
	if (startLine + chunkLines >= endLine || (state.sCount[startLine] ?? 0) - state.blkIndent >= 4) return false;
	// A footnote definition is a paragraph (the footnote rule calls the paragraph rule, not lheading's); the rules after it are not asked then.
	let footnote = false;
	for (const rule of rulesBeforeParagraph) {
		if (!rule(state, startLine, endLine, true)) continue;
		if (rule !== footnoteDefinition) return false;
		footnote = true;
		break;
	}
	// A link reference definition whose label or title runs on takes in every line to the note's end or an empty line: in steps too.
	if (!footnote && (yield* referenceSteps(state, startLine, false, chunkLines))) return true;
	if (!footnote && htmlBlockKind(state, startLine)) return false;
	const oldParentType = state.parentType;
	state.parentType = "paragraph";
	let end = paragraphEnd(state, startLine + 1, Math.min(endLine, startLine + chunkLines), endLine, footnote);
	// Each chunk of lines looked through between two pauses; a pause only before a line that is looked at.
	while (end.line < endLine && end.marker === NOT_ENDED && !state.isEmpty(end.line)) {
		yield;
		end = paragraphEnd(state, end.line, Math.min(endLine, end.line + chunkLines), endLine, footnote);
	}
	const content = yield* trimmedLinesSteps(state, startLine, end.line, chunkLines);
	pushParagraph(state, startLine, end, content, footnote, oldParentType);
	return true;
}

/**
 * A paragraph or setext heading opening on a line no rule but theirs and the table's may take
 * (`opensParagraphOnly`), read in one go when it ends within `chunkLines` lines: the same lines
 * tested and tokens pushed as paragraphInSteps, with none of the other rules asked of its first line
 * and no step made. False, with nothing read, when it runs on past them (paragraphInSteps reads it).
 */
function shortParagraph(state: StateBlock, startLine: number, endLine: number, chunkLines: number): boolean {
	const oldParentType = state.parentType;
	state.parentType = "paragraph";
	const end = paragraphEnd(state, startLine + 1, Math.min(endLine, startLine + chunkLines), endLine, false);
	if (end.line < endLine && end.marker === NOT_ENDED && !state.isEmpty(end.line)) {
		state.parentType = oldParentType;
		return false;
	}
	pushParagraph(state, startLine, end, state.getLines(startLine, end.line, state.blkIndent, false).trim(), false, oldParentType);
	return true;
}

/** Where a paragraph ends: its first line past it, and the setext marker (`=`, `-`) on that line, 0 when none, or NOT_ENDED when the lines looked at ran out first. */
interface ParagraphEnd {
	line: number;
	marker: number;
}
const NOT_ENDED = -1;

/**
 * Lines [from, to) of the paragraph that opened before `from` tested as markdown-it's lheading and
 * paragraph rules test them (lib/rules_block/lheading.mjs, paragraph.mjs, 14.1.0), with `parentType`
 * "paragraph", up to the first that ends it: an empty line, a setext underline (not in a footnote),
 * or a line a terminating rule takes. A line that opens with no block's character
 * (`opensParagraphOnly`) can end it only as a table's header: the other terminators are not asked.
 */
function paragraphEnd(state: StateBlock, from: number, to: number, endLine: number, footnote: boolean): ParagraphEnd {
	for (let line = from; line < to; line++) {
		if (state.isEmpty(line)) return { line, marker: 0 };
		const indent = state.sCount[line] ?? 0;
		// Indented as code, or marked lazy by a quote (which checked it): a lazy continuation line.
		if (indent - state.blkIndent > 3) continue;
		if (!footnote && indent >= state.blkIndent) {
			const marker = setextUnderline(state, line);
			if (marker) return { line, marker };
		}
		if (indent < 0) continue;
		if (opensParagraphOnly(state, line) ? mayOpenTable(state, line, endLine) && endsParagraph(state, line, endLine) : endsParagraph(state, line, endLine))
			return { line, marker: 0 };
	}
	return { line: to, marker: NOT_ENDED };
}

function endsParagraph(state: StateBlock, line: number, endLine: number): boolean {
	return paragraphTerminators.some((rule) => rule(state, line, endLine, true));
}

/** Pushes the paragraph's (or setext heading's) three tokens as lheading's and paragraph's rules push them, and moves past it. */
function pushParagraph(
	state: StateBlock,
	startLine: number,
	end: ParagraphEnd,
	content: string,
	footnote: boolean,
	oldParentType: StateBlock["parentType"],
): void {
	const level = end.marker === EQUALS ? 1 : end.marker > 0 ? 2 : 0;
	// lheading gives the parent type back only when it makes a heading: after a paragraph it is left "paragraph".
	state.parentType = level || footnote ? oldParentType : "paragraph";
	// Constant strings, not made from a template: the consumer compares each token's type with its cases.
	const tag = level === 1 ? "h1" : level === 2 ? "h2" : "p";
	const open = state.push(level ? "heading_open" : "paragraph_open", tag, 1);
	const inline = state.push("inline", "", 0);
	inline.content = content;
	inline.map = [startLine, end.line];
	inline.children = [];
	const close = state.push(level ? "heading_close" : "paragraph_close", tag, -1);
	state.line = level ? end.line + 1 : end.line;
	open.map = [startLine, state.line];
	if (level) open.markup = close.markup = String.fromCharCode(end.marker);
	if (footnote) open.meta = { footnoteDefinition: true };
}

/**
 * The first characters (after the indent) of a line that a block rule other than the table's, the
 * code's (an indent of 4), lheading's and the paragraph's may take: `%%`, `$$`, fences, quotes,
 * thematic breaks, list markers, footnotes and references, HTML blocks, ATX headings. No rule
 * takes a line opening with any other character but those four.
 */
const BLOCK_OPENERS = new Uint8Array(128);
for (const opener of "%$`~>*-_+[<#0123456789") BLOCK_OPENERS[opener.charCodeAt(0)] = 1;

/**
 * True when only a paragraph, a setext heading or a table (`mayOpenTable`) may open on `line`:
 * indented under 4 and opening with no block's character, or with a task's checkbox (`[c]` then no
 * `:`, c none of `[`, `]`, `\`, `^`), whose `]` ends the label a reference or footnote would need
 * followed by a colon.
 */
function opensParagraphOnly(state: StateBlock, line: number): boolean {
	if ((state.sCount[line] ?? 0) - state.blkIndent >= 4) return false;
	const src = state.src;
	const start = (state.bMarks[line] ?? 0) + (state.tShift[line] ?? 0);
	const first = src.charCodeAt(start);
	if (first >= 128 || BLOCK_OPENERS[first] === 0) return true;
	return (
		first === OPEN_BRACKET &&
		start + 2 < (state.eMarks[line] ?? 0) &&
		src.charCodeAt(start + 2) === CLOSE_BRACKET &&
		src.charCodeAt(start + 3) !== COLON &&
		!LABEL_BREAKERS.includes(src.charCodeAt(start + 1))
	);
}
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const CARET = 0x5e;
/** Characters that, right after a `[`, keep its next `]` from closing a one-character label (or open a footnote). */
const LABEL_BREAKERS = [OPEN_BRACKET, CLOSE_BRACKET, BACKSLASH, CARET];
const lheadingRule = ruleNamed("lheading");
const referenceRule = ruleNamed("reference");
const htmlBlockRule = ruleNamed("html_block");
/**
 * The rules before lheading's, in their order, that may take a paragraph's first line, asked silently: less the code and list
 * rules (see paragraphInSteps), the HTML block rule, whose silent answer is whether it may end a paragraph (htmlBlockKind is asked),
 * and the reference rule (asked in steps).
 */
const rulesBeforeParagraph = blockRules
	.slice(0, blockRules.indexOf(lheadingRule))
	.filter((rule) => ![codeRule, listRule, htmlBlockRule, referenceRule].includes(rule));
/** The rules that end a paragraph (markdown-it's lheading and paragraph rules ask them). */
const paragraphTerminators = markdownParser.block.ruler.getRules("paragraph") as BlockRule[];
const EQUALS = 0x3d;

/** The marker (`=` or `-`) of a setext underline on `line`, as lheading reads one, or 0. */
function setextUnderline(state: StateBlock, line: number): number {
	let pos = (state.bMarks[line] ?? 0) + (state.tShift[line] ?? 0);
	const max = state.eMarks[line] ?? 0;
	if (pos >= max) return 0;
	const marker = state.src.charCodeAt(pos);
	if (marker !== DASH && marker !== EQUALS) return 0;
	pos = state.skipSpaces(state.skipChars(pos, marker));
	return pos >= max ? marker : 0;
}

/**
 * `getLines(startLine, endLine, blkIndent, false).trim()`, as the paragraph rule takes its text, a
 * chunk of lines between two pause points: each chunk is appended, not joined (the parts stay
 * linked until the text is read), less the white space a trim of the whole would take from either end.
 */
function* trimmedLinesSteps(state: StateBlock, startLine: number, endLine: number, chunkLines: number): Steps<string> {
	let text = "";
	// White space after the text so far: kept only if more text follows.
	let pending = "";
	for (let from = startLine; from < endLine; from += chunkLines) {
		if (from > startLine) yield;
		const to = Math.min(from + chunkLines, endLine);
		let part = state.getLines(from, to, state.blkIndent, to < endLine);
		if (text === "") part = part.trimStart();
		const kept = part.trimEnd();
		if (kept === "") {
			pending += part;
			continue;
		}
		text += pending + kept;
		pending = part.slice(kept.length);
	}
	return text;
}

/**
 * An indented code block read in steps: markdown-it's code rule looks through every line for the
 * block's end and copies them all in one call (a block of 400,000 lines, 6 MB, held the event loop
 * 0.37 s). Its lines are tested as the rule tests them, a chunk between pauses, and copied a chunk
 * at a time, giving the rule's token (each piece but the last keeps its last line's end, and the
 * rule adds one after the last line). The code rule is the first that may take a line indented four
 * columns or more.
 */
function* indentedCodeInSteps(state: StateBlock, startLine: number, endLine: number, chunkLines: number): Steps<boolean> {
	if ((state.sCount[startLine] ?? 0) - state.blkIndent < 4) return false;
	let line = startLine + 1;
	let last = line;
	for (; line < endLine; line++) {
		if ((line - startLine) % chunkLines === 0) yield;
		if (state.isEmpty(line)) continue;
		if ((state.sCount[line] ?? 0) - state.blkIndent < 4) break;
		last = line + 1;
	}
	const token = state.push("code_block", "code", 0);
	for (let from = startLine; from < last; from += chunkLines) {
		if (from > startLine) yield;
		const to = Math.min(from + chunkLines, last);
		// Appended, not joined: the parts stay linked until the text is read.
		token.content += state.getLines(from, to, 4 + state.blkIndent, to < last);
	}
	token.content += "\n";
	state.line = last;
	token.map = [startLine, last];
	return true;
}

/**
 * A fenced code block that may run past `chunkLines` lines, read in steps: markdown-it's fence rule
 * looks for the closing line and copies every line of the block in one call, and a fence of a
 * million lines held the event loop 0.6 s. The rule itself reads the first chunk; when the fence
 * runs past it, each later line is tested as the rule tests it (`fenceLine`) and the lines' text
 * appended a chunk at a time (markdown-it's `getLines` copies each line on its own), so the token is
 * the one the rule makes for the whole block. No rule before the fence rule takes a line that opens
 * a fence (code needs an indent the fence rule refuses; `%%` and `$$` differ from its markers).
 * False, with nothing read, when no fence starts at `startLine`.
 */
function* fenceInSteps(state: StateBlock, startLine: number, endLine: number, chunkLines: number): Steps<boolean> {
	const limit = startLine + chunkLines;
	if (!fenceRule(state, startLine, limit, true)) return false;
	const first = state.tokens.length;
	fenceRule(state, startLine, limit, false);
	// Closed (or ended by a lazy line) inside the chunk: the rule's own token. On its last line, the rule leaves `state.line` at the limit too.
	if (state.line < limit || (limit - 1 > startLine && fenceLine(state, limit - 1, startLine) === "closes")) return true;
	const token = state.tokens[first] as MarkdownToken;
	const indent = state.sCount[startLine] ?? 0;
	let from = limit;
	let line = limit;
	let closed = false;
	yield;
	for (; line < endLine; line++) {
		const kind = fenceLine(state, line, startLine);
		if (kind !== "inside") {
			closed = kind === "closes";
			break;
		}
		if (line + 1 - from >= chunkLines) {
			// Appended, not joined: the parts stay linked until the text is read.
			token.content += state.getLines(from, line + 1, indent, true);
			from = line + 1;
			yield;
		}
	}
	token.content += state.getLines(from, line, indent, true);
	state.line = line + (closed ? 1 : 0);
	token.map = [startLine, state.line];
	return true;
}

/**
 * An HTML block that may run past `chunkLines` lines, read in steps, as fenceInSteps reads a fence:
 * markdown-it's rule reads it to its end in one call, and a `<!--`, `<pre>` or `<div>` block of a million lines held the
 * event loop 0.7–1.8 s. Its lines are tested as the rule tests them (`htmlBlockLine`), a chunk
 * between pauses, and copied a chunk at a time, giving the rule's token. No rule before the HTML
 * block rule takes a line starting with `<` (tables are parsed before this is asked).
 * False, with nothing read, when no HTML block starts at `startLine`.
 */
function* htmlBlockInSteps(state: StateBlock, startLine: number, endLine: number, chunkLines: number): Steps<boolean> {
	const kind = htmlBlockKind(state, startLine);
	if (!kind) return false;
	const closes = kind[1];
	let line = startLine + 1;
	if (htmlBlockLine(state, startLine, closes) === "inside") {
		for (; line < endLine; line++) {
			const meets = htmlBlockLine(state, line, closes);
			if (meets !== "inside") {
				if (meets === "closes") line++;
				break;
			}
			if ((line - startLine) % chunkLines === 0) yield;
		}
	}
	const token = state.push("html_block", "", 0);
	token.map = [startLine, line];
	for (let from = startLine; from < line; from += chunkLines) {
		if (from > startLine) yield;
		// Appended, not joined: the parts stay linked until the text is read.
		token.content += state.getLines(from, Math.min(from + chunkLines, line), state.blkIndent, true);
	}
	state.line = line;
	return true;
}

/** How `line` meets the fence opened on `openLine`, tested as markdown-it's fence rule tests it: its closing line, a line that ends it (a lazy one), or a line inside it. */
function fenceLine(state: StateBlock, line: number, openLine: number): "closes" | "ends" | "inside" {
	const opener = (state.bMarks[openLine] ?? 0) + (state.tShift[openLine] ?? 0);
	const marker = state.src.charCodeAt(opener);
	const start = (state.bMarks[line] ?? 0) + (state.tShift[line] ?? 0);
	const max = state.eMarks[line] ?? 0;
	const indent = state.sCount[line] ?? 0;
	if (start < max && indent < state.blkIndent) return "ends";
	if (state.src.charCodeAt(start) !== marker || indent - state.blkIndent >= 4) return "inside";
	const after = state.skipChars(start, marker);
	if (after - start < state.skipChars(opener, marker) - opener) return "inside";
	return state.skipSpaces(after) < max ? "inside" : "closes";
}
