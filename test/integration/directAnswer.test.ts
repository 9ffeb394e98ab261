import { Agent, request as httpRequest } from "node:http";
import * as nodeTimers from "node:timers";
import { ExchangeTransport } from "../../src/http/statelessTransport";
import { mcpHeaders, rawRequest, type RawResponse } from "../helpers/http";
import { startService, type RunningService } from "../helpers/service";
import { makeVault, removeDir } from "../helpers/vault";

/** One 2025-era request: its method and parameters. */
interface LegacyRequest {
	label: string;
	method: string;
	params?: Record<string, unknown>;
	id?: unknown;
}

const REQUESTS: LegacyRequest[] = [
	{ label: "a read", method: "tools/call", params: { name: "read_note", arguments: { path: "Alpha" } } },
	{ label: "a read without arguments", method: "tools/call", params: { name: "list_notes" } },
	{ label: "a note that is not there", method: "tools/call", params: { name: "read_note", arguments: { path: "Nowhere" } } },
	{ label: "arguments zod refuses", method: "tools/call", params: { name: "read_note", arguments: { path: 7 } } },
	{ label: "an argument the schema does not know", method: "tools/call", params: { name: "read_note", arguments: { path: "Alpha", extra: 1 } } },
	{ label: "an unknown tool", method: "tools/call", params: { name: "no_such_tool", arguments: {} } },
	{ label: "a search", method: "tools/call", params: { name: "search_notes", arguments: { query: "alpha" } } },
	{ label: "a write", method: "tools/call", params: { name: "append_to_note", arguments: { path: "Beta", text: "more" } } },
	{ label: "the tool list", method: "tools/list" },
	{ label: "a string id", method: "tools/list", id: "seven" },
	{ label: "a read with a string id", method: "tools/call", params: { name: "read_note", arguments: { path: "Beta" } }, id: "eight" },
];

/**
 * Sends `request` as a client would, or with an empty `_meta` beside its parameters, which the
 * direct answer leaves to the SDK's protocol layer (and which changes nothing in its answer).
 */
function send(running: RunningService, token: string, request: LegacyRequest, throughSdk: boolean): Promise<RawResponse> {
	const params = throughSdk ? { ...request.params, _meta: {} } : request.params;
	const body = JSON.stringify({ jsonrpc: "2.0", id: request.id ?? 1, method: request.method, ...(params === undefined ? {} : { params }) });
	return rawRequest(running.port, { headers: mcpHeaders(running.port, token), body });
}

const MODERN = "2026-07-28";
const ENVELOPE = {
	"io.modelcontextprotocol/protocolVersion": MODERN,
	"io.modelcontextprotocol/clientInfo": { name: "direct-test", version: "1" },
	"io.modelcontextprotocol/clientCapabilities": {},
};

/**
 * A `_meta` key the SDK's handler takes and that changes no answer (a 2025-11-25 related task, which
 * no handler here reads), but whose value only the SDK's request schema checks: a request carrying
 * it is never served directly.
 */
const ONLY_THROUGH_SDK = { "io.modelcontextprotocol/related-task": { taskId: "direct-test" } };

/**
 * Sends `request` at 2026-07-28, its envelope in `_meta` and the standard headers: as it is, a pooled
 * server may answer it directly; `throughSdk`, only the SDK's handler answers it (`ONLY_THROUGH_SDK`).
 */
function sendModern(running: RunningService, token: string, request: LegacyRequest, throughSdk: boolean): Promise<RawResponse> {
	const name = request.params?.name;
	const headers = mcpHeaders(running.port, token, [
		["MCP-Protocol-Version", MODERN],
		["Mcp-Method", request.method],
		...(typeof name === "string" ? ([["Mcp-Name", name]] as Array<[string, string]>) : []),
	]);
	const _meta = throughSdk ? { ...ENVELOPE, ...ONLY_THROUGH_SDK } : ENVELOPE;
	const body = JSON.stringify({ jsonrpc: "2.0", id: request.id ?? 1, method: request.method, params: { ...request.params, _meta } });
	return rawRequest(running.port, { headers, body });
}

