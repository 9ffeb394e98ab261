import { PluginSettingsStore, type PluginSettingsHolder } from "../../../src/config/PluginSettingsStore";
import { defaultSettings, UnreadableSettingsError, type VaultMcpSettings } from "../../../src/config/settings";

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
});
