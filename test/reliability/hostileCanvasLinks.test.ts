/**
 * A planted canvas whose one text card holds tens of thousands of links, beside a note in a folder
 * the token may not see: its backlinks calls over real HTTP resolve each link path once, not once a
 * link (540,000 links were 2 s of CPU a call, 7.6 s of wall at load 14), and a card past the text
 * read for links counts none. Counted, not timed: a busy machine changes neither.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { CANVAS_MAX_LINKED_TEXT_CHARS } from "../../src/config/limits";
import { connectClient } from "../helpers/http";
import { startService, type RunningService } from "../helpers/service";
import { callOk } from "../helpers/tools";
import { makeVault, removeDir } from "../helpers/vault";

type Links = { backlinks: Array<{ path: string; count: number }> };

describe("a canvas card of 60,000 links to one note and one to a hidden note, and a card past the bound", () => {
	const LINKS = 60_000;
	const card = (id: string, text: string) => ({ id, type: "text", text, x: 0, y: 0, width: 10, height: 10 });
	let vault: string;
	let running: RunningService;
	let client: Client;
	beforeAll(async () => {
		vault = await makeVault({
			"Hub.md": "# Hub\n",
			"Other.md": "# Other\n",
			"Secret/Hidden.md": "# Hidden\n",
			"Crowded.canvas": JSON.stringify({ nodes: [card("a", `[[Hidden]] ${"[[Hub]] ".repeat(LINKS)}`)], edges: [] }),
			"Huge.canvas": JSON.stringify({
				nodes: [card("big", "[[Other]] [[Hidden]] ".repeat(Math.ceil(CANVAS_MAX_LINKED_TEXT_CHARS / 21) + 1)), card("small", "[[Other]] [[Hidden]]")],
				edges: [],
			}),
		});
		running = await startService(vault, { levels: ["read"], settings: { rateLimitPerMinute: 1_000_000, excludedFolders: ["Secret"] } });
		await running.host.metadataCache.settled();
		client = await connectClient(running.url, running.tokens.read ?? "");
	}, 60_000);
	afterAll(async () => {
		await client.close();
		await running.stop();
		await removeDir(vault);
	});

	test("get_note_links counts every link of the crowded card, resolving each link path once, on the first call and the next", async () => {
		const cache = running.host.metadataCache;
		const original = cache.getFirstLinkpathDest.bind(cache);
		let resolutions = 0;
		cache.getFirstLinkpathDest = (linkpath, source) => (resolutions++, original(linkpath, source));
		try {
			for (let call = 0; call < 2; call++) {
				resolutions = 0;
				expect((await callOk<Links>(client, "get_note_links", { path: "Hub.md" })).backlinks).toEqual([{ path: "Crowded.canvas", count: LINKS }]);
				expect(resolutions).toBeLessThan(100);
			}
		} finally {
			cache.getFirstLinkpathDest = original;
		}
	}, 60_000);

	test(`a card that would take the canvas past ${CANVAS_MAX_LINKED_TEXT_CHARS} characters of text counts no links; the small card after it does`, async () => {
		expect((await callOk<Links>(client, "get_note_links", { path: "Other.md" })).backlinks).toEqual([{ path: "Huge.canvas", count: 1 }]);
	}, 60_000);
});
