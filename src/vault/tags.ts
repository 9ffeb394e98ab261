import type { CachedMetadata } from "obsidian";
import type { Host } from "../host/Host";
import { getAllTags } from "../markdown/tags";
import { comparePaths, visibleNotes } from "./notes";
import type { Scope } from "./scope";
import { sharedNoteMemo, type NoteMemo } from "./noteMemo";
import type { CallBudget } from "./workBudget";

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

/** A note's distinct tags (frontmatter and body), as keys with their first-seen spelling; pure. */
function tagsOfNote(cache: CachedMetadata): Map<string, string> {
	const tags = new Map<string, string>();
	for (const tag of getAllTags(cache)) {
		const key = tagKey(tag);
		if (!tags.has(key)) tags.set(key, tag.replace(/^#/, ""));
	}
	return tags;
}

/**
 * Each visible note's distinct tags, as keys with their first-seen spelling; derived once per
 * change of a note, the walk over the vault pausing on `budget`.
 */
async function tagsByNote(host: Host, scope: Scope, budget?: CallBudget, memo: NoteMemo = sharedNoteMemo): Promise<Map<string, ReadonlyMap<string, string>>> {
	const byNote = new Map<string, ReadonlyMap<string, string>>();
	for (const file of visibleNotes(host, scope)) {
		if (budget?.due()) await budget.checkpoint();
		const cache = host.metadataCache.getFileCache(file);
		if (!cache) continue;
		const tags = rememberTags(cache, memo);
		if (tags.size) byNote.set(file.path, tags);
	}
	return byNote;
}

/** A note's tags, derived once per version of its metadata. */
export function rememberTags(cache: CachedMetadata, memo: NoteMemo = sharedNoteMemo): ReadonlyMap<string, string> {
	let tags = memo.tags.get(cache);
	if (!tags) {
		tags = tagsOfNote(cache);
		memo.tags.set(cache, tags);
	}
	return tags;
}

/**
 * How many visible notes carry each tag, nested tags counted for their parents too, like
 * Obsidian's tag pane. The spelling shown is that of the first note in path order that holds the
 * tag, so the answer never depends on the order the file system lists notes in.
 */
export async function countTags(host: Host, scope: Scope, budget?: CallBudget, memo?: NoteMemo): Promise<Array<{ tag: string; count: number }>> {
	const counts = new Map<string, { tag: string; count: number; spelledBy: string }>();
	for (const [path, tags] of await tagsByNote(host, scope, budget, memo)) {
		if (budget?.due()) await budget.checkpoint();
		const seen = new Set<string>();
		for (const [key, spelling] of tags) {
			const spellingParts = spelling.split("/");
			tagWithParents(key).forEach((ancestor, depth) => {
				if (seen.has(ancestor)) return;
				seen.add(ancestor);
				const spelled = `#${spellingParts.slice(0, depth + 1).join("/")}`;
				const entry = counts.get(ancestor);
				if (!entry) {
					counts.set(ancestor, { tag: spelled, count: 1, spelledBy: path });
					return;
				}
				entry.count += 1;
				if (comparePaths(path, entry.spelledBy) < 0) {
					entry.tag = spelled;
					entry.spelledBy = path;
				}
			});
		}
	}
	return [...counts.values()].map(({ tag, count }) => ({ tag, count })).sort((a, b) => b.count - a.count || comparePaths(a.tag, b.tag));
}

/** Visible notes carrying `tag` or a tag nested under it, sorted by path. */
export async function notesWithTag(host: Host, scope: Scope, tag: string, budget?: CallBudget, memo?: NoteMemo): Promise<string[]> {
	const wanted = tagKey(tag);
	const found: string[] = [];
	for (const [path, tags] of await tagsByNote(host, scope, budget, memo)) {
		for (const key of tags.keys()) {
			if (isTagOrNested(key, wanted)) {
				found.push(path);
				break;
			}
		}
	}
	return found.sort(comparePaths);
}
