/**
 * Evaluates a Bases expression for one file. Pure: the vault is reached only through `BaseVault`.
 * The functions and fields are those of Obsidian's published function reference; anything else is
 * refused before evaluation (`checkSupported`), by name, so a query never yields a silently wrong
 * row. A value of the wrong type for a function is an error for that cell or row only.
 */
import dayjs from "dayjs";
import relativeTime from "dayjs/plugin/relativeTime";
import { trimSlashes } from "../paths/spelling";
import {
	BASES_MAX_EVAL_STEPS,
	BASES_MAX_LIST_ITEMS,
	BASES_MAX_REGEX_INPUT_CHARS,
	BASES_MAX_REGEX_CHOICES,
	BASES_MAX_REGEX_UNBOUNDED_REPEATS,
	BASES_MAX_VALUE_CHARS,
} from "../config/limits";
import { walkExpression, type Expression } from "./expression";
import {
	addDuration,
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
	toText,
	typeOf,
	valuesEqual,
	type BaseFile,
	type BaseVault,
	type Value,
} from "./values";

dayjs.extend(relativeTime);

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

/** The global functions Bases documents, and the ones that only render in Obsidian's view. */
const GLOBAL_FUNCTIONS = new Set(["date", "duration", "escapeHTML", "file", "if", "link", "list", "max", "min", "now", "number", "random", "today"]);
const RENDER_ONLY_FUNCTIONS = new Set(["html", "image", "icon"]);
/** Every method name of every type in the reference; which type has which is checked when called. */
const METHODS = new Set([
	"isTruthy",
	"isType",
	"toString",
	"isEmpty",
	"date",
	"format",
	"time",
	"relative",
	"contains",
	"containsAll",
	"containsAny",
	"endsWith",
	"lower",
	"replace",
	"repeat",
	"reverse",
	"slice",
	"split",
	"startsWith",
	"title",
	"trim",
	"abs",
	"ceil",
	"floor",
	"round",
	"toFixed",
	"filter",
	"flat",
	"join",
	"map",
	"reduce",
	"sort",
	"unique",
	"asFile",
	"linksTo",
	"asLink",
	"hasLink",
	"hasProperty",
	"hasTag",
	"inFolder",
	"keys",
	"values",
	"matches",
]);
/** File fields from the reference's file properties. */
const FILE_FIELDS = ["name", "basename", "path", "folder", "ext", "size", "ctime", "mtime", "tags", "links", "embeds", "backlinks", "properties", "file"];
const DATE_FIELDS = ["year", "month", "day", "hour", "minute", "second", "millisecond"];

/**
 * Refuses, by name, any function or construct this evaluator does not implement: a function
 * outside the reference, a render-only one (`html`, `image`, `icon`), `values` outside a summary.
 */
