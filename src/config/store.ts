import type { VaultMcpSettings } from "./settings";

/** Where settings are kept: the plugin's data.json, through Obsidian (`loadData`/`saveData`) or the file system (CLI). */
export interface SettingsStore {
	load(): Promise<unknown>;
	save(settings: VaultMcpSettings): Promise<void>;
}

/** The plugin's folder id, which names its folder under the config folder. */
export const PLUGIN_ID = "vault-mcp";
