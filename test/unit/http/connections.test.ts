import { EventEmitter } from "node:events";
import { connect, type Socket } from "node:net";
import { ConnectionPool } from "../../../src/http/connections";
import { LoopbackHttpServer } from "../../../src/http/server";
import { until } from "../../helpers/dom";

/** Just enough of a socket: it can be destroyed, and says so with 'close'. */
class FakeSocket extends EventEmitter {
	destroyed = false;
	destroy(): void {
		if (this.destroyed) return;
		this.destroyed = true;
		this.emit("close");
	}
}

const fake = () => new FakeSocket() as unknown as Socket & FakeSocket;

describe("ConnectionPool", () => {
	test("past the cap a new connection closes the oldest unauthenticated one; authenticated ones are never counted", () => {
		const pool = new ConnectionPool({ maxUnauthenticated: 2, firstRequestMs: 1_000 });
		const [withToken, first, second, third] = [fake(), fake(), fake(), fake()];
		pool.admit(withToken);
		pool.authenticate(withToken);
		pool.admit(first);
		pool.admit(second);
		pool.admit(third);
		expect([withToken.destroyed, first.destroyed, second.destroyed, third.destroyed]).toEqual([false, true, false, false]);
		expect(pool.unauthenticatedCount).toBe(2);
		for (const socket of [second, third]) socket.destroy();
		expect(pool.unauthenticatedCount).toBe(0);
	});

	test("a connection with no complete request head by the deadline is closed; one that sent a request is not", async () => {
		const pool = new ConnectionPool({ maxUnauthenticated: 10, firstRequestMs: 50 });
		const [silent, asked, authenticated] = [fake(), fake(), fake()];
		for (const socket of [silent, asked, authenticated]) pool.admit(socket);
		pool.requestStarted(asked);
		pool.authenticate(authenticated);
		// Until the silent one is closed (in an immediate after its deadline's timer), not a fixed 100 ms: under load the
		// test looked before the close, even one immediate later (3 of 22 runs at load 21-27). The other two had the same
		// deadline; their closes would have come in the same turn.
		await until(() => silent.destroyed);
		await new Promise((resolve) => setImmediate(resolve));
		expect([silent.destroyed, asked.destroyed, authenticated.destroyed]).toEqual([true, false, false]);
		expect(pool.unauthenticatedCount).toBe(1);
	});

	test("a closed connection leaves the pool", () => {
		const pool = new ConnectionPool({ maxUnauthenticated: 10, firstRequestMs: 1_000 });
		const socket = fake();
		pool.admit(socket);
		socket.destroy();
		expect(pool.unauthenticatedCount).toBe(0);
	});
});

/** Holds the event loop for `ms`, as a long piece of the server's own work does (on a loaded machine, the process not scheduled does too). */
function holdLoop(ms: number): void {
	const until = performance.now() + ms;
	while (performance.now() < until);
}

/** What came back on `socket` until it closed. */
function answerOf(socket: Socket): Promise<string> {
	return new Promise((resolve) => {
		let text = "";
		socket.on("data", (chunk: Buffer) => (text += chunk.toString()));
		socket.on("close", () => resolve(text));
		socket.on("error", () => undefined);
	});
}

/**
 * A connection that sends its whole request head at once, while the server's event loop is held past
 * the first-request deadline: the head is in the socket before the deadline, so it is answered. On
 * main the deadline's timer ran first (timers come before reading sockets in a loop's turn) and the
 * connection was closed unanswered: a client with a token lost its call when the server was busy.
 */
describe("the first-request deadline and a busy server", () => {
	test("a request head sent in time is answered even when the server reads it after the deadline; a silent connection is still closed", async () => {
		const firstRequestMs = 40;
		const pool = new ConnectionPool({ maxUnauthenticated: 10, firstRequestMs });
		const server = new LoopbackHttpServer((_req, res) => res.end("answered"), pool, 10_000);
		const port = await server.listen(0);
		try {
			// A connection that never sends anything, open beside them all along.
			const silent = connect(port, "127.0.0.1");
			const silentAnswer = answerOf(silent);
			while (pool.unauthenticatedCount < 1) await new Promise((resolve) => setImmediate(resolve));
			const answers: string[] = [];
			for (let round = 0; round < 5; round++) {
				const socket = connect(port, "127.0.0.1");
				const answer = answerOf(socket);
				// Connected, and accepted by the server (its deadline running); then the whole head sent at once.
				await new Promise((resolve) => socket.once("connect", resolve));
				while (pool.unauthenticatedCount < (silent.destroyed ? 1 : 2)) await new Promise((resolve) => setImmediate(resolve));
				socket.write(`GET /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`);
				// The server is busy past its deadline before it gets to read the head.
				holdLoop(firstRequestMs * 3);
				answers.push(await answer);
			}
			expect(answers.filter((text) => text.includes("answered"))).toHaveLength(5);
			expect(await silentAnswer).toBe("");
			expect(silent.destroyed).toBe(true);
		} finally {
			await server.close();
		}
	});
});
