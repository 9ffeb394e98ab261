import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { BACKLINKS_DEFAULT_LIMIT, BACKLINKS_MAX_LIMIT } from "../../src/config/limits";
import { connectClient } from "../helpers/http";
import { startService, type RunningService } from "../helpers/service";
import { callError, callOk } from "../helpers/tools";
import { makeVault, removeDir } from "../helpers/vault";

const LINKERS = 3000;

interface Links {
	backlinks: Array<{ path: string; count: number }>;
	backlinks_total: number;
	next_cursor?: string;
	outgoing: unknown[];
	truncated: boolean;
}

describe("get_note_links pages the backlinks of a note that thousands of notes link to", () => {
	let vault: string;
	let running: RunningService;
	let client: Client;
	const name = (index: number) => `Daily/${String(index).padStart(4, "0")}.md`;

	beforeAll(async () => {
		const files: Record<string, string> = { "Hub.md": "# Hub\n\nSee [[Daily/0000]].\n" };
		// Every 10th note links twice, so the order (most links first) is visible.
		for (let index = 0; index < LINKERS; index++) files[name(index)] = index % 10 === 0 ? "[[Hub]] and again [[Hub]]\n" : "Back to [[Hub]].\n";
		vault = await makeVault(files);
		running = await startService(vault, { settings: { rateLimitPerMinute: 100_000 } });
		client = await connectClient(running.url, running.tokens.read ?? "");
		// Thousands of notes written and opened: past 60 s beside a second suite and two busy loops (load 25-45 on 2
		// cores). A stop for a hang, not a speed check.
	}, 180_000);
	afterAll(async () => {
		await client.close();
		await running.stop();
		await removeDir(vault);
	});

	async function allPages(limit?: number): Promise<{ pages: Links[]; bytes: number[] }> {
		const pages: Links[] = [];
		const bytes: number[] = [];
		let cursor: string | undefined;
		do {
			const links = await callOk<Links>(client, "get_note_links", { path: "Hub", ...(limit ? { limit } : {}), ...(cursor ? { cursor } : {}) });
			pages.push(links);
			bytes.push(Buffer.byteLength(JSON.stringify(links)));
			cursor = links.next_cursor;
		} while (cursor !== undefined && pages.length <= LINKERS);
		return { pages, bytes };
	}

	const expected = Array.from({ length: LINKERS }, (_, index) => ({ path: name(index), count: index % 10 === 0 ? 2 : 1 })).sort(
		(a, b) => b.count - a.count || a.path.localeCompare(b.path),
	);

	test(`by default ${BACKLINKS_DEFAULT_LIMIT} a page, with the total; every backlink once, most links first`, async () => {
		const { pages, bytes } = await allPages();
		expect(pages).toHaveLength(LINKERS / BACKLINKS_DEFAULT_LIMIT);
		for (const links of pages) expect(links.backlinks_total).toBe(LINKERS);
		expect(pages.flatMap((links) => links.backlinks)).toEqual(expected);
		expect(pages.at(-1)?.next_cursor).toBeUndefined();
		// One answer stays small: nothing like the whole list at once.
		expect(Math.max(...bytes)).toBeLessThan(10_000);
	});

	test(`at most ${BACKLINKS_MAX_LIMIT} a page`, async () => {
		const { pages } = await allPages(BACKLINKS_MAX_LIMIT);
		expect(pages.map((links) => links.backlinks.length)).toEqual([1000, 1000, 1000]);
		expect(pages.flatMap((links) => links.backlinks)).toEqual(expected);
		expect(await callError(client, "get_note_links", { path: "Hub", limit: BACKLINKS_MAX_LIMIT + 1 })).toMatch(/limit/i);
	});

	test("a cursor the server did not make is an error", async () => {
		expect(await callError(client, "get_note_links", { path: "Hub", cursor: "not-a-cursor" })).toContain("cursor is not valid");
	});
});
