/**
 * An answer too big to send, made to fit by cutting its longest strings, and saying which. Every
 * tool's answer can carry text a note's author wrote (a link's subpath, a canvas card, a heading, a
 * task, a frontmatter value, a base's cell): one planted string of megabytes put every answer that
 * carried it over MAX_RESPONSE_BYTES, so the note or canvas was hidden from the person's AI. The
 * longest strings are cut to one length, the shortest that makes the answer fit (so a short name
 * is never cut while a long text could be), at whole characters, and `cut_to_fit` names
 * each as a JSON Pointer (RFC 6901), which holds the keys as sent: a key cut to the text of another
 * key of its object is made apart from it, so no entry is dropped and no pointer names two. A path
 * the answer gives (filePlaces.ts) is never cut to a part of it, and a link's text only after the
 * part naming its note: a prefix can name another note; one longer than any path names none, and is
 * sent empty rather than as a prefix that could. Sizes are those
 * of the tool result as sent: the answer goes out twice, as structured content and as its JSON text
 * quoted again. When the paths leave too little room, the last long ones are sent empty (`""`
 * names no note) and named too: refused, the answer hid what a limit cannot shorten (a canvas of hundreds of file
 * cards, a note's thousand links into a deep folder) and answered a rename that was made as an error.
 */
import { z } from "zod";
import {
	CUT_KEY_APART_BYTES,
	CUT_TO_FIT_LISTED_BYTES,
	CUT_TO_FIT_SHORTEST_BYTES,
	MAX_RESPONSE_BYTES,
	MAX_VAULT_PATH_CHARS,
	CUT_TO_FIT_STEP_WORK,
	CUT_TO_FIT_VALUE_WORK,
} from "../config/limits";
import { jsonCharBytes } from "../jsonText";
import type { Steps } from "../markdown/steps";
import { filePlacesAt, type FilePlaces, type NameKind } from "./filePlaces";

/** The work done since the last step, over every string and value of one pass. */
class StepWork {
	private done = 0;
	/** Counts `units` of work; true when a step is due (the count starts again). */
	add(units: number): boolean {
		this.done += units;
		if (this.done < CUT_TO_FIT_STEP_WORK) return false;
		this.done = 0;
		return true;
	}
}

/** A string's two quotes in a result: `""` in the structured content, `\"\"` in the text. */
const QUOTES_IN_RESULT = 6;

/** The field an answer cut to fit carries. */
export const CUT_TO_FIT_FIELD = "cut_to_fit";

/** How clients see it (every tool's output schema has it). */
export const cutToFitSchema = z
	.object({
		strings: z
			.array(z.string())
			.describe(
				"JSON Pointers of the strings cut short (a key's is its value's; a key cut to another's text ends in ' (2)'), in answer order, as many as fit in a few KiB",
			),
		total: z.number().int().describe("How many strings were cut"),
	})
	.optional()
	.describe(
		"The answer was too big to send whole: its longest strings were cut short (a path never to a part of it: sent empty when it had to be cut). Ask for less (a smaller limit, one note) to have them whole.",
	);

type CutToFit = z.infer<typeof cutToFitSchema>;

/** Bytes one character of a string takes in a result: its JSON form twice, and one more for each `"` and `\` of that form, escaped again in the text. */
function resultBytesOfChar(text: string, index: number): number {
	const size = jsonCharBytes(text, index);
	const code = text.charCodeAt(index);
	// `\"` and `\\` hold two characters the text escapes again; `\n`, `\u0000` or a lone surrogate's `\udxxx` one.
	const escapedAgain = code === 0x22 || code === 0x5c ? 2 : code < 0x20 || size === 6 ? 1 : 0;
	return 2 * size + escapedAgain;
}

