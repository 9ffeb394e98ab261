/**
 * Evaluates a Bases expression for one file. Pure: the vault is reached only through `BaseVault`.
 * The functions and fields are those of Obsidian's published function reference; anything else is
 * refused before evaluation (`checkSupported` in supported.ts), by name, so a query never yields a silently wrong
 * row. A value of the wrong type for a function is an error for that cell or row only.
 */
import dayjs from "dayjs";
import relativeTime from "dayjs/plugin/relativeTime";
import { BASES_MAX_DATE_FORMAT_CHARS, BASES_TEXT_CHARS_PER_STEP } from "../config/limits";
import { trimSlashes } from "../paths/spelling";
import type { Expression } from "./expression";
import {
	boundedList,
	boundedText,
	boundedToText,
	checkTextLength,
	EvaluationError,
	notAFunctionOf,
	numberArg,
	perCharacterInput,
	spendOnWalking,
	walkSteps,
	textArg,
	type EvaluationContext,
	type Locals,
} from "./evaluationContext";
import { makeLink, noteObject, notePropertyValue } from "./noteValues";
import { arithmetic, compareForOperator, compareForSort, minus, plus } from "./operators";
import { makeRegex, regexInput } from "./regexSafety";
import { numberMethod, textMethod } from "./scalarMethods";
import {
	DateValue,
	DurationValue,
	FileValue,
	fileOf,
	isTruthy,
	LinkValue,
	ObjectValue,
	parseDateText,
	parseDurationText,
	RegexValue,
	targetOf,
	ThisValue,
	typeOf,
	valuesEqual,
	type BaseFile,
	type CountWalk,
	type Value,
} from "./values";
import { echoed } from "../markdown/echo";

dayjs.extend(relativeTime);

/** File fields from the reference's file properties. */
const FILE_FIELDS = ["name", "basename", "path", "folder", "ext", "size", "ctime", "mtime", "tags", "links", "embeds", "backlinks", "properties", "file"];

const DATE_FIELDS = ["year", "month", "day", "hour", "minute", "second", "millisecond"];

/** The value of `expression` for the context's row. */
export function evaluate(expression: Expression, context: EvaluationContext, locals: Locals | null = null): Value {
	context.budget.spend();
	context.budget.enter();
	try {
		return evaluateNode(expression, context, locals);
	} finally {
		context.budget.leave();
	}
}

function evaluateNode(expression: Expression, context: EvaluationContext, locals: Locals | null): Value {
	switch (expression.kind) {
		case "literal":
			return expression.value;
		case "regex":
			return new RegexValue(makeRegex(expression.pattern, expression.flags));
		case "identifier":
			return identifier(expression.name, context, locals);
		case "list":
			return boundedList(expression.items.map((item) => evaluate(item, context, locals)));
		case "object":
			return boundedList(new ObjectValue(new Map(expression.entries.map(([key, value]) => [key, evaluate(value, context, locals)]))));
		case "member":
			return member(expression, context, locals);
		case "index":
			return index(evaluate(expression.object, context, locals), evaluate(expression.index, context, locals));
		case "call":
			return call(expression, context, locals);
		case "unary": {
			const operand = evaluate(expression.operand, context, locals);
			if (expression.operator === "!") return !isTruthy(operand);
			if (typeof operand === "number") return -operand;
			if (operand instanceof DurationValue) return new DurationValue(-operand.months, -operand.days, -operand.ms);
			if (operand === null) return null;
			throw new EvaluationError(`Cannot negate a ${typeOf(operand)}.`);
		}
		case "binary":
			return binary(expression.operator, expression.left, expression.right, context, locals);
	}
}

/** A formula's value for the row (computed once per row). */
export function formulaValue(name: string, context: EvaluationContext): Value {
	if (context.formulaCache.has(name)) return context.formulaCache.get(name) ?? null;
	const formula = context.formulas.get(name);
	if (!formula) throw new EvaluationError(`There is no formula "${name}" in this base.`);
	if (context.evaluating.has(name)) throw new EvaluationError(`The formula "${name}" refers to itself (through ${[...context.evaluating].join(" → ")}).`);
	context.evaluating.add(name);
	try {
		const value = evaluate(formula, context);
		context.formulaCache.set(name, value);
		return value;
	} finally {
		context.evaluating.delete(name);
	}
}

function identifier(name: string, context: EvaluationContext, locals: Locals | null): Value {
	if (locals?.has(name)) return locals.get(name) ?? null;
	if (name === "file") return new FileValue(context.row);
	if (name === "this") return new ThisValue(context.self);
	if (name === "note") return noteObject(context.row, context.vault, context.budget);
	if (name === "formula") throw new EvaluationError("Use formula.NAME to refer to a formula.");
	return notePropertyValue(context.row, name, context.vault, context.budget);
}

