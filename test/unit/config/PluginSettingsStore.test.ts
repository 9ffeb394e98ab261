import { PluginSettingsStore, type PluginSettingsHolder } from "../../../src/config/PluginSettingsStore";
import { defaultSettings, UnreadableSettingsError, type VaultMcpSettings } from "../../../src/config/settings";
import { promises as fs } from "node:fs";
import * as nodePath from "node:path";
import { addToken } from "../../../src/auth/tokenList";
import { FileSettingsStore } from "../../../src/config/FileSettingsStore";
import { SettingsFileLock } from "../../../src/config/SettingsFileLock";
import { makeVault, removeDir } from "../../helpers/vault";

/** The plugin's loadData/saveData over the real data.json of a vault folder, as Obsidian's adapter does them. */
function pluginOnDisk(root: string): PluginSettingsHolder {
	const path = nodePath.join(root, ".obsidian/plugins/vault-mcp/data.json");
	return {
		settings: defaultSettings(),
		loadData: async () => JSON.parse(await fs.readFile(path, "utf8")) as unknown,
		saveData: (value: unknown) => fs.writeFile(path, JSON.stringify(value)),
	};
}

/** The two members of Obsidian's Plugin the store uses, over an in-memory data.json. */
function pluginWith(data: unknown): PluginSettingsHolder & { saved: unknown[] } {
	const saved: unknown[] = [];
	return {
		settings: defaultSettings(),
		saved,
		loadData: () => (typeof data === "string" ? Promise.reject(new SyntaxError("not JSON")) : Promise.resolve(data)),
		saveData: (value: unknown) => {
			saved.push(JSON.parse(JSON.stringify(value)));
			return Promise.resolve();
		},
	};
}

describe("PluginSettingsStore", () => {
	test("update changes the settings the plugin holds and saves exactly those", async () => {
		const plugin = pluginWith({ port: 28000 });
		const store = new PluginSettingsStore(plugin);
		plugin.settings = (await store.read()).settings;
		const changed = await store.update((current: VaultMcpSettings) => ({ ...current, showStatusBar: false }));
		expect(plugin.settings).toBe(changed);
		expect(plugin.settings).toMatchObject({ port: 28000, showStatusBar: false });
		expect(plugin.saved).toEqual([changed]);
	});

	test.each([
		["not JSON", "{ broken"],
		["not a settings object", [1, 2]],
		["exclusions not a list", { excludedFolders: "Private" }],
	])("after a read of data.json that is %s, nothing is saved over it", async (_kind, data) => {
		const plugin = pluginWith(data);
		const store = new PluginSettingsStore(plugin);
		await expect(store.read()).rejects.toThrow();
		await expect(store.update((current) => ({ ...current, serverEnabled: true }))).rejects.toThrow(UnreadableSettingsError);
		expect(plugin.saved).toEqual([]);
		expect(plugin.settings.serverEnabled).toBe(false);
	});

	test("with the lock, an update starts from data.json on disk: a token the CLI revoked meanwhile stays revoked, and saves from both sides interleave without loss", async () => {
		const root = await makeVault();
		try {
			const cli = new FileSettingsStore(root, ".obsidian");
			await cli.update((settings) => {
				let next = settings;
				for (const name of ["laptop", "phone", "desk"]) {
					const made = addToken(next, name, "read");
					if ("error" in made) throw new Error(made.error);
					next = made.settings;
				}
				return next;
			});
			const plugin = pluginOnDisk(root);
			const store = new PluginSettingsStore(plugin);
			store.useLock(new SettingsFileLock(root, ".obsidian"));
			plugin.settings = (await store.read()).settings;
			// The CLI revokes "phone"; the plugin, which still holds it in memory, saves a last-use time at the same moment, many times over.
			const stamps = Array.from({ length: 30 }, (_, index) => new Date(Date.UTC(2026, 0, 1, 0, 0, index)).toISOString());
			await Promise.all([
				cli.update((settings) => ({ ...settings, tokens: settings.tokens.filter((token) => token.name !== "phone") })),
				...stamps.map((stamp) =>
					store.update((settings) => ({
						...settings,
						tokens: settings.tokens.map((token) =>
							token.name === "laptop" ? { ...token, lastUsed: stamp > (token.lastUsed ?? "") ? stamp : token.lastUsed } : token,
						),
					})),
				),
				...stamps.map((_, index) =>
					cli.update((settings) => ({ ...settings, rateLimitPerMinute: Math.max(settings.rateLimitPerMinute, 1_000 + index) })),
				),
			]);
			const onDisk = (await cli.read()).settings;
			expect(onDisk.tokens.map((token) => token.name)).toEqual(["laptop", "desk"]);
			expect(onDisk.tokens[0]?.lastUsed).toBe(stamps.at(-1));
			expect(onDisk.rateLimitPerMinute).toBe(1_000 + stamps.length - 1);
		} finally {
			await removeDir(root);
		}
	});
});
