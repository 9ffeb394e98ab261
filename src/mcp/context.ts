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
	/** The journal, approvals and live rights that write calls go through. */
	writes: WriteServices;
}
