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
import { MATCH_KEY_CACHE_SIZE } from "../config/limits";

/** True when `path` is `folder` itself or lies below it (exact spelling: for filters a caller chose). */
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

/** Zero-width and other invisible format characters: a name that differs only by them looks the same. */
// eslint-disable-next-line no-misleading-character-class -- each listed code point is removed on its own
const INVISIBLE = /[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0]|\udb40[\udc00-\udfff]/g;
/** Every kind of space: NFKC maps most look-alikes to U+0020, this catches the rest. */
const ANY_SPACE = /[\s\u2800]+/g;
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
const matchKeyCache = new Map<string, string>();

/** The text as a person sees it: compatibility-normalized (look-alike spaces and dots as plain ones), invisible characters removed. */
export function visibleForm(text: string): string {
	return text.normalize("NFKC").replace(INVISIBLE, "");
}

/**
 * The form two paths share when a person would read them as the same path: compatibility
 * normalization (NFKC: look-alike spaces, dots and letters), invisible characters removed,
 * runs of spaces as one, each part trimmed, lower case. Used only to compare, never to open a file.
 */
export function pathMatchKey(path: string): string {
	if (PRINTABLE_ASCII.test(path)) return path.toLowerCase();
	const cached = matchKeyCache.get(path);
	if (cached !== undefined) return cached;
	const key = visibleForm(path)
		.replace(ANY_SPACE, " ")
		.split("/")
		.map((part) => part.trim())
		.join("/")
		.toLowerCase()
		.normalize("NFKC");
	if (matchKeyCache.size >= MATCH_KEY_CACHE_SIZE) matchKeyCache.clear();
	matchKeyCache.set(path, key);
	return key;
}

/** True when `path` is `folder` or below it, compared by match key. */
export function isInFolderByKey(path: string, folder: string): boolean {
	return isInFolder(pathMatchKey(path), pathMatchKey(folder));
}

/** True when the path lies in an excluded folder (or the config folder), however it is spelt. */
export function isExcludedPath(path: string, scope: Scope): boolean {
	const key = pathMatchKey(path);
	if (isInFolder(key, pathMatchKey(scope.configDir))) return true;
	return scope.excludedFolders.some((folder) => isInFolder(key, pathMatchKey(folder)));
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
