import {
	classifyInboundRequest,
	CLIENT_CAPABILITIES_META_KEY,
	McpServer,
	PROTOCOL_VERSION_META_KEY,
	SUPPORTED_PROTOCOL_VERSIONS,
	type CallToolResult,
	type ListToolsResult,
} from "@modelcontextprotocol/server";
import { directAnswer, directAnswerModern, isPlainTextResult } from "../../../src/http/directAnswer";
import { connectExchangeTransport, disconnectExchangeTransport, modernWireCodecOf, type ModernWireCodec } from "../../../src/http/exchangeTransports";
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

/** A codec that refuses an envelope without capabilities and stamps what it encodes, as the SDK's does. */
const CODEC: ModernWireCodec = {
	checkInboundEnvelope: ({ envelope }) => (CLIENT_CAPABILITIES_META_KEY in envelope ? undefined : "Invalid _meta envelope"),
	validateResult: (_method, value) => ({ ok: true, value: { ...(value as Record<string, unknown>) } }),
	encodeResult: (method, result) => ({ ...result, resultType: "complete", method }),
};
const ENVELOPE = { [PROTOCOL_VERSION_META_KEY]: "2026-07-28", [CLIENT_CAPABILITIES_META_KEY]: {} };

describe("directAnswerModern: which 2026-07-28 requests a lent server answers through its own codec", () => {
	test("a tools/call of a read tool and tools/list are answered, encoded by the codec, the envelope lifted off", async () => {
		const direct = fakeDirect();
		const call = await directAnswerModern(direct, CODEC, {
			jsonrpc: "2.0",
			id: 1,
			method: "tools/call",
			params: { name: "read_note", arguments: { path: "x" }, _meta: ENVELOPE },
		});
		expect(call).toEqual({ result: { ...RESULT, resultType: "complete", method: "tools/call" }, jsonrpc: "2.0", id: 1 });
		expect(direct.calls).toEqual([["read_note", { path: "x" }]]);
		const list = await directAnswerModern(direct, CODEC, { jsonrpc: "2.0", id: 2, method: "tools/list", params: { _meta: ENVELOPE } });
		expect(list).toEqual({ result: { ...LIST, resultType: "complete", method: "tools/list" }, jsonrpc: "2.0", id: 2 });
		// The same encoded list object every time: its JSON text is made once.
		const again = await directAnswerModern(direct, CODEC, { jsonrpc: "2.0", id: 3, method: "tools/list", params: { _meta: ENVELOPE } });
		expect(again !== null && "result" in again ? again.result : null).toBe(list !== null && "result" in list ? list.result : undefined);
	});

	test.each([
		["no codec (the server not bound yet)", null, { name: "read_note", _meta: ENVELOPE }],
		["an envelope the codec refuses", CODEC, { name: "read_note", _meta: {} }],
		["no envelope", CODEC, { name: "read_note" }],
		["a parameter beside name, arguments and _meta", CODEC, { name: "read_note", _meta: ENVELOPE, cursor: "x" }],
		["arguments that are not an object", CODEC, { name: "read_note", arguments: [1], _meta: ENVELOPE }],
		["a tool the server does not answer directly", CODEC, { name: "append_to_note", _meta: ENVELOPE }],
	])("%s: left to the SDK", (_label, codec, params) => {
		expect(directAnswerModern(fakeDirect(), codec, { jsonrpc: "2.0", id: 1, method: "tools/call", params })).toBeNull();
	});

	test("tools/list with a cursor, and any other method, are left to the SDK", () => {
		expect(directAnswerModern(fakeDirect(), CODEC, { jsonrpc: "2.0", id: 1, method: "tools/list", params: { cursor: "c", _meta: ENVELOPE } })).toBeNull();
		expect(directAnswerModern(fakeDirect(), CODEC, { jsonrpc: "2.0", id: 1, method: "resources/list", params: { _meta: ENVELOPE } })).toBeNull();
	});
});

