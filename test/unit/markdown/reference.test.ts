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
	"\u00a0",
	"\u2003",
	"> ",
	"- ",
	"    ",
	"# h",
	"---",
	"```",
	"<div>",
	"|a|b|\n|-|-|",
	// Protocols markdown-it refuses or allows, hosts, and a destination past the prefix that decides it.
	"javascript:",
	"DATA:",
	"data:image/png;",
	"data:image",
	"@",
	"?",
	"#",
	".",
	"x".repeat(1_100),
];
const text = fc.array(fc.constantFrom(...PIECES), { maxLength: 60 }).map((pieces) => pieces.join(""));

describe("the link reference definition rule read in steps", () => {
	test("any text gives the tokens markdown-it's own rule gives, paused anywhere", () => {
		fc.assert(
			fc.property(text, fc.integer({ min: 1, max: 4 }), (source, chunkLines) => {
				// The definitions themselves are not kept (nothing reads them): which lines are one, and where each ends, show in the tokens.
				const expected = stock.parse(source, {});
				const actual = withCopy(chunkLines).parse(source, {});
				expectEqual(
					actual.map((token) => [token.type, token.map, token.content]),
					expected.map((token) => [token.type, token.map, token.content]),
				);
			}),
			{ numRuns: 3000 },
		);
	});

	test.each([
		["closes", "]: /url\nafter\n", true],
		["holds only white space and closes", "]: /url\n", false],
	])("a label over 100,000 lines that %s is read line by line: no step works over the whole label", (_, closer, isDefinition) => {
		const lineCount = 100_000;
		const lines = Array.from({ length: lineCount }, (_, index) => (isDefinition ? `Label ${index} WORD` : "\u00a0 \u2003"));
		const source = `[${lines.join("\n")}\n${closer}`;
		const state = new stock.block.State(source, stock, {}, []);
		// The longest string other than the note that a string method ran over, per step (the text was joined, sliced, trimmed and case-folded whole).
		const methods = ["slice", "trim", "replace", "toLowerCase", "toUpperCase"] as const;
		// eslint-disable-next-line @typescript-eslint/unbound-method -- each is called below with a string as `this`
		const originals = methods.map((name) => String.prototype[name]);
		let longest = 0;
		let mostInAStep = 0;
		let result;
		try {
			methods.forEach((name, index) => {
				const original = originals[index] as (...args: unknown[]) => unknown;
				(String.prototype as unknown as Record<string, unknown>)[name] = function (this: string, ...args: unknown[]) {
					if (this.length !== source.length) longest = Math.max(longest, this.length);
					return original.apply(this, args);
				};
			});
			const steps = referenceSteps(state, 0, false, 1_000);
			for (result = steps.next(); ; result = steps.next()) {
				mostInAStep = Math.max(mostInAStep, longest);
				longest = 0;
				if (result.done) break;
			}
		} finally {
			methods.forEach((name, index) => ((String.prototype as unknown as Record<string, unknown>)[name] = originals[index]));
		}
		// A definition ending on its label's last line (markdown-it's own rule, quadratic here, agrees on short ones: above); a blank label none.
		expect(result.value).toBe(isDefinition);
		expect(state.line).toBe(isDefinition ? lineCount + 1 : 0);
		// Before: the label, some 1.7 MB, joined and normalized in the step where it closed.
		expect(mostInAStep).toBeLessThan(1_000);
	});

	test.each([
		["a destination of 1 MB", `[a]: /${"x".repeat(1_000_000)}\n`],
		["a destination of 1 MB in angle brackets", `[a]: <${"x ".repeat(500_000)}>\n`],
		["a data: destination of 1 MB", `[a]: data:image/png;${"x".repeat(1_000_000)}\n`],
		["a data: host of 1 MB", `[a]: data:${"x".repeat(1_000_000)}\n`],
		["a label of 1 MB", `[${"x ".repeat(500_000)}]: /u\n`],
	])("%s reads as markdown-it reads it, its helpers handed a few KiB of it, not all (4 MB was one piece of 3-5 s in serve)", (_, source) => {
		const parser = withCopy(1_000);
		let longest = 0;
		const measured = (text: string) => (longest = Math.max(longest, text.length));
		const normalizeLink = parser.normalizeLink.bind(parser);
		parser.normalizeLink = (url) => (measured(url), normalizeLink(url));
		const utils = parser.utils;
		(parser as { utils: MarkdownIt["utils"] }).utils = {
			...utils,
			normalizeReference: (label: string) => (measured(label), utils.normalizeReference(label)),
		};
		expect(parser.parse(source, {})).toEqual(stock.parse(source, {}));
		expect(longest).toBeLessThanOrEqual(16 * 1024);
	});
});
