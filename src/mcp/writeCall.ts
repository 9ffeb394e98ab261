/**
 * How a write tool call runs: with the token's right for the tool (allow, or ask: shown to the
 * person first), against the caller's `expected_hash`, and journalled so it can be undone.
 */
import type { ToolRight } from "../auth/rights";
import { journalledHost, previewHost } from "../journal/recordingHost";
import { newCallId } from "../journal/undo";
import { waitForDecision } from "./approvalWait";
import type { ToolContext } from "./context";
import type { ToolDescriptor, ToolOutcome } from "./tool";
import { fail } from "../result";
import { MAX_WAITING_APPROVALS_PER_TOKEN } from "../config/limits";

const NOTHING_WRITTEN = "Nothing was written.";

/**
 * Runs a write tool: asks first when the right is ask, then runs it for real on a host that
 * journals each change before writing it and checks `expectedHash` on the first note it writes.
 */
export async function runWriteCall<Args>(
	ctx: ToolContext,
	tool: ToolDescriptor,
	args: Args,
	right: ToolRight,
	expectedHash: string | undefined,
	clientGone?: AbortSignal,
): Promise<ToolOutcome<Record<string, unknown>>> {
	const writes = ctx.writes;
	const id = newCallId();
	const handler = (context: ToolContext, toolArgs: Args) => tool.handler(context, toolArgs as Parameters<typeof tool.handler>[1]) as Promise<ToolOutcome<Record<string, unknown>>>;
	if (right === "ask") {
		if (writes.approver === null) {
			return fail(`${tool.name} needs the person's approval for this token, and nobody can give it here: it can be approved in Obsidian (with Vault MCP serving this vault) or in "vault-mcp serve" run in a terminal, or the person can allow the tool with "vault-mcp token rights". ${NOTHING_WRITTEN}`);
		}
		// The window shows what the call would change now; nothing is written while it waits.
		const preview = previewHost(ctx.host, expectedHash);
		const planned = await handler({ ...ctx, host: preview.host }, args);
		if (!planned.ok) return planned;
		writes.releasePlace?.();
		const decision = await waitForDecision(writes.approver, writes.approvalTimeoutMs, { id, tokenName: ctx.grant.token.name, tool: tool.name, toolTitle: tool.title, changes: preview.changes() }, clientGone);
		if (decision === "full") return fail(`${tool.name} was not put to the person: ${MAX_WAITING_APPROVALS_PER_TOKEN} calls of this token already wait for a decision. ${NOTHING_WRITTEN} Wait for answers to those before sending more.`);
		if (decision === "gone") return fail(`The request was cancelled before the person decided. ${NOTHING_WRITTEN}`);
		if (decision === "timeout") return fail(`Nobody approved ${tool.name} within ${Math.round(writes.approvalTimeoutMs / 1000)} s. ${NOTHING_WRITTEN}`);
		if (decision === "decline") return fail(`The person declined this ${tool.name} call. ${NOTHING_WRITTEN} Do not retry it unless they ask you to.`);
		// The rights, the token and the write switch are read again: a revocation while the window was open
		// wins, also over "always allow" clicked in that window, which then saves nothing either.
		if (writes.currentRight(tool) === "deny") return fail(`${tool.name} is no longer allowed for this token (its rights, the token or the write switch changed while it waited). ${NOTHING_WRITTEN}`);
		if (decision === "always") await writes.allowAlways(tool.name);
	}
	const call = { id, time: new Date().toISOString(), tokenName: ctx.grant.token.name, tool: tool.name };
	return handler({ ...ctx, host: journalledHost(ctx.host, writes.journal, call, expectedHash) }, args);
}
