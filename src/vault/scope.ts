/**
 * Which vault paths the tools may see. Pure: the same rules in the plugin and headless.
 * Obsidian itself never lists dot-folders; the config folder and `.trash` are dot-folders in
 * every default vault, but the config folder's name is a setting, so it is checked by name too.
 */

/** True when `path` is `folder` itself or lies below it. */
export function isInFolder(path: string, folder: string): boolean {
	return path === folder || path.startsWith(folder + "/");
}

/** True when any part of the path starts with a dot (hidden files and folders). */
export function isHiddenPath(path: string): boolean {
	return path.split("/").some((part) => part.startsWith("."));
}

/** What decides whether a path is in scope. */
export interface Scope {
	configDir: string;
	excludedFolders: readonly string[];
}

/** True when a tool may name the file at `path` (a note or an attachment) in a result. */
export function isPathVisible(path: string, scope: Scope): boolean {
	if (isHiddenPath(path) || isInFolder(path, scope.configDir)) return false;
	return !scope.excludedFolders.some((folder) => isInFolder(path, folder));
}

/** True when a tool may see the Markdown note at `path`. */
export function isNoteInScope(path: string, scope: Scope): boolean {
	return path.endsWith(".md") && isPathVisible(path, scope);
}
