import { ProtocolError, ProtocolErrorCode, ResourceNotFoundError, ResourceTemplate, type McpServer } from "@modelcontextprotocol/server";
import { NOTE_TEXT_RIGHT } from "../auth/rights";
import { MAX_NOTE_CONTENT_BYTES, RESOURCE_LIST_SIZE } from "../config/limits";
import { ok } from "../result";
import { findNote, noteVisibility, truncateAsJson } from "../vault/notes";
import { firstInOrder } from "../vault/firstInOrder";
import { withinCallBudget } from "../vault/workBudget";
import { isNoteInScope } from "../vault/scope";
import type { ToolContext } from "./context";
import { readNoteForAnswer } from "./vaultErrors";

/** Notes as MCP resources: `vault-mcp://note/{+path}` reads one; the list holds the most recently modified. */
export const NOTE_URI_PREFIX = "vault-mcp://note/";

/** The note resource template, as resources/templates/list gives it and completion/complete names it. */
export const NOTE_URI_TEMPLATE = `${NOTE_URI_PREFIX}{+path}`;

/** The note URI for a vault path; each path part percent-encoded, slashes kept. */
export function noteUri(path: string): string {
	return NOTE_URI_PREFIX + path.split("/").map(encodeURIComponent).join("/");
}

/**
 * Checks, at the moment of the request, that the caller may still read note text (its `read_note`
 * right, from the settings in force now, not those the server was lent with). A caller that may
 * not gets the answer of a method this server does not have, as a denied tool answers like an unknown one.
 */
export function requireNoteTextRight(ctx: ToolContext): void {
	if (ctx.writes.currentRight(NOTE_TEXT_RIGHT) === "deny") throw new ProtocolError(ProtocolErrorCode.MethodNotFound, "Method not found");
}

/** Ends a note's text cut at MAX_NOTE_CONTENT_BYTES: without it a model took the first part for the whole note. */
const NOTE_CUT_NOTICE = `\n\n[Vault MCP: the note is cut here, at ${MAX_NOTE_CONTENT_BYTES / 1024} KiB as JSON. read_note with 'Note#Heading' reads it a section at a time.]`;

/** Registers the note resources; `contextOf` gives the context of the request being answered (a server is reused across requests). */
export function registerNoteResources(server: McpServer, contextOf: () => ToolContext): void {
	server.registerResource(
		"note",
		new ResourceTemplate(NOTE_URI_TEMPLATE, {
			list: async () => {
				const ctx = contextOf();
				requireNoteTextRight(ctx);
				const visible = noteVisibility(ctx.scope);
				// Newest first; notes changed in the same millisecond by path, so the same vault always lists the same way.
				// Picked in one walk that pauses, not by sorting every note (a piece per call that grew with the vault).
				const recent = await withinCallBudget(
					(budget) =>
						firstInOrder(
							ctx.host.vault.getMarkdownFiles(),
							(file) => visible(file.path),
							(a, b) => b.stat.mtime - a.stat.mtime || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0),
							RESOURCE_LIST_SIZE,
							budget,
						),
					// Not shown: a call stopped here answers with its own error.
					{ again: "redoes", narrowing: "" },
					ctx.callBudget,
				);
				if (!recent.ok)
					throw new ProtocolError(
						ProtocolErrorCode.InternalError,
						"Listing the newest notes needed more work than one call may do, and the same call again would need as much; read a note by its path.",
					);
				// After the walk's last pause: a note the person moved into an excluded folder meanwhile is not named there.
				const visibleNow = noteVisibility(ctx.scope);
				return {
					resources: recent.value
						.filter((file) => visibleNow(file.path))
						.map((file) => ({ uri: noteUri(file.path), name: file.path, mimeType: "text/markdown" })),
				};
			},
		}),
		{ title: "Note", description: "The Markdown text of a note in the vault.", mimeType: "text/markdown" },
		async (uri) => {
			const ctx = contextOf();
			requireNoteTextRight(ctx);
			let path: string;
			try {
				path = decodeURIComponent(uri.href.slice(NOTE_URI_PREFIX.length));
			} catch {
				throw new ProtocolError(ProtocolErrorCode.InvalidParams, "The note URI is not valid percent-encoding.");
			}
			// The URI names a note's own path, as the list gives it: a name with `#` (made outside Obsidian) is that note, not a heading link.
			const exact = ctx.host.vault.getFileByPath(path);
			const found = exact !== null && isNoteInScope(exact.path, ctx.scope) ? ok(exact) : findNote(ctx.host, ctx.scope, path);
			// The spec's resource-not-found answer (-32602 with the URI in `data`), in our words.
			if (!found.ok) throw new ResourceNotFoundError(uri.href, found.error);
			const text = await readNoteForAnswer(ctx, found.value);
			const cut = truncateAsJson(text, MAX_NOTE_CONTENT_BYTES);
			if (cut.length === text.length) return { contents: [{ uri: noteUri(found.value.path), mimeType: "text/markdown", text }] };
			// Said in the text, which is what a model reads, and in `_meta` for a program.
			return { contents: [{ uri: noteUri(found.value.path), mimeType: "text/markdown", text: cut + NOTE_CUT_NOTICE, _meta: { truncated: true } }] };
		},
	);
}
