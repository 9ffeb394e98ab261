import type { FrontMatterCache, FrontmatterLinkCache } from "obsidian";
import { Composer, CST, isMap, isScalar, Lexer, Parser, visit, YAMLParseError, type Document } from "yaml";
import {
	MAX_FRONTMATTER_ALIAS_EXPANSION,
	MAX_FRONTMATTER_ALIASES,
	MAX_FRONTMATTER_BYTES,
	MAX_FRONTMATTER_DEPTH,
	MAX_FRONTMATTER_ENTRIES,
	MAX_FRONTMATTER_EXPANDED_CHARS,
	MAX_FRONTMATTER_EXPANDED_VALUES,
	YAML_TOKENS_PER_STEP,
} from "../config/limits";
import { scanInline } from "./inline";
import { runSteps, type Steps } from "./steps";

const FENCE = "---";
const BYTE_ORDER_MARK = "\uFEFF";

/** The lines of a note as the fence rule reads them: a LineIndex, or an adapter over an array of lines. */
export interface NoteLines {
	readonly lineCount: number;
	lineText(line: number): string;
}

/**
 * True for a line that opens or closes frontmatter: `---` followed by nothing but whitespace, as
 * JavaScript's `trimEnd` counts it (spaces, tabs, a no-break space U+00A0 and the other Unicode
 * spaces), the way Obsidian keeps a note whose property editor left `--- ` behind. A byte-order
 * mark before the opening fence is not part of the line.
 */
function isFence(text: string, line: number): boolean {
	return (line === 0 && text.startsWith(BYTE_ORDER_MARK) ? text.slice(1) : text).trimEnd() === FENCE;
}

/**
 * The line that closes a frontmatter block opened on line 0, or null if the note has none. The
 * one frontmatter fence rule, over lines: the outline edits ask it; the parser, the search snippets
 * and every `splitFrontmatter` read the same rule on the text itself (`frontmatterFences`).
 */
export function frontmatterEndLine(lines: NoteLines): number | null {
	if (lines.lineCount === 0 || !isFence(lines.lineText(0), 0)) return null;
	for (let line = 1; line < lines.lineCount; line++) {
		if (isFence(lines.lineText(line), line)) return line;
	}
	return null;
}

/**
 * A note split at its frontmatter: the YAML between the fences (line endings kept) and the body
 * after the closing fence's line; null when the note has no frontmatter.
 */
export function splitFrontmatter(text: string): { yaml: string; body: string } | null {
	const fences = frontmatterFences(text);
	if (fences === null) return null;
	return { yaml: text.slice(fences.yamlStart, fences.closeStart), body: text.slice(fences.bodyStart) };
}

/** Where a note's frontmatter lies, as offsets: its YAML's start, the closing fence line's start, and the body's start. */
export interface FrontmatterFences {
	yamlStart: number;
	closeStart: number;
	bodyStart: number;
}

/**
 * The fence rule of `frontmatterEndLine` read on the text itself: the closing fence is looked for
 * with `indexOf("\n---")`, and a line is looked at only from its `---` on, so a line costs nothing
 * unless it starts with three dashes, and each character is read at most once. Walked line by line
 * (a slice and a trim each), a frontmatter of 2.5 million short lines in a 5 MB note held the
 * server 125–141 ms in one piece on each read, search snippet and parse; this is a scan at
 * `indexOf`'s speed. Null when the note has no frontmatter.
 */
export function frontmatterFences(text: string): FrontmatterFences | null {
	const first = text.startsWith(BYTE_ORDER_MARK) ? 1 : 0;
	const firstBreak = text.indexOf("\n", first);
	if (firstBreak === -1) return null;
	if (!isFence(text.slice(first, text[firstBreak - 1] === "\r" ? firstBreak - 1 : firstBreak), 0)) return null;
	for (let from = firstBreak; ;) {
		const found = text.indexOf("\n---", from);
		if (found === -1) return null;
		const closeStart = found + 1;
		const lineEnd = endOfWhiteSpaceLine(text, closeStart + FENCE.length);
		if (lineEnd >= 0) return { yamlStart: firstBreak + 1, closeStart, bodyStart: lineEnd === text.length ? lineEnd : lineEnd + 1 };
		from = -lineEnd - 1;
	}
}

