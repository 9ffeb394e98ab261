/**
 * The parts of a vault path (`Folder/Sub/Note.md`, always `/`-separated, no leading slash), as
 * Obsidian's TFile names them. Pure; every folder that splits a path asks here.
 */

/** The folder holding the file or folder at `path`: `Folder/Sub` for `Folder/Sub/Note.md`, "" at the vault's root. */
export function folderOf(path: string): string {
	const slash = path.lastIndexOf("/");
	return slash === -1 ? "" : path.slice(0, slash);
}
