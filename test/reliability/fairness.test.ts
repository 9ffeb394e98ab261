import { readFileSync } from "node:fs";
import { request } from "node:http";
import { connect, type Socket } from "node:net";
import * as nodePath from "node:path";
import { addToken } from "../../src/auth/tokenList";
import { MAX_CONNECTIONS } from "../../src/config/limits";
import { connectClient, INITIALIZE_BODY, mcpHeaders, rawRequest, type RawResponse } from "../helpers/http";
import { startService, type RunningService } from "../helpers/service";
import { callOk } from "../helpers/tools";
import { batchOf, openSocket, requestHead, sleep, toolCall } from "../helpers/sockets";
import { makeVault, removeDir } from "../helpers/vault";

/** Reads what is left on a paused socket until it ends, or until `timeoutMs`. */
function readToEnd(socket: Socket, timeoutMs: number): Promise<{ ended: boolean; text: string }> {
	return new Promise((resolve) => {
		const chunks: Buffer[] = [];
		const done = (ended: boolean) => {
			clearTimeout(timer);
			resolve({ ended, text: Buffer.concat(chunks).toString("utf8") });
		};
		const timer = setTimeout(() => done(false), timeoutMs);
		socket.on("data", (chunk: Buffer) => chunks.push(chunk));
		socket.once("close", () => done(true));
		socket.resume();
	});
}

function closed(socket: Socket): Promise<void> {
	return new Promise((resolve) => (socket.destroyed ? resolve() : socket.once("close", () => resolve())));
}

/** One request on a fresh connection (no keep-alive agent), so each one is a new, not yet authenticated socket. */
function freshRequest(port: number, token: string, body: string): Promise<number> {
	return new Promise((resolve) => {
		const req = request(
			{ host: "127.0.0.1", port, method: "POST", path: "/mcp", agent: false, headers: Object.fromEntries(mcpHeaders(port, token)) },
			(res) => {
				res.resume();
				res.on("end", () => resolve(res.statusCode ?? 0));
			},
		);
		req.on("error", () => resolve(-1));
		req.end(body);
	});
}

