/**
 * What an evaluation of a Bases expression works with: its context (the row, `this`, the formulas,
 * the budget), its errors, and the bounds every value and argument is checked against.
 */
import {
	BASES_MAX_EVAL_NESTING,
	BASES_MAX_EVAL_STEPS,
	BASES_MAX_LIST_ITEMS,
	BASES_MAX_PER_CHARACTER_INPUT_CHARS,
	BASES_MAX_PIECE_MS,
	BASES_MAX_PIECE_WALL_MS,
	BASES_MAX_QUERY_WORK_MS,
	BASES_MAX_VALUE_CHARS,
	BASES_TEXT_CHARS_PER_STEP,
	BASE_STEPS_PER_CLOCK_CHECK,
} from "../config/limits";
import { startWorkStopwatch } from "../vault/workBudget";
import type { Expression } from "./expression";
import { textChars, toText, typeOf, valueWeight, type BaseFile, type BaseVault, type ObjectValue, type Value } from "./values";

/** A value of the wrong type, a bad argument: the cell (or the row, in a filter) gets this message. */
export class EvaluationError extends Error {}

/** The query needed more work than one call may spend. */
export class BudgetExceededError extends Error {}

/**
 * Work counted across one whole query: steps, and the work of each piece of evaluation (one file's
 * filters or cells, run without a pause) and of all pieces together. Work is read on `stopwatch`
 * (CPU time where the runtime reports it): a busy machine that takes the core away mid-piece
 * lengthens the piece's wall time, not its work, so it does not change what a query answers.
 * One stopwatch a slice (the pieces between two pauses that give the host its turn, `endSlice`),
 * not one a piece: the CPU clock costs 2.7 µs a reading, and two a piece made a query over 10,000
 * notes cost 1.25 times its CPU. A piece's work is the slice's reading since the piece began,
 * measured from the slice's wall time then (no CPU reading): that start is never below the CPU the
 * slice had used, so a piece may work up to the slice's wall time before it (under a slice, 10 ms
 * in `query_base`, whose pauses end slices) past BASES_MAX_PIECE_MS before it is stopped.
 */
export class EvaluationBudget {
	private steps = 0;
	private sinceClockCheck = 0;
	private sliceWork: ((bound?: number) => number) | null = null;
	/** The slice's reading when the piece under way began (its wall time, see `beginPiece`); -1 outside a piece. */
	private pieceFrom = -1;
	private pieceWallStart = 0;
	private worked = 0;
	private nesting = 0;

	constructor(
		private readonly maxSteps = BASES_MAX_EVAL_STEPS,
		private readonly stopwatch: () => (bound?: number) => number = startWorkStopwatch,
		private readonly pieceMs = BASES_MAX_PIECE_MS,
		private readonly workMs = BASES_MAX_QUERY_WORK_MS,
		private readonly pieceWallMs = BASES_MAX_PIECE_WALL_MS,
	) {}

	/**
	 * Counts `count` steps; throws once the query has spent its budget, or its piece or its whole
	 * work is up. The stopwatch is read every BASE_STEPS_PER_CLOCK_CHECK steps, or at once with
	 * `lookAtClock` (after work a step does not measure, such as a regular expression's run).
	 */
	spend(count = 1, lookAtClock = false): void {
		this.steps += count;
		if (this.steps > this.maxSteps)
			throw new BudgetExceededError(
				`The base needs more than ${this.maxSteps} evaluation steps, more than one call may spend. Add a filter (a folder or a tag) or simplify its formulas.`,
			);
		this.sinceClockCheck += count;
		if ((this.sinceClockCheck < BASE_STEPS_PER_CLOCK_CHECK && !lookAtClock) || this.sliceWork === null || this.pieceFrom < 0) return;
		this.sinceClockCheck = 0;
		// One reading for both bounds; the wall time alone while it is within both (the work cannot be more).
		const slice = this.sliceWork(Math.min(this.pieceFrom + this.pieceMs, this.workMs - this.worked));
		if (slice - this.pieceFrom > this.pieceMs)
			throw new BudgetExceededError(
				`The base's filters and formulas for one file took more than ${this.pieceMs} ms, and were stopped so other clients are not held up. Simplify its formulas (work on shorter texts and lists).`,
			);
		// Work, not wall time, decides above; but however little the piece worked, it holds the thread no longer than this.
		if (performance.now() - this.pieceWallStart > this.pieceWallMs)
			throw new BudgetExceededError(
				`The base's filters and formulas for one file held the server more than ${this.pieceWallMs} ms on a busy machine, and were stopped so other clients are not held up. Try again when the machine is less busy, or simplify its formulas.`,
			);
		if (this.worked + slice > this.workMs)
			throw new BudgetExceededError(
				`The base needed more than ${this.workMs / 1000} s of evaluation, more than one call may spend. Add a filter (a folder or a tag) or simplify its formulas.`,
			);
	}

