import { TOOL_LIST_ALL_MAX_BYTES, TOOL_LIST_READ_MAX_BYTES } from "../../src/config/limits";
import { ALL_TOOLS } from "../../src/mcp/tools";
import { mcpHeaders, rawRequest } from "../helpers/http";
import { startService, type RunningService } from "../helpers/service";
import { Workspace } from "../double/obsidian";
import { makeVault, removeDir } from "../helpers/vault";

/**
 * Every client reads the whole tools/list answer into the model's context on every session, so
 * its size is a budget: the bytes of the HTTP response body, as `npm run bench` counts them. When
 * the list was trimmed to what a model needs: 13,481 → 5,830 bytes read, 18,926 → 9,184 with every tool.
 */
describe("the tools/list budget", () => {
	let vault: string;
	let running: RunningService;

	beforeAll(async () => {
		vault = await makeVault({ "Note.md": "text" });
		running = await startService(vault, { levels: ["read", "write"], settings: { writeEnabled: true, writeDisclosureAccepted: true } });
		// Counted as inside Obsidian, where the tools of its window are listed too: the longer list.
		Object.assign(running.host, { workspace: new Workspace(running.host) });
	});
	afterAll(async () => {
		await running.stop();
		await removeDir(vault);
	});

	async function listed(token: string): Promise<{ bytes: number; names: string[] }> {
		const response = await rawRequest(running.port, {
			headers: mcpHeaders(running.port, token),
			body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
		});
		expect(response.status).toBe(200);
		const names = (JSON.parse(response.body) as { result: { tools: Array<{ name: string }> } }).result.tools.map((tool) => tool.name);
		return { bytes: Buffer.byteLength(response.body, "utf8"), names };
	}

	test(`a read token's tools/list is at most ${TOOL_LIST_READ_MAX_BYTES} bytes`, async () => {
		const { bytes, names } = await listed(running.tokens.read ?? "");
		expect(names).toEqual(ALL_TOOLS.filter((tool) => tool.access === "read").map((tool) => tool.name));
		expect(bytes).toBeLessThanOrEqual(TOOL_LIST_READ_MAX_BYTES);
	});

	test(`a write token's tools/list, with every tool, is at most ${TOOL_LIST_ALL_MAX_BYTES} bytes`, async () => {
		const { bytes, names } = await listed(running.tokens.write ?? "");
		expect(names).toEqual(ALL_TOOLS.map((tool) => tool.name));
		expect(bytes).toBeLessThanOrEqual(TOOL_LIST_ALL_MAX_BYTES);
	});
});
