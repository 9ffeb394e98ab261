import { z } from "zod";
import { MAX_NOTE_CONTENT_BYTES } from "../../config/limits";
import { isNoteInScope } from "../../vault/scope";
import { truncateAsJson } from "../../vault/notes";
import { defineTool } from "../tool";
import { fail, ok } from "../../result";

export const getActiveNoteTool = defineTool({
	name: "get_active_note",
	title: "The note open in Obsidian",
	description: "The path of the note in Obsidian's focused tab and the text selected in it, if any. read_note reads the note.",
	access: "read",
	needs: "workspace",
	annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
	inputSchema: {},
	outputSchema: {
		path: z.string(),
		selection: z.string().optional(),
		truncated: z
			.literal(true)
			.optional()
			.describe(`The selection was cut at ${MAX_NOTE_CONTENT_BYTES / 1024} KiB as JSON`),
	},
	examples: [{}],
	handler: (ctx) => {
		const workspace = ctx.host.workspace;
		if (!workspace) return Promise.resolve(fail("The open note is known only while this server runs inside Obsidian."));
		const file = workspace.getActiveFile();
		// A note this token may not see is answered exactly like no note at all.
		if (!file || file.extension !== "md" || !isNoteInScope(file.path, ctx.scope)) {
			return Promise.resolve(fail("No note is open in Obsidian's focused tab. Ask the person to open one, or use list_notes or search_notes."));
		}
		const editor = workspace.activeEditor;
		const selected = editor?.file?.path === file.path ? (editor.editor?.getSelection() ?? "") : "";
		if (selected === "") return Promise.resolve(ok({ path: file.path }));
		const selection = truncateAsJson(selected, MAX_NOTE_CONTENT_BYTES);
		return Promise.resolve(ok({ path: file.path, selection, ...(selection.length < selected.length ? { truncated: true as const } : {}) }));
	},
});
