import type { Grant } from "../auth/grant";
import type { Host } from "../host/Host";
import type { Scope } from "../vault/scope";
import type { NoteSearch } from "../vault/search";
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
	/** Gives the host a turn between slices of vault-wide work (the event loop; Obsidian's interface); default: one event-loop turn. */
	yieldToHost?: () => Promise<void>;
	/** The journal, approvals and live rights that write calls go through. */
	writes: WriteServices;
}
