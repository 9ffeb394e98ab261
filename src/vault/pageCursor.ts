import { randomBytes } from "node:crypto";
import {
	KEPT_LONG_CURSOR_KEY_CHARS,
	KEPT_LONG_CURSOR_KEYS,
	MAX_CURSOR_CHARS,
	MAX_CURSOR_NESTING,
	MAX_LISTED_TAG_CHARS,
	MAX_VAULT_PATH_CHARS,
} from "../config/limits";
import { fail, ok, type Result } from "../result";
import { sha256Hex } from "../sha256";
import { comparePathsStrictly } from "./notes";

/**
 * Page cursors that name a place in a list's order: the sort key of the last item given (keyset
 * paging), never a count. A count moves when a note before it is created, deleted or renamed between
 * two pages, and the next page then repeats or skips a note that was there all along; a key stays
 * where it is. A cursor's key comes back from the client and may be forged: it is only compared with
 * the items the caller may see, so seeking to any key reaches nothing a call without a cursor would
 * not, and a key is never quoted in an error. A key too long to carry in a cursor of MAX_CURSOR_CHARS is kept here
 * (`keptLongKeys`) under a random name the cursor carries instead.
 */

/**
 * One part of a sort key: a path in `comparePathsStrictly` order (a tag's spelling too, which may be longer than any
 * path), other text in code-unit order, or a number, smallest or largest first.
 */
export type KeyPart = "path" | "tag" | "text" | "ascending" | "descending";

/** The sort key of an item, one value a part. */
export type CursorKey = ReadonlyArray<string | number>;

/** How to page one list: the tool's name (a cursor of another tool is refused), its key's parts, and each item's key. */
export interface KeyedOrder<T> {
	tool: string;
	parts: readonly KeyPart[];
	keyOf: (item: T) => CursorKey;
}

const NOT_VALID = "The cursor is not valid. Call again without a cursor to start from the first page.";
const FROM_OLDER_SERVER = "The cursor is from an older version of this server, which counted pages. Call again without a cursor to start from the first page.";

/** Path order, for lists sorted by `comparePathsStrictly`. */
export const BY_PATH: readonly KeyPart[] = ["path"];

/**
 * Hex digits of a list's digest kept in its cursors: enough that two lists of one vault never share
 * one by chance, few enough that a cursor stays short whatever the list's path.
 */
const LIST_DIGEST_CHARS = 16;

/**
 * What names one list of a tool that pages several (a base's view, a canvas) in its cursors: a
 * digest, so a cursor of one base or canvas passed with another is refused, not followed into a
 * different order where it would silently skip or repeat rows.
 */
function listDigest(list: string): string {
	return sha256Hex(list).slice(0, LIST_DIGEST_CHARS);
}

/** Characters of a cursor's `order` (the server's name for the order it pages, returned as is): longer is not one it made. */
const MAX_ORDER_CHARS = 64;

/** Random bytes naming a kept long key in a cursor: never guessed, so a forged cursor finds none. */
const KEPT_KEY_NAME_BYTES = 16;

const KEPT_KEY_GONE =
	"The cursor names a place the server no longer holds (a name too long for a cursor, kept for the latest pages only, and not across a restart). Call again without a cursor to start from the first page.";

/** A key too long for a cursor, kept for the pages after it: the tool that paged it, the key, its characters. */
interface KeptKey {
	tool: string;
	after: CursorKey;
	chars: number;
}

/**
 * The long keys kept (MAX_CURSOR_CHARS), the newest last: at most KEPT_LONG_CURSOR_KEYS, of KEPT_LONG_CURSOR_KEY_CHARS
 * characters together, the oldest dropped first. A key is found by its name and its tool only: it is compared with the
 * items the caller may see, as a key carried in the cursor is, so one token's cursor used by another reaches nothing more.
 */
class KeptLongKeys {
	private readonly kept = new Map<string, KeptKey>();
	private chars = 0;

