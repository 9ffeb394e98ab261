/**
 * Runs one view of a base over the visible files: the base's and the view's filters (joined by
 * AND), then the view's group and sort, then its limit, and the columns in its `order`. Pure apart
 * from the `pause` it is given, which lets other work run between rows on a busy vault.
 */
import { BASES_FILTER_ERRORS_LISTED, MATCHES_LISTED, MAX_RESPONSE_BYTES, MAX_VAULT_PATH_CHARS } from "../config/limits";
import { fail, ok, type Result } from "../result";
import type { BaseConfig, BaseView, Filter, SortKey } from "./baseFile";
import { BudgetExceededError, EvaluationBudget, EvaluationError, spendOnWalking, walkSteps, type EvaluationContext } from "./evaluationContext";
import { evaluate, field, formulaValue } from "./evaluate";
import { notePropertyValue } from "./noteValues";
import { compareValues } from "./operators";
import { FileValue, isTruthy, namingOf, toJson, type BaseFile, type BaseVault, type Value, type ValueNaming } from "./values";
import { sortInSlices } from "../vault/workBudget";
import { echoed } from "../markdown/echo";

interface BaseQueryRow {
	path: string;
	/** The value of the view's groupBy property, when it has one. */
	group?: unknown;
	/** Column id → value. */
	values: Record<string, unknown>;
	/** Column id → why that cell has no value (a function given the wrong type, …). */
	errors?: Record<string, string>;
}

export interface BaseQueryResult {
	view: string;
	views: string[];
	columns: Array<{ id: string; name: string }>;
	rows: BaseQueryRow[];
	/** Files that pass the filters. */
	total: number;
	truncated: boolean;
	/** Files left out because a filter could not be evaluated for them (listed up to a limit, all counted). */
	filter_errors: Array<{ path: string; error: string }>;
	filter_errors_total: number;
	/** Where the next page starts, when rows of the view are left past this one. */
	next?: RowsPlace;
}

/**
 * Where a page of rows ended: the path of its last row, of the row after it, and the last row's
 * position. The rows' order is the view's sort over values of any type, so a place is found again by
 * its rows, not by comparing sort values: after the last row, or at the row that was next when the
 * last has gone (deleted, renamed, filtered out) or moved in the order; when both have gone, at the
 * last row's position (startAfterRows).
 */
interface RowsPlace {
	last: string;
	next: string;
	position: number;
}

export interface BaseQueryOptions {
	view?: string;
	limit: number;
	now: number;
	budget?: EvaluationBudget;
	/** Gives the host its turn (the query's slice is used up, `due`); resolves when work may go on. */
	pause: () => Promise<void>;
	/**
	 * Asked between rows and cells (often: it should answer at once): whether the slice is used up,
	 * so that `pause` now gives the host its turn. Then alone is `pause` called, and the slice's work
	 * read on the CPU clock (`EvaluationBudget.endSlice`): a slice never spans another's turn.
	 */
	due: () => boolean;
	/** The answer's bound, when it has one: rows are built while they fit it (truncated past them). */
	fit?: AnswerFit;
	/** Where the page starts: after this place (absent: the first row). */
	after?: RowsPlace;
}

/**
 * How much an answer may hold: `smallestBytes` is the fewest bytes a value can be made to take in
 * it (its long strings cut), `maxBytes` what those may add up to. A view of 1,990 columns over
 * 1,000 files built its two million cells (300 MB of heap, 13–25 s) only to be refused as too big.
 */
interface AnswerFit {
	maxBytes: number;
	smallestBytes: (value: unknown) => number;
}

/** The view used when a base defines none: every file, by name. */
const DEFAULT_VIEW: BaseView = { type: "table", name: "All files", filters: null, order: ["file.name"], sort: [], groupBy: null, limit: null };

