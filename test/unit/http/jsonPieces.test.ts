import { jsonAtOnce, jsonInPieces, joinedAsArray, PIECE_CHARS, textInPieces } from "../../../src/http/jsonPieces";
import { ANSWER_AT_ONCE_CHARS } from "../../../src/config/limits";
import { rememberJsonText } from "../../../src/jsonText";

/** A long text whose surrogate pairs straddle every piece boundary, with every character JSON escapes. */
function longText(pieces: number): string {
	const unit = 'quote " backslash \\ tab \t newline \n nul \u0000 lone \ud800 é 東京 line sep \u2028 ';
	let text = "";
	while (text.length < pieces * PIECE_CHARS) text += unit;
	// An emoji (a surrogate pair) right where each piece would end.
	for (let boundary = PIECE_CHARS - 1; boundary < text.length; boundary += PIECE_CHARS) text = `${text.slice(0, boundary)}😀${text.slice(boundary)}`;
	return text;
}

/** A message shaped as a tool's answer, with the values JSON.stringify treats specially. */
function message(text: string): Record<string, unknown> {
	return {
		result: {
			content: [
				{ type: "text", text },
				{ type: "text", text: "short", annotations: undefined },
			],
			structuredContent: { rows: [1, undefined, () => 2, null, "x"], nested: { deeper: { deepest: [{ a: text.slice(0, 10) }] } }, none: undefined },
			isError: false,
		},
		jsonrpc: "2.0",
		id: 7,
		"2": "an integer key",
		nothing: Symbol("no JSON"),
	};
}

/** Turns that pause before every piece, at once. */
const noPause = { pause: () => Promise.resolve(), sliceMs: 0 };

describe("a message made in pieces", () => {
	test("is JSON.stringify's text exactly, with its UTF-8 bytes, whatever the values", async () => {
		const values: object[] = [
			message(longText(3)),
			message("short text"),
			{ list: [longText(1), { when: new Date(0) }], numbers: [0, -0, Number.NaN, 1.5e300] },
			// A value deciding its own JSON (toJSON) where the message is walked: made whole, as JSON.stringify makes it.
			{ result: { at: new Date(Date.UTC(2026, 0, 2)), text: longText(2) } },
			[],
			{},
		];
		for (const value of values) {
			const made = await jsonInPieces(value, noPause);
			expect(made.pieces.join("")).toBe(JSON.stringify(value));
			expect(made.bytes).toBe(Buffer.byteLength(JSON.stringify(value)));
			// Each piece is well-formed on its own (it is encoded and written alone): no pair is cut.
			for (const piece of made.pieces) expect(Buffer.from(piece).toString()).toBe(piece);
		}
	});

	test("a long text is cut into pieces, pausing between them once a slice is used; a small message is one piece made without a turn", async () => {
		let pauses = 0;
		const pause = () => {
			pauses++;
			return Promise.resolve();
		};
		const big = await jsonInPieces(message(longText(8)), { pause, sliceMs: 0 });
		expect(pauses).toBeGreaterThanOrEqual(8);
		expect(big.pieces.length).toBeGreaterThanOrEqual(8);
		// A piece is PIECE_CHARS of the text (one more to keep a pair whole), each character escaped to 6 at most.
		expect(Math.max(...big.pieces.map((piece) => piece.length))).toBeLessThanOrEqual(6 * (PIECE_CHARS + 1));
		pauses = 0;
		const small = await jsonInPieces(message("short text"), { pause, sliceMs: 0 });
		expect(pauses).toBe(0);
		expect(small.pieces).toHaveLength(1);
	});

	test("a value whose JSON was made already is written from that text, not walked again", async () => {
		let reads = 0;
		const answer = {
			get rows() {
				reads++;
				return Array.from({ length: 3 }, (_, index) => ({ index, text: longText(1).slice(0, 100) }));
			},
		};
		const text = JSON.stringify(answer);
		rememberJsonText(answer, text);
		reads = 0;
		const made = await jsonInPieces({ result: { content: [{ type: "text", text }], structuredContent: answer }, jsonrpc: "2.0", id: 1 }, noPause);
		expect(reads).toBe(0);
		expect(made.pieces.join("")).toBe(JSON.stringify({ result: { content: [{ type: "text", text }], structuredContent: answer }, jsonrpc: "2.0", id: 1 }));
	});

	test("a batch's answers join as the array JSON.stringify writes, bytes counted once", async () => {
		const answers = [message(longText(2)), message("a"), { jsonrpc: "2.0", id: 3, error: { code: -32000, message: "no" } }];
		const made = await Promise.all(answers.map((answer) => jsonInPieces(answer, noPause)));
		const joined = joinedAsArray(made);
		expect(joined.pieces.join("")).toBe(JSON.stringify(answers));
		expect(joined.bytes).toBe(Buffer.byteLength(JSON.stringify(answers)));
		// One answer alone is the body, not an array of one.
		expect(joinedAsArray([made[1]!]).pieces.join("")).toBe(JSON.stringify(answers[1]));
	});
});

