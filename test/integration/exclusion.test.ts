import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { connectClient } from "../helpers/http";
import { startService, type RunningService } from "../helpers/service";
import { callError, callOk, callTool } from "../helpers/tools";
import { makeVault, removeDir } from "../helpers/vault";

/**
 * Everything about the excluded notes that must never reach a client: their folder, their words,
 * headings and tags. ("Diary" is not here: the visible note links to it by name, and its own text is visible.)
 */
const SECRETS = ["Private", "zebracorn", "secrettag", "Hidden plan"];

describe("excluded folders are invisible through every tool", () => {
	let vault: string;
	let running: RunningService;
	let client: Client;

	beforeAll(async () => {
		vault = await makeVault({
			"Public.md": "# Public\n\nSee [[Diary]] and [[Shared]]. zebra #public\n\n- [ ] public task 📅 2030-01-01\n",
			"Shared.md": "Shared note #public/sub\n",
			"Private/Diary.md":
				"---\ntags: [secrettag]\n---\n# Hidden plan\n\nzebracorn [[Shared]] [[Public]] #secrettag/deep\n\n- [ ] zebracorn task 📅 2030-01-01\n",
			"Private/Nested/More.md": "zebracorn again [[Public]]\n",
			".hidden/Dot.md": "zebracorn dot",
			".obsidian/app.json": "{}",
		});
		running = await startService(vault, { settings: { excludedFolders: ["Private"] } });
		client = await connectClient(running.url, running.tokens.read ?? "");
	});
	afterAll(async () => {
		await client.close();
		await running.stop();
		await removeDir(vault);
	});

	const expectNoSecrets = (value: unknown) => {
		const text = JSON.stringify(value);
		for (const secret of SECRETS) expect(text).not.toContain(secret);
	};

	test.each([
		["get_vault_status", {}],
		["list_notes", { limit: 1000 }],
		["list_notes", { folder: "Private", limit: 1000 }],
		["search_notes", { query: "zebracorn" }],
		["search_notes", { query: "zebra", limit: 50 }],
		["search_notes", { query: "shared", limit: 50 }],
		["get_note_links", { path: "Public" }],
		["get_note_links", { path: "Shared" }],
		["list_tags", { limit: 2000 }],
		["find_notes_by_tag", { tag: "secrettag" }],
		["find_notes_by_tag", { tag: "public" }],
		["list_tasks", { status: "any", limit: 1000 }],
		["list_tasks", { status: "any", due_on: "2030-01-01" }],
		["get_graph_stats", {}],
	])("%s %j reveals nothing of the excluded notes", async (tool, args) => {
		const outcome = await callTool(client, tool, args);
		// find_notes_by_tag echoes the tag asked for; what it must not do is find anything.
		if (outcome.ok && tool === "find_notes_by_tag") delete outcome.value.tag;
		expectNoSecrets(outcome);
	});

	test.each([["Private/Diary.md"], ["Private/Diary"], ["Diary"], ["Private/Nested/More"], [".hidden/Dot.md"], [".obsidian/app.json"]])(
		"read_note %s answers like a missing note, without confirming it exists",
		async (path) => {
			const error = await callError(client, "read_note", { path });
			expectNoSecrets(error.replace(path, ""));
		},
	);

	test("counts leave the excluded notes out", async () => {
		expect(await callOk(client, "get_vault_status")).toMatchObject({ note_count: 2 });
		const stats = await callOk<{ notes: number; links: number }>(client, "get_graph_stats");
		expect(stats).toMatchObject({ notes: 2, links: 1 });
		const shared = await callOk<{ backlinks: Array<{ path: string }> }>(client, "get_note_links", { path: "Shared" });
		expect(shared.backlinks).toEqual([{ path: "Public.md", count: 1 }]);
		const publicLinks = await callOk<{ outgoing: Array<{ link: string; target: string | null }> }>(client, "get_note_links", { path: "Public" });
		// The link text is the visible note's own; the excluded target is not revealed.
		expect(publicLinks.outgoing).toContainEqual({ link: "Diary", target: null, line: 2 });
	});

	test("resources list and read leave the excluded notes out", async () => {
		const { resources } = await client.listResources();
		expectNoSecrets(resources);
		await expect(client.readResource({ uri: "vault-mcp://note/Private/Diary.md" })).rejects.toThrow(/No note/);
	});
});
