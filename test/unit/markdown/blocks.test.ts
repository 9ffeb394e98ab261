import { readdirSync, readFileSync } from "node:fs";
import * as nodePath from "node:path";
import fc from "fast-check";
import MarkdownIt from "markdown-it";
import type { CachedMetadata } from "obsidian";
import {
	BLOCK_CHUNK_LINES,
	MAX_MARKDOWN_NESTING,
	MAX_STEPPED_BLOCK_DEPTH,
	NESTED_PAUSE_LINES,
	TABLE_CHUNK_CELLS,
	TOP_LEVEL_PAUSE_CHARS,
} from "../../../src/config/limits";
import { LEFT_OUT_TOKEN, normalizeSteps, parseBlocks, type MarkdownToken } from "../../../src/markdown/blocks";
import { runSteps } from "../../../src/markdown/steps";
import { countPushes } from "../../helpers/countPushes";
import { expectEqual } from "../../helpers/plainEqual";
import { collectGarbage } from "../../helpers/gc";
import { OBSIDIAN_CACHE_DIR } from "../../helpers/vault";
import { replaceMethod } from "../../helpers/replaceMethod";

/** The block tokens parseBlocks hands over, in order, as plain records (a list's opening token is final once all are handed over). */
function blocksOf(source: string, chunkLines?: number): Array<Record<string, unknown>> {
	return tokensOf(source, chunkLines).map(record);
}

/** The block tokens parseBlocks hands over, in order. */
function tokensOf(source: string, chunkLines?: number): MarkdownToken[] {
	const tokens: MarkdownToken[] = [];
	runSteps(
		parseBlocks(
			source,
			function* (handed, count) {
				for (let index = 0; index < count; index++) tokens.push(handed[index] as MarkdownToken);
				// A consumer may pause here too.
				yield;
			},
			chunkLines,
		),
	);
	return tokens;
}

/**
 * parseBlocks' tokens for `source`, and the most lines one call of markdown-it's `getLines` took
 * (it copies the lines asked for in one call, so that is the work done in one piece).
 */
function tokensAndMostLinesTaken(source: string, chunkLines?: number): { tokens: MarkdownToken[]; mostLines: number } {
	const state = new MarkdownIt().block.State.prototype as unknown as { getLines: (begin: number, end: number, ...rest: unknown[]) => string };
	const getLines = state.getLines;
	let mostLines = 0;
	state.getLines = function (this: unknown, begin: number, end: number, ...rest: unknown[]) {
		mostLines = Math.max(mostLines, end - begin);
		return getLines.call(this, begin, end, ...rest);
	};
	try {
		return { tokens: tokensOf(source, chunkLines), mostLines };
	} finally {
		state.getLines = getLines;
	}
}

/**
 * parseBlocks' tokens for `source`, with the work done between two pauses: the most lines one
 * `getLines` call took, and per step the most lines asked whether they are empty (every rule that
 * walks a block's lines asks it of each) and the most lines sliced out of the note (each line a
 * `%%` or `$$` block looks through for its end).
 */
function workPerStep(source: string): { tokens: MarkdownToken[]; mostLines: number; mostLooked: number; mostSliced: number } {
	const state = new MarkdownIt().block.State.prototype as unknown as {
		getLines: (begin: number, end: number, ...rest: unknown[]) => string;
		isEmpty: (line: number) => boolean;
	};
	const { getLines, isEmpty } = state;
	// eslint-disable-next-line @typescript-eslint/unbound-method -- called below with the text as `this`
	const slice = String.prototype.slice;
	let mostLines = 0;
	let looked = 0;
	let sliced = 0;
	let mostLooked = 0;
	let mostSliced = 0;
	const tokens: MarkdownToken[] = [];
	try {
		state.getLines = function (this: unknown, begin: number, end: number, ...rest: unknown[]) {
			mostLines = Math.max(mostLines, end - begin);
			return getLines.call(this, begin, end, ...rest);
		};
		state.isEmpty = function (this: unknown, line: number) {
			looked++;
			return isEmpty.call(this, line);
		};
		String.prototype.slice = function (this: string, ...args: Parameters<string["slice"]>) {
			if (this.length === source.length) sliced++;
			return slice.apply(this, args);
		};
		const steps = parseBlocks(source, function* (handed, count) {
			for (let index = 0; index < count; index++) tokens.push(handed[index] as MarkdownToken);
			yield;
		});
		for (let step = steps.next(); ; step = steps.next()) {
			mostLooked = Math.max(mostLooked, looked);
			mostSliced = Math.max(mostSliced, sliced);
			looked = 0;
			sliced = 0;
			if (step.done) break;
		}
	} finally {
		String.prototype.slice = slice;
		state.getLines = getLines;
		state.isEmpty = isEmpty;
	}
	return { tokens, mostLines, mostLooked, mostSliced };
}

function record(token: MarkdownToken): Record<string, unknown> {
	return {
		type: token.type,
		map: token.map,
		level: token.level,
		markup: token.markup,
		info: token.info,
		content: token.type === "inline" || token.type === "fence" ? token.content : "",
	};
}

/** A token's record as text, to compare parses of hundreds of thousands of tokens one pair at a time. */
const asText = (token: MarkdownToken): string => JSON.stringify(record(token));

/**
 * Where the tokens `actual` and `expected` first differ, written by `key` (-1: nowhere), and how
 * many `actual` holds: for parses of hundreds of thousands of tokens, compared as text one pair at a
 * time (two whole arrays of their texts, kept to the end, were most of those tests' time in garbage
 * collection).
 */
function firstDifference(
	actual: readonly MarkdownToken[],
	expected: readonly MarkdownToken[],
	key: (token: MarkdownToken) => string,
): { differ: number; length: number } {
	for (let index = 0; index < actual.length; index++) {
		const other = expected[index];
		if (other === undefined || key(actual[index] as MarkdownToken) !== key(other)) return { differ: index, length: actual.length };
	}
	return { differ: -1, length: actual.length };
}

/** markdown-it itself, set up as the module says it is (CommonMark with tables and strikethrough, HTML on): the reference for text without `%%` or `$$`. */
const reference = new MarkdownIt("commonmark", { html: true }).enable(["table", "strikethrough"]);

/**
 * Lines of the tests that a long block is read a chunk at a time: 25 chunks of BLOCK_CHUNK_LINES. Each
 * bounds the work of one piece by a tenth of the block (2.5 chunks), which the old parse, taking every
 * line in one call, passed ten times over at any size; at 100,000-200,000 lines these tests were most
 * of this file's time.
 */
const LONG_BLOCK_LINES = 25 * BLOCK_CHUNK_LINES;
/** Lines of the paragraphs going on in lazy or indented lines: a step there asks up to three chunks' lines whether they are empty (6,001), so a tenth of them must be more. */
const LAZY_PARAGRAPH_LINES = 35 * BLOCK_CHUNK_LINES;

/** Pieces of Markdown for every kind of block and the lines that end or continue one. */
const PIECES = [
	"\n",
	"\n",
	"\n",
	"\n\n",
	"text ",
	"word",
	"- ",
	"* ",
	"+ ",
	"1. ",
	"2) ",
	"  ",
	"    ",
	"\t",
	"> ",
	"# ",
	"## ",
	"#",
	"#tag",
	"#######",
	"===",
	"---",
	"***",
	"```",
	"~~~",
	"<div>",
	"<!--",
	"-->",
	"| a | b |",
	"|---|---|",
	"[ref]: /url",
	"[x]",
	"- [ ] ",
	"\r\n",
	"`",
	"\u00a0",
	" \n",
];
const markdown = fc.array(fc.constantFrom(...PIECES), { maxLength: 80 }).map((pieces) => pieces.join(""));

