import { z } from "zod";
import { CANVAS_MAX_FILE_BYTES, VAULT_WIDE_SLICE_MS } from "../../config/limits";
import { parseCanvasSteps } from "../../canvas/jsonCanvas";
import { SliceClock } from "../../markdown/steps";
import { fileAsAnswered, findFileWithExtension, readBoundedFile } from "../../vault/bases";
import { visibleCanvasSteps } from "../../vault/canvas";
import { yieldToEventLoop } from "../../vault/workBudget";
import { defineTool } from "../tool";
import { fail, ok } from "../../result";

export const readCanvasTool = defineTool({
	name: "read_canvas",
	title: "Read a canvas",
	description: "A canvas (.canvas, JSON Canvas 1.0): its text, file, link and group nodes with positions, and its edges.",
	access: "read",
	annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
	inputSchema: { path: z.string() },
	outputSchema: {
		path: z.string(),
		nodes: z.array(
			z.object({
				id: z.string(),
				type: z.enum(["text", "file", "link", "group"]),
				x: z.number(),
				y: z.number(),
				width: z.number(),
				height: z.number(),
				color: z.string().optional(),
				text: z.string().optional(),
				file: z.string().optional(),
				subpath: z.string().optional(),
				exists: z.boolean().optional(),
				url: z.string().optional(),
				label: z.string().optional(),
				background: z.string().optional(),
				backgroundStyle: z.string().optional(),
			}),
		),
		edges: z.array(
			z.object({
				id: z.string(),
				fromNode: z.string(),
				toNode: z.string(),
				fromSide: z.string().optional(),
				toSide: z.string().optional(),
				fromEnd: z.string().optional(),
				toEnd: z.string().optional(),
				color: z.string().optional(),
				label: z.string().optional(),
			}),
		),
	},
	examples: [{ path: "Plan.canvas" }],
	handler: async (ctx, args) => {
		const found = findFileWithExtension(ctx.host, ctx.scope, args.path, "canvas");
		if (!found.ok) return fail(found.error);
		const text = await readBoundedFile(ctx.host, found.value, CANVAS_MAX_FILE_BYTES);
		// After each wait: a canvas moved into an excluded folder meanwhile is not named there.
		const read = fileAsAnswered(ctx.host, ctx.scope, args.path, "canvas", found.value);
		if (!read.ok) return read;
		if (!text.ok) return fail(text.error);
		// A card at a time, taking turns with other vault-wide work: a canvas may hold thousands.
		const clock = new SliceClock(ctx.callBudget?.sliceMs ?? VAULT_WIDE_SLICE_MS, ctx.callBudget?.pause ?? yieldToEventLoop);
		const canvas = await clock.run(parseCanvasSteps(text.value));
		if (!canvas.ok) {
			const parsed = fileAsAnswered(ctx.host, ctx.scope, args.path, "canvas", found.value);
			return parsed.ok ? fail(`${parsed.value.path}: ${canvas.error}`) : parsed;
		}
		const cards = await clock.run(visibleCanvasSteps(ctx.host, ctx.scope, canvas.value));
		const answered = fileAsAnswered(ctx.host, ctx.scope, args.path, "canvas", found.value);
		if (!answered.ok) return answered;
		return ok({ path: answered.value.path, ...cards });
	},
});
