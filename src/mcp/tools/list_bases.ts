import { z } from "zod";
import { BASES_LISTED, BASES_MAX_FILE_BYTES, LIST_BASES_WORK_MS, VAULT_WIDE_SLICE_MS } from "../../config/limits";
import { parseBaseFileSteps } from "../../bases/baseFile";
import type { HostFile } from "../../host/Host";
import { readBoundedFile, visibleBases } from "../../vault/bases";
import { isPathVisible } from "../../vault/scope";
import { CallBudget, CallOverBudget, runStepsOnBudget, yieldToEventLoop } from "../../vault/workBudget";
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
		const read: Array<{ file: HostFile; views: string[]; error?: string }> = [];
		// Each base is read in steps, taking turns with other vault-wide work, as query_base reads it,
		// and all of them within one bound of work: the ones left are named, unread.
		const workMs = Math.min(ctx.callBudget?.callWorkMs ?? LIST_BASES_WORK_MS, LIST_BASES_WORK_MS);
		const budget = new CallBudget(ctx.callBudget?.pause ?? yieldToEventLoop, ctx.callBudget?.sliceMs ?? VAULT_WIDE_SLICE_MS, workMs);
		let overBudget = false;
		for (const file of all.slice(0, BASES_LISTED)) {
			if (!overBudget) {
				const text = await readBoundedFile(ctx.host, file, BASES_MAX_FILE_BYTES);
				try {
					const config = text.ok ? await runStepsOnBudget(parseBaseFileSteps(text.value), budget) : text;
					read.push(config.ok ? { file, views: config.value.views.map((view) => view.name) } : { file, views: [], error: config.error });
					continue;
				} catch (error) {
					if (!(error instanceof CallOverBudget)) throw error;
					overBudget = true;
				}
			}
			read.push({ file, views: [], error: notReadMessage(workMs) });
		}
		// Named as they are once all are read: a base moved into an excluded folder while others were read is left out.
		const bases = read.filter(({ file }) => isPathVisible(file.path, ctx.scope)).map(({ file, ...base }) => ({ path: file.path, ...base }));
		return ok({ bases, total: all.length - (read.length - bases.length) });
	},
});

/** What a base left unread says: why, and where its views can still be had. */
function notReadMessage(workMs: number): string {
	return `Not read: this call read bases for ${workMs} ms of work, its limit, so other clients are not held up (the bases before this one are read). query_base reads this base.`;
}