export function checkSupported(expression: Expression): string | null {
	for (const node of walkExpression(expression)) {
		if (node.kind === "call" && node.callee.kind === "identifier") {
			const name = node.callee.name;
			if (RENDER_ONLY_FUNCTIONS.has(name))
				return `The function ${name}() is not supported: it only renders in Obsidian's view, and query_base returns data.`;
			if (!GLOBAL_FUNCTIONS.has(name))
				return `The function ${name}() is not supported (not in Obsidian's Bases function reference, or added by a plugin).`;
		}
		if (node.kind === "call" && node.callee.kind === "member" && !METHODS.has(node.callee.name)) {
			return `The function ${node.callee.name}() is not supported (not in Obsidian's Bases function reference, or added by a plugin).`;
		}
		if (
			node.kind === "call" &&
			node.callee.kind === "identifier" &&
			(node.callee.name === "now" || node.callee.name === "today" || node.callee.name === "random") &&
			node.args.length > 0
		) {
			return `The function ${node.callee.name}() takes no arguments.`;
		}
	}
	return null;
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

type Locals = ReadonlyMap<string, Value>;

/** The value of `expression` for the context's row. */
export function evaluate(expression: Expression, context: EvaluationContext, locals: Locals | null = null): Value {
	context.budget.spend();
	switch (expression.kind) {
		case "literal":
			return expression.value;
		case "regex":
			return new RegexValue(makeRegex(expression.pattern, expression.flags));
		case "identifier":
			return identifier(expression.name, context, locals);
		case "list":
			return expression.items.map((item) => evaluate(item, context, locals));
		case "object":
			return new ObjectValue(new Map(expression.entries.map(([key, value]) => [key, evaluate(value, context, locals)])));
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

/** A note property's value, as Bases types it: wikilinks become links, ISO dates become dates. */
export function notePropertyValue(file: BaseFile, name: string, vault: BaseVault): Value {
	const properties = file.properties();
	if (!properties || !Object.prototype.hasOwnProperty.call(properties, name)) return null;
	return fromFrontmatter(properties[name], file, vault, 0);
}

function fromFrontmatter(raw: unknown, file: BaseFile, vault: BaseVault, depth: number): Value {
	if (raw === null || raw === undefined) return null;
	if (typeof raw === "boolean" || typeof raw === "number") return raw;
	if (typeof raw === "string") {
		const wikilink = /^\[\[([^\]|]+)(?:\|([^\]]*))?\]\]$/.exec(raw.trim());
		if (wikilink) return makeLink(wikilink[1] ?? "", file.path, vault, wikilink[2]);
		return parseDateText(raw) ?? raw;
	}
	if (raw instanceof Date) return new DateValue(raw.getTime(), true);
	// Frontmatter is bounded in size; its nesting is bounded here so a deep YAML cannot recurse far.
	if (depth > 32) return null;
	if (Array.isArray(raw)) return raw.map((item) => fromFrontmatter(item, file, vault, depth + 1));
	if (typeof raw === "object") {
		return new ObjectValue(
			new Map(Object.entries(raw as Record<string, unknown>).map(([key, value]) => [key, fromFrontmatter(value, file, vault, depth + 1)])),
		);
	}
	return null;
}

function makeLink(text: string, sourcePath: string, vault: BaseVault, display?: string): LinkValue {
	const inner = /^\[\[([^\]|]+)(?:\|([^\]]*))?\]\]$/.exec(text.trim());
	const link = inner ? (inner[1] ?? "") : text;
	const shown = display ?? (inner ? inner[2] : undefined);
	const linkpath = link.split("#", 1)[0] ?? "";
	const target = /^[a-z][a-z0-9+.-]*:/i.test(link) ? null : vault.resolveLink(linkpath, sourcePath);
	return new LinkValue(link, target, shown);
}

function identifier(name: string, context: EvaluationContext, locals: Locals | null): Value {
	if (locals?.has(name)) return locals.get(name) ?? null;
	if (name === "file") return new FileValue(context.row);
	if (name === "this") return new ThisValue(context.self);
	if (name === "note") return noteObject(context.row, context.vault);
	if (name === "formula") throw new EvaluationError("Use formula.NAME to refer to a formula.");
	return notePropertyValue(context.row, name, context.vault);
}

function noteObject(file: BaseFile, vault: BaseVault): ObjectValue {
	const properties = file.properties() ?? {};
	return new ObjectValue(new Map(Object.keys(properties).map((key) => [key, notePropertyValue(file, key, vault)])));
}

function member(expression: Extract<Expression, { kind: "member" }>, context: EvaluationContext, locals: Locals | null): Value {
	const base = expression.object;
	// `formula.x` and `note.x` are names, not fields of a value.
	if (base.kind === "identifier" && !locals?.has(base.name)) {
		if (base.name === "formula") return formulaValue(expression.name, context);
		if (base.name === "note") return notePropertyValue(context.row, expression.name, context.vault);
	}
	return field(evaluate(base, context, locals), expression.name, context);
}

