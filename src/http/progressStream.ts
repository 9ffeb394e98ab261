import type { ServerResponse } from "node:http";
import * as nodeTimers from "node:timers";
import type { JSONRPCMessage } from "@modelcontextprotocol/server";
import type { Answerable } from "./endpointState";
import type { JsonPieces, Turns } from "./jsonPieces";
import { dropIfUnreadWithin, mustCutOff, withoutWithdrawn, writePieces } from "./replies";

/**
 * A POST answered as a stream of server-sent events, as the Streamable HTTP transport allows (a
 * 2025-era one, `serveLegacy`, and a 2026-07-28 tool call, `serveModern`'s `serveDirectly`), once
 * the server sends a notification about its running call: its progress, asked for with a
 * `progressToken` (`withProgress`, which says why). A POST with no notification is answered as
 * plain JSON, as before.
 *
 * A notification is small, but it echoes the client's token, which may be as big as a request
 * body: one is sent only once the client has taken the last (the rest are skipped, as a later
 * one says as much), and a client that takes none within `responseWriteMs` is let go, as one
 * that does not read a plain answer is. Once the token is revoked the stream is cut at once:
 * its 401 can no longer be sent, and the client is sent nothing more.
 */
export class ProgressStream {
	private open = false;
	/** The last notification is still waiting for the client to take it. */
	private unread = false;

	constructor(
		private readonly res: ServerResponse,
		private readonly answerable: Answerable,
		private readonly responseWriteMs: number,
	) {}

	/** Whether the answer goes as events: a notification was sent. */
	get streaming(): boolean {
		return this.open;
	}

	/**
	 * Sends `notification` as an event, opening the stream first; nothing once the client went away
	 * or a plain answer began. A token revoked since has its stream closed instead, as its
	 * subscription streams are: it is sent nothing more, and its 401 cannot be sent once the stream began.
	 */
	notify(notification: JSONRPCMessage): void {
		const { res } = this;
		if (res.destroyed) return;
		if (!this.answerable.tokenValid()) {
			// Before the client took the last notification too: what it has not taken is not sent.
			if (this.open) res.destroy();
			return;
		}
		if (this.unread) return;
		if (!this.open) {
			if (res.headersSent) return;
			res.writeHead(200, { "Content-Type": "text/event-stream", "Cache-Control": "no-cache" });
			this.open = true;
		}
		if (!res.write(eventOf(JSON.stringify(notification)))) this.waitUntilTaken();
	}

	/** Skips notifications until the client took what was written; lets it go if it takes nothing within the write deadline. */
	private waitUntilTaken(): void {
		const { res } = this;
		this.unread = true;
		const timer = nodeTimers.setTimeout(() => res.destroy(), this.responseWriteMs);
		const taken = () => {
			nodeTimers.clearTimeout(timer);
			res.off("close", taken);
			res.off("drain", taken);
			this.unread = false;
		};
		res.once("drain", taken);
		res.once("close", taken);
	}

	/**
	 * Ends the stream with the POST's answers (`texts`, each as the exchange serialised it), an event
	 * each, as a plain answer sends them: an answer whose request may no longer be answered replaced
	 * (`withoutWithdrawn`), the rest cut off once the token is revoked, a deadline for a client that does not read.
	 */
	async end(answers: ReadonlyArray<{ id: unknown }>, texts: readonly JsonPieces[], turns: Turns): Promise<void> {
		const { res, answerable, responseWriteMs } = this;
		if (res.destroyed) return;
		if (!answerable.tokenValid()) {
			res.destroy();
			return;
		}
		const withdrawn = answerable.withdrawn();
		const pieces: string[] = [];
		for (const [index, answer] of answers.entries()) {
			const sent = await withoutWithdrawn([answer], texts[index] as JsonPieces, withdrawn, turns);
			pieces.push(EVENT_START, ...sent.pieces, EVENT_END);
		}
		dropIfUnreadWithin(res, responseWriteMs);
		// One answer of one piece (nearly all) goes in one write.
		await writePieces(res, pieces.length <= 3 ? [pieces.join("")] : pieces, turns, () => mustCutOff(answerable));
	}
}

const EVENT_START = "event: message\ndata: ";
const EVENT_END = "\n\n";

/** One event of one JSON-RPC message: JSON text holds no line break, so one `data` line carries it. */
function eventOf(json: string): string {
	return `${EVENT_START}${json}${EVENT_END}`;
}
