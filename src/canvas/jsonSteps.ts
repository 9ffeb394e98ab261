/**
 * `JSON.parse` in steps: the same value, or a refusal wherever `JSON.parse` throws, parsed a
 * piece of at most `pieceChars` characters at a time. A canvas may weigh megabytes, and JSON.parse
 * of 5 MiB was one piece of about 0.1 s on the server's thread (Obsidian's interface thread). Pure.
 *
 * Arrays and objects larger than a piece are cut at their own commas (strings skipped); runs of
 * their items that fit in a piece are handed to `JSON.parse` together, and an item larger than a
 * piece is cut in turn; so is a string (a number larger than a piece is parsed whole). Nesting is bounded by the caller (a canvas is checked before it is parsed):
 * past `maxDepth` levels each larger than a piece, the text is refused.
 */
import { fail, ok, type Result } from "../result";
import type { Steps } from "../markdown/steps";

class JsonStepsError extends Error {}

const SPACE = 0x20;
const TAB = 0x09;
const LINE_FEED = 0x0a;
const CARRIAGE_RETURN = 0x0d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_SQUARE = 0x5b;
const CLOSE_SQUARE = 0x5d;
const OPEN_CURLY = 0x7b;
const CLOSE_CURLY = 0x7d;

function isJsonSpace(code: number): boolean {
	return code === SPACE || code === TAB || code === LINE_FEED || code === CARRIAGE_RETURN;
}

/** The value `text` holds, as `JSON.parse(text)` gives it, parsed in pieces of at most about `pieceChars`; or what is wrong with it. */
export function* parseJsonSteps(text: string, pieceChars: number, maxDepth: number): Steps<Result<unknown>> {
	const parser = new PieceParser(text, Math.max(1, pieceChars), maxDepth);
	try {
		let start = 0;
		let end = text.length;
		while (start < end && isJsonSpace(text.charCodeAt(start))) start++;
		while (end > start && isJsonSpace(text.charCodeAt(end - 1))) end--;
		if (start === end) throw new JsonStepsError("Unexpected end of JSON input");
		return ok(yield* parser.value(start, end, 0));
	} catch (error) {
		if (error instanceof JsonStepsError || error instanceof SyntaxError) return fail(error.message);
		throw error;
	}
}

class PieceParser {
	/** Characters scanned since the last step. */
	private scanned = 0;
	/** The next quote and the next backslash, remembered, for `nextQuoteOrBackslash`. */
	private readonly quotes: NextOf;
	private readonly backslashes: NextOf;

	constructor(
		private readonly text: string,
		private readonly pieceChars: number,
		private readonly maxDepth: number,
	) {
		this.quotes = new NextOf(text, '"');
		this.backslashes = new NextOf(text, "\\");
	}

	/** The value in text[start, end), which holds no space at either end. */
	*value(start: number, end: number, depth: number): Steps<unknown> {
		const first = this.text.charCodeAt(start);
		if (end - start <= this.pieceChars) return this.parsePiece(start, end);
		if (first === QUOTE) return yield* this.longString(start, end);
		if (first !== OPEN_SQUARE && first !== OPEN_CURLY) return this.parsePiece(start, end);
		if (depth >= this.maxDepth) throw new JsonStepsError(`The JSON nests more than ${this.maxDepth} large arrays or objects.`);
		const closing = first === OPEN_SQUARE ? CLOSE_SQUARE : CLOSE_CURLY;
		if (this.text.charCodeAt(end - 1) !== closing) throw new JsonStepsError(`Unexpected character at position ${end - 1}`);
		const items = yield* this.items(start + 1, end - 1);
		return first === OPEN_SQUARE ? yield* this.array(items, depth) : yield* this.object(items, depth);
	}

	/**
	 * A string longer than a piece, read a piece at a time, each cut between two characters or
	 * escapes (JSON.parse of a 4 MB card's text was one piece of 50–100 ms). The pieces' code units
	 * joined are the string's, even where a surrogate pair is cut.
	 */
	private *longString(start: number, end: number): Steps<string> {
		if (this.text.charCodeAt(end - 1) !== QUOTE) throw new JsonStepsError(`Unterminated string in JSON at position ${end}`);
		let value = "";
		const inner = end - 1;
		for (let pieceStart = start + 1; pieceStart < inner;) {
			const cut = pieceStart + this.pieceChars >= inner ? inner : this.cutOutsideEscape(pieceStart, pieceStart + this.pieceChars, inner);
			// A quote left unescaped inside, or a broken escape, makes JSON.parse refuse the piece, as it refuses the whole.
			value += this.parsePiece(pieceStart - 1, cut + 1, `"${this.text.slice(pieceStart, cut)}"`) as string;
			pieceStart = cut;
			yield;
		}
		return value;
	}

