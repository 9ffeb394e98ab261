import { promises as fs } from "node:fs";
import * as nodePath from "node:path";
import type { Host } from "../../../src/host/Host";
import { ALL_TOOLS } from "../../../src/mcp/tools";
import { Workspace } from "../../double/obsidian";
import { openVault, type OpenVault } from "../../helpers/hostVault";
import { connectInMemory, type InMemoryConnection } from "../../helpers/inMemoryClient";
import { callError, callOk } from "../../helpers/tools";

/**
 * Every tool through the real SDK Client over the in-memory transport: what it answers when it
 * works, and the error the model gets when it cannot (with the vault left as it was).
 */
const GARDEN =
	"---\nstatus: active\n---\n# Garden\n\n## Tasks\n\n- [ ] Order seeds 📅 2026-12-05\n- [x] Dig bed ✅ 2026-11-30\n\nBack to [[Welcome]]. #project/garden\n";
const FILES = {
	"Welcome.md": "# Welcome\n\nHello #demo, see [[Garden]] and [[Nowhere]].\n",
	"Projects/Garden.md": GARDEN,
	"Outline.md": "- Week\n\t- Monday\n",
	"Templates/Meeting.md": "# {{title}}\n",
	"Private/Secret.md": "secret #project/secret\n",
	".obsidian/templates.json": JSON.stringify({ folder: "Templates" }),
	"Tasks.base": "filters: 'file.hasTag(\"project\")'\nviews:\n  - type: table\n    name: Open\n    order: [file.name, status]\n",
	"Private/Hidden.base": "views:\n  - type: table\n    name: Hidden\n",
	"Board.canvas": JSON.stringify({
		nodes: [
			{ id: "g", type: "group", x: 0, y: 0, width: 500, height: 300, label: "Week" },
			{ id: "o", type: "file", file: "Outline.md", x: 10, y: 10, width: 200, height: 100 },
			{ id: "s", type: "file", file: "Private/Secret.md", x: 250, y: 10, width: 200, height: 100 },
			{ id: "t", type: "text", text: "Plan", x: 10, y: 150, width: 100, height: 50 },
			{ id: "l", type: "link", url: "https://example.org/", x: 150, y: 150, width: 100, height: 50 },
		],
		edges: [
			{ id: "e1", fromNode: "t", toNode: "o" },
			{ id: "e2", fromNode: "t", toNode: "s" },
		],
	}),
};
const TESTED: string[] = [];

