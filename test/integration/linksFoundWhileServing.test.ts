import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { addToken } from "../../src/auth/tokenList";
import { defaultSettings } from "../../src/config/settings";
import { NodeHost } from "../../src/headless/NodeHost";
import type { Host } from "../../src/host/Host";
import { McpService } from "../../src/service";
import { connectClient } from "../helpers/http";
import { MemoryJournal } from "../helpers/memoryJournal";
import { RecordingLogger } from "../helpers/service";
import { makeVault, removeDir } from "../helpers/vault";

/**
 * Inside Obsidian the host's links are found again a moment after the vault changes (ObsidianHost:
 * Obsidian follows a symbolic link made in the vault folder and lists what it leads to; the jail
 * then names it, and every caller's scope hides it like an excluded folder). The host here stands
 * for that: `Linked` is what Obsidian lists through a link, named by the host once found.
 */
describe("a link found in the vault while serving", () => {
	let root: string;
	beforeAll(async () => {
		root = await makeVault({
			"Notes/Plan.md": "# Plan\n#work\n",
			"Linked/Secret.md": "---\nowner: hush-owner\n---\n# Secret\n#work #hush\n",
		});
	});
	afterAll(() => removeDir(root));

	test("is hidden from the next request of a token that already called, with the settings unchanged", async () => {
		const nodeHost = await NodeHost.open(root);
		let links: string[] = [];
		const host: Host = {
			vault: nodeHost.vault,
			metadataCache: nodeHost.metadataCache,
			fileManager: nodeHost.fileManager,
			hiddenLinks: () => links,
		};
		const made = addToken({ ...defaultSettings(), serverEnabled: true, port: 0 }, "reader", "read");
		if ("error" in made) throw new Error(made.error);
		const service = new McpService({ host, serverVersion: "test", logger: new RecordingLogger(), journal: new MemoryJournal() });
		const status = await service.apply(made.settings);
		if (status.state !== "listening") throw new Error(JSON.stringify(status));
		const clients: Client[] = [];
		const text = async (name: string, args: Record<string, unknown>) => {
			const client = await connectClient(status.url, made.token);
			clients.push(client);
			return JSON.stringify(await client.callTool({ name, arguments: args }));
		};
		try {
			// Before the link is found its notes are listed (as Obsidian lists them): the token's requests have run.
			expect(await text("list_notes", {})).toContain("Linked/Secret.md");
			expect(await text("find_notes_by_tag", { tag: "work" })).toContain("Linked/Secret.md");
			links = ["Linked"];
			for (const [name, args] of [
				["list_notes", {}],
				["find_notes_by_tag", { tag: "work" }],
				["list_tags", {}],
				["search_notes", { query: "secret" }],
				["read_note", { path: "Linked/Secret.md" }],
			] as const) {
				const answer = await text(name, args);
				// read_note's refusal echoes the path asked for: only the note's words would be a leak there.
				const leaked = name === "read_note" ? /hush|isError":false/.test(answer) || !answer.includes('"isError":true') : /Linked|hush/.test(answer);
				expect({ name, leaked }).toEqual({ name, leaked: false });
			}
		} finally {
			await Promise.all(clients.map((client) => client.close()));
			await service.stop();
			await nodeHost.close();
		}
	});
});
