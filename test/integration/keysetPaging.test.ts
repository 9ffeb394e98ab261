import { rm } from "node:fs/promises";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { connectClient } from "../helpers/http";
import { startService, type RunningService } from "../helpers/service";
import { callError, callOk } from "../helpers/tools";
import { makeVault, removeDir } from "../helpers/vault";

/**
 * Paging through while another client changes the vault: notes created, deleted and renamed before
 * and after the cursor's place between two pages. Every note there throughout is listed exactly
 * once. With cursors that counted items, a page after two notes before it went and one came skipped one.
 */
const NOTES = 30;
const LIMIT = 5;
const name = (folder: string, index: number) => `${folder}/${String(index).padStart(2, "0")}.md`;
const tagOf = (index: number | string) => `#g${typeof index === "number" ? String(index).padStart(2, "0") : index}`;

/** How each paged tool is asked, what it lists, and what a note of its folder holds to be listed. */
interface PagedTool {
	folder: string;
	content: string;
	call: (cursor: string | undefined, limit: number) => { tool: string; args: Record<string, unknown> };
	listed: (answer: Record<string, unknown>) => string[];
}

const TOOLS: Record<string, PagedTool> = {
	list_notes: {
		folder: "L",
		content: "plain\n",
		call: (cursor, limit) => ({ tool: "list_notes", args: { folder: "L", limit, ...(cursor ? { cursor } : {}) } }),
		listed: (answer) => (answer.notes as Array<{ path: string }>).map((note) => note.path),
	},
	find_notes_by_tag: {
		folder: "T",
		content: "#paged\n",
		call: (cursor, limit) => ({ tool: "find_notes_by_tag", args: { tag: "paged", limit, ...(cursor ? { cursor } : {}) } }),
		listed: (answer) => answer.notes as string[],
	},
	get_note_links: {
		folder: "B",
		content: "Back to [[Hub]].\n",
		call: (cursor, limit) => ({ tool: "get_note_links", args: { path: "Hub.md", limit, ...(cursor ? { cursor } : {}) } }),
		listed: (answer) => (answer.backlinks as Array<{ path: string }>).map((link) => link.path),
	},
	list_tasks: {
		folder: "K",
		content: "- [ ] a task\n",
		call: (cursor, limit) => ({ tool: "list_tasks", args: { folder: "K", limit, ...(cursor ? { cursor } : {}) } }),
		listed: (answer) => (answer.tasks as Array<{ path: string }>).map((task) => task.path),
	},
	query_base: {
		folder: "Q",
		content: "a row\n",
		call: (cursor, limit) => ({ tool: "query_base", args: { path: "Rows.base", limit, ...(cursor ? { cursor } : {}) } }),
		listed: (answer) => (answer.rows as Array<{ path: string }>).map((row) => row.path),
	},
};

