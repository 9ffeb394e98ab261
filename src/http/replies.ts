import type { IncomingMessage, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import * as nodeTimers from "node:timers";
import { errorKind, type Logger } from "../activity";
import { RESPONSE_WRITE_TIMEOUT_MS } from "../config/limits";
import { UNAUTHORIZED, type Refusal } from "./guard";
import { SliceClock } from "../markdown/steps";
import { joinedAsArray, jsonAtOnce, jsonInPieces, type JsonPieces, type Turns } from "./jsonPieces";
import type { Answerable, AskedRequest } from "./endpointState";

const JSON_RPC_PARSE_ERROR = -32700;
const JSON_RPC_INVALID_REQUEST = -32600;
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
	// A refusal too can wait behind an unread answer on the same connection (pipelining): the default deadline holds for it.
	dropIfUnreadAfterEnd(res, RESPONSE_WRITE_TIMEOUT_MS);
}

/**
 * Sends a body made in pieces (jsonPieces.ts), with the headers `sendJsonText` gives, a piece at a
 * time; resolves once the last piece is handed to the socket or the client went away. A client
 * that does not read gets `responseWriteMs` from the first piece on to take the whole answer.
 * A token revoked since the request came is answered 401 instead (`refusedAsRevoked`), or, once
 * the answer has begun, its connection is closed before the next piece (`mustCutOff`).
 */
export async function sendJsonPieces(
	res: ServerResponse,
	status: number,
	body: JsonPieces,
	responseWriteMs: number,
	turns: Turns,
	answerable: Answerable,
): Promise<void> {
	if (refusedAsRevoked(res, answerable)) return;
	res.writeHead(status, { "Content-Type": "application/json", "Content-Length": body.bytes });
	if (body.pieces.length === 1) {
		res.end(body.pieces[0]);
		dropIfUnreadAfterEnd(res, responseWriteMs);
		return;
	}
	dropIfUnreadWithin(res, responseWriteMs);
	await writePieces(res, body.pieces, turns, () => mustCutOff(answerable));
}

/**
 * Sends the answer to one request of the POST (`answer`, its id the request's) at once, in this
 * turn, as `withoutWithdrawn` and `sendJsonPieces` would send it, when that is one short piece
 * (`jsonAtOnce`) within `maxBytes` and the request's answer is not withdrawn; true when it did, or
 * answered 401 instead (the token revoked). False when it must go their way instead (nothing is
 * written then): a long answer, one over the cap, a withdrawn one.
 */
export function sentAtOnce(
	res: ServerResponse,
	status: number,
	headers: Record<string, string | number>,
	answer: { id: unknown },
	maxBytes: number,
	responseWriteMs: number,
	answerable: Answerable,
): boolean {
	const made = jsonAtOnce(answer);
	if (made === null || made.bytes > maxBytes || answerable.withdrawn().has(answer.id)) return false;
	if (refusedAsRevoked(res, answerable)) return true;
	headers["Content-Length"] = made.bytes;
	res.writeHead(status, headers);
	res.end(made.text);
	// As `sendJsonPieces`: a deadline only when part of the answer still waits for the client to read.
	if ((res.socket?.writableLength ?? 0) > 0) dropIfUnreadWithin(res, responseWriteMs);
	return true;
}

/**
 * Whether an answer being written is cut off before its next piece: its token was revoked, or a
 * read's answer in it may no longer be sent and nothing was written for it (a write's answer cut
 * off would leave the client not knowing what was written, and it might send the write again).
 * Only a write that changed the vault keeps the answer going: a write call that failed or was
 * refused, added beside a big read, must not let the read outlive a Deny.
 */
export function mustCutOff(answerable: Answerable): boolean {
	return !answerable.tokenValid() || (!answerable.wrote() && answerable.withdrawn().size > 0);
}

/**
 * What a request whose answer may no longer be sent is answered instead: its token's rights or
 * folders changed since it came. A tool call gets a tool error, as a call stopped inside the server does.
 */
function withdrawnAnswer(id: unknown, request: AskedRequest): object {
	const what = request.method === "tools/call" ? (request.name ?? "this call") : request.method;
	const written = request.writes === true ? " Nothing was written." : "";
	const message = `${what} is no longer allowed for this token, or the folders this token may see changed, while it was answered, so its answer was not sent.${written} Send it again.`;
	if (request.method === "tools/call") return { jsonrpc: "2.0", id, result: { content: [{ type: "text", text: message }], isError: true } };
	return { jsonrpc: "2.0", id, error: { code: JSON_RPC_SERVER_ERROR, message } };
}

/**
 * `body` with each answer whose request may no longer be answered (`withdrawn`) replaced by
 * `withdrawnAnswer`: a batch's earlier read, answered before a Deny or a change of folders, is not
 * sent after it. `body` itself when none is.
 */