describe("parseBlocks gives markdown-it's block tokens", () => {
	test("any Markdown without %% or $$: the tokens markdown-it's own parse gives", () => {
		fc.assert(
			fc.property(markdown, (text) => {
				expectEqual(blocksOf(text), reference.parse(text, {}).map(record));
			}),
			{ numRuns: 2000 },
		);
	});

	test("cut into chunks of 1 to 3 lines, still the tokens markdown-it gives for the whole note", () => {
		fc.assert(
			fc.property(markdown, fc.integer({ min: 1, max: 3 }), (text, chunkLines) => {
				expectEqual(blocksOf(text, chunkLines), reference.parse(text, {}).map(record));
			}),
			{ numRuns: 2000 },
		);
	});

	test.each(["\u00a0\nword", "\u00a0 \n\u00a0\nword", "a\u00a0\nword", "\u00a0\n\u00a0"])(
		"a paragraph that opens with lines of no-break spaces, cut after each line: %j",
		(text) => {
			expectEqual(blocksOf(text, 1), reference.parse(text, {}).map(record));
		},
	);

	test.each([
		"***",
		"* * *",
		"*\t*\t*  ",
		"- - -",
		" ___",
		"   _ _ _ _",
		"    ***",
		"**",
		"* *",
		"_ _",
		"***a",
		"--- x",
		"a\n___",
		"a\n- - -",
		"- * * *",
		"> ___",
		"- - - ***",
		"1. ___\n   - - -",
	])("a thematic break, or a line that is almost one, as markdown-it's hr rule reads it: %j", (text) => {
		expectEqual(blocksOf(text), reference.parse(text, {}).map(record));
	});

	test("a long list and a long paragraph, far past a chunk, each stay one block", () => {
		const list = Array.from({ length: 50 }, (_, index) => `- item ${index}`).join("\n");
		const paragraph = Array.from({ length: 50 }, (_, index) => `line ${index}`).join("\n");
		const text = `${list}\n\n${paragraph}\n`;
		const blocks = blocksOf(text, 4);
		expectEqual(blocks, reference.parse(text, {}).map(record));
		const opening = blocks.filter((token) => token.level === 0 && !String(token.type).endsWith("_close"));
		// markdown-it's list runs over the blank line after it.
		expectEqual(opening, [
			expect.objectContaining({ type: "bullet_list_open", map: [0, 51] }),
			expect.objectContaining({ type: "paragraph_open", map: [51, 101] }),
		]);
	});

	test("a paragraph cut in chunks that ends in a setext underline is one heading, from its first line", () => {
		const text = `${Array.from({ length: 9 }, (_, index) => `line ${index}`).join("\n")}\n===\n`;
		expectEqual(blocksOf(text, 2), reference.parse(text, {}).map(record));
		expect(blocksOf(text, 2)[0]).toMatchObject({ type: "heading_open", map: [0, 10], markup: "=" });
	});

	test("a paragraph of 50,000 lines ending in a setext underline becomes a heading without its lines being taken again in one go", () => {
		const lines = LONG_BLOCK_LINES;
		const text = `${Array.from({ length: lines }, (_, index) => `line ${index}  `).join("\n")}\n===\n`;
		// markdown-it's getLines copies the lines asked for in one call: the most one call asks for is the work done in one piece.
		const { tokens, mostLines } = tokensAndMostLinesTaken(text);
		expectEqual(tokens.map(record), reference.parse(text, {}).map(record));
		expect(tokens[0]).toMatchObject({ type: "heading_open", map: [0, lines + 1], markup: "=" });
		// Before, the heading's text was taken again from all its lines (one piece of 400 ms at two million).
		expect(mostLines).toBeLessThan(lines / 10);
	});

	test("a paragraph of 50,000 tags, one a line, is parsed in chunks, not its lines taken in one go", () => {
		const lines = LONG_BLOCK_LINES;
		const text = `${Array.from({ length: lines }, (_, index) => `#t${index}`).join("\n")}\n# heading\n#t\n`;
		const { tokens, mostLines } = tokensAndMostLinesTaken(text);
		expectEqual(tokens.map(record), reference.parse(text, {}).map(record));
		expect(tokens.map((token) => token.type)).toEqual([
			"paragraph_open",
			"inline",
			"paragraph_close",
			"heading_open",
			"inline",
			"heading_close",
			"paragraph_open",
			"inline",
			"paragraph_close",
		]);
		// Before, a line opening with `#` never ended a chunk: the whole paragraph was one call (one piece of 600–750 ms at 800,000 lines).
		expect(mostLines).toBeLessThan(lines / 10);
	});

	test.each([
		["`$ `, with `$$` inside (math that closes on its first line)", (index: number) => `$ x${index} $$ y`, "$$\n"],
		["`% `, with `%%` inside", (index: number) => `% x${index} %% y`, "%%\n"],
		["a number not opening a list", (index: number) => `${index} apples`, ""],
	])("a paragraph of 50,000 lines opening with %s is parsed in chunks, not its lines taken in one go", (_, line, before) => {
		const lines = LONG_BLOCK_LINES;
		const text = `${before}${Array.from({ length: lines }, (__, index) => line(index)).join("\n")}\n$$ x $$\n%% comment %%\n1. item\n`;
		// The reference has no `$$` or `%%` blocks: the whole note in one chunk is what markdown-it with them makes.
		const whole = blocksOf(text, 10 * lines);
		const { tokens, mostLines } = tokensAndMostLinesTaken(text);
		expectEqual(tokens.map(record), whole);
		expect(tokens.map((token) => token.type).filter((type) => type.endsWith("_open") || type.startsWith("obsidian"))).toEqual([
			...(before ? [before.startsWith("$") ? "obsidian_math" : "obsidian_comment"] : []),
			"paragraph_open",
			"obsidian_math",
			"obsidian_comment",
			"ordered_list_open",
			"list_item_open",
			"paragraph_open",
		]);
		// Before, no line opening with `$`, `%` or a digit ended a chunk: the whole paragraph was one call (0.4-0.75 s at 300,000 lines).
		expect(mostLines).toBeLessThan(lines / 10);
	});

	test.each([
		["closed", "```js\n", "``` \nafter\n"],
		["closed by a longer fence, indented", "  ~~~\n", "   ~~~~~\n"],
		["never closed", "````\n", "```\n"],
		["in a quote, ended by a lazy line", "> ```\n", "lazy\n"],
	])(
		"a fenced code block of 50,000 lines (%s) is one block with every line, its lines copied a chunk at a time (all in one call before)",
		(_, opener, closer) => {
			const lines = LONG_BLOCK_LINES;
			const quoted = opener.startsWith(">") ? "> " : "";
			const text = `para\n\n${opener}${Array.from({ length: lines }, (_, index) => `${quoted}  code ${index} [[x]] #t`).join("\n")}\n${closer}`;
			const { tokens, mostLines } = tokensAndMostLinesTaken(text);
			expectEqual(tokens.map(record), reference.parse(text, {}).map(record));
			const fence = tokens.find((token) => token.type === "fence");
			expect(fence?.content).toMatch(/^ *code 0 /);
			expect(fence?.content).toContain(`code ${lines - 1} [[x]] #t\n`);
			expect(mostLines).toBeLessThan(lines / 10);
		},
	);

	test.each([
		["an HTML comment never closed", "<!--\n", "", true],
		["a <pre> block closed", "<pre class=x>\n", "</pre> after\nnext\n", true],
		["a <div> block ended by an empty line", "<div>\n", "\nafter\n", false],
		["a whole-tag line's block ended by an empty line", '<my-card data-x="1">\n', "\nafter\n", false],
		["a <div> block in a quote, ended by a lazy line", "> <div>\n", "lazy\n", false],
	])(
		"%s over 50,000 lines is one block with every line, its lines looked at and copied a chunk at a time (all in one call before)",
		(_, opener, closer, withEmptyLines) => {
			const lines = LONG_BLOCK_LINES;
			const quoted = opener.startsWith(">") ? "> " : "";
			const line = (index: number) => (withEmptyLines && index % 3 === 0 ? "" : `${quoted}  html ${index} [[x]] #t`);
			const text = `para\n\n${opener}${Array.from({ length: lines }, (_, index) => line(index)).join("\n")}\n${closer}`;
			const { tokens, mostLines, mostSliced } = workPerStep(text);
			const withContent = (token: MarkdownToken) => ({ ...record(token), content: token.type === "html_block" ? token.content : "" });
			expectEqual(tokens.map(withContent), reference.parse(text, {}).map(withContent));
			const block = tokens.find((token) => token.type === "html_block");
			expect(block?.content).toContain(`html ${lines - 1} [[x]] #t\n`);
			expect(mostLines).toBeLessThan(lines / 10);
			expect(mostSliced).toBeLessThan(lines / 10);
		},
	);

	test.each([
		["an indented code block ended by a paragraph", "", "    ", "after\n", true],
		["an indented code block in a list item", "- item\n\n", "      ", "  after\n", true],
		["a fenced code block in a list item", "- item\n\n  ```\n", "  ", "  ```\n- next\n", true],
		// In a list item, an empty line (indented less than the item) ends an HTML block.
		["an HTML comment in a list item", "1. item\n\n   <!--\n", "   ", "   -->\nafter\n", false],
	])(
		"%s over 50,000 lines is one block with every line, looked at and copied a chunk at a time (all in one call before)",
		(_, opener, indent, closer, withEmptyLines) => {
			const lines = LONG_BLOCK_LINES;
			const line = (index: number) => (withEmptyLines && index % 5 === 4 ? "" : `${indent}code ${index} [[x]]`);
			const text = `para\n\n${opener}${Array.from({ length: lines }, (_, index) => line(index)).join("\n")}\n${closer}`;
			const { tokens, mostLines, mostLooked } = workPerStep(text);
			const blockTypes = ["code_block", "fence", "html_block"];
			const withContent = (token: MarkdownToken) => ({ ...record(token), content: blockTypes.includes(token.type) ? token.content : "" });
			expectEqual(tokens.map(withContent), reference.parse(text, {}).map(withContent));
			const block = tokens.find((token) => blockTypes.includes(token.type));
			expect(block?.content).toContain(`code ${lines - 2} [[x]]\n`);
			expect(mostLines).toBeLessThan(lines / 10);
			expect(mostLooked).toBeLessThan(lines / 10);
		},
	);

	test.each([
		["a bullet item", "- item\n\n", "  "],
		["an ordered item", "10. item\n\n", "    "],
		["an item in a quote", "> - item\n>\n", ">   "],
	])("a paragraph of 50,000 lines in %s is parsed in chunks, not its lines taken in one go (one rule call before)", (_, opener, indent) => {
		const lines = LONG_BLOCK_LINES;
		const text = `para\n\n${opener}${Array.from({ length: lines }, (_, index) => `${indent}words ${index} [[x]] #t`).join("\n")}\n\nafter\n`;
		const { tokens, mostLines } = tokensAndMostLinesTaken(text);
		expectEqual(tokens.map(record), reference.parse(text, {}).map(record));
		expect(tokens.find((token) => token.type === "inline" && token.content.startsWith("words 0 "))?.map?.[1]).toBe(
			tokens.find((token) => token.type === "inline" && token.content.startsWith("words 0 "))!.map![0] + lines,
		);
		expect(mostLines).toBeLessThan(lines / 10);
	});

	test.each([
		["lazy lines in a list item", "- item\n", (index: number) => `lazy ${index} [[x]] #t`],
		["lazy lines in a list item in a quote", "> 1. item\n", (index: number) => `lazy ${index} [[x]]`],
		["lines indented less than the item", "10. item\n", (index: number) => `  lazy ${index} [[x]]`],
		["lines indented one space", "para\n", (index: number) => ` line ${index} [[x]]`],
		["lines indented as code after the paragraph's first line", "- item\n", (index: number) => `      line ${index} [[x]]`],
		["lines opening with `-`, `*` or a backtick", "para\n", (index: number) => `${["-x", "*y*", "`z`"][index % 3]} ${index}`],
		["lines holding a `|`", "para\n", (index: number) => `a | b ${index}`],
		["indented lines of a footnote definition", "[^1]: note\n", (index: number) => ` more ${index} [[x]]`],
		["lines indented one space, then a setext underline", "para\n", (index: number) => (index === LAZY_PARAGRAPH_LINES - 1 ? "===" : ` line ${index}`)],
	])("a paragraph going on in 70,000 %s is parsed in steps, a step able to end before any of its lines (one rule call before)", (_, opener, line) => {
		const lineCount = LAZY_PARAGRAPH_LINES;
		const text = `${opener}${lines(lineCount, line)}\nafter\n`;
		const { tokens, mostLines, mostLooked } = workPerStep(text);
		const whole = blocksOf(text, 10 * lineCount);
		expectEqual(tokens.map(record), whole);
		if (!opener.startsWith("[^")) expectEqual(whole, reference.parse(text, {}).map(record));
		const inline = tokens.find((token) => token.type === "inline");
		expect(inline?.map?.[1]).toBeGreaterThanOrEqual(lineCount);
		// Before: every line of the paragraph tested, then taken, in one call.
		expect(mostLines).toBeLessThan(lineCount / 10);
		expect(mostLooked).toBeLessThan(lineCount / 10);
	});

	test.each([
		["whose title runs on and closes", '[a]: /url "title\n', (index: number) => `title ${index} [[x]]`, '"\n'],
		["whose title is never closed", "[a]: /url 'title\n", (index: number) => `title ${index} [[x]]`, ""],
		["whose label is never closed, in a list item", "- [label\n", (index: number) => `label ${index} x`, ""],
		["whose title runs on in a quote", "> [a]:\n> /url\n> (title\n", (index: number) => `> title ${index}`, "> )\n"],
	])("a link reference definition %s over 50,000 lines takes its lines in steps (one rule call before)", (_, opener, line, closer) => {
		const lineCount = LONG_BLOCK_LINES;
		const text = `para\n\n${opener}${lines(lineCount, line)}\n${closer}\nafter [a]\n`;
		const { tokens, mostLooked } = workPerStep(text);
		expectEqual(tokens.map(record), blocksOf(text, 10 * lineCount));
		// markdown-it's own rule copies the text read so far at each line (quadratic): compared with it on 2,000 lines.
		const short = `para\n\n${opener}${lines(2_000, line)}\n${closer}\nafter [a]\n`;
		expectEqual(blocksOf(short), reference.parse(short, {}).map(record));
		// Before: every line tested for an end (is it empty, does a block start there), all in one step.
		expect(mostLooked).toBeLessThan(lineCount / 10);
	});

	test.each([
		["a `%%` comment never closed, in a list item", "- item\n\n  %%\n", (index: number) => `  comment ${index} [[x]]`, ""],
		["a `$$` block closed, in an ordered item", "1. item\n\n   $$\n", (index: number) => `   x_${index}`, "   $$\nafter\n"],
		["a `%%` comment closed, at the top level", "%%\n", (index: number) => `comment ${index}`, "%%\n"],
	])("%s over 50,000 lines is looked through for its end in steps (one rule call before)", (_, opener, line, closer) => {
		const lineCount = LONG_BLOCK_LINES;
		const text = `para\n\n${opener}${lines(lineCount, line)}\n${closer}`;
		const { tokens, mostSliced } = workPerStep(text);
		// markdown-it has no `%%` or `$$` blocks: the whole note in one chunk is what markdown-it with them makes.
		expectEqual(tokens.map(record), blocksOf(text, 10 * lineCount));
		const block = tokens.find((token) => token.type.startsWith("obsidian_"));
		expect(block?.map?.[1]).toBeGreaterThan(lineCount);
		// Before: each line sliced out of the note to be looked at, all in one step.
		expect(mostSliced).toBeLessThan(lineCount / 10);
	});

	test("a line and 50,000 empty lines after it are parsed without looking through the empty lines in one step", () => {
		const text = `[[Hub]] [[Hidden]]${"\n".repeat(LONG_BLOCK_LINES)}last line\n`;
		// The lines asked whether they are empty, counted per step (finding where a chunk may end once asked it of every line).
		const { tokens, mostLooked } = workPerStep(text);
		expectEqual(tokens.map(record), reference.parse(text, {}).map(record));
		// Before: every empty line looked at in one step (a canvas card of them held the server 50–60 ms at start).
		expect(mostLooked).toBeLessThan(4 * BLOCK_CHUNK_LINES);
	});

	test("spaces before a line break inside a paragraph cut in chunks stay, as markdown-it keeps them (a hard line break)", () => {
		const text = "first line  \nsecond line\u00a0\nthird  \n";
		expectEqual(blocksOf(text, 1), reference.parse(text, {}).map(record));
		expect(blocksOf(text, 1)[1]).toMatchObject({ type: "inline", content: "first line  \nsecond line\u00a0\nthird" });
	});

	test("an empty note has no blocks", () => {
		expectEqual(blocksOf(""), []);
	});
});

