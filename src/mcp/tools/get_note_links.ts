import { z } from "zod";
import { BACKLINKS_DEFAULT_LIMIT, BACKLINKS_MAX_LIMIT, NOTE_LINKS_MAX_ENTRIES } from "../../config/limits";
import { backlinks, noteLinks, noteLinksAsNow } from "../../vault/links";
import { withinCallBudget, type CallBudget, type StoppedCallAgain } from "../../vault/workBudget";
import { findNote, noteAsAnswered } from "../../vault/notes";
import { cursorOrder, decodeCursor, encodeCursor, pageAfter, type CursorKey, type KeyedOrder } from "../../vault/pageCursor";
import type { BacklinksPage } from "../../vault/backlinkOrder";
import { defineTool } from "../tool";
import { cursorArgument } from "../cursorArgument";
import { fail, ok } from "../../result";
import { stillBeingReadField, stillBeingReadSchema } from "../stillBeingRead";
import { visibleNotesStillBeingRead } from "../../vault/notesStillBeingRead";

/**
 * Backlinks come most links first, then by path (`backlinks`); a page's cursor names the last one's count and path, and
 * the kept walk's order it was given in (`BacklinksWalk.page`), so pages read while counts change give each note once.
 */
const KEYED: KeyedOrder<{ path: string; count: number }> = { tool: "get_note_links", parts: ["descending", "path"], keyOf: ({ path, count }) => [count, path] };

export const getNoteLinksTool = defineTool({
	name: "get_note_links",
	title: "Links of a note",
	description: `A note's outgoing links (target: path or null; line: null in frontmatter), unresolved links (${NOTE_LINKS_MAX_ENTRIES} each at most; *_total counts all) and a page of notes linking to it, most first (backlinks_total). Paged.`,
	access: "read",
	annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
	inputSchema: {
		path: z.string(),
		limit: z.number().int().min(1).max(BACKLINKS_MAX_LIMIT).default(BACKLINKS_DEFAULT_LIMIT),
		cursor: cursorArgument,
	},
	outputSchema: {
		path: z.string(),
		outgoing: z.array(z.object({ link: z.string(), target: z.string().nullable(), line: z.number().int().nullable() })),
		backlinks: z.array(z.object({ path: z.string(), count: z.number().int() })),
		backlinks_total: z.number().int(),
		next_cursor: z.string().optional(),
		outgoing_total: z.number().int(),
		unresolved: z.array(z.string()),
		unresolved_total: z.number().int(),
		truncated: z.boolean().describe(`Outgoing or unresolved links past the first ${NOTE_LINKS_MAX_ENTRIES} were left out`),
		backlinks_order_changed: z
			.enum(["pages_keep_first_order", "notes_may_repeat_or_be_missing"])
			.optional()
			.describe(
				"Link counts changed since the cursor's first page. pages_keep_first_order: these pages keep that page's order, so each linking note still comes once (counts are as now); call without a cursor for the order now. notes_may_repeat_or_be_missing: the server no longer holds that order; call without a cursor to read every page again.",
			),
		still_being_read: stillBeingReadSchema,
	},
	examples: [{ path: "Welcome", limit: 100 }],
	handler: async (ctx, args) => {
		const found = findNote(ctx.host, ctx.scope, args.path);
		if (!found.ok) return fail(found.error);
		const after = decodeCursor(args.cursor, KEYED.tool, KEYED.parts);
		if (!after.ok) return fail(after.error);
		const file = found.value;
		const cursor = after.value && { after: { count: after.value[0] as number, path: after.value[1] as string }, order: cursorOrder(args.cursor) };
		// The server keeps both walks where they stopped (KeptNoteLinks): over the note's own links, and over the vault's
		// linking files for its backlinks. A stopped call gets further when called again only if it took some of them (one
		// slice or more, then kept): otherwise it would be stopped there again, and must not say otherwise.
		let keptWork: { budget: CallBudget; before: number } | null = null;
		const again = (): StoppedCallAgain => (ctx.noteLinks && keptWork && keptWork.budget.workDone > keptWork.before ? "resumes" : "redoes");
		const links = await withinCallBudget(
			async (budget) => {
				// Any of them may link here: looked at before the backlinks, so a note read meanwhile is named, never left out unnamed.
				const unread = await visibleNotesStillBeingRead(ctx.host, ctx.scope, budget, ctx.notesNotYetRead);
				keptWork = { budget, before: budget.workDone };
				const own = await (ctx.noteLinks?.links(ctx.scope, file, NOTE_LINKS_MAX_ENTRIES, budget) ??
					noteLinks(ctx.host, ctx.scope, file, NOTE_LINKS_MAX_ENTRIES, budget));
				// A page of the kept walk's order (no entry made for every linking note), or of the whole answer without a keeper.
				const paged = ctx.noteLinks && (await ctx.noteLinks.backlinksPage(ctx.scope, file.path, args.limit, cursor, budget));
				return { unread, own, incoming: paged ?? wholePage(await backlinks(ctx.host, ctx.scope, file.path, budget), after.value, args.limit) };
			},
			{ again, narrowing: "read_note shows the note's text." },
			ctx.callBudget,
		);
		if (!links.ok) return links;
		// After the call's last pause: a note moved into an excluded folder meanwhile is not named there.
		const answered = noteAsAnswered(ctx.host, ctx.scope, args.path, file);
		if (!answered.ok) return answered;
		// Likewise a link target moved or deleted meanwhile is not named at the path it left (the backlinks, counted last,
		// leave out a linking note moved or deleted as they answer: no pause since).
		const { outgoing, outgoingTotal, unresolved, unresolvedTotal } = noteLinksAsNow(ctx.host, ctx.scope, links.value.own, NOTE_LINKS_MAX_ENTRIES);
		const { items, total, next, nextOrder, orderChanged } = links.value.incoming;
		const nextCursor = next && encodeCursor(KEYED.tool, KEYED.keyOf(next.after), undefined, nextOrder);
		return ok({
			path: answered.value.path,
			outgoing,
			outgoing_total: outgoingTotal,
			backlinks: items,
			backlinks_total: total,
			...(nextCursor ? { next_cursor: nextCursor } : {}),
			...(orderChanged ? { backlinks_order_changed: ORDER_CHANGED[orderChanged] } : {}),
			unresolved,
			unresolved_total: unresolvedTotal,
			// Backlinks are paged; the note's own links are cut.
			truncated: outgoingTotal > outgoing.length || unresolvedTotal > unresolved.length,
			...stillBeingReadField(links.value.unread, ctx.scope),
		});
	},
});

const ORDER_CHANGED = { kept: "pages_keep_first_order", lost: "notes_may_repeat_or_be_missing" } as const;

/** A page of a whole backlinks answer (no keeper: each call walks them whole), by the cursor's key alone. */
function wholePage(incoming: Array<{ path: string; count: number }>, after: CursorKey | undefined, limit: number): BacklinksPage & { nextOrder?: string } {
	const { items, nextCursor } = pageAfter(incoming, after, limit, KEYED);
	const last = items.at(-1);
	return { items, total: incoming.length, ...(nextCursor && last ? { next: { after: last, version: 0 } } : {}) };
}
