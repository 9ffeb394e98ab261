import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { PassThrough } from "node:stream";
import type { AddressInfo, Socket } from "node:net";
import {
	BODY_PARSE_OWN_TURN_BYTES,
	MAX_BATCH_ENTRIES,
	MAX_REFUSED_BODY_DRAIN_BYTES,
	MAX_REQUEST_BODY_BYTES,
	MAX_REQUEST_CONTAINERS,
	MAX_REQUEST_NESTING,
	MAX_REQUEST_OBJECT_KEYS,
} from "../../../src/config/limits";
import { readJsonBody, refuseBeforeBody } from "../../../src/http/body";
import type { Refusal } from "../../../src/http/guard";
import { sendJson, sendRefusal } from "../../../src/http/replies";
import { rawRequest, type RawResponse } from "../../helpers/http";
import { openSocket } from "../../helpers/sockets";

/** Short enough to watch a deadline pass in a test, long enough that a loaded machine delivers a small body well within it. */
const BODY_READ_MS = 2_000;
const NOT_ALLOWED: Refusal = { status: 405, kind: "method", message: "Use POST." };

/** A loopback server whose handler reads each body as the endpoint does: the parsed JSON echoed back, or the refusal answered. */
async function listen(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ server: Server; port: number }> {
	const server = createServer(handler);
	await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
	return { server, port: (server.address() as AddressInfo).port };
}

const echoBody =
	(timeoutMs = BODY_READ_MS) =>
	(req: IncomingMessage, res: ServerResponse) => {
		void readJsonBody(req, timeoutMs).then((body) => ("refusal" in body ? sendRefusal(req, res, body.refusal) : sendJson(res, 200, { echoed: body.json })));
	};

/** Everything a raw socket receives until the server closes it or `until` holds for what arrived. */
function receive(socket: Socket, until: (text: string) => boolean): Promise<{ text: string; closed: boolean }> {
	return new Promise((resolve) => {
		let text = "";
		const onData = (chunk: Buffer) => {
			text += chunk.toString("latin1");
			if (until(text)) done(false);
		};
		const done = (closed: boolean) => {
			socket.off("data", onData);
			socket.off("close", onClose);
			resolve({ text, closed });
		};
		const onClose = () => done(true);
		socket.on("data", onData);
		socket.on("close", onClose);
	});
}

/** True once `text` holds `count` whole HTTP answers with small JSON bodies (each ends its body with `}`). */
const answers = (count: number) => (text: string) => (text.match(/\r\n\r\n\{[^\r]*\}/g) ?? []).length >= count;

const post = (port: number, body: string | Buffer, headers: Array<[string, string]> = []) =>
	rawRequest(port, { body, headers: [["Host", `127.0.0.1:${port}`], ["Content-Type", "application/json"], ...headers] });

const errorOf = (response: RawResponse) => (JSON.parse(response.body) as { error: { code: number; message: string }; id: unknown }).error;

