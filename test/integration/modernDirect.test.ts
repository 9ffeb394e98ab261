import { mcpHeaders, rawRequest, type RawResponse } from "../helpers/http";
import { startService, type RunningService } from "../helpers/service";
import { makeVault, removeDir } from "../helpers/vault";

const MODERN = "2026-07-28";
const ENVELOPE = {
	"io.modelcontextprotocol/protocolVersion": MODERN,
	"io.modelcontextprotocol/clientInfo": { name: "direct-test", version: "1" },
	"io.modelcontextprotocol/clientCapabilities": {},
};

/** One 2026-07-28 request: its body and standard headers. */
interface ModernRequest {
	label: string;
	method: string;
	params?: Record<string, unknown>;
	/** The Mcp-Name header, when the method takes one. */
	name?: string;
	/** Envelope keys that replace the usual ones. */
	envelope?: Record<string, unknown>;
	/** The request's id, when not 1. */
	id?: unknown;
}

const REQUESTS: ModernRequest[] = [
	{ label: "a read", method: "tools/call", params: { name: "read_note", arguments: { path: "Alpha" } }, name: "read_note" },
	{ label: "a note that is not there", method: "tools/call", params: { name: "read_note", arguments: { path: "Nowhere" } }, name: "read_note" },
	{ label: "arguments zod refuses", method: "tools/call", params: { name: "read_note", arguments: { path: 7 } }, name: "read_note" },
	{ label: "an unknown tool", method: "tools/call", params: { name: "no_such_tool", arguments: {} }, name: "no_such_tool" },
	{ label: "a search", method: "tools/call", params: { name: "search_notes", arguments: { query: "alpha" } }, name: "search_notes" },
	{ label: "the tool list", method: "tools/list" },
	{ label: "a resource", method: "resources/read", params: { uri: "vault-mcp://note/Alpha.md" }, name: "vault-mcp://note/Alpha.md" },
	{ label: "the resource list", method: "resources/list" },
	// Not a method at 2026-07-28: the SDK's checks answer it before any handler, so the SDK's handler does.
	{ label: "a ping", method: "ping" },
	// Envelope values the SDK refuses: the server's own dispatch checks them before any handler, so the SDK's handler answers.
	...[
		{ "io.modelcontextprotocol/clientCapabilities": "none" },
		{ "io.modelcontextprotocol/clientInfo": { name: 3 } },
		{ "io.modelcontextprotocol/logLevel": "loud" },
		{ "io.modelcontextprotocol/clientCapabilities": { sampling: 1 } },
	].map((envelope) => ({ label: `an envelope with ${JSON.stringify(envelope)}`, method: "tools/list", envelope })),
	{ label: "an envelope with a log level", method: "tools/list", envelope: { "io.modelcontextprotocol/logLevel": "debug" } },
	{ label: "a string id", method: "tools/list", id: "seven" },
	{ label: "an id past 2^53", method: "tools/list", id: 2 ** 53 },
	{ label: "a fractional id", method: "tools/list", id: 1.5 },
];

/**
 * A `_meta` key the SDK's handler takes and that changes no answer (a 2025-11-25 related task, which
 * no handler here reads), but whose value only the SDK's request schema checks: a request carrying
 * it is never served directly.
 */
const ONLY_THROUGH_SDK = { "io.modelcontextprotocol/related-task": { taskId: "direct-test" } };

/** How a request is sent: as a pooled server may answer it directly, or so only the SDK's handler answers it. */
type Route = "direct" | "sdk";

function bodyOf(request: ModernRequest, id: number, route: Route = "direct"): string {
	return JSON.stringify({
		jsonrpc: "2.0",
		id: request.id ?? id,
		method: request.method,
		params: { ...request.params, _meta: { ...ENVELOPE, ...request.envelope, ...(route === "sdk" && ONLY_THROUGH_SDK) } },
	});
}

/** Sends `request` the way `route` says: with its body as given it may be answered by a pooled server directly. */
function send(running: RunningService, token: string, request: ModernRequest, route: Route): Promise<RawResponse> {
	const headers = mcpHeaders(running.port, token, [
		["MCP-Protocol-Version", MODERN],
		["Mcp-Method", request.method],
		...(request.name === undefined ? [] : ([["Mcp-Name", request.name]] as Array<[string, string]>)),
	]);
	return rawRequest(running.port, { headers, body: bodyOf(request, 1, route) });
}

/** What a client sees of an answer: its status, its media type, its body. */
function seen(response: RawResponse): { status: number; contentType: unknown; body: string } {
	return { status: response.status, contentType: response.headers["content-type"], body: response.body };
}

describe("2026-07-28 requests answered by a pooled server directly, beside the SDK's handler", () => {
	let vault: string;
	let running: RunningService;

	beforeAll(async () => {
		vault = await makeVault({ "Alpha.md": "# Alpha\n\nalpha text\n", "Beta.md": "beta\n" });
		// The write token may not read note text: it has no resources at all.
		running = await startService(vault, { levels: ["read", "write"], rights: { write: { read_note: "deny" } } });
	});

	afterAll(async () => {
		await running.stop();
		await removeDir(vault);
	});

	test.each(REQUESTS)("$label answers exactly as the SDK's handler answers it: status, media type and bytes", async (request) => {
		for (const token of [running.tokens.read ?? "", running.tokens.write ?? ""]) {
			const direct = await send(running, token, request, "direct");
			const throughSdk = await send(running, token, request, "sdk");
			expect(seen(direct)).toEqual(seen(throughSdk));
		}
	});

	test("an answer over the answer cap is replaced alike, by a short error with the request's id", async () => {
		const capped = await startService(vault, { httpDeadlines: { maxResponseBodyBytes: 300 } });
		try {
			const token = capped.tokens.read ?? "";
			const read = REQUESTS[0] as ModernRequest;
			const direct = await send(capped, token, read, "direct");
			expect(seen(direct)).toEqual(seen(await send(capped, token, read, "sdk")));
			expect(JSON.parse(direct.body)).toMatchObject({ id: 1, error: { message: expect.stringContaining("over 300 bytes") as unknown } });
		} finally {
			await capped.stop();
		}
	});

	test("a pooled server lent to the SDK's handler meanwhile (discovery, a subscription) still answers the next request directly", async () => {
		const token = running.tokens.read ?? "";
		const read = REQUESTS[0] as ModernRequest;
		const answers: number[] = [];
		for (let round = 0; round < 3; round++) {
			answers.push((await send(running, token, read, "direct")).status);
			const discover = await send(running, token, { label: "discover", method: "server/discover" }, "direct");
			expect(JSON.parse(discover.body)).toMatchObject({ result: { supportedVersions: [MODERN] } });
			answers.push((await send(running, token, read, "direct")).status);
			const listen = await rawRequest(running.port, {
				headers: mcpHeaders(running.port, token, [
					["MCP-Protocol-Version", MODERN],
					["Mcp-Method", "subscriptions/listen"],
				]),
				body: JSON.stringify({
					jsonrpc: "2.0",
					id: 2,
					method: "subscriptions/listen",
					params: { notifications: { toolsListChanged: true }, _meta: ENVELOPE },
				}),
			});
			expect(listen.status).toBe(200);
			const after = await send(running, token, read, "direct");
			expect(JSON.parse(after.body)).toMatchObject({ result: { structuredContent: { path: "Alpha.md", content: "# Alpha\n\nalpha text\n" } } });
		}
		expect(answers).toEqual([200, 200, 200, 200, 200, 200]);
	});
});
