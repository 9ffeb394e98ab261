import type { IncomingMessage, ServerResponse } from "node:http";
import {
	CLIENT_CAPABILITIES_META_KEY,
	classifyInboundRequest,
	isJsonContentType,
	PROTOCOL_VERSION_META_KEY,
	type JSONRPCMessage,
	type JSONRPCRequest,
	type McpServer,
	type MessageClassification,
} from "@modelcontextprotocol/server";
import { certainlyRequest } from "./jsonRpcRequest";
import { connectExchangeTransport, disconnectExchangeTransport, exchangeTransportOf, modernWireCodecOf } from "./exchangeTransports";
import { directAnswerModern } from "./directAnswer";
import { AcceptedEnvelopes } from "./acceptedEnvelopes";
import { MODERN_PROTOCOL_VERSION } from "./guard";
import { webRequestOf } from "./listenStream";
import type { AdmittedRequest, Answerable, EndpointPolicy, EndpointState, LentServer } from "./endpointState";
import {
	answerTooLarge,
	dropIfUnreadAfterEnd,
	dropIfUnreadWithin,
	failRequest,
	JSON_RPC_METHOD_NOT_FOUND,
	mustCutOff,
	refusedAsRevoked,
	sendJson,
	sentAtOnce,
	withoutWithdrawn,
	writePieces,
} from "./replies";
import { jsonInPieces, textInPieces, type JsonPieces } from "./jsonPieces";
import { ProgressStream } from "./progressStream";

/**
 * Answers a 2026-07-28 request. The SDK's handler checks the request's `_meta` envelope and
 * standard headers (MCP-Protocol-Version, Mcp-Method, Mcp-Name) against its body and answers
 * `server/discover`; it takes a web `Request`, connects a server to a new transport, answers with
 * a web `Response` and disconnects the server again, which cost about twice the CPU of the whole
 * 2025 path. So a request that those checks certainly let through (`directRoute`) goes straight
 * to a pooled server that stays connected to its own transport, as a 2025 request does, through
 * the same registered handlers and the SDK's own protocol layer; everything else, and any request
 * the SDK's checks before a handler answer, goes to the SDK's handler. Either way one server
 * from the pool serves the request.
 */
export async function serveModern<S extends EndpointPolicy>(admitted: AdmittedRequest<S>, state: EndpointState<S>): Promise<void> {
	const { req, res, grant, settings, json, releasePlace, written: wrote, answerable } = admitted;
	const { deps, deadlinesAndCaps } = state;
	if (isListenRequest(json) && state.listens !== null) {
		await state.listens.serve(
			req,
			res,
			grant,
			json,
			async () => {
				// The SDK's handler reads the server's capabilities and closes it: it must not be connected to its own transport.
				const loan = deps.lendServer(grant, settings, "modern", releasePlace, wrote);
				await disconnectExchangeTransport(loan.server);
				return loan;
			},
			releasePlace,
			deadlinesAndCaps.maxResponseBodyBytes,
		);
		return;
	}
	if (isListenRequest(json)) {
		// A subscription is an event stream held open for as long as the client likes; this server
		// answers every request in plain JSON and keeps nothing open, so it has none to offer.
		sendJson(res, 404, {
			jsonrpc: "2.0",
			id: (json as { id: unknown }).id,
			error: {
				code: JSON_RPC_METHOD_NOT_FOUND,
				message:
					"Method not found: this server has no subscriptions (it keeps no stream open). Call tools/list, resources/list or prompts/list again to see changes.",
			},
		});
		return;
	}
	let lent: LentServer | null = null;
	const lend = (): LentServer => (lent ??= deps.lendServer(grant, settings, "modern", releasePlace, wrote));
	// A big answer is still being written when the server goes back for another request; null: nothing is.
	let written: Promise<void> | null = null;
	try {
		const route = directRoute(req, json);
		const direct =
			route === null
				? null
				: ((await answerDirectly(res, lend(), route, state, answerable)) ?? (await serveDirectly(res, lend().server, route, state, answerable)));
		({ written } = direct ?? (await serveThroughSdk(admitted, state, lend)));
	} catch (error) {
		failRequest(res, deps.logger, error);
	} finally {
		const served = lent as LentServer | null;
		if (served) await served.release();
	}
	if (written !== null) await written.catch((error: unknown) => failRequest(res, deps.logger, error));
}