/** The longest prefix of `text` taking at most `maxBytes` in a result (its quotes counted), never inside a character; its characters counted in `work`, a step whenever one is due. */
function* prefixInResult(text: string, maxBytes: number, work: StepWork): Steps<{ end: number; bytes: number }> {
	let bytes = QUOTES_IN_RESULT;
	let index = 0;
	while (index < text.length) {
		const start = index;
		const stop = index + CUT_TO_FIT_STEP_WORK;
		while (index < text.length && index < stop) {
			const size = resultBytesOfChar(text, index);
			if (bytes + size > maxBytes) {
				work.add(index - start);
				return { end: index, bytes };
			}
			bytes += size;
			// A surrogate pair, the only character of two code units, is the only one of 8 bytes here.
			index += size === 8 ? 2 : 1;
		}
		if (work.add(index - start)) yield;
	}
	return { end: index, bytes };
}

/** Bytes a piece of JSON text takes in a result: its bytes twice, and one more for each `"` and `\` (escaped in the text). */
function resultBytesOfJson(json: string): number {
	let escapedAgain = 0;
	for (let index = 0; index < json.length; index++) {
		const code = json.charCodeAt(index);
		if (code === 0x22 || code === 0x5c) escapedAgain++;
	}
	return 2 * Buffer.byteLength(json) + escapedAgain;
}

/** Where a string is, as the keys and indexes leading to it. */
type Place = Array<string | number>;

/**
 * A string's replacement (the same string, or a prefix of it); `place` holds the keys as the answer
 * now spells them. For a key (its own text last in `place`), `keys` are its object's: a key cut
 * short must be none of the texts they hold or may hold. `namesFile`: the answer gives the string as
 * a file, and how (filePlaces.ts).
 */
type Visit = (text: string, place: Place, keys: ObjectKeys | null, names: NameKind | null) => Steps<string>;

/** Where an answer names files beyond its schema's places: for an object of it (a base row's cells), its own places, or null. */
export type PlacesOfObject = (value: object) => FilePlaces | null;

/** The keys of one object as it is copied. */
interface ObjectKeys {
	/** Whether the object holds `key`, or may (a key kept whole is one of its own). */
	taken(key: string): boolean;
	/**
	 * For each start a cut key was made apart from, the count its next ` (n)` tries first: counts
	 * are tried once per object, not from 2 again for each key (a thousand keys alike for their
	 * first kilobytes were half a million tries of kilobytes each, a second of work).
	 */
	nextCount: Map<string, number>;
}

/**
 * A copy of `value` with each string, object keys included, replaced by `visit`'s answer, in one
 * fixed order; as JSON.stringify does, what has no JSON (undefined, a function) is left out of an
 * object and is null in an array, and a value with `toJSON` is taken as what it gives.
 */
function* copyVisiting(
	value: unknown,
	place: Place,
	schemaPlaces: FilePlaces | null,
	visit: Visit,
	work: StepWork,
	placesOfObject: PlacesOfObject,
): Steps<unknown> {
	if (work.add(CUT_TO_FIT_VALUE_WORK)) yield;
	if (typeof value === "string") return yield* visit(value, place, null, schemaPlaces?.names ?? null);
	if (value === null || typeof value !== "object") return typeof value === "function" ? undefined : value;
	if (typeof (value as { toJSON?: unknown }).toJSON === "function")
		return yield* copyVisiting((value as { toJSON(): unknown }).toJSON(), place, schemaPlaces, visit, work, placesOfObject);
	const places = placesOfObject(value) ?? schemaPlaces;
	if (Array.isArray(value)) {
		const copy: unknown[] = [];
		for (let index = 0; index < value.length; index++) {
			place.push(index);
			copy.push((yield* copyVisiting(value[index], place, filePlacesAt(places, index), visit, work, placesOfObject)) ?? null);
			place.pop();
		}
		return copy;
	}
	const copy: Record<string, unknown> = {};
	// A key kept whole is one of the object's own; one cut is new: it must be neither an own key nor a key already copied.
	const keys: ObjectKeys = { taken: (key) => Object.hasOwn(value, key) || Object.hasOwn(copy, key), nextCount: new Map() };
	for (const [key, entry] of Object.entries(value)) {
		if (entry === undefined || typeof entry === "function") continue;
		if (work.add(CUT_TO_FIT_VALUE_WORK)) yield;
		place.push(key);
		const keyAsSent = yield* visit(key, place, keys, null);
		place[place.length - 1] = keyAsSent;
		const value = yield* copyVisiting(entry, place, filePlacesAt(places, key), visit, work, placesOfObject);
		// Defined, not assigned: a key `__proto__` (a frontmatter may have one) stays a key.
		Object.defineProperty(copy, keyAsSent, { value, enumerable: true, writable: true, configurable: true });
		place.pop();
	}
	return copy;
}

