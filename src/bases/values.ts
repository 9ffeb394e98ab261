/**
 * The values Bases expressions compute with, and the read-only view of the vault they run over.
 * Pure: the vault side is an interface the caller implements over the host (vault/bases.ts), as
 * Dataview's engine reaches the vault through a small link handler.
 */
import dayjs from "dayjs";

/** A link as a note holds it: its text, display text, and the visible file it resolves to (null: none, or one this caller may not see). */
export interface LinkRef {
	link: string;
	display?: string;
	/** Resolved when first read. */
	readonly target: string | null;
}

/** One file of the vault as a base sees it. Members that cost a lookup are methods, so they are paid only when an expression asks. */
export interface BaseFile {
	readonly path: string;
	readonly name: string;
	readonly basename: string;
	readonly extension: string;
	readonly folder: string;
	readonly size: number;
	readonly ctime: number;
	readonly mtime: number;
	/** Frontmatter as parsed (notes only; null for other files or a note without it). */
	properties(): Record<string, unknown> | null;
	/** Tags of the body and the frontmatter, each with `#`. */
	tags(): readonly string[];
	/** Links and embeds of the body and frontmatter links, resolved among visible files. */
	links(): readonly LinkRef[];
	/** Embeds only. */
	embeds(): readonly LinkRef[];
}

/** The visible vault: nothing outside the caller's scope is ever reachable through it. */
export interface BaseVault {
	/** The visible file at this path, or null. */
	file(path: string): BaseFile | null;
	/** Whether `text` is, exactly, the path of a visible file or of a folder holding one (a cell holding it names that file or folder). */
	isVisiblePath(text: string): boolean;
	/** Where a link path leads from `sourcePath`, among visible files (Obsidian's resolution), or null. */
	resolveLink(linkpath: string, sourcePath: string): string | null;
	/** Visible notes linking to `path`. */
	backlinks(path: string): readonly string[];
	/**
	 * Whether `file` is still where the query began with it, visible: one renamed or moved in place
	 * since (into an excluded folder, or anywhere else), or deleted, is not, and its row would name a
	 * path that holds no such note.
	 */
	isWhereItWas(file: BaseFile): boolean;
}

/** A point in time; `hasTime` false for a date without a time of day (`today()`, `date("2025-01-01")`). */
export class DateValue {
	constructor(
		readonly ms: number,
		readonly hasTime: boolean,
	) {}
}

/** A length of time: months (calendar), days (calendar) and milliseconds, added in that order. */
export class DurationValue {
	constructor(
		readonly months: number,
		readonly days: number,
		readonly ms: number,
	) {}

	/** Approximate length in milliseconds (a month as 30 days), for comparing and for `number()`. */
	get totalMs(): number {
		return (this.months * 30 + this.days) * 86_400_000 + this.ms;
	}
}

export class LinkValue {
	private resolved: string | null | undefined;

	/** `target` may be given as a function: a note's links are resolved only when an expression asks where they lead. */
	constructor(
		readonly link: string,
		private readonly targetOrResolver: string | null | (() => string | null),
		readonly display?: string,
	) {}

	/** The visible file the link leads to, or null. */
	get target(): string | null {
		if (this.resolved === undefined) this.resolved = typeof this.targetOrResolver === "function" ? this.targetOrResolver() : this.targetOrResolver;
		return this.resolved;
	}
}

export class FileValue {
	constructor(readonly file: BaseFile) {}
}

/** `this`: the base file itself (Obsidian's meaning when a base is opened on its own). */
export class ThisValue {
	constructor(readonly file: BaseFile) {}
}

export class RegexValue {
	constructor(readonly regex: RegExp) {}
}

export class ObjectValue {
	constructor(readonly fields: ReadonlyMap<string, Value>) {}
}

export type Value = null | boolean | number | string | Value[] | DateValue | DurationValue | LinkValue | FileValue | ThisValue | RegexValue | ObjectValue;

/** Weights of the lists and objects weighed so far: a list, once made, is never changed. */
const weights = new WeakMap<object, number>();

