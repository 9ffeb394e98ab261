import type { CachedMetadata } from "obsidian";
import { isMap, isScalar, isSeq, type Scalar } from "yaml";
import { parseFrontmatterDocument } from "./frontmatter";
import { folderOf } from "../paths/parts";
import { INLINE_ITEMS_PAUSE_COUNT } from "../config/limits";
import { runSteps, type Steps } from "./steps";

/**
 * Rewriting the path part of links, as Obsidian does when a note is renamed with "Automatically
 * update internal links" on. Pure. A link keeps its form: a wikilink stays a wikilink, a Markdown
 * link a Markdown link, an embed an embed, with its `#heading`, `#^block`, `|alias` or link text;
 * the path changes, to what Obsidian's `fileToLinktext` gives for the new place, and for a rename
 * the shown text too where it was the old name (`withShownNameRenamed`).
 */

/** Obsidian's "New link format" setting (`newLinkFormat` in `.obsidian/app.json`). */
export type NewLinkFormat = "shortest" | "relative" | "absolute";

/** `from` folder → `to` path, with `..` for each folder to leave: `a/b`, `a/c/N` → `../c/N`. */
function relativePath(fromFolder: string, to: string): string {
	const from = fromFolder === "" ? [] : fromFolder.split("/");
	const target = to.split("/");
	let shared = 0;
	while (shared < from.length && shared < target.length - 1 && from[shared] === target[shared]) shared++;
	return [...from.slice(shared).map(() => ".."), ...target.slice(shared)].join("/");
}

/**
 * The path part of a link to `targetPath` written in the note at `sourcePath`, as Obsidian's
 * `fileToLinktext` makes it: the file name alone when no other file in the vault has that name
 * (shortest), else the full vault path; or the path from the source's folder (relative), or the
 * full path always (absolute). A note's `.md` is left off unless `keepExtension`.
 */
export function linktextFor(targetPath: string, sourcePath: string, format: NewLinkFormat, nameIsUnique: boolean, keepExtension = false): string {
	const path = !keepExtension && targetPath.toLowerCase().endsWith(".md") ? targetPath.slice(0, -3) : targetPath;
	if (format === "absolute") return path;
	if (format === "relative") return relativePath(folderOf(sourcePath), path);
	return nameIsUnique ? path.slice(path.lastIndexOf("/") + 1) : path;
}

/**
 * Characters a Markdown link destination cannot hold as they are (they would end it, or be read
 * as an escape): written as `%XX`, as Obsidian writes a space as `%20`. Other characters, letters
 * of any script among them, stay readable.
 */
const UNSAFE_IN_DESTINATION = /[\s%<>()[\]\\^`{}|]/gu;

function encodeDestination(path: string): string {
	return path.replace(UNSAFE_IN_DESTINATION, (char) =>
		[...new TextEncoder().encode(char)].map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, "0")}`).join(""),
	);
}

