import type { Host, HostFile } from "../host/Host";
import { isNoteInScope, isPathVisible, type Scope } from "./scope";
import { visibleNotes } from "./notes";

export interface OutgoingLink {
	link: string;
	/** The resolved vault path, or null if the link points nowhere (or somewhere this token may not see). */
	target: string | null;
	/** 0-based line of the link; null for links in frontmatter properties. */
	line: number | null;
}

/** `Note#Heading` → `Note`. */
function linkpath(link: string): string {
	const hash = link.indexOf("#");
	return hash === -1 ? link : link.slice(0, hash);
}

/** The note's links, embeds and frontmatter links, each resolved like Obsidian resolves it. */
export function outgoingLinks(host: Host, scope: Scope, file: HostFile): OutgoingLink[] {
	const cache = host.metadataCache.getFileCache(file);
	if (!cache) return [];
	const resolve = (link: string) => {
		const target = host.metadataCache.getFirstLinkpathDest(linkpath(link), file.path);
		return target && isPathVisible(target.path, scope) ? target.path : null;
	};
	const inBody = [...(cache.links ?? []), ...(cache.embeds ?? [])]
		.sort((a, b) => a.position.start.offset - b.position.start.offset)
		.map((entry) => ({ link: entry.link, target: resolve(entry.link), line: entry.position.start.line }));
	const inFrontmatter = (cache.frontmatterLinks ?? []).map((entry) => ({ link: entry.link, target: resolve(entry.link), line: null }));
	return [...inFrontmatter, ...inBody];
}

/** Visible notes that link to `path`, with how many links each has to it. Excluded notes never appear. */
export function backlinks(host: Host, scope: Scope, path: string): Array<{ path: string; count: number }> {
	return Object.entries(host.metadataCache.resolvedLinks)
		.filter(([source, targets]) => path in targets && isNoteInScope(source, scope))
		.map(([source, targets]) => ({ path: source, count: targets[path] ?? 0 }))
		.sort((a, b) => b.count - a.count || a.path.localeCompare(b.path));
}

/**
 * The note's links that point nowhere, by link path. A link into a folder this token may not see
 * is listed here too, exactly as if its target did not exist: otherwise guessing names and
 * watching which links resolve would tell what an excluded folder holds.
 */
export function unresolvedLinks(host: Host, scope: Scope, file: HostFile): string[] {
	const unresolved = new Set(Object.keys(host.metadataCache.unresolvedLinks[file.path] ?? {}));
	for (const target of Object.keys(host.metadataCache.resolvedLinks[file.path] ?? {})) {
		if (isPathVisible(target, scope)) continue;
		for (const entry of linksOf(host, file)) {
			const resolved = host.metadataCache.getFirstLinkpathDest(linkpath(entry), file.path);
			if (resolved?.path === target) unresolved.add(linkpath(entry));
		}
	}
	return [...unresolved];
}

/** Every link text in a note: body links, embeds and frontmatter links. */
function linksOf(host: Host, file: HostFile): string[] {
	const cache = host.metadataCache.getFileCache(file);
	return [...(cache?.links ?? []), ...(cache?.embeds ?? []), ...(cache?.frontmatterLinks ?? [])].map((entry) => entry.link);
}

export interface GraphStats {
	notes: number;
	links: number;
	unresolved_links: number;
	orphans: number;
	top_linked: Array<{ path: string; backlinks: number }>;
}

/** Counts over the visible part of the link graph; excluded notes count nowhere. */
export function graphStats(host: Host, scope: Scope, topCount: number): GraphStats {
	const notes = visibleNotes(host, scope);
	const visible = new Set(notes.map((file) => file.path));
	const incoming = new Map<string, number>();
	const hasOutgoing = new Set<string>();
	let links = 0;
	let unresolved = 0;
	for (const source of visible) {
		for (const [target, count] of Object.entries(host.metadataCache.resolvedLinks[source] ?? {})) {
			// A link to a note this token may not see counts as unresolved, as if the note did not exist.
			if (!isPathVisible(target, scope)) unresolved += count;
			if (!visible.has(target) || target === source) continue;
			links += count;
			hasOutgoing.add(source);
			incoming.set(target, (incoming.get(target) ?? 0) + count);
		}
		for (const count of Object.values(host.metadataCache.unresolvedLinks[source] ?? {})) unresolved += count;
	}
	const orphans = notes.filter((file) => !incoming.has(file.path) && !hasOutgoing.has(file.path)).length;
	const topLinked = [...incoming.entries()]
		.sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
		.slice(0, topCount)
		.map(([path, count]) => ({ path, backlinks: count }));
	return { notes: notes.length, links, unresolved_links: unresolved, orphans, top_linked: topLinked };
}
