import { z } from "zod";
import { MAX_SEARCHABLE_NOTE_BYTES, UNSEARCHED_NOTES_LISTED } from "../../config/limits";
import { visibleNotesOnBudget } from "../../vault/notes";
import { withinCallBudget } from "../../vault/workBudget";
import { isNoteInScope } from "../../vault/scope";
import { defineTool } from "../tool";
import { ok } from "../../result";

/** Always available: what this server is and what the caller may do with it. */
export const getVaultStatusTool = defineTool({
	name: "get_vault_status",
	title: "Vault status",
	description: `Vault name, server version, whether this token may write, note count, search index state. Call it first. Notes over ${MAX_SEARCHABLE_NOTE_BYTES / 1048576} MiB are searched by title and headings only (unsearched_notes).`,
	access: "read",
	annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
	inputSchema: {},
	outputSchema: {
		vault_name: z.string(),
		server_version: z.string(),
		can_read: z.boolean(),
		can_write: z.boolean(),
		note_count: z.number().int(),
		search_index: z.object({ state: z.enum(["ready", "building"]), indexed_notes: z.number().int(), total_notes: z.number().int() }),
		unsearched_notes: z.array(z.string()).optional(),
		unsearched_note_count: z.number().int().optional(),
	},
	examples: [{}],
	handler: async (ctx) => {
		// Counted in slices, as every vault-wide call: the call clients are told to make first was one piece over the whole vault.
		const counted = await withinCallBudget(
			async (budget) => {
				const notes = await visibleNotesOnBudget(ctx.host, ctx.scope, budget);
				return ctx.search.statusOnBudget(ctx.scope, notes, budget);
			},
			{ again: "redoes", narrowing: "The vault is too large to count in one call; ask the vault's owner to exclude folders it need not share." },
			ctx.callBudget,
		);
		if (!counted.ok) return counted;
		const unsearched = ctx.search.unsearched().filter((path) => isNoteInScope(path, ctx.scope));
		return ok({
			vault_name: ctx.host.vault.getName(),
			server_version: ctx.serverVersion,
			can_read: true,
			can_write: ctx.grant.canWrite,
			note_count: counted.value.noteCount,
			search_index: counted.value.status,
			...(unsearched.length > 0 ? { unsearched_notes: unsearched.slice(0, UNSEARCHED_NOTES_LISTED), unsearched_note_count: unsearched.length } : {}),
		});
	},
});