/** Where a wikilink's path ends: at its subpath, its alias, or an alias pipe escaped inside a table. */
const WIKILINK_PATH = /^(.*?)(?=\\\||[#|]|$)/su;

/**
 * The link `original` (as the metadata cache reports it: `[[path#sub|alias]]`, `![[path]]`,
 * `[text](path%20x.md#sub "title")`, `[text](<path x.md>)`) with its path part replaced by
 * `linkpath` (plain text; encoded here where the form needs it). Null when `original` is no link
 * this understands.
 */
export function withLinkpath(original: string, linkpath: string): string | null {
	const wikiOpen = original.startsWith("![[") ? 3 : original.startsWith("[[") ? 2 : 0;
	if (wikiOpen > 0) {
		if (!original.endsWith("]]")) return null;
		const inner = original.slice(wikiOpen, -2);
		const path = WIKILINK_PATH.exec(inner)?.[1] ?? "";
		return `${original.slice(0, wikiOpen)}${linkpath}${inner.slice(path.length)}]]`;
	}
	const textEnd = closingBracket(original);
	if (textEnd === -1 || original[textEnd + 1] !== "(" || !original.endsWith(")")) return null;
	const head = original.slice(0, textEnd + 2);
	const rest = original.slice(textEnd + 2);
	const spaces = /^ */u.exec(rest)?.[0] ?? "";
	const destination = rest.slice(spaces.length);
	if (destination.startsWith("<")) {
		const close = destination.indexOf(">");
		if (close === -1) return null;
		const inside = destination.slice(1, close);
		const hash = inside.indexOf("#");
		return `${head}${spaces}<${linkpath}${hash === -1 ? "" : inside.slice(hash)}${destination.slice(close)}`;
	}
	const raw = destination.slice(0, bareDestinationLength(destination));
	const hash = raw.indexOf("#");
	return `${head}${spaces}${encodeDestination(linkpath)}${hash === -1 ? "" : raw.slice(hash)}${destination.slice(raw.length)}`;
}

/**
 * Where a Markdown link's text closes: the `]` matching its first `[`, brackets inside balanced
 * (an image in the link text among them) and a backslash hiding the next character, as the
 * parser reads it. A title may hold `](` too, so the last one is no guide. -1 if it never closes.
 */
function closingBracket(link: string): number {
	let depth = 0;
	for (let index = link.indexOf("["); index !== -1 && index < link.length; index++) {
		const char = link[index];
		if (char === "\\") index++;
		else if (char === "[") depth++;
		else if (char === "]" && --depth === 0) return index;
	}
	return -1;
}

/** How long a destination without `<…>` is: up to a space (a title follows) or the `)` closing the link; it may hold balanced parentheses (`Plan (1).md` written as `Plan(1).md`). */
function bareDestinationLength(destination: string): number {
	let depth = 0;
	for (let index = 0; index < destination.length; index++) {
		const char = destination[index];
		if (char === "\\") index++;
		else if (char === " ") return index;
		else if (char === "(") depth++;
		else if (char === ")" && depth-- === 0) return index;
	}
	return destination.length;
}

/** How links are rewritten. */
export interface RewriteOptions {
	/**
	 * A rename's: a link showing the renamed file's old name shows the new one (`withShownNameRenamed`), as
	 * Obsidian's rename writes it. Off for undo, which puts back the links the rename wrote (`exactly`).
	 */
	renameShownName?: boolean;
	/**
	 * Links written exactly as a key are written as its value, whole (undo of a rename: a link as the rename
	 * wrote it goes back as it was, shown name included); other links are rewritten by their path only.
	 */
	exactly?: ReadonlyMap<string, string>;
}

/** A text with some links' paths rewritten, and how many links changed. */
export interface RewrittenLinks {
	text: string;
	links: number;
}

/**
 * Rewrites the links of a note's `text` (its `cache` parsed from exactly this text): each link,
 * embed and frontmatter link whose link path `newLinkpath` maps to a new one gets it, in its own
 * form; `newLinkpath` returns null to leave a link as it is. Everything else keeps its bytes.
 */
export function rewriteLinks(
	text: string,
	cache: CachedMetadata,
	newLinkpath: (linkpath: string) => string | null,
	options: RewriteOptions = {},
): RewrittenLinks {
	return runSteps(rewriteLinksSteps(text, cache, newLinkpath, options));
}

/** `rewriteLinks` as pausable steps: a note may hold tens of thousands of links to the renamed note. */
export function* rewriteLinksSteps(
	text: string,
	cache: CachedMetadata,
	newLinkpath: (linkpath: string) => string | null,
	options: RewriteOptions = {},
): Steps<RewrittenLinks> {
	const renameShownName = options.renameShownName === true;
	const replacement = (link: { link: string; original: string }): string | null => {
		const exact = options.exactly?.get(link.original);
		if (exact !== undefined) return exact === link.original ? null : exact;
		return replacementFor(link.link, link.original, newLinkpath, renameShownName);
	};
	// Links and embeds apart: each list is in the text's order, so the two are merged, not sorted.
	const edits: TextEdit[][] = [[], []];
	let sincePause = 0;
	for (const [which, list] of [cache.links ?? [], cache.embeds ?? []].entries()) {
		for (const link of list) {
			if (++sincePause >= INLINE_ITEMS_PAUSE_COUNT) {
				sincePause = 0;
				yield;
			}
			const replaced = replacement(link);
			const { start, end } = link.position;
			if (replaced !== null && text.slice(start.offset, end.offset) === link.original)
				edits[which]?.push({ start: start.offset, end: end.offset, replacement: replaced });
		}
	}
	yield;
	const [linkEdits = [], embedEdits = []] = edits;
	let links = linkEdits.length + embedEdits.length;
	let out = yield* spliceAllSteps(text, linkEdits, embedEdits);
	// Frontmatter links carry no position: each one's text is replaced where it stands in a property
	// value Obsidian reads links from. The same text in the same note always points to the same
	// note, so every copy of it changes alike; comments, keys and deeper values keep their bytes.
	const frontmatterEnd = cache.frontmatterPosition?.end.offset;
	if (frontmatterEnd !== undefined) {
		const replacements = new Map<string, string>();
		let frontmatterLinks = 0;
		for (const link of cache.frontmatterLinks ?? []) {
			const replaced = replacement(link);
			if (replaced === null) continue;
			frontmatterLinks++;
			replacements.set(link.original, replaced);
		}
		const rewritten = replacements.size > 0 ? yield* rewriteFrontmatterValuesSteps(out, frontmatterEnd, replacements) : null;
		// Obsidian's cache may list links in a frontmatter over the YAML bounds, which is not parsed here to rewrite
		// them: they are left, and not counted as rewritten (the rename's answer names such notes).
		if (rewritten !== null) {
			out = rewritten;
			links += frontmatterLinks;
		}
	}
	return { text: out, links };
}

/**
 * The values Obsidian reads frontmatter links from: a top-level property's value, or an item of its list (see `frontmatterLinks`);
 * null when the frontmatter is over the YAML bounds and so not parsed.
 */
function linkBearingValues(yaml: string): Scalar[] | null {
	// Bounded like every frontmatter parse: a hostile note's nesting is left alone, not parsed for minutes.
	const document = parseFrontmatterDocument(yaml);
	if (document === null) return null;
	if (!isMap(document.contents)) return [];
	const values: Scalar[] = [];
	for (const pair of document.contents.items) {
		if (isScalar(pair.value)) values.push(pair.value);
		else if (isSeq(pair.value)) for (const item of pair.value.items) if (isScalar(item)) values.push(item);
	}
	return values;
}

/**
 * A function replacing each `replacements` key with its value inside a text, in one pass, longest
 * first: a replacement is never itself replaced again. Its pattern is compiled once: a note whose
 * frontmatter held 2,000 links to the renamed note compiled a pattern of 2,000 choices per value,
 * 1.5 s in one piece.
 */
function replacerOf(replacements: ReadonlyMap<string, string>): (source: string) => string {
	const originals = [...replacements.keys()].sort((a, b) => b.length - a.length).map(escapeRegExp);
	const pattern = new RegExp(originals.join("|"), "gu");
	return (source) => source.replace(pattern, (found) => replacements.get(found) ?? found);
}

/**
 * The note's frontmatter (closing at `frontmatterEnd`) with the link texts of `replacements`
 * replaced in the property values that hold them, pausing every INLINE_ITEMS_PAUSE_COUNT values.
 * In a single-quoted value an apostrophe is written doubled, in the text looked for as in the text
 * written, so the YAML stays valid.
 */
function* rewriteFrontmatterValuesSteps(text: string, frontmatterEnd: number, replacements: ReadonlyMap<string, string>): Steps<string | null> {
	const yamlStart = text.indexOf("\n") + 1;
	const yamlEnd = text.lastIndexOf("\n", frontmatterEnd - 1) + 1;
	const yaml = text.slice(yamlStart, yamlEnd);
	const values = linkBearingValues(yaml);
	if (values === null) return null;
	const quote = (part: string) => part.replaceAll("'", "''");
	const replace = replacerOf(replacements);
	const replaceSingleQuoted = replacerOf(new Map([...replacements].map(([original, replacement]) => [quote(original), quote(replacement)])));
	const edits: TextEdit[] = [];
	let sincePause = 0;
	for (const value of values) {
		if (++sincePause >= INLINE_ITEMS_PAUSE_COUNT) {
			sincePause = 0;
			yield;
		}
		const [start, end] = value.range ?? [0, 0];
		const source = yaml.slice(start, end);
		let rewritten = value.type === "QUOTE_SINGLE" ? replaceSingleQuoted(source) : replace(source);
		// A double-quoted value may spell its link with escapes (`\u00e9`): then it is found by its value, and written again as one JSON string, which YAML reads alike.
		if (rewritten === source && value.type === "QUOTE_DOUBLE" && typeof value.value === "string") {
			const next = replace(value.value);
			if (next !== value.value) rewritten = JSON.stringify(next);
		}
		if (rewritten !== source) edits.push({ start, end, replacement: rewritten });
	}
	return text.slice(0, yamlStart) + spliceAll(yaml, edits) + text.slice(yamlEnd);
}

/** A stretch of a text to replace: `[start, end)` becomes `replacement`. */
interface TextEdit {
	start: number;
	end: number;
	replacement: string;
}

/**
 * `text` with each edit made, in one pass: splicing them one by one copied the whole text per
 * edit, and a note linking to the renamed note 30,000 times then took minutes. An edit that
 * overlaps one before it (by position) is left out, so no byte is written twice.
 */
function spliceAll(text: string, edits: readonly TextEdit[]): string {
	const pieces: string[] = [];
	let done = 0;
	for (const edit of [...edits].sort((a, b) => a.start - b.start)) {
		if (edit.start < done) continue;
		pieces.push(text.slice(done, edit.start), edit.replacement);
		done = edit.end;
	}
	pieces.push(text.slice(done));
	return pieces.join("");
}

/**
 * `spliceAll` of two lists of edits, pausing every INLINE_ITEMS_PAUSE_COUNT edits: a note of
 * 125,000 links to the renamed note was sorted and spliced in one piece of about 0.1 s. Each list
 * in the order of the text is merged with the other; one that is not is sorted with it (stable:
 * the first list's edit first at one place).
 */
function* spliceAllSteps(text: string, first: readonly TextEdit[], second: readonly TextEdit[]): Steps<string> {
	const ordered = (yield* inOrderSteps(first)) && (yield* inOrderSteps(second));
	const all = ordered ? null : [...first, ...second].sort((a, b) => a.start - b.start);
	const chunks: string[] = [];
	let pieces: string[] = [];
	let done = 0;
	let fromFirst = 0;
	let fromSecond = 0;
	for (let count = 0; count < first.length + second.length; count++) {
		let edit: TextEdit | undefined;
		if (all) edit = all[count];
		else {
			const takeFirst =
				fromSecond >= second.length || (fromFirst < first.length && (first[fromFirst] as TextEdit).start <= (second[fromSecond] as TextEdit).start);
			edit = takeFirst ? first[fromFirst++] : second[fromSecond++];
		}
		if (edit === undefined || edit.start < done) continue;
		pieces.push(text.slice(done, edit.start), edit.replacement);
		done = edit.end;
		if (count % INLINE_ITEMS_PAUSE_COUNT === INLINE_ITEMS_PAUSE_COUNT - 1) {
			// Joined a chunk at a time: one join of 250,000 pieces is a piece of its own.
			chunks.push(pieces.join(""));
			pieces = [];
			yield;
		}
	}
	pieces.push(text.slice(done));
	chunks.push(pieces.join(""));
	return chunks.join("");
}

/** Whether the edits stand in the order of the text, looked through a bounded number at a time. */
function* inOrderSteps(edits: readonly TextEdit[]): Steps<boolean> {
	for (let index = 1; index < edits.length; index++) {
		if (index % (16 * INLINE_ITEMS_PAUSE_COUNT) === 0) yield;
		if ((edits[index] as TextEdit).start < (edits[index - 1] as TextEdit).start) return false;
	}
	return true;
}

function escapeRegExp(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\]/gu, "\\$&");
}