/**
 * `text`, a key cut short to `cut`, made a key no other of its object (`keys`) is: two keys alike
 * for their first kilobytes were cut to one text, and the second was dropped with its value. It is
 * cut CUT_KEY_APART_BYTES shorter and ends in ` (2)`, ` (3)`… (in the budget of the one length).
 */
function* keyApart(text: string, cut: string, maxBytes: number, keys: ObjectKeys, work: StepWork): Steps<string> {
	if (!keys.taken(cut)) return cut;
	const { end } = yield* prefixInResult(text, maxBytes - CUT_KEY_APART_BYTES, work);
	const start = text.slice(0, end);
	// A count given before stays taken (the copy only grows): the next key alike starts after it.
	for (let count = keys.nextCount.get(start) ?? 2; ; count++) {
		const candidate = `${start} (${count})`;
		if (!keys.taken(candidate)) {
			keys.nextCount.set(start, count + 1);
			return candidate;
		}
		// Each candidate is hashed whole: counted as measured.
		if (work.add(candidate.length)) yield;
	}
}

/** `place` as a JSON Pointer. */
function pointerOf(place: Place): string {
	return place.map((part) => `/${String(part).replaceAll("~", "~0").replaceAll("/", "~1")}`).join("");
}

/**
 * The one length every string longer than it is cut to, so that strings of these `sizes` take at
 * most `room` bytes: the largest that does; null when it would be under CUT_TO_FIT_SHORTEST_BYTES.
 */
function cutLength(sizes: readonly number[], room: number): number | null {
	// Nothing long to cut (strings sent empty may have been enough): fits or not as it is.
	if (sizes.length === 0) return room >= 0 ? Number.POSITIVE_INFINITY : null;
	const longestFirst = [...sizes].sort((a, b) => b - a);
	let uncut = longestFirst.reduce((sum, size) => sum + size, 0);
	for (let cut = 1; cut <= longestFirst.length; cut++) {
		uncut -= longestFirst[cut - 1]!;
		const length = Math.floor((room - uncut) / cut);
		if (length >= (longestFirst[cut] ?? 0)) return length >= CUT_TO_FIT_SHORTEST_BYTES ? length : null;
	}
	return null;
}

const HASH = 0x23;
const BAR = 0x7c;

/**
 * How many of `text`'s first characters are kept whole because they name the file it names: all
 * of a path; a link's text up to its first `#` (a heading or block) or `|` (the text shown), that
 * character included. Null when those are more than any path holds: they name no file, and a
 * prefix of them could name one. A link path is looked for in the first MAX_VAULT_PATH_CHARS
 * characters only (and two for `[[`), counted as work.
 */
function* namingPart(text: string, names: NameKind, work: StepWork): Steps<number | null> {
	if (names === "path") return text.length <= MAX_VAULT_PATH_CHARS ? text.length : null;
	const start = text.startsWith("[[") ? 2 : 0;
	const last = Math.min(text.length, start + MAX_VAULT_PATH_CHARS + 1);
	let index = start;
	while (index < last && text.charCodeAt(index) !== HASH && text.charCodeAt(index) !== BAR) index++;
	if (work.add(index - start)) yield;
	if (index < last) return index + 1;
	return text.length <= start + MAX_VAULT_PATH_CHARS ? text.length : null;
}

/**
 * `answer` with its longest strings cut so that its tool result takes at most `maxBytes`, and
 * `cut_to_fit` saying which; null when cutting strings to CUT_TO_FIT_SHORTEST_BYTES is not enough
 * (an answer of many short strings: the caller asks for less). `resultBytes` is what the result
 * of the whole answer takes; `paths` where the answer names files, and `placesOfObject` where an
 * object of it does beyond them (namingPart says what is kept whole). What names a file is kept
 * whole unless those parts leave too little room: then the last of them over CUT_TO_FIT_SHORTEST_BYTES
 * are sent as `""`, as many as must be. Strings are measured and cut a piece at a time.
 */
