import { request } from "node:http";
import { startEndpoint, type RunningEndpoint } from "../../helpers/endpoint";
import { connectClient, mcpHeaders, rawRequest } from "../../helpers/http";
import { toolCall } from "../../helpers/sockets";

/** 2025-era requests (initialize, plain calls, batches) through our stateless transport, as a 1.x client and raw HTTP see them. */
describe("serveLegacy: 2025-era requests", () => {
	let running: RunningEndpoint;
	const MAX_ANSWER = 64 * 1024;
	beforeAll(async () => (running = await startEndpoint({ deadlinesAndCaps: { maxResponseBodyBytes: MAX_ANSWER } })));
	afterAll(async () => await running.close());
	beforeEach(() => running.lends.splice(0));

	const post = (body: unknown, token = running.readToken) =>
		rawRequest(running.port, { body: JSON.stringify(body), headers: mcpHeaders(running.port, token, [["MCP-Protocol-Version", "2025-06-18"]]) });

	test("the SDK's 1.x client initializes, lists and calls tools; each request borrows a 2025-era server and gives it back", async () => {
		const client = await connectClient(running.url, running.readToken);
		try {
			expect((await client.listTools()).tools.map((tool) => tool.name).sort()).toEqual(["big", "echo", "shout", "wait"]);
			expect(await client.callTool({ name: "echo", arguments: { text: "hello" } })).toMatchObject({ content: [{ type: "text", text: "hello" }] });
		} finally {
			await client.close();
		}
		expect(running.lends.length).toBeGreaterThanOrEqual(3);
		expect(new Set(running.lends.map((lend) => lend.era))).toEqual(new Set(["legacy"]));
		expect(running.outstanding()).toBe(0);
	});

	test("one JSON answer, with the right id and a JSON content type", async () => {
		const response = await post(toolCall(41, "echo", { text: "one" }));
		expect(response.status).toBe(200);
		expect(response.headers["content-type"]).toBe("application/json");
		expect(JSON.parse(response.body)).toMatchObject({ jsonrpc: "2.0", id: 41, result: { content: [{ type: "text", text: "one" }] } });
	});

	test("a batch is answered in one array, in the order its requests came, on one lent server", async () => {
		const response = await post([toolCall(3, "echo", { text: "c" }), toolCall(1, "echo", { text: "a" }), toolCall(2, "echo", { text: "b" })]);
		expect(response.status).toBe(200);
		const answers = JSON.parse(response.body) as Array<{ id: number; result: { content: Array<{ text: string }> } }>;
		expect(answers.map((answer) => [answer.id, answer.result.content[0]?.text])).toEqual([
			[3, "c"],
			[1, "a"],
			[2, "b"],
		]);
		expect(running.lends).toHaveLength(1);
	});

	test("notifications alone are accepted with 202 and no body", async () => {
		const response = await post({ jsonrpc: "2.0", method: "notifications/initialized" });
		expect(response.status).toBe(202);
		expect(response.body).toBe("");
	});

	test("JSON that is not a JSON-RPC message is refused 400 before any server is lent", async () => {
		const response = await post({ hello: "world" });
		expect(response.status).toBe(400);
		expect(JSON.parse(response.body)).toEqual({ jsonrpc: "2.0", id: null, error: { code: -32600, message: "Invalid Request: not a JSON-RPC message" } });
		const twoInitializes = await post([
			{
				jsonrpc: "2.0",
				id: 1,
				method: "initialize",
				params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "a", version: "1" } },
			},
			{
				jsonrpc: "2.0",
				id: 2,
				method: "initialize",
				params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "a", version: "1" } },
			},
		]);
		expect(twoInitializes.status).toBe(400);
		expect(JSON.parse(twoInitializes.body)).toMatchObject({ error: { code: -32600 } });
		expect(running.lends).toHaveLength(0);
	});

	test("an answer over the byte cap is replaced by a short error carrying the request's id", async () => {
		const response = await post(toolCall(9, "big", { bytes: MAX_ANSWER * 2 }));
		expect(response.status).toBe(200);
		expect(Buffer.byteLength(response.body)).toBeLessThan(1000);
		expect(JSON.parse(response.body)).toMatchObject({
			jsonrpc: "2.0",
			id: 9,
			error: { code: -32000, message: expect.stringContaining(`past ${MAX_ANSWER} bytes`) },
		});
		const fits = await post(toolCall(10, "big", { bytes: 1000 }));
		expect(JSON.parse(fits.body)).toMatchObject({ id: 10, result: { content: [{ text: "x".repeat(1000) }] } });
	});

	test("a client that goes away mid-call leaves no server lent once the call is done", async () => {
		const body = JSON.stringify(toolCall(5, "wait", {}));
		const req = request({
			host: "127.0.0.1",
			port: running.port,
			method: "POST",
			path: "/mcp",
			headers: Object.fromEntries(mcpHeaders(running.port, running.readToken)),
		});
		req.on("error", () => undefined);
		req.end(body);
		await running.waiting(1);
		expect(running.outstanding()).toBe(1);
		req.destroy();
		running.openGate();
		await running.endpoint.drain();
		expect(running.outstanding()).toBe(0);
	});
});
