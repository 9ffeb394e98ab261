import { SLICED_TAGS } from "../config/limits";
import { isTagOrNested, tagKey, tagKeysIn, type NoteTags } from "./tags";

/**
 * The indexed notes by tag, kept as notes change, so a tag filter names its notes at once: it
 * looked at every note's tags on each search (55 ms at 50,000 notes). A note with SLICED_TAGS tags
 * or more is kept apart and its tags looked at on each search, as before: filing its tags one by
 * one would be one long piece when it changes.
 */
export class NotesByTag {
	/** Each note's tags (see NoteTags), so a change takes the note out of the tags it had. */
	private readonly tagsOf = new Map<string, NoteTags>();
	/** The notes carrying each tag key, and which keys are nested (hold a `/`). */
	private readonly notesOf = new Map<string, Set<string>>();
	private readonly nestedKeys = new Set<string>();
	/** Notes with SLICED_TAGS tags or more, not filed under their tags. */
	private readonly crowded = new Set<string>();

	/** Bumped on every change: the notes a tag names are the same while it is. */
	version = 0;

	/** Sets a note's tags (none: forgets it). */
	set(path: string, tags: NoteTags): void {
		this.delete(path);
		this.version++;
		if (tags.length === 0) return;
		this.tagsOf.set(path, tags);
		if (tags.length / 2 >= SLICED_TAGS) {
			this.crowded.add(path);
			return;
		}
		for (const key of tagKeysIn(tags)) {
			let notes = this.notesOf.get(key);
			if (!notes) {
				notes = new Set<string>();
				this.notesOf.set(key, notes);
				if (key.includes("/")) this.nestedKeys.add(key);
			}
			notes.add(path);
		}
	}

	delete(path: string): void {
		const tags = this.tagsOf.get(path);
		if (!tags) return;
		this.version++;
		this.tagsOf.delete(path);
		if (this.crowded.delete(path)) return;
		for (const key of tagKeysIn(tags)) {
			const notes = this.notesOf.get(key);
			if (!notes) continue;
			notes.delete(path);
			if (notes.size > 0) continue;
			this.notesOf.delete(key);
			this.nestedKeys.delete(key);
		}
	}

	clear(): void {
		this.version++;
		this.tagsOf.clear();
		this.notesOf.clear();
		this.nestedKeys.clear();
		this.crowded.clear();
	}

	/**
	 * The notes carrying `tag` or a tag nested under it; a note carrying several such tags is named
	 * once for each. Looks at the notes of those tags (and the crowded notes' tags) only.
	 */
	*carrying(tag: string): Generator<string, void, void> {
		const wanted = tagKey(tag);
		const exact = this.notesOf.get(wanted);
		if (exact) yield* exact;
		for (const key of this.nestedKeys) {
			if (key !== wanted && isTagOrNested(key, wanted)) yield* this.notesOf.get(key) ?? [];
		}
		for (const path of this.crowded) {
			for (const key of tagKeysIn(this.tagsOf.get(path) ?? [])) {
				if (isTagOrNested(key, wanted)) {
					yield path;
					break;
				}
			}
		}
	}
}
