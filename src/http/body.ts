import type { IncomingMessage, ServerResponse } from "node:http";
import * as nodeTimers from "node:timers";
import {
	BODY_PARSE_OWN_TURN_BYTES,
	JSON_CHECK_STEP_CHARS,
	MAX_BATCH_ENTRIES,
	MAX_REFUSED_BODY_DRAIN_BYTES,
	MAX_REQUEST_CONTAINERS,
	MAX_REQUEST_BODY_BYTES,
	MAX_REQUEST_NESTING,
	MAX_REQUEST_OBJECT_KEYS,
} from "../config/limits";
import type { Refusal } from "./guard";
import { isJsonTextSteps, jsonShapeOver, type JsonShapeBound, type JsonShapeBounds } from "./jsonShape";
import { runSteps, SliceClock } from "../markdown/steps";
import { sendRefusal } from "./replies";
import { eventLoopTurns } from "../turns";

/** The refusal of a body over MAX_REQUEST_BODY_BYTES: one object, not one made for every request read. */
const TOO_LARGE: Refusal = { status: 413, kind: "too_large", message: `Request body over ${MAX_REQUEST_BODY_BYTES} bytes.` };

/**
 * Reads at most MAX_REQUEST_BODY_BYTES within `timeoutMs` and parses it as JSON. On the deadline
 * it stops reading but leaves the connection open, so the 408 can still reach the client; the
 * refusal's `Connection: close` then closes it.
 */
export function readJsonBody(req: IncomingMessage, timeoutMs: number): Promise<{ json: unknown } | { refusal: Refusal }> {
	const declared = Number(req.headers["content-length"] ?? "0");
	if (declared > MAX_REQUEST_BODY_BYTES) return Promise.resolve({ refusal: TOO_LARGE });
	return new Promise((resolve) => {
		// Each chunk is decoded as it comes (a multi-byte character cut between chunks is kept for the
		// next): a megabyte decoded in one piece at the end held every other client 25 ms or more.
		// A byte order mark is kept, as Buffer#toString keeps it, so such a body is refused alike.
		// A body of one chunk (nearly every request) is decoded whole at its end, without a decoder of its own.
		let decoder: TextDecoder | null = null;
		let first: Buffer | null = null;
		const texts: string[] = [];
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
			if (size > MAX_REQUEST_BODY_BYTES) finish({ refusal: TOO_LARGE });
			else if (decoder === null && first === null) first = chunk;
			else {
				if (decoder === null) {
					decoder = new TextDecoder("utf-8", { ignoreBOM: true });
					texts.push(decoder.decode(first as Buffer, { stream: true }));
				}
				texts.push(decoder.decode(chunk, { stream: true }));
			}
		};
		const onEnd = () => {
			if (size < BODY_PARSE_OWN_TURN_BYTES) return finish(parseBody(wholeText(decoder, first, texts)));
			// Stop reading and listening now: only joining the text and parsing it are left, each in a turn of the lane.
			nodeTimers.clearTimeout(timer);
			req.off("error", onError);
			req.off("close", onError);
			void parseLargeBody(decoder, first, texts).then(finish);
		};
		const onError = () => finish({ refusal: { status: 400, kind: "parse_error", message: "The request body could not be read." } });
		// This layer runs headless too, where there is no window: Node's own timers, which Electron also has.
		const timer = nodeTimers.setTimeout(
			() => finish({ refusal: { status: 408, kind: "timeout", message: `The request body did not arrive within ${timeoutMs} ms.` } }),
			timeoutMs,
		);
		req.on("data", onData);
		req.on("end", onEnd);
		req.on("error", onError);
		req.on("close", onError);
	});
}

/**
 * A large body's text made whole, its shape read, then parsed, then handed on, each in a turn of the process's lane (see TurnLane):
 * joining a megabyte of decoded pieces and parsing it are about 10 ms of work each, and four such
 * bodies ending together were parsed back to back while other clients waited. Another client's
 * request is read between two of those pieces, and between them and any other long work's slices.
 */
