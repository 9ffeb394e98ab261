import { INITIALIZE_BODY, mcpHeaders, rawRequest } from "../../helpers/http";
import { until } from "../../helpers/dom";
import { startEndpoint, type RunningEndpoint } from "../../helpers/endpoint";
import { openSocket, requestHead, toolCall } from "../../helpers/sockets";
import { MAX_IN_FLIGHT_PER_TOKEN, RATE_LIMIT_WINDOW_MS, RETRY_AFTER_BUSY_SECONDS, TOKEN_ENTRIES_BEFORE_SWEEP } from "../../../src/config/limits";
import { generateToken } from "../../../src/auth/tokens";

const MODERN_META = {
	"io.modelcontextprotocol/protocolVersion": "2026-07-28",
	"io.modelcontextprotocol/clientInfo": { name: "raw-2026", version: "1" },
	"io.modelcontextprotocol/clientCapabilities": {},
};

describe("starting the endpoint", () => {
	test("writes nothing to the console: the SDK's warning that its json response mode drops mid-call notifications is not shown", async () => {
		const warned = jest.spyOn(console, "warn");
		try {
			const running = await startEndpoint();
			await running.close();
			expect(warned).not.toHaveBeenCalled();
		} finally {
			warned.mockRestore();
		}
	});
});

