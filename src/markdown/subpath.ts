import { HEADING_KEYED_MAX_CHARS, HEADING_PRINT_LOWERED_CHARS, MAX_NOTE_HEADINGS, SUBPATH_HEADING_STEP, SUBPATH_HEADING_STEP_CHARS } from "../config/limits";
import type { CachedMetadata, HeadingCache } from "obsidian";
import { echoed } from "./echo";
import { runSteps, type Steps } from "./steps";

/** Each heading of a note by its place in the list: its text, level, start offset and line. */
export interface HeadingPlaces {
	texts: string[];
	levels: Uint8Array;
	offsets: Int32Array;
	lines: Int32Array;
	/** Each heading's `headingKey`, filled in as a lookup first needs it (kept with the places, so a lookup again keys nothing). */
	keys?: string[];
	/** Each heading's `keyPrintSteps`, NaN until a lookup first needs it (kept with the places, as `keys`). */
	prints?: Float64Array;
	/** The note's `headingsLeftOut` (`headingsLeftOutOf`), when its parse left headings out. */
	leftOutEnds?: readonly number[];
}

/** The key under which the headless parse notes, on a note with more headings than MAX_NOTE_HEADINGS, where the ones it left out start (`headingsLeftOutOf`). */
export const HEADINGS_LEFT_OUT_KEY = "headingsLeftOut";

/**
 * For each heading level 1–6 (at 0–5), where the first heading the headless parse left out (past
 * MAX_NOTE_HEADINGS) of that level or a higher one starts, -1 for none: a kept heading's section ends
 * there when no kept heading ends it. Undefined when none was left out (always in Obsidian, whose
 * cache has no bound). Pure.
 */
export function headingsLeftOutOf(cache: CachedMetadata | null): readonly number[] | undefined {
	const ends = (cache as Record<string, unknown> | null)?.[HEADINGS_LEFT_OUT_KEY];
	return Array.isArray(ends) ? (ends as number[]) : undefined;
}

/** One part of a note a link can point to: a heading's section or a block, by offsets into the note's text. */
export interface NotePart {
	/** The heading as written in the note, or `^id` for a block. */
	name: string;
	start: number;
	end: number;
}

/**
 * How Obsidian compares a link's heading with the note's headings: characters a link cannot hold
 * (`# | ^ : % [ ] \`) count as spaces, runs of spaces as one, and case is ignored.
 */