export function* cutToFitSteps(
	answer: Record<string, unknown>,
	resultBytes: number,
	maxBytes: number,
	paths: FilePlaces | null,
	placesOfObject: PlacesOfObject = () => null,
): Steps<Record<string, unknown> | null> {
	// First pass: the size of each string in the result, and of what is not a string that may be cut.
	const longSizes: number[] = [];
	const longOrder: number[] = [];
	// Strings naming a file whose first characters are kept (by order), and those sent empty with what they took.
	const kept = new Map<number, number>();
	const emptied = new Set<number>();
	let emptiedBytes = 0;
	// Strings whose kept part is long enough to be sent empty when the kept parts leave too little room, in
	// answer order, the bytes that part takes, and where the rest after it is among the long strings (-1: not).
	const keptLongOrder: number[] = [];
	const keptLongBytes: number[] = [];
	const keptLongRest: number[] = [];
	const work = new StepWork();
	let order = 0;
	yield* copyVisiting(
		answer,
		[],
		paths,
		function* (text, _place, _keys, names) {
			const at = order++;
			const head = names === null ? 0 : yield* namingPart(text, names, work);
			if (head === null) {
				emptied.add(at);
				emptiedBytes += (yield* prefixInResult(text, Infinity, work)).bytes - QUOTES_IN_RESULT;
				return text;
			}
			let keptLong = -1;
			if (head > 0) {
				const headBytes = (yield* prefixInResult(head === text.length ? text : text.slice(0, head), Infinity, work)).bytes;
				if (headBytes > CUT_TO_FIT_SHORTEST_BYTES) {
					keptLong = keptLongOrder.length;
					keptLongOrder.push(at);
					keptLongBytes.push(headBytes - QUOTES_IN_RESULT);
					keptLongRest.push(-1);
				}
			}
			// Counted in the answer's bytes that are not cut.
			if (head === text.length && names !== null) return text;
			if (head > 0) kept.set(at, head);
			// A kept part is in the bytes not cut; the rest is measured with the string's quotes.
			const { bytes } = yield* prefixInResult(text.slice(head), Infinity, work);
			if (bytes > CUT_TO_FIT_SHORTEST_BYTES) {
				if (keptLong >= 0) keptLongRest[keptLong] = longSizes.length;
				longSizes.push(bytes);
				longOrder.push(at);
			}
			return text;
		},
		work,
		placesOfObject,
	);
	const longBytes = longSizes.reduce((sum, size) => sum + size, 0);
	const room = maxBytes - CUT_TO_FIT_LISTED_BYTES - (resultBytes - longBytes - emptiedBytes);
	let length = cutLength(longSizes, room);
	if (length === null && keptLongOrder.length > 0) {
		// The kept parts leave too little room for the texts, even each cut to the shortest: they are sent empty, the
		// last first (a rename's own paths, the first rows, stay whole), until that much room is free.
		// An emptied string's rest is not cut: it needs no cut length, and its bytes (less its quotes) are free.
		let needed = longSizes.length * CUT_TO_FIT_SHORTEST_BYTES - room;
		let freed = 0;
		const restsGone = new Set<number>();
		for (let index = keptLongOrder.length - 1; index >= 0 && freed < needed; index--) {
			emptied.add(keptLongOrder[index]!);
			freed += keptLongBytes[index]!;
			const rest = keptLongRest[index]!;
			if (rest >= 0) {
				restsGone.add(rest);
				needed -= CUT_TO_FIT_SHORTEST_BYTES;
				freed -= QUOTES_IN_RESULT;
			}
		}
		if (freed >= needed)
			length = cutLength(
				longSizes.filter((_, at) => !restsGone.has(at)),
				room + freed,
			);
	}
	if (length === null) return null;
	const cutTo = length;
	const toCut = new Set(longOrder.filter((_, index) => longSizes[index]! > cutTo));
	// Second pass: the copy with those strings cut, each named while the list has room.
	const listed: string[] = [];
	let listedBytes = resultBytesOfJson(`,"${CUT_TO_FIT_FIELD}":{"strings":[],"total":${Number.MAX_SAFE_INTEGER}}`);
	let total = 0;
	const named = (place: Place) => {
		total++;
		const pointer = pointerOf(place);
		// The pointer, and a comma, in the result.
		const bytes = resultBytesOfJson(JSON.stringify(pointer)) + 2;
		if (listedBytes + bytes > CUT_TO_FIT_LISTED_BYTES) return;
		listed.push(pointer);
		listedBytes += bytes;
	};
	order = 0;
	const copy = (yield* copyVisiting(
		answer,
		[],
		paths,
		function* (text, place, keys, names) {
			// Any part of a path can name another note (`A/B/Lon` reads `A/B/Lon.md`); none of it does.
			const at = order++;
			if (emptied.has(at)) {
				named(place);
				return "";
			}
			if (!toCut.has(at)) return text;
			const head = kept.get(at) ?? 0;
			// Never a part of what names a file, even were the two passes to see different strings.
			if (names !== null && head === 0) {
				named(place);
				return "";
			}
			const { end } = yield* prefixInResult(text.slice(head), cutTo, work);
			if (keys === null) {
				named(place);
				return text.slice(0, head + end);
			}
			const cut = yield* keyApart(text, text.slice(0, end), cutTo, keys, work);
			named([...place.slice(0, -1), cut]);
			return cut;
		},
		work,
		placesOfObject,
	)) as Record<string, unknown>;
	const cut: CutToFit = { strings: listed, total };
	return { ...copy, [CUT_TO_FIT_FIELD]: cut };
}