export async function withoutWithdrawn(
	answers: ReadonlyArray<{ id: unknown }>,
	body: JsonPieces,
	withdrawn: ReadonlyMap<unknown, AskedRequest>,
	turns: Turns,
): Promise<JsonPieces> {
	if (!answers.some((answer) => withdrawn.has(answer.id))) return body;
	return joinedAsArray(
		await Promise.all(
			answers.map((answer) => {
				const request = withdrawn.get(answer.id);
				return jsonInPieces(request ? withdrawnAnswer(answer.id, request) : answer, turns);
			}),
		),
	);
}

/**
 * Answers 401, as a request whose token was revoked while it arrived is answered, when the token
 * is no longer valid: an answer made for it (a batch's earlier calls, a call that finished just
 * before the revocation) is not sent. True when it did.
 */
export function refusedAsRevoked(res: ServerResponse, answerable: Answerable): boolean {
	if (answerable.tokenValid()) return false;
	if (!res.destroyed && !res.headersSent) sendJson(res, UNAUTHORIZED.status, jsonRpcError(JSON_RPC_SERVER_ERROR, UNAUTHORIZED.message), UNAUTHORIZED.headers);
	return true;
}

/**
 * Writes the pieces of a body whose head is written, then ends it. More than one piece is written
 * a piece at a time, pausing on `turns` whenever a slice is used, and once the socket holds more
 * than it takes (a client reading slowly), only once it has drained: encoding and writing megabytes
 * in one go held every other client, and the answer's whole UTF-8 copy, for as long as it took.
 * Once `cutOff` says so (the token revoked, a read's answer withdrawn) the connection is closed
 * instead of the next piece written: a client reading slowly would otherwise go on receiving the
 * notes after the change.
 */
export async function writePieces(res: ServerResponse, pieces: readonly string[], turns: Turns, cutOff: () => boolean): Promise<void> {
	if (pieces.length === 1) {
		res.end(pieces[0]);
		return;
	}
	const clock = new SliceClock(turns.sliceMs, turns.pause);
	for (const piece of pieces) {
		if (res.destroyed) return;
		if (cutOff()) {
			res.destroy();
			return;
		}
		if (!res.write(piece)) await drainedOrClosed(res);
		// A drained socket is no turn of the queue's: a client reading fast still takes its pieces in turns.
		await clock.checkpoint();
	}
	if (!res.destroyed) res.end();
}

function drainedOrClosed(res: ServerResponse): Promise<void> {
	return new Promise((resolve) => {
		const done = () => {
			res.off("drain", done);
			res.off("close", done);
			resolve();
		};
		res.once("drain", done);
		res.once("close", done);
	});
}

/** Answers a refusal; the connection is closed only when part of the request's body is still unread. */
export function sendRefusal(req: IncomingMessage, res: ServerResponse, refusal: Refusal): void {
	const code = refusal.kind === "parse_error" ? JSON_RPC_PARSE_ERROR : refusal.kind === "invalid_request" ? JSON_RPC_INVALID_REQUEST : JSON_RPC_SERVER_ERROR;
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

/**
 * After a one-piece answer is ended: the deadline of `dropIfUnreadWithin`, set only when part of the
 * answer waits for the client to read. Nearly every answer is taken whole by the socket at once, and
 * a deadline costs a timer and two listeners. An answer ended while an earlier one on the same
 * connection is still being sent (HTTP/1.1 pipelining) has no socket yet: it is looked at once the
 * socket is its own and it was handed over, since a client that reads nothing fills the kernel's
 * buffers with the earlier answers and this one then stays in the server (with the connection) for good.
 */
export function dropIfUnreadAfterEnd(res: ServerResponse, ms: number): void {
	const socket = res.socket;
	if (socket !== null) {
		if (socket.writableLength > 0) dropIfUnreadWithin(res, ms);
		return;
	}
	if (res.writableFinished || res.destroyed) return;
	// Node hands a waiting answer its socket, emits 'socket', then writes what the answer holds, all in one go.
	res.once("socket", (assigned: Socket) =>
		queueMicrotask(() => {
			if (assigned.writableLength > 0) dropIfUnreadWithin(res, ms);
		}),
	);
}

/** Destroys the connection if the response has not been taken by the client within `ms`, which frees its place (on 'close'). */
export function dropIfUnreadWithin(res: ServerResponse, ms: number): void {
	if (res.writableFinished || res.destroyed) return;
	const timer = nodeTimers.setTimeout(() => res.destroy(), ms);
	const clear = () => nodeTimers.clearTimeout(timer);
	res.once("finish", clear);
	res.once("close", clear);
}
