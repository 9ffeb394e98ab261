import type { Socket } from "node:net";
import * as nodeTimers from "node:timers";

/**
 * The server's open connections that have not yet presented a valid token. A process with no
 * token can open sockets and send nothing, or send requests that are refused; node's own cap
 * (`maxConnections`) counts every socket, so such a flood would fill it and lock out clients that
 * do have a token. Here those connections are capped apart: past the cap a new connection closes
 * the oldest unauthenticated one (a client with a token sends its request at once and leaves
 * this group), and a connection that sends no complete request head within `firstRequestMs` is
 * closed (one whose head came in time is answered, however late the server reads it). A connection joins the authenticated side once a request on it presents a valid token,
 * so keep-alive clients are never counted here again.
 */
export class ConnectionPool {
	/** Unauthenticated connections, oldest first (a Map keeps insertion order), with their first-request timer. */
	private readonly unauthenticated = new Map<Socket, ReturnType<typeof nodeTimers.setTimeout> | null>();

	constructor(private readonly limits: { maxUnauthenticated: number; firstRequestMs: number }) {}

	/** A new connection: unauthenticated until a request on it presents a valid token. */
	admit(socket: Socket): void {
		while (this.unauthenticated.size >= this.limits.maxUnauthenticated) {
			const oldest = this.unauthenticated.keys().next().value;
			if (oldest === undefined) break;
			this.forget(oldest);
			oldest.destroy();
		}
		const timer = nodeTimers.setTimeout(
			// A loop's turn runs its timers before it reads its sockets: a head that came in time while the server was busy (a long
			// piece of work, or the process not scheduled on a loaded machine) is read in this same turn, before the look after it.
			() => nodeTimers.setImmediate(() => this.unauthenticated.get(socket) === timer && socket.destroy()),
			this.limits.firstRequestMs,
		);
		this.unauthenticated.set(socket, timer);
		socket.once("close", () => this.forget(socket));
	}

	/** A complete request head arrived on `socket`: it is no longer idle, whatever the request holds. */
	requestStarted(socket: Socket): void {
		const timer = this.unauthenticated.get(socket);
		if (timer === undefined || timer === null) return;
		nodeTimers.clearTimeout(timer);
		this.unauthenticated.set(socket, null);
	}

	/** A request on `socket` presented a valid token: the connection is no longer capped as unauthenticated. */
	authenticate(socket: Socket): void {
		this.forget(socket);
	}

	/** Unauthenticated connections open now. */
	get unauthenticatedCount(): number {
		return this.unauthenticated.size;
	}

	private forget(socket: Socket): void {
		const timer = this.unauthenticated.get(socket);
		if (timer) nodeTimers.clearTimeout(timer);
		this.unauthenticated.delete(socket);
	}
}
