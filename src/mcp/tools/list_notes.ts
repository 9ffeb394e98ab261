import { z } from "zod";
import { LIST_NOTES_DEFAULT_LIMIT, LIST_NOTES_MAX_LIMIT, LIST_NOTES_PAGE_CHECK_MASK, RUNS_WHILE_RENAMED } from "../../config/limits";
import { checkFolderArgument } from "../../vault/paths";
import { countStillVisible, NoteListing, type ListedNote, type ListingOrder } from "../../vault/noteListing";
import { noteVisibility } from "../../vault/notes";
import { BY_PATH, decodeCursor, pageAfter, type KeyedOrder } from "../../vault/pageCursor";
import { withinCallBudget, type CallBudget } from "../../vault/workBudget";
import { NOTES_KEPT_MOVING, untilNoneMovedOutOfSight } from "../../vault/renamesSeen";
import { defineTool } from "../tool";
import { cursorArgument } from "../cursorArgument";
import { fail, ok } from "../../result";

/** A page's cursor names the last note's path, or its time and path newest first: the path and time it was listed by. */
const KEYED: Record<ListingOrder, KeyedOrder<ListedNote>> = {
	path: { tool: "list_notes", parts: BY_PATH, keyOf: (note) => [note.path] },
	modified: { tool: "list_notes", parts: ["descending", "path"], keyOf: (note) => [note.mtime, note.path] },
};

export const listNotesTool = defineTool({
	name: "list_notes",
	title: "List notes",
	description: "Notes, optionally in one folder, by path or newest first. Paged.",
	access: "read",
	annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
	inputSchema: {
		folder: z.string().optional(),
		recursive: z.boolean().default(true),
		sort: z.enum(["path", "modified"]).default("path"),
		limit: z.number().int().min(1).max(LIST_NOTES_MAX_LIMIT).default(LIST_NOTES_DEFAULT_LIMIT),
		cursor: cursorArgument,
	},
	outputSchema: {
		notes: z.array(z.object({ path: z.string(), modified: z.string(), size: z.number().int() })),
		total: z.number().int(),
		next_cursor: z.string().optional(),
	},
	examples: [
		{ recursive: true, sort: "path", limit: 5 },
		{ folder: "Projects", recursive: true, sort: "modified", limit: 10 },
	],
	handler: async (ctx, args) => {
		const folderArgument = checkFolderArgument(args.folder, ctx.scope);
		if (!folderArgument.ok) return fail(folderArgument.error);
		const folder = folderArgument.value;
		const keyed = KEYED[args.sort];
		const after = decodeCursor(args.cursor, keyed.tool, keyed.parts);
		if (!after.ok) return fail(after.error);
		const listing = ctx.noteListing ?? new NoteListing(ctx.host);
		const filter = folder === undefined ? { recursive: args.recursive } : { folder, recursive: args.recursive };
		const afterKey = after.value;
		// Scope again for each note of the page, as it is built: a note renamed out of it while the listing was made is left out.
		const pageOfNotes = async (budget: CallBudget) => {
			const notes = await listing.list(ctx.scope, filter, args.sort, budget);
			const { items, nextCursor } = pageAfter(notes, afterKey, args.limit, keyed);
			// The page is built in its own turn and in slices: with the listing kept, a page of a thousand notes is most of a call.
			await budget.nextTurn();
			const visible = noteVisibility(ctx.scope);
			const answer: Array<{ path: string; modified: string; size: number }> = [];
			for (const [index, { file }] of items.entries()) {
				if ((index & LIST_NOTES_PAGE_CHECK_MASK) === LIST_NOTES_PAGE_CHECK_MASK && budget.due()) await budget.checkpoint();
				if (visible(file.path)) answer.push({ path: file.path, modified: new Date(file.stat.mtime).toISOString(), size: file.stat.size });
			}
			// Counted again as the page leaves: a note moved out of sight meanwhile, on this page or another, is not in the total either.
			const total = await countStillVisible(notes, visible, budget);
			return { notes: answer, total, ...(nextCursor ? { next_cursor: nextCursor } : {}) };
		};
		// A note moved out of sight (into an excluded folder, say) after its entry was made or counted was named, with its
		// size, and counted at the path it had left: the page is made again then.
		const answered = await withinCallBudget(
			(budget) => untilNoneMovedOutOfSight(ctx.host, ctx.scope, RUNS_WHILE_RENAMED, () => pageOfNotes(budget)),
			{ again: "resumes", narrowing: "Pass a folder to list part of the vault." },
			ctx.callBudget,
		);
		if (!answered.ok) return answered;
		if (answered.value === null) return fail(NOTES_KEPT_MOVING);
		return ok(answered.value.value);
	},
});
