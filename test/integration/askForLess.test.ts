/**
 * A client can always ask for less: list_bases, list_templates and read_canvas are paged like
 * list_notes (limit, cursor, next_cursor). A vault of more bases or templates than one answer
 * lists, or a canvas of more than 5,000 cards, left the rest out or was refused, with no argument
 * to ask for the rest. The real SDK client over real HTTP, in a real temp vault.
 */
import { promises as fs } from "node:fs";
import * as nodePath from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { LIST_BASES_MAX_LIMIT, LIST_TEMPLATES_MAX_LIMIT } from "../../src/config/limits";
import { connectClient } from "../helpers/http";
import { startService, type RunningService } from "../helpers/service";
import { callError, callOk } from "../helpers/tools";
import { makeVault, removeDir } from "../helpers/vault";

const BASES = LIST_BASES_MAX_LIMIT + 11;
const TEMPLATES = LIST_TEMPLATES_MAX_LIMIT + 5;
const CARDS = 6_000;
const EDGES = 3;
const number = (index: number) => String(index).padStart(5, "0");
const basePaths = Array.from({ length: BASES }, (_, index) => `Bases/B ${number(index)}.base`);
const templatePaths = Array.from({ length: TEMPLATES }, (_, index) => `Templates/T ${number(index)}.md`);
const cardIds = Array.from({ length: CARDS }, (_, index) => `c${index}`);
const edgeIds = Array.from({ length: EDGES }, (_, index) => `e${index}`);

interface Paged {
	next_cursor?: string;
}

describe("tools that list a vault's bases, templates and canvas cards answer a page at a time", () => {
	let vault: string;
	let running: RunningService;
	let client: Client;

	beforeAll(async () => {
		const files: Record<string, string> = { "Private/Hidden.base": "views: []\n", "Private/Card.md": "x\n" };
		for (const path of basePaths) files[path] = "views:\n  - type: table\n    name: All\n";
		for (const path of templatePaths) files[path] = "# {{title}}\n";
		files["Wall.canvas"] = JSON.stringify({
			nodes: [
				...cardIds.map((id) => ({ id, type: "text", text: id, x: 0, y: 0, width: 1, height: 1 })),
				{ id: "hidden", type: "file", file: "Private/Card.md", x: 0, y: 0, width: 1, height: 1 },
			],
			edges: [...edgeIds.map((id, index) => ({ id, fromNode: `c${index}`, toNode: `c${index + 1}` })), { id: "gone", fromNode: "c0", toNode: "hidden" }],
		});
		vault = await makeVault(files);
		await fs.writeFile(nodePath.join(vault, ".obsidian/templates.json"), JSON.stringify({ folder: "Templates" }));
		running = await startService(vault, { settings: { rateLimitPerMinute: 1_000_000, excludedFolders: ["Private"] } });
		await running.host.metadataCache.settled();
		client = await connectClient(running.url, running.tokens.read ?? "");
	}, 120_000);
	afterAll(async () => {
		await client.close();
		await running.stop();
		await removeDir(vault);
	});

	/** Every page of `name` from the first, `limit` at a time, following next_cursor. */
	async function allPages<T extends Paged>(name: string, args: Record<string, unknown>): Promise<T[]> {
		const pages: T[] = [];
		let cursor: string | undefined;
		do {
			const page: T = await callOk<T>(client, name, { ...args, ...(cursor ? { cursor } : {}) });
			pages.push(page);
			cursor = page.next_cursor;
			if (pages.length > 100) throw new Error(`${name} gave over 100 pages`);
		} while (cursor !== undefined);
		return pages;
	}

	test(`list_bases of ${BASES} bases, 40 at a time: every visible base once, in path order, each read for its views (past ${LIST_BASES_MAX_LIMIT} none could be had)`, async () => {
		const pages = await allPages<Paged & { bases: Array<{ path: string; views: string[] }>; total: number }>("list_bases", { limit: 40 });
		expect(pages.map((page) => page.bases.length)).toEqual([40, 40, 40, 40, 40, 11]);
		expect(pages.every((page) => page.total === BASES)).toBe(true);
		expect(pages.flatMap((page) => page.bases.map((base) => base.path))).toEqual(basePaths);
		expect(pages.flatMap((page) => page.bases.map((base) => base.views))).toEqual(basePaths.map(() => ["All"]));
		expect(await callError(client, "list_bases", { cursor: "bm90IGEgY3Vyc29y" })).toMatch(/^The cursor is not valid/);
	}, 120_000);

	test(`list_templates of ${TEMPLATES} templates, ${LIST_TEMPLATES_MAX_LIMIT} at a time and 300 at a time: every one once, in path order (past ${LIST_TEMPLATES_MAX_LIMIT} none could be had)`, async () => {
		for (const limit of [LIST_TEMPLATES_MAX_LIMIT, 300]) {
			const pages = await allPages<Paged & { templates: Array<{ path: string }>; total: number; folder: string }>("list_templates", { limit });
			expect(pages.map((page) => page.templates.length)).toEqual(
				limit === 300 ? [300, 300, 300, TEMPLATES - 900] : [LIST_TEMPLATES_MAX_LIMIT, TEMPLATES - LIST_TEMPLATES_MAX_LIMIT],
			);
			expect(pages.every((page) => page.total === TEMPLATES && page.folder === "Templates")).toBe(true);
			expect(pages.flatMap((page) => page.templates.map((template) => template.path))).toEqual(templatePaths);
		}
	}, 120_000);

	test(`read_canvas of ${CARDS} cards, 2,500 at a time: every visible card, then every visible edge, once and in order (a canvas of over 5,000 was refused)`, async () => {
		type CanvasPage = Paged & { nodes: Array<{ id: string }>; edges: Array<{ id: string }>; nodes_total: number; edges_total: number };
		const pages = await allPages<CanvasPage>("read_canvas", { path: "Wall.canvas", limit: 2_500 });
		expect(pages.map((page) => [page.nodes.length, page.edges.length])).toEqual([
			[2_500, 0],
			[2_500, 0],
			[1_000, EDGES],
		]);
		expect(pages.every((page) => page.nodes_total === CARDS && page.edges_total === EDGES)).toBe(true);
		expect(pages.flatMap((page) => page.nodes.map((node) => node.id))).toEqual(cardIds);
		expect(pages.flatMap((page) => page.edges.map((edge) => edge.id))).toEqual(edgeIds);
		// A page that starts among the edges holds edges only.
		const edgesOnly = await callOk<CanvasPage>(client, "read_canvas", { path: "Wall.canvas", limit: CARDS + 1 });
		expect([edgesOnly.nodes.length, edgesOnly.edges.map((edge) => edge.id)]).toEqual([CARDS, ["e0"]]);
		const rest = await callOk<CanvasPage>(client, "read_canvas", { path: "Wall.canvas", limit: 10, cursor: edgesOnly.next_cursor });
		expect([rest.nodes, rest.edges.map((edge) => edge.id), rest.next_cursor]).toEqual([[], ["e1", "e2"], undefined]);
	}, 120_000);
});
