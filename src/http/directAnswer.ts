import type { ListToolsResult } from "@modelcontextprotocol/server";
import type { DirectAnswers } from "./endpointState";
import type { AcceptedEnvelopes } from "./acceptedEnvelopes";
import type { ModernWireCodec } from "./exchangeTransports";
import { certainlyRequest } from "./jsonRpcRequest";
import type { Answer } from "./statelessTransport";
import { rememberJsonText } from "../jsonText";

/**
 * The answer to one plain 2025-era request that a lent server gives without the SDK's protocol
 * layer (`DirectAnswers`): a `tools/list` without parameters, or a `tools/call` of one of its read
 * tools whose parameters are only a name and plain-object arguments the tool's schema takes. Null
 * for anything else (a batch, a write tool, an unknown tool, arguments refused, `_meta`, any other
 * method): the SDK answers it, with its own wording for every error. The answer is the one the
 * SDK's dispatch sends, key for key (test/integration/directAnswer.test.ts compares the bytes).
 */
export function directAnswer(direct: DirectAnswers | undefined, json: unknown): Promise<Answer> | null {
	if (direct === undefined || !certainlyRequest(json)) return null;
	const { id, method, params } = json;
	if (method === "tools/list") {
		if (params !== undefined && Object.keys(params).length > 0) return null;
		return Promise.resolve({ result: direct.listTools(), jsonrpc: "2.0", id });
	}
	if (method !== "tools/call" || params === undefined) return null;
	for (const key of Object.keys(params)) if (key !== "name" && key !== "arguments") return null;
	const { name, arguments: args } = params;
	if (typeof name !== "string" || !(args === undefined || isPlainObject(args))) return null;
	const call = direct.callTool(name, args);
	return call === null ? null : call.then((result) => ({ result, jsonrpc: "2.0", id }));
}

/** The SDK's code for an invalid result its `tools/call` wrapper refuses (InvalidParams), before the codec's encoding of error codes. */
const INVALID_PARAMS = -32602;

/**
 * The same answer for a 2026-07-28 request that `directRoute` (http/serveModern.ts) let through,
 * given by a server bound to 2026-07-28 through its own wire codec, as the SDK's dispatch gives it:
 * the `_meta` envelope checked by the codec (a refused one: null, the SDK words the refusal), the
 * envelope lifted off, a `tools/call` result checked by the codec's result schema, and every result
 * encoded by the codec (`resultType`, the cache fields, the server's identity). Null for anything
 * the 2025 answer leaves to the SDK, and for parameters beside the envelope's `_meta` other than
 * `name` and `arguments`. With `envelopes`, an envelope the codec took last on `connection` is
 * taken again without a check. test/integration/directAnswer.test.ts compares the bytes with the
 * SDK's dispatch.
 */
export function directAnswerModern(
	direct: DirectAnswers | undefined,
	codec: ModernWireCodec | null,
	json: unknown,
	envelopes: AcceptedEnvelopes | null = null,
	connection: object | null = null,
): Promise<Answer> | null {
	if (direct === undefined || codec === null || !certainlyRequest(json)) return null;
	const { id, method, params } = json;
	// certainlyRequest: a `_meta`, if any, holds only envelope keys.
	const envelope = params?._meta as Record<string, unknown> | undefined;
	if (envelope === undefined) return null;
	// The envelope this connection sent last and the codec took is not checked again (`AcceptedEnvelopes`).
	const taken = envelopes === null ? codec.checkInboundEnvelope({ envelope }) === undefined : envelopes.accepts(connection, envelope, codec);
	if (!taken) return null;
	if (method === "tools/list") {
		if (Object.keys(params ?? {}).length !== 1) return null;
		return Promise.resolve({ result: encodedToolList(codec, direct.listTools()), jsonrpc: "2.0", id });
	}
	if (method !== "tools/call" || params === undefined) return null;
	for (const key of Object.keys(params)) if (key !== "name" && key !== "arguments" && key !== "_meta") return null;
	const { name, arguments: args } = params;
	if (typeof name !== "string" || !(args === undefined || isPlainObject(args))) return null;
	const call = direct.callTool(name, args);
	if (call === null) return null;
	return call.then((result): Answer => {
		// A result of text blocks alone passes the codec's check, which gives back the same JSON: not parsed again.
		if (isPlainTextResult(result)) return { result: encodedCallResult(codec, result), jsonrpc: "2.0", id };
		const checked = codec.validateResult("tools/call", result);
		// Never for this server's tools (their results have fixed shapes); worded as the SDK's wrapper words it.
		if (!checked.ok) return { jsonrpc: "2.0", id, error: { code: INVALID_PARAMS, message: `Invalid tools/call result: ${checked.message ?? ""}` } };
		return { result: encodedCallResult(codec, checked.value), jsonrpc: "2.0", id };
	});
}

/** The keys of a plain `tools/call` result in the order of the SDK's result schema (after its `_meta`), which its parse gives them in. */
const PLAIN_RESULT_KEY_ORDER: readonly string[] = ["content", "structuredContent", "isError"];

