import type { VaultMcpSettings } from "./settings";

/**
 * Where settings are kept: the plugin's data.json, through Obsidian (`PluginSettingsStore`:
 * `loadData`/`saveData`) or the file system (`FileSettingsStore`, the CLI). Everything that saves
 * settings while the server runs (a token's last use, a right set from the approval window) goes
 * through `update`, so both hosts save the same way.
 */
export interface SettingsStore {
	/** What data.json holds, unparsed; null when there is none yet. */
	load(): Promise<unknown>;
	save(settings: VaultMcpSettings): Promise<void>;
	/** Applies `change` to the settings as they are now, saves the result and returns it. */
	update(change: (settings: VaultMcpSettings) => VaultMcpSettings): Promise<VaultMcpSettings>;
}

/** The plugin's folder id, which names its folder under the config folder. */
export const PLUGIN_ID = "vault-mcp";
