import { ANSWER_AT_ONCE_CHARS, VAULT_WIDE_SLICE_MS } from "../config/limits";
import { knownJsonText, pieceEnd } from "../jsonText";
import { SliceClock } from "../markdown/steps";
import { eventLoopTurns, type TurnLane } from "../turns";

/**
 * A JSON-RPC message as JSON text in pieces, made and written a piece at a time. A 5,000-card canvas
 * answers 1.2 MB, and its message is twice that (the answer's text quoted again, then the same
 * answer as structured content): serialised, counted and written in one piece it held every other
 * client 40–100 ms per answer under load.
 */

/**
 * Characters in one piece: a longer text is quoted, counted and written this many characters at a
 * time (well under a millisecond of work each), and the work pauses between pieces once its slice is used.
 */
export const PIECE_CHARS = 64 * 1024;

/**
 * Where a big answer's work takes its turns: the queue vault-wide work takes its slices from (one
 * slice per event-loop turn, whoever's it is), and the slice's length. Taking turns on their own,
 * four big answers would each run a piece every turn on top of the vault-wide slice, and another
 * client's call would wait behind all of them at each step it takes.
 */
export interface Turns {
	pause: () => Promise<void>;
	sliceMs: number;
	/** The lane `pause` takes its turns in, where requests take them as their token's (see TurnLane); absent: `pause` for every request. */
	lane?: Pick<TurnLane, "takeFor" | "goFirst">;
}
/** Levels of the message walked to find its long texts (message, result, content, item, text); deeper values are serialised whole. */
const WALKED_LEVELS = 4;

/** JSON text in pieces, and its size in UTF-8 bytes. */
export interface JsonPieces {
	pieces: string[];
	bytes: number;
}

/** A text longer than a piece: a string's value (quoted and escaped when written) or JSON text already made. */
interface LongText {
	text: string;
	quoted: boolean;
}

/** Thrown on a value whose JSON its own `toJSON` decides: the message is then serialised whole, as JSON.stringify would. */
const decidesOwnJson = new Error("The value has a toJSON of its own.");

function hasNoJson(value: unknown): boolean {
	return value === undefined || typeof value === "function" || typeof value === "symbol";
}

/** The JSON of `value` as short texts and long ones, in order, as JSON.stringify writes it. */
function addParts(value: unknown, levels: number, out: Array<string | LongText>): void {
	if (typeof value === "string") {
		out.push(value.length > PIECE_CHARS ? { text: value, quoted: true } : JSON.stringify(value));
		return;
	}
	// Numbers, booleans, null (a bigint throws, as JSON.stringify does).
	if (value === null || typeof value !== "object") {
		out.push(JSON.stringify(value));
		return;
	}
	if (typeof (value as { toJSON?: unknown }).toJSON === "function") throw decidesOwnJson;
	const known = knownJsonText(value);
	if (known !== undefined) {
		out.push(known.length > PIECE_CHARS ? { text: known, quoted: false } : known);
		return;
	}
	if (levels === 0) {
		out.push(JSON.stringify(value));
		return;
	}
	if (Array.isArray(value)) {
		out.push("[");
		for (let index = 0; index < value.length; index++) {
			if (index > 0) out.push(",");
			const item: unknown = value[index];
			// As JSON.stringify: what has no JSON is null in an array…
			if (hasNoJson(item)) out.push("null");
			else addParts(item, levels - 1, out);
		}
		out.push("]");
		return;
	}
	out.push("{");
	let first = true;
	for (const key of Object.keys(value)) {
		const entry = (value as Record<string, unknown>)[key];
		// …and is left out of an object.
		if (hasNoJson(entry)) continue;
		out.push(`${first ? "" : ","}${JSON.stringify(key)}:`);
		first = false;
		addParts(entry, levels - 1, out);
	}
	out.push("}");
}

/** What `textAtOnce` gives up with: the message is longer than `ANSWER_AT_ONCE_CHARS`, or has a value whose own `toJSON` decides. */
const NOT_AT_ONCE = null;

/**
 * The JSON of `value`, as `addParts` makes it (the same levels walked, a remembered text written as
 * it is, never walked again), in one string; null as soon as it would reach `room` characters, or
 * on a value with a `toJSON` of its own. It stops at the first long text without making any of it.
 */
function textAtOnce(value: unknown, levels: number, room: number): string | null {
	if (typeof value === "string") {
		if (value.length >= room) return NOT_AT_ONCE;
		const quoted = JSON.stringify(value);
		return quoted.length < room ? quoted : NOT_AT_ONCE;
	}
	if (value === null || typeof value !== "object") return JSON.stringify(value);
	if (typeof (value as { toJSON?: unknown }).toJSON === "function") return NOT_AT_ONCE;
	const known = knownJsonText(value);
	if (known !== undefined) return known.length < room ? known : NOT_AT_ONCE;
	if (levels === 0) {
		const whole = JSON.stringify(value);
		return whole.length < room ? whole : NOT_AT_ONCE;
	}
	if (Array.isArray(value)) {
		let text = "[";
		for (let index = 0; index < value.length; index++) {
			if (index > 0) text += ",";
			const item: unknown = value[index];
			const itemText = hasNoJson(item) ? "null" : textAtOnce(item, levels - 1, room - text.length);
			if (itemText === NOT_AT_ONCE) return NOT_AT_ONCE;
			text += itemText;
			if (text.length >= room) return NOT_AT_ONCE;
		}
		return text.length + 1 < room ? `${text}]` : NOT_AT_ONCE;
	}
	let text = "{";
	for (const key of Object.keys(value)) {
		const entry = (value as Record<string, unknown>)[key];
		if (hasNoJson(entry)) continue;
		text += `${text.length === 1 ? "" : ","}${JSON.stringify(key)}:`;
		const entryText = textAtOnce(entry, levels - 1, room - text.length);
		if (entryText === NOT_AT_ONCE) return NOT_AT_ONCE;
		text += entryText;
		if (text.length >= room) return NOT_AT_ONCE;
	}
	return text.length + 1 < room ? `${text}}` : NOT_AT_ONCE;
}

