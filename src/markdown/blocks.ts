import MarkdownIt from "markdown-it";
import { htmlBlock, htmlBlockKind, htmlBlockLine } from "./htmlBlock";
import {
	BLOCK_CHUNK_LINES,
	CHUNK_SEARCH_LINES,
	LINE_SPLIT_PAUSE_LINES,
	MAX_MARKDOWN_NESTING,
	MAX_STEPPED_BLOCK_DEPTH,
	TABLE_CHUNK_CELLS,
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
 * markdown-it's `ParserBlock.tokenize`), and a huge top-level paragraph or list is parsed in
 * chunks of lines, each chunk ending just before a line that provably continues that same
 * paragraph or list; the chunks' tokens are joined back into the tokens the whole block gives.
 * Any other block that reaches a chunk's end is parsed again in one call, as markdown-it would.
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
 * markdown-it's table rule (lib/rules_block/table.mjs) stops a table once the cells it fills in for
 * short rows, counted from the table's first row, pass this many.
 */
const MAX_AUTOCOMPLETED_CELLS = 0x10000;

/**
 * Characters `normalizeSteps` rewrites between two chances to pause: a regular expression replacing
 * each of a note's 250,000 NULs (or carriage returns) ran in one piece of 1.2-1.8 s, as V8 runs a
 * regular expression's first use in its interpreter.
 */
const NORMALIZE_STEP_CHARS = 16_384;

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

/** Line breaks counted between two pause points (a count is much lighter than splitting a line into its marks). */
const LINE_COUNT_PAUSE_LINES = 8 * LINE_SPLIT_PAUSE_LINES;

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
 * list item (a paragraph there is cut only at lines at the item's indent: see `continues`; a paragraph
 * of 400,000 lines in an item was one rule call of 0.8 s).
 */
function* blocksInSteps(state: StateBlock, startLine: number, endLine: number, chunkLines: number, consume: TokenConsumer): Steps<void> {
	// Each call is a quote's or a list item's content, and two generators on the stack under it.
	const depth = (steppedDepths.get(state) ?? 0) + 1;
	if (depth > MAX_STEPPED_BLOCK_DEPTH) {
		leaveOut(state, startLine, endLine);
		return;
	}
	steppedDepths.set(state, depth);
	try {
		const tokens = state.tokens;
		let line = startLine;
		let hasEmptyLines = false;
		// Whether a line may end a chunk depends on its marks, which differ inside a quote: one per container.
		const candidates = new CandidateLines(state);
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
			const head = yield* tableHeadSteps(state, line, endLine);
			if (head) yield* tableSteps(state, line, endLine, chunkLines, consume, head);
			else if (startsAQuote) yield* quoteInSteps(state, line, endLine, chunkLines, consume);
			else yield* topLevelBlock(state, candidates, line, endLine, chunkLines, consume);
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
				const since = (nestedLinesSincePause.get(state) ?? 0) + (quote ? 1 : blockLines);
				nestedLinesSincePause.set(state, since >= NESTED_PAUSE_LINES ? 0 : since);
				if (since < NESTED_PAUSE_LINES) continue;
			}
			yield;
		}
	} finally {
		steppedDepths.set(state, depth - 1);
	}
}
const steppedDepths = new WeakMap<StateBlock, number>();

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

/**
 * Inside quotes, a pause after every block resumes through every open quote's step: in a note of
 * quotes 700 deep, 1,400 pauses through hundreds of levels each made the parse 4 times longer. So
 * blocks inside quotes pause once this many of their lines (or quotes) are parsed, per parse.
 */
const NESTED_PAUSE_LINES = 32;
const nestedLinesSincePause = new WeakMap<StateBlock, number>();
/** Lines read by opening quotes since the last pause, per parse (see quoteInSteps). */
const quoteLinesSincePause = new WeakMap<StateBlock, number>();

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

type Continuation = { kind: "paragraph" } | { kind: "list"; openType: string; markup: string };

/**
 * One top-level block other than a table or a quote (blocksInSteps parses those), in chunks when
 * it is a huge paragraph or list. A list's tokens are handed
 * over chunk by chunk (all but the last item's close and the list's close, which the next chunk
 * replaces); a paragraph's three tokens stay until it ends.
 */
