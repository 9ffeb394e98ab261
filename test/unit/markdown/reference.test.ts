import fc from "fast-check";
import MarkdownIt from "markdown-it";
import { referenceSteps } from "../../../src/markdown/reference";
import { runSteps } from "../../../src/markdown/steps";
import { expectEqual } from "../../helpers/plainEqual";

/** markdown-it itself, and the same with its reference rule replaced by the stepped copy, paused every `chunkLines` lines. */
const stock = new MarkdownIt("commonmark", { html: true }).enable(["table"]);
function withCopy(chunkLines: number): MarkdownIt {
	const parser = new MarkdownIt("commonmark", { html: true }).enable(["table"]);
	parser.block.ruler.at("reference", (state, startLine, _endLine, silent) => runSteps(referenceSteps(state, startLine, silent, chunkLines)));
	return parser;
}

/** Pieces of lines that make, break, continue and end link reference definitions (labels, destinations, titles over lines, escapes, garbage, terminators). */
const PIECES = [
	"[",
	"]",
	"]:",
	"[a]:",
	"[b]",
	" ",
	"\t",
	"\n",
	"\n\n",
	"/url",
	"<u r>",
	"<",
	">",
	'"',
	"'",
	"(",
	")",
	"\\",
	"x",
	"> ",
	"- ",
	"    ",
	"# h",
	"---",
	"```",
	"<div>",
	"|a|b|\n|-|-|",
];
const text = fc.array(fc.constantFrom(...PIECES), { maxLength: 60 }).map((pieces) => pieces.join(""));

describe("the link reference definition rule read in steps", () => {
	test("any text gives the tokens and the definitions markdown-it's own rule gives, paused anywhere", () => {
		fc.assert(
			fc.property(text, fc.integer({ min: 1, max: 4 }), (source, chunkLines) => {
				const stockEnv: Record<string, unknown> = {};
				const copyEnv: Record<string, unknown> = {};
				const expected = stock.parse(source, stockEnv);
				const actual = withCopy(chunkLines).parse(source, copyEnv);
				expectEqual(
					actual.map((token) => [token.type, token.map, token.content]),
					expected.map((token) => [token.type, token.map, token.content]),
				);
				expectEqual(copyEnv, stockEnv);
			}),
			{ numRuns: 3000 },
		);
	});
});