	keep(tool: string, after: CursorKey): string {
		const name = randomBytes(KEPT_KEY_NAME_BYTES).toString("base64url");
		const chars = after.reduce<number>((sum, part) => sum + (typeof part === "string" ? part.length : 0), 0);
		this.kept.set(name, { tool, after, chars });
		this.chars += chars;
		for (const [oldest, entry] of this.kept) {
			if (oldest === name || (this.kept.size <= KEPT_LONG_CURSOR_KEYS && this.chars <= KEPT_LONG_CURSOR_KEY_CHARS)) break;
			this.kept.delete(oldest);
			this.chars -= entry.chars;
		}
		return name;
	}

	/** The key kept under `name` for `tool`, made the newest (a client paging on keeps its place), or undefined. */
	find(name: string, tool: string): CursorKey | undefined {
		const entry = this.kept.get(name);
		if (entry === undefined || entry.tool !== tool) return undefined;
		this.kept.delete(name);
		this.kept.set(name, entry);
		return entry.after;
	}
}

const keptLongKeys = new KeptLongKeys();

/**
 * The cursor of the page after the item whose key is `after`, in `list` when the tool pages several; `order` names the
 * order paged, when the server keeps it across changes (get_note_links' backlinks: `BacklinksWalk.page`). At most
 * MAX_CURSOR_CHARS: a longer key is kept by the server and named.
 */
export function encodeCursor(tool: string, after: CursorKey, list?: string, order?: string): string {
	const rest = { ...(list === undefined ? {} : { list: listDigest(list) }), ...(order === undefined ? {} : { order }) };
	const cursor = Buffer.from(JSON.stringify({ tool, after, ...rest })).toString("base64url");
	if (cursor.length <= MAX_CURSOR_CHARS) return cursor;
	return Buffer.from(JSON.stringify({ tool, kept: keptLongKeys.keep(tool, after), ...rest })).toString("base64url");
}

/** The order a cursor `decodeCursor` took names (`encodeCursor`'s `order`), if any: an opaque name the server checks. */
export function cursorOrder(cursor: string | undefined): string | undefined {
	if (cursor === undefined) return undefined;
	const parsed = parseCursor(cursor);
	const order = typeof parsed === "object" && parsed !== null ? (parsed as { order?: unknown }).order : undefined;
	return typeof order === "string" && order.length <= MAX_ORDER_CHARS ? order : undefined;
}

/** Not a cursor's text: its JSON could not be parsed, or was not tried (nested deeper than any cursor the server makes). */
const UNPARSED = Symbol("unparsed");

/**
 * A cursor's JSON, or UNPARSED. Its nesting is looked at first, outside strings, in one pass without making anything:
 * JSON.parse of text nested hundreds of thousands deep held the thread 15-25 ms before it failed (MAX_CURSOR_NESTING).
 */
function parseCursor(cursor: string): unknown {
	// No cursor the server makes is longer (every tool's schema refuses one first; this guards any other caller).
	if (cursor.length > MAX_CURSOR_CHARS) return UNPARSED;
	const text = Buffer.from(cursor, "base64url").toString("utf8");
	let depth = 0;
	let inString = false;
	for (let index = 0; index < text.length; index++) {
		const char = text.charCodeAt(index);
		if (inString) {
			if (char === 0x5c) index++;
			else if (char === 0x22) inString = false;
		} else if (char === 0x22) inString = true;
		else if (char === 0x5b || char === 0x7b) {
			if (++depth > MAX_CURSOR_NESTING) return UNPARSED;
		} else if (char === 0x5d || char === 0x7d) depth--;
	}
	try {
		return JSON.parse(text) as unknown;
	} catch {
		return UNPARSED;
	}
}

/**
 * The key a cursor of `tool` (of `list`, when the tool pages several) names (undefined: no cursor,
 * the first page), or what to do about a cursor this tool, or this list, did not make.
 */
