import type { CachedMetadata } from "obsidian";
import type { Host } from "../host/Host";
import { parseFrontMatterTags, tagsWithFrontmatter } from "../markdown/tags";
import { comparePathsStrictly, visibleNotes } from "./notes";
import type { Scope } from "./scope";
import { sharedNoteMemo, type NoteMemo } from "./noteMemo";
import { runSteps, type Steps } from "../markdown/steps";
import { SLICED_TAGS_COUNTED, TAG_STEP } from "../config/limits";
import { hasNoBodyTags, tagTextReaderInSteps, tagTextsOf, type StringPool, type TagTextReader } from "../headless/compactMetadata";
import { SplitStringSet } from "../markdown/splitStringMap";
import { runStepsOnBudget, sortInSlices, type CallBudget } from "./workBudget";

/** `#Project/Alpha` → `project/alpha`: how tags compare (Obsidian's tags are case-insensitive). */
export function tagKey(tag: string): string {
	return tag.replace(/^#/, "").toLowerCase();
}

/** Whether the tag key `key` is `wanted` or nested under it (`project/alpha` is under `project`). */
export function isTagOrNested(key: string, wanted: string): boolean {
	return key === wanted || key.startsWith(`${wanted}/`);
}

/**
 * What read_note lists of a note's tags: Obsidian's `getAllTags` (allTagTexts), each text once, as
 * many as `maxCharacters` holds (as tagsWithinCharacters picks them), and how many distinct ones are
 * left out; looked at SLICED_TAGS_COUNTED at a time, pausing on `clock`. A note of 800,000 tags was
 * spread, joined and deduplicated in one piece of about 1 s, holding every other client.
 */
export async function listedNoteTags(
	cache: CachedMetadata,
	maxCharacters: number,
	clock: { due(): boolean; checkpoint(): Promise<void> },
): Promise<{ listed: string[]; leftOut: number }> {
	const seen = new SplitStringSet();
	const listed: string[] = [];
	let leftOut = 0;
	let characters = 0;
	let looked = 0;
	for (const tags of await runStepsOnBudget(tagListsInSteps(cache), clock)) {
		for (let index = 0; index < tags.count; index++) {
			if (++looked % SLICED_TAGS_COUNTED === 0 && clock.due()) await clock.checkpoint();
			const tag = tags.text(index);
			if (!seen.add(tag)) continue;
			if (characters + tag.length > maxCharacters) leftOut++;
			else {
				characters += tag.length;
				listed.push(tag);
			}
		}
	}
	return { listed, leftOut };
}

/**
 * True when a note has no tag, in its properties or its body: known without listing them
 * (`listedNoteTags` of an untagged note, most small reads, made a set, two generators and two promises to list none).
 */
export function hasNoTags(cache: CachedMetadata): boolean {
	return (parseFrontMatterTags(cache.frontmatter)?.length ?? 0) === 0 && hasNoBodyTags(cache);
}

/**
 * A note's distinct tags (frontmatter and body) as keys with their first-seen spelling, in one
 * flat array: key, spelling, key, spelling, … A vault has a few hundred tags and ten thousand
 * notes: one array a note, its strings shared (see NoteMemo.strings), not a Map a note.
 */
export type NoteTags = readonly string[];

/** The tags of every note without any: one array for all of them. */
const NO_TAGS: NoteTags = Object.freeze([]);

/** The keys of a note's tags, once each. */
export function* tagKeysIn(tags: NoteTags): Generator<string, void, void> {
	for (let index = 0; index < tags.length; index += 2) yield tags[index] as string;
}

/**
 * Obsidian's `getAllTags` (frontmatter tags, then the body's, each with `#`), reading a packed
 * note's tags without building their entries (see tagTextsOf).
 */
export function allTagTexts(cache: CachedMetadata): string[] {
	return tagsWithFrontmatter(cache.frontmatter, tagTextsOf(cache));
}

/**
 * The frontmatter's tags, then the body's, as allTagTexts gives them, but never joined into one
 * list, nor the body's copied into one: a million tags' copy was one piece.
 */
function* tagListsInSteps(cache: CachedMetadata): Steps<TagTextReader[]> {
	const frontmatter = tagsWithFrontmatter(cache.frontmatter, []);
	return [{ count: frontmatter.length, text: (index) => frontmatter[index] as string }, yield* tagTextReaderInSteps(cache)];
}

/** A note's tags (see NoteTags), in pausable steps (a huge note can hold a million tags); pure but for the shared strings. */
export function* noteTagsInSteps(cache: CachedMetadata | null, strings: StringPool): Steps<NoteTags> {
	if (!cache) return NO_TAGS;
	const seen = new SplitStringSet();
	const lists = yield* tagListsInSteps(cache);
	// Made at the most it may hold (two strings a tag) and cut to what it does hold: pushed into, an
	// array of 800,000 tags grew by copying all it had, in pieces of 50–90 ms, then was copied again.
	const tags = new Array<string>(2 * lists.reduce((sum, texts) => sum + texts.count, 0));
	let kept = 0;
	let looked = 0;
	for (const texts of lists) {
		for (let index = 0; index < texts.count; index++) {
			const tag = texts.text(index);
			// tagKey's, with the text without `#` made once: each string made here is copied by every young-generation collection it lives through.
			const spelling = tag.startsWith("#") ? tag.slice(1) : tag;
			const key = spelling.toLowerCase();
			if (seen.add(key)) {
				const pooled = strings.intern(key);
				tags[kept++] = pooled;
				tags[kept++] = spelling === key ? pooled : strings.intern(spelling);
			}
			if (looked++ % TAG_STEP === TAG_STEP - 1) yield;
		}
	}
	if (kept === 0) return NO_TAGS;
	tags.length = kept;
	return tags;
}

/**
 * Each visible note's distinct tags (see NoteTags); derived once per change of a note, the walk
 * over the vault pausing on `budget`.
 */
async function tagsByNote(host: Host, scope: Scope, budget?: CallBudget, memo: NoteMemo = sharedNoteMemo): Promise<Map<string, NoteTags>> {
	const byNote = new Map<string, NoteTags>();
	for (const file of visibleNotes(host, scope)) {
		if (budget?.due()) await budget.checkpoint();
		const cache = host.metadataCache.getFileCache(file);
		if (!cache) continue;
		let tags = memo.tags.get(cache);
		if (!tags) {
			tags = await runStepsOnBudget(noteTagsInSteps(cache, memo.strings), budget);
			memo.tags.set(cache, tags);
		}
		if (tags.length) byNote.set(file.path, tags);
	}
	return byNote;
}

/** A note's tags, derived once per version of its metadata; `known` when the caller has just derived them. */
export function rememberTags(cache: CachedMetadata, memo: NoteMemo = sharedNoteMemo, known?: NoteTags): NoteTags {
	let tags = memo.tags.get(cache);
	if (!tags) {
		tags = known ?? runSteps(noteTagsInSteps(cache, memo.strings));
		memo.tags.set(cache, tags);
	}
	return tags;
}

/**
 * Path order (`comparePathsStrictly`): total, the same whatever order the notes were met in, so a path is
 * found again by binary search, and a page cursor's path key (pageCursor) seeks in it. Pure.
 */
export const inTagPathOrder: (a: string, b: string) => number = comparePathsStrictly;

/** Visible notes carrying `tag` or a tag nested under it, sorted by path (in slices on `budget`). */
export async function notesWithTag(host: Host, scope: Scope, tag: string, budget?: CallBudget, memo?: NoteMemo): Promise<string[]> {
	const wanted = tagKey(tag);
	const found: string[] = [];
	for (const [path, tags] of await tagsByNote(host, scope, budget, memo)) {
		if (budget?.due()) await budget.checkpoint();
		for (const key of tagKeysIn(tags)) {
			if (isTagOrNested(key, wanted)) {
				found.push(path);
				break;
			}
		}
	}
	return budget ? sortInSlices(found, inTagPathOrder, budget) : found.sort(inTagPathOrder);
}

/**
 * A page of `items` (in list order) within `maxCharacters`: each whole, the first `limit` at most;
 * `taken` of them make the page, `leftOut` of those never fit any page (longer alone than
 * `maxCharacters`). The page ends before an item that would fit a page of its own but not the room
 * left on this one, so the next page starts at it: list_tags skipped such a tag for good (its cursor
 * named the last of the first `limit`). Pure.
 */
export function tagPageWithinCharacters<T>(
	items: readonly T[],
	tagOf: (item: T) => string,
	limit: number,
	maxCharacters: number,
): { listed: T[]; leftOut: number; taken: number } {
	const listed: T[] = [];
	let leftOut = 0;
	let characters = 0;
	for (const item of items) {
		if (listed.length + leftOut >= limit) break;
		const length = tagOf(item).length;
		if (length > maxCharacters) leftOut++;
		else if (characters + length > maxCharacters) break;
		else {
			characters += length;
			listed.push(item);
		}
	}
	return { listed, leftOut, taken: listed.length + leftOut };
}

/**
 * The first `limit` of `items` whose tags fit in `maxCharacters` in all, each whole, in order; and
 * how many of those first `limit` were left out for want of room (a planted tag of a million
 * characters made every answer listing it too large to send). Pure.
 */
export function tagsWithinCharacters<T>(
	items: readonly T[],
	tagOf: (item: T) => string,
	limit: number,
	maxCharacters: number,
): { listed: T[]; leftOut: number } {
	const listed: T[] = [];
	let leftOut = 0;
	let characters = 0;
	for (const item of items) {
		if (listed.length + leftOut >= limit) break;
		const length = tagOf(item).length;
		if (characters + length > maxCharacters) {
			leftOut++;
			continue;
		}
		characters += length;
		listed.push(item);
	}
	return { listed, leftOut };
}