/** The rows of one view of `config` over `files` (the visible files), or why the query cannot be answered. */
export async function runBaseQuery(
	config: BaseConfig,
	vault: BaseVault,
	files: readonly BaseFile[],
	self: BaseFile,
	options: BaseQueryOptions,
): Promise<Result<BaseQueryResult>> {
	const viewNames = config.views.map((view) => view.name);
	const view = options.view === undefined ? (config.views[0] ?? DEFAULT_VIEW) : config.views.find((candidate) => candidate.name === options.view);
	if (!view) {
		const more = viewNames.length > MATCHES_LISTED ? ` and ${viewNames.length - MATCHES_LISTED} more` : "";
		const listed = viewNames.slice(0, MATCHES_LISTED).map((name) => `"${echoed(name)}"`);
		return fail(`The base has no view "${echoed(options.view ?? "")}". Its views: ${listed.join(", ") || "none"}${more}.`);
	}
	const budget = options.budget ?? new EvaluationBudget();
	// The slice's work is counted (on the CPU clock, once) before a pause that gives the host its turn, not at every piece.
	const pause = async (): Promise<void> => {
		if (!options.due()) return;
		budget.endSlice();
		await options.pause();
	};
	const columns = view.order.length > 0 ? view.order : DEFAULT_VIEW.order;
	const contextFor = (row: BaseFile): EvaluationContext => ({
		vault,
		row,
		self,
		formulas: config.formulas,
		budget,
		now: options.now,
		formulaCache: new Map(),
		evaluating: new Set(),
	});
	try {
		const matched: Array<{ file: BaseFile; context: EvaluationContext }> = [];
		const filterErrors: Array<{ path: string; error: string }> = [];
		let filterErrorsTotal = 0;
		// In path order, so the rows before sorting and the filter errors listed are the same on every host and file system.
		const inPathOrder = await sortInSlices(files, (a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0), {
			due: () => true,
			checkpoint: pause,
		});
		for (const file of inPathOrder) {
			await pause();
			budget.spend();
			const context = contextFor(file);
			try {
				if (budget.piece(() => passes(config.filters, context) && passes(view.filters, context))) matched.push({ file, context });
			} catch (error) {
				if (!(error instanceof EvaluationError)) throw error;
				filterErrorsTotal++;
				if (filterErrors.length < BASES_FILTER_ERRORS_LISTED) filterErrors.push({ path: file.path, error: error.message });
			}
		}
		const keys = [...(view.groupBy ? [view.groupBy] : []), ...view.sort];
		const sortValues: Value[][] = [];
		for (const { context } of matched) {
			await pause();
			sortValues.push(budget.piece(() => keys.map((key) => cellValue(key.property, context).value)));
		}
		// A comparison walks the lists it compares (as text): each row's keys are walked about log n times.
		let keysWeight = 0;
		for (const values of sortValues) for (const value of values) keysWeight += walkSteps(value);
		budget.spend((matched.length * Math.max(1, keys.length) + keysWeight) * Math.ceil(Math.log2(matched.length + 2)));
		// Sorted in slices, pausing like the rows: 10,000 rows' texts compared in one piece held the server 0.15 s.
		const order = await sortInSlices(
			matched.map((_, position) => position),
			(a, b) => compareRows(sortValues[a] ?? [], sortValues[b] ?? [], keys) || ((matched[a]?.file.path ?? "") < (matched[b]?.file.path ?? "") ? -1 : 1),
			{ due: () => true, checkpoint: pause },
		);
		const pathAt = (at: number) => matched[order[at] as number]?.file.path;
		const viewEnd = Math.min(order.length, view.limit ?? Number.POSITIVE_INFINITY);
		const start = options.after ? startAfterRows(options.after, order.length, pathAt) : 0;
		const end = Math.min(viewEnd, start + options.limit);
		const answer: BaseQueryResult = {
			view: view.name,
			views: viewNames,
			columns: columns.map((id) => ({ id, name: config.displayNames.get(id) ?? id })),
			rows: [],
			total: matched.length,
			truncated: false,
			filter_errors: filterErrors,
			filter_errors_total: filterErrorsTotal,
		};
		const room = options.fit ? new AnswerRoom(options.fit, answer) : null;
		const built: Array<{ row: BaseQueryRow; file: BaseFile }> = [];
		// The position after the last row built, and that row's path (given, or left out as moved out of sight: the next page still starts after it).
		let following = start;
		let lastBuilt: string | undefined;
		for (; following < end; following++) {
			const position = order[following] as number;
			const entry = matched[position];
			if (!entry) continue;
			const group = view.groupBy ? (sortValues[position]?.[0] ?? null) : undefined;
			const row = await makeRow(entry.file, entry.context, columns, group, room, pause);
			if (row !== null) {
				lastBuilt = entry.file.path;
				built.push({ row, file: entry.file });
				continue;
			}
			// The rows built fill the answer: the rest are counted (total), not built. Not even one row fitting is the view's fault, said as such.
			if (built.length > 0) break;
			return fail(
				`The view "${echoed(view.name)}" has ${columns.length} columns × ${matched.length} rows, and not even its first row fits in an answer (${MAX_RESPONSE_BYTES} bytes, its long texts cut short). Query a view with fewer columns.`,
			);
		}
		// After the last pause: a note renamed, moved or deleted while the rows were built is left out (and not counted), never
		// named at a path it has left or at one its values were not read at; the cursor still names it, so the next page starts after it.
		for (const { row, file } of built) {
			if (vault.isWhereItWas(file)) answer.rows.push(row);
			else answer.total--;
		}
		// Rows after this page, reached by the next cursor or past the view's limit: on the last page, nothing is (rows before a cursor were given already).
		answer.truncated = following < matched.length;
		const next = pathAt(following);
		if (following < viewEnd && lastBuilt !== undefined && next !== undefined) answer.next = { last: lastBuilt, next, position: following - 1 };
		return ok(answer);
	} catch (error) {
		// An EvaluationError here is the rows' sort comparing keys too long to compare as text.
		if (error instanceof BudgetExceededError || error instanceof EvaluationError) return fail(error.message);
		throw error;
	}
}

