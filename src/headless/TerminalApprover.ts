/**
 * Approvals in the terminal of an interactive `serve`: a tool call set to Ask is shown on stderr
 * (token, tool, and the change as a diff) and answered with y, n or a. Calls wait in line, one
 * question at a time, so answers never go to the wrong call.
 */
import { createInterface, type Interface } from "node:readline";
import * as nodeTimers from "node:timers";
import { TERMINAL_DIFF_LINES } from "../config/limits";
import { diffAsText, diffNote } from "../markdown/lineDiff";
import type { ApprovalDecision, ApprovalRequest, Approver } from "../mcp/approval";

interface Waiting {
	request: ApprovalRequest;
	signal: AbortSignal;
	resolve(decision: ApprovalDecision): void;
}

export class TerminalApprover implements Approver {
	private readonly queue: Waiting[] = [];
	private current: Waiting | null = null;
	private readonly lines: Interface;
	private closed = false;
	/** True until the input that carried the last answer has been read to its end: what else it holds was typed before the next question was shown. */
	private answerJustTaken = false;

	constructor(
		input: NodeJS.ReadableStream,
		private readonly write: (text: string) => void,
	) {
		this.lines = createInterface({ input, terminal: false });
		this.lines.on("line", (line) => this.onAnswer(line));
		this.lines.on("close", () => this.close());
	}

	decide(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalDecision> {
		if (this.closed) return Promise.resolve("decline");
		return new Promise((resolve) => {
			const waiting: Waiting = { request, signal, resolve };
			signal.addEventListener("abort", () => this.withdraw(waiting), { once: true });
			this.queue.push(waiting);
			if (this.current === null) this.askNext();
			else this.write(`(${this.queue.length} more waiting for approval)\n`);
		});
	}

	/** Stops reading the terminal; calls still waiting are declined. */
	close(): void {
		if (this.closed) return;
		this.closed = true;
		this.lines.close();
		for (const waiting of [...(this.current ? [this.current] : []), ...this.queue]) waiting.resolve("decline");
		this.current = null;
		this.queue.length = 0;
	}

	private askNext(): void {
		const next = this.queue.shift();
		this.current = next ?? null;
		if (!next) return;
		this.write(`${describeRequest(next.request, this.queue.length)}\nApprove? [y]es, [n]o, [a]lways allow ${next.request.tool} for "${next.request.tokenName}": `);
	}

	private onAnswer(line: string): void {
		const waiting = this.current;
		if (!waiting) return;
		if (this.answerJustTaken) {
			// "y" typed twice, or pasted lines: the call after the one answered is approved only by someone who has seen it.
			this.write("(an answer typed before this question was shown does not count) Approve? [y]es, [n]o, [a]lways: ");
			return;
		}
		const answer = line.trim().toLowerCase();
		const decision: ApprovalDecision | null = answer === "y" || answer === "yes" ? "approve" : answer === "n" || answer === "no" ? "decline" : answer === "a" || answer === "always" ? "always" : null;
		if (decision === null) {
			this.write("Answer y, n or a: ");
			return;
		}
		this.write(decision === "decline" ? "Declined: nothing was written.\n" : "Approved.\n");
		waiting.resolve(decision);
		this.answerJustTaken = true;
		nodeTimers.setImmediate(() => (this.answerJustTaken = false));
		this.askNext();
	}

	/** The call timed out or its client went away: its question is taken back. */
	private withdraw(waiting: Waiting): void {
		const index = this.queue.indexOf(waiting);
		if (index >= 0) {
			this.queue.splice(index, 1);
			return;
		}
		if (this.current !== waiting) return;
		this.write(`\n(${waiting.request.tool} from "${waiting.request.tokenName}" was not answered in time or was cancelled: nothing was written)\n`);
		this.askNext();
	}
}

/** The question for one call: who, which tool, and each note's change as a diff (cut at TERMINAL_DIFF_LINES). */
export function describeRequest(request: ApprovalRequest, othersWaiting: number): string {
	const lines = [``, `"${request.tokenName}" asks to run ${request.tool} (${request.toolTitle})${othersWaiting > 0 ? `; ${othersWaiting} more waiting` : ""}:`];
	for (const change of request.changes) {
		lines.push(change.movedFrom !== undefined ? `Note ${change.movedFrom} moved to ${change.path}:` : `${change.before === null ? "New note" : "Note"} ${change.path}:`);
		const diff = diffAsText(diffNote(change.before, change.after));
		lines.push(...diff.slice(0, TERMINAL_DIFF_LINES).map((line) => `  ${line}`));
		if (diff.length > TERMINAL_DIFF_LINES) lines.push(`  … ${diff.length - TERMINAL_DIFF_LINES} more lines of this change`);
	}
	if (request.changes.length === 0) lines.push("(it would change nothing)");
	return lines.map(visibleControls).join("\n");
}

/**
 * Note text shown on a terminal with its control characters made visible (a carriage return, an
 * escape sequence): written raw, they could redraw the diff so the person approves text they never saw.
 */
export function visibleControls(line: string): string {
	// eslint-disable-next-line no-control-regex -- the control characters are exactly what is matched
	return line.replace(/[\u0000-\u0008\u000a-\u001f\u007f-\u009f]/gu, (char) => `\\x${char.charCodeAt(0).toString(16).padStart(2, "0")}`);
}
