import { z } from "zod";
import { MAX_REQUEST_BODY_BYTES } from "../../config/limits";
import { insertUnderBullet } from "../../markdown/outline";
import { findNote } from "../../vault/notes";
import { editNote, hashText, noteStyle } from "../../vault/writes";
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
		const { format, mode } = await noteStyle(ctx.host, file, await ctx.host.vault.read(file));
		if (mode !== "outliner") return { fixable: `"${file.path}" is not an outline (it is not only a list, and its frontmatter has no mode: outliner). Use append_to_note instead.` };
		const result = await editNote(ctx.host, file, (text) => insertUnderBullet(text, args.bullet, args.content, format));
		if ("error" in result) return { fixable: result.error };
		return { ok: { path: file.path, parent_line: result.line, hash: hashText(result.text) } };
	},
});