function member(expression: Extract<Expression, { kind: "member" }>, context: EvaluationContext, locals: Locals | null): Value {
	const base = expression.object;
	// `formula.x` and `note.x` are names, not fields of a value.
	if (base.kind === "identifier" && !locals?.has(base.name)) {
		if (base.name === "formula") return formulaValue(expression.name, context);
		if (base.name === "note") return notePropertyValue(context.row, expression.name, context.vault, context.budget);
	}
	return field(evaluate(base, context, locals), expression.name, context);
}

/** `value.name`: a file's, date's, text's, list's or object's field. */
export function field(value: Value, name: string, context: EvaluationContext): Value {
	if (value instanceof ThisValue) {
		if (name === "file") return new FileValue(value.file);
		if (name === "note") return noteObject(value.file, context.vault, context.budget);
		return FILE_FIELDS.includes(name) ? fileField(value.file, name, context) : notePropertyValue(value.file, name, context.vault, context.budget);
	}
	if (value instanceof FileValue) {
		if (!FILE_FIELDS.includes(name)) throw new EvaluationError(`file.${name} is not a file property (file properties: ${FILE_FIELDS.join(", ")}).`);
		return fileField(value.file, name, context);
	}
	if (value === null) return null;
	if (value instanceof DateValue) {
		if (!DATE_FIELDS.includes(name)) throw new EvaluationError(`A date has no field "${name}" (fields: ${DATE_FIELDS.join(", ")}).`);
		const date = new Date(value.ms);
		const parts: Record<string, number> = {
			year: date.getFullYear(),
			month: date.getMonth() + 1,
			day: date.getDate(),
			hour: date.getHours(),
			minute: date.getMinutes(),
			second: date.getSeconds(),
			millisecond: date.getMilliseconds(),
		};
		return parts[name] ?? null;
	}
	if ((typeof value === "string" || Array.isArray(value)) && name === "length") return value.length;
	if (value instanceof ObjectValue) return value.fields.get(name) ?? null;
	throw new EvaluationError(`A ${typeOf(value)} has no field "${name}".`);
}

function fileField(file: BaseFile, name: string, context: EvaluationContext): Value {
	switch (name) {
		case "name":
			return file.name;
		case "basename":
			return file.basename;
		case "path":
			return file.path;
		case "folder":
			return file.folder;
		case "ext":
			return file.extension;
		case "size":
			return file.size;
		case "ctime":
			return new DateValue(file.ctime, true);
		case "mtime":
			return new DateValue(file.mtime, true);
		// A list made anew at each reference, one step an item: uncounted, a formula naming a note's 100,000
		// links 200 times was one piece of 480 ms.
		case "tags":
			return madeList(file.tags(), (tag) => tag, context);
		case "links":
			return madeList(file.links(), (entry) => new LinkValue(entry.link, () => entry.target, entry.display), context);
		case "embeds":
			return madeList(file.embeds(), (entry) => new LinkValue(entry.link, () => entry.target, entry.display), context);
		case "backlinks":
			context.budget.spend(100);
			return context.vault.backlinks(file.path).map((path) => new LinkValue(path, path));
		case "properties":
			return noteObject(file, context.vault, context.budget);
		default:
			return new FileValue(file);
	}
}

function index(value: Value, key: Value): Value {
	if (value === null) return null;
	if (Array.isArray(value) && typeof key === "number") return value[key < 0 ? value.length + key : key] ?? null;
	if (typeof value === "string" && typeof key === "number") return value[key] ?? null;
	if (value instanceof ObjectValue && typeof key === "string") return value.fields.get(key) ?? null;
	throw new EvaluationError(`Cannot index a ${typeOf(value)} with a ${typeOf(key)}.`);
}

function binary(operator: string, leftExpression: Expression, rightExpression: Expression, context: EvaluationContext, locals: Locals | null): Value {
	if (operator === "&&") {
		const left = evaluate(leftExpression, context, locals);
		return isTruthy(left) ? evaluate(rightExpression, context, locals) : left;
	}
	if (operator === "||") {
		const left = evaluate(leftExpression, context, locals);
		return isTruthy(left) ? left : evaluate(rightExpression, context, locals);
	}
	const left = evaluate(leftExpression, context, locals);
	const right = evaluate(rightExpression, context, locals);
	spendOnWalking(context, left, right);
	switch (operator) {
		case "==":
			return valuesEqual(left, right);
		case "!=":
			return !valuesEqual(left, right);
		case "<":
		case "<=":
		case ">":
		case ">=": {
			const order = compareForOperator(left, right);
			if (order === null) return false;
			return operator === "<" ? order < 0 : operator === "<=" ? order <= 0 : operator === ">" ? order > 0 : order >= 0;
		}
		case "+":
			return plus(left, right);
		case "-":
			return minus(left, right);
		default:
			return arithmetic(operator, left, right);
	}
}

