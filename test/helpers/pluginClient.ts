/**
 * The plugin loaded for real over the host double on a vault folder on disk, listening on loopback, with an SDK client
 * connected under a token its settings hold: the set-up of the tests that ask Obsidian the same thing as headless `serve`.
 */
import { promises as fs, readFileSync } from "node:fs";
import * as nodePath from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { VaultMcpSettings } from "../../src/config/settings";
import { NodeHost } from "../../src/headless/NodeHost";
import VaultMcpPlugin from "../../src/main";
import { createApp, type PluginManifest } from "../double/obsidian";
import { until } from "./dom";
import { connectClient } from "./http";
import { PLUGIN_DATA_JSON } from "./pluginDataJson";

const manifest = JSON.parse(readFileSync(nodePath.resolve(__dirname, "../../manifest.json"), "utf8")) as PluginManifest;

/** Runs `use` with a client of the plugin serving `vault` under `settings` (saved as its data.json, server on), then unloads it. */
export async function withPluginClient<T>(vault: string, settings: VaultMcpSettings, token: string, use: (client: Client) => Promise<T>): Promise<T> {
	await fs.mkdir(nodePath.dirname(nodePath.join(vault, PLUGIN_DATA_JSON)), { recursive: true });
	await fs.writeFile(nodePath.join(vault, PLUGIN_DATA_JSON), JSON.stringify({ ...settings, serverEnabled: true, disclosureAccepted: true }));
	const host = await NodeHost.open(vault);
	const plugin = new VaultMcpPlugin(createApp(host) as never, manifest);
	await (plugin as unknown as { load(): Promise<void> }).load();
	try {
		await until(() => plugin.service.status.state === "listening", 20_000);
		const status = plugin.service.status;
		if (status.state !== "listening") throw new Error("not listening");
		const client = await connectClient(status.url, token);
		try {
			return await use(client);
		} finally {
			await client.close();
		}
	} finally {
		(plugin as unknown as { unload(): void }).unload();
		await plugin.service.stop();
		document.body.empty();
		await host.close();
	}
}
