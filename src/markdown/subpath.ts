import { HEADING_KEYED_MAX_CHARS, MAX_NOTE_HEADINGS, SUBPATH_HEADING_STEP, SUBPATH_HEADING_STEP_CHARS } from "../config/limits";
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

/**
 * Whether `headingKey(one) === headingKey(other)`, read only as far as the two can still agree: a
 * heading of megabytes keyed whole was one piece of 40–80 ms a megabyte (read_note of a missing
 * heading in a planted note of one 7 MB heading: 543 ms), a read_note path of a megabyte (`a:` over
 * and over) 36–130 ms. A key is its text's words in lower case, one space between them; each word is
 * lowered alone, which lowers it as the whole does: a space is neither cased nor case-ignorable, so
 * no word's lower case depends on another's (Final_Sigma), and no character's lower case holds a
 * separator or is shorter than it, or more than twice as long (İ), so two words of which one is more
 * than twice as long as the other differ, and the longer is read no further. Pure.
 */
export function sameHeadingKey(one: string, other: string): boolean {
	let atOne = skipped(one, 0, KEY_SEPARATORS);
	let atOther = skipped(other, 0, KEY_SEPARATORS);
	while (atOne < one.length && atOther < other.length) {
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

/**
 * Whether heading `index` keys as `part` does (`key`, its key, null for a part too long to key): a
 * heading and a part of a line's length are keyed once (the heading's key remembered), a longer one
 * compared as far as the two can agree.
 */
function headingIs(headings: HeadingPlaces, index: number, part: string, key: string | null): boolean {
	const text = headings.texts[index] ?? "";
	return key === null || text.length > HEADING_KEYED_MAX_CHARS ? sameHeadingKey(text, part) : keyOf(headings, index) === key;
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
		found = -1;
		// Paused by headings and by their characters: 7,000 headings of 1 KB were pieces of 45 ms.
		let characters = 0;
		for (let index = from; index < until; index++) {
			if (headingIs(headings, index, part, key)) {
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
