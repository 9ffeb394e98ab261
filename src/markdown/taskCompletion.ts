/**
 * A task's status changed the way the Tasks plugin changes it when you tick it: the line is read
 * into Tasks' fields (taken from the end of the line, in any order), the status, done and cancelled
 * dates are set, a recurring task gets its next occurrence, and the lines are written back in Tasks'
 * field order, in its emoji format (`📅 2026-12-01`) or its Dataview format (`[due:: 2026-12-01]`).
 * Reading and writing follow obsidian-tasks (MIT): DefaultTaskSerializer, DataviewTaskSerializer,
 * Task.handleNewStatus, Occurrence, OnCompletion. Pure.
 */
import { echoed } from "./echo";
import { MAX_RECURRENCE_RULE_CHARS, MAX_RECURRENCE_SEARCH_YEARS } from "../config/limits";
import { BEYOND_SEARCH, nextOccurrence, parseRecurrence, SEARCH_TOO_LONG, type RecurrenceRule } from "./recurrence";
import { dateProblem, taskStatusCharOf, taskText } from "./taskLine";
import { fail, ok, type Result } from "../result";

export type TaskFormat = "emoji" | "dataview";

/** Tasks' status types; a status character Tasks does not know counts as TODO, as in Tasks. */
export type StatusType = "TODO" | "DONE" | "IN_PROGRESS" | "ON_HOLD" | "CANCELLED" | "NON_TASK";

/** One status as Tasks is set up: its type and the status a click moves it to. */
export interface StatusConfig {
	type: StatusType;
	next: string;
}

/** Tasks' default statuses: its two core ones and the two custom ones it ships. `X` is read as done, as Obsidian and list_tasks read it. */
const DEFAULT_STATUSES: Readonly<Record<string, StatusConfig>> = {
	" ": { type: "TODO", next: "x" },
	x: { type: "DONE", next: " " },
	X: { type: "DONE", next: " " },
	"/": { type: "IN_PROGRESS", next: "x" },
	"-": { type: "CANCELLED", next: " " },
};

/** The Tasks settings that change what completing a task writes (Tasks' defaults in brackets). */
export interface CompletionSettings {
	/** Statuses by character ([DEFAULT_STATUSES]). */
	statuses: Readonly<Record<string, StatusConfig>>;
	/** Write a done date ([true]). */
	setDoneDate: boolean;
	/** Write a cancelled date ([true]). */
	setCancelledDate: boolean;
	/** Give a new occurrence a created date ([false]). */
	setCreatedDate: boolean;
	/** Put a new occurrence below the completed task rather than above ([false]). */
	recurrenceOnNextLine: boolean;
	/** Drop the scheduled date from a new occurrence ([false]). */
	removeScheduledDateOnRecurrence: boolean;
}

export const DEFAULT_COMPLETION_SETTINGS: CompletionSettings = {
	statuses: DEFAULT_STATUSES,
	setDoneDate: true,
	setCancelledDate: true,
	setCreatedDate: false,
	recurrenceOnNextLine: false,
	removeScheduledDateOnRecurrence: false,
};

const PRIORITIES = ["highest", "high", "medium", "low", "lowest"] as const;
type Priority = (typeof PRIORITIES)[number];
const PRIORITY_EMOJI: Record<Priority, string> = { highest: "🔺", high: "⏫", medium: "🔼", low: "🔽", lowest: "⏬" };

type DateField = "created" | "start" | "scheduled" | "due" | "cancelled" | "done";

/** A task line read into Tasks' fields. */
interface ParsedTask {
	indentation: string;
	listMarker: string;
	status: string;
	description: string;
	priority?: Priority;
	dates: Partial<Record<DateField, string>>;
	recurrenceText?: string;
	recurrence?: RecurrenceRule;
	onCompletion: "" | "keep" | "delete";
	id: string;
	dependsOn: string[];
	blockLink: string;
	hardBreak: string;
}