function replacementFor(link: string, original: string, newLinkpath: (linkpath: string) => string | null, renameShownName: boolean): string | null {
	const hash = link.indexOf("#");
	const linkpath = hash === -1 ? link : link.slice(0, hash);
	const next = newLinkpath(linkpath);
	if (next === null) return null;
	const linked = withLinkpath(original, next);
	const replaced = linked !== null && renameShownName ? withShownNameRenamed(linked, original, linkpath, next) : linked;
	return replaced === original ? null : replaced;
}

/** The last part of a path: `a/b/Plan.md` → `Plan.md`. */
function lastPart(path: string): string {
	return path.slice(path.lastIndexOf("/") + 1);
}

/** A path with its file's extension left off: `a/b/Plan.md` → `a/b/Plan` (a name without one, or a dot file, as it is). */
function withoutExtension(path: string): string {
	const dot = path.lastIndexOf(".");
	return dot > path.lastIndexOf("/") + 1 ? path.slice(0, dot) : path;
}

/**
 * What a new name or path (folders may hold `[` and `]`, names a backtick or `$`) cannot be written
 * as a Markdown link's text without changing how the line is read: a bracket ends or opens the text
 * (`[Gar]den/Plan](…)` is no link), a backtick, `$`, `%%` or `<` may open a code span, math, a comment
 * or HTML that swallows the link, an entity shows another character. Such a link keeps its text.
 */
