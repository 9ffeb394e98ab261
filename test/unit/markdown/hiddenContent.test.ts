import { readFileSync } from "node:fs";
import * as nodePath from "node:path";
import fc from "fast-check";
import type { CachedMetadata } from "obsidian";
import { findHiddenContent, type HiddenContent } from "../../../src/markdown/hiddenContent";
import { workClock } from "../../helpers/threadCpu";
import { OBSIDIAN_CACHE_DIR } from "../../helpers/vault";

const ALL = 1000;

/**
 * What a person reading the note in Obsidian's reading view would not see: `%%…%%` comments
 * (inline or as a block; an unclosed `%%` hides the rest of the note), HTML comments, and
 * invisible characters. Text in code (a fenced block or an inline code span) is shown as written,
 * so a `%%` or `<!--` in it hides nothing; an invisible character stays invisible everywhere.
 */
describe("findHiddenContent lists what reading view does not show", () => {
	test.each<[string, string, HiddenContent[]]>([
		["plain text", "# Title\n\nJust words.\n", []],
		["an inline %% comment", "Visible %%secret%% visible\n", [{ kind: "obsidian_comment", line: 0, characters: 10 }]],
		["a %% block on its own lines", "a\n%%\nhidden\n%%\nb\n", [{ kind: "obsidian_comment", line: 1, characters: 12 }]],
		["an unclosed %% hides the rest of the note", "a\n\n%% from here\n\nto the end", [{ kind: "obsidian_comment", line: 2, characters: 24 }]],
		["an HTML comment", "x <!-- note to self --> y", [{ kind: "html_comment", line: 0, characters: 21 }]],
		["an HTML comment block spanning lines", "top\n\n<!--\nhidden\n-->\n", [{ kind: "html_comment", line: 2, characters: 15 }]],
		["a zero-width space", "pass\u200bword", [{ kind: "invisible_characters", line: 0, characters: 1 }]],
		["a run of invisible characters counts once", "a\u200b\u200c\u2060b", [{ kind: "invisible_characters", line: 0, characters: 3 }]],
		["direction-changing characters", "file\u202egnp.exe", [{ kind: "bidi_controls", line: 0, characters: 1 }]],
		["Unicode tag characters (invisible ASCII)", "hi \udb40\udc49\udb40\udc47", [{ kind: "tag_characters", line: 0, characters: 4 }]],
		["a byte-order mark at the very start is no content", "\ufeff# Title\n", []],
		["a byte-order mark later is", "a\n\ufeffb", [{ kind: "invisible_characters", line: 1, characters: 1 }]],
		[
			"several, in order, on their lines",
			"a %%x%%\nb\nc <!--y-->\u200b",
			[
				{ kind: "obsidian_comment", line: 0, characters: 5 },
				{ kind: "html_comment", line: 2, characters: 8 },
				{ kind: "invisible_characters", line: 2, characters: 1 },
			],
		],
		["an invisible character in code is still invisible", "`a\u200bb`", [{ kind: "invisible_characters", line: 0, characters: 1 }]],
		["a comment holding backticks is a comment", "%% `code` %%", [{ kind: "obsidian_comment", line: 0, characters: 12 }]],
		// Reported although reading view shows it: whether a `%%` or `<!--` is code depends on the blocks around it
		// (a fence in a list item ends with the item, a backtick may sit in an HTML tag), so a marker in code
		// is reported rather than risk passing over a real comment. A false alarm, never a missed comment.
		["%% in inline code is reported all the same", "Write `%%x%%` for a comment.\n", [{ kind: "obsidian_comment", line: 0, characters: 5 }]],
		["%% in a fence is reported all the same", '```c\nprintf("%%d%%");\n```\n', [{ kind: "obsidian_comment", line: 1, characters: 5 }]],
		["an unclosed <!-- anywhere is taken to hide the rest of the note", "a <!-- b\n\nc\n", [{ kind: "html_comment", line: 0, characters: 10 }]],
	])("%s", (_name, text, expected) => {
		expect(findHiddenContent(text, ALL)).toEqual(expected);
	});

	test("every code point drawn as nothing is named, and a run of variation selectors (a byte each)", () => {
		// U+1D173–U+1D17A, U+1BCA0–U+1BCA3, U+17B4–U+17B5, U+180B–U+180D, U+2065, U+206A–U+206F, the Hangul fillers,
		// U+FFF0–U+FFF8 and U+E0080–U+E0FFF were passed over. A single variation selector chooses a look: not named.
		const unnamed: string[] = [];
		for (let code = 0x80; code <= 0x10ffff; code++) {
			if (code >= 0xd800 && code <= 0xdfff) continue;
			const mark = String.fromCodePoint(code);
			if (!/\p{Default_Ignorable_Code_Point}/u.test(mark)) continue;
			const text = /\p{Variation_Selector}/u.test(mark) ? `a${mark}${mark}b` : `a${mark}b`;
			if (findHiddenContent(text, ALL).length !== 1) unnamed.push(code.toString(16));
		}
		expect(unnamed).toEqual([]);
		expect(findHiddenContent("\u2615\ufe0f \u845b\udb40\udd00", ALL)).toEqual([]);
	});

	test("the format characters drawn as nothing outside that set are named too (the path key leaves them out)", () => {
		// U+FFF9-U+FFFB, U+110BD, U+110CD and U+13430-U+1343F were passed over.
		const marks = [0xfff9, 0xfffa, 0xfffb, 0x110bd, 0x110cd, ...Array.from({ length: 16 }, (_, index) => 0x13430 + index)];
		expect(marks.filter((code) => findHiddenContent(`a${String.fromCodePoint(code)}b`, ALL).length !== 1).map((code) => code.toString(16))).toEqual([]);
	});

	test("stops at the limit, keeping the first ones", () => {
		expect(findHiddenContent("%%1%%\n%%2%%\n%%3%%\n", 2)).toEqual([
			{ kind: "obsidian_comment", line: 0, characters: 5 },
			{ kind: "obsidian_comment", line: 1, characters: 5 },
		]);
	});

	test("a note of visible text only has nothing hidden, however it is cut into lines", () => {
		fc.assert(
			fc.property(fc.string({ unit: fc.constantFrom("a", "Z", " ", "\n", "#", "-", "[", "]", "%", "<", "!", "é", "中") }), (text) => {
				const doubled = /%%|<!--/.test(text);
				if (!doubled) expect(findHiddenContent(text, ALL)).toEqual([]);
			}),
		);
	});

	// Openers that never close are where a lazier search would read the rest of the note again for each one.
	test.each<[string, string, number]>([
		["backtick runs of every length, none closed", Array.from({ length: 1000 }, (_, index) => `${"`".repeat(index + 1)} a `).join(""), 0],
		["`<!--` again and again, never closed", "x <!-- ".repeat(70_000), 1],
		["`%%` in many code spans", "`%%` ".repeat(100_000), 50_000],
	])("a 500 KB paragraph of %s is read in one pass", (_name, text, stretches) => {
		// Work, not wall time (126-132 ms quiet; 1.26 s of wall time once at a load of 18).
		const clock = workClock();
		const started = clock();
		expect(findHiddenContent(text, 100_000)).toHaveLength(stretches);
		expect(clock() - started).toBeLessThan(1000);
	});

	test("every stretch lies inside the note, on a line it has, in order", () => {
		fc.assert(
			fc.property(fc.string({ unit: fc.constantFrom("a", "\n", "%", "<!--", "-->", "`", "```\n", "\u200b", "\u202e", " ") }), (text) => {
				const lines = text.split("\n").length;
				const found = findHiddenContent(text, ALL);
				for (const entry of found) {
					expect(entry.line).toBeGreaterThanOrEqual(0);
					expect(entry.line).toBeLessThan(lines);
					expect(entry.characters).toBeGreaterThan(0);
					expect(entry.characters).toBeLessThanOrEqual(text.length);
				}
				expect(found.map((entry) => entry.line)).toEqual([...found.map((entry) => entry.line)].sort((a, b) => a - b));
			}),
		);
	});
});

interface Capture {
	fileContents: string;
	cachedMetadata: CachedMetadata;
}

describe("against notes captured from real Obsidian", () => {
	const read = (name: string) => JSON.parse(readFileSync(nodePath.join(OBSIDIAN_CACHE_DIR, name), "utf8")) as Capture;

	/** The block comments Obsidian found: its `comment` sections, and `html` sections that are comments. */
	function obsidianBlockComments(capture: Capture): Array<{ kind: string; line: number; lastLine: number }> {
		const lines = capture.fileContents.split("\n");
		return (capture.cachedMetadata.sections ?? [])
			.filter((section) => section.type === "comment" || (section.type === "html" && lines[section.position.start.line]?.trimStart().startsWith("<!--")))
			.map((section) => ({
				kind: section.type === "comment" ? "obsidian_comment" : "html_comment",
				line: section.position.start.line,
				lastLine: section.position.end.line,
			}));
	}

	/**
	 * The note's lines the reported stretches cover. A stretch is taken to start at the first comment
	 * marker on its line: if it starts later, it covers more than counted here, never less.
	 */
	function coveredLines(text: string): Set<number> {
		const lines = new Set<number>();
		for (const entry of findHiddenContent(text, ALL)) {
			const start = lineStart(text, entry.line) + text.slice(lineStart(text, entry.line)).search(/%%|<!--/);
			const last = entry.line + text.slice(start, start + entry.characters).split("\n").length - 1;
			for (let line = entry.line; line <= last; line++) lines.add(line);
		}
		return lines;
	}

	test.each(["non_tasks.json", "comments_markdown_style.json"])(
		"%s: every line of every comment block Obsidian found is inside a reported stretch",
		(name) => {
			const note = read(name);
			const blocks = obsidianBlockComments(note);
			expect(blocks.length).toBeGreaterThan(0);
			const covered = coveredLines(note.fileContents);
			for (const block of blocks) {
				for (let line = block.line; line <= block.lastLine; line++)
					expect({ name, line, covered: covered.has(line) }).toEqual({ name, line, covered: true });
			}
		},
	);

	test("non_tasks: the comment markers quoted in inline code are reported too, the HTML one as running to the block's closing", () => {
		const found = findHiddenContent(read("non_tasks.json").fileContents, ALL).map(({ kind, line }) => ({ kind, line }));
		expect(found).toEqual([
			// "`<!-- .... ->`" on line 10 opens a comment that the block's `-->` on line 14 closes, taking in the block on line 12.
			{ kind: "html_comment", line: 10 },
			{ kind: "obsidian_comment", line: 16 },
			{ kind: "obsidian_comment", line: 18 },
		]);
	});

	test("comments_markdown_style: the block comment, then the inline comments in two task lines", () => {
		const capture = read("comments_markdown_style.json");
		const found = findHiddenContent(capture.fileContents, ALL).map(({ kind, line }) => ({ kind, line }));
		const [block] = obsidianBlockComments(capture);
		expect(found[0]).toEqual({ kind: block?.kind, line: block?.line });
		// The task lines Obsidian lists (7 and 8) each hold one `%% … %%`.
		const taskLines = (capture.cachedMetadata.listItems ?? []).map((item) => item.position.start.line);
		expect(found.slice(1)).toEqual(taskLines.map((line) => ({ kind: "obsidian_comment", line })));
	});
});

function lineStart(text: string, line: number): number {
	let start = 0;
	for (let index = 0; index < line; index++) start = text.indexOf("\n", start) + 1;
	return start;
}
