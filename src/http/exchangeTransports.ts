import type { McpServer, MessageClassification } from "@modelcontextprotocol/server";
import { ExchangeTransport } from "./statelessTransport";

/**
 * Each pooled MCP server's transport, connected the first time the server is lent and kept while
 * the server lives, so that nothing is connected or closed per request. A 2026-07-28 server is let
 * go of its transport only when a request needs the SDK's own handler, which connects the server itself.
 */
const transports = new WeakMap<McpServer, ExchangeTransport>();

/**
 * The server's transport if it is still connected to it (a lookup, no await: an await costs a
 * turn even when nothing is pending). One the server was closed from meanwhile is forgotten.
 */
export function exchangeTransportOf(server: McpServer): ExchangeTransport | undefined {
	const transport = transports.get(server);
	if (transport === undefined || server.server.transport === transport) return transport;
	transports.delete(server);
	return undefined;
}

/**
 * Connects the server to a new transport of its own, classified as `classification` (none for
 * 2025-era servers); null when the server is connected to another transport. A server that does
 * not list the classified revision is not bound to it, and the SDK refuses each request it is
 * given before any handler runs, so the SDK's HTTP handler serves them (http/serveModern.ts).
 */
export async function connectExchangeTransport(server: McpServer, classification?: MessageClassification): Promise<ExchangeTransport | null> {
	if (server.server.transport !== undefined) return null;
	const transport = new ExchangeTransport(classification);
	await server.connect(transport);
	transports.set(server, transport);
	return transport;
}

/** Lets the server go of its own transport, so the SDK's handler can connect it for one request. */
export async function disconnectExchangeTransport(server: McpServer): Promise<void> {
	if (!transports.delete(server)) return;
	await server.close();
}
