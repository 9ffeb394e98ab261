import { z } from "zod";
import { BASES_LISTED, BASES_MAX_FILE_BYTES } from "../../config/limits";
import { parseBaseFile } from "../../bases/baseFile";
import { readBoundedFile, visibleBases } from "../../vault/bases";
import { defineTool } from "../tool";
import { ok } from "../../result";

export const listBasesTool = defineTool({
	name: "list_bases",
	title: "List bases",
	description: "The Bases files (.base) in the vault, by path, with their view names (or why one cannot be read).",
	access: "read",
	annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
	inputSchema: {},
	outputSchema: {
		bases: z.array(z.object({ path: z.string(), views: z.array(z.string()), error: z.string().optional() })),
		total: z.number().int(),
	},
	examples: [{}],
	handler: async (ctx) => {
		const all = visibleBases(ctx.host, ctx.scope);
		const bases: Array<{ path: string; views: string[]; error?: string }> = [];
		for (const file of all.slice(0, BASES_LISTED)) {
			const text = await readBoundedFile(ctx.host, file, BASES_MAX_FILE_BYTES);
			const config = text.ok ? parseBaseFile(text.value) : text;
			bases.push(
				config.ok ? { path: file.path, views: config.value.views.map((view) => view.name) } : { path: file.path, views: [], error: config.error },
			);
		}
		return ok({ bases, total: all.length });
	},
});
