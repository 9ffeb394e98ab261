import { Modal, Setting, type App, type ButtonComponent } from "obsidian";
import { NEW_FILES_RIGHT } from "../auth/rights";
import { APPROVAL_SWAP_GRACE_MS } from "../config/limits";
import type { ApprovalDecision, ApprovalRequest } from "../mcp/approval";

/** What the line needs from a window besides the answer. */
export interface ApprovalModalOptions {
	/** The person touched the window (a key, a click, a scroll): it keeps the screen for another turn. */
	onActivity?: () => void;
	/** The window took the place of one that gave way: its buttons wait this long, so a click meant for the old one cannot land on it. */
	holdAnswersMs?: number;
	/** How the change is drawn: renderNoteChanges; a test gives one whose pages take as long as it says. */
	drawNoteChanges?: typeof renderNoteChanges;
}
import { countOf, drawnAsWritten, listenUntilClosed, renderNoteChanges } from "./diffView";

/**
 * The window for one tool call set to Ask: who asks (the token's name), with which tool, and what
 * it would change, as the same diff "Show change" draws afterwards. It answers once: the first
 * button wins, and closing it any other way (Escape, the close button) declines, except while its buttons wait.
 */
export class ApprovalModal extends Modal {
	private answered = false;
	/** The button clicked first; closing the window without one declines. */
	private decision: ApprovalDecision | null = null;
	private countEl: HTMLElement | null = null;
	private notShownEl: HTMLElement | null = null;
	private notShownTextEl: HTMLElement | null = null;
	private unseenLabelEl: HTMLElement | null = null;
	private unseenBox: HTMLInputElement | null = null;
	/** Lines of the change not drawn yet: Approve and Always allow wait until they are drawn, or the person ticks that they approve them unseen. */
	private linesNotShown = 0;
	/** Whether the latest drawing ended whole (null: still drawing). */
	private drawnWhole: boolean | null = null;
	/** Aborted when the window closes, however it closes. */
	private readonly closed = new AbortController();
	/** Runs while the buttons take no clicks: after the window took another's place, or after "Always allow" was redrawn. */
	private holdTimer: number | undefined;
	/** The button that had the focus when a hold began: it gets it back when the hold ends. */
	private focusAfterHold: ButtonComponent | null = null;
	/** Under the buttons while "Always allow" was just redrawn: why the buttons wait. */
	private alwaysChangedEl: HTMLElement | null = null;
	private latestDrawing: Promise<boolean> = Promise.resolve(true);
	private readonly buttons: ButtonComponent[] = [];
	/** "Always allow …", naming what a click saves (`redrawAlways`); null when nothing is left to allow always. */
	private alwaysButton: ButtonComponent | null = null;

	constructor(
		app: App,
		private readonly request: ApprovalRequest,
		private waiting: number,
		private readonly onDecision: (decision: ApprovalDecision) => void,
		private readonly options: ApprovalModalOptions = {},
	) {
		super(app);
	}

