import { openToolVault, type ToolVault } from "../../../helpers/toolVault";

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

	test("a canvas that is not JSON Canvas is refused saying why; a note is not a canvas", async () => {
		expect(await tv.error("read_canvas", { path: "Broken.canvas" })).toMatch(/not valid JSON/);
		expect(await tv.error("read_canvas", { path: "Ideas.md" })).toMatch(/canvas/i);
	});
});