describe("readJsonBody: the request body as a client sends it", () => {
	let server: Server;
	let port: number;
	beforeAll(async () => ({ server, port } = await listen(echoBody())));
	afterAll(async () => await new Promise((resolve) => server.close(resolve)));

	test("a JSON body arrives parsed, a batch of the largest size included", async () => {
		const message = { jsonrpc: "2.0", id: 7, method: "tools/list", params: { note: "Grüße ✓" } };
		const single = await post(port, JSON.stringify(message));
		expect(single.status).toBe(200);
		expect(JSON.parse(single.body)).toEqual({ echoed: message });
		const batch = Array.from({ length: MAX_BATCH_ENTRIES }, (_, id) => ({ ...message, id }));
		expect(JSON.parse((await post(port, JSON.stringify(batch))).body)).toEqual({ echoed: batch });
	});

	test("a body that is not JSON is refused 400 with JSON-RPC's parse error and no id", async () => {
		for (const body of ["{", "", "not json", Buffer.from([0xff, 0xfe, 0x7b])]) {
			const response = await post(port, body);
			expect(response.status).toBe(400);
			expect(response.headers["content-type"]).toBe("application/json");
			expect(JSON.parse(response.body)).toEqual({
				jsonrpc: "2.0",
				id: null,
				error: { code: -32700, message: "Parse error: the body is not valid JSON." },
			});
		}
	});

	test("JSON that parsed but is no request (an empty batch, nesting too deep, too many keys) is JSON-RPC's invalid request, -32600, not a parse error", async () => {
		const deep = `${"[".repeat(MAX_REQUEST_NESTING + 1)}${"]".repeat(MAX_REQUEST_NESTING + 1)}`;
		const manyKeys = JSON.stringify({
			jsonrpc: "2.0",
			id: 1,
			method: "tools/call",
			params: { name: "search", arguments: Object.fromEntries(Array.from({ length: MAX_REQUEST_OBJECT_KEYS }, (_, n) => [`k${n}`, n])) },
		});
		for (const [body, says] of [
			["[]", "the batch is empty"],
			[deep, `more than ${MAX_REQUEST_NESTING} levels deep`],
			[manyKeys, `more than ${MAX_REQUEST_OBJECT_KEYS} keys in all`],
		]) {
			const response = await post(port, body ?? "");
			expect(response.status).toBe(400);
			// Before: -32700, which tells a client its JSON did not parse.
			expect(errorOf(response)).toEqual({ code: -32600, message: expect.stringContaining(says ?? "") as unknown });
			expect(errorOf(response).message).toMatch(/^Invalid Request: /);
		}
	});

	test("a megabyte of 120,000 keys, of arrays 300,000 deep, or of 330,000 empty arrays, is refused from its text: JSON.parse never builds it (37–141 ms in one piece)", async () => {
		const keys = Array.from({ length: 120_000 }, (_, index) => `"${index.toString(36)}":0`).join(",");
		const bodies = [
			[`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"_meta":{${keys}}}}`, `more than ${MAX_REQUEST_OBJECT_KEYS} keys in all`],
			[`${"[".repeat(300_000)}${"]".repeat(300_000)}`, `more than ${MAX_REQUEST_NESTING} levels deep`],
			// Within the depth and key bounds: it was parsed, walked by the SDK in pieces of 23–48 ms, and answered.
			[
				`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"_meta":{"a":[${Array.from({ length: 330_000 }, () => "[]").join(",")}]}}}`,
				`more than ${MAX_REQUEST_CONTAINERS} arrays and objects`,
			],
		] as const;
		const parse = jest.spyOn(JSON, "parse");
		try {
			for (const [body, says] of bodies) {
				expect(body.length).toBeGreaterThan(BODY_PARSE_OWN_TURN_BYTES);
				const response = await post(port, body);
				expect(response.status).toBe(400);
				expect(errorOf(response)).toEqual({ code: -32600, message: expect.stringContaining(says) as unknown });
			}
			// Only the answers read here were parsed, never a body.
			expect(parse.mock.calls.filter(([text]) => text.length > BODY_PARSE_OWN_TURN_BYTES)).toEqual([]);
		} finally {
			parse.mockRestore();
		}
	});

	test("a body over a shape bound that is not JSON either is still the parse error, -32700", async () => {
		for (const body of [
			`${"[".repeat(300_000)}${"]".repeat(299_999)}`,
			`{${'"a":1,'.repeat(MAX_REQUEST_OBJECT_KEYS + 1)}}`,
			`[${":".repeat(MAX_REQUEST_OBJECT_KEYS + 1)}]`,
		]) {
			const response = await post(port, body);
			expect(response.status).toBe(400);
			expect(errorOf(response)).toEqual({ code: -32700, message: "Parse error: the body is not valid JSON." });
		}
	});

	test("a batch over its cap is refused whole, saying how many messages a batch may hold", async () => {
		const batch = Array.from({ length: MAX_BATCH_ENTRIES + 1 }, (_, id) => ({ jsonrpc: "2.0", id, method: "ping" }));
		const response = await post(port, JSON.stringify(batch));
		expect(response.status).toBe(400);
		expect(errorOf(response)).toEqual({ code: -32000, message: `A batch may hold at most ${MAX_BATCH_ENTRIES} messages.` });
	});

	test("a body declared over the byte cap is refused 413 before a byte of it is read, and its connection closed", async () => {
		const socket = await openSocket(port);
		socket.write(
			[`POST /mcp HTTP/1.1`, `Host: 127.0.0.1:${port}`, "Content-Type: application/json", `Content-Length: ${MAX_REQUEST_BODY_BYTES + 1}`, "", ""].join(
				"\r\n",
			),
		);
		const { text, closed } = await receive(socket, () => false);
		socket.destroy();
		expect(closed).toBe(true);
		expect(text).toMatch(/^HTTP\/1\.1 413 /);
		expect(text.toLowerCase()).toContain("connection: close");
		expect(text).toContain(`Request body over ${MAX_REQUEST_BODY_BYTES} bytes.`);
	});

	test("a body that says nothing of its size (chunked) is cut off at the byte cap, refused 413", async () => {
		const exactly = `"${"a".repeat(MAX_REQUEST_BODY_BYTES - 2)}"`;
		const atCap = await rawRequest(port, {
			body: exactly,
			headers: [
				["Host", `127.0.0.1:${port}`],
				["Transfer-Encoding", "chunked"],
			],
		});
		expect(atCap.status).toBe(200);
		const over = await rawRequest(port, {
			body: `${exactly} `,
			headers: [
				["Host", `127.0.0.1:${port}`],
				["Transfer-Encoding", "chunked"],
			],
		}).catch(
			// The server may close the connection while the rest of the body is still being sent.
			(error: NodeJS.ErrnoException) => ({ status: error.code ?? "error", headers: {}, body: "" }),
		);
		if (over.status !== "EPIPE" && over.status !== "ECONNRESET") {
			expect(over.status).toBe(413);
			expect(errorOf(over as RawResponse).message).toBe(`Request body over ${MAX_REQUEST_BODY_BYTES} bytes.`);
		}
	});

	test("a body that stops arriving is answered 408 once its deadline passes, not left waiting", async () => {
		const slow = await listen(echoBody(200));
		try {
			const socket = await openSocket(slow.port);
			socket.write(
				[`POST /mcp HTTP/1.1`, `Host: 127.0.0.1:${slow.port}`, "Content-Type: application/json", "Content-Length: 20", "", '{"jsonrpc"'].join("\r\n"),
			);
			const { text } = await receive(socket, answers(1));
			socket.destroy();
			expect(text).toMatch(/^HTTP\/1\.1 408 /);
			expect(text).toContain("The request body did not arrive within 200 ms.");
			// Part of the body is still unread: the answer closes the connection rather than read the rest.
			expect(text.toLowerCase()).toContain("connection: close");
		} finally {
			await new Promise((resolve) => slow.server.close(resolve));
		}
	});

	test("a client that goes away mid-body settles the read as a refusal (nothing is left waiting)", async () => {
		let settled: (value: unknown) => void = () => undefined;
		const outcome = new Promise((resolve) => (settled = resolve));
		const watched = await listen((req) => void readJsonBody(req, 10_000).then(settled));
		try {
			const socket = await openSocket(watched.port);
			socket.write([`POST /mcp HTTP/1.1`, `Host: 127.0.0.1:${watched.port}`, "Content-Length: 100", "", '{"a":'].join("\r\n"));
			// Once the server has begun the read, the client leaves.
			await new Promise((resolve) => setImmediate(resolve));
			socket.destroy();
			expect(await outcome).toEqual({ refusal: { status: 400, kind: "parse_error", message: "The request body could not be read." } });
		} finally {
			await new Promise((resolve) => watched.server.close(resolve));
		}
	});

	test("a body read as it arrives, its characters cut between chunks anywhere, reads as the whole body decoded at once", async () => {
		const text = '{"jsonrpc":"2.0","id":1,"params":{"text":"é 東京 😀 \\u00e9"}}';
		const bodies = [
			Buffer.from(text),
			// Bytes that are not UTF-8: a lone continuation byte, 0xff, an overlong "/", an encoded surrogate, a sequence cut short.
			Buffer.concat([Buffer.from('{"a":"'), Buffer.from([0x80, 0xff, 0xc0, 0xaf, 0xed, 0xa0, 0x80, 0xe6, 0x9d]), Buffer.from('x 😀"}')]),
			// A byte order mark is kept, so such a body is refused as before.
			Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]),
		];
		for (const bytes of bodies) {
			let whole: unknown;
			try {
				whole = { json: JSON.parse(bytes.toString("utf8")) as unknown };
			} catch {
				whole = { refusal: { status: 400, kind: "parse_error" } };
			}
			for (const chunkSize of [1, 2, 3, 5, 7]) {
				const req = new PassThrough();
				Object.assign(req, { headers: { "content-length": String(bytes.length) } });
				const read = readJsonBody(req as unknown as IncomingMessage, BODY_READ_MS);
				for (let start = 0; start < bytes.length; start += chunkSize) req.write(bytes.subarray(start, start + chunkSize));
				req.end();
				expect(await read).toMatchObject(whole as object);
			}
		}
	});
});