/**
 * Where the rows after `after` start among `count` rows (`pathAt` gives each one's path): a walk, as
 * the view is sorted in full anyway. When the last row and the next one are both still there but
 * apart, one of them was edited to sort elsewhere: the one still nearer the old place is followed,
 * as following a row that moved would skip or repeat every row between (the last row sorted last
 * now left nothing after it).
 */
function startAfterRows(after: RowsPlace, count: number, pathAt: (at: number) => string | undefined): number {
	let afterLast: number | null = null;
	let atNext: number | null = null;
	for (let at = 0; at < count && (afterLast === null || atNext === null); at++) {
		const path = pathAt(at);
		if (path === after.last) afterLast = at + 1;
		else if (path === after.next) atNext = at;
	}
	const position = Math.min(Math.max(0, Math.trunc(after.position)), count);
	if (afterLast !== null && atNext !== null) return Math.abs(atNext - (position + 1)) < Math.abs(afterLast - (position + 1)) ? atNext : afterLast;
	return afterLast ?? atNext ?? position;
}

function passes(filter: Filter | null, context: EvaluationContext): boolean {
	if (!filter) return true;
	switch (filter.kind) {
		case "statement":
			return isTruthy(evaluate(filter.expression, context));
		case "and":
			return filter.items.every((item) => passes(item, context));
		case "or":
			return filter.items.some((item) => passes(item, context));
		case "not":
			return !filter.items.some((item) => passes(item, context));
	}
}

/** A column's value for a row: `file.x`, `formula.x`, `note.x`, or a bare note property name. */
function cellValue(id: string, context: EvaluationContext): { value: Value; error?: string } {
	try {
		if (id.startsWith("file.")) return { value: field(new FileValue(context.row), id.slice(5), context) };
		if (id.startsWith("formula.")) return { value: formulaValue(id.slice(8), context) };
		if (id.startsWith("note.")) return { value: notePropertyValue(context.row, id.slice(5), context.vault, context.budget) };
		return { value: notePropertyValue(context.row, id, context.vault, context.budget) };
	} catch (error) {
		if (error instanceof EvaluationError) return { value: null, error: error.message };
		throw error;
	}
}

function compareRows(a: Value[], b: Value[], keys: SortKey[]): number {
	for (const [position, key] of keys.entries()) {
		const left = a[position] ?? null;
		const right = b[position] ?? null;
		// Empty values go last whichever the direction, as in Obsidian's tables.
		if (left === null || right === null) {
			if (left !== right) return left === null ? 1 : -1;
			continue;
		}
		const order = compareValues(left, right);
		if (order !== 0) return key.direction === "DESC" ? -order : order;
	}
	return 0;
}

