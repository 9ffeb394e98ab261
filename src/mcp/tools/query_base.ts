import { z } from "zod";
import {
	RUNS_WHILE_RENAMED,
	BASES_DEFAULT_ROWS,
	BASES_MAX_FILE_BYTES,
	BASES_MAX_ROWS,
	CUT_TO_FIT_SHORTEST_BYTES,
	VAULT_WIDE_SLICE_MS,
} from "../../config/limits";
import { SliceClock } from "../../markdown/steps";
import { parseBaseFileSteps, readsBacklinks, readsOtherNotes } from "../../bases/baseFile";
import { runBaseQuery } from "../../bases/query";
import { decodeCursor, encodeCursor, type KeyPart } from "../../vault/pageCursor";
import { baseVault, fileAsAnswered, findFileWithExtension, readBoundedFile } from "../../vault/bases";
import { yieldToEventLoop } from "../../vault/workBudget";
import { defineTool } from "../tool";
import { cursorArgument } from "../cursorArgument";
import { fail, ok } from "../../result";
import { NOTES_KEPT_MOVING, untilNoneMovedOutOfSight } from "../../vault/renamesSeen";
import { CUTTABLE_ANSWER_BYTES, smallestResultBytes } from "../cutToFit";
import { stillBeingReadField, stillBeingReadSchema } from "../stillBeingRead";
import { visibleNotesStillBeingRead } from "../../vault/notesStillBeingRead";

/** A page's cursor: the path of its last row, of the row after it, and the last row's position (`RowsPlace`). */
const CURSOR_PARTS: readonly KeyPart[] = ["path", "path", "ascending"];

/** The room kept for the cursor beside the rows, counted as the rows' strings are (each at most CUT_TO_FIT_SHORTEST_BYTES). */
const NEXT_CURSOR_BYTES = smallestResultBytes({ next_cursor: "x".repeat(CUT_TO_FIT_SHORTEST_BYTES) });

export const queryBaseTool = defineTool({
	name: "query_base",
	title: "Query a base",
	description: "Runs a view of a Bases file (.base) as Obsidian would: rows of path and the view's columns, filtered, sorted, grouped and limited. Paged.",
	access: "read",
	annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
	inputSchema: {
		path: z.string(),
		view: z.string().optional(),
		limit: z.number().int().min(1).max(BASES_MAX_ROWS).default(BASES_DEFAULT_ROWS),
		cursor: cursorArgument,
	},
	outputSchema: {
		path: z.string(),
		view: z.string(),
		views: z.array(z.string()),
		columns: z.array(z.object({ id: z.string(), name: z.string() })),
		rows: z.array(
			z.object({
				path: z.string(),
				group: z.unknown().optional(),
				values: z.record(z.string(), z.unknown()),
				errors: z.record(z.string(), z.string()).optional(),
			}),
		),
		total: z.number().int(),
		next_cursor: z.string().optional(),
		truncated: z.boolean().describe("Rows follow this page: next_cursor reaches them, up to the view's limit"),
		filter_errors: z.array(z.object({ path: z.string(), error: z.string() })),
		filter_errors_total: z.number().int(),
		still_being_read: stillBeingReadSchema,
	},
	examples: [
		{ path: "Overview.base", limit: 100 },
		{ path: "Overview", view: "All notes", limit: 10 },
	],
	handler: async (ctx, args) => {
		const found = findFileWithExtension(ctx.host, ctx.scope, args.path, "base");
		if (!found.ok) return fail(found.error);
		const text = await readBoundedFile(ctx.host, found.value, BASES_MAX_FILE_BYTES);
		// After each wait: a base moved into an excluded folder meanwhile is not named there.
		const read = fileAsAnswered(ctx.host, ctx.scope, args.path, "base", found.value);
		if (!read.ok) return read;
		if (!text.ok) return fail(text.error);
		// Slices as short as every vault-wide call's, taking turns with the others in flight (a slice each per turn).
		const clock = new SliceClock(ctx.callBudget?.sliceMs ?? VAULT_WIDE_SLICE_MS, ctx.callBudget?.pause ?? yieldToEventLoop);
		const config = await clock.run(parseBaseFileSteps(text.value));
		const parsed = fileAsAnswered(ctx.host, ctx.scope, args.path, "base", found.value);
		if (!parsed.ok) return parsed;
		if (!config.ok) return fail(`${parsed.value.path}: ${config.error}`);
		// A cursor names rows of one view of one base: one passed with another would page through a different order.
		const viewName = args.view ?? config.value.views[0]?.name ?? "";
		const list = `${found.value.path}\n${viewName}`;
		const after = decodeCursor(args.cursor, "query_base", CURSOR_PARTS, list);
		if (!after.ok) return fail(after.error);
		// Looked at before the query: a note read meanwhile is named and may be a row too, never left out unnamed.
		const unread = await visibleNotesStillBeingRead(ctx.host, ctx.scope, clock, ctx.notesNotYetRead);
		// Rows are built while the answer, its long texts cut short, fits beside its path and the notes still being read.
		const besideRows = { path: parsed.value.path, ...stillBeingReadField(unread, ctx.scope) };
		const backlinks = readsBacklinks(config.value);
		const query = async () => {
			const { vault, files, fileFor } = await baseVault(ctx.host, ctx.scope, clock, { backlinks });
			return runBaseQuery(config.value, vault, files, fileFor(found.value), {
				view: args.view,
				limit: args.limit,
				now: Date.now(),
				pause: () => clock.checkpoint(),
				due: () => clock.due(),
				fit: { maxBytes: CUTTABLE_ANSWER_BYTES - smallestResultBytes(besideRows) - NEXT_CURSOR_BYTES, smallestBytes: smallestResultBytes },
				...(after.value ? { after: { last: after.value[0] as string, next: after.value[1] as string, position: after.value[2] as number } } : {}),
			});
		};
		// A row's own note is checked as the answer is made; other notes its values name (a backlink, a link's file) are named at the
		// paths they had when read: one moved out of sight meanwhile (into an excluded folder, say) was named at the path it had left. Run again then.
		const ran = readsOtherNotes(config.value) ? await untilNoneMovedOutOfSight(ctx.host, ctx.scope, RUNS_WHILE_RENAMED, query) : { value: await query() };
		if (ran === null) return fail(NOTES_KEPT_MOVING);
		const result = ran.value;
		const answered = fileAsAnswered(ctx.host, ctx.scope, args.path, "base", found.value);
		if (!answered.ok) return answered;
		if (!result.ok) return fail(result.error);
		const { next, ...rows } = result.value;
		const nextCursor = next ? { next_cursor: encodeCursor("query_base", [next.last, next.next, next.position], list) } : {};
		return ok({ path: answered.value.path, ...rows, ...nextCursor, ...stillBeingReadField(unread, ctx.scope) });
	},
});
