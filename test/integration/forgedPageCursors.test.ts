import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import fc from "fast-check";
import { connectClient } from "../helpers/http";
import { startService, type RunningService } from "../helpers/service";
import { callOk, callTool } from "../helpers/tools";
import { makeVault, removeDir } from "../helpers/vault";

/**
 * Generated, forged page cursors for get_note_links and list_tags, as a hostile client on the same computer sends them:
 * never a protocol error, never an excluded note's path or tag, whatever the cursor's key, order or bytes.
 */
const LINKERS = 60;

function forged(tool: string, after: unknown, order: unknown): string {
	return Buffer.from(JSON.stringify({ tool, after, order })).toString("base64url");
}

describe("forged page cursors reveal nothing and never break the server", () => {
	let vault: string;
	let running: RunningService;
	let reader: Client;
	let writer: Client;
	const realOrders: string[] = [];

	beforeAll(async () => {
		const files: Record<string, string> = { "Hub.md": "# Hub\n" };
		for (let index = 0; index < LINKERS; index++) files[`Daily/${index}.md`] = `[[Hub]] #open${index % 7}\n`;
		for (let index = 0; index < 10; index++) files[`Private/secret${index}.md`] = "[[Hub]] [[Hub]] [[Hub]] #hiddentag\n";
		vault = await makeVault(files);
		running = await startService(vault, { levels: ["read", "write"], settings: { excludedFolders: ["Private"], rateLimitPerMinute: 100_000 } });
		reader = await connectClient(running.url, running.tokens.read ?? "");
		writer = await connectClient(running.url, running.tokens.write ?? "");
		// Orders the server really made, for the other token: a cursor of one passed by the other.
		const links = await callOk<{ next_cursor?: string }>(writer, "get_note_links", { path: "Hub", limit: 5 });
		const tags = await callOk<{ next_cursor?: string }>(writer, "list_tags", { limit: 2 });
		for (const cursor of [links.next_cursor, tags.next_cursor]) {
			const { order } = JSON.parse(Buffer.from(cursor ?? "", "base64url").toString("utf8")) as { order?: string };
			if (order) realOrders.push(order);
		}
	}, 60_000);
	afterAll(async () => {
		await reader.close();
		await writer.close();
		await running.stop();
		await removeDir(vault);
	});

	const key = fc.oneof(
		fc.integer(),
		fc.double(),
		fc.string(),
		fc.constant("Private/secret1.md"),
		fc.constant(null),
		fc.string({ unit: "binary", maxLength: 300 }),
	);
	const order = () =>
		fc.oneof(
			fc.constant(undefined),
			fc.string(),
			fc.constantFrom(...realOrders),
			fc.stringMatching(/^[A-Za-z0-9_-]{12}\/\d{1,30}$/u),
			fc.constant("/"),
			fc.constant("x/-1"),
		);
	const cursor = (tool: string) =>
		fc.oneof(
			fc.string({ maxLength: 200 }),
			fc.base64String({ maxLength: 200 }),
			fc.tuple(fc.array(key, { maxLength: 3 }), order()).map(([after, named]) => forged(tool, after, named)),
			fc.tuple(fc.integer({ min: -5, max: 10 }), key, order()).map(([count, path, named]) => forged(tool, [count, path], named)),
		);

	function revealsNothing(text: string): void {
		expect(text).not.toMatch(/Private|secret|hiddentag/u);
	}

	test("get_note_links with any cursor: an answer or a tool error, the excluded linkers never named", async () => {
		await fc.assert(
			fc.asyncProperty(cursor("get_note_links"), fc.integer({ min: 1, max: 20 }), async (forgedCursor, limit) => {
				const outcome = await callTool(reader, "get_note_links", { path: "Hub", cursor: forgedCursor, limit });
				revealsNothing(JSON.stringify(outcome));
				if (outcome.ok) for (const { path } of outcome.value.backlinks as Array<{ path: string }>) expect(path).toMatch(/^Daily\/\d+\.md$/u);
			}),
			{ numRuns: 60 },
		);
	}, 60_000);

	test("list_tags with any cursor: an answer or a tool error, the excluded tag never named", async () => {
		await fc.assert(
			fc.asyncProperty(cursor("list_tags"), fc.integer({ min: 1, max: 20 }), async (forgedCursor, limit) => {
				const outcome = await callTool(reader, "list_tags", { cursor: forgedCursor, limit });
				revealsNothing(JSON.stringify(outcome));
			}),
			{ numRuns: 60 },
		);
	}, 60_000);
});
