/**
 * Reads a `.base` file (Obsidian 1.9+ Bases syntax, YAML) into a checked configuration: filters
 * as a tree of parsed statements, formulas, display names and views. Pure. Every expression is
 * parsed and checked for unsupported functions here, before any file is looked at, so a base this
 * server cannot evaluate faithfully is refused as a whole, with the reason and where it is.
 */
import { parseDocument } from "yaml";
import {
	BASES_MAX_EXPRESSION_DEPTH,
	BASES_MAX_FORMULAS,
	BASES_MAX_VIEWS,
	BASES_MAX_YAML_ALIASES,
	BASES_MAX_YAML_DEPTH,
	BASES_MAX_YAML_ENTRIES,
} from "../config/limits";
import { hasDuplicateKey, yamlShapeSteps } from "../markdown/frontmatter";
import { runSteps, type Steps } from "../markdown/steps";
import { fail, ok, type Result } from "../result";
import { checkSupported } from "./supported";
import { parseExpression, walkExpression, type Expression } from "./expression";

/** A filter: one statement, or `and` / `or` / `not` (none of) over a list of filters. */
export type Filter = { kind: "statement"; text: string; expression: Expression } | { kind: "and" | "or" | "not"; items: Filter[] };

type SortDirection = "ASC" | "DESC";

export interface SortKey {
	property: string;
	direction: SortDirection;
}

export interface BaseView {
	type: string;
	name: string;
	filters: Filter | null;
	/** Property ids shown as columns, in order (`file.name`, `note.status`, `status`, `formula.x`). */
	order: string[];
	sort: SortKey[];
	groupBy: SortKey | null;
	limit: number | null;
}

export interface BaseConfig {
	filters: Filter | null;
	formulas: Map<string, Expression>;
	/** Display names by property id. */
	displayNames: Map<string, string>;
	views: BaseView[];
}

class BaseFileError extends Error {}

/** The checked configuration of a `.base` file's text, or what is wrong with it. */
export function parseBaseFile(text: string): Result<BaseConfig> {
	return runSteps(parseBaseFileSteps(text));
}

/**
 * `parseBaseFile` as steps: the YAML's bounds are checked a run of tokens at a time, and its
 * statements and formulas parsed one a step. Only the YAML parse itself is one piece, and the
 * bounds keep it short: within BASES_MAX_FILE_BYTES, 25,000 keys held the server 10 s, 7,000 filter
 * lines 0.3 s and brackets 125,000 deep 1.3 s.
 */
export function* parseBaseFileSteps(text: string): Steps<Result<BaseConfig>> {
	const overBound = yield* yamlBoundProblem(text);
	if (overBound !== null) return fail(`The base is not read: ${overBound}; a base needs far less.`);
	let raw: unknown;
	try {
		// The yaml package's own check of duplicate keys compares each key with every earlier one of
		// its map; the same rule is kept here in one pass (hasDuplicateKey).
		const document = parseDocument(text, { uniqueKeys: false });
		const [error] = document.errors;
		if (error) throw error;
		if (hasDuplicateKey(document)) throw new Error("Map keys must be unique");
		raw = document.toJS({ maxAliasCount: BASES_MAX_YAML_ALIASES });
	} catch (error) {
		return fail(`The base is not valid YAML: ${error instanceof Error ? error.message.split("\n", 1)[0] : "unreadable"}.`);
	}
	if (raw === null || raw === undefined) raw = {};
	yield;
	try {
		const root = record(raw, "The base");
		// A statement written twice (or reached through an alias many times) is parsed once.
		const statements = new Map<string, Expression>();
		const formulas = yield* readFormulas(root.formulas, statements);
		const config: BaseConfig = {
			filters: root.filters === undefined || root.filters === null ? null : yield* readFilter(root.filters, "filters", 0, statements),
			formulas,
			displayNames: readDisplayNames(root.properties),
			views: yield* readViews(root.views, statements),
		};
		yield* checkFormulaReferences(config);
		return ok(config);
	} catch (error) {
		if (error instanceof BaseFileError) return fail(error.message);
		throw error;
	}
}

/**
 * Why a base's YAML is not parsed (the bound it is over), or null: checked before the parse, in
 * time linear in its length, as a note's frontmatter is. Lines and flow items bound the parse's
 * work, the nesting its depth, and the aliases what they expand to.
 */
function* yamlBoundProblem(text: string): Steps<string | null> {
	let lines = 1;
	for (let index = text.indexOf("\n"); index !== -1; index = text.indexOf("\n", index + 1)) lines++;
	if (lines > BASES_MAX_YAML_ENTRIES) return `it has more than ${BASES_MAX_YAML_ENTRIES} lines`;
	const shape = yield* yamlShapeSteps(text, { depth: BASES_MAX_YAML_DEPTH, items: BASES_MAX_YAML_ENTRIES - lines });
	if (shape.depth > BASES_MAX_YAML_DEPTH) return `it nests deeper than ${BASES_MAX_YAML_DEPTH} levels`;
	if (lines + shape.collections + shape.commas > BASES_MAX_YAML_ENTRIES) return `it holds more than ${BASES_MAX_YAML_ENTRIES} lines and list items`;
	if (shape.aliases > BASES_MAX_YAML_ALIASES) return `it uses more than ${BASES_MAX_YAML_ALIASES} aliases (*name)`;
	return null;
}

