import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { addToken } from "../../src/auth/tokenList";
import { defaultSettings, type VaultMcpSettings } from "../../src/config/settings";
import { NodeHost } from "../../src/headless/NodeHost";
import { McpService } from "../../src/service";
import { connectClient } from "../helpers/http";
import { MemoryJournal } from "../helpers/memoryJournal";
import { RecordingLogger } from "../helpers/service";
import { callOk } from "../helpers/tools";
import { makeVault, removeDir } from "../helpers/vault";

/** Notes with a task each: list_tasks walks all of them, one slice per note (every checkpoint ends a slice here). */
const NOTES = 60;
/** Calls the flooding token keeps in flight: its share of places (MAX_IN_FLIGHT_PER_TOKEN). */
const FLOOD_CALLS = 4;
/** How long the slow disk takes to give a note's text, and how many reads are timed. */
const DISK_MS = 5;
const READS = 10;

function vaultFiles(): Record<string, string> {
	const files: Record<string, string> = {};
	for (let index = 0; index < NOTES; index++) files[`Note ${index}.md`] = `# Note ${index}\n\n- [ ] task ${index} 📅 2026-01-1${index % 9}\n`;
	return files;
}

interface Running {
	service: McpService;
	host: NodeHost;
	url: string;
	tokens: [string, string];
	/** Turns of long work the lane has handed out so far. */
	turns: () => number;
}

/** A real server over HTTP with two read tokens, whose long work takes a turn at every checkpoint; its turns are counted. */
async function start(root: string): Promise<Running> {
	const host = await NodeHost.open(root);
	let settings: VaultMcpSettings = { ...defaultSettings(), serverEnabled: true, port: 0, rateLimitPerMinute: 100_000 };
	const first = addToken(settings, "flooder", "read");
	if ("error" in first) throw new Error(first.error);
	const second = addToken(first.settings, "other", "read");
	if ("error" in second) throw new Error(second.error);
	settings = second.settings;
	let turns = 0;
	const service = new McpService({
		host,
		serverVersion: "test",
		logger: new RecordingLogger(),
		journal: new MemoryJournal(),
		yieldToHost: () =>
			new Promise((resolve) =>
				setImmediate(() => {
					turns += 1;
					resolve();
				}),
			),
		callBudget: { sliceMs: 0 },
	});
	const status = await service.apply(settings);
	if (status.state !== "listening") throw new Error("the server did not start");
	return { service, host, url: status.url, tokens: [first.token, second.token], turns: () => turns };
}

describe("tokens take turns of long work, over HTTP", () => {
	let root: string;
	let running: Running;
	const clients: Client[] = [];
	beforeAll(async () => {
		root = await makeVault(vaultFiles());
		running = await start(root);
		await running.service.search?.whenWarmedUp();
	});
	afterAll(async () => {
		for (const client of clients) await client.close();
		await running.service.stop();
		await running.host.close();
		await removeDir(root);
	});

	test("one token's single vault-wide call, sent after another token's four, is answered while those four are still being worked on", async () => {
		const flooder = await connectClient(running.url, running.tokens[0]);
		const other = await connectClient(running.url, running.tokens[1]);
		clients.push(flooder, other);
		// Alone, the call takes a turn per note or so.
		const aloneFrom = running.turns();
		const alone = await callOk<{ total: number }>(other, "list_tasks", { status: "any", limit: 1000 });
		const aloneTurns = running.turns() - aloneFrom;
		expect(alone.total).toBe(NOTES);
		expect(aloneTurns).toBeGreaterThanOrEqual(NOTES / 2);

		const answered: number[] = [];
		const flood = Array.from({ length: FLOOD_CALLS }, () =>
			callOk<{ total: number }>(flooder, "list_tasks", { status: "any", limit: 1000 }).then((answer) => {
				answered.push(running.turns());
				return answer;
			}),
		);
		// The flooding calls are under way before the other token asks.
		const floodFrom = running.turns();
		while (running.turns() < floodFrom + FLOOD_CALLS * 2) await new Promise((resolve) => setImmediate(resolve));
		const otherFrom = running.turns();
		const answer = await callOk<{ total: number }>(other, "list_tasks", { status: "any", limit: 1000 });
		const otherTurns = running.turns() - otherFrom;
		const floodAnsweredBefore = answered.length;
		expect(answer.total).toBe(NOTES);
		for (const done of await Promise.all(flood)) expect(done.total).toBe(NOTES);

		// Its call was answered first: one line for all calls served the five in turn, so the four
		// sent first were answered first, and the other token's call took five times its turns.
		expect(floodAnsweredBefore).toBe(0);
		// Turns went to the two tokens in turn: about as many to the flooding token as to it while it was answered.
		expect(otherTurns).toBeLessThanOrEqual(2 * aloneTurns + 4);
	});

	test("another token's short call, with nothing else of its being answered, goes before the flooding token's next slices while it waits for the disk", async () => {
		const flooder = await connectClient(running.url, running.tokens[0]);
		const other = await connectClient(running.url, running.tokens[1]);
		clients.push(flooder, other);
		// The note's text comes from a slow disk: the read waits a few milliseconds, several turns of the event loop.
		const vault = running.host.vault;
		const floodLooksWhileReading: number[] = [];
		const fromDisk = vault.cachedRead.bind(vault);
		// The flood's slices are counted by the notes' metadata they look at (the read of the other token's call looks at none while it waits).
		let metadataLooks = 0;
		const metadata = running.host.metadataCache;
		const getFileCache = metadata.getFileCache.bind(metadata);
		const looks = jest.spyOn(metadata, "getFileCache").mockImplementation((file) => {
			metadataLooks += 1;
			return getFileCache(file);
		});
		const read = jest.spyOn(vault, "cachedRead").mockImplementation(async (file) => {
			const from = metadataLooks;
			await new Promise((resolve) => setTimeout(resolve, DISK_MS));
			floodLooksWhileReading.push(metadataLooks - from);
			return await fromDisk(file);
		});
		let flooding = true;
		const flood = Array.from({ length: FLOOD_CALLS }, async () => {
			while (flooding) await callOk(flooder, "list_tasks", { status: "any", limit: 1000 });
		});
		try {
			const floodFrom = running.turns();
			while (running.turns() < floodFrom + FLOOD_CALLS * 2) await new Promise((resolve) => setImmediate(resolve));
			for (let round = 0; round < READS; round++) {
				const answer = await callOk<{ content: string }>(other, "read_note", { path: `Note ${round}` });
				expect(answer.content).toContain(`task ${round}`);
			}
		} finally {
			flooding = false;
			await Promise.all(flood);
			read.mockRestore();
			looks.mockRestore();
		}
		// The flooding token's list_tasks read no note text: every read timed was the other token's.
		expect(floodLooksWhileReading).toHaveLength(READS);
		// No slice of the flood's ran while the read waited (before: 1 to 51 notes' metadata looked at each time): its answer is sent as soon as the disk has answered.
		expect(floodLooksWhileReading).toEqual(Array.from({ length: READS }, () => 0));
	});
});
