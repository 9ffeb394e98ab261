import * as nodePath from "node:path";
import { promises as fs, readFileSync } from "node:fs";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { addToken } from "../../src/auth/tokenList";
import { NodeHost } from "../../src/headless/NodeHost";
import { describeNotes } from "../../src/journal/undo";
import VaultMcpPlugin from "../../src/main";
import { createApp, type App, type PluginManifest } from "../double/obsidian";
import { connectClient } from "../helpers/http";
import { callOk } from "../helpers/tools";
import { makeVault, removeDir } from "../helpers/vault";

const manifest = JSON.parse(readFileSync(nodePath.resolve(__dirname, "../../manifest.json"), "utf8")) as PluginManifest;

/**
 * The plugin in the host double: the person moves a note an AI wrote to, in Obsidian (its own
 * `fileManager.renameFile`, which reports the vault's `rename`), then undoes the AI's write from
 * the Activity section. Into an excluded folder, the note is left alone there and the folder never
 * named (before: its earlier text was saved as a copy in its old, visible folder); into a visible
 * folder, it is undone where it went.
 */
describe("Undo in the plugin of a write to a note the person moved in Obsidian since", () => {
	let vault: string;
	let host: NodeHost;
	let app: App;
	let plugin: VaultMcpPlugin;
	let client: Client;

	beforeEach(async () => {
		vault = await makeVault({ "Notes/Plan.md": "# Plan\n", "Private/Old.md": "old\n", "Archive/Old.md": "old\n" });
		host = await NodeHost.open(vault);
		app = createApp(host);
		plugin = new VaultMcpPlugin(app as never, manifest);
		await (plugin as unknown as { load(): Promise<void> }).load();
		await plugin.updateSettings({ disclosureAccepted: true, serverEnabled: true, writeEnabled: true, port: 0, excludedFolders: ["Private"] });
		const made = addToken(plugin.settings, "laptop", "write", { append_to_note: "allow" });
		if ("error" in made) throw new Error(made.error);
		await plugin.updateSettings({ tokens: made.settings.tokens });
		const status = plugin.service.status;
		if (status.state !== "listening") throw new Error("not listening");
		client = await connectClient(status.url, made.token);
	});
	afterEach(async () => {
		await client.close();
		(plugin as unknown as { unload(): void }).unload();
		await plugin.service.stop();
		await host.close();
		await removeDir(vault);
	});

	/** The AI appends to Notes/Plan.md, then the person moves it to `to` in Obsidian; the undo's outcome and what the AI's write left. */
	async function appendMoveAndUndo(to: string): Promise<{ said: string; written: string }> {
		await callOk(client, "append_to_note", { path: "Notes/Plan.md", content: "- by the AI\n" });
		const written = await fs.readFile(nodePath.join(vault, "Notes/Plan.md"), "utf8");
		const [entry] = plugin.journal.list(1);
		const file = app.vault.getFileByPath("Notes/Plan.md");
		if (!file || !entry) throw new Error("no note or no entry");
		await app.fileManager.renameFile(file, to);
		const outcome = await plugin.undoChange(entry.id);
		if (!outcome.ok) throw new Error(outcome.reason);
		return { said: describeNotes(outcome.notes), written };
	}

	test("moved into an excluded folder: nothing written anywhere, and the folder never named", async () => {
		const { said, written } = await appendMoveAndUndo("Private/Plan.md");
		expect(said).toBe('"Notes/Plan.md" was moved since to a place undo may not write, so it was left as it is there');
		expect(await fs.readdir(nodePath.join(vault, "Notes"))).toEqual([]);
		expect(await fs.readFile(nodePath.join(vault, "Private/Plan.md"), "utf8")).toBe(written);
	});

	test("moved to a visible folder: undone where it went", async () => {
		const { said } = await appendMoveAndUndo("Archive/Plan.md");
		expect(said).toBe('restored "Archive/Plan.md"');
		expect(await fs.readdir(nodePath.join(vault, "Notes"))).toEqual([]);
		expect(await fs.readFile(nodePath.join(vault, "Archive/Plan.md"), "utf8")).toBe("# Plan\n");
	});
});
