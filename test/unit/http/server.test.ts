import type { ServerResponse } from "node:http";
import { connect } from "node:net";
import { ConnectionPool } from "../../../src/http/connections";
import { LoopbackHttpServer } from "../../../src/http/server";
import { WrittenAnswerSet } from "../../../src/http/writtenAnswers";
import { getBodyOrError } from "../../helpers/http";

/** A real loopback server whose every response is held unanswered, by its request's path; `arrived` settles at the next request. */
async function heldServer(): Promise<{
	server: LoopbackHttpServer;
	port: number;
	held: Map<string, ServerResponse>;
	arrived: () => Promise<void>;
}> {
	const held = new Map<string, ServerResponse>();
	const arrivals: Array<() => void> = [];
	const server = new LoopbackHttpServer(
		(req, res) => {
			held.set(req.url ?? "", res);
			arrivals.shift()?.();
		},
		new ConnectionPool({ maxUnauthenticated: 10, firstRequestMs: 10_000 }),
		10_000,
	);
	const port = await server.listen(0);
	return { server, port, held, arrived: () => new Promise<void>((resolve) => arrivals.push(resolve)) };
}

describe("LoopbackHttpServer.close with answers to finish", () => {
	test("closes the other connections at once, and a written request's once its answer is sent", async () => {
		const { server, port, held, arrived } = await heldServer();
		const both = [arrived(), arrived()];
		const written = getBodyOrError(port, "/written");
		const other = getBodyOrError(port, "/other");
		await Promise.all(both);
		const writtenResponse = held.get("/written")!;
		const answers = new WrittenAnswerSet();
		answers.add(writtenResponse);
		const closing = server.close(answers.now(), new Promise(() => undefined));
		expect(await other).toBe("error");
		expect(writtenResponse.destroyed).toBe(false);
		writtenResponse.end("written");
		expect(await written).toBe("written");
		await closing;
	});
});

describe("LoopbackHttpServer.close while a written answer is still being made", () => {
	test("a request sent on a kept connection after the close began is refused, not served", async () => {
		const { server, port, held, arrived } = await heldServer();
		const both = [arrived(), arrived()];
		// A keep-alive client that sends a second request once its first answer came.
		const kept = connect(port, "127.0.0.1");
		let got = "";
		const closedKept = new Promise<void>((resolve) => kept.on("close", () => resolve()));
		const firstAnswer = new Promise<void>((resolve) =>
			kept.on("data", (chunk: Buffer) => {
				got += chunk.toString("utf8");
				if (got.includes("first")) resolve();
			}),
		);
		kept.write("GET /first HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
		const slow = getBodyOrError(port, "/slow");
		await Promise.all(both);
		const answers = new WrittenAnswerSet();
		answers.add(held.get("/first")!);
		answers.add(held.get("/slow")!);
		const closing = server.close(answers.now(), new Promise(() => undefined));
		held.get("/first")!.end("first");
		await firstAnswer;
		kept.write("GET /after-close HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
		await closedKept;
		expect(held.has("/after-close")).toBe(false);
		expect(got).toContain("503");
		expect(got).toContain("The server is stopping.");
		held.get("/slow")!.end("slow");
		expect(await slow).toBe("slow");
		await closing;
	});
});
