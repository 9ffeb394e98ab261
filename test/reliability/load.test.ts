import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import * as nodePath from "node:path";
import { promisify } from "node:util";
import { addToken } from "../../src/auth/tokenList";
import { ALL_TOOLS } from "../../src/mcp/tools";
import { heapAfterGc } from "../helpers/gc";
import { connectClient } from "../helpers/http";
import { startService, type RunningService } from "../helpers/service";
import { removeDir, copyDemoVault } from "../helpers/vault";

const CLIENTS = 8;
const REQUESTS = 2000;
const APPEND_TARGETS = ["Load A.md", "Load B.md", "Load C.md"];
const DRIVER = nodePath.join(__dirname, "load-clients.mjs");

interface LoadResult {
	accepted: string[];
	refused: string[];
	failures: string[];
	designed: number[];
}

describe("load: 8 clients, 2,000 mixed requests", () => {
	let vault: string;
	let running: RunningService;

	beforeAll(async () => {
		vault = await copyDemoVault();
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
		await running.service.apply({ ...settings, writeEnabled: true });
		const setup = await connectClient(running.url, tokens[0] ?? "");
		for (const target of APPEND_TARGETS) await setup.callTool({ name: "create_note", arguments: { path: target, content: "# Load\n" } });
		await setup.close();

		const readCalls = ALL_TOOLS.filter((tool) => tool.access === "read" && tool.needs !== "workspace").flatMap((tool) =>
			tool.examples.map((example) => ({ name: tool.name, arguments: example })),
		);
		// The clients run in another process: this process's heap is the server's alone.
		const drive = async (count: number, prefix: string): Promise<LoadResult> => {
			const input = JSON.stringify({ url: running.url, tokens, count, prefix, targets: APPEND_TARGETS, readCalls });
			const { stdout } = await promisify(execFile)(process.execPath, [DRIVER, input], { maxBuffer: 16 * 1024 * 1024 });
			return JSON.parse(stdout) as LoadResult;
		};

		// A first, smaller run compiles code and fills the caches that stay; the run after it must not grow memory.
		await drive(400, "warm");
		const heapBefore = await heapAfterGc();
		const { accepted, refused, failures } = await drive(REQUESTS, "load-append");
		const heapAfter = await heapAfterGc();

		expect(failures).toEqual([]);
		expect(accepted.length + refused.length).toBe(REQUESTS / 5);
		const texts = APPEND_TARGETS.map((target) => readFileSync(nodePath.join(vault, target), "utf8")).join("\n");
		for (const marker of accepted) expect(texts.split(`${marker}\n`).length - 1).toBe(1);
		for (const marker of refused) expect(texts).not.toContain(`${marker}\n`);
		expect(heapAfter).toBeLessThanOrEqual(heapBefore * 1.1);
	}, 120_000);
});
