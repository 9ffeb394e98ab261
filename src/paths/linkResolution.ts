/**
 * Obsidian's link resolution (`metadataCache.getFirstLinkpathDest`), once, over whatever set of
 * files a caller hands in: the headless metadata cache over every file, the vault layer over the
 * files a token may see, a rename over "the file as it is now, or the renamed note where it will
 * be". Pure. The rule, checked against captures from Obsidian itself (test/golden):
 *
 * - an empty link path (`[[#Heading]]`) is the linking note itself (its path exactly);
 * - `./` and `../` name one path from the linking note's folder (never above the vault root);
 * - else the vault path itself, with or without `.md` (a leading `/` is the vault root);
 * - else any file whose path ends with `/<link>` or `/<link>.md`: one in the linking note's
 *   folder first, else the shortest path (then the first in path order).
 *
 * All of it case-insensitive, as Obsidian compares link paths. A link path over MAX_VAULT_PATH_CHARS
 * names nothing, unread.
 */

import { MAX_VAULT_PATH_CHARS } from "../config/limits";

/** What resolution needs of a file (a HostFile fits). */
export interface LinkFile {
	path: string;
}

/** The folder part of a vault path ("" at the root). */
export function folderOf(path: string): string {
	const slash = path.lastIndexOf("/");
	return slash === -1 ? "" : path.slice(0, slash);
}

/** `a/b/../c` → `a/c`; null when `..` would leave the vault. */
function collapseDots(path: string): string | null {
	const parts: string[] = [];
	for (const part of path.split("/")) {
		if (part === "" || part === ".") continue;
		if (part === "..") {
			if (parts.length === 0) return null;
			parts.pop();
		} else {
			parts.push(part);
		}
	}
	return parts.join("/");
}

/** How a link path names files: one exact path (lower case, with or without `.md`), or the end of any path. */
export type LinkQuery = { exact: string } | { endsWith: string };

/** What a link path asks for from `sourcePath`, in the case it was written; null when it names nothing (a relative link out of the vault, or one longer than any path). */
function linkQueryAsWritten(linkpath: string, sourcePath: string): LinkQuery | null {
	if (linkpath.length > MAX_VAULT_PATH_CHARS) return null;
	if (linkpath === "") return { exact: sourcePath };
	if (linkpath.startsWith("./") || linkpath.startsWith("../")) {
		const folder = folderOf(sourcePath);
		const relative = collapseDots(folder ? `${folder}/${linkpath}` : linkpath);
		return relative === null ? null : { exact: relative };
	}
	return { endsWith: linkpath.replace(/^\/+/u, "") };
}

/** What a link path asks for from `sourcePath`, in lower case as Obsidian compares it; null when it names nothing. */
export function linkQuery(linkpath: string, sourcePath: string): LinkQuery | null {
	const query = linkQueryAsWritten(linkpath, sourcePath);
	if (query === null) return null;
	return "exact" in query ? { exact: query.exact.toLowerCase() } : { endsWith: query.endsWith.toLowerCase() };
}

/** The lower-case file name a query's files carry (without a possible `.md`): what an index by name looks up. */
export function queriedName(query: LinkQuery): string {
	const path = "exact" in query ? query.exact : query.endsWith;
	return path.slice(path.lastIndexOf("/") + 1);
}

/**
 * The file `linkpath` reaches from `sourcePath` among `files` (any order; only the ones whose
 * name matches matter, so a caller with an index by name may pass just those), or null.
 *
 * Files whose paths differ only in case (a case-sensitive disk holds both) are told apart the way
 * Obsidian looks a path up: the one spelled as the link spells it first, else the first in path
 * order, never whichever came first in `files`, so a token's view of the vault and the whole
 * vault pick the same one.
 */
