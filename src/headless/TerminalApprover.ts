/**
 * Approvals in the terminal of an interactive `serve`: a tool call set to Ask is shown on stderr
 * (token, tool, and the change as a diff, a page at a time) and answered with y, n or a. Calls
 * wait in line, one question at a time, so answers never go to the wrong call; each token has its
 * own line and the lines take turns, so one token's flood cannot keep another's question unseen.
 */
import { readFileSync, readSync } from "node:fs";
import { createInterface, type Interface } from "node:readline";
import * as nodeTimers from "node:timers";
import {
	APPROVAL_SWAP_GRACE_MS,
	APPROVAL_TURN_MS,
	MAX_WAITING_APPROVALS_PER_TOKEN,
	NOTE_TEXT_SLICE_MS,
	TERMINAL_DIFF_LINES,
	TERMINAL_TYPED_AHEAD_MAX_BYTES,
} from "../config/limits";
import { diffLineAsText, diffNoteSteps, unmatchedText } from "../journal/noteDiff";
import { runStepsWhile, SliceClock, type Steps } from "../markdown/steps";
import { yieldToEventLoop } from "../vault/workBudget";
import {
	ANSWERED_BY_RIGHT,
	FairApprovalLine,
	type ApprovalAnswer,
	type ApprovalDecision,
	type ApprovalRequest,
	type Approver,
	type OnScreen,
} from "../mcp/approval";
import { visibleInTerminal } from "./terminalText";

interface Waiting {
	request: ApprovalRequest;
	/** The person's decision, or "closed" when nobody can answer any more. */
	resolve(decision: ApprovalDecision | "closed"): void;
	/** Runs the time allowed to answer while the question is on screen. */
	shown: OnScreen;
}

/** How long an untouched question keeps the screen while another token waits, and how long a question that took its place takes no answer. */
export interface TurnTiming {
	turnMs: number;
	swapGraceMs: number;
}

/** The question on screen: its lines (worked out once, in slices; null until then) and how far the person has paged. */
interface Shown {
	waiting: Waiting;
	lines: string[] | null;
	printed: number;
	/** Approve or always typed while lines were not printed: the next answer must be their number to approve them unseen. */
	confirming: { decision: ApprovalDecision; unseen: number } | null;
	/** When it took the screen from a question that gave way (0: it did not); answers come only after the grace. */
	swappedAt: number;
}

export class TerminalApprover implements Approver {
	private readonly line = new FairApprovalLine<Waiting>(MAX_WAITING_APPROVALS_PER_TOKEN);
	private current: Shown | null = null;
	private readonly lines: Interface;
	private closed = false;
	/** True until the input that carried the last answer has been read to its end: what else it holds was typed before the next question was shown. */
	private answerJustTaken = false;
	/** Runs while a question is on screen untouched and another token waits: at its end the question gives way. */
	private turnTimer: NodeJS.Timeout | undefined;
	/** "Always allow" is being saved: the next question waits, so one the new right answers leaves the line unseen. */
	private savingAlways = false;

	/**
	 * `discardTypedAhead` throws away input typed but not read yet and says how many bytes it was.
	 * On a terminal each line is its own read, so a pasted "y⏎y⏎" reaches the program one line per
	 * turn of the event loop; what is still unread when a question is printed was typed before the
	 * person could see it, and only a look at the terminal itself can tell (see `readTypedAhead`).
	 */
	constructor(
		input: NodeJS.ReadableStream,
		private readonly write: (text: string) => void,
		private readonly discardTypedAhead: () => number = () => 0,
		private readonly timing: TurnTiming = { turnMs: APPROVAL_TURN_MS, swapGraceMs: APPROVAL_SWAP_GRACE_MS },
	) {
		this.lines = createInterface({ input, terminal: false });
		this.lines.on("line", (line) => this.onAnswer(line));
		this.lines.on("close", () => this.close());
	}

	decide(request: ApprovalRequest, signal: AbortSignal, shown: () => void): Promise<ApprovalAnswer> {
		if (this.closed) return Promise.resolve("closed");
		if (signal.aborted) return Promise.resolve("decline");
		return new Promise((resolve) => {
			const waiting: Waiting = { request, resolve, shown };
			if (!this.line.add(waiting)) {
				resolve("full");
				return;
			}
			signal.addEventListener("abort", () => this.withdraw(waiting, signal.reason === ANSWERED_BY_RIGHT), { once: true });
			if (this.current === null && !this.savingAlways) {
				this.askNext();
			} else if (this.current !== null) {
				this.write(`(${this.line.size - 1} more waiting for approval)\n`);
				if (this.turnTimer === undefined) this.startTurn();
			}
		});
	}