function call(expression: Extract<Expression, { kind: "call" }>, context: EvaluationContext, locals: Locals | null): Value {
	const { callee, args } = expression;
	if (callee.kind === "identifier") return globalCall(callee.name, args, context, locals);
	if (callee.kind !== "member") throw new EvaluationError("Only functions can be called.");
	return methodCall(evaluate(callee.object, context, locals), callee.name, args, context, locals);
}

function argValues(args: Expression[], context: EvaluationContext, locals: Locals | null): Value[] {
	return args.map((arg) => evaluate(arg, context, locals));
}

function globalCall(name: string, args: Expression[], context: EvaluationContext, locals: Locals | null): Value {
	if (name === "if") {
		if (args.length < 2 || args.length > 3) throw new EvaluationError("if() takes a condition, a value if true and optionally a value if false.");
		const [condition, whenTrue, whenFalse] = args as [Expression, Expression, Expression | undefined];
		if (isTruthy(evaluate(condition, context, locals))) return evaluate(whenTrue, context, locals);
		return whenFalse ? evaluate(whenFalse, context, locals) : null;
	}
	const values = argValues(args, context, locals);
	const [first, second] = values;
	switch (name) {
		case "now":
			return new DateValue(context.now, true);
		case "today": {
			const today = new Date(context.now);
			today.setHours(0, 0, 0, 0);
			return new DateValue(today.getTime(), false);
		}
		case "random":
			return Math.random();
		case "date": {
			if (first instanceof DateValue) return first;
			const parsed = parseDateText(textArg(first ?? null, "date"));
			if (!parsed) throw new EvaluationError(`date() cannot read "${echoed(boundedToText(first ?? null))}"; write YYYY-MM-DD or YYYY-MM-DD HH:mm:ss.`);
			return parsed;
		}
		case "duration": {
			if (first instanceof DurationValue) return first;
			const parsed = parseDurationText(textArg(first ?? null, "duration"));
			if (!parsed)
				throw new EvaluationError(`duration() cannot read "${echoed(boundedToText(first ?? null))}"; write for example "1d", "2 weeks" or "3h".`);
			return parsed;
		}
		case "escapeHTML":
			// Per character, and five times as long: a megabyte of `<` held the server a third of a second.
			return boundedText(perCharacterInput(textArg(first ?? null, "escapeHTML"), "escapeHTML").replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`));
		case "file": {
			const target =
				first instanceof LinkValue
					? first.target
					: typeof first === "string"
						? context.vault.resolveLink(first.split("#", 1)[0] ?? "", context.row.path)
						: (fileOf(first ?? null)?.path ?? null);
			const file = target === null ? null : context.vault.file(target);
			return file ? new FileValue(file) : null;
		}
		case "link": {
			const display = second === undefined || second === null ? undefined : boundedToText(second);
			const file = fileOf(first ?? null);
			if (file) return new LinkValue(file.path, file.path, display);
			if (first instanceof LinkValue) return display === undefined ? first : new LinkValue(first.link, first.target, display);
			return makeLink(textArg(first ?? null, "link"), context.row.path, context.vault, display);
		}
		case "list":
			return Array.isArray(first) ? first : boundedList([first ?? null]);
		case "max":
		case "min": {
			const numbers = values.map((value) => numberArg(value, name));
			return numbers.length === 0 ? null : name === "max" ? Math.max(...numbers) : Math.min(...numbers);
		}
		case "number": {
			const value = first ?? null;
			if (typeof value === "number") return value;
			if (typeof value === "boolean") return value ? 1 : 0;
			if (value instanceof DateValue) return value.ms;
			if (value instanceof DurationValue) return value.totalMs;
			if (typeof value === "string" && value.trim() !== "" && Number.isFinite(Number(value))) return Number(value);
			throw new EvaluationError(`number() cannot read ${typeof value === "string" ? `"${echoed(value)}"` : `a ${typeOf(value)}`} as a number.`);
		}
		default:
			throw new EvaluationError(`The function ${name}() is not supported.`);
	}
}

/**
 * A regular expression has run: one run cannot be paused and costs up to tens of milliseconds on
 * its longest input, so the piece's time is looked at after each (a filter of a hundred runs read
 * the clock once in twenty, after a second of work).
 */
function ranRegex(context: EvaluationContext): void {
	context.budget.spend(1, true);
}

function methodCall(receiver: Value, name: string, args: Expression[], context: EvaluationContext, locals: Locals | null): Value {
	// Functions of any type.
	if (name === "isTruthy") return isTruthy(receiver);
	if (name === "isType") return typeOf(receiver) === textArg(evaluate(args[0] ?? { kind: "literal", value: null }, context, locals), "isType");
	if (name === "toString") {
		spendOnWalking(context, receiver);
		return boundedToText(receiver);
	}
	if (Array.isArray(receiver) && (name === "filter" || name === "map" || name === "reduce")) return listLambda(receiver, name, args, context, locals);
	const values = argValues(args, context, locals);
	if (receiver === null) {
		if (name === "isEmpty") return true;
		return null;
	}
	if (typeof receiver === "string") {
		context.budget.spend(Math.ceil(receiver.length / BASES_TEXT_CHARS_PER_STEP));
		const result = textMethod(receiver, name, values);
		if (values.some((value) => value instanceof RegexValue)) ranRegex(context);
		return result;
	}
	if (typeof receiver === "number") return numberMethod(receiver, name, values);
	if (Array.isArray(receiver)) return listMethod(receiver, name, values, context);
	if (receiver instanceof DateValue) return dateMethod(receiver, name, values, context);
	if (receiver instanceof FileValue || receiver instanceof ThisValue) return fileMethod(receiver.file, name, values, context);
	if (receiver instanceof LinkValue) return linkMethod(receiver, name, values, context);
	if (receiver instanceof ObjectValue) {
		if (name === "isEmpty") return receiver.fields.size === 0;
		if (name === "keys") return [...receiver.fields.keys()];
		if (name === "values") return [...receiver.fields.values()];
	}
	if (receiver instanceof RegexValue && name === "matches") {
		const matched = receiver.regex.test(regexInput(textArg(values[0] ?? null, "matches")));
		ranRegex(context);
		return matched;
	}
	if (name === "isEmpty") return false;
	throw notAFunctionOf(name, receiver);
}

function listMethod(list: Value[], name: string, args: Value[], context: EvaluationContext): Value {
	const [first, second] = args;
	spendOnWalking(context, list, ...args);
	// Comparisons counted as they walk, so the piece's clock is read among them: charged before, the
	// arguments' walks of a long list ran as uncounted native loops (20 arguments over 40,000 items: one piece of 375 ms).
	const countWalk: CountWalk = (values, chars) => context.budget.spend(values + Math.ceil(chars / BASES_TEXT_CHARS_PER_STEP));
	const holds = (wanted: Value) => list.some((item) => valuesEqual(item, wanted, countWalk));
	switch (name) {
		case "contains":
			return holds(first ?? null);
		case "containsAll":
			return args.every(holds);
		case "containsAny":
			return args.some(holds);
		case "isEmpty":
			return list.length === 0;
		case "flat":
			return boundedList(list.flatMap((item) => (Array.isArray(item) ? item : [item])));
		case "join": {
			context.budget.spend(list.length);
			const separator = first === undefined ? "," : textArg(first, name);
			const texts = list.map(boundedToText);
			// Measured before it is joined: 100,000 one-letter items joined by 5,000 characters took 5.5 s to build.
			let length = separator.length * Math.max(0, texts.length - 1);
			for (const text of texts) length += text.length;
			checkTextLength(length);
			return texts.join(separator);
		}
		case "reverse":
			return [...list].reverse();
		case "slice":
			return list.slice(numberArg(first ?? null, name), second === undefined ? undefined : numberArg(second, name));
		case "sort": {
			// Each comparison may print the two items it compares (lists are compared as text). Counted as each
			// is made, so the piece's clock is read during the sort: charged before it, the comparisons ran as
			// one native call the clock never saw (100,000 tags sorted in one piece of 412 ms).
			const walk = longestWalk(list);
			return [...list].sort((a, b) => {
				context.budget.spend(walk);
				return compareForSort(a, b);
			});
		}
		case "unique": {
			// Counted as the comparisons walk (countWalk), stopped when the budget is spent: the longest item for
			// every pair refused a thousand small lists (5 M steps charged for far fewer values walked).
			const kept: Value[] = [];
			for (const item of list) if (!kept.some((other) => valuesEqual(other, item, countWalk))) kept.push(item);
			return kept;
		}
		default:
			throw notAFunctionOf(name, list);
	}
}

/** `items` made into a list of values, one step an item, counted before the (native, a few ms at 100,000 items) loop. */
function madeList<T>(items: readonly T[], value: (item: T) => Value, context: EvaluationContext): Value[] {
	context.budget.spend(items.length);
	return items.map(value);
}

/** The most steps walking one of a list's items takes (at least 1): what comparing two of them may cost. */
function longestWalk(list: Value[]): number {
	let longest = 1;
	for (const item of list) longest = Math.max(longest, walkSteps(item));
	return longest;
}

/** `filter`, `map` and `reduce`: the argument is an expression evaluated per item, with `value`, `index` (and `acc`) bound. */
function listLambda(list: Value[], name: "filter" | "map" | "reduce", args: Expression[], context: EvaluationContext, locals: Locals | null): Value {
	const body = args[0];
	if (!body) throw new EvaluationError(`${name}() needs an expression, for example ${name === "reduce" ? "reduce(acc + value, 0)" : `${name}(value > 2)`}.`);
	// One scope for the whole loop, its names rebound per item: a new map per item would cost more than the item.
	const scope = new Map<string, Value>(locals ?? []);
	if (name === "reduce") {
		let acc: Value = args[1] ? evaluate(args[1], context, locals) : null;
		list.forEach((value, position) => {
			scope.set("value", value).set("index", position).set("acc", acc);
			acc = evaluate(body, context, scope);
		});
		return acc;
	}
	const results = list.map((value, position) => evaluate(body, context, scope.set("value", value).set("index", position)));
	return name === "map" ? boundedList(results) : list.filter((_, position) => isTruthy(results[position] ?? null));
}

function dateMethod(date: DateValue, name: string, args: Value[], context: EvaluationContext): Value {
	switch (name) {
		case "date": {
			const day = new Date(date.ms);
			day.setHours(0, 0, 0, 0);
			return new DateValue(day.getTime(), false);
		}
		case "format": {
			const format = textArg(args[0] ?? null, name);
			if (format.length > BASES_MAX_DATE_FORMAT_CHARS)
				throw new EvaluationError(`format() was given a format of ${format.length} characters; at most ${BASES_MAX_DATE_FORMAT_CHARS} are read.`);
			return dayjs(date.ms).format(format);
		}
		case "time":
			return dayjs(date.ms).format("HH:mm:ss");
		case "relative":
			return dayjs(date.ms).from(dayjs(context.now));
		case "isEmpty":
			return false;
		default:
			throw notAFunctionOf(name, date);
	}
}

function fileMethod(file: BaseFile, name: string, args: Value[], context: EvaluationContext): Value {
	const [first] = args;
	switch (name) {
		case "asLink":
			return new LinkValue(file.path, file.path, first === undefined || first === null ? undefined : boundedToText(first));
		case "hasLink": {
			const wanted =
				first instanceof LinkValue || fileOf(first ?? null)
					? targetOf(first ?? null)
					: context.vault.resolveLink(textArg(first ?? null, name).split("#", 1)[0] ?? "", file.path);
			if (wanted === null) return false;
			const links = file.links();
			context.budget.spend(links.length);
			return links.some((entry) => entry.target === wanted);
		}
		case "hasProperty": {
			const properties = file.properties();
			return properties !== null && Object.prototype.hasOwnProperty.call(properties, textArg(first ?? null, name));
		}
		case "hasTag": {
			const tags = file.tags().map((tag) => tag.replace(/^#/, "").toLowerCase());
			context.budget.spend(tags.length * args.length);
			return args.some((arg) => {
				const wanted = textArg(arg, name).replace(/^#/, "").toLowerCase();
				return tags.some((tag) => tag === wanted || tag.startsWith(`${wanted}/`));
			});
		}
		case "inFolder": {
			const folder = trimSlashes(textArg(first ?? null, name));
			if (folder === "") return true;
			return file.folder === folder || file.folder.startsWith(`${folder}/`);
		}
		case "isEmpty":
			return false;
		default:
			throw notAFunctionOf(name, new FileValue(file));
	}
}

function linkMethod(link: LinkValue, name: string, args: Value[], context: EvaluationContext): Value {
	switch (name) {
		case "asFile": {
			const file = link.target === null ? null : context.vault.file(link.target);
			return file ? new FileValue(file) : null;
		}
		case "linksTo": {
			const source = link.target === null ? null : context.vault.file(link.target);
			const wanted = targetOf(args[0] ?? null);
			if (!source || wanted === null) return false;
			return source.links().some((entry) => entry.target === wanted);
		}
		case "isEmpty":
			return false;
		default:
			throw notAFunctionOf(name, link);
	}
}
