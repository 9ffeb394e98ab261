/**
 * How a write call waits for the person: the question goes to the approver, and the time allowed
 * to answer runs from the moment the approver shows it. A question waiting behind others (another
 * token's flood, a window left open) does not expire unseen.
 */
import * as nodeTimers from "node:timers";
import type { ApprovalAnswer, ApprovalRequest, Approver, OnScreen } from "./approval";

/**
 * The approver's answer; "timeout" when none comes within `timeoutMs` of the question being on screen (counted only while it is),
 * "gone" when the client cancelled or disconnected first, "full" when the token already has its
 * bound of calls waiting, "closed" when the approver can ask nobody any more. Whatever the outcome, the request is withdrawn from the approver.
 */
export async function waitForDecision(
	approver: Approver,
	timeoutMs: number,
	request: ApprovalRequest,
	clientGone?: AbortSignal,
): Promise<ApprovalAnswer | "timeout" | "gone"> {
	const controller = new AbortController();
	let timer: NodeJS.Timeout | undefined;
	let onGone: (() => void) | undefined;
	let onTimeout: ((outcome: "timeout") => void) | undefined;
	const timeout = new Promise<"timeout">((resolve) => (onTimeout = resolve));
	let left = timeoutMs;
	let shownSince = 0;
	const shown: OnScreen = (onScreen = true) => {
		if (controller.signal.aborted) return;
		if (onScreen) {
			// A second report while on screen (a window redrawn) does not restart the clock.
			if (timer !== undefined) return;
			shownSince = Date.now();
			timer = nodeTimers.setTimeout(() => onTimeout?.("timeout"), left);
			return;
		}
		if (timer === undefined) return;
		nodeTimers.clearTimeout(timer);
		timer = undefined;
		left = Math.max(0, left - (Date.now() - shownSince));
	};
	// The approver's signal carries why the call went (ANSWERED_BY_RIGHT: it is written unasked), for what it tells the person.
	let goneWhy: unknown;
	const gone = new Promise<"gone">((resolve) => {
		onGone = () => {
			goneWhy = clientGone?.reason;
			resolve("gone");
		};
		if (clientGone?.aborted) onGone();
		clientGone?.addEventListener("abort", onGone, { once: true });
	});
	try {
		return await Promise.race([approver.decide(request, controller.signal, shown), timeout, gone]);
	} finally {
		nodeTimers.clearTimeout(timer);
		if (onGone) clientGone?.removeEventListener("abort", onGone);
		controller.abort(goneWhy);
	}
}
