/**
 * The approval port: how a write tool call set to Ask reaches the person, and what the write path
 * needs from the service. The window in Obsidian (ui/) and the terminal of `serve` (headless/)
 * implement `Approver`.
 */
import type { ToolRight, ToolRightSubject } from "../auth/rights";
import type { WriteJournal } from "../journal/entry";
import type { PlannedChange } from "../journal/recordingHost";

/** A tool call waiting for the person: who asks, with which tool, and exactly what it would change. */
export interface ApprovalRequest {
	/** The journal id the call gets if approved. */
	id: string;
	tokenName: string;
	tool: string;
	toolTitle: string;
	/** The notes it would change, computed on their text at the time of asking. */
	changes: PlannedChange[];
}

/** "always" approves and sets the tool to allow for this token. */
export type ApprovalDecision = "approve" | "always" | "decline";

/** Whoever can answer an Ask: the approval window in Obsidian, or the terminal of an interactive `serve`. */
export interface Approver {
	/**
	 * The person's decision. `signal` aborts when the wait times out or the client goes away: the
	 * request must then leave the queue and its window close.
	 */
	decide(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalDecision>;
}

/** What the write path needs besides the vault: the journal, who answers Ask, and the live rights. */
export interface WriteServices {
	journal: WriteJournal;
	/** null when nobody can answer (a `serve` without a terminal): Ask answers at once with an error. */
	approver: Approver | null;
	approvalTimeoutMs: number;
	/** This caller's right for the tool now, from the current settings (they may change while a call waits). */
	currentRight(tool: ToolRightSubject): ToolRight;
	/** "Always allow this tool for this token". */
	allowAlways(tool: string): Promise<void>;
	/**
	 * Gives the request's place in flight back (the HTTP layer's bound on work at once): a call
	 * waiting for the person does no work, and holding the place would lock the token out of its
	 * other calls until the person answers. Absent outside HTTP.
	 */
	releasePlace?(): void;
}