describe("slow readers", () => {
	let vault: string;
	let running: RunningService;
	const WRITE_DEADLINE_MS = 1_500;

	beforeAll(async () => {
		// A batch of 32 read_note calls of this note is about 14 MB of answers.
		vault = await makeVault({ "Big.md": `# Big\n\n${"line of text\n".repeat(16_000)}` });
		running = await startService(vault, {
			levels: ["read", "write"],
			settings: { rateLimitPerMinute: 100_000 },
			httpDeadlines: { responseWriteMs: WRITE_DEADLINE_MS },
		});
	});
	afterAll(async () => {
		await running.stop();
		await removeDir(vault);
	});

	test("a batch's answers are capped: the calls that fit run, the rest are not run and answer short errors with their ids", async () => {
		const response = await rawRequest(running.port, {
			headers: mcpHeaders(running.port, running.tokens.read ?? ""),
			body: batchOf(32, "read_note", { path: "Big" }),
		});
		expect(response.status).toBe(200);
		expect(Buffer.byteLength(response.body)).toBeLessThanOrEqual(4 * 1024 * 1024);
		const answers = JSON.parse(response.body) as Array<{ id: number; result?: unknown; error?: { message: string } }>;
		expect(answers.map((answer) => answer.id).sort((a, b) => a - b)).toEqual(Array.from({ length: 32 }, (_, index) => index + 1));
		const served = answers.filter((answer) => answer.result !== undefined);
		const leftOut = answers.filter((answer) => answer.error !== undefined);
		expect(served.length).toBeGreaterThanOrEqual(1);
		expect(leftOut.length).toBeGreaterThanOrEqual(1);
		// The first left out ran (its answer did not fit), and says so; the calls after it did not run.
		expect(leftOut[0]?.error?.message).toMatch(/^This call ran, but its answer/);
		for (const notRun of leftOut.slice(1)) expect(notRun.error?.message).toMatch(/not run.*smaller batch/);
		// Past the first answer that did not fit, no call ran: nothing was read for them, so nothing was held.
		expect(running.service.activity.list().filter((entry) => entry.tool === "read_note")).toHaveLength(served.length + 1);
	});

	test("8 connections that never read their answers hold no other token's requests, and are dropped at the write deadline", async () => {
		// With the default answer cap (4 MiB) the loopback socket buffers here take a whole answer, so
		// the server is never left holding one. Raised to 16 MiB, the answers stay stuck in the
		// server: the case the write deadline is for (socket buffers differ between machines).
		await running.stop();
		running = await startService(vault, {
			levels: ["read", "write"],
			settings: { rateLimitPerMinute: 100_000 },
			// No waiting in line here, so a refusal shows at once which places the slow readers hold.
			httpDeadlines: { responseWriteMs: WRITE_DEADLINE_MS, maxResponseBodyBytes: 16 * 1024 * 1024, placeWaitMs: 0 },
		});
		const body = batchOf(32, "read_note", { path: "Big" });
		const readers = await Promise.all(
			Array.from({ length: 8 }, () => openSocket(running.port, requestHead(running.port, running.tokens.read ?? "", Buffer.byteLength(body)) + body)),
		);
		try {
			// Each reader takes one look at the start of its answer (the status line) and then never reads again.
			const statusLines = await Promise.all(
				readers.map(
					(socket) =>
						new Promise<string>((resolve) => {
							socket.once("readable", () => resolve(String(socket.read(16) ?? "").split("\r\n")[0] ?? ""));
						}),
				),
			);
			const stuck = readers.filter((_, index) => statusLines[index]?.includes(" 200 "));
			// One token holds at most half of the 8 places at a time; the rest of its requests were told to
			// wait. (How many more are answered while it waits depends on how much of an answer the
			// kernel's socket buffers take in: Linux grows them to tcp_rmem's maximum, 32 MiB here.)
			expect(stuck.length).toBeGreaterThanOrEqual(4);
			expect(statusLines.filter((line) => line.includes(" 503 ")).length).toBeGreaterThanOrEqual(1);
			const started = performance.now();
			const other = await rawRequest(running.port, {
				headers: mcpHeaders(running.port, running.tokens.write ?? ""),
				body: JSON.stringify(toolCall(1, "get_vault_status", {})),
			});
			const otherMs = performance.now() - started;
			expect(other.status).toBe(200);
			expect(otherMs).toBeLessThan(1_000);

			// Past the deadline the server has dropped the ones still holding their answers: a reader that
			// finally reads finds its connection ended, with only what the socket buffers held.
			await sleep(WRITE_DEADLINE_MS + 500);
			const received = await Promise.all(stuck.map((socket) => readToEnd(socket, 5_000)));
			for (const { ended } of received) expect(ended).toBe(true);
			expect(received.some(({ text }) => !text.trimEnd().endsWith("]"))).toBe(true);
			// Their places are free again: the same token is served.
			const after = await rawRequest(running.port, { headers: mcpHeaders(running.port, running.tokens.read ?? ""), body: INITIALIZE_BODY });
			expect(after.status).toBe(200);
		} finally {
			for (const socket of readers) socket.destroy();
		}
	});
});

describe("rate limit counts messages, not requests", () => {
	let vault: string;
	beforeAll(async () => {
		vault = await makeVault({ "a.md": "alpha" });
	});
	afterAll(async () => removeDir(vault));

	test("a batch of 32 uses 32 of a limit of 40: a batch of 10 after it answers 429 with Retry-After and runs nothing", async () => {
		const running = await startService(vault, { settings: { rateLimitPerMinute: 40 } });
		try {
			const post = (body: string) => rawRequest(running.port, { headers: mcpHeaders(running.port, running.tokens.read ?? ""), body });
			const first = await post(batchOf(32, "get_vault_status", {}));
			expect(first.status).toBe(200);
			expect(JSON.parse(first.body)).toHaveLength(32);
			const callsRun = running.service.activity.list().length;
			expect(callsRun).toBe(32);

			const second = await post(batchOf(10, "get_vault_status", {}));
			expect(second.status).toBe(429);
			expect(Number(second.headers["retry-after"])).toBeGreaterThanOrEqual(1);
			expect(JSON.parse(second.body)).toMatchObject({ jsonrpc: "2.0", error: { message: expect.stringMatching(/Too many requests/) } });
			expect(running.service.activity.list()).toHaveLength(callsRun);
		} finally {
			await running.stop();
		}
	});

	test("a batch larger than the whole limit is refused with a message that says so", async () => {
		const running = await startService(vault, { settings: { rateLimitPerMinute: 5 } });
		try {
			const response = await rawRequest(running.port, {
				headers: mcpHeaders(running.port, running.tokens.read ?? ""),
				body: batchOf(6, "get_vault_status", {}),
			});
			expect(response.status).toBe(429);
			expect(response.body).toContain("send smaller batches");
			expect(running.service.activity.list()).toHaveLength(0);
		} finally {
			await running.stop();
		}
	});
});