/**
 * True for a `tools/call` result the codec's result check (a zod parse, about 2% of a small call's
 * CPU) certainly passes and gives back as the same JSON: its keys among content, structured content
 * and `isError` (a boolean) in the schema's order, content only text blocks of exactly a type and a
 * text, in that order. Such a block is parsed into a copy of itself, structured content (of type
 * unknown) is taken as it is. Every result of this server's tools but an error's is one;
 * test/integration/directAnswer.test.ts compares the bytes with the SDK's dispatch. Pure.
 */
export function isPlainTextResult(result: Record<string, unknown>): boolean {
	let next = 0;
	for (const key in result) {
		if (!Object.hasOwn(result, key)) continue;
		const at = PLAIN_RESULT_KEY_ORDER.indexOf(key, next);
		if (at === -1) return false;
		next = at + 1;
	}
	const { content, isError } = result;
	if (!Array.isArray(content) || !(isError === undefined || typeof isError === "boolean")) return false;
	for (let index = 0; index < content.length; index++) if (!isTextBlock(content[index])) return false;
	return Object.getOwnPropertySymbols(result).length === 0;
}

/** `{type: "text", text}` with no other key, nor a `toJSON` or symbol of its own. */
function isTextBlock(block: unknown): boolean {
	if (!isPlainObject(block) || Object.getPrototypeOf(block) !== Object.prototype || Object.getOwnPropertySymbols(block).length > 0) return false;
	let keys = 0;
	for (const key in block) {
		if (!Object.hasOwn(block, key) || (keys === 0 ? key !== "type" : keys === 1 ? key !== "text" : true)) return false;
		keys++;
	}
	return keys === 2 && block.type === "text" && typeof block.text === "string";
}

/** The keys of a `tools/call` result whose encoding `callResultTailOf` learns. */
const PLAIN_RESULT_KEYS: ReadonlySet<string> = new Set(["content", "structuredContent", "isError"]);

/** What a codec's encoding adds after a plain `tools/call` result's own keys: the same two values for every result. */
interface CallResultTail {
	resultType: unknown;
	meta: object;
}

const callResultTails = new WeakMap<ModernWireCodec, CallResultTail | null>();

/**
 * What `codec` adds to a `tools/call` result that holds only content, structured content and
 * `isError`, learnt once from the codec itself by encoding such a result: `resultType` and a `_meta`
 * holding only the server's identity, both after the result's own keys. Null when its encoding
 * does anything else (an SDK that adds cache fields, or copies the result's own values): every
 * result is then encoded by the codec.
 */
function callResultTailOf(codec: ModernWireCodec): CallResultTail | null {
	const known = callResultTails.get(codec);
	if (known !== undefined) return known;
	const probe = { content: [], structuredContent: {}, isError: false };
	const encoded = codec.encodeResult("tools/call", probe);
	const keys = Object.keys(encoded).join(",");
	const meta = encoded._meta;
	const taken =
		keys === "content,structuredContent,isError,resultType,_meta" &&
		encoded.content === probe.content &&
		encoded.structuredContent === probe.structuredContent &&
		encoded.isError === false &&
		Object.getOwnPropertySymbols(encoded).length === 0 &&
		isPlainObject(meta);
	const tail = taken ? { resultType: encoded.resultType, meta } : null;
	// The same `_meta` goes out with every answer: written as the same text, not walked again.
	if (tail !== null) rememberJsonText(tail.meta, JSON.stringify(tail.meta));
	callResultTails.set(codec, tail);
	return tail;
}

/**
 * `codec.encodeResult("tools/call", value)`, made from the parts learnt once (`callResultTailOf`)
 * when `value` holds only content, structured content and `isError` (every result of this server's
 * tools): the codec made two copies of the result and a new `_meta` on every call. Anything else is
 * encoded by the codec.
 */
function encodedCallResult(codec: ModernWireCodec, value: Record<string, unknown>): Record<string, unknown> {
	const tail = callResultTailOf(codec);
	if (tail === null || Object.getOwnPropertySymbols(value).length > 0) return codec.encodeResult("tools/call", value);
	const encoded: Record<string, unknown> = {};
	for (const key in value) {
		if (!Object.hasOwn(value, key)) continue;
		if (!PLAIN_RESULT_KEYS.has(key)) return codec.encodeResult("tools/call", value);
		encoded[key] = value[key];
	}
	encoded.resultType = tail.resultType;
	encoded._meta = tail.meta;
	return encoded;
}

/** The encoded tool list, made once per tool list and codec: written as the same text every time (`rememberJsonText`). */
const encodedLists = new WeakMap<ModernWireCodec, WeakMap<ListToolsResult, Record<string, unknown>>>();

function encodedToolList(codec: ModernWireCodec, list: ListToolsResult): Record<string, unknown> {
	let byList = encodedLists.get(codec);
	if (byList === undefined) encodedLists.set(codec, (byList = new WeakMap<ListToolsResult, Record<string, unknown>>()));
	let encoded = byList.get(list);
	if (encoded === undefined) {
		encoded = codec.encodeResult("tools/list", list);
		rememberJsonText(encoded, JSON.stringify(encoded));
		byList.set(list, encoded);
	}
	return encoded;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
	return value !== null && typeof value === "object" && !Array.isArray(value);
}