	/** The person approved a call that was then not written (or only part of it): said under the answer they gave, which note and why. */
	notWritten(request: ApprovalRequest, why: string): void {
		if (this.closed) return;
		this.write(`\n${visibleInTerminal(`(Stopped: ${request.tool} from "${request.tokenName}", which you approved. ${why})`)}\n`);
	}

	/**
	 * The question's "always" saves fewer rights now: the one on screen is prompted again, naming what "a" saves, and an answer
	 * in the grace after it is not taken (as after a swap): typed while the old prompt was up, an "a" saved fewer rights than
	 * the words the person had read.
	 */
	alwaysAllowsNarrowed(request: ApprovalRequest): void {
		if (this.closed || this.current?.waiting.request !== request || !this.current.lines) return;
		this.current.swappedAt = Date.now();
		this.write(`\n(a right this question named is no longer at Ask: what "always" saves changed) ${this.prompt()}`);
	}

	/** Stops reading the terminal (its input ended: Ctrl-D, or the server stops); calls still waiting, and later ones, are told nobody can answer. */
	close(): void {
		if (this.closed) return;
		this.closed = true;
		this.lines.close();
		this.stopTurn();
		this.current = null;
		for (const waiting of this.line.takeAll()) waiting.resolve("closed");
	}

	private askNext(swapped = false): void {
		this.stopTurn();
		const next = this.line.showNext();
		const shown: Shown | null = next ? { waiting: next, lines: null, printed: 0, swappedAt: swapped ? Date.now() : 0, confirming: null } : null;
		this.current = shown;
		if (!next || !shown) return;
		// Worked out in slices: the diff of a new note of a million lines was seconds of the server's one thread in one piece.
		// A question worked out within one slice is printed at once.
		const steps = describeRequestSteps(next.request);
		const clock = new SliceClock(NOTE_TEXT_SLICE_MS, yieldToEventLoop);
		const described = runStepsWhile(steps, () => !clock.due());
		if (described.done) {
			this.showQuestion(shown, described.value);
			return;
		}
		void clock
			.runWhile(steps, () => this.current === shown)
			.then(
				(rest) => {
					if (rest.done && this.current === shown) this.showQuestion(shown, rest.value);
				},
				// Worked out in one piece, a failure declined the call through its caller; here it would end the process unhandled.
				() => {
					if (this.current !== shown) return;
					this.write("\nA change could not be shown here, so it cannot be approved.\n");
					this.decided("decline");
				},
			);
	}

	/** Prints the question worked out for `shown`, which is on screen from now on. */
	private showQuestion(shown: Shown, lines: string[]): void {
		shown.lines = lines;
		if (shown.swappedAt !== 0) shown.swappedAt = Date.now();
		const othersWaiting = this.line.size - 1;
		if (othersWaiting > 0) this.write(`\n(${othersWaiting} more waiting after this one)`);
		this.printPage();
		shown.waiting.shown(true);
		this.startTurn();
	}

	/** (Re)starts the turn of the question on screen; it only runs out when another token has a call waiting. */
	private startTurn(): void {
		this.stopTurn();
		if (!this.current || !this.line.othersWaiting) return;
		this.turnTimer = nodeTimers.setTimeout(() => this.giveWay(), this.timing.turnMs);
	}

	private stopTurn(): void {
		nodeTimers.clearTimeout(this.turnTimer);
		this.turnTimer = undefined;
	}

	/** Nobody touched the question for a whole turn and another token waits: it goes back in line, keeping the time it has left. */
	private giveWay(): void {
		this.turnTimer = undefined;
		const shown = this.current;
		if (!shown?.lines || !this.line.othersWaiting) return;
		this.write(
			`\n(no answer yet to ${visibleInTerminal(shown.waiting.request.tool)} from "${visibleInTerminal(shown.waiting.request.tokenName)}": it goes back in line, keeping the time it has left, and another token's call is shown)\n`,
		);
		shown.waiting.shown(false);
		this.line.putBack();
		this.askNext(true);
	}