/** The endpoint's admission of a request: refusals, their status codes and headers, budgets, and which protocol path serves it. */
describe("the MCP endpoint", () => {
	let running: RunningEndpoint;
	beforeEach(async () => (running = await startEndpoint({ deadlinesAndCaps: { placeWaitMs: 200 } })));
	afterEach(async () => await running.close());

	const call = (body: unknown, token = running.readToken, extra: Array<[string, string]> = []) =>
		rawRequest(running.port, { body: JSON.stringify(body), headers: mcpHeaders(running.port, token, extra) });

	test("a request without a valid token is refused 401 with a WWW-Authenticate challenge, and no server is lent", async () => {
		for (const token of ["", "vmcp_not-a-token"]) {
			const response = await call(toolCall(1, "echo", { text: "x" }), token);
			expect(response.status).toBe(401);
			expect(response.headers["www-authenticate"]).toBe('Bearer realm="vault-mcp"');
			expect(JSON.parse(response.body)).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32000 } });
		}
		expect(running.lends).toEqual([]);
	});

	test("a request is served by the revision it claims: 2025-era without an envelope, 2026-07-28 with one", async () => {
		const legacy = await call(toolCall(1, "echo", { text: "old" }));
		expect(JSON.parse(legacy.body)).toMatchObject({ id: 1, result: { content: [{ text: "old" }] } });
		const modern = await call(
			{ ...toolCall(2, "echo", { text: "new" }), params: { name: "echo", arguments: { text: "new" }, _meta: MODERN_META } },
			running.readToken,
			[
				["MCP-Protocol-Version", "2026-07-28"],
				["Mcp-Method", "tools/call"],
				["Mcp-Name", "echo"],
			],
		);
		expect(JSON.parse(modern.body)).toMatchObject({ id: 2, result: { content: [{ text: "new" }] } });
		expect(running.lends.map((lend) => lend.era)).toEqual(["legacy", "modern"]);
		// Each lent server carries the grant of the token that asked.
		expect(running.lends.every((lend) => lend.grant.token.name === "reader" && !lend.grant.canWrite)).toBe(true);
	});

	test("a client that does not accept both JSON and an event stream is answered 406, and no server is lent", async () => {
		const response = await rawRequest(running.port, {
			body: INITIALIZE_BODY,
			headers: [
				["Host", `127.0.0.1:${running.port}`],
				["Authorization", `Bearer ${running.readToken}`],
				["Content-Type", "application/json"],
				["Accept", "application/json"],
			],
		});
		expect(response.status).toBe(406);
		expect(JSON.parse(response.body)).toMatchObject({ error: { message: expect.stringContaining("Not Acceptable") } });
		expect(running.lends).toEqual([]);
	});

	test("a MCP-Protocol-Version this server does not speak is refused 400 with the request's id and the versions it does", async () => {
		const response = await call(toolCall(5, "echo", { text: "x" }), running.readToken, [["MCP-Protocol-Version", "1999-01-01"]]);
		expect(response.status).toBe(400);
		const answer = JSON.parse(response.body) as { id: number; error: { data: { supported: string[]; requested: string } } };
		expect(answer.id).toBe(5);
		expect(answer.error.data.requested).toBe("1999-01-01");
		expect(answer.error.data.supported).toEqual(expect.arrayContaining(["2025-06-18", "2025-11-25"]));
		expect(running.lends).toEqual([]);
	});

	test("a token over its message rate is refused 429 with Retry-After before its body is read; a batch pays for every message", async () => {
		running.policy.rateLimitPerMinute = 3;
		expect((await call([toolCall(1, "echo", { text: "a" }), toolCall(2, "echo", { text: "b" })])).status).toBe(200);
		expect((await call(toolCall(3, "echo", { text: "c" }))).status).toBe(200);
		const refused = await call(toolCall(4, "echo", { text: "d" }));
		expect(refused.status).toBe(429);
		expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
		// The other token has its own budget.
		expect((await call(toolCall(5, "echo", { text: "e" }), running.writeToken)).status).toBe(200);
	});

	test("tokens revoked are not kept until restart: a new token's first request forgets what theirs left that holds nothing, and a token at its rate limit stays refused", async () => {
		const made = Array.from({ length: TOKEN_ENTRIES_BEFORE_SWEEP + 8 }, (_, index) => generateToken(`client ${index}`, "write"));
		running.policy.tokens = [...running.policy.tokens, ...made.map((token) => token.record)];
		for (const token of made) {
			expect((await call(toolCall(1, "echo", { text: "a" }), token.token)).status).toBe(200);
			expect((await call(toolCall(2, "shout", { text: "b" }), token.token)).status).toBe(200);
		}
		const served = running.endpoint.entriesKept();
		expect(served.rateWindows).toBeGreaterThanOrEqual(made.length);
		// The owner revokes them all; a minute later none of their requests is in any window.
		running.policy.tokens = running.policy.tokens.filter((record) => !made.some((token) => token.record === record));
		const later = Date.now() + RATE_LIMIT_WINDOW_MS + 1_000;
		jest.spyOn(Date, "now").mockImplementation(() => later);
		try {
			running.policy.rateLimitPerMinute = 2;
			expect((await call(toolCall(3, "echo", { text: "c" }))).status).toBe(200);
			expect((await call(toolCall(4, "shout", { text: "d" }), running.writeToken)).status).toBe(200);
			expect((await call(toolCall(5, "echo", { text: "e" }))).status).toBe(200);
			expect((await call(toolCall(6, "echo", { text: "f" }))).status).toBe(429);
			const kept = running.endpoint.entriesKept();
			expect(kept.rateWindows).toBeLessThanOrEqual(2);
			expect(kept.writeWindows).toBeLessThanOrEqual(2);
			expect(kept.places).toBeLessThanOrEqual(2);
			expect(kept.servedCopies).toBeLessThanOrEqual(2);
			// Forgetting the others gave the reader nothing back: it is still over its limit.
			expect((await call(toolCall(7, "echo", { text: "g" }))).status).toBe(429);
		} finally {
			jest.restoreAllMocks();
		}
	});

	test("a write token's write calls count against its write budget; the refusal says nothing was written", async () => {
		running.policy.writeCallsPerMinute = 1;
		expect((await call(toolCall(1, "shout", { text: "a" }), running.writeToken)).status).toBe(200);
		const refused = await call(toolCall(2, "shout", { text: "b" }), running.writeToken);
		expect(refused.status).toBe(429);
		expect(JSON.parse(refused.body)).toMatchObject({ error: { message: expect.stringContaining("Nothing was written") } });
		// Reading is not writing; and a read token's calls of the tool do not count as writes.
		expect((await call(toolCall(3, "echo", { text: "c" }), running.writeToken)).status).toBe(200);
		expect((await call(toolCall(4, "shout", { text: "d" }), running.readToken)).status).toBe(200);
	});

	test("a token revoked while its body was still arriving is refused 401 for that request too", async () => {
		const body = JSON.stringify(toolCall(1, "echo", { text: "late" }));
		const socket = await openSocket(running.port, requestHead(running.port, running.readToken, Buffer.byteLength(body)));
		const answer = new Promise<string>((resolve) => {
			let text = "";
			socket.on("data", (chunk: Buffer) => {
				text += chunk.toString("utf8");
				if (text.includes("\r\n\r\n{") && text.trimEnd().endsWith("}")) resolve(text);
			});
		});
		// The head has passed the guard (the settings were read for it); then the token goes.
		await until(() => running.settingsReads() >= 1);
		expect(running.settingsReads()).toBe(1);
		running.policy.tokens = running.policy.tokens.filter((token) => token.name !== "reader");
		socket.write(body);
		const text = await answer;
		socket.destroy();
		expect(text).toMatch(/^HTTP\/1\.1 401 /);
		expect(running.lends).toEqual([]);
	});

	test("a token with every place taken waits in line, then is answered 503 with Retry-After; the calls in flight still finish", async () => {
		const inFlight = Array.from({ length: MAX_IN_FLIGHT_PER_TOKEN }, (_, index) => call(toolCall(index, "wait", {})));
		await running.waiting(MAX_IN_FLIGHT_PER_TOKEN);
		const refused = await call(toolCall(99, "echo", { text: "no room" }));
		expect(refused.status).toBe(503);
		expect(refused.headers["retry-after"]).toBe(String(RETRY_AFTER_BUSY_SECONDS));
		expect(JSON.parse(refused.body)).toMatchObject({ error: { message: expect.stringContaining(`${MAX_IN_FLIGHT_PER_TOKEN} requests`) } });
		running.openGate();
		for (const response of await Promise.all(inFlight)) expect(response.status).toBe(200);
		// The places are free again.
		expect((await call(toolCall(100, "echo", { text: "room" }))).status).toBe(200);
	});

	test("drain resolves only once the calls being answered have finished", async () => {
		const pending = call(toolCall(1, "wait", {}));
		await running.waiting(1);
		let drained = false;
		const draining = running.endpoint.drain().then(() => (drained = true));
		await new Promise((resolve) => setImmediate(resolve));
		expect(drained).toBe(false);
		running.openGate();
		await draining;
		expect((await pending).status).toBe(200);
	});

	test("whenIdle (the server's search warm-up waits on it): null with no call being answered; else settled once the call's answer is handed over", async () => {
		expect(running.endpoint.whenIdle()).toBeNull();
		const pending = call(toolCall(1, "wait", {}));
		await running.waiting(1);
		let idle = false;
		const idling = running.endpoint.whenIdle()?.then(() => (idle = true));
		expect(idling).toBeDefined();
		await new Promise((resolve) => setImmediate(resolve));
		expect(idle).toBe(false);
		running.openGate();
		expect((await pending).status).toBe(200);
		await idling;
		expect(running.endpoint.whenIdle()).toBeNull();
	});
});
