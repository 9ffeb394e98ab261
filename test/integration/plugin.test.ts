import * as nodePath from "node:path";
import { promises as fs, readFileSync } from "node:fs";
import { createServer } from "node:net";
import { addToken } from "../../src/auth/tokenList";
import { NodeHost } from "../../src/headless/NodeHost";
import { parseSettings } from "../../src/config/settings";
import type VaultMcpPluginSource from "../../src/main";
import { createApp, shownNotices, type PluginManifest } from "../double/obsidian";
import { until } from "../helpers/dom";
import { connectClient, isPortClosed } from "../helpers/http";
import { makeVault, removeDir } from "../helpers/vault";

const manifest = JSON.parse(readFileSync(nodePath.resolve(__dirname, "../../manifest.json"), "utf8")) as PluginManifest;

type PluginClass = typeof VaultMcpPluginSource;
/** A variable, so TypeScript does not look for types of the built file. */
const BUNDLE_PATH: string = nodePath.resolve(__dirname, "../../main.js");

const builds: Array<[string, () => Promise<PluginClass>]> = [
	["the TypeScript sources", async () => (await import("../../src/main")).default],
	// The bundle users install: a bundling mistake (a missing external, a broken import) fails here.
	["the built main.js bundle", () => Promise.resolve(jest.requireActual<{ default: PluginClass }>(BUNDLE_PATH).default)],
];