describe("write budget per token", () => {
	let vault: string;
	let running: RunningService;
	let bytesToken: string;
	const read = (path: string) => readFileSync(nodePath.join(vault, path), "utf8");

	beforeAll(async () => {
		vault = await makeVault({ "Calls.md": "# Calls\n", "Bytes.md": "# Bytes\n" });
		running = await startService(vault, {
			levels: ["write"],
			settings: { writeEnabled: true, rateLimitPerMinute: 100_000, writeCallsPerMinute: 5, writeBytesPerMinute: 10_000 },
		});
		const made = addToken({ ...running.settings, writeEnabled: true }, "bytes", "write");
		if ("error" in made) throw new Error(made.error);
		bytesToken = made.token;
		await running.service.apply(made.settings);
	});
	afterAll(async () => {
		await running.stop();
		await removeDir(vault);
	});

	const append = (token: string, path: string, content: string) =>
		rawRequest(running.port, { headers: mcpHeaders(running.port, token), body: JSON.stringify(toolCall(1, "append_to_note", { path, content })) });

	test("write calls over the budget answer 429 with Retry-After and write nothing; reads go on", async () => {
		const token = running.tokens.write ?? "";
		const statuses: number[] = [];
		for (let index = 1; index <= 6; index++) statuses.push((await append(token, "Calls.md", `call ${index}`)).status);
		expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
		const refused = await append(token, "Calls.md", "call 7");
		expect(refused.status).toBe(429);
		expect(Number(refused.headers["retry-after"])).toBeGreaterThanOrEqual(1);
		expect(refused.body).toContain("Nothing was written");
		expect(read("Calls.md").match(/call \d/g)).toEqual(["call 1", "call 2", "call 3", "call 4", "call 5"]);
		// A batch of appends is charged call by call too: one more is already over.
		const batch = await rawRequest(running.port, {
			headers: mcpHeaders(running.port, token),
			body: batchOf(3, "append_to_note", { path: "Calls.md", content: "batched" }),
		});
		expect(batch.status).toBe(429);
		expect(read("Calls.md")).not.toContain("batched");
		const status = await rawRequest(running.port, { headers: mcpHeaders(running.port, token), body: JSON.stringify(toolCall(1, "get_vault_status", {})) });
		expect(status.status).toBe(200);
	});

	test("bytes written over the budget answer 429 with Retry-After and write nothing", async () => {
		const first = await append(bytesToken, "Bytes.md", "a".repeat(6_000));
		expect(first.status).toBe(200);
		const second = await append(bytesToken, "Bytes.md", "b".repeat(6_000));
		expect(second.status).toBe(429);
		expect(Number(second.headers["retry-after"])).toBeGreaterThanOrEqual(1);
		expect(read("Bytes.md")).not.toContain("b");
		// A small write still fits what is left of the minute's bytes.
		expect((await append(bytesToken, "Bytes.md", "small")).status).toBe(200);
	});

	test("through the SDK client, the refusal reads as too much writing", async () => {
		const client = await connectClient(running.url, running.tokens.write ?? "");
		try {
			await expect(callOk(client, "append_to_note", { path: "Calls.md", content: "sdk" })).rejects.toThrow(/Too much writing/);
		} finally {
			await client.close();
		}
	});
});

