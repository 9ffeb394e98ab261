import type { Host, HostFile } from "../host/Host";
import { STILL_BEING_READ_LISTED } from "../config/limits";
import { comparePaths, visibleNotes } from "./notes";
import type { Scope } from "./scope";
import type { CallBudget } from "./workBudget";

/**
 * The first STILL_BEING_READ_LISTED of `notes`, in path order, whose metadata the host has not read
 * yet: their tags, tasks and links are not known, which is not "none". Vault-wide answers name them
 * so the model asks again rather than hearing that such a note holds nothing.
 */
export async function notesStillBeingRead(host: Host, notes: readonly HostFile[], budget?: Pick<CallBudget, "due" | "checkpoint">): Promise<string[]> {
	const unread: string[] = [];
	for (const file of notes) {
		if (budget?.due()) await budget.checkpoint();
		if (file.extension === "md" && !host.metadataCache.getFileCache(file)) unread.push(file.path);
	}
	return unread.sort(comparePaths).slice(0, STILL_BEING_READ_LISTED);
}

/** The same among every note `scope` shows: any of them may hold a tag, a task or a link the answer counts. */
export function visibleNotesStillBeingRead(host: Host, scope: Scope, budget?: Pick<CallBudget, "due" | "checkpoint">): Promise<string[]> {
	return notesStillBeingRead(host, visibleNotes(host, scope), budget);
}