	override onOpen(): void {
		this.modalEl.addClass("vault-mcp-approval");
		this.setTitle("Approve this change?");
		const who = this.contentEl.createEl("p", { cls: "vault-mcp-approval-who" });
		who.createSpan({ text: "Token " });
		who.createSpan({ cls: "vault-mcp-approval-token", text: this.request.tokenName });
		who.createSpan({ text: " asks to run " });
		who.createSpan({ cls: "vault-mcp-approval-tool", text: this.request.toolTitle });
		who.createSpan({ cls: "vault-mcp-muted", text: ` (${this.request.tool})` });
		this.countEl = this.contentEl.createEl("p", { cls: "vault-mcp-approval-count" });
		this.showCount();

		// Folders it makes are new in the file explorer too, and create_note's right governs them whichever tool makes them.
		for (const folder of this.request.newFolders ?? [])
			this.contentEl.createEl("p", { cls: "vault-mcp-approval-new-folder", text: `New folder ${drawnAsWritten(folder)}` });
		const changes = this.contentEl.createDiv({ cls: "vault-mcp-approval-changes" });
		if (this.request.changes.length === 0) changes.createEl("p", { cls: "vault-mcp-muted", text: "This call would change no note." });
		// Drawn in slices (a change to a 1 MiB note was 0.1–0.3 s of the UI thread in one piece); the
		// buttons that write wait until the first page of every note is drawn, and each page asked for.
		// Past a note's first page they wait for every line to be drawn, or for the person to tick that
		// they approve the lines not shown, by their number: what is approved is what they could see.
		const draw = this.options.drawNoteChanges ?? renderNoteChanges;
		const drawn = draw(changes, this.request.changes, this.closed.signal, {
			pageDrawing: (page) => this.holdWhileDrawn(changes, page),
			linesNotShown: (lines) => this.showNotShown(lines),
		}).then(
			() => true,
			() => false,
		);
		this.drawing = drawn.then(() => undefined);

		const answers = new Setting(this.contentEl)
			.setDesc("Nothing is written unless you approve. Closing this window declines.")
			.addButton((button) => this.decisionButton(button, "Decline", "decline"));
		// Asked again after its rights were allowed: nothing is left to allow always.
		if (this.request.alwaysAllows?.length !== 0)
			answers.addButton((button) => (this.alwaysButton = this.decisionButton(button, alwaysAllowText(this.request), "always")));
		answers.addButton((button) => this.decisionButton(button, "Approve", "approve").setCta());
		this.notShownEl = answers.descEl.createDiv({ cls: "vault-mcp-approval-not-shown vault-mcp-hidden" });
		this.notShownTextEl = this.notShownEl.createDiv();
		const unseen = this.notShownEl.createEl("label", { cls: "vault-mcp-approval-unseen" });
		this.unseenBox = unseen.createEl("input", { attr: { type: "checkbox" } });
		this.unseenLabelEl = unseen.createSpan();
		const box = this.unseenBox;
		listenUntilClosed(box, "change", () => this.enableWriteButtons(), this.closed.signal);

		const onActivity = this.options.onActivity;
		if (onActivity)
			for (const type of ["pointerdown", "keydown", "wheel"] as const)
				listenUntilClosed(this.modalEl, type, () => onActivity(), this.closed.signal, { capture: true });
		this.alwaysChangedEl = answers.descEl.createDiv({ cls: "vault-mcp-approval-always-changed vault-mcp-hidden" });
		for (const each of this.buttons.slice(1)) each.setDisabled(true);
		const holdMs = this.options.holdAnswersMs ?? 0;
		if (holdMs > 0) this.holdAnswers(holdMs);
		this.answersOnceDrawn(changes, drawn);
	}

	/** A page asked for is drawn like the first: Approve and Always allow wait for it. */
	private holdWhileDrawn(changes: HTMLElement, page: Promise<boolean>): void {
		if (this.decision !== null || this.answered) return;
		this.drawnWhole = null;
		for (const each of this.buttons.slice(1)) each.setDisabled(true);
		this.drawing = page.then(() => undefined);
		this.answersOnceDrawn(changes, page);
	}

	/**
	 * Once `drawn` (the latest drawing: a page asked for during the hold is newer than the first
	 * pages) is drawn and no hold runs, the buttons take clicks; a change that could not be drawn
	 * cannot be approved here: only Decline is offered, and the window says why.
	 */
	private answersOnceDrawn(changes: HTMLElement, drawn: Promise<boolean>): void {
		this.latestDrawing = drawn;
		void drawn.then((whole) => {
			if (this.decision !== null || this.answered || this.latestDrawing !== drawn) return;
			if (!whole) this.showNotDrawn(changes);
			this.drawnWhole = whole;
			this.enableAnswers();
			// A hold that ended while this was drawn left its button's focus waiting for the button to take clicks.
			this.refocusAfterHold();
		});
	}