	/** One more expression is being evaluated inside the others (leave() when it is done): too deep a nesting is the row's error, never the stack's. */
	enter(): void {
		if (this.nesting >= BASES_MAX_EVAL_NESTING)
			throw new EvaluationError(
				`The formulas nest more than ${BASES_MAX_EVAL_NESTING} expressions deep (counting the formulas they refer to). Simplify them.`,
			);
		this.nesting++;
	}

	leave(): void {
		this.nesting--;
	}

	/** Starts a piece: work that runs without a pause, bounded on its own and counted into the query's. The slice's stopwatch starts with its first piece. */
	beginPiece(): void {
		this.sliceWork ??= this.stopwatch();
		// An unbounded reading is the wall time: no clock but the wall's is read here.
		this.pieceFrom = this.sliceWork(Number.POSITIVE_INFINITY);
		this.pieceWallStart = performance.now();
		this.sinceClockCheck = 0;
	}

	/** Ends the piece begun last: its work is counted with its slice's (`endSlice`). */
	endPiece(): void {
		this.pieceFrom = -1;
	}

	/** Ends the slice before a pause that gives the host its turn: its pieces' work (read on the CPU clock, once) is added to the query's. */
	endSlice(): void {
		if (this.sliceWork !== null) this.worked += this.sliceWork();
		this.sliceWork = null;
	}

	/** Runs `work` as one piece. */
	piece<T>(work: () => T): T {
		this.beginPiece();
		try {
			return work();
		} finally {
			this.endPiece();
		}
	}
}

/** What one evaluation sees: the row's file, the base file as `this`, the base's formulas. */
export interface EvaluationContext {
	vault: BaseVault;
	row: BaseFile;
	self: BaseFile;
	formulas: ReadonlyMap<string, Expression>;
	budget: EvaluationBudget;
	/** `now()` for the whole query, so every row sees the same moment. */
	now: number;
	/** Formula values of this row, computed once each. */
	formulaCache: Map<string, Value>;
	/** Formulas being computed for this row (a cycle is an error, not a hang). */
	evaluating: Set<string>;
}

export type Locals = ReadonlyMap<string, Value>;

export function boundedText(text: string): string {
	checkTextLength(text.length);
	return text;
}

/** Refuses a text of `length` characters past BASES_MAX_VALUE_CHARS: called before a text whose length is known is built. */
export function checkTextLength(length: number): void {
	if (length > BASES_MAX_VALUE_CHARS) throw new EvaluationError(`A text value would be longer than ${BASES_MAX_VALUE_CHARS} characters.`);
}

/** A text for a method that works per character or per piece, refused past BASES_MAX_PER_CHARACTER_INPUT_CHARS. */
export function perCharacterInput(text: string, functionName: string): string {
	if (text.length > BASES_MAX_PER_CHARACTER_INPUT_CHARS)
		throw new EvaluationError(
			`${functionName}() was given a text of ${text.length} characters; it works on at most ${BASES_MAX_PER_CHARACTER_INPUT_CHARS}.`,
		);
	return text;
}

/** A list (or an object) an expression makes, refused past BASES_MAX_LIST_ITEMS values counting those of the lists inside it (valueWeight). */
export function boundedList<T extends Value[] | ObjectValue>(list: T): T {
	if (valueWeight(list) > BASES_MAX_LIST_ITEMS)
		throw new EvaluationError(`A list would have more than ${BASES_MAX_LIST_ITEMS} items, counting those of the lists inside it.`);
	return list;
}

/**
 * A value as text (toText), refused before it is built when it would be longer than
 * BASES_MAX_VALUE_CHARS: a list's text is its items' and their separators, and a list of lists
 * of one megabyte text reached ten gigabytes from a few hundred characters of formulas.
 */
export function boundedToText(value: Value): string {
	checkTextLength(textChars(value) + 2 * valueWeight(value));
	return toText(value);
}

/**
 * Steps to walk a list or an object (print, compare or flatten it): one per value it holds, and one
 * per BASES_TEXT_CHARS_PER_STEP characters of the texts inside it, each counted every time it is
 * reached (valueWeight, textChars); a lone text or other scalar is compared at once.
 */
export function walkSteps(value: Value): number {
	const weight = valueWeight(value);
	return weight === 0 ? 0 : weight + Math.ceil(textChars(value) / BASES_TEXT_CHARS_PER_STEP);
}

/** Counts the work of walking values (printing, comparing, flattening them): walkSteps for each. */
export function spendOnWalking(context: EvaluationContext, ...values: Value[]): void {
	let steps = 0;
	for (const value of values) steps += walkSteps(value);
	if (steps > 0) context.budget.spend(steps);
}

export function numberArg(value: Value, functionName: string): number {
	if (typeof value !== "number") throw new EvaluationError(`${functionName}() needs a number, not a ${typeOf(value)}.`);
	return value;
}

export function textArg(value: Value, functionName: string): string {
	if (typeof value !== "string") throw new EvaluationError(`${functionName}() needs a text, not a ${typeOf(value)}.`);
	return value;
}

/** The error for a method called on a value whose type has none of that name. */
export function notAFunctionOf(name: string, receiver: Value): EvaluationError {
	return new EvaluationError(`${name}() is not a function of a ${typeOf(receiver)}.`);
}
