import fc from "fast-check";
import {
	KEPT_LONG_CURSOR_KEY_CHARS,
	KEPT_LONG_CURSOR_KEYS,
	MAX_CURSOR_CHARS,
	MAX_CURSOR_NESTING,
	MAX_LISTED_TAG_CHARS,
	MAX_VAULT_PATH_CHARS,
} from "../../../src/config/limits";
import { comparePathsStrictly } from "../../../src/vault/notes";
import { BY_PATH, cursorOrder, decodeCursor, encodeCursor, pageAfter, type KeyedOrder } from "../../../src/vault/pageCursor";

const BY_PATH_ORDER: KeyedOrder<string> = { tool: "list_x", parts: BY_PATH, keyOf: (path) => [path] };
const NOT_VALID = "The cursor is not valid. Call again without a cursor to start from the first page.";
const KEPT_KEY_GONE =
	"The cursor names a place the server no longer holds (a name too long for a cursor, kept for the latest pages only, and not across a restart). Call again without a cursor to start from the first page.";

/** Every page of `pathsAt(page)` (the list as it is when that page is asked for), following the cursors. */
function pageThrough(pathsAt: (page: number) => string[], limit: number): string[] {
	const seen: string[] = [];
	let cursor: string | undefined;
	for (let page = 0; ; page++) {
		const after = decodeCursor(cursor, BY_PATH_ORDER.tool, BY_PATH_ORDER.parts);
		if (!after.ok) throw new Error(after.error);
		const answer = pageAfter(pathsAt(page), after.value, limit, BY_PATH_ORDER);
		seen.push(...answer.items);
		cursor = answer.nextCursor;
		if (cursor === undefined) return seen;
	}
}

