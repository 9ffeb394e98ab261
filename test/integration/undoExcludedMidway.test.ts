import * as nodePath from "node:path";
import { promises as fs, readFileSync } from "node:fs";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { addToken } from "../../src/auth/tokenList";
import { NodeHost } from "../../src/headless/NodeHost";
import type { HostFile } from "../../src/host/Host";
import { describeNotes } from "../../src/journal/undo";
import VaultMcpPlugin from "../../src/main";
import { createApp, type App, type PluginManifest } from "../double/obsidian";
import { connectClient } from "../helpers/http";
import { callOk } from "../helpers/tools";
import { makeVault, removeDir } from "../helpers/vault";

const manifest = JSON.parse(readFileSync(nodePath.resolve(__dirname, "../../manifest.json"), "utf8")) as PluginManifest;

/**
 * The plugin in the host double: the person undoes an AI's rename from the Activity section and,
 * while the undo runs (it pauses between notes: a rename linked from thousands of notes takes
 * seconds), excludes a folder holding notes whose links it points back. Those notes are not written:
 * the undo read the excluded folders once, as it began, and wrote into the folder the person had just
 * closed to Vault MCP.
 */
test("undo in the plugin writes nothing into a folder the person excluded while it ran", async () => {
	const vault = await makeVault({ "Plan.md": "# Plan\n", "Diary/Entry.md": "Dear diary, [[Plan]]\n", "Notes/Linker.md": "See [[Plan]].\n" });
	const host = await NodeHost.open(vault);
	const app: App = createApp(host);
	const plugin = new VaultMcpPlugin(app as never, manifest);
	await (plugin as unknown as { load(): Promise<void> }).load();
	let client: Client | undefined;
	try {
		await plugin.updateSettings({ disclosureAccepted: true, serverEnabled: true, writeEnabled: true, port: 0, excludedFolders: ["Private"] });
		const made = addToken(plugin.settings, "laptop", "write", { rename_note: "allow" });
		if ("error" in made) throw new Error(made.error);
		await plugin.updateSettings({ tokens: made.settings.tokens });
		const status = plugin.service.status;
		if (status.state !== "listening") throw new Error("not listening");
		client = await connectClient(status.url, made.token);
		await callOk(client, "rename_note", { path: "Plan", new_path: "Goal.md" });
		const read = (path: string) => fs.readFile(nodePath.join(vault, path), "utf8");
		expect(await read("Diary/Entry.md")).toBe("Dear diary, [[Goal]]\n");
		const [entry] = plugin.journal.list(1);
		// The person excludes Diary while the undo reads the notes it will write.
		const cachedRead = host.vault.cachedRead.bind(host.vault);
		let excluded = false;
		const spy = jest.spyOn(host.vault, "cachedRead").mockImplementation(async (file: HostFile) => {
			const text = await cachedRead(file);
			if (!excluded && file.path === "Notes/Linker.md") {
				excluded = true;
				await plugin.updateSettings({ excludedFolders: ["Private", "Diary"] });
			}
			return text;
		});
		const outcome = await plugin.undoChange(entry?.id ?? "");
		spy.mockRestore();
		expect(excluded).toBe(true);
		if (!outcome.ok) throw new Error(outcome.reason);
		// On main (6855c4df): "Dear diary, [[Plan]]\n", written after the folder was excluded.
		expect(await read("Diary/Entry.md")).toBe("Dear diary, [[Goal]]\n");
		expect(await fs.readdir(nodePath.join(vault, "Diary"))).toEqual(["Entry.md"]);
		expect(await read("Plan.md")).toBe("# Plan\n");
		expect(await read("Notes/Linker.md")).toBe("See [[Plan]].\n");
		expect(describeNotes(outcome.notes)).toContain('"Diary/Entry.md" is in a folder excluded while the undo ran, so it was left as it is');
	} finally {
		await client?.close();
		(plugin as unknown as { unload(): void }).unload();
		await plugin.service.stop();
		await host.close();
		await removeDir(vault);
	}
}, 30_000);
