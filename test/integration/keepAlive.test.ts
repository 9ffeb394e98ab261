import type { Socket } from "node:net";
import { MAX_REFUSED_BODY_DRAIN_BYTES } from "../../src/config/limits";
import { INITIALIZE_BODY } from "../helpers/http";
import { revokeToken } from "../../src/auth/tokenList";
import { startService, type RunningService } from "../helpers/service";
import { openSocket } from "../helpers/sockets";
import { makeVault, removeDir } from "../helpers/vault";

interface ParsedResponse {
	status: number;
	headers: Record<string, string>;
	body: string;
}

/**
 * Reads HTTP/1.1 responses one after another from one raw socket, as a keep-alive client does;
 * `closed` turns true once the server ends the connection.
 */
class ResponseReader {
	private buffer = Buffer.alloc(0);
	private waiting: (() => void) | null = null;
	closed = false;

	constructor(socket: Socket) {
		socket.on("data", (chunk: Buffer) => {
			this.buffer = Buffer.concat([this.buffer, chunk]);
			this.waiting?.();
		});
		socket.on("close", () => {
			this.closed = true;
			this.waiting?.();
		});
	}

	/** The next whole response, or null when the connection closed before one arrived. */
	async next(): Promise<ParsedResponse | null> {
		for (;;) {
			const parsed = this.take();
			if (parsed) return parsed;
			if (this.closed) return null;
			await new Promise<void>((resolve) => (this.waiting = resolve));
			this.waiting = null;
		}
	}

	private take(): ParsedResponse | null {
		const headEnd = this.buffer.indexOf("\r\n\r\n");
		if (headEnd < 0) return null;
		const [statusLine = "", ...lines] = this.buffer.subarray(0, headEnd).toString("latin1").split("\r\n");
		const headers: Record<string, string> = {};
		for (const line of lines) {
			const colon = line.indexOf(":");
			headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
		}
		const length = Number(headers["content-length"] ?? "0");
		if (this.buffer.length < headEnd + 4 + length) return null;
		const body = this.buffer.subarray(headEnd + 4, headEnd + 4 + length).toString("utf8");
		this.buffer = this.buffer.subarray(headEnd + 4 + length);
		return { status: Number(statusLine.split(" ")[1]), headers, body };
	}
}

function head(method: string, port: number, token: string | null, extra: string[] = []): string {
	const auth = token === null ? [] : [`Authorization: Bearer ${token}`];
	return [`${method} /mcp HTTP/1.1`, `Host: 127.0.0.1:${port}`, ...auth, "Accept: application/json, text/event-stream", ...extra, "", ""].join("\r\n");
}

function post(port: number, token: string | null, body: string): string {
	return head("POST", port, token, ["Content-Type: application/json", `Content-Length: ${Buffer.byteLength(body)}`]) + body;
}

const TOOLS_LIST_BODY = JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list", params: {} });

