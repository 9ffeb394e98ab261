/** add_task's edit: today's daily note found or made, and one task line added in the note's own style. */
import dayjs from "dayjs";
import { COMPLETE_TASK_OPEN_TASKS_LISTED, METADATA_PARSE_SLICE_MS, NOTE_TEXT_SLICE_MS } from "../config/limits";
import type { Host, HostFile } from "../host/Host";
import { appendToEnd, appendUnderHeading } from "../markdown/outline";
import { changeTaskInNote, mayBeTaskLine } from "../markdown/taskCompletion";
import { formatTaskLine, taskText } from "../markdown/taskLine";
import { taskLinesSteps } from "../markdown/metadata";
import { runStepsInSlices, SliceClock } from "../markdown/steps";
import { yieldToEventLoop } from "./workBudget";
import { dailyNoteSettings, taskCompletionSettings, taskDateFormat } from "./obsidianSettings";
import { DAILY_NOTE_TIME_FORMAT, dailyNotePath, readDailyTemplate } from "./dailyNotes";
import { editNoteInStyle } from "./noteEdits";
import { fillTemplate } from "./templates";
import { findNote } from "./notes";
import { NOT_ACCESSIBLE } from "./paths";
import { mayNameHidden, type Scope } from "./scope";
import {
	checkNewNotePathOnHost,
	createNoteFile,
	editNote,
	LINK_SYNTAX_CHARACTERS_SHOWN,
	linkSyntaxNameError,
	listingOverBoundReason,
	newFolderWithLinkCharacter,
	NoteExistsError,
	visibleTwins,
} from "./writes";
import { fail, ok, type Result } from "../result";
import { taskItemsOf } from "../headless/compactMetadata";

/**
 * Today's daily note (local time), created from the Daily Notes settings and template when missing.
 * `created` says whether this call made it.
 */
export async function todaysDailyNote(
	host: Host,
	scope: Scope,
	now = new Date(),
): Promise<Result<{ file: HostFile; created: boolean; unused?: string | undefined }>> {
	const settings = await dailyNoteSettings(host);
	const { unused } = settings;
	const path = dailyNotePath(settings, now);
	const checked = await checkNewNotePathOnHost(host, path, scope);
	// Not named when it is where this token may not look: the path would tell the name of an excluded folder.
	// Whatever the path rules refuse in it (a device name, a name too long), that refusal must not quote a part of it either.
	if (!checked.ok && (checked.error.endsWith(`${NOT_ACCESSIBLE}.`) || mayNameHidden(path, scope)))
		return fail(`Today's daily note cannot be written: it ${NOT_ACCESSIBLE}.`);
	if (!checked.ok) return fail(`Today's daily note cannot be written: ${checked.error}`);
	const existing = host.vault.getFileByPath(checked.value);
	if (existing) return ok({ file: existing, created: false, unused });
	// As create_note refuses a name a link could not reach: a date format writing `#` or `[…]` as is (Obsidian makes it all the same).
	if (linkSyntaxNameError(checked.value) !== null)
		return fail(
			`Today's daily note cannot be written: its name "${checked.value.slice(checked.value.lastIndexOf("/") + 1)}" would hold one of ${LINK_SYNTAX_CHARACTERS_SHOWN}, so links to it would break. Nothing was written. Change the date format in Obsidian's Daily notes settings, or pass a path to add the task to a note.`,
		);
	const folderWithLinkCharacter = await newFolderWithLinkCharacter(host, checked.value);
	if (folderWithLinkCharacter !== undefined)
		return fail(
			`Today's daily note cannot be written: its folder "${folderWithLinkCharacter.folder}" would be made with one of ${LINK_SYNTAX_CHARACTERS_SHOWN} in its name ("${folderWithLinkCharacter.character}"), so links to notes in it by path would break. Nothing was written. Change the new file location or the date format in Obsidian's Daily notes settings, or pass a path to add the task to a note.`,
		);
	const twin = await dailyNoteTwinError(host, scope, checked.value);
	if (twin !== null) return fail(`Today's daily note cannot be written: ${twin}`);
	const title = checked.value.slice(checked.value.lastIndexOf("/") + 1, -".md".length);
	const filled = fillTemplate(
		await readDailyTemplate(host, scope, settings),
		{ dateFormat: settings.format, timeFormat: DAILY_NOTE_TIME_FORMAT },
		now,
		title,
	);
	if (!filled.ok) return fail(`Today's daily note cannot be written: ${filled.error}`);
	try {
		return ok({ file: await createNoteFile(host, checked.value, filled.value), created: true, unused });
	} catch (error) {
		// Another call made today's note a moment ago: add the task to that one.
		const made = error instanceof NoteExistsError ? host.vault.getFileByPath(checked.value) : null;
		if (!made) throw error;
		return ok({ file: made, created: false, unused });
	}
}

/**
 * Why today's daily note may not be made at `path` (null when it may): a visible note, or a visible folder of its folder's
 * name, that a person or a disk folding case reads as the same name (`visibleTwins`), which
 * create_note refuses. A Daily notes folder set as `daily` beside the vault's `Daily/` made a second folder (two in
 * Obsidian on Linux and Android; on macOS and Windows one on the disk, which Obsidian listed as two until it read the
 * vault again). Only visible paths are named: the twin looks pass over hidden and excluded files.
 */
