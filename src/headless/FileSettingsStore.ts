import { randomBytes } from "node:crypto";
import { promises as fs } from "node:fs";
import * as nodePath from "node:path";
import type { VaultMcpSettings } from "../settings/settings";
import { PLUGIN_ID, type SettingsStore } from "../settings/store";

/** The plugin's data.json read and written directly, so the CLI and the plugin share one settings file. */
export class FileSettingsStore implements SettingsStore {
	readonly path: string;

	constructor(vaultRoot: string, configDir: string) {
		this.path = nodePath.join(vaultRoot, configDir, "plugins", PLUGIN_ID, "data.json");
	}

	async load(): Promise<unknown> {
		let text: string;
		try {
			text = await fs.readFile(this.path, "utf8");
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
			throw error;
		}
		try {
			return JSON.parse(text) as unknown;
		} catch {
			// parseSettings turns this into defaults with a warning, as Obsidian's loadData would fail.
			return "unparseable data.json";
		}
	}

	async save(settings: VaultMcpSettings): Promise<void> {
		await fs.mkdir(nodePath.dirname(this.path), { recursive: true });
		const temporary = `${this.path}.${randomBytes(6).toString("hex")}.tmp`;
		// Owner-only: the file holds token hashes, which are not secrets, but nobody else needs them.
		await fs.writeFile(temporary, JSON.stringify(settings, null, "\t") + "\n", { encoding: "utf8", mode: 0o600 });
		await fs.rename(temporary, this.path);
	}
}
