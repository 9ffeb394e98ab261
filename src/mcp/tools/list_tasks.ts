import { z } from "zod";
import { dateProblem, ISO_DATE } from "../../markdown/taskLine";
import { LIST_TASKS_DEFAULT_LIMIT, LIST_TASKS_MAX_LIMIT, MAX_TASK_TEXT_LENGTH } from "../../config/limits";
import { echoed } from "../../markdown/echo";
import { checkFolderArgument } from "../../vault/paths";
import { findNote } from "../../vault/notes";
import { findTaskPage, type TaskPlace } from "../../vault/tasks";
import { decodeCursor, encodeCursor, type KeyPart } from "../../vault/pageCursor";
import { withinCallBudget } from "../../vault/workBudget";
import { defineTool } from "../tool";
import { cursorArgument } from "../cursorArgument";
import { fail, ok } from "../../result";
import { stillBeingReadField, stillBeingReadSchema } from "../stillBeingRead";

/** Tasks come in path and line order; a page's cursor names the last one's path (as it was found) and line. */
const CURSOR_PARTS: readonly KeyPart[] = ["path", "ascending"];

const isoDate = z.string().regex(ISO_DATE, "Dates are YYYY-MM-DD, e.g. 2025-01-31.");

export const listTasksTool = defineTool({
	name: "list_tasks",
	title: "List tasks",
	description:
		"Checkbox tasks ('[ ]' open, '[x]' done, '[-]' cancelled). Dates are read from Tasks emoji (📅 ⏳ 🛫 ✅) and Dataview [due:: …] fields; due_before and due_after are exclusive. Paged.",
	access: "read",
	annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
	inputSchema: {
		status: z.enum(["open", "done", "cancelled", "other", "any"]).default("open"),
		folder: z.string().optional(),
		path: z.string().optional(),
		due_before: isoDate.optional(),
		due_after: isoDate.optional(),
		due_on: isoDate.optional(),
		limit: z.number().int().min(1).max(LIST_TASKS_MAX_LIMIT).default(LIST_TASKS_DEFAULT_LIMIT),
		cursor: cursorArgument,
	},
	outputSchema: {
		tasks: z.array(
			z.object({
				path: z.string(),
				line: z.number().int(),
				text: z.string(),
				status: z.enum(["open", "done", "cancelled", "other"]),
				status_char: z.string(),
				due: z.string().optional(),
				scheduled: z.string().optional(),
				start: z.string().optional(),
				done: z.string().optional(),
			}),
		),
		total: z.number().int(),
		next_cursor: z.string().optional(),
		still_being_read: stillBeingReadSchema,
	},
	examples: [{ status: "open", limit: 20 }],
	handler: async (ctx, args) => {
		const folderArgument = checkFolderArgument(args.folder, ctx.scope);
		if (!folderArgument.ok) return fail(folderArgument.error);
		const folder = folderArgument.value;
		let path: string | undefined;
		if (args.path !== undefined) {
			const found = findNote(ctx.host, ctx.scope, args.path);
			if (!found.ok) return fail(found.error);
			path = found.value.path;
		}
		for (const date of [args.due_before, args.due_after, args.due_on]) {
			const problem = date === undefined ? null : dateProblem(date);
			if (problem !== null) return fail(problem);
		}
		const cursor = decodeCursor(args.cursor, "list_tasks", CURSOR_PARTS);
		if (!cursor.ok) return fail(cursor.error);
		const after: TaskPlace | undefined = cursor.value && { path: cursor.value[0] as string, line: cursor.value[1] as number };
		const filter = { status: args.status, folder, path, dueBefore: args.due_before, dueAfter: args.due_after, dueOn: args.due_on };
		const tasks = await withinCallBudget(
			(budget) =>
				findTaskPage(
					ctx.host,
					ctx.scope,
					filter,
					args.limit,
					budget,
					undefined,
					{
						notesWithTasks: ctx.notesWithTasks,
						notesNotYetRead: ctx.notesNotYetRead,
					},
					after,
				),
			{ again: "resumes", narrowing: "Pass a folder or a path to list the tasks of part of the vault." },
			ctx.callBudget,
		);
		if (!tasks.ok) return tasks;
		const { stillBeingRead, tasks: listed, total, next } = tasks.value;
		// Longer texts cut, with their length: complete_task takes none longer, and one planted task line of
		// megabytes put every list of the vault's tasks over MAX_RESPONSE_BYTES, hiding all of them.
		const cut = listed.map((task) => (task.text.length > MAX_TASK_TEXT_LENGTH ? { ...task, text: echoed(task.text, MAX_TASK_TEXT_LENGTH) } : task));
		const nextCursor = next ? { next_cursor: encodeCursor("list_tasks", [next.path, next.line]) } : {};
		return ok({ tasks: cut, total, ...nextCursor, ...stillBeingReadField(stillBeingRead, ctx.scope) });
	},
});
