import type { CachedMetadata } from "obsidian";
import type { Host, HostFile } from "../host/Host";
import { parseTaskDates, taskStatus, taskStatusCharOf, taskText, type TaskDates } from "../markdown/taskLine";
import { metadataSteps } from "../markdown/metadata";
import { isInFolder, type Scope } from "./scope";
import { comparePathsStrictly, noteVisibility } from "./notes";
import { sharedNoteMemo, type NoteMemo } from "./noteMemo";
import { dateNumber, NO_TASKS, PackedTasks, TaskTally, type NoteTask } from "./packedTasks";
import { runStepsOnBudget, type CallBudget } from "./workBudget";
import { runSteps, type Steps } from "../markdown/steps";
import { LINE_INDEX_PAUSE_LINES, NOTE_TEXT_PIECE_CHARS, RENAMED_WALKS_REDONE, SLICED_TASKS, STILL_BEING_READ_LISTED } from "../config/limits";
import { listItemsShapeOf, taskItemReaderOf } from "../headless/compactMetadata";
import { ChunkedArray } from "../markdown/chunkedArray";
import { notesStillBeingRead, type NotesNotYetRead } from "./notesStillBeingRead";
import { firstInOrder } from "./firstInOrder";
import type { NotesWithTasks } from "./notesWithTasks";

/** What the running server keeps of the vault so a call need not walk every note; absent parts are walked for. */
export interface KeptForTasks {
	notesWithTasks?: NotesWithTasks;
	notesNotYetRead?: NotesNotYetRead;
}

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

/** A note's tasks as derived from one pair of metadata and text. */
interface DerivedTasks {
	tasks: PackedTasks;
	/**
	 * A task line of the metadata is not that task in the text (no task line there, or another
	 * status): the metadata is older than the text, as it is until the cache has parsed an edit.
	 * Those lines are left out of `tasks`.
	 */
	stale: boolean;
}

/**
 * A note's tasks from its task items' lines in its text, in pausable steps. Pure. The tasks are
 * read one at a time from the packed metadata, and their lines found from the last one's on, so
 * neither the list items nor the note's lines are listed whole: a note of 200,000 tasks made both
 * lists in one piece of about 160 ms.
 */
function* tasksOfNoteSteps(cache: CachedMetadata, text: string): Steps<DerivedTasks> {
	const nextItem = taskItemReaderOf(cache);
	let item = nextItem();
	if (item === undefined) return { tasks: NO_TASKS, stale: false };
	const lines = new LineCursor(text);
	// Packed for the memo as each task is derived (packing 30,000 tasks at the end was one piece of 0.1 s).
	const fields = new ChunkedArray<string>();
	const tally = new TaskTally();
	let stale = false;
	// A pause point every SLICED_TASKS tasks, or sooner after NOTE_TEXT_PIECE_CHARS of their lines: a thousand task lines of 2,000 characters took 0.1 s.
	let tasksSince = 0;
	let charsSince = 0;
	yield;
	for (; item !== undefined; item = nextItem()) {
		if (tasksSince >= SLICED_TASKS || charsSince >= NOTE_TEXT_PIECE_CHARS) {
			yield;
			tasksSince = 0;
			charsSince = 0;
		}
		const lineNumber = item.line;
		// Lines between two tasks are passed over in steps too (a task after a million other lines).
		while (!lines.moveTo(lineNumber, LINE_INDEX_PAUSE_LINES)) yield;
		const line = lines.lineText().replace(/\r$/, "");
		tasksSince++;
		charsSince += line.length;
		if (taskStatusCharOf(line) !== item.status) {
			stale = true;
			continue;
		}
		PackedTasks.pushFields({ line: lineNumber, text: taskText(line), statusChar: item.status, ...parseTaskDates(line) }, fields, tally);
	}
	yield;
	// Its fields joined into one string, so none keeps the note's whole text alive.
	return { tasks: yield* PackedTasks.ofFieldsSteps(fields, tally), stale };
}

/** A note's tasks from its text alone, parsed as the metadata cache parses it, in pausable steps. Pure. */
function* tasksOfTextSteps(text: string): Steps<PackedTasks> {
	const parsed = yield* metadataSteps(text);
	return (yield* tasksOfNoteSteps(parsed, text)).tasks;
}

/** A note's lines read by number, as `text.split("\n")[line]` gives them, mostly in increasing order, without splitting the text. */
class LineCursor {
	private line = 0;
	/** Where line `line` starts; -1 past the text's last line. */
	private start = 0;

	constructor(private readonly note: string) {}