function record(value: unknown, where: string): Record<string, unknown> {
	if (typeof value !== "object" || value === null || Array.isArray(value)) throw new BaseFileError(`${where} must be a mapping of keys to values.`);
	return value as Record<string, unknown>;
}

function statement(text: string, where: string, statements: Map<string, Expression>): Expression {
	const known = statements.get(text);
	if (known) return known;
	const parsed = parseExpression(text);
	if (!parsed.ok) throw new BaseFileError(`In ${where}: ${parsed.error}`);
	const unsupported = checkSupported(parsed.value);
	if (unsupported) throw new BaseFileError(`In ${where} (\`${text}\`): ${unsupported}`);
	statements.set(text, parsed.value);
	return parsed.value;
}

function* readFilter(value: unknown, where: string, depth: number, statements: Map<string, Expression>): Steps<Filter> {
	if (depth > BASES_MAX_EXPRESSION_DEPTH) throw new BaseFileError(`The filters in ${where} are nested more than ${BASES_MAX_EXPRESSION_DEPTH} levels deep.`);
	if (typeof value === "string") {
		yield;
		return { kind: "statement", text: value, expression: statement(value, where, statements) };
	}
	if (typeof value === "boolean" || typeof value === "number") return { kind: "statement", text: String(value), expression: { kind: "literal", value } };
	const object = record(value, `A filter in ${where}`);
	const keys = Object.keys(object);
	const [key] = keys;
	if (keys.length !== 1 || (key !== "and" && key !== "or" && key !== "not")) {
		throw new BaseFileError(
			`A filter in ${where} must have exactly one of "and", "or" or "not"; it has ${keys.length === 0 ? "none" : keys.map((name) => `"${name}"`).join(", ")}.`,
		);
	}
	const items = object[key];
	if (!Array.isArray(items)) throw new BaseFileError(`"${key}" in ${where} must be a list of filters.`);
	const filters: Filter[] = [];
	for (const [position, item] of items.entries()) filters.push(yield* readFilter(item, `${where}.${key}[${position}]`, depth + 1, statements));
	return { kind: key, items: filters };
}

function* readFormulas(value: unknown, statements: Map<string, Expression>): Steps<Map<string, Expression>> {
	const formulas = new Map<string, Expression>();
	if (value === undefined || value === null) return formulas;
	const entries = Object.entries(record(value, "formulas"));
	if (entries.length > BASES_MAX_FORMULAS)
		throw new BaseFileError(`The base defines ${entries.length} formulas; at most ${BASES_MAX_FORMULAS} are evaluated.`);
	for (const [name, text] of entries) {
		if (typeof text !== "string" && typeof text !== "number" && typeof text !== "boolean")
			throw new BaseFileError(`The formula "${name}" must be written as text.`);
		yield;
		formulas.set(name, statement(String(text), `the formula "${name}"`, statements));
	}
	return formulas;
}

function readDisplayNames(value: unknown): Map<string, string> {
	const names = new Map<string, string>();
	if (value === undefined || value === null) return names;
	for (const [id, settings] of Object.entries(record(value, "properties"))) {
		if (typeof settings !== "object" || settings === null) continue;
		const displayName = (settings as Record<string, unknown>).displayName;
		if (typeof displayName === "string") names.set(id, displayName);
	}
	return names;
}

function readSortKey(value: unknown, where: string): SortKey {
	const object = record(value, where);
	const property = object.property;
	if (typeof property !== "string" || property.trim() === "") throw new BaseFileError(`${where} needs a "property".`);
	const written = object.direction ?? "ASC";
	const direction = typeof written === "string" ? written.toUpperCase() : "";
	if (direction !== "ASC" && direction !== "DESC") throw new BaseFileError(`${where} has direction ${JSON.stringify(written)}; use ASC or DESC.`);
	checkPropertyId(property, where);
	return { property, direction };
}

/** A property id must be readable: `file.x`, `note.x`, `formula.x` or a note property's name. */
function checkPropertyId(id: string, where: string): void {
	if (id.startsWith("formula.") && id.length === "formula.".length) throw new BaseFileError(`${where} names an empty formula.`);
}

