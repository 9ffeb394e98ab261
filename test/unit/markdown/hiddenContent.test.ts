import { readFileSync } from "node:fs";
import * as nodePath from "node:path";
import fc from "fast-check";
import type { CachedMetadata } from "obsidian";
import { findHiddenContent, type HiddenContent } from "../../../src/markdown/hiddenContent";
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
		["several, in order, on their lines", "a %%x%%\nb\nc <!--y-->\u200b", [
			{ kind: "obsidian_comment", line: 0, characters: 5 },
			{ kind: "html_comment", line: 2, characters: 8 },
			{ kind: "invisible_characters", line: 2, characters: 1 },
		]],
		["%% in inline code is shown", "Write `%%` to start a comment.\n", []],
		["<!-- in inline code is shown", "An HTML comment starts with `<!--`.\n", []],
		["%% in a fenced code block is shown", "```c\nprintf(\"100%%\");\n```\n\n%%real%%\n", [{ kind: "obsidian_comment", line: 4, characters: 8 }]],
		["<!-- in a tilde fence is shown", "~~~html\n<!-- markup -->\n~~~\n", []],
		["an invisible character in code is still invisible", "`a\u200bb`", [{ kind: "invisible_characters", line: 0, characters: 1 }]],
		["a comment holding backticks is a comment", "%% `code` %%", [{ kind: "obsidian_comment", line: 0, characters: 12 }]],
		["an unclosed inline <!-- is shown as written", "a <!-- b\n\nc\n", []],
	])("%s", (_name, text, expected) => {
		expect(findHiddenContent(text, ALL)).toEqual(expected);
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

	// Each of these once made the search read the rest of the paragraph again for every opener (seconds on a note this size).
	test.each<[string, string]>([
		["backtick runs of every length, none closed", Array.from({ length: 1000 }, (_, index) => `${"`".repeat(index + 1)} a `).join("")],
		["`<!--` again and again, never closed", "x <!-- ".repeat(70_000)],
		["many closed code spans", "`a` ".repeat(120_000)],
	])("a 500 KB paragraph of %s is read in one pass", (_name, text) => {
		const started = performance.now();
		expect(findHiddenContent(text, ALL)).toEqual([]);
		expect(performance.now() - started).toBeLessThan(1000);
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
	function obsidianBlockComments(capture: Capture): Array<{ kind: string; line: number }> {
		const lines = capture.fileContents.split("\n");
		return (capture.cachedMetadata.sections ?? [])
			.filter((section) => section.type === "comment" || (section.type === "html" && lines[section.position.start.line]?.trimStart().startsWith("<!--")))
			.map((section) => ({ kind: section.type === "comment" ? "obsidian_comment" : "html_comment", line: section.position.start.line }));
	}

	test("non_tasks: the comment blocks Obsidian sees, not the comment markers quoted in inline code above them", () => {
		const capture = read("non_tasks.json");
		expect(obsidianBlockComments(capture)).toEqual([
			{ kind: "html_comment", line: 12 },
			{ kind: "obsidian_comment", line: 18 },
		]);
		expect(findHiddenContent(capture.fileContents, ALL).map(({ kind, line }) => ({ kind, line }))).toEqual(obsidianBlockComments(capture));
	});

	test("comments_markdown_style: the block comment, then the inline comments in two task lines", () => {
		const capture = read("comments_markdown_style.json");
		const found = findHiddenContent(capture.fileContents, ALL).map(({ kind, line }) => ({ kind, line }));
		expect(found[0]).toEqual(obsidianBlockComments(capture)[0]);
		// The task lines Obsidian lists (7 and 8) each hold one `%% … %%`.
		const taskLines = (capture.cachedMetadata.listItems ?? []).map((item) => item.position.start.line);
		expect(found.slice(1)).toEqual(taskLines.map((line) => ({ kind: "obsidian_comment", line })));
	});
});
