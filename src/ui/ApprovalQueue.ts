import { Notice, type App } from "obsidian";
import type { ApprovalDecision, ApprovalRequest, Approver } from "../mcp/approval";
import { ApprovalModal } from "./ApprovalModal";

interface Waiting {
	request: ApprovalRequest;
	resolve(decision: ApprovalDecision): void;
	stopListening(): void;
}

/**
 * Approvals inside Obsidian: tool calls set to Ask wait in line and are shown one window at a
 * time, oldest first, so a click always answers the call it was shown for. A call that times out
 * or whose client goes away leaves the line (its window closes and the next one opens).
 */
export class ApprovalQueue implements Approver {
	private readonly queue: Waiting[] = [];
	private current: { waiting: Waiting; modal: ApprovalModal } | null = null;
	private closed = false;

	constructor(private readonly app: App) {}

	decide(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalDecision> {
		if (this.closed || signal.aborted) return Promise.resolve("decline");
		return new Promise((resolve) => {
			const onAbort = () => this.remove(waiting);
			const waiting: Waiting = {
				request,
				resolve: (decision) => {
					signal.removeEventListener("abort", onAbort);
					resolve(decision);
				},
				stopListening: () => signal.removeEventListener("abort", onAbort),
			};
			signal.addEventListener("abort", onAbort, { once: true });
			this.queue.push(waiting);
			if (this.current === null) this.showNext();
			else this.current.modal.setWaiting(this.waitingCount());
		});
	}

	/** How many calls wait for a decision, the one shown included. */
	private waitingCount(): number {
		return this.queue.length + (this.current ? 1 : 0);
	}

	/** The plugin unloads: every waiting call is declined and the window closes. */
	close(): void {
		if (this.closed) return;
		this.closed = true;
		const shown = this.current;
		this.current = null;
		shown?.modal.withdraw();
		for (const waiting of [...(shown ? [shown.waiting] : []), ...this.queue.splice(0)]) waiting.resolve("decline");
	}

	private showNext(): void {
		const waiting = this.queue.shift();
		if (!waiting || this.closed) return;
		const modal = new ApprovalModal(this.app, waiting.request, this.queue.length + 1, (decision) => {
			if (this.current?.waiting !== waiting) return;
			this.current = null;
			waiting.resolve(decision);
			this.showNext();
		});
		this.current = { waiting, modal };
		modal.open();
		// A call from an app in the background would otherwise wait unseen until it times out.
		if (!activeDocument.hasFocus()) new Notice(`Vault MCP: "${waiting.request.tokenName}" asks to run ${waiting.request.toolTitle}. Switch to Obsidian to approve or decline it.`);
	}

	/** The call timed out or its client went away: it leaves the line, and its window if shown. */
	private remove(waiting: Waiting): void {
		waiting.stopListening();
		const index = this.queue.indexOf(waiting);
		if (index >= 0) this.queue.splice(index, 1);
		if (this.current?.waiting === waiting) {
			const shown = this.current.modal;
			this.current = null;
			shown.withdraw();
			// The window vanished under the person's eyes: say why, and that nothing happened.
			new Notice(`Vault MCP: ${waiting.request.toolTitle} for "${waiting.request.tokenName}" was withdrawn (no decision in time, or the app went away). Nothing was written.`);
			this.showNext();
		} else {
			this.current?.modal.setWaiting(this.waitingCount());
		}
	}
}
