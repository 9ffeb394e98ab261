import { z } from "zod";
import { TAG_NOTES_DEFAULT_LIMIT, TAG_NOTES_MAX_LIMIT } from "../../config/limits";
import { isValidTag } from "../../markdown/tags";
import { decodeCursor, page } from "../../vault/notes";
import { notesWithTag } from "../../vault/tags";
import { withinCallBudget } from "../../vault/workBudget";
import { defineTool } from "../tool";
import { fail, ok } from "../../result";
import { echoed } from "../../markdown/echo";
import { stillBeingReadField, stillBeingReadSchema } from "../stillBeingRead";
import { visibleNotesStillBeingRead } from "../../vault/notesStillBeingRead";

export const findNotesByTagTool = defineTool({
	name: "find_notes_by_tag",
	title: "Find notes by tag",
	description: "Notes with a tag in frontmatter or body, nested tags included ('project' finds #project/a). Paged.",
	access: "read",
	annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
	inputSchema: {
		tag: z.string(),
		limit: z.number().int().min(1).max(TAG_NOTES_MAX_LIMIT).default(TAG_NOTES_DEFAULT_LIMIT),
		cursor: z.string().optional(),
	},
	outputSchema: {
		tag: z.string(),
		notes: z.array(z.string()),
		total: z.number().int(),
		next_cursor: z.string().optional(),
		still_being_read: stillBeingReadSchema,
	},
	examples: [{ tag: "demo", limit: 10 }],
	handler: async (ctx, args) => {
		const tag = args.tag.trim().replace(/^#/, "");
		if (!isValidTag(tag)) return fail(`"${echoed(args.tag)}" is not a valid tag. Call list_tags to see the tags in use.`);
		const offset = decodeCursor(args.cursor);
		if (!offset.ok) return fail(offset.error);
		const found = await withinCallBudget(
			async (budget) => ({
				// Looked at before the search: a note read meanwhile is named and may be found too, never left out unnamed.
				unread: await visibleNotesStillBeingRead(ctx.host, ctx.scope, budget, ctx.notesNotYetRead),
				notes: await (ctx.tagNotes ? ctx.tagNotes.notesWith(ctx.scope, tag, budget) : notesWithTag(ctx.host, ctx.scope, tag, budget)),
			}),
			"Try a more specific tag, or search_notes with the tag as a filter.",
			ctx.callBudget,
		);
		if (!found.ok) return found;
		const { notes, unread } = found.value;
		const { items, nextCursor } = page(notes, offset.value, args.limit);
		return ok({
			tag: `#${tag}`,
			notes: items,
			total: notes.length,
			...(nextCursor ? { next_cursor: nextCursor } : {}),
			...stillBeingReadField(unread, ctx.scope),
		});
	},
});
