import { z } from "zod";
import { MAX_REQUEST_BODY_BYTES } from "../../config/limits";
import { findNote } from "../../vault/notes";
import { insertUnderBulletInNote } from "../../vault/noteEdits";
import { hashText } from "../../vault/writes";
import { defineTool } from "../tool";
import { fail, ok } from "../../result";

export const insertUnderBulletTool = defineTool({
	name: "insert_under_bullet",
	title: "Insert under a bullet",
	description:
		"In an outline note, add content as the last children of the one bullet whose text contains `bullet` (case-insensitive; none or several is an error listing them). Lines become bullets; indentation becomes nesting.",
	access: "write",
	annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
	inputSchema: {
		path: z.string(),
		bullet: z.string(),
		content: z.string().max(MAX_REQUEST_BODY_BYTES),
	},
	outputSchema: {
		path: z.string(),
		parent_line: z.number().int(),
		hash: z.string(),
	},
	examples: [{ path: "Daily/2026-11-30", bullet: "Planned the week", content: "Added by the registry test" }],
	handler: async (ctx, args) => {
		const found = findNote(ctx.host, ctx.scope, args.path);
		if (!found.ok) return fail(found.error);
		const file = found.value;
		const result = await insertUnderBulletInNote(ctx.host, file, args.bullet, args.content);
		if (!result.ok) return fail(result.error);
		return ok({ path: file.path, parent_line: result.value.line, hash: hashText(result.value.text) });
	},
});
