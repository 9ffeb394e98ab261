/**
 * Dates on a task line, in the two formats people use: the Tasks plugin's emoji (`📅 2025-01-31`)
 * and Dataview's inline fields (`[due:: 2025-01-31]` or `(due:: 2025-01-31)`). Pure.
 */

export interface TaskDates {
	due?: string;
	scheduled?: string;
	start?: string;
	done?: string;
}

type DateField = keyof TaskDates;

const DATE = "(\\d{4}-\\d{2}-\\d{2})";
/** Tasks plugin signifiers; an optional variation selector (U+FE0F) may follow the emoji. */
const EMOJI_FIELDS: Array<[DateField, string]> = [
	["due", "📅|📆|🗓"],
	["scheduled", "⏳|⌛"],
	["start", "🛫"],
	["done", "✅"],
];
/** Dataview field names; `completion` is Dataview's name for the done date. */
const DATAVIEW_FIELDS: Array<[DateField, string]> = [
	["due", "due"],
	["scheduled", "scheduled"],
	["start", "start"],
	["done", "completion"],
];

const EMOJI_PATTERNS = EMOJI_FIELDS.map(([field, emoji]) => [field, new RegExp(`(?:${emoji})\\uFE0F?\\s*${DATE}`, "u")] as const);
const DATAVIEW_PATTERNS = DATAVIEW_FIELDS.map(([field, name]) => [field, new RegExp(`[[(]${name}::\\s*${DATE}\\s*[\\])]`, "iu")] as const);

/** A task date as the tools take it: YYYY-MM-DD. */
export const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Why a YYYY-MM-DD `date` is not a real date, as advice for the caller; null when it is one. */
export function dateProblem(date: string): string | null {
	const time = Date.parse(`${date}T00:00:00Z`);
	// Date rolls a day its month lacks into the next month (2026-02-30 → 2026-03-02): only a date that reads back the same is real.
	return Number.isNaN(time) || new Date(time).toISOString().slice(0, 10) !== date ? `"${date}" is not a real date. Use YYYY-MM-DD.` : null;
}

/**
 * A new open task line with its due date in the format list_tasks reads: the Tasks plugin's emoji
 * (`- [ ] Water the herbs 📅 2025-01-31`) or Dataview's inline field (`… [due:: 2025-01-31]`).
 */
export function formatTaskLine(marker: string, text: string, due: string | undefined, dateFormat: "emoji" | "dataview"): string {
	const dueText = due === undefined ? "" : dateFormat === "dataview" ? ` [due:: ${due}]` : ` 📅 ${due}`;
	return `${marker} [ ] ${text}${dueText}`;
}

/** The dates a task line carries; the first of each kind wins. */
export function parseTaskDates(line: string): TaskDates {
	const dates: TaskDates = {};
	for (const [field, pattern] of [...EMOJI_PATTERNS, ...DATAVIEW_PATTERNS]) {
		if (dates[field] !== undefined) continue;
		const match = pattern.exec(line);
		if (match?.[1]) dates[field] = match[1];
	}
	return dates;
}

/**
 * Quote markers, then list markers, then the checkbox. More than one list marker when items open
 * on the same line (`- - [ ] foo`, `1. - [x] foo`: the task is the innermost item). Only markers
 * before the checkbox are taken: in `- [ ] - foo` the `- ` after it is the task's text.
 */
const TASK_PREFIX = /^\s*(?:>\s*)*(?:(?:[-*+]|\d{1,9}[.)])\s+)+\[(.)\]\s?/u;

/** The task's own text: the line without its list markers and checkbox. */
export function taskText(line: string): string {
	return line.replace(TASK_PREFIX, "").trim();
}

/**
 * A task line's markers up to its checkbox, quote markers allowed between list markers too (`- > - [ ] foo`,
 * a task in a quote in a list item, is a task to the parser). The last marker is a list marker.
 */
const TASK_LINE_MARKERS = /^\s*(?:>\s*|(?:[-*+]|\d{1,9}[.)])\s+)*(?:[-*+]|\d{1,9}[.)])\s+\[(.)\]/u;

/** The character in a task line's checkbox (`x` in `- [x] foo`); undefined when the line is not a task line. */
export function taskStatusCharOf(line: string): string | undefined {
	return TASK_LINE_MARKERS.exec(line)?.[1];
}

/**
 * True when `symbol` can stand in a task's checkbox: one character that the task parsers' `(.)`
 * takes (not a line break: the line would end inside the brackets; nor U+2028 or U+2029, which a
 * regular expression's `.` does not take either, so the line was no task to list_tasks or the
 * Tasks plugin), not half of a surrogate pair (no file can hold one: UTF-8 writes it as U+FFFD, and
 * data.json's `"\ud800"` is one), and not `]` (it would close them early). complete_task's status
 * and the statuses read from the Tasks plugin's data.json are held to it alike: a next status of
 * "\n- [ ] …" planted there was written into the note as a line of its own.
 */
export function isTaskStatusSymbol(symbol: string): boolean {
	return ONE_CHECKBOX_CHARACTER.test(symbol) && symbol !== "]";
}

/**
 * One character as the task parsers' `\[(.)\]` reads a checkbox's, a lone surrogate left out: with the
 * `u` flag `.` takes one, and `[\uD800-\uDFFF]` matches only a lone one (a whole pair is one code point).
 */
const ONE_CHECKBOX_CHARACTER = /^(?![\uD800-\uDFFF]).$/u;

/** How a checkbox character reads: space open, x done, - cancelled, anything else "other". */
export function taskStatus(statusChar: string): "open" | "done" | "cancelled" | "other" {
	if (statusChar === " ") return "open";
	if (statusChar === "x" || statusChar === "X") return "done";
	if (statusChar === "-") return "cancelled";
	return "other";
}