/** markdown-it with this module's nesting bound (the preset's 20 would stop deep quotes early): the reference for deep quotes. */
const deepReference = new MarkdownIt("commonmark", { html: true, maxNesting: MAX_MARKDOWN_NESTING } as MarkdownIt.Options).enable(["table", "strikethrough"]);

/** `count` lines made by `line`, each ended by a line break. */
function lines(count: number, line: (index: number) => string): string {
	return `${Array.from({ length: count }, (_, index) => line(index)).join("\n")}\n`;
}

/** What a line inside quotes can open with: quote markers (with and without a space, with a tab, indented), list items, indents. */
const QUOTE_PREFIXES = ["> ", "> ", "> ", ">", ">\t", " > ", "   > ", "- ", "1. ", "  ", "    ", "\t"];
/** What follows: text (lazy continuation when no `>` leads), callout heads, fences, table rows, headings, blank, code, HTML, tasks. */
const QUOTE_CONTENTS = [
	"text [[Link]] #tag",
	"more text",
	"[!note] Callout title",
	"[!tip]- folded",
	"```",
	"~~~",
	"| a | b |",
	"|---|---|",
	"|1|2|",
	"# heading",
	"---",
	"===",
	"",
	"    code",
	"<div>",
	"- [ ] task",
	"* item",
	"2) item",
	"[ref]: /url",
	"\u00a0",
];
const quoteLine = fc
	.tuple(fc.array(fc.constantFrom(...QUOTE_PREFIXES), { maxLength: 8 }), fc.constantFrom(...QUOTE_CONTENTS))
	.map(([prefixes, content]) => `${prefixes.join("")}${content}`);