describe("readJsonBody: large bodies ending together", () => {
	test("are parsed one an event-loop turn, so other clients are read between them; a small body is parsed at once", async () => {
		let turn = 0;
		let counting = true;
		const count = () => {
			turn++;
			if (counting) setImmediate(count);
		};
		setImmediate(count);
		const large = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { text: "x".repeat(BODY_PARSE_OWN_TURN_BYTES) } });
		const small = JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" });
		const parsedIn: Record<string, number> = {};
		const bodies = ["large 1", "large 2", "small", "large 3"].map((name) => {
			const req = new PassThrough();
			const text = name === "small" ? small : large;
			Object.assign(req, { headers: { "content-length": String(Buffer.byteLength(text)) } });
			const read = readJsonBody(req as unknown as IncomingMessage, BODY_READ_MS).then((body) => {
				parsedIn[name] = turn;
				return body;
			});
			req.end(text);
			return read;
		});
		const answers = await Promise.all(bodies);
		counting = false;
		expect(answers.map((body) => ("json" in body ? (body.json as { id: number }).id : null))).toEqual([1, 1, 2, 1]);
		const largeTurns = [parsedIn["large 1"], parsedIn["large 2"], parsedIn["large 3"]];
		expect(new Set(largeTurns).size).toBe(3);
		expect(parsedIn["small"]).toBeLessThan(Math.max(...(largeTurns as number[])));
	});
});