/** Tasks' line: indentation (quote markers too), a list marker, spaces, the checkbox, then the rest. */
const TASK_LINE = /^([\s>]*)([-*+]|\d+[.)]) +\[(.)\] *(.*)/u;
const BLOCK_LINK = / \^[a-zA-Z0-9-]+$/u;
const TRAILING_TAG = /(^|\s)#[^ !@#$%^&*(),.?":{}|<>]+$/u;
const DATE = "(\\d{4}-\\d{2}-\\d{2})";
const TASK_ID = "[a-zA-Z0-9-_]+";
/**
 * Ids separated by commas, spaces allowed around each comma. Tasks writes `ID( *, *ID *)*`, whose
 * spaces can be split between two stars in exponentially many ways: a 117-character line held the
 * server 21 s. Every space here has one place to go (the line is trimmed, so none trails).
 */
const TASK_IDS = `${TASK_ID}(?: *, *${TASK_ID})*`;
/** A recurrence rule's text: Tasks' characters, starting with one that is not a space so the spaces before it have one place to go. */
const RULE_TEXT = "[a-zA-Z0-9,!][a-zA-Z0-9, !]*";

/** Field readers, each anchored at the end of the line: Tasks takes fields off the end until none is left. */
type FieldName = "priority" | DateField | "recurrence" | "onCompletion" | "id" | "dependsOn";

/**
 * One field reader: a sticky pattern that must reach the end of the line, and the characters one
 * of its matches starts with. None of those characters can occur inside a match, so a match can
 * only start at the last of them in the line: the pattern is tried there once, never at every
 * position of a long line (which is quadratic in the line's length).
 */
interface FieldReader {
	pattern: RegExp;
	openers: readonly string[];
}

const emojiField = (pattern: RegExp, openers: readonly string[]): FieldReader => ({ pattern, openers });

const EMOJI_FIELDS: Record<FieldName, FieldReader> = {
	priority: emojiField(/(🔺|⏫|🔼|🔽|⏬)\uFE0F?$/uy, ["🔺", "⏫", "🔼", "🔽", "⏬"]),
	done: emojiField(new RegExp(`✅\\uFE0F? *${DATE}$`, "uy"), ["✅"]),
	cancelled: emojiField(new RegExp(`❌\\uFE0F? *${DATE}$`, "uy"), ["❌"]),
	due: emojiField(new RegExp(`(?:📅|📆|🗓)\\uFE0F? *${DATE}$`, "uy"), ["📅", "📆", "🗓"]),
	scheduled: emojiField(new RegExp(`(?:⏳|⌛)\\uFE0F? *${DATE}$`, "uy"), ["⏳", "⌛"]),
	start: emojiField(new RegExp(`🛫\\uFE0F? *${DATE}$`, "uy"), ["🛫"]),
	created: emojiField(new RegExp(`➕\\uFE0F? *${DATE}$`, "uy"), ["➕"]),
	recurrence: emojiField(new RegExp(`🔁\\uFE0F? *(${RULE_TEXT})$`, "uy"), ["🔁"]),
	onCompletion: emojiField(/🏁\uFE0F? *([a-zA-Z]+)$/uy, ["🏁"]),
	id: emojiField(new RegExp(`🆔\\uFE0F? *(${TASK_ID})$`, "uy"), ["🆔"]),
	dependsOn: emojiField(new RegExp(`⛔\\uFE0F? *(${TASK_IDS})$`, "uy"), ["⛔"]),
};

/**
 * A Dataview inline field, `[key:: value]` or `(key:: value)` with matching brackets, as Tasks
 * reads it. No value holds a bracket, so a match opens at the last `[` or `(` of the line.
 */
const OPEN = "(?:(?=[^\\]]+\\])\\[|(?=[^)]+\\))\\()";
const CLOSE = "[)\\]](?: *,)?$";
const dataviewField = (pattern: RegExp): FieldReader => ({ pattern, openers: ["[", "("] });

