import type { IncomingMessage } from "node:http";
import { classifyInboundRequest } from "@modelcontextprotocol/server";
import { directRoute } from "../../../src/http/serveModern";

const MODERN = "2026-07-28";
const ENVELOPE = {
	"io.modelcontextprotocol/protocolVersion": MODERN,
	"io.modelcontextprotocol/clientInfo": { name: "unit", version: "1" },
	"io.modelcontextprotocol/clientCapabilities": {},
};
const CALL = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "read_note", arguments: { path: "A" }, _meta: ENVELOPE } };
const HEADERS: Record<string, string> = {
	"content-type": "application/json",
	"mcp-protocol-version": MODERN,
	"mcp-method": "tools/call",
	"mcp-name": "read_note",
};

function base64(text: string): string {
	return Buffer.from(text, "utf8").toString("base64");
}

/** A node request as directRoute reads it: its method and its (lower-case, single) headers. */
function requestWith(headers: Record<string, string | undefined>, method = "POST"): IncomingMessage {
	const present = Object.fromEntries(Object.entries(headers).filter(([, value]) => value !== undefined));
	return { method, headers: present } as unknown as IncomingMessage;
}

describe("directRoute: which 2026-07-28 requests skip the SDK's HTTP handler", () => {
	test("a well-formed call with its standard headers goes directly, classified at 2026-07-28", () => {
		expect(directRoute(requestWith(HEADERS), CALL)).toMatchObject({ message: { id: 1, method: "tools/call" }, classification: { revision: MODERN } });
	});

	test("a call asking for progress goes directly too, its token kept (its progress is sent on the answer's stream)", () => {
		for (const progressToken of [1, "rename"]) {
			const call = { ...CALL, params: { ...CALL.params, _meta: { ...ENVELOPE, progressToken } } };
			const outcome = classifyInboundRequest({
				httpMethod: "POST",
				protocolVersionHeader: MODERN,
				mcpMethodHeader: "tools/call",
				mcpNameHeader: "read_note",
				body: call,
			});
			expect(outcome).toMatchObject({ kind: "modern", messageKind: "request" });
			expect(directRoute(requestWith(HEADERS), call)).toMatchObject({
				message: { params: { _meta: { progressToken } } },
				classification: { revision: MODERN },
			});
		}
	});

	test.each([
		["a Content-Type with a charset", { ...HEADERS, "content-type": "application/json; charset=utf-8" }, CALL],
		["a Content-Type in capitals", { ...HEADERS, "content-type": "Application/JSON" }, CALL],
		["an Mcp-Name in Base64", { ...HEADERS, "mcp-name": `=?base64?${base64("read_note")}?=` }, CALL],
		[
			"a resource URI in Base64",
			{ ...HEADERS, "mcp-method": "resources/read", "mcp-name": `=?base64?${base64("vault://notes/Café.md")}?=` },
			{ jsonrpc: "2.0", id: 4, method: "resources/read", params: { uri: "vault://notes/Café.md", _meta: ENVELOPE } },
		],
		[
			"a client's own _meta keys (a tool-use id, a trace context)",
			HEADERS,
			{
				...CALL,
				params: {
					...CALL.params,
					_meta: { ...ENVELOPE, "claudecode/toolUseId": "toolu_1", traceparent: "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01" },
				},
			},
		],
		[
			"a tool name that starts as the Base64 form but does not end as it, sent as it is",
			{ ...HEADERS, "mcp-name": "=?base64?x" },
			{ ...CALL, params: { ...CALL.params, name: "=?base64?x" } },
		],
	])("%s goes directly, as the SDK's handler takes it", (_label, headers, body) => {
		// A tool call asks for progress: it is then told it (only calls served directly are).
		const _meta = body.method === "tools/call" ? { ...body.params._meta, progressToken: "p" } : body.params._meta;
		expect(directRoute(requestWith(headers), { ...body, params: { ...body.params, _meta } })).toMatchObject({ classification: { revision: MODERN } });
	});

	// Each of these the SDK's handler refuses, or might, or serves in a way only it knows: it answers them.
	test.each([
		["no MCP-Protocol-Version", { ...HEADERS, "mcp-protocol-version": undefined }, CALL],
		["an MCP-Protocol-Version that is not the envelope's", { ...HEADERS, "mcp-protocol-version": "2025-11-25" }, CALL],
		["no Mcp-Method", { ...HEADERS, "mcp-method": undefined }, CALL],
		["an Mcp-Method that is not the body's", { ...HEADERS, "mcp-method": "tools/list" }, CALL],
		["no Mcp-Name", { ...HEADERS, "mcp-name": undefined }, CALL],
		["an Mcp-Name that is not the tool's", { ...HEADERS, "mcp-name": "search_notes" }, CALL],
		["an Mcp-Name in Base64 of another name", { ...HEADERS, "mcp-name": `=?base64?${base64("search_notes")}?=` }, CALL],
		[
			"an Mcp-Name in Base64 that is not canonical (no padding)",
			{ ...HEADERS, "mcp-name": `=?base64?${base64("read_notes").replace(/=+$/, "")}?=` },
			{ ...CALL, params: { ...CALL.params, name: "read_notes" } },
		],
		["an Mcp-Name in Base64 of bytes that are not UTF-8", { ...HEADERS, "mcp-name": `=?base64?${Buffer.from([0xff, 0xfe]).toString("base64")}?=` }, CALL],
		[
			"a tool name in the Base64 form sent as it is (the SDK decodes it)",
			{ ...HEADERS, "mcp-name": "=?base64?QUJD?=" },
			{ ...CALL, params: { ...CALL.params, name: "=?base64?QUJD?=" } },
		],
		["a Content-Type of another media type", { ...HEADERS, "content-type": "text/plain; a=application/json" }, CALL],
		["two Content-Types in one", { ...HEADERS, "content-type": "application/json, text/plain" }, CALL],
		["no envelope", HEADERS, { ...CALL, params: { name: "read_note", arguments: { path: "A" } } }],
		[
			"an envelope naming a 2025 revision",
			HEADERS,
			{ ...CALL, params: { ...CALL.params, _meta: { ...ENVELOPE, "io.modelcontextprotocol/protocolVersion": "2025-11-25" } } },
		],
		["an envelope without its client info", HEADERS, { ...CALL, params: { ...CALL.params, _meta: { "io.modelcontextprotocol/protocolVersion": MODERN } } }],
		[
			"a notification",
			{ ...HEADERS, "mcp-method": "notifications/cancelled", "mcp-name": undefined },
			{ jsonrpc: "2.0", method: "notifications/cancelled", params: { _meta: ENVELOPE } },
		],
		["a batch", HEADERS, [CALL]],
		["a related task", HEADERS, { ...CALL, params: { ...CALL.params, _meta: { ...ENVELOPE, "io.modelcontextprotocol/related-task": { taskId: "t" } } } }],
		["a fractional progress token", HEADERS, { ...CALL, params: { ...CALL.params, _meta: { ...ENVELOPE, progressToken: 1.5 } } }],
		[
			"a progress token on a method that is not a tool call",
			{ ...HEADERS, "mcp-method": "tools/list", "mcp-name": undefined },
			{ jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: { ...ENVELOPE, progressToken: 1 } } },
		],
		[
			"an envelope without client capabilities",
			HEADERS,
			{
				...CALL,
				params: {
					...CALL.params,
					_meta: { "io.modelcontextprotocol/protocolVersion": MODERN, "io.modelcontextprotocol/clientInfo": { name: "unit", version: "1" } },
				},
			},
		],
		["an id that is not a safe integer", HEADERS, { ...CALL, id: 2 ** 53 }],
		["a fractional id", HEADERS, { ...CALL, id: 1.5 }],
		["a null id", HEADERS, { ...CALL, id: null }],
		["a key no request has", HEADERS, { ...CALL, result: {} }],
		["another JSON-RPC version", HEADERS, { ...CALL, jsonrpc: "1.0" }],
		[
			"discovery",
			{ ...HEADERS, "mcp-method": "server/discover", "mcp-name": undefined },
			{ jsonrpc: "2.0", id: 2, method: "server/discover", params: { _meta: ENVELOPE } },
		],
		[
			"a subscription",
			{ ...HEADERS, "mcp-method": "subscriptions/listen", "mcp-name": undefined },
			{ jsonrpc: "2.0", id: 3, method: "subscriptions/listen", params: { notifications: {}, _meta: ENVELOPE } },
		],
	])("%s goes to the SDK's handler", (_label, headers, body) => {
		expect(directRoute(requestWith(headers), body)).toBeNull();
	});
});

describe("directRoute and the SDK's classification", () => {
	test("takes the ordinary forms, which the SDK's classification passes too", () => {
		for (const id of [1, "a", 0, 2 ** 53 - 1]) {
			const call = { ...CALL, id };
			const outcome = classifyInboundRequest({
				httpMethod: "POST",
				protocolVersionHeader: MODERN,
				mcpMethodHeader: "tools/call",
				mcpNameHeader: "read_note",
				body: call,
			});
			expect(outcome).toMatchObject({ kind: "modern", messageKind: "request" });
			expect(directRoute(requestWith(HEADERS), call)).toMatchObject({ classification: outcome.kind === "modern" ? outcome.classification : {} });
		}
	});
});
