import type { Canvas } from "../../../src/canvas/jsonCanvas";
import { visibleCanvas } from "../../../src/vault/canvas";
import { openVault, type OpenVault } from "../../helpers/hostVault";

const box = { x: 0, y: 0, width: 10, height: 10 };
const CANVAS: Canvas = {
	nodes: [
		{ id: "plan", type: "file", ...box, file: "Projects/Plan.md" },
		{ id: "gone", type: "file", ...box, file: "Projects/Deleted.md" },
		{ id: "diary", type: "file", ...box, file: "Private/Diary.md" },
		{ id: "ghost", type: "file", ...box, file: "Private/Never existed.md" },
		{ id: "hidden", type: "file", ...box, file: ".obsidian/app.json" },
		{ id: "note", type: "text", ...box, text: "hello" },
		{ id: "bg", type: "group", ...box, label: "Secret group", background: "Private/photo.png" },
		{ id: "web", type: "group", ...box, background: "https://example.com/a.png" },
	],
	edges: [
		{ id: "e1", fromNode: "plan", toNode: "note" },
		{ id: "e2", fromNode: "note", toNode: "diary" },
		{ id: "e3", fromNode: "ghost", toNode: "plan" },
	],
};

describe("visibleCanvas: a canvas as this caller may see it", () => {
	let vault: OpenVault;
	beforeAll(async () => {
		vault = await openVault({ "Projects/Plan.md": "# Plan\n", "Private/Diary.md": "secret\n" });
	});
	afterAll(() => vault.close());

	test("file cards say whether their file exists; text cards and URL backgrounds are kept", () => {
		const seen = visibleCanvas(vault.host, vault.scope(), CANVAS);
		expect(seen.nodes.find((node) => node.id === "plan")?.exists).toBe(true);
		expect(seen.nodes.find((node) => node.id === "gone")?.exists).toBe(false);
		expect(seen.nodes.find((node) => node.id === "web")?.background).toBe("https://example.com/a.png");
		expect(seen.nodes.map((node) => node.id)).not.toContain("hidden");
	});

	test("cards of an excluded folder go with their edges, whether the file exists or not: the answer tells nothing about the folder", () => {
		const seen = visibleCanvas(vault.host, vault.scope("Private"), CANVAS);
		expect(seen.nodes.map((node) => node.id)).toEqual(["plan", "gone", "note", "bg", "web"]);
		expect(seen.edges.map((edge) => edge.id)).toEqual(["e1"]);
		const group = seen.nodes.find((node) => node.id === "bg");
		expect(group).toEqual({ id: "bg", type: "group", ...box, label: "Secret group" });
		expect(JSON.stringify(seen)).not.toContain("Private");
	});
});