describe("paged tools while another client creates, deletes and renames notes between pages", () => {
	let vault: string;
	let running: RunningService;
	let reader: Client;
	let writer: Client;

	beforeAll(async () => {
		const files: Record<string, string> = {
			"Hub.md": "# Hub\n",
			"Rows.base":
				'filters:\n  and:\n    - file.inFolder("Q")\nviews:\n  - type: table\n    name: Rows\n    order: [file.name]\n  - type: table\n    name: Backwards\n    order: [file.name]\n    sort:\n      - property: file.name\n        direction: DESC\n',
			"Other.base": 'filters:\n  and:\n    - file.inFolder("Q")\nviews:\n  - type: table\n    name: Rows\n    order: [file.name]\n',
		};
		for (const { folder, content } of Object.values(TOOLS)) for (let index = 0; index < NOTES; index++) files[name(folder, index)] = content;
		// Each a tag of its own, all used once: list_tags orders them by spelling.
		for (let index = 0; index < NOTES; index++) files[name("G", index)] = `${tagOf(index)}\n`;
		vault = await makeVault(files);
		running = await startService(vault, {
			// Deletes are another program's, on disk: the server follows them as `serve` does.
			host: { watch: true },
			levels: ["read", "write"],
			settings: { writeEnabled: true, writeDisclosureAccepted: true, rateLimitPerMinute: 100_000 },
		});
		reader = await connectClient(running.url, running.tokens.read ?? "");
		writer = await connectClient(running.url, running.tokens.write ?? "");
	}, 60_000);
	afterAll(async () => {
		await reader.close();
		await writer.close();
		await running.stop();
		await removeDir(vault);
	});

	async function page(paged: PagedTool, cursor: string | undefined, limit: number): Promise<{ items: string[]; next?: string }> {
		const { tool, args } = paged.call(cursor, limit);
		const answer = await callOk<Record<string, unknown>>(reader, tool, args);
		return { items: paged.listed(answer), ...(typeof answer.next_cursor === "string" ? { next: answer.next_cursor } : {}) };
	}

	/** Waits until one page of everything lists exactly `expected` (the server has seen every change). */
	async function settled(paged: PagedTool, expected: readonly string[]): Promise<void> {
		const want = [...expected].sort();
		for (let tries = 0; tries < 200; tries++) {
			const { items } = await page(paged, undefined, 1000);
			if (JSON.stringify([...items].sort()) === JSON.stringify(want)) return;
			await new Promise((resolve) => setTimeout(resolve, 50));
		}
		throw new Error(`${paged.folder}: the server never listed the changed notes: ${JSON.stringify((await page(paged, undefined, 1000)).items)}`);
	}

	test.each(Object.keys(TOOLS))("%s: every note there throughout is listed exactly once", async (toolName) => {
		const paged = TOOLS[toolName] as PagedTool;
		const { folder, content } = paged;
		const first = await page(paged, undefined, LIMIT);
		expect(first.items).toEqual(Array.from({ length: LIMIT }, (_, index) => name(folder, index)));
		expect(first.next).toBeDefined();

		// Before the cursor: one note created, one deleted, one renamed to after it; after it: one created, one deleted.
		await callOk(writer, "create_note", { path: `${folder}/00a.md`, content });
		await rm(join(vault, name(folder, 1)));
		await callOk(writer, "rename_note", { path: name(folder, 2), new_path: `${folder}/98.md` });
		await callOk(writer, "create_note", { path: `${folder}/07a.md`, content });
		await rm(join(vault, name(folder, 10)));
		const gone = new Set([name(folder, 1), name(folder, 2), name(folder, 10)]);
		const throughout = Array.from({ length: NOTES }, (_, index) => name(folder, index)).filter((path) => !gone.has(path));
		await settled(paged, [...throughout, `${folder}/00a.md`, `${folder}/07a.md`, `${folder}/98.md`]);

		const seen = [...first.items];
		let cursor = first.next;
		while (cursor !== undefined && seen.length < 10 * NOTES) {
			const next = await page(paged, cursor, LIMIT);
			seen.push(...next.items);
			cursor = next.next;
		}
		for (const path of throughout) expect({ path, times: seen.filter((item) => item === path).length }).toEqual({ path, times: 1 });
		// The new note after the cursor is reached too, and nothing is listed twice.
		expect(seen).toContain(`${folder}/07a.md`);
		expect(new Set(seen).size).toBe(seen.length);
	});

	test.each(Object.keys(TOOLS))("%s: a cursor of another tool, or an old offset cursor, is a clear error", async (toolName) => {
		const paged = TOOLS[toolName] as PagedTool;
		const other = toolName === "list_notes" ? TOOLS.find_notes_by_tag : TOOLS.list_notes;
		const { next } = await page(other as PagedTool, undefined, 1);
		const { tool, args } = paged.call(next, 1);
		expect(await callError(reader, tool, args)).toContain("made by another tool");
		const old = paged.call(Buffer.from(JSON.stringify({ offset: 5 })).toString("base64url"), 1);
		expect(await callError(reader, old.tool, old.args)).toContain("older version of this server");
	});

	test("query_base: a cursor of one view or base passed with another is a clear error, not a page of another order; the last page says no rows follow", async () => {
		const first = await callOk(reader, "query_base", { path: "Rows.base", limit: 2 });
		const cursor = first.next_cursor as string;
		expect(first.truncated).toBe(true);
		expect(await callError(reader, "query_base", { path: "Rows.base", view: "Backwards", limit: 2, cursor })).toContain("made for another file or view");
		expect(await callError(reader, "query_base", { path: "Other.base", limit: 2, cursor })).toContain("made for another file or view");
		// The same view named, or left to be the first: the cursor is the view's.
		const named = await callOk(reader, "query_base", { path: "Rows.base", view: "Rows", limit: 2, cursor });
		expect(named.rows).toEqual((await callOk(reader, "query_base", { path: "Rows.base", limit: 2, cursor })).rows);
		let last = named;
		while (typeof last.next_cursor === "string") last = await callOk(reader, "query_base", { path: "Rows.base", limit: 1000, cursor: last.next_cursor });
		expect(last.truncated).toBe(false);
	});

	test("list_tags: every tag there throughout is listed exactly once while notes carrying others are created and deleted", async () => {
		type Tags = { tags: Array<{ tag: string; count: number }>; next_cursor?: string };
		const page = async (cursor: string | undefined, limit: number) =>
			callOk<Tags>(reader, "list_tags", { prefix: "g", limit, ...(cursor ? { cursor } : {}) });
		const first = await page(undefined, LIMIT);
		expect(first.tags.map((entry) => entry.tag)).toEqual(Array.from({ length: LIMIT }, (_, index) => tagOf(index)));
		expect(first.next_cursor).toBeDefined();

		// Before the cursor: a tag comes and one goes; after it: the same.
		await callOk(writer, "create_note", { path: "G/new-before.md", content: `${tagOf("00a")}\n` });
		await rm(join(vault, name("G", 1)));
		await callOk(writer, "create_note", { path: "G/new-after.md", content: `${tagOf("07a")}\n` });
		await rm(join(vault, name("G", 10)));
		const throughout = Array.from({ length: NOTES }, (_, index) => index)
			.filter((index) => index !== 1 && index !== 10)
			.map((index) => tagOf(index));
		const want = JSON.stringify([...throughout, tagOf("00a"), tagOf("07a")].sort());
		for (let tries = 0; JSON.stringify((await page(undefined, 1000)).tags.map((entry) => entry.tag).sort()) !== want; tries++) {
			expect(tries).toBeLessThan(200);
			await new Promise((resolve) => setTimeout(resolve, 50));
		}

		const seen = first.tags.map((entry) => entry.tag);
		for (let cursor = first.next_cursor; cursor !== undefined && seen.length < 10 * NOTES;) {
			const next = await page(cursor, LIMIT);
			seen.push(...next.tags.map((entry) => entry.tag));
			cursor = next.next_cursor;
		}
		for (const tag of throughout) expect({ tag, times: seen.filter((item) => item === tag).length }).toEqual({ tag, times: 1 });
		expect(seen).toContain(tagOf("07a"));
		expect(new Set(seen).size).toBe(seen.length);
	});
});
