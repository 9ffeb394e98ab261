import { z } from "zod";
import { BACKLINKS_DEFAULT_LIMIT, BACKLINKS_MAX_LIMIT, NOTE_LINKS_MAX_ENTRIES } from "../../config/limits";
import { backlinks, outgoingLinks, unresolvedLinks } from "../../vault/links";
import { decodeCursor, findNote, page } from "../../vault/notes";
import { defineTool } from "../tool";
import { fail, ok } from "../../result";

export const getNoteLinksTool = defineTool({
	name: "get_note_links",
	title: "Links of a note",
	description:
		"A note's outgoing links (target: the resolved path or null; line: null in frontmatter), its unresolved links, and the notes linking to it with how many links, most first: a page of backlinks, backlinks_total in all; pass next_cursor back as cursor for more.",
	access: "read",
	annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
	inputSchema: {
		path: z.string(),
		limit: z.number().int().min(1).max(BACKLINKS_MAX_LIMIT).default(BACKLINKS_DEFAULT_LIMIT),
		cursor: z.string().optional(),
	},
	outputSchema: {
		path: z.string(),
		outgoing: z.array(z.object({ link: z.string(), target: z.string().nullable(), line: z.number().int().nullable() })),
		backlinks: z.array(z.object({ path: z.string(), count: z.number().int() })),
		backlinks_total: z.number().int(),
		next_cursor: z.string().optional(),
		unresolved: z.array(z.string()),
		truncated: z.boolean(),
	},
	examples: [{ path: "Welcome", limit: 100 }],
	handler: (ctx, args) => {
		const found = findNote(ctx.host, ctx.scope, args.path);
		if (!found.ok) return Promise.resolve(fail(found.error));
		const offset = decodeCursor(args.cursor);
		if (!offset.ok) return Promise.resolve(fail(offset.error));
		const file = found.value;
		const outgoing = outgoingLinks(ctx.host, ctx.scope, file);
		const incoming = backlinks(ctx.host, ctx.scope, file.path);
		const { items, nextCursor } = page(incoming, offset.value, args.limit);
		return Promise.resolve(
			ok({
				path: file.path,
				outgoing: outgoing.slice(0, NOTE_LINKS_MAX_ENTRIES),
				backlinks: items,
				backlinks_total: incoming.length,
				...(nextCursor ? { next_cursor: nextCursor } : {}),
				unresolved: unresolvedLinks(ctx.host, ctx.scope, file),
				// Only outgoing links are ever cut; backlinks are paged.
				truncated: outgoing.length > NOTE_LINKS_MAX_ENTRIES,
			}),
		);
	},
});