	/** `cut`, or the start of the escape (`\x`, `\uXXXX`) it would fall inside; its end (up to `limit`) when that escape opens the piece. */
	private cutOutsideEscape(from: number, cut: number, limit: number): number {
		for (let escape = cut - 1; escape >= Math.max(from, cut - 5); escape--) {
			if (this.text.charCodeAt(escape) !== BACKSLASH || !this.startsEscape(from, escape)) continue;
			const length = this.text.charCodeAt(escape + 1) === 0x75 ? 6 : 2;
			// Before the escape, or past it when it opens the piece (a piece shorter than an escape).
			if (escape + length > cut) return escape > from ? escape : Math.min(escape + length, limit);
			break;
		}
		return cut;
	}

	/** Whether the backslash at `at` starts an escape: an even number of backslashes stand right before it (since `from`). */
	private startsEscape(from: number, at: number): boolean {
		let before = 0;
		while (at - before - 1 >= from && this.text.charCodeAt(at - before - 1) === BACKSLASH) before++;
		return before % 2 === 0;
	}

	/** `JSON.parse` of text[start, end), its error message naming where the piece starts. */
	private parsePiece(start: number, end: number, piece = this.text.slice(start, end)): unknown {
		try {
			return JSON.parse(piece);
		} catch (error) {
			const where = start > 0 || end < this.text.length ? ` (in the part from position ${start})` : "";
			throw new JsonStepsError(`${error instanceof Error ? error.message : "unreadable"}${where}`);
		}
	}

	/** The extents of the comma-separated items in text[start, end), spaces trimmed; a step every piece scanned. */
	private *items(start: number, end: number): Steps<Array<[number, number]>> {
		const items: Array<[number, number]> = [];
		let depth = 0;
		let inString = false;
		let itemStart = start;
		for (let index = start; index <= end; index++) {
			if (++this.scanned >= this.pieceChars) {
				this.scanned = 0;
				yield;
			}
			if (index === end) break;
			const code = this.text.charCodeAt(index);
			if (inString) {
				// Straight to the string's next quote or backslash: most of a canvas is its cards' text.
				const next = this.nextQuoteOrBackslash(index, end);
				this.scanned += next - index;
				index = next;
				if (index >= end) break;
				if (this.text.charCodeAt(index) === BACKSLASH) index++;
				else inString = false;
			} else if (code === QUOTE) inString = true;
			else if (code === OPEN_SQUARE || code === OPEN_CURLY) depth++;
			else if (code === CLOSE_SQUARE || code === CLOSE_CURLY) {
				if (--depth < 0) throw new JsonStepsError(`Unexpected character at position ${index}`);
			} else if (code === COMMA && depth === 0) {
				items.push(this.trimmed(itemStart, index));
				itemStart = index + 1;
			}
		}
		if (inString) throw new JsonStepsError(`Unterminated string in JSON at position ${end}`);
		if (depth !== 0) throw new JsonStepsError(`Unexpected character at position ${end}`);
		// `[ ]` and `{ }` hold no item; otherwise every item, the last too, holds something.
		if (items.length === 0 && isBlank(this.text, itemStart, end)) return items;
		items.push(this.trimmed(itemStart, end));
		return items;
	}

	/**
	 * The next quote or backslash from `from` (or `end`). Both are remembered, so each is searched
	 * for once per place it stands, not once per escape before it: a card of 400,000 line ends
	 * (each a `\\n`) searched the rest of the text for its quote after each, 3.6 s in steps of 0.4 s.
	 */
	private nextQuoteOrBackslash(from: number, end: number): number {
		const quote = this.quotes.from(from);
		const backslash = this.backslashes.from(from);
		const next = Math.min(quote === -1 ? end : quote, backslash === -1 ? end : backslash);
		return Math.min(next, end);
	}

	private trimmed(start: number, end: number): [number, number] {
		while (start < end && isJsonSpace(this.text.charCodeAt(start))) start++;
		while (end > start && isJsonSpace(this.text.charCodeAt(end - 1))) end--;
		if (start === end) throw new JsonStepsError(`Unexpected token ',' or end of an array or object at position ${start}`);
		return [start, end];
	}

