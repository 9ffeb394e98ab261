/**
 * The plugin's settings as saved in the vault's data.json, read the way a test watching a save
 * must: Obsidian's `saveData` (and the host double's, like it) writes the file in place, so a read
 * while a save is under way can see part of it. A read that is not whole JSON is read again after
 * a tick, a bounded number of times; a file that stays broken fails the test with the parse error.
 */
import { promises as fs } from "node:fs";
import * as nodePath from "node:path";
import { parseSettings, type VaultMcpSettings } from "../../src/config/settings";

/** Where the plugin's settings are saved, inside the vault. */
export const PLUGIN_DATA_JSON = ".obsidian/plugins/vault-mcp/data.json";

/** Reads of a part-written data.json tried before its parse error is thrown. */
const PART_WRITTEN_READS = 50;

/** The settings in the vault's data.json, once the file reads as whole JSON. */
export async function savedPluginSettings(vault: string): Promise<VaultMcpSettings> {
	for (let read = 1; ; read++) {
		const text = await fs.readFile(nodePath.join(vault, PLUGIN_DATA_JSON), "utf8");
		try {
			return parseSettings(JSON.parse(text)).settings;
		} catch (error) {
			if (!(error instanceof SyntaxError) || read >= PART_WRITTEN_READS) throw error;
			await new Promise((resolve) => setTimeout(resolve, 10));
		}
	}
}
