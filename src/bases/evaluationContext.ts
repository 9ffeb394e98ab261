/**
 * What an evaluation of a Bases expression works with: its context (the row, `this`, the formulas,
 * the budget), its errors, and the bounds every value and argument is checked against.
 */
import { BASES_MAX_EVAL_STEPS, BASES_MAX_LIST_ITEMS, BASES_MAX_VALUE_CHARS } from "../config/limits";
import type { Expression } from "./expression";
import { typeOf, type BaseFile, type BaseVault, type Value } from "./values";

/** A value of the wrong type, a bad argument: the cell (or the row, in a filter) gets this message. */
export class EvaluationError extends Error {}

/** The query needed more work than one call may spend. */
export class BudgetExceededError extends Error {}

/** Work counted across one whole query. */
export class EvaluationBudget {
	private steps = 0;
	constructor(private readonly maxSteps = BASES_MAX_EVAL_STEPS) {}

	/** Counts `count` steps; throws once the query has spent its budget. */
	spend(count = 1): void {
		this.steps += count;
		if (this.steps > this.maxSteps)
			throw new BudgetExceededError(
				`The base needs more than ${this.maxSteps} evaluation steps, more than one call may spend. Add a filter (a folder or a tag) or simplify its formulas.`,
			);
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
	if (text.length > BASES_MAX_VALUE_CHARS) throw new EvaluationError(`A text value would be longer than ${BASES_MAX_VALUE_CHARS} characters.`);
	return text;
}

export function boundedList(list: Value[]): Value[] {
	if (list.length > BASES_MAX_LIST_ITEMS) throw new EvaluationError(`A list would have more than ${BASES_MAX_LIST_ITEMS} items.`);
	return list;
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
