import { readFileSync } from "node:fs";
import * as nodePath from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { addToken } from "../../src/auth/tokenList";
import { ALL_TOOLS } from "../../src/mcp/tools";
import { heapAfterGc } from "../helpers/gc";
import { startService, type RunningService } from "../helpers/service";
import { copyVault, removeDir } from "../helpers/vault";

const CLIENTS = 8;
const REQUESTS = 2000;
const APPEND_TARGETS = ["Load A.md", "Load B.md", "Load C.md"];

/** An HTTP status from an SDK transport error, or null for anything else. */
function statusOf(error: unknown): number | null {
	const code = (error as { code?: unknown }).code;
	return typeof code === "number" && code >= 400 ? code : null;
}

describe("load: 8 clients, 2,000 mixed requests", () => {
	let vault: string;
	let running: RunningService;

	beforeAll(async () => {
		vault = await copyVault(nodePath.resolve(__dirname, "../../demo-vault"));
		running = await startService(vault, { levels: ["write"], settings: { writeEnabled: true } });
	});
	afterAll(async () => {
		await running.stop();
		await removeDir(vault);
	});

	test("no failures but designed 429/503 answers; every accepted append lands once, no refused one does; memory comes back", async () => {
		// Each client has its own write token, so each has its own per-token rate limit (240 a minute).
		let settings = running.settings;
		const tokens: string[] = [];
		for (let index = 0; index < CLIENTS; index++) {
			const made = addToken(settings, `load-${index}`, "write");
			if ("error" in made) throw new Error(made.error);
			settings = made.settings;
			tokens.push(made.token);
		}
		settings = { ...settings, writeEnabled: true };
		await running.service.apply(settings);
		const setup = new Client({ name: "setup", version: "1" });
		await setup.connect(new StreamableHTTPClientTransport(new URL(running.url), { requestInit: { headers: { Authorization: `Bearer ${tokens[0] ?? ""}` } } }));
		for (const target of APPEND_TARGETS) await setup.callTool({ name: "create_note", arguments: { path: target, content: "# Load\n" } });
		await setup.close();

		const readCalls = ALL_TOOLS.filter((tool) => tool.access === "read").flatMap((tool) => tool.examples.map((example) => ({ name: tool.name, arguments: example })));
		const accepted: string[] = [];
		const refused: string[] = [];
		const failures: string[] = [];
		const designed: number[] = [];

		/** `count` mixed requests from the 8 clients at once; appends carry `prefix` markers. */
		const runLoad = (count: number, prefix: string) =>
			Promise.all(
				tokens.map(async (token, clientIndex) => {
					const client = new Client({ name: `load-${clientIndex}`, version: "1" });
					await client.connect(new StreamableHTTPClientTransport(new URL(running.url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
					for (let index = clientIndex; index < count; index += CLIENTS) {
						const kind = index % 10;
						const marker = `${prefix}-${index}`;
						try {
							if (kind < 2) {
								await client.listTools();
							} else if (kind < 4) {
								const result = await client.callTool({ name: "append_to_note", arguments: { path: APPEND_TARGETS[index % APPEND_TARGETS.length], content: marker } });
								(result.isError ? refused : accepted).push(marker);
							} else {
								const call = readCalls[index % readCalls.length];
								if (call) await client.callTool(call);
							}
						} catch (error) {
							const status = statusOf(error);
							if (status === 429 || status === 503) {
								designed.push(status);
								if (kind >= 2 && kind < 4) refused.push(marker);
							} else failures.push(`${index}: ${error instanceof Error ? error.message : String(error)}`);
						}
					}
					await client.close();
				}),
			);

		// A first, smaller run compiles code and fills the caches that stay; the run after it must not grow memory.
		await runLoad(400, "warm");
		const heapBefore = await heapAfterGc();
		accepted.length = 0;
		refused.length = 0;
		await runLoad(REQUESTS, "load-append");

		expect(failures).toEqual([]);
		expect(accepted.length + refused.length).toBe(REQUESTS / 5);
		const texts = APPEND_TARGETS.map((target) => readFileSync(nodePath.join(vault, target), "utf8")).join("\n");
		for (const marker of accepted) expect(texts.split(`${marker}\n`).length - 1).toBe(1);
		for (const marker of refused) expect(texts).not.toContain(`${marker}\n`);
		const heapAfter = await heapAfterGc();
		expect(heapAfter).toBeLessThanOrEqual(heapBefore * 1.1);
	}, 120_000);
});