const DATAVIEW_FIELDS: Record<FieldName, FieldReader> = {
	priority: dataviewField(new RegExp(`${OPEN} *priority:: *(highest|high|medium|low|lowest) *${CLOSE}`, "uy")),
	done: dataviewField(new RegExp(`${OPEN} *completion:: *${DATE} *${CLOSE}`, "uy")),
	cancelled: dataviewField(new RegExp(`${OPEN} *cancelled:: *${DATE} *${CLOSE}`, "uy")),
	due: dataviewField(new RegExp(`${OPEN} *due:: *${DATE} *${CLOSE}`, "uy")),
	scheduled: dataviewField(new RegExp(`${OPEN} *scheduled:: *${DATE} *${CLOSE}`, "uy")),
	start: dataviewField(new RegExp(`${OPEN} *start:: *${DATE} *${CLOSE}`, "uy")),
	created: dataviewField(new RegExp(`${OPEN} *created:: *${DATE} *${CLOSE}`, "uy")),
	recurrence: dataviewField(new RegExp(`${OPEN} *repeat:: *(${RULE_TEXT})${CLOSE}`, "uy")),
	onCompletion: dataviewField(new RegExp(`${OPEN} *onCompletion:: *([a-zA-Z]+) *${CLOSE}`, "uy")),
	id: dataviewField(new RegExp(`${OPEN} *id:: *(${TASK_ID}) *${CLOSE}`, "uy")),
	dependsOn: dataviewField(new RegExp(`${OPEN} *dependsOn:: *(${TASK_IDS}) *${CLOSE}`, "uy")),
};

/** A field's match at the end of `body`, tried only where it can start (see FieldReader). */
function matchAtEnd(body: string, reader: FieldReader): RegExpExecArray | null {
	const start = Math.max(...reader.openers.map((opener) => body.lastIndexOf(opener)));
	if (start < 0) return null;
	reader.pattern.lastIndex = start;
	return reader.pattern.exec(body);
}

/** The order Tasks tries the fields in on each pass; trailing tags come between onCompletion and id. */
const READ_ORDER: FieldName[] = ["priority", "done", "cancelled", "due", "scheduled", "start", "created", "recurrence", "onCompletion"];
const READ_ORDER_AFTER_TAGS: FieldName[] = ["id", "dependsOn"];
/** Tasks' bound on passes over one line. */
const MAX_PASSES = 21;