	/** Goes to line `wanted`, passing at most `maxLines` line breaks; false when it has not got there yet (call again). */
	moveTo(wanted: number, maxLines: number): boolean {
		if (wanted < this.line) {
			this.line = 0;
			this.start = 0;
		}
		for (let passed = 0; this.line < wanted && this.start !== -1; passed++) {
			if (passed >= maxLines) return false;
			const end = this.note.indexOf("\n", this.start);
			this.start = end === -1 ? -1 : end + 1;
			this.line++;
		}
		return true;
	}

	/** The current line's text ("" past the last line). */
	lineText(): string {
		if (this.start === -1) return "";
		const end = this.note.indexOf("\n", this.start);
		return this.note.slice(this.start, end === -1 ? this.note.length : end);
	}
}

function hasTasks(cache: CachedMetadata): boolean {
	return listItemsShapeOf(cache).tasks;
}

/** Keeps a note's tasks from text in hand (the search index reads every note's text anyway), unless the metadata is older than the text. */
export function rememberTasks(cache: CachedMetadata, text: string, memo: NoteMemo = sharedNoteMemo): void {
	if (memo.tasks.has(cache)) return;
	const shape = listItemsShapeOf(cache);
	if (shape.count >= SLICED_TASKS) return;
	if (!shape.tasks) {
		memo.tasks.set(cache, NO_TASKS);
		return;
	}
	const derived = runSteps(tasksOfNoteSteps(cache, text));
	if (!derived.stale) memo.tasks.set(cache, derived.tasks);
}

/**
 * The note's tasks, derived once per version of its metadata: at once when known, else from its
 * text. Until the cache has parsed an edit, its metadata's task lines are the old text's: paired
 * with the new text they would name other lines (a frontmatter line put above a task, as an open
 * task). Then the tasks come from the text itself, and are not kept against the old metadata.
 */
function noteTasks(host: Host, file: HostFile, memo: NoteMemo, budget?: CallBudget): PackedTasks | Promise<PackedTasks> {
	const cache = host.metadataCache.getFileCache(file);
	if (!cache) return NO_TASKS;
	const known = memo.tasks.get(cache);
	if (known) return known;
	if (!hasTasks(cache)) {
		memo.tasks.set(cache, NO_TASKS);
		return NO_TASKS;
	}
	return host.vault.cachedRead(file).then(async (text) => {
		const derived = await runStepsOnBudget(tasksOfNoteSteps(cache, text), budget);
		if (derived.stale) return runStepsOnBudget(tasksOfTextSteps(text), budget);
		memo.tasks.set(cache, derived.tasks);
		return derived.tasks;
	});
}

/** Where a page of tasks ends: the path its note had when the task was found, and its line (a page cursor's key). */
export interface TaskPlace {
	path: string;
	line: number;
}

/** The tasks list_tasks answers with: the first `limit` in path and line order (after `after`), and how many match in all. */
export interface TasksFound {
	tasks: TaskEntry[];
	total: number;
	/** The place of the page's last task, when tasks follow it: the next page starts after it. */
	next?: TaskPlace;
	/** The first few notes walked whose metadata was not read yet: their tasks are not known (see notesStillBeingRead). */
	stillBeingRead: HostFile[];
}

/**
 * Tasks in visible notes, from the metadata cache's list items, filtered; the first `limit` in path
 * and line order after `after` (a place, not a count: tasks of other notes created or deleted between
 * two pages move no task of the next one), and how many match in all. Each note's tasks are derived
 * once per change of the note; the walk over the vault pauses on `budget`. Notes past the page are
 * counted from their tally, not listed: the work follows the answer, not the vault's number of tasks.
 */
export async function findTaskPage(
	host: Host,
	scope: Scope,
	filter: TaskFilter,
	limit: number,
	budget?: CallBudget,
	memo: NoteMemo = sharedNoteMemo,
	kept: KeptForTasks = {},
	after?: TaskPlace,
): Promise<TasksFound> {
	for (let walk = 0; ; walk++) {
		const found = await findTasksOnce(host, scope, filter, limit, after, budget, memo, kept);
		if (!found.renamed || walk >= RENAMED_WALKS_REDONE)
			return { tasks: found.tasks, total: found.total, stillBeingRead: found.stillBeingRead, ...(found.next ? { next: found.next } : {}) };
	}
}

/** Every task `findTaskPage` would count, in path and line order. */
export async function findTasks(host: Host, scope: Scope, filter: TaskFilter, budget?: CallBudget, memo: NoteMemo = sharedNoteMemo): Promise<TaskEntry[]> {
	return (await findTaskPage(host, scope, filter, Infinity, budget, memo)).tasks;
}

