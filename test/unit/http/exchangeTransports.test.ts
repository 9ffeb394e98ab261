import { McpServer } from "@modelcontextprotocol/server";
import { connectExchangeTransport, disconnectExchangeTransport, exchangeTransportOf } from "../../../src/http/exchangeTransports";

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
