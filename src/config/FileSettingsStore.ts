import { randomBytes } from "node:crypto";
import { closeSync, constants as fsConstants, fsyncSync, promises as fs, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import * as nodePath from "node:path";
import { checkOwnFolder, CREATE_NEW_FLAGS, openOwnFile, READ_FLAGS } from "./ownFiles";
import { parseSettings, UnreadableSettingsError, type ParsedSettings, type VaultMcpSettings } from "./settings";
import { SettingsFileLock } from "./SettingsFileLock";
import { UnreadableFileCopy } from "./unreadableCopy";
import type { SettingsStore } from "./store";

/**
 * The plugin's data.json read and written directly, so the CLI and the plugin share one settings
 * file. It is never overwritten with defaults: a file that cannot be read stops the command, and
 * is kept as it is with a timestamped copy beside it. Every save happens under the settings lock
 * that the plugin and other commands take too, and data.json, its folder and its temporary files
 * are never read or written through a link (OwnFileLinkError).
 */
export class FileSettingsStore implements SettingsStore {
	readonly path: string;
	private readonly lock: SettingsFileLock;
	private readonly unreadableCopy: UnreadableFileCopy;

	constructor(
		private readonly vaultRoot: string,
		configDir: string,
	) {
		this.lock = new SettingsFileLock(vaultRoot, configDir);
		this.path = this.lock.path;
		this.unreadableCopy = new UnreadableFileCopy(this.path, (from, to) => fs.copyFile(from, to, fsConstants.COPYFILE_EXCL));
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

	/** Replaces data.json with `settings` as a whole, under the lock. */
	async save(settings: VaultMcpSettings): Promise<void> {
		await this.lock.run(() => Promise.resolve(this.write(settings)));
	}

	/**
	 * Reads, changes and saves the settings holding the settings lock, so no other program (the
	 * plugin, another command, a running server's last-use times) can save in between: a
	 * revocation made a moment ago is never written back over.
	 */
	async update(change: (settings: VaultMcpSettings) => VaultMcpSettings): Promise<VaultMcpSettings> {
		return this.lock.run(async () => {
			const { parsed } = await this.readWithText();
			const changed = change(parsed.settings);
			this.write(changed);
			return changed;
		});
	}

	/** Writes a temporary file (owner-only, never through a link) and renames it over data.json, so a crash leaves the old or the new file. */
	private write(settings: VaultMcpSettings): void {
		const folder = checkOwnFolder(this.vaultRoot, nodePath.dirname(this.path)) ?? nodePath.dirname(this.path);
		const temporary = nodePath.join(folder, `.data.json.${randomBytes(6).toString("hex")}.tmp`);
		// Owner-only: the file holds token hashes, which are not secrets, but nobody else needs them.
		const descriptor = openOwnFile(this.vaultRoot, temporary, CREATE_NEW_FLAGS) as number;
		try {
			writeFileSync(descriptor, JSON.stringify(settings, null, "\t") + "\n", "utf8");
			fsyncSync(descriptor);
			closeSync(descriptor);
			renameSync(temporary, this.path);
		} catch (error) {
			try {
				closeSync(descriptor);
			} catch {
				// Already closed before the rename failed.
			}
			rmSync(temporary, { force: true });
			throw error;
		}
	}

	private async readWithText(): Promise<{ parsed: ParsedSettings; text: string | null }> {
		const text = await this.readText();
		if (text === null) return { parsed: parseSettings(null), text };
		const raw = await this.parseJson(text);
		let parsed: ParsedSettings;
		try {
			parsed = parseSettings(raw, this.vaultRoot);
		} catch (error) {
			if (!(error instanceof UnreadableSettingsError)) throw error;
			throw new UnreadableSettingsError(
				`${this.path}: ${error.message}. It was left as it is; a copy is at ${await this.unreadableCopy.keep()}. Fix or remove it, then start again.`,
			);
		}
		// Some fields fell back to defaults: a later save would drop what they held, so keep the original.
		if (parsed.warnings.length > 0) parsed.warnings.push(`settings: the file as it was is kept at ${await this.unreadableCopy.keep()}`);
		return { parsed, text };
	}

	/** data.json's text, or null when there is none; never read through a link (OwnFileLinkError). */
	private readText(): Promise<string | null> {
		if (checkOwnFolder(this.vaultRoot, nodePath.dirname(this.path), false) === null) return Promise.resolve(null);
		const descriptor = openOwnFile(this.vaultRoot, this.path, READ_FLAGS);
		if (descriptor === null) return Promise.resolve(null);
		try {
			return Promise.resolve(readFileSync(descriptor, "utf8"));
		} finally {
			closeSync(descriptor);
		}
	}

	private async parseJson(text: string): Promise<unknown> {
		try {
			return JSON.parse(text) as unknown;
		} catch {
			throw new UnreadableSettingsError(
				`${this.path} is not valid JSON. It was left as it is; a copy is at ${await this.unreadableCopy.keep()}. Fix or remove it, then start again.`,
			);
		}
	}
}
