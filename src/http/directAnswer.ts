import type { DirectAnswers } from "./endpointState";
import { certainlyRequest } from "./jsonRpcRequest";
import type { Answer } from "./statelessTransport";

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

function isPlainObject(value: unknown): value is Record<string, unknown> {
	return value !== null && typeof value === "object" && !Array.isArray(value);
}
