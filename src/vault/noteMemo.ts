import type { CachedMetadata } from "obsidian";
import { StringPool } from "../headless/compactMetadata";
import type { PackedTasks } from "./packedTasks";

/** What one note's resolved links add to the graph counts, for one scope. */
export interface LinkContribution {
	/** The `unresolvedLinks` record it was computed with: a new record means new links. */
	unresolvedRecord: Record<string, number> | undefined;
	scopeKey: string;
	/** Target path → links to it: the `resolvedLinks` record itself when every target is visible. */
	targets: Readonly<Record<string, number>>;
	unresolved: number;
}

/**
 * Results derived from one note's metadata, kept as long as that metadata object lives. Both
 * hosts replace a note's `CachedMetadata` (and its `resolvedLinks` record) with a new object
 * whenever the note is parsed or its links resolved again, and never change one in place, so the
 * object itself is the key: a changed note misses and is derived afresh, a deleted one is
 * collected with its metadata. Vault-wide tools then pay per note a lookup, not a parse, and
 * the answer is the one a full recompute gives (test/unit/vault/noteMemo.test.ts checks that
 * against random edits, creates, renames and deletes).
 */
export class NoteMemo {
	readonly tasks = new WeakMap<CachedMetadata, PackedTasks>();
	/** A note's tags: keys and spellings, one after the other (tags.ts). */
	readonly tags = new WeakMap<CachedMetadata, readonly string[]>();
	/** One copy of each tag key and spelling and each task date and status, shared by every note's. */
	readonly strings = new StringPool();
	readonly links = new WeakMap<Record<string, number>, LinkContribution>();
}

/** The memo the tools share. */
export const sharedNoteMemo = new NoteMemo();
