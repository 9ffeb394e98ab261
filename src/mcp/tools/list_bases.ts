import { z } from "zod";
import { BASES_MAX_FILE_BYTES, LIST_BASES_DEFAULT_LIMIT, LIST_BASES_MAX_LIMIT, LIST_BASES_WORK_MS, VAULT_WIDE_SLICE_MS } from "../../config/limits";
import { parseBaseFileSteps } from "../../bases/baseFile";
import type { HostAbstractFile, HostFile } from "../../host/Host";
import { readBoundedFile, visibleBases, type ListedBase } from "../../vault/bases";
import { BY_PATH, decodeCursor, encodeCursor, startAfter, type CursorKey, type KeyedOrder } from "../../vault/pageCursor";
import { isPathVisible, type Scope } from "../../vault/scope";
import { CallBudget, CallOverBudget, runStepsOnBudget, withinCallBudget, yieldToEventLoop } from "../../vault/workBudget";
import type { ToolContext } from "../context";
import { defineTool } from "../tool";
import { cursorArgument } from "../cursorArgument";
import { fail, ok, type Result } from "../../result";

/** Bases come in path order (`visibleBases`); a page's cursor names the path the last one was listed at. */
const KEYED: KeyedOrder<{ path: string }> = { tool: "list_bases", parts: BY_PATH, keyOf: ({ path }) => [path] };

export const listBasesTool = defineTool({
	name: "list_bases",
	title: "List bases",
	description: "Bases files (.base) by path, with their view names (or why one cannot be read). Paged.",
	access: "read",
	annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
	inputSchema: {
		limit: z.number().int().min(1).max(LIST_BASES_MAX_LIMIT).default(LIST_BASES_DEFAULT_LIMIT),
		cursor: cursorArgument,
	},
	outputSchema: {
		bases: z.array(z.object({ path: z.string(), views: z.array(z.string()), error: z.string().optional() })),
		total: z.number().int(),
		next_cursor: z.string().optional(),
	},
	examples: [{ limit: 100 }],
	handler: async (ctx, args) => {
		const after = decodeCursor(args.cursor, KEYED.tool, KEYED.parts);
		if (!after.ok) return fail(after.error);
		// Every file renamed from the listing to the answer: a base among them moved into an excluded folder, on the page or
		// off it, is not counted in the total (an off-page one was, at the path it had left).
		const renamed = new Set<HostAbstractFile>();
		const ref = ctx.host.vault.on("rename", (file) => void renamed.add(file));
		try {
			return await pageOfBases(ctx, args, after.value, renamed);
		} finally {
			ctx.host.vault.offref(ref);
		}
	},
});

/** The page of bases after `after`, its total less the listed bases among `renamed` that are out of sight now. */
async function pageOfBases(
	ctx: ToolContext,
	args: { limit: number },
	after: CursorKey | undefined,
	renamed: ReadonlySet<HostAbstractFile>,
): Promise<Result<{ bases: Array<{ path: string; views: string[]; error?: string }>; total: number; next_cursor?: string }>> {
	const listed = await withinCallBudget(
		(budget) => visibleBases(ctx.host, ctx.scope, budget),
		{ again: "redoes", narrowing: "query_base reads a base named by its path." },
		ctx.callBudget,
	);
	if (!listed.ok) return listed;
	// Each with the path it was listed at: the cursor names that, even if the base is renamed while the page is read.
	const all = listed.value;
	const start = startAfter(all, after, KEYED);
	const pageFiles = all.slice(start, start + args.limit);
	const read: Array<{ file: HostFile; path: string; views: string[]; error?: string }> = [];
	// Each base is read in steps, taking turns with other vault-wide work, as query_base reads it,
	// and all of them within one bound of work: the page ends at the base that used it up, named
	// unread, and the next page starts after it.
	const workMs = Math.min(ctx.callBudget?.callWorkMs ?? LIST_BASES_WORK_MS, LIST_BASES_WORK_MS);
	const budget = new CallBudget(ctx.callBudget?.pause ?? yieldToEventLoop, ctx.callBudget?.sliceMs ?? VAULT_WIDE_SLICE_MS, workMs);
	for (const { file, path } of pageFiles) {
		// A base moved into an excluded folder since it was listed is not read (and left out below).
		if (!isPathVisible(file.path, ctx.scope)) {
			read.push({ file, path, views: [] });
			continue;
		}
		const text = await readBoundedFile(ctx.host, file, BASES_MAX_FILE_BYTES);
		try {
			const config = text.ok ? await runStepsOnBudget(parseBaseFileSteps(text.value), budget) : text;
			read.push(config.ok ? { file, path, views: config.value.views.map((view) => view.name) } : { file, path, views: [], error: config.error });
		} catch (error) {
			if (!(error instanceof CallOverBudget)) throw error;
			read.push({ file, path, views: [], error: notReadMessage(workMs) });
			break;
		}
	}
	const last = read.at(-1);
	// Named as they are once all are read: a base moved into an excluded folder while others were read is left out.
	const bases = read
		.filter(({ file }) => isPathVisible(file.path, ctx.scope))
		.map(({ file, views, error }) => ({ path: file.path, views, ...(error === undefined ? {} : { error }) }));
	const more = start + read.length < all.length && last !== undefined;
	return ok({
		bases,
		total: all.length - listedOutOfSight(all, renamed, ctx.scope),
		...(more ? { next_cursor: encodeCursor(KEYED.tool, KEYED.keyOf(last)) } : {}),
	});
}

/** How many of the `listed` bases were `renamed` out of sight: the listed ones are looked up only when any file was renamed. */
function listedOutOfSight(listed: readonly ListedBase[], renamed: ReadonlySet<HostAbstractFile>, scope: Scope): number {
	const hidden = [...renamed].filter((file) => !isPathVisible(file.path, scope));
	if (hidden.length === 0) return 0;
	const listedFiles = new Set<HostAbstractFile>(listed.map(({ file }) => file));
	return hidden.filter((file) => listedFiles.has(file)).length;
}

/** What a base left unread says: why, and where its views can still be had. */
function notReadMessage(workMs: number): string {
	return `Not read: this call read bases for ${workMs} ms of work, its limit, so other clients are not held up (the bases before this one are read; next_cursor lists those after it). query_base reads this base.`;
}
