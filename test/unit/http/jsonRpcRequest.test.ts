import { isJSONRPCErrorResponse, isJSONRPCRequest, isJSONRPCResultResponse, parseJSONRPCMessage } from "@modelcontextprotocol/server";
import { certainlyRequest } from "../../../src/http/jsonRpcRequest";
import { checkMessages } from "../../../src/http/statelessTransport";

const ENVELOPE = {
	"io.modelcontextprotocol/protocolVersion": "2026-07-28",
	"io.modelcontextprotocol/clientInfo": { name: "unit", version: "1" },
	"io.modelcontextprotocol/clientCapabilities": {},
};

describe("certainlyRequest: a JSON-RPC request without the SDK's schemas", () => {
	const base = { jsonrpc: "2.0", id: 1, method: "tools/list" };
	const bodies: unknown[] = [
		base,
		{ ...base, id: "a" },
		{ ...base, id: "" },
		{ ...base, id: 0 },
		{ ...base, id: -0 },
		{ ...base, id: -7 },
		{ ...base, id: 2 ** 53 - 1 },
		{ ...base, id: 2 ** 53 },
		{ ...base, id: -(2 ** 53) },
		{ ...base, id: 1.5 },
		{ ...base, id: 1e300 },
		{ ...base, id: null },
		{ ...base, id: true },
		{ ...base, id: {} },
		{ ...base, id: [1] },
		{ jsonrpc: "2.0", method: "tools/list" },
		{ ...base, jsonrpc: "2" },
		{ ...base, jsonrpc: 2 },
		{ ...base, method: 3 },
		{ ...base, method: "" },
		{ ...base, params: {} },
		{ ...base, params: { _meta: {} } },
		{ ...base, params: { _meta: { progressToken: 1.5 } } },
		{ ...base, params: { _meta: { progressToken: 1 } } },
		{ ...base, params: { _meta: "x" } },
		{ ...base, params: { _meta: null } },
		{ ...base, params: { _meta: ENVELOPE } },
		{ ...base, params: { _meta: { ...ENVELOPE, "io.modelcontextprotocol/related-task": 5 } } },
		{ ...base, params: { _meta: { ...ENVELOPE, "io.modelcontextprotocol/clientInfo": 5 } } },
		{ ...base, params: [] },
		{ ...base, params: null },
		{ ...base, params: "x" },
		{ ...base, result: {} },
		{ ...base, error: { code: 1, message: "m" } },
		{ ...base, extra: 1 },
		{ jsonrpc: "2.0", id: 1, result: {} },
		{ jsonrpc: "2.0", id: 1, error: { code: -1, message: "m" } },
		JSON.parse('{"jsonrpc":"2.0","id":1,"method":"tools/list","__proto__":{}}'),
		[base],
		null,
		"text",
		7,
	];

	test.each(bodies.map((body) => [JSON.stringify(body), body]))("%s: only if the SDK's checks take it for a request", (_label, body) => {
		if (certainlyRequest(body)) {
			expect(isJSONRPCRequest(body)).toBe(true);
			expect(isJSONRPCResultResponse(body)).toBe(false);
			expect(isJSONRPCErrorResponse(body)).toBe(false);
			// And a 2025 POST of it is the message the SDK's parse would give.
			expect(checkMessages(body)).toEqual({ messages: [parseJSONRPCMessage(body)], requests: 1 });
		}
	});

	const tokens: unknown[] = ["t", "", 0, -3, 2 ** 53 - 1, 2 ** 53, 1.5, 1e300, null, true, {}, [1]];
	test.each(tokens.map((token) => [JSON.stringify(token), token]))(
		"a progress token %s beside the envelope: only if the SDK's checks take it for a request",
		(_label, progressToken) => {
			const body = { ...base, params: { _meta: { ...ENVELOPE, progressToken } } };
			if (certainlyRequest(body, true)) {
				expect(isJSONRPCRequest(body)).toBe(true);
				expect(parseJSONRPCMessage(body)).toEqual(body);
			}
			// Only when asked for.
			expect(certainlyRequest(body)).toBe(false);
		},
	);

	test("takes a progress token that is a string or an integer when asked for", () => {
		for (const progressToken of ["rename", 7]) expect(certainlyRequest({ ...base, params: { _meta: { ...ENVELOPE, progressToken } } }, true)).toBe(true);
		expect(certainlyRequest({ ...base, params: { _meta: { ...ENVELOPE, progressToken: 1.5 } } }, true)).toBe(false);
	});

	// A client's own keys (a trace context, a tool-use id), the deprecated log level, a related task.
	const otherMetas: unknown[] = [
		{ "claudecode/toolUseId": "toolu_1" },
		{ traceparent: "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01", tracestate: "a=1" },
		{ "io.modelcontextprotocol/logLevel": "info" },
		{ "io.modelcontextprotocol/logLevel": 5 },
		{ "com.example/x": null, progressToken: "p" },
		{ "com.example/x": 1, progressToken: 1.5 },
		{ "io.modelcontextprotocol/related-task": { taskId: "t" } },
		{ "io.modelcontextprotocol/related-task": 5 },
		{ other: 1, "io.modelcontextprotocol/related-task": { taskId: 5 } },
	];
	test.each(otherMetas.map((extra) => [JSON.stringify(extra), extra]))(
		"other _meta keys %s beside the envelope: taken when asked for, only if the SDK's checks take it for a request",
		(_label, extra) => {
			const body = { ...base, params: { _meta: { ...ENVELOPE, ...(extra as object) } } };
			if (certainlyRequest(body, true)) {
				expect(isJSONRPCRequest(body)).toBe(true);
				expect(isJSONRPCResultResponse(body)).toBe(false);
				expect(isJSONRPCErrorResponse(body)).toBe(false);
				expect(parseJSONRPCMessage(body)).toEqual(body);
			}
			// Only when asked for.
			expect(certainlyRequest(body)).toBe(false);
		},
	);

	test("takes a client's own _meta keys when asked for, not a related task (the SDK checks its value)", () => {
		expect(certainlyRequest({ ...base, params: { _meta: { ...ENVELOPE, progressToken: "x", "claudecode/toolUseId": "toolu_1" } } }, true)).toBe(true);
		expect(certainlyRequest({ ...base, params: { _meta: { ...ENVELOPE, "io.modelcontextprotocol/related-task": { taskId: "t" } } } }, true)).toBe(false);
	});

	test("takes the forms clients send", () => {
		expect(certainlyRequest({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "read_note", arguments: { path: "A" } } })).toBe(true);
		expect(certainlyRequest({ jsonrpc: "2.0", id: "x", method: "tools/list", params: { _meta: ENVELOPE } })).toBe(true);
		expect(certainlyRequest({ jsonrpc: "2.0", id: 0, method: "ping" })).toBe(true);
	});
});
