import type { Grant } from "../auth/grant";
import type { Host } from "../host/Host";
import type { NoteListing } from "../vault/noteListing";
import type { NotesNotYetRead } from "../vault/notesStillBeingRead";
import type { TagNotes } from "../vault/tagNotes";
import type { NotesWithTasks } from "../vault/notesWithTasks";
import type { KeptGraphStats } from "../vault/keptGraphStats";
import type { KeptNoteLinks } from "../vault/keptNoteLinks";
import type { NotePathIndex } from "../vault/notePaths";
import type { Scope } from "../vault/scope";
import type { NoteSearch } from "../vault/search";
import type { CallBudgetSettings } from "../vault/workBudget";
import type { WriteServices } from "./approval";

/** What every tool handler may use: the vault through the host, the current scope, and the caller's grant. */
export interface ToolContext {
	host: Host;
	serverVersion: string;
	scope: Scope;
	grant: Grant;
	search: NoteSearch;
	/** New daily notes are written as outlines (a setting). */
	dailyNotesAreOutlines: boolean;
	/** Notes in this folder are the server's prompts; empty or absent = none. */
	promptsFolder?: string;
	/** How vault-wide calls give the host its turn, and their slice and budget; default: VAULT_WIDE_SLICE_MS and VAULT_WIDE_CALL_WORK_MS, one event-loop turn. */
	callBudget?: CallBudgetSettings;
	/** The running server's sorted note paths, for completions; absent: each completion sorts the paths itself. */
	notePaths?: NotePathIndex;
	/** The running server's sorted notes, for `list_notes`; absent: each call sorts the notes itself. */
	noteListing?: NoteListing;
	/** The running server's notes by tag, for `find_notes_by_tag`; absent: each call walks every note's tags. */
	tagNotes?: TagNotes;
	/** The running server's notes not read yet, for `still_being_read`; absent: each call walks every note. */
	notesNotYetRead?: NotesNotYetRead;
	/** The running server's notes that may hold a task, for `list_tasks`; absent: each call walks every note. */
	notesWithTasks?: NotesWithTasks;
	/** The running server's graph counts per scope until a note changes, for `get_graph_stats`; absent: each call counts. */
	graphStats?: KeptGraphStats;
	/** The running server's walks over notes' links and backlinks, kept until a file their links may ask for comes, goes or moves, for `get_note_links`; absent: each call walks them whole. */
	noteLinks?: KeptNoteLinks;
	/** The journal, approvals and live rights that write calls go through. */
	writes: WriteServices;
}

/** Every field of `T` present, its optional ones too (each may still be undefined): a context made field by field names them all. */
export type EveryField<T> = { [K in keyof Required<T>]: T[K] };
