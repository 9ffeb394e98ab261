import type { Host } from "../host/Host";
import { getAllTags } from "../markdown/tags";
import { visibleNotes } from "./notes";
import type { Scope } from "./scope";

/** `#Project/Alpha` → `project/alpha`: how tags compare (Obsidian's tags are case-insensitive). */
export function tagKey(tag: string): string {
	return tag.replace(/^#/, "").toLowerCase();
}

/** Whether the tag key `key` is `wanted` or nested under it (`project/alpha` is under `project`). */
export function isTagOrNested(key: string, wanted: string): boolean {
	return key === wanted || key.startsWith(`${wanted}/`);
}

/** A tag and its parents: `a/b/c` → `a`, `a/b`, `a/b/c`. */
export function tagWithParents(key: string): string[] {
	const parts = key.split("/");
	return parts.map((_, index) => parts.slice(0, index + 1).join("/"));
}

/** Each visible note's distinct tags (frontmatter and body), as keys with their first-seen spelling. */
export function tagsByNote(host: Host, scope: Scope): Map<string, Map<string, string>> {
	const byNote = new Map<string, Map<string, string>>();
	for (const file of visibleNotes(host, scope)) {
		const cache = host.metadataCache.getFileCache(file);
		if (!cache) continue;
		const tags = new Map<string, string>();
		for (const tag of getAllTags(cache)) {
			const key = tagKey(tag);
			if (!tags.has(key)) tags.set(key, tag.replace(/^#/, ""));
		}
		if (tags.size) byNote.set(file.path, tags);
	}
	return byNote;
}

/**
 * How many visible notes carry each tag, nested tags counted for their parents too, like
 * Obsidian's tag pane. The spelling shown is the first one seen.
 */
export function countTags(host: Host, scope: Scope): Array<{ tag: string; count: number }> {
	const counts = new Map<string, { tag: string; count: number }>();
	for (const tags of tagsByNote(host, scope).values()) {
		const seen = new Set<string>();
		for (const [key, spelling] of tags) {
			const spellingParts = spelling.split("/");
			tagWithParents(key).forEach((ancestor, depth) => {
				if (seen.has(ancestor)) return;
				seen.add(ancestor);
				const entry = counts.get(ancestor) ?? { tag: `#${spellingParts.slice(0, depth + 1).join("/")}`, count: 0 };
				entry.count += 1;
				counts.set(ancestor, entry);
			});
		}
	}
	return [...counts.values()].sort((a, b) => b.count - a.count || a.tag.localeCompare(b.tag));
}

/** Visible notes carrying `tag` or a tag nested under it, sorted by path. */
export function notesWithTag(host: Host, scope: Scope, tag: string): string[] {
	const wanted = tagKey(tag);
	const found: string[] = [];
	for (const [path, tags] of tagsByNote(host, scope)) {
		if ([...tags.keys()].some((key) => isTagOrNested(key, wanted))) found.push(path);
	}
	return found.sort((a, b) => a.localeCompare(b));
}
