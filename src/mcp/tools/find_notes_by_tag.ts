import { z } from "zod";
import { TAG_NOTES_DEFAULT_LIMIT, TAG_NOTES_MAX_LIMIT } from "../../config/limits";
import { isValidTag } from "../../markdown/tags";
import { BY_PATH, decodeCursor, pageAfter, type KeyedOrder } from "../../vault/pageCursor";
import { notesWithTag } from "../../vault/tags";
import { NOTES_KEPT_MOVING } from "../../vault/renamesSeen";
import { withinCallBudget } from "../../vault/workBudget";
import { defineTool } from "../tool";
import { cursorArgument } from "../cursorArgument";
import { fail, ok } from "../../result";
import { echoed } from "../../markdown/echo";
import { stillBeingReadField, stillBeingReadSchema } from "../stillBeingRead";
import { visibleNotesStillBeingRead } from "../../vault/notesStillBeingRead";

/** Notes come in path order (`inTagPathOrder`); a page's cursor names the last one's path. */
const KEYED: KeyedOrder<string> = { tool: "find_notes_by_tag", parts: BY_PATH, keyOf: (path) => [path] };

export const findNotesByTagTool = defineTool({
	name: "find_notes_by_tag",
	title: "Find notes by tag",
	description: "Notes with a tag in frontmatter or body, nested tags included ('project' finds #project/a). Paged.",
	access: "read",
	annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
	inputSchema: {
		tag: z.string(),
		limit: z.number().int().min(1).max(TAG_NOTES_MAX_LIMIT).default(TAG_NOTES_DEFAULT_LIMIT),
		cursor: cursorArgument,
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
		const after = decodeCursor(args.cursor, KEYED.tool, KEYED.parts);
		if (!after.ok) return fail(after.error);
		const found = await withinCallBudget(
			async (budget) => ({
				// Looked at before the search: a note read meanwhile is named and may be found too, never left out unnamed.
				unread: await visibleNotesStillBeingRead(ctx.host, ctx.scope, budget, ctx.notesNotYetRead),
				notes: await (ctx.tagNotes ? ctx.tagNotes.notesWith(ctx.scope, tag, budget) : notesWithTag(ctx.host, ctx.scope, tag, budget)),
			}),
			{ again: "resumes", narrowing: "Try a more specific tag, or search_notes with the tag as a filter." },
			ctx.callBudget,
		);
		if (!found.ok) return found;
		const { notes, unread } = found.value;
		if (notes === null) return fail(NOTES_KEPT_MOVING);
		const { items, nextCursor } = pageAfter(notes, after.value, args.limit, KEYED);
		return ok({
			tag: `#${tag}`,
			notes: items,
			total: notes.length,
			...(nextCursor ? { next_cursor: nextCursor } : {}),
			...stillBeingReadField(unread, ctx.scope),
		});
	},
});