/**
 * `JSON.stringify(value)` made at once, with its size in bytes, when it is shorter than
 * `ANSWER_AT_ONCE_CHARS`; null otherwise (made `jsonInPieces`' way then). The same text
 * `jsonInPieces` makes: a remembered text (a tool's answer) is written as it is, never walked again.
 */
export function jsonAtOnce(value: object): { text: string; bytes: number } | null {
	const text = textAtOnce(value, WALKED_LEVELS, ANSWER_AT_ONCE_CHARS);
	return text === NOT_AT_ONCE ? null : { text, bytes: Buffer.byteLength(text) };
}

/** Gathers short texts into pieces of about PIECE_CHARS, counting each piece's bytes once. */
class PieceList {
	readonly pieces: string[] = [];
	bytes = 0;
	private open: string[] = [];
	private openChars = 0;

	add(text: string): void {
		this.open.push(text);
		this.openChars += text.length;
		if (this.openChars >= PIECE_CHARS) this.close();
	}

	close(): void {
		if (this.open.length === 0) return;
		const piece = this.open.length === 1 ? (this.open[0] as string) : this.open.join("");
		this.open = [];
		this.openChars = 0;
		this.pieces.push(piece);
		this.bytes += Buffer.byteLength(piece);
	}
}

/** Turns of the process's lane, in the vault-wide calls' slices: where no queue is given (tests, a bare endpoint). */
export const OWN_TURNS: Turns = { pause: eventLoopTurns.take, sliceMs: VAULT_WIDE_SLICE_MS, lane: eventLoopTurns };

/**
 * `JSON.stringify(value)` in pieces, with its size in bytes. Short texts are made at once; a long
 * string, or a value whose JSON was made already (`knownJsonText`: a tool's answer), is cut into
 * pieces, each quoted if need be and counted: the first on a turn of its own, the next ones
 * pausing whenever a slice is used. A message with no long text is one piece, made without a turn.
 */
export async function jsonInPieces(value: object, turns: Turns = OWN_TURNS): Promise<JsonPieces> {
	const parts: Array<string | LongText> = [];
	try {
		addParts(value, WALKED_LEVELS, parts);
	} catch (error) {
		if (error !== decidesOwnJson) throw error;
		parts.length = 0;
		const text = JSON.stringify(value);
		parts.push(text.length > PIECE_CHARS ? { text, quoted: false } : text);
	}
	const list = new PieceList();
	let clock: SliceClock | null = null;
	// An indexed loop: an iterator here made a result object per part (about 1.4 KB a small answer) until the function was optimised.
	for (let index = 0; index < parts.length; index++) {
		const part = parts[index] as string | LongText;
		if (typeof part === "string") {
			list.add(part);
			continue;
		}
		const { text, quoted } = part;
		if (quoted) list.add('"');
		list.close();
		for (let start = 0; start < text.length;) {
			// The handler and the SDK's checks of the answer ran in this turn already: the long work starts on a turn of its own.
			if (clock === null) {
				await turns.pause();
				clock = new SliceClock(turns.sliceMs, turns.pause);
			} else await clock.checkpoint();
			const end = pieceEnd(text, start, PIECE_CHARS);
			const piece = text.slice(start, end);
			// A piece's JSON is its characters escaped one by one, as the whole string's is: no pair is cut.
			list.add(quoted ? JSON.stringify(piece).slice(1, -1) : piece);
			list.close();
			start = end;
		}
		if (quoted) list.add('"');
	}
	list.close();
	return { pieces: list.pieces, bytes: list.bytes };
}

/**
 * JSON text made whole elsewhere (the SDK's handler answers with one string), cut into pieces of
 * PIECE_CHARS, no surrogate pair cut: written a piece at a time, a slow reader's answer can still
 * be cut off once its token is revoked, as any other big answer is.
 */
export function textInPieces(text: string): JsonPieces {
	const pieces: string[] = [];
	for (let start = 0; start < text.length;) {
		const end = pieceEnd(text, start, PIECE_CHARS);
		pieces.push(text.slice(start, end));
		start = end;
	}
	return { pieces: pieces.length === 0 ? [""] : pieces, bytes: Buffer.byteLength(text) };
}

/** The JSON of an array of values from the JSON of each: `[a,b]`, as JSON.stringify writes it; one value alone stays as it is. */
export function joinedAsArray(items: readonly JsonPieces[]): JsonPieces {
	if (items.length === 1) return items[0] as JsonPieces;
	const pieces: string[] = [];
	// Short pieces side by side are written as one; the bytes are the items' own, counted once.
	const add = (text: string) => {
		const last = pieces.length - 1;
		if (last >= 0 && (pieces[last] as string).length + text.length <= PIECE_CHARS) pieces[last] += text;
		else pieces.push(text);
	};
	let bytes = 2 + Math.max(0, items.length - 1);
	add("[");
	items.forEach((item, index) => {
		if (index > 0) add(",");
		for (const piece of item.pieces) add(piece);
		bytes += item.bytes;
	});
	add("]");
	return { pieces, bytes };
}