const READ_OTHERWISE_IN_LINK_TEXT = /[[\]\\`$<>]|%%|&#?\w+;/u;

/**
 * `linked` (the link `original` with its path part now `next`) with the text it shows renamed too,
 * where that text was the renamed file's old name, as Obsidian's rename writes it (its link updater,
 * read from Obsidian 1.13.7's code; not checked against a running Obsidian here):
 * - a wikilink whose path part holds a folder and whose alias is that path's last part, the alias
 *   trimmed (`[[Old/Plan|Plan]]`), gets the new path's last part as alias. The path part is all up to
 *   the first `|`, so `[[Old/Plan#Goals|Plan]]` and a table's `[[Old/Plan\|Plan]]` keep theirs;
 * - a Markdown link whose text, trimmed, is the old file name without its extension
 *   (`[Plan](Old/Plan.md)`) gets the new one's; one whose text holds a folder and is the old path
 *   without the extension gets the new path's; unless the new one is not plain text (READ_OTHERWISE_IN_LINK_TEXT).
 * Any other shown text is left as it is.
 */
function withShownNameRenamed(linked: string, original: string, linkpath: string, next: string): string {
	const wikiOpen = original.startsWith("![[") ? 3 : original.startsWith("[[") ? 2 : 0;
	if (wikiOpen > 0) {
		const inner = original.slice(wikiOpen, -2);
		const pipe = inner.indexOf("|");
		if (pipe === -1) return linked;
		const pathPart = inner.slice(0, pipe);
		const alias = inner.slice(pipe + 1);
		if (!pathPart.includes("/") || lastPart(pathPart) !== alias.trim()) return linked;
		// The alias closes the link in `linked` as in `original`: only the path part before it changed.
		return `${linked.slice(0, linked.length - 2 - alias.length)}${lastPart(next)}]]`;
	}
	const textStart = original.indexOf("[") + 1;
	const textEnd = closingBracket(original);
	const shown = original.slice(textStart, textEnd).trim();
	const renamed =
		shown === withoutExtension(lastPart(linkpath))
			? withoutExtension(lastPart(next))
			: shown.includes("/") && shown === withoutExtension(linkpath)
				? withoutExtension(next)
				: null;
	// The link text stands before the destination, at the same place in `linked`.
	return renamed === null || READ_OTHERWISE_IN_LINK_TEXT.test(renamed) ? linked : `${linked.slice(0, textStart)}${renamed}${linked.slice(textEnd)}`;
}

/** A canvas's `"file"` and `"text"` string fields, as JSON writes them (the value still escaped). */
const CANVAS_STRING_FIELD = /("(file|text)"\s*:\s*)"((?:[^"\\]|\\.)*)"/gu;