/** `value.name`: a file's, date's, text's, list's or object's field. */
export function field(value: Value, name: string, context: EvaluationContext): Value {
	if (value instanceof ThisValue) {
		if (name === "file") return new FileValue(value.file);
		if (name === "note") return noteObject(value.file, context.vault);
		return FILE_FIELDS.includes(name) ? fileField(value.file, name, context) : notePropertyValue(value.file, name, context.vault);
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
		case "tags":
			return [...file.tags()];
		case "links":
			return file.links().map((entry) => new LinkValue(entry.link, () => entry.target, entry.display));
		case "embeds":
			return file.embeds().map((entry) => new LinkValue(entry.link, () => entry.target, entry.display));
		case "backlinks":
			context.budget.spend(100);
			return context.vault.backlinks(file.path).map((path) => new LinkValue(path, path));
		case "properties":
			return noteObject(file, context.vault);
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

/** The order of two values for `<` `>`, or null when they do not compare (then the comparison is false). */
function compareForOperator(left: Value, right: Value): number | null {
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

function plus(left: Value, right: Value): Value {
	if (left instanceof DateValue) {
		const duration = asDuration(right);
		if (duration) return addDuration(left, duration, 1);
	}
	if (left instanceof DurationValue && right instanceof DurationValue)
		return new DurationValue(left.months + right.months, left.days + right.days, left.ms + right.ms);
	if (typeof left === "number" && typeof right === "number") return left + right;
	// A missing date plus a duration is a missing date (`start_date + "2w"` on a note without one), not the text "2w".
	if ((left === null && typeof right === "string" && parseDurationText(right)) || (right === null && left instanceof DateValue)) return null;
	if (typeof left === "string" || typeof right === "string") return boundedText(toText(left) + toText(right));
	if (left === null || right === null) return null;
	throw new EvaluationError(`Cannot add a ${typeOf(right)} to a ${typeOf(left)}.`);
}

function minus(left: Value, right: Value): Value {
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

function arithmetic(operator: string, left: Value, right: Value): Value {
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

function boundedText(text: string): string {
	if (text.length > BASES_MAX_VALUE_CHARS) throw new EvaluationError(`A text value would be longer than ${BASES_MAX_VALUE_CHARS} characters.`);
	return text;
}

function boundedList(list: Value[]): Value[] {
	if (list.length > BASES_MAX_LIST_ITEMS) throw new EvaluationError(`A list would have more than ${BASES_MAX_LIST_ITEMS} items.`);
	return list;
}

/**
 * A regular expression written in a base, which anyone who can write a note may author. JavaScript's
 * engine backtracks, so only patterns whose worst case stays polynomial of a low degree on the
 * bounded input are run (see `regexProblem`); the text a pattern runs over is bounded too.
 */
function makeRegex(pattern: string, flags: string): RegExp {
	const problem = regexProblem(pattern);
	if (problem !== null)
		throw new EvaluationError(
			`The regular expression /${pattern}/ is not run: ${problem} A pattern written in a note could otherwise hold the server for minutes. Use contains(), startsWith() or a simpler pattern.`,
		);
	try {
		return new RegExp(pattern, flags);
	} catch {
		throw new EvaluationError(`/${pattern}/${flags} is not a valid regular expression.`);
	}
}

/**
 * Why a pattern could backtrack for long, or null. Read in one pass, outside character classes: no
 * alternation, no quantified group, no back-reference or look-around, at most
 * BASES_MAX_REGEX_UNBOUNDED_REPEATS repeat without a small bound (`*`, `+`, `{n,}`, a wide
 * `{n,m}`) and at most BASES_MAX_REGEX_CHOICES repeats that choose a count at all — so a search
 * is at most quadratic in its (bounded) input, where `(a|aa)+`, `(a+)+`, `a*a*$` or `a?a?a?…aaa…`
 * are exponential or worse.
 */
export function regexProblem(pattern: string): string | null {
	let unbounded = 0;
	let choices = 0;
	let inClass = false;
	for (let at = 0; at < pattern.length; at++) {
		const char = pattern[at];
		if (char === "\\") {
			const next = pattern[at + 1] ?? "";
			if (!inClass && (/[1-9]/.test(next) || next === "k")) return "it refers back to a group.";
			at++;
			continue;
		}
		if (inClass) {
			if (char === "]") inClass = false;
			continue;
		}
		if (char === "[") inClass = true;
		else if (char === "|") return "it has alternatives (|).";
		else if (char === "(" && pattern[at + 1] === "?" && pattern[at + 2] !== ":") return "it looks around or names a group.";
		else if (char === ")" && /[*+?{]/.test(pattern[at + 1] ?? "")) return "it repeats a group.";
		else {
			const repeat = repeatAt(pattern, at);
			if (repeat === "none" || repeat === "fixed") continue;
			if (repeat === "unbounded" && ++unbounded > BASES_MAX_REGEX_UNBOUNDED_REPEATS)
				return `it has more than ${BASES_MAX_REGEX_UNBOUNDED_REPEATS} repeat without a bound.`;
			if (++choices > BASES_MAX_REGEX_CHOICES) return `it has more than ${BASES_MAX_REGEX_CHOICES} optional or repeated parts.`;
		}
	}
	return null;
}

/** Repeats whose count range is wider than this are treated as unbounded. */
const WIDE_REPEAT_RANGE = 16;

/** What the quantifier at `at` is: none, a fixed count (`{3}`), a small choice (`?`, `{2,5}`), or unbounded. */
function repeatAt(pattern: string, at: number): "none" | "fixed" | "choice" | "unbounded" {
	const char = pattern[at];
	if (char === "*" || char === "+") return "unbounded";
	if (char === "?") return pattern[at - 1] === "*" || pattern[at - 1] === "+" || pattern[at - 1] === "}" || pattern[at - 1] === "?" ? "none" : "choice";
	if (char !== "{") return "none";
	const range = /^\{(\d+)(,(\d*))?\}/.exec(pattern.slice(at, at + 24));
	if (range === null) return "none";
	if (range[2] === undefined) return "fixed";
	if (range[3] === "") return "unbounded";
	return Number(range[3]) - Number(range[1]) > WIDE_REPEAT_RANGE ? "unbounded" : "choice";
}

function regexInput(text: string): string {
	if (text.length > BASES_MAX_REGEX_INPUT_CHARS)
		throw new EvaluationError(`A regular expression was given a text of ${text.length} characters; at most ${BASES_MAX_REGEX_INPUT_CHARS} are matched.`);
	return text;
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

function numberArg(value: Value, functionName: string): number {
	if (typeof value !== "number") throw new EvaluationError(`${functionName}() needs a number, not a ${typeOf(value)}.`);
	return value;
}

function textArg(value: Value, functionName: string): string {
	if (typeof value !== "string") throw new EvaluationError(`${functionName}() needs a text, not a ${typeOf(value)}.`);
	return value;
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
			if (!parsed) throw new EvaluationError(`date() cannot read "${toText(first ?? null)}"; write YYYY-MM-DD or YYYY-MM-DD HH:mm:ss.`);
			return parsed;
		}
		case "duration": {
			if (first instanceof DurationValue) return first;
			const parsed = parseDurationText(textArg(first ?? null, "duration"));
			if (!parsed) throw new EvaluationError(`duration() cannot read "${toText(first ?? null)}"; write for example "1d", "2 weeks" or "3h".`);
			return parsed;
		}
		case "escapeHTML":
			return textArg(first ?? null, "escapeHTML").replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
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
			const display = second === undefined || second === null ? undefined : toText(second);
			const file = fileOf(first ?? null);
			if (file) return new LinkValue(file.path, file.path, display);
			if (first instanceof LinkValue) return display === undefined ? first : new LinkValue(first.link, first.target, display);
			return makeLink(textArg(first ?? null, "link"), context.row.path, context.vault, display);
		}
		case "list":
			return Array.isArray(first) ? first : [first ?? null];
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
			throw new EvaluationError(`number() cannot read ${typeof value === "string" ? `"${value}"` : `a ${typeOf(value)}`} as a number.`);
		}
		default:
			throw new EvaluationError(`The function ${name}() is not supported.`);
	}
}

function methodCall(receiver: Value, name: string, args: Expression[], context: EvaluationContext, locals: Locals | null): Value {
	// Functions of any type.
	if (name === "isTruthy") return isTruthy(receiver);
	if (name === "isType") return typeOf(receiver) === textArg(evaluate(args[0] ?? { kind: "literal", value: null }, context, locals), "isType");
	if (name === "toString") return toText(receiver);
	if (Array.isArray(receiver) && (name === "filter" || name === "map" || name === "reduce")) return listLambda(receiver, name, args, context, locals);
	const values = argValues(args, context, locals);
	if (receiver === null) {
		if (name === "isEmpty") return true;
		return null;
	}
	if (typeof receiver === "string") return textMethod(receiver, name, values);
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
	if (receiver instanceof RegexValue && name === "matches") return receiver.regex.test(regexInput(textArg(values[0] ?? null, "matches")));
	if (name === "isEmpty") return false;
	throw notAFunctionOf(name, receiver);
}

function notAFunctionOf(name: string, receiver: Value): EvaluationError {
	return new EvaluationError(`${name}() is not a function of a ${typeOf(receiver)}.`);
}

function textMethod(text: string, name: string, args: Value[]): Value {
	const [first, second] = args;
	switch (name) {
		case "contains":
			return text.includes(textArg(first ?? null, name));
		case "containsAll":
			return args.every((arg) => text.includes(textArg(arg, name)));
		case "containsAny":
			return args.some((arg) => text.includes(textArg(arg, name)));
		case "startsWith":
			return text.startsWith(textArg(first ?? null, name));
		case "endsWith":
			return text.endsWith(textArg(first ?? null, name));
		case "isEmpty":
			return text.length === 0;
		case "lower":
			return text.toLowerCase();
		case "title":
			return text.replace(/(^|\s)(\p{L})/gu, (_whole, space: string, letter: string) => space + letter.toUpperCase());
		case "trim":
			return text.trim();
		case "reverse":
			return [...text].reverse().join("");
		case "repeat": {
			const count = numberArg(first ?? null, name);
			if (count < 0 || !Number.isInteger(count)) throw new EvaluationError("repeat() needs a whole number of at least 0.");
			return boundedText(count * text.length > BASES_MAX_VALUE_CHARS ? "x".repeat(BASES_MAX_VALUE_CHARS + 1) : text.repeat(count));
		}
		case "slice":
			return text.slice(numberArg(first ?? null, name), second === undefined ? undefined : numberArg(second, name));
		case "replace": {
			const replacement = textArg(second ?? null, name);
			if (first instanceof RegexValue) return boundedText(regexInput(text).replace(first.regex, replacement));
			return boundedText(text.split(textArg(first ?? null, name)).join(replacement));
		}
		case "split": {
			const separator = first instanceof RegexValue ? first.regex : textArg(first ?? null, name);
			const parts = (first instanceof RegexValue ? regexInput(text) : text).split(separator);
			const limited = second === undefined ? parts : parts.slice(0, numberArg(second, name));
			return boundedList(limited);
		}
		default:
			throw notAFunctionOf(name, text);
	}
}

function numberMethod(value: number, name: string, args: Value[]): Value {
	const [first] = args;
	switch (name) {
		case "abs":
			return Math.abs(value);
		case "ceil":
			return Math.ceil(value);
		case "floor":
			return Math.floor(value);
		case "isEmpty":
			return false;
		case "round": {
			if (first === undefined) return Math.round(value);
			const digits = numberArg(first, name);
			if (!Number.isInteger(digits) || digits < 0 || digits > 20) throw new EvaluationError("round() takes a whole number of digits from 0 to 20.");
			const factor = 10 ** digits;
			return Math.round(value * factor) / factor;
		}
		case "toFixed": {
			const digits = numberArg(first ?? null, name);
			if (!Number.isInteger(digits) || digits < 0 || digits > 100) throw new EvaluationError("toFixed() takes a whole number of digits from 0 to 100.");
			return value.toFixed(digits);
		}
		default:
			throw notAFunctionOf(name, value);
	}
}

function compareForSort(a: Value, b: Value): number {
	return compareValues(a, b);
}

/** A total order for sorting: nulls last, then by type, then within a type. */
export function compareValues(a: Value, b: Value): number {
	if (a === null || b === null) return a === b ? 0 : a === null ? 1 : -1;
	const order = compareForOperator(a, b);
	if (order !== null && !Number.isNaN(order)) return order;
	const byType = typeOf(a).localeCompare(typeOf(b));
	if (byType !== 0) return byType;
	const [left, right] = [toText(a), toText(b)];
	return left < right ? -1 : left > right ? 1 : 0;
}

function listMethod(list: Value[], name: string, args: Value[], context: EvaluationContext): Value {
	const [first, second] = args;
	switch (name) {
		case "contains":
			context.budget.spend(list.length);
			return list.some((item) => valuesEqual(item, first ?? null));
		case "containsAll":
			context.budget.spend(list.length * args.length);
			return args.every((arg) => list.some((item) => valuesEqual(item, arg)));
		case "containsAny":
			context.budget.spend(list.length * args.length);
			return args.some((arg) => list.some((item) => valuesEqual(item, arg)));
		case "isEmpty":
			return list.length === 0;
		case "flat":
			return boundedList(list.flatMap((item) => (Array.isArray(item) ? item : [item])));
		case "join":
			context.budget.spend(list.length);
			return boundedText(list.map(toText).join(first === undefined ? "," : textArg(first, name)));
		case "reverse":
			return [...list].reverse();
		case "slice":
			return list.slice(numberArg(first ?? null, name), second === undefined ? undefined : numberArg(second, name));
		case "sort":
			context.budget.spend(list.length * Math.max(1, Math.ceil(Math.log2(list.length + 1))));
			return [...list].sort(compareForSort);
		case "unique": {
			context.budget.spend(list.length * list.length);
			const kept: Value[] = [];
			for (const item of list) if (!kept.some((other) => valuesEqual(other, item))) kept.push(item);
			return kept;
		}
		default:
			throw notAFunctionOf(name, list);
	}
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
	return name === "map" ? results : list.filter((_, position) => isTruthy(results[position] ?? null));
}

function dateMethod(date: DateValue, name: string, args: Value[], context: EvaluationContext): Value {
	switch (name) {
		case "date": {
			const day = new Date(date.ms);
			day.setHours(0, 0, 0, 0);
			return new DateValue(day.getTime(), false);
		}
		case "format":
			return dayjs(date.ms).format(textArg(args[0] ?? null, name));
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
			return new LinkValue(file.path, file.path, first === undefined || first === null ? undefined : toText(first));
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
