import { z } from "zod";
import { CANVAS_MAX_FILE_BYTES, READ_CANVAS_DEFAULT_LIMIT, READ_CANVAS_MAX_LIMIT, VAULT_WIDE_SLICE_MS } from "../../config/limits";
import { parseCanvasSteps } from "../../canvas/jsonCanvas";
import { SliceClock } from "../../markdown/steps";
import { fileAsAnswered, findFileWithExtension, readBoundedFile } from "../../vault/bases";
import { visibleCanvasSteps } from "../../vault/canvas";
import { decodeCursor, encodeCursor } from "../../vault/notes";
import { yieldToEventLoop } from "../../vault/workBudget";
import { defineTool } from "../tool";
import { fail, ok } from "../../result";

export const readCanvasTool = defineTool({
	name: "read_canvas",
	title: "Read a canvas",
	description:
		"A canvas (.canvas, JSON Canvas 1.0): its nodes (text, file, link, group) with positions, then its edges. Paged (limit counts both): pass next_cursor back as cursor.",
	access: "read",
	annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
	inputSchema: {
		path: z.string(),
		limit: z.number().int().min(1).max(READ_CANVAS_MAX_LIMIT).default(READ_CANVAS_DEFAULT_LIMIT),
		cursor: z.string().optional(),
	},
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
		nodes_total: z.number().int(),
		edges_total: z.number().int(),
		next_cursor: z.string().optional(),
	},
	examples: [{ path: "Plan.canvas", limit: 1000 }],
	handler: async (ctx, args) => {
		const offset = decodeCursor(args.cursor);
		if (!offset.ok) return fail(offset.error);
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
		const { nodes, edges } = await clock.run(visibleCanvasSteps(ctx.host, ctx.scope, canvas.value));
		const answered = fileAsAnswered(ctx.host, ctx.scope, args.path, "canvas", found.value);
		if (!answered.ok) return answered;
		// One page of the nodes followed by the edges: the same canvas gives the same page for a cursor.
		const end = offset.value + args.limit;
		const edgesFrom = Math.max(0, offset.value - nodes.length);
		return ok({
			path: answered.value.path,
			nodes: nodes.slice(offset.value, end),
			edges: edges.slice(edgesFrom, Math.max(edgesFrom, end - nodes.length)),
			nodes_total: nodes.length,
			edges_total: edges.length,
			...(end < nodes.length + edges.length ? { next_cursor: encodeCursor(end) } : {}),
		});
	},
});