describe("refuseBeforeBody: a request refused on its headers", () => {
	let server: Server;
	let port: number;
	beforeAll(async () => ({ server, port } = await listen((req, res) => refuseBeforeBody(req, res, NOT_ALLOWED, 300))));
	afterAll(async () => await new Promise((resolve) => server.close(resolve)));

	const head = (length: number | null) =>
		[`POST /mcp HTTP/1.1`, `Host: 127.0.0.1:${port}`, ...(length === null ? [] : [`Content-Length: ${length}`]), "", ""].join("\r\n");

	test("gets its refusal, and the connection stays usable for the client's next request (its small body was read and dropped)", async () => {
		const socket = await openSocket(port);
		const body = '{"jsonrpc":"2.0","id":1,"method":"ping"}';
		// Two requests sent back to back on one connection, as a client that pipelines does.
		socket.write(head(body.length) + body + head(body.length) + body);
		const { text, closed } = await receive(socket, answers(2));
		socket.destroy();
		expect(closed).toBe(false);
		expect(text.match(/HTTP\/1\.1 405 /g)).toHaveLength(2);
		expect(text.toLowerCase()).not.toContain("connection: close");
		expect(text).toContain('{"jsonrpc":"2.0","error":{"code":-32000,"message":"Use POST."},"id":null}');
	});

	test("a body declared larger than is worth reading is not read: the refusal closes the connection", async () => {
		const socket = await openSocket(port);
		socket.write(head(MAX_REFUSED_BODY_DRAIN_BYTES + 1));
		const { text, closed } = await receive(socket, () => false);
		socket.destroy();
		expect(closed).toBe(true);
		expect(text).toMatch(/^HTTP\/1\.1 405 /);
		expect(text.toLowerCase()).toContain("connection: close");
	});

	test("a body that never ends is refused once the read deadline passes", async () => {
		const socket = await openSocket(port);
		socket.write(head(1000) + "{");
		const { text } = await receive(socket, answers(1));
		socket.destroy();
		expect(text).toMatch(/^HTTP\/1\.1 405 /);
		expect(text.toLowerCase()).toContain("connection: close");
	});

	test("a request with no body at all is answered at once", async () => {
		const response = await rawRequest(port, { method: "GET", headers: [["Host", `127.0.0.1:${port}`]] });
		expect(response.status).toBe(405);
		expect(errorOf(response)).toEqual({ code: -32000, message: "Use POST." });
	});
});
