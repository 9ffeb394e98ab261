import fc from "fast-check";
import { nestsDeeperThan, nestsDeeperThanSteps, parseCanvas, type Canvas } from "../../../src/canvas/jsonCanvas";
import { CANVAS_JSON_PIECE_CHARS, CANVAS_MAX_NESTING, NOTE_TEXT_PIECE_CHARS, READ_CANVAS_MAX_LIMIT } from "../../../src/config/limits";
import { workClock } from "../../helpers/threadCpu";

const box = { x: 0, y: 0, width: 250, height: 60 };

function parsed(value: unknown): Canvas {
	const result = parseCanvas(JSON.stringify(value));
	if (!result.ok) throw new Error(result.error);
	return result.value;
}

function refused(value: unknown): string {
	const result = parseCanvas(typeof value === "string" ? value : JSON.stringify(value));
	if (result.ok) throw new Error("parsed");
	return result.error;
}

describe("parseCanvas: a JSON Canvas 1.0 file, as Obsidian writes it", () => {
	test("the four node types with their own fields, and edges with sides, ends, colour and label", () => {
		const canvas = parsed({
			nodes: [
				{ id: "t", type: "text", ...box, text: "# Idea", color: "1" },
				{ id: "f", type: "file", ...box, file: "Notes/Plan.md", subpath: "#Goals" },
				{ id: "l", type: "link", ...box, url: "https://jsoncanvas.org" },
				{ id: "g", type: "group", ...box, label: "Week", background: "img/bg.png", backgroundStyle: "cover" },
			],
			edges: [{ id: "e", fromNode: "t", toNode: "f", fromSide: "right", toSide: "left", toEnd: "arrow", color: "#ff0000", label: "leads to" }],
		});
		expect(canvas.nodes).toEqual([
			{ id: "t", type: "text", ...box, text: "# Idea", color: "1" },
			{ id: "f", type: "file", ...box, file: "Notes/Plan.md", subpath: "#Goals" },
			{ id: "l", type: "link", ...box, url: "https://jsoncanvas.org" },
			{ id: "g", type: "group", ...box, label: "Week", background: "img/bg.png", backgroundStyle: "cover" },
		]);
		expect(canvas.edges).toEqual([
			{ id: "e", fromNode: "t", toNode: "f", fromSide: "right", toSide: "left", toEnd: "arrow", color: "#ff0000", label: "leads to" },
		]);
	});

	test("an empty file, and an object without nodes or edges, is an empty canvas; unknown fields are left out", () => {
		expect(parseCanvas("  \n").ok && parseCanvas("").ok).toBe(true);
		expect(parsed({})).toEqual({ nodes: [], edges: [] });
		expect(parsed({ nodes: [{ id: "t", type: "text", ...box, text: "x", secret: 1 }] }).nodes[0]).not.toHaveProperty("secret");
	});

	test("not JSON, or not an object with lists, is refused saying so", () => {
		expect(refused("{nodes: [")).toMatch(/^The canvas is not valid JSON/);
		expect(refused([])).toBe('The canvas must be a JSON object with "nodes" and "edges".');
		expect(refused({ nodes: {} })).toBe('"nodes" must be a list.');
		expect(refused({ edges: "x" })).toBe('"edges" must be a list.');
	});

	test("a node that does not follow the format is refused, naming it", () => {
		expect(refused({ nodes: [{ type: "text", ...box, text: "x" }] })).toBe('Node 1 has no "id".');
		expect(refused({ nodes: [{ id: "a", type: "video", ...box }] })).toMatch(
			/Node 1 \("a"\) has type "video"; JSON Canvas 1.0 has text, file, link and group nodes/,
		);
		expect(refused({ nodes: [{ id: "a", type: "text", x: 0, y: "0", width: 1, height: 1, text: "x" }] })).toBe('Node 1 ("a") has no numeric "y".');
		expect(refused({ nodes: [{ id: "a", type: "file", ...box }] })).toBe('Node 1 ("a") has no "file".');
		expect(refused({ nodes: [{ id: "a", type: "text", ...box, text: 5 }] })).toBe('Node 1 ("a"): "text" must be text.');
		expect(refused({ nodes: [{ id: "a", type: "group", ...box, backgroundStyle: "tile" }] })).toMatch(
			/"backgroundStyle" is "tile"; it must be one of cover, ratio, repeat/,
		);
		expect(refused({ nodes: [null] })).toBe("Node 1 is not an object.");
	});

	test("two nodes with one id, or an edge to a node that is not there, are refused", () => {
		const node = { id: "a", type: "text", ...box, text: "x" };
		expect(refused({ nodes: [node, node] })).toBe('Two nodes have the id "a".');
		expect(refused({ nodes: [node], edges: [{ id: "e", fromNode: "a", toNode: "b" }] })).toBe(
			'Edge 1 ("e") connects node "b", which the canvas does not have.',
		);
		expect(refused({ nodes: [node], edges: [{ id: "e", fromNode: "a", toNode: "a", toSide: "middle" }] })).toMatch(/"toSide" is "middle"/);
	});

	test("a canvas of more cards and edges than a page of read_canvas holds is read whole (one of over 5,000 nodes was refused); its file's size bounds it", () => {
		const count = READ_CANVAS_MAX_LIMIT + 1;
		const nodes = Array.from({ length: count }, (_, index) => ({ id: `n${index}`, type: "text", ...box, text: "x" }));
		const edges = Array.from({ length: count }, (_, index) => ({ id: `e${index}`, fromNode: "n0", toNode: `n${index}` }));
		const canvas = parsed({ nodes, edges });
		expect(canvas.nodes).toHaveLength(count);
		expect(canvas.edges).toHaveLength(count);
	});

	test("any JSON text is answered with a canvas or a reason, never an exception", () => {
		fc.assert(
			fc.property(fc.oneof(fc.json(), fc.string()), (text) => {
				const result = parseCanvas(text);
				expect(typeof result.ok).toBe("boolean");
			}),
		);
	});
});

