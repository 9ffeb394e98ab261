import type { Client } from "@modelcontextprotocol/sdk/client/index.js";

/** A tool call's outcome as a client sees it: the structured result, or the error text. */
export type CallOutcome = { ok: true; value: Record<string, unknown> } | { ok: false; error: string };

export async function callTool(client: Client, name: string, args: Record<string, unknown> = {}): Promise<CallOutcome> {
	const result = await client.callTool({ name, arguments: args });
	const text = (result.content as Array<{ type: string; text?: string }>).map((part) => part.text ?? "").join("\n");
	if (result.isError) return { ok: false, error: text };
	// The compact JSON text and structuredContent must say the same thing.
	expectSameJson(text, result.structuredContent);
	return { ok: true, value: result.structuredContent as Record<string, unknown> };
}

/** Calls a tool that must succeed; fails the test with the error text otherwise. */
export async function callOk<T = Record<string, unknown>>(client: Client, name: string, args: Record<string, unknown> = {}): Promise<T> {
	const outcome = await callTool(client, name, args);
	if (!outcome.ok) throw new Error(`${name} failed: ${outcome.error}`);
	return outcome.value as T;
}

/** What a vault-wide call says when it stopped at its work budget (vault/workBudget.ts) and keeps what it worked out. */
const STOPPED_OVER_BUDGET = "What it worked out is kept, so the same call again gets further.";

/**
 * Calls a vault-wide tool that must succeed, again as its answer invites while it is stopped at its
 * work budget, at most `calls` times: how much CPU one call gets depends on how busy the machine is,
 * but the same call again must get further. Fails the test on any other error, or when the last
 * call is still stopped.
 */
export async function callOkResuming<T = Record<string, unknown>>(
	client: Client,
	name: string,
	args: Record<string, unknown>,
	calls: number,
): Promise<{ value: T; calls: number }> {
	for (let call = 1; ; call++) {
		const outcome = await callTool(client, name, args);
		if (outcome.ok) return { value: outcome.value as T, calls: call };
		if (call >= calls || !outcome.error.includes(STOPPED_OVER_BUDGET))
			throw new Error(`${name} failed (call ${call} of at most ${calls}): ${outcome.error}`);
	}
}

/** Calls a tool that must answer with an error the model can act on; returns the message. */
export async function callError(client: Client, name: string, args: Record<string, unknown> = {}): Promise<string> {
	const outcome = await callTool(client, name, args);
	if (outcome.ok) throw new Error(`${name} succeeded but should have failed: ${JSON.stringify(outcome.value).slice(0, 300)}`);
	return outcome.error;
}

function expectSameJson(text: string, structured: unknown): void {
	if (JSON.stringify(JSON.parse(text)) !== JSON.stringify(structured)) throw new Error("text content and structuredContent differ");
}

/**
 * Whatever a client gets back from calling `name`: the tool result, or the JSON-RPC error (code and
 * message), from either SDK's client. Denied and unknown tools are compared with it: the SDK answers both with -32602.
 */
export function anyAnswerOf(
	client: { callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<unknown> },
	name: string,
	args: Record<string, unknown>,
): Promise<unknown> {
	return client.callTool({ name, arguments: args }).then(
		(result) => ({ result }),
		(error: { code?: number; message?: string }) => ({ error: { code: error.code, message: error.message } }),
	);
}
