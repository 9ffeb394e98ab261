import { z } from "zod";
import { MAX_REQUEST_BODY_BYTES } from "../../config/limits";
import { findNote } from "../../vault/notes";
import { appendToNote } from "../../vault/noteEdits";
import { hashText } from "../../vault/writes";
import { defineTool } from "../tool";
import { fail, ok } from "../../result";

export const appendToNoteTool = defineTool({
	name: "append_to_note",
	title: "Append to a note",
	description:
		"Append to the end of a note, or of the section under heading (case-insensitive; 'Parent > Child' for a name used twice). A missing or ambiguous heading is an error listing the headings; none is ever created. In an outline note lines become bullets in the note's marker and indentation; elsewhere paragraphs.",
	access: "write",
	annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
	inputSchema: {
		path: z.string(),
		content: z.string().max(MAX_REQUEST_BODY_BYTES),
		heading: z.string().optional(),
	},
	outputSchema: {
		path: z.string(),
		mode: z.enum(["outliner", "freeform"]),
		hash: z.string(),
	},
	examples: [{ path: "Welcome", content: "Added by the registry test." }],
	handler: async (ctx, args) => {
		const found = findNote(ctx.host, ctx.scope, args.path);
		if (!found.ok) return fail(found.error);
		const file = found.value;
		const heading = args.heading?.trim() ? args.heading : undefined;
		const result = await appendToNote(ctx.host, file, args.content, heading);
		if (!result.ok) return fail(result.error);
		return ok({ path: file.path, mode: result.value.style.mode, hash: hashText(result.value.text) });
	},
});
