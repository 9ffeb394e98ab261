import type { McpServer, MessageClassification } from "@modelcontextprotocol/server";
import { ExchangeTransport, type RequestReceiver } from "./statelessTransport";

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
	const receiver = requestDispatchOf(server);
	if (receiver !== null) transport.deliverRequestsTo(receiver);
	transports.set(server, transport);
	return transport;
}

/**
 * The server's own request dispatch, which `onmessage` calls for a message it has found to be a
 * request: the era gate, the method and envelope checks, the handler and its answer all happen
 * there, so a request handed to it directly is served exactly as through `onmessage`, without
 * three schema tests per message (about 30 µs of a 2026-07-28 call here). SDK 2.4.0 keeps it a
 * private method; when an update takes it away this is null and requests go through
 * `onmessage` as before (test/unit/http/exchangeTransports.test.ts notices).
 */
function requestDispatchOf(server: McpServer): RequestReceiver | null {
	const protocol = server.server as unknown as { _onrequest?: unknown };
	const dispatch = protocol._onrequest;
	if (typeof dispatch !== "function") return null;
	return (request, extra) => void (dispatch as (this: unknown, ...args: unknown[]) => unknown).call(protocol, request, extra);
}

/** Lets the server go of its own transport, so the SDK's handler can connect it for one request. */
export async function disconnectExchangeTransport(server: McpServer): Promise<void> {
	if (!transports.delete(server)) return;
	await server.close();
}
