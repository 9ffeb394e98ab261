import fc from "fast-check";
import { LineIndex } from "../../../src/markdown/lines";
import { runSteps } from "../../../src/markdown/steps";
import { LINE_INDEX_PAUSE_LINES } from "../../../src/config/limits";
import { countPushes } from "../../helpers/countPushes";
import { replaceMethod } from "../../helpers/replaceMethod";
import { expectEqual } from "../../helpers/plainEqual";

describe("LineIndex: character offsets to Obsidian's {line, col, offset} and back", () => {
	test("LF and CRLF notes give the same lines and columns", () => {
		for (const text of ["# Title\n\n- [ ] task\nlast", "# Title\r\n\r\n- [ ] task\r\nlast"]) {
			const index = new LineIndex(text);
			expect(index.lineCount).toBe(4);
			expect([0, 1, 2, 3].map((line) => index.lineText(line))).toEqual(["# Title", "", "- [ ] task", "last"]);
			expect(index.isBlank(1)).toBe(true);
			const task = text.indexOf("task");
			expect(index.loc(task)).toEqual({ line: 2, col: 6, offset: task });
		}
	});

	test("a byte-order mark stands before line 0: the first line's text is without it, offsets stay the text's own", () => {
		const index = new LineIndex("\uFEFF# Heading\nnext");
		expect(index.lineText(0)).toBe("# Heading");
		expect(index.lineStart(0)).toBe(1);
		expect(index.loc(1)).toEqual({ line: 0, col: 0, offset: 1 });
		expect(index.pos(1, 10)).toEqual({ start: { line: 0, col: 0, offset: 1 }, end: { line: 0, col: 9, offset: 10 } });
	});

	test("a text ending in a newline has an empty last line; the empty text has one line", () => {
		expect(new LineIndex("a\n").lineCount).toBe(2);
		expect(new LineIndex("a\n").lineText(1)).toBe("");
		expect(new LineIndex("").lineCount).toBe(1);
		expect(new LineIndex("").lineText(0)).toBe("");
	});

	test("linesPos spans from a column on one line to the end of another's content", () => {
		const index = new LineIndex("> quote\n> more\r\nafter");
		expect(index.linesPos(0, 2, 1)).toEqual({ start: { line: 0, col: 2, offset: 2 }, end: { line: 1, col: 6, offset: 14 } });
	});

	test("every offset maps to a line whose span contains it, and back to the same offset", () => {
		fc.assert(
			fc.property(fc.array(fc.constantFrom("a", "b", " ", "\n", "\r\n", "é"), { maxLength: 60 }), (pieces) => {
				const text = pieces.join("");
				const index = new LineIndex(text);
				for (let offset = 0; offset <= text.length; offset++) {
					const { line, col } = index.loc(offset);
					expect(index.lineStart(line) + col).toBe(offset);
					expect(offset).toBeGreaterThanOrEqual(index.lineStart(line));
					if (line + 1 < index.lineCount) expect(offset).toBeLessThan(index.lineStart(line + 1));
				}
				expect(index.lineCount).toBe(text.split("\n").length);
			}),
		);
	});

	test("built in steps, the index is the same, and no more than about LINE_INDEX_PAUSE_LINES line breaks are looked for between two pauses (131,072 were: pieces of 55–100 ms)", () => {
		const text = "line\n".repeat(LINE_INDEX_PAUSE_LINES * 9 + 5);
		const lookedFor = [0];
		const indexOf = Object.getOwnPropertyDescriptor(String.prototype, "indexOf")?.value as (this: string, search: string, from?: number) => number;
		const looking = replaceMethod(String.prototype, "indexOf", function (this: string, search: string, from?: number) {
			lookedFor[lookedFor.length - 1] = (lookedFor.at(-1) ?? 0) + 1;
			return indexOf.call(this, search, from);
		});
		let built: LineIndex;
		try {
			const steps = LineIndex.inSteps(text);
			let next = steps.next();
			while (!next.done) {
				lookedFor.push(0);
				next = steps.next();
			}
			built = next.value;
		} finally {
			looking.restore();
		}
		// Every line break is looked for twice (counted, then placed), plus the miss that ends each pass.
		expect(lookedFor.reduce((sum, count) => sum + count, 0)).toBe(2 * (LINE_INDEX_PAUSE_LINES * 9 + 6));
		// The piece where counting ends and placing begins holds the end of one pass and the start of the other.
		expect(Math.max(...lookedFor)).toBeLessThanOrEqual(2 * LINE_INDEX_PAUSE_LINES);
		const direct = new LineIndex(text);
		expect(built.lineCount).toBe(direct.lineCount);
		for (const offset of [0, 4, 5, 12_345, 500_000, text.length - 1, text.length]) expect(built.loc(offset)).toEqual(direct.loc(offset));
	});
});

describe("LineIndex.isBlank", () => {
	test("a line is blank exactly when trim leaves nothing of it (every white space, and near misses)", () => {
		const characters = fc.constantFrom(
			" ",
			"\t",
			"\u00a0",
			"\u2028",
			"\u3000",
			"\ufeff",
			"\u000b",
			"\u000c",
			"\u200b",
			"\u0085",
			"\ud83d",
			"a",
			"\r",
			"\n",
			"x\u00a0",
		);
		fc.assert(
			fc.property(fc.array(characters, { maxLength: 12 }), (pieces) => {
				const text = pieces.join("");
				const index = new LineIndex(text);
				for (let line = 0; line < index.lineCount; line++) expectEqual(index.isBlank(line), index.lineText(line).trim() === "");
			}),
			{ numRuns: 3000 },
		);
	});
});

describe("LineIndex.inSteps on a note of many short lines", () => {
	test("keeps the line starts without growing an array a line at a time (2.5 million lines spent one piece of 130 ms on one growth), with the same lines", () => {
		const text = "a\n".repeat(100_000);
		const { result: index, pushes } = countPushes(() => runSteps(LineIndex.inSteps(text)));
		expect(pushes).toBeLessThan(100);
		expect(index.lineCount).toBe(100_001);
		expect([index.lineStart(0), index.lineStart(1), index.lineStart(99_999), index.lineStart(100_000), index.lineEnd(99_999)]).toEqual([
			0, 2, 199_998, 200_000, 199_999,
		]);
		expect(index.lineOf(150_001)).toBe(75_000);
	});
});

describe("LineIndex.lineNear", () => {
	test("any offset, any line tried first: the line lineOf finds (texts with CRLF, a byte-order mark, empty lines)", () => {
		const text = fc.array(fc.constantFrom("a", "bc", "\n", "\r\n", "\n\n", " "), { maxLength: 30 }).map((parts) => parts.join(""));
		fc.assert(
			fc.property(fc.boolean(), text, fc.nat(), fc.nat(), (bom, body, offsetSeed, nearSeed) => {
				const whole = bom ? `\uFEFF${body}` : body;
				const index = new LineIndex(whole);
				const offset = offsetSeed % (whole.length + 1);
				const near = nearSeed % index.lineCount;
				expect(index.lineNear(offset, near)).toBe(index.lineOf(offset));
			}),
			{ numRuns: 500 },
		);
	});
});
