/**
 * The write journal's records and the port the write path records through. Every change a tool
 * makes is recorded here before it reaches the disk, with what is needed to put the note back
 * exactly as it was, whatever else changed it since.
 */

/** One note touched by one tool call. */
export interface JournalChange {
	/** Vault path of the note (after the change, for a note the change moved). */
	path: string;
	/** Set when the change moved the note (rename_note): the path it had before; undo moves it back there. */
	movedFrom?: string;
	/**
	 * Set when the note's name on disk was another spelling of `movedFrom` (NFD, as macOS names a file; the vault's path
	 * is its NFC): undo moves it back under that name, not under a new name a sync or a file manager shows as another file.
	 */
	movedFromOnDisk?: string;
	/** The note's text before the change, or null when the change created it. */
	before: string | null;
	/** Hex SHA-256 of `before`, or null when the change created the note. */
	beforeHash: string | null;
	/** The note's text after the change (for "Show change"), or null when the change moved the note to the trash (an undo of its creation). */
	after: string | null;
	/** Hex SHA-256 of `after`: undo restores only a note that still has exactly this text. Null when `after` is. */
	afterHash: string | null;
	/** Folders the change made for a new note (none of them existed before), outermost first: undo removes them again, when empty. */
	createdFolders?: string[];
	/**
	 * Where the note is now, when the host reported it moved since (the person, Obsidian or another
	 * program renamed it): undo works on it there, and leaves it alone where undo may not write (an
	 * excluded folder), instead of taking the note for deleted. Kept only in the journal's own file.
	 */
	nowAt?: string;
}

/** Who made a change and with which tool: shared by every change of one tool call. */
export interface JournalCall {
	/** Unique id of the tool call, which `undo` takes. */
	id: string;
	/** ISO time the call began writing. */
	time: string;
	/** The name of the token that made the call ("you" for an undo a person made). */
	tokenName: string;
	/** The tool's name, e.g. "append_to_note", or "undo". */
	tool: string;
}

/** One tool call's changes, as history lists them. */
export interface JournalEntry extends JournalCall {
	/** The notes it changed, in the order they were written. */
	changes: JournalChange[];
	/** Set once the call has been undone: when, and by which journal entry. */
	undone: { time: string; by: string } | null;
}

/**
 * Where the write path records changes. `recordChange` is synchronous and durable when it
 * returns, so it can run inside `vault.process`, between computing a note's new text and writing it.
 */
export interface WriteJournal {
	/** Records one change of a call, before it is written. */
	recordChange(call: JournalCall, change: JournalChange): void;
	/** Records several changes of a call at once, as if one after another (one write to disk for all). */
	recordChanges(call: JournalCall, changes: readonly JournalChange[]): void;
	/**
	 * Records changes as `recordChanges` does, durable when the promise resolves, with the work done
	 * off the event loop or in slices (the texts escaped and encoded piece by piece, written and
	 * flushed through the thread pool): a 1 MiB note's record held the event loop 0.1–0.3 s in one
	 * piece. For a change known before the note's atomic edit; the edit confirms it, or drops it
	 * and records what it really wrote.
	 */
	recordChangesAhead(call: JournalCall, changes: readonly JournalChange[]): Promise<void>;
	/**
	 * The change recorded last for this call and path was not written after all (the write failed): forget it.
	 * `withNextRecord`: the caller records this call's new change of the path next, and the drop may go to disk in
	 * that record's write (before it), rather than in a flush of its own on the event loop.
	 */
	dropChange(callId: string, path: string, withNextRecord?: boolean): void;
	/**
	 * The host moved the note at `from` to `to`: each change not undone whose note was at `from` is
	 * recorded as now at `to` (one line per call). Never throws: a move that cannot be recorded leaves
	 * undo taking the note for deleted, as before.
	 */
	noteMoved?(from: string, to: string): void;
	/** Marks a call as undone by the entry `by`; a promise, when the mark is flushed to disk off the event loop, resolves once it is. */
	markUndone(callId: string, by: string): void | Promise<void>;
	/** Calls newest first, at most `limit`. */
	list(limit?: number): JournalEntry[];
	/** One call, or null if it is unknown or was dropped by the journal's bounds. */
	get(callId: string): JournalEntry | null;
	/** Reads in, a piece at a time, what another process changed in the journal's file (kept in memory only: nothing to read). */
	catchUp?(): Promise<void>;
	/** Lets the journal go: what it still owes the file (a drop whose append failed) is appended now, a last try before the process may end. */
	close?(): void;
}
