import { EventEmitter } from "node:events";
import type { Socket } from "node:net";
import { ConnectionPool } from "../../../src/http/connections";

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
		await new Promise((resolve) => setTimeout(resolve, 100));
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
