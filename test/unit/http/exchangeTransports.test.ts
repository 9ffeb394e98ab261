import {
	CLIENT_CAPABILITIES_META_KEY,
	classifyInboundRequest,
	McpServer,
	PROTOCOL_VERSION_META_KEY,
	SUPPORTED_PROTOCOL_VERSIONS,
	type JSONRPCMessage,
	type MessageClassification,
} from "@modelcontextprotocol/server";
import { z } from "zod";
import { connectExchangeTransport, disconnectExchangeTransport, exchangeTransportOf, modernWireCodecOf } from "../../../src/http/exchangeTransports";
import { ExchangeTransport, type Answer, type ExchangeTransport as Transport } from "../../../src/http/statelessTransport";
import type { JsonPieces } from "../../../src/http/jsonPieces";

function newServer(): McpServer {
	return new McpServer({ name: "exchange-transport-test", version: "0.0.0" });
}

describe("a pooled server's own transport", () => {
	test("is connected once and found again without connecting per request", async () => {
		const server = newServer();
		expect(exchangeTransportOf(server)).toBeUndefined();
		const transport = await connectExchangeTransport(server);
		expect(transport).not.toBeNull();
		expect(server.server.transport).toBe(transport);
		expect(exchangeTransportOf(server)).toBe(transport);
		// Already connected: a second connect is refused rather than replacing the transport.
		expect(await connectExchangeTransport(server)).toBeNull();
		expect(exchangeTransportOf(server)).toBe(transport);
		await disconnectExchangeTransport(server);
	});

	test("is let go of, so the SDK's handler can connect the server for one request", async () => {
		const server = newServer();
		await connectExchangeTransport(server);
		await disconnectExchangeTransport(server);
		expect(server.server.transport).toBeUndefined();
		expect(exchangeTransportOf(server)).toBeUndefined();
		// Letting go twice is harmless.
		await disconnectExchangeTransport(server);
	});

	test("is forgotten when the server was closed from elsewhere", async () => {
		const server = newServer();
		await connectExchangeTransport(server);
		await server.close();
		expect(exchangeTransportOf(server)).toBeUndefined();
		// And a new one can be connected.
		const again = await connectExchangeTransport(server);
		expect(again).not.toBeNull();
		expect(exchangeTransportOf(server)).toBe(again);
		await disconnectExchangeTransport(server);
	});
});

describe("requests handed to a pooled server", () => {
	function echoServer(): McpServer {
		const server = newServer();
		server.registerTool("echo", { inputSchema: z.object({ text: z.string() }) }, ({ text }) => ({ content: [{ type: "text", text }] }));
		return server;
	}

	async function answersOf(transport: Transport, messages: JSONRPCMessage[]): Promise<string[]> {
		const bodies: string[] = [];
		for (const message of messages) {
			const exchange = transport.serve([message], 1, Infinity, (_answers: Answer[], body: JsonPieces) => bodies.push(body.pieces.join("")));
			await exchange.finished;
		}
		return bodies;
	}

	const messages: JSONRPCMessage[] = [
		{ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "echo", arguments: { text: "hi" } } },
		{ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "echo", arguments: { text: 3 } } },
		{ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "missing", arguments: {} } },
		{ jsonrpc: "2.0", id: "four", method: "no/such/method" },
		{ jsonrpc: "2.0", id: 5, method: "tools/list" },
	];

	test("go straight to the server's request dispatch and get the answers its message handler gives", async () => {
		const direct = echoServer();
		const transport = await connectExchangeTransport(direct);
		if (transport === null) throw new Error("not connected");
		// SDK 2.4.0's dispatch is found; an update that takes it away fails here, not silently in the bench.
		expect(transport.deliversRequestsDirectly).toBe(true);
		const throughHandler = echoServer();
		const plain = new ExchangeTransport();
		await throughHandler.connect(plain);
		expect(plain.deliversRequestsDirectly).toBe(false);
		const expected = await answersOf(plain, messages);
		expect(await answersOf(transport, messages)).toEqual(expected);
		expect(expected[0]).toContain('"text":"hi"');
		expect(expected[3]).toContain("-32601");
		await disconnectExchangeTransport(direct);
		await throughHandler.close();
	});
});

describe("a 2026-07-28 server's own wire codec", () => {
	const MODERN = "2026-07-28";
	const envelope = { [PROTOCOL_VERSION_META_KEY]: MODERN, [CLIENT_CAPABILITIES_META_KEY]: {} };

	function modernClassification(): MessageClassification {
		const outcome = classifyInboundRequest({
			httpMethod: "POST",
			protocolVersionHeader: MODERN,
			body: { jsonrpc: "2.0", id: 0, method: "tools/list", params: { _meta: envelope } },
		});
		if (outcome.kind !== "modern") throw new Error("not classified as 2026-07-28");
		return outcome.classification;
	}

	test("is found once the server is bound to 2026-07-28 and connected, and checks and encodes as the SDK's dispatch does", async () => {
		const server = new McpServer({ name: "codec-test", version: "1.2.3" }, { supportedProtocolVersions: [...SUPPORTED_PROTOCOL_VERSIONS, MODERN] });
		server.registerTool("echo", { inputSchema: z.object({ text: z.string() }) }, ({ text }) => ({ content: [{ type: "text", text }] }));
		expect(modernWireCodecOf(server, MODERN)).toBeNull();
		const transport = await connectExchangeTransport(server, modernClassification());
		if (transport === null) throw new Error("not connected");
		// SDK 2.4.0's codec is found; an update that takes it away fails here, not silently in the bench.
		const codec = modernWireCodecOf(server, MODERN);
		expect(codec).not.toBeNull();
		expect(codec?.checkInboundEnvelope({ envelope })).toBeUndefined();
		expect(codec?.checkInboundEnvelope({ envelope: { ...envelope, [CLIENT_CAPABILITIES_META_KEY]: "none" } })).toContain("envelope");
		expect(codec?.encodeResult("tools/call", { content: [] })).toEqual({
			content: [],
			resultType: "complete",
			_meta: { "io.modelcontextprotocol/serverInfo": { name: "codec-test", version: "1.2.3" } },
		});
		await disconnectExchangeTransport(server);
		// Let go of its transport (the SDK's handler serves it now): none.
		expect(modernWireCodecOf(server, MODERN)).toBeNull();
	});

	test("is none for a 2025-era server", async () => {
		const server = newServer();
		await connectExchangeTransport(server);
		expect(modernWireCodecOf(server, MODERN)).toBeNull();
		await disconnectExchangeTransport(server);
	});
});
