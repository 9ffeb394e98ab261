/**
 * The errors a host throws for a file that is not at a path, or for a path a file already holds,
 * worded as Obsidian's vault words them ("File does not exist: …", "File already exists: …") and
 * coded as Node's (`ENOENT`, `EEXIST`): callers match either, and `fixableMessageFor` answers by the
 * code. `vaultPath` is the path in the vault, never the one on disk: the message may reach a client.
 */
export function fileMissingError(vaultPath: string): NodeJS.ErrnoException {
	return Object.assign(new Error(`File does not exist: ${vaultPath}`), { code: "ENOENT" });
}

/** A file (or folder) already at `vaultPath`; see fileMissingError. */
export function fileExistsError(vaultPath: string): NodeJS.ErrnoException {
	return Object.assign(new Error(`File already exists: ${vaultPath}`), { code: "EEXIST" });
}
