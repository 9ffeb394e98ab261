import { Notice, type App } from "obsidian";
import { APPROVAL_SWAP_GRACE_MS, APPROVAL_TURN_MS, MAX_WAITING_APPROVALS_PER_TOKEN } from "../config/limits";
import {
	ANSWERED_BY_RIGHT,
	FairApprovalLine,
	type ApprovalAnswer,
	type ApprovalDecision,
	type ApprovalRequest,
	type Approver,
	type OnScreen,
} from "../mcp/approval";
import { ApprovalModal } from "./ApprovalModal";
import { drawnAsWritten } from "./diffView";

interface Waiting {
	request: ApprovalRequest;
	/** The person's decision, or "closed" when nobody can answer any more. */
	resolve(decision: ApprovalDecision | "closed"): void;
	/** Runs the time allowed to answer while the window is open. */
	shown: OnScreen;
	stopListening(): void;
}

/**
 * Approvals inside Obsidian: tool calls set to Ask wait in line and are shown one window at a
 * time, so a click always answers the call it was shown for. Each token has its own line and the
 * lines take turns, so one token's flood of calls cannot keep another token's question unseen;
 * past `MAX_WAITING_APPROVALS_PER_TOKEN` a token's call is refused without a window. A window
 * left untouched for `APPROVAL_TURN_MS` while another token waits gives way to it (and comes back
 * later with the time it had left). A call that
 * times out or whose client goes away leaves the line (its window closes and the next one opens).
 */
export class ApprovalQueue implements Approver {
	private readonly line = new FairApprovalLine<Waiting>(MAX_WAITING_APPROVALS_PER_TOKEN);
	private modal: ApprovalModal | null = null;
	private closed = false;
	/** Runs while the window is untouched and another token waits: at its end the window gives way. */
	private turnTimer: number | undefined;
	/** "Always allow" is being saved: the next window waits, so one the new right answers leaves the line unseen. */
	private savingAlways = false;

	constructor(private readonly app: App) {}

	decide(request: ApprovalRequest, signal: AbortSignal, shown: OnScreen): Promise<ApprovalAnswer> {
		if (this.closed) return Promise.resolve("closed");
		if (signal.aborted) return Promise.resolve("decline");
		return new Promise((resolve) => {
			const onAbort = () => this.remove(waiting, signal.reason === ANSWERED_BY_RIGHT);
			const waiting: Waiting = {
				request,
				shown,
				resolve: (decision) => {
					signal.removeEventListener("abort", onAbort);
					resolve(decision);
				},
				stopListening: () => signal.removeEventListener("abort", onAbort),
			};
			if (!this.line.add(waiting)) {
				resolve("full");
				return;
			}
			signal.addEventListener("abort", onAbort, { once: true });
			if (this.modal === null && !this.savingAlways) {
				this.showNext();
			} else {
				this.modal?.setWaiting(this.line.size);
				if (this.turnTimer === undefined) this.startTurn();
			}
		});
	}

	/** The person approved a call that was then not written (or only part of it): a notice says so, which note and why. */
	notWritten(request: ApprovalRequest, why: string): void {
		if (this.closed) return;
		new Notice(drawnAsWritten(`Vault MCP: ${request.toolTitle} for "${request.tokenName}", which you approved, was stopped. ${why}`));
	}

	/** The question's "always" saves fewer rights now: its window, if open, names what a click saves. */
	alwaysAllowsNarrowed(request: ApprovalRequest): void {
		if (this.line.shown?.request === request) this.modal?.redrawAlways();
	}

	/** The plugin unloads: every waiting call is told nobody can answer it, and the window closes. */
	close(): void {
		if (this.closed) return;
		this.closed = true;
		this.stopTurn();
		const shown = this.modal;
		this.modal = null;
		shown?.withdraw();
		for (const waiting of this.line.takeAll()) waiting.resolve("closed");
	}

	private showNext(swapped = false): void {
		this.stopTurn();
		if (this.closed) return;
		const waiting = this.line.showNext();
		if (!waiting) return;
		const onDecision = (decision: ApprovalDecision) => {
			if (this.line.shown !== waiting) return;
			this.modal = null;
			waiting.resolve(decision);
			const saveAlways = decision === "always" ? waiting.request.saveAlways : undefined;
			if (saveAlways === undefined) {
				this.showNext();
				return;
			}
			this.line.endShown();
			this.savingAlways = true;
			void saveAlways()
				.catch(() => undefined)
				.finally(() => {
					this.savingAlways = false;
					if (this.modal === null) this.showNext();
				});
		};
		const modal = new ApprovalModal(this.app, waiting.request, this.line.size, onDecision, {
			onActivity: () => this.startTurn(),
			holdAnswersMs: swapped ? APPROVAL_SWAP_GRACE_MS : 0,
		});
		this.modal = modal;
		modal.open();
		waiting.shown(true);
		this.startTurn();
		// A call from an app in the background would otherwise wait unseen until it times out.
		if (!activeDocument.hasFocus())
			new Notice(`Vault MCP: "${waiting.request.tokenName}" asks to run ${waiting.request.toolTitle}. Switch to Obsidian to approve or decline it.`);
	}

	/** (Re)starts the open window's turn; it only runs out when another token has a call waiting. */
	private startTurn(): void {
		this.stopTurn();
		if (!this.modal || !this.line.othersWaiting) return;
		this.turnTimer = window.setTimeout(() => this.giveWay(), APPROVAL_TURN_MS);
	}

	private stopTurn(): void {
		if (this.turnTimer !== undefined) window.clearTimeout(this.turnTimer);
		this.turnTimer = undefined;
	}

	/** The window was left untouched for a whole turn and another token waits: it closes unanswered and goes back in line, keeping the time it has left. */
	private giveWay(): void {
		this.turnTimer = undefined;
		const waiting = this.line.shown;
		const shown = this.modal;
		if (!waiting || !shown || !this.line.othersWaiting) return;
		this.modal = null;
		shown.withdraw();
		waiting.shown(false);
		this.line.putBack();
		this.showNext(true);
	}

	/** The call timed out, its client went away, or it may no longer be written (its token revoked, the tool denied): it leaves the line, and its window if shown. */
	private remove(waiting: Waiting, allowedNow: boolean): void {
		waiting.stopListening();
		const where = this.line.remove(waiting);
		if (where === "shown") {
			const shown = this.modal;
			this.modal = null;
			shown?.withdraw();
			// The window vanished under the person's eyes: say why, and what happens to the call.
			new Notice(
				allowedNow
					? `Vault MCP: ${waiting.request.toolTitle} for "${waiting.request.tokenName}" needs no approval now: its right was set to Allow, so it goes ahead as any allowed call.`
					: `Vault MCP: ${waiting.request.toolTitle} for "${waiting.request.tokenName}" was withdrawn (no decision in time, the app went away, or the token may no longer make it). Nothing was written.`,
			);
			// In its place, as after a window that gave way: a click the person made for the withdrawn one must not answer the next.
			this.showNext(true);
		} else {
			this.modal?.setWaiting(this.line.size);
		}
	}
}
