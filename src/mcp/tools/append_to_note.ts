import { z } from "zod";
import { MAX_REQUEST_BODY_BYTES } from "../../config/limits";
import { findNote } from "../../vault/notes";
import { appendToNote } from "../../vault/noteEdits";
import { hashText } from "../../vault/writes";
import { defineTool } from "../tool";

export const appendToNoteTool = defineTool({
	name: "append_to_note",
	title: "Append to a note",
	description:
		"Add content to the end of a note, or to the end of the section under `heading` (matched case-insensitively; a missing or repeated heading is an error listing the headings, and no heading is ever created). The content takes the note's own format: in an outline (mode: outliner, or a note that is only a list) every line becomes a bullet, indentation becomes nesting, and the note's marker and indentation are used; in other notes it is added as paragraphs after a blank line.",
	access: "write",
	annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
	inputSchema: {
		path: z.string().describe("Vault path or link text of an existing note."),
		content: z.string().max(MAX_REQUEST_BODY_BYTES),
		heading: z.string().optional().describe("Append at the end of this heading's section instead of the note's end."),
	},
	outputSchema: {
		path: z.string(),
		mode: z.enum(["outliner", "freeform"]),
		hash: z.string(),
	},
	examples: [{ path: "Welcome", content: "Added by the registry test." }],
	handler: async (ctx, args) => {
		const found = findNote(ctx.host, ctx.scope, args.path);
		if ("error" in found) return { fixable: found.error };
		const file = found.value;
		const heading = args.heading?.trim() ? args.heading : undefined;
		const result = await appendToNote(ctx.host, file, args.content, heading);
		if ("error" in result) return { fixable: result.error };
		return { ok: { path: file.path, mode: result.style.mode, hash: hashText(result.text) } };
	},
});