describe("connections", () => {
	let vault: string;
	beforeAll(async () => {
		vault = await makeVault({ "a.md": "alpha" });
	});
	afterAll(async () => removeDir(vault));

	test("1,030 reconnecting idle sockets from a process with no token: a client with a token is still served", async () => {
		const running = await startService(vault, { settings: { rateLimitPerMinute: 100_000 } });
		const flood = new Set<Socket>();
		let flooding = true;
		let connects = 0;
		const MAX_CONNECTS = 20_000;
		const FLOOD_SIZE = 1_030;
		// Each flood socket sends nothing and reconnects as soon as the server drops it.
		const floodOne = (): Promise<void> => {
			if (!flooding || connects >= MAX_CONNECTS) return Promise.resolve();
			connects += 1;
			const socket = connect(running.port, "127.0.0.1");
			flood.add(socket);
			socket.on("error", () => undefined);
			socket.once("close", () => {
				flood.delete(socket);
				void floodOne();
			});
			return new Promise((resolve) => {
				socket.once("connect", () => resolve());
				socket.once("close", () => resolve());
			});
		};
		try {
			// More than MAX_CONNECTIONS: under node's cap alone, these would leave no room for anyone.
			expect(FLOOD_SIZE).toBeGreaterThan(MAX_CONNECTIONS);
			// In waves, so the kernel's accept queue does not turn connections away before the server sees them.
			for (let opened = 0; opened < FLOOD_SIZE; opened += 100) {
				await Promise.all(Array.from({ length: Math.min(100, FLOOD_SIZE - opened) }, floodOne));
			}
			const body = JSON.stringify(toolCall(1, "get_vault_status", {}));
			const statuses: number[] = [];
			for (let index = 0; index < 20; index++) statuses.push(await freshRequest(running.port, running.tokens.read ?? "", body));
			expect(statuses).toEqual(Array(20).fill(200));
			const client = await connectClient(running.url, running.tokens.read ?? "");
			expect((await callOk<{ can_read: boolean }>(client, "get_vault_status")).can_read).toBe(true);
			await client.close();
			expect(connects).toBeGreaterThanOrEqual(FLOOD_SIZE);
		} finally {
			flooding = false;
			for (const socket of flood) socket.destroy();
			await running.stop();
		}
	});

	test("a connection that sends nothing, or only part of a request head, is closed at the first-request deadline", async () => {
		const running = await startService(vault, { httpDeadlines: { firstRequestMs: 300 } });
		try {
			const started = performance.now();
			const silent = await openSocket(running.port);
			const partial = await openSocket(running.port, `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${running.port}\r\n`);
			await Promise.all([closed(silent), closed(partial)]);
			const elapsed = performance.now() - started;
			expect(elapsed).toBeGreaterThanOrEqual(250);
			expect(elapsed).toBeLessThan(2_000);
		} finally {
			await running.stop();
		}
	});

	test("keep-alive clients with a token keep their connection past the first-request deadline", async () => {
		const running = await startService(vault, { httpDeadlines: { firstRequestMs: 300 } });
		const client = await connectClient(running.url, running.tokens.read ?? "");
		try {
			await sleep(600);
			expect((await callOk<{ can_read: boolean }>(client, "get_vault_status")).can_read).toBe(true);
		} finally {
			await client.close();
			await running.stop();
		}
	});
});

describe("a body that stops arriving", () => {
	test("gets 408 with a JSON-RPC error, which the client reads, and the connection is closed", async () => {
		const vault = await makeVault({ "a.md": "alpha" });
		const running = await startService(vault, { httpDeadlines: { bodyReadMs: 300 } });
		try {
			const socket = await openSocket(running.port, requestHead(running.port, running.tokens.read ?? "", 100) + "{");
			const started = performance.now();
			const chunks: Buffer[] = [];
			socket.on("data", (chunk: Buffer) => chunks.push(chunk));
			await closed(socket);
			const elapsed = performance.now() - started;
			const text = Buffer.concat(chunks).toString("utf8");
			const response = parseResponse(text);
			expect(response.status).toBe(408);
			expect(response.headers.connection).toBe("close");
			expect(JSON.parse(response.body)).toMatchObject({
				jsonrpc: "2.0",
				error: { message: expect.stringContaining("did not arrive within 300 ms") },
				id: null,
			});
			expect(elapsed).toBeGreaterThanOrEqual(250);
			expect(elapsed).toBeLessThan(3_000);
		} finally {
			await running.stop();
			await removeDir(vault);
		}
	});
});

/** A raw HTTP/1.1 response with a Content-Length body. */
function parseResponse(text: string): RawResponse {
	const [head = "", body = ""] = text.split("\r\n\r\n");
	const [statusLine = "", ...headerLines] = head.split("\r\n");
	const headers: Record<string, string> = {};
	for (const line of headerLines) {
		const colon = line.indexOf(":");
		headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
	}
	return { status: Number(statusLine.split(" ")[1]), headers, body };
}

describe("a burst of parallel calls from one client", () => {
	test("16 calls at once on one token wait in line for its places and all get 200", async () => {
		const vault = await makeVault({ "Note.md": "text\n" });
		const running = await startService(vault, { settings: { rateLimitPerMinute: 100_000 } });
		try {
			const token = running.tokens.read ?? "";
			const answers = await Promise.all(
				Array.from({ length: 16 }, () => rawRequest(running.port, { headers: mcpHeaders(running.port, token), body: INITIALIZE_BODY })),
			);
			expect(answers.map((answer) => answer.status)).toEqual(Array.from({ length: 16 }, () => 200));
		} finally {
			await running.stop();
			await removeDir(vault);
		}
	});
});
