import * as nodeTimers from "node:timers";
import type { ServerNotification } from "@modelcontextprotocol/server";
import { PROGRESS_NOTIFICATION_INTERVAL_MS } from "../config/limits";

/** What a tool call's request gives for progress: its `_meta` (the client's `progressToken`) and the way to notify about it. */
export interface ProgressRequest {
	_meta?: { progressToken?: string | number };
	notify(notification: ServerNotification): Promise<void>;
}

/**
 * `work`, with a `notifications/progress` every `intervalMs` while it runs when the request asked
 * for progress (a `progressToken`): the MCP client's request timeout (60 s in the SDK's) starts
 * again at each when it asks so (`resetTimeoutOnProgress`). A rename's time grows with the notes
 * that link to it (1,000: 1.2–3.4 s of wall time at a load of 17–21, bench/README.md), and a call
 * set to Ask waits for the person up to 120 s by default (DEFAULT_APPROVAL_TIMEOUT_SECONDS). The
 * count is of the notifications, each one more than the last as MCP asks; nothing is said of the
 * work's size, which only the work knows. Nothing is sent when the call ends first: a short call
 * costs a timer.
 */
export function withProgress<T>(work: Promise<T>, request: ProgressRequest, toolName: string, intervalMs = PROGRESS_NOTIFICATION_INTERVAL_MS): Promise<T> {
	const progressToken = request._meta?.progressToken;
	if (progressToken === undefined) return work;
	let sent = 0;
	const timer = nodeTimers.setInterval(() => {
		sent++;
		const seconds = Math.round((sent * intervalMs) / 1000);
		// A notification the transport cannot send (the client went away) changes nothing about the call.
		request
			.notify({ method: "notifications/progress", params: { progressToken, progress: sent, message: `${toolName} still working (${seconds} s)` } })
			.catch(() => undefined);
	}, intervalMs);
	timer.unref?.();
	return work.finally(() => nodeTimers.clearInterval(timer));
}
