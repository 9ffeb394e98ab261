import { readFileSync } from "node:fs";
import * as nodePath from "node:path";
import { Client as ClientV2, StreamableHTTPClientTransport as HttpTransportV2 } from "@modelcontextprotocol/client";
import { ALL_TOOLS } from "../../src/mcp/tools";
import { runCli, startServe, type ServingCli } from "../helpers/cli";
import { mcpHeaders, rawRequest } from "../helpers/http";
import { anyAnswerOf } from "../helpers/tools";
import { removeDir, copyDemoVault } from "../helpers/vault";

/**
 * MCP 2026-07-28 over real HTTP against the built CLI: the official v2 client (`@modelcontextprotocol/client`),
 * and raw requests for what a client library would never send (a Mcp-Name that disagrees with the body).
 */
const HEADLESS_TOOLS = ALL_TOOLS.filter((tool) => tool.needs !== "workspace");
const MODERN = "2026-07-28";

/** The `_meta` envelope every 2026-07-28 request carries instead of an `initialize` handshake. */
const ENVELOPE = {
	"io.modelcontextprotocol/protocolVersion": MODERN,
	"io.modelcontextprotocol/clientInfo": { name: "raw-2026", version: "1" },
	"io.modelcontextprotocol/clientCapabilities": {},
};

function modernCall(id: number, name: string, args: Record<string, unknown>, meta: Record<string, unknown> = ENVELOPE): string {
	return JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args, _meta: meta } });
}

