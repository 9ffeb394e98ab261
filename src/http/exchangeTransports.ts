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

/**
 * The parts of the SDK's 2026-07-28 wire codec a request answered without its dispatch goes through
 * (http/directAnswer.ts), exactly as its dispatch uses them: the `_meta` envelope's check, the
 * `tools/call` result's check, and the encoding every result is sent in (`resultType`, the cache
 * fields, the server's identity in `_meta`).
 */
export interface ModernWireCodec {
	/** The SDK's wording of why the envelope is refused; undefined when it is taken. */
	checkInboundEnvelope(material: { envelope: Record<string, unknown> }): string | undefined;
	validateResult(method: string, value: unknown): { ok: true; value: Record<string, unknown> } | { ok: false; message?: string };
	/** `result` as the SDK sends it, with this server's identity. */
	encodeResult(method: string, result: object): Record<string, unknown>;
}

interface SdkProtocolInternals {
	_negotiatedProtocolVersion?: unknown;
	_negotiatedWireCodec?: unknown;
	_outboundServerInfo?: unknown;
}

interface SdkWireCodec {
	checkInboundEnvelope?: unknown;
	validateResult?: unknown;
	encodeResult?: unknown;
}

const modernCodecs = new WeakMap<McpServer, ModernWireCodec>();

/**
 * The wire codec of a server bound to `revision` and still connected to its own transport; null
 * otherwise (a server not yet connected, or bound to another revision), and null when an SDK
 * update has taken away these private parts (SDK 2.4.0 keeps the codec behind
 * `_negotiatedWireCodec`): every request then goes through its dispatch as before
 * (test/unit/http/exchangeTransports.test.ts notices).
 */
export function modernWireCodecOf(server: McpServer, revision: string): ModernWireCodec | null {
	if (exchangeTransportOf(server) === undefined) return null;
	const protocol = server.server as unknown as SdkProtocolInternals;
	if (protocol._negotiatedProtocolVersion !== revision) return null;
	const known = modernCodecs.get(server);
	if (known !== undefined) return known;
	const { _negotiatedWireCodec: codecOf, _outboundServerInfo: serverInfoOf } = protocol;
	if (typeof codecOf !== "function" || typeof serverInfoOf !== "function") return null;
	const codec = (codecOf as (this: unknown) => SdkWireCodec | undefined).call(protocol);
	if (codec === undefined) return null;
	const { checkInboundEnvelope, validateResult, encodeResult } = codec;
	if (typeof checkInboundEnvelope !== "function" || typeof validateResult !== "function" || typeof encodeResult !== "function") return null;
	const serverInfo: unknown = (serverInfoOf as (this: unknown) => unknown).call(protocol);
	const modern: ModernWireCodec = {
		checkInboundEnvelope: (material) => (checkInboundEnvelope as ModernWireCodec["checkInboundEnvelope"]).call(codec, material),
		validateResult: (method, value) => (validateResult as ModernWireCodec["validateResult"]).call(codec, method, value),
		encodeResult: (method, result) =>
			(encodeResult as (m: string, r: object, s: unknown) => Record<string, unknown>).call(codec, method, result, serverInfo),
	};
	modernCodecs.set(server, modern);
	return modern;
}