const quotes = fc.array(quoteLine, { maxLength: 40 }).map((lines) => `${lines.join("\n")}\n`);
/** Nestings that grow and shrink, as in a note of deep quotes: each line `depth` quote markers deep, the depth walking up and down. */
const deepQuotes = fc
	.array(fc.tuple(fc.integer({ min: -3, max: 6 }), fc.constantFrom(...QUOTE_CONTENTS), fc.constantFrom("> ", ">", "> - ", ">  ")), { maxLength: 60 })
	.map((steps) => {
		let depth = 0;
		return `${steps
			.map(([step, content, marker]) => {
				depth = Math.max(0, depth + step);
				return `${marker.repeat(depth)}${content}`;
			})
			.join("\n")}\n`;
	});

describe("quotes and callouts, nested at any depth", () => {
	test("any nesting of quotes, lists, fences, tables, lazy lines and blank lines: the tokens markdown-it's own parse gives", () => {
		fc.assert(
			fc.property(quotes, (text) => {
				expectEqual(blocksOf(text), deepReference.parse(text, {}).map(record));
			}),
			{ numRuns: 1000 },
		);
	});

	test("quotes that go deeper and shallower line by line, with lazy lines between: the tokens markdown-it's own parse gives", () => {
		fc.assert(
			fc.property(deepQuotes, fc.integer({ min: 1, max: 3 }), (text, chunkLines) => {
				const expected = deepReference.parse(text, {}).map(record);
				expectEqual(blocksOf(text), expected);
				expectEqual(blocksOf(text, chunkLines), expected);
			}),
			{ numRuns: 700 },
		);
	});

	test.each([
		[
			"a quote 300 deep, then 300 lines each one `>` shallower",
			lines(600, (index) => `${"> ".repeat(index < 300 ? index : 599 - index)}quote ${index} #q`),
		],
		["callouts 300 deep, twice", lines(600, (index) => `${"> ".repeat(index % 300)}[!note]- callout ${index}`)],
		["a quote 400 deep and 2,000 lazy lines", `${"> ".repeat(400)}deep\n${lines(2000, (index) => `lazy ${index} [[N${index}]]`)}`],
		[
			"lazy lines that start blocks when read without the quote",
			`${"> ".repeat(50)}deep\n${lines(300, (index) => ["lazy", "    - item", "\t# h", "    ```"][index % 4] ?? "")}`,
		],
		["a quote 200 deep inside a list item", `- item\n${lines(400, (index) => `  ${"> ".repeat(index % 200)}text ${index}`)}`],
	])("%s: the tokens markdown-it's own parse gives", (_name, text) => {
		expectEqual(blocksOf(text), deepReference.parse(text, {}).map(record));
	});

	test("1,000 lines each 200 `> ` deep: the parse pauses while the nested quotes are opened, each reading all the lines (641 deep, 641,000 lines were read in one piece)", () => {
		const depth = 200;
		const text = lines(1000, (index) => `${"> ".repeat(depth)}line ${index}`);
		const chunkLines = 2000;
		// Quotes opened between two pauses, each having read its 1,000 lines.
		const push = jest.spyOn(new MarkdownIt().block.State.prototype, "push");
		const opened = () => push.mock.calls.filter(([type]) => type === "blockquote_open").length;
		let mostOpened = 0;
		try {
			const steps = parseBlocks(
				text,
				function* () {
					yield;
				},
				chunkLines,
			);
			let before = 0;
			for (let step = steps.next(); !step.done; step = steps.next()) {
				mostOpened = Math.max(mostOpened, opened() - before);
				before = opened();
			}
		} finally {
			push.mockRestore();
		}
		// Old: all 200 in one piece.
		expect(mostOpened).toBeLessThanOrEqual(chunkLines / 1000 + 1);
		expectEqual(blocksOf(text), deepReference.parse(text, {}).map(record));
	});

	test("a quote of 50,000 lines keeps its lines' saved marks without copying them (they grew by doubling, copied whole in one step)", () => {
		const quoteLines = LONG_BLOCK_LINES;
		const text = `para\n\n${lines(quoteLines, (index) => `> x ${index} [[N]]`)}\nafter\n`;
		// Numbers copied between two pauses by typed arrays' `set` and `slice`, the copies an array grown by doubling makes.
		const typedArray = Int32Array.prototype as unknown as { set: Int32Array["set"]; slice: Int32Array["slice"] };
		const { set, slice } = Object.getPrototypeOf(typedArray) as typeof typedArray;
		let copied = 0;
		let mostCopiedPerStep = 0;
		const tokens: MarkdownToken[] = [];
		typedArray.set = function (this: Int32Array, array: ArrayLike<number>, offset?: number) {
			copied += array.length;
			return set.call(this, array, offset);
		};
		typedArray.slice = function (this: Int32Array, start?: number, end?: number) {
			const copy = slice.call(this, start, end);
			copied += copy.length;
			return copy;
		};
		try {
			const steps = parseBlocks(text, function* (handed, count) {
				for (let index = 0; index < count; index++) tokens.push(handed[index] as MarkdownToken);
				yield;
			});
			for (let step = steps.next(); ; step = steps.next()) {
				mostCopiedPerStep = Math.max(mostCopiedPerStep, copied);
				copied = 0;
				if (step.done) break;
			}
		} finally {
			delete (typedArray as Partial<typeof typedArray>).set;
			delete (typedArray as Partial<typeof typedArray>).slice;
		}
		expectEqual(tokens.map(record), reference.parse(text, {}).map(record));
		// Before: the saved marks (six numbers a line) copied whole at a growth, and again once the quote was read.
		expect(mostCopiedPerStep).toBeLessThan(quoteLines / 10);
	});

	test("a line of 10,000 `> ` (a quote deeper than the bound): the tokens markdown-it gives, with the stack two generators a level deep and at most MAX_STEPPED_BLOCK_DEPTH levels", () => {
		const text = `${"> ".repeat(10_000)}[!note] a\n${"> ".repeat(10_000)}b\n`;
		// The stack is counted in frames where the parser hands tokens over (the deepest it gets), not
		// in bytes: at three generators a level, 1,000 levels overflowed Node's stack and `serve` failed.
		const limit = Error.stackTraceLimit;
		const errorClass = Error as { prepareStackTrace: ErrorConstructor["prepareStackTrace"] | undefined };
		const { prepareStackTrace } = errorClass;
		Error.stackTraceLimit = Number.POSITIVE_INFINITY;
		// The lines the stack would have ("Error", then one a frame), counted without writing each
		// frame out: source-mapping thousands of frames at each hand-over took most of this test's time.
		Error.prepareStackTrace = (_error, frames) => frames.length + 1;
		let deepest = 0;
		const tokens: MarkdownToken[] = [];
		try {
			runSteps(
				parseBlocks(text, function* (handed, count) {
					deepest = Math.max(deepest, Number(new Error().stack));
					tokens.push(...handed.slice(0, count));
					yield;
				}),
			);
		} finally {
			Error.stackTraceLimit = limit;
			errorClass.prepareStackTrace = prepareStackTrace;
		}
		// Quotes deeper than the bound are parsed into no blocks, as markdown-it leaves out blocks past its
		// own; their lines are handed over as one token, so their links are still read.
		const bounded = new MarkdownIt("commonmark", { html: true, maxNesting: MAX_STEPPED_BLOCK_DEPTH } as MarkdownIt.Options).enable([
			"table",
			"strikethrough",
		]);
		expectEqual(tokens.filter((token) => token.type !== LEFT_OUT_TOKEN).map(record), bounded.parse(text, {}).map(record));
		expect(tokens.filter((token) => token.type === LEFT_OUT_TOKEN).map((token) => token.map)).toEqual([[0, 2]]);
		// Each generator is two frames (its own and its `next`), two generators a level.
		expect(deepest).toBeLessThan(2 * 2 * MAX_STEPPED_BLOCK_DEPTH + 100);
	});
});