	/**
	 * No button takes a click for `ms` from now (a hold already running ends then too): the buttons moved or changed words
	 * under the person's pointer, and a click aimed at what was there must not answer what is there now.
	 */
	private holdAnswers(ms: number): void {
		if (this.holdTimer !== undefined) window.clearTimeout(this.holdTimer);
		const focused = this.modalEl.ownerDocument.activeElement;
		this.focusAfterHold = this.buttons.find((each) => each.buttonEl === focused) ?? this.focusAfterHold;
		for (const each of this.buttons) each.setDisabled(true);
		this.holdTimer = window.setTimeout(() => {
			this.holdTimer = undefined;
			this.alwaysChangedEl?.toggleClass("vault-mcp-hidden", true);
			this.enableAnswers();
			this.refocusAfterHold();
		}, ms);
	}

	/**
	 * Disabling the focused button for the hold takes the focus off it (Chromium moves it to the page's body), so Enter
	 * did nothing after the hold until the person pressed Tab. The button they had focused gets it back, unless it left the
	 * window (a removed "Always allow": Enter must not answer with the button that took its place), it is still disabled,
	 * or the person put the focus somewhere else meanwhile. During the hold the focus stays off the buttons, so Enter answers nothing.
	 * A button disabled only because a page of the change is still being drawn when the hold ends gets it once that page is
	 * drawn (`answersOnceDrawn` asks again); Enter did nothing after such a hold until Tab.
	 */
	private refocusAfterHold(): void {
		const button = this.focusAfterHold;
		if (button === null || this.holdTimer !== undefined) return;
		if (button.buttonEl.disabled && this.drawnWhole === null && this.buttons.includes(button)) return;
		this.focusAfterHold = null;
		if (!this.buttons.includes(button) || button.buttonEl.disabled) return;
		const focused = this.modalEl.ownerDocument.activeElement;
		const focusLost = focused === null || focused === this.modalEl.ownerDocument.body || focused === button.buttonEl;
		if (focusLost) button.buttonEl.focus();
	}

	/** After a hold, or once the latest drawing ends: Decline takes clicks, and Approve and Always allow if the change may be written. */
	private enableAnswers(): void {
		if (this.decision !== null || this.answered || this.holdTimer !== undefined) return;
		// Decline waits only for a hold (a change still being drawn can always be declined).
		this.buttons[0]?.setDisabled(false);
		this.enableWriteButtons();
	}

	/** Approve and Always allow take clicks once the change is drawn, every line of it or, ticked, its lines not shown approved unseen. */
	private enableWriteButtons(): void {
		if (this.decision !== null || this.answered || this.drawnWhole === null || this.holdTimer !== undefined) return;
		const mayWrite = this.drawnWhole && (this.linesNotShown === 0 || this.unseenBox?.checked === true);
		for (const each of this.buttons.slice(1)) each.setDisabled(!mayWrite);
	}

	/** Next to Approve: the lines of the change not on screen yet, and the box that approves them unseen. */
	private showNotShown(lines: number): void {
		this.linesNotShown = lines;
		this.notShownTextEl?.setText(
			`${countOf(lines, "line")} of this change ${lines === 1 ? "is" : "are"} not shown yet: "Show the next" above each note draws them. Approve waits until every line is drawn, or until you tick the box.`,
		);
		this.unseenLabelEl?.setText(`Approve ${lines === 1 ? "the line" : `the ${countOf(lines, "line")}`} I have not seen too`);
		this.notShownEl?.toggleClass("vault-mcp-hidden", lines === 0);
	}

	private showNotDrawn(changes: HTMLElement): void {
		const notice = changes.createEl("p", {
			cls: "vault-mcp-approval-not-drawn",
			text: "This change could not be shown in full, so it cannot be approved here. Decline it; the app that asked can try again.",
		});
		// Above what was drawn of the change, where it is read first.
		changes.prepend(notice);
	}

	/** Resolves once the first page of every note is drawn, or the latest page asked for (the buttons that write are enabled then). */
	drawing: Promise<void> = Promise.resolve();

	/** How many calls wait, this one included: the count follows calls that arrive or are withdrawn while it is shown. */
	setWaiting(waiting: number): void {
		this.waiting = waiting;
		this.showCount();
	}

