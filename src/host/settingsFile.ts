import { OBSIDIAN_SETTINGS_MAX_BYTES } from "../config/limits";
import type { FolderJail } from "./FolderJail";
import { FileOverBytesError } from "./FileOverBytesError";
import { NoteTooLargeError } from "./NoteTooLargeError";

/**
 * A settings file of the config folder (Host's `adapter.read`), read through the jail with Node's fs: one over
 * OBSIDIAN_SETTINGS_MAX_BYTES is refused by the size it has when opened, and one that grows past it while read once a
 * byte past it is read (FileOverBytesError). Inside Obsidian its adapter's `read` reads a file whole: a size asked
 * first (`stat`) let a file that grew in between be read whole.
 */
export async function readSettingsFile(jail: FolderJail, diskPath: string): Promise<string> {
	try {
		return (await jail.readFile(diskPath, OBSIDIAN_SETTINGS_MAX_BYTES)).toString("utf8");
	} catch (error) {
		throw error instanceof NoteTooLargeError ? new FileOverBytesError(error.bytes) : error;
	}
}
