/** Bases' comparison and arithmetic operators, and the total order used for sorting. */
import { addDuration, DateValue, DurationValue, parseDateText, parseDurationText, typeOf, type Value } from "./values";
import { boundedText, boundedToText, EvaluationError } from "./evaluationContext";

/** The order of two values for `<` `>`, or null when they do not compare (then the comparison is false). */
export function compareForOperator(left: Value, right: Value): number | null {
	if (left === null || right === null) return null;
	if (typeof left === "number" && typeof right === "number") return left - right;
	if (typeof left === "string" && typeof right === "string") return left < right ? -1 : left > right ? 1 : 0;
	const leftDate = asDate(left);
	const rightDate = asDate(right);
	if (leftDate && rightDate) return leftDate.ms - rightDate.ms;
	if (left instanceof DurationValue && right instanceof DurationValue) return left.totalMs - right.totalMs;
	if (typeof left === "number" && right instanceof DurationValue) return left - right.totalMs;
	if (left instanceof DurationValue && typeof right === "number") return left.totalMs - right;
	if (typeof left === "boolean" && typeof right === "boolean") return Number(left) - Number(right);
	// As in JavaScript, a number compares with text that writes a number: `formula.ppu > 5` where ppu is `toFixed(2)`.
	const numeric = (value: Value) =>
		typeof value === "number" ? value : typeof value === "string" && value.trim() !== "" && Number.isFinite(Number(value)) ? Number(value) : null;
	if (typeof left === "number" || typeof right === "number") {
		const [leftNumber, rightNumber] = [numeric(left), numeric(right)];
		if (leftNumber !== null && rightNumber !== null) return leftNumber - rightNumber;
	}
	return null;
}

/** Dates compare with dates, and with text that writes a date. */
function asDate(value: Value): DateValue | null {
	if (value instanceof DateValue) return value;
	if (typeof value === "string") return parseDateText(value);
	return null;
}

function asDuration(value: Value): DurationValue | null {
	if (value instanceof DurationValue) return value;
	if (typeof value === "string") return parseDurationText(value);
	return null;
}

export function plus(left: Value, right: Value): Value {
	if (left instanceof DateValue) {
		const duration = asDuration(right);
		if (duration) return addDuration(left, duration, 1);
	}
	if (left instanceof DurationValue && right instanceof DurationValue)
		return new DurationValue(left.months + right.months, left.days + right.days, left.ms + right.ms);
	if (typeof left === "number" && typeof right === "number") return left + right;
	// A missing date plus a duration is a missing date (`start_date + "2w"` on a note without one), not the text "2w".
	if ((left === null && typeof right === "string" && parseDurationText(right)) || (right === null && left instanceof DateValue)) return null;
	if (typeof left === "string" || typeof right === "string") return boundedText(boundedToText(left) + boundedToText(right));
	if (left === null || right === null) return null;
	throw new EvaluationError(`Cannot add a ${typeOf(right)} to a ${typeOf(left)}.`);
}

export function minus(left: Value, right: Value): Value {
	if (left instanceof DateValue) {
		const otherDate = asDate(right);
		if (right instanceof DateValue && otherDate) return left.ms - otherDate.ms;
		const duration = asDuration(right);
		if (duration) return addDuration(left, duration, -1);
		if (otherDate) return left.ms - otherDate.ms;
	}
	if (left instanceof DurationValue && right instanceof DurationValue)
		return new DurationValue(left.months - right.months, left.days - right.days, left.ms - right.ms);
	if (typeof left === "number" && typeof right === "number") return left - right;
	if (left === null || right === null) return null;
	throw new EvaluationError(`Cannot subtract a ${typeOf(right)} from a ${typeOf(left)}.`);
}

export function arithmetic(operator: string, left: Value, right: Value): Value {
	if (left === null || right === null) return null;
	if (left instanceof DurationValue && typeof right === "number" && (operator === "*" || operator === "/")) {
		const factor = operator === "*" ? right : 1 / right;
		return new DurationValue(left.months * factor, left.days * factor, left.ms * factor);
	}
	if (typeof left !== "number" || typeof right !== "number")
		throw new EvaluationError(`Cannot use "${operator}" on a ${typeOf(left)} and a ${typeOf(right)}.`);
	if (operator === "*") return left * right;
	if (operator === "/") return left / right;
	return left % right;
}

export function compareForSort(a: Value, b: Value): number {
	return compareValues(a, b);
}

/** A total order for sorting: nulls last, then by type, then within a type. */
export function compareValues(a: Value, b: Value): number {
	if (a === null || b === null) return a === b ? 0 : a === null ? 1 : -1;
	const order = compareForOperator(a, b);
	if (order !== null && !Number.isNaN(order)) return order;
	const byType = typeOf(a).localeCompare(typeOf(b));
	if (byType !== 0) return byType;
	const [left, right] = [boundedToText(a), boundedToText(b)];
	return left < right ? -1 : left > right ? 1 : 0;
}
