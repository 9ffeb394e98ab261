import { tagBodyLength } from "./tags";

/**
 * Obsidian's inline syntax inside one block of Markdown: wikilinks, embeds, internal Markdown
 * links and tags. Pure. Code spans, escapes and `<!-- HTML comments -->` hide what is inside them,
 * as in Obsidian; `%% comments %%` do not (Obsidian's own metadata cache reports tags and links
 * inside them: see the comments_markdown_style capture).
 */

/** A link found in text, with offsets into that text. */
export interface InlineLink {
	link: string;
	displayText: string;
	original: string;
	start: number;
	end: number;
}

export interface InlineTag {
	tag: string;
	start: number;
	end: number;
}

export interface InlineFindings {
	links: InlineLink[];
	embeds: InlineLink[];
	tags: InlineTag[];
}

const EXTERNAL_URL = /^(?:[a-z][a-z0-9+.-]*:|\/\/)/i;
const AUTOLINK = /^<[a-z][a-z0-9+.-]*:[^\s<>]*>/i;

/** Finds links, embeds and tags in a block's text (lines joined by `\n`). */
export function scanInline(text: string): InlineFindings {
	const found: InlineFindings = { links: [], embeds: [], tags: [] };
	let index = 0;
	const special = /[\\`<[!#]/g;
	while (index < text.length) {
		// Jump to the next character that can start something: most of a note is plain text.
		special.lastIndex = index;
		const next = special.exec(text);
		if (next === null) break;
		index = next.index;
		const char = text[index];
		if (char === "\\") {
			index += 2;
		} else if (char === "`") {
			index = skipCodeSpan(text, index);
		} else if (text.startsWith("<!--", index)) {
			const close = text.indexOf("-->", index + 4);
			index = close === -1 ? text.length : close + 3;
		} else if (char === "<" && AUTOLINK.test(text.slice(index, index + 2048))) {
			index = text.indexOf(">", index) + 1;
		} else if (text.startsWith("![[", index) || text.startsWith("[[", index)) {
			const embed = char === "!";
			const wikilink = readWikilink(text, index, embed);
			if (wikilink) {
				(embed ? found.embeds : found.links).push(wikilink);
				index = wikilink.end;
			} else {
				index += embed ? 3 : 2;
			}
		} else if (char === "[" || (char === "!" && text[index + 1] === "[")) {
			const embed = char === "!";
			const markdownLink = readMarkdownLink(text, index, embed);
			if (markdownLink === null) {
				index += embed ? 2 : 1;
			} else {
				if (markdownLink.link !== null) (embed ? found.embeds : found.links).push({ ...markdownLink, link: markdownLink.link });
				index = markdownLink.end;
			}
		} else if (char === "#" && (index === 0 || /\s/u.test(text[index - 1] ?? ""))) {
			const length = tagBodyLength(text, index + 1);
			if (length > 0) found.tags.push({ tag: text.slice(index, index + 1 + length), start: index, end: index + 1 + length });
			index += 1 + length;
		} else {
			index += 1;
		}
	}
	return found;
}

/** After a code span that starts at `start`, or past its opening backticks if it never closes. */
function skipCodeSpan(text: string, start: number): number {
	let runEnd = start;
	while (text[runEnd] === "`") runEnd++;
	const run = runEnd - start;
	let search = runEnd;
	while (search < text.length) {
		const next = text.indexOf("`", search);
		if (next === -1) break;
		let closeEnd = next;
		while (text[closeEnd] === "`") closeEnd++;
		if (closeEnd - next === run) return closeEnd;
		search = closeEnd;
	}
	return runEnd;
}

/** `[[target#sub|alias]]` or `![[…]]` at `start`, on one line; null if not a wikilink. */
function readWikilink(text: string, start: number, embed: boolean): InlineLink | null {
	const innerStart = start + (embed ? 3 : 2);
	const close = text.indexOf("]]", innerStart);
	const newline = text.indexOf("\n", innerStart);
	if (close === -1 || (newline !== -1 && newline < close)) return null;
	const inner = text.slice(innerStart, close);
	if (inner === "") return null;
	// The alias separator is the first `|` after the first character: `[[|x]]` links to "|x".
	const separator = inner.indexOf("|", 1);
	const link = separator === -1 ? inner : inner.slice(0, separator);
	const displayText = separator === -1 ? defaultDisplayText(link) : inner.slice(separator + 1);
	const end = close + 2;
	return { link, displayText, original: text.slice(start, end), start, end };
}

/** How Obsidian shows a link without an alias: subpaths joined with " > " (`a#b#c` → `a > b > c`). */
export function defaultDisplayText(link: string): string {
	return link
		.split("#")
		.filter((part) => part !== "")
		.join(" > ");
}

/**
 * `[text](destination)` or `![alt](destination)` at `start`. Returns null when it is not a link
 * at all; a link with `link: null` when it is a link that Obsidian does not track (external, empty).
 */
function readMarkdownLink(text: string, start: number, embed: boolean): (Omit<InlineLink, "link"> & { link: string | null }) | null {
	const textStart = start + (embed ? 2 : 1);
	let depth = 1;
	let index = textStart;
	for (; index < text.length && depth > 0; index++) {
		const char = text[index];
		if (char === "\\") index++;
		else if (char === "[") depth++;
		else if (char === "]") depth--;
	}
	if (depth !== 0 || text[index] !== "(") return null;
	const textEnd = index - 1;
	const destination = readDestination(text, index + 1);
	if (destination === null) return null;
	const end = destination.end;
	const original = text.slice(start, end);
	const displayText = text.slice(textStart, textEnd);
	const raw = destination.value.trim();
	if (raw === "" || EXTERNAL_URL.test(raw)) return { link: null, displayText, original, start, end };
	return { link: decodeLinkDestination(raw), displayText, original, start, end };
}

/** The destination inside `( … )`, with an optional title; null if the parenthesis never closes. */
function readDestination(text: string, start: number): { value: string; end: number } | null {
	let index = start;
	while (text[index] === " ") index++;
	if (text[index] === "<") {
		const close = text.indexOf(">", index);
		if (close === -1) return null;
		const after = text.indexOf(")", close);
		if (after === -1) return null;
		return { value: text.slice(index + 1, close), end: after + 1 };
	}
	let depth = 0;
	const valueStart = index;
	for (; index < text.length; index++) {
		const char = text[index];
		if (char === "\\") index++;
		else if (char === "(") depth++;
		else if (char === ")") {
			if (depth === 0) break;
			depth--;
		} else if (char === "\n") return null;
		else if (char === " " && depth === 0) {
			// A title may follow the destination: `(dest "title")`.
			const close = text.indexOf(")", index);
			if (close === -1) return null;
			return { value: text.slice(valueStart, index), end: close + 1 };
		}
	}
	if (index >= text.length) return null;
	return { value: text.slice(valueStart, index), end: index + 1 };
}

/** Obsidian stores Markdown link targets decoded: `Test%20Data/a.md` → `Test Data/a.md`. */
function decodeLinkDestination(raw: string): string {
	try {
		return decodeURIComponent(raw);
	} catch {
		return raw;
	}
}

const BLOCK_ID_AT_END = /(?:^|\s)\^([A-Za-z0-9-]+)\s*$/;

/** The `^block-id` a block's last line ends with, if any. */
export function trailingBlockId(line: string): string | null {
	return BLOCK_ID_AT_END.exec(line)?.[1] ?? null;
}
