import type { IncomingMessage, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import * as nodeTimers from "node:timers";
import { createMcpHandler, PROTOCOL_VERSION_META_KEY, type McpHttpHandler, type McpServer, type ProtocolEra } from "@modelcontextprotocol/server";
import { errorKind, type Logger } from "../activity";
import type { Grant } from "../auth/grant";
import type { TokenRecord } from "../auth/tokens";
import { MAX_BATCH_ENTRIES, MAX_IN_FLIGHT_PER_TOKEN, MAX_REFUSED_BODY_DRAIN_BYTES, MAX_WAITING_PER_TOKEN, MAX_IN_FLIGHT_REQUESTS, MAX_REQUEST_BODY_BYTES, RATE_LIMIT_WINDOW_MS, RETRY_AFTER_BUSY_SECONDS } from "../config/limits";
import { httpDeadlines, type HttpDeadlines } from "./deadlines";
import { currentGrant, guardRequest, isRefusal, UNAUTHORIZED, unsupportedVersionError, type Refusal } from "./guard";
import { checkMessages, ExchangeTransport, type Exchange } from "./statelessTransport";
import { InFlightPlaces, RateLimiter, WriteBudget, writeLoadOf, type BudgetAnswer } from "./limits";
import { ListenStreams, webRequestOf, type SubscriptionFeed } from "./listenStream";

/** The settings the endpoint enforces: who may come in, and how much each token may do. */
export interface EndpointPolicy {
	tokens: readonly TokenRecord[];
	writeEnabled: boolean;
	rateLimitPerMinute: number;
	writeCallsPerMinute: number;
	writeBytesPerMinute: number;
}

/** What the endpoint reads on every request. Settings are read live, so a revoked token or a flipped write switch counts at once. */
export interface EndpointDeps<S extends EndpointPolicy> {
	currentSettings(): S;
	/**
	 * An MCP server for one request of `era`, with the grant and the settings read when the request
	 * arrived. `releasePlace` gives the request's place in flight back early: a call waiting for the
	 * person's approval does no work meanwhile.
	 */
	createServer(grant: Grant, settings: S, era: ProtocolEra, releasePlace: () => void): LentServer;
	logger: Logger;
	/**
	 * True for a tool that writes and that this grant may call: its calls count against the token's
	 * write budget. A tool the grant is denied must not, or the budget's refusal would show it exists.
	 */
	isWriteTool(name: string, grant: Grant): boolean;
	onTokenUsed?(token: TokenRecord): void;
	/** Told when a request on a connection presents a valid token, so the connection is no longer capped as unauthenticated. */
	onAuthenticated?(socket: Socket): void;
	/** Overrides for the deadlines in src/config/limits.ts (tests use short ones). */
	deadlines?: Partial<HttpDeadlines>;
	/** The vault's changes for subscriptions/listen streams (2026-07-28); absent: the method is not offered. */
	subscriptions?: SubscriptionFeed;
}

const JSON_RPC_PARSE_ERROR = -32700;
const JSON_RPC_SERVER_ERROR = -32000;
const JSON_RPC_METHOD_NOT_FOUND = -32601;

/** The endpoint: a node:http request listener, and a way to wait for the requests it is still answering. */
export interface McpEndpoint {
	(req: IncomingMessage, res: ServerResponse): void;
	/** Resolves once every request being answered has finished (its tool call, and any write, included). */
	drain(): Promise<void>;
	/** Ends every open subscription stream with its closing result (the server is stopping); resolves once they are closed. */
	closeStreams(): Promise<void>;
}

/** An MCP server lent to one request: connected to that request's transport, then given back. */
export interface LentServer {
	server: McpServer;
	/** Called once the request is answered (or its client gone); resolves once the server may serve another request. */
	release(): Promise<void>;
}

/** What every request of one endpoint shares. */
interface EndpointState<S extends EndpointPolicy> {
	deps: EndpointDeps<S>;
	deadlines: HttpDeadlines;
	rateLimiter: RateLimiter;
	writeBudget: WriteBudget;
	places: InFlightPlaces;
	/** The SDK's 2026-07-28 handler; each request's server comes from `modernServers`. */
	modern: McpHttpHandler;
	/** The server factory of each modern request being answered, by the web request the SDK hands back to the factory. */
	modernServers: WeakMap<Request, () => McpServer>;
	/** The open subscriptions/listen streams; null when no feed is given. */
	listens: ListenStreams | null;
}

/** Revisions from 2026-07-28 on: the SDK's handler answers them (MCP-Protocol-Version header values). */
const MODERN_VERSION_PREFIX = /^20(2[6-9]|[3-9]\d)-/;

/**
 * Whether a request claims the 2026-07-28 revision or a later one: a message with a protocol
 * version in its `_meta`, or such a version in the MCP-Protocol-Version header. Everything else is
 * 2025-era traffic. The SDK's handler then checks the claim in full (a header that disagrees with
 * the body, a missing envelope, Mcp-Name against the body) and answers what does not hold. Pure.
 */
export function claimsModernRevision(json: unknown, versionHeader: string | undefined): boolean {
	if (versionHeader !== undefined && MODERN_VERSION_PREFIX.test(versionHeader)) return true;
	const messages: unknown[] = Array.isArray(json) ? json : [json];
	return messages.some((message) => {
		const params = (message as { params?: { _meta?: Record<string, unknown> } } | null)?.params;
		return params?._meta !== undefined && params._meta !== null && typeof params._meta === "object" && PROTOCOL_VERSION_META_KEY in params._meta;
	});
}

/** The node:http request listener for the whole server: refusals first, then one stateless MCP exchange. */
export function createMcpEndpoint<S extends EndpointPolicy>(deps: EndpointDeps<S>): McpEndpoint {
	const modernServers = new WeakMap<Request, () => McpServer>();
	const state: EndpointState<S> = {
		deps,
		deadlines: httpDeadlines(deps.deadlines),
		rateLimiter: new RateLimiter(),
		writeBudget: new WriteBudget(),
		places: new InFlightPlaces(MAX_IN_FLIGHT_REQUESTS, MAX_IN_FLIGHT_PER_TOKEN),
		// 2025-era traffic never reaches this handler (it goes to our own transport below), so it is strict.
		modern: createMcpHandler(
			({ requestInfo }) => {
				const lend = requestInfo === undefined ? undefined : modernServers.get(requestInfo);
				if (!lend) throw new Error("A 2026-07-28 request reached the SDK handler without a server to lend.");
				return lend();
			},
			{ legacy: "reject", maxRequestBodySize: MAX_REQUEST_BODY_BYTES },
		),
		modernServers,
		listens: deps.subscriptions ? new ListenStreams(deps.subscriptions, deps.logger) : null,
	};
	const active = new Set<Promise<void>>();

	const endpoint = (req: IncomingMessage, res: ServerResponse): void => {
		const settings = deps.currentSettings();
		const answer = guardRequest(
			{ method: req.method ?? "", url: req.url ?? "", headers: req.headersDistinct, localPort: req.socket.localPort },
			{ tokens: settings.tokens, writeEnabled: settings.writeEnabled },
		);
		if (isRefusal(answer)) {
			refuseBeforeBody(req, res, answer, state.deadlines.bodyReadMs);
			return;
		}
		deps.onAuthenticated?.(req.socket);
		// One message is counted before the body is read, so a client over its limit is refused
		// without reading anything; a batch pays for its other messages once it is parsed.
		const rate = state.rateLimiter.take(answer.token.hash, settings.rateLimitPerMinute);
		if (!rate.allowed) {
			refuseBeforeBody(req, res, rateLimited(settings, rate, 1), state.deadlines.bodyReadMs);
			return;
		}
		deps.onTokenUsed?.(answer.token);
		// A failure nothing below caught still answers, and never becomes an unhandled rejection (which ends a headless server).
		const work = serveMcp(req, res, answer, state).catch((error: unknown) => {
			deps.logger.error(`request failed: ${errorKind(error)}`);
			if (!res.headersSent) sendJson(res, 500, jsonRpcError(JSON_RPC_SERVER_ERROR, "Internal server error."));
			else res.destroy();
		});
		active.add(work);
		void work.finally(() => active.delete(work));
	};
	return Object.assign(endpoint, { drain: async () => void (await Promise.allSettled([...active])), closeStreams: async () => await state.listens?.closeAll() });
}

async function serveMcp<S extends EndpointPolicy>(req: IncomingMessage, res: ServerResponse, grantOnArrival: Grant, state: EndpointState<S>): Promise<void> {
	const { deps, deadlines } = state;
	// The body is read before a place is taken: a client that never finishes sending holds only its own socket.
	const body = await readJsonBody(req, deadlines.bodyReadMs);
	if ("refusal" in body) {
		sendRefusal(req, res, body.refusal);
		return;
	}
	// A request refused for its form costs the token nothing: no place, no rate or write budget.
	if (!acceptsJson(req)) {
		sendJson(res, 406, jsonRpcError(JSON_RPC_SERVER_ERROR, "Not Acceptable: Client must accept both application/json and text/event-stream"));
		return;
	}
	const version = req.headersDistinct["mcp-protocol-version"]?.[0];
	const unsupported = unsupportedVersionError(version, body.json);
	if (unsupported) {
		sendJson(res, 400, { jsonrpc: "2.0", ...unsupported });
		return;
	}
	const key = grantOnArrival.token.hash;
	const place = await state.places.enter(key, deadlines.placeWaitMs, MAX_WAITING_PER_TOKEN);
	// The client may have gone while it waited in line: give the place straight back.
	if (!("refused" in place) && (res.destroyed || req.socket.destroyed)) {
		place.leave();
		return;
	}
	if ("refused" in place) {
		const message = place.refused === "token_busy" ? `This token already has ${MAX_IN_FLIGHT_PER_TOKEN} requests being answered; wait for one to finish.` : "The server is busy answering other requests.";
		sendRefusal(req, res, { status: 503, kind: "busy", message, headers: { "Retry-After": String(RETRY_AFTER_BUSY_SECONDS) } });
		return;
	}
	// The body may take seconds to arrive and the place a moment more: a token revoked, or writing
	// turned off, meanwhile counts for this request too, as it does for the next.
	const settings = deps.currentSettings();
	const grant = currentGrant(grantOnArrival.token.hash, settings);
	if (grant === null) {
		place.leave();
		sendRefusal(req, res, UNAUTHORIZED);
		return;
	}
	const messages = Array.isArray(body.json) ? (body.json as unknown[]) : [body.json];
	const refusal = takeBudgets(state, grant, settings, messages);
	if (refusal) {
		place.leave();
		sendRefusal(req, res, refusal);
		return;
	}
	// A place frees once the answer is handed over ('finish'), or the client went away ('close'):
	// a client that sends its next request the moment it has an answer must find the place free.
	res.once("finish", place.leave);
	res.once("close", place.leave);
	if (claimsModernRevision(body.json, version)) {
		await serveModern(req, res, grant, settings, state, body.json, place.leave);
		return;
	}
	const checked = checkMessages(body.json);
	if ("status" in checked) {
		sendJson(res, checked.status, jsonRpcError(checked.code, checked.message));
		return;
	}
	const lent = deps.createServer(grant, settings, "legacy", place.leave);
	let exchange: Exchange | null = null;
	try {
		const transport = await transportOf(lent.server);
		exchange = transport.serve(checked.messages, checked.requests, deadlines.maxResponseBodyBytes, (answers) => {
			sendJson(res, 200, answers.length === 1 ? answers[0] : answers);
			// Once the answer is written, a client that does not read it would keep its place and the
			// buffered answer for as long as it liked, so it gets a deadline from then on.
			dropIfUnreadWithin(res, deadlines.responseWriteMs);
		});
		const served = exchange;
		res.once("close", () => served.abandon());
		await served.finished;
		// Only notifications: accepted, nothing to answer.
		if (checked.requests === 0 && !res.headersSent) {
			res.writeHead(202);
			res.end();
		}
		// The server goes back for another request once it has answered every call it started.
		await transport.whenIdle();
	} catch (error) {
		deps.logger.error(`request failed: ${errorKind(error)}`);
		if (!res.headersSent) sendJson(res, 500, jsonRpcError(JSON_RPC_SERVER_ERROR, "Internal server error."));
		else res.destroy();
	} finally {
		exchange?.abandon();
		await lent.release();
	}
}

/**
 * Answers a 2026-07-28 request through the SDK's handler, which checks the request's `_meta`
 * envelope and standard headers (MCP-Protocol-Version, Mcp-Method, Mcp-Name) against its body and
 * answers `server/discover`. Its server comes from the same pool as every other request's; the SDK
 * connects it to a transport for this one exchange and disconnects it once the answer is out.
 */
async function serveModern<S extends EndpointPolicy>(req: IncomingMessage, res: ServerResponse, grant: Grant, settings: S, state: EndpointState<S>, json: unknown, releasePlace: () => void): Promise<void> {
	const { deps, deadlines } = state;
	if (isListenRequest(json) && state.listens !== null) {
		await state.listens.serve(req, res, grant, json, () => deps.createServer(grant, settings, "modern", releasePlace), releasePlace, deadlines.maxResponseBodyBytes);
		return;
	}
	if (isListenRequest(json)) {
		// A subscription is an event stream held open for as long as the client likes; this server
		// answers every request in plain JSON and keeps nothing open, so it has none to offer.
		sendJson(res, 404, { jsonrpc: "2.0", id: (json as { id: unknown }).id, error: { code: JSON_RPC_METHOD_NOT_FOUND, message: "Method not found: this server has no subscriptions (it keeps no stream open). Call tools/list, resources/list or prompts/list again to see changes." } });
		return;
	}
	const clientGone = new AbortController();
	const onClose = () => clientGone.abort();
	res.once("close", onClose);
	// The URL is this endpoint's own, never built from the Host header a client sent.
	const request = webRequestOf(req, clientGone.signal);
	let lent: LentServer | null = null;
	let disconnected: Promise<void> = Promise.resolve();
	state.modernServers.set(request, () => {
		lent = deps.createServer(grant, settings, "modern", releasePlace);
		const low = lent.server.server;
		disconnected = new Promise((resolve) => (low.onclose = () => resolve()));
		return lent.server;
	});
	try {
		const response = await state.modern.fetch(request, { parsedBody: json });
		let text = await response.text();
		// The same cap as a 2025 exchange's: the SDK's handler has none of its own.
		if (Buffer.byteLength(text) > deadlines.maxResponseBodyBytes) text = JSON.stringify(answerTooLarge((json as { id?: unknown }).id ?? null, deadlines.maxResponseBodyBytes));
		if (!res.destroyed) {
			const headers: Record<string, string | number> = {};
			response.headers.forEach((value, name) => (headers[name] = value));
			if (text === "") res.writeHead(response.status, headers).end();
			else {
				res.writeHead(response.status, { ...headers, "Content-Length": Buffer.byteLength(text) });
				res.end(text);
				dropIfUnreadWithin(res, deadlines.responseWriteMs);
			}
		}
	} catch (error) {
		deps.logger.error(`request failed: ${errorKind(error)}`);
		if (!res.headersSent) sendJson(res, 500, jsonRpcError(JSON_RPC_SERVER_ERROR, "Internal server error."));
		else res.destroy();
	} finally {
		res.off("close", onClose);
		const served = lent as LentServer | null;
		if (served) {
			// The SDK disconnects the server once the answer is out; a server still connected cannot be lent again.
			if (served.server.server.transport !== undefined) await disconnected;
			await served.release();
		}
	}
}

/** What a request whose answer would pass `maxBytes` gets instead: a short error with its id. */
function answerTooLarge(id: unknown, maxBytes: number): unknown {
	return { jsonrpc: "2.0", id, error: { code: JSON_RPC_SERVER_ERROR, message: `The answer would be over ${maxBytes} bytes, so it was not sent. Ask for less: a smaller limit, a folder, or one note at a time.` } };
}

function isListenRequest(json: unknown): boolean {
	return json !== null && typeof json === "object" && !Array.isArray(json) && (json as { method?: unknown }).method === "subscriptions/listen" && "id" in json;
}

/** Each pooled MCP server's transport, connected the first time the server is lent. */
const transports = new WeakMap<McpServer, ExchangeTransport>();

async function transportOf(server: McpServer): Promise<ExchangeTransport> {
	let transport = transports.get(server);
	if (!transport) {
		transport = new ExchangeTransport();
		transports.set(server, transport);
		await server.connect(transport);
	}
	return transport;
}

/** The Streamable HTTP transport asks the client to accept both a JSON answer and an event stream. */
function acceptsJson(req: IncomingMessage): boolean {
	const accept = req.headers.accept ?? "";
	return accept.includes("application/json") && accept.includes("text/event-stream");
}

/** Charges the batch's other messages to the rate limit, then its write calls to the write budget; the refusal if either is over. */
function takeBudgets<S extends EndpointPolicy>(state: EndpointState<S>, grant: Grant, settings: EndpointPolicy, messages: readonly unknown[]): Refusal | null {
	const key = grant.token.hash;
	if (messages.length > settings.rateLimitPerMinute) {
		return rateLimited(settings, { allowed: false, retryAfterSeconds: Math.ceil(RATE_LIMIT_WINDOW_MS / 1000), neverFits: true }, messages.length);
	}
	if (messages.length > 1) {
		const rate = state.rateLimiter.take(key, settings.rateLimitPerMinute, messages.length - 1);
		if (!rate.allowed) return rateLimited(settings, rate, messages.length);
	}
	if (!grant.canWrite) return null;
	const load = writeLoadOf(messages, (name) => state.deps.isWriteTool(name, grant));
	if (load.calls === 0) return null;
	const limits = { callsPerMinute: settings.writeCallsPerMinute, bytesPerMinute: settings.writeBytesPerMinute };
	const budget = state.writeBudget.take(key, load, limits);
	if (budget.allowed) return null;
	return {
		status: 429,
		kind: "rate_limited",
		message: budget.neverFits
			? `This request holds more writing than this token may do in a minute (${limits.callsPerMinute} write calls, ${limits.bytesPerMinute} bytes). Write less at a time.`
			: `Too much writing for this token (limit ${limits.callsPerMinute} write calls and ${limits.bytesPerMinute} bytes a minute). Nothing was written.`,
		headers: { "Retry-After": String(budget.retryAfterSeconds) },
	};
}

function rateLimited(settings: EndpointPolicy, answer: BudgetAnswer & { allowed: false }, messages: number): Refusal {
	const limit = settings.rateLimitPerMinute;
	return {
		status: 429,
		kind: "rate_limited",
		message: answer.neverFits
			? `A batch of ${messages} messages is more than this token's limit of ${limit} a minute; send smaller batches.`
			: `Too many requests for this token (limit ${limit} messages a minute, each message of a batch counted).`,
		headers: { "Retry-After": String(answer.retryAfterSeconds) },
	};
}

/** Destroys the connection if the response has not been taken by the client within `ms`, which frees its place (on 'close'). */
function dropIfUnreadWithin(res: ServerResponse, ms: number): void {
	if (res.writableFinished || res.destroyed) return;
	const timer = nodeTimers.setTimeout(() => res.destroy(), ms);
	const clear = () => nodeTimers.clearTimeout(timer);
	res.once("finish", clear);
	res.once("close", clear);
}

/**
 * Reads at most MAX_REQUEST_BODY_BYTES within `timeoutMs` and parses it as JSON. On the deadline
 * it stops reading but leaves the connection open, so the 408 can still reach the client; the
 * refusal's `Connection: close` then closes it.
 */
function readJsonBody(req: IncomingMessage, timeoutMs: number): Promise<{ json: unknown } | { refusal: Refusal }> {
	const tooLarge: Refusal = { status: 413, kind: "too_large", message: `Request body over ${MAX_REQUEST_BODY_BYTES} bytes.` };
	const declared = Number(req.headers["content-length"] ?? "0");
	if (declared > MAX_REQUEST_BODY_BYTES) return Promise.resolve({ refusal: tooLarge });
	return new Promise((resolve) => {
		const chunks: Buffer[] = [];
		let size = 0;
		const finish = (result: { json: unknown } | { refusal: Refusal }) => {
			nodeTimers.clearTimeout(timer);
			req.off("data", onData);
			req.off("end", onEnd);
			req.off("error", onError);
			req.off("close", onError);
			req.pause();
			resolve(result);
		};
		const onData = (chunk: Buffer) => {
			size += chunk.length;
			if (size > MAX_REQUEST_BODY_BYTES) finish({ refusal: tooLarge });
			else chunks.push(chunk);
		};
		const onEnd = () => finish(parseBody(Buffer.concat(chunks)));
		const onError = () => finish({ refusal: { status: 400, kind: "parse_error", message: "The request body could not be read." } });
		// This layer runs headless too, where there is no window: Node's own timers, which Electron also has.
		const timer = nodeTimers.setTimeout(() => finish({ refusal: { status: 408, kind: "timeout", message: `The request body did not arrive within ${timeoutMs} ms.` } }), timeoutMs);
		req.on("data", onData);
		req.on("end", onEnd);
		req.on("error", onError);
		req.on("close", onError);
	});
}

function parseBody(bytes: Buffer): { json: unknown } | { refusal: Refusal } {
	let json: unknown;
	try {
		json = JSON.parse(bytes.toString("utf8"));
	} catch {
		return { refusal: { status: 400, kind: "parse_error", message: "Parse error: the body is not valid JSON." } };
	}
	if (Array.isArray(json) && json.length > MAX_BATCH_ENTRIES) {
		return { refusal: { status: 400, kind: "too_large", message: `A batch may hold at most ${MAX_BATCH_ENTRIES} messages.` } };
	}
	return { json };
}

/**
 * Answers a request refused before its body was read, keeping the connection healthy. Node emits
 * the request before it has seen the end of the message, even an empty one, so the body is read
 * and thrown away first (at most MAX_REFUSED_BODY_DRAIN_BYTES, within `timeoutMs`) and the answer
 * then leaves the connection open. Closing it instead raced with clients that had already sent
 * their next request on it: Claude Code's `tools/list` after its GET was lost about one time in five.
 */
function refuseBeforeBody(req: IncomingMessage, res: ServerResponse, refusal: Refusal, timeoutMs: number): void {
	if (req.complete) {
		sendRefusal(req, res, refusal);
		return;
	}
	const declared = req.headers["content-length"] === undefined ? null : Number(req.headers["content-length"]);
	if (declared !== null && !(declared <= MAX_REFUSED_BODY_DRAIN_BYTES)) {
		sendRefusal(req, res, refusal);
		return;
	}
	let drained = 0;
	let settled = false;
	const settle = (answer: boolean) => {
		if (settled) return;
		settled = true;
		nodeTimers.clearTimeout(timer);
		req.off("data", onData);
		req.off("end", onEnd);
		req.off("error", onError);
		if (!answer) return;
		if (!req.complete) req.pause();
		if (!res.destroyed) sendRefusal(req, res, refusal);
	};
	const onData = (chunk: Buffer) => {
		drained += chunk.length;
		if (drained > MAX_REFUSED_BODY_DRAIN_BYTES) settle(true);
	};
	const onEnd = () => settle(true);
	// The client went away: there is no one to answer.
	const onError = () => settle(false);
	const timer = nodeTimers.setTimeout(() => settle(true), timeoutMs);
	req.on("data", onData);
	req.on("end", onEnd);
	req.on("error", onError);
	res.once("close", () => settle(false));
}

/** Answers a refusal; the connection is closed only when part of the request's body is still unread. */
function sendRefusal(req: IncomingMessage, res: ServerResponse, refusal: Refusal): void {
	const code = refusal.kind === "parse_error" ? JSON_RPC_PARSE_ERROR : JSON_RPC_SERVER_ERROR;
	// A refused body may still be arriving; closing the connection stops it rather than reading it all.
	const unreadBody = !req.complete;
	sendJson(res, refusal.status, jsonRpcError(code, refusal.message), { ...refusal.headers, ...(unreadBody ? { Connection: "close" } : {}) });
}

function jsonRpcError(code: number, message: string): unknown {
	return { jsonrpc: "2.0", error: { code, message }, id: null };
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
	const text = JSON.stringify(body);
	res.writeHead(status, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(text), ...headers });
	res.end(text);
}
