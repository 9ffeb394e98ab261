import * as nodePath from "node:path";
import { promises as fs, readFileSync } from "node:fs";
import { NodeHost } from "../../src/headless/NodeHost";
import VaultMcpPlugin from "../../src/main";
import { createApp, shownNotices, type PluginManifest } from "../double/obsidian";
import { makeVault, removeDir } from "../helpers/vault";

const manifest = JSON.parse(readFileSync(nodePath.resolve(__dirname, "../../manifest.json"), "utf8")) as PluginManifest;

/**
 * Obsidian loads a plugin from whatever folder of `<configDir>/plugins` holds it (a release unzipped
 * by hand keeps the archive's name) and reads its data.json there (`manifest.dir`); the command line
 * looks in `plugins/vault-mcp`.
 */
describe("the plugin installed in a folder not named vault-mcp", () => {
	let vault: string;
	let host: NodeHost;
	const folder = ".obsidian/plugins/vault-mcp-0.1.0";
	beforeEach(async () => {
		vault = await makeVault({ "Note.md": "# Note\n" });
		host = await NodeHost.open(vault);
	});
	afterEach(async () => {
		await host.close();
		await removeDir(vault);
	});

	test("an unreadable data.json is copied aside where Obsidian read it, and the person is told the command line reads other settings", async () => {
		const text = '{"serverEnabled": true, "tok';
		await fs.mkdir(nodePath.join(vault, folder), { recursive: true });
		await fs.writeFile(nodePath.join(vault, folder, "data.json"), text);
		const error = jest.spyOn(console, "error").mockImplementation(() => undefined);
		const warn = jest.spyOn(console, "warn").mockImplementation(() => undefined);
		shownNotices.length = 0;
		const plugin = new VaultMcpPlugin(createApp(host) as never, { ...manifest, dir: folder });
		try {
			await (plugin as unknown as { load(): Promise<void> }).load();
			expect(plugin.service.status.state).toBe("stopped");
			const copies = (await fs.readdir(nodePath.join(vault, folder))).filter((name) => name.startsWith("data.json.unreadable-"));
			expect(copies).toHaveLength(1);
			expect(await fs.readFile(nodePath.join(vault, folder, copies[0] ?? ""), "utf8")).toBe(text);
			expect(shownNotices.join("\n")).toContain(`(a copy is at ${folder}/${copies[0] ?? ""})`);
			expect(shownNotices.join("\n")).toContain(`installed in "${folder}"`);
			expect(await fs.readFile(nodePath.join(vault, folder, "data.json"), "utf8")).toBe(text);
		} finally {
			(plugin as unknown as { unload(): void }).unload();
			await plugin.service.stop();
			error.mockRestore();
			warn.mockRestore();
		}
	});

	test("installed as vault-mcp (the store's way, and the README's), nothing is said of the folder", async () => {
		shownNotices.length = 0;
		const plugin = new VaultMcpPlugin(createApp(host) as never, { ...manifest, dir: ".obsidian/plugins/vault-mcp" });
		try {
			await (plugin as unknown as { load(): Promise<void> }).load();
			expect(shownNotices.join("\n")).not.toContain("installed in");
		} finally {
			(plugin as unknown as { unload(): void }).unload();
			await plugin.service.stop();
		}
	});
});