describe.each(builds)("VaultMcpPlugin loaded from %s", (_label, loadPluginClass) => {
	let vault: string;
	let host: NodeHost;

	beforeEach(async () => {
		vault = await makeVault({ "Note.md": "# Note\n", "Folder/Other.md": "other" });
		host = await NodeHost.open(vault);
	});

	afterEach(async () => {
		await host.close();
		await removeDir(vault);
	});

	async function loadPlugin() {
		const VaultMcpPlugin = await loadPluginClass();
		const plugin = new VaultMcpPlugin(createApp(host) as never, manifest);
		await (plugin as unknown as { load(): Promise<void> }).load();
		await new Promise((resolve) => setImmediate(resolve));
		return plugin;
	}

	test("a linked folder in the vault is hidden from clients, refused on read, and named to the person", async () => {
		const outside = await makeVault({ "there.md": "outside text" });
		await fs.symlink(outside, nodePath.join(vault, "Linked"));
		const plugin = await loadPlugin();
		try {
			expect(plugin.hiddenLinks()).toEqual(["Linked"]);
			await plugin.updateSettings({ disclosureAccepted: true, serverEnabled: true, port: 0 });
			const made = addToken(plugin.settings, "reader", "read");
			if ("error" in made) throw new Error(made.error);
			await plugin.updateSettings({ tokens: made.settings.tokens });
			const status = plugin.service.status;
			if (status.state !== "listening") throw new Error("not listening");
			const client = await connectClient(status.url, made.token);
			try {
				const listed = await client.callTool({ name: "list_notes", arguments: {} });
				expect(JSON.stringify(listed.structuredContent)).not.toContain("Linked");
				const read = await client.callTool({ name: "read_note", arguments: { path: "Linked/there.md" } });
				expect(read.isError).toBe(true);
				expect(JSON.stringify(read.content)).not.toContain("outside text");
			} finally {
				await client.close();
			}
		} finally {
			(plugin as unknown as { unload(): void }).unload();
			await plugin.service.stop();
			await removeDir(outside);
		}
	});

	test("is off by default, serves a real client once switched on, and closes the port when switched off", async () => {
		const plugin = await loadPlugin();
		expect(plugin.settings.serverEnabled).toBe(false);
		expect(plugin.service.status).toEqual({ state: "stopped" });

		const made = addToken(plugin.settings, "test", "read");
		if ("error" in made) throw new Error(made.error);
		await plugin.updateSettings({ tokens: made.settings.tokens });
		const status = await plugin.updateSettings({ serverEnabled: true, port: 0 });
		if (status.state !== "listening") throw new Error(JSON.stringify(status));

		const client = await connectClient(status.url, made.token);
		const result = await client.callTool({ name: "get_vault_status", arguments: {} });
		expect(result.structuredContent).toMatchObject({ note_count: 2, can_write: false, server_version: manifest.version });
		await client.close();

		// The settings were saved to data.json, with no plaintext token.
		const saved = await fs.readFile(nodePath.join(vault, ".obsidian/plugins/vault-mcp/data.json"), "utf8");
		expect(parseSettings(JSON.parse(saved)).settings.serverEnabled).toBe(true);
		expect(saved).not.toContain(made.token);

		await plugin.updateSettings({ serverEnabled: false });
		expect(await isPortClosed(status.port)).toBe(true);
		(plugin as unknown as { unload(): void }).unload();
	});

	test("starts on load from saved settings, follows an external data.json change, and unload frees the port", async () => {
		const made = addToken({ ...parseSettings(null).settings, serverEnabled: true, port: 0 }, "saved", "read");
		if ("error" in made) throw new Error(made.error);
		const dataPath = nodePath.join(vault, ".obsidian/plugins/vault-mcp/data.json");
		await fs.mkdir(nodePath.dirname(dataPath), { recursive: true });
		await fs.writeFile(dataPath, JSON.stringify(made.settings));

		const plugin = await loadPlugin();
		// Starting takes turns of its own, once the workspace is ready: a fixed 50 ms was a guess a loaded machine can miss.
		await until(() => plugin.service.status.state === "listening");
		const status = plugin.service.status;
		if (status.state !== "listening") throw new Error(JSON.stringify(status));

		// A sync tool revokes the token in data.json: the plugin follows, and the token stops working.
		await fs.writeFile(dataPath, JSON.stringify({ ...made.settings, tokens: [] }));
		await plugin.onExternalSettingsChange();
		await expect(connectClient(status.url, made.token)).rejects.toThrow();

		(plugin as unknown as { unload(): void }).unload();
		// Unloading stops the server without waiting (Obsidian does not await onunload): the port closes once the calls have settled.
		await until(() => isPortClosed(status.port));
	});

	test("a token's last use is saved to data.json through the settings store when the server stops, never over a file that became unreadable", async () => {
		const plugin = await loadPlugin();
		const made = addToken(plugin.settings, "laptop", "read");
		if ("error" in made) throw new Error(made.error);
		await plugin.updateSettings({ tokens: made.settings.tokens, serverEnabled: true, disclosureAccepted: true, port: 0 });
		const status = plugin.service.status;
		if (status.state !== "listening") throw new Error(JSON.stringify(status));
		const dataPath = nodePath.join(vault, ".obsidian/plugins/vault-mcp/data.json");
		const savedToken = async () => parseSettings(JSON.parse(await fs.readFile(dataPath, "utf8"))).settings.tokens[0];
		expect((await savedToken())?.lastUsed).toBeNull();

		const before = Date.now();
		const client = await connectClient(status.url, made.token);
		await client.callTool({ name: "get_vault_status", arguments: {} });
		await client.close();
		await plugin.updateSettings({ serverEnabled: false });
		const lastUsed = (await savedToken())?.lastUsed;
		expect(Date.parse(lastUsed ?? "")).toBeGreaterThanOrEqual(before - 1000);
		// The settings tab reads the same record the file holds.
		expect(plugin.settings.tokens[0]?.lastUsed).toBe(lastUsed);

		// Used again, then data.json breaks under the running server: stopping saves nothing over it.
		await plugin.updateSettings({ serverEnabled: true });
		const again = plugin.service.status;
		if (again.state !== "listening") throw new Error(JSON.stringify(again));
		const second = await connectClient(again.url, made.token);
		await second.callTool({ name: "get_vault_status", arguments: {} });
		await second.close();
		const error = jest.spyOn(console, "error").mockImplementation(() => undefined);
		const warn = jest.spyOn(console, "warn").mockImplementation(() => undefined);
		try {
			await fs.writeFile(dataPath, "{ broken");
			await plugin.onExternalSettingsChange();
			expect(plugin.service.status.state).toBe("stopped");
			expect(await fs.readFile(dataPath, "utf8")).toBe("{ broken");
			expect(warn.mock.calls.map((call) => String(call[0]))).toContainEqual(expect.stringContaining("token last-used times were not saved"));
		} finally {
			error.mockRestore();
			warn.mockRestore();
			(plugin as unknown as { unload(): void }).unload();
		}
	});

	test("a port in use shows a notice and an error status, and never throws", async () => {
		const blocker = createServer();
		await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", () => resolve()));
		const port = (blocker.address() as { port: number }).port;
		const consoleError = jest.spyOn(console, "error").mockImplementation(() => undefined);
		try {
			const plugin = await loadPlugin();
			const status = await plugin.updateSettings({ serverEnabled: true, port });
			expect(status.state).toBe("error");
			expect(shownNotices.at(-1)).toContain(`Port ${port} is already in use`);
			expect(consoleError).toHaveBeenCalledWith(expect.stringContaining(`Port ${port} is already in use`));
			(plugin as unknown as { unload(): void }).unload();
		} finally {
			consoleError.mockRestore();
			blocker.close();
		}
	});

	test("an excluded folder data.json gives as its absolute path is excluded, and the served vault hides it", async () => {
		// Read without the vault's path, `/<vault>/Folder` named `<vault>/Folder` inside the vault: nothing was excluded.
		const dataPath = nodePath.join(vault, ".obsidian/plugins/vault-mcp/data.json");
		await fs.mkdir(nodePath.dirname(dataPath), { recursive: true });
		await fs.writeFile(dataPath, JSON.stringify({ excludedFolders: [nodePath.join(vault, "Folder")] }));
		const plugin = await loadPlugin();
		try {
			expect(plugin.settings.excludedFolders).toEqual(["Folder"]);
			await plugin.updateSettings({ disclosureAccepted: true, serverEnabled: true, port: 0 });
			const made = addToken(plugin.settings, "reader", "read");
			if ("error" in made) throw new Error(made.error);
			await plugin.updateSettings({ tokens: made.settings.tokens });
			const status = plugin.service.status;
			if (status.state !== "listening") throw new Error("not listening");
			const client = await connectClient(status.url, made.token);
			try {
				const listed = await client.callTool({ name: "list_notes", arguments: {} });
				expect(JSON.stringify(listed)).toContain("Note.md");
				expect(JSON.stringify(listed)).not.toContain("Other");
			} finally {
				await client.close();
			}
		} finally {
			(plugin as unknown as { unload(): void }).unload();
		}
	});

	test("broken fields fall back to defaults alone instead of crashing the plugin", async () => {
		const dataPath = nodePath.join(vault, ".obsidian/plugins/vault-mcp/data.json");
		await fs.mkdir(nodePath.dirname(dataPath), { recursive: true });
		await fs.writeFile(dataPath, JSON.stringify({ serverEnabled: "yes", port: -4, tokens: [{ name: "x" }], excludedFolders: ["/Private/"] }));
		const warn = jest.spyOn(console, "warn").mockImplementation(() => undefined);
		const plugin = await loadPlugin();
		expect(plugin.settings).toMatchObject({ serverEnabled: false, port: 27150, tokens: [], excludedFolders: ["Private"] });
		expect(warn.mock.calls.map((call) => String(call[0]))).toEqual([
			expect.stringContaining('"serverEnabled" is not valid'),
			expect.stringContaining('"port" is not valid'),
			expect.stringContaining("token record 0 is not valid"),
		]);
		warn.mockRestore();
		(plugin as unknown as { unload(): void }).unload();
	});

	test.each([
		["cut short", '{"serverEnabled": true, "excludedFolders": ["Private"], "tok'],
		["not an object", "[1, 2, 3]"],
		["exclusions not a list", '{"serverEnabled": true, "disclosureAccepted": true, "excludedFolders": "Private"}'],
	])("a data.json that cannot be read (%s) is kept as it is, copied aside, and nothing is served", async (_kind, text) => {
		const dataPath = nodePath.join(vault, ".obsidian/plugins/vault-mcp/data.json");
		await fs.mkdir(nodePath.dirname(dataPath), { recursive: true });
		await fs.writeFile(dataPath, text);
		const error = jest.spyOn(console, "error").mockImplementation(() => undefined);
		shownNotices.length = 0;
		const plugin = await loadPlugin();
		await new Promise((resolve) => setTimeout(resolve, 50));
		expect(plugin.service.status.state).toBe("stopped");
		expect(shownNotices.join("\n")).toMatch(/stays off/);
		// Turning it on from the interface saves nothing over the file and starts nothing.
		await plugin.updateSettings({ serverEnabled: true, disclosureAccepted: true });
		expect(plugin.service.status.state).toBe("stopped");
		expect(await fs.readFile(dataPath, "utf8")).toBe(text);
		const copies = (await fs.readdir(nodePath.dirname(dataPath))).filter((name) => name.startsWith("data.json.unreadable-"));
		expect(copies).toHaveLength(1);
		expect(await fs.readFile(nodePath.join(nodePath.dirname(dataPath), copies[0] ?? ""), "utf8")).toBe(text);
		error.mockRestore();
		(plugin as unknown as { unload(): void }).unload();
	});
});
