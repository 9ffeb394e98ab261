import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { KEEP_ALIVE_TIMEOUT_MS, MAX_CONNECTIONS, REQUEST_TIMEOUT_MS, CONNECTIONS_CHECK_INTERVAL_MS } from "../config/limits";
import type { ConnectionPool } from "./connections";
import type { WrittenAnswers } from "./writtenAnswers";
import { LOOPBACK_ADDRESS } from "./endpointAddress";
import { JSON_RPC_SERVER_ERROR, jsonRpcError, sendJson } from "./replies";

/** A listen that failed because another program has the port. */
export class PortInUseError extends Error {
	constructor(readonly port: number) {
		super(`Port ${port} is already in use by another program. Choose another port, or stop the program that uses it.`);
		this.name = "PortInUseError";
	}
}

/**
 * A node:http server on 127.0.0.1 with bounded timeouts, that closes every socket when stopped.
 * Every connection goes through `connections`, which caps the ones without a valid token; the
 * listener tells it which connections presented one.
 */
export class LoopbackHttpServer {
	private server: Server | null = null;
	/** Every open connection: closing, the server keeps some open a moment (`close`). */
	private readonly sockets = new Set<Socket>();

	/** `headersMs`: how long a request head may take to arrive (HEADERS_TIMEOUT_MS, or a test's shorter deadline). */
	constructor(
		private readonly listener: (req: IncomingMessage, res: ServerResponse) => void,
		private readonly connections: ConnectionPool,
		private readonly headersMs: number,
	) {}

	/** Starts listening; resolves with the port bound (useful with port 0). */
	listen(port: number): Promise<number> {
		if (this.server) return Promise.reject(new Error("The server is already listening."));
		const server = createServer({
			headersTimeout: this.headersMs,
			requestTimeout: REQUEST_TIMEOUT_MS,
			keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
			// Node enforces the two timeouts above only when it looks (every 30 s by default): a client
			// sending a request head one byte at a time on a kept-alive socket held it for about 40 s.
			connectionsCheckingInterval: CONNECTIONS_CHECK_INTERVAL_MS,
		});
		// A backstop on file handles over every kind of connection; the pool keeps tokenless ones far below it.
		server.maxConnections = MAX_CONNECTIONS;
		server.on("connection", (socket: Socket) => {
			this.connections.admit(socket);
			this.sockets.add(socket);
			socket.once("close", () => this.sockets.delete(socket));
		});
		// One listener, not two: an event with two listeners copies their list on every emit.
		const listener = this.listener;
		server.on("request", (req: IncomingMessage, res: ServerResponse) => {
			// Closing: a connection kept for a written call's answer (`close`) may still bring a request; none is served
			// once the server stops (it could write after the stop, or on the old port beside the restarted server).
			if (this.server !== server) {
				sendJson(res, 503, jsonRpcError(JSON_RPC_SERVER_ERROR, "The server is stopping."), { Connection: "close" });
				return;
			}
			this.connections.requestStarted(req.socket);
			listener(req, res);
		});
		return new Promise((resolve, reject) => {
			const onError = (error: NodeJS.ErrnoException) => {
				server.close();
				reject(error.code === "EADDRINUSE" ? new PortInUseError(port) : error);
			};
			server.once("error", onError);
			server.listen(port, LOOPBACK_ADDRESS, () => {
				server.off("error", onError);
				this.server = server;
				const address = server.address();
				resolve(typeof address === "object" && address !== null ? address.port : port);
			});
		});
	}

	/**
	 * Stops listening and closes every open connection, idle or not; resolves once the port is free.
	 * The connections of `finishing` (answers of requests that wrote) are closed once those are sent,
	 * or once `outOfTime` settles (the stop's one bound, shared with its other waits).
	 */
	async close(finishing?: WrittenAnswers, outOfTime: Promise<unknown> = Promise.resolve()): Promise<void> {
		const server = this.server;
		if (!server) return;
		this.server = null;
		const closed = new Promise<void>((resolve) => server.close(() => resolve()));
		for (const socket of this.sockets) if (!finishing?.sockets.has(socket)) socket.destroy();
		if (finishing !== undefined && finishing.sockets.size > 0) await Promise.race([finishing.sent, outOfTime]);
		server.closeAllConnections();
		await closed;
	}
}
