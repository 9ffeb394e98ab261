import type { IncomingMessage, ServerResponse } from "node:http";
import * as nodeTimers from "node:timers";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { ActivityLog, Logger } from "../activity";
import type { TokenRecord } from "../auth/tokens";
import type { Host } from "../host/Host";
import { BODY_READ_TIMEOUT_MS, MAX_BATCH_ENTRIES, MAX_IN_FLIGHT_REQUESTS, MAX_REQUEST_BODY_BYTES, RETRY_AFTER_BUSY_SECONDS } from "../limits";
import { createMcpServer, errorKind } from "../mcp/server";
import type { VaultMcpSettings } from "../settings/settings";
import type { NoteSearch } from "../vault/search";
import { guardRequest, isRefusal, type Grant, type Refusal } from "./guard";
import { InFlightCounter, RateLimiter } from "./limits";

/** What the endpoint reads on every request. Settings are read live, so a revoked token or a flipped write switch counts at once. */
export interface EndpointDeps {
	host: Host;
	serverVersion: string;
	currentSettings(): VaultMcpSettings;
	activity: ActivityLog;
	logger: Logger;
	search: NoteSearch;
	onTokenUsed?(token: TokenRecord): void;
}

const JSON_RPC_PARSE_ERROR = -32700;
const JSON_RPC_SERVER_ERROR = -32000;

/** The endpoint: a node:http request listener, and a way to wait for the requests it is still answering. */
export interface McpEndpoint {
	(req: IncomingMessage, res: ServerResponse): void;
	/** Resolves once every request being answered has finished (its tool call, and any write, included). */
	drain(): Promise<void>;
}

/** The node:http request listener for the whole server: refusals first, then one stateless MCP exchange. */
export function createMcpEndpoint(deps: EndpointDeps): McpEndpoint {
	const rateLimiter = new RateLimiter();
	const inFlight = new InFlightCounter(MAX_IN_FLIGHT_REQUESTS);
	const active = new Set<Promise<void>>();

	const endpoint = (req: IncomingMessage, res: ServerResponse): void => {
		const settings = deps.currentSettings();
		const answer = guardRequest(
			{ method: req.method ?? "", url: req.url ?? "", headers: req.headersDistinct },
			{ tokens: settings.tokens, writeEnabled: settings.writeEnabled },
		);
		if (isRefusal(answer)) {
			sendRefusal(req, res, answer);
			return;
		}
		const rate = rateLimiter.take(answer.token.hash, settings.rateLimitPerMinute);
		if (!rate.allowed) {
			sendRefusal(req, res, {
				status: 429,
				kind: "rate_limited",
				message: `Too many requests for this token (limit ${settings.rateLimitPerMinute} a minute).`,
				headers: { "Retry-After": String(rate.retryAfterSeconds) },
			});
			return;
		}
		deps.onTokenUsed?.(answer.token);
		const work = serveMcp(req, res, answer, settings, deps, inFlight);
		active.add(work);
		void work.finally(() => active.delete(work));
	};
	return Object.assign(endpoint, { drain: async () => void (await Promise.allSettled([...active])) });
}

async function serveMcp(req: IncomingMessage, res: ServerResponse, grant: Grant, settings: VaultMcpSettings, deps: EndpointDeps, inFlight: InFlightCounter): Promise<void> {
	// The body is read before a place is taken: a client that never finishes sending holds only its own socket.
	const body = await readJsonBody(req);
	if ("refusal" in body) {
		sendRefusal(req, res, body.refusal);
		return;
	}
	if (!inFlight.tryEnter()) {
		sendRefusal(req, res, { status: 503, kind: "busy", message: "The server is busy answering other requests.", headers: { "Retry-After": String(RETRY_AFTER_BUSY_SECONDS) } });
		return;
	}
	// A place frees once the answer is handed over ('finish'), or the client went away ('close'):
	// a client that sends its next request the moment it has an answer must find the place free.
	let left = false;
	const leave = () => {
		if (left) return;
		left = true;
		inFlight.leave();
	};
	res.once("finish", leave);
	res.once("close", leave);
	const ctx = {
		host: deps.host,
		serverVersion: deps.serverVersion,
		// Links in the vault folder are hidden exactly like excluded folders.
		scope: { configDir: deps.host.vault.configDir, excludedFolders: [...settings.excludedFolders, ...deps.host.hiddenLinks()] },
		grant,
		search: deps.search,
		dailyNotesAreOutlines: settings.dailyNotesAreOutlines,
	};
	const server = createMcpServer(ctx, { activity: deps.activity, logger: deps.logger });
	// Stateless: no session id, and plain JSON answers rather than an event stream.
	const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
	res.once("close", () => {
		void transport.close();
		void server.close();
	});
	try {
		await server.connect(transport);
		await transport.handleRequest(req, res, body.json);
	} catch (error) {
		deps.logger.error(`request failed: ${errorKind(error)}`);
		if (!res.headersSent) sendJson(res, 500, jsonRpcError(JSON_RPC_SERVER_ERROR, "Internal server error."));
		else res.destroy();
	}
}

/** Reads at most MAX_REQUEST_BODY_BYTES within BODY_READ_TIMEOUT_MS and parses it as JSON. */
async function readJsonBody(req: IncomingMessage): Promise<{ json: unknown } | { refusal: Refusal }> {
	const tooLarge: Refusal = { status: 413, kind: "too_large", message: `Request body over ${MAX_REQUEST_BODY_BYTES} bytes.` };
	const declared = Number(req.headers["content-length"] ?? "0");
	if (declared > MAX_REQUEST_BODY_BYTES) return { refusal: tooLarge };
	const chunks: Buffer[] = [];
	let size = 0;
	let timedOut = false;
	// This layer runs headless too, where there is no window: Node's own timers, which Electron also has.
	const timer = nodeTimers.setTimeout(() => {
		timedOut = true;
		req.destroy();
	}, BODY_READ_TIMEOUT_MS);
	try {
		for await (const chunk of req as AsyncIterable<Buffer>) {
			size += chunk.length;
			if (size > MAX_REQUEST_BODY_BYTES) return { refusal: tooLarge };
			chunks.push(chunk);
		}
	} catch {
		return { refusal: timedOut ? { status: 408, kind: "timeout", message: `The request body did not arrive within ${BODY_READ_TIMEOUT_MS} ms.` } : { status: 400, kind: "parse_error", message: "The request body could not be read." } };
	} finally {
		nodeTimers.clearTimeout(timer);
	}
	let json: unknown;
	try {
		json = JSON.parse(Buffer.concat(chunks).toString("utf8"));
	} catch {
		return { refusal: { status: 400, kind: "parse_error", message: "Parse error: the body is not valid JSON." } };
	}
	if (Array.isArray(json) && json.length > MAX_BATCH_ENTRIES) {
		return { refusal: { status: 400, kind: "too_large", message: `A batch may hold at most ${MAX_BATCH_ENTRIES} messages.` } };
	}
	return { json };
}

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
