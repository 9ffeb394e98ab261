import * as nodePath from "node:path";
import { readFileSync } from "node:fs";
import { addToken } from "../../src/auth/tokenList";
import { NodeHost } from "../../src/headless/NodeHost";
import VaultMcpPlugin from "../../src/main";
import { createApp, type PluginManifest } from "../double/obsidian";
import { until } from "../helpers/dom";
import { connectClient, isPortClosed } from "../helpers/http";
import { callOk } from "../helpers/tools";
import { makeVault, removeDir } from "../helpers/vault";

const manifest = JSON.parse(readFileSync(nodePath.resolve(__dirname, "../../manifest.json"), "utf8")) as PluginManifest;

/**
 * Disabling the plugin in Obsidian unloads it, and Obsidian's `App` lives on: every listener the
 * plugin put on the vault or the metadata cache must come off, or it keeps running (and holding the
 * plugin's memory) in the app until it quits. The double's `registerEvent` takes a listener off at
 * unload as Obsidian's `Component` does (`ref.e.offref(ref)`); it used to keep it, so a listener only
 * registered that way was never seen to leak or not.
 */
describe("unloading the plugin takes every listener it added off Obsidian's vault and metadata cache", () => {
	let vault: string;
	let host: NodeHost;

	beforeEach(async () => {
		vault = await makeVault({ "Plan.md": "# Plan\n\n- [ ] beans #garden\n", "Notes/Source.md": "See [[Plan]].\n" });
		host = await NodeHost.open(vault);
	});
	afterEach(async () => {
		await host.close();
		await removeDir(vault);
	});

	test("after the server served reads, writes and a rename, and after it never started", async () => {
		const before = { vault: host.vault.listenerCount, metadata: host.metadataCache.listenerCount };

		const idle = new VaultMcpPlugin(createApp(host) as never, manifest);
		await (idle as unknown as { load(): Promise<void> }).load();
		expect(host.vault.listenerCount).toBeGreaterThan(before.vault);
		(idle as unknown as { unload(): void }).unload();
		expect({ vault: host.vault.listenerCount, metadata: host.metadataCache.listenerCount }).toEqual(before);

		const plugin = new VaultMcpPlugin(createApp(host) as never, manifest);
		await (plugin as unknown as { load(): Promise<void> }).load();
		await plugin.updateSettings({ disclosureAccepted: true, serverEnabled: true, writeEnabled: true, port: 0 });
		const made = addToken(plugin.settings, "laptop", "write", { rename_note: "allow", append_to_note: "allow", create_note: "allow" });
		if ("error" in made) throw new Error(made.error);
		await plugin.updateSettings({ tokens: made.settings.tokens });
		const status = plugin.service.status;
		if (status.state !== "listening") throw new Error("not listening");
		const client = await connectClient(status.url, made.token);
		try {
			await callOk(client, "search_notes", { query: "beans" });
			await callOk(client, "get_graph_stats");
			await callOk(client, "list_tags");
			await callOk(client, "list_tasks");
			await callOk(client, "append_to_note", { path: "Plan.md", content: "More beans." });
			await callOk(client, "rename_note", { path: "Plan.md", new_path: "Garden/Plan.md" });
			expect(host.metadataCache.listenerCount).toBeGreaterThan(before.metadata);
		} finally {
			await client.close();
		}
		(plugin as unknown as { unload(): void }).unload();
		await until(() => isPortClosed(status.port));
		await plugin.service.stop();
		expect({ vault: host.vault.listenerCount, metadata: host.metadataCache.listenerCount }).toEqual(before);
	});
});