/**
 * How many values a list or an object holds, counting those of every list and object inside it
 * each time one is reached, as printing, comparing or flattening it walks them; a scalar weighs
 * nothing. A list of 300 references to one 50,000-item list weighs 15 million: printing it held the
 * server 1.6 s and flattening it 3.8 s in one step. Known weights are kept, so weighing a list
 * made of weighed lists looks at its own items only.
 */
export function valueWeight(value: Value): number {
	if (!Array.isArray(value) && !(value instanceof ObjectValue)) return 0;
	const known = weights.get(value);
	if (known !== undefined) return known;
	let weight = 0;
	for (const item of Array.isArray(value) ? value : value.fields.values()) weight += 1 + valueWeight(item);
	weights.set(value, weight);
	return weight;
}

/** More than the longest text of a date or a duration (`-271821-04-20 00:00:00` is 21 characters). */
const SCALAR_TEXT_MAX_CHARS = 32;

/** Characters of text in the lists and objects measured so far: a list, once made, is never changed. */
const textLengths = new WeakMap<object, number>();

/**
 * Characters of text a value holds (its texts, numbers, link texts, file paths and keys;
 * SCALAR_TEXT_MAX_CHARS for a date or a duration), counting those of every list
 * and object inside it each time one is reached, as printing or comparing it as text does. A list of
 * 100 references to one megabyte text holds 100 million: printing it (`+`, `join()`, a sort of lists)
 * held the server a third of a second, and a list of 100 such lists ended it for want of memory.
 */
export function textChars(value: Value): number {
	if (value === null) return 0;
	if (typeof value === "string") return value.length;
	if (typeof value === "number" || typeof value === "boolean") return String(value).length;
	if (value instanceof LinkValue) return value.link.length + (value.display?.length ?? 0);
	if (value instanceof FileValue || value instanceof ThisValue) return value.file.path.length;
	if (value instanceof RegexValue) return value.regex.source.length + value.regex.flags.length + 2;
	if (!Array.isArray(value) && !(value instanceof ObjectValue)) return SCALAR_TEXT_MAX_CHARS;
	const known = textLengths.get(value);
	if (known !== undefined) return known;
	let chars = 0;
	if (Array.isArray(value)) for (const item of value) chars += textChars(item);
	else for (const [key, item] of value.fields) chars += key.length + textChars(item);
	textLengths.set(value, chars);
	return chars;
}

/** The type names `isType()` knows. */
export function typeOf(value: Value): string {
	if (value === null) return "null";
	if (typeof value === "boolean") return "boolean";
	if (typeof value === "number") return "number";
	if (typeof value === "string") return "string";
	if (Array.isArray(value)) return "list";
	if (value instanceof DateValue) return "date";
	if (value instanceof DurationValue) return "duration";
	if (value instanceof LinkValue) return "link";
	if (value instanceof FileValue || value instanceof ThisValue) return "file";
	if (value instanceof RegexValue) return "regexp";
	return "object";
}

/** JavaScript's truthiness, except that an empty list is false (a filter on an empty list property should not match). */
export function isTruthy(value: Value): boolean {
	if (value === null) return false;
	if (typeof value === "boolean") return value;
	if (typeof value === "number") return value !== 0 && !Number.isNaN(value);
	if (typeof value === "string") return value !== "";
	if (Array.isArray(value)) return value.length > 0;
	return true;
}

/** How a date reads: `2025-01-01`, or `2025-01-01 04:03:00` with a time (as Obsidian's documentation writes them). */
export function formatDate(date: DateValue): string {
	return dayjs(date.ms).format(date.hasTime ? "YYYY-MM-DD HH:mm:ss" : "YYYY-MM-DD");
}

/** A value as text, for `+` with text, `join` and `toString()`. */
export function toText(value: Value): string {
	if (value === null) return "";
	if (typeof value === "string") return value;
	if (typeof value === "number" || typeof value === "boolean") return String(value);
	if (Array.isArray(value)) return value.map(toText).join(", ");
	if (value instanceof DateValue) return formatDate(value);
	if (value instanceof DurationValue) return String(value.totalMs);
	if (value instanceof LinkValue) return value.display ?? value.link;
	if (value instanceof FileValue || value instanceof ThisValue) return value.file.path;
	if (value instanceof RegexValue) return String(value.regex);
	return JSON.stringify(toJson(value));
}

