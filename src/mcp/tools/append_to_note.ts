import { z } from "zod";
import { MAX_REQUEST_BODY_BYTES } from "../../config/limits";
import { appendToEnd, appendUnderHeading } from "../../markdown/outline";
import { findNote } from "../../vault/notes";
import { editNote, hashText, noteStyle } from "../../vault/writes";
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
		const { format, mode } = await noteStyle(ctx.host, file, await ctx.host.vault.read(file));
		const heading = args.heading?.trim() ? args.heading : undefined;
		const result = await editNote(ctx.host, file, (text) => (heading === undefined ? appendToEnd(text, args.content, mode, format) : appendUnderHeading(text, heading, args.content, mode, format)));
		if ("error" in result) return { fixable: result.error };
		return { ok: { path: file.path, mode, hash: hashText(result.text) } };
	},
});
