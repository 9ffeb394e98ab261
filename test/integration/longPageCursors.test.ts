import { MAX_CURSOR_CHARS, MAX_LISTED_TAG_CHARS } from "../../src/config/limits";
import { startScopedReaders, type ScopedReaders } from "../helpers/scopedReaders";
import { callOk, callTool } from "../helpers/tools";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";

/**
 * asks205: page cursors are bounded (MAX_CURSOR_CHARS) in every paged tool's schema, and a key too long to carry in one is
 * kept by the server. A list_tags cursor after a tag of 65,536 characters each written `\u0001` in JSON was 524,288
 * characters long, and a cursor up to the request's cap (1 MB) was read and decoded at every call.
 */
const LONG_TAG = `#${"\u0001".repeat(MAX_LISTED_TAG_CHARS - 1)}`;

describe("page cursors are bounded; a long key is kept by the server", () => {
	let readers: ScopedReaders;
	beforeAll(async () => {
		const files: Record<string, string> = {
			"L/a.md": `${LONG_TAG} #l1\n`,
			"L/b.md": `${LONG_TAG} #l2\n`,
			"O/c.md": `${LONG_TAG} #outside\n`,
			"Private/secret.md": `${LONG_TAG} #hiddentag\n`,
			"Board.canvas": JSON.stringify({ nodes: [{ id: "n1", type: "text", text: "x", x: 0, y: 0, width: 10, height: 10 }], edges: [] }),
			"Views.base": "views:\n  - type: table\n    name: All\n",
		};
		readers = await startScopedReaders(files);
	}, 60_000);
	afterAll(async () => await readers.stop());

	/** Every tag's spelling over list_tags' pages of one tag, and the longest cursor given. */
	async function pageThrough(client: Client, cursor?: string): Promise<{ tags: string[]; longestCursor: number }> {
		const tags: string[] = [];
		let longestCursor = 0;
		for (let page = 0; page < 20; page++) {
			const answer = await callOk<{ tags: Array<{ tag: string }>; next_cursor?: string }>(client, "list_tags", {
				limit: 1,
				...(cursor ? { cursor } : {}),
			});
			tags.push(...answer.tags.map(({ tag }) => tag));
			cursor = answer.next_cursor;
			if (cursor === undefined) return { tags, longestCursor };
			longestCursor = Math.max(longestCursor, cursor.length);
		}
		throw new Error("list_tags paged on past 20 pages");
	}

	test(`a page ending at a tag of ${MAX_LISTED_TAG_CHARS} characters gives a cursor of at most ${MAX_CURSOR_CHARS}; the pages after follow it, every tag once`, async () => {
		const { tags, longestCursor } = await pageThrough(readers.everyFolder);
		expect(longestCursor).toBeLessThanOrEqual(MAX_CURSOR_CHARS);
		expect(tags).toEqual([LONG_TAG, "#l1", "#l2", "#outside"]);
	}, 60_000);

	test("another token given that cursor pages its own tags after it: nothing outside its folder or excluded", async () => {
		const first = await callOk<{ next_cursor?: string }>(readers.everyFolder, "list_tags", { limit: 1 });
		const { tags } = await pageThrough(readers.inL, first.next_cursor);
		// The long tag is used twice in L/ (three times in all): after the cursor's place (3 uses) in this token's order.
		expect(tags).toEqual([LONG_TAG, "#l1", "#l2"]);
	}, 60_000);

	test.each([
		["find_notes_by_tag", { tag: "l1" }],
		["get_note_links", { path: "L/a.md" }],
		["list_bases", {}],
		["list_notes", {}],
		["list_tags", {}],
		["list_tasks", {}],
		["list_templates", {}],
		["query_base", { path: "Views.base" }],
		["read_canvas", { path: "Board.canvas" }],
	])(`%s refuses a cursor longer than ${MAX_CURSOR_CHARS} characters, saying so`, async (tool, args) => {
		const cursor = "A".repeat(MAX_CURSOR_CHARS + 1);
		const outcome = await callTool(readers.everyFolder, tool, { ...args, cursor }).catch((error: unknown) => ({
			ok: false as const,
			error: String(error),
		}));
		expect(outcome.ok).toBe(false);
		expect(!outcome.ok && outcome.error).toContain(`The cursor is longer than any this server gives (${MAX_CURSOR_CHARS} characters at most).`);
		// At the bound it is read as a cursor (and, not one the server made, refused as such or, for a tool without pages, ignored).
		const atBound = await callTool(readers.everyFolder, tool, { ...args, cursor: cursor.slice(1) }).catch((error: unknown) => ({
			ok: false as const,
			error: String(error),
		}));
		expect(!atBound.ok && atBound.error).not.toContain("longer than any");
	});
});