async function dailyNoteTwinError(host: Host, scope: Scope, path: string): Promise<string | null> {
	const { note: namesake, folder, unlisted } = await visibleTwins(host, scope, path);
	if (namesake)
		return `a note already exists at "${namesake.path}", read as the same name as "${path}" (letter case and spaces aside). Nothing was written. Pass its path to add the task to it, or change the date format in Obsidian's Daily notes settings.`;
	if (folder !== undefined)
		return `a folder already exists at "${folder}", read as the same name as the folder of "${path}" (letter case and spaces aside). Nothing was written. Set the new file location in Obsidian's Daily notes settings to "${folder}", or pass a path to add the task to a note.`;
	if (unlisted !== undefined) return `Nothing was written. ${listingOverBoundReason(unlisted)}`;
	return null;
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
export async function addTask(
	host: Host,
	scope: Scope,
	options: AddTaskOptions,
): Promise<Result<{ path: string; line: number; createdNote: boolean; notice?: string | undefined }>> {
	let file: HostFile;
	let createdNote = false;
	// Today's daily note found by Obsidian's defaults, its settings file there but not used: the answer says why.
	let notice: string | undefined;
	if (options.path !== undefined) {
		const found = findNote(host, scope, options.path);
		if (!found.ok) return found;
		file = found.value;
	} else {
		const daily = await todaysDailyNote(host, scope);
		if (!daily.ok) return daily;
		({ file, created: createdNote, unused: notice } = daily.value);
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
	if (!result.ok) return result;
	if (!(await isTaskAt(result.value.text, result.value.line)))
		return fail(
			`The task would not be a task in "${file.path}": the note leaves a code block, comment or math block open${heading === undefined ? " to its end" : " in that section"}, so the line added there would be read as part of it (list_tasks and the Tasks plugin would not see it). Nothing was changed. Close that block in the note first, or add the task under a heading before it.`,
		);
	return ok({ path: file.path, line: result.value.line, createdNote, notice });
}

/**
 * What can stay open to a note's end and take in the lines after it: a fenced code block, an HTML
 * block or comment, a `%%` comment, `$$` math. A note holding none of them is not parsed again.
 */
const MAY_BE_LEFT_OPEN = /^ {0,3}(?:```|~~~|<)|%%|\$\$/m;

/**
 * Whether line `line` of `text` is a task to the parser list_tasks reads: a task added at the end
 * of a note whose code block is never closed was code, though add_task answered with its line.
 * Parsed in slices: the note may be a megabyte.
 */
async function isTaskAt(text: string, line: number): Promise<boolean> {
	if (!MAY_BE_LEFT_OPEN.test(text)) return true;
	const tasks = await new SliceClock(NOTE_TEXT_SLICE_MS, yieldToEventLoop).run(taskLinesSteps(text));
	return tasks.some((task) => task.line === line);
}

export interface CompleteTaskOptions {
	/** The note (path or link text). */
	path: string;
	/** The task's 0-based line and its text, as list_tasks gives them. */
	line: number;
	text: string;
	/** The new status character: `x` done, `-` cancelled, ` ` open again, or any the Tasks plugin is set up with. */
	status: string;
	/** The local day it happens, YYYY-MM-DD; today when omitted. */
	today?: string;
}

/** What complete_task changed: the task's line now (-1 when `🏁 delete` removed it), and the new occurrence's, if any. */
export interface CompletedTaskWrite {
	path: string;
	line: number;
	text: string;
	nextLine: number;
	nextText: string;
	noteText: string;
}

/**
 * Changes one task's status as the Tasks plugin does (done date, next occurrence of a recurring
 * task), in one atomic edit of the note; the task's text guards against a line that moved.
 */
export async function completeTask(host: Host, scope: Scope, options: CompleteTaskOptions): Promise<Result<CompletedTaskWrite>> {
	const found = findNote(host, scope, options.path);
	if (!found.ok) return found;
	const file = found.value;
	const [settings, vaultFormat] = await Promise.all([taskCompletionSettings(host), taskDateFormat(host)]);
	const cache = host.metadataCache.getFileCache(file);
	const cachedTasks = cache ? taskItemsOf(cache) : [];
	// The cache's tasks are those of the text it last parsed, which beside another program rewriting the
	// note in place may be the note as it was for an instant (empty: truncated, not yet written), and then
	// 89 of 100 completions were refused as "not the task". With no task of it on the line asked for, the
	// note's text is parsed (in slices) and its own tasks used; the edit below is planned on that same text.
	// Only when that line reads as the task asked for: any other line is refused whatever the parse finds,
	// and a caller repeating a wrong line had the whole note parsed at each call (a 5 MB note: about a second of CPU).
	let tasks = cachedTasks;
	if (!cachedTasks.some((task) => task.line === options.line)) {
		const text = await host.vault.cachedRead(file);
		if (mayBeTaskLine(text, options.line, options.text)) tasks = await runStepsInSlices(taskLinesSteps(text), METADATA_PARSE_SLICE_MS, yieldToEventLoop);
	}
	const today = options.today ?? dayjs().format("YYYY-MM-DD");
	let written: { lines: string[]; taskIndex: number; nextIndex: number; line: number; nextLine: number } | undefined;
	const result = await editNote(host, file, (text) => {
		const changed = changeTaskInNote(text, {
			line: options.line,
			text: options.text,
			status: options.status,
			today,
			vaultFormat,
			settings,
			tasks,
			tasksFrom: tasks !== cachedTasks ? "text" : cache ? "cache" : "unread",
			listLimit: COMPLETE_TASK_OPEN_TASKS_LISTED,
		});
		if (!changed.ok) return changed;
		written = changed.value;
		return ok({ text: changed.value.text, line: changed.value.line });
	});
	if (!result.ok) return result;
	if (!written) return fail("The note could not be changed.");
	const textOf = (index: number) => (index === -1 ? "" : taskText(written?.lines[index] ?? ""));
	return ok({
		path: file.path,
		line: written.line,
		text: textOf(written.taskIndex),
		nextLine: written.nextLine,
		nextText: textOf(written.nextIndex),
		noteText: result.value.text,
	});
}
