/**
 * A tool's answer as JSON text, made in slices. A thousand-row answer (query_base, list_tasks, a
 * canvas of 5,000 cards) is 0.3–1.2 MB of JSON; made in one piece, and then made again to count its
 * bytes, it held every other client 30–100 ms per call beside the SDK's own copy.
 */
import { ANSWER_AT_ONCE_CHARS, ANSWER_ITEMS_MADE_IN_ONE_PIECE, ANSWER_COUNTED_CHARS } from "../config/limits";
import type { CallToolResult } from "@modelcontextprotocol/server";
import { pieceEnd, rememberJsonText } from "../jsonText";
import { runSteps, SliceClock, type Steps } from "../markdown/steps";

/** Levels of arrays and objects taken apart: deeper values (a row, a card) are each one `JSON.stringify`. */
const SLICED_LEVELS = 2;

/** Items in the answer's top-level lists. Its own keys walked, not `Object.values`' new list (every call's answer is counted). */
function listedItems(value: Record<string, unknown>): number {
	let items = 0;
	for (const key in value) {
		if (!Object.hasOwn(value, key)) continue;
		const entry = value[key];
		if (Array.isArray(entry)) items += entry.length;
	}
	return items;
}

/** The JSON text of one value, `JSON.stringify`'s exactly, a step after each array item or object entry of the first levels. */
function* jsonSteps(value: unknown, levels: number): Steps<string | undefined> {
	if (levels === 0 || value === null || typeof value !== "object" || typeof (value as { toJSON?: unknown }).toJSON === "function") {
		return JSON.stringify(value);
	}
	const parts: string[] = [];
	if (Array.isArray(value)) {
		for (let index = 0; index < value.length; index++) {
			// As JSON.stringify: what has no JSON (undefined, a function) is null in an array.
			parts.push((yield* jsonSteps(value[index], levels - 1)) ?? "null");
			yield;
		}
		return `[${parts.join(",")}]`;
	}
	for (const [key, entry] of Object.entries(value)) {
		// …and is left out of an object.
		const text = yield* jsonSteps(entry, levels - 1);
		if (text !== undefined) parts.push(`${JSON.stringify(key)}:${text}`);
		yield;
	}
	return `{${parts.join(",")}}`;
}

/** `JSON.stringify(value)` for a tool's answer (plain data, no cycles), pausing on `clock` between items. */
export async function stringifyInSlices(value: Record<string, unknown>, clock: SliceClock): Promise<string> {
	return (await clock.run(jsonSteps(value, SLICED_LEVELS))) ?? "null";
}

/** Characters a JSON string escapes with one extra byte each (`\"`, `\\`). */
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * The bytes of `JSON.stringify({content: [{type: "text", text}], structuredContent})` when `text`
 * is `JSON.stringify(structuredContent)`, without making it, a step after each ANSWER_COUNTED_CHARS. Such
 * a text holds no control character and no lone surrogate (JSON.stringify wrote them as escapes),
 * so quoting it again adds only its two quotes and one backslash before each `"` and `\`; a step
 * never ends between the two halves of a pair, so each step's UTF-8 bytes are its own.
 */
function* resultBytesSteps(text: string): Steps<number> {
	let escapes = 0;
	let textBytes = 0;
	for (let start = 0; start < text.length;) {
		const end = pieceEnd(text, start, ANSWER_COUNTED_CHARS);
		for (let index = start; index < end; index++) {
			const code = text.charCodeAt(index);
			if (code === QUOTE || code === BACKSLASH) escapes++;
		}
		textBytes += Buffer.byteLength(text.slice(start, end));
		start = end;
		yield;
	}
	return RESULT_FRAME_BYTES + 2 + textBytes + escapes + textBytes;
}

function resultBytes(text: string): number {
	// A short text is counted in one step, without a generator.
	if (text.length > ANSWER_COUNTED_CHARS) return runSteps(resultBytesSteps(text));
	let escapes = 0;
	for (let index = 0; index < text.length; index++) {
		const code = text.charCodeAt(index);
		if (code === QUOTE || code === BACKSLASH) escapes++;
	}
	const textBytes = Buffer.byteLength(text);
	return RESULT_FRAME_BYTES + 2 + textBytes + escapes + textBytes;
}

/** The bytes of a result's JSON around its text (quoted) and its structured content. */
const RESULT_FRAME_BYTES = Buffer.byteLength('{"content":[{"type":"text","text":}],"structuredContent":}');

/**
 * `answerInSlices` for an answer made in one piece (its lists hold fewer than ANSWER_ITEMS_MADE_IN_ONE_PIECE
 * items in all), made now, without a promise; null for a bigger one.
 */
export function answerAtOnce(value: Record<string, unknown>): { result: CallToolResult; bytes: number } | null {
	if (listedItems(value) >= ANSWER_ITEMS_MADE_IN_ONE_PIECE) return null;
	const text = JSON.stringify(value);
	rememberJsonText(value, text);
	const content: CallToolResult["content"] = [{ type: "text", text }];
	if (text.length > ANSWER_AT_ONCE_CHARS) return { result: { content, structuredContent: value }, bytes: resultBytes(text) };
	// The text quoted once, here: the transport writes the content as this JSON instead of quoting the text again (a note's
	// answer, twice its size, each time), and the quoting gives the escapes' count (the text is JSON: only `"` and `\` are escaped).
	const quoted = JSON.stringify(text);
	rememberJsonText(content, `[{"type":"text","text":${quoted}}]`);
	return { result: { content, structuredContent: value }, bytes: RESULT_FRAME_BYTES + quoted.length - text.length + 2 * Buffer.byteLength(text) };
}

/**
 * A successful answer as MCP clients get it (`structuredContent`, and the same as compact JSON
 * text), with its size in bytes as JSON; made in slices of `sliceMs`, pausing on `pause`.
 */
export async function answerInSlices(
	value: Record<string, unknown>,
	sliceMs: number,
	pause: () => Promise<void>,
): Promise<{ result: CallToolResult; bytes: number }> {
	const atOnce = answerAtOnce(value);
	if (atOnce !== null) return atOnce;
	const clock = new SliceClock(sliceMs, pause);
	const text = await stringifyInSlices(value, clock);
	// The transport writes this text as the structured content too, rather than making it again in one piece.
	rememberJsonText(value, text);
	const bytes = await clock.run(resultBytesSteps(text));
	// The SDK then checks the answer against the tool's schema and the transport writes it as JSON, in one piece: start that on a fresh slice.
	await clock.checkpoint();
	return { result: { content: [{ type: "text", text }], structuredContent: value }, bytes };
}
