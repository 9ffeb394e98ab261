import type { IncomingMessage, ServerResponse } from "node:http";
import { createMcpHandler, InMemoryServerEventBus, type McpServer, type ServerEventBus } from "@modelcontextprotocol/server";
import { errorKind, type Logger } from "../activity";
import type { Grant } from "../auth/grant";
import { MAX_REQUEST_BODY_BYTES, MAX_SUBSCRIBED_NOTES_PER_STREAM, MAX_SUBSCRIPTION_STREAMS, MAX_SUBSCRIPTION_STREAMS_PER_TOKEN } from "../config/limits";
import { MCP_PATH } from "./endpointAddress";

/** Where a stream's notifications come from: the vault's changes, filtered for one caller. */
export interface SubscriptionFeed {
	/**
	 * The change feed of one stream for `grant`, watching `uris`; null when the grant may not read
	 * notes (its stream then carries nothing). `end` closes the stream (the token was revoked);
	 * the stream calls `close` once it has closed, whatever the reason.
	 */
	open(grant: Grant, uris: readonly string[], end: () => void): { bus: ServerEventBus; close(): void } | null;
}

/** A pooled MCP server lent for the listen request: the SDK reads its capabilities and identity. */
export interface ListenServerLoan {
	server: McpServer;
	release(): Promise<void>;
}

/** The URL the SDK's handler is given for every 2026-07-28 request: this endpoint's own, whatever the client sent as Host. */
const MODERN_REQUEST_URL = `http://127.0.0.1${MCP_PATH}`;

/** The web `Request` the SDK's handler takes for a node request: this endpoint's URL, the request's headers, `signal` aborting it. */
export function webRequestOf(req: IncomingMessage, signal: AbortSignal): Request {
	return new Request(MODERN_REQUEST_URL, {
		method: "POST",
		headers: headerPairsOf(req.rawHeaders),
		signal,
	});
}

/**
 * The request's headers as name and value pairs, straight from the raw list. A repeated header
 * reads as Node's joined value would (`Headers.get` joins with ", "); the guard has refused a
 * repeated Host, Authorization, Content-Type or MCP header already. Pure.
 */
export function headerPairsOf(rawHeaders: readonly string[]): [string, string][] {
	const pairs: [string, string][] = [];
	for (let index = 0; index + 1 < rawHeaders.length; index += 2) pairs.push([rawHeaders[index] as string, rawHeaders[index + 1] as string]);
	return pairs;
}

/** The note URIs a subscriptions/listen request asks to watch (an absent or malformed list is left to the SDK to refuse). Pure. */
function watchedUrisOf(json: unknown): string[] {
	const notifications = (json as { params?: { notifications?: { resourceSubscriptions?: unknown } } } | null)?.params?.notifications;
	const uris = notifications?.resourceSubscriptions;
	return Array.isArray(uris) ? uris.filter((uri): uri is string => typeof uri === "string") : [];
}

/** One open stream: how to close it, and when it has. */
interface OpenStream {
	close(): void;
	finished: Promise<void>;
}

/**
 * The subscriptions/listen streams of one endpoint (2026-07-28). Each stream gets its own SDK
 * handler over its own event bus, so what it is told is filtered for its caller alone; the SDK
 * writes the acknowledgement, the notifications with the subscription id, the keep-alive comments
 * and the closing result. Streams are bounded per token and in all (a clear 429 past either); a
 * stream holds no in-flight place once it is open (it does no work while it waits), but it is a
 * connection like any other: it counts against the server's connection cap and is closed on stop.
 */
export class ListenStreams {
	private readonly byToken = new Map<string, Set<OpenStream>>();
	private total = 0;

	constructor(
		private readonly feed: SubscriptionFeed,
		private readonly logger: Logger,
		private readonly keepAliveMs: number,
	) {}

	/** Streams open now. */
	get openCount(): number {
		return this.total;
	}

