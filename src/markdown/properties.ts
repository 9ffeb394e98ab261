/**
 * One frontmatter property set or removed, the YAML round trip Obsidian's
 * `fileManager.processFrontMatter` makes, but through the `yaml` package's Document so the other
 * properties keep their order, their values and their comments. Pure.
 */
import { Document, isMap, isScalar, Scalar, visit, type Node } from "yaml";
import { MAX_FRONTMATTER_BYTES, MAX_FRONTMATTER_ENTRIES, MAX_FRONTMATTER_EXPANDED_CHARS, MAX_FRONTMATTER_EXPANDED_VALUES } from "../config/limits";
import { frontmatterBoundProblem, frontmatterBoundProblemSteps, frontmatterValue, hasDuplicateKey, parseDocumentSteps, splitFrontmatter } from "./frontmatter";
import { runSteps, type Steps } from "./steps";
import { fail, ok, type Result } from "../result";
import { echoed } from "./echo";

/** A property value as set_property takes it: text, a number, true/false, a list of those, or null to remove. */
export type PropertyValue = string | number | boolean | null | Array<string | number | boolean>;

/** The note's new text, and the value as written (tags normalized); `changed` is false when the note already said so. */
export type PropertyEdit = Result<{ text: string; value: PropertyValue; changed: boolean }>;

const BYTE_ORDER_MARK = "\uFEFF";

/** Properties Obsidian keeps as a list of tag names without `#`. */
const TAG_PROPERTIES = new Set(["tags", "tag"]);

/**
 * Tags in Obsidian's form: a list of names without `#`. A string may hold several (`"a, #b c"`).
 * A name with no letter other than digits is not a tag in Obsidian.
 */
