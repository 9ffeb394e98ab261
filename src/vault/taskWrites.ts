/** add_task's edit: today's daily note found or made, and one task line added in the note's own style. */
import type { Host, HostFile } from "../host/Host";
import { appendToEnd, appendUnderHeading } from "../markdown/outline";
import { formatTaskLine } from "../markdown/taskLine";
import { dailyNoteSettings, taskDateFormat } from "./config";
import { dailyNotePath, fillTemplate, readDailyTemplate } from "./dailyNotes";
import { editNoteInStyle } from "./noteEdits";
import { findNote } from "./notes";
import type { Scope } from "./scope";
import { checkNewNotePath, createNoteFile, NoteExistsError } from "./writes";

/**
 * Today's daily note (local time), created from the Daily Notes settings and template when missing.
 * `created` says whether this call made it.
 */
export async function todaysDailyNote(host: Host, scope: Scope, now = new Date()): Promise<{ file: HostFile; created: boolean } | { error: string }> {
	const settings = await dailyNoteSettings(host);
	const checked = checkNewNotePath(dailyNotePath(settings, now), scope);
	if ("error" in checked) return { error: `Today's daily note cannot be written: ${checked.error}` };
	const existing = host.vault.getFileByPath(checked.value);
	if (existing) return { file: existing, created: false };
	const title = checked.value.slice(checked.value.lastIndexOf("/") + 1, -".md".length);
	try {
		return { file: await createNoteFile(host, checked.value, fillTemplate(await readDailyTemplate(host, scope, settings), settings, now, title)), created: true };
	} catch (error) {
		// Another call made today's note a moment ago: add the task to that one.
		const made = error instanceof NoteExistsError ? host.vault.getFileByPath(checked.value) : null;
		if (!made) throw error;
		return { file: made, created: false };
	}
}

export interface AddTaskOptions {
	/** An existing note (path or link text); omitted: today's daily note, made if missing. */
	path?: string;
	/** The task, one line. */
	text: string;
	/** YYYY-MM-DD, written in the format list_tasks reads. */
	due?: string;
	/** Add under this heading rather than at the end. */
	heading?: string;
	/** The mode an empty note (a daily note just made from an empty template) is written in. */
	emptyNoteMode: "outliner" | "freeform";
}

/** Adds one open task to the note `options.path` names, or to today's daily note; returns where it went. */
export async function addTask(host: Host, scope: Scope, options: AddTaskOptions): Promise<{ path: string; line: number; createdNote: boolean } | { error: string }> {
	let file: HostFile;
	let createdNote = false;
	if (options.path !== undefined) {
		const found = findNote(host, scope, options.path);
		if ("error" in found) return found;
		file = found.value;
	} else {
		const daily = await todaysDailyNote(host, scope);
		if ("error" in daily) return daily;
		({ file, created: createdNote } = daily);
	}
	const dateFormat = options.due === undefined ? "emoji" : await taskDateFormat(host);
	const { heading } = options;
	const result = await editNoteInStyle(
		host,
		file,
		(text, { format, mode }) => {
			const taskLine = formatTaskLine(format.marker, options.text, options.due, dateFormat);
			return heading === undefined ? appendToEnd(text, taskLine, mode, format) : appendUnderHeading(text, heading, taskLine, mode, format);
		},
		options.emptyNoteMode,
	);
	return "error" in result ? result : { path: file.path, line: result.line, createdNote };
}