export function decodeCursor(cursor: string | undefined, tool: string, parts: readonly KeyPart[], list?: string): Result<CursorKey | undefined> {
	if (cursor === undefined) return ok(undefined);
	const parsed = parseCursor(cursor);
	if (typeof parsed !== "object" || parsed === null) return fail(NOT_VALID);
	const { offset, tool: madeBy, list: madeFor, kept } = parsed as { offset?: unknown; tool?: unknown; after?: unknown; list?: unknown; kept?: unknown };
	if (typeof offset === "number" && madeBy === undefined) return fail(FROM_OLDER_SERVER);
	if (typeof madeBy === "string" && madeBy !== tool)
		return fail(`The cursor was made by another tool. Pass a cursor ${tool} gave, or none to start from the first page.`);
	if (list !== undefined && madeBy === tool && madeFor !== listDigest(list))
		return fail("The cursor was made for another file or view. Pass the cursor this one's last page gave, or none to start from the first page.");
	let after = (parsed as { after?: unknown }).after;
	if (madeBy === tool && typeof kept === "string" && after === undefined) {
		after = keptLongKeys.find(kept, tool);
		if (after === undefined) return fail(KEPT_KEY_GONE);
	}
	if (madeBy !== tool || !Array.isArray(after) || after.length !== parts.length) return fail(NOT_VALID);
	const fits = parts.every((part, index) => {
		const value: unknown = after[index];
		// No path is longer: a forged key of 700,000 characters the collator skips (soft hyphens) held a seek in 50,000 notes 15-35 ms.
		if (part === "path") return typeof value === "string" && value.length <= MAX_VAULT_PATH_CHARS;
		// A listed tag is never cut (tagPlace): cut shorter, tags alike that far and as used stood at one place, and a page ending at one skipped the rest.
		if (part === "tag") return typeof value === "string" && value.length <= MAX_LISTED_TAG_CHARS;
		return part === "text" ? typeof value === "string" : typeof value === "number" && Number.isFinite(value);
	});
	return fits ? ok(after as CursorKey) : fail(NOT_VALID);
}

/** Compares two keys of `parts`, in the order their list is sorted in. */
function compareKeys(parts: readonly KeyPart[], a: CursorKey, b: CursorKey): number {
	for (const [index, part] of parts.entries()) {
		const order = comparePart(part, a[index] as string | number, b[index] as string | number);
		if (order !== 0) return order;
	}
	return 0;
}

function comparePart(part: KeyPart, a: string | number, b: string | number): number {
	switch (part) {
		case "path":
		case "tag":
			return comparePathsStrictly(a as string, b as string);
		case "text":
			return a < b ? -1 : a > b ? 1 : 0;
		case "ascending":
			return (a as number) - (b as number);
		case "descending":
			return (b as number) - (a as number);
	}
}

/** Where the items after `after` start in `items` (sorted in `order`'s key order): a binary search, so a page costs about the page. */
export function startAfter<T>(items: readonly T[], after: CursorKey | undefined, order: KeyedOrder<T>): number {
	if (after === undefined) return 0;
	let low = 0;
	let high = items.length;
	while (low < high) {
		const middle = (low + high) >>> 1;
		if (compareKeys(order.parts, order.keyOf(items[middle] as T), after) <= 0) low = middle + 1;
		else high = middle;
	}
	return low;
}

/** The page of at most `limit` items after `after`, with the cursor of the next page when items are left past it. */
export function pageAfter<T>(items: readonly T[], after: CursorKey | undefined, limit: number, order: KeyedOrder<T>): { items: T[]; nextCursor?: string } {
	const start = startAfter(items, after, order);
	const page = items.slice(start, start + limit);
	const last = page.at(-1);
	return start + limit < items.length && last !== undefined ? { items: page, nextCursor: encodeCursor(order.tool, order.keyOf(last)) } : { items: page };
}