const SPACE = 0x20;
const TAB = 0x09;
const CARRIAGE_RETURN = 0x0d;
/** Printable ASCII lies between SPACE and DELETE: none of it is white space. */
const DELETE = 0x7f;
/** One character `trimEnd` removes (ECMAScript's WhiteSpace and LineTerminator). */
const WHITE_SPACE = /^\s$/u;

/**
 * Where the line holding `from` ends (its `\n`, or the text's end) when it holds nothing but white
 * space from `from` on, as `trimEnd` counts it; otherwise `-(at + 1)` for the first character that
 * is not white space, where a search for the next line may go on.
 */
function endOfWhiteSpaceLine(text: string, from: number): number {
	for (let at = from; at < text.length; at++) {
		const code = text.charCodeAt(at);
		if (code === LINE_FEED) return at;
		if (code === SPACE || code === TAB || code === CARRIAGE_RETURN) continue;
		if ((code > SPACE && code < DELETE) || !WHITE_SPACE.test(text[at] ?? "")) return -(at + 1);
	}
	return text.length;
}

/** Characters that open or deepen a level of YAML nesting, counted to skip the exact check on small blocks. */
const NESTING_CHARACTERS = /[[{\n\-?:]/g;

/** What the YAML lexer sees of a text's shape: how deep it nests, its flow collections, its aliases. */
export interface YamlShape {
	/** An upper bound on the nesting: flow brackets open at once, indented block levels, and the `- `, `? ` and `: ` of a line. */
	depth: number;
	/** Flow collections (a `[` or `{` that opens one, not one in quotes or a comment). */
	collections: number;
	/** Commas between the items of flow collections (not one in quotes or a comment). */
	commas: number;
	/** Aliases (`*name`; an asterisk in quotes or a comment is none). */
	aliases: number;
}

/**
 * A YAML text's shape, read with the yaml package's own lexer (linear, and it knows a `[` inside
 * quotes or a comment from one that opens a list), never with its parser, whose time and memory
 * grow with the depth being measured. One pass for every bound that needs the lexer.
 */
function yamlShape(yaml: string): YamlShape {
	return runSteps(yamlShapeSteps(yaml));
}

/**
 * `yamlShape` as steps of YAML_TOKENS_PER_STEP tokens. Stops as soon as the nesting passes
 * `stopPast.depth`, or the flow collections and their commas pass `stopPast.items`: the rest of the
 * text cannot make it acceptable (a caller refuses past either) (125,000 brackets were all lexed to refuse them, 0.4 s).
 */
export function* yamlShapeSteps(
	yaml: string,
	stopPast: { depth: number; items: number } = { depth: Number.POSITIVE_INFINITY, items: Number.POSITIVE_INFINITY },
): Steps<YamlShape> {
	// No level without one of these characters: a block with few of them and no alias needs no lexing.
	const marks = yaml.match(NESTING_CHARACTERS)?.length ?? 0;
	if (marks <= MAX_FRONTMATTER_DEPTH && !yaml.includes("*")) return { depth: marks, collections: marks, commas: marks, aliases: 0 };
	let deepest = 0;
	let collections = 0;
	let commas = 0;
	let aliases = 0;
	let flow = 0;
	const indents: number[] = [];
	let lineIndent = 0;
	let lineStart = true;
	let lineIndicators = 0;
	let scalarText = false;
	let tokens = 0;
	for (const token of new Lexer().lex(yaml)) {
		if (++tokens % YAML_TOKENS_PER_STEP === 0) yield;
		// The token after a scalar marker is the scalar's own text, whatever it looks like.
		if (scalarText) {
			scalarText = false;
			continue;
		}
		const type = CST.tokenType(token);
		if (type === "newline") {
			lineStart = true;
			lineIndent = 0;
			continue;
		}
		if (type === "space") {
			if (lineStart) lineIndent = token.length;
			continue;
		}
		if (type === "comment" || type === "doc-mode" || type === "byte-order-mark") continue;
		if (type === "scalar") scalarText = true;
		if (type === "alias") aliases++;
		if (type === "comma") commas++;
		if (lineStart) {
			lineStart = false;
			lineIndicators = 0;
			if (flow === 0) {
				while (indents.length > 0 && (indents[indents.length - 1] ?? 0) >= lineIndent) indents.pop();
				indents.push(lineIndent);
			}
		}
		if (type === "flow-seq-start" || type === "flow-map-start") {
			flow++;
			collections++;
		} else if (type === "flow-seq-end" || type === "flow-map-end") flow = Math.max(0, flow - 1);
		else if (flow === 0 && (type === "seq-item-ind" || type === "explicit-key-ind" || type === "map-value-ind")) lineIndicators++;
		deepest = Math.max(deepest, indents.length + lineIndicators + flow);
		if (deepest > stopPast.depth || collections + commas > stopPast.items) break;
	}
	return { depth: deepest, collections, commas, aliases };
}

/** An upper bound on how deep a YAML text nests (yamlShape). */
export function yamlNestingDepth(yaml: string): number {
	return yamlShape(yaml).depth;
}

/**
 * An upper bound on the values a YAML text holds, counted without lexing: a value starts a line or
 * follows a `,` (flow collections are added from yamlShape, which tells them from brackets in quotes). The parser's time follows
 * the values more than the characters: 64 KiB of one-letter flow items takes about 30 times as long
 * as 64 KiB of prose in one value.
 */
function yamlEntryBound(yaml: string): number {
	let entries = 1;
	for (let index = 0; index < yaml.length; index++) {
		const code = yaml.charCodeAt(index);
		if (code === LINE_FEED || code === COMMA) entries++;
	}
	return entries;
}
const LINE_FEED = 10;
const COMMA = 44;

/**
 * Why a frontmatter block is not parsed as YAML, naming the bound it is over (size, values, nesting
 * depth, aliases); null when it is within them. Checked before parsing, in time linear in its length.
 */
export function frontmatterBoundProblem(yaml: string): string | null {
	return runSteps(frontmatterBoundProblemSteps(yaml));
}

/** `frontmatterBoundProblem` as steps: the lexer's pass runs a run of tokens a step. */
export function* frontmatterBoundProblemSteps(yaml: string): Steps<string | null> {
	if (yaml.length > MAX_FRONTMATTER_BYTES) return `it is over ${MAX_FRONTMATTER_BYTES} characters`;
	const entries = yamlEntryBound(yaml);
	if (entries > MAX_FRONTMATTER_ENTRIES) return `it holds more than ${MAX_FRONTMATTER_ENTRIES} lines and list items`;
	// Its commas are counted in `entries` already: only the depth may stop the lexing early.
	const shape = yield* yamlShapeSteps(yaml, { depth: MAX_FRONTMATTER_DEPTH, items: Number.POSITIVE_INFINITY });
	if (shape.depth > MAX_FRONTMATTER_DEPTH) return `it nests deeper than ${MAX_FRONTMATTER_DEPTH} levels`;
	if (entries + shape.collections > MAX_FRONTMATTER_ENTRIES) return `it holds more than ${MAX_FRONTMATTER_ENTRIES} lines and list items`;
	if (shape.aliases > MAX_FRONTMATTER_ALIASES) return `it uses more than ${MAX_FRONTMATTER_ALIASES} aliases (*name)`;
	return null;
}

/**
 * A frontmatter block parsed as a YAML Document (core schema, no warnings printed: note text is
 * never logged), or null when it is over a bound (frontmatterBoundProblem). The one place YAML of
 * a note is parsed, so every reader and editor keeps the same bounds.
 */
export function parseFrontmatterDocument(yaml: string): Document.Parsed | null {
	if (frontmatterBoundProblem(yaml) !== null) return null;
	return runSteps(parseDocumentSteps(yaml));
}

/** The yaml package's options for a frontmatter document. */
const DOCUMENT_OPTIONS = {
	schema: "core",
	prettyErrors: false,
	// The yaml package checks each key against every earlier key of its map: quadratic in a
	// map's size. Its check is off here and the same rule is kept in one pass (hasDuplicateKey).
	uniqueKeys: false,
	logLevel: "error",
} as const;

/**
 * A frontmatter block within its bounds parsed in steps, as the yaml package's `parseDocument` makes it: its lexer
 * and parser read YAML_TOKENS_PER_STEP tokens a step, then the document is composed in one (the
 * lexing and parsing were two thirds of a 2,000-entry frontmatter's parse, 40–300 ms in one piece
 * on a busy machine).
 */
export function* parseDocumentSteps(yaml: string): Steps<Document.Parsed> {
	const parser = new Parser();
	const tokens: CST.Token[] = [];
	let lexemes = 0;
	for (const lexeme of new Lexer().lex(yaml)) {
		for (const token of parser.next(lexeme)) tokens.push(token);
		if (++lexemes % YAML_TOKENS_PER_STEP === 0) yield;
	}
	for (const token of parser.end()) tokens.push(token);
	yield;
	let document: Document.Parsed | null = null;
	for (const composed of new Composer(DOCUMENT_OPTIONS).compose(tokens, true, yaml.length)) {
		if (!document) document = composed;
		else {
			document.errors.push(
				new YAMLParseError(
					composed.range.slice(0, 2) as [number, number],
					"MULTIPLE_DOCS",
					"Source contains multiple documents; please use YAML.parseAllDocuments()",
				),
			);
			break;
		}
	}
	// compose(…, forceDoc = true) always ends with a document.
	return document as Document.Parsed;
}

/**
 * A parsed frontmatter's value, with alias expansions bounded; throws when an alias cannot be
 * resolved, a bound is passed (the yaml package's count, or the expanded value's size unless not
 * `sizeBounded`), or an alias names a collection it stands inside (`&n` then `a: *n`): that value
 * would hold itself, and every answer that prints it would fail.
 */
export function frontmatterValue(document: Document, { sizeBounded = true } = {}): unknown {
	const value: unknown = document.toJS({ maxAliasCount: MAX_FRONTMATTER_ALIAS_EXPANSION });
	if (holdsItself(value)) throw new Error("A YAML alias in the frontmatter refers to a value it stands inside.");
	if (sizeBounded && expandsPastBounds(value)) throw new Error("The frontmatter's YAML aliases expand past the values and characters it may hold.");
	return value;
}

/**
 * True when a value holds more than MAX_FRONTMATTER_EXPANDED_VALUES values or
 * MAX_FRONTMATTER_EXPANDED_CHARS characters of keys and text, counting a value reached through
 * several aliases each time, as every reader of it does. Stops at the bound, so its time is bounded
 * too; call it on a value that does not hold itself (holdsItself).
 */
function expandsPastBounds(root: unknown): boolean {
	// Values are counted as they are put on the stack, so it never holds more than the bound and one list.
	let values = 1;
	let chars = 0;
	const stack: unknown[] = [root];
	while (stack.length > 0) {
		const value = stack.pop();
		if (typeof value === "string") chars += value.length;
		else if (Array.isArray(value)) {
			const items: unknown[] = value;
			values += items.length;
			if (values <= MAX_FRONTMATTER_EXPANDED_VALUES) stack.push(...items);
		} else if (value !== null && typeof value === "object") {
			const entries = Object.entries(value);
			values += entries.length;
			if (values <= MAX_FRONTMATTER_EXPANDED_VALUES)
				for (const [key, item] of entries) {
					chars += key.length;
					stack.push(item);
				}
		}
		if (values > MAX_FRONTMATTER_EXPANDED_VALUES || chars > MAX_FRONTMATTER_EXPANDED_CHARS) return true;
	}
	return false;
}

/**
 * True when an object or array reaches itself through its own entries. Shared values reached twice
 * side by side (`b: *a` beside `a: &a [1]`) are not cycles. The walk is bounded by the value's size,
 * which the frontmatter bounds already cap.
 */
export function holdsItself(root: unknown): boolean {
	const onPath = new Set<object>();
	const settled = new Set<object>();
	const stack: { value: object; children: unknown[] }[] = [];
	const enter = (value: unknown): boolean => {
		if (value === null || typeof value !== "object" || settled.has(value)) return false;
		if (onPath.has(value)) return true;
		onPath.add(value);
		stack.push({ value, children: Object.values(value) });
		return false;
	};
	if (enter(root)) return true;
	while (stack.length > 0) {
		const top = stack[stack.length - 1]!;
		if (top.children.length === 0) {
			stack.pop();
			onPath.delete(top.value);
			settled.add(top.value);
			continue;
		}
		if (enter(top.children.pop())) return true;
	}
	return false;
}

/**
 * Frontmatter YAML as Obsidian exposes it: the YAML 1.2 core schema, so dates stay strings and
 * empty values are null. Returns null for an empty block, YAML that is broken or not a mapping, or
 * one over a bound (Obsidian then has no `frontmatter`, and the rest of the note's metadata is
 * unaffected: the note is still listed, linked and read as text).
 */
export function parseFrontmatter(yaml: string): FrontMatterCache | null {
	return runSteps(parseFrontmatterSteps(yaml));
}

/** `parseFrontmatter` as steps: its bounds and its parse in runs of tokens, then its value. */
export function* parseFrontmatterSteps(yaml: string): Steps<FrontMatterCache | null> {
	if (yaml.trim() === "") return null;
	try {
		if ((yield* frontmatterBoundProblemSteps(yaml)) !== null) return null;
		const document = yield* parseDocumentSteps(yaml);
		yield;
		if (document.errors.length > 0 || hasDuplicateKey(document)) return null;
		yield;
		const value = frontmatterValue(document);
		if (value === null || typeof value !== "object" || Array.isArray(value)) return null;
		return value;
	} catch {
		return null;
	}
}

/** The yaml package's own rule, linear: two keys of one map are the same when both are scalars with equal (===) values. */
export function hasDuplicateKey(document: Document.Parsed): boolean {
	let duplicate = false;
	visit(document, {
		Map: (_key, map) => {
			if (!isMap(map)) return undefined;
			const seen = new Set<unknown>();
			for (const pair of map.items) {
				if (!isScalar(pair.key) || Number.isNaN(pair.key.value)) continue;
				if (seen.has(pair.key.value)) {
					duplicate = true;
					return visit.BREAK;
				}
				seen.add(pair.key.value);
			}
			return undefined;
		},
	});
	return duplicate;
}

/** Wikilinks in text properties, keyed `property` or `property.index` for list items, like Obsidian. */
export function frontmatterLinks(frontmatter: FrontMatterCache): FrontmatterLinkCache[] {
	const found: FrontmatterLinkCache[] = [];
	const collect = (key: string, value: unknown) => {
		if (typeof value !== "string") return;
		for (const link of scanInline(value).links) {
			if (link.original.startsWith("[[")) found.push({ key, link: link.link, original: link.original, displayText: link.displayText });
		}
	};
	for (const [key, value] of Object.entries(frontmatter)) {
		if (Array.isArray(value)) value.forEach((item, index) => collect(`${key}.${index}`, item));
		else collect(key, value);
	}
	return found;
}

/** A `[[link]]` or `[[link|shown]]`: its link text (path, heading or block) before the `|`. */
const WIKILINK = /\[\[([^[\]|\n]+)(?:\|[^[\]\n]*)?\]\]/gu;

/**
 * The `[[link]]` texts written in a frontmatter block that is not read as properties because it is
 * over a YAML bound (`frontmatterBoundProblem`): Obsidian reads such a block and lists its property
 * links, so they are links all the same. Pure; one pass of a regular expression, no YAML read.
 */
export function wikilinkTextsOf(yaml: string): string[] {
	return Array.from(yaml.matchAll(WIKILINK), (match) => match[1] as string);
}

/**
 * A note's aliases as Obsidian reads them: the `aliases` property (or the older `alias`), a list
 * or one comma-separated text; anything else is ignored. Pure.
 */
export function frontmatterAliases(frontmatter: FrontMatterCache | undefined): string[] {
	const value: unknown = frontmatter?.aliases ?? frontmatter?.alias;
	const items = typeof value === "string" ? value.split(",") : Array.isArray(value) ? value : [];
	return items
		.filter((item): item is string => typeof item === "string")
		.map((item) => item.trim())
		.filter((item) => item !== "");
}
