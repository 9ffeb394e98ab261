/**
 * Which vault paths the tools may see. Pure: the same rules in the plugin and headless.
 * Obsidian itself never lists dot-folders; the config folder and `.trash` are dot-folders in
 * every default vault, but the config folder's name is a setting, so it is checked by name too.
 *
 * Exclusions and the config folder are compared by `pathMatchKey`, not by spelling: on the disks
 * people use (macOS and Windows fold case; look-alike spaces and dots read the same to a person),
 * "private journal" or "Private\u2007Journal" must not be a way around an excluded "Private Journal".
 * Hiding a folder that only looks like an excluded one is the safe side of that choice.
 */
import { normalizeVaultPath, pathMatchKey } from "../paths/spelling";

/** True when `path` is `folder` itself or lies below it (exact spelling: for filters a caller chose). */
export function isInFolder(path: string, folder: string): boolean {
	return path === folder || path.startsWith(folder + "/");
}

/**
 * True when any part of the path starts with a dot (hidden files and folders): the path starts
 * with one or holds one right after a slash. Asked for every file a link plan looks at, so it
 * splits nothing.
 */
export function isHiddenPath(path: string): boolean {
	return path.startsWith(".") || path.includes("/.");
}

/** What decides whether a path is in scope. */
export interface Scope {
	configDir: string;
	excludedFolders: readonly string[];
	/**
	 * The only folders the caller may see (its token's folders), in the vault's one spelling;
	 * absent or empty: the whole vault. Everything outside them is hidden exactly like an
	 * excluded folder, so a token limited to `Projects` meets a vault that holds nothing else.
	 */
	tokenFolders?: readonly string[];
}

/**
 * True when `path` lies inside one of the token's folders, or the token has none. Compared by exact
 * spelling, not by match key: a look-alike of an allowed folder is another folder, and treating
 * it as allowed would widen what the token sees (the unsafe side, unlike for exclusions).
 */
function isInTokenFolders(path: string, scope: Scope): boolean {
	const folders = scope.tokenFolders;
	if (folders === undefined || folders.length === 0) return true;
	return folders.some((folder) => isInFolder(path, folder));
}

/** Each scope's key as last made, beside the fields it was made from. */
const scopeKeys = new WeakMap<Scope, { configDir: string; excludedFolders: readonly string[]; tokenFolders: readonly string[] | undefined; key: string }>();

/**
 * A key that is the same for two scopes exactly when they show the same paths (for memos kept per
 * scope). A scope lives for many calls (one a token and settings) and every read call asks for its
 * key twice, as it starts and as its answer leaves: the key is made again only when a field is
 * another value than it was made from (a folder list is never changed in place: it is readonly).
 */
export function scopeKey(scope: Scope): string {
	const known = scopeKeys.get(scope);
	if (
		known !== undefined &&
		known.configDir === scope.configDir &&
		known.excludedFolders === scope.excludedFolders &&
		known.tokenFolders === scope.tokenFolders
	)
		return known.key;
	const key = JSON.stringify([scope.configDir, scope.excludedFolders, scope.tokenFolders ?? []]);
	scopeKeys.set(scope, { configDir: scope.configDir, excludedFolders: scope.excludedFolders, tokenFolders: scope.tokenFolders, key });
	return key;
}

/** An excluded folder as paths are compared with it: its match key, and the key with a slash after it (what a path inside starts with). */
interface ExcludedFolderKey {
	key: string;
	inside: string;
}

/** Each list of excluded folders' keys, made once a list (a list is never changed in place: it is readonly). */
const excludedFolderKeys = new WeakMap<readonly string[], readonly ExcludedFolderKey[]>();

/**
 * The match keys of `folders`, made once a list: made again for every path checked, a hub note's
 * 3,000 links and their backlinks checked against 600 excluded folders were 3.6 million keys, 570 ms
 * of a 2 s call budget that a machine at load 20 used up.
 */
function keysOfExcludedFolders(folders: readonly string[]): readonly ExcludedFolderKey[] {
	let keys = excludedFolderKeys.get(folders);
	if (keys === undefined) {
		keys = folders.map((folder) => {
			const key = pathMatchKey(folder);
			return { key, inside: `${key}/` };
		});
		excludedFolderKeys.set(folders, keys);
	}
	return keys;
}

/** True when the path lies in an excluded folder (or the config folder), however it is spelt, or outside the token's folders. */
export function isExcludedPath(path: string, scope: Scope): boolean {
	if (!isInTokenFolders(path, scope)) return true;
	const key = pathMatchKey(path);
	if (isInFolder(key, pathMatchKey(scope.configDir))) return true;
	return keysOfExcludedFolders(scope.excludedFolders).some((folder) => key === folder.key || key.startsWith(folder.inside));
}

/** True when a tool may name the file at `path` (a note or an attachment) in a result. */
export function isPathVisible(path: string, scope: Scope): boolean {
	if (isHiddenPath(path) || isHiddenPath(pathMatchKey(path))) return false;
	return !isExcludedPath(path, scope);
}

/** True when a tool may see the Markdown note at `path`. */
export function isNoteInScope(path: string, scope: Scope): boolean {
	return path.endsWith(".md") && isPathVisible(path, scope);
}

/**
 * Whether a path taken from a setting (a templates or daily notes folder, a daily note's path) may
 * name a folder or note this caller may not see, even where the path rules refuse it: the path, or
 * any run of its last parts, read as a vault path (backslashes as slashes, `.` parts left out, a
 * `..` taking away the name before it), is excluded or outside the token's folders.
 * `./Private/Templates`, `Notes/../Private/Templates`, `Private\Daily`, `Private/CON` and
 * `Private/../Notes` all name `Private` to whoever reads them, so an error about such a setting must not quote it.
 */
export function mayNameHidden(configured: string, scope: Scope): boolean {
	const parts: string[] = [];
	// A `..` past the vault's root: the path may come back in anywhere below, so each run of its last parts is looked at.
	let climbedOut = false;
	const named = (): boolean => {
		const starts = climbedOut ? parts.length : Math.min(1, parts.length);
		for (let from = 0; from < starts; from++) if (isExcludedPath(parts.slice(from).join("/"), scope)) return true;
		return false;
	};
	for (const part of normalizeVaultPath(configured).split("/")) {
		if (part === "..") {
			// The part a `..` takes away is still written in the setting: `Private/..` names `Private`.
			if (named()) return true;
			climbedOut = parts.pop() === undefined || climbedOut;
		} else if (part !== "." && part !== "") parts.push(part);
	}
	return named();
}
