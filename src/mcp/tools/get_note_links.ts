import { z } from "zod";
import { NOTE_LINKS_MAX_ENTRIES } from "../../config/limits";
import { backlinks, outgoingLinks, unresolvedLinks } from "../../vault/links";
import { findNote } from "../../vault/notes";
import { defineTool } from "../tool";

export const getNoteLinksTool = defineTool({
	name: "get_note_links",
	title: "Links of a note",
	description: "A note's outgoing links (target: the resolved path or null; line: null in frontmatter), the notes linking to it with how many links, and its unresolved links.",
	access: "read",
	annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
	inputSchema: {
		path: z.string(),
	},
	outputSchema: {
		path: z.string(),
		outgoing: z.array(z.object({ link: z.string(), target: z.string().nullable(), line: z.number().int().nullable() })),
		backlinks: z.array(z.object({ path: z.string(), count: z.number().int() })),
		unresolved: z.array(z.string()),
		truncated: z.boolean(),
	},
	examples: [{ path: "Welcome" }],
	handler: (ctx, args) => {
		const found = findNote(ctx.host, ctx.scope, args.path);
		if ("error" in found) return Promise.resolve({ fixable: found.error });
		const file = found.value;
		const outgoing = outgoingLinks(ctx.host, ctx.scope, file);
		const incoming = backlinks(ctx.host, ctx.scope, file.path);
		return Promise.resolve({
			ok: {
				path: file.path,
				outgoing: outgoing.slice(0, NOTE_LINKS_MAX_ENTRIES),
				backlinks: incoming.slice(0, NOTE_LINKS_MAX_ENTRIES),
				unresolved: unresolvedLinks(ctx.host, ctx.scope, file),
				truncated: outgoing.length > NOTE_LINKS_MAX_ENTRIES || incoming.length > NOTE_LINKS_MAX_ENTRIES,
			},
		});
	},
});
