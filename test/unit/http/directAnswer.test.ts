import type { CallToolResult, ListToolsResult } from "@modelcontextprotocol/server";
import { directAnswer } from "../../../src/http/directAnswer";
import type { DirectAnswers } from "../../../src/http/endpointState";

const LIST: ListToolsResult = { tools: [{ name: "read_note", inputSchema: { type: "object" } }] };
const RESULT: CallToolResult = { content: [{ type: "text", text: "{}" }], structuredContent: {} };

/** A lent server's direct answers that knows one read tool, `read_note`, and records the calls it is asked for. */
function fakeDirect(): DirectAnswers & { calls: Array<[string, unknown]> } {
	const calls: Array<[string, unknown]> = [];
	return {
		calls,
		callTool: (name, args) => {
			calls.push([name, args]);
			return name === "read_note" ? Promise.resolve(RESULT) : null;
		},
		listTools: () => LIST,
	};
}

describe("directAnswer: which 2025 requests a lent server answers without the SDK's protocol layer", () => {
	test("a tools/call of a read tool is answered with the SDK's envelope: result, jsonrpc, id, in that order", async () => {
		const direct = fakeDirect();
		const answer = await directAnswer(direct, { jsonrpc: "2.0", id: "a", method: "tools/call", params: { name: "read_note", arguments: { path: "x" } } });
		expect(JSON.stringify(answer)).toBe(JSON.stringify({ result: RESULT, jsonrpc: "2.0", id: "a" }));
		expect(direct.calls).toEqual([["read_note", { path: "x" }]]);
	});

	test("tools/list without parameters (or with empty ones) is answered with the server's list", async () => {
		for (const params of [undefined, {}]) {
			const answer = await directAnswer(fakeDirect(), { jsonrpc: "2.0", id: 3, method: "tools/list", ...(params ? { params } : {}) });
			expect(answer).toEqual({ result: LIST, jsonrpc: "2.0", id: 3 });
		}
	});

	test.each([
		["a tool the server does not answer directly", { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "append_to_note", arguments: {} } }],
		["a batch", [{ jsonrpc: "2.0", id: 1, method: "tools/list" }]],
		["a notification", { jsonrpc: "2.0", method: "tools/list" }],
		["another method", { jsonrpc: "2.0", id: 1, method: "resources/list" }],
		["a _meta beside the call", { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "read_note", arguments: {}, _meta: {} } }],
		["a cursor on tools/list", { jsonrpc: "2.0", id: 1, method: "tools/list", params: { cursor: "x" } }],
		["arguments that are not an object", { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "read_note", arguments: [1] } }],
		["a name that is not a string", { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: 7 } }],
		["no parameters at all", { jsonrpc: "2.0", id: 1, method: "tools/call" }],
		["an id zod refuses", { jsonrpc: "2.0", id: 1.5, method: "tools/list" }],
	])("%s is left to the SDK (null)", (_label, json) => {
		expect(directAnswer(fakeDirect(), json)).toBeNull();
	});

	test("a server that answers nothing directly leaves every request to the SDK", () => {
		expect(directAnswer(undefined, { jsonrpc: "2.0", id: 1, method: "tools/list" })).toBeNull();
	});
});
