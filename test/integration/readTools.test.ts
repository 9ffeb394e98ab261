import { readFileSync } from "node:fs";
import * as nodePath from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { LinkMap } from "../../src/host/Host";
import { connectClient } from "../helpers/http";
import { startService, type RunningService } from "../helpers/service";
import { callError, callOk } from "../helpers/tools";
import { OBSIDIAN_CACHE_DIR, TASKS_DEMO_VAULT, copyVault, removeDir, restoreLeftOutAttachments } from "../helpers/vault";

const capturedResolved = JSON.parse(readFileSync(nodePath.join(OBSIDIAN_CACHE_DIR, "metadataCache/resolvedLinks.json"), "utf8")) as LinkMap;

interface Task {
	path: string;
	line: number;
	text: string;
	status: string;
	status_char: string;
	due?: string;
	scheduled?: string;
	start?: string;
	done?: string;
}

describe("read tools over a copy of tasks-demo, through a real HTTP client", () => {
	let vault: string;
	let running: RunningService;
	let client: Client;

	beforeAll(async () => {
		vault = await copyVault(TASKS_DEMO_VAULT);
		await restoreLeftOutAttachments(vault);
		// Hundreds of calls in a few seconds: well past the default per-minute rate limit.
		running = await startService(vault, { settings: { rateLimitPerMinute: 100_000 } });
		client = await connectClient(running.url, running.tokens.read ?? "");
	});
	afterAll(async () => {
		await client.close();
		await running.stop();
		await removeDir(vault);
	});

	test("get_note_links backlinks for every note equal those derived from Obsidian's resolvedLinks", async () => {
		const notes = Object.keys(capturedResolved).filter((path) => path.endsWith(".md"));
		expect(notes.length).toBe(201);
		for (const path of notes) {
			const expected = Object.entries(capturedResolved)
				// Obsidian's backlinks pane lists canvases that show or link to the note, as well as notes.
				.filter(([source, targets]) => path in targets && (source.endsWith(".md") || source.endsWith(".canvas")))
				.map(([source, targets]) => ({ path: source, count: targets[path] }))
				.sort((a, b) => (b.count ?? 0) - (a.count ?? 0) || a.path.localeCompare(b.path));
			const links = await callOk<{ backlinks: unknown[] }>(client, "get_note_links", { path });
			expect({ path, backlinks: links.backlinks }).toEqual({ path, backlinks: expected });
		}
		// 201 calls in turn over HTTP: past jest's 30 s beside a second suite and two busy loops (load 25-45
		// on 2 cores), every answer right.
	}, 120_000);

	test("get_note_links lists outgoing links with their targets and lines, and unresolved ones", async () => {
		const links = await callOk<{ outgoing: Array<{ link: string; target: string | null; line: number | null }>; unresolved: string[] }>(
			client,
			"get_note_links",
			{ path: "Test Data/link_in_task_wikilink.md" },
		);
		expect(links.outgoing[0]).toEqual({ link: "link_in_task_wikilink", target: "Test Data/link_in_task_wikilink.md", line: 4 });
		expect(links.outgoing.find((entry) => entry.link === "pa#th/path/link_in_task_wikilink")?.target).toBeNull();
		expect(links.unresolved.sort()).toEqual(["pa", "|", "|alias"]);
		const yaml = await callOk<{ outgoing: Array<{ link: string; target: string | null; line: number | null }> }>(client, "get_note_links", {
			path: "Test Data/link_in_yaml.md",
		});
		expect(yaml.outgoing).toEqual([{ link: "yaml_tags_is_empty", target: "Test Data/yaml_tags_is_empty.md", line: null }]);
	});

	test.each([
		["a vault path", "Test Data/multiple_headings.md", "Test Data/multiple_headings.md"],
		["a path without .md", "Test Data/multiple_headings", "Test Data/multiple_headings.md"],
		["link text by name", "multiple_headings", "Test Data/multiple_headings.md"],
		["different case", "MULTIPLE_HEADINGS", "Test Data/multiple_headings.md"],
		["a partial path", "Testing File Formats/Dataview Format - Tasks to Parse", "Manual Testing/Testing File Formats/Dataview Format - Tasks to Parse.md"],
	])("read_note resolves %s", async (_label, input, expected) => {
		const note = await callOk<{ path: string; content: string; hash: string; truncated: boolean; size: number }>(client, "read_note", { path: input });
		expect(note.path).toBe(expected);
		const onDisk = readFileSync(nodePath.join(vault, expected), "utf8");
		expect(note.content).toBe(onDisk);
		expect(note.size).toBe(Buffer.byteLength(onDisk));
		expect(note.truncated).toBe(false);
		expect(note.hash).toMatch(/^[0-9a-f]{64}$/);
	});

	test.each([
		[
			"a heading: its section, to the next heading of the same or a higher level",
			"multiple_headings#Level 2 heading",
			"Test Data/multiple_headings.md",
			"Level 2 heading",
			"## Level 2 heading\n",
			"## Level 2 heading",
		],
		["a block: that block only", "all_link_types#^block", "Test Data/all_link_types.md", "^block", "block ^block", "block ^block"],
	])("read_note with link text naming %s", async (_label, input, expected, section, starts, firstLine) => {
		const note = await callOk<{ path: string; content: string; section: string; size: number }>(client, "read_note", { path: input });
		const onDisk = readFileSync(nodePath.join(vault, expected), "utf8");
		expect({ path: note.path, section: note.section, size: note.size }).toEqual({ path: expected, section, size: Buffer.byteLength(onDisk) });
		expect(note.content.startsWith(starts)).toBe(true);
		expect(note.content.split("\n")[0]).toBe(firstLine);
		expect(onDisk).toContain(note.content);
		expect(note.content.length).toBeLessThan(onDisk.length);
	});

	test("read_note returns frontmatter and tags as Obsidian's cache has them", async () => {
		const note = await callOk<{ frontmatter: Record<string, unknown>; tags: string[] }>(client, "read_note", {
			path: "Test Data/docs_sample_for_task_properties_reference.md",
		});
		expect(note.frontmatter).toMatchObject({ sample_number_property: 246, sample_date_property: "2024-07-21", tags: ["tag-from-file-properties"] });
		expect(note.tags).toEqual(["#tag-from-file-properties", "#tag-from-file-body", "#task", "#tag-from-task-line"]);
	});

	test("read_note on a missing note says so and suggests the closest paths", async () => {
		const error = await callError(client, "read_note", { path: "multiple_heading" });
		expect(error).toContain('No note "multiple_heading"');
		expect(error).toContain("Test Data/multiple_headings.md");
		expect(error).toContain("list_notes");
	});

	test("list_tasks reads statuses from the metadata cache", async () => {
		const all = await callOk<{ tasks: Task[]; total: number }>(client, "list_tasks", { status: "any", path: "Test Data/list_statuses.md", limit: 1000 });
		const byChar = new Map(all.tasks.map((task) => [task.status_char, task.status]));
		expect(byChar.get(" ")).toBe("open");
		expect(byChar.get("x")).toBe("done");
		expect(byChar.get("-")).toBe("cancelled");
		expect(byChar.get("/")).toBe("other");
		const open = await callOk<{ tasks: Task[] }>(client, "list_tasks", { status: "open", path: "Test Data/list_statuses.md" });
		expect(open.tasks.every((task) => task.status_char === " ")).toBe(true);
	});

	test("list_tasks reads dates in the Tasks emoji format and the Dataview format alike", async () => {
		const { tasks } = await callOk<{ tasks: Task[] }>(client, "list_tasks", { status: "any", path: "Formats/All Formats Parsing.md" });
		expect(tasks.map(({ due, scheduled, start, status }) => ({ due, scheduled, start, status }))).toEqual([
			{ due: "2023-04-07", scheduled: "2023-04-06", start: "2023-04-05", status: "other" },
			{ due: "2023-04-07", scheduled: "2023-04-06", start: "2023-04-05", status: "other" },
		]);
		const dataview = await callOk<{ tasks: Task[] }>(client, "list_tasks", { status: "done", path: "Formats/Dataview Format.md" });
		expect(dataview.tasks[0]).toMatchObject({ text: "#task Has a done date  [completion:: 2023-04-17]", done: "2023-04-17", status: "done" });
	});

	test("list_tasks due filters: on, before and after (exclusive), across the vault", async () => {
		const { tasks: all } = await callOk<{ tasks: Task[]; total: number }>(client, "list_tasks", { status: "any", limit: 1000 });
		const withDue = all.filter((task) => task.due !== undefined);
		expect(withDue.length).toBeGreaterThan(20);
		const on = await callOk<{ tasks: Task[]; total: number }>(client, "list_tasks", { status: "any", due_on: "2023-04-07", limit: 1000 });
		expect(on.total).toBe(withDue.filter((task) => task.due === "2023-04-07").length);
		expect(on.total).toBeGreaterThanOrEqual(2);
		const before = await callOk<{ tasks: Task[]; total: number }>(client, "list_tasks", { status: "any", due_before: "2023-01-01", limit: 1000 });
		expect(before.tasks.every((task) => (task.due ?? "") < "2023-01-01")).toBe(true);
		expect(before.total).toBe(withDue.filter((task) => (task.due ?? "") < "2023-01-01").length);
		const after = await callOk<{ tasks: Task[]; total: number }>(client, "list_tasks", { status: "any", due_after: "2023-01-01", limit: 1000 });
		expect(before.total + after.total + withDue.filter((task) => task.due === "2023-01-01").length).toBe(withDue.length);
	});

	test("list_tasks refuses a bad date and an unknown status with a clear error", async () => {
		expect(await callError(client, "list_tasks", { due_on: "2023-02-30x" })).toMatch(/YYYY-MM-DD/);
		expect(await callError(client, "list_tasks", { due_on: "2023-13-45" })).toMatch(/not a real date/);
		expect(await callError(client, "list_tasks", { status: "pending" })).toMatch(/open|done|cancelled/);
	});

	test("list_notes pages through every note exactly once", async () => {
		const seen: string[] = [];
		let cursor: string | undefined;
		do {
			const pageResult: { notes: Array<{ path: string }>; total: number; next_cursor?: string } = await callOk(client, "list_notes", {
				limit: 50,
				...(cursor ? { cursor } : {}),
			});
			seen.push(...pageResult.notes.map((note) => note.path));
			expect(pageResult.total).toBe(201);
			cursor = pageResult.next_cursor;
		} while (cursor);
		expect(seen).toHaveLength(201);
		expect(new Set(seen).size).toBe(201);
		expect(await callError(client, "list_notes", { cursor: "garbage" })).toContain("cursor is not valid");
	});

	test("list_notes in one folder, recursive or not", async () => {
		const flat = await callOk<{ notes: Array<{ path: string }> }>(client, "list_notes", { folder: "Manual Testing", recursive: false, limit: 1000 });
		expect(flat.notes.every((note) => /^Manual Testing\/[^/]+$/.test(note.path))).toBe(true);
		const deep = await callOk<{ notes: Array<{ path: string }> }>(client, "list_notes", { folder: "Manual Testing", limit: 1000 });
		expect(deep.notes.length).toBeGreaterThan(flat.notes.length);
	});

	test("list_tags counts notes per tag, nested tags counted for their parents; find_notes_by_tag includes nested tags", async () => {
		const { tags } = await callOk<{ tags: Array<{ tag: string; count: number }> }>(client, "list_tags", { limit: 2000 });
		const count = (tag: string) => tags.find((entry) => entry.tag.toLowerCase() === tag)?.count ?? 0;
		expect(count("#task")).toBeGreaterThan(50);
		const sampleParent = tags.find((entry) => entry.tag.includes("/"));
		expect(sampleParent).toBeDefined();
		const parent = (sampleParent?.tag ?? "").split("/")[0] ?? "";
		expect(count(parent.toLowerCase())).toBeGreaterThanOrEqual(sampleParent?.count ?? 0);
		const byParent = await callOk<{ notes: string[]; total: number }>(client, "find_notes_by_tag", { tag: parent.replace("#", ""), limit: 1000 });
		const byChild = await callOk<{ notes: string[] }>(client, "find_notes_by_tag", { tag: sampleParent?.tag ?? "", limit: 1000 });
		expect(byChild.notes.every((path) => byParent.notes.includes(path))).toBe(true);
		expect(byParent.total).toBe(count(parent.toLowerCase()));
	});

	test("search_notes: every word must match, phrases, exclusions, snippets marked", async () => {
		const both = await callOk<{ total: number; results: Array<{ path: string; snippets: string[] }> }>(client, "search_notes", {
			query: "dataview format",
			limit: 50,
		});
		expect(both.total).toBeGreaterThan(0);
		const phrase = await callOk<{ total: number; results: Array<{ path: string; snippets: string[] }> }>(client, "search_notes", {
			query: '"dataview format"',
			limit: 50,
		});
		expect(phrase.total).toBeLessThanOrEqual(both.total);
		expect(phrase.results[0]?.snippets.join(" ")).toMatch(/«dataview format»/i);
		const excluded = await callOk<{ total: number }>(client, "search_notes", { query: "dataview -tasks", limit: 50 });
		const plain = await callOk<{ total: number }>(client, "search_notes", { query: "dataview", limit: 50 });
		expect(excluded.total).toBeLessThan(plain.total);
		expect(await callError(client, "search_notes", { query: "-only" })).toContain("no words");
	});

	test("get_graph_stats and get_vault_status describe the vault", async () => {
		const stats = await callOk<{ notes: number; links: number; top_linked: unknown[] }>(client, "get_graph_stats");
		expect(stats.notes).toBe(201);
		expect(stats.links).toBeGreaterThan(0);
		expect(stats.top_linked).toHaveLength(10);
		const status = await callOk<{ note_count: number }>(client, "get_vault_status");
		expect(status.note_count).toBe(201);
	});

	test("note resources: a template to read any note, a list of the 50 most recent", async () => {
		const { resources } = await client.listResources();
		expect(resources).toHaveLength(50);
		const { resourceTemplates } = await client.listResourceTemplates();
		expect(resourceTemplates.map((template) => template.uriTemplate)).toEqual(["vault-mcp://note/{+path}"]);
		const read = await client.readResource({ uri: "vault-mcp://note/Test%20Data/multiple_headings.md" });
		expect((read.contents[0] as { text: string }).text).toBe(readFileSync(nodePath.join(vault, "Test Data/multiple_headings.md"), "utf8"));
		await expect(client.readResource({ uri: "vault-mcp://note/..%2F..%2Fetc%2Fpasswd" })).rejects.toThrow();
	});
});
