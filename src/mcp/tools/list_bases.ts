import { z } from "zod";
import { BASES_LISTED, BASES_MAX_FILE_BYTES, VAULT_WIDE_SLICE_MS } from "../../config/limits";
import { parseBaseFileSteps } from "../../bases/baseFile";
import { SliceClock } from "../../markdown/steps";
import { readBoundedFile, visibleBases } from "../../vault/bases";
import { yieldToEventLoop } from "../../vault/workBudget";
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
		// Each base is read in steps, taking turns with other vault-wide work, as query_base reads it.
		const clock = new SliceClock(ctx.callBudget?.sliceMs ?? VAULT_WIDE_SLICE_MS, ctx.callBudget?.pause ?? yieldToEventLoop);
		for (const file of all.slice(0, BASES_LISTED)) {
			const text = await readBoundedFile(ctx.host, file, BASES_MAX_FILE_BYTES);
			const config = text.ok ? await clock.run(parseBaseFileSteps(text.value)) : text;
			bases.push(
				config.ok ? { path: file.path, views: config.value.views.map((view) => view.name) } : { path: file.path, views: [], error: config.error },
			);
		}
		return ok({ bases, total: all.length });
	},
});