/** Lines a table is made of, and the lines that end one or run on as a row. */
const TABLE_LINES = [
	"| a | b | c |",
	"|---|:-:|--:|",
	"|1|2|3|",
	"|1|",
	"|1|2|3|4|5|",
	"x | y",
	"\\| escaped | pipe \\|",
	"|",
	"plain row",
	"  | indented | row |",
	"    | code |",
	"",
	"- item",
	"1. item",
	"> quote",
	"# heading",
	"```",
	"<div>",
	"%%",
	"---",
	"\u00a0",
];
const table = fc
	.tuple(fc.constantFrom("| a | b | c |\n|---|:-:|--:|", "a | b\n--|--", "| a |\n|---|"), fc.array(fc.constantFrom(...TABLE_LINES), { maxLength: 40 }))
	.map(([head, rows]) => `${head}\n${rows.join("\n")}\n`);

describe("a table cut into chunks of rows", () => {
	test("any table, with rows interrupted or ended by other blocks, cut at any chunk size: the tokens of one parse", () => {
		fc.assert(
			fc.property(table, fc.integer({ min: 1, max: 5 }), (text, chunkLines) => {
				expectEqual(blocksOf(text, chunkLines), blocksOf(text));
			}),
			{ numRuns: 1000 },
		);
	});

	test("a table between paragraphs and lists, cut at any chunk size", () => {
		fc.assert(
			fc.property(fc.array(fc.oneof(table, markdown), { maxLength: 4 }), fc.integer({ min: 1, max: 4 }), (parts, chunkLines) => {
				const text = parts.join("");
				expectEqual(blocksOf(text, chunkLines), blocksOf(text));
			}),
			{ numRuns: 1000 },
		);
	});

	test("a table of 5,000 rows is one table, as in one parse", () => {
		const text = `| a | b |\n|---|---|\n${Array.from({ length: 5_000 }, (_, index) => `|${index}|[[N${index}]]|`).join("\n")}\n\nafter\n`;
		const blocks = blocksOf(text, 100);
		expectEqual(blocks, reference.parse(text, {}).map(record));
		expectEqual(
			blocks.filter((token) => token.level === 0 && !String(token.type).endsWith("_close")).map((token) => [token.type, token.map]),
			[
				["table_open", [0, 5_002]],
				["paragraph_open", [5_003, 5_004]],
			],
		);
	});

	// markdown-it ends a table once it has filled in 65,536 cells for short rows, counted from the table's first row.
	test.each([
		["short rows fill in cells until the table ends", 300, ["|x"], 250],
		["long rows first, then short ones", 300, [`|${"y|".repeat(400)}`, "|x", "|x"], 450],
		["rows far longer than the header, then rows far shorter", 2, [`|${"y|".repeat(70_000)}`, "|", "|"], 12],
		["a header of 70,000 columns and rows of one cell", 70_000, ["|x"], 6],
		// A row alone passes the bound in its chunk but not in the whole table (a longer row came first): parsed in one call.
		["a row of 140,000 cells under 70,000 columns, then rows of one", 70_000, [`|${"y|".repeat(140_000)}`, "|x", "|x"], 3],
	])("%s: the table ends on the same row, cut in chunks of 7 rows", (_name, columns, rows, count) => {
		const text = `|${"h|".repeat(columns)}\n|${"-|".repeat(columns)}\n${Array.from({ length: count }, (_, index) => rows[index % rows.length]).join("\n")}\n`;
		// Hundreds of thousands of tokens: compared as text, and where they first differ.
		const whole = reference.parse(text, {});
		for (const chunkLines of [7]) {
			expectEqual(firstDifference(tokensOf(text, chunkLines), whole, asText), { differ: -1, length: whole.length });
		}
	});
});

describe("a table of very many columns", () => {
	/** Steps the parse of `text` one piece at a time: the tokens handed over, and how far `counted()` rose in each piece. */
	function stepCounting(text: string, counted: () => number): { perPiece: number[]; tokens: MarkdownToken[] } {
		const perPiece: number[] = [];
		const tokens: MarkdownToken[] = [];
		const steps = parseBlocks(text, function* (handed, handedCount) {
			for (let index = 0; index < handedCount; index++) tokens.push(handed[index] as MarkdownToken);
			yield* [];
		});
		let before = counted();
		for (let next = steps.next(); ; next = steps.next()) {
			const now = counted();
			perPiece.push(now - before);
			before = now;
			if (next.done) break;
		}
		return { perPiece, tokens };
	}

	/** The tokens each piece of the parse makes (counted through markdown-it's StateBlock.push), and the tokens handed over. */
	function tokensPerPiece(text: string): { made: number[]; tokens: MarkdownToken[] } {
		let count = 0;
		const state = reference.block.State.prototype as unknown as { push: (...args: unknown[]) => unknown };
		const push = state.push;
		state.push = function (this: unknown, ...args: unknown[]) {
			count++;
			return push.apply(this, args);
		};
		try {
			const { perPiece, tokens } = stepCounting(text, () => count);
			return { made: perPiece, tokens };
		} finally {
			state.push = push;
		}
	}

	test("a header of 20,000 columns over rows of 4,000 links is made in pieces, a row cut between cells (one piece held the server 230-280 ms)", () => {
		const text = `|${" a |".repeat(20_000)}\n|${"---|".repeat(20_000)}\n${lines(20, () => `|${" [[Hub]] |".repeat(4_000)}`)}\n`;
		const { made, tokens } = tokensPerPiece(text);
		const total = made.reduce((sum, count) => sum + count, 0);
		// The header's 20,000 cells and four rows of 20,000 (markdown-it fills in the rows' missing cells, and ends the table after four).
		expect(total).toBeGreaterThan(290_000);
		// Before: each piece made a row's 60,000 tokens and the header's 60,000 again; the first, the header a third time.
		expect(Math.max(...made)).toBeLessThanOrEqual(3 * TABLE_CHUNK_CELLS + 10);
		const whole = reference.parse(text, {});
		expectEqual(firstDifference(tokens, whole, asText), { differ: -1, length: whole.length });
	});

	test("a header of 40,000 columns is checked in pieces before it is made (markdown-it's check split both lines whole: a million columns held the server a second)", () => {
		// About five times TABLE_CHUNK_CELLS: the old check, three trims a column in one piece, passes the bound below five times over.
		const columns = 40_000;
		const text = `|${"a|".repeat(columns)}\n|${"-|".repeat(columns - 1)}:-:|\n|x|y|\n`;
		// Each column's text is trimmed once or twice wherever it is read: counted a piece at a time.
		let count = 0;
		const trim = Object.getOwnPropertyDescriptor(String.prototype, "trim")?.value as (this: string) => string;
		const spy = replaceMethod(String.prototype, "trim", function (this: string): string {
			count++;
			return trim.call(this);
		});
		let run: { perPiece: number[]; tokens: MarkdownToken[] };
		try {
			run = stepCounting(text, () => count);
		} finally {
			spy.restore();
		}
		const { perPiece: trimmed, tokens } = run;
		expect(trimmed.reduce((sum, each) => sum + each, 0)).toBeGreaterThan(2 * columns);
		// Before: three a column in the first piece (the rule's check, then the alignments and the header read again).
		expect(Math.max(...trimmed)).toBeLessThanOrEqual(3 * TABLE_CHUNK_CELLS);
		const withAttributes = (token: MarkdownToken) => JSON.stringify({ ...record(token), attrs: token.attrs });
		const whole = reference.parse(text, {});
		expectEqual(firstDifference(tokens, whole, withAttributes), { differ: -1, length: whole.length });
	});

	test("any first two lines of delimiter characters, pipes, escapes and text: a table exactly where markdown-it makes one, with its alignments", () => {
		const piece = fc.constantFrom("|", "|", "-", "--", ":", " ", "\t", "a", "\\", "\\|", "---", ":-:", "| a ", "\u00a0");
		const line = fc.array(piece, { maxLength: 10 }).map((pieces) => pieces.join(""));
		const prefix = fc.constantFrom("", "", "  ", "    ", "> ", "- ", "text\n");
		fc.assert(
			fc.property(prefix, line, line, fc.constantFrom("", "|x|y|\n", "a|b\n|\n"), (before, header, delimiter, rows) => {
				const text = `${before}${header}\n${before === "text\n" ? "" : before}${delimiter}\n${rows}`;
				const withAttributes = (token: MarkdownToken) => ({ ...record(token), attrs: token.attrs });
				expectEqual(tokensOf(text).map(withAttributes), reference.parse(text, {}).map(withAttributes));
			}),
			{ numRuns: 1500 },
		);
	});

	test("aligned columns and cells with escaped pipes, cut between cells: markdown-it's tokens, alignments too", () => {
		const columns = TABLE_CHUNK_CELLS + 1_000;
		const aligns = [":-:", "--:", ":--", "---"];
		const header = `| ${Array.from({ length: columns }, (_, index) => (index % 5 === 0 ? "a \\| b" : `h${index}`)).join(" | ")} |`;
		const delimiter = `|${Array.from({ length: columns }, (_, index) => aligns[index % 4]).join("|")}|`;
		const rows = lines(3, (row) =>
			Array.from({ length: columns - row * 7 }, (_, index) => (index % 3 === 0 ? `[[N${index}\\|x]]` : ` c${row} `)).join("|"),
		);
		const text = `${header}\n${delimiter}\n${rows}\n\nafter\n`;
		const { made, tokens } = tokensPerPiece(text);
		expect(made.length).toBeGreaterThan(4);
		const withAttributes = (token: MarkdownToken) => JSON.stringify({ ...record(token), attrs: token.attrs });
		const whole = reference.parse(text, {});
		expectEqual(firstDifference(tokens, whole, withAttributes), { differ: -1, length: whole.length });
	});
});

