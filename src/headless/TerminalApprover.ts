/**
 * Approvals in the terminal of an interactive `serve`: a tool call set to Ask is shown on stderr
 * (token, tool, and the change as a diff, a page at a time) and answered with y, n or a. Calls
 * wait in line, one question at a time, so answers never go to the wrong call; each token has its
 * own line and the lines take turns, so one token's flood cannot keep another's question unseen.
 */
import { readFileSync, readSync } from "node:fs";
import { createInterface, type Interface } from "node:readline";
import * as nodeTimers from "node:timers";
import { MAX_WAITING_APPROVALS_PER_TOKEN, TERMINAL_DIFF_LINES, TERMINAL_TYPED_AHEAD_MAX_BYTES } from "../config/limits";
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
}

export class TerminalApprover implements Approver {
	private readonly line = new FairApprovalLine<Waiting>(MAX_WAITING_APPROVALS_PER_TOKEN);
	private current: Shown | null = null;
	private readonly lines: Interface;
	private closed = false;
	/** True until the input that carried the last answer has been read to its end: what else it holds was typed before the next question was shown. */
	private answerJustTaken = false;

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
		this.current = next ? { waiting: next, lines: describeRequest(next.request), printed: 0 } : null;
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
		this.write(`\n${page.join("\n")}\n${more}`);
		const discarded = this.discardTypedAhead();
		this.write(`${discarded > 0 ? "(what was typed before this was shown does not count) " : ""}${this.prompt()}`);
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
		if (this.answerJustTaken) {
			// Lines that came in the same read as the last answer were typed before this question was shown.
			this.write(`(an answer typed before this question was shown does not count) ${this.prompt()}`);
			return;
		}
		const answer = line.trim().toLowerCase();
		if ((answer === "m" || answer === "more") && shown.printed < shown.lines.length) {
			this.takeAnswer();
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
		this.takeAnswer();
		this.askNext();
	}

	/** Marks the input read so far as used up: the rest of it, read in this same turn, answers nothing. */
	private takeAnswer(): void {
		this.answerJustTaken = true;
		nodeTimers.setImmediate(() => (this.answerJustTaken = false));
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