/**
 * Rewrites the links of a canvas (Obsidian's JSON): a file card's `file` (a full vault path) when
 * `newFilePath` maps it, and the links in each text card's Markdown as `rewriteLinks` does. Only
 * the fields that change are written again (JSON-escaped); every other byte stays.
 */
export function rewriteCanvasLinks(
	text: string,
	newLinkpath: (linkpath: string) => string | null,
	newFilePath: (path: string) => string | null,
	parse: (markdown: string) => Steps<CachedMetadata>,
): RewrittenLinks {
	return runSteps(rewriteCanvasLinksSteps(text, newLinkpath, newFilePath, parse));
}

/**
 * `rewriteCanvasLinks` in steps: a step after each card's field, and the cards' text parsed and
 * rewritten in steps (a canvas of 25,000 text cards was rewritten in one piece of a quarter second).
 */
export function* rewriteCanvasLinksSteps(
	text: string,
	newLinkpath: (linkpath: string) => string | null,
	newFilePath: (path: string) => string | null,
	parse: (markdown: string) => Steps<CachedMetadata>,
): Steps<RewrittenLinks> {
	let links = 0;
	const pieces: string[] = [];
	let copiedTo = 0;
	// Its own copy: the shared pattern's lastIndex would be another rewrite's while this one pauses.
	const field = new RegExp(CANVAS_STRING_FIELD.source, CANVAS_STRING_FIELD.flags);
	for (let match = field.exec(text); match !== null; match = field.exec(text)) {
		const [whole, head = "", name = "", raw = ""] = match;
		const replacement = yield* rewrittenCanvasField(head, name, raw, newLinkpath, newFilePath, parse);
		yield;
		if (replacement === null) continue;
		links += replacement.links;
		pieces.push(text.slice(copiedTo, match.index), replacement.text);
		copiedTo = match.index + whole.length;
	}
	if (copiedTo === 0) return { text, links };
	pieces.push(text.slice(copiedTo));
	return { text: pieces.join(""), links };
}

/** One canvas field (`"file": "…"` or `"text": "…"`) with its links rewritten; null when nothing in it changes. */
function* rewrittenCanvasField(
	head: string,
	name: string,
	raw: string,
	newLinkpath: (linkpath: string) => string | null,
	newFilePath: (path: string) => string | null,
	parse: (markdown: string) => Steps<CachedMetadata>,
): Steps<RewrittenLinks | null> {
	let value: unknown;
	try {
		value = JSON.parse(`"${raw}"`);
	} catch {
		return null;
	}
	if (typeof value !== "string") return null;
	if (name === "file") {
		const next = newFilePath(value);
		if (next === null || next === value) return null;
		return { text: `${head}${JSON.stringify(next)}`, links: 1 };
	}
	const rewritten = yield* rewriteLinksSteps(value, yield* parse(value), newLinkpath);
	if (rewritten.links === 0) return null;
	return { text: `${head}${JSON.stringify(rewritten.text)}`, links: rewritten.links };
}
