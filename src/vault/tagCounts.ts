import { randomBytes } from "node:crypto";
import type { HostFile, Host } from "../host/Host";
import { MAX_LISTED_TAG_CHARS, MAX_TAG_PARENTS_COUNTED, SLICED_TAGS_COUNTED, KEPT_TAG_COUNT_PAGES } from "../config/limits";
import { ChunkedArray } from "../markdown/chunkedArray";
import { SplitStringMap } from "../markdown/splitStringMap";
import { comparePathsStrictly, visibleNotes } from "./notes";
import { sharedNoteMemo, type NoteMemo } from "./noteMemo";
import type { Scope } from "./scope";
import { noteTagsInSteps } from "./tags";
import { runStepsOnBudget, type CallBudget } from "./workBudget";

/** One tag of `list_tags`: its spelling with `#` and how many notes carry it or a tag nested under it. */
export interface CountedTag {
	tag: string;
	count: number;
}

/** A tag of a page read in the order of an earlier walk (`TagCountWalk.top`'s `then`): where it stood then, as its cursor names it. */
export interface PlacedTag extends CountedTag {
	place: CountedTag;
}

type Clock = Pick<CallBudget, "due" | "checkpoint">;

/**
 * How many visible notes of one scope carry each tag, nested tags counted for their parents too,
 * like Obsidian's tag pane; the spelling shown is that of the first note in path order holding the
 * tag, so the answer never depends on the order the file system lists notes in.
 *
 * The walk can stop at any pause (its call ran out of budget) and go on where it stopped in a later
 * call: with 800,000 different tags a call that threw away what it had counted never answered.
 * Tags are kept in slots of flat (chunked) arrays, not an object each, and a note counted once per tag by a
 * stamp, not a set per note: fewer objects for the collector to trace and copy (its pauses inside
 * one piece were 25–166 ms). The owner drops the walk when any note's tags may have changed.
 */
export class TagCountWalk {
	private readonly files: HostFile[];
	/** Tag key → its slot in the arrays below. Split: one Map grows by copying every entry at once (see SPLIT_MAP_FIRST_KEYS). */
	private readonly slots = new SplitStringMap<number>();
	/** Each slot's key, in the order first met (the order `best` looks at them in). */
	private readonly keys = new ChunkedArray<string>();
	/** The spelling shown (without `#`), the note it comes from, the count, and the last note counted. */
	private readonly spellings = new ChunkedArray<string>();
	private readonly spelledBy = new ChunkedArray<string>();
	private readonly counts = new ChunkedArray<number>();
	private readonly stamps = new ChunkedArray<number>();
	/** The next note to count, and the next of its tags (a note may hold a million). */
	private noteAt = 0;
	private tagAt = 0;
	/** Pages asked for (by prefix and limit) once the walk ended. */
	private readonly answers = new Map<string, { tags: CountedTag[]; total: number }>();
	/** The call walking now: one at a time, as the walk's place is shared. */
	private walking: Promise<void> | null = null;
	/**
	 * This walk's name in list_tags' cursors (random: a count of walks made would tell a token how often others' notes
	 * changed), so a later page can be read in the order of the walk its first page came from (`TagNotes.pagedWalk`).
	 */
	readonly id = randomBytes(9).toString("base64url");

	constructor(
		private readonly host: Host,
		scope: Scope,
		private readonly memo: NoteMemo = sharedNoteMemo,
	) {
		this.files = visibleNotes(host, scope);
	}

	/** A walk of `scope` made and finished in one call: where no running server keeps one (see TagNotes.tagCounts). */
	static async finished(host: Host, scope: Scope, budget?: Clock, memo?: NoteMemo): Promise<TagCountWalk> {
		const walk = new TagCountWalk(host, scope, memo);
		await walk.finish(budget);
		return walk;
	}

	/** Counts the notes not counted yet, pausing on `budget`; a call stopped part-way leaves the walk where it was. */
	async finish(budget?: Clock): Promise<void> {
		while (this.walking) await this.walking.then(ignore, ignore);
		if (this.noteAt >= this.files.length) return;
		const walking = this.walk(budget);
		this.walking = walking;
		try {
			await walking;
		} finally {
			this.walking = null;
		}
	}

