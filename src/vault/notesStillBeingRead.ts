import type { Host, HostFile } from "../host/Host";
import { STILL_BEING_READ_LISTED } from "../config/limits";
import { comparePaths, visibleNotes } from "./notes";
import type { Scope } from "./scope";
import type { CallBudget } from "./workBudget";

/**
 * The first STILL_BEING_READ_LISTED of `notes`, in path order, whose metadata the host has not read
 * yet: their tags, tasks and links are not known, which is not "none". Vault-wide answers name them
 * so the model asks again rather than hearing that such a note holds nothing. The files, not their
 * paths: a note renamed while the call pauses is named where it is when answered (stillBeingReadField).
 */
export async function notesStillBeingRead(host: Host, notes: readonly HostFile[], budget?: Pick<CallBudget, "due" | "checkpoint">): Promise<HostFile[]> {
	// Only the first few kept while walking: while Obsidian builds its cache every note is unread, and sorting them all would be one piece.
	const first: HostFile[] = [];
	for (const file of notes) {
		if (budget?.due()) await budget.checkpoint();
		if (file.extension !== "md" || host.metadataCache.getFileCache(file)) continue;
		const last = first[first.length - 1];
		if (first.length >= STILL_BEING_READ_LISTED && last !== undefined && comparePaths(file.path, last.path) >= 0) continue;
		const at = first.findIndex((kept) => comparePaths(file.path, kept.path) < 0);
		first.splice(at < 0 ? first.length : at, 0, file);
		if (first.length > STILL_BEING_READ_LISTED) first.pop();
	}
	return first;
}

/** The same among every note `scope` shows: any of them may hold a tag, a task or a link the answer counts. */
export function visibleNotesStillBeingRead(host: Host, scope: Scope, budget?: Pick<CallBudget, "due" | "checkpoint">): Promise<HostFile[]> {
	return notesStillBeingRead(host, visibleNotes(host, scope), budget);
}
