import { z } from "zod";
import { LIST_TAGS_DEFAULT_LIMIT, LIST_TAGS_MAX_LIMIT, MAX_LISTED_TAG_CHARS } from "../../config/limits";
import { tagPlace, TagCountWalk, type CountedTag, type PlacedTag } from "../../vault/tagCounts";
import { cursorOrder, decodeCursor, encodeCursor, type KeyPart } from "../../vault/pageCursor";
import { tagKey, tagPageWithinCharacters } from "../../vault/tags";
import { withinCallBudget } from "../../vault/workBudget";
import { NOTES_KEPT_MOVING } from "../../vault/renamesSeen";
import { defineTool } from "../tool";
import { cursorArgument } from "../cursorArgument";
import { fail, ok } from "../../result";
import { stillBeingReadField, stillBeingReadSchema } from "../stillBeingRead";
import { visibleNotesStillBeingRead } from "../../vault/notesStillBeingRead";

/**
 * Tags come most used first, then by spelling; a page's cursor names the last one's count and spelling (tagPlace), and
 * the walk over the counts it was read from (`order`): later pages keep that walk's order while tags change.
 */
const CURSOR_PARTS: readonly KeyPart[] = ["descending", "tag"];

export const listTagsTool = defineTool({
	name: "list_tags",
	title: "List tags",
	description: "Tags in use with their note counts, most used first; a nested tag also counts for its parents. Paged.",
	access: "read",
	annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
	inputSchema: {
		prefix: z.string().optional(),
		limit: z.number().int().min(1).max(LIST_TAGS_MAX_LIMIT).default(LIST_TAGS_DEFAULT_LIMIT),
		cursor: cursorArgument,
	},
	outputSchema: {
		tags: z.array(z.object({ tag: z.string(), count: z.number().int() })),
		total: z.number().int(),
		next_cursor: z.string().optional(),
		left_out: z.number().int().optional().describe("Tags of this page not listed: past the characters a page holds"),
		tags_order_changed: z
			.enum(["pages_keep_first_order", "tags_may_repeat_or_be_missing"])
			.optional()
			.describe(
				"Notes' tags changed since the cursor's first page. pages_keep_first_order: these pages keep that page's order, so each tag still comes once (counts are as now; a tag new since comes after the others); call without a cursor for the order now. tags_may_repeat_or_be_missing: the server no longer holds that order; call without a cursor to read every page again.",
			),
		still_being_read: stillBeingReadSchema,
	},
	examples: [{ limit: 20 }],
	handler: async (ctx, args) => {
		const prefix = args.prefix === undefined ? "" : tagKey(args.prefix.trim());
		const cursor = decodeCursor(args.cursor, "list_tags", CURSOR_PARTS);
		if (!cursor.ok) return fail(cursor.error);
		const after: CountedTag | undefined = cursor.value && { count: cursor.value[0] as number, tag: cursor.value[1] as string };
		// The walk the cursor's first page came from: kept by the server (for this scope only) while tags change.
		const pagedFrom = cursor.value && cursorOrder(args.cursor);
		const counted = await withinCallBudget(
			async (budget) => {
				// Looked at before the count: a note read meanwhile is named and may be counted too, never left out unnamed.
				const unread = await visibleNotesStillBeingRead(ctx.host, ctx.scope, budget, ctx.notesNotYetRead);
				// One tag past the page, to tell whether another page follows; in the order of the cursor's walk when it is not this one.
				const top = async (counts: TagCountWalk) => {
					const then = pagedFrom === undefined || pagedFrom === counts.id ? counts : ctx.tagNotes?.pagedWalk(ctx.scope, pagedFrom);
					const page = await counts.top(prefix, args.limit + 1, budget, after, then === counts ? undefined : then);
					const changed = then === counts ? undefined : then ? ("pages_keep_first_order" as const) : ("tags_may_repeat_or_be_missing" as const);
					return { ...page, changed, pagedWalk: then ?? counts };
				};
				const counted = ctx.tagNotes
					? await ctx.tagNotes.tagCounts(ctx.scope, budget, top)
					: { value: await top(await TagCountWalk.finished(ctx.host, ctx.scope, budget)) };
				return counted && { ...counted.value, unread };
			},
			{
				again: "resumes",
				narrowing: "The vault is too large to count its tags in one call; ask the vault's owner to exclude folders it need not share.",
			},
			ctx.callBudget,
		);
		if (!counted.ok) return counted;
		if (counted.value === null) return fail(NOTES_KEPT_MOVING);
		const { tags, total, unread, changed, pagedWalk } = counted.value;
		const { listed, leftOut, taken } = tagPageWithinCharacters(tags, (entry) => entry.tag, args.limit, MAX_LISTED_TAG_CHARS);
		// After the page's last tag (its place in the order paged), listed or too long for any page (one such would otherwise
		// end every page); a tag that only lacked room on this page starts the next one.
		const lastTaken = tags.length > taken ? (tags[taken - 1] as CountedTag | PlacedTag) : undefined;
		const last = lastTaken && tagPlace((lastTaken as Partial<PlacedTag>).place ?? lastTaken);
		// The walk kept for the pages after, and named in the cursor, only when the server keeps it (a server not following
		// changes does not).
		const keptForNextPage = last !== undefined && ctx.tagNotes?.keepPaged(ctx.scope, pagedWalk) === true;
		const order = keptForNextPage ? pagedWalk.id : undefined;
		const nextCursor = last ? { next_cursor: encodeCursor("list_tags", [last.count, last.tag], undefined, order) } : {};
		return ok({
			tags: listed.map(({ tag, count }) => ({ tag, count })),
			total,
			...nextCursor,
			...(leftOut > 0 ? { left_out: leftOut } : {}),
			...(changed ? { tags_order_changed: changed } : {}),
			...stillBeingReadField(unread, ctx.scope),
		});
	},
});