/** Bytes of a result around its answer's two forms: `{"content":[{"type":"text","text":""}],"structuredContent":}`. */
const RESULT_FRAME_BYTES = Buffer.byteLength('{"content":[{"type":"text","text":""}],"structuredContent":}');

/** Bytes of the answer's smallest form (smallestResultBytes) a result over MAX_RESPONSE_BYTES can still be cut to fit from: what is left when the frame and `cut_to_fit`'s list are taken out. */
export const CUTTABLE_ANSWER_BYTES = MAX_RESPONSE_BYTES - RESULT_FRAME_BYTES - CUT_TO_FIT_LISTED_BYTES;

/** Bytes `text` takes in a result (its quotes counted), measured only up to `cap`: past it, `cap`. */
function resultBytesUpTo(text: string, cap: number): number {
	let bytes = QUOTES_IN_RESULT;
	for (let index = 0; index < text.length && bytes <= cap;) {
		const size = resultBytesOfChar(text, index);
		bytes += size;
		index += size === 8 ? 2 : 1;
	}
	return Math.min(bytes, cap);
}

/**
 * About the fewest bytes `value` (plain JSON data) can take in a result once cutToFitSteps has cut
 * it: each string as it is, or CUT_TO_FIT_SHORTEST_BYTES when longer. A long string is measured
 * only that far, so this costs about a step per value: an answer built a piece at a time
 * (query_base's rows) stops once what it holds could no longer be cut to fit CUTTABLE_ANSWER_BYTES,
 * rather than build all of it to be refused. A path or link sent empty takes less than counted (the
 * answer stops a little early); a link's path kept whole beside a long heading up to
 * CUT_TO_FIT_SHORTEST_BYTES more (the answer may still be refused, as before).
 */
export function smallestResultBytes(value: unknown): number {
	if (typeof value === "string") return resultBytesUpTo(value, CUT_TO_FIT_SHORTEST_BYTES);
	// Each character of what is not a string is ASCII, once in each of the answer's two forms.
	if (value === null || typeof value !== "object") return 2 * (JSON.stringify(value) ?? "null").length;
	// Brackets, and a comma or a colon for each entry, in each form.
	let bytes = 4;
	if (Array.isArray(value)) {
		for (const item of value) bytes += 2 + smallestResultBytes(item ?? null);
		return bytes;
	}
	for (const [key, entry] of Object.entries(value)) {
		if (entry === undefined || typeof entry === "function") continue;
		bytes += 4 + smallestResultBytes(key) + smallestResultBytes(entry);
	}
	return bytes;
}
