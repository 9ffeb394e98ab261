import type { ServerResponse } from "node:http";
import type { JSONRPCMessage } from "@modelcontextprotocol/server";
import type { Answerable } from "./endpointState";
import { jsonInPieces, type Turns } from "./jsonPieces";
import { dropIfUnreadWithin, mustCutOff, withoutWithdrawn, writePieces } from "./replies";

/**
 * A 2025-era POST answered as a stream of server-sent events, as the Streamable HTTP transport
 * allows, once the server sends a notification about its running call: its progress, asked for
 * with a `progressToken`. A client's request timeout (60 s in the SDK's client) then starts again
 * at each one when it asks so (`resetTimeoutOnProgress`); a rename of a note 2,000 notes link to
 * took 10–31 s on a loaded machine. A POST with no notification is answered as plain JSON, as before.
 */
export class ProgressStream {
	private open = false;

	constructor(private readonly res: ServerResponse) {}

	/** Whether the answer goes as events: a notification was sent. */
	get streaming(): boolean {
		return this.open;
	}

	/** Sends `notification` as an event, opening the stream first; nothing once the client went away or a plain answer began. */
	notify(notification: JSONRPCMessage): void {
		const { res } = this;
		if (res.destroyed) return;
		if (!this.open) {
			if (res.headersSent) return;
			res.writeHead(200, { "Content-Type": "text/event-stream", "Cache-Control": "no-cache" });
			this.open = true;
		}
		res.write(eventOf(JSON.stringify(notification)));
	}

	/**
	 * Ends the stream with the POST's answers, an event each, as a plain answer sends them: an answer
	 * whose request may no longer be answered replaced (`withoutWithdrawn`), the rest cut off once
	 * the token is revoked (its 401 cannot be sent once the stream began), a deadline for a client
	 * that does not read.
	 */
	async end(answers: ReadonlyArray<{ id: unknown }>, responseWriteMs: number, turns: Turns, answerable: Answerable): Promise<void> {
		const { res } = this;
		if (res.destroyed) return;
		if (!answerable.tokenValid()) {
			res.destroy();
			return;
		}
		const pieces: string[] = [];
		for (const answer of answers) {
			const sent = await withoutWithdrawn([answer], await jsonInPieces(answer, turns), answerable.withdrawn(), turns);
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