/** What a client sees of an answer: its status, its media type, its body. */
function seen(response: RawResponse): { status: number; contentType: unknown; body: string } {
	return { status: response.status, contentType: response.headers["content-type"], body: response.body };
}

describe("2025 tools/call and tools/list answered without the SDK's protocol layer, beside it", () => {
	let vault: string;
	let running: RunningService;

	beforeAll(async () => {
		vault = await makeVault({ "Alpha.md": "---\ntags: [a]\n---\n# Alpha\n\nalpha text\n", "Beta.md": "beta\n" });
		running = await startService(vault, {
			levels: ["read", "write"],
			settings: { writeEnabled: true, writeDisclosureAccepted: true },
			rights: { write: { read_note: "deny" } },
		});
	});

	afterAll(async () => {
		await running.stop();
		await removeDir(vault);
	});

	test.each(REQUESTS)("$label answers exactly as the SDK's protocol layer answers it: status, media type and bytes", async (request) => {
		for (const token of [running.tokens.read ?? "", running.tokens.write ?? ""]) {
			const direct = await send(running, token, request, false);
			const throughSdk = await send(running, token, request, true);
			expect(seen(direct)).toEqual(seen(throughSdk));
		}
	});

	test("a read and the tool list never reach the SDK's protocol layer; a write, a refused argument and a batch do", async () => {
		const served = jest.spyOn(ExchangeTransport.prototype, "serve");
		try {
			const read = running.tokens.read ?? "";
			for (const request of [REQUESTS[0], REQUESTS[1], REQUESTS[8]] as LegacyRequest[])
				expect((await send(running, read, request, false)).status).toBe(200);
			expect(served).not.toHaveBeenCalled();
			await send(running, read, REQUESTS[3] as LegacyRequest, false);
			await send(running, running.tokens.write ?? "", REQUESTS[7] as LegacyRequest, false);
			const batch = JSON.stringify([{ jsonrpc: "2.0", id: 1, method: "tools/list" }]);
			expect((await rawRequest(running.port, { headers: mcpHeaders(running.port, read), body: batch })).status).toBe(200);
			expect(served).toHaveBeenCalledTimes(3);
		} finally {
			served.mockRestore();
		}
	});

	test.each(REQUESTS)("$label at 2026-07-28 answers exactly as the SDK's handler answers it: status, media type and bytes", async (request) => {
		for (const token of [running.tokens.read ?? "", running.tokens.write ?? ""]) {
			// Twice: a pooled server's first 2026-07-28 request binds it to the revision (through the SDK's dispatch); the next is answered directly.
			for (let round = 0; round < 2; round++) {
				const direct = await sendModern(running, token, request, false);
				const throughSdk = await sendModern(running, token, request, true);
				expect(seen(direct)).toEqual(seen(throughSdk));
			}
		}
	});

	test("at 2026-07-28, a read and the tool list never reach the SDK's protocol layer once the server is bound; a write and a refused argument do", async () => {
		const read = running.tokens.read ?? "";
		// Binds the read token's pooled 2026-07-28 server to the revision.
		expect((await sendModern(running, read, REQUESTS[8] as LegacyRequest, false)).status).toBe(200);
		const served = jest.spyOn(ExchangeTransport.prototype, "serve");
		try {
			for (const request of [REQUESTS[0], REQUESTS[1], REQUESTS[8], REQUESTS[10]] as LegacyRequest[]) {
				const answer = await sendModern(running, read, request, false);
				expect(answer.status).toBe(200);
				expect(JSON.parse(answer.body)).toMatchObject({
					result: { resultType: "complete", _meta: { "io.modelcontextprotocol/serverInfo": { name: "vault-mcp" } } },
				});
			}
			expect(served).not.toHaveBeenCalled();
			await sendModern(running, read, REQUESTS[3] as LegacyRequest, false);
			expect(served).toHaveBeenCalledTimes(1);
		} finally {
			served.mockRestore();
		}
	});

	test("at 2026-07-28 on one kept-alive connection, an envelope refused after one taken is refused as the SDK's handler refuses it, and the first is taken again", async () => {
		const read = running.tokens.read ?? "";
		const agent = new Agent({ keepAlive: true, maxSockets: 1 });
		// One request on the agent's one socket: whether it went on a socket used before, and what the client sees.
		const sendOn = (envelope: Record<string, unknown>) =>
			new Promise<{ reused: boolean; seen: ReturnType<typeof seen> }>((resolve, reject) => {
				const headers = Object.fromEntries(
					mcpHeaders(running.port, read, [
						["MCP-Protocol-Version", MODERN],
						["Mcp-Method", "tools/call"],
						["Mcp-Name", "read_note"],
					]),
				);
				const body = JSON.stringify({
					jsonrpc: "2.0",
					id: 3,
					method: "tools/call",
					params: { name: "read_note", arguments: { path: "Alpha" }, _meta: envelope },
				});
				const req = httpRequest({ host: "127.0.0.1", port: running.port, method: "POST", path: "/mcp", agent, headers }, (res) => {
					const chunks: Buffer[] = [];
					res.on("data", (chunk: Buffer) => chunks.push(chunk));
					res.on("end", () =>
						resolve({
							reused: req.reusedSocket,
							seen: seen({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString("utf8") }),
						}),
					);
				});
				req.on("error", reject);
				req.end(body);
			});
		const refused = { ...ENVELOPE, "io.modelcontextprotocol/clientCapabilities": 7 };
		try {
			const answers = [];
			for (const envelope of [ENVELOPE, ENVELOPE, refused, refused, ENVELOPE]) answers.push(await sendOn(envelope));
			expect(answers.slice(1).every((answer) => answer.reused)).toBe(true);
			const sdkAnswer = seen(await sendModern(running, read, { ...(REQUESTS[0] as LegacyRequest), id: 3 }, true));
			expect(sdkAnswer.status).toBe(200);
			expect(answers[1]?.seen).toEqual(sdkAnswer);
			expect(answers[4]?.seen).toEqual(sdkAnswer);
			const sdkRefusal = await sendOn({ ...refused, ...ONLY_THROUGH_SDK });
			expect(sdkRefusal.seen.body).toContain("envelope");
			expect(answers[2]?.seen).toEqual(sdkRefusal.seen);
			expect(answers[3]?.seen).toEqual(sdkRefusal.seen);
		} finally {
			agent.destroy();
		}
	});

	test("an answer the socket takes whole sets no write deadline, at 2026-07-28 as at 2025 (a timer and two listeners per answer)", async () => {
		const WRITE_MS = 12_345;
		const timed = await startService(vault, { httpDeadlines: { responseWriteMs: WRITE_MS } });
		// The module object itself (an `import *` copy would not see the calls).
		const timers = jest.spyOn(jest.requireActual<typeof nodeTimers>("node:timers"), "setTimeout");
		try {
			const token = timed.tokens.read ?? "";
			for (let round = 0; round < 3; round++) {
				expect((await send(timed, token, REQUESTS[0] as LegacyRequest, false)).status).toBe(200);
				expect((await sendModern(timed, token, REQUESTS[0] as LegacyRequest, false)).status).toBe(200);
			}
			expect(timers.mock.calls.filter(([, ms]) => ms === WRITE_MS)).toHaveLength(0);
		} finally {
			timers.mockRestore();
			await timed.stop();
		}
	});

	test("an answer over the answer cap is replaced alike, by a short error with the request's id", async () => {
		const capped = await startService(vault, { httpDeadlines: { maxResponseBodyBytes: 300 } });
		try {
			const token = capped.tokens.read ?? "";
			const read = REQUESTS[0] as LegacyRequest;
			const direct = await send(capped, token, read, false);
			expect(seen(direct)).toEqual(seen(await send(capped, token, read, true)));
			expect(JSON.parse(direct.body)).toMatchObject({ id: 1, error: { message: expect.stringContaining("past 300 bytes") as unknown } });
		} finally {
			await capped.stop();
		}
	});
});
