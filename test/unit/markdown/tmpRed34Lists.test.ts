import fc from "fast-check";
import MarkdownIt from "markdown-it";
import { MAX_MARKDOWN_NESTING } from "../../../src/config/limits";
import { parseBlocks, type MarkdownToken } from "../../../src/markdown/blocks";
import { runSteps } from "../../../src/markdown/steps";
import { metadataSteps } from "../../../src/markdown/metadata";

function tokensOf(source: string, chunkLines?: number): MarkdownToken[] {
	const tokens: MarkdownToken[] = [];
	runSteps(parseBlocks(source, function* (handed, count) { for (let index = 0; index < count; index++) tokens.push(handed[index] as MarkdownToken); yield; }, chunkLines));
	return tokens;
}
const rec = (token: MarkdownToken) => ({ type: token.type, map: token.map, level: token.level, markup: token.markup, info: token.info, content: token.type === "inline" ? token.content : "", hidden: token.hidden, attrs: token.attrs });
const ref = new MarkdownIt("commonmark", { html: true, maxNesting: MAX_MARKDOWN_NESTING } as MarkdownIt.Options).enable(["table", "strikethrough"]);
const PIECES = ["\n", "\n", "\n", "\n\n", "- ", "-", "* ", "+ ", "-\t", "-\t\t", "1. ", "0. ", "2) ", "123456789. ", "1234567890. ", "01. ", "1.", "1)\t", " ", "  ", "   ", "    ", "     ", "\t", " \t", "text", "word ", "> ", ">", "# ", "---", "***", "* * *", "- - -", "===", "```", "~~~", "    code", "<div>", "</div>", "<!-- x -->", "| a | b |", "|---|---|", "[ref]: /u", "- [ ] ", "[x] ", "\r\n", "\r", "\u00a0", "\u3000", "\f", "\v", "\u0000"];
const md = fc.array(fc.constantFrom(...PIECES), { maxLength: 60 }).map((pieces) => pieces.join(""));
test("hostile lists", () => {
	fc.assert(fc.property(md, fc.integer({ min: 1, max: 5 }), (text, chunk) => {
		expect(tokensOf(text, chunk).map(rec)).toEqual(ref.parse(text, {}).map(rec));
	}), { numRuns: 30000 });
});

const longMd = fc.array(fc.constantFrom(...PIECES, "[[L]]", "#tag ", "[a](b.md)", "^id"), { maxLength: 150 }).map((pieces) => pieces.join(""));
test("hostile lists long", () => {
	fc.assert(fc.property(longMd, fc.integer({ min: 1, max: 5 }), (text, chunk) => {
		expect(tokensOf(text, chunk).map(rec)).toEqual(ref.parse(text, {}).map(rec));
		expect(runSteps(metadataSteps(text, chunk))).toEqual(runSteps(metadataSteps(text, 100000)));
	}), { numRuns: 8000 });
});
import { FindingMarkers } from "../../../src/markdown/inline";
const MPIECES = ["\n", "\n\n", "\r", "\r\n", "- ", "> ", "1. ", "    ", "\t", "text ", "[a][b]", "[b]: Note.md", "[b]", "<https://x.y>", "<Note.md>", "[[", "]]", "[", "]", "(", ")", "](", "!", "#", "#tag", "＃tag", "［［N］］", "](Note.md)", "\\", "`", "``", "%%", "<!--", "-->", "&#35;t", "&#91;&#91;N]]", "<a href=\"N.md\">", "^id", "|", "| a | b |\n|---|---|\n", "---\nk: [[F]]\n---\n", "$$", "\u0000", "\u2028", "\u0085"];
const mmd = fc.array(fc.constantFrom(...MPIECES), { maxLength: 60 }).map((pieces) => pieces.join(""));
test("markers shortcut", () => {
	const original = FindingMarkers.prototype.mayFind;
	fc.assert(fc.property(mmd, (text) => {
		const shortcut = runSteps(metadataSteps(text));
		FindingMarkers.prototype.mayFind = () => true;
		try {
			expect(shortcut).toEqual(runSteps(metadataSteps(text)));
		} finally {
			FindingMarkers.prototype.mayFind = original;
		}
	}), { numRuns: 30000 });
});
