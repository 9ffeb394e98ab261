import type { IncomingMessage, ServerResponse } from "node:http";
import * as nodeTimers from "node:timers";
import { errorKind, type Logger } from "../activity";
import type { Refusal } from "./guard";

const JSON_RPC_PARSE_ERROR = -32700;
export const JSON_RPC_SERVER_ERROR = -32000;
export const JSON_RPC_METHOD_NOT_FOUND = -32601;

/** A JSON-RPC error answer that belongs to no request (the request could not be read or was refused whole). */
export function jsonRpcError(code: number, message: string): unknown {
	return { jsonrpc: "2.0", error: { code, message }, id: null };
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers?: Record<string, string>): void {
	sendJsonText(res, status, JSON.stringify(body), headers);
}

/** Sends a body already serialised as JSON. */
export function sendJsonText(res: ServerResponse, status: number, text: string, headers?: Record<string, string>): void {
	const head: Record<string, string | number> = { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(text) };
	if (headers) Object.assign(head, headers);
	res.writeHead(status, head);
	res.end(text);
}

/** Answers a refusal; the connection is closed only when part of the request's body is still unread. */
export function sendRefusal(req: IncomingMessage, res: ServerResponse, refusal: Refusal): void {
	const code = refusal.kind === "parse_error" ? JSON_RPC_PARSE_ERROR : JSON_RPC_SERVER_ERROR;
	// A refused body may still be arriving; closing the connection stops it rather than reading it all.
	const unreadBody = !req.complete;
	sendJson(res, refusal.status, jsonRpcError(code, refusal.message), unreadBody ? { ...refusal.headers, Connection: "close" } : refusal.headers);
}

/**
 * The one way a request that failed unexpectedly ends: logged by the error's kind (never its text,
 * which may quote a note), answered 500 if nothing was sent yet, else its connection is closed so
 * the client does not wait for the rest of a broken answer.
 */
export function failRequest(res: ServerResponse, logger: Logger, error: unknown): void {
	logger.error(`request failed: ${errorKind(error)}`);
	if (!res.headersSent) sendJson(res, 500, jsonRpcError(JSON_RPC_SERVER_ERROR, "Internal server error."));
	else res.destroy();
}

/** What a request whose answer would pass `maxBytes` gets instead: a short error with its id. */
export function answerTooLarge(id: unknown, maxBytes: number): unknown {
	return {
		jsonrpc: "2.0",
		id,
		error: {
			code: JSON_RPC_SERVER_ERROR,
			message: `The answer would be over ${maxBytes} bytes, so it was not sent. Ask for less: a smaller limit, a folder, or one note at a time.`,
		},
	};
}

/** Destroys the connection if the response has not been taken by the client within `ms`, which frees its place (on 'close'). */
export function dropIfUnreadWithin(res: ServerResponse, ms: number): void {
	if (res.writableFinished || res.destroyed) return;
	const timer = nodeTimers.setTimeout(() => res.destroy(), ms);
	const clear = () => nodeTimers.clearTimeout(timer);
	res.once("finish", clear);
	res.once("close", clear);
}
