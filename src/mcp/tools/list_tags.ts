import { z } from "zod";
import { LIST_TAGS_DEFAULT_LIMIT, LIST_TAGS_MAX_LIMIT, MAX_LISTED_TAG_CHARS } from "../../config/limits";
import { TagCountWalk } from "../../vault/tagCounts";
import { tagKey, tagsWithinCharacters } from "../../vault/tags";
import { withinCallBudget } from "../../vault/workBudget";
import { defineTool } from "../tool";
import { ok } from "../../result";
import { stillBeingReadField, stillBeingReadSchema } from "../stillBeingRead";
import { visibleNotesStillBeingRead } from "../../vault/notesStillBeingRead";

export const listTagsTool = defineTool({
	name: "list_tags",
	title: "List tags",
	description: "Tags in use with their note counts, most used first; a nested tag also counts for its parents.",
	access: "read",
	annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
	inputSchema: {
		prefix: z.string().optional(),
		limit: z.number().int().min(1).max(LIST_TAGS_MAX_LIMIT).default(LIST_TAGS_DEFAULT_LIMIT),
	},
	outputSchema: {
		tags: z.array(z.object({ tag: z.string(), count: z.number().int() })),
		total: z.number().int(),
		left_out: z.number().int().optional().describe("Tags of this page not listed: past the characters a page holds"),
		still_being_read: stillBeingReadSchema,
	},
	examples: [{ limit: 20 }],
	handler: async (ctx, args) => {
		const prefix = args.prefix === undefined ? "" : tagKey(args.prefix.trim());
		const counted = await withinCallBudget(
			async (budget) => {
				// Looked at before the count: a note read meanwhile is named and may be counted too, never left out unnamed.
				const unread = await visibleNotesStillBeingRead(ctx.host, ctx.scope, budget, ctx.notesNotYetRead);
				const top = (counts: TagCountWalk) => counts.top(prefix, args.limit, budget);
				const counted = ctx.tagNotes
					? await ctx.tagNotes.tagCounts(ctx.scope, budget, top)
					: await top(await TagCountWalk.finished(ctx.host, ctx.scope, budget));
				return { ...counted, unread };
			},
			"The vault is too large to count its tags in one call; ask the vault's owner to exclude folders it need not share.",
			ctx.callBudget,
		);
		if (!counted.ok) return counted;
		const { tags, total, unread } = counted.value;
		const { listed, leftOut } = tagsWithinCharacters(tags, (entry) => entry.tag, args.limit, MAX_LISTED_TAG_CHARS);
		return ok({ tags: listed, total, ...(leftOut > 0 ? { left_out: leftOut } : {}), ...stillBeingReadField(unread, ctx.scope) });
	},
});