	/** Runs of consecutive items that fit in a piece together, each handed to `take`; an item alone over a piece, to `large`. */
	private *runs(items: ReadonlyArray<[number, number]>, take: (run: string) => void, large: (item: [number, number]) => Steps<void>): Steps<void> {
		let runStart = -1;
		let runEnd = -1;
		const flush = () => {
			if (runStart >= 0) take(this.text.slice(runStart, runEnd));
			runStart = -1;
		};
		for (const item of items) {
			const [start, end] = item;
			if (end - start > this.pieceChars) {
				flush();
				yield;
				yield* large(item);
				continue;
			}
			if (runStart >= 0 && end - runStart > this.pieceChars) {
				flush();
				yield;
			}
			if (runStart < 0) runStart = start;
			runEnd = end;
		}
		flush();
	}

	private *array(items: ReadonlyArray<[number, number]>, depth: number): Steps<unknown[]> {
		const array: unknown[] = [];
		yield* this.runs(
			items,
			(run) => {
				for (const value of this.parseWrapped("[", run, "]") as unknown[]) array.push(value);
			},
			function* (this: PieceParser, [start, end]: [number, number]) {
				array.push(yield* this.value(start, end, depth + 1));
			}.bind(this),
		);
		return array;
	}

	private *object(members: ReadonlyArray<[number, number]>, depth: number): Steps<Record<string, unknown>> {
		const object: Record<string, unknown> = {};
		yield* this.runs(
			members,
			(run) => {
				const parsed = this.parseWrapped("{", run, "}") as Record<string, unknown>;
				for (const key of Object.keys(parsed)) setOwn(object, key, parsed[key]);
			},
			function* (this: PieceParser, [start, end]: [number, number]) {
				const colon = this.keyEnd(start, end);
				const key = this.parsePiece(start, colon);
				if (typeof key !== "string" || this.text.charCodeAt(start) !== QUOTE)
					throw new JsonStepsError(`Expected a property name in JSON at position ${start}`);
				const [valueStart, valueEnd] = this.trimmed(colon + 1, end);
				setOwn(object, key, yield* this.value(valueStart, valueEnd, depth + 1));
			}.bind(this),
		);
		return object;
	}

	/** Where the member at text[start, end) has its colon: just past its key, a string. */
	private keyEnd(start: number, end: number): number {
		if (this.text.charCodeAt(start) !== QUOTE) throw new JsonStepsError(`Expected a property name in JSON at position ${start}`);
		let index = start + 1;
		while (index < end) {
			const code = this.text.charCodeAt(index);
			if (code === BACKSLASH) index += 2;
			else if (code === QUOTE) break;
			else index++;
		}
		let colon = index + 1;
		while (colon < end && isJsonSpace(this.text.charCodeAt(colon))) colon++;
		if (colon >= end || this.text.charCodeAt(colon) !== COLON) throw new JsonStepsError(`Expected ':' after property name in JSON at position ${colon}`);
		return colon;
	}

	private parseWrapped(open: string, run: string, close: string): unknown {
		try {
			return JSON.parse(`${open}${run}${close}`);
		} catch (error) {
			throw new JsonStepsError(error instanceof Error ? error.message : "unreadable");
		}
	}
}

function isBlank(text: string, start: number, end: number): boolean {
	for (let index = start; index < end; index++) if (!isJsonSpace(text.charCodeAt(index))) return false;
	return true;
}

/** Sets an own property as JSON.parse does, `__proto__` included (plain assignment would set the prototype). */
function setOwn(object: Record<string, unknown>, key: string, value: unknown): void {
	if (key === "__proto__") Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
	else object[key] = value;
}

/**
 * Where one character next stands in a text, remembered: searched again only when asked from
 * before where the last search began (a nested list is scanned again from further back), or from
 * past what it found. Asked from places that only move forward, the text is searched once in all.
 */
class NextOf {
	private found = -1;
	private searchedFrom = Number.POSITIVE_INFINITY;

	constructor(
		private readonly text: string,
		private readonly char: string,
	) {}

	/** The first place of the character at or after `from`, or -1. */
	from(from: number): number {
		if (from < this.searchedFrom || (this.found !== -1 && this.found < from)) {
			this.found = this.text.indexOf(this.char, from);
			this.searchedFrom = from;
		}
		return this.found;
	}
}