/** Which format a line's fields are in, if it has any: Dataview fields or Tasks emoji. */
export function lineTaskFormat(line: string): TaskFormat | null {
	if (/[[(](?:due|scheduled|start|created|completion|cancelled|repeat|priority|onCompletion|id|dependsOn)::/u.test(line)) return "dataview";
	if (/[📅📆🗓⏳⌛🛫➕✅❌🔁🏁🆔⛔🔺⏫🔼🔽⏬]/u.test(line)) return "emoji";
	return null;
}

/** Reads a task line into Tasks' fields; null when it is not a task line as Tasks reads one. */
function parseTask(line: string, format: TaskFormat): ParsedTask | null {
	const match = TASK_LINE.exec(line);
	if (!match) return null;
	const [, indentation = "", listMarker = "", status = " ", rest = ""] = match;
	let body = rest.trim();
	const blockLink = BLOCK_LINK.exec(body)?.[0] ?? "";
	if (blockLink) body = body.replace(BLOCK_LINK, "").trim();
	const task: ParsedTask = {
		indentation,
		listMarker,
		status,
		description: "",
		dates: {},
		onCompletion: "",
		id: "",
		dependsOn: [],
		blockLink,
		hardBreak: hardBreakOf(line),
	};
	const fields = format === "dataview" ? DATAVIEW_FIELDS : EMOJI_FIELDS;
	let trailingTags = "";
	const take = (reader: FieldReader): RegExpExecArray | null => {
		const found = matchAtEnd(body, reader);
		if (found) body = body.slice(0, found.index).trim();
		return found;
	};
	const read = (name: FieldName): boolean => {
		const found = take(fields[name]);
		if (!found) return false;
		const value = found[1] ?? "";
		if (name === "priority") task.priority = format === "dataview" ? (value as Priority) : PRIORITIES.find((level) => PRIORITY_EMOJI[level] === value);
		else if (name === "recurrence") task.recurrenceText = value.trim();
		else if (name === "onCompletion")
			task.onCompletion = value.trim().toLowerCase() === "delete" ? "delete" : value.trim().toLowerCase() === "keep" ? "keep" : "";
		else if (name === "id") task.id = value.trim();
		else if (name === "dependsOn")
			task.dependsOn = value
				.replace(/ /g, "")
				.split(",")
				.filter((item) => item !== "");
		else task.dates[name] = value;
		return true;
	};
	for (let pass = 0; pass < MAX_PASSES; pass++) {
		let matched = false;
		for (const name of READ_ORDER) matched = read(name) || matched;
		const tag = TRAILING_TAG.exec(body);
		if (tag) body = body.slice(0, tag.index).trim();
		if (tag) {
			trailingTags = trailingTags ? `${tag[0].trim()} ${trailingTags}` : tag[0].trim();
			matched = true;
		}
		for (const name of READ_ORDER_AFTER_TAGS) matched = read(name) || matched;
		if (!matched) break;
	}
	task.description = trailingTags ? `${body}${body ? " " : ""}${trailingTags}` : body;
	return task;
}

/** Two or more trailing spaces are a Markdown line break, which Tasks keeps. */
function hardBreakOf(line: string): string {
	let start = line.length;
	while (start > 0 && line[start - 1] === " ") start--;
	return line.length - start >= 2 ? line.slice(start) : "";
}

/** A task written back in Tasks' field order and format. */
function formatTask(task: ParsedTask, format: TaskFormat): string {
	// Tasks writes two spaces before each Dataview field, so that Obsidian renders every one of them (https://github.com/obsidian-tasks-group/obsidian-tasks/issues/1913).
	const field = (symbol: string, value: string) => (format === "dataview" ? `  [${symbol} ${value}]` : ` ${symbol} ${value}`);
	const dataviewNames: Record<DateField, string> = {
		created: "created::",
		start: "start::",
		scheduled: "scheduled::",
		due: "due::",
		cancelled: "cancelled::",
		done: "completion::",
	};
	const emojis: Record<DateField, string> = { created: "➕", start: "🛫", scheduled: "⏳", due: "📅", cancelled: "❌", done: "✅" };
	const date = (name: DateField) => {
		const value = task.dates[name];
		return value === undefined ? "" : field(format === "dataview" ? dataviewNames[name] : emojis[name], value);
	};
	const named = (emoji: string, dataviewName: string, value: string) => (value === "" ? "" : field(format === "dataview" ? dataviewName : emoji, value));
	const priority = task.priority === undefined ? "" : format === "dataview" ? field("priority::", task.priority) : ` ${PRIORITY_EMOJI[task.priority]}`;
	const body = [
		task.description,
		named("🆔", "id::", task.id),
		named("⛔", "dependsOn::", task.dependsOn.join(",")),
		priority,
		named("🔁", "repeat::", task.recurrence?.text ?? ""),
		named("🏁", "onCompletion::", task.onCompletion),
		date("created"),
		date("start"),
		date("scheduled"),
		date("due"),
		date("cancelled"),
		date("done"),
		task.blockLink,
	].join("");
	return `${task.indentation}${task.listMarker} [${task.status}] ${body}${task.hardBreak}`;
}

function statusOf(settings: CompletionSettings, symbol: string): StatusConfig {
	return settings.statuses[symbol] ?? { type: "TODO", next: "x" };
}

/** The status a new occurrence starts in: the first TODO after the new status, else the first IN_PROGRESS, else a space (as Tasks picks it). */
function recurrenceStatus(settings: CompletionSettings, newStatus: string): string {
	const chain: string[] = [];
	let symbol = statusOf(settings, newStatus).next;
	for (let step = 0; step < Object.keys(settings.statuses).length && !chain.includes(symbol); step++) {
		chain.push(symbol);
		symbol = statusOf(settings, symbol).next;
	}
	return chain.find((each) => statusOf(settings, each).type === "TODO") ?? chain.find((each) => statusOf(settings, each).type === "IN_PROGRESS") ?? " ";
}

/** What changing a task's status wrote: the lines that replace it, and which of them is the task itself. */
export interface CompletedTask {
	lines: string[];
	/** Index in `lines` of the task whose status changed; -1 when `🏁 delete` removed it. */
	taskIndex: number;
	/** Index in `lines` of the new occurrence of a recurring task, or -1. */
	nextIndex: number;
}

/** A rule as an error quotes it: a planted one may run to a megabyte. */
function quotedRule(rule: string): string {
	return rule.length > MAX_RECURRENCE_RULE_CHARS ? `${rule.slice(0, MAX_RECURRENCE_RULE_CHARS)}…` : rule;
}

/**
 * Changes a task line's status to `newStatus` on `today` (YYYY-MM-DD), as Tasks does when the
 * task is ticked or its status is set: a done or cancelled date when the status's type becomes
 * DONE or CANCELLED (one of the same type is kept, one of another type dropped); for a recurring
 * task that becomes DONE, the next occurrence (above it, or below with Tasks' setting); with
 * `🏁 delete`, the completed task itself is removed. An error when the line is not a task, the
 * status is already set, or the recurrence rule cannot be read (Tasks would silently drop it).
 */
export function changeTaskStatus(
	line: string,
	newStatus: string,
	today: string,
	format: TaskFormat,
	settings: CompletionSettings = DEFAULT_COMPLETION_SETTINGS,
): Result<CompletedTask> {
	const task = parseTask(line, format);
	if (!task) return fail("The line is not a task ('- [ ] …').");
	if (task.status === newStatus) return fail(`The task already has status '${newStatus}'. Nothing was changed.`);
	if (task.recurrenceText !== undefined) {
		const rule = parseRecurrence(task.recurrenceText);
		if (!rule)
			return fail(
				`The task's recurrence "${quotedRule(task.recurrenceText)}" is not a rule the Tasks plugin can read word for word (e.g. "every week", "every month on the 1st", "every weekday when done"); a rule it reads only in part would be written back as another rule. Nothing was changed.`,
			);
		task.recurrence = rule;
		// The next occurrence's dates are counted from these: from a day that does not exist, Tasks would write "Invalid date".
		const problem = [task.dates.due, task.dates.scheduled, task.dates.start]
			.map((date) => (date === undefined ? null : dateProblem(date)))
			.find((each) => each !== null);
		if (problem)
			return fail(
				`The recurring task's next dates cannot be counted: ${problem.replace(" Use YYYY-MM-DD.", "")} Correct it in the note first. Nothing was changed.`,
			);
	}
	const oldType = statusOf(settings, task.status).type;
	const newType = statusOf(settings, newStatus).type;
	const tracked = (type: StatusType, enabled: boolean, current: string | undefined) =>
		newType !== type ? undefined : oldType === type ? current : enabled ? today : undefined;
	const changed: ParsedTask = {
		...task,
		status: newStatus,
		dates: {
			...task.dates,
			done: tracked("DONE", settings.setDoneDate, task.dates.done),
			cancelled: tracked("CANCELLED", settings.setCancelledDate, task.dates.cancelled),
		},
	};
	const lines = [formatTask(changed, format)];
	let taskIndex = 0;
	let nextIndex = -1;
	if (newType === "DONE" && oldType !== "DONE" && task.recurrence) {
		const dates = nextOccurrence(task.recurrence, task.dates, today, settings.removeScheduledDateOnRecurrence);
		if (dates === BEYOND_SEARCH)
			return fail(
				`The task's recurrence "${task.recurrence.text}" has no next date within ${MAX_RECURRENCE_SEARCH_YEARS} years, the longest it is searched for. Correct the rule in the note first. Nothing was changed.`,
			);
		if (dates === SEARCH_TOO_LONG)
			return fail(
				`The task's recurrence "${task.recurrence.text}" needs too long a search for its next date (it keeps landing more than its interval away). Correct the rule in the note first. Nothing was changed.`,
			);
		if (dates) {
			const next: ParsedTask = {
				...task,
				status: recurrenceStatus(settings, newStatus),
				dates: { created: settings.setCreatedDate ? today : undefined, ...dates },
				blockLink: "",
				id: "",
				dependsOn: [],
			};
			if (settings.recurrenceOnNextLine) {
				lines.push(formatTask(next, format));
				nextIndex = 1;
			} else {
				lines.unshift(formatTask(next, format));
				nextIndex = 0;
				taskIndex = 1;
			}
		}
	}
	if (task.onCompletion === "delete" && newType === "DONE" && oldType !== "DONE" && lines.length > 0) {
		lines.splice(taskIndex, 1);
		if (nextIndex > taskIndex) nextIndex--;
		taskIndex = -1;
	}
	return ok({ lines, taskIndex, nextIndex });
}

/** What complete_task asks for: the task at `line` (0-based) whose text (as list_tasks gives it) is `text`. */
export interface NoteTaskChange {
	line: number;
	text: string;
	status: string;
	today: string;
	/** The Tasks plugin's format on this vault, for a task whose line and note show none. */
	vaultFormat: TaskFormat;
	settings: CompletionSettings;
	/** The tasks Obsidian's metadata cache knows, by line and status character (a `- [ ]` in a code block is not one). */
	tasks: ReadonlyArray<{ line: number; status: string }>;
	/**
	 * Where `tasks` come from: this text's parse (the default), the cache's last parse, which may be an
	 * older text's ("cache": complete_task parses the note only for a line that reads as the task), or
	 * nowhere yet ("unread": the cache has not read the note). Then the error does not claim the note has no open tasks.
	 */
	tasksFrom?: "text" | "cache" | "unread";
	/** Open tasks listed at most in the error for a task that is not where it was. */
	listLimit: number;
}

/** What a refusal says of a note none of whose tasks it lists as open, by where its tasks were read (NoteTaskChange.tasksFrom). */
const NO_OPEN_TASKS = {
	text: " It has no open tasks.",
	cache: " It had no open tasks when last read.",
	unread: " Its tasks are still being read.",
} as const;

/** The note after the change: its text, the task's new line (-1 if 🏁 delete removed it) and the new occurrence's (-1 if none). */
export type NoteTaskResult = Result<{ text: string; line: number; nextLine: number; lines: string[]; taskIndex: number; nextIndex: number }>;

/**
 * Whether line `line` (0-based) of `note` reads as the task `text`: a task line (a checkbox after its
 * list markers) whose text is `text`. `changeTaskInNote` changes no other line, whatever tasks it is
 * given, so a line failing this needs no parse of the note to be refused.
 */
export function mayBeTaskLine(note: string, line: number, text: string): boolean {
	let start = 0;
	for (let index = 0; index < line; index++) {
		start = note.indexOf("\n", start) + 1;
		if (start === 0) return false;
	}
	const end = note.indexOf("\n", start);
	const content = note.slice(start, end === -1 ? note.length : end).replace(/\r$/, "");
	return taskStatusCharOf(content) !== undefined && taskText(content) === text.trim();
}

/**
 * Whether `note` (its lines starting at `starts`) has a line reading as an open task (`- [ ] …`) other
 * than those at `listed` (sorted). Only the lines holding `[ ]` are looked at, one `indexOf` apart.
 */
function hasOpenTaskLineBeside(note: string, starts: readonly number[], listed: readonly number[]): boolean {
	const known = new Set(listed);
	let line = 0;
	// Each line is looked at once, however many `[ ]` it holds (a planted line of a million was a million slices of it).
	let looked = -1;
	for (let at = note.indexOf("[ ]"); at !== -1; at = note.indexOf("[ ]", at + 3)) {
		while (line + 1 < starts.length && (starts[line + 1] as number) <= at) line++;
		if (line === looked || known.has(line)) continue;
		looked = line;
		const start = starts[line] as number;
		const end = note.indexOf("\n", start);
		if (taskStatusCharOf(note.slice(start, end === -1 ? note.length : end)) === " ") return true;
	}
	return false;
}

/**
 * Changes the status of one task of a note's text (see changeTaskStatus), guarded by its text: a
 * line that is not that task any more (the note changed since list_tasks) is an error that lists
 * the note's open tasks with their lines. The format is the task line's own, else that of the
 * note's other tasks, else the vault's. Line endings (LF or CRLF) are kept.
 */
export function changeTaskInNote(note: string, change: NoteTaskChange): NoteTaskResult {
	// Where each line starts, not the lines themselves: one task line changes, and splitting and
	// joining a megabyte note's lines was most of the edit's work.
	const starts = [0];
	for (let at = note.indexOf("\n"); at !== -1; at = note.indexOf("\n", at + 1)) starts.push(at + 1);
	const rawLine = (index: number) => {
		const start = starts[index];
		if (start === undefined || index < 0) return "";
		const next = starts[index + 1];
		return note.slice(start, next === undefined ? note.length : next - 1);
	};
	const content = (index: number) => rawLine(index).replace(/\r$/, "");
	const wanted = change.text.trim();
	// Until the metadata cache has parsed an edit, its task lines are the old text's: only those still task lines in this text are tasks, each with the status the text gives it.
	const statuses = change.tasks.map((task) => taskStatusCharOf(content(task.line)));
	const tasks = change.tasks.flatMap((task, index) => {
		const status = statuses[index];
		return status === undefined ? [] : [{ line: task.line, status }];
	});
	if (!tasks.some((task) => task.line === change.line) || taskText(content(change.line)) !== wanted) {
		const open = tasks.filter((task) => task.status === " ").map((task) => task.line);
		const listed = open.slice(0, change.listLimit).map((index) => `line ${index}: ${echoed(taskText(content(index)))}`);
		const more = open.length > listed.length ? ` (and ${open.length - listed.length} more)` : "";
		const behind = change.tasks.some((task, index) => statuses[index] !== task.status);
		// Tasks read from an older text miss those added since: a line of this text reading as an open task that is
		// not listed says so (one in a code block reads as one too, so the list is only said to be maybe incomplete).
		const unlisted = !behind && change.tasksFrom === "cache" && hasOpenTaskLineBeside(note, starts, open);
		const list =
			(listed.length ? ` Its open tasks: ${listed.join("; ")}${more}.` : NO_OPEN_TASKS[change.tasksFrom ?? "text"]) +
			(behind ? " The note changed a moment ago and its tasks are still being read, so this list may be short." : "") +
			(unlisted
				? ` It holds lines that read as open tasks and were not read as tasks yet${listed.length ? ", so this list may be incomplete" : ""}.`
				: "");
		return fail(
			`Line ${change.line} is not the task "${wanted}" (the note may have changed since list_tasks). Nothing was changed.${list} Call list_tasks again for the current lines.`,
		);
	}
	const line = content(change.line);
	const noteFormat = tasks.map((task) => lineTaskFormat(content(task.line))).find((format) => format !== null);
	const format = lineTaskFormat(line) ?? noteFormat ?? change.vaultFormat;
	const result = changeTaskStatus(line, change.status, change.today, format, change.settings);
	if (!result.ok) return result;
	const ending = rawLine(change.line).endsWith("\r") ? "\r" : "";
	const replacement = result.value.lines.map((each) => each + ending);
	// The text of `lines.splice(change.line, 1, ...replacement)` joined again, made of slices of the note.
	const start = starts[change.line] ?? note.length;
	const next = starts[change.line + 1];
	let text: string;
	if (replacement.length > 0) text = `${note.slice(0, start)}${replacement.join("\n")}${next === undefined ? "" : note.slice(next - 1)}`;
	else if (next !== undefined) text = note.slice(0, start) + note.slice(next);
	else text = note.slice(0, Math.max(0, start - 1));
	const at = (index: number) => (index === -1 ? -1 : change.line + index);
	return ok({ text, line: at(result.value.taskIndex), nextLine: at(result.value.nextIndex), ...result.value });
}
