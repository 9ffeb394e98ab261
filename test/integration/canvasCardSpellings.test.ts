/**
 * read_canvas's `exists` for a file card names what Obsidian would find at the card's path: Obsidian looks a path up as
 * given (obsidian.d.ts 1.13.1: `getAbstractFileByPath` is "case sensitive" and its callers are told to `normalizePath`
 * first; obsidian-api #123: a path with a leading slash is not found). The host double looks up so (asks180); headless,
 * NodeVault's lookup also finds the file at the path's normalised spelling, so a card naming a note in NFD, or with a
 * no-break space for a plain one, was `exists: true` headless and `false` in the plugin (review181's left (b)).
 * Cost: one plugin load and one headless server, one canvas read each.
 */
import { promises as fs, readFileSync } from "node:fs";
import * as nodePath from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { addToken } from "../../src/auth/tokenList";
import { defaultSettings } from "../../src/config/settings";
import { NodeHost } from "../../src/headless/NodeHost";
import VaultMcpPlugin from "../../src/main";
import { createApp, type PluginManifest } from "../double/obsidian";
import { until } from "../helpers/dom";
import { connectClient } from "../helpers/http";
import { startService } from "../helpers/service";
import { callOk } from "../helpers/tools";
import { makeVault, removeDir } from "../helpers/vault";

const manifest = JSON.parse(readFileSync(nodePath.resolve(__dirname, "../../manifest.json"), "utf8")) as PluginManifest;

/** Card paths, each with what Obsidian's lookup as given finds: the file as spelt in the vault, or nothing. */
const CARDS: Array<[string, boolean]> = [
	["Caf\u00e9.md", true],
	["Cafe\u0301.md", false],
	["c\u00a0d.md", true],
	["c d.md", false],
	["a b.md", true],
	["a\u00a0b.md", false],
	["a\u202fb.md", false],
];
const FILES: Record<string, string> = {
	"Caf\u00e9.md": "composed\n",
	"c\u00a0d.md": "no-break space\n",
	"a b.md": "plain space\n",
	"Cards.canvas": JSON.stringify({
		nodes: CARDS.map(([file], index) => ({ id: `card${index}`, type: "file", file, x: 0, y: index * 100, width: 10, height: 10 })),
		edges: [],
	}),
};

/** Each card's path (escaped, to read) and its `exists`. */
async function existsByCard(client: Client): Promise<string[]> {
	const canvas = await callOk<{ nodes: Array<{ file?: string; exists?: boolean }> }>(client, "read_canvas", { path: "Cards.canvas" });
	return canvas.nodes.map((node) => `${JSON.stringify(node.file)} ${String(node.exists)}`);
}

test("read_canvas says a card's file exists in the plugin (host double) as headless, and as Obsidian looks a path up", async () => {
	const expected = CARDS.map(([file, exists]) => `${JSON.stringify(file)} ${String(exists)}`);
	const vault = await makeVault(FILES);
	try {
		const headless = await startService(vault, { levels: ["read"] });
		const headlessClient = await connectClient(headless.url, headless.tokens.read ?? "");
		try {
			expect(await existsByCard(headlessClient)).toEqual(expected);
		} finally {
			await headlessClient.close();
			await headless.stop();
		}
		const made = addToken({ ...defaultSettings(), port: 0 }, "reader", "read");
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
				expect(await existsByCard(client)).toEqual(expected);
			} finally {
				await client.close();
			}
		} finally {
			(plugin as unknown as { unload(): void }).unload();
			await plugin.service.stop();
			document.body.empty();
			await host.close();
		}
	} finally {
		await removeDir(vault);
	}
});
