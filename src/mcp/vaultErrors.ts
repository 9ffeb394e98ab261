import { ProtocolError, ProtocolErrorCode } from "@modelcontextprotocol/server";
import { MAX_NAME_BYTES, MAX_NOTE_NAME_BYTES } from "../config/limits";
import { NOTE_TEXT_RIGHT } from "../auth/rights";
import type { HostFile } from "../host/Host";
import { isNoteInScope, scopeKey } from "../vault/scope";
import { NoteExistsError } from "../vault/writes";
import type { ToolContext } from "./context";

/** Deleted or moved by another program a moment ago: the model can recover by looking again. */
const NOTE_GONE = "That note is gone (deleted or moved a moment ago). Nothing was written. Call list_notes or search_notes to find it again.";

/**
 * Errors from the vault that the model can act on, in words that never depend on what lies
 * behind a refused path (a link's target existing or not gives the same answer).
 */
export function fixableMessageFor(error: unknown): string | null {
	switch ((error as NodeJS.ErrnoException).code) {
		case "ENOENT":
			return NOTE_GONE;
		case "EOUTSIDEVAULT":
			return "That path is not part of the vault this server gives access to. Nothing was read or written. Call list_notes to see the notes you can use.";
		case "EWRITECONFLICT":
		case "EHASHMISMATCH":
		case "ENOTETOOLARGE":
			return (error as Error).message;
		case "EEXIST":
			// Only our own wording: a raw EEXIST message names the absolute path on disk.
			return error instanceof NoteExistsError ? error.message : null;
		case "EOWNFILELINK":
			// The owner's line names the file; the client learns only that writing is stopped, without paths.
			return "Writing to this vault is stopped: one of the server's own files (its write journal or settings) is a link, and the server never writes through one. Nothing was written. The vault's owner sees why in the server log or the settings tab.";
		case "EFOLDERTAKEN":
			// Names only a folder of the caller's own path.
			return (error as Error).message;
		case "ENOTUTF8":
			// Each note's own write: in a rename's set, notes before it may have been written (the journal holds them).
			return "A note this call changes is not valid UTF-8 (another program saved it in another encoding), so it was not changed: written back, its bytes that are not UTF-8 would be replaced with U+FFFD and lost. append_to_note adds to it without changing them; to change it otherwise, save it as UTF-8 first.";
		case "ENAMETOOLONG":
			// The documented refusal gives the limit; a disk with a lower one (eCryptfs, a long vault path) lands here.
			return `A file or folder name in that path is too long for the file system here (this server allows ${MAX_NAME_BYTES} bytes a name, ${MAX_NOTE_NAME_BYTES} for a note's; this disk or the vault's own path leaves less). Nothing was written. Choose a shorter name or a shallower folder.`;
		default:
			return null;
	}
}

/**
 * A note's text for a resource or prompt answer. The SDK sends a handler's error message to the
 * client as it is, and Node's file errors name the absolute path on disk ("ENOENT: … open
 * '/home/…/Note.md'"), so a failed read becomes a protocol error in our words: what the model can
 * do about it, or that the server failed, never the raw message.
 */
export async function readNoteForAnswer(ctx: ToolContext, file: HostFile): Promise<string> {
	const scopeAtStart = scopeKey(ctx.scope);
	let text: string;
	try {
		text = await ctx.host.vault.cachedRead(file);
	} catch (error) {
		const fixable = fixableMessageFor(error);
		if (fixable !== null) throw new ProtocolError(ProtocolErrorCode.InvalidParams, fixable);
		throw new ProtocolError(
			ProtocolErrorCode.InternalError,
			"Reading that note failed inside the server. Try again; if it keeps failing, read it with read_note.",
		);
	}
	// Read again once the disk has answered: a token revoked, denied note text or narrowed away from the note meanwhile is told nothing of it.
	if (ctx.writes.currentRight(NOTE_TEXT_RIGHT) === "deny") throw new ProtocolError(ProtocolErrorCode.MethodNotFound, "Method not found");
	if (!isNoteInScope(file.path, ctx.scope)) {
		// The folders as they were, the note moved away (into an excluded folder, by the person): answered as a note deleted
		// meanwhile is. "The folders changed" told that it had gone into a hidden folder, not away.
		if (scopeKey(ctx.scope) === scopeAtStart) throw new ProtocolError(ProtocolErrorCode.InvalidParams, NOTE_GONE);
		throw new ProtocolError(
			ProtocolErrorCode.InvalidParams,
			"The folders this token may see changed while the note was read, so nothing was answered. Ask again.",
		);
	}
	return text;
}
