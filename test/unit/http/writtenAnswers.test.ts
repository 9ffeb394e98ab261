import { createServer, type Server, type ServerResponse } from "node:http";
import { connect, type AddressInfo } from "node:net";
import { WrittenAnswerSet } from "../../../src/http/writtenAnswers";
import { getBodyOrError } from "../../helpers/http";

/** A real loopback server whose every response is handed to the test unanswered; each request's client gets its body or its error. */
async function heldServer(): Promise<{ server: Server; port: number; responses: ServerResponse[]; next: () => Promise<ServerResponse> }> {
	const responses: ServerResponse[] = [];
	const waiting: Array<(res: ServerResponse) => void> = [];
	const server = createServer((_req, res) => {
		responses.push(res);
		waiting.shift()?.(res);
	});
	await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
	const next = () => new Promise<ServerResponse>((resolve) => waiting.push(resolve));
	return { server, port: (server.address() as AddressInfo).port, responses, next };
}

describe("WrittenAnswerSet", () => {
	let held: Awaited<ReturnType<typeof heldServer>>;
	beforeEach(async () => {
		held = await heldServer();
	});
	afterEach(async () => {
		held.server.closeAllConnections();
		await new Promise((resolve) => held.server.close(resolve));
	});

	test("none added: no connection, and sent at once", async () => {
		const answers = new WrittenAnswerSet().now();
		expect(answers.sockets.size).toBe(0);
		await answers.sent;
	});

	test("names the connection of an answer not sent yet, and is sent once it is (another answer not added is not waited for)", async () => {
		const set = new WrittenAnswerSet();
		const arriving = held.next();
		const otherArriving = held.next();
		const body = getBodyOrError(held.port);
		const otherBody = getBodyOrError(held.port);
		const [written, other] = [await arriving, await otherArriving];
		set.add(written);
		const answers = set.now();
		expect([...answers.sockets]).toEqual([written.socket]);
		let sent = false;
		void answers.sent.then(() => (sent = true));
		await new Promise((resolve) => setImmediate(resolve));
		expect(sent).toBe(false);
		written.end("what was written");
		await answers.sent;
		expect(await body).toBe("what was written");
		expect(set.now().sockets.size).toBe(0);
		other.end("read");
		expect(await otherBody).toBe("read");
	});

	test("an answer whose connection is gone counts as done", async () => {
		const set = new WrittenAnswerSet();
		const arriving = held.next();
		const body = getBodyOrError(held.port);
		const written = await arriving;
		set.add(written);
		const answers = set.now();
		written.socket?.destroy();
		await answers.sent;
		expect(await body).toBe("error");
	});

	test("an answer queued behind another on its connection (pipelined) names that connection", async () => {
		const set = new WrittenAnswerSet();
		const firstArriving = held.next();
		const secondArriving = held.next();
		const socket = connect(held.port, "127.0.0.1");
		socket.on("error", () => undefined);
		socket.write("GET /read HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\nGET /written HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
		const [first, second] = [await firstArriving, await secondArriving];
		set.add(second);
		expect(first.socket).not.toBeNull();
		expect(set.now().sockets.has(first.socket!)).toBe(true);
		first.end("read");
		second.end("written");
		socket.destroy();
	});
});
