import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { connectClient, mcpHeaders, requestPausedAfterFirstBytes } from "../helpers/http";
import { startService, type RunningService } from "../helpers/service";
import { callError, callOk } from "../helpers/tools";
import { makeVault, removeDir } from "../helpers/vault";

/** A canvas with every JSON Canvas 1.0 node type, and cards that show notes in an excluded folder. */
const BOARD = {
	nodes: [
		{
			id: "group",
			type: "group",
			x: -50,
			y: -50,
			width: 900,
			height: 500,
			label: "Plan",
			color: "2",
			background: "Images/paper.png",
			backgroundStyle: "repeat",
		},
		{ id: "note", type: "file", file: "Projects/Garden.md", subpath: "#Plan", x: 0, y: 0, width: 400, height: 300 },
		{ id: "picture", type: "file", file: "Images/paper.png", x: 0, y: 320, width: 200, height: 100 },
		{ id: "gone", type: "file", file: "Projects/Deleted.md", x: 420, y: 320, width: 200, height: 100 },
		{ id: "idea", type: "text", text: "Ask about [[Reading list]]", x: 440, y: 0, width: 240, height: 120, color: "#ff8800" },
		{ id: "site", type: "link", url: "https://example.org/", x: 440, y: 160, width: 240, height: 120 },
		{ id: "secret", type: "file", file: "Private/Diary.md", x: 900, y: 0, width: 400, height: 300 },
		{ id: "missing-secret", type: "file", file: "Private/Nothing here.md", x: 900, y: 400, width: 400, height: 300 },
		{ id: "hidden-group", type: "group", x: 880, y: -20, width: 440, height: 760, label: "Mine", background: "Private/photo.png" },
	],
	edges: [
		{ id: "e1", fromNode: "idea", fromSide: "left", fromEnd: "none", toNode: "note", toSide: "right", toEnd: "arrow", color: "4", label: "about" },
		{ id: "e2", fromNode: "site", toNode: "idea" },
		{ id: "e3", fromNode: "note", toNode: "secret", label: "see diary" },
		{ id: "e4", fromNode: "missing-secret", toNode: "idea" },
	],
};