	/** The next page of the question, then the prompt (with [m]ore while lines remain). */
	private printPage(): void {
		const shown = this.current;
		if (!shown?.lines) return;
		const page = shown.lines.slice(shown.printed, shown.printed + TERMINAL_DIFF_LINES);
		shown.printed += page.length;
		const left = shown.lines.length - shown.printed;
		const more =
			left > 0 ? `… ${left} more line${left === 1 ? "" : "s"} of this change: [m]ore shows the next ${Math.min(left, TERMINAL_DIFF_LINES)}\n` : "";
		this.write(`\n${page.join("\n")}\n${more}`);
		const discarded = this.discardTypedAhead();
		this.write(`${discarded > 0 ? "(what was typed before this was shown does not count) " : ""}${this.prompt()}`);
	}

	private prompt(): string {
		const request = this.current?.waiting.request;
		if (!request) return "";
		const more = this.unprinted() > 0 ? ", [m]ore" : "";
		// Each right "a" saves, by name: a call of an allowed tool asked for the note it makes saves create_note's.
		const rights = (request.alwaysAllows ?? [request.tool]).map((name) => visibleInTerminal(name)).join(" and ");
		// Asked again after its rights were allowed: nothing is left to allow always.
		if (rights === "") return `Approve? [y]es, [n]o (${visibleInTerminal(request.tool)} is allowed already; this change is new)${more}: `;
		return `Approve? [y]es, [n]o, [a]lways allow ${rights} for "${visibleInTerminal(request.tokenName)}"${more}: `;
	}

	/** Whether the question on screen offers "always": not one asked again after its rights were allowed (`alwaysAllows` empty). */
	private offersAlways(): boolean {
		return this.current?.waiting.request.alwaysAllows?.length !== 0;
	}

	/** Lines of the question on screen not printed yet. */
	private unprinted(): number {
		const shown = this.current;
		return shown?.lines ? shown.lines.length - shown.printed : 0;
	}

	private onAnswer(line: string): void {
		const shown = this.current;
		if (!shown) return;
		if (!shown.lines) {
			this.write("(the next question is being prepared: an answer counts once it is shown)\n");
			return;
		}
		// The person is at the keyboard: the question keeps the screen for another turn.
		this.startTurn();
		if (shown.swappedAt !== 0 && Date.now() - shown.swappedAt < this.timing.swapGraceMs) {
			// Typed for the question that just gave way: the screen changed under the person's fingers.
			this.write(`(the question changed just now: read it, then answer) ${this.prompt()}`);
			return;
		}
		if (this.answerJustTaken) {
			// Lines that came in the same read as the last answer were typed before this question was shown.
			this.write(`(an answer typed before this question was shown does not count) ${this.prompt()}`);
			return;
		}
		const answer = line.trim().toLowerCase();
		const confirming = shown.confirming;
		shown.confirming = null;
		if ((answer === "m" || answer === "more") && this.unprinted() > 0) {
			this.takeAnswer();
			this.printPage();
			return;
		}
		if (confirming !== null && answer.replace(/[,_ ]/g, "") === String(confirming.unseen)) {
			this.decided(confirming.decision);
			return;
		}
		const decision: ApprovalDecision | null =
			answer === "y" || answer === "yes"
				? "approve"
				: answer === "n" || answer === "no"
					? "decline"
					: (answer === "a" || answer === "always") && this.offersAlways()
						? "always"
						: null;
		if (decision === null) {
			this.write(`Answer y, n${this.offersAlways() ? " or a" : ""}${this.unprinted() > 0 ? " (m for more of the change)" : ""}: `);
			return;
		}
		const unseen = this.unprinted();
		if (decision !== "decline" && unseen > 0) {
			// What is approved is what the person could see: lines not printed are approved only by their number, typed on purpose.
			shown.confirming = { decision, unseen };
			this.takeAnswer();
			this.write(
				`${unseen} line${unseen === 1 ? " of this change is" : "s of this change are"} not shown yet. [m]ore shows the next ${Math.min(unseen, TERMINAL_DIFF_LINES)}; to approve ${unseen === 1 ? "it" : "them"} unseen, type ${unseen}; [n]o declines: `,
			);
			return;
		}
		this.decided(decision);
	}