export function headingKey(heading: string): string {
	return heading
		.replace(/[#|^:%[\]\\]/g, " ")
		.replace(/\s+/g, " ")
		.trim()
		.toLowerCase();
}

/** Heading `index`'s key, remembered in `headings.keys`. */
function keyOf(headings: HeadingPlaces, index: number): string {
	const keys = (headings.keys ??= new Array<string>(headings.texts.length));
	return (keys[index] ??= headingKey(headings.texts[index] ?? ""));
}

/** What `headingKey` makes one space of: the characters a link cannot hold, and white space. */
const KEY_SEPARATORS = /[\s#|^:%[\]\\]+/y;
/** A word of a heading's key: what lies between two separators. */
const KEY_WORD = /[^\s#|^:%[\]\\]+/y;

/** Whether `headingKey(one) === headingKey(other)` (`sameHeadingKeySteps` run at once). Pure. */
export function sameHeadingKey(one: string, other: string): boolean {
	return runSteps(sameHeadingKeySteps(one, other));
}

/**
 * Whether `headingKey(one) === headingKey(other)`, read only as far as the two can still agree: a
 * heading of megabytes keyed whole was one piece of 40–80 ms a megabyte (read_note of a missing
 * heading in a planted note of one 7 MB heading: 543 ms), a read_note path of a megabyte (`a:` over
 * and over) 36–130 ms. A key is its text's words in lower case, one space between them; each word is
 * lowered alone, which lowers it as the whole does: a space is neither cased nor case-ignorable, so
 * no word's lower case depends on another's (Final_Sigma), and no character's lower case holds a
 * separator or is shorter than it, or more than twice as long (İ), so two words of which one is more
 * than twice as long as the other differ, and the longer is read no further. Yields every
 * SUBPATH_HEADING_STEP_CHARS characters of `one`: a planted heading of 900 KB and a read_note path
 * naming it were compared in one piece of 60–130 ms, twice a call. Pure.
 */
export function* sameHeadingKeySteps(one: string, other: string): Steps<boolean> {
	let atOne = skipped(one, 0, KEY_SEPARATORS);
	let atOther = skipped(other, 0, KEY_SEPARATORS);
	let pauseAt = SUBPATH_HEADING_STEP_CHARS;
	while (atOne < one.length && atOther < other.length) {
		if (atOne >= pauseAt) {
			pauseAt = atOne + SUBPATH_HEADING_STEP_CHARS;
			yield;
		}
		const endOne = wordEnd(one, atOne, 2 * (other.length - atOther));
		if (endOne === -1) return false;
		const endOther = wordEnd(other, atOther, 2 * (endOne - atOne));
		if (endOther === -1 || 2 * (endOther - atOther) < endOne - atOne) return false;
		if (one.slice(atOne, endOne).toLowerCase() !== other.slice(atOther, endOther).toLowerCase()) return false;
		atOne = skipped(one, endOne, KEY_SEPARATORS);
		atOther = skipped(other, endOther, KEY_SEPARATORS);
	}
	return atOne >= one.length && atOther >= other.length;
}

/** Where the word of `text` starting at `from` ends, read at most `most` characters far; -1 when it is longer. */
function wordEnd(text: string, from: number, most: number): number {
	const length = skipped(text.slice(from, from + most + 1), 0, KEY_WORD);
	return length > most ? -1 : from + length;
}

/** Where a run of `pattern` (a sticky regular expression) starting at `from` in `text` ends. */
function skipped(text: string, from: number, pattern: RegExp): number {
	pattern.lastIndex = from;
	return pattern.test(text) ? pattern.lastIndex : from;
}

/** ASCII code units `headingKey` makes a space of (1): white space and `# | ^ : % [ ] \\`. */
const ASCII_KEY_SEPARATORS = Uint8Array.from({ length: 128 }, (_, code) => (/[\s#|^:%[\]\\]/.test(String.fromCharCode(code)) ? 1 : 0));

/** Whether UTF-16 code unit `code` is one `headingKey` makes a space of: `\s` (ECMAScript's white space and line ends) or `# | ^ : % [ ] \\`. Pure. */
export function isKeySeparator(code: number): boolean {
	if (code < 128) return ASCII_KEY_SEPARATORS[code] === 1;
	return (
		code === 0xa0 ||
		code === 0x1680 ||
		(code >= 0x2000 && code <= 0x200a) ||
		code === 0x2028 ||
		code === 0x2029 ||
		code === 0x202f ||
		code === 0x205f ||
		code === 0x3000 ||
		code === 0xfeff
	);
}

/** Each process's own starting values for `keyPrintSteps`: a note cannot be written to give many headings one print ahead of time. */
const PRINT_SEEDS = Uint32Array.from([Math.random() * 2 ** 32, Math.random() * 2 ** 32]);
/** The two hashes' multipliers (FNV-1a's, MurmurHash2's). */
const PRINT_PRIME_ONE = 0x01000193;
const PRINT_PRIME_TWO = 0x5bd1e995;
const GREEK_FINAL_SIGMA = 0x3c2;
const GREEK_SIGMA = 0x3c3;

/**
 * A number that two texts whose `headingKey`s are equal always share (a hash of the key, ς read as
 * σ), read in one pass without keying the text: a heading whose print differs from a link's cannot
 * be its heading. Comparing a read_note path of 3,000 words with each of a note's 1,900 headings of
 * 2,000 words word by word (`sameHeadingKey`) cost 467 ms a call where keying the path once had
 * cost 25. ASCII is folded as it is read; other characters are lowered a run of at most
 * HEADING_PRINT_LOWERED_CHARS at a time (never splitting a surrogate pair), which lowers them as the
 * whole key does but for Final_Sigma, the only lower case that depends on the characters around
 * (hence ς as σ). Yields every SUBPATH_HEADING_STEP_CHARS characters. Pure.
 */
export function* keyPrintSteps(text: string): Steps<number> {
	const state = Uint32Array.of(PRINT_SEEDS[0] as number, PRINT_SEEDS[1] as number, 0, 0);
	for (let at = 0; at < text.length;) {
		if (at > 0) yield;
		at = printRange(text, at, Math.min(text.length, at + SUBPATH_HEADING_STEP_CHARS), state);
	}
	// 53 bits, exact in a double.
	return (state[0] as number) * 2 ** 21 + ((state[1] as number) >>> 11);
}

/**
 * `keyPrintSteps`' reading of `text` from `from` until at least `to` (a run of other characters may
 * go past it), where the print so far is `state`: its two hashes, whether a word is being read, and
 * whether one was (a space goes before the next). Its place after. In locals, not a closure's: the
 * hashes kept in a closure read a megabyte in 390 ms.
 */
function printRange(text: string, from: number, to: number, state: Uint32Array): number {
	let one = state[0] as number;
	let two = state[1] as number;
	let inWord = state[2] === 1;
	let anyWord = state[3] === 1;
	let at = from;
	while (at < to) {
		const code = text.charCodeAt(at);
		if (isKeySeparator(code)) {
			inWord = false;
			at++;
			continue;
		}
		if (!inWord) {
			// A word starts: one space before it, as the key has between words.
			if (anyWord) {
				one = Math.imul(one ^ 0x20, PRINT_PRIME_ONE);
				two = Math.imul(two ^ 0x20, PRINT_PRIME_TWO) ^ (two >>> 15);
			}
			inWord = anyWord = true;
		}
		if (code < 128) {
			const low = code >= 0x41 && code <= 0x5a ? code + 0x20 : code;
			one = Math.imul(one ^ low, PRINT_PRIME_ONE);
			two = Math.imul(two ^ low, PRINT_PRIME_TWO) ^ (two >>> 15);
			at++;
			continue;
		}
		let end = at + 1;
		for (; end < text.length && end - at < HEADING_PRINT_LOWERED_CHARS; end++) {
			const next = text.charCodeAt(end);
			if (next < 128 || isKeySeparator(next)) break;
		}
		// Cut inside a pair, the two halves would be lowered apart: the high one waits for the next run.
		if (end - at > 1 && end < text.length && isHighSurrogate(text.charCodeAt(end - 1))) end--;
		const lowered = text.slice(at, end).toLowerCase();
		for (let index = 0; index < lowered.length; index++) {
			const low = lowered.charCodeAt(index) === GREEK_FINAL_SIGMA ? GREEK_SIGMA : lowered.charCodeAt(index);
			one = Math.imul(one ^ low, PRINT_PRIME_ONE);
			two = Math.imul(two ^ low, PRINT_PRIME_TWO) ^ (two >>> 15);
		}
		at = end;
	}
	state[0] = one;
	state[1] = two;
	state[2] = inWord ? 1 : 0;
	state[3] = anyWord ? 1 : 0;
	return at;
}

function isHighSurrogate(code: number): boolean {
	return code >= 0xd800 && code <= 0xdbff;
}

/** Heading `index`'s print (`keyPrintSteps`), remembered in `headings.prints`. */
function* printOf(headings: HeadingPlaces, index: number): Steps<number> {
	const prints = (headings.prints ??= new Float64Array(headings.texts.length).fill(Number.NaN));
	const kept = prints[index] as number;
	if (!Number.isNaN(kept)) return kept;
	return (prints[index] = yield* keyPrintSteps(headings.texts[index] ?? ""));
}

/**
 * Where the section under heading `index` ends: at the next heading of the same or a higher level,
 * kept or left out by the parse (past MAX_NOTE_HEADINGS the last kept ones' sections ran to the
 * note's end), or the note's end.
 */
function* sectionEnd(headings: HeadingPlaces, index: number, textLength: number): Steps<number> {
	const level = headings.levels[index] ?? 1;
	for (let next = index + 1; next < headings.texts.length; next++) {
		if ((headings.levels[next] as number) <= level) return headings.offsets[next] as number;
		if (next % SUBPATH_HEADING_STEP === 0) yield;
	}
	const leftOut = headings.leftOutEnds?.[level - 1] ?? -1;
	return leftOut === -1 ? textLength : leftOut;
}

/**
 * Heading levels (`#` to `######`). Each heading of a chain lies inside the section of the one
 * before, so it is deeper: no chain of more headings than this names a part of any note.
 */
export const HEADING_LEVELS = 6;

/**
 * A subpath's parts, `#`-separated, trimmed, empty ones left out; null when there are more than a
 * chain of headings can have. Read only as far as that: a read_note path of 400,000 parts was split
 * whole, and looked through, in one piece of 0.1–0.2 s.
 */
function subpathParts(subpath: string): string[] | null {
	const parts: string[] = [];
	for (let from = 0; from <= subpath.length;) {
		const hash = subpath.indexOf("#", from);
		const to = hash === -1 ? subpath.length : hash;
		const part = subpath.slice(from, to).trim();
		if (part !== "") {
			if (parts.length === HEADING_LEVELS) return null;
			parts.push(part);
		}
		from = to + 1;
	}
	return parts;
}

/** A subpath's last heading (`Parent#Child` → `Child`): the heading it names is the one that keys as it does. Pure. */
export function lastHeadingPart(subpath: string): string {
	return subpathParts(subpath)?.at(-1) ?? "";
}

/**
 * The part of a note a link subpath names, from the metadata cache, the way Obsidian resolves
 * `Note#Heading`, `Note#Parent#Child` and `Note#^block`: each heading in a chain is looked for
 * inside the section of the one before; the first match wins, as in Obsidian. Null when there is none.
 */
export function resolveSubpath(cache: CachedMetadata | null, subpath: string, textLength: number): NotePart | null {
	return runSteps(resolveSubpathInSteps(cache, headingPlacesOf(cache?.headings ?? [], headingsLeftOutOf(cache)), subpath, textLength));
}

/** A list of headings as `HeadingPlaces`, with where those left out of its note start (`headingsLeftOutOf`). Pure. */
export function headingPlacesOf(headings: readonly HeadingCache[], leftOutEnds?: readonly number[]): HeadingPlaces {
	const places: HeadingPlaces = {
		texts: headings.map((heading) => heading.heading),
		levels: Uint8Array.from(headings, (heading) => heading.level),
		offsets: Int32Array.from(headings, (heading) => heading.position.start.offset),
		lines: Int32Array.from(headings, (heading) => heading.position.start.line),
	};
	return leftOutEnds === undefined ? places : { ...places, leftOutEnds };
}

/**
 * A note's block whose id, in lower case, is `id`, from its metadata's blocks: the one keyed `id`,
 * else the first whose id matches in lower case (as every lookup here chooses). Pure.
 */
function* blockOf(cache: CachedMetadata | null, id: string): Steps<NotePart | null> {
	yield* [];
	const blocks = cache?.blocks ?? {};
	const keyed = Object.prototype.hasOwnProperty.call(blocks, id) ? blocks[id] : undefined;
	const block = keyed?.id.toLowerCase() === id ? keyed : Object.values(blocks).find((entry) => entry.id.toLowerCase() === id);
	return block ? { name: `^${block.id}`, start: block.position.start.offset, end: block.position.end.offset } : null;
}

/**
 * `resolveSubpath` over the note's `headings`, its block found by `findBlock` (by default in the
 * cache's blocks), in steps of SUBPATH_HEADING_STEP headings: read_note of a missing heading among 150,000
 * keyed them all in one piece.
 */
export function* resolveSubpathInSteps(
	cache: CachedMetadata | null,
	headings: HeadingPlaces,
	subpath: string,
	textLength: number,
	findBlock: (id: string) => Steps<NotePart | null> = (id) => blockOf(cache, id),
): Steps<NotePart | null> {
	const parts = subpathParts(subpath);
	if (parts === null || parts.length === 0) return null;
	const first = parts[0] ?? "";
	if (parts.length === 1 && first.startsWith("^")) return yield* findBlock(first.slice(1).toLowerCase());
	const count = headings.texts.length;
	let from = 0;
	let until = count;
	let found = -1;
	let end = textLength;
	for (const part of parts) {
		// A part longer than a heading's line (a path of up to a megabyte) is compared, not keyed: keyed whole it was one piece of 36–130 ms.
		const key = part.length > HEADING_KEYED_MAX_CHARS ? null : headingKey(part);
		// Read once, when a heading or the part is too long to key: a heading whose print differs is not compared.
		let partPrint: number | undefined;
		found = -1;
		// Paused by headings and by their characters: 7,000 headings of 1 KB were pieces of 45 ms.
		let characters = 0;
		for (let index = from; index < until; index++) {
			const text = headings.texts[index] ?? "";
			// A heading and a part of a line's length are keyed once (the heading's key remembered); a longer one is
			// compared as far as the two agree, when their prints (`keyPrintSteps`, the heading's remembered) are the same.
			if (
				key !== null && text.length <= HEADING_KEYED_MAX_CHARS
					? keyOf(headings, index) === key
					: (partPrint ??= yield* keyPrintSteps(part)) === (yield* printOf(headings, index)) && (yield* sameHeadingKeySteps(text, part))
			) {
				found = index;
				break;
			}
			characters += Math.min(headings.texts[index]?.length ?? 0, SUBPATH_HEADING_STEP_CHARS);
			if (index % SUBPATH_HEADING_STEP === SUBPATH_HEADING_STEP - 1 || characters >= SUBPATH_HEADING_STEP_CHARS) {
				characters = 0;
				yield;
			}
		}
		if (found === -1) return null;
		// The next part must lie inside this heading's section.
		end = yield* sectionEnd(headings, found, textLength);
		from = found + 1;
		until = count;
		for (let index = from; index < count; index++) {
			if ((headings.offsets[index] as number) >= end) {
				until = index;
				break;
			}
			if (index % SUBPATH_HEADING_STEP === 0) yield;
		}
	}
	return { name: headings.texts[found] as string, start: headings.offsets[found] as number, end };
}

/** The note's headings as a model can pass them back: `## Name (line N)`, at most `max`, with how many more there are. */
export function describeHeadings(cache: CachedMetadata | null, max: number): string {
	return describeHeadingPlaces(headingPlacesOf((cache?.headings ?? []).slice(0, max), headingsLeftOutOf(cache)), max, cache?.headings?.length ?? 0);
}

/** `describeHeadings` of a note's `headings` (of which there are `count`, all of them when not said). */
export function describeHeadingPlaces(headings: HeadingPlaces, max: number, count = headings.texts.length): string {
	if (count === 0) return "The note has no headings.";
	const listed: string[] = [];
	for (let index = 0; index < Math.min(max, headings.texts.length); index++)
		listed.push(`${"#".repeat(headings.levels[index] as number)} ${echoed(headings.texts[index] as string)} (line ${headings.lines[index] as number})`);
	const more = count > max ? ` and ${count - max} more` : "";
	// Only when the headless parse left headings out: a note of exactly MAX_NOTE_HEADINGS, or one in Obsidian (no bound), was told so too.
	const unread = headings.leftOutEnds !== undefined ? ` Headings past the first ${MAX_NOTE_HEADINGS} of a note are not read: read it whole.` : "";
	return `Its headings: ${listed.join("; ")}${more}.${unread}`;
}
