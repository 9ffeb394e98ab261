/**
 * How a write call waits for the person: the question goes to the approver, and the time allowed
 * to answer runs from the moment the approver shows it. A question waiting behind others (another
 * token's flood, a window left open) does not expire unseen.
 */
import * as nodeTimers from "node:timers";
import type { ApprovalDecision, ApprovalRequest, Approver } from "./approval";

/**
 * The approver's answer; "timeout" when none comes within `timeoutMs` of the question being shown,
 * "gone" when the client cancelled or disconnected first, "full" when the token already has its
 * bound of calls waiting. Whatever the outcome, the request is withdrawn from the approver.
 */
export async function waitForDecision(approver: Approver, timeoutMs: number, request: ApprovalRequest, clientGone?: AbortSignal): Promise<ApprovalDecision | "timeout" | "gone" | "full"> {
	const controller = new AbortController();
	let timer: NodeJS.Timeout | undefined;
	let onGone: (() => void) | undefined;
	let onTimeout: ((outcome: "timeout") => void) | undefined;
	const timeout = new Promise<"timeout">((resolve) => (onTimeout = resolve));
	const shown = () => {
		// Shown once: a second report (a window redrawn) does not restart the clock.
		if (timer !== undefined || controller.signal.aborted) return;
		timer = nodeTimers.setTimeout(() => onTimeout?.("timeout"), timeoutMs);
	};
	const gone = new Promise<"gone">((resolve) => {
		onGone = () => resolve("gone");
		if (clientGone?.aborted) resolve("gone");
		clientGone?.addEventListener("abort", onGone, { once: true });
	});
	try {
		return await Promise.race([approver.decide(request, controller.signal, shown), timeout, gone]);
	} finally {
		nodeTimers.clearTimeout(timer);
		if (onGone) clientGone?.removeEventListener("abort", onGone);
		controller.abort();
	}
}
