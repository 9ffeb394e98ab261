import { z } from "zod";
import { echoed } from "../../markdown/echo";
import { TEMPLATES_LISTED } from "../../config/limits";
import { templateSettings } from "../../vault/obsidianSettings";
import { visibleNotes } from "../../vault/notes";
import { checkFolderArgument } from "../../vault/paths";
import { isInFolder, isPathVisible, mayNameHidden } from "../../vault/scope";
import { defineTool } from "../tool";
import { fail, ok } from "../../result";

export const listTemplatesTool = defineTool({
	name: "list_templates",
	title: "List templates",
	description: "The notes in the template folder set in Obsidian's core Templates plugin, by path.",
	access: "read",
	annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
	inputSchema: {},
	outputSchema: {
		folder: z.string(),
		templates: z.array(z.object({ path: z.string() })),
		total: z.number().int(),
	},
	examples: [{}],
	handler: async (ctx) => {
		const configured = (await templateSettings(ctx.host)).folder;
		const noFolder = "No template folder is set in this vault. In Obsidian: Settings → Templates → Template folder location (the core Templates plugin).";
		if (configured === "") return fail(noFolder);
		// The same path rules as any folder: one outside the vault or hidden offers nothing; an excluded one lists nothing.
		const checked = checkFolderArgument(configured, ctx.scope);
		// Not quoted when it spells a folder hidden from this caller (a backslash between the names, or a `.` or `..` part before them, still names it).
		if (!checked.ok && mayNameHidden(configured, ctx.scope)) return fail(noFolder);
		if (!checked.ok) return fail(`The template folder set in this vault ("${echoed(configured)}") cannot be used: ${checked.error}`);
		if (checked.value === undefined) return fail(noFolder);
		const folder = checked.value;
		const templates = visibleNotes(ctx.host, ctx.scope)
			.filter((file) => isInFolder(file.path, folder))
			.map((file) => file.path)
			.sort((a, b) => a.localeCompare(b));
		// A folder in an excluded folder, or outside this token's folders, is as if none were set: its path would name what is hidden.
		if (templates.length === 0 && !isPathVisible(folder, ctx.scope)) return fail(noFolder);
		return ok({ folder, templates: templates.slice(0, TEMPLATES_LISTED).map((path) => ({ path })), total: templates.length });
	},
});
