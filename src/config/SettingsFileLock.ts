import { lstatSync } from "node:fs";
import * as nodePath from "node:path";
import { lock } from "proper-lockfile";
import { SETTINGS_LOCK_RETRIES, SETTINGS_LOCK_RETRY_MAX_MS, SETTINGS_LOCK_RETRY_MIN_MS, SETTINGS_LOCK_STALE_MS } from "./limits";
import { checkOwnFolder, OwnFileLinkError } from "./ownFiles";
import { PLUGIN_ID } from "./store";

/** data.json's path in a vault: `<vault>/<configDir>/plugins/vault-mcp/data.json`. */
function settingsPathFor(vaultRoot: string, configDir: string): string {
	return nodePath.join(vaultRoot, configDir, "plugins", PLUGIN_ID, "data.json");
}

/**
 * The turns of this process's writers per data.json path: they take the file lock one after
 * another, in the order they asked, instead of each retrying with back-off against the others
 * (a person changing twelve rights in a row waited seconds, and the changes landed out of order).
 */
const turnsByPath = new Map<string, Promise<unknown>>();

/**
 * The exclusive lock around every read-modify-write of data.json, shared by every process that
 * writes it: the CLI's commands, a running `serve` (its last-use times) and the plugin inside
 * Obsidian. Without it two writers each read the file, change their copy and save it, and the
 * later save silently undoes the earlier one — a revocation among them.
 *
 * The lock is a folder `data.json.lock` beside the file (creating a folder is atomic on every
 * file system, network ones too), kept fresh while held; one left by a process that died is taken
 * over once it is `SETTINGS_LOCK_STALE_MS` old. Before it is taken, the plugin's folder is checked
 * to be a real folder inside the vault and data.json not a link: settings are never written through one.
 */
export class SettingsFileLock {
	readonly path: string;

	constructor(
		readonly vaultRoot: string,
		configDir: string,
	) {
		this.path = settingsPathFor(vaultRoot, configDir);
	}

	/** Runs `work` holding the lock (waiting for another holder to finish); throws OwnFileLinkError when the files are linked. */
	run<T>(work: () => Promise<T>): Promise<T> {
		const before = turnsByPath.get(this.path) ?? Promise.resolve();
		const mine = before.then(() => this.runHoldingLock(work));
		const settled = mine.catch(() => undefined);
		turnsByPath.set(this.path, settled);
		void settled.then(() => {
			if (turnsByPath.get(this.path) === settled) turnsByPath.delete(this.path);
		});
		return mine;
	}

	private async runHoldingLock<T>(work: () => Promise<T>): Promise<T> {
		this.checkFiles();
		const release = await lock(this.path, {
			// The file may not exist yet, and its real path must not be followed anywhere.
			realpath: false,
			lockfilePath: `${this.path}.lock`,
			stale: SETTINGS_LOCK_STALE_MS,
			retries: {
				retries: SETTINGS_LOCK_RETRIES,
				factor: 1.3,
				minTimeout: SETTINGS_LOCK_RETRY_MIN_MS,
				maxTimeout: SETTINGS_LOCK_RETRY_MAX_MS,
				randomize: true,
			},
			// Only when the lock was held past its staleness (a stalled disk): the write under it is already done or refused.
			onCompromised: () => undefined,
		});
		try {
			return await work();
		} finally {
			await release().catch(() => undefined);
		}
	}

	/** The plugin's folder is a real folder in the vault and data.json, if there, is not a link. */
	checkFiles(): void {
		checkOwnFolder(this.vaultRoot, nodePath.dirname(this.path));
		if (lstatSync(this.path, { throwIfNoEntry: false })?.isSymbolicLink())
			throw new OwnFileLinkError(nodePath.relative(this.vaultRoot, this.path).split(nodePath.sep).join("/"));
	}
}
