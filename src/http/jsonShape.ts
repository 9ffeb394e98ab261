/**
 * A request body's shape read from its text, before `JSON.parse` builds it: a megabyte of 120,000
 * object keys took 37–68 ms to parse, and 500,000 nested `[` 52–141 ms, each in one piece, only to
 * be refused for its shape afterwards (and 330,000 empty arrays, within those bounds, held the server
 * 23–48 ms parsed and checked by the SDK, then answered). Pure.
 */
import type { Steps } from "../markdown/steps";

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

/** How much a request body may hold: arrays and objects nested, object members, arrays and objects in all, and the entries of a batch (a top-level array). */
export interface JsonShapeBounds {
	depth: number;
	members: number;
	containers: number;
	batchEntries?: number;
}

/**
 * Which bound the JSON text `text` is over, or null: arrays and objects nested more than `depth`
 * deep, more than `members` object members in all (a key given twice in one object counted twice:
 * `JSON.parse` keeps the last, but reads both), more than `containers` arrays and objects in all, or
 * a top-level array of more than `batchEntries` (a batch over its cap is refused as that, not as the
 * keys its thousands of messages hold). Whichever bound the text reaches first is the answer. Exact for JSON; for text that is not JSON the answer means nothing (see `isJsonTextSteps`).
 * Strings are skipped from quote to quote, so a body that is mostly one long note costs a few
 * searches for `"`, not a look at each character.
 */
export function jsonShapeOver(text: string, bounds: JsonShapeBounds): JsonShapeBound | null {
	let depth = 0;
	let members = 0;
	let containers = 0;
	/** A top-level array's entries so far (0 until one opens): one more than its commas. */
	let batchEntries = 0;
	const maxBatchEntries = bounds.batchEntries ?? Infinity;
	for (let at = 0; at < text.length; at++) {
		const code = text.charCodeAt(at);
		if (code === QUOTE) {
			const end = stringEnd(text, at);
			if (end === -1) return null;
			at = end;
		} else if (code === COLON) {
			// Outside strings JSON has a colon only between a key and its value.
			if (++members > bounds.members) return "keys";
		} else if (code === COMMA) {
			// Outside strings a comma at depth 1 of a top-level array parts two of its entries.
			if (depth === 1 && batchEntries > 0 && ++batchEntries > maxBatchEntries) return "batch";
		} else if (code === OPEN_BRACE || code === OPEN_BRACKET) {
			if (depth === 0 && code === OPEN_BRACKET) batchEntries = 1;
			if (++depth > bounds.depth) return "nesting";
			if (++containers > bounds.containers) return "containers";
		} else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) depth--;
	}
	return null;
}

/** The bound a body's text is over (see `jsonShapeOver`). */
export type JsonShapeBound = "nesting" | "keys" | "containers" | "batch";

/** Where the string opened by the quote at `open` is closed (its closing quote), or -1 when it never is. */
function stringEnd(text: string, open: number): number {
	for (let quote = text.indexOf('"', open + 1); quote !== -1; quote = text.indexOf('"', quote + 1)) {
		// A quote after an odd run of backslashes is escaped. Each run is looked at once: it ends at the quote before it at the latest.
		let before = quote - 1;
		while (text.charCodeAt(before) === BACKSLASH) before--;
		if ((quote - 1 - before) % 2 === 0) return quote;
	}
	return -1;
}

/** What the reader expects next: a value, a key, or after a value `,` or its container's close. */
const Expect = { Value: 0, Key: 1, AfterValue: 2 } as const;

const ARRAY = 0;
const OBJECT = 1;

/**
 * Whether `text` is JSON as `JSON.parse` reads it (RFC 8259; lone surrogates allowed, no byte order
 * mark), without building anything: for a body over a shape bound, to answer "not JSON" (-32700)
 * rather than the bound (-32600) when it would not have parsed. Any depth, without recursion; it may
 * pause each time it has read about `stepChars` more, inside a string too.
 */