describe("read_canvas", () => {
	let vault: string;
	let running: RunningService;
	let client: Client;

	beforeAll(async () => {
		vault = await makeVault({
			"Projects/Garden.md": "# Garden\n## Plan\nBeds.\n",
			"Reading list.md": "Books.\n",
			"Images/paper.png": "png",
			"Private/Diary.md": "Dear diary.\n",
			"Private/photo.png": "png",
			"Board.canvas": JSON.stringify(BOARD, null, "\t"),
			"Private/Secret board.canvas": JSON.stringify({
				nodes: [{ id: "a", type: "file", file: "Projects/Garden.md", x: 0, y: 0, width: 10, height: 10 }],
				edges: [],
			}),
			"Empty.canvas": "",
			// Cards spelling an excluded note as the vault reads it, but not as the exclusion compared it.
			"Spellings.canvas": JSON.stringify({
				nodes: [
					{ id: "idea", type: "text", text: "x", x: 0, y: 0, width: 10, height: 10 },
					{ id: "slash", type: "file", file: "/Private/Diary.md", x: 0, y: 0, width: 10, height: 10 },
					{ id: "back", type: "file", file: "Private\\Diary.md", x: 0, y: 0, width: 10, height: 10 },
					{ id: "back-missing", type: "file", file: "Private\\Nothing here.md", x: 0, y: 0, width: 10, height: 10 },
					{ id: "end", type: "file", file: "Private/Diary.md/", x: 0, y: 0, width: 10, height: 10 },
					{ id: "photo", type: "group", background: "\\Private\\photo.png", x: 0, y: 0, width: 10, height: 10 },
				],
				edges: [{ id: "e", fromNode: "slash", toNode: "idea" }],
			}),
			"Broken/Not json.canvas": "{ nodes: [",
			"Broken/No position.canvas": JSON.stringify({ nodes: [{ id: "a", type: "text", text: "x", y: 0, width: 10, height: 10 }] }),
			"Broken/Odd type.canvas": JSON.stringify({ nodes: [{ id: "a", type: "sticker", x: 0, y: 0, width: 10, height: 10 }] }),
			"Broken/Dangling edge.canvas": JSON.stringify({
				nodes: [{ id: "a", type: "text", text: "x", x: 0, y: 0, width: 10, height: 10 }],
				edges: [{ id: "e", fromNode: "a", toNode: "b" }],
			}),
			"Broken/Twice.canvas": JSON.stringify({
				nodes: [
					{ id: "a", type: "text", text: "x", x: 0, y: 0, width: 1, height: 1 },
					{ id: "a", type: "text", text: "y", x: 0, y: 0, width: 1, height: 1 },
				],
			}),
			"Broken/Side.canvas": JSON.stringify({
				nodes: [{ id: "a", type: "text", text: "x", x: 0, y: 0, width: 1, height: 1 }],
				edges: [{ id: "e", fromNode: "a", toNode: "a", fromSide: "middle" }],
			}),
			"Broken/List.canvas": "[]",
			// The board's card ids in the same order, as text cards: where another canvas's cursor would page on silently.
			"Board copy.canvas": JSON.stringify({
				nodes: BOARD.nodes.map(({ id, x, y, width, height }) => ({ id, type: "text", text: "x", x, y, width, height })),
			}),
		});
		running = await startService(vault, { settings: { excludedFolders: ["Private"] } });
		client = await connectClient(running.url, running.tokens.read ?? "");
	});
	afterAll(async () => {
		await client.close();
		await running.stop();
		await removeDir(vault);
	});

	test("a cursor of one canvas passed with another, even one of the same cards, is a clear error", async () => {
		const first = await callOk<{ next_cursor?: string }>(client, "read_canvas", { path: "Board.canvas", limit: 2 });
		expect(typeof first.next_cursor).toBe("string");
		expect(await callError(client, "read_canvas", { path: "Board copy.canvas", limit: 2, cursor: first.next_cursor })).toContain(
			"made for another file or view",
		);
		expect(await callOk(client, "read_canvas", { path: "Board.canvas", limit: 2, cursor: first.next_cursor })).toHaveProperty("nodes");
	});

	test("returns every node type with its position and size, and the edges, as the file holds them", async () => {
		const canvas = await callOk<{ path: string; nodes: Array<Record<string, unknown>>; edges: Array<Record<string, unknown>> }>(client, "read_canvas", {
			path: "Board",
		});
		expect(canvas.path).toBe("Board.canvas");
		expect(canvas.nodes).toEqual([
			{
				id: "group",
				type: "group",
				x: -50,
				y: -50,
				width: 900,
				height: 500,
				label: "Plan",
				color: "2",
				background: "Images/paper.png",
				backgroundStyle: "repeat",
			},
			{ id: "note", type: "file", file: "Projects/Garden.md", subpath: "#Plan", exists: true, x: 0, y: 0, width: 400, height: 300 },
			{ id: "picture", type: "file", file: "Images/paper.png", exists: true, x: 0, y: 320, width: 200, height: 100 },
			{ id: "gone", type: "file", file: "Projects/Deleted.md", exists: false, x: 420, y: 320, width: 200, height: 100 },
			{ id: "idea", type: "text", text: "Ask about [[Reading list]]", x: 440, y: 0, width: 240, height: 120, color: "#ff8800" },
			{ id: "site", type: "link", url: "https://example.org/", x: 440, y: 160, width: 240, height: 120 },
			// The group stays (it is the canvas's own), without its background from the excluded folder.
			{ id: "hidden-group", type: "group", x: 880, y: -20, width: 440, height: 760, label: "Mine" },
		]);
		expect(canvas.edges).toEqual([
			{ id: "e1", fromNode: "idea", fromSide: "left", fromEnd: "none", toNode: "note", toSide: "right", toEnd: "arrow", color: "4", label: "about" },
			{ id: "e2", fromNode: "site", toNode: "idea" },
		]);
	});

	test("cards of excluded notes are dropped with their edges, the same whether the note exists or not", async () => {
		const text = JSON.stringify(await callOk(client, "read_canvas", { path: "Board.canvas" }));
		expect(text).not.toMatch(/Private|Diary|secret|Nothing here|see diary/);
	});

	test("cards spelling an excluded note with a leading slash or backslashes are dropped too: no `exists` tells the note is there", async () => {
		expect(await callOk(client, "read_canvas", { path: "Spellings" })).toEqual({
			path: "Spellings.canvas",
			nodes: [
				{ id: "idea", type: "text", text: "x", x: 0, y: 0, width: 10, height: 10 },
				{ id: "photo", type: "group", x: 0, y: 0, width: 10, height: 10 },
			],
			edges: [],
			nodes_total: 2,
			edges_total: 0,
		});
	});

	test("a canvas in an excluded folder is answered like a missing one", async () => {
		expect(await callError(client, "read_canvas", { path: "Private/Secret board" })).toBe(
			'No canvas "Private/Secret board.canvas". Call list_notes to find the right path.',
		);
		expect(await callError(client, "read_canvas", { path: "Nowhere/Secret board" })).toBe(
			'No canvas "Nowhere/Secret board.canvas". Call list_notes to find the right path.',
		);
	});

	test("an empty canvas file is an empty canvas", async () => {
		expect(await callOk(client, "read_canvas", { path: "Empty.canvas" })).toEqual({
			path: "Empty.canvas",
			nodes: [],
			edges: [],
			nodes_total: 0,
			edges_total: 0,
		});
	});

	test.each([
		["Not json", /^Broken\/Not json\.canvas: The canvas is not valid JSON/],
		["No position", /^Broken\/No position\.canvas: Node 1 \("a"\) has no numeric "x"\.$/],
		["Odd type", /Node 1 \("a"\) has type "sticker"; JSON Canvas 1\.0 has text, file, link and group nodes\./],
		["Dangling edge", /Edge 1 \("e"\) connects node "b", which the canvas does not have\./],
		["Twice", /Two nodes have the id "a"\./],
		["Side", /"fromSide" is "middle"; it must be one of top, right, bottom, left\./],
		["List", /must be a JSON object with "nodes" and "edges"/],
	])("a malformed canvas (%s) gets a clear error", async (name, message) => {
		expect(await callError(client, "read_canvas", { path: `Broken/${name}` })).toMatch(message);
	});

	test("a canvas that shows or links to a note is among the note's backlinks; an excluded canvas never is", async () => {
		const garden = await callOk<{ backlinks: Array<{ path: string; count: number }> }>(client, "get_note_links", { path: "Projects/Garden.md" });
		expect(garden.backlinks).toEqual([{ path: "Board.canvas", count: 1 }]);
		const reading = await callOk<{ backlinks: Array<{ path: string; count: number }> }>(client, "get_note_links", { path: "Reading list" });
		expect(reading.backlinks).toEqual([{ path: "Board.canvas", count: 1 }]);
	});
});

