import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { setTokenFolders } from "../../src/auth/tokenList";
import { connectClient } from "../helpers/http";
import { startService } from "../helpers/service";
import { callTool } from "../helpers/tools";
import { makeVault, removeDir } from "../helpers/vault";

/**
 * The vault-wide answers kept between calls (the tag index and its answers, the kept listings, the
 * search index, the completion paths, the graph's kept link counts) are warmed with everything
 * visible, then a folder is excluded, then the token limited to one folder, then both undone, three
 * times: every answer after each change names nothing the change hid.
 */
const CALLS: Array<[string, Record<string, unknown>]> = [
	["list_notes", { limit: 500 }],
	["list_notes", { limit: 500, sort: "modified" }],
	["list_tags", { limit: 500 }],
	["find_notes_by_tag", { tag: "shared" }],
	["find_notes_by_tag", { tag: "shared", limit: 1 }],
	["search_notes", { query: "zebra" }],
	["search_notes", { query: "shared" }],
	["search_notes", { query: "zebra", tag: "shared" }],
	["list_tasks", { status: "any", limit: 500 }],
	["get_graph_stats", {}],
	["get_vault_status", {}],
	["get_note_links", { path: "Public" }],
	["read_canvas", { path: "Board" }],
	["list_bases", {}],
];

async function everything(client: Client): Promise<string> {
	const parts: string[] = [];
	for (const [tool, args] of CALLS) parts.push(JSON.stringify(await callTool(client, tool, args)));
	parts.push(JSON.stringify(await client.listResources()));
	parts.push(
		JSON.stringify(
			await client
				.complete({ ref: { type: "ref/resource", uri: "vault-mcp://note/{+path}" }, argument: { name: "path", value: "" } })
				.catch((error: unknown) => String(error)),
		),
	);
	return parts.join("\n");
}

describe("answers kept between calls, after a change of settings", () => {
	test("a folder excluded, then the token limited to another, each after every kept answer was warmed: nothing hidden is named", async () => {
		const files: Record<string, string> = {
			"Public.md": "# Public\n\nzebra [[Work/Plan]] #shared\n- [ ] public task\n",
			"Work/Plan.md": "zebra workmark #shared/work\n- [ ] workmark task\n",
			"Private/Diary.md": "zebra hushmark #shared/hushmark\n- [ ] hushmark task\n",
			"Board.canvas": JSON.stringify({
				nodes: [
					{ id: "a", type: "file", file: "Private/Diary.md", x: 0, y: 0, width: 1, height: 1 },
					{ id: "b", type: "file", file: "Work/Plan.md", x: 0, y: 0, width: 1, height: 1 },
				],
				edges: [],
			}),
			"Private/Hidden.base": "views:\n  - type: table\n",
			"Work/W.base": "views:\n  - type: table\n",
		};
		for (let i = 0; i < 30; i++) files[`Private/N${i}.md`] = `hushmark${i} zebra #shared/hush${i}\n`;
		const vault = await makeVault(files);
		const running = await startService(vault, { settings: { rateLimitPerMinute: 100000 } });
		const client = await connectClient(running.url, running.tokens.read ?? "");
		try {
			for (let round = 0; round < 3; round++) {
				const warm = await everything(client);
				expect(warm).toContain("hushmark");
				await running.service.apply({ ...running.settings, excludedFolders: ["Private"] });
				const after = await everything(client);
				expect(after.match(/hush[a-z0-9]*|Private[^"]*|Diary|Hidden\.base/g) ?? []).toEqual([]);
				const limited = setTokenFolders(running.settings, "read", ["Work"]);
				if ("error" in limited) throw new Error(limited.error);
				await running.service.apply(limited.settings);
				const narrowed = await everything(client);
				// A path asked for is echoed in "No note …": not something the vault told.
				expect(
					narrowed
						.replace(/No note \\"Public\\"|No canvas \\"Board.canvas\\"/g, "")
						.match(/hush[a-z0-9]*|Private[^"]*|Diary|Public|public task|Board|Hidden\.base/g) ?? [],
				).toEqual([]);
				await running.service.apply(running.settings);
			}
		} finally {
			await client.close();
			await running.stop();
			await removeDir(vault);
		}
	}, 120000);
});
