/**
 * In Obsidian the folders of a new note's path are judged by Obsidian's own tree (`ObsidianHost.listedFolderNames`: the
 * folder's children), as headless by the disk's listing: a folder of a short name's shape the vault holds takes a note, and
 * an empty folder's twin is refused. The plugin over the host double, whose folders hold their children as Obsidian's do.
 * Cost: one plugin load, five calls.
 */
import { promises as fs, readdirSync, readFileSync } from "node:fs";
import * as nodePath from "node:path";
import { addToken } from "../../src/auth/tokenList";
import { defaultSettings } from "../../src/config/settings";
import { NodeHost } from "../../src/headless/NodeHost";
import VaultMcpPlugin from "../../src/main";
import { createApp, type PluginManifest } from "../double/obsidian";
import { until } from "../helpers/dom";
import { connectClient } from "../helpers/http";
import { callError, callOk } from "../helpers/tools";
import { makeVault, removeDir } from "../helpers/vault";

const manifest = JSON.parse(readFileSync(nodePath.resolve(__dirname, "../../manifest.json"), "utf8")) as PluginManifest;

test("in Obsidian, a listed folder of a short name's shape takes a note, and an empty folder's twin is refused", async () => {
	const vault = await makeVault({ "Old~1/a.md": "a\n", "Notes/n.md": "n\n", "Public.md": "p\n" });
	await fs.mkdir(nodePath.join(vault, "drafts"));
	const made = addToken(
		{ ...defaultSettings(), port: 0, writeEnabled: true, writeDisclosureAccepted: true, rateLimitPerMinute: 100_000 },
		"writer",
		"write",
		{
			create_note: "allow",
			rename_note: "allow",
		},
	);
	if ("error" in made) throw new Error(made.error);
	await fs.mkdir(nodePath.join(vault, ".obsidian/plugins/vault-mcp"), { recursive: true });
	await fs.writeFile(
		nodePath.join(vault, ".obsidian/plugins/vault-mcp/data.json"),
		JSON.stringify({ ...made.settings, serverEnabled: true, disclosureAccepted: true }),
	);
	const host = await NodeHost.open(vault);
	const plugin = new VaultMcpPlugin(createApp(host) as never, manifest);
	await (plugin as unknown as { load(): Promise<void> }).load();
	try {
		await until(() => plugin.service.status.state === "listening", 20_000);
		const status = plugin.service.status;
		if (status.state !== "listening") throw new Error("not listening");
		const client = await connectClient(status.url, made.token);
		try {
			// On the base: refused as a short name, and `DRAFTS/x.md` made beside the empty `drafts`.
			await callOk(client, "create_note", { path: "Old~1/new.md", content: "c" });
			await callOk(client, "rename_note", { path: "Public.md", new_path: "Old~1/Public.md" });
			expect(await callError(client, "create_note", { path: "DRAFTS/x.md", content: "c" })).toContain('A folder already exists at "drafts"');
			expect(await callError(client, "create_note", { path: "notes/x.md", content: "c" })).toContain('A folder already exists at "Notes"');
			expect(await callError(client, "create_note", { path: "Old~2/x.md", content: "c" })).toContain("Windows short name");
			expect(readdirSync(vault).sort()).toEqual([".obsidian", "Notes", "Old~1", "drafts"]);
			expect(readdirSync(nodePath.join(vault, "Old~1")).sort()).toEqual(["Public.md", "a.md", "new.md"]);
		} finally {
			await client.close();
		}
	} finally {
		(plugin as unknown as { unload(): void }).unload();
		await plugin.service.stop();
		document.body.empty();
		await host.close();
		await removeDir(vault);
	}
});
