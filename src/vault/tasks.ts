import type { Host } from "../host/Host";
import { parseTaskDates, taskStatus, taskText, type TaskDates } from "../markdown/taskLine";
import { isInFolder, type Scope } from "./scope";
import { visibleNotes } from "./notes";

/** One task as list_tasks reports it. */
export interface TaskEntry extends TaskDates {
	path: string;
	line: number;
	text: string;
	status: ReturnType<typeof taskStatus>;
	status_char: string;
}

export interface TaskFilter {
	status: "open" | "done" | "cancelled" | "other" | "any";
	folder?: string;
	path?: string;
	dueBefore?: string;
	dueAfter?: string;
	dueOn?: string;
}

/** Tasks in visible notes, from the metadata cache's list items, filtered; in path and line order. */
export async function findTasks(host: Host, scope: Scope, filter: TaskFilter): Promise<TaskEntry[]> {
	const found: TaskEntry[] = [];
	const notes = visibleNotes(host, scope)
		.filter((file) => (filter.path ? file.path === filter.path : true))
		.filter((file) => (filter.folder ? isInFolder(file.path, filter.folder) : true))
		.sort((a, b) => a.path.localeCompare(b.path));
	for (const file of notes) {
		const items = host.metadataCache.getFileCache(file)?.listItems?.filter((item) => item.task !== undefined);
		if (!items?.length) continue;
		const lines = (await host.vault.cachedRead(file)).split("\n");
		for (const item of items) {
			const statusChar = item.task ?? " ";
			const status = taskStatus(statusChar);
			if (filter.status !== "any" && status !== filter.status) continue;
			const lineNumber = item.position.start.line;
			const line = (lines[lineNumber] ?? "").replace(/\r$/, "");
			const dates = parseTaskDates(line);
			if (!matchesDue(dates.due, filter)) continue;
			found.push({ path: file.path, line: lineNumber, text: taskText(line), status, status_char: statusChar, ...dates });
		}
	}
	return found;
}

function matchesDue(due: string | undefined, filter: TaskFilter): boolean {
	if (filter.dueBefore === undefined && filter.dueAfter === undefined && filter.dueOn === undefined) return true;
	if (due === undefined) return false;
	if (filter.dueOn !== undefined && due !== filter.dueOn) return false;
	if (filter.dueBefore !== undefined && !(due < filter.dueBefore)) return false;
	if (filter.dueAfter !== undefined && !(due > filter.dueAfter)) return false;
	return true;
}