describe("directAnswerModern: a tools/call result encoded from parts learnt once from the codec", () => {
	const SERVER_INFO = { name: "vault-mcp", version: "1" };
	/** Encodes as SDK 2.4's codec does a tools/call result: a copy with `resultType`, then another with a new `_meta` holding the server's identity. */
	/** Encodes as SDK 2.4's codec does a tools/call result: a copy with `resultType`, then another with a new `_meta` holding the server's identity. */
	function sdkLikeCodec(): { codec: ModernWireCodec; encode: jest.Mock } {
		const encode = jest.fn((_method: string, result: object) => ({
			...{ ...result, resultType: "complete" },
			_meta: { "io.modelcontextprotocol/serverInfo": SERVER_INFO },
		}));
		return { codec: { ...CODEC, encodeResult: encode }, encode };
	}
	const call = (id: number) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "read_note", arguments: { path: "x" }, _meta: ENVELOPE } });

	test("every answer is the codec's own encoding, key for key, while the codec encodes only its one probe", async () => {
		const { codec, encode } = sdkLikeCodec();
		const expected = JSON.stringify({
			result: { ...RESULT, resultType: "complete", _meta: { "io.modelcontextprotocol/serverInfo": SERVER_INFO } },
			jsonrpc: "2.0",
			id: 1,
		});
		for (let id = 1; id <= 3; id++)
			expect(JSON.stringify(await directAnswerModern(fakeDirect(), codec, call(id)))).toBe(expected.replace('"id":1}', `"id":${id}}`));
		expect(encode).toHaveBeenCalledTimes(1);
	});

	test("a result holding anything else, or a codec whose encoding adds anything else, is encoded by the codec", async () => {
		const { codec, encode } = sdkLikeCodec();
		const odd = { ...fakeDirect(), callTool: () => Promise.resolve({ ...RESULT, _meta: { mine: 1 } } as CallToolResult) };
		const answer = await directAnswerModern(odd, codec, call(1));
		expect(answer).toEqual({
			result: { ...RESULT, resultType: "complete", _meta: { "io.modelcontextprotocol/serverInfo": SERVER_INFO } },
			jsonrpc: "2.0",
			id: 1,
		});
		// The probe, then this result.
		expect(encode).toHaveBeenCalledTimes(2);
		const stamp = jest.fn((method: string, result: object) => ({ ...result, resultType: "complete", method }));
		const stamping = { ...CODEC, encodeResult: stamp };
		await directAnswerModern(fakeDirect(), stamping, call(1));
		await directAnswerModern(fakeDirect(), stamping, call(2));
		expect(stamp).toHaveBeenCalledTimes(3);
	});
});

describe("isPlainTextResult: the results whose check by the SDK's codec is skipped", () => {
	const MODERN = "2026-07-28";

	/** The SDK's own 2026-07-28 codec, of a server bound to that revision. */
	async function sdkCodec(): Promise<{ codec: ModernWireCodec; server: McpServer }> {
		const server = new McpServer({ name: "plain-result-test", version: "1.0.0" }, { supportedProtocolVersions: [...SUPPORTED_PROTOCOL_VERSIONS, MODERN] });
		const envelope = { [PROTOCOL_VERSION_META_KEY]: MODERN, [CLIENT_CAPABILITIES_META_KEY]: {} };
		const outcome = classifyInboundRequest({
			httpMethod: "POST",
			protocolVersionHeader: MODERN,
			body: { jsonrpc: "2.0", id: 0, method: "tools/list", params: { _meta: envelope } },
		});
		if (outcome.kind !== "modern") throw new Error("not classified as 2026-07-28");
		await connectExchangeTransport(server, outcome.classification);
		const codec = modernWireCodecOf(server, MODERN);
		if (codec === null) throw new Error("no codec");
		return { codec, server };
	}

	const text = { type: "text", text: 'a "quoted" \\ note' };
	const structured = { path: "Hello.md", tags: [], frontmatter: null, nested: { list: [1, "two"] } };

	test("each result it takes, the codec's check passes and gives back as the same JSON", async () => {
		const { codec, server } = await sdkCodec();
		const taken: Array<Record<string, unknown>> = [
			{ content: [text], structuredContent: structured },
			{ content: [text] },
			{ content: [] },
			{ content: [text, { type: "text", text: "" }], structuredContent: structured, isError: false },
			{ content: [text], isError: true },
		];
		for (const result of taken) {
			expect(isPlainTextResult(result)).toBe(true);
			const checked = codec.validateResult("tools/call", result);
			expect(checked.ok).toBe(true);
			if (checked.ok) expect(JSON.stringify(checked.value)).toBe(JSON.stringify(result));
		}
		await disconnectExchangeTransport(server);
	});

	test("anything else goes through the codec: keys out of its order (an error's), other blocks or keys", async () => {
		const { codec, server } = await sdkCodec();
		// An error result as the tools make it: the codec's check puts content first, so its JSON is not the result's.
		const error = { isError: true, content: [text] };
		expect(isPlainTextResult(error)).toBe(false);
		const checked = codec.validateResult("tools/call", error);
		expect(checked.ok && JSON.stringify(checked.value)).toBe(JSON.stringify({ content: [text], isError: true }));
		for (const result of [
			{ structuredContent: structured, content: [text] },
			{ content: [{ text: "a", type: "text" }] },
			{ content: [{ ...text, annotations: { priority: 1 } }] },
			{ content: [{ type: "image", data: "", mimeType: "image/png" }] },
			{ content: [{ type: "text", text: 1 }] },
			{ content: [text], isError: "yes" },
			{ content: [text], _meta: { mine: 1 } },
			{ content: "text" },
		])
			expect(isPlainTextResult(result)).toBe(false);
		await disconnectExchangeTransport(server);
	});
});