function normalizeTags(value: Exclude<PropertyValue, null>): Result<string[]> {
	const pieces = (Array.isArray(value) ? value : [value]).flatMap((item) => String(item).split(/[\s,]+/)).filter((piece) => piece !== "");
	const names = pieces.map((piece) => piece.replace(/^#+/, ""));
	const bad = names.find((name) => name === "" || /^\d+$/.test(name) || /[!@#$%^&*(),.?":{}|<>[\]\\'`~;=+]/.test(name));
	if (bad !== undefined)
		return fail(`"${echoed(bad)}" is not a tag Obsidian accepts (letters, digits, _, -, / and at least one non-digit). Nothing was changed.`);
	return ok([...new Set(names)]);
}

/**
 * Sets property `name` to `value` in a note's text (null removes it). A note without frontmatter
 * gets one; a frontmatter that is not valid YAML, or not a mapping, is an error and nothing
 * changes. Lists replace the old value whole. The note's line endings are kept.
 */
export function setProperty(note: string, name: string, value: PropertyValue): PropertyEdit {
	return runSteps(setPropertySteps(note, name, value));
}

/**
 * `setProperty` as pausable steps: between checking the bounds, parsing, and writing the YAML out
 * again. None of them can be paused inside, and at 2,000 properties each took up to a few hundred
 * milliseconds on a busy machine; one after the other, they held every client for all of them.
 */
export function* setPropertySteps(note: string, name: string, value: PropertyValue): Steps<PropertyEdit> {
	// A byte-order mark is no text: it stays first, and the frontmatter is what follows it.
	if (note.startsWith(BYTE_ORDER_MARK)) {
		const edited = yield* setPropertySteps(note.slice(BYTE_ORDER_MARK.length), name, value);
		return edited.ok ? ok({ ...edited.value, text: BYTE_ORDER_MARK + edited.value.text }) : edited;
	}
	// Such a list would put the frontmatter over its bound (it would no longer be read as properties), and
	// building the YAML of 100,000 items held the server 0.3–0.4 s in one piece before the note's size refused it.
	if (Array.isArray(value) && value.length > MAX_FRONTMATTER_ENTRIES)
		return fail(
			`A list of more than ${MAX_FRONTMATTER_ENTRIES} items would put the note's frontmatter over what is read as properties. Nothing was changed.`,
		);
	// A text longer than the whole frontmatter may be, refused as cheaply, before any YAML is built.
	if ((Array.isArray(value) ? value : [value]).reduce<number>((chars, item) => chars + String(item).length, 0) > MAX_FRONTMATTER_BYTES)
		return overBoundAfterEdit(`it would be over ${MAX_FRONTMATTER_BYTES} characters`);
	let written: PropertyValue = value;
	if (value !== null && TAG_PROPERTIES.has(name.toLowerCase())) {
		const tags = normalizeTags(value);
		if (!tags.ok) return tags;
		written = tags.value;
	}
	const split = splitFrontmatter(note);
	const eol = /^---[ \t]*\r\n/.test(note) || (!split && note.includes("\r\n")) ? "\r\n" : "\n";
	if (!split) {
		if (written === null) return ok({ text: note, value: written, changed: false });
		const document = new Document({}, { schema: "core" });
		if (isMap(document.contents)) document.contents.items.push(document.createPair(propertyKey(name), valueNode(document, written)));
		const added = toYaml(document, eol, true);
		const problem = frontmatterBoundProblem(added);
		if (problem !== null) return overBoundAfterEdit(problem);
		return ok({ text: `---${eol}${added}---${eol}${note}`, value: written, changed: true });
	}
	const { yaml, body } = split;
	const overBound = yield* frontmatterBoundProblemSteps(yaml);
	if (overBound !== null) return fail(`The note's frontmatter is not read as properties: ${overBound}. Edit it in the note itself. Nothing was changed.`);
	yield;
	const parsed = yield* parseDocumentSteps(yaml);
	yield;
	if (parsed.errors.length > 0 || hasDuplicateKey(parsed))
		return fail("The note's frontmatter is not valid YAML (Obsidian shows no properties for it). Fix it first; nothing was changed.");
	const document: Document = parsed;
	if (document.contents === null) document.contents = document.createNode({});
	const map = document.contents;
	if (!isMap(map)) return fail("The note's frontmatter is not a list of properties (a YAML mapping). Nothing was changed.");
	// Obsidian's property names are case-insensitive: change the key the note already has.
	const existing =
		map.items.find((pair) => String((pair.key as { value?: unknown } | null)?.value) === name) ??
		map.items.find((pair) => String((pair.key as { value?: unknown } | null)?.value).toLowerCase() === name.toLowerCase());
	const key = existing ? (existing.key as { value?: unknown }).value : name;
	// A key this edit keeps, written plain where a YAML 1.1 reader would not read it back (`<<`, `yes`): quoted now.
	if (written !== null && isScalar(existing?.key) && existing.key.type === Scalar.PLAIN && quotedKeyNeeded(String(existing.key.value)))
		existing.key.type = Scalar.QUOTE_DOUBLE;
	let before: string;
	try {
		before = JSON.stringify(frontmatterValue(document));
	} catch {
		return fail(
			`The note's frontmatter expands its YAML aliases (*name) past ${MAX_FRONTMATTER_EXPANDED_VALUES} values or ${MAX_FRONTMATTER_EXPANDED_CHARS} characters, uses one that is not defined, or uses one inside the value it names; it is not edited. Nothing was changed.`,
		);
	}
	if (written === null) {
		if (!existing) return ok({ text: note, value: written, changed: false });
		document.delete(key);
	} else if (existing) {
		// A comment after the old value (`status: active # set weekly`) stays with the new one.
		const old = existing.value as { comment?: string | null; commentBefore?: string | null } | null;
		const node = valueNode(document, written);
		if (old?.comment) node.comment = old.comment;
		if (old?.commentBefore) node.commentBefore = old.commentBefore;
		existing.value = node;
	} else {
		map.items.push(document.createPair(propertyKey(name), valueNode(document, written)));
	}
	let after: string;
	try {
		// The value written may be as long as a request: the size bound is the note's (checked as it is written), not the aliases'.
		after = JSON.stringify(frontmatterValue(document, { sizeBounded: false }));
	} catch {
		// The yaml package cannot resolve an alias (`other: *x`) whose anchor (`&x`) went with the old value.
		return fail(
			`Another property refers to the value of "${String(key)}" by a YAML alias (*name); changing it would break that property. Edit the note's frontmatter directly. Nothing was changed.`,
		);
	}
	if (after === before) return ok({ text: note, value: written, changed: false });
	yield;
	const indentSeq = !/^-[ \t]/m.test(yaml);
	const opening = note.slice(0, note.indexOf("\n") + 1);
	const closingStart = note.length - body.length;
	const closing = note.slice(note.lastIndexOf("\n", closingStart - 2) + 1, closingStart);
	const edited = toYaml(document, eol, indentSeq);
	const problem = frontmatterBoundProblem(edited);
	if (problem !== null) return overBoundAfterEdit(problem);
	return ok({ text: `${opening}${edited}${closing}${body}`, value: written, changed: true });
}

/**
 * Plain keys that YAML 1.2 (this project's parser) reads as the same text but YAML 1.1 readers,
 * js-yaml's default schema among them, do not: `<<` is a merge key there (a text value makes the
 * whole frontmatter an error), `yes`/`on`/`y` and their kin are booleans, and a key starting with a
 * digit may be a date (`2024-01-01`, read as a Date and renamed to its long form), a sexagesimal
 * number (`1:20` is 80) or a number with underscores (`1_000`); the yaml package's 1.1 reader also
 * takes `.`, `+.` and `e1` for numbers, so a key opening with a dot or an exponent is quoted too. Whether Obsidian's parser is one
 * of them was not checked; a double-quoted key reads as its text in every version.
 */
const YAML_1_1_SPECIAL_KEY = /^(?:<<|[yYnN]|yes|Yes|YES|no|No|NO|on|On|ON|off|Off|OFF|true|True|TRUE|false|False|FALSE|[-+]?(?:\.|[0-9]|[eE][-+]?[0-9]).*)$/su;

/**
 * The two noncharacters YAML 1.2 does not count printable (`c-printable` stops at U+FFFD) though the yaml package
 * writes them plain: a reader that holds to the rule (js-yaml) refused the whole frontmatter ("the stream contains
 * non-printable characters"), every property of the note lost to it, for one `x\uFFFE` set. Inside double quotes
 * both read them back as written (the C0 and C1 controls the yaml package escapes itself).
 */
const NOT_YAML_PRINTABLE = /[\uFFFE\uFFFF]/;

/** Whether a key must be double-quoted to read back as `name` in YAML 1.1 and by a strict YAML 1.2 reader. */
function quotedKeyNeeded(name: string): boolean {
	return YAML_1_1_SPECIAL_KEY.test(name) || NOT_YAML_PRINTABLE.test(name);
}

/**
 * A property name as a key node: double-quoted where a YAML 1.1 reader would read it plain as
 * something else (YAML_1_1_SPECIAL_KEY) or it holds a noncharacter (NOT_YAML_PRINTABLE); otherwise
 * in the style the yaml package picks (plain, or quoted where YAML 1.2 needs it: `a: b`, `#c`,
 * `- d`, `true`, `123`).
 */
function propertyKey(name: string): Scalar<string> {
	const key = new Scalar(name);
	if (quotedKeyNeeded(name)) key.type = Scalar.QUOTE_DOUBLE;
	return key;
}

/** The value as a node of `document`, each text holding a noncharacter (NOT_YAML_PRINTABLE) double-quoted, as keys are. */
function valueNode(document: Document, value: Exclude<PropertyValue, null>): Node {
	const node = document.createNode(value);
	visit(node, {
		Scalar(_key, scalar) {
			if (typeof scalar.value === "string" && NOT_YAML_PRINTABLE.test(scalar.value)) scalar.type = Scalar.QUOTE_DOUBLE;
		},
	});
	return node;
}

/**
 * The refusal of an edit after which the frontmatter would be over a bound: it would no longer be
 * read as properties (the note would seem to have none), so nothing is written.
 */
function overBoundAfterEdit(problem: string): PropertyEdit {
	return fail(`The value would put the note's frontmatter over what is read as properties (${problem}). Nothing was changed.`);
}

function toYaml(document: Document, eol: string, indentSeq: boolean): string {
	if (
		isMap(document.contents) &&
		document.contents.items.length === 0 &&
		!document.commentBefore &&
		!document.comment &&
		!document.contents.commentBefore &&
		!document.contents.comment
	)
		return "";
	// No folding: lines as long as any text. Not `lineWidth: 0`, which the yaml package's writer of
	// `!!binary` values divides by (an array of Infinity lines: every edit of such a note failed).
	const text = document.toString({ lineWidth: Number.MAX_SAFE_INTEGER, minContentWidth: 0, flowCollectionPadding: false, indentSeq });
	return eol === "\n" ? text : text.replace(/\r?\n/g, "\r\n");
}
