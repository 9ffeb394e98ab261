import { request, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import nodeTimers from "node:timers";
import { MAX_RESPONSE_BODY_BYTES, RESPONSE_WRITE_TIMEOUT_MS } from "../../../src/config/limits";
import { UNAUTHORIZED, type Refusal } from "../../../src/http/guard";
import { jsonInPieces, OWN_TURNS, PIECE_CHARS } from "../../../src/http/jsonPieces";
import {
	answerTooLarge,
	dropIfUnreadWithin,
	failRequest,
	jsonRpcError,
	mustCutOff,
	sendJson,
	sendJsonPieces,
	sendJsonText,
	sendRefusal,
	withoutWithdrawn,
} from "../../../src/http/replies";
import { rawRequest, requestPausedAfterFirstBytes, withServer } from "../../helpers/http";
import { RecordingLogger } from "../../helpers/service";
import { openSocket } from "../../helpers/sockets";

const get = (port: number) => rawRequest(port, { method: "GET", headers: [["Host", `127.0.0.1:${port}`]] });

describe("the answers every request gets", () => {
	test("a JSON answer says its type and its length in bytes, not characters, and carries the headers asked for", async () => {
		const body = { note: "Grüße ✓ 🙂" };
		await withServer(
			(_req, res) => sendJson(res, 201, body, { "X-Extra": "yes" }),
			async (port) => {
				const response = await get(port);
				expect(response.status).toBe(201);
				expect(response.headers["content-type"]).toBe("application/json");
				expect(response.headers["content-length"]).toBe(String(Buffer.byteLength(JSON.stringify(body))));
				expect(response.headers["x-extra"]).toBe("yes");
				expect(JSON.parse(response.body)).toEqual(body);
			},
		);
		await withServer(
			(_req, res) => sendJsonText(res, 200, '{"already":"text"}'),
			async (port) => expect((await get(port)).body).toBe('{"already":"text"}'),
		);
	});

	test("a refusal is a JSON-RPC error with no id: -32700 for a body that could not be parsed, -32600 for JSON that is no request, -32000 otherwise, with the refusal's own headers", async () => {
		const parse: Refusal = { status: 400, kind: "parse_error", message: "Parse error: the body is not valid JSON." };
		await withServer(
			(req, res) => sendRefusal(req, res, parse),
			async (port) => {
				const response = await get(port);
				expect(response.status).toBe(400);
				expect(JSON.parse(response.body)).toEqual({ jsonrpc: "2.0", id: null, error: { code: -32700, message: parse.message } });
			},
		);
		const invalid: Refusal = { status: 400, kind: "invalid_request", message: "Invalid Request: the batch is empty. Send at least one message." };
		await withServer(
			(req, res) => sendRefusal(req, res, invalid),
			async (port) => expect(JSON.parse((await get(port)).body)).toEqual({ jsonrpc: "2.0", id: null, error: { code: -32600, message: invalid.message } }),
		);
		await withServer(
			(req, res) => sendRefusal(req, res, UNAUTHORIZED),
			async (port) => {
				const response = await get(port);
				expect(response.status).toBe(401);
				expect(response.headers["www-authenticate"]).toBe('Bearer realm="vault-mcp"');
				expect(JSON.parse(response.body)).toEqual(jsonRpcError(-32000, UNAUTHORIZED.message));
				// The whole request was read: the connection may carry the client's next request.
				expect(response.headers.connection).not.toBe("close");
			},
		);
	});

	test("a refusal sent while the request's body is still arriving closes the connection instead of reading the rest", async () => {
		await withServer(
			(req, res) => sendRefusal(req, res, { status: 413, kind: "too_large", message: "Too large." }),
			async (port) => {
				const socket = await openSocket(port, `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Length: 1000\r\n\r\n{`);
				const text = await new Promise<string>((resolve) => {
					let received = "";
					socket.on("data", (chunk: Buffer) => (received += chunk.toString("utf8")));
					socket.on("close", () => resolve(received));
				});
				expect(text).toMatch(/^HTTP\/1\.1 413 /);
				expect(text.toLowerCase()).toContain("connection: close");
			},
			{ early: true },
		);
	});

	test("a request that failed unexpectedly is answered 500 and logged by its kind, never its text (which may quote a note)", async () => {
		const logger = new RecordingLogger();
		const failure = Object.assign(new Error("could not read Private/Diary.md"), { code: "EACCES" });
		await withServer(
			(_req, res) => failRequest(res, logger, failure),
			async (port) => {
				const response = await get(port);
				expect(response.status).toBe(500);
				expect(JSON.parse(response.body)).toEqual({ jsonrpc: "2.0", id: null, error: { code: -32000, message: "Internal server error." } });
			},
		);
		expect(logger.lines).toEqual(["request failed: Error (EACCES)"]);
	});

	test("a request that fails after its answer began has its connection dropped, so the client does not wait for the rest", async () => {
		const logger = new RecordingLogger();
		await withServer(
			(_req, res) => {
				res.writeHead(200, { "Content-Type": "application/json", "Content-Length": "100" });
				res.write('{"partial":');
				failRequest(res, logger, new TypeError("broken"));
			},
			async (port) => {
				const outcome = await new Promise<string>((resolve) => {
					const req = request({ host: "127.0.0.1", port, path: "/" }, (res) => {
						res.resume();
						res.on("end", () => resolve("ended"));
						res.on("aborted", () => resolve("aborted"));
						res.on("error", () => resolve("aborted"));
					});
					req.on("error", () => resolve("aborted"));
					req.end();
				});
				expect(outcome).toBe("aborted");
			},
		);
		expect(logger.lines).toEqual(["request failed: TypeError"]);
	});

	test("an answer too large to send becomes a short error with the request's id, telling the model to ask for less", () => {
		expect(answerTooLarge(12, MAX_RESPONSE_BODY_BYTES)).toEqual({
			jsonrpc: "2.0",
			id: 12,
			error: { code: -32000, message: expect.stringContaining(`over ${MAX_RESPONSE_BODY_BYTES} bytes`) as unknown },
		});
		expect((answerTooLarge(null, 10) as { error: { message: string } }).error.message).toMatch(/Ask for less/);
	});

	test("a client that does not read its answer is dropped once the deadline passes; one that reads it gets all of it", async () => {
		// Twice what the kernel buffers on a loopback connection the client does not read (a 4 MB send buffer, a small receive window), so the answer cannot be handed over.
		const large = "x".repeat(8 * 1024 * 1024);
		const closed: Array<() => void> = [];
		const serverSideClosed = new Promise<void>((resolve) => closed.push(resolve));
		await withServer(
			(req, res) => {
				res.once("close", () => closed.shift()?.());
				res.writeHead(200, { "Content-Type": "text/plain", "Content-Length": Buffer.byteLength(large) });
				res.end(large);
				// The reader gets a deadline a loaded machine meets with room to spare.
				dropIfUnreadWithin(res, req.url === "/stalled" ? 300 : 20_000);
			},
			async (port) => {
				// Sends its request, then reads nothing until the server has given up on it.
				const stalled = await openSocket(port, `GET /stalled HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
				stalled.pause();
				await serverSideClosed;
				let received = 0;
				const ended = new Promise<void>((resolve) => {
					stalled.on("data", (chunk: Buffer) => {
						received += chunk.length;
						// The whole answer arrived: it was not dropped (and the kept-alive connection would stay open).
						if (received > large.length) resolve();
					});
					stalled.on("close", () => resolve());
				});
				stalled.resume();
				await ended;
				stalled.destroy();
				expect(received).toBeLessThan(large.length);
				const reader = await get(port);
				expect(reader.body.length).toBe(large.length);
			},
		);
	});

	test.each([
		["an answer in one piece", false],
		["a refusal", true],
	])("%s made while an earlier answer on the connection is pending gets the deadline once it cannot be handed over", async (_label, refusal) => {
		// HTTP/1.1 pipelining: the second answer is ended before the first, so it waits in the server with no socket yet.
		// When the socket becomes its own it cannot take the answer (corked here, as a kernel whose buffers an unread client
		// filled): the connection must then be dropped at the deadline, as for any answer the client does not read.
		let releaseFirst: () => void = () => undefined;
		const firstMayAnswer = new Promise<void>((resolve) => (releaseFirst = resolve));
		let secondEnded: () => void = () => undefined;
		const secondWasEnded = new Promise<void>((resolve) => (secondEnded = resolve));
		// A refusal has the server's default deadline (RESPONSE_WRITE_TIMEOUT_MS, 10 s): the timer asking for it is run
		// after 300 ms, as the answer's own, rather than waited out (10 s of an idle core in the unit tier).
		const realSetTimeout = nodeTimers.setTimeout;
		const deadlinesAsked: number[] = [];
		const timers = jest.spyOn(nodeTimers, "setTimeout").mockImplementation(((run: () => void, ms?: number, ...rest: unknown[]) => {
			if (ms !== RESPONSE_WRITE_TIMEOUT_MS) return realSetTimeout(run, ms, ...rest);
			deadlinesAsked.push(ms);
			return realSetTimeout(run, 300);
		}) as typeof nodeTimers.setTimeout);
		try {
			await withServer(
				(req, res) => {
					if (req.url === "/first") {
						void firstMayAnswer.then(() => sendJson(res, 200, { first: true }));
						return;
					}
					expect(res.socket).toBeNull();
					res.once("socket", (socket: Socket) => socket.cork());
					if (refusal) {
						sendJsonText(res, 503, '{"second":true}');
						secondEnded();
						return;
					}
					void sendJsonPieces(res, 200, { pieces: ['{"second":true}'], bytes: 15 }, 300, OWN_TURNS, {
						tokenValid: () => true,
						withdrawn: () => new Map(),
						wrote: () => false,
					}).then(secondEnded);
				},
				async (port) => {
					const head = (path: string) => `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`;
					const socket = await openSocket(port, head("/first") + head("/second"));
					let received = "";
					socket.on("data", (chunk: Buffer) => (received += chunk.toString("latin1")));
					// The refusal's deadline (the default, run after 300 ms) and the answer's, the one it was given (300 ms).
					const closed = new Promise<boolean>((resolve) => {
						socket.once("close", () => resolve(true));
						realSetTimeout(() => resolve(false), 3_000);
					});
					await secondWasEnded;
					releaseFirst();
					expect(await closed).toBe(true);
					socket.destroy();
					expect(received).toContain('{"first":true}');
					expect(received).not.toContain('{"second":true}');
				},
			);
		} finally {
			timers.mockRestore();
		}
		expect(deadlinesAsked).toEqual(refusal ? [RESPONSE_WRITE_TIMEOUT_MS] : []);
	});

	test("a big answer goes out a piece at a time: a client that stops reading holds back the rest, and others are answered meanwhile", async () => {
		// 60 pieces of 64K characters, some of them 2-4 UTF-8 bytes each: about 6 MB, more than loopback sockets buffer for a reader that stopped.
		const pieces = Array.from({ length: 60 }, (_, index) => `${index}:${"é東😀x".repeat(PIECE_CHARS / 8)}`);
		const whole = pieces.join("");
		const big: { response?: ServerResponse } = {};
		let written: Promise<void> = Promise.resolve();
		await withServer(
			(req, res) => {
				if (req.url === "/big") {
					big.response = res;
					written = sendJsonPieces(res, 200, { pieces, bytes: Buffer.byteLength(whole) }, 60_000, OWN_TURNS, {
						tokenValid: () => true,
						withdrawn: () => new Map(),
						wrote: () => false,
					});
				} else sendJson(res, 200, { small: true });
			},
			async (port) => {
				// The client stops reading after its first bytes.
				const reader = await requestPausedAfterFirstBytes(port, { method: "GET", path: "/big" });
				// Another client is answered while the big answer waits for its reader…
				const small = await get(port);
				expect(JSON.parse(small.body)).toEqual({ small: true });
				// …and the server has not handed over the big answer's last piece: it waits for the reader, not holding the rest encoded.
				expect(big.response?.writableEnded).toBe(false);
				const body = await reader.rest();
				await written;
				expect(reader.headers["content-length"]).toBe(String(body.length));
				expect(body.equals(Buffer.from(whole))).toBe(true);
			},
		);
	});
});

describe("mustCutOff", () => {
	const denied = new Map([[1, { method: "tools/call", name: "read_note" }]]);
	test.each([
		["a read withdrawn, nothing written", true, denied, false, true],
		["a read withdrawn beside a write that changed the vault (its answer must arrive)", true, denied, true, false],
		["the token revoked, even after a write", false, new Map(), true, true],
		["nothing withdrawn", true, new Map(), false, false],
	])("%s", (_, tokenValid, withdrawn, wrote, cutOff) => {
		expect(mustCutOff({ tokenValid: () => tokenValid, withdrawn: () => withdrawn, wrote: () => wrote })).toBe(cutOff);
	});
});

describe("withoutWithdrawn", () => {
	test("a withdrawn write call that wrote nothing is told so, a read is told to send it again, the rest is kept", async () => {
		const answers = [
			{ jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text: "No heading. Its headings: # Secret" }], isError: true } },
			{ jsonrpc: "2.0", id: 2, result: { content: [{ type: "text", text: "secret words" }] } },
			{ jsonrpc: "2.0", id: 3, result: { content: [{ type: "text", text: "kept" }] } },
		];
		const withdrawn = new Map<unknown, { method: string; name?: string; writes?: boolean }>([
			[1, { method: "tools/call", name: "append_to_note", writes: true }],
			[2, { method: "tools/call", name: "read_note" }],
		]);
		const sent = await withoutWithdrawn(answers, await jsonInPieces(answers, OWN_TURNS), withdrawn, OWN_TURNS);
		const [append, read, kept] = JSON.parse(sent.pieces.join("")) as Array<{ result: { content: Array<{ text: string }> } }>;
		expect(append!.result.content[0]!.text).toMatch(/^append_to_note is no longer allowed .* Nothing was written\. Send it again\.$/u);
		expect(read!.result.content[0]!.text).toMatch(/^read_note is no longer allowed .*was not sent\. Send it again\.$/u);
		expect(kept).toEqual(answers[2]);
		expect(sent.pieces.join("")).not.toMatch(/secret/iu);
	});
});
