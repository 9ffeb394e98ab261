import type { FrontMatterCache } from "obsidian";

/**
 * Obsidian's tag syntax. A tag is `#` followed by letters, digits, `_`, `-`, `/` and any other
 * character that is not whitespace or ASCII punctuation, and it must not be digits only.
 */

/** ASCII punctuation that ends a tag (everything but `_`, `-` and `/`). */
const TAG_TERMINATORS = new Set("!\"#$%&'()*+,.:;<=>?@[\\]^`{|}~");

/** True if the character may stand inside a tag. */
export function isTagChar(char: string): boolean {
	return !TAG_TERMINATORS.has(char) && !/\s/u.test(char);
}

/**
 * The characters `isTagChar` takes, as a run from `lastIndex` (sticky). One search of the engine:
 * a character at a time, a megabyte tag took 0.1 s in one piece, and it is read on every change.
 */
const TAG_BODY = /[^\s!"#$%&'()*+,.:;<=>?@[\\\]^`{|}~]*/uy;

/** Length of the tag body starting at `start` (just after the `#`, never inside a surrogate pair), or 0 if there is no valid tag. */
export function tagBodyLength(text: string, start: number): number {
	TAG_BODY.lastIndex = start;
	const end = start + (TAG_BODY.exec(text)?.[0].length ?? 0);
	const body = text.slice(start, end);
	return /^[\d/]*$/u.test(body) ? 0 : end - start;
}

/** `#tag` → true when the whole string is one valid tag, with or without the leading `#`. */
export function isValidTag(tag: string): boolean {
	const body = tag.startsWith("#") ? tag.slice(1) : tag;
	return body.length > 0 && tagBodyLength(body, 0) === body.length;
}

/**
 * Obsidian's `parseFrontMatterTags`: the `tags` property as `#tag` strings, null when there is no
 * such property or it is empty. A text value is one tag, not a list to split: `tags: a, b` is one
 * invalid tag, and Obsidian drops it.
 */
export function parseFrontMatterTags(frontmatter: FrontMatterCache | null | undefined): string[] | null {
	if (!frontmatter) return null;
	const value: unknown = (frontmatter as Record<string, unknown>).tags;
	if (value === null || value === undefined) return null;
	const candidates = Array.isArray(value) ? value : [value];
	return candidates
		.filter((item): item is string | number => typeof item === "string" || typeof item === "number")
		.map((item) => String(item).trim())
		.map((item) => (item.startsWith("#") ? item : `#${item}`))
		.filter(isValidTag);
}

/** Obsidian's `getAllTags`: frontmatter tags first, then tags in the body, in order, each with `#`. */
export function getAllTags(cache: { frontmatter?: FrontMatterCache; tags?: Array<{ tag: string }> }): string[] {
	return tagsWithFrontmatter(
		cache.frontmatter,
		(cache.tags ?? []).map((tag) => tag.tag),
	);
}

/** `getAllTags` over the texts of the body's tags, for a reader that has them without their entries. */
export function tagsWithFrontmatter(frontmatter: FrontMatterCache | undefined, bodyTags: readonly string[]): string[] {
	return [...(parseFrontMatterTags(frontmatter) ?? []), ...bodyTags];
}
