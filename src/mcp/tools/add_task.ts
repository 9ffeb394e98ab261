import { z } from "zod";
import { MAX_TASK_TEXT_LENGTH } from "../../config/limits";
import { dateProblem, ISO_DATE } from "../../markdown/taskLine";
import { addTask } from "../../vault/taskWrites";
import { defineTool } from "../tool";
import { fail, ok } from "../../result";

export const addTaskTool = defineTool({
	name: "add_task",
	title: "Add a task",
	description:
		"Add a '- [ ]' task to the note at path (optionally under heading) or, without path, to today's daily note (made from the Daily Notes settings if missing). due is written as the Tasks plugin does: 📅, or [due:: …] in its Dataview format.",
	access: "write",
	annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
	inputSchema: {
		text: z.string().min(1).max(MAX_TASK_TEXT_LENGTH),
		due: z.string().regex(ISO_DATE, "due is YYYY-MM-DD, e.g. 2025-01-31.").optional(),
		path: z.string().optional(),
		heading: z.string().optional(),
	},
	outputSchema: {
		path: z.string(),
		line: z.number().int(),
		created_note: z.boolean(),
		notice: z.string().optional(),
	},
	examples: [{ text: "Water the herbs", due: "2026-12-01", path: "Projects/Garden", heading: "Tasks" }],
	handler: async (ctx, args) => {
		const text = args.text.trim();
		if (text === "" || /[\r\n]/.test(text)) return fail("A task is one non-empty line of text; add several tasks with several calls.");
		const badDue = args.due === undefined ? null : dateProblem(args.due);
		if (badDue !== null) return fail(badDue);

		const heading = args.heading?.trim() ? args.heading : undefined;
		const result = await addTask(ctx.host, ctx.scope, {
			path: args.path,
			text,
			due: args.due,
			heading,
			emptyNoteMode: ctx.dailyNotesAreOutlines ? "outliner" : "freeform",
		});
		if (!result.ok) return fail(result.error);
		const added = result.value;
		return ok({ path: added.path, line: added.line, created_note: added.createdNote, ...(added.notice === undefined ? {} : { notice: added.notice }) });
	},
});