describe("keyset page cursors", () => {
	const items = Array.from({ length: 7 }, (_, index) => `note ${index}.md`);

	test("following the cursors visits every item once, in order; the last page has no cursor", () => {
		expect(pageThrough(() => items, 2)).toEqual(items);
		expect(pageAfter(items, undefined, 7, BY_PATH_ORDER).nextCursor).toBeUndefined();
		expect(pageAfter(items, undefined, 6, BY_PATH_ORDER).nextCursor).toBeDefined();
	});

	test("items created and deleted between pages shift nothing: each item there throughout is listed exactly once", () => {
		fc.assert(
			fc.property(
				fc.uniqueArray(fc.string({ maxLength: 6 }), { maxLength: 40 }),
				fc.array(fc.tuple(fc.boolean(), fc.string({ maxLength: 6 })), { maxLength: 40 }),
				fc.integer({ min: 1, max: 5 }),
				(initial, changes, limit) => {
					const throughout = new Set(initial);
					let current = [...initial].sort(comparePathsStrictly);
					const seen = pageThrough((page) => {
						// Before each page, one change: a note created, or one deleted.
						const change = changes[page];
						if (change) {
							const [creates, path] = change;
							if (creates && !current.includes(path)) current = [...current, path].sort(comparePathsStrictly);
							if (!creates && current.length > 0) {
								const gone = current[path.length % current.length] as string;
								throughout.delete(gone);
								current = current.filter((item) => item !== gone);
							}
							if (creates) throughout.delete(path);
						}
						return current;
					}, limit);
					for (const path of throughout) expect(seen.filter((item) => item === path)).toHaveLength(1);
					expect(new Set(seen).size).toBe(seen.length);
				},
			),
		);
	});

	test("a key that is in no list (forged) starts after where it would stand, reaching only the list's own items", () => {
		const visible = ["a.md", "c.md", "e.md"];
		const forged = encodeCursor("list_x", ["d-hidden.md"]);
		const after = decodeCursor(forged, "list_x", BY_PATH);
		expect(after.ok && pageAfter(visible, after.value, 10, BY_PATH_ORDER).items).toEqual(["e.md"]);
	});

	test.each([
		["not base64 JSON", "%%%"],
		["JSON that is not an object", Buffer.from("3").toString("base64url")],
		["without a key", Buffer.from('{"tool":"list_x"}').toString("base64url")],
		["a key of the wrong length", encodeCursor("list_x", ["a", "b"])],
		["a key of the wrong type", encodeCursor("list_x", [3])],
		["a path key longer than any path", encodeCursor("list_x", [`${"\u00ad".repeat(MAX_VAULT_PATH_CHARS)}a.md`])],
		["empty", ""],
	])("a cursor that is %s is refused with what to do", (_kind, cursor) => {
		expect(decodeCursor(cursor, "list_x", BY_PATH)).toEqual({ ok: false, error: NOT_VALID });
	});

	test("a number that is not finite is refused", () => {
		const cursor = Buffer.from(JSON.stringify({ tool: "list_x", after: [null, "a"] })).toString("base64url");
		expect(decodeCursor(cursor, "list_x", ["descending", "path"])).toEqual({ ok: false, error: NOT_VALID });
	});

	test(`a cursor nested deeper than ${MAX_CURSOR_NESTING} is refused without JSON.parse; the server's own, whatever its key's characters, are parsed`, () => {
		const tag = ["descending", "tag"] as const;
		// Nested 400,000 deep, JSON.parse held the thread 15-25 ms before it failed (now refused by its length first); nested as
		// deep as a cursor's length allows, it is refused by its depth; text like it inside a key's string is only text.
		const deep = Buffer.from(`{"tool":"list_tags","after":${"[".repeat(2_000)}`).toString("base64url");
		expect(deep.length).toBeLessThanOrEqual(MAX_CURSOR_CHARS);
		const parse = jest.spyOn(JSON, "parse");
		try {
			expect(decodeCursor(deep, "list_tags", tag)).toEqual({ ok: false, error: NOT_VALID });
			expect(cursorOrder(deep)).toBeUndefined();
			expect(parse).not.toHaveBeenCalled();
			const bracketed = encodeCursor("list_tags", [3, `[{"\\${"[".repeat(50)}`], undefined, "walk-1");
			expect(decodeCursor(bracketed, "list_tags", tag)).toEqual({ ok: true, value: [3, `[{"\\${"[".repeat(50)}`] });
			expect(cursorOrder(bracketed)).toBe("walk-1");
			fc.assert(
				fc.property(fc.integer(), fc.string({ unit: "binary", maxLength: 40 }), (count, spelling) => {
					const made = encodeCursor("list_tags", [count, spelling], undefined, "w");
					expect(decodeCursor(made, "list_tags", tag)).toEqual({ ok: true, value: [count, spelling] });
				}),
			);
		} finally {
			parse.mockRestore();
		}
	});

	/**
	 * asks205: a key too long for a cursor is kept by the server. A list_tags cursor after a tag of 65,536 characters each
	 * written `\u0001` in JSON was 524,288 characters long, and a cursor up to the request's cap was read and decoded at
	 * every call. On the base the look for the cursor's length fails (524,288).
	 */
	test(`a key too long for a cursor of ${MAX_CURSOR_CHARS} characters is kept by the server and named: the page after follows it; nothing else finds it`, () => {
		const tag = ["descending", "tag"] as const;
		const longTag = "\u0001".repeat(MAX_LISTED_TAG_CHARS);
		const longPath = `${"é".repeat(MAX_VAULT_PATH_CHARS - 3)}.md`;
		const tagCursor = encodeCursor("list_tags", [7, longTag], undefined, "walk-1");
		const pathCursor = encodeCursor("query_base", [longPath, longPath, 3], "Views.base");
		for (const cursor of [tagCursor, pathCursor]) expect(cursor.length).toBeLessThanOrEqual(MAX_CURSOR_CHARS);
		expect(decodeCursor(tagCursor, "list_tags", tag)).toEqual({ ok: true, value: [7, longTag] });
		expect(cursorOrder(tagCursor)).toBe("walk-1");
		expect(decodeCursor(pathCursor, "query_base", ["path", "path", "ascending"], "Views.base")).toEqual({ ok: true, value: [longPath, longPath, 3] });
		// Another list's, another tool's, or a forged name: refused, the key never given.
		expect(decodeCursor(pathCursor, "query_base", ["path", "path", "ascending"], "Other.base").ok).toBe(false);
		const { kept } = JSON.parse(Buffer.from(tagCursor, "base64url").toString("utf8")) as { kept: string };
		const forged = (tool: string, name: string) => Buffer.from(JSON.stringify({ tool, kept: name })).toString("base64url");
		expect(decodeCursor(forged("list_notes", kept), "list_notes", BY_PATH)).toEqual({ ok: false, error: KEPT_KEY_GONE });
		// One letter other (the last letter of 16 bytes in base64url is A one time in four: the first is changed).
		const otherName = `${kept.startsWith("A") ? "B" : "A"}${kept.slice(1)}`;
		expect(decodeCursor(forged("list_tags", otherName), "list_tags", tag)).toEqual({ ok: false, error: KEPT_KEY_GONE });
		expect(decodeCursor(forged("list_tags", "x".repeat(MAX_CURSOR_CHARS)), "list_tags", tag)).toEqual({ ok: false, error: NOT_VALID });
		// A short key is carried in the cursor as before.
		expect(JSON.parse(Buffer.from(encodeCursor("list_tags", [7, "#short"]), "base64url").toString("utf8"))).toEqual({
			tool: "list_tags",
			after: [7, "#short"],
		});
	});

	test(`kept long keys: the newest ${KEPT_LONG_CURSOR_KEYS}, of ${KEPT_LONG_CURSOR_KEY_CHARS} characters together; an older one is refused with what to do, one in use stays`, () => {
		const tag = ["descending", "tag"] as const;
		const keyOf = (index: number, chars: number) => `#${String(index).padStart(6, "0")}${"\u0001".repeat(chars)}`;
		const made = Array.from({ length: KEPT_LONG_CURSOR_KEYS }, (_, index) => encodeCursor("list_tags", [1, keyOf(index, 1_000)]));
		// The first is used again (a client paging on): it is kept past the next one made; the second is the oldest then.
		expect(decodeCursor(made[0], "list_tags", tag)).toEqual({ ok: true, value: [1, keyOf(0, 1_000)] });
		encodeCursor("list_tags", [1, keyOf(-1, 1_000)]);
		expect(decodeCursor(made[0], "list_tags", tag).ok).toBe(true);
		expect(decodeCursor(made[1], "list_tags", tag)).toEqual({ ok: false, error: KEPT_KEY_GONE });
		expect(decodeCursor(made[2], "list_tags", tag).ok).toBe(true);
		// By characters: keys of the longest a tag is listed, fewer of them.
		const longest = Math.floor(KEPT_LONG_CURSOR_KEY_CHARS / MAX_LISTED_TAG_CHARS);
		const big = Array.from({ length: longest + 1 }, (_, index) => encodeCursor("list_tags", [1, keyOf(index, MAX_LISTED_TAG_CHARS - 7)]));
		expect(decodeCursor(big[0], "list_tags", tag)).toEqual({ ok: false, error: KEPT_KEY_GONE });
		expect(decodeCursor(big[1], "list_tags", tag).ok).toBe(true);
		expect(decodeCursor(big[longest], "list_tags", tag).ok).toBe(true);
	});

	test("a cursor longer than any the server makes is refused unread", () => {
		const long = Buffer.from(JSON.stringify({ tool: "list_x", after: ["a".repeat(MAX_CURSOR_CHARS)] })).toString("base64url");
		const parse = jest.spyOn(JSON, "parse");
		try {
			expect(decodeCursor(long, "list_x", BY_PATH)).toEqual({ ok: false, error: NOT_VALID });
			expect(parse).not.toHaveBeenCalled();
		} finally {
			parse.mockRestore();
		}
	});

	test("a cursor of another tool is refused, naming neither that tool nor its key", () => {
		const other = decodeCursor(encodeCursor("list_secret", ["Private/plan.md"]), "list_x", BY_PATH);
		expect(other).toEqual({ ok: false, error: "The cursor was made by another tool. Pass a cursor list_x gave, or none to start from the first page." });
	});

	test("an offset cursor of an older server is refused with why", () => {
		const old = Buffer.from(JSON.stringify({ offset: 100 })).toString("base64url");
		const refused = decodeCursor(old, "list_x", BY_PATH);
		expect(refused.ok).toBe(false);
		expect(!refused.ok && refused.error).toContain("older version");
	});

	test("newest first: time descending, then path", () => {
		const order: KeyedOrder<{ path: string; mtime: number }> = { tool: "list_x", parts: ["descending", "path"], keyOf: (n) => [n.mtime, n.path] };
		const notes = [
			{ path: "b.md", mtime: 3 },
			{ path: "a.md", mtime: 2 },
			{ path: "c.md", mtime: 2 },
			{ path: "d.md", mtime: 1 },
		];
		const first = pageAfter(notes, undefined, 2, order);
		expect(first.items.map((n) => n.path)).toEqual(["b.md", "a.md"]);
		const after = decodeCursor(first.nextCursor, "list_x", order.parts);
		// A note created before the cursor (newer) is not listed again; the rest follow.
		const withNewer = [{ path: "z.md", mtime: 9 }, ...notes];
		expect(after.ok && pageAfter(withNewer, after.value, 5, order).items.map((n) => n.path)).toEqual(["c.md", "d.md"]);
	});
});