describe("a refused request leaves its keep-alive connection usable", () => {
	let vault: string;
	let running: RunningService;
	const sockets: Socket[] = [];

	beforeAll(async () => {
		vault = await makeVault({ "Welcome.md": "# Welcome\n" });
		running = await startService(vault, { levels: ["read"] });
	});

	afterEach(() => {
		for (const socket of sockets.splice(0)) socket.destroy();
	});

	afterAll(async () => {
		await running.stop();
		await removeDir(vault);
	});

	async function connection(): Promise<{ socket: Socket; reader: ResponseReader }> {
		const socket = await openSocket(running.port);
		sockets.push(socket);
		return { socket, reader: new ResponseReader(socket) };
	}

	const token = () => running.tokens.read ?? "";

	test("GET /mcp is answered 405 without closing, and tools/list on the same socket then answers (Claude Code's order)", async () => {
		const { socket, reader } = await connection();
		socket.write(post(running.port, token(), INITIALIZE_BODY));
		expect((await reader.next())?.status).toBe(200);
		socket.write(head("GET", running.port, token()));
		const refused = await reader.next();
		expect(refused?.status).toBe(405);
		expect(refused?.headers.connection).not.toBe("close");
		socket.write(post(running.port, token(), TOOLS_LIST_BODY));
		const listed = await reader.next();
		expect(listed?.status).toBe(200);
		expect(JSON.stringify(JSON.parse(listed?.body ?? "null"))).toContain("search_notes");
	});

	test("a GET and a POST sent back to back (pipelined) both get their answers", async () => {
		const { socket, reader } = await connection();
		socket.write(head("GET", running.port, token()) + post(running.port, token(), TOOLS_LIST_BODY));
		expect((await reader.next())?.status).toBe(405);
		const listed = await reader.next();
		expect(listed?.status).toBe(200);
		expect(listed?.body).toContain("search_notes");
	});

	test("a refused POST with a small body (no token, wrong token) has its body read, and the next request on the socket answers", async () => {
		const { socket, reader } = await connection();
		socket.write(post(running.port, null, INITIALIZE_BODY));
		const unauthorized = await reader.next();
		expect(unauthorized?.status).toBe(401);
		expect(unauthorized?.headers.connection).not.toBe("close");
		socket.write(post(running.port, "not-a-token", TOOLS_LIST_BODY));
		expect((await reader.next())?.status).toBe(401);
		socket.write(post(running.port, token(), TOOLS_LIST_BODY));
		expect((await reader.next())?.status).toBe(200);
	});

	test("a refused request whose body arrives late is answered once the body is in, and the connection stays open", async () => {
		const { socket, reader } = await connection();
		socket.write(head("POST", running.port, null, ["Content-Type: application/json", `Content-Length: ${INITIALIZE_BODY.length}`]));
		await new Promise((resolve) => setTimeout(resolve, 100));
		socket.write(INITIALIZE_BODY);
		expect((await reader.next())?.status).toBe(401);
		socket.write(post(running.port, token(), TOOLS_LIST_BODY));
		expect((await reader.next())?.status).toBe(200);
	});

	test("a refused request declaring a body over the drain limit is answered at once and its connection closed, so it is never read", async () => {
		const { socket, reader } = await connection();
		socket.write(head("POST", running.port, null, ["Content-Type: application/json", `Content-Length: ${MAX_REFUSED_BODY_DRAIN_BYTES + 1}`]));
		const refused = await reader.next();
		expect(refused?.status).toBe(401);
		expect(refused?.headers.connection).toBe("close");
		expect(await reader.next()).toBeNull();
		expect(reader.closed).toBe(true);
	});

	test("a refused chunked body that grows past the drain limit gets its answer and a closed connection", async () => {
		const { socket, reader } = await connection();
		socket.write(head("POST", running.port, null, ["Content-Type: application/json", "Transfer-Encoding: chunked"]));
		const chunk = "x".repeat(16 * 1024);
		for (let sent = 0; sent <= MAX_REFUSED_BODY_DRAIN_BYTES; sent += chunk.length) socket.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`);
		const refused = await reader.next();
		expect(refused?.status).toBe(401);
		expect(refused?.headers.connection).toBe("close");
		expect(await reader.next()).toBeNull();
	});

	test("a token revoked between two requests on one kept-alive connection is refused on the very next one (the token's digest is remembered per connection, never its match)", async () => {
		const mine = await startService(vault, { levels: ["read", "write"] });
		const socket = await openSocket(mine.port);
		sockets.push(socket);
		const reader = new ResponseReader(socket);
		const read = mine.tokens.read ?? "";
		try {
			for (let round = 0; round < 2; round++) {
				socket.write(post(mine.port, read, TOOLS_LIST_BODY));
				expect((await reader.next())?.status).toBe(200);
			}
			const revoked = revokeToken(mine.settings, "read");
			if ("error" in revoked) throw new Error(revoked.error);
			await mine.service.apply(revoked.settings);
			socket.write(post(mine.port, read, TOOLS_LIST_BODY));
			expect((await reader.next())?.status).toBe(401);
			// The other token on the same connection still answers.
			socket.write(post(mine.port, mine.tokens.write ?? "", TOOLS_LIST_BODY));
			expect((await reader.next())?.status).toBe(200);
		} finally {
			await mine.stop();
		}
	});
});