export function* isJsonTextSteps(text: string, stepChars: number): Steps<boolean> {
	// The kinds of the containers open, innermost last: no deeper than the text is long.
	const open = new Uint8Array(text.length);
	let depth = 0;
	let expect: number = Expect.Value;
	let at = skipSpace(text, 0);
	let pauseAt = stepChars;
	while (at < text.length) {
		if (at >= pauseAt) {
			yield;
			pauseAt = at + stepChars;
		}
		const code = text.charCodeAt(at);
		if (expect === Expect.AfterValue) {
			if (depth === 0) return false;
			const top = open[depth - 1];
			if (code === COMMA) expect = top === OBJECT ? Expect.Key : Expect.Value;
			else if ((code === CLOSE_BRACE && top === OBJECT) || (code === CLOSE_BRACKET && top === ARRAY)) depth--;
			else return false;
			at = skipSpace(text, at + 1);
			continue;
		}
		if (code === OPEN_BRACE || code === OPEN_BRACKET) {
			if (expect === Expect.Key) return false;
			at = skipSpace(text, at + 1);
			const close = code === OPEN_BRACE ? CLOSE_BRACE : CLOSE_BRACKET;
			if (text.charCodeAt(at) === close) {
				at = skipSpace(text, at + 1);
				expect = Expect.AfterValue;
				continue;
			}
			open[depth++] = code === OPEN_BRACE ? OBJECT : ARRAY;
			expect = code === OPEN_BRACE ? Expect.Key : Expect.Value;
			continue;
		}
		const end = code === QUOTE ? yield* checkedStringEndSteps(text, at, stepChars) : expect === Expect.Key ? -1 : scalarEnd(text, at);
		if (end === -1) return false;
		at = skipSpace(text, end);
		if (expect === Expect.Key) {
			if (text.charCodeAt(at) !== COLON) return false;
			at = skipSpace(text, at + 1);
			expect = Expect.Value;
			continue;
		}
		expect = Expect.AfterValue;
	}
	return expect === Expect.AfterValue && depth === 0;
}

/** The index after JSON white space from `at`. */
function skipSpace(text: string, at: number): number {
	let next = at;
	for (;;) {
		const code = text.charCodeAt(next);
		if (code !== 0x20 && code !== 0x0a && code !== 0x0d && code !== 0x09) return next;
		next++;
	}
}

const SIMPLE_ESCAPES = new Set(['"', "\\", "/", "b", "f", "n", "r", "t"]);

/**
 * The index after the string opened at `open`, or -1 when it is no JSON string (unclosed, a control
 * character, a bad escape); it may pause each `stepChars`. Read whole, a megabyte string of `\u0041`
 * escapes in a body refused for its nesting was one piece of 7–15 ms (its JSON.parse: 1.4–2.8 ms).
 */
function* checkedStringEndSteps(text: string, open: number, stepChars: number): Steps<number> {
	let pauseAt = open + stepChars;
	for (let at = open + 1; at < text.length; at++) {
		if (at >= pauseAt) {
			yield;
			pauseAt = at + stepChars;
		}
		const code = text.charCodeAt(at);
		if (code === QUOTE) return at + 1;
		if (code < 0x20) return -1;
		if (code !== BACKSLASH) continue;
		const escaped = text.charAt(at + 1);
		if (escaped === "u") {
			if (!(isHexDigit(text, at + 2) && isHexDigit(text, at + 3) && isHexDigit(text, at + 4) && isHexDigit(text, at + 5))) return -1;
			at += 5;
		} else if (SIMPLE_ESCAPES.has(escaped)) at++;
		else return -1;
	}
	return -1;
}

function isHexDigit(text: string, at: number): boolean {
	const code = text.charCodeAt(at);
	return (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x46) || (code >= 0x61 && code <= 0x66);
}

const SCALAR = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null/y;

/** The index after the number, `true`, `false` or `null` at `at`, or -1 when none starts there. */
function scalarEnd(text: string, at: number): number {
	SCALAR.lastIndex = at;
	if (!SCALAR.test(text)) return -1;
	return SCALAR.lastIndex;
}