/** How a block's lines are put inside containers: as they are, in a quote (with and without a space, or two deep), in a list item, in a list item in a quote. */
const CONTAINER_PREFIXES = ["", "> ", ">", "> > ", "- ", "  ", "> - ", ">   "];
const contained = fc.tuple(fc.oneof(table, markdown, quotes), fc.constantFrom(...CONTAINER_PREFIXES), fc.boolean()).map(([block, prefix, firstOnly]) =>
	block
		.split("\n")
		// On every line, or on the first only: the others are lazy lines, or end the container.
		.map((line, index) => (index === 0 || !firstOnly ? `${prefix}${line}` : line))
		.join("\n"),
);

/** Every token parseBlocks handed over, cut at `chunkLines`, and how many times it paused. */
function steps(source: string, chunkLines: number): { tokens: Array<Record<string, unknown>>; pauses: number } {
	const tokens: MarkdownToken[] = [];
	const parse = parseBlocks(
		source,
		function* (handed, count) {
			for (let index = 0; index < count; index++) tokens.push(handed[index] as MarkdownToken);
			// A consumer may pause too (in one piece, the whole quote was one hand-over).
			yield;
		},
		chunkLines,
	);
	let pauses = 0;
	while (!parse.next().done) pauses++;
	return { tokens: tokens.map(record), pauses };
}

