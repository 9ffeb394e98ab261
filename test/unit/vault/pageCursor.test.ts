import fc from "fast-check";
import { MAX_CURSOR_NESTING, MAX_VAULT_PATH_CHARS } from "../../../src/config/limits";
import { comparePathsStrictly } from "../../../src/vault/notes";
import { BY_PATH, cursorOrder, decodeCursor, encodeCursor, pageAfter, type KeyedOrder } from "../../../src/vault/pageCursor";

const BY_PATH_ORDER: KeyedOrder<string> = { tool: "list_x", parts: BY_PATH, keyOf: (path) => [path] };
const NOT_VALID = "The cursor is not valid. Call again without a cursor to start from the first page.";

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
		// Nested 400,000 deep: JSON.parse held the thread 15-25 ms before it failed; text like it inside a key's string is only text.
		const deep = Buffer.from(`{"tool":"list_tags","after":${"[".repeat(400_000)}`).toString("base64url");
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
