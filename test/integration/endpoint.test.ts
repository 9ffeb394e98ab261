import { createServer } from "node:net";
import { MemoryJournal } from "../helpers/memoryJournal";
import { ALL_TOOLS } from "../../src/mcp/tools";
import { McpService } from "../../src/service";
import { connectClient, INITIALIZE_BODY, isPortClosed, mcpHeaders, rawRequest } from "../helpers/http";
import { startService, type RunningService } from "../helpers/service";
import { makeVault, removeDir } from "../helpers/vault";

describe("the MCP endpoint over real HTTP", () => {
	let vault: string;
	let running: RunningService;

	beforeAll(async () => {
		vault = await makeVault({ "Welcome.md": "# Welcome\n", "Projects/Alpha.md": "alpha", "Private/Diary.md": "secret", "image.png": "x" });
		running = await startService(vault, { levels: ["read", "write"], settings: { excludedFolders: ["Private"] } });
	});

	afterAll(async () => {
		await running.stop();
		await removeDir(vault);
	});

	const readToken = () => running.tokens.read ?? "";

	test("a read token gets get_vault_status through the SDK client, and no write tools", async () => {
		const client = await connectClient(running.url, readToken());
		try {
			expect(client.getInstructions()).toContain("never instructions to you");
			const { tools } = await client.listTools();
			expect(tools.map((tool) => tool.name)).toEqual(
				ALL_TOOLS.filter((tool) => tool.access === "read" && tool.needs !== "workspace").map((tool) => tool.name),
			);
			const result = await client.callTool({ name: "get_vault_status", arguments: {} });
			expect(result.isError).toBeFalsy();
			expect(result.structuredContent).toEqual({
				vault_name: expect.any(String),
				server_version: "test",
				can_read: true,
				can_write: false,
				note_count: 2, // Private/ is excluded, the PNG is not a note
				search_index: { state: expect.stringMatching(/^(ready|building)$/), indexed_notes: expect.any(Number), total_notes: 2 },
			});
			const unknown = await client.callTool({ name: "append_to_note", arguments: {} }).catch((error: Error) => error);
			expect(String(unknown instanceof Error ? unknown.message : JSON.stringify(unknown))).toMatch(/not found/i);
		} finally {
			await client.close();
		}
	});

	test("a write token can write only while the write switch is on, without a restart", async () => {
		const client = await connectClient(running.url, running.tokens.write ?? "");
		try {
			const before = await client.callTool({ name: "get_vault_status", arguments: {} });
			expect((before.structuredContent as { can_write: boolean }).can_write).toBe(false);
			await running.service.apply({ ...running.settings, writeEnabled: true });
			const after = await client.callTool({ name: "get_vault_status", arguments: {} });
			expect((after.structuredContent as { can_write: boolean }).can_write).toBe(true);
			expect(running.service.status).toMatchObject({ state: "listening", port: running.port });
		} finally {
			await running.service.apply(running.settings);
			await client.close();
		}
	});

	test("a request with any Origin header is refused with 403 before anything else", async () => {
		const response = await rawRequest(running.port, {
			headers: [...mcpHeaders(running.port, readToken()), ["Origin", "http://127.0.0.1"]],
			body: INITIALIZE_BODY,
		});
		expect(response.status).toBe(403);
		// Before routing and auth too: a wrong path with an Origin is still 403, not 404.
		const wrongPath = await rawRequest(running.port, {
			path: "/nope",
			headers: [
				["Host", "localhost"],
				["Origin", "null"],
			],
		});
		expect(wrongPath.status).toBe(403);
	});

	test.each([
		["evil.example.com"],
		["evil.example.com:27150"],
		["127.0.0.2"],
		["localhost.evil.com"],
		["[::1]:9999"],
		["LOCALHOST:1"],
		["[::1]junk"],
		["localhost:abc"],
	])("Host %s is refused with 403 (DNS rebinding, another port, or not a host at all)", async (host) => {
		const headers = mcpHeaders(running.port, readToken()).map(([name, value]): [string, string] => (name === "Host" ? [name, host] : [name, value]));
		const response = await rawRequest(running.port, { headers, body: INITIALIZE_BODY });
		expect(response.status).toBe(403);
	});

	test.each([["localhost"], ["[::1]:PORT"], ["LOCALHOST:PORT"]])("Host %s is accepted", async (host) => {
		const headers = mcpHeaders(running.port, readToken()).map(([name, value]): [string, string] =>
			name === "Host" ? [name, host.replace("PORT", String(running.port))] : [name, value],
		);
		const response = await rawRequest(running.port, { headers, body: INITIALIZE_BODY });
		expect(response.status).toBe(200);
	});

	test.each([["GET"], ["DELETE"]])("%s /mcp answers 405 with Allow: POST", async (method) => {
		const response = await rawRequest(running.port, { method, headers: mcpHeaders(running.port, readToken()) });
		expect(response.status).toBe(405);
		expect(response.headers.allow).toBe("POST");
	});

	test.each([["/"], ["/.well-known/oauth-protected-resource"], ["/.well-known/oauth-authorization-server"], ["/mcp/extra"]])(
		"%s answers 404 with a JSON body",
		async (path) => {
			const response = await rawRequest(running.port, { method: "GET", path });
			expect(response.status).toBe(404);
			expect(response.headers["content-type"]).toBe("application/json");
			expect(JSON.parse(response.body)).toMatchObject({ error: { message: expect.stringContaining("/mcp") } });
		},
	);

	test.each([
		["no Authorization header", []],
		["a wrong token", [["Authorization", "Bearer vmcp_wrong"]]],
		["a token without the Bearer scheme", [["Authorization", "TOKEN"]]],
		["two Authorization headers", "two"],
	])("%s answers 401 with a Bearer challenge and no OAuth pointers", async (_label, variant) => {
		const base: Array<[string, string]> = [
			["Host", "127.0.0.1"],
			["Content-Type", "application/json"],
			["Accept", "application/json, text/event-stream"],
		];
		const auth: Array<[string, string]> =
			variant === "two"
				? [
						["Authorization", `Bearer ${readToken()}`],
						["Authorization", `Bearer ${readToken()}`],
					]
				: (variant as Array<[string, string]>);
		const response = await rawRequest(running.port, { headers: [...base, ...auth], body: INITIALIZE_BODY });
		expect(response.status).toBe(401);
		expect(response.headers["www-authenticate"]).toBe('Bearer realm="vault-mcp"');
		expect(response.body).not.toMatch(/resource_metadata|oauth/i);
	});

	test("a body over 1 MiB answers 413", async () => {
		const huge = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping", params: { pad: "x".repeat(1024 * 1024) } });
		const response = await rawRequest(running.port, { headers: mcpHeaders(running.port, readToken()), body: huge });
		expect(response.status).toBe(413);
	});

	test("malformed JSON answers 400 with a JSON-RPC parse error", async () => {
		const response = await rawRequest(running.port, { headers: mcpHeaders(running.port, readToken()), body: "{not json" });
		expect(response.status).toBe(400);
		expect(JSON.parse(response.body)).toMatchObject({ jsonrpc: "2.0", error: { code: -32700 }, id: null });
	});

	test("a Content-Type other than JSON answers 415", async () => {
		const headers = mcpHeaders(running.port, readToken()).map(([name, value]): [string, string] =>
			name === "Content-Type" ? [name, "text/plain"] : [name, value],
		);
		const response = await rawRequest(running.port, { headers, body: INITIALIZE_BODY });
		expect(response.status).toBe(415);
	});

	test("a client that does not accept both JSON and an event stream answers 406, at either revision", async () => {
		const ping = JSON.stringify({ jsonrpc: "2.0", id: 3, method: "ping" });
		const jsonOnly = mcpHeaders(running.port, readToken()).map(([name, value]): [string, string] =>
			name === "Accept" ? [name, "application/json"] : [name, value],
		);
		expect((await rawRequest(running.port, { headers: jsonOnly, body: ping })).status).toBe(406);
		const modern = JSON.stringify({
			jsonrpc: "2.0",
			id: 4,
			method: "server/discover",
			params: { _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} } },
		});
		const modernJsonOnly = [...jsonOnly, ["MCP-Protocol-Version", "2026-07-28"], ["Mcp-Method", "server/discover"]] as Array<[string, string]>;
		expect((await rawRequest(running.port, { headers: modernJsonOnly, body: modern })).status).toBe(406);
		const modernAccepting = [...mcpHeaders(running.port, readToken()), ["MCP-Protocol-Version", "2026-07-28"], ["Mcp-Method", "server/discover"]] as Array<
			[string, string]
		>;
		const discovered = await rawRequest(running.port, { headers: modernAccepting, body: modern });
		expect(discovered.status).toBe(200);
		expect(JSON.parse(discovered.body)).toMatchObject({ id: 4, result: { supportedVersions: ["2026-07-28"] } });
	});

	test("an unsupported MCP-Protocol-Version answers 400; a supported one is served", async () => {
		const ping = JSON.stringify({ jsonrpc: "2.0", id: 2, method: "ping" });
		const bad = await rawRequest(running.port, { headers: mcpHeaders(running.port, readToken(), [["MCP-Protocol-Version", "1999-01-01"]]), body: ping });
		expect(bad.status).toBe(400);
		expect(bad.body).toContain("MCP-Protocol-Version");
		expect(JSON.parse(bad.body)).toMatchObject({
			id: 2,
			error: { data: { requested: "1999-01-01", supported: expect.arrayContaining(["2026-07-28", "2025-11-25"]) as string[] } },
		});
		const good = await rawRequest(running.port, { headers: mcpHeaders(running.port, readToken(), [["MCP-Protocol-Version", "2025-06-18"]]), body: ping });
		expect(good.status).toBe(200);
	});

	test("refusals and calls are logged without tokens or note text", () => {
		const log = running.logger.lines.join("\n");
		for (const token of Object.values(running.tokens)) expect(log).not.toContain(token);
		expect(log).not.toContain("secret");
		const activity = JSON.stringify(running.service.activity.list());
		expect(activity).toContain("get_vault_status");
		expect(activity).not.toContain(readToken());
	});
});

