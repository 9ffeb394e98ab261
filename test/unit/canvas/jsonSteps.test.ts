import fc from "fast-check";
import { parseJsonSteps } from "../../../src/canvas/jsonSteps";
import { runSteps, type Steps } from "../../../src/markdown/steps";
import { replaceMethod } from "../../helpers/replaceMethod";

function parsedInPieces(text: string, pieceChars: number, maxDepth = 64): { ok: true; value: unknown } | { ok: false } {
	const result = runSteps(parseJsonSteps(text, pieceChars, maxDepth));
	return result.ok ? { ok: true, value: result.value } : { ok: false };
}

function jsonParse(text: string): { ok: true; value: unknown } | { ok: false } {
	try {
		return { ok: true, value: JSON.parse(text) as unknown };
	} catch {
		return { ok: false };
	}
}

/** Steps the work takes. */
function stepsOf<T>(steps: Steps<T>): number {
	let count = 0;
	for (let next = steps.next(); !next.done; next = steps.next()) count++;
	return count;
}

describe("parseJsonSteps: JSON.parse in pieces", () => {
	test("gives JSON.parse's value for any JSON, laid out any way, whatever the piece size", () => {
		fc.assert(
			fc.property(fc.jsonValue(), fc.constantFrom(undefined, 1, "\t", " \n "), fc.integer({ min: 1, max: 40 }), (value, space, pieceChars) => {
				const text = JSON.stringify(value, null, space);
				expect(parsedInPieces(text, pieceChars)).toEqual(jsonParse(text));
			}),
		);
	});

	test("refuses exactly the texts JSON.parse refuses", () => {
		const jsonish = fc.stringMatching(/^[[\]{}",: 0-9a-z\\\n-]{0,24}$/);
		fc.assert(
			fc.property(fc.oneof(jsonish, fc.json()), fc.integer({ min: 1, max: 8 }), (text, pieceChars) => {
				expect(parsedInPieces(text, pieceChars).ok).toBe(jsonParse(text).ok);
			}),
			{ numRuns: 2000 },
		);
	});

	test("keeps __proto__ as an own key, the last of a repeated key, and an empty array or object however spaced", () => {
		const text = `{"__proto__": {"polluted": true}, "a": [1, 2], "a": [ ${" ".repeat(20)} ], "b": { ${" ".repeat(20)} }}`;
		const value = parsedInPieces(text, 4);
		expect(value).toEqual(jsonParse(text));
		expect(({} as Record<string, unknown>).polluted).toBeUndefined();
		expect(Object.getPrototypeOf((value as { value: object }).value)).toBe(Object.prototype);
	});

	test("a megabyte array is parsed in many steps, each handing JSON.parse about a piece (counted, not timed)", () => {
		const items = Array.from({ length: 20_000 }, (_, index) => ({ id: `n${index}`, text: "x".repeat(40) }));
		const text = JSON.stringify({ nodes: items, edges: [] });
		const pieceChars = 16 * 1024;
		expect(stepsOf(parseJsonSteps(text, pieceChars, 64))).toBeGreaterThanOrEqual(text.length / pieceChars);
		const expected = { ok: true, value: JSON.parse(text) as unknown };
		const original = JSON.parse;
		let longest = 0;
		JSON.parse = ((source: string) => {
			longest = Math.max(longest, source.length);
			return original(source) as unknown;
		}) as typeof JSON.parse;
		try {
			expect(runSteps(parseJsonSteps(text, pieceChars, 64))).toEqual(expected);
		} finally {
			JSON.parse = original;
		}
		expect(longest).toBeLessThanOrEqual(pieceChars + 2);
	});

	test("a string longer than a piece is read in pieces, escapes and surrogate pairs whole", () => {
		const text = JSON.stringify({ text: `${'[[Hub]] \\ " é 😀\u0001\n'.repeat(2_000)}` });
		for (const pieceChars of [5, 6, 7, 64, 1000]) expect(parsedInPieces(text, pieceChars)).toEqual(jsonParse(text));
		const escaped = `"${"\\u00e9\\ud83d\\ude00".repeat(50)}"`;
		for (const pieceChars of [3, 5, 7, 11]) expect(parsedInPieces(escaped, pieceChars)).toEqual(jsonParse(escaped));
		for (const broken of [`"${"a".repeat(40)}\\u12"`, `"${"a".repeat(40)}\\"`, `"${"a".repeat(40)}\u0001"`, `"${"a".repeat(40)}" "b"`])
			expect(parsedInPieces(broken, 4)).toEqual({ ok: false });
		const steps = stepsOf(parseJsonSteps(JSON.stringify("x".repeat(100_000)), 1000, 8));
		expect(steps).toBeGreaterThanOrEqual(100);
	});

	test("a card of many line ends (each an escape) is searched once for its quotes and backslashes, not once an escape (counted, not timed)", () => {
		// 400,000 line ends were 3.6 s of CPU in steps of 0.4 s: after each escape, the rest of the text was searched for its closing quote.
		const text = JSON.stringify({
			nodes: [
				{ id: "a", type: "text", text: "\n".repeat(20_000), x: 0, y: 0 },
				{ id: "b", text: 'a\\"\n'.repeat(5_000) },
			],
			edges: [],
		});
		const original = Object.getOwnPropertyDescriptor(String.prototype, "indexOf")?.value as (this: string, search: string, from?: number) => number;
		let searched = 0;
		const spy = replaceMethod(String.prototype, "indexOf", function (this: string, search: string, from?: number): number {
			const found = original.call(this, search, from);
			if (this === text) searched += (found === -1 ? this.length : found) - (from ?? 0);
			return found;
		});
		let result: ReturnType<typeof parsedInPieces>;
		try {
			result = parsedInPieces(text, 1024);
		} finally {
			spy.restore();
		}
		expect(result).toEqual(jsonParse(text));
		// The text is about 75,000 characters; each quote and backslash search goes over it once, a list's nested in it once more.
		expect(searched).toBeLessThan(10 * text.length);
	});

	test("large arrays nested deeper than the bound are refused, not recursed into", () => {
		const text = `${"[".repeat(50)}${"1,".repeat(100)}1${"]".repeat(50)}`;
		expect(runSteps(parseJsonSteps(text, 8, 10))).toEqual({ ok: false, error: expect.stringContaining("nests more than 10") });
		expect(parsedInPieces(text, 8, 64)).toEqual(jsonParse(text));
	});
});
