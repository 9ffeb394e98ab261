import { readCanvasTool } from "../../../../src/mcp/tools/read_canvas";
import { openToolVault, pausingContext, type ToolVault } from "../../../helpers/toolVault";

const box = { x: 0, y: 0, width: 1, height: 1 };

describe("read_canvas", () => {
	let tv: ToolVault;
	beforeAll(async () => {
		tv = await openToolVault(
			{
				"Board.canvas": JSON.stringify({
					nodes: [
						{ id: "a", type: "file", file: "Ideas.md", ...box },
						{ id: "b", type: "file", file: "Private/Diary.md", ...box },
						{ id: "c", type: "text", text: "note", ...box },
					],
					edges: [{ id: "e", fromNode: "a", toNode: "b" }],
				}),
				"Broken.canvas": "{",
				"Wall.canvas": JSON.stringify({
					nodes: Array.from({ length: 600 }, (_, index) => ({
						id: `n${index}`,
						type: "file",
						file: index % 2 === 0 ? `Private/${index}.md` : "Ideas.md",
						...box,
					})),
					edges: Array.from({ length: 599 }, (_, index) => ({ id: `e${index}`, fromNode: `n${index}`, toNode: `n${index + 1}` })),
				}),
				"Ideas.md": "",
				"Private/Diary.md": "",
			},
			{ excluded: ["Private"] },
		);
	});
	afterAll(() => tv.close());

	test("the nodes and edges the caller may see; a card of an excluded folder goes with its edges", async () => {
		const canvas = await tv.ok<{ nodes: Array<{ id: string; exists?: boolean }>; edges: unknown[] }>("read_canvas", { path: "Board.canvas" });
		expect(canvas.nodes.map((node) => node.id)).toEqual(["a", "c"]);
		expect(canvas.nodes[0]?.exists).toBe(true);
		expect(canvas.edges).toEqual([]);
	});

	test("a canvas of hundreds of cards is read a card at a time, giving the host its turn between them; excluded cards and their edges still go", async () => {
		const { ctx, pauses } = pausingContext(tv.vault, "Private");
		const answer = await readCanvasTool.handler(ctx, { path: "Wall.canvas", limit: 1000 });
		expect(answer.ok && answer.value.nodes.map((node) => node.id)).toEqual(Array.from({ length: 300 }, (_, index) => `n${index * 2 + 1}`));
		expect(answer.ok && answer.value.edges).toEqual([]);
		// Each card and edge read, then each checked against the caller's scope.
		expect(pauses()).toBeGreaterThanOrEqual(2 * (600 + 599));
		expect(await tv.ok("read_canvas", { path: "Wall.canvas" })).toEqual(answer.ok && answer.value);
	});

	test("paged, nodes first and then edges: following next_cursor gives every node and edge once, in order; the totals count what the caller may see", async () => {
		type Page = { nodes: Array<{ id: string }>; edges: Array<{ id: string }>; nodes_total: number; edges_total: number; next_cursor?: string };
		const nodes: string[] = [];
		const edges: string[] = [];
		let cursor: string | undefined;
		let pages = 0;
		do {
			const page: Page = await tv.ok<Page>("read_canvas", { path: "Board.canvas", limit: 1, ...(cursor ? { cursor } : {}) });
			expect(page.nodes.length + page.edges.length).toBeLessThanOrEqual(1);
			expect([page.nodes_total, page.edges_total]).toEqual([2, 0]);
			nodes.push(...page.nodes.map((node) => node.id));
			edges.push(...page.edges.map((edge) => edge.id));
			cursor = page.next_cursor;
			pages++;
		} while (cursor !== undefined);
		expect([nodes, edges, pages]).toEqual([["a", "c"], [], 2]);
		const split = await tv.ok<Page>("read_canvas", { path: "Wall.canvas", limit: 250 });
		expect([split.nodes.length, split.edges.length, split.nodes_total, split.edges_total]).toEqual([250, 0, 300, 0]);
		const last = await tv.ok<Page>("read_canvas", { path: "Wall.canvas", limit: 250, cursor: split.next_cursor });
		expect(last.nodes.map((node) => node.id)).toEqual(Array.from({ length: 50 }, (_, index) => `n${(250 + index) * 2 + 1}`));
		expect(last.next_cursor).toBeUndefined();
		expect(await tv.error("read_canvas", { path: "Board.canvas", cursor: "not a cursor" })).toMatch(/cursor is not valid/);
	});

	test("a card added or removed before the cursor shifts nothing: the next page starts after the card the last one ended at; that card gone is a clear error", async () => {
		type Page = { nodes: Array<{ id: string }>; next_cursor?: string };
		const card = (id: string) => ({ id, type: "text", text: id, x: 0, y: 0, width: 10, height: 10 });
		const json = (ids: string[]) => JSON.stringify({ nodes: ids.map(card), edges: [] });
		const ids = Array.from({ length: 9 }, (_, index) => `k${index}`);
		const file = await tv.vault.host.vault.create("Moving.canvas", json(ids));
		const first = await tv.ok<Page>("read_canvas", { path: "Moving.canvas", limit: 3 });
		expect(first.nodes.map((node) => node.id)).toEqual(["k0", "k1", "k2"]);
		// Two cards before the cursor removed and one added in front: a count would now start at k4.
		await tv.vault.host.vault.process(file, () => json(["new", "k2", ...ids.slice(3)]));
		const second = await tv.ok<Page>("read_canvas", { path: "Moving.canvas", limit: 3, cursor: first.next_cursor });
		expect(second.nodes.map((node) => node.id)).toEqual(["k3", "k4", "k5"]);
		await tv.vault.host.vault.process(file, () => json(["new", "k2", "k3", "k4", "k6"]));
		expect(await tv.error("read_canvas", { path: "Moving.canvas", limit: 3, cursor: second.next_cursor })).toMatch(/changed since the last page/);
	});

	test("a canvas that is not JSON Canvas is refused saying why; a note is not a canvas", async () => {
		expect(await tv.error("read_canvas", { path: "Broken.canvas" })).toMatch(/not valid JSON/);
		expect(await tv.error("read_canvas", { path: "Ideas.md" })).toMatch(/canvas/i);
	});
});
