import type { CachedMetadata, HeadingCache } from "obsidian";
import { echoed } from "./echo";

/** One part of a note a link can point to: a heading's section or a block, by offsets into the note's text. */
export interface NotePart {
	/** The heading as written in the note, or `^id` for a block. */
	name: string;
	start: number;
	end: number;
}

/**
 * How Obsidian compares a link's heading with the note's headings: characters a link cannot hold
 * (`# | ^ : % [ ] \`) count as spaces, runs of spaces as one, and case is ignored.
 */
export function headingKey(heading: string): string {
	return heading
		.replace(/[#|^:%[\]\\]/g, " ")
		.replace(/\s+/g, " ")
		.trim()
		.toLowerCase();
}

/** Where the section under `headings[index]` ends: at the next heading of the same or a higher level, or the note's end. */
function sectionEnd(headings: readonly HeadingCache[], index: number, textLength: number): number {
	const level = headings[index]?.level ?? 1;
	const next = headings.slice(index + 1).find((heading) => heading.level <= level);
	return next?.position.start.offset ?? textLength;
}

/**
 * Heading levels (`#` to `######`). Each heading of a chain lies inside the section of the one
 * before, so it is deeper: no chain of more headings than this names a part of any note.
 */
const HEADING_LEVELS = 6;

/**
 * A subpath's parts, `#`-separated, trimmed, empty ones left out; null when there are more than a
 * chain of headings can have. Read only as far as that: a read_note path of 400,000 parts was split
 * whole, and looked through, in one piece of 0.1–0.2 s.
 */
function subpathParts(subpath: string): string[] | null {
	const parts: string[] = [];
	for (let from = 0; from <= subpath.length;) {
		const hash = subpath.indexOf("#", from);
		const to = hash === -1 ? subpath.length : hash;
		const part = subpath.slice(from, to).trim();
		if (part !== "") {
			if (parts.length === HEADING_LEVELS) return null;
			parts.push(part);
		}
		from = to + 1;
	}
	return parts;
}

/**
 * The part of a note a link subpath names, from the metadata cache, the way Obsidian resolves
 * `Note#Heading`, `Note#Parent#Child` and `Note#^block`: each heading in a chain is looked for
 * inside the section of the one before; the first match wins, as in Obsidian. Null when there is none.
 */
export function resolveSubpath(cache: CachedMetadata | null, subpath: string, textLength: number): NotePart | null {
	const parts = subpathParts(subpath);
	if (parts === null || parts.length === 0) return null;
	const first = parts[0] ?? "";
	if (parts.length === 1 && first.startsWith("^")) {
		const id = first.slice(1).toLowerCase();
		const block = Object.values(cache?.blocks ?? {}).find((entry) => entry.id.toLowerCase() === id);
		return block ? { name: `^${block.id}`, start: block.position.start.offset, end: block.position.end.offset } : null;
	}
	const headings = cache?.headings ?? [];
	let from = 0;
	let until = headings.length;
	let found = -1;
	for (const part of parts) {
		const key = headingKey(part);
		found = -1;
		for (let index = from; index < until; index++) {
			if (headingKey(headings[index]?.heading ?? "") === key) {
				found = index;
				break;
			}
		}
		if (found === -1) return null;
		// The next part must lie inside this heading's section.
		const end = sectionEnd(headings, found, textLength);
		from = found + 1;
		until = headings.findIndex((heading, index) => index > found && heading.position.start.offset >= end);
		if (until === -1) until = headings.length;
	}
	const heading = headings[found] as HeadingCache;
	return { name: heading.heading, start: heading.position.start.offset, end: sectionEnd(headings, found, textLength) };
}

/** The note's headings as a model can pass them back: `## Name (line N)`, at most `max`, with how many more there are. */
export function describeHeadings(cache: CachedMetadata | null, max: number): string {
	const headings = cache?.headings ?? [];
	if (headings.length === 0) return "The note has no headings.";
	const listed = headings.slice(0, max).map((heading) => `${"#".repeat(heading.level)} ${echoed(heading.heading)} (line ${heading.position.start.line})`);
	const more = headings.length > max ? ` and ${headings.length - max} more` : "";
	return `Its headings: ${listed.join("; ")}${more}.`;
}
