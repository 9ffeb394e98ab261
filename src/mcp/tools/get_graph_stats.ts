import { GRAPH_TOP_LINKED, RUNS_WHILE_RENAMED } from "../../config/limits";
import { z } from "zod";
import { graphStats } from "../../vault/links";
import { TagCountWalk } from "../../vault/tagCounts";
import { withinCallBudget } from "../../vault/workBudget";
import { NOTES_KEPT_MOVING, untilNoneMovedOutOfSight } from "../../vault/renamesSeen";
import { defineTool } from "../tool";
import { fail, ok } from "../../result";
import { stillBeingReadField, stillBeingReadSchema } from "../stillBeingRead";
import { visibleNotesStillBeingRead } from "../../vault/notesStillBeingRead";

export const getGraphStatsTool = defineTool({
	name: "get_graph_stats",
	title: "Graph statistics",
	description: "Counts of notes, links, unresolved links, orphans (no links in or out) and tags, and the most linked-to notes.",
	access: "read",
	annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
	inputSchema: {},
	outputSchema: {
		notes: z.number().int(),
		links: z.number().int(),
		unresolved_links: z.number().int(),
		orphans: z.number().int(),
		top_linked: z.array(z.object({ path: z.string(), backlinks: z.number().int() })),
		tags: z.number().int(),
		still_being_read: stillBeingReadSchema,
	},
	examples: [{}],
	handler: async (ctx) => {
		// The graph is counted, then the tags, with pauses: a note renamed meanwhile (into an excluded folder, say) was
		// named among the most linked, and counted, at the path it had left. The counts are made again then.
		const stats = await withinCallBudget(
			(budget) =>
				untilNoneMovedOutOfSight(ctx.host, ctx.scope, RUNS_WHILE_RENAMED, async () => ({
					// Looked at before the count: a note read meanwhile is named and may be counted too, never left out unnamed.
					unread: await visibleNotesStillBeingRead(ctx.host, ctx.scope, budget, ctx.notesNotYetRead),
					...(await (ctx.graphStats?.stats(ctx.scope, GRAPH_TOP_LINKED, budget) ?? graphStats(ctx.host, ctx.scope, GRAPH_TOP_LINKED, budget))),
					tags: ctx.tagNotes
						? await ctx.tagNotes.tagCounts(ctx.scope, budget, (counts) => counts.distinct)
						: { value: (await TagCountWalk.finished(ctx.host, ctx.scope, budget)).distinct },
				})),
			{ again: "resumes", narrowing: "The vault is too large to count in one call; ask the vault's owner to exclude folders it need not share." },
			ctx.callBudget,
		);
		if (!stats.ok) return stats;
		if (stats.value === null) return fail(NOTES_KEPT_MOVING);
		const { unread, tags, ...counted } = stats.value.value;
		if (tags === null) return fail(NOTES_KEPT_MOVING);
		return ok({ ...counted, tags: tags.value, ...stillBeingReadField(unread, ctx.scope) });
	},
});