/** JSON a client receives for a value: dates as text, links as `[[link]]`, files by path, durations in milliseconds. */
export function toJson(value: Value): unknown {
	if (value === null || typeof value === "boolean" || typeof value === "string") return value;
	if (typeof value === "number") return Number.isFinite(value) ? value : null;
	if (Array.isArray(value)) return value.map(toJson);
	if (value instanceof DateValue) return formatDate(value);
	if (value instanceof DurationValue) return value.totalMs;
	if (value instanceof LinkValue) return value.display === undefined ? `[[${value.link}]]` : `[[${value.link}|${value.display}]]`;
	if (value instanceof FileValue || value instanceof ThisValue) return value.file.path;
	if (value instanceof RegexValue) return String(value.regex);
	const out: Record<string, unknown> = {};
	for (const [key, field] of value.fields) Object.defineProperty(out, key, { value: toJson(field), enumerable: true, writable: true, configurable: true });
	return out;
}

/** How a value as a client receives it (`toJson`) names files: a path, a link's text, or the items of a list that do, by index. */
export type ValueNaming = "path" | "link" | ReadonlyMap<number, ValueNaming>;

/**
 * How `value` names files as `toJson` gives it, or null when it names none (an object's fields are
 * the author's text). A text names a file when `namesFile` says the whole of it names a visible file
 * or folder (`file.path`, `file.folder`, `file.basename`, or a formula giving one): cut to a prefix
 * it could name another note or folder. Only the query knows the vault.
 */
export function namingOf(value: Value, namesFile: (text: string) => boolean): ValueNaming | null {
	if (value instanceof FileValue || value instanceof ThisValue) return "path";
	if (value instanceof LinkValue) return "link";
	if (typeof value === "string") return namesFile(value) ? "path" : null;
	if (!Array.isArray(value)) return null;
	const items = new Map<number, ValueNaming>();
	for (const [index, item] of value.entries()) {
		const naming = namingOf(item, namesFile);
		if (naming !== null) items.set(index, naming);
	}
	return items.size > 0 ? items : null;
}

/** The file a value stands for, if it stands for one. */
export function fileOf(value: Value): BaseFile | null {
	return value instanceof FileValue || value instanceof ThisValue ? value.file : null;
}

/** Where a link or file value points (a visible path), or null. */
export function targetOf(value: Value): string | null {
	if (value instanceof LinkValue) return value.target;
	return fileOf(value)?.path ?? null;
}

/** Told what a comparison walks as it walks it: a value reached, or the characters of two texts compared one by one. It may throw to stop the comparison. */
export type CountWalk = (values: number, chars: number) => void;

/**
 * Bases equality: dates by instant, lists item by item, and links by the file they resolve to —
 * a link equals a file it resolves to, and two unresolved links are equal when their text is.
 * `countWalk`, when given, is told the work before it is done: a comparison stops at the first
 * difference, so two small lists cost a few values, but two lists of references to different
 * megabyte texts of one length compare every character of each.
 */
export function valuesEqual(a: Value, b: Value, countWalk?: CountWalk): boolean {
	if (countWalk)
		// Two different texts of one length are compared character by character (a cons text is flattened first).
		countWalk(1, typeof a === "string" && typeof b === "string" && a !== b && a.length === b.length ? a.length : 0);
	if (a === b) return true;
	if (a === null || b === null) return false;
	if (Array.isArray(a) || Array.isArray(b))
		return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((item, index) => valuesEqual(item, b[index] ?? null, countWalk));
	const linkLike = (value: Value) => value instanceof LinkValue || value instanceof FileValue || value instanceof ThisValue;
	if (linkLike(a) && linkLike(b)) {
		const [left, right] = [targetOf(a), targetOf(b)];
		if (left !== null || right !== null) return left === right;
		return a instanceof LinkValue && b instanceof LinkValue && a.link === b.link;
	}
	if (a instanceof DateValue && b instanceof DateValue) return a.ms === b.ms;
	if (a instanceof DurationValue && b instanceof DurationValue) return a.totalMs === b.totalMs;
	if (a instanceof RegexValue && b instanceof RegexValue) return String(a.regex) === String(b.regex);
	if (a instanceof ObjectValue && b instanceof ObjectValue) {
		if (a.fields.size !== b.fields.size) return false;
		for (const [key, field] of a.fields) if (!b.fields.has(key) || !valuesEqual(field, b.fields.get(key) ?? null, countWalk)) return false;
		return true;
	}
	return false;
}