	/** Serves one subscriptions/listen request until its stream closes. */
	async serve(
		req: IncomingMessage,
		res: ServerResponse,
		grant: Grant,
		json: unknown,
		lend: () => ListenServerLoan | Promise<ListenServerLoan>,
		releasePlace: () => void,
		maxUnreadBytes: number,
	): Promise<void> {
		const id = (json as { id?: unknown }).id ?? null;
		const uris = watchedUrisOf(json);
		const refusal = this.refusalFor(grant, uris.length);
		if (refusal) {
			sendJsonRpcError(res, refusal.status, id, refusal.code, refusal.message);
			return;
		}
		const key = grant.token.hash;
		let finish: () => void = () => undefined;
		const stream: OpenStream = { close: () => undefined, finished: new Promise((resolve) => (finish = resolve)) };
		const streams = this.byToken.get(key) ?? new Set();
		streams.add(stream);
		this.byToken.set(key, streams);
		this.total += 1;
		const clientGone = new AbortController();
		// The SDK ends its stream when the request's signal aborts, but the signal of a `Request` follows
		// the one it was made with only while the `Request` object lives (Node 20 and 22): once the
		// handler has answered nothing holds it, a garbage collection drops the link, and a client's
		// close reached the stream only at the next keep-alive (15 s), its place counted all that time.
		// So the stream's reader is cancelled here too, which ends it whatever was collected.
		let cancelStream: () => void = () => undefined;
		const onClose = () => {
			clientGone.abort();
			cancelStream();
		};
		res.once("close", onClose);
		let handler: ReturnType<typeof createMcpHandler> | null = null;
		const opened = this.feed.open(grant, uris, () => void handler?.close());
		let loan: ListenServerLoan | null = null;
		try {
			handler = createMcpHandler(
				async () => {
					loan = await lend();
					return loan.server;
				},
				{
					legacy: "reject",
					bus: opened?.bus ?? new InMemoryServerEventBus(),
					maxSubscriptions: 1,
					keepAliveMs: this.keepAliveMs,
					maxRequestBodySize: MAX_REQUEST_BODY_BYTES,
				},
			);
			const served = handler;
			stream.close = () => void served.close();
			const response = await served.fetch(webRequestOf(req, clientGone.signal), { parsedBody: json });
			await (loan as ListenServerLoan | null)?.release();
			if (res.destroyed) return;
			const headers: Record<string, string> = {};
			response.headers.forEach((value, name) => (headers[name] = value));
			if (!(response.headers.get("content-type") ?? "").includes("text/event-stream") || response.body === null) {
				// A refusal of the request's form (headers, envelope, filter): a short JSON answer.
				const text = await response.text();
				res.writeHead(response.status, { ...headers, "Content-Length": Buffer.byteLength(text) }).end(text);
				return;
			}
			// The stream is open: it waits for changes, doing no work, so its in-flight place goes back.
			releasePlace();
			res.writeHead(response.status, headers);
			res.flushHeaders();
			const reader = response.body.getReader();
			cancelStream = () => void reader.cancel().catch(() => undefined);
			for (;;) {
				const { value, done } = await reader.read();
				if (done || res.destroyed) break;
				res.write(value);
				// A client that stops reading would make the stream's unsent frames pile up here.
				if (res.writableLength > maxUnreadBytes) {
					res.destroy();
					break;
				}
			}
			if (!res.destroyed) res.end();
		} catch (error) {
			this.logger.error(`subscription stream failed: ${errorKind(error)}`);
			if (!res.headersSent) sendJsonRpcError(res, 500, id, -32603, "Internal server error.");
			else res.destroy();
		} finally {
			res.off("close", onClose);
			clientGone.abort();
			opened?.close();
			await handler?.close();
			streams.delete(stream);
			if (streams.size === 0) this.byToken.delete(key);
			this.total -= 1;
			finish();
		}
	}

	/** Ends every open stream with the SDK's closing result (the server is stopping); resolves once each has closed. */
	async closeAll(): Promise<void> {
		const open = [...this.byToken.values()].flatMap((streams) => [...streams]);
		for (const stream of open) stream.close();
		await Promise.allSettled(open.map((stream) => stream.finished));
	}

	private refusalFor(grant: Grant, watched: number): { status: number; code: number; message: string } | null {
		if (watched > MAX_SUBSCRIBED_NOTES_PER_STREAM)
			return {
				status: 400,
				code: -32602,
				message: `A stream may watch at most ${MAX_SUBSCRIBED_NOTES_PER_STREAM} notes (resourceSubscriptions); this one asked for ${watched}. Watch fewer, or open a second stream.`,
			};
		if ((this.byToken.get(grant.token.hash)?.size ?? 0) >= MAX_SUBSCRIPTION_STREAMS_PER_TOKEN)
			return {
				status: 429,
				code: -32000,
				message: `This token already has ${MAX_SUBSCRIPTION_STREAMS_PER_TOKEN} subscription streams open, the most it may; close one before opening another.`,
			};
		if (this.total >= MAX_SUBSCRIPTION_STREAMS)
			return {
				status: 429,
				code: -32000,
				message: `The server already has ${MAX_SUBSCRIPTION_STREAMS} subscription streams open, the most it keeps; try again once one has closed.`,
			};
		return null;
	}
}

function sendJsonRpcError(res: ServerResponse, status: number, id: unknown, code: number, message: string): void {
	if (res.destroyed || res.headersSent) return;
	const text = JSON.stringify({ jsonrpc: "2.0", id, error: { code, message } });
	res.writeHead(status, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(text) }).end(text);
}
