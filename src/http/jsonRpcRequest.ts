import { CLIENT_CAPABILITIES_META_KEY, CLIENT_INFO_META_KEY, PROTOCOL_VERSION_META_KEY } from "@modelcontextprotocol/server";

/**
 * The only keys a request answered without the SDK's dispatch may hold in its `_meta`: the
 * envelope's. Anything else (a progress token, a related task, the deprecated log level, a
 * client's own keys) the SDK's schemas check, or its handlers read.
 */
const ENVELOPE_KEYS: ReadonlySet<string> = new Set([PROTOCOL_VERSION_META_KEY, CLIENT_INFO_META_KEY, CLIENT_CAPABILITIES_META_KEY]);

/** The keys of a JSON-RPC request: the SDK's request schema is strict, so a body with any other key is not one. */
const REQUEST_KEYS: ReadonlySet<string> = new Set(["jsonrpc", "id", "method", "params"]);

/**
 * The `_meta` key of a 2025-11-25 related task, whose value the SDK's request schema checks (an
 * object with a string `taskId`). Written here: the SDK's constant for it is marked deprecated.
 */
const RELATED_TASK_KEY = "io.modelcontextprotocol/related-task";

/** The `_meta` key of a request's progress token (a string or an integer in the SDK's schema). */
const PROGRESS_TOKEN_KEY = "progressToken";

/**
 * True only for a body the SDK's `isJSONRPCRequest` accepts and its two response checks refuse
 * (the first rung of its classification, and what its message parse finds), tested without its schemas: each of those schemas
 * parses the whole message, the failing ones building an error, about 30 µs of a call here. The
 * rules: only the four request keys, `jsonrpc` "2.0", an id that is a string or a safe integer
 * (zod's `int()`), a string method, params absent or an object whose `_meta`, if any, is an object
 * holding only envelope keys (whose values the request schema does not look at) and, with
 * `withOtherMeta`, any other key but a related task's (whose value the request schema checks),
 * a `progressToken` among them only as a string or a safe integer (which the request schema does
 * check too). A request has `method`, which the strict response schemas do not allow.
 * test/unit/http/jsonRpcRequest.test.ts checks it against the SDK's own functions. Pure.
 */
export function certainlyRequest(
	json: unknown,
	withOtherMeta = false,
): json is { jsonrpc: "2.0"; id: string | number; method: string; params?: Record<string, unknown> } {
	if (!isPlainObject(json)) return false;
	for (const key of Object.keys(json)) if (!REQUEST_KEYS.has(key)) return false;
	const { jsonrpc, id, method, params } = json;
	return (
		jsonrpc === "2.0" &&
		(typeof id === "string" || Number.isSafeInteger(id)) &&
		typeof method === "string" &&
		(params === undefined || (isPlainObject(params) && (params._meta === undefined || holdsOnlyEnvelope(params._meta, withOtherMeta))))
	);
}

function holdsOnlyEnvelope(meta: unknown, withOtherMeta: boolean): boolean {
	if (!isPlainObject(meta)) return false;
	for (const key of Object.keys(meta)) {
		if (ENVELOPE_KEYS.has(key)) continue;
		if (!withOtherMeta || key === RELATED_TASK_KEY) return false;
		if (key !== PROGRESS_TOKEN_KEY) continue;
		const token = meta[key];
		if (typeof token !== "string" && !Number.isSafeInteger(token)) return false;
	}
	return true;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
	return value !== null && typeof value === "object" && !Array.isArray(value);
}
