import { CANVAS_MAX_FILE_BYTES, CANVAS_MAX_NESTING } from "../../../src/config/limits";
import { canvasLinksSteps } from "../../../src/canvas/canvasLinks";
import { runSteps } from "../../../src/markdown/steps";

/** Every link the reader hands out, with whether a file card shows it, and how many pauses it made. */
function linksOf(text: string): { links: Array<[string, boolean]>; pauses: number } {
	const links: Array<[string, boolean]> = [];
	let pauses = 0;
	const steps = canvasLinksSteps(text, (link, shown) => links.push([link, shown]));
	for (let next = steps.next(); next.done !== true; next = steps.next()) pauses++;
	return { links, pauses };
}

describe("a canvas's links, as the metadata cache counts them", () => {
	test("text cards' links and embeds and file cards' files, in the order of the cards, a pause after each card at least", () => {
		const canvas = {
			nodes: [
				{ id: "a", type: "text", text: "see [[One]] and ![[Two#Part]]", x: 0, y: 0, width: 1, height: 1 },
				{ id: "b", type: "file", file: "Folder/Three.md", x: 0, y: 0, width: 1, height: 1 },
				{ id: "c", type: "link", url: "https://example.com", x: 0, y: 0, width: 1, height: 1 },
			],
			edges: [],
		};
		const { links, pauses } = linksOf(JSON.stringify(canvas));
		expect(links).toEqual([
			["One", false],
			["Two#Part", false],
			["Folder/Three.md", true],
		]);
		// A text card's parse may pause inside it too.
		expect(pauses).toBeGreaterThanOrEqual(canvas.nodes.length);
	});

	test("what is not JSON Canvas 1.0 leaves the good cards' links: a plugin's card type, an edge to nowhere, a null card", () => {
		const text = JSON.stringify({
			nodes: [null, 5, { type: "plugin-card", text: "[[Ignored]]" }, { type: "text", text: "[[Kept]]" }],
			edges: [{ id: "e", fromNode: "gone", toNode: "gone" }],
		});
		expect(linksOf(text).links).toEqual([["Kept", false]]);
	});

	test.each(["", "null", "[1, 2]", "{", '{"nodes": 5}', "42"])("text holding no list of cards (%j) holds no links", (text) => {
		expect(runSteps(canvasLinksSteps(text, () => undefined))).toBeUndefined();
		expect(linksOf(text).links).toEqual([]);
	});
});

describe("a canvas read_canvas would refuse holds no links, so its JSON is never parsed in one piece", () => {
	const card = { id: "a", type: "text", text: "[[Kept]]", x: 0, y: 0, width: 1, height: 1 };

	test(`one nested more than ${CANVAS_MAX_NESTING} deep (5 MB of brackets held the server 2.8 s)`, () => {
		const deep = (levels: number) => `{"nodes":[${JSON.stringify(card).slice(0, -1)},"extra":${"[".repeat(levels)}${"]".repeat(levels)}}],"edges":[]}`;
		expect(linksOf(deep(CANVAS_MAX_NESTING - 3)).links).toEqual([["Kept", false]]);
		expect(linksOf(deep(CANVAS_MAX_NESTING - 2)).links).toEqual([]);
		expect(linksOf(deep(200_000)).links).toEqual([]);
	});

	test(`one over ${CANVAS_MAX_FILE_BYTES} bytes`, () => {
		const text = JSON.stringify({ nodes: [card], edges: [] });
		expect(linksOf(text + " ".repeat(CANVAS_MAX_FILE_BYTES - text.length)).links).toEqual([["Kept", false]]);
		expect(linksOf(text + " ".repeat(CANVAS_MAX_FILE_BYTES - text.length + 1)).links).toEqual([]);
	});
});
