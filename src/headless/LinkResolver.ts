import type { HostFile } from "../host/Host";

function folderOf(path: string): string {
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

/**
 * Obsidian's link resolution (`getFirstLinkpathDest`) over a set of files: the exact vault path
 * (with or without `.md`), then a path relative to the linking note (`./`, `../`), then any file
 * whose path ends with the link, case-insensitively — one in the linking note's folder first,
 * else the shortest path. Keeps an index by file name so a lookup never scans the vault.
 */
export class LinkResolver {
	private readonly byPath = new Map<string, HostFile>();
	private readonly byName = new Map<string, HostFile[]>();

	add(file: HostFile): void {
		this.byPath.set(file.path.toLowerCase(), file);
		const name = file.name.toLowerCase();
		const list = this.byName.get(name);
		if (list) list.push(file);
		else this.byName.set(name, [file]);
	}

	remove(path: string): void {
		const file = this.byPath.get(path.toLowerCase());
		if (!file) return;
		this.byPath.delete(path.toLowerCase());
		const name = file.name.toLowerCase();
		const rest = (this.byName.get(name) ?? []).filter((candidate) => candidate.path !== path);
		if (rest.length) this.byName.set(name, rest);
		else this.byName.delete(name);
	}

	/** The file a link path points to from `sourcePath`, or null. An empty link path is the source itself. */
	resolve(linkpath: string, sourcePath: string): HostFile | null {
		if (linkpath === "") return this.byPath.get(sourcePath.toLowerCase()) ?? null;
		const wanted = linkpath.replace(/^\/+/, "");
		const sourceFolder = folderOf(sourcePath);

		if (linkpath.startsWith("./") || linkpath.startsWith("../")) {
			const relative = collapseDots(sourceFolder ? `${sourceFolder}/${linkpath}` : linkpath);
			return relative === null ? null : this.exact(relative);
		}
		const exact = this.exact(wanted);
		if (exact) return exact;

		const lower = wanted.toLowerCase();
		const name = lower.slice(lower.lastIndexOf("/") + 1);
		const candidates = [...(this.byName.get(name) ?? []), ...(this.byName.get(`${name}.md`) ?? [])].filter((file) => {
			const path = file.path.toLowerCase();
			return path === lower || path === `${lower}.md` || path.endsWith(`/${lower}`) || path.endsWith(`/${lower}.md`);
		});
		if (candidates.length === 0) return null;
		const sameFolder = candidates.find((file) => folderOf(file.path) === sourceFolder);
		if (sameFolder) return sameFolder;
		return candidates.reduce((best, file) => (file.path.length < best.path.length || (file.path.length === best.path.length && file.path < best.path) ? file : best));
	}

	private exact(path: string): HostFile | null {
		const lower = path.toLowerCase();
		return this.byPath.get(lower) ?? this.byPath.get(`${lower}.md`) ?? null;
	}
}
