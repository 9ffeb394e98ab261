import { z } from "zod";
import { MAX_REQUEST_BODY_BYTES } from "../../config/limits";
import { findNote } from "../../vault/notes";
import { insertUnderBulletInNote } from "../../vault/noteEdits";
import { hashText } from "../../vault/writes";
import { defineTool } from "../tool";

export const insertUnderBulletTool = defineTool({
	name: "insert_under_bullet",
	title: "Insert under a bullet",
	description:
		"In an outline note, add content as the last children of one bullet, after its existing sub-bullets. `bullet` is part of that bullet's own text (case-insensitive) and must match exactly one bullet: none or several is an error listing the candidates with their line numbers, and nothing is written. Content lines become bullets; their relative indentation becomes nesting. For notes that are not outlines, use append_to_note.",
	access: "write",
	annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
	inputSchema: {
		path: z.string().describe("Vault path or link text of an outline note."),
		bullet: z.string().describe("Text that appears in exactly one bullet."),
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
		if ("error" in found) return { fixable: found.error };
		const file = found.value;
		const result = await insertUnderBulletInNote(ctx.host, file, args.bullet, args.content);
		if ("error" in result) return { fixable: result.error };
		return { ok: { path: file.path, parent_line: result.line, hash: hashText(result.text) } };
	},
});
