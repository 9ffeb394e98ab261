import { request } from "node:http";
import { Client as ClientV2, StreamableHTTPClientTransport as HttpTransportV2 } from "@modelcontextprotocol/client";
import { startEndpoint, type RunningEndpoint } from "../../helpers/endpoint";
import { mcpHeaders, rawRequest } from "../../helpers/http";

const MODERN = "2026-07-28";
const ENVELOPE = {
	"io.modelcontextprotocol/protocolVersion": MODERN,
	"io.modelcontextprotocol/clientInfo": { name: "raw-2026", version: "1" },
	"io.modelcontextprotocol/clientCapabilities": {},
};
const modernCall = (id: number, name: string, args: Record<string, unknown>) =>
	JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args, _meta: ENVELOPE } });

/** 2026-07-28 requests through the SDK's own handler, as the v2 client and raw HTTP see them. */
describe("serveModern: 2026-07-28 requests", () => {
	let running: RunningEndpoint;
	const MAX_ANSWER = 64 * 1024;
	beforeAll(async () => (running = await startEndpoint({ deadlinesAndCaps: { maxResponseBodyBytes: MAX_ANSWER } })));
	afterAll(async () => await running.close());
	beforeEach(() => running.lends.splice(0));

	const headersFor = (name: string, method = "tools/call") =>
		mcpHeaders(running.port, running.readToken, [
			["MCP-Protocol-Version", MODERN],
			["Mcp-Method", method],
			["Mcp-Name", name],
		]);

	test("the v2 client pinned to 2026-07-28 discovers the server without initialize and calls a tool; every server lent is a 2026 one, given back", async () => {
		const client = new ClientV2({ name: "v2-client", version: "1" }, { versionNegotiation: { mode: { pin: MODERN } } });
		await client.connect(new HttpTransportV2(new URL(running.url), { requestInit: { headers: { Authorization: `Bearer ${running.readToken}` } } }));
		try {
			expect(client.getNegotiatedProtocolVersion()).toBe(MODERN);
			expect(client.getDiscoverResult()?._meta?.["io.modelcontextprotocol/serverInfo"]).toMatchObject({ name: "endpoint-test" });
			expect((await client.listTools()).tools.map((tool) => tool.name).sort()).toEqual(["big", "echo", "shout", "wait"]);
			expect(await client.callTool({ name: "echo", arguments: { text: "2026" } })).toMatchObject({ content: [{ type: "text", text: "2026" }] });
		} finally {
			await client.close();
		}
		expect(running.lends.length).toBeGreaterThanOrEqual(2);
		expect(new Set(running.lends.map((lend) => lend.era))).toEqual(new Set(["modern"]));
		expect(running.outstanding()).toBe(0);
	});

	test("a raw call answers in JSON with the server named in the result's _meta", async () => {
		const response = await rawRequest(running.port, { headers: headersFor("echo"), body: modernCall(7, "echo", { text: "raw" }) });
		expect(response.status).toBe(200);
		expect(response.headers["content-type"]).toMatch(/^application\/json/);
		expect(Number(response.headers["content-length"])).toBe(Buffer.byteLength(response.body));
		const answer = JSON.parse(response.body) as { id: number; result: { content: unknown; _meta: Record<string, unknown> } };
		expect(answer.id).toBe(7);
		expect(answer.result.content).toEqual([{ type: "text", text: "raw" }]);
		expect(answer.result._meta).toMatchObject({ "io.modelcontextprotocol/serverInfo": { name: "endpoint-test" } });
	});

	test("a Mcp-Name that disagrees with the body is refused 400 (-32020) and no tool runs", async () => {
		const response = await rawRequest(running.port, { headers: headersFor("shout"), body: modernCall(8, "echo", { text: "no" }) });
		expect(response.status).toBe(400);
		expect(JSON.parse(response.body)).toMatchObject({ id: 8, error: { code: -32020 } });
	});

	test("an answer over the byte cap is replaced by a short error with the request's id, as at 2025 revisions", async () => {
		const response = await rawRequest(running.port, { headers: headersFor("big"), body: modernCall(9, "big", { bytes: MAX_ANSWER * 2 }) });
		expect(response.status).toBe(200);
		expect(Number(response.headers["content-length"])).toBe(Buffer.byteLength(response.body));
		expect(JSON.parse(response.body)).toMatchObject({
			jsonrpc: "2.0",
			id: 9,
			error: { code: -32000, message: expect.stringContaining(`over ${MAX_ANSWER} bytes`) },
		});
	});

	test("subscriptions/listen, with no change feed given, is a method this server does not have (404, -32601), and no server is lent", async () => {
		const body = JSON.stringify({ jsonrpc: "2.0", id: 11, method: "subscriptions/listen", params: { _meta: ENVELOPE } });
		const response = await rawRequest(running.port, {
			headers: mcpHeaders(running.port, running.readToken, [
				["MCP-Protocol-Version", MODERN],
				["Mcp-Method", "subscriptions/listen"],
			]),
			body,
		});
		expect(response.status).toBe(404);
		expect(JSON.parse(response.body)).toMatchObject({ id: 11, error: { code: -32601, message: expect.stringContaining("no subscriptions") } });
		expect(running.lends).toHaveLength(0);
	});

	test("a client that goes away mid-call leaves no server lent once the call is done", async () => {
		const req = request({ host: "127.0.0.1", port: running.port, method: "POST", path: "/mcp", headers: Object.fromEntries(headersFor("wait")) });
		req.on("error", () => undefined);
		req.end(modernCall(12, "wait", {}));
		await running.waiting(1);
		expect(running.outstanding()).toBe(1);
		req.destroy();
		running.openGate();
		await running.endpoint.drain();
		expect(running.outstanding()).toBe(0);
	});
});
