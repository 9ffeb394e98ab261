import { randomBytes } from "node:crypto";
import { constants as fsConstants, promises as fs } from "node:fs";
import * as nodePath from "node:path";
import { MAX_WRITE_ATTEMPTS } from "./limits";
import { parseSettings, UnreadableSettingsError, type ParsedSettings, type VaultMcpSettings } from "./settings";
import { PLUGIN_ID, type SettingsStore } from "./store";

/**
 * The plugin's data.json read and written directly, so the CLI and the plugin share one settings
 * file. It is never overwritten with defaults: a file that cannot be read stops the command, and
 * is kept as it is with a timestamped copy beside it.
 */
export class FileSettingsStore implements SettingsStore {
	readonly path: string;
	private copied: string | null = null;

	constructor(vaultRoot: string, configDir: string) {
		this.path = nodePath.join(vaultRoot, configDir, "plugins", PLUGIN_ID, "data.json");
	}

	/** The file's JSON, or null when there is no file yet. Throws UnreadableSettingsError (after keeping a copy) when it is not JSON. */
	async load(): Promise<unknown> {
		const text = await this.readText();
		return text === null ? null : this.parseJson(text);
	}

	/** Reads and parses the settings; anything unreadable throws, and a file that needed defaults for some fields is copied aside first. */
	async read(): Promise<ParsedSettings> {
		return (await this.readWithText()).parsed;
	}

	async save(settings: VaultMcpSettings): Promise<void> {
		await fs.mkdir(nodePath.dirname(this.path), { recursive: true });
		const temporary = `${this.path}.${randomBytes(6).toString("hex")}.tmp`;
		// Owner-only: the file holds token hashes, which are not secrets, but nobody else needs them.
		await fs.writeFile(temporary, JSON.stringify(settings, null, "\t") + "\n", { encoding: "utf8", mode: 0o600 });
		await fs.rename(temporary, this.path);
	}

	/**
	 * Reads, changes and saves the settings, unless another program (the plugin, another command)
	 * changed the file meanwhile: then it reads again and redoes the change, so a revocation made
	 * a moment ago is never written back over.
	 */
	async update(change: (settings: VaultMcpSettings) => VaultMcpSettings): Promise<VaultMcpSettings> {
		for (let attempt = 0; attempt < MAX_WRITE_ATTEMPTS; attempt++) {
			const { parsed, text } = await this.readWithText();
			const changed = change(parsed.settings);
			if ((await this.readText()) !== text) continue;
			await this.save(changed);
			return changed;
		}
		throw new Error("data.json kept changing while it was being updated; try again.");
	}

	/** Copies data.json aside as `data.json.unreadable-<time>` (once per process); returns the copy's path. */
	async keepCopy(): Promise<string> {
		if (this.copied) return this.copied;
		const stamp = new Date().toISOString().replace(/[:.]/g, "-");
		const copy = `${this.path}.unreadable-${stamp}`;
		await fs.copyFile(this.path, copy, fsConstants.COPYFILE_EXCL);
		this.copied = copy;
		return copy;
	}

	private async readWithText(): Promise<{ parsed: ParsedSettings; text: string | null }> {
		const text = await this.readText();
		if (text === null) return { parsed: parseSettings(null), text };
		const raw = await this.parseJson(text);
		let parsed: ParsedSettings;
		try {
			parsed = parseSettings(raw);
		} catch (error) {
			if (!(error instanceof UnreadableSettingsError)) throw error;
			throw new UnreadableSettingsError(`${this.path}: ${error.message}. It was left as it is; a copy is at ${await this.keepCopy()}. Fix or remove it, then start again.`);
		}
		// Some fields fell back to defaults: a later save would drop what they held, so keep the original.
		if (parsed.warnings.length > 0) parsed.warnings.push(`settings: the file as it was is kept at ${await this.keepCopy()}`);
		return { parsed, text };
	}

	private async readText(): Promise<string | null> {
		try {
			return await fs.readFile(this.path, "utf8");
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
			throw error;
		}
	}

	private async parseJson(text: string): Promise<unknown> {
		try {
			return JSON.parse(text) as unknown;
		} catch {
			throw new UnreadableSettingsError(`${this.path} is not valid JSON. It was left as it is; a copy is at ${await this.keepCopy()}. Fix or remove it, then start again.`);
		}
	}
}
