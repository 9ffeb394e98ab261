import { z } from "zod";
import { HEADINGS_LISTED, NOTE_TEXT_SLICE_MS } from "../../config/limits";
import { describeHeadings, resolveSubpathInSteps } from "../../markdown/subpath";
import { headingPlacesInSteps } from "../../headless/compactMetadata";
import { SliceClock } from "../../markdown/steps";
import { yieldToEventLoop } from "../../vault/workBudget";
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
			// In slices, as read_note looks: a missing heading among a note's 10,000 was every one of them listed and keyed in one piece.
			const clock = new SliceClock(NOTE_TEXT_SLICE_MS, yieldToEventLoop);
			const headings = await clock.run(headingPlacesInSteps(cache));
			const part = await clock.run(resolveSubpathInSteps(cache, headings, wanted.replace(/^#+\s*/, ""), file.stat.size));
			// After the look's pauses: a note moved into an excluded folder meanwhile is not named, its headings not listed, nothing opened.
			const named = noteAsAnswered(ctx.host, ctx.scope, args.path, file);
			if (!named.ok) return named;
			if (!part || part.name.startsWith("^"))
				return fail(`No heading "${echoed(wanted)}" in "${file.path}". ${describeHeadings(cache, HEADINGS_LISTED)} Nothing was opened.`);
			heading = part.name;
		}
		// Its one effect, asked for at the moment it happens, as a write asks before each note: a token revoked or denied
		// open_note during the look above had its answer withheld, and the tab opened for it all the same.
		if (ctx.writes.currentRight(openNoteTool) === "deny")
			return fail("open_note is no longer allowed for this token (its rights or the token changed). Nothing was opened.");
		// The file itself, never link text: a path holding `#` (made outside Obsidian) would be read as a link to another note.
		await workspace.getLeaf("tab").openFile(file, { active: true, ...(heading === undefined ? {} : { eState: { subpath: `#${heading}` } }) });
		// After the tab's wait: a note the person moved into an excluded folder meanwhile is not named there.
		const answered = noteAsAnswered(ctx.host, ctx.scope, args.path, file);
		if (!answered.ok) return answered;
		return ok({ path: answered.value.path, ...(heading === undefined ? {} : { heading }) });
	},
});
