import { parseSettings, UnreadableSettingsError, type ParsedSettings, type VaultMcpSettings } from "./settings";
import type { SettingsFileLock } from "./SettingsFileLock";
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
 *
 * With a lock (inside Obsidian, always), every save holds the settings lock the CLI takes too, and
 * `update` applies its change to data.json as it is on disk under that lock, not to the copy in
 * force here: a token the CLI revoked a moment ago is never brought back by the plugin's next save.
 */
export class PluginSettingsStore implements SettingsStore {
	private unreadable = false;
	private lock: SettingsFileLock | null = null;

	/** `vaultRoot`: the vault's folder, so folders data.json gives as absolute paths are read as the vault's own. */
	constructor(
		private readonly plugin: PluginSettingsHolder,
		private readonly vaultRoot: () => string | undefined = () => undefined,
	) {}

	/** From now on, saves hold `lock` and updates start from the file on disk (set once the vault's folder is known). */
	useLock(lock: SettingsFileLock): void {
		this.lock = lock;
	}

	load(): Promise<unknown> {
		return this.plugin.loadData();
	}

	/** Reads and parses data.json; throws UnreadableSettingsError (or JSON's SyntaxError) when it cannot be read, and refuses to save until a read succeeds. */
	async read(): Promise<ParsedSettings> {
		const vaultRoot = this.vaultRoot();
		try {
			const parsed = parseSettings(await this.load(), vaultRoot);
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
		const lock = this.lock;
		if (lock) await lock.run(() => this.write(settings));
		else await this.write(settings);
	}

	/** Resolves once every save asked for so far is written (or failed): the lock's queue, then the last write. */
	async settled(): Promise<void> {
		await this.lock?.run(() => Promise.resolve());
		await this.lastWrite;
	}

	private async write(settings: VaultMcpSettings): Promise<void> {
		if (this.unreadable) throw new UnreadableSettingsError("data.json could not be read; nothing is saved over it until it is fixed");
		this.plugin.settings = settings;
		const write = this.lastWrite.then(() => this.plugin.saveData(settings));
		this.lastWrite = write.catch(() => undefined);
		await write;
	}

	async update(change: (settings: VaultMcpSettings) => VaultMcpSettings): Promise<VaultMcpSettings> {
		const lock = this.lock;
		if (!lock) {
			const changed = change(this.plugin.settings);
			await this.write(changed);
			return changed;
		}
		// In force at once, as without a lock: the settings tab computes its next change (a second right
		// picked a moment later) from the settings in force, and must see this one while it waits for the lock.
		const before = this.plugin.settings;
		this.plugin.settings = change(before);
		try {
			return await lock.run(async () => {
				// The file as another program (the CLI) may have left it a moment ago, not the copy in force here.
				const changed = change((await this.read()).settings);
				await this.write(changed);
				return changed;
			});
		} catch (error) {
			// Not saved: the settings in force go back to what data.json holds (or to what they were).
			this.plugin.settings = await this.read().then(
				(parsed) => parsed.settings,
				() => before,
			);
			throw error;
		}
	}
}
