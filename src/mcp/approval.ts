/**
 * The approval port: how a write tool call set to Ask reaches the person, and what the write path
 * needs from the service. The window in Obsidian (ui/) and the terminal of `serve` (headless/)
 * implement `Approver`.
 */
import type { ToolRight, ToolRightSubject } from "../auth/rights";
import type { WriteJournal } from "../journal/entry";
import type { PlannedChange } from "../journal/recordingHost";
import type { WritesBeforeReleased } from "./releasedCalls";

/** A tool call waiting for the person: who asks, with which tool, and exactly what it would change. */
export interface ApprovalRequest {
	/** The journal id the call gets if approved. */
	id: string;
	tokenName: string;
	tool: string;
	toolTitle: string;
	/** The notes it would change, computed on their text at the time of asking. */
	changes: PlannedChange[];
	/** Folders not there yet that it would make (for a new note, or a note moved into them); absent: none. */
	newFolders?: string[];
	/**
	 * The tools whose right "always" sets to Allow: what the person is asked for, the tool's own right at Ask and
	 * create_note's when the call makes a note or folder and that right is Ask (a tool allowed is asked only for that).
	 * Empty: nothing is at Ask any more (a call asked again after its rights were allowed), and "always" is not offered.
	 * Absent: the tool.
	 */
	alwaysAllows?: string[];
	/**
	 * Saves what "always" allows, once however often called (absent: the call saves it after the answer). The approver calls it
	 * on that answer and shows its next question only once it is saved: a question of the same token waiting for a right now
	 * Allow then leaves the line unseen (answered by its right), where it was shown offering an "always" that saved nothing.
	 */
	saveAlways?: () => Promise<void>;
}

/**
 * Why a question's signal aborted when its call needs nobody's answer any more: every right it was asked for is Allow now
 * (another question's "always", the settings). The call goes ahead as an allowed call; the approver says so if it was shown.
 */
export const ANSWERED_BY_RIGHT = "answered by its right";

/** "always" approves and sets the rights the question was asked for (`ApprovalRequest.alwaysAllows`) to allow for this token. */
export type ApprovalDecision = "approve" | "always" | "decline";

/**
 * What an approver answers: the person's decision; "full" when the token already has its bound of calls waiting, "closed"
 * when nobody can be asked any more (`serve`'s terminal closed, the plugin unloading): in both nobody was asked.
 */
export type ApprovalAnswer = ApprovalDecision | "full" | "closed";

/** Whoever can answer an Ask: the approval window in Obsidian, or the terminal of an interactive `serve`. */
export interface Approver {
	/**
	 * The person's decision. `shown` is called when the question is put in front of the person (the
	 * time allowed to answer starts then, not while it waits behind other questions). `signal` aborts
	 * when that time runs out or the client goes away: the request must then leave the line and its
	 * window close.
	 */
	decide(request: ApprovalRequest, signal: AbortSignal, shown: OnScreen): Promise<ApprovalAnswer>;
	/**
	 * A call the person approved was not written after all, or only part of it (its right taken just after the approval,
	 * a note changed past what they approved): `why` says which note and why, for the person (`notWrittenText`: sentences,
	 * no note text). They are told where they approved it. Absent: nobody is told but the client.
	 */
	notWritten?(request: ApprovalRequest, why: string): void;
	/**
	 * The rights an open question's "always" saves shrank (`request.alwaysAllows` narrowed: one it offered is no longer at
	 * Ask): a question on screen names what a click saves now, never what it said before. Absent: named at its next drawing.
	 */
	alwaysAllowsNarrowed?(request: ApprovalRequest): void;
}

/**
 * What an approver reports about a question: `shown()` (or `shown(true)`) when it is put in front
 * of the person, `shown(false)` when it is taken off the screen unanswered to give another token
 * its turn. The time allowed to answer runs only while the question is on screen.
 */
export type OnScreen = (onScreen?: boolean) => void;

/**
 * The calls waiting for the person, one line per token, served in turn: the next question shown
 * is the oldest of the next token in turn, and the token whose question is shown goes to the back,
 * behind tokens that arrive while it is shown. A token that sends a hundred calls so delays every
 * other token by at most the question on screen. Each token may have at most `maxPerToken` calls
 * waiting, the one shown included. Holds no I/O: both approvers use it.
 */
export class FairApprovalLine<Item extends { request: ApprovalRequest }> {
	/** The lines of the tokens waiting for their turn; key order is the turn order. */
	private readonly byToken = new Map<string, Item[]>();
	/** The question shown, and the rest of its token's line, which joins the turn order only when the question ends. */
	private current: { item: Item; rest: Item[] } | null = null;

	constructor(private readonly maxPerToken: number) {}

	/** The question in front of the person, if any. */
	get shown(): Item | null {
		return this.current?.item ?? null;
	}

	/** Calls waiting, the one shown included. */
	get size(): number {
		let count = this.current ? 1 + this.current.rest.length : 0;
		for (const items of this.byToken.values()) count += items.length;
		return count;
	}

