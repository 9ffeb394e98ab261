import { MAX_TASK_TEXT_LENGTH } from "../../config/limits";
import { z } from "zod";
import { dateProblem, ISO_DATE } from "../../markdown/taskLine";
import { appendToEnd, appendUnderHeading, detectFormat } from "../../markdown/outline";
import { dailyNoteSettings, indentationSettings, taskDateFormat } from "../../vault/config";
import { dailyNotePath, fillTemplate, readDailyTemplate } from "../../vault/dailyNotes";
import { findNote } from "../../vault/notes";
import { checkNewNotePath, createNoteFile, editNote, NoteExistsError, noteStyle } from "../../vault/writes";
import { defineTool } from "../tool";

export const addTaskTool = defineTool({
	name: "add_task",
	title: "Add a task",
	description:
		"Add one '- [ ]' task, by default to today's daily note (found, or created from the Daily Notes settings and template if missing), or to the note at `path`, optionally under `heading`. `due` (YYYY-MM-DD) is written in the format list_tasks reads: the Tasks plugin's emoji (📅) by default, Dataview's [due:: …] if the Tasks plugin is set to Dataview format. Returns the note and the task's 0-based line.",
	access: "write",
	annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
	inputSchema: {
		text: z.string().min(1).max(MAX_TASK_TEXT_LENGTH).describe("The task, one line."),
		due: z.string().regex(ISO_DATE, "due is YYYY-MM-DD, e.g. 2025-01-31.").optional(),
		path: z.string().optional().describe("An existing note; omit for today's daily note."),
		heading: z.string().optional().describe("Add at the end of this heading's section."),
	},
	outputSchema: {
		path: z.string(),
		line: z.number().int(),
		created_note: z.boolean(),
	},
	examples: [{ text: "Water the herbs", due: "2026-12-01", path: "Projects/Garden", heading: "Tasks" }],
	handler: async (ctx, args) => {
		const { host } = ctx;
		const text = args.text.trim();
		if (text === "" || /[\r\n]/.test(text)) return { fixable: "A task is one non-empty line of text; add several tasks with several calls." };
		const badDue = args.due === undefined ? null : dateProblem(args.due);
		if (badDue !== null) return { fixable: badDue };

		let file = null;
		let createdNote = false;
		if (args.path !== undefined) {
			const found = findNote(host, ctx.scope, args.path);
			if ("error" in found) return { fixable: found.error };
			file = found.value;
		} else {
			const settings = await dailyNoteSettings(host);
			const now = new Date();
			const checked = checkNewNotePath(dailyNotePath(settings, now), ctx.scope);
			if ("error" in checked) return { fixable: `Today's daily note cannot be written: ${checked.error}` };
			file = host.vault.getFileByPath(checked.value);
			if (!file) {
				const title = checked.value.slice(checked.value.lastIndexOf("/") + 1, -".md".length);
				try {
					file = await createNoteFile(host, checked.value, fillTemplate(await readDailyTemplate(host, ctx.scope, settings), settings, now, title));
					createdNote = true;
				} catch (error) {
					// Another call made today's note a moment ago: add the task to that one.
					const made = error instanceof NoteExistsError ? host.vault.getFileByPath(checked.value) : null;
					if (!made) throw error;
					file = made;
				}
			}
		}

		const current = await host.vault.read(file);
		const { format, mode } = current.trim() === "" ? { format: detectFormat(current, await indentationSettings(host)), mode: ctx.dailyNotesAreOutlines ? ("outliner" as const) : ("freeform" as const) } : await noteStyle(host, file, current);
		const dueText = args.due === undefined ? "" : (await taskDateFormat(host)) === "dataview" ? ` [due:: ${args.due}]` : ` 📅 ${args.due}`;
		const taskLine = `${format.marker} [ ] ${text}${dueText}`;
		const heading = args.heading?.trim() ? args.heading : undefined;
		const result = await editNote(host, file, (note) => (heading === undefined ? appendToEnd(note, taskLine, mode, format) : appendUnderHeading(note, heading, taskLine, mode, format)));
		if ("error" in result) return { fixable: result.error };
		return { ok: { path: file.path, line: result.line, created_note: createdNote } };
	},
});