async function findTasksOnce(
	host: Host,
	scope: Scope,
	filter: TaskFilter,
	limit: number,
	after: TaskPlace | undefined,
	budget: CallBudget | undefined,
	memo: NoteMemo,
	kept: KeptForTasks,
): Promise<TasksFound & { renamed: boolean }> {
	const found: TaskEntry[] = [];
	const visible = noteVisibility(scope);
	const asked = (file: HostFile) =>
		visible(file.path) && (filter.path ? file.path === filter.path : true) && (filter.folder ? isInFolder(file.path, filter.folder) : true);
	// Looked at before the walk: a note read meanwhile is named and may be counted too, never left out unnamed.
	const stillBeingRead =
		(await kept.notesNotYetRead?.visible(scope, budget, asked)) ??
		(await notesStillBeingRead(host, await askedNotes(host.vault.getMarkdownFiles(), asked, budget), budget));
	// Only the notes that may hold a task when the server keeps them; a note without one adds nothing.
	const notes = await askedNotes(kept.notesWithTasks?.notes() ?? host.vault.getMarkdownFiles(), asked, budget);
	const withTasks: NoteTasksFound[] = [];
	// Notes whose file another program moved or deleted before the host heard of it: named as still being read, the walk made again.
	const gone: HostFile[] = [];
	for (const file of notes) {
		if (budget?.due()) await budget.checkpoint();
		const known = noteTasks(host, file, memo, budget);
		const tasks = known instanceof PackedTasks ? known : await known.catch(nullWhenGone);
		if (tasks === null) gone.push(file);
		else if (tasks.count > 0) withTasks.push({ file, path: file.path, tasks, from: 0, to: 0, matching: 0 });
	}
	const due = dueRange(filter);
	const matching: NoteTasksFound[] = [];
	// Notes before the cursor's place are counted (total), never listed. Compared here, where each note may pause: a
	// cursor's path comes from the client, and one of 64,000 characters the collator skips (soft hyphens) took 3 ms a comparison at load 20.
	const notAfore = (note: NoteTasksFound) => after === undefined || comparePathsStrictly(note.path, after.path) >= 0;
	for (const note of withTasks) {
		if (budget?.due()) await budget.checkpoint();
		note.matching = note.tasks.countOf(filter.status, due);
		if (note.matching > 0 && notAfore(note)) matching.push(note);
	}
	// One task past the page is found, to tell whether a next page has any.
	const wanted = limit + 1;
	// Only the notes the page reaches, in path order: each adds a task at least (the cursor's note maybe none), so that many
	// at most. Sorting every note with tasks on each call was a piece that grew with the vault (about 0.1 s where 50,000 notes hold tasks).
	// Strictly: the notes come in the order they last got a task, so two paths the collator calls equal were listed in that order.
	const byPath = (a: NoteTasksFound, b: NoteTasksFound) => comparePathsStrictly(a.path, b.path);
	const notesWanted = after === undefined ? wanted : wanted + 1;
	const reached = budget && notesWanted < matching.length ? await firstInOrder(matching, () => true, byPath, notesWanted, budget) : matching.sort(byPath);
	const keep = (task: NoteTask) => (filter.status === "any" || taskStatus(task.statusChar) === filter.status) && matchesDue(task.due, filter);
	const keepAfterCursor = (task: NoteTask) => task.line > (after as TaskPlace).line && keep(task);
	for (const note of reached) {
		if (budget?.due()) await budget.checkpoint();
		note.from = found.length;
		if (found.length < wanted) {
			const listed = await runStepsOnBudget(note.tasks.listSteps(wanted - found.length, note.path === after?.path ? keepAfterCursor : keep), budget);
			for (const [index, task] of listed.entries()) {
				if (index % SLICED_TASKS === SLICED_TASKS - 1 && budget?.due()) await budget.checkpoint();
				const { line, text, statusChar, ...dates } = task;
				found.push({ path: note.path, line, text, status: taskStatus(statusChar), status_char: statusChar, ...dates });
			}
		}
		note.to = found.length;
	}
	// The cursor names the page's last task where the walk found it: a path this caller could see then, even if renamed since.
	const last = found.length > limit ? (found[limit - 1] as TaskEntry) : undefined;
	const next = last === undefined ? undefined : { path: last.path, line: last.line };
	if (found.length > limit) {
		found.length = limit;
		for (const note of reached) {
			note.from = Math.min(note.from, limit);
			note.to = Math.min(note.to, limit);
		}
	}
	const named = namedAsNow(found, withTasks, scope);
	return {
		...named,
		renamed: named.renamed || gone.length > 0,
		stillBeingRead: gone.length > 0 ? firstStillBeingRead(stillBeingRead, gone) : stillBeingRead,
		...(next ? { next } : {}),
	};
}