export function pickLinkTarget<F extends LinkFile>(linkpath: string, sourcePath: string, files: Iterable<F>): F | null {
	if (linkpath === "") {
		for (const file of files) if (file.path === sourcePath) return file;
		return null;
	}
	const asWritten = linkQueryAsWritten(linkpath, sourcePath);
	if (asWritten === null) return null;
	const exactAsWritten = "exact" in asWritten ? asWritten.exact : asWritten.endsWith;
	const wanted = exactAsWritten.toLowerCase();
	const withExtension = `${wanted}.md`;
	let exact: F | null = null;
	let exactWithExtension: F | null = null;
	let sameFolder: F | null = null;
	let shortest: F | null = null;
	const sourceFolder = folderOf(sourcePath);
	const better = (file: F, best: F | null) =>
		best === null || file.path.length < best.path.length || (file.path.length === best.path.length && file.path < best.path);
	const betterSpelled = (file: F, best: F | null, spelled: string) =>
		best === null || (file.path === spelled) > (best.path === spelled) || ((file.path === spelled) === (best.path === spelled) && file.path < best.path);
	for (const file of files) {
		const lower = file.path.toLowerCase();
		if (lower === wanted) {
			if (betterSpelled(file, exact, exactAsWritten)) exact = file;
			continue;
		}
		if (lower === withExtension) {
			if (betterSpelled(file, exactWithExtension, `${exactAsWritten}.md`)) exactWithExtension = file;
			continue;
		}
		if ("exact" in asWritten || !(lower.endsWith(`/${wanted}`) || lower.endsWith(`/${withExtension}`))) continue;
		if (folderOf(file.path) === sourceFolder && better(file, sameFolder)) sameFolder = file;
		if (better(file, shortest)) shortest = file;
	}
	return exact ?? exactWithExtension ?? sameFolder ?? shortest;
}

/**
 * The files of a vault by path and by lower-case name, kept current with `add` and `remove`, so
 * resolving a link looks at the few files of that name, never the whole vault.
 */
export class LinkFileIndex<F extends LinkFile & { name: string }> {
	private readonly byPath = new Map<string, F>();
	private readonly byName = new Map<string, F[]>();

	/**
	 * Adds `file`; adding it again at the same path changes nothing (a note parsed ahead of its queued create is added twice).
	 * Another file still listed at its path is dropped first: changes are applied after they happened, so a note renamed
	 * onto the path of one deleted meanwhile can be added before that delete is applied. Kept in its name's list, the
	 * deleted note stayed there once the delete removed the other from the path, and `[[Name]]` reached it for good.
	 */
	add(file: F): void {
		const listed = this.byPath.get(file.path);
		if (listed === file) return;
		if (listed !== undefined) this.remove(file.path);
		this.byPath.set(file.path, file);
		const name = file.name.toLowerCase();
		const list = this.byName.get(name);
		if (list) list.push(file);
		else this.byName.set(name, [file]);
	}

	/**
	 * Forgets the file that was at `path`. A renamed file is the same object, already carrying its new
	 * path and name (as Obsidian's TFile): the list it leaves is the one of the name at `path`, and it
	 * is told by identity. Read from the object, `Plan.md` renamed `Plan.md.md` and then deleted stayed
	 * in the list of `plan.md`, so `[[Plan.md]]` still reached the deleted file.
	 */
	remove(path: string): void {
		const file = this.byPath.get(path);
		if (!file) return;
		this.byPath.delete(path);
		const name = path.slice(path.lastIndexOf("/") + 1).toLowerCase();
		const rest = (this.byName.get(name) ?? []).filter((candidate) => candidate !== file);
		if (rest.length) this.byName.set(name, rest);
		else this.byName.delete(name);
	}

	/**
	 * The file `linkpath` reaches from `sourcePath`, by `pickLinkTarget`, or null. The files it
	 * compares the link with (every file of the name asked for) are added to `work.compared`, for a
	 * caller resolving many links to pause by: a name hundreds of folders hold costs each link as much.
	 */
	resolve(linkpath: string, sourcePath: string, work?: { compared: number }): F | null {
		const query = linkQuery(linkpath, sourcePath);
		if (query === null) return null;
		if (linkpath === "") return this.byPath.get(sourcePath) ?? null;
		const name = queriedName(query);
		const candidates = [...(this.byName.get(name) ?? []), ...(this.byName.get(`${name}.md`) ?? [])];
		if (work) work.compared += candidates.length;
		return pickLinkTarget(linkpath, sourcePath, candidates);
	}
}