	private async walk(budget?: Clock): Promise<void> {
		while (this.noteAt < this.files.length) {
			const file = this.files[this.noteAt] as HostFile;
			const cache = this.host.metadataCache.getFileCache(file);
			let tags: readonly string[] = [];
			if (cache) {
				tags = this.memo.tags.get(cache) ?? (await runStepsOnBudget(noteTagsInSteps(cache, this.memo.strings), budget as CallBudget | undefined));
				this.memo.tags.set(cache, tags);
			}
			// A planted note may hold 800,000 tags: the count pauses inside a note too, and goes on there.
			while (this.tagAt < tags.length) {
				if (budget && (this.tagAt & (2 * SLICED_TAGS_COUNTED - 1)) === 0 && budget.due()) await budget.checkpoint();
				this.countKey(tags[this.tagAt] as string, tags[this.tagAt + 1] as string, file.path);
				this.tagAt += 2;
			}
			this.noteAt++;
			this.tagAt = 0;
			if (budget?.due()) await budget.checkpoint();
		}
	}

	/** How many different tags (parents included) the visible notes carry; only once `finish` has ended. */
	get distinct(): number {
		return this.counts.length;
	}

	/**
	 * The first `limit` tags whose key starts with `prefix`, most used first, then by spelling (a
	 * stable order: tags the order calls equal stay in the order first met), past the place `after`
	 * (see tagPlace) when given, and how many match in all; only once `finish` has ended. Keeps only
	 * the `limit` best while it looks, never a sorted copy of every tag. With `then` (an earlier walk of the scope, the one
	 * a client's first page came from), this walk's tags in `then`'s order: each placed by its count and spelling then (one
	 * not counted then: after all that were, by spelling now), listed as now; a tag gone since is left out. So pages read
	 * one after another while notes' tags change give each tag once: paged by the key now, a tag whose count went down past
	 * the cursor came again, and one whose count went up past it never came.
	 */
	async top(
		prefix: string,
		limit: number,
		budget?: Clock,
		after?: CountedTag,
		then?: TagCountWalk,
	): Promise<{ tags: Array<CountedTag | PlacedTag>; total: number }> {
		const asked = JSON.stringify([prefix, limit, after, then?.id]);
		let answer = this.answers.get(asked);
		if (!answer) {
			answer = await this.best(prefix, limit, budget, after, then);
			// A few pages kept: the same call again (a client's retry, a second client) costs nothing.
			if (this.answers.size >= KEPT_TAG_COUNT_PAGES) this.answers.delete(this.answers.keys().next().value as string);
			this.answers.set(asked, answer);
		}
		return { tags: answer.tags.slice(), total: answer.total };
	}

	/** Where the tag of `key` stood in this walk's order (count, spelling), or, not counted here, after every tag that was. */
	private placeOf(key: string, spellingNow: string): CountedTag {
		const slot = this.slots.get(key);
		return slot === undefined ? { count: 0, tag: `#${spellingNow}` } : { count: this.counts.get(slot), tag: `#${this.spellings.get(slot)}` };
	}

