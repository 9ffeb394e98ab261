import { closeSync, constants as fsConstants, fstatSync, lstatSync, mkdirSync, openSync, realpathSync } from "node:fs";
import * as nodePath from "node:path";

/**
 * The plugin's own files (data.json, journal.jsonl, their temporary files and the settings lock)
 * live in the vault, in the plugin's folder, and are held to the same jail as notes: nothing is
 * read or written through a symbolic link, and the folder's real path must be inside the vault's
 * real root. Otherwise a link planted there would send note text (the journal holds whole notes,
 * excluded ones included) to a file outside the vault.
 */

/** open(2)'s "never follow a link at the last name"; Windows has none, and is checked after the open instead. */
const NO_FOLLOW = fsConstants.O_NOFOLLOW ?? 0;

/** Thrown when one of the plugin's own files or folders is a link or lies outside the vault: nothing is read or written there. */
export class OwnFileLinkError extends Error {
	/** A code like Node's own, so the tool layer can answer the client without the path. */
	readonly code = "EOWNFILELINK";
	constructor(readonly vaultPath: string) {
		super(
			`"${vaultPath}" is a symbolic link, a hard link or outside the vault, and Vault MCP never writes its own files through one: writing to the vault is stopped and nothing was written. Replace it with a plain file or folder to write again.`,
		);
		this.name = "OwnFileLinkError";
	}
}

/** `path` as the person sees it in the vault: relative to the root, with forward slashes. */
function inVault(vaultRoot: string, path: string): string {
	return nodePath.relative(vaultRoot, path).split(nodePath.sep).join("/");
}

/**
 * Makes sure `folder` (inside `vaultRoot`) is a chain of real folders from the root down, none a
 * link, creating the missing ones owner-only (with `create`), and that its real path is inside the
 * vault's real root. Returns `folder`, or null when a part is missing and `create` is false.
 * Throws OwnFileLinkError otherwise.
 */
export function checkOwnFolder(vaultRoot: string, folder: string, create = true): string | null {
	const relative = nodePath.relative(vaultRoot, folder);
	if (relative === ".." || relative.startsWith(`..${nodePath.sep}`) || nodePath.isAbsolute(relative)) throw new OwnFileLinkError(folder);
	if (relative === "" && !lstatSync(folder, { throwIfNoEntry: false })) {
		if (!create) return null;
		mkdirSync(folder, { recursive: true, mode: 0o700 });
	}
	let current = vaultRoot;
	for (const part of relative === "" ? [] : relative.split(nodePath.sep)) {
		current = nodePath.join(current, part);
		let stats = lstatSync(current, { throwIfNoEntry: false });
		if (!stats) {
			if (!create) return null;
			try {
				mkdirSync(current, { mode: 0o700 });
			} catch (error) {
				if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
			}
			stats = lstatSync(current);
		}
		if (stats.isSymbolicLink() || !stats.isDirectory()) throw new OwnFileLinkError(inVault(vaultRoot, current));
	}
	const realRoot = realpathSync(vaultRoot);
	const realFolder = realpathSync(folder);
	if (realFolder !== realRoot && !realFolder.startsWith(realRoot + nodePath.sep)) throw new OwnFileLinkError(inVault(vaultRoot, folder));
	return folder;
}

/**
 * Opens one of the plugin's own files with `flags` (created owner-only), never through a link at
 * its name; a file with another name elsewhere (a hard link) is refused when opened for writing,
 * since writing it would write there too. `vaultRoot` words the error; the caller checked the folder.
 * Returns the descriptor, or null when the file does not exist and `flags` do not create it.
 */
export function openOwnFile(vaultRoot: string, path: string, flags: number): number | null {
	let descriptor: number;
	try {
		// Never waits on a named pipe put at the name (as FolderJail opens): it is refused below, as not a plain file.
		descriptor = openSync(path, flags | NO_FOLLOW | (fsConstants.O_NONBLOCK ?? 0), 0o600);
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		if (code === "ENOENT" && (flags & fsConstants.O_CREAT) === 0) return null;
		// Linux and macOS answer ELOOP for a link under O_NOFOLLOW; FreeBSD answers EMLINK.
		if (code === "ELOOP" || code === "EMLINK") throw new OwnFileLinkError(inVault(vaultRoot, path));
		throw error;
	}
	try {
		const stats = fstatSync(descriptor);
		const writing = (flags & (fsConstants.O_WRONLY | fsConstants.O_RDWR)) !== 0;
		const linkedName = NO_FOLLOW === 0 && lstatSync(path).isSymbolicLink();
		if (!stats.isFile() || linkedName || (writing && stats.nlink > 1)) throw new OwnFileLinkError(inVault(vaultRoot, path));
	} catch (error) {
		closeSync(descriptor);
		throw error;
	}
	return descriptor;
}

/** Flags to append to a file, creating it; read too (the journal looks at its last byte before appending). */
export const APPEND_FLAGS = fsConstants.O_RDWR | fsConstants.O_APPEND | fsConstants.O_CREAT;
/** Flags to create a new file that must not exist yet (a temporary file). */
export const CREATE_NEW_FLAGS = fsConstants.O_WRONLY | fsConstants.O_CREAT | fsConstants.O_EXCL;
/** Flags to read a file. */
export const READ_FLAGS = fsConstants.O_RDONLY;