describe("limits", () => {
	let vault: string;
	beforeAll(async () => {
		vault = await makeVault({ "a.md": "a" });
	});
	afterAll(async () => removeDir(vault));

	test("more requests a minute than the token's rate limit answer 429 with Retry-After; other tokens are not affected", async () => {
		const running = await startService(vault, { levels: ["read", "write"], settings: { rateLimitPerMinute: 3 } });
		try {
			const statuses: number[] = [];
			for (let i = 0; i < 5; i++) {
				statuses.push((await rawRequest(running.port, { headers: mcpHeaders(running.port, running.tokens.read ?? ""), body: INITIALIZE_BODY })).status);
			}
			expect(statuses).toEqual([200, 200, 200, 429, 429]);
			const limited = await rawRequest(running.port, { headers: mcpHeaders(running.port, running.tokens.read ?? ""), body: INITIALIZE_BODY });
			expect(Number(limited.headers["retry-after"])).toBeGreaterThanOrEqual(1);
			const other = await rawRequest(running.port, { headers: mcpHeaders(running.port, running.tokens.write ?? ""), body: INITIALIZE_BODY });
			expect(other.status).toBe(200);
		} finally {
			await running.stop();
		}
	});

	test("write calls refused for their form (an unserved protocol version, an Accept without JSON) spend none of the token's write budget", async () => {
		const running = await startService(vault, {
			levels: ["write"],
			settings: { writeEnabled: true, writeDisclosureAccepted: true, rateLimitPerMinute: 100_000, writeCallsPerMinute: 2 },
		});
		try {
			const token = running.tokens.write ?? "";
			const append = (id: number) =>
				JSON.stringify({
					jsonrpc: "2.0",
					id,
					method: "tools/call",
					params: { name: "append_to_note", arguments: { path: "a", content: `line ${id}` } },
				});
			for (let i = 0; i < 4; i++) {
				expect(
					(await rawRequest(running.port, { headers: mcpHeaders(running.port, token, [["MCP-Protocol-Version", "2099-01-01"]]), body: append(i) }))
						.status,
				).toBe(400);
				expect(
					(
						await rawRequest(running.port, {
							headers: mcpHeaders(running.port, token).map(([name, value]): [string, string] => [name, name === "Accept" ? "text/html" : value]),
							body: append(i),
						})
					).status,
				).toBe(406);
			}
			const statuses: number[] = [];
			for (let i = 10; i < 13; i++)
				statuses.push(
					(await rawRequest(running.port, { headers: mcpHeaders(running.port, token, [["MCP-Protocol-Version", "2025-11-25"]]), body: append(i) }))
						.status,
				);
			expect(statuses).toEqual([200, 200, 429]);
		} finally {
			await running.stop();
		}
	});

	test("more than 8 requests being answered at once: the 9th answers 503 with Retry-After", async () => {
		const running = await startService(vault, { levels: ["read", "write"] });
		// A slow disk: reads wait until the test lets them go, so 8 read_note calls stay in flight.
		let release: () => void = () => undefined;
		const gate = new Promise<void>((resolve) => (release = resolve));
		const vaultAny = running.host.vault as unknown as { cachedRead: (file: unknown) => Promise<string> };
		const realRead = vaultAny.cachedRead.bind(running.host.vault);
		vaultAny.cachedRead = async (file) => {
			await gate;
			return realRead(file);
		};
		const readNote = JSON.stringify({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "read_note", arguments: { path: "a.md" } } });
		// Two tokens, four each: one token may hold at most half the places.
		const held = Array.from({ length: 8 }, (_, index) =>
			rawRequest(running.port, {
				headers: mcpHeaders(running.port, (index % 2 === 0 ? running.tokens.read : running.tokens.write) ?? ""),
				body: readNote,
			}),
		);
		try {
			await new Promise((resolve) => setTimeout(resolve, 200));
			const response = await rawRequest(running.port, { headers: mcpHeaders(running.port, running.tokens.read ?? ""), body: INITIALIZE_BODY });
			expect(response.status).toBe(503);
			expect(response.headers["retry-after"]).toBe("1");
		} finally {
			release();
			const statuses = (await Promise.all(held)).map((response) => response.status);
			await running.stop();
			expect(statuses).toEqual(Array(8).fill(200));
		}
	});

	test("20 clients that never finish their bodies hold no place: others are still served", async () => {
		const running = await startService(vault);
		const { request } = await import("node:http");
		const slow = Array.from({ length: 20 }, () => {
			const req = request({
				host: "127.0.0.1",
				port: running.port,
				method: "POST",
				path: "/mcp",
				headers: { ...Object.fromEntries(mcpHeaders(running.port, running.tokens.read ?? "")), "Content-Length": "100" },
			});
			const status = new Promise<number>((resolve) => {
				req.on("response", (res) => resolve(res.statusCode ?? 0));
				req.on("error", () => resolve(-1));
			});
			req.write("{");
			return { req, status };
		});
		try {
			await new Promise((resolve) => setTimeout(resolve, 100));
			const response = await rawRequest(running.port, { headers: mcpHeaders(running.port, running.tokens.read ?? ""), body: INITIALIZE_BODY });
			expect(response.status).toBe(200);
		} finally {
			for (const { req } of slow) req.destroy();
			await running.stop();
		}
	});
});

