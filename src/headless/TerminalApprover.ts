/**
 * Approvals in the terminal of an interactive `serve`: a tool call set to Ask is shown on stderr
 * (token, tool, and the change as a diff, a page at a time) and answered with y, n or a. Calls
 * wait in line, one question at a time, so answers never go to the wrong call; each token has its
 * own line and the lines take turns, so one token's flood cannot keep another's question unseen.
 */
import { createInterface, type Interface } from "node:readline";
import { MAX_WAITING_APPROVALS_PER_TOKEN, TERMINAL_ANSWER_MIN_DELAY_MS, TERMINAL_DIFF_LINES } from "../config/limits";
import { diffAsText, diffNote } from "../markdown/lineDiff";
import { FairApprovalLine, type ApprovalAnswer, type ApprovalDecision, type ApprovalRequest, type Approver } from "../mcp/approval";
import { visibleInTerminal } from "./terminalText";

interface Waiting {
	request: ApprovalRequest;
	resolve(decision: ApprovalDecision): void;
	/** Starts the time allowed to answer: called when the question is printed. */
	shown(): void;
}

/** The question on screen: its lines (worked out once) and how far the person has paged. */
interface Shown {
	waiting: Waiting;
	lines: string[];
	printed: number;
	/** When the last page was printed: an answer that arrives sooner was typed before it was read. */
	printedAt: number;
}

export class TerminalApprover implements Approver {
	private readonly line = new FairApprovalLine<Waiting>(MAX_WAITING_APPROVALS_PER_TOKEN);
	private current: Shown | null = null;
	private readonly lines: Interface;
	private closed = false;

	constructor(
		input: NodeJS.ReadableStream,
		private readonly write: (text: string) => void,
		private readonly minAnswerDelayMs = TERMINAL_ANSWER_MIN_DELAY_MS,
	) {
		this.lines = createInterface({ input, terminal: false });
		this.lines.on("line", (line) => this.onAnswer(line));
		this.lines.on("close", () => this.close());
	}

	decide(request: ApprovalRequest, signal: AbortSignal, shown: () => void): Promise<ApprovalAnswer> {
		if (this.closed || signal.aborted) return Promise.resolve("decline");
		return new Promise((resolve) => {
			const waiting: Waiting = { request, resolve, shown };
			if (!this.line.add(waiting)) {
				resolve("full");
				return;
			}
			signal.addEventListener("abort", () => this.withdraw(waiting), { once: true });
			if (this.current === null) this.askNext();
			else this.write(`(${this.line.size - 1} more waiting for approval)\n`);
		});
	}

	/** Stops reading the terminal; calls still waiting are declined. */
	close(): void {
		if (this.closed) return;
		this.closed = true;
		this.lines.close();
		this.current = null;
		for (const waiting of this.line.takeAll()) waiting.resolve("decline");
	}

	private askNext(): void {
		const next = this.line.showNext();
		this.current = next ? { waiting: next, lines: describeRequest(next.request), printed: 0, printedAt: 0 } : null;
		if (!next) return;
		const othersWaiting = this.line.size - 1;
		if (othersWaiting > 0) this.write(`\n(${othersWaiting} more waiting after this one)`);
		this.printPage();
		next.shown();
	}

	/** The next page of the question, then the prompt (with [m]ore while lines remain). */
	private printPage(): void {
		const shown = this.current;
		if (!shown) return;
		const page = shown.lines.slice(shown.printed, shown.printed + TERMINAL_DIFF_LINES);
		shown.printed += page.length;
		const left = shown.lines.length - shown.printed;
		const more = left > 0 ? `… ${left} more line${left === 1 ? "" : "s"} of this change: [m]ore shows the next ${Math.min(left, TERMINAL_DIFF_LINES)}\n` : "";
		this.write(`\n${page.join("\n")}\n${more}${this.prompt()}`);
		shown.printedAt = Date.now();
	}

	private prompt(): string {
		const request = this.current?.waiting.request;
		if (!request) return "";
		const more = this.current && this.current.printed < this.current.lines.length ? ", [m]ore" : "";
		return `Approve? [y]es, [n]o, [a]lways allow ${visibleInTerminal(request.tool)} for "${visibleInTerminal(request.tokenName)}"${more}: `;
	}

	private onAnswer(line: string): void {
		const shown = this.current;
		if (!shown) return;
		if (Date.now() - shown.printedAt < this.minAnswerDelayMs) {
			// Pasted lines, or "y" typed twice: each arrives as its own read, so only the time tells them from an answer to this question.
			this.write(`(an answer typed before this question was shown does not count) ${this.prompt()}`);
			return;
		}
		const answer = line.trim().toLowerCase();
		if ((answer === "m" || answer === "more") && shown.printed < shown.lines.length) {
			this.printPage();
			return;
		}
		const decision: ApprovalDecision | null = answer === "y" || answer === "yes" ? "approve" : answer === "n" || answer === "no" ? "decline" : answer === "a" || answer === "always" ? "always" : null;
		if (decision === null) {
			this.write(`Answer y, n or a${shown.printed < shown.lines.length ? " (m for more of the change)" : ""}: `);
			return;
		}
		this.write(decision === "decline" ? "Declined: nothing was written.\n" : "Approved.\n");
		shown.waiting.resolve(decision);
		this.askNext();
	}

	/** The call timed out or its client went away: its question is taken back. */
	private withdraw(waiting: Waiting): void {
		if (this.line.remove(waiting) !== "shown") return;
		this.write(`\n(${visibleInTerminal(waiting.request.tool)} from "${visibleInTerminal(waiting.request.tokenName)}" was not answered in time or was cancelled: nothing was written)\n`);
		this.askNext();
	}
}

/**
 * The question for one call, as terminal lines: who, which tool, and each note's change as a diff.
 * Every line has the characters a terminal acts on made visible (tabs stay: notes indent with them).
 */
export function describeRequest(request: ApprovalRequest): string[] {
	const lines = [`"${request.tokenName}" asks to run ${request.tool} (${request.toolTitle}):`];
	for (const change of request.changes) {
		lines.push(change.movedFrom !== undefined ? `Note ${change.movedFrom} moved to ${change.path}:` : `${change.before === null ? "New note" : "Note"} ${change.path}:`);
		lines.push(...diffAsText(diffNote(change.before, change.after)).map((line) => `  ${line}`));
	}
	if (request.changes.length === 0) lines.push("(it would change nothing)");
	return lines.map((line) => visibleInTerminal(line, "\t"));
}