function* topLevelBlock(
	state: StateBlock,
	candidates: CandidateLines,
	blockStart: number,
	endLine: number,
	chunkLines: number,
	consume: TokenConsumer,
): Steps<void> {
	// A top-level list whose item holds a table is parsed item by item, the table in chunks of rows.
	if (startsList(state, blockStart, endLine)) return yield* listInSteps(state, blockStart, endLine, chunkLines, consume);
	if (yield* longBlockInSteps(state, blockStart, endLine, chunkLines)) return;
	const level = state.level;
	const tokens = state.tokens;
	const firstToken = tokens.length;
	/** The block's kind once its first chunk is cut and accepted; before that, the kind a retry of the first chunk looks for. */
	let continuation: Continuation | null = null;
	let accepted = false;
	let open: MarkdownToken | undefined;
	let handedOver = false;
	let start = blockStart;
	for (;;) {
		let limit = chunkEnd(state, candidates, start + chunkLines, endLine, continuation);
		const before = tokens.length;
		runRules(state, start, limit);
		if (state.line >= limit && limit < endLine && reachesEnd(tokens, before, limit)) {
			// A `%%` or `$$` block in this chunk ran to its end: the chunk is parsed again, to the note's end.
			if (!accepted) return reparseWhole(state, level, firstToken, blockStart, endLine);
			tokens.length = before;
			state.line = start;
			limit = endLine;
			runRules(state, start, endLine);
		}
		if (accepted && continuation && open) {
			// By the way chunk ends are chosen, the chunk continues the block; were it not, it stays a block of its own.
			if (!joinChunk(state, before, continuation, open, firstToken)) return;
			if (continuation.kind === "paragraph" && tokens[firstToken]?.type === "heading_open") return;
		}
		if (state.line < limit || limit >= endLine) return;
		// The block reached the chunk's end: go on only if the next line provably continues it.
		if (!accepted) {
			const kind = continuationOf(tokens[firstToken]);
			if (!kind || handedOver) return reparseWhole(state, level, firstToken, blockStart, endLine);
			if (!continues(state, limit, kind)) {
				if (continuation) return reparseWhole(state, level, firstToken, blockStart, endLine);
				// The chunk's end suited another kind of block: cut this one again where it continues.
				tokens.length = firstToken;
				state.line = blockStart;
				continuation = kind;
				continue;
			}
			continuation = kind;
			accepted = true;
			open = tokens[firstToken];
		}
		if (continuation?.kind === "list") {
			yield* handOver(tokens, tokens.length - 2, consume);
			handedOver = true;
		}
		tokens.pop();
		start = limit;
		yield;
	}
}

/** A quote whose lines are parsed in steps, as blocks are at the top level: tables and quotes inside it in chunks too. */
function* quoteInSteps(state: StateBlock, blockStart: number, endLine: number, chunkLines: number, consume: TokenConsumer): Steps<void> {
	const quote = yield* openQuoteSteps(state, blockStart, endLine, chunkLines);
	// Opening a quote reads each of its lines, and a nested quote opens before anything else pauses: a
	// note of 1,000 lines each 641 `> ` deep read 641,000 lines in one piece (0.15 s CPU, a second of wall).
	const read = (quoteLinesSincePause.get(state) ?? 0) + quote.end - blockStart;
	quoteLinesSincePause.set(state, read >= chunkLines ? 0 : read);
	if (read >= chunkLines) yield;
	try {
		yield* blocksInSteps(state, blockStart, quote.end, chunkLines, consume);
	} catch (error) {
		abandonQuote(state, quote);
		throw error;
	}
	yield* closeQuoteSteps(state, quote, chunkLines);
}

