import fc from "fast-check";
import MarkdownIt from "markdown-it";
import { skipBulletListMarker, skipOrderedListMarker } from "../../../src/markdown/listMarkers";

const markdown = new MarkdownIt();

/** markdown-it's block state for `source`, as its list rule sees it. */
function stateOf(source: string): MarkdownIt.StateBlock {
	return new markdown.block.State(source, markdown, {}, []);
}

/** What markdown-it itself makes of `line` alone: a bullet list, an ordered list, or neither. */
function listKindOf(line: string): "bullet" | "ordered" | null {
	const first = markdown.parse(line, {})[0]?.type;
	if (first === "bullet_list_open") return "bullet";
	if (first === "ordered_list_open") return "ordered";
	return null;
}

describe("list markers read as markdown-it's list rule reads them", () => {
	test.each([
		["- item", 1],
		["* item", 1],
		["+ item", 1],
		["-\titem", 1],
		["-", 1],
		["-item", -1],
		["x item", -1],
	])("bullet marker of %j ends at %d", (line, end) => {
		expect(skipBulletListMarker(stateOf(line), 0)).toBe(end);
	});

	test.each([
		["1. item", 2],
		["1) item", 2],
		["123456789. nine digits", 10],
		["1234567890. ten digits", -1],
		["1.item", -1],
		["1", -1],
		["a. item", -1],
		["1.", 2],
	])("ordered marker of %j ends at %d", (line, end) => {
		expect(skipOrderedListMarker(stateOf(line), 0)).toBe(end);
	});

	test("a line starts a list exactly when markdown-it makes one of it, of the same kind", () => {
		const pieces = fc.constantFrom("-", "*", "+", "1", "9", "0", ".", ")", " ", "\t", "a", "#", "12345", "67890");
		fc.assert(
			fc.property(fc.array(pieces, { minLength: 1, maxLength: 8 }), (parts) => {
				const line = parts.join("");
				// markdown-it reads a line indented four columns as code, before any list rule runs.
				fc.pre(!/^( {4}|\t| {1,3}\t)/.test(line) && line.trim() !== "");
				const state = stateOf(line);
				const bullet = skipBulletListMarker(state, 0) >= 0;
				const ordered = skipOrderedListMarker(state, 0) >= 0;
				const kind = listKindOf(line);
				// A `-` or `*` line of three or more is a thematic break, which markdown-it's hr rule takes first.
				if (kind === null && bullet && /^ {0,3}([-*_])(\s*\1){2,}\s*$/.test(line)) return;
				expect(bullet ? "bullet" : ordered ? "ordered" : null).toBe(kind);
			}),
			{ numRuns: 2000 },
		);
	});
});
