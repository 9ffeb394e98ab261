import { NESTED_TAG_PARENTS_INDEXED, SLICED_TAGS } from "../config/limits";
import { isTagOrNested, tagKey, tagKeysIn, type NoteTags } from "./tags";
import { SplitStringMap, SplitStringSet } from "../markdown/splitStringMap";

/**
 * The indexed notes by tag, kept as notes change, so a tag filter names its notes at once: it
 * looked at every note's tags on each search (55 ms at 50,000 notes). A note with SLICED_TAGS tags
 * or more is kept apart and its tags looked at on each search, as before: filing its tags one by
 * one would be one long piece when it changes.
 */
export class NotesByTag {
	/** Each note's tags (see NoteTags), so a change takes the note out of the tags it had. */
	private readonly tagsOf = new Map<string, NoteTags>();
	/**
	 * The notes carrying each tag key. Split, as the keys below: a tag has no longest length, and V8 hashes a key longer
	 * than V8_HASHED_STRING_MAX_CHARS by its length alone (4 planted notes of 480 tags of 17,000 characters, filed
	 * in plain Maps, held the server 12.5 s at start).
	 */
	private notesOf = new SplitStringMap<Set<string>>();
	/**
	 * The nested keys (holding a `/`) under each of their first NESTED_TAG_PARENTS_INDEXED parents
	 * (`a/b/c` under `a` and `a/b`), so a tag names the keys nested under it without a walk of
	 * them all: over 1,000,000 nested keys a tag that matched none was one piece of about 50 ms.
	 */
	private nestedUnder = new SplitStringMap<SplitStringSet>();
	/** Notes with SLICED_TAGS tags or more, not filed under their tags. */
	private readonly crowded = new Set<string>();

	/** Sets a note's tags (none: forgets it). */
	set(path: string, tags: NoteTags): void {
		this.delete(path);
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
				this.notesOf.add(key, notes);
				for (const parent of indexedParents(key)) {
					let nested = this.nestedUnder.get(parent);
					if (!nested) {
						nested = new SplitStringSet();
						this.nestedUnder.add(parent, nested);
					}
					nested.add(key);
				}
			}
			notes.add(path);
		}
	}

	delete(path: string): void {
		const tags = this.tagsOf.get(path);
		if (!tags) return;
		this.tagsOf.delete(path);
		if (this.crowded.delete(path)) return;
		for (const key of tagKeysIn(tags)) {
			const notes = this.notesOf.get(key);
			if (!notes) continue;
			notes.delete(path);
			if (notes.size > 0) continue;
			this.notesOf.delete(key);
			for (const parent of indexedParents(key)) {
				const nested = this.nestedUnder.get(parent);
				if (!nested) continue;
				nested.delete(key);
				if (nested.size === 0) this.nestedUnder.delete(parent);
			}
		}
	}

	clear(): void {
		this.tagsOf.clear();
		this.notesOf = new SplitStringMap();
		this.nestedUnder = new SplitStringMap();
		this.crowded.clear();
	}

	/** The first of a note's tags (as a key), or undefined for a note with none. */
	firstTagOf(path: string): string | undefined {
		for (const key of tagKeysIn(this.tagsOf.get(path) ?? [])) return key;
		return undefined;
	}

	/** Whether a note carries `tag` or a tag nested under it (one of the notes `carrying` names). */
	carries(path: string, tag: string): boolean {
		const wanted = tagKey(tag);
		for (const key of tagKeysIn(this.tagsOf.get(path) ?? [])) if (isTagOrNested(key, wanted)) return true;
		return false;
	}

	/**
	 * The notes carrying `tag` or a tag nested under it; a note carrying several such tags is named
	 * once for each. Looks at the notes of those tags (and the crowded notes' tags) only.
	 */
	*carrying(tag: string): Generator<string, void, void> {
		const wanted = tagKey(tag);
		const exact = this.notesOf.get(wanted);
		if (exact) yield* exact;
		// The keys under `wanted`'s deepest indexed parent (itself, unless it nests deeper than the parents indexed).
		const parent = deepestIndexedParent(wanted);
		for (const key of this.nestedUnder.get(parent) ?? []) {
			if (parent === wanted || (key !== wanted && isTagOrNested(key, wanted))) yield* this.notesOf.get(key) ?? [];
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

/** A tag key's first NESTED_TAG_PARENTS_INDEXED parents: `a/b/c` → `a`, `a/b`. Pure. */
function* indexedParents(key: string): Generator<string, void, void> {
	let found = 0;
	for (let slash = key.indexOf("/"); slash !== -1 && found < NESTED_TAG_PARENTS_INDEXED; slash = key.indexOf("/", slash + 1), found++)
		yield key.slice(0, slash);
}

/**
 * `wanted`, or its parent at NESTED_TAG_PARENTS_INDEXED levels when it nests deeper: every key
 * nested under `wanted` is indexed under it (see indexedParents). Pure.
 */
function deepestIndexedParent(wanted: string): string {
	let slash = -1;
	for (let found = 0; found < NESTED_TAG_PARENTS_INDEXED; found++) {
		slash = wanted.indexOf("/", slash + 1);
		if (slash === -1) return wanted;
	}
	return wanted.slice(0, slash);
}