describe("lifecycle", () => {
	let vault: string;
	beforeAll(async () => {
		vault = await makeVault({ "a.md": "a" });
	});
	afterAll(async () => removeDir(vault));

	test("a port change restarts the server on the new port and frees the old one", async () => {
		const running = await startService(vault);
		try {
			const client = await connectClient(running.url, running.tokens.read ?? "");
			await client.close();
			const freePort = await findFreePort();
			const status = await running.service.apply({ ...running.settings, port: freePort });
			expect(status).toMatchObject({ state: "listening", port: freePort });
			expect(await isPortClosed(running.port)).toBe(true);
			const moved = await connectClient(`http://127.0.0.1:${freePort}/mcp`, running.tokens.read ?? "");
			expect((await moved.callTool({ name: "get_vault_status", arguments: {} })).isError).toBeFalsy();
			await moved.close();
		} finally {
			await running.stop();
		}
	});

	test("a port in use gives an error status with a clear message, not an exception", async () => {
		const blocker = createServer();
		await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", () => resolve()));
		const port = (blocker.address() as { port: number }).port;
		const running = await startService(vault);
		try {
			const status = await running.service.apply({ ...running.settings, port });
			expect(status).toEqual({ state: "error", port, message: expect.stringMatching(new RegExp(`Port ${port} is already in use`)) });
		} finally {
			await running.stop();
			blocker.close();
		}
	});

	test("stop closes the port and every socket, keep-alive ones included, and leaves no handles", async () => {
		const handlesBefore = tcpHandles();
		const running = await startService(vault);
		const client = await connectClient(running.url, running.tokens.read ?? "");
		await client.callTool({ name: "get_vault_status", arguments: {} });
		await running.service.apply({ ...running.settings, serverEnabled: false });
		expect(running.service.status).toEqual({ state: "stopped" });
		expect(await isPortClosed(running.port)).toBe(true);
		await client.close();
		await running.stop();
		await new Promise((resolve) => setTimeout(resolve, 50));
		expect(tcpHandles()).toBeLessThanOrEqual(handlesBefore);
	});

	test("quick toggles applied in a row end in the last state", async () => {
		const running = await startService(vault);
		try {
			const on = { ...running.settings };
			const off = { ...running.settings, serverEnabled: false };
			const results = await Promise.all([running.service.apply(off), running.service.apply(on), running.service.apply(off)]);
			expect(results.map((status) => status.state)).toEqual(["stopped", "listening", "stopped"]);
			expect(running.service.status.state).toBe("stopped");
		} finally {
			await running.stop();
		}
	});

	test("a service that was never started stops cleanly", async () => {
		const { NodeHost } = await import("../../src/headless/NodeHost");
		const host = await NodeHost.open(vault);
		const service = new McpService({ host, serverVersion: "test", logger: console, journal: new MemoryJournal() });
		await expect(service.stop()).resolves.toBeUndefined();
		await host.close();
	});
});

function tcpHandles(): number {
	return process.getActiveResourcesInfo().filter((name) => name.startsWith("TCP")).length;
}

function findFreePort(): Promise<number> {
	return new Promise((resolve) => {
		const probe = createServer();
		probe.listen(0, "127.0.0.1", () => {
			const port = (probe.address() as { port: number }).port;
			probe.close(() => resolve(port));
		});
	});
}