	private decided(decision: ApprovalDecision): void {
		this.write(decision === "decline" ? "Declined: nothing was written.\n" : "Approved.\n");
		const waiting = this.current?.waiting;
		waiting?.resolve(decision);
		this.takeAnswer();
		const saveAlways = decision === "always" ? waiting?.request.saveAlways : undefined;
		if (saveAlways === undefined) {
			this.askNext();
			return;
		}
		this.stopTurn();
		this.line.endShown();
		this.current = null;
		this.savingAlways = true;
		void saveAlways()
			.catch(() => undefined)
			.finally(() => {
				this.savingAlways = false;
				if (!this.closed && this.current === null) this.askNext();
			});
	}

	/** Marks the input read so far as used up: the rest of it, read in this same turn, answers nothing. */
	private takeAnswer(): void {
		this.answerJustTaken = true;
		nodeTimers.setImmediate(() => (this.answerJustTaken = false));
	}

	/** The call timed out, its client went away, or it may no longer be written (its token revoked, the tool denied): its question is taken back. */
	private withdraw(waiting: Waiting, allowedNow: boolean): void {
		// Still being worked out, it was never on screen (its time runs only while it is): its client, a stop or the settings ended it.
		const prepared = this.current?.waiting === waiting && this.current.lines === null;
		if (this.line.remove(waiting) !== "shown") return;
		const call = `${visibleInTerminal(waiting.request.tool)} from "${visibleInTerminal(waiting.request.tokenName)}"`;
		this.write(
			allowedNow
				? `\n(${call} needs no approval now: its right was set to allow, so it goes ahead as any allowed call)\n`
				: prepared
					? `\n(${call} was withdrawn while the question was being prepared: nothing was written)\n`
					: `\n(${call} was not answered in time, was cancelled, or its token may no longer make it: nothing was written)\n`,
		);
		// One that was on screen gave way as an untouched question does: a key the person pressed for it must not answer the next.
		this.askNext(!prepared);
	}
}

/**
 * The question for one call, as terminal lines: who, which tool, and each note's change as a diff.
 * Every line has the characters a terminal acts on made visible (tabs stay: notes indent with them).
 * In steps, pausing every TERMINAL_DIFF_LINES lines made visible.
 */
export function* describeRequestSteps(request: ApprovalRequest): Steps<string[]> {
	const lines = [visibleInTerminal(`"${request.tokenName}" asks to run ${request.tool} (${request.toolTitle}):`)];
	for (const folder of request.newFolders ?? []) lines.push(visibleInTerminal(`New folder ${folder}`));
	for (const change of request.changes) {
		lines.push(
			visibleInTerminal(
				change.movedFrom !== undefined
					? `Note ${change.movedFrom} moved to ${change.path}:`
					: `${change.before === null ? "New note" : "Note"} ${change.path}:`,
			),
		);
		const diff = yield* diffNoteSteps(change.before, change.after);
		if (diff.unmatched) lines.push(`  ${unmatchedText(diff.unmatched)}`);
		for (const line of diff.lines) {
			lines.push(visibleInTerminal(`  ${diffLineAsText(line)}`, "\t"));
			if (lines.length % TERMINAL_DIFF_LINES === 0) yield;
		}
	}
	if (request.changes.length === 0) lines.push("(it would change nothing)");
	return lines;
}

/** O_NONBLOCK in Linux's open flags, as /proc/self/fdinfo prints them (octal). */
const LINUX_O_NONBLOCK = 0o4000;

/**
 * Reads and throws away what was typed on the terminal `fd` and not read yet; returns how many
 * bytes. It must never wait for input (that would stall the server), so it reads only a
 * descriptor the system confirms is non-blocking: Node (libuv) makes a terminal it reads so, and
 * Linux shows it in /proc. Elsewhere, where that cannot be confirmed, it reads nothing and only
 * lines that arrive with the answer are refused.
 */
export function readTypedAhead(fd: number): number {
	if (process.platform !== "linux") return 0;
	let flags: number;
	try {
		flags = parseInt(/^flags:\s*([0-7]+)/m.exec(readFileSync(`/proc/self/fdinfo/${fd}`, "utf8"))?.[1] ?? "0", 8);
	} catch {
		return 0;
	}
	if ((flags & LINUX_O_NONBLOCK) === 0) return 0;
	const buffer = Buffer.alloc(4096);
	let total = 0;
	while (total < TERMINAL_TYPED_AHEAD_MAX_BYTES) {
		let read: number;
		try {
			read = readSync(fd, buffer, 0, buffer.length, null);
		} catch {
			// EAGAIN: nothing more typed (any other error: nothing more to read either).
			break;
		}
		if (read === 0) break;
		total += read;
	}
	return total;
}
