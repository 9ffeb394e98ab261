import { z } from "zod";
import { LIST_NOTES_DEFAULT_LIMIT, LIST_NOTES_MAX_LIMIT } from "../../config/limits";
import { checkFolderArgument } from "../../vault/paths";
import { comparePaths, decodeCursor, page, visibleNotes } from "../../vault/notes";
import { isInFolder } from "../../vault/scope";
import { sortInSlices, withinCallBudget } from "../../vault/workBudget";
import { defineTool } from "../tool";
import { fail, ok } from "../../result";

export const listNotesTool = defineTool({
	name: "list_notes",
	title: "List notes",
	description: "Notes, optionally in one folder, by path or newest first. Paged: pass next_cursor back as cursor.",
	access: "read",
	annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
	inputSchema: {
		folder: z.string().optional(),
		recursive: z.boolean().default(true),
		sort: z.enum(["path", "modified"]).default("path"),
		limit: z.number().int().min(1).max(LIST_NOTES_MAX_LIMIT).default(LIST_NOTES_DEFAULT_LIMIT),
		cursor: z.string().optional(),
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
		const offset = decodeCursor(args.cursor);
		if (!offset.ok) return fail(offset.error);
		const listed = visibleNotes(ctx.host, ctx.scope).filter((file) => {
			if (folder === undefined) return args.recursive || !file.path.includes("/");
			if (!isInFolder(file.path, folder)) return false;
			return args.recursive || !file.path.slice(folder.length + 1).includes("/");
		});
		type Listed = (typeof listed)[number];
		const order =
			args.sort === "modified"
				? (a: Listed, b: Listed) => b.stat.mtime - a.stat.mtime || comparePaths(a.path, b.path)
				: (a: Listed, b: Listed) => comparePaths(a.path, b.path);
		const sorted = await withinCallBudget((budget) => sortInSlices(listed, order, budget), "Pass a folder to list part of the vault.", ctx.callBudget);
		if (!sorted.ok) return sorted;
		const notes = sorted.value;
		const { items, nextCursor } = page(notes, offset.value, args.limit);
		return ok({
			notes: items.map((file) => ({ path: file.path, modified: new Date(file.stat.mtime).toISOString(), size: file.stat.size })),
			total: notes.length,
			...(nextCursor ? { next_cursor: nextCursor } : {}),
		});
	},
});
