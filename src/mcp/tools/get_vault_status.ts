import { z } from "zod";
import { isNoteInScope } from "../../vault/scope";
import { defineTool } from "../tool";

/** Always available: what this server is and what the caller may do with it. */
export const getVaultStatusTool = defineTool({
	name: "get_vault_status",
	title: "Vault status",
	description:
		"Name of the vault, the server version, whether this token may read and write, how many notes are visible, and whether the search index is ready. Call it first to learn what you may do.",
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
	},
	examples: [{}],
	handler: (ctx) => {
		const { vault } = ctx.host;
		const noteCount = vault.getMarkdownFiles().filter((file) => isNoteInScope(file.path, ctx.scope)).length;
		return Promise.resolve({
			ok: {
				vault_name: vault.getName(),
				server_version: ctx.serverVersion,
				can_read: true,
				can_write: ctx.grant.canWrite,
				note_count: noteCount,
				search_index: ctx.search.status(),
			},
		});
	},
});
