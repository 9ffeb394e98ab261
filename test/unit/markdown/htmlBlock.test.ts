import fc from "fast-check";
import MarkdownIt from "markdown-it";
import { checkSync } from "recheck";
import { HTML_BLOCK_KINDS, htmlBlock } from "../../../src/markdown/htmlBlock";
import { parseMetadata } from "../../../src/markdown/metadata";

const stock = new MarkdownIt("commonmark", { html: true });
const withRule = new MarkdownIt("commonmark", { html: true });
withRule.block.ruler.at("html_block", htmlBlock, { alt: ["paragraph", "reference", "blockquote"] });

/** The block tokens of `source` as plain records. */
function blocks(parser: MarkdownIt, source: string): unknown[] {
	return parser.parse(source, {}).map((token) => ({ type: token.type, map: token.map, content: token.type === "inline" ? undefined : token.content }));
}

/** A line that made markdown-it's tag pattern backtrack: twice as long for every `pump` more (a second at 12). */
function plantedLine(pumps: number): string {
	return `<A\t:\u00a0${"=\u00a0\u00a0:\u00a0:\u00a0".repeat(pumps)}'>">`;
}

describe("htmlBlock: markdown-it's HTML block rule with a linear tag pattern", () => {
	test("gives markdown-it's blocks for HTML written with ASCII spaces (every kind, in quotes and lists, closed and not)", () => {
		const piece = fc.constantFrom(
			"<div>",
			"</div>",
			"<DIV class='x'>",
			"<custom-tag a=b c='d' e=\"f\" g>",
			"<a href=x/>",
			'<span   \t title = "t" >',
			"<a x=b =c>",
			"<script>",
			"</script>",
			"<pre>",
			"<!-- note",
			"-->",
			"<?php",
			"?>",
			"<!DOCTYPE html>",
			"<![CDATA[",
			"]]>",
			"<table>",
			"<td>",
			"text",
			"# heading",
			"    indented",
			"> ",
			"- ",
			"1. ",
			"  ",
			"",
		);
		const line = fc.array(piece, { minLength: 1, maxLength: 3 }).map((pieces) => pieces.join(""));
		fc.assert(
			fc.property(fc.array(line, { minLength: 1, maxLength: 8 }), (lines) => {
				const source = `${lines.join("\n")}\n`;
				expect(blocks(withRule, source)).toEqual(blocks(stock, source));
			}),
		);
	});

	test("every pattern it runs on note text is linear", () => {
		for (const [opens, closes] of HTML_BLOCK_KINDS) {
			expect(checkSync(opens.source, opens.flags).status).toBe("safe");
			expect(checkSync(closes.source, closes.flags).status).toBe("safe");
		}
	});

	test("a planted line of non-breaking spaces in a tag is read at once, as the paragraph markdown-it makes of it (a second at 100 characters before, doubling every 7 more)", () => {
		for (const prefix of ["", "- ", "> ", "text\n\n"]) {
			const source = `${prefix}${plantedLine(5_000)}\n`;
			const cache = parseMetadata(source);
			expect(cache.sections?.at(-1)?.type).toBe(prefix === "- " ? "list" : prefix === "> " ? "blockquote" : "paragraph");
		}
		// Short enough for markdown-it's own pattern to answer, the same blocks.
		const short = `${plantedLine(3)}\n`;
		expect(blocks(withRule, short)).toEqual(blocks(stock, short));
	});

	test("a tag whose unquoted value holds a non-breaking space before what cannot start an attribute is not a tag (as in HTML and Obsidian's editor; markdown-it took it for one)", () => {
		const source = "<a x=b\u00a0/c>\n";
		expect(blocks(stock, source)[0]).toMatchObject({ type: "html_block" });
		expect(blocks(withRule, source)[0]).toMatchObject({ type: "paragraph_open" });
		// A non-breaking space between attributes still separates them, as markdown-it reads it.
		const between = "<a x=b\u00a0y='z'>\n";
		expect(blocks(withRule, between)).toEqual(blocks(stock, between));
	});
});
