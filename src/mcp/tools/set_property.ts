import { z } from "zod";
import { findNote } from "../../vault/notes";
import { setNoteProperty } from "../../vault/noteEdits";
import { hashText } from "../../vault/writes";
import { defineTool } from "../tool";

const scalar = z.union([z.string(), z.number(), z.boolean()]);

export const setPropertyTool = defineTool({
	name: "set_property",
	title: "Set a property",
	description:
		"Set one frontmatter property of a note (adding frontmatter if it has none): text, number, true/false, or a list, which replaces the old list. null removes it. Other properties keep their order and comments. tags are written as Obsidian keeps them: a list of names without #. Broken YAML is an error that changes nothing.",
	access: "write",
	annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
	inputSchema: {
		path: z.string().describe("Vault path or link text of an existing note."),
		name: z.string().describe("Property name, e.g. 'status' or 'tags'."),
		value: z.union([scalar, z.array(scalar), z.null()]).describe("New value; null removes the property."),
	},
	outputSchema: {
		path: z.string(),
		name: z.string(),
		value: z.union([scalar, z.array(scalar), z.null()]).describe("The value as written."),
		changed: z.boolean().describe("False when the note already had this value."),
		hash: z.string(),
	},
	examples: [
		{ path: "Projects/Garden", name: "status", value: "paused" },
		{ path: "Projects/Garden", name: "tags", value: ["project", "#outdoor"] },
	],
	handler: async (ctx, args) => {
		const name = args.name.trim();
		if (name === "" || /[\r\n]/.test(name)) return { fixable: "A property name is one non-empty line, e.g. 'status'." };
		const found = findNote(ctx.host, ctx.scope, args.path);
		if ("error" in found) return { fixable: found.error };
		const result = await setNoteProperty(ctx.host, found.value, name, args.value);
		if ("error" in result) return { fixable: result.error };
		return { ok: { path: found.value.path, name, value: result.value, changed: result.changed, hash: hashText(result.text) } };
	},
});