const DATE_TEXT = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?)?$/;

/** `YYYY-MM-DD`, with an optional ` HH:mm[:ss[.SSS]]` (or `T…`), in local time as Obsidian reads it; null if the text is not one. */
export function parseDateText(text: string): DateValue | null {
	const match = DATE_TEXT.exec(text.trim());
	if (!match) return null;
	const [year, month, day, hour, minute, second, millis] = match.slice(1).map((part) => (part === undefined ? undefined : Number(part)));
	const date = new Date(
		year ?? 0,
		(month ?? 1) - 1,
		day ?? 1,
		hour ?? 0,
		minute ?? 0,
		second ?? 0,
		millis === undefined ? 0 : Number(match[7]?.padEnd(3, "0")),
	);
	if (date.getFullYear() !== year || date.getMonth() !== (month ?? 1) - 1 || date.getDate() !== day) return null;
	return new DateValue(date.getTime(), hour !== undefined);
}

const DURATION_UNITS: Record<string, "y" | "M" | "w" | "d" | "h" | "m" | "s"> = {
	y: "y",
	year: "y",
	years: "y",
	M: "M",
	month: "M",
	months: "M",
	w: "w",
	week: "w",
	weeks: "w",
	d: "d",
	day: "d",
	days: "d",
	h: "h",
	hour: "h",
	hours: "h",
	m: "m",
	minute: "m",
	minutes: "m",
	s: "s",
	second: "s",
	seconds: "s",
};

/** `"1M"`, `"2 weeks"`, `"1d 4h"`, `"-3 days"`: the duration the text writes, or null if it is not one. */
export function parseDurationText(text: string): DurationValue | null {
	const parts = text.trim().split(/(?<=[a-zA-Z])[\s,]+(?=[-+0-9])/);
	let months = 0;
	let days = 0;
	let ms = 0;
	for (const part of parts) {
		const match = /^([-+]?\d+(?:\.\d+)?)\s*([a-zA-Z]+)$/.exec(part.trim());
		if (!match) return null;
		const amount = Number(match[1]);
		const written = match[2] ?? "";
		// `M` is months and `m` minutes: one-letter units count only as written; words in any case.
		const unit = written.length === 1 ? DURATION_UNITS[written] : DURATION_UNITS[written.toLowerCase()];
		if (!unit) return null;
		if (unit === "y") months += amount * 12;
		else if (unit === "M") months += amount;
		else if (unit === "w") days += amount * 7;
		else if (unit === "d") days += amount;
		else if (unit === "h") ms += amount * 3_600_000;
		else if (unit === "m") ms += amount * 60_000;
		else ms += amount * 1000;
	}
	return parts.length > 0 ? new DurationValue(months, days, ms) : null;
}

/** The date moved by a duration (times `sign`), by the calendar: months, then days, then the rest. */
export function addDuration(date: DateValue, duration: DurationValue, sign: 1 | -1): DateValue {
	const moved = new Date(date.ms);
	if (duration.months !== 0) {
		const day = moved.getDate();
		moved.setDate(1);
		moved.setMonth(moved.getMonth() + sign * duration.months);
		// A month later than 31 January is the end of February, not 3 March.
		const lastDay = new Date(moved.getFullYear(), moved.getMonth() + 1, 0).getDate();
		moved.setDate(Math.min(day, lastDay));
	}
	if (duration.days !== 0) moved.setDate(moved.getDate() + sign * duration.days);
	const ms = moved.getTime() + sign * duration.ms;
	return new DateValue(ms, date.hasTime || duration.ms % 86_400_000 !== 0);
}