async function parseLargeBody(decoder: TextDecoder | null, first: Buffer | null, texts: string[]): Promise<{ json: unknown } | { refusal: Refusal }> {
	await eventLoopTurns.take();
	const text = wholeText(decoder, first, texts);
	await eventLoopTurns.take();
	const over = jsonShapeOver(text, SHAPE_BOUNDS);
	// Read again whole to tell a parse error from a shape refused: a step a turn (a megabyte took 6–7 ms, 14–22 under load, in one piece).
	if (over !== null) return shapeRefusal(over, await new SliceClock(0, eventLoopTurns.take).run(isJsonTextSteps(text, JSON_CHECK_STEP_CHARS)));
	await eventLoopTurns.take();
	const parsed = parseJson(text);
	// What follows (the budgets charged by the body's size, the call begun) in a turn after the parse's.
	await eventLoopTurns.take();
	return "json" in parsed ? checkBatch(parsed.json) : parsed;
}

/** The body's text: its one chunk decoded, or its decoded pieces joined. */
function wholeText(decoder: TextDecoder | null, first: Buffer | null, texts: string[]): string {
	if (decoder === null) return first === null ? "" : first.toString("utf8");
	return texts.join("") + decoder.decode();
}

function parseBody(text: string): { json: unknown } | { refusal: Refusal } {
	const over = jsonShapeOver(text, SHAPE_BOUNDS);
	if (over !== null) return shapeRefusal(over, runSteps(isJsonTextSteps(text, JSON_CHECK_STEP_CHARS)));
	const parsed = parseJson(text);
	return "json" in parsed ? checkBatch(parsed.json) : parsed;
}

const SHAPE_BOUNDS: JsonShapeBounds = {
	depth: MAX_REQUEST_NESTING,
	members: MAX_REQUEST_OBJECT_KEYS,
	containers: MAX_REQUEST_CONTAINERS,
	batchEntries: MAX_BATCH_ENTRIES,
};

const PARSE_ERROR: Refusal = { status: 400, kind: "parse_error", message: "Parse error: the body is not valid JSON." };

const BATCH_OVER_CAP: Refusal = { status: 400, kind: "too_large", message: `A batch may hold at most ${MAX_BATCH_ENTRIES} messages.` };

function parseJson(text: string): { json: unknown } | { refusal: Refusal } {
	try {
		return { json: JSON.parse(text) as unknown };
	} catch {
		return { refusal: PARSE_ERROR };
	}
}

/**
 * The refusal of a body whose shape, read from its text before it is parsed (`jsonShapeOver`), is over a
 * bound: nesting too deep, too many object keys, too many arrays and objects. A megabyte of 120,000 keys took 37–68 ms to parse and
 * 24–50 ms more to walk, each in one piece, and was refused after. When JSON would not have parsed it
 * at all (`isJson` false), the refusal is the parse error, as before; otherwise it is JSON-RPC's invalid
 * request (-32600), as the SDK's own transport answers a batch over its cap.
 */
function shapeRefusal(over: JsonShapeBound, isJson: boolean): { refusal: Refusal } {
	if (!isJson) return { refusal: PARSE_ERROR };
	if (over === "batch") return { refusal: BATCH_OVER_CAP };
	if (over === "nesting") {
		const message = `Invalid Request: arrays and objects nest more than ${MAX_REQUEST_NESTING} levels deep. Send flatter arguments (a property's value is text, a number, a boolean or a list of them).`;
		return { refusal: { status: 400, kind: "invalid_request", message } };
	}
	if (over === "containers") {
		const message = `Invalid Request: the body holds more than ${MAX_REQUEST_CONTAINERS} arrays and objects in all. A message and its arguments need a few dozen (a property's value is text, a number, a boolean or a list of them).`;
		return { refusal: { status: 400, kind: "invalid_request", message } };
	}
	const message = `Invalid Request: the body's objects hold more than ${MAX_REQUEST_OBJECT_KEYS} keys in all. A message and its arguments need a few dozen: send only the arguments the tool names.`;
	return { refusal: { status: 400, kind: "invalid_request", message } };
}

/** The parsed body, or why a batch is refused: empty (one over its cap was refused from its text, `jsonShapeOver`). */
function checkBatch(json: unknown): { json: unknown } | { refusal: Refusal } {
	// JSON-RPC: an empty batch is an invalid request, not a batch of notifications to accept with 202.
	if (Array.isArray(json) && json.length === 0) {
		return { refusal: { status: 400, kind: "invalid_request", message: "Invalid Request: the batch is empty. Send at least one message." } };
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
export function refuseBeforeBody(req: IncomingMessage, res: ServerResponse, refusal: Refusal, timeoutMs: number): void {
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