/** True if markdown-it's list rule takes `line`: no rule before it does, and it does. */
function startsList(state: StateBlock, line: number, endLine: number): boolean {
	if (rulesBeforeList.some((rule) => rule(state, line, endLine, true))) return false;
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
			else yield* blocksInSteps(state, nextLine, endLine, chunkLines, consumeItems);
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
	if (startLine + 2 > endLine) return null;
	const delimiterLine = startLine + 1;
	const delimiterIndent = state.sCount[delimiterLine] as number;
	if (delimiterIndent < state.blkIndent || delimiterIndent - state.blkIndent >= 4) return null;
	const src = state.src;
	const start = (state.bMarks[delimiterLine] as number) + (state.tShift[delimiterLine] as number);
	const max = state.eMarks[delimiterLine] as number;
	if (start + 1 >= max) return null;
	const first = src.charCodeAt(start);
	const second = src.charCodeAt(start + 1);
	if (first !== PIPE && first !== DASH && first !== COLON) return null;
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

/** One header or body cell's three tokens, as the table rule pushes them. */
function pushCell(state: StateBlock, tag: "th" | "td", align: string | undefined, content: string): void {
	const open = state.push(`${tag}_open`, tag, 1);
	if (align) open.attrs = [["style", `text-align:${align}`]];
	const inline = state.push("inline", "", 0);
	inline.content = content;
	inline.children = [];
	state.push(`${tag}_close`, tag, -1);
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

/** Parses the block again in one call, as markdown-it would have. */
function reparseWhole(state: StateBlock, level: number, firstToken: number, blockStart: number, endLine: number): void {
	state.tokens.length = firstToken;
	state.line = blockStart;
	state.level = level;
	runRules(state, blockStart, endLine);
}

/**
 * A code block (fenced or indented) or an HTML block starting at `startLine` that may run past
 * `chunkLines` lines, read in steps: such a block continues no paragraph or list, so cut at a
 * chunk's end it would be parsed again to its end in one rule call, and in a list item it was one
 * rule call. False, with nothing read, when none starts there or the rest of the lines fit in a chunk.
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
	let level = 0;
	let marker = 0;
	let nextLine = startLine + 1;
	for (; nextLine < endLine && !state.isEmpty(nextLine); nextLine++) {
		if ((nextLine - startLine) % chunkLines === 0) yield;
		const indent = state.sCount[nextLine] ?? 0;
		// Indented as code, or marked lazy by a quote (which checked it): a lazy continuation line.
		if (indent - state.blkIndent > 3) continue;
		if (!footnote && indent >= state.blkIndent) {
			marker = setextUnderline(state, nextLine);
			if (marker) {
				level = marker === EQUALS ? 1 : 2;
				break;
			}
		}
		if (indent < 0) continue;
		if (paragraphTerminators.some((rule) => rule(state, nextLine, endLine, true))) break;
	}
	// lheading gives the parent type back only when it makes a heading: after a paragraph it is left "paragraph".
	state.parentType = level || footnote ? oldParentType : "paragraph";
	const content = yield* trimmedLinesSteps(state, startLine, nextLine, chunkLines);
	const kind = level ? `heading` : "paragraph";
	const tag = level ? `h${level}` : "p";
	const open = state.push(`${kind}_open`, tag, 1);
	const inline = state.push("inline", "", 0);
	inline.content = content;
	inline.map = [startLine, nextLine];
	inline.children = [];
	const close = state.push(`${kind}_close`, tag, -1);
	state.line = level ? nextLine + 1 : nextLine;
	open.map = [startLine, state.line];
	if (level) open.markup = close.markup = String.fromCharCode(marker);
	if (footnote) open.meta = { footnoteDefinition: true };
	return true;
}
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
 * cut at a chunk's end, an HTML block (which continues no paragraph or list) was parsed again to the
 * note's end in one rule call, and a `<!--`, `<pre>` or `<div>` block of a million lines held the
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

/** What a block cut at a chunk's end may continue as: a paragraph or a list (of one marker), nothing else. */
function continuationOf(open: MarkdownToken | undefined): Continuation | null {
	if (open?.type === "paragraph_open") return { kind: "paragraph" };
	if (open?.type === "bullet_list_open" || open?.type === "ordered_list_open") return { kind: "list", openType: open.type, markup: open.markup };
	return null;
}

/**
 * True if some `%%` or `$$` block in the chunk (its tokens from `from`) ran to its end: those rules look past their
 * container for a closing line, so the whole block could differ, and the chunk is not trusted.
 */
function reachesEnd(tokens: readonly MarkdownToken[], from: number, limit: number): boolean {
	for (let index = from; index < tokens.length; index++) {
		const token = tokens[index];
		if ((token?.type === "obsidian_comment" || token?.type === "obsidian_math") && (token.map?.[1] ?? 0) >= limit) return true;
	}
	return false;
}

/**
 * Appends the chunk just parsed (tokens from `before`) to the block: a paragraph's lines join the
 * open paragraph (or, when the chunk found a setext underline, the whole run becomes that heading);
 * a list's items join the open list. False if the chunk is not what was expected.
 */
function joinChunk(state: StateBlock, before: number, continuation: Continuation, open: MarkdownToken, firstToken: number): boolean {
	const tokens = state.tokens;
	const added = tokens[before];
	if (!open.map || !added?.map) return false;
	if (continuation.kind === "list") {
		if (added.type !== continuation.openType || added.markup !== continuation.markup) return false;
		tokens.splice(before, 1);
		open.map[1] = added.map[1];
		return true;
	}
	const inline = tokens[firstToken + 1];
	const addedInline = tokens[before + 1];
	if (inline?.type !== "inline" || addedInline?.type !== "inline" || !inline.map || !addedInline.map) return false;
	// markdown-it trims the whole paragraph once: lines of only whitespace it does not count as
	// blank (a no-break space) leave an empty start here, and that start is trimmed away too.
	const joined = (): string => {
		const text = `${inline.content}${trimmedAtEnd(state, open.map?.[0] ?? 0, added.map?.[0] ?? 0)}\n${addedInline.content}`;
		return inline.content === "" ? text.trimStart() : text;
	};
	if (added.type === "paragraph_open") {
		open.map[1] = added.map[1];
		inline.map[1] = addedInline.map[1];
		inline.content = joined();
		tokens.splice(before, 2);
		return true;
	}
	if (added.type === "heading_open" && (added.markup === "=" || added.markup === "-")) {
		// A setext underline turns the whole paragraph, from its first line, into a heading. Its text is
		// the paragraph's, joined as above: taking all its lines again (markdown-it's getLines) copied a
		// paragraph of two million lines in one piece of 400 ms.
		addedInline.content = joined();
		added.map[0] = open.map[0];
		addedInline.map[0] = open.map[0];
		tokens.splice(firstToken, before - firstToken);
		return true;
	}
	return false;
}

/**
 * The whitespace a chunk's `trim()` took from the end of lines [first, end) of a paragraph: markdown-it
 * trims the whole paragraph once, so spaces before a line break inside it stay (a chunk starts with
 * a non-space character, so nothing is taken from its start). Read line by line as `getLines` joins
 * them (inside a quote, the `>` markers between lines are no part of the paragraph), back over that whitespace only.
 */
function trimmedAtEnd(state: StateBlock, first: number, end: number): string {
	let trimmed = "";
	for (let line = end - 1; line >= first; line--) {
		// In a list item, `getLines` leaves out the item's indent: a line of no-break spaces keeps only those.
		const text =
			line === first
				? state.src.slice((state.bMarks[line] ?? 0) + (state.tShift[line] ?? 0), state.eMarks[line])
				: state.getLines(line, line + 1, state.blkIndent, false);
		let index = text.length;
		while (index > 0 && /\s/.test(text[index - 1] ?? "")) index--;
		trimmed = `${text.slice(index)}${trimmed}`;
		if (index > 0) break;
		if (line > first) trimmed = `\n${trimmed}`;
	}
	return trimmed;
}

/**
 * The first line at or after `from` (and at most CHUNK_SEARCH_LINES after it) where a chunk may
 * end: one that continues the open block, or, before the block's kind is known, one that would
 * continue a paragraph or a list. `endLine` when there is none.
 */
function chunkEnd(state: StateBlock, candidates: CandidateLines, from: number, endLine: number, continuation: Continuation | null): number {
	if (from >= endLine) return endLine;
	if (!continuation) {
		// Asked for every top-level block: remembered, so many small blocks cost one pass over the lines.
		const line = candidates.from(from);
		// Inside a quote, the line found may be past the quote's end.
		return line !== -1 && line < endLine && line - from < CHUNK_SEARCH_LINES ? line : endLine;
	}
	const last = Math.min(endLine, from + CHUNK_SEARCH_LINES);
	for (let line = from; line < last; line++) if (continues(state, line, continuation)) return line;
	return endLine;
}

/**
 * The next line, from a start that only grows, that could continue a paragraph or a list, looked
 * for at most CHUNK_SEARCH_LINES lines on (a line further is never used); remembered like
 * ForwardSearch in inline.ts, so each line is looked at once per parse. Looked for to the note's
 * end, a card of 400,000 empty lines was looked through in one piece of 50–60 ms.
 */
class CandidateLines {
	private lastFrom = -1;
	/** The line found for the last start (-1: none up to `next`). */
	private found = -1;
	/** The next line not looked at yet: between the last start and it, `found` is the only line that could continue. */
	private next = 0;

	constructor(private readonly state: StateBlock) {}

	/** The first line at or after `start` that could continue a paragraph or a list, or -1 when none is within CHUNK_SEARCH_LINES lines. */
	from(start: number): number {
		if (start < this.lastFrom) {
			this.found = -1;
			this.next = start;
		}
		this.lastFrom = start;
		if (this.found >= start) return this.found;
		this.found = -1;
		const last = Math.min(this.state.lineMax, start + CHUNK_SEARCH_LINES);
		let line = Math.max(start, this.next);
		for (; line < last; line++) {
			if (continues(this.state, line, { kind: "paragraph" }) || startsListItem(this.state, line) !== null) {
				this.found = line;
				this.next = line + 1;
				return line;
			}
		}
		this.next = Math.max(this.next, line);
		return -1;
	}
}

/**
 * True if `line` certainly continues a top-level paragraph or list that runs through the line
 * before it, whatever came earlier, and starts the same block when parsed alone.
 * - A paragraph: the previous line is not blank, and this line, at column 0, starts with nothing
 *   that could end a paragraph or start another block (list, heading, quote, fence, table, HTML,
 *   `%%`, `$$`, setext underline, link reference definition).
 * - A list: the previous line is not blank (so no item changes where it ends), and this line is a
 *   new item at column 0 with the same marker (and no `|`), which ends every item before it.
 */
function continues(state: StateBlock, line: number, continuation: Continuation): boolean {
	if (line <= 0 || line >= state.lineMax || state.isEmpty(line - 1) || state.isEmpty(line)) return false;
	// A `|` could make the line a table header when parsed alone.
	if (continuation.kind === "list")
		return startsListItem(state, line) === continuation.markup && !state.src.slice(state.bMarks[line] ?? 0, state.eMarks[line] ?? 0).includes("|");
	// In a list item, the line is at the item's indent (neither lazy nor indented further), its text read from there.
	if (state.blkIndent > 0 && state.sCount[line] !== state.blkIndent) return false;
	const start = (state.bMarks[line] ?? 0) + (state.blkIndent > 0 ? (state.tShift[line] ?? 0) : 0);
	const end = state.eMarks[line] ?? 0;
	const src = state.src;
	const first = src[start] ?? "";
	if (!/[^\s\-*+_>`~<=|:]/u.test(first)) return false;
	// Only `$$` and `%%` open a block, and only digits then `.` or `)` an ordered item: a line opening
	// otherwise with `$`, `%` or a digit continues the paragraph. Refused, a note whose every line
	// opened with `$ ` or `% ` (2.7 MB) was parsed in one piece of 0.4-0.75 s.
	if ((first === "$" || first === "%") && src.startsWith(first, start + 1)) return false;
	if (opensOrderedItem(src, start, end)) return false;
	const text = src.slice(start, end);
	if (text.includes("|")) return false;
	// A `#` starts a heading only before a space, a tab or the line's end (`#tag` lines continue a paragraph):
	// refused, a paragraph of 800,000 tags, one a line, was parsed in one piece of 600–750 ms.
	if (first === "#" && ATX_HEADING_START.test(text)) return false;
	if (first === "[") {
		// markdown-it's quick test for a link reference definition: the first `]` must be followed by something other than `:`.
		const close = text.indexOf("]");
		if (close === -1 || close === text.length - 1 || text[close + 1] === ":" || text[close - 1] === "\\") return false;
	}
	return true;
}

/** Whether src[start, end) opens with digits then `.` or `)`, as an ordered list item may (markdown-it takes at most nine digits; more are refused here too). */
function opensOrderedItem(src: string, start: number, end: number): boolean {
	let index = start;
	while (index < end && src.charCodeAt(index) >= 48 && src.charCodeAt(index) <= 57) index++;
	const after = src.charCodeAt(index);
	// `.` or `)`
	return index > start && index < end && (after === 46 || after === 41);
}

/** An ATX heading's opening `#`s (one to six, then a space, a tab or the line's end), as markdown-it's heading rule reads them. */
const ATX_HEADING_START = /^#{1,6}(?:[ \t]|$)/;

/** The marker of a list item starting at column 0 on `line` (`-`, `*`, `+`, or `.`/`)` after digits), or null. */
function startsListItem(state: StateBlock, line: number): string | null {
	const start = state.bMarks[line] ?? 0;
	const end = state.eMarks[line] ?? 0;
	const text = state.src.slice(start, Math.min(end, start + 16));
	const match = /^(?:([-*+])|\d{1,9}([.)]))[ \t]+\S/.exec(text);
	if (!match) return null;
	// A line of markers and spaces only is a thematic break, not an item.
	if (/^[-*+_ \t]+$/.test(state.src.slice(start, end))) return null;
	return match[1] ?? match[2] ?? null;
}
