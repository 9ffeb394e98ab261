/**
 * The folders a token is limited to, as a person types them. Pure: the settings model (reading
 * data.json), the CLI and the token window all check them with this one rule.
 */
import { MAX_PATH_LENGTH, MAX_TOKEN_FOLDERS } from "../config/limits";
import { normalizeExcludedFolder, type VaultRoot } from "./spelling";

/**
 * A token's folders as a person types them (`Projects, Areas/Work`, one per line in the token
 * window, with the vault's absolute path or `./` if they like), in the vault's one spelling, or why
 * they cannot be. An entry that names no folder inside the vault, or a hidden one, is an error, never
 * dropped: dropping it could leave an empty list, and an empty list means the whole vault.
 */
export function parseTokenFolders(entries: readonly string[], vaultRoot?: VaultRoot): { folders: string[] } | { error: string } {
	const folders: string[] = [];
	for (const entry of entries) {
		if (entry.trim() === "") continue;
		const folder = normalizeExcludedFolder(entry, vaultRoot);
		if (folder === null)
			return { error: `"${entry.trim()}" names no folder inside the vault. Give folders relative to the vault root, such as Projects or Areas/Work.` };
		if (folder.split("/").some((part) => part.startsWith("."))) return { error: `"${entry.trim()}" is a hidden folder, which is never part of the vault.` };
		if (folder.length > MAX_PATH_LENGTH) return { error: `A folder is longer than ${MAX_PATH_LENGTH} characters.` };
		if (!folders.includes(folder)) folders.push(folder);
	}
	if (folders.length > MAX_TOKEN_FOLDERS) return { error: `A token may be limited to at most ${MAX_TOKEN_FOLDERS} folders.` };
	return { folders };
}
