/**
 * The answers being sent to requests whose write call changed the vault. The server stopping keeps
 * their connections open until each is sent: such an answer says what was written (and the undo id),
 * and a client left without it does not know, and may send the write again.
 */
import type { ServerResponse } from "node:http";
import type { Socket } from "node:net";

/** The answers not sent yet when asked: their connections, and a promise settled once none is left. */
export interface WrittenAnswers {
	sockets: ReadonlySet<Socket>;
	sent: Promise<void>;
}

/** The responses of requests that wrote, each until it is sent ('finish') or its connection is gone ('close'). */
export class WrittenAnswerSet {
	private readonly open = new Set<ServerResponse>();
	private waiting: Array<() => void> = [];

	/** `res`'s request wrote: its answer is waited for when the server stops. */
	add(res: ServerResponse): void {
		if (res.writableFinished || res.destroyed || this.open.has(res)) return;
		this.open.add(res);
		const done = () => this.done(res);
		res.once("finish", done);
		res.once("close", done);
	}

	/** Those not sent yet: their connections, and a promise settled once none is left (one added later counted too). */
	now(): WrittenAnswers {
		const sockets = new Set<Socket>();
		// The request's connection: an answer queued behind another on it (pipelined) has no `res.socket` until its turn.
		for (const res of this.open) sockets.add(res.req.socket);
		const sent = this.open.size === 0 ? Promise.resolve() : new Promise<void>((resolve) => this.waiting.push(resolve));
		return { sockets, sent };
	}

	private done(res: ServerResponse): void {
		if (!this.open.delete(res) || this.open.size > 0) return;
		const waiting = this.waiting;
		this.waiting = [];
		for (const resolve of waiting) resolve();
	}
}