/** The methods served directly: those with no client capability they need and no stream they open (`ping` is not one at 2026-07-28). */
const DIRECT_METHODS: ReadonlySet<string> = new Set([
	"tools/call",
	"tools/list",
	"resources/read",
	"resources/list",
	"resources/templates/list",
	"prompts/list",
	"prompts/get",
	"completion/complete",
]);

/** The body field the Mcp-Name header must repeat, by method (the SDK's MCP_NAME_HEADER_SOURCE, for the methods above). */
const NAME_HEADER_SOURCES: Readonly<Record<string, "name" | "uri">> = { "tools/call": "name", "prompts/get": "name", "resources/read": "uri" };

/** The two ends of an Mcp-Name value sent in Base64 (SEP-2243: `=?base64?` + the Base64 of the value's UTF-8 + `?=`). */
const BASE64_NAME_PREFIX = "=?base64?";
const BASE64_NAME_SUFFIX = "?=";

/** Canonical Base64 (padding where due, no line breaks), the only form SEP-2243 lets a server take. */
const CANONICAL_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Refuses bytes that are not UTF-8 rather than putting U+FFFD in their place (a name that is not the body's then). */
const STRICT_UTF8 = new TextDecoder("utf-8", { fatal: true });

/**
 * The name an Mcp-Name header value stands for, decoded as the SDK's handler decodes it: a value
 * that starts with `=?base64?` and ends with `?=` is the UTF-8 text its canonical Base64 encodes,
 * any other value is itself; undefined for a Base64 value that is not canonical or not UTF-8 (the
 * SDK refuses it). Node's parser has stripped the whitespace around the value already. Pure.
 */
function decodedNameHeader(value: string): string | undefined {
	if (!(value.startsWith(BASE64_NAME_PREFIX) && value.endsWith(BASE64_NAME_SUFFIX))) return value;
	const base64 = value.slice(BASE64_NAME_PREFIX.length, value.length - BASE64_NAME_SUFFIX.length);
	if (!CANONICAL_BASE64.test(base64)) return undefined;
	try {
		return STRICT_UTF8.decode(Buffer.from(base64, "base64"));
	} catch {
		return undefined;
	}
}

/** A 2026-07-28 request the SDK's handler would let through to its handler, with its classification. */
interface DirectRoute {
	message: JSONRPCRequest;
	classification: MessageClassification;
}

/**
 * The request and its classification when every check the SDK's handler makes before a handler
 * runs certainly passes, or is made again by the server's own dispatch before any handler runs
 * (which `serveDirectly` notices: the SDK's handler then answers); otherwise null (the SDK's
 * handler answers it, pass or refuse). Narrower rules than the SDK's own checks: a Content-Type
 * whose media type is `application/json` (parameters such as a charset allowed: the SDK's own
 * test), both headers present and equal to the body, Mcp-Name equal to the body's name or URI as
 * sent or in Base64 (`decodedNameHeader`), one of the methods above, and a body that is certainly a
 * JSON-RPC request (`certainlyRequest`) whose `_meta` holds the envelope, naming 2026-07-28, and
 * no related task; for a `tools/call` a progress token too (its progress is then sent as
 * `serveDirectly` says). The envelope's values (client info, capabilities, log level) and a
 * client's own `_meta` keys (a trace context, a tool-use id) are the dispatch's to check and pass
 * on: it parses them with the same schema the SDK's handler does. Not checked here because this server
 * never has them: tools whose input schema declares `x-mcp-header` parameters (`serveDirectly`
 * checks) or a scope challenge. Pure.
 */
export function directRoute(req: IncomingMessage, json: unknown): DirectRoute | null {
	const { headers } = req;
	if (req.method !== "POST" || !isJsonContentType(headers["content-type"])) return null;
	if (!certainlyRequest(json, true)) return null;
	const { method, params } = json;
	const meta = params?._meta as Record<string, unknown> | undefined;
	if (meta !== undefined && "progressToken" in meta && method !== "tools/call") return null;
	const versionHeader = headers["mcp-protocol-version"];
	const methodHeader = headers["mcp-method"];
	const nameHeader = headers["mcp-name"];
	if (!DIRECT_METHODS.has(method) || versionHeader !== MODERN_PROTOCOL_VERSION || methodHeader !== method) return null;
	if (nameHeader !== undefined && typeof nameHeader !== "string") return null;
	const nameSource = NAME_HEADER_SOURCES[method];
	if (nameSource !== undefined) {
		const named = params?.[nameSource];
		if (typeof named !== "string" || nameHeader === undefined || decodedNameHeader(nameHeader) !== named) return null;
	}
	if (meta?.[PROTOCOL_VERSION_META_KEY] !== MODERN_PROTOCOL_VERSION || !(CLIENT_CAPABILITIES_META_KEY in meta)) return null;
	return { message: json, classification: modernClassification() };
}

let modernClassificationMemo: MessageClassification | null = null;

/**
 * The classification the SDK gives a request naming 2026-07-28 in its envelope, taken from the
 * SDK itself once (classifying a minimal such request), so it is exactly what its transport passes.
 */
function modernClassification(): MessageClassification {
	if (modernClassificationMemo !== null) return modernClassificationMemo;
	const outcome = classifyInboundRequest({
		httpMethod: "POST",
		protocolVersionHeader: MODERN_PROTOCOL_VERSION,
		body: {
			jsonrpc: "2.0",
			id: 0,
			method: "tools/list",
			params: { _meta: { [PROTOCOL_VERSION_META_KEY]: MODERN_PROTOCOL_VERSION, [CLIENT_CAPABILITIES_META_KEY]: {} } },
		},
	});
	if (outcome.kind !== "modern" || outcome.classification.revision !== MODERN_PROTOCOL_VERSION)
		throw new Error("The SDK does not classify a minimal 2026-07-28 request as 2026-07-28.");
	modernClassificationMemo = outcome.classification;
	return modernClassificationMemo;
}

/** An answer being written once the server is done with its request: resolves when it is; null when it was written already. */
interface Writing {
	written: Promise<void> | null;
}

/** What a request whose answer is written already, or that has nothing to answer, is done with. */
const WRITTEN: Writing = { written: null };

/** Whether a tool's input schema declares parameters carried in Mcp-Param headers, which only the SDK's handler checks; by server, then tool. */
const declaresParamHeaders = new WeakMap<McpServer, Map<string, boolean>>();

function needsParamHeaderCheck(server: McpServer, message: JSONRPCRequest): boolean {
	if (message.method !== "tools/call") return false;
	const name = (message.params as { name: string }).name;
	const known = declaresParamHeaders.get(server) ?? new Map<string, boolean>();
	declaresParamHeaders.set(server, known);
	let declares = known.get(name);
	if (declares === undefined) {
		const schema = server.toolInputSchemaJson(name);
		// A name no tool has is not remembered: the names are the client's, and would grow the map without end.
		if (schema === undefined) return false;
		declares = JSON.stringify(schema).includes('"x-mcp-header"');
		known.set(name, declares);
	}
	return declares;
}

/** Per connection, the last `_meta` envelope the SDK's 2026-07-28 codec took: sent again, it is not checked again. */
const acceptedEnvelopes = new AcceptedEnvelopes();

/** The SDK's HTTP status for a handler's error answer: 400 for a missing client capability (-32021), which the spec ties to the error itself; 200 for every other answer. */
const MISSING_CLIENT_CAPABILITY = -32021;

/**
 * Answers a plain `tools/call` of a read tool or `tools/list` that `directRoute` let through with
 * the server's own handlers and wire codec, without the SDK's dispatch (`directAnswerModern`), once
 * the server is bound to 2026-07-28 and connected to its own transport; null when it cannot (the
 * server's first request, a tool taking Mcp-Param headers, anything `directAnswerModern` leaves to
 * the SDK): `serveDirectly` serves it then.
 */
async function answerDirectly<S extends EndpointPolicy>(
	res: ServerResponse,
	lent: LentServer,
	route: DirectRoute,
	state: EndpointState<S>,
	answerable: Answerable,
): Promise<Writing | null> {
	if (needsParamHeaderCheck(lent.server, route.message)) return null;
	const direct = directAnswerModern(lent.direct, modernWireCodecOf(lent.server, MODERN_PROTOCOL_VERSION), route.message, acceptedEnvelopes, res.socket);
	if (direct === null) return null;
	const answer = await direct;
	// The client went away meanwhile: nothing to answer, as an abandoned exchange answers nothing.
	if (res.destroyed) return WRITTEN;
	// A short answer (nearly all) is written in this turn, as `writeAnswer` would write it; a long or withdrawn one its way.
	const { maxResponseBodyBytes, responseWriteMs } = state.deadlinesAndCaps;
	if (sentAtOnce(res, 200, { "content-type": "application/json" }, answer, maxResponseBodyBytes, responseWriteMs, answerable)) return WRITTEN;
	const body = await jsonInPieces(answer, state.turns);
	return { written: writeAnswer(res, 200, { "content-type": "application/json" }, body, route.message.id, state, answerable) };
}

/**
 * Serves a request `directRoute` let through on the server's own transport, classified as the
 * SDK's transport would classify it: resolves once the server is done with it, to the answer
 * still being written. Null when nothing was answered and the SDK's handler is to answer instead: the server
 * does not bind to the revision, a tool takes Mcp-Param headers, or the SDK's checks before a
 * handler answered (an unknown method, a refused envelope).
 *
 * A call that asks for progress (a `progressToken`) is told it as 2026-07-28 allows, as the SDK's
 * own handler does by default (its `auto` response mode): once a notification about the call is
 * sent, the answer goes as a stream of server-sent events, the notifications first and the answer
 * last, with the 2025 path's guards (`ProgressStream`). A call that ends first, or asks for none,
 * is answered as plain JSON.
 */
async function serveDirectly<S extends EndpointPolicy>(
	res: ServerResponse,
	server: McpServer,
	route: DirectRoute,
	state: EndpointState<S>,
	answerable: Answerable,
): Promise<Writing | null> {
	if (needsParamHeaderCheck(server, route.message)) return null;
	const transport = exchangeTransportOf(server) ?? (await connectExchangeTransport(server, route.classification));
	if (transport === null) return null;
	let written: Promise<void> = Promise.resolve();
	const { id, params } = route.message;
	const stream = params?._meta?.progressToken === undefined ? null : new ProgressStream(res, answerable, state.deadlinesAndCaps.responseWriteMs);
	// The cap is the 2026-07-28 one (answerTooLarge), applied to the answer below.
	const exchange = transport.serve(
		[route.message],
		1,
		Infinity,
		([answer], body) => {
			if (stream?.streaming) {
				written = stream.end([{ id }], [cappedAnswer(body, id, state.deadlinesAndCaps.maxResponseBodyBytes)], state.turns);
				return;
			}
			const refused = answer !== undefined && "error" in answer && answer.error.code === MISSING_CLIENT_CAPABILITY;
			written = writeAnswer(res, refused ? 400 : 200, { "content-type": "application/json" }, body, id, state, answerable);
		},
		{
			classified: { classification: route.classification },
			turns: state.turns,
			...(stream !== null && { onNotification: (notification: JSONRPCMessage) => stream.notify(notification) }),
		},
	);
	res.once("close", () => exchange.abandon());
	await exchange.finished;
	// The server goes back for another request once it has answered every call it started.
	await transport.whenIdle();
	return exchange.answeredBeforeHandler ? null : { written };
}

/**
 * Answers through the SDK's handler, which connects the server to its own transport for this one
 * request (so a server kept connected is let go first) and disconnects it once the answer is out.
 */
async function serveThroughSdk<S extends EndpointPolicy>(admitted: AdmittedRequest<S>, state: EndpointState<S>, lend: () => LentServer): Promise<Writing> {
	const { req, res, json, answerable } = admitted;
	const clientGone = new AbortController();
	const onClose = () => clientGone.abort();
	res.once("close", onClose);
	// The URL is this endpoint's own, never built from the Host header a client sent.
	const request = webRequestOf(req, clientGone.signal);
	let lentServer: McpServer | null = null;
	let disconnected: Promise<void> = Promise.resolve();
	state.modernServers.set(request, async () => {
		const { server } = lend();
		await disconnectExchangeTransport(server);
		lentServer = server;
		const low = server.server;
		disconnected = new Promise((resolve) => (low.onclose = () => resolve()));
		return server;
	});
	try {
		const response = await state.modern.fetch(request, { parsedBody: json });
		const headers: Record<string, string | number> = {};
		response.headers.forEach((value, name) => (headers[name] = value));
		const body = textInPieces(await response.text());
		return { written: writeAnswer(res, response.status, headers, body, (json as { id?: unknown }).id ?? null, state, answerable) };
	} finally {
		res.off("close", onClose);
		// Also keeps `request` alive to the end: its signal follows `clientGone` only while the Request lives
		// (listenStream.ts says why), so a client gone mid-call still aborts the call after a garbage collection.
		state.modernServers.delete(request);
		const served = lentServer as McpServer | null;
		// The SDK disconnects the server once the answer is out; a server still connected cannot be lent again.
		if (served && served.server.transport !== undefined) await disconnected;
	}
}

/**
 * Writes a 2026-07-28 answer, with the same cap as a 2025 exchange's (the SDK's handler has none of
 * its own) and the same stops once the token is revoked or the answer withdrawn (`refusedAsRevoked`,
 * `withoutWithdrawn`, `mustCutOff`); resolves once it is written. `headers` is the caller's own
 * object, made for this answer: its Content-Length is set on it (a copy per answer cost an allocation).
 */
async function writeAnswer<S extends EndpointPolicy>(
	res: ServerResponse,
	status: number,
	headers: Record<string, string | number>,
	body: JsonPieces,
	id: unknown,
	{ deadlinesAndCaps, turns }: EndpointState<S>,
	answerable: Answerable,
): Promise<void> {
	if (refusedAsRevoked(res, answerable)) return;
	const sent = await withoutWithdrawn([{ id }], body, answerable.withdrawn(), turns);
	const { pieces, bytes } = cappedAnswer(sent, id, deadlinesAndCaps.maxResponseBodyBytes);
	if (res.destroyed) return;
	if (bytes === 0) {
		res.writeHead(status, headers).end();
		return;
	}
	headers["Content-Length"] = bytes;
	res.writeHead(status, headers);
	if (pieces.length === 1) {
		res.end(pieces[0]);
		// As a 2025 answer (sendJsonPieces): a deadline only when part of it waits for the client to read.
		dropIfUnreadAfterEnd(res, deadlinesAndCaps.responseWriteMs);
		return;
	}
	// A client that does not read its answer gets a deadline from the first piece on.
	dropIfUnreadWithin(res, deadlinesAndCaps.responseWriteMs);
	await writePieces(res, pieces, turns, () => mustCutOff(answerable));
}

/** `body`, or the answer saying it was too large (`answerTooLarge`) when it is over `maxBytes`. */
function cappedAnswer(body: JsonPieces, id: unknown, maxBytes: number): JsonPieces {
	if (body.bytes <= maxBytes) return body;
	const text = JSON.stringify(answerTooLarge(id, maxBytes));
	return { pieces: [text], bytes: Buffer.byteLength(text) };
}

function isListenRequest(json: unknown): boolean {
	return (
		json !== null && typeof json === "object" && !Array.isArray(json) && (json as { method?: unknown }).method === "subscriptions/listen" && "id" in json
	);
}