	/**
	 * The rights "always" saves shrank while the window is open (one it named is no longer at Ask): the button names what a
	 * click saves now, and goes when nothing is left to allow always. Its old words promised more than the click saved.
	 * Then no button takes a click for `APPROVAL_SWAP_GRACE_MS`, as the terminal takes no key after its prompt is printed
	 * again: a click aimed at the old words (or, the buttons having moved, at the old place) would save fewer rights than
	 * the person read, or decline what they meant to allow.
	 */
	redrawAlways(): void {
		const button = this.alwaysButton;
		if (button === null || this.decision !== null || this.answered) return;
		if (this.request.alwaysAllows?.length !== 0) {
			button.setButtonText(alwaysAllowText(this.request));
		} else {
			this.alwaysButton = null;
			this.buttons.splice(this.buttons.indexOf(button), 1);
			// Gone from the window, and answering nothing even if a click already on its way reaches it.
			button.setDisabled(true);
			button.buttonEl.remove();
		}
		this.alwaysChangedEl?.setText(
			this.alwaysButton === null
				? "A right this question named is no longer at Ask, so there is nothing left to allow always. The buttons wait a second: read them again."
				: 'A right this question named is no longer at Ask, so "Always allow" saves less now. The buttons wait a second: read them again.',
		);
		this.alwaysChangedEl?.toggleClass("vault-mcp-hidden", false);
		this.holdAnswers(APPROVAL_SWAP_GRACE_MS);
	}

	/** Closes the window without answering: the call was withdrawn (timed out, client gone, plugin unloading). */
	withdraw(): void {
		this.answered = true;
		this.close();
	}

	/**
	 * Escape, the close button or a click outside the window decline, as Decline does: while a hold runs they do nothing, as
	 * Decline takes no click then. An Escape pressed for the window that just gave way (or a click on the backdrop where a
	 * bigger window's button was) declined the call that took its place, which the person had not seen.
	 */
	override close(): void {
		if (this.holdTimer !== undefined && this.decision === null && !this.answered) return;
		super.close();
	}

	override onClose(): void {
		// Stops the drawing at its next pause and removes the window's listeners.
		this.closed.abort();
		if (this.holdTimer !== undefined) window.clearTimeout(this.holdTimer);
		this.contentEl.empty();
		// The answer goes out once the window is gone, so the next call's window never opens over this one.
		// Escape, the close button or a click outside the window leave the decision at decline.
		this.answer(this.decision ?? "decline");
	}

	private decisionButton(button: ButtonComponent, text: string, decision: ApprovalDecision): ButtonComponent {
		this.buttons.push(button);
		return button.setButtonText(text).onClick(() => {
			if (this.decision !== null || this.answered) return;
			this.decision = decision;
			for (const each of this.buttons) each.setDisabled(true);
			this.close();
		});
	}

	/** The first answer is the only one: a second click, or the close that follows a click, changes nothing. */
	private answer(decision: ApprovalDecision): void {
		if (this.answered) return;
		this.answered = true;
		this.onDecision(decision);
	}

	private showCount(): void {
		this.countEl?.setText(this.waiting > 1 ? `1 of ${this.waiting} waiting for your decision` : "");
		this.countEl?.toggleClass("vault-mcp-hidden", this.waiting <= 1);
	}
}

/**
 * The "always" button, naming what it saves: the tool, and creating notes and folders when the call was asked about for
 * the note or folder it makes (create_note's right at Ask). A call of an allowed tool is asked only for that.
 */
function alwaysAllowText(request: ApprovalRequest): string {
	const rights = request.alwaysAllows ?? [request.tool];
	const creating = rights.includes(NEW_FILES_RIGHT.name) && request.tool !== NEW_FILES_RIGHT.name;
	const named = [...(rights.includes(request.tool) ? ["this tool"] : []), ...(creating ? ["creating notes and folders"] : [])];
	return `Always allow ${named.join(" and ")} for this token`;
}
