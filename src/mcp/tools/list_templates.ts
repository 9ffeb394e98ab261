import { z } from "zod";
import { echoed } from "../../markdown/echo";
import { LIST_TEMPLATES_DEFAULT_LIMIT, LIST_TEMPLATES_MAX_LIMIT, RUNS_WHILE_RENAMED } from "../../config/limits";
import { templateSettings } from "../../vault/obsidianSettings";
import { countStillVisible, NoteListing, type ListedNote } from "../../vault/noteListing";
import { noteVisibility } from "../../vault/notes";
import { BY_PATH, decodeCursor, pageAfter, type KeyedOrder } from "../../vault/pageCursor";
import { withinCallBudget } from "../../vault/workBudget";
import { NOTES_KEPT_MOVING, untilNoneMovedOutOfSight } from "../../vault/renamesSeen";
import { checkFolderArgument } from "../../vault/paths";
import { isPathVisible, mayNameHidden } from "../../vault/scope";
import { defineTool } from "../tool";
import { cursorArgument } from "../cursorArgument";
import { fail, ok } from "../../result";

/** Templates come in path order; a page's cursor names the path the last one was listed at. */
const KEYED: KeyedOrder<ListedNote> = { tool: "list_templates", parts: BY_PATH, keyOf: (note) => [note.path] };

export const listTemplatesTool = defineTool({
	name: "list_templates",
	title: "List templates",
	description: "Notes in the folder of Obsidian's core Templates plugin, by path. Paged.",
	access: "read",
	annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
	inputSchema: {
		limit: z.number().int().min(1).max(LIST_TEMPLATES_MAX_LIMIT).default(LIST_TEMPLATES_DEFAULT_LIMIT),
		cursor: cursorArgument,
	},
	outputSchema: {
		folder: z.string(),
		templates: z.array(z.object({ path: z.string() })),
		total: z.number().int(),
		next_cursor: z.string().optional(),
		notice: z.string().optional(),
	},
	examples: [{ limit: 100 }],
	handler: async (ctx, args) => {
		const { folder: configured, unused } = await templateSettings(ctx.host);
		const noFolder = "No template folder is set in this vault. In Obsidian: Settings → Templates → Template folder location (the core Templates plugin).";
		// Its settings file is there but not used (over its bound, not JSON): the person learns why no folder is set.
		if (configured === "") return fail(unused ?? noFolder);
		// The same path rules as any folder: one outside the vault or hidden offers nothing; an excluded one lists nothing.
		const checked = checkFolderArgument(configured, ctx.scope);
		// Not quoted when it spells a folder hidden from this caller (a backslash between the names, or a `.` or `..` part before them, still names it).
		if (!checked.ok && mayNameHidden(configured, ctx.scope)) return fail(noFolder);
		if (!checked.ok) return fail(`The template folder set in this vault ("${echoed(configured)}") cannot be used: ${checked.error}`);
		if (checked.value === undefined) return fail(noFolder);
		const folder = checked.value;
		const after = decodeCursor(args.cursor, KEYED.tool, KEYED.parts);
		if (!after.ok) return fail(after.error);
		// list_notes' listing of the folder, in path order: kept between calls, and filtered and sorted in slices (the whole vault's notes were, in one piece).
		const listing = ctx.noteListing ?? new NoteListing(ctx.host);
		const listed = await withinCallBudget(
			// Counted again when a note moved out of sight meanwhile: one counted, then moved into an excluded folder, was still counted.
			(budget) =>
				untilNoneMovedOutOfSight(ctx.host, ctx.scope, RUNS_WHILE_RENAMED, async () => {
					const templates = await listing.list(ctx.scope, { folder, recursive: true }, "path", budget);
					// Scope again as the page is made and counted: a note renamed out of it while the listing was made is neither shown nor counted.
					const visible = noteVisibility(ctx.scope);
					return { templates, visible, total: await countStillVisible(templates, visible, budget) };
				}),
			{ again: "resumes", narrowing: "Set a smaller template folder in Obsidian (Settings → Templates)." },
			ctx.callBudget,
		);
		if (!listed.ok) return listed;
		if (listed.value === null) return fail(NOTES_KEPT_MOVING);
		const { templates, visible, total } = listed.value.value;
		// A folder in an excluded folder, or outside this token's folders, is as if none were set: its path would name what is hidden.
		if (templates.length === 0 && !isPathVisible(folder, ctx.scope)) return fail(noFolder);
		const { items, nextCursor } = pageAfter(templates, after.value, args.limit, KEYED);
		const shown = items.filter(({ file }) => visible(file.path));
		return ok({
			folder,
			templates: shown.map(({ file }) => ({ path: file.path })),
			total,
			...(nextCursor ? { next_cursor: nextCursor } : {}),
		});
	},
});