describe("tables, paragraphs and lists inside a quote, parsed in steps", () => {
	test("a quote's 5,000 lines have their `>` markers read in steps too, before its first block is parsed", () => {
		// Each line a block of its own: the first is handed over as soon as it is parsed.
		const quoteLines = 5_000;
		const text = lines(quoteLines, (index) => `> # heading ${index} [[N${index}]]`);
		let pausesBefore = 0;
		let opened = false;
		const parse = parseBlocks(
			text,
			function* (handed, count) {
				for (let index = 0; index < count; index++) opened ||= handed[index]?.type === "blockquote_open";
				// A consumer may pause too.
				yield;
			},
			100,
		);
		while (!parse.next().done && !opened) pausesBefore++;
		// In one piece, the markers of all the quote's lines were read between two pauses (20–60 ms).
		expect(pausesBefore).toBeGreaterThanOrEqual(quoteLines / 100);
		expectEqual(steps(text, 100).tokens, deepReference.parse(text, {}).map(record));
	});

	test("any mix of quoted tables, lists, paragraphs and quotes, cut at any chunk size: the tokens markdown-it's own parse gives", () => {
		fc.assert(
			fc.property(fc.array(contained, { maxLength: 4 }), fc.integer({ min: 1, max: 5 }), (parts, chunkLines) => {
				const text = parts.join("\n");
				const whole = blocksOf(text);
				// markdown-it has no `%%` or `$$` blocks: there, the quote parsed in steps but not cut is the reference.
				if (!/%%|\$\$/.test(text)) expectEqual(whole, deepReference.parse(text, {}).map(record));
				expectEqual(blocksOf(text, chunkLines), whole);
			}),
			{ numRuns: 1000 },
		);
	});

	test("two notes of deep quotes and quoted tables parsed at once, their steps interleaved: each gives the tokens of its own parse", () => {
		fc.assert(
			fc.property(fc.array(contained, { maxLength: 3 }), fc.array(contained, { maxLength: 3 }), (first, second) => {
				const texts = [first.join("\n"), second.join("\n")];
				const handed: MarkdownToken[][] = [[], []];
				const parses = texts.map((text, which) =>
					parseBlocks(
						text,
						function* (tokens, count) {
							for (let index = 0; index < count; index++) handed[which]?.push(tokens[index] as MarkdownToken);
							yield;
						},
						2,
					),
				);
				const done = [false, false];
				for (let turn = 0; !done[0] || !done[1]; turn++) if (!done[turn % 2]) done[turn % 2] = parses[turn % 2]?.next().done ?? true;
				texts.forEach((text, which) => expectEqual(handed[which]?.map(record), blocksOf(text, 2)));
			}),
			{ numRuns: 500 },
		);
	});

	test.each([
		["a table of 5,000 rows in a quote", `> | a | b | c |\n> |---|---|---|\n${lines(5_000, (index) => `> |${index}|[[N${index}]]|#t${index % 7}|`)}`],
		["a table of 5,000 rows in a quote two deep", `> > | a | b |\n> > |---|---|\n${lines(5_000, (index) => `> > |${index}|[[N${index}]]|`)}`],
		["a quote of 5,000 lines", lines(5_000, (index) => `> line ${index} [[N${index}]]`)],
		["a quote 300 deep, then 5,000 lazy lines", `${"> ".repeat(300)}deep\n${lines(5_000, (index) => `lazy ${index} [[N${index}]]`)}`],
	])("%s pauses at least once every 100 lines when cut at 100 lines, and is the quote one parse gives", (_name, text) => {
		const { tokens, pauses } = steps(text, 100);
		expectEqual(tokens, deepReference.parse(text, {}).map(record));
		// In one piece, the quote's 5,000 lines were one step (the note's lines are split into marks in a few steps).
		expect(pauses).toBeGreaterThanOrEqual(5_000 / 100);
	});
});

/** An item of a list: a block under a marker, its other lines indented (by the marker's width, by less, or not: lazy lines). */
const listItem = fc
	.tuple(fc.oneof(table, markdown), fc.constantFrom("- ", "* ", "1. ", "2) ", "-\t", "-    "), fc.constantFrom("  ", "   ", " ", "", "    "))
	.map(([block, marker, indent]) =>
		block
			.split("\n")
			.map((line, index) => (index === 0 ? `${marker}${line}` : line === "" ? "" : `${indent}${line}`))
			.join("\n"),
	);

describe("a top-level list whose items hold tables, parsed item by item", () => {
	test.each([true, false])(
		"a tight list of 4,000 items, `hidden` read: %s — the tokens are markdown-it's (less `hidden` when unread), and unread, each item's paragraph is let go once handed over",
		async (hidden) => {
			const text = lines(4_000, (index) => `- [ ] task ${index} 📅 2026-01-01`);
			const handed: MarkdownToken[] = [];
			const first: { paragraph?: WeakRef<MarkdownToken> } = {};
			const parse = parseBlocks(
				text,
				function* (tokens, count) {
					for (let index = 0; index < count; index++) {
						const token = tokens[index] as MarkdownToken;
						if (token.type === "paragraph_open") first.paragraph ??= new WeakRef(token);
						// Only the later items' tokens are kept, to compare: the first item's paragraph is held by no one here.
						if (!token.map || token.map[0] >= 10) handed.push(token);
					}
					yield;
				},
				100,
				{ hidden },
			);
			let next = parse.next();
			while (!next.done && handed.length < 2_000) next = parse.next();
			// Half the list is parsed: markdown-it marks a tight list's paragraphs hidden only at its end.
			await collectGarbage();
			expect(first.paragraph).toBeDefined();
			expect(first.paragraph?.deref() === undefined).toBe(!hidden);
			while (!next.done) next = parse.next();
			const reference = deepReference.parse(text, {}).filter((token) => !token.map || token.map[0] >= 10);
			const withHidden = (token: MarkdownToken) => ({ ...record(token), hidden: hidden ? token.hidden : false });
			expectEqual(handed.map(withHidden), reference.map(withHidden));
		},
	);

	test("any list of items holding tables, paragraphs and other blocks, tight or loose, cut at any chunk size: markdown-it's tokens, hidden paragraphs too", () => {
		fc.assert(
			fc.property(fc.array(listItem, { maxLength: 5 }), fc.constantFrom("\n", "\n\n"), fc.integer({ min: 1, max: 5 }), (items, between, chunkLines) => {
				const text = items.join(between);
				const tokens = tokensOf(text, chunkLines);
				const withHidden = (token: MarkdownToken) => ({ ...record(token), hidden: token.hidden, attrs: token.attrs });
				if (!/%%|\$\$/.test(text)) expectEqual(tokens.map(withHidden), deepReference.parse(text, {}).map(withHidden));
				expectEqual(tokens.map(record), blocksOf(text));
			}),
			{ numRuns: 1000 },
		);
	});

	test("a list opening with an empty item after a paragraph is loose, its paragraphs shown, as markdown-it makes it (its last item's was hidden)", () => {
		const text = ["1. | a | b | c |\n  |---|:-:|--:|\n  ---\n  | a | b | c |\n", "- ", "- | a | b | c |\n|---|:-:|--:|\n- item\n"].join("\n\n");
		const withHidden = (token: MarkdownToken) => ({ ...record(token), hidden: token.hidden });
		const parsed = deepReference.parse(text, {});
		expect(parsed.filter((token) => token.type === "paragraph_open").map((token) => token.hidden)).toEqual([true, false, false, false]);
		const expected = parsed.map(withHidden);
		for (const chunkLines of [1, 2, 3, undefined]) expectEqual(tokensOf(text, chunkLines).map(withHidden), expected);
	});

	test.each([
		["a table of 5,000 rows in a list item", `- | a | b | c |\n  |---|---|---|\n${lines(5_000, (index) => `  |${index}|[[N${index}]]|#t${index % 7}|`)}`],
		[
			"a table of 5,000 rows in the second item of an ordered list",
			`1. first\n2. | a | b |\n   |---|---|\n${lines(5_000, (index) => `   |${index}|[[N${index}]]|`)}- next list\n`,
		],
	])("%s pauses at least once every 100 rows when cut at 100 lines, and is the list one parse gives", (_name, text) => {
		const { tokens, pauses } = steps(text, 100);
		expectEqual(tokens, deepReference.parse(text, {}).map(record));
		// In one piece, the item's rows were one step of 150–280 ms.
		expect(pauses).toBeGreaterThanOrEqual(5_000 / 100);
	});
});

/**
 * Obsidian's own blocks: a `%%` comment and a `$$` math block each run from a line starting with
 * the delimiter to the next line holding it (or to the note's end), whatever Markdown lies inside.
 */
describe("Obsidian's %% comment and $$ math blocks", () => {
	test.each<[string, string, Array<[string, [number, number]]>]>([
		[
			"a comment over three lines, hiding a task",
			"a\n\n%%\n- [ ] task\n%%\nb\n",
			[
				["paragraph_open", [0, 1]],
				["obsidian_comment", [2, 5]],
				["paragraph_open", [5, 6]],
			],
		],
		[
			"a comment on one line",
			"%% note to self %%\ntext\n",
			[
				["obsidian_comment", [0, 1]],
				["paragraph_open", [1, 2]],
			],
		],
		["a comment never closed runs to the end", "%%\n# not a heading\n\n- not a list\n", [["obsidian_comment", [0, 4]]]],
		["math over lines", "$$\nx^2\n# y\n$$\n", [["obsidian_math", [0, 4]]]],
		[
			"a comment ends a paragraph",
			"text\n%%\nhidden\n%%\n",
			[
				["paragraph_open", [0, 1]],
				["obsidian_comment", [1, 4]],
			],
		],
		["indented four spaces it is code, not a comment", "    %%\n    x\n", [["code_block", [0, 2]]]],
		["inside a fence it is code", "```\n%%\n```\n", [["fence", [0, 3]]]],
		["inside a list item", "- a\n  %%\n  b\n  %%\n", [["bullet_list_open", [0, 4]]]],
	])("%s", (_name, text, expected) => {
		const topLevel = blocksOf(text).filter((token) => token.level === 0 && !String(token.type).endsWith("_close"));
		expectEqual(
			topLevel.map((token) => [token.type, token.map]),
			expected,
		);
	});

	test("a comment inside a list item is a block of that item", () => {
		const tokens = blocksOf("- a\n  %%\n  b\n  %%\n");
		expect(tokens.find((token) => token.type === "obsidian_comment")).toMatchObject({ map: [1, 4], level: 2 });
	});
});

interface Capture {
	fileContents: string;
	cachedMetadata: CachedMetadata;
}

/** Obsidian's section types for the top-level tokens that start one. */
const SECTION_OF: Record<string, string> = {
	paragraph_open: "paragraph",
	heading_open: "heading",
	bullet_list_open: "list",
	ordered_list_open: "list",
	fence: "code",
	code_block: "code",
	html_block: "html",
	obsidian_comment: "comment",
	obsidian_math: "math",
	table_open: "table",
	hr: "thematicBreak",
};

describe("against the sections real Obsidian found in the captured notes", () => {
	// Notes without frontmatter (its block is Obsidian's `yaml`, read before this parser) or callouts (quotes Obsidian names by their first line).
	const captures = readdirSync(OBSIDIAN_CACHE_DIR)
		.filter((name) => name.endsWith(".json"))
		.sort()
		.map((name) => [name, JSON.parse(readFileSync(nodePath.join(OBSIDIAN_CACHE_DIR, name), "utf8")) as Capture] as const)
		.filter(([, note]) => (note.cachedMetadata.sections ?? []).every((section) => section.type !== "yaml" && section.type !== "callout"));

	test("there are captures to compare with", () => {
		expect(captures.length).toBeGreaterThanOrEqual(30);
	});

	test.each(captures)("%s: each top-level block starts a section of Obsidian's kind, on its line", (_name, note) => {
		const ours = blocksOf(note.fileContents)
			.filter((token) => token.level === 0 && SECTION_OF[String(token.type)] !== undefined)
			.map((token) => ({ type: SECTION_OF[String(token.type)], line: (token.map as [number, number])[0] }));
		const obsidian = (note.cachedMetadata.sections ?? []).map((section) => ({ type: section.type, line: section.position.start.line }));
		expectEqual(ours, obsidian);
	});
});

describe("line ends and NULs made as markdown-it makes them, in steps", () => {
	/** markdown-it's own normalize rule (lib/rules_core/normalize.mjs) as the parser ran it before. */
	const markdownItNormalize = (text: string) => text.replace(/\r\n?|\n/g, "\n").replace(/\0/g, "\uFFFD");

	test("any text of line ends, carriage returns and NULs, cut anywhere into steps, comes out as markdown-it's normalize makes it", () => {
		fc.assert(
			fc.property(fc.array(fc.constantFrom("a", "\r", "\n", "\r\n", "\0", "é", "😀", "\ud800"), { maxLength: 40_000 }), (parts) => {
				const text = parts.join("");
				expect(runSteps(normalizeSteps(text))).toBe(markdownItNormalize(text));
			}),
			{ numRuns: 60 },
		);
	});

	test("a note of 250,000 NULs (or carriage returns) is rewritten in many pieces, not in one", () => {
		for (const text of ["a\0".repeat(250_000), "a\r".repeat(250_000)]) {
			const steps = normalizeSteps(text);
			let pauses = 0;
			let next = steps.next();
			for (; !next.done; next = steps.next()) pauses++;
			expect(pauses).toBeGreaterThanOrEqual(25);
			expect(next.value).toBe(markdownItNormalize(text));
		}
	});
});

describe("lists and quotes nested inside each other, parsed in steps at every depth", () => {
	/** Each line a run of container markers, as a note of lists in quotes in lists makes. */
	const CONTAINERS = ["> ", "- ", "* ", "1. ", "  ", "   ", ">", "- [ ] "];
	const CONTENTS = ["text", "", "# heading", "```", "| a |", "|---|", "    code", "para [[link]]", "---"];
	const mixedNesting = fc
		.array(fc.tuple(fc.array(fc.constantFrom(...CONTAINERS), { maxLength: 10 }), fc.constantFrom(...CONTENTS)), { maxLength: 50 })
		.map((rows) => `${rows.map(([prefixes, content]) => `${prefixes.join("")}${content}`).join("\n")}\n`);
	const withHidden = (token: MarkdownToken) => ({ ...record(token), hidden: token.hidden });

	test("any nesting of lists and quotes: the tokens markdown-it's own parse gives, and the same paragraphs of tight lists hidden", () => {
		fc.assert(
			fc.property(mixedNesting, fc.integer({ min: 1, max: 3 }), (text, chunkLines) => {
				const expected = deepReference.parse(text, {}).map(withHidden);
				expectEqual(tokensOf(text).map(withHidden), expected);
				expectEqual(tokensOf(text, chunkLines).map(withHidden), expected);
			}),
			{ numRuns: 400 },
		);
	});

	test("a note whose every line nests `> - ` 60 deep is parsed in pieces of a few lines, not one (1 MB held the server for a second)", () => {
		const text = lines(240, (index) => `${"> - ".repeat(1 + (index % 60))}x ${index}`);
		const madeSince: number[] = [];
		let made = 0;
		const state = reference.block.State.prototype as unknown as { push: (...args: unknown[]) => unknown };
		const push = state.push;
		state.push = function (this: unknown, ...args: unknown[]) {
			made++;
			return push.apply(this, args);
		};
		const tokens: MarkdownToken[] = [];
		try {
			const steps = parseBlocks(text, function* (handed, count) {
				for (let index = 0; index < count; index++) tokens.push(handed[index] as MarkdownToken);
				yield* [];
			});
			for (let next = steps.next(); ; next = steps.next()) {
				madeSince.push(made);
				made = 0;
				if (next.done) break;
			}
		} finally {
			state.push = push;
		}
		const total = madeSince.reduce((sum, count) => sum + count, 0);
		expect(total).toBeGreaterThan(10_000);
		// Before: one piece made every token after the first line's.
		expect(Math.max(...madeSince)).toBeLessThan(total / 20);
		expectEqual(tokens.map(record), deepReference.parse(text, {}).map(record));
	});
});

describe("a note of many short lines", () => {
	test("its lines' marks are kept without growing an array a line at a time (a note of 250,000 lines spent one piece of 50-90 ms growing them)", () => {
		const text = "a\n".repeat(100_000);
		const tokens: MarkdownToken[] = [];
		const { pushes } = countPushes(() =>
			runSteps(
				parseBlocks(text, function* (handed, count) {
					for (let index = 0; index < count; index++) tokens[tokens.length] = handed[index] as MarkdownToken;
					yield* [];
				}),
			),
		);
		// Before: five pushes a line.
		expect(pushes).toBeLessThan(10_000);
		expectEqual(tokens.map(record), reference.parse(text, {}).map(record));
	});
});

describe("a block opening with a word, asked of no rule but the paragraph's", () => {
	/** Every printable ASCII character, some others, and checkboxes next to what a reference or footnote label needs. */
	const OPENERS = [
		...Array.from({ length: 95 }, (_, index) => String.fromCharCode(32 + index)),
		"é",
		"\u00a0",
		"😀",
		"[x] ",
		"[ ]: ",
		"[x]:",
		"[x]",
		"[^] ",
		"[\\] ",
		"[]] ",
		"[[] ",
		"[x] [y]: ",
		"- [x] ",
		"1. [ ] ",
		"> [!] ",
	];
	const line = fc
		.tuple(
			fc.constantFrom("", " ", "   ", "    "),
			fc.constantFrom(...OPENERS),
			fc.constantFrom("", "word", " word", " a | b", "-", "==", ": /url", "]: /url"),
		)
		.map((parts) => parts.join(""));
	const note = fc
		.array(fc.oneof(line, line, fc.constantFrom("", "---", "===", "| a | b |", "|---|---|", "- ", "  more")), { maxLength: 30 })
		.map((lines) => `${lines.join("\n")}\n`);

	test("a line opening with any character: the tokens markdown-it's own parse gives, whole and cut into chunks of 1 to 3 lines", () => {
		fc.assert(
			fc.property(note, fc.integer({ min: 1, max: 3 }), (text, chunkLines) => {
				const expected = reference.parse(text, {}).map(record);
				expectEqual(blocksOf(text), expected);
				expectEqual(blocksOf(text, chunkLines), expected);
			}),
			{ numRuns: 800 },
		);
	});

	/** How many times the parse of `text` paused (the consumer never does), and its tokens. */
	function pausesOf(text: string): { pauses: number; tokens: MarkdownToken[] } {
		const tokens: MarkdownToken[] = [];
		const parse = parseBlocks(text, function* (handed, count) {
			for (let index = 0; index < count; index++) tokens[tokens.length] = handed[index] as MarkdownToken;
			yield* [];
		});
		let pauses = 0;
		while (!parse.next().done) pauses++;
		return { pauses, tokens };
	}

	test("10,000 one-line paragraphs pause once every few dozen lines, not after each (400,000 made 400,000 steps, each resumed through the parse's generators)", () => {
		const count = 10_000;
		const text = lines(count, (index) => `paragraph ${index}\n`);
		const { pauses, tokens } = pausesOf(text);
		expect(firstDifference(tokens, reference.parse(text, {}), asText)).toEqual({ differ: -1, length: 3 * count });
		expect(pauses).toBeLessThan((2 * count) / NESTED_PAUSE_LINES + 50);
		expect(pauses).toBeGreaterThanOrEqual((2 * count) / NESTED_PAUSE_LINES - 50);
	});

	test("top-level paragraphs of 20 KB pause once TOP_LEVEL_PAUSE_CHARS characters are parsed, with the block that reached them", () => {
		const paragraph = 20_000;
		const text = lines(100, (index) => `${index} ${"word ".repeat(paragraph / 5)}\n`);
		const { pauses, tokens } = pausesOf(text);
		expectEqual(tokens.map(record), reference.parse(text, {}).map(record));
		expect(pauses).toBeGreaterThanOrEqual(text.length / (TOP_LEVEL_PAUSE_CHARS + paragraph) - 1);
	});
});

describe("a list item opening with a line of text, read without a generator of its own", () => {
	const itemLine = fc
		.tuple(
			fc.constantFrom("", "", "> ", ">", "> > ", " > "),
			fc.constantFrom("", "", " ", "  ", "   ", "    ", "\t"),
			fc.constantFrom("- ", "- ", "* ", "1. ", "2) ", "-", "-\t", "-     ", "- - ", "- [ ] ", "", "  "),
			fc.constantFrom("word", "word", "item ^id", "", " ", "| a | b |", "|---|---|", "---", "===", "[ ] task", "> q", "    code", "\u00a0x"),
		)
		.map((parts) => parts.join(""));
	const note = fc
		.array(fc.oneof(itemLine, itemLine, itemLine, fc.constantFrom("", "", "> ", "  more", "    more")), { maxLength: 30 })
		.map((lines) => lines.join("\n"));
	const withHidden = (token: MarkdownToken) => ({ ...record(token), hidden: token.hidden });

	test("items of one line, in quotes, at any indent, with empty, lazy and indented lines after them, whole and cut into chunks of 1 to 3 lines: markdown-it's tokens, hidden paragraphs too", () => {
		fc.assert(
			fc.property(note, fc.integer({ min: 1, max: 3 }), (text, chunkLines) => {
				const expected = deepReference.parse(text, {}).map(withHidden);
				expectEqual(tokensOf(text).map(withHidden), expected);
				expectEqual(tokensOf(text, chunkLines).map(withHidden), expected);
			}),
			{ numRuns: 800 },
		);
	});

	test.each([
		["an item's paragraph ending the quote it is in, an empty quoted line after it", "> - x\n> "],
		["an item's paragraph ending the quote it is in, a line of spaces after the quote", "  > - | a | b |\n   \n"],
		["an item whose second paragraph comes after an empty line (the list is loose)", "- a\n\n  b\n- c\n"],
		["an item holding a list after its line", "- a\n  - b\n\n  - c\n- d\n"],
	])("%s: markdown-it's tokens, whole and cut into chunks of 1 to 3 lines", (_name, text) => {
		const expected = deepReference.parse(text, {}).map(withHidden);
		for (const chunkLines of [1, 2, 3, undefined]) expectEqual(tokensOf(text, chunkLines).map(withHidden), expected);
	});

	test("a list of 5,000 one-line items pauses once every few dozen lines, as before", () => {
		const count = 5_000;
		const text = lines(count, (index) => `- item ${index}`);
		const tokens: MarkdownToken[] = [];
		const parse = parseBlocks(text, function* (handed, handedCount) {
			for (let index = 0; index < handedCount; index++) tokens[tokens.length] = handed[index] as MarkdownToken;
			yield* [];
		});
		let pauses = 0;
		while (!parse.next().done) pauses++;
		// The list's two tokens and each item's five.
		expect(tokens.length).toBe(2 + 5 * count);
		expect(pauses).toBeGreaterThanOrEqual(count / NESTED_PAUSE_LINES - 50);
	});
});