describe("each tool over the in-memory transport", () => {
	let vault: OpenVault;
	let connection: InMemoryConnection;
	const call = (name: string, args: Record<string, unknown> = {}) => {
		TESTED.push(name);
		return { ok: <T = Record<string, unknown>>() => callOk<T>(connection.client, name, args), error: () => callError(connection.client, name, args) };
	};
	const onDisk = (path: string) => fs.readFile(nodePath.join(vault.root, path), "utf8");

	afterAll(() => {
		// A new tool gets its tests here too.
		expect([...new Set(TESTED)].sort()).toEqual(ALL_TOOLS.map((tool) => tool.name).sort());
	});

	describe("read tools", () => {
		beforeAll(async () => {
			vault = await openVault(FILES);
			connection = await connectInMemory(vault.host, { scope: vault.scope("Private") });
		});
		afterAll(async () => {
			await connection.close();
			await vault.close();
		});

		test("get_vault_status: what the caller may do and how many notes it sees", async () => {
			expect(await call("get_vault_status").ok()).toMatchObject({
				server_version: "test",
				can_read: true,
				can_write: false,
				note_count: 4,
				search_index: { state: "ready" },
			});
		});

		test("list_notes: visible notes by path; a folder outside the vault is refused", async () => {
			expect(await call("list_notes", { folder: "Projects" }).ok()).toMatchObject({ notes: [{ path: "Projects/Garden.md" }] });
			expect(await call("list_notes", { folder: "../elsewhere" }).error()).toBe(
				"The path has an empty, '.' or '..' part; give the path from the vault root.",
			);
		});

		test("read_note: the text and its hash; an excluded note is not there", async () => {
			expect(await call("read_note", { path: "Garden" }).ok()).toMatchObject({
				path: "Projects/Garden.md",
				content: GARDEN,
				hash: expect.stringMatching(/^[0-9a-f]{64}$/),
			});
			expect(await call("read_note", { path: "Private/Secret" }).error()).toMatch(/^No note "Private\/Secret"\./);
		});

		test("search_notes: finds words in notes; a hidden folder filter is refused", async () => {
			const found = await call("search_notes", { query: "seeds" }).ok<{ results: Array<{ path: string }> }>();
			expect(found.results.map((result) => result.path)).toEqual(["Projects/Garden.md"]);
			expect(await call("search_notes", { query: "seeds", folder: ".obsidian" }).error()).toBe(
				"Hidden files and folders (names starting with '.') are not part of the vault.",
			);
		});

		test("list_tags: tags with counts, nested ones under their parents; a limit of 0 is refused", async () => {
			expect(await call("list_tags", { prefix: "project" }).ok()).toMatchObject({
				tags: [
					{ tag: "#project", count: 1 },
					{ tag: "#project/garden", count: 1 },
				],
			});
			expect(await call("list_tags", { limit: 0 }).error()).toMatch(/limit/);
		});

		test("find_notes_by_tag: notes with the tag or one nested under it; a cursor it did not make is refused", async () => {
			expect(await call("find_notes_by_tag", { tag: "#project" }).ok()).toMatchObject({ notes: ["Projects/Garden.md"] });
			expect(await call("find_notes_by_tag", { tag: "project", cursor: "made-up" }).error()).toBe(
				"The cursor is not valid. Call again without a cursor to start from the first page.",
			);
		});

		test("get_note_links: outgoing links, backlinks and links to nowhere; a missing note is an error", async () => {
			const links = await call("get_note_links", { path: "Welcome" }).ok<{
				outgoing: Array<{ link: string; target: string | null }>;
				backlinks: Array<{ path: string }>;
			}>();
			expect(links.outgoing).toEqual([
				expect.objectContaining({ link: "Garden", target: "Projects/Garden.md" }),
				expect.objectContaining({ link: "Nowhere", target: null }),
			]);
			expect(links.backlinks).toEqual([expect.objectContaining({ path: "Projects/Garden.md" })]);
			expect(await call("get_note_links", { path: "Nope" }).error()).toMatch(/^No note "Nope"\./);
		});

		test("get_graph_stats: counts over the visible notes only", async () => {
			expect(await call("get_graph_stats").ok()).toMatchObject({ notes: 4, links: 2, unresolved_links: 1, orphans: 2 });
		});

		test("list_tasks: open tasks with their lines; a note that is not there is an error", async () => {
			expect(await call("list_tasks", { status: "open" }).ok()).toMatchObject({
				tasks: [{ path: "Projects/Garden.md", line: 7, text: "Order seeds 📅 2026-12-05", due: "2026-12-05" }],
			});
			expect(await call("list_tasks", { path: "Nope" }).error()).toMatch(/^No note "Nope"\./);
		});

		test("list_templates: the notes in the Templates folder", async () => {
			expect(await call("list_templates").ok()).toEqual({ folder: "Templates", templates: [{ path: "Templates/Meeting.md" }], total: 1 });
		});

		test("list_bases: the visible bases with their views", async () => {
			expect(await call("list_bases").ok()).toEqual({ bases: [{ path: "Tasks.base", views: ["Open"] }], total: 1 });
		});

		test("query_base: a view's rows, never an excluded note; an excluded base is not there", async () => {
			expect(await call("query_base", { path: "Tasks" }).ok()).toMatchObject({
				view: "Open",
				rows: [{ path: "Projects/Garden.md", values: { "file.name": "Garden.md", status: "active" } }],
				total: 1,
				truncated: false,
			});
			expect(await call("query_base", { path: "Private/Hidden" }).error()).toBe('No base "Private/Hidden.base". Call list_bases to find the right path.');
		});

		test("read_canvas: nodes and edges, the card of an excluded note dropped with its edge", async () => {
			const canvas = await call("read_canvas", { path: "Board" }).ok<{ nodes: Array<{ id: string }>; edges: Array<{ id: string }> }>();
			expect(canvas.nodes.map((node) => node.id)).toEqual(["g", "o", "t", "l"]);
			expect(canvas.edges).toEqual([{ id: "e1", fromNode: "t", toNode: "o" }]);
			expect(await call("read_canvas", { path: "Nowhere" }).error()).toBe('No canvas "Nowhere.canvas". Call list_notes to find the right path.');
		});
	});

	describe("tools of Obsidian's window", () => {
		let workspace: Workspace;
		beforeAll(async () => {
			vault = await openVault(FILES);
			workspace = new Workspace(vault.host);
			const { vault: hostVault, metadataCache, fileManager } = vault.host;
			// The double's workspace hands out NodeHost's files, which stand in for Obsidian's TFile.
			const inObsidian: Host = {
				vault: hostVault,
				metadataCache,
				fileManager,
				workspace: workspace as unknown as Host["workspace"],
				hiddenLinks: () => [],
			};
			connection = await connectInMemory(inObsidian, { scope: vault.scope("Private") });
		});
		afterAll(async () => {
			await connection.close();
			await vault.close();
		});

		test("open_note: opens the note at the heading; a heading it lacks opens nothing", async () => {
			expect(await call("open_note", { path: "Garden", heading: "tasks" }).ok()).toEqual({ path: "Projects/Garden.md", heading: "Tasks" });
			expect(workspace.tabs).toEqual([{ path: "Projects/Garden.md", subpath: "#Tasks" }]);
			expect(await call("open_note", { path: "Garden", heading: "Nope" }).error()).toMatch(/^No heading "Nope" in "Projects\/Garden.md"/);
			expect(workspace.tabs).toHaveLength(1);
		});

		test("get_active_note: the focused note; none focused is an error", async () => {
			expect(await call("get_active_note").ok()).toEqual({ path: "Projects/Garden.md" });
			workspace.focus(-1);
			expect(await call("get_active_note").error()).toMatch(/no note/i);
		});
	});

	describe("write tools", () => {
		beforeEach(async () => {
			vault = await openVault({ ...FILES, "Broken.md": "---\nstatus: [x\n---\nBody\n" });
			connection = await connectInMemory(vault.host, { canWrite: true, scope: vault.scope("Private") });
		});
		afterEach(async () => {
			await connection.close();
			await vault.close();
		});

		test("append_to_note: adds under the heading; a heading the note lacks writes nothing", async () => {
			expect(await call("append_to_note", { path: "Welcome", content: "Added." }).ok()).toMatchObject({ path: "Welcome.md" });
			expect(await onDisk("Welcome.md")).toBe("# Welcome\n\nHello #demo, see [[Garden]] and [[Nowhere]].\n\nAdded.\n");
			expect(await call("append_to_note", { path: "Garden", heading: "Nope", content: "x" }).error()).toMatch(/^No heading "Nope" in this note\./);
			expect(await onDisk("Projects/Garden.md")).toBe(GARDEN);
		});

		test("insert_under_bullet: a child of the bullet; a note that is not an outline is refused", async () => {
			expect(await call("insert_under_bullet", { path: "Outline", bullet: "Week", content: "Tuesday" }).ok()).toMatchObject({ path: "Outline.md" });
			expect(await onDisk("Outline.md")).toBe("- Week\n\t- Monday\n\t- Tuesday\n");
			expect(await call("insert_under_bullet", { path: "Welcome", bullet: "Hello", content: "x" }).error()).toMatch(/is not an outline/);
		});

		test("create_note: a new note from a template; an existing path is not overwritten unasked", async () => {
			expect(await call("create_note", { path: "Inbox/Standup.md", content: "Agreed.", template: "Meeting" }).ok()).toMatchObject({
				path: "Inbox/Standup.md",
			});
			expect(await onDisk("Inbox/Standup.md")).toBe("# Standup\n\nAgreed.\n");
			expect(await call("create_note", { path: "Welcome.md", content: "replaced" }).error()).toMatch(/already exists/);
			expect(await onDisk("Welcome.md")).toBe(FILES["Welcome.md"]);
		});

		test("add_task: a task line with its due date; a due date that is not a date is refused", async () => {
			expect(await call("add_task", { path: "Garden", heading: "Tasks", text: "Water", due: "2026-12-06" }).ok()).toMatchObject({
				path: "Projects/Garden.md",
			});
			// The Tasks section runs to the end of the note: the task goes at its end, a new list after the paragraph.
			expect(await onDisk("Projects/Garden.md")).toBe(`${GARDEN}\n- [ ] Water 📅 2026-12-06\n`);
			expect(await call("add_task", { path: "Welcome", text: "x", due: "tomorrow" }).error()).toMatch(/due is YYYY-MM-DD/);
		});

		test("complete_task: done with a done date; a line that is not the task changes nothing", async () => {
			expect(await call("complete_task", { path: "Garden", line: 7, text: "Order seeds 📅 2026-12-05", status: "x" }).ok()).toMatchObject({
				path: "Projects/Garden.md",
				line: 7,
			});
			expect(await onDisk("Projects/Garden.md")).toMatch(/- \[x\] Order seeds 📅 2026-12-05 ✅ \d{4}-\d{2}-\d{2}\n/);
			const before = await onDisk("Projects/Garden.md");
			expect(await call("complete_task", { path: "Garden", line: 8, text: "Order seeds 📅 2026-12-05", status: "x" }).error()).toMatch(
				/^Line 8 is not the task/,
			);
			expect(await onDisk("Projects/Garden.md")).toBe(before);
		});

		test("set_property: sets a frontmatter property; frontmatter that is not YAML is left alone", async () => {
			expect(await call("set_property", { path: "Garden", name: "status", value: "paused" }).ok()).toMatchObject({ path: "Projects/Garden.md" });
			expect(await onDisk("Projects/Garden.md")).toBe(GARDEN.replace("status: active", "status: paused"));
			expect(await call("set_property", { path: "Broken", name: "status", value: "done" }).error()).toMatch(/not valid YAML/);
			expect(await onDisk("Broken.md")).toBe("---\nstatus: [x\n---\nBody\n");
		});

		test("rename_note: moves the note and the links to it follow; an existing target is refused", async () => {
			expect(await call("rename_note", { path: "Garden", new_path: "Archive/Garden plan.md" }).ok()).toEqual({
				path: "Projects/Garden.md",
				new_path: "Archive/Garden plan.md",
				notes_updated: 1,
				links_updated: 1,
			});
			expect(await onDisk("Archive/Garden plan.md")).toBe(GARDEN);
			expect(await onDisk("Welcome.md")).toBe("# Welcome\n\nHello #demo, see [[Garden plan]] and [[Nowhere]].\n");
			expect(await call("rename_note", { path: "Welcome", new_path: "Outline.md" }).error()).toMatch(/^A note already exists at "Outline\.md"/);
			expect(await onDisk("Welcome.md")).toBe("# Welcome\n\nHello #demo, see [[Garden plan]] and [[Nowhere]].\n");
		});
	});
});