describe("a canvas nested deeper than a canvas needs is refused before JSON.parse", () => {
	test("800,000 brackets answer at once, naming the bound", () => {
		// Work, not wall time: a busy machine taking the core away lengthens only the latter.
		const clock = workClock();
		const started = clock();
		expect(parseCanvas(`${"[".repeat(400_000)}${"]".repeat(400_000)}`)).toEqual({
			ok: false,
			error: expect.stringContaining(`more than ${CANVAS_MAX_NESTING} deep`) as unknown,
		});
		expect(clock() - started).toBeLessThan(200);
	});

	test("brackets inside strings, escaped quotes included, do not count", () => {
		// The text holds an escaped quote (backslash, quote) inside the string: the string goes on past it.
		expect(nestsDeeperThan('{"a": "' + "[{".repeat(100) + '\\"[["}', 2)).toBe(false);
		expect(nestsDeeperThan("[[[]]]", 3)).toBe(false);
		expect(nestsDeeperThan("[[[[]]]]", 3)).toBe(true);
		expect(nestsDeeperThan('{"nodes": [{"id": "a"}], "edges": []}', 3)).toBe(false);
	});

	test("a long text is looked at in steps, a piece of text each", () => {
		const text = `{"nodes": [${'{"id": "a"}, '.repeat(50_000)}{"id": "b"}], "edges": []}`;
		const steps = nestsDeeperThanSteps(text, 3);
		let pauses = 0;
		let next = steps.next();
		for (; next.done !== true; next = steps.next()) pauses++;
		expect(next.value).toBe(false);
		expect(pauses).toBe(Math.floor(text.length / NOTE_TEXT_PIECE_CHARS));
	});
});

describe("a canvas of megabytes is never handed to JSON.parse whole (5 MiB was one piece of about 0.1 s)", () => {
	/** The longest text JSON.parse was handed while `work` ran. */
	function longestParsed(work: () => void): number {
		const original = JSON.parse;
		let longest = 0;
		JSON.parse = ((source: string) => {
			longest = Math.max(longest, source.length);
			return original(source) as unknown;
		}) as typeof JSON.parse;
		try {
			work();
		} finally {
			JSON.parse = original;
		}
		return longest;
	}

	test("5,000 cards and one card of 4 MB are read as before, JSON.parse handed a piece at most", () => {
		const cards = Array.from({ length: 5_000 - 1 }, (_, index) => ({
			id: `n${index}`,
			type: "text",
			text: `card ${index} ${"x".repeat(200)}`,
			...box,
		}));
		const text = JSON.stringify({ nodes: [...cards, { id: "big", type: "text", text: "[[Hub]] ".repeat(500_000), ...box }], edges: [] });
		expect(text.length).toBeGreaterThan(4 * 1024 * 1024);
		let result: ReturnType<typeof parseCanvas> | undefined;
		expect(longestParsed(() => (result = parseCanvas(text)))).toBeLessThanOrEqual(CANVAS_JSON_PIECE_CHARS + 2);
		expect(result).toEqual({ ok: true, value: expect.objectContaining({ nodes: expect.any(Array) }) });
		const canvas = result?.ok ? result.value : null;
		expect(canvas?.nodes).toHaveLength(5_000);
		expect(canvas?.nodes.at(-1)?.text).toBe("[[Hub]] ".repeat(500_000));
	});
});