/**
 * The notes not read yet and those found gone, each once, the first STILL_BEING_READ_LISTED in
 * strict path order, as `notesStillBeingRead` names them: a program moving a whole folder of notes
 * made the answer name every one of them, past the number the field says it holds.
 */
function firstStillBeingRead(notYetRead: readonly HostFile[], gone: readonly HostFile[]): HostFile[] {
	return [...new Set([...notYetRead, ...gone])].sort((a, b) => comparePathsStrictly(a.path, b.path)).slice(0, STILL_BEING_READ_LISTED);
}

/**
 * Null for a note whose file was not there to read (moved or deleted by another program a moment
 * before the host heard of it); any other failure is passed on. One such note failed every
 * list_tasks of the vault while a program renamed it in a loop (red109).
 */
function nullWhenGone(error: unknown): null {
	if ((error as NodeJS.ErrnoException | null)?.code === "ENOENT") return null;
	throw error;
}

/** The notes among `notes` the call asks about, picked in slices on `budget` (at 50,000 notes one piece was 17–91 ms). */
async function askedNotes(notes: readonly HostFile[], asked: (file: HostFile) => boolean, budget: CallBudget | undefined): Promise<HostFile[]> {
	const picked: HostFile[] = [];
	for (const file of notes) {
		if (budget?.due()) await budget.checkpoint();
		if (asked(file)) picked.push(file);
	}
	return picked;
}

/** A note whose tasks were found: the path it had when they were, and where they lie in the answer. */
interface NoteTasksFound {
	file: HostFile;
	path: string;
	tasks: PackedTasks;
	from: number;
	to: number;
	/** How many of its tasks match, listed or not. */
	matching: number;
}

/**
 * The tasks as the answer names them, read after the walk's last pause: a note the person renamed
 * while the walk paused (the same file object, renamed) is named at its new path, and left out
 * when it is where this caller may not see it (an excluded folder), so that path is never named.
 */
function namedAsNow(found: TaskEntry[], notes: readonly NoteTasksFound[], scope: Scope): Omit<TasksFound, "stillBeingRead"> & { renamed: boolean } {
	const visible = noteVisibility(scope);
	const leftOut = new Set<TaskEntry>();
	let renamed = false;
	let total = 0;
	for (const note of notes) {
		const now = note.file.path;
		if (visible(now)) total += note.matching;
		if (now === note.path && visible(now)) continue;
		renamed ||= visible(now);
		for (let index = note.from; index < note.to; index++) {
			const task = found[index] as TaskEntry;
			if (visible(now)) task.path = now;
			else leftOut.add(task);
		}
	}
	const kept = leftOut.size === 0 ? found : found.filter((task) => !leftOut.has(task));
	// Stable: each note's tasks stay in line order.
	return { tasks: renamed ? kept.sort((a, b) => comparePathsStrictly(a.path, b.path)) : kept, total, renamed: renamed || leftOut.size > 0 };
}

/** The due dates `filter` asks for, as an inclusive range of YYYYMMDD numbers; undefined when it asks for none. */
function dueRange(filter: TaskFilter): { from: number; to: number } | undefined {
	if (filter.dueBefore === undefined && filter.dueAfter === undefined && filter.dueOn === undefined) return undefined;
	let from = filter.dueAfter === undefined ? 0 : dateNumber(filter.dueAfter) + 1;
	let to = filter.dueBefore === undefined ? Number.MAX_SAFE_INTEGER : dateNumber(filter.dueBefore) - 1;
	if (filter.dueOn !== undefined) {
		from = Math.max(from, dateNumber(filter.dueOn));
		to = Math.min(to, dateNumber(filter.dueOn));
	}
	return { from, to };
}

function matchesDue(due: string | undefined, filter: TaskFilter): boolean {
	if (filter.dueBefore === undefined && filter.dueAfter === undefined && filter.dueOn === undefined) return true;
	if (due === undefined) return false;
	if (filter.dueOn !== undefined && due !== filter.dueOn) return false;
	if (filter.dueBefore !== undefined && !(due < filter.dueBefore)) return false;
	if (filter.dueAfter !== undefined && !(due > filter.dueAfter)) return false;
	return true;
}