/**
 * For a row's `values`, the cells that are files or links, and how they name them; for a row whose
 * group does, its path and its group: an answer too big to send is cut to fit, and a file's path
 * cut to a prefix (or a link's text inside its link path) could name another, planted note. Kept
 * beside the row, not in it: the answer is what the client gets, and held weakly, so it goes with
 * the row.
 */
export const cellNamings = new WeakMap<object, ReadonlyMap<string, ValueNaming>>();

/**
 * Whether `text`, given to a tool as a note's path or link (`findNote`), names a visible file or
 * folder: a cell that is a path only as text (`file.path`, `file.folder`, `file.basename`, a formula
 * making one), which cut to a prefix could name another note as well as a file cell could. A hidden
 * file is not looked for: whether such a cell is cut would tell that it exists.
 */
function namesVisibleFile(vault: BaseVault, text: string): boolean {
	if (text.length === 0 || text.length > MAX_VAULT_PATH_CHARS) return false;
	return vault.isVisiblePath(text) || vault.file(`${text}.md`) !== null || vault.resolveLink(text, "") !== null;
}

/** An object's two braces, in each of the answer's two forms: counted once for the object, not again for each entry. */
const BRACES_BYTES = 4;

/** The bytes an answer's rows may still take, counted as they are built. */
class AnswerRoom {
	private left: number;
	constructor(
		private readonly fit: AnswerFit,
		answerWithoutRows: BaseQueryResult,
	) {
		this.left = fit.maxBytes - fit.smallestBytes(answerWithoutRows);
	}
	/** Takes the bytes `value` needs at least; false when it has too little left: the answer is full. */
	take(value: unknown): boolean {
		this.left -= this.fit.smallestBytes(value);
		return this.left >= 0;
	}
	/** Takes what one more entry `key: value` of an object needs at least (the object's braces are its own). */
	takeEntry(key: string, value: unknown): boolean {
		this.left -= this.fit.smallestBytes({ [key]: value }) - BRACES_BYTES;
		return this.left >= 0;
	}
}

/**
 * One row, a cell at a time with a pause between cells (a row of 1,990 columns was one piece); null
 * once it no longer fits in `room` (the answer is full): the cells after that are not evaluated.
 */
async function makeRow(
	file: BaseFile,
	context: EvaluationContext,
	columns: string[],
	group: Value | undefined,
	room: AnswerRoom | null,
	pause: () => Promise<void>,
): Promise<BaseQueryRow | null> {
	const values: Record<string, unknown> = {};
	const errors: Record<string, string> = {};
	const namings = new Map<string, ValueNaming>();
	const namesFile = (text: string) => namesVisibleFile(context.vault, text);
	const row: BaseQueryRow = { path: file.path, ...(group !== undefined ? { group: toJson(group) } : {}), values };
	// The row's frame, with an `errors` key even when it has none (a few bytes more, never fewer).
	if (room && !(room.take({ path: "", group: row.group ?? null, values: {}, errors: {} }) && room.take(row.path))) return null;
	for (const id of columns) {
		await pause();
		const { value, naming, error } = context.budget.piece(() => {
			const cell = cellValue(id, context);
			// Made into JSON whole, and looked at for the files it names: a step per value it holds, each time.
			spendOnWalking(context, cell.value, cell.value);
			return { value: toJson(cell.value), naming: namingOf(cell.value, namesFile), error: cell.error };
		});
		if (room && !(room.takeEntry(id, value) && (error === undefined || room.takeEntry(id, error)))) return null;
		Object.defineProperty(values, id, { value, enumerable: true, writable: true, configurable: true });
		if (naming !== null) namings.set(id, naming);
		if (error !== undefined) Object.defineProperty(errors, id, { value: error, enumerable: true, writable: true, configurable: true });
	}
	if (namings.size > 0) cellNamings.set(values, namings);
	const made = Object.keys(errors).length > 0 ? { ...row, errors } : row;
	// A row's own places replace its schema's (filePlaces.ts): its path is named again beside its group.
	const groupNaming = group === undefined ? null : namingOf(group, namesFile);
	if (groupNaming !== null)
		cellNamings.set(
			made,
			new Map<string, ValueNaming>([
				["path", "path"],
				["group", groupNaming],
			]),
		);
	return made;
}
