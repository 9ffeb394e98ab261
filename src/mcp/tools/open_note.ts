import { z } from "zod";
import { HEADINGS_LISTED } from "../../config/limits";
import { describeHeadings, resolveSubpath } from "../../markdown/subpath";
import { findNote, noteAsAnswered } from "../../vault/notes";
import { defineTool } from "../tool";
import { fail, ok } from "../../result";
import { echoed } from "../../markdown/echo";

export const openNoteTool = defineTool({
	name: "open_note",
	title: "Open a note in Obsidian",
	description: "Show a note to the person in a new Obsidian tab, scrolled to heading if given. Changes no note.",
	access: "read",
	needs: "workspace",
	annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
	inputSchema: {
		path: z.string(),
		heading: z.string().optional(),
	},
	outputSchema: {
		path: z.string(),
		heading: z.string().optional(),
	},
	examples: [{ path: "Welcome" }],
	handler: async (ctx, args) => {
		const workspace = ctx.host.workspace;
		if (!workspace) return fail("Notes can be opened only while this server runs inside Obsidian.");
		const found = findNote(ctx.host, ctx.scope, args.path);
		if (!found.ok) return fail(found.error);
		const file = found.value;
		const wanted = args.heading?.trim() ?? "";
		let heading: string | undefined;
		if (wanted !== "") {
			const cache = ctx.host.metadataCache.getFileCache(file);
			const part = resolveSubpath(cache, wanted.replace(/^#+\s*/, ""), file.stat.size);
			if (!part || part.name.startsWith("^"))
				return fail(`No heading "${echoed(wanted)}" in "${file.path}". ${describeHeadings(cache, HEADINGS_LISTED)} Nothing was opened.`);
			heading = part.name;
		}
		// The file itself, never link text: a path holding `#` (made outside Obsidian) would be read as a link to another note.
		await workspace.getLeaf("tab").openFile(file, { active: true, ...(heading === undefined ? {} : { eState: { subpath: `#${heading}` } }) });
		// After the tab's wait: a note the person moved into an excluded folder meanwhile is not named there.
		const answered = noteAsAnswered(ctx.host, ctx.scope, args.path, file);
		if (!answered.ok) return answered;
		return ok({ path: answered.value.path, ...(heading === undefined ? {} : { heading }) });
	},
});