describe("a canvas whose answer is a megabyte", () => {
	let vault: string;
	let running: RunningService;
	let client: Client;
	const CARDS = 5_000;

	beforeAll(async () => {
		const nodes = Array.from({ length: CARDS }, (_, index) => ({
			id: `card${index}`,
			type: "text",
			text: `Card ${index}: "quoted", back\\slash, é 東京 😀 [[Note ${index % 10}]]`,
			x: (index % 100) * 300,
			y: Math.floor(index / 100) * 200,
			width: 250,
			height: 150,
		}));
		vault = await makeVault({ "Board.canvas": JSON.stringify({ nodes, edges: [] }), "Small.md": "# Small\n" });
		running = await startService(vault, { levels: ["read", "write"] });
		client = await connectClient(running.url, running.tokens.write ?? "");
	});
	afterAll(async () => {
		await client.close();
		await running.stop();
		await removeDir(vault);
	});

	test("arrives whole and as the SDK reads it, to a client reading it slowly, while another token's call is answered", async () => {
		const body = JSON.stringify({
			jsonrpc: "2.0",
			id: 1,
			method: "tools/call",
			params: { name: "read_canvas", arguments: { path: "Board.canvas", limit: CARDS } },
		});
		// The reader stops after its first bytes…
		const reader = await requestPausedAfterFirstBytes(running.port, { headers: mcpHeaders(running.port, running.tokens.read ?? ""), body });
		// …and another token's call is answered meanwhile.
		expect(await callOk(client, "read_note", { path: "Small.md" })).toMatchObject({ path: "Small.md" });
		const received = await reader.rest();
		expect(reader.headers["content-length"]).toBe(String(received.length));
		const text = received.toString("utf8");
		const message = JSON.parse(text) as { result: { content: Array<{ text: string }>; structuredContent: { nodes: unknown[] } } };
		// The body is the message as JSON.stringify writes it: nothing cut, doubled or re-encoded between pieces.
		expect(text).toBe(JSON.stringify(message));
		expect(message.result.structuredContent.nodes).toHaveLength(CARDS);
		expect(message.result.content[0]?.text).toBe(JSON.stringify(message.result.structuredContent));
		expect(Buffer.byteLength(text)).toBeGreaterThan(1_000_000);
		// The same answer as the SDK's client gets.
		expect(message.result.structuredContent).toEqual(await callOk(client, "read_canvas", { path: "Board.canvas", limit: CARDS }));
	});
});