describe("MCP 2026-07-28 (stateless, per-request _meta) beside the 2025 revisions", () => {
	let vault: string;
	let serving: ServingCli;
	let writeToken: string;
	let readToken: string;
	let deniedToken: string;

	const newToken = async (args: string[]) => (JSON.parse((await runCli(["token", "new", vault, "--json", ...args])).stdout) as { token: string }).token;

	async function connectModern(token: string, mode: "auto" | { pin: string } = { pin: MODERN }): Promise<ClientV2> {
		const client = new ClientV2({ name: "v2-client", version: "1" }, { versionNegotiation: { mode } });
		await client.connect(new HttpTransportV2(new URL(serving.url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
		return client;
	}

	beforeAll(async () => {
		vault = await copyDemoVault();
		writeToken = await newToken(["--name", "writer", "--level", "write", "--allow-all-writes"]);
		readToken = await newToken(["--name", "reader", "--level", "read"]);
		deniedToken = await newToken(["--name", "no-search", "--level", "write", "--allow-all-writes", "--deny", "search_notes"]);
		serving = await startServe([vault, "--port", "0", "--allow-write"]);
	});
	afterAll(async () => {
		await serving.stop();
		await removeDir(vault);
	});

	test("the v2 client pinned to 2026-07-28 discovers the server with no initialize, and lists the tools its token may use", async () => {
		const client = await connectModern(writeToken);
		try {
			expect(client.getProtocolEra()).toBe("modern");
			expect(client.getNegotiatedProtocolVersion()).toBe(MODERN);
			const discovered = client.getDiscoverResult();
			expect(discovered?.supportedVersions).toContain(MODERN);
			expect(discovered?._meta?.["io.modelcontextprotocol/serverInfo"]).toMatchObject({ name: "vault-mcp" });
			// The tool list changes only with the settings: no notification is promised for it. Notes and
			// prompts changes are sent on subscriptions/listen streams, and note paths complete.
			expect(discovered?.capabilities.tools).toEqual({ listChanged: false });
			expect(discovered?.capabilities.resources).toEqual({ listChanged: true, subscribe: true });
			expect(discovered?.capabilities.completions).toEqual({});
			expect(discovered?.instructions).toMatch(/Obsidian vault/);
			const { tools } = await client.listTools();
			expect(tools.map((tool) => tool.name).sort()).toEqual(HEADLESS_TOOLS.map((tool) => tool.name).sort());
			// The same trimmed list as every other revision: no output schemas.
			expect(tools.every((tool) => tool.outputSchema === undefined)).toBe(true);
		} finally {
			await client.close();
		}
		const reader = await connectModern(readToken);
		try {
			const names = (await reader.listTools()).tools.map((tool) => tool.name);
			expect(names).toContain("read_note");
			expect(names).not.toContain("append_to_note");
		} finally {
			await reader.close();
		}
	});

	test("'auto' negotiation picks 2026-07-28, and every read and write tool's examples succeed through it", async () => {
		const client = await connectModern(writeToken, "auto");
		try {
			expect(client.getNegotiatedProtocolVersion()).toBe(MODERN);
			for (const tool of HEADLESS_TOOLS) {
				for (const example of tool.examples) {
					const result = await client.callTool({ name: tool.name, arguments: example });
					expect({ tool: tool.name, isError: result.isError ?? false }).toEqual({ tool: tool.name, isError: false });
				}
			}
			const before = readFileSync(nodePath.join(vault, "Welcome.md"), "utf8");
			const appended = await client.callTool({ name: "append_to_note", arguments: { path: "Welcome", content: "Written at 2026-07-28." } });
			expect(appended.structuredContent).toMatchObject({ path: "Welcome.md" });
			expect(readFileSync(nodePath.join(vault, "Welcome.md"), "utf8")).toBe(`${before.replace(/\n*$/, "\n")}\nWritten at 2026-07-28.\n`);
			const read = await client.callTool({ name: "read_note", arguments: { path: "Welcome" } });
			expect((read.structuredContent as { content: string }).content).toContain("Written at 2026-07-28.");
			const resources = await client.listResources();
			expect(resources.resources.length).toBeGreaterThan(0);
		} finally {
			await client.close();
		}
	});

	test("a denied tool is absent and answers exactly like a tool that does not exist", async () => {
		const client = await connectModern(deniedToken);
		try {
			expect((await client.listTools()).tools.map((tool) => tool.name)).not.toContain("search_notes");
			const denied = await anyAnswerOf(client, "search_notes", { query: "home" });
			expect(denied).toHaveProperty("error.code", -32602);
			const unknown = await anyAnswerOf(client, "no_such_tool", { query: "home" });
			expect(JSON.stringify(denied).replace("search_notes", "T")).toBe(JSON.stringify(unknown).replace("no_such_tool", "T"));
		} finally {
			await client.close();
		}
	});

	test("each request's _meta chooses its revision: the same call answers in the 2026 shape with it and the 2025 shape without", async () => {
		const modernHeaders = mcpHeaders(serving.port, writeToken, [
			["MCP-Protocol-Version", MODERN],
			["Mcp-Method", "tools/call"],
			["Mcp-Name", "get_vault_status"],
		]);
		const modern = await rawRequest(serving.port, { headers: modernHeaders, body: modernCall(1, "get_vault_status", {}) });
		expect(modern.status).toBe(200);
		const modernResult = (JSON.parse(modern.body) as { result: Record<string, unknown> }).result;
		expect(modernResult.structuredContent).toMatchObject({ can_write: true });
		// 2026-07-28 results name the server in `_meta`; 2025 ones do not.
		expect(modernResult._meta).toMatchObject({ "io.modelcontextprotocol/serverInfo": { name: "vault-mcp" } });

		const legacyBody = JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "get_vault_status", arguments: {} } });
		const legacy = await rawRequest(serving.port, {
			headers: mcpHeaders(serving.port, writeToken, [["MCP-Protocol-Version", "2025-06-18"]]),
			body: legacyBody,
		});
		expect(legacy.status).toBe(200);
		const legacyResult = (JSON.parse(legacy.body) as { result: Record<string, unknown> }).result;
		expect(legacyResult.structuredContent).toMatchObject({ can_write: true });
		expect(legacyResult._meta).toBeUndefined();

		// A revision nobody serves, named in _meta: refused with the revisions that are.
		const unknown = await rawRequest(serving.port, {
			headers: mcpHeaders(serving.port, writeToken, [
				["Mcp-Method", "tools/call"],
				["Mcp-Name", "get_vault_status"],
			]),
			body: modernCall(3, "get_vault_status", {}, { ...ENVELOPE, "io.modelcontextprotocol/protocolVersion": "2099-01-01" }),
		});
		expect(unknown.status).toBe(400);
		expect(JSON.parse(unknown.body)).toMatchObject({ id: 3, error: { code: -32022, data: { supported: [MODERN], requested: "2099-01-01" } } });

		// The 2026-07-28 header on a body without the envelope: refused, not served as 2025.
		const noEnvelope = await rawRequest(serving.port, { headers: modernHeaders, body: legacyBody });
		expect(noEnvelope.status).toBe(400);
		expect(JSON.parse(noEnvelope.body)).toHaveProperty("error.code");
	});

	test("concurrent 2026-07-28 calls from two tokens each answer with their own grant (pooled servers never mix contexts)", async () => {
		const headersFor = (token: string) =>
			mcpHeaders(serving.port, token, [
				["MCP-Protocol-Version", MODERN],
				["Mcp-Method", "tools/call"],
				["Mcp-Name", "get_vault_status"],
			]);
		const calls = Array.from({ length: 16 }, (_, index) => {
			const writer = index % 2 === 0;
			return rawRequest(serving.port, {
				headers: headersFor(writer ? writeToken : readToken),
				body: modernCall(100 + index, "get_vault_status", {}),
			}).then((answer) => ({ writer, answer }));
		});
		for (const { writer, answer } of await Promise.all(calls)) {
			expect(answer.status).toBe(200);
			expect((JSON.parse(answer.body) as { result: { structuredContent: { can_write: boolean } } }).result.structuredContent.can_write).toBe(writer);
		}
	});

	test("a Mcp-Name header that disagrees with the body is refused and writes nothing; a repeated one is refused before the body is read", async () => {
		const target = nodePath.join(vault, "Mismatch.md");
		const body = modernCall(4, "create_note", { path: "Mismatch.md", content: "must not exist" });
		const headers = (name: string, extra: Array<[string, string]> = []) =>
			mcpHeaders(serving.port, writeToken, [["MCP-Protocol-Version", MODERN], ["Mcp-Method", "tools/call"], ["Mcp-Name", name], ...extra]);

		const mismatched = await rawRequest(serving.port, { headers: headers("read_note"), body });
		expect(mismatched.status).toBe(400);
		expect(JSON.parse(mismatched.body)).toMatchObject({ id: 4, error: { code: -32020 } });
		expect(() => readFileSync(target)).toThrow();

		const missing = await rawRequest(serving.port, {
			headers: mcpHeaders(serving.port, writeToken, [
				["MCP-Protocol-Version", MODERN],
				["Mcp-Method", "tools/call"],
			]),
			body,
		});
		expect(missing.status).toBe(400);
		expect(() => readFileSync(target)).toThrow();

		const repeated = await rawRequest(serving.port, { headers: headers("create_note", [["Mcp-Name", "create_note"]]), body });
		expect(repeated.status).toBe(400);
		expect(JSON.parse(repeated.body)).toMatchObject({ error: { message: "Send the Mcp-Name header at most once." } });
		expect(() => readFileSync(target)).toThrow();

		const matching = await rawRequest(serving.port, { headers: headers("create_note"), body });
		expect(matching.status).toBe(200);
		expect(readFileSync(target, "utf8")).toBe("must not exist\n");
	});

	test("the stricter rules hold at 2026-07-28 too: any Origin, a foreign Host or no token is refused; a subscription to what is not offered is acknowledged empty and closed", async () => {
		const body = modernCall(5, "get_vault_status", {});
		const std: Array<[string, string]> = [
			["MCP-Protocol-Version", MODERN],
			["Mcp-Method", "tools/call"],
			["Mcp-Name", "get_vault_status"],
		];
		const withOrigin = await rawRequest(serving.port, {
			headers: mcpHeaders(serving.port, writeToken, [...std, ["Origin", `http://localhost:${serving.port}`]]),
			body,
		});
		expect(withOrigin.status).toBe(403);
		const foreignHost = await rawRequest(serving.port, { headers: [["Host", "example.com"], ...mcpHeaders(serving.port, writeToken, std).slice(1)], body });
		expect(foreignHost.status).toBe(403);
		const noToken = await rawRequest(serving.port, { headers: mcpHeaders(serving.port, "not-a-token", std), body });
		expect(noToken.status).toBe(401);

		const listen = await rawRequest(serving.port, {
			headers: mcpHeaders(serving.port, writeToken, [
				["MCP-Protocol-Version", MODERN],
				["Mcp-Method", "subscriptions/listen"],
			]),
			body: JSON.stringify({
				jsonrpc: "2.0",
				id: 6,
				method: "subscriptions/listen",
				params: { notifications: { toolsListChanged: true }, _meta: ENVELOPE },
			}),
		});
		// Tool list changes are not offered: the stream acknowledges an empty filter and ends at once with its closing result.
		expect(listen.status).toBe(200);
		const frames = listen.body
			.split("\n")
			.filter((line) => line.startsWith("data: "))
			.map((line) => JSON.parse(line.slice("data: ".length)) as { method?: string; params?: unknown; id?: unknown; result?: unknown });
		expect(frames).toMatchObject([
			{ method: "notifications/subscriptions/acknowledged", params: { notifications: {}, _meta: { "io.modelcontextprotocol/subscriptionId": 6 } } },
			{ id: 6, result: { resultType: "complete" } },
		]);
	});
});
