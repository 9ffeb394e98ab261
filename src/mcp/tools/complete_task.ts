import { z } from "zod";
import { MAX_TASK_TEXT_LENGTH } from "../../config/limits";
import { isTaskStatusSymbol } from "../../markdown/taskLine";
import { completeTask } from "../../vault/taskWrites";
import { hashText } from "../../vault/writes";
import { defineTool } from "../tool";
import { fail, ok } from "../../result";

export const completeTaskTool = defineTool({
	name: "complete_task",
	title: "Complete a task",
	description:
		"Tick a task as the Tasks plugin does: [x] and a done date in the note's format; a recurring task gets its next occurrence above it, dates moved on. line and text from list_tasks (a mismatch lists the open tasks). status '-' cancels, ' ' reopens.",
	access: "write",
	annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
	inputSchema: {
		path: z.string(),
		line: z.number().int().min(0),
		text: z.string().min(1).max(MAX_TASK_TEXT_LENGTH),
		status: z.string().refine(isTaskStatusSymbol, "status is one character, e.g. 'x' or '-'.").default("x"),
	},
	outputSchema: {
		path: z.string(),
		line: z.number().int(),
		text: z.string(),
		next_task: z.object({ line: z.number().int(), text: z.string() }).optional(),
		hash: z.string(),
	},
	examples: [{ path: "Projects/Garden", line: 15, text: "Order seeds 📅 2026-12-05", status: "x" }],
	handler: async (ctx, args) => {
		const result = await completeTask(ctx.host, ctx.scope, { path: args.path, line: args.line, text: args.text, status: args.status });
		if (!result.ok) return fail(result.error);
		const done = result.value;
		const next = done.nextLine === -1 ? {} : { next_task: { line: done.nextLine, text: done.nextText } };
		return ok({ path: done.path, line: done.line, text: done.text, ...next, hash: hashText(done.noteText) });
	},
});