	/** Puts a call in its token's line; false (and nothing changes) when the token already has `maxPerToken` waiting. */
	add(item: Item): boolean {
		const token = item.request.tokenName;
		const line = this.current?.item.request.tokenName === token ? this.current.rest : (this.byToken.get(token) ?? []);
		const shownOfToken = line === this.current?.rest ? 1 : 0;
		if (line.length + shownOfToken >= this.maxPerToken) return false;
		line.push(item);
		if (line !== this.current?.rest) this.byToken.set(token, line);
		return true;
	}

	/** Ends the shown question (answered): the rest of its token's line joins the turn order, and nothing is shown. */
	endShown(): void {
		if (this.current && this.current.rest.length > 0) this.byToken.set(this.current.item.request.tokenName, this.current.rest);
		this.current = null;
	}

	/** Ends the shown question (answered or withdrawn) and shows the next in turn: that item, or null when none waits. */
	showNext(): Item | null {
		this.endShown();
		const next = this.byToken.entries().next();
		if (next.done === true) return null;
		const [token, line] = next.value;
		this.byToken.delete(token);
		const item = line.shift();
		if (item === undefined) return null;
		this.current = { item, rest: line };
		return item;
	}

	/** True when a token other than the one on screen has calls waiting: the question on screen may give way to it. */
	get othersWaiting(): boolean {
		return this.byToken.size > 0;
	}

	/**
	 * Takes the question on screen off it unanswered: it goes back to the head of its token's line
	 * and that token to the back of the turn order. The caller then shows the next.
	 */
	putBack(): void {
		if (!this.current) return;
		this.byToken.set(this.current.item.request.tokenName, [this.current.item, ...this.current.rest]);
		this.current = null;
	}

	/** Takes a call out of the line: "shown" if it is the question shown (the caller then shows the next), "waiting" if it was waiting, "absent" if already gone. */
	remove(item: Item): "shown" | "waiting" | "absent" {
		if (this.current?.item === item) return "shown";
		const token = item.request.tokenName;
		const line = this.current?.item.request.tokenName === token ? this.current.rest : this.byToken.get(token);
		const index = line?.indexOf(item) ?? -1;
		if (!line || index < 0) return "absent";
		line.splice(index, 1);
		if (line.length === 0 && line !== this.current?.rest) this.byToken.delete(token);
		return "waiting";
	}

	/** Empties the line (the approver closes): every call, the shown one first. */
	takeAll(): Item[] {
		const all = [...(this.current ? [this.current.item, ...this.current.rest] : []), ...[...this.byToken.values()].flat()];
		this.current = null;
		this.byToken.clear();
		return all;
	}
}

/** Why a token may no longer use a tool (`WriteServices.deniedBecause`; worded for the person by notWrittenText.ts). */
export type DeniedBecause = "server switched off" | "token revoked" | "writing switched off" | "token reads only" | "right set to deny";

/** What the write path needs besides the vault: the journal, who answers Ask, and the live rights. */
export interface WriteServices {
	journal: WriteJournal;
	/** null when nobody can answer (a `serve` without a terminal): Ask answers at once with an error. */
	approver: Approver | null;
	approvalTimeoutMs: number;
	/** This caller's right for the tool now, from the current settings (they may change while a call waits). */
	currentRight(tool: ToolRightSubject): ToolRight;
	/** "Always allow": saves Allow for one tool and this token, over Ask only (a right set to Deny meanwhile stays Deny). */
	allowAlways(tool: string): Promise<void>;
	/** Why this caller may not use `tool` now (null: it may), for the person who approved a call then refused. Absent: not said. */
	deniedBecause?(tool: ToolRightSubject): DeniedBecause | null;
	/**
	 * Gives the request's place in flight back (the HTTP layer's bound on work at once): a call
	 * waiting for the person does no work, and holding the place would lock the token out of its
	 * other calls until the person answers. Absent outside HTTP.
	 */
	releasePlace?(): void;
	/**
	 * Told once a write call of the request has changed the vault (a note written, even part of a
	 * set): its answer must then reach the client whole, so it is not cut off for a read beside it
	 * denied since. Absent outside HTTP.
	 */
	wrote?(): void;
	/**
	 * Whether a written call's answer may still name the notes at `paths` (and hash their text): the token is there,
	 * its right for `tool` is not Deny (its own rights, its level, the write switch; the server switched off is a
	 * stop, whose answers go out), and the person's excluded folders and the token's folders show each path. By path,
	 * from the settings in force: a link another program put in the vault folder does not count (the jail refuses it
	 * from now on, but the note was written where it was, and answers as written). Absent: always.
	 */
	answerMayName?(tool: ToolRightSubject, paths: readonly string[]): boolean;
	/** Aborted once the server stops: a written call no longer waits for its parse, so its answer goes out before the connections close. */
	stopping?: AbortSignal;
	/**
	 * Calls `listener` each time other settings come into force (a token revoked, a right or folders changed), until
	 * the function returned is called: a question put to the person is withdrawn once its call may no longer be
	 * written. Absent: never called.
	 */
	onSettingsChange?(listener: () => void): () => void;
	/** The token's calls released by an "always" wait here for the approved call's write: one per service, shared by its requests. */
	writesBeforeReleased: WritesBeforeReleased;
}
