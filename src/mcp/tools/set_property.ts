import { z } from "zod";
import { findNote } from "../../vault/notes";
import { setNoteProperty } from "../../vault/noteEdits";
import { hashText } from "../../vault/writes";
import { MAX_FRONTMATTER_ENTRIES, MAX_PROPERTY_NAME_CHARS } from "../../config/limits";
import { defineTool } from "../tool";
import { fail, ok } from "../../result";

const scalar = z.union([z.string(), z.number(), z.boolean()]);

/**
 * The value: a longer list is refused by its length before any item is checked. 60,000 items were
 * each checked by zod (tens of ms in one piece) before the tool refused the list; a `max` inside
 * the union is checked first too, but its message is lost in the union's ("Invalid input").
 */
const propertyValue = z.preprocess(
	(value, ctx) => {
		if (!Array.isArray(value) || value.length <= MAX_FRONTMATTER_ENTRIES) return value;
		ctx.addIssue({
			code: "custom",
			message: `A list of at most ${MAX_FRONTMATTER_ENTRIES} items can be set (this one has ${value.length}): more would put the note's frontmatter over what is read as properties. Nothing was changed.`,
		});
		return z.NEVER;
	},
	z.union([scalar, z.array(scalar), z.null()]),
);

export const setPropertyTool = defineTool({
	name: "set_property",
	title: "Set a property",
	description:
		"Set one frontmatter property (frontmatter added if missing): text, number, boolean or list; a list replaces the old value, null removes it. Other properties keep their order and comments; tags are stored as names without #. Invalid YAML: an error, nothing changed.",
	access: "write",
	annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
	inputSchema: {
		path: z.string(),
		name: z.string(),
		value: propertyValue,
	},
	outputSchema: {
		path: z.string(),
		name: z.string(),
		value: z.unknown().describe("As written"),
		changed: z.boolean(),
		hash: z.string(),
	},
	examples: [
		{ path: "Projects/Garden", name: "status", value: "paused" },
		{ path: "Projects/Garden", name: "tags", value: ["project", "#outdoor"] },
	],
	handler: async (ctx, args) => {
		const name = args.name.trim();
		if (name === "" || /[\r\n]/.test(name)) return fail("A property name is one non-empty line, e.g. 'status'.");
		if (name.length > MAX_PROPERTY_NAME_CHARS)
			return fail(`A property name is at most ${MAX_PROPERTY_NAME_CHARS} characters; this one has ${name.length}.`);
		const found = findNote(ctx.host, ctx.scope, args.path);
		if (!found.ok) return fail(found.error);
		const result = await setNoteProperty(ctx.host, found.value, name, args.value);
		if (!result.ok) return fail(result.error);
		const written = result.value;
		return ok({ path: found.value.path, name, value: written.value, changed: written.changed, hash: hashText(written.text) });
	},
});
