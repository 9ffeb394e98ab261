import { z } from "zod";
import { CANVAS_MAX_FILE_BYTES, READ_CANVAS_DEFAULT_LIMIT, READ_CANVAS_MAX_LIMIT, VAULT_WIDE_SLICE_MS } from "../../config/limits";
import { parseCanvasSteps } from "../../canvas/jsonCanvas";
import { SliceClock } from "../../markdown/steps";
import { fileAsAnswered, findFileWithExtension, readBoundedFile } from "../../vault/bases";
import { fileCardNow, visibleCanvasSteps } from "../../vault/canvas";
import { decodeCursor, encodeCursor, type CursorKey, type KeyPart } from "../../vault/pageCursor";
import { yieldToEventLoop } from "../../vault/workBudget";
import { defineTool } from "../tool";
import { cursorArgument } from "../cursorArgument";
import { fail, ok } from "../../result";

/**
 * A canvas's cards keep the order of its file, not a sort: a page's cursor names its last card or
 * edge by id (ids are unique among the nodes) with where it stood, so the next page starts after
 * that card wherever it has moved, and a card added or removed before it shifts nothing.
 */
const CURSOR_PARTS: readonly KeyPart[] = ["text", "text", "ascending"];
type CanvasItem = { kind: "node" | "edge"; id: string };

/** Where the page after the card `after` names starts in `items`, or null when that card is gone. */
function startAfterCard(items: readonly CanvasItem[], after: CursorKey | undefined): number | null {
	if (after === undefined) return 0;
	const [kind, id, position] = after as [string, string, number];
	const named = (item: CanvasItem | undefined) => item?.kind === kind && item.id === id;
	if (named(items[position])) return position + 1;
	const found = items.findIndex(named);
	return found === -1 ? null : found + 1;
}

export const readCanvasTool = defineTool({
	name: "read_canvas",
	title: "Read a canvas",
	description: "A canvas (.canvas, JSON Canvas 1.0): its nodes (text, file, link, group) with positions, then its edges. Paged; limit counts both.",
	access: "read",
	annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
	inputSchema: {
		path: z.string(),
		limit: z.number().int().min(1).max(READ_CANVAS_MAX_LIMIT).default(READ_CANVAS_DEFAULT_LIMIT),
		cursor: cursorArgument,
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
		const found = findFileWithExtension(ctx.host, ctx.scope, args.path, "canvas");
		if (!found.ok) return fail(found.error);
		// A cursor names cards of one canvas: one passed with another would start at a card of the same id there.
		const canvasPath = found.value.path;
		const after = decodeCursor(args.cursor, "read_canvas", CURSOR_PARTS, canvasPath);
		if (!after.ok) return fail(after.error);
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
		// One page of the nodes followed by the edges.
		const items: CanvasItem[] = [...nodes.map(({ id }) => ({ kind: "node" as const, id })), ...edges.map(({ id }) => ({ kind: "edge" as const, id }))];
		const start = startAfterCard(items, after.value);
		if (start === null)
			return fail(
				`${answered.value.path} changed since the last page: the card or edge it ended at is gone. Call again without a cursor to start from the first page.`,
			);
		const end = Math.min(start + args.limit, items.length);
		const last = items[end - 1];
		const edgesFrom = Math.max(0, start - nodes.length);
		return ok({
			path: answered.value.path,
			// Looked up after the last pause: a card's file moved meanwhile (into an excluded folder, say) was said to exist.
			nodes: nodes.slice(start, end).map((node) => fileCardNow(ctx.host, node)),
			edges: edges.slice(edgesFrom, Math.max(edgesFrom, end - nodes.length)),
			nodes_total: nodes.length,
			edges_total: edges.length,
			...(end < items.length && last ? { next_cursor: encodeCursor("read_canvas", [last.kind, last.id, end - 1], canvasPath) } : {}),
		});
	},
});