describe("JSON text made whole elsewhere, cut into pieces", () => {
	test("the pieces join into the text, each encodes on its own (no pair cut) and the bytes are the text's", () => {
		// An emoji (a surrogate pair) straddles every cut.
		const text = `{"a":"${"x".repeat(PIECE_CHARS - 5)}${"😀".repeat(PIECE_CHARS)}é"}`;
		const { pieces, bytes } = textInPieces(text);
		expect(pieces.length).toBeGreaterThan(2);
		expect(pieces.join("")).toBe(text);
		expect(Buffer.concat(pieces.map((piece) => Buffer.from(piece))).equals(Buffer.from(text))).toBe(true);
		expect(bytes).toBe(Buffer.byteLength(text));
		expect(textInPieces("")).toEqual({ pieces: [""], bytes: 0 });
	});
});

describe("a short message's JSON made at once", () => {
	test("is JSON.stringify's text and its bytes, for every value it treats specially", () => {
		const values: object[] = [
			message('short text with "quotes" and 東京 😀'),
			{},
			[],
			[[[]]],
			{ a: [undefined, null, () => 1] },
			{ deep: { er: { still: { here: [1] } } } },
		];
		for (const value of values) {
			const made = jsonAtOnce(value);
			expect(made?.text).toBe(JSON.stringify(value));
			expect(made?.bytes).toBe(Buffer.byteLength(JSON.stringify(value)));
		}
	});

	test("is the text jsonInPieces makes, in one piece", async () => {
		const made = await jsonInPieces(message("short"), noPause);
		expect(made.pieces).toHaveLength(1);
		expect(jsonAtOnce(message("short"))).toEqual({ text: made.pieces[0], bytes: made.bytes });
	});

	test("is not made for a message of ANSWER_AT_ONCE_CHARS or more, nor for a value whose own toJSON decides", () => {
		const justUnder = { text: "x".repeat(ANSWER_AT_ONCE_CHARS - '{"text":""}'.length - 1) };
		expect(jsonAtOnce(justUnder)?.text).toBe(JSON.stringify(justUnder));
		expect(jsonAtOnce({ text: `${justUnder.text}x` })).toBeNull();
		expect(jsonAtOnce({ rows: Array.from({ length: ANSWER_AT_ONCE_CHARS / 4 }, (_, index) => index) })).toBeNull();
		expect(jsonAtOnce(message(longText(1)))).toBeNull();
		expect(jsonAtOnce({ when: new Date(0) })).toBeNull();
	});

	test("writes a remembered text as it is, never walking its value again", () => {
		let reads = 0;
		const answer = {
			get rows() {
				reads++;
				return [1, 2, 3];
			},
		};
		const text = JSON.stringify(answer);
		rememberJsonText(answer, text);
		const whole = { result: { content: [{ type: "text", text }], structuredContent: answer }, jsonrpc: "2.0", id: 1 };
		const expected = JSON.stringify(whole);
		reads = 0;
		expect(jsonAtOnce(whole)?.text).toBe(expected);
		expect(reads).toBe(0);
		// A long remembered text: given up on at once, nothing of it walked.
		const big = {
			get rows() {
				reads++;
				return [];
			},
		};
		rememberJsonText(big, "x".repeat(ANSWER_AT_ONCE_CHARS));
		reads = 0;
		expect(jsonAtOnce({ result: { structuredContent: big } })).toBeNull();
		expect(reads).toBe(0);
	});
});