function* readViews(value: unknown, statements: Map<string, Expression>): Steps<BaseView[]> {
	if (value === undefined || value === null) return [];
	if (!Array.isArray(value)) throw new BaseFileError("views must be a list.");
	if (value.length > BASES_MAX_VIEWS) throw new BaseFileError(`The base has ${value.length} views; at most ${BASES_MAX_VIEWS} are read.`);
	const views: BaseView[] = [];
	for (const [position, entry] of value.entries()) {
		const view = record(entry, `View ${position + 1}`);
		const name = typeof view.name === "string" && view.name !== "" ? view.name : `View ${position + 1}`;
		const where = `the view "${name}"`;
		const order = view.order === undefined || view.order === null ? [] : view.order;
		if (!Array.isArray(order) || !order.every((id): id is string => typeof id === "string"))
			throw new BaseFileError(`order in ${where} must be a list of property names.`);
		for (const id of order) checkPropertyId(id, where);
		const sort = view.sort === undefined || view.sort === null ? [] : view.sort;
		if (!Array.isArray(sort)) throw new BaseFileError(`sort in ${where} must be a list of {property, direction}.`);
		const limit = view.limit;
		if (limit !== undefined && limit !== null && (typeof limit !== "number" || !Number.isInteger(limit) || limit < 1))
			throw new BaseFileError(`limit in ${where} must be a whole number of at least 1.`);
		views.push({
			type: typeof view.type === "string" ? view.type : "table",
			name,
			filters: view.filters === undefined || view.filters === null ? null : yield* readFilter(view.filters, `${where}'s filters`, 0, statements),
			order,
			sort: sort.map((key, index) => readSortKey(key, `sort entry ${index + 1} of ${where}`)),
			groupBy: view.groupBy === undefined || view.groupBy === null ? null : readSortKey(view.groupBy, `groupBy of ${where}`),
			limit: typeof limit === "number" ? limit : null,
		});
	}
	return views;
}

function filterExpressions(filter: Filter | null): Expression[] {
	if (!filter) return [];
	return filter.kind === "statement" ? [filter.expression] : filter.items.flatMap(filterExpressions);
}

/** Every expression of the base: its filters, its formulas and its views' filters. */
function allExpressions(config: BaseConfig): Expression[] {
	return [...filterExpressions(config.filters), ...config.formulas.values(), ...config.views.flatMap((view) => filterExpressions(view.filters))];
}

/**
 * Whether the base reads `file.backlinks` (or `this.backlinks`): in an expression, or as a view's column,
 * sort or group. The query then builds the backlink index ahead, in slices, instead of inside an expression.
 */
export function readsBacklinks(config: BaseConfig): boolean {
	for (const expression of allExpressions(config))
		for (const node of walkExpression(expression)) if (node.kind === "member" && node.name === "backlinks") return true;
	return config.views.some((view) => viewPropertyIds(view).some((id) => id.endsWith(".backlinks")));
}

/** The functions and methods whose value is a note other than the row's own (a file, its path), or says what that note links to. */
const OTHER_NOTE_FUNCTIONS: ReadonlySet<string> = new Set(["file"]);
const OTHER_NOTE_METHODS: ReadonlySet<string> = new Set(["asFile", "linksTo"]);

/**
 * Whether the base's values may name or describe notes other than the row's own, as they were when
 * read: `file.backlinks`, the `file()` function, a link's `asFile()` and `linksTo()`. The row's own
 * note is checked as the answer is made; these others are not, so query_base runs such a base again
 * when a file is renamed while it runs (one moved into an excluded folder was named at the path it had left).
 */
export function readsOtherNotes(config: BaseConfig): boolean {
	if (readsBacklinks(config)) return true;
	for (const expression of allExpressions(config))
		for (const node of walkExpression(expression)) {
			if (node.kind !== "call") continue;
			const { callee } = node;
			if (callee.kind === "identifier" && OTHER_NOTE_FUNCTIONS.has(callee.name)) return true;
			if (callee.kind === "member" && OTHER_NOTE_METHODS.has(callee.name)) return true;
		}
	return false;
}

/** The property ids a view shows, sorts or groups by. */
function viewPropertyIds(view: BaseView): string[] {
	return [...view.order, ...view.sort.map((key) => key.property), ...(view.groupBy ? [view.groupBy.property] : [])];
}

/** A formula named in an expression, a column, a sort or a group must exist: else every row would be silently empty. */
function* checkFormulaReferences(config: BaseConfig): Steps<void> {
	const known = (name: string, where: string) => {
		if (!config.formulas.has(name)) throw new BaseFileError(`${where} uses formula.${name}, but the base defines no formula "${name}".`);
	};
	for (const expression of allExpressions(config)) {
		yield;
		for (const node of walkExpression(expression)) {
			if (node.kind === "member" && node.object.kind === "identifier" && node.object.name === "formula") known(node.name, "An expression");
		}
	}
	for (const view of config.views) {
		for (const id of viewPropertyIds(view)) if (id.startsWith("formula.")) known(id.slice("formula.".length), `The view "${view.name}"`);
	}
}