	private async best(
		prefix: string,
		limit: number,
		budget?: Clock,
		after?: CountedTag,
		then?: TagCountWalk,
	): Promise<{ tags: Array<CountedTag | PlacedTag>; total: number }> {
		// Ordered by `place` (the tag's place then, or now without `then`); each listed as now.
		const best: PlacedTag[] = [];
		let total = 0;
		let looked = 0;
		for (let slot = 0; slot < this.keys.length; slot++) {
			const key = this.keys.get(slot);
			if (budget && (++looked & (SLICED_TAGS_COUNTED - 1)) === 0 && budget.due()) await budget.checkpoint();
			const spelling = this.spellings.get(slot);
			// How list_tags always filtered: the spelling shown, lower-cased (the key itself when they are the same text).
			if (prefix !== "" && !(spelling === key ? key : spelling.toLowerCase()).startsWith(prefix)) continue;
			total++;
			const shown = { tag: `#${spelling}`, count: this.counts.get(slot) };
			const place = then ? then.placeOf(key, spelling) : shown;
			const last = best[best.length - 1];
			if (best.length >= limit && last && place.count < last.place.count) continue;
			if (best.length >= limit && last && inListOrder(place, last.place) >= 0) continue;
			if (after && place.count >= after.count) {
				// A cursor's spelling comes from the client: one of 64,000 characters the collator skips (soft hyphens) took 3 ms a
				// comparison at load 20, so the clock is looked at after each (every SLICED_TAGS_COUNTED would be pieces of seconds).
				const before = place.count > after.count || inListOrder(tagPlace(place), after) <= 0;
				if (budget?.due()) await budget.checkpoint();
				if (before) continue;
			}
			const entry = { ...shown, place };
			best.splice(afterEqual(best, entry), 0, entry);
			if (best.length > limit) best.pop();
		}
		return { tags: then ? best : best.map(({ tag, count }) => ({ tag, count })), total };
	}

	/** Counts one of a note's keys and its first parents for the note, each once per note. */
	private countKey(key: string, spelling: string, path: string): void {
		const stamp = this.noteAt;
		let keyEnd = key.indexOf("/");
		let spellingEnd = spelling.indexOf("/");
		// Lower case keeps every `/`, so the spelling has a parent for each of the key's (see tagWithParents).
		for (let parents = 0; keyEnd !== -1 && parents < MAX_TAG_PARENTS_COUNTED; parents++) {
			this.countOne(key.slice(0, keyEnd), spelling.slice(0, spellingEnd), path, stamp);
			keyEnd = key.indexOf("/", keyEnd + 1);
			spellingEnd = spelling.indexOf("/", spellingEnd + 1);
		}
		this.countOne(key, spelling, path, stamp);
	}

	private countOne(key: string, spelling: string, path: string, stamp: number): void {
		const slot = this.slots.getOrAdd(key, this.counts.length);
		if (slot === undefined) {
			this.keys.push(key);
			this.spellings.push(spelling);
			this.spelledBy.push(path);
			this.counts.push(1);
			this.stamps.push(stamp);
			return;
		}
		if (this.stamps.get(slot) === stamp) return;
		this.stamps.set(slot, stamp);
		this.counts.set(slot, this.counts.get(slot) + 1);
		// Strictly: of two paths the collator calls equal, the one counted first spelled the tag, and that order is the vault's history.
		if (comparePathsStrictly(path, this.spelledBy.get(slot)) < 0) {
			this.spellings.set(slot, spelling);
			this.spelledBy.set(slot, path);
		}
	}
}

function ignore(): void {}

/**
 * Where a tag stands in list_tags' order, as a page cursor names it: its count, and its spelling cut
 * to the longest a cursor's text may be. A tag that long is never listed (MAX_LISTED_TAG_CHARS), only
 * counted as left out; tags sharing that cut stand at one place, so a page ending at one never
 * starts at it again. Pure.
 */
export function tagPlace(tag: CountedTag): CountedTag {
	return tag.tag.length > MAX_LISTED_TAG_CHARS ? { tag: tag.tag.slice(0, MAX_LISTED_TAG_CHARS), count: tag.count } : tag;
}

/** Most used first, then by spelling (strictly: `#xy` and `#x­y` were listed in the order they were first counted). Pure. */
function inListOrder(a: CountedTag, b: CountedTag): number {
	return b.count - a.count || comparePathsStrictly(a.tag, b.tag);
}

/** Where `entry` goes in `sorted` (by inListOrder of their places): after every entry it is not before. Pure. */
function afterEqual(sorted: readonly PlacedTag[], entry: PlacedTag): number {
	let low = 0;
	let high = sorted.length;
	while (low < high) {
		const middle = (low + high) >> 1;
		if (inListOrder((sorted[middle] as PlacedTag).place, entry.place) <= 0) low = middle + 1;
		else high = middle;
	}
	return low;
}
