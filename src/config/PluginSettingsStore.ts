import { parseSettings, UnreadableSettingsError, type ParsedSettings, type VaultMcpSettings } from "./settings";
import type { SettingsStore } from "./store";

/** The part of Obsidian's `Plugin` the store needs: the settings in force and its data.json. */
export interface PluginSettingsHolder {
	settings: VaultMcpSettings;
	loadData(): Promise<unknown>;
	saveData(data: unknown): Promise<void>;
}

/**
 * The plugin's data.json through Obsidian (`loadData`/`saveData`). The settings in force stay on
 * the plugin, where the interface reads them; `update` changes them there and saves. While
 * data.json cannot be read nothing is saved, so a file a person can still repair is never
 * replaced by defaults (not even by a token's last-use time).
 */
export class PluginSettingsStore implements SettingsStore {
	private unreadable = false;

	constructor(private readonly plugin: PluginSettingsHolder) {}

	load(): Promise<unknown> {
		return this.plugin.loadData();
	}

	/** Reads and parses data.json; throws UnreadableSettingsError (or JSON's SyntaxError) when it cannot be read, and refuses to save until a read succeeds. */
	async read(): Promise<ParsedSettings> {
		try {
			const parsed = parseSettings(await this.load());
			this.unreadable = false;
			return parsed;
		} catch (error) {
			this.unreadable = true;
			throw error;
		}
	}

	/** The last data.json write, so the next one waits for it. */
	private lastWrite: Promise<void> = Promise.resolve();

	/**
	 * Puts the settings in force at once and writes them to data.json one write at a time: two
	 * writes at once (two quick rights changes) could interleave on disk and leave a file that no
	 * longer parses.
	 */
	async save(settings: VaultMcpSettings): Promise<void> {
		if (this.unreadable) throw new UnreadableSettingsError("data.json could not be read; nothing is saved over it until it is fixed");
		this.plugin.settings = settings;
		const write = this.lastWrite.then(() => this.plugin.saveData(settings));
		this.lastWrite = write.catch(() => undefined);
		await write;
	}

	async update(change: (settings: VaultMcpSettings) => VaultMcpSettings): Promise<VaultMcpSettings> {
		const changed = change(this.plugin.settings);
		await this.save(changed);
		return changed;
	}
}
