/**
 * The terminal of an interactive `serve` answers Ask calls one question at a time: an answer
 * counts only for a question the person has seen, tokens take turns, and each token's line is bounded.
 */
import { PassThrough } from "node:stream";
import { APPROVAL_SWAP_GRACE_MS, MAX_WAITING_APPROVALS_PER_TOKEN, TERMINAL_DIFF_LINES } from "../../../src/config/limits";
import { describeRequestSteps, TerminalApprover } from "../../../src/headless/TerminalApprover";
import { runSteps } from "../../../src/markdown/steps";
import type { ApprovalAnswer, ApprovalRequest } from "../../../src/mcp/approval";

/** The question's lines, worked out at once. */
const describeQuestion = (request: ApprovalRequest) => runSteps(describeRequestSteps(request));

describe("the terminal's approval question", () => {
	test("a rename shows where the note moves and each linking note's diff", () => {
		const question = describeQuestion({
			id: "abc",
			tokenName: "laptop",
			tool: "rename_note",
			toolTitle: "Rename or move a note",
			changes: [
				{ path: "Archive/Plan.md", movedFrom: "Plan.md", before: "# Plan\n", after: "# Plan\n" },
				{ path: "Source.md", before: "See [[Plan]]\n", after: "See [[Archive/Plan]]\n" },
			],
		}).join("\n");
		expect(question).toContain("Note Plan.md moved to Archive/Plan.md:");
		expect(question).toContain("Note Source.md:");
		expect(question).toMatch(/-\s*See \[\[Plan\]\]/);
		expect(question).toMatch(/\+\s*See \[\[Archive\/Plan\]\]/);
	});

	test("control characters in note text, file names and the token name are shown, never sent to the terminal: a model cannot redraw the diff the person approves", () => {
		const hostile = "harmless line\r+ other line\u001b[2K\u001b[1A\u009b31m\u0007\u202e\u2028";
		const question = describeQuestion({
			id: "x",
			tokenName: "lap\u001b]0;top",
			tool: "append_to_note",
			toolTitle: "Append",
			changes: [{ path: "N\u202e.md", before: "a\n", after: `a\n${hostile}\n\tindented\n` }],
		});
		for (const line of question) {
			// eslint-disable-next-line no-control-regex -- checking that none reach the terminal
			expect(line).not.toMatch(/[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u202e\u2028]/u);
		}
		expect(question).toContain("  + harmless line\\x0d+ other line\\x1b[2K\\x1b[1A\\x9b31m\\x07\\u{202e}\\u{2028}");
		expect(question).toContain("Note N\\u{202e}.md:");
		expect(question[0]).toContain('"lap\\x1b]0;top" asks');
		// Tabs stay: Obsidian indents lists with them.
		expect(question).toContain("  + \tindented");
	});

	test("a folder the call would make is shown above its notes (create_note's right governs it, whichever tool makes it)", () => {
		const question = describeQuestion({
			id: "d",
			tokenName: "laptop",
			tool: "add_task",
			toolTitle: "Add a task",
			changes: [{ path: "Daily/2026-12-07.md", before: null, after: "- [ ] Water the herbs\n" }],
			newFolders: ["Daily"],
		});
		expect(question.slice(0, 3)).toEqual(['"laptop" asks to run add_task (Add a task):', "New folder Daily", "New note Daily/2026-12-07.md:"]);
	});

	test("an overwrite too different to match line by line still shows every line of the new text", () => {
		const before = Array.from({ length: 1_100 }, (_, index) => `old ${index} ${"x".repeat(index % 7)}`).join("\n");
		const after = Array.from({ length: 1_100 }, (_, index) => `new ${index} ${"y".repeat(index % 5)}`).join("\n");
		const question = describeQuestion({
			id: "o",
			tokenName: "laptop",
			tool: "create_note",
			toolTitle: "Create a note",
			changes: [{ path: "Big.md", before, after }],
		});
		const added = question.filter((line) => line.startsWith("  + "));
		expect(added).toHaveLength(1_100);
		expect(added[0]).toBe("  + new 0 ");
		// The new text comes before the old one it replaces: a cut or a first page shows what will be written.
		expect(question.findIndex((line) => line.startsWith("  + "))).toBeLessThan(question.findIndex((line) => line.startsWith("  - ")));
	});
});

function request(id: string, tokenName = "laptop", added = id): ApprovalRequest {
	return { id, tokenName, tool: "append_to_note", toolTitle: "Append to a note", changes: [{ path: `${id}.md`, before: "one\n", after: `one\n${added}\n` }] };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** The person reading the question before answering. */
const read = () => sleep(30);

describe("TerminalApprover", () => {
	let input: PassThrough;
	let shown: string;
	let approver: TerminalApprover;
	const shownAt: string[] = [];
	/** Stands for what a terminal holds typed but not yet read: thrown away when a question is printed. */
	let typedAhead = "";
	const ask = (req: ApprovalRequest, signal = new AbortController().signal): Promise<ApprovalAnswer> =>
		approver.decide(req, signal, () => shownAt.push(req.id));
	/** A second approver on the same terminal with its own turn and grace, nothing typed ahead. */
	const approverTimed = (timing: ConstructorParameters<typeof TerminalApprover>[3]) =>
		new TerminalApprover(
			input,
			(text) => (shown += text),
			() => 0,
			timing,
		);
	/**
	 * A key typed for the question that just left (with a timed approver's 1 s grace) is not taken as an answer to `next`,
	 * which says so; a key typed after the grace answers it.
	 */
	const keyForLeftQuestionIsNotAnAnswer = async (next: Promise<ApprovalAnswer>) => {
		input.write("y\n");
		await tick();
		expect(shown).toContain("(the question changed just now: read it, then answer)");
		await sleep(1_100);
		input.write("n\n");
		expect(await next).toBe("decline");
	};
	beforeEach(() => {
		input = new PassThrough();
		shown = "";
		shownAt.length = 0;
		typedAhead = "";
		approver = new TerminalApprover(
			input,
			(text) => (shown += text),
			() => {
				const bytes = typedAhead.length;
				typedAhead = "";
				return bytes;
			},
		);
	});
	afterEach(() => approver.close());

	test("pasted lines (y, y) approve at most the question shown: the second never answers the next call", async () => {
		const decisions: Record<string, ApprovalAnswer> = {};
		const first = ask(request("first")).then((decision) => (decisions.first = decision));
		const second = ask(request("second")).then((decision) => (decisions.second = decision));
		await read();
		input.write("y\ny\n");
		await first;
		await tick();
		expect(decisions).toEqual({ first: "approve" });
		expect(shown).toContain("second.md");
		expect(shown).toContain("(an answer typed before this question was shown does not count)");
		await read();
		input.write("n\n");
		await second;
		expect(decisions).toEqual({ first: "approve", second: "decline" });
	});

	test("a call the person approved and then not written (its right taken just after) is told under the answer: which note and why", async () => {
		const pending = ask(request("only"));
		input.write("y\n");
		expect(await pending).toBe("approve");
		approver.notWritten(request("only"), '"only.md" was not changed: the token was revoked. Nothing was written.');
		expect(shown).toMatch(
			/Approved\.\n\n\(Stopped: append_to_note from "laptop", which you approved\. "only\.md" was not changed: the token was revoked\. Nothing was written\.\)\n$/u,
		);
	});

	test.each([
		[["create_note"], "create_note"],
		[["add_task", "create_note"], "add_task and create_note"],
	])(
		"a question asked for the note a call makes (rights to save: %j) says [a] saves %s (it named add_task, the tool, whatever a saved)",
		async (alwaysAllows, named) => {
			const pending = ask({ ...request("daily"), tool: "add_task", toolTitle: "Add a task", alwaysAllows });
			await read();
			expect(shown).toContain(`[a]lways allow ${named} for "laptop": `);
			input.write("n\n");
			expect(await pending).toBe("decline");
		},
	);

	test("a question whose rights to save shrink while it is on screen is prompted again, naming what [a] saves now (the old prompt stood)", async () => {
		const question: ApprovalRequest = { ...request("daily"), tool: "add_task", toolTitle: "Add a task", alwaysAllows: ["add_task", "create_note"] };
		const pending = ask(question);
		await read();
		expect(shown).toContain('[a]lways allow add_task and create_note for "laptop": ');
		// As the call's settings watcher narrows it: create_note set to Allow meanwhile.
		question.alwaysAllows = ["add_task"];
		approver.alwaysAllowsNarrowed(question);
		expect(shown).toMatch(/what "always" saves changed\) Approve\? \[y\]es, \[n\]o, \[a\]lways allow add_task for "laptop": $/u);
		// An "a" typed as the prompt changed was typed for the old words: not taken (review178; it saved add_task only, at once).
		input.write("a\n");
		await tick();
		expect(shown).toContain("(the question changed just now: read it, then answer)");
		expect(await Promise.race([pending, sleep(0).then(() => "pending")])).toBe("pending");
		// After the grace (1 s), typed for the words on screen.
		await sleep(1_100);
		input.write("a\n");
		expect(await pending).toBe("always");
	});

	test("a call asked again after its rights were allowed (alwaysAllows empty) offers no [a]lways, and an 'a' is not taken for it (it offered append_to_note)", async () => {
		const pending = ask({ ...request("again"), alwaysAllows: [] });
		await read();
		expect(shown).toContain("Approve? [y]es, [n]o (append_to_note is allowed already; this change is new): ");
		expect(shown).not.toContain("[a]lways");
		input.write("a\n");
		await read();
		input.write("y\n");
		expect(await pending).toBe("approve");
		expect(shown).toContain("Answer y, n: ");
	});

	test("what was typed but not yet read when a question is printed is thrown away, and the person is told", async () => {
		typedAhead = "y\n";
		const pending = ask(request("only"));
		expect(typedAhead).toBe("");
		expect(shown).toMatch(/\+ only\n\(what was typed before this was shown does not count\) Approve\?/);
		input.write("n\n");
		expect(await pending).toBe("decline");
	});

	test("each question shows the token, the tool and the diff; y approves, n declines, a always allows", async () => {
		const answers: ApprovalAnswer[] = [];
		for (const [typed, expected] of [
			["y", "approve"],
			["n", "decline"],
			["always", "always"],
		] as const) {
			const pending = ask(request(expected));
			await read();
			expect(shown).toContain(`"laptop" asks to run append_to_note`);
			expect(shown).toContain(`+ ${expected}`);
			input.write(`${typed}\n`);
			answers.push(await pending);
		}
		expect(answers).toEqual(["approve", "decline", "always"]);
	});

	test("tokens take turns: another token's question comes right after the one on screen, however many the first token sent", async () => {
		const flood = Array.from({ length: 5 }, (_, index) => ask(request(`flood${index}`, "flooder")));
		const other = ask(request("other", "desktop"));
		expect(shownAt).toEqual(["flood0"]);
		await read();
		input.write("n\n");
		await flood[0];
		expect(shownAt).toEqual(["flood0", "other"]);
		await read();
		input.write("y\n");
		expect(await other).toBe("approve");
		expect(shownAt).toEqual(["flood0", "other", "flood1"]);
		// The terminal closed (Ctrl-D): the calls left were not declined by anyone, and a later one is not asked.
		approver.close();
		expect(await Promise.all(flood.slice(1))).toEqual(["closed", "closed", "closed", "closed"]);
		expect(await ask(request("after", "desktop"))).toBe("closed");
	});

	test(`a token with ${MAX_WAITING_APPROVALS_PER_TOKEN} calls waiting is refused the next at once ("full"); other tokens are still asked`, async () => {
		const waiting = Array.from({ length: MAX_WAITING_APPROVALS_PER_TOKEN }, (_, index) => ask(request(`w${index}`, "flooder")));
		expect(await ask(request("one too many", "flooder"))).toBe("full");
		const other = ask(request("other", "desktop"));
		await read();
		input.write("n\n");
		expect(await waiting[0]).toBe("decline");
		await read();
		input.write("y\n");
		expect(await other).toBe("approve");
		// A place freed by an answer can be taken again.
		const again = ask(request("again", "flooder"));
		approver.close();
		expect(await again).toBe("closed");
		expect(shown).not.toContain("one too many");
	});

	test("the time to answer starts when the question is printed, not when the call arrives", async () => {
		const first = ask(request("first"));
		const second = ask(request("second"));
		expect(shownAt).toEqual(["first"]);
		await read();
		input.write("y\n");
		await first;
		expect(shownAt).toEqual(["first", "second"]);
		approver.close();
		await second;
	});

	test("a withdrawn call leaves the line; a withdrawn question on screen gives way to the next", async () => {
		const firstCall = new AbortController();
		const secondCall = new AbortController();
		const first = ask(request("first"), firstCall.signal);
		const second = ask(request("second"), secondCall.signal);
		const third = ask(request("third"));
		secondCall.abort();
		firstCall.abort();
		expect(shown).toContain("was not answered in time, was cancelled, or its token may no longer make it");
		expect(shownAt).toEqual(["first", "third"]);
		// It took the screen from a withdrawn question: it takes answers once the swap's grace is over.
		await sleep(APPROVAL_SWAP_GRACE_MS + 100);
		input.write("y\n");
		expect(await third).toBe("approve");
		approver.close();
		expect(await Promise.race([first, second, sleep(50).then(() => "pending")])).toBe("pending");
	});

	test("a call withdrawn while its question is being prepared says so, not that it was not answered in time; the next question is shown", async () => {
		// A new note of 300,000 lines is worked out in slices: the question is not on screen when its client goes away.
		const big: ApprovalRequest = {
			id: "big",
			tokenName: "laptop",
			tool: "create_note",
			toolTitle: "Create a note",
			changes: [{ path: "big.md", before: null, after: "line\n".repeat(300_000) }],
		};
		const bigCall = new AbortController();
		const withdrawn = ask(big, bigCall.signal);
		const next = ask(request("next"));
		expect(shownAt).toEqual([]);
		bigCall.abort();
		expect(shown).toContain('(create_note from "laptop" was withdrawn while the question was being prepared: nothing was written)');
		expect(shown).not.toContain("not answered in time");
		expect(shownAt).toEqual(["next"]);
		await read();
		input.write("y\n");
		expect(await next).toBe("approve");
		expect(await Promise.race([withdrawn, sleep(50).then(() => "pending")])).toBe("pending");
	});

	test("a question nobody touches gives way to another token's after a turn, keeps the time it has left, and a key meant for it does not answer the new one", async () => {
		const reports: string[] = [];
		const timed = approverTimed(
			// A turn and a grace long enough that a loaded machine's late timers (a 200 ms sleep took over 400 in CI) do not move them.
			{ turnMs: 3_000, swapGraceMs: 1_000 },
		);
		try {
			const untouched = timed.decide(request("untouched", "flooder"), new AbortController().signal, (onScreen = true) =>
				reports.push(`untouched ${onScreen ? "on" : "off"}`),
			);
			const other = timed.decide(request("other", "desktop"), new AbortController().signal, (onScreen = true) =>
				reports.push(`other ${onScreen ? "on" : "off"}`),
			);
			await sleep(150);
			// On screen for less than a turn: nothing moves.
			expect(reports).toEqual(["untouched on"]);
			await sleep(3_200);
			expect(reports).toEqual(["untouched on", "untouched off", "other on"]);
			expect(shown).toContain('(no answer yet to append_to_note from "flooder": it goes back in line');
			await keyForLeftQuestionIsNotAnAnswer(other);
			// The one that gave way is back, and with nobody else waiting it keeps the screen.
			expect(reports).toEqual(["untouched on", "untouched off", "other on", "untouched on"]);
			await sleep(1_100);
			input.write("y\n");
			expect(await untouched).toBe("approve");
		} finally {
			timed.close();
		}
	});

	test("a question on screen withdrawn (its token revoked, its client gone) gives way to the next, and a key meant for it does not answer the new one (it approved the next call, unseen)", async () => {
		const timed = approverTimed(
			// The grace of a give-way swap, long beside a loaded machine's late timers; no turn runs out meanwhile.
			{ turnMs: 60_000, swapGraceMs: 1_000 },
		);
		try {
			const revoked = new AbortController();
			void timed.decide(request("revoked", "laptop"), revoked.signal, () => undefined);
			const other = timed.decide(request("other", "desktop"), new AbortController().signal, () => undefined);
			await read();
			revoked.abort();
			expect(shown).toContain("+ other");
			await keyForLeftQuestionIsNotAnAnswer(other);
		} finally {
			timed.close();
		}
	});

	test("a key pressed on the question keeps it on screen for another turn", async () => {
		const reports: string[] = [];
		const timed = approverTimed({ turnMs: 150, swapGraceMs: 0 });
		try {
			const long = Array.from({ length: TERMINAL_DIFF_LINES * 3 }, (_, index) => `line ${index}`).join("\n");
			const reading = timed.decide(
				{
					id: "long",
					tokenName: "flooder",
					tool: "create_note",
					toolTitle: "Create a note",
					changes: [{ path: "Long.md", before: null, after: long }],
				},
				new AbortController().signal,
				(onScreen = true) => reports.push(`long ${onScreen ? "on" : "off"}`),
			);
			void timed.decide(request("other", "desktop"), new AbortController().signal, (onScreen = true) => reports.push(`other ${onScreen ? "on" : "off"}`));
			for (let page = 0; page < 2; page++) {
				await sleep(100);
				input.write("m\n");
			}
			await sleep(100);
			expect(reports).toEqual(["long on"]);
			// Lines are left unprinted: y asks for their number, which approves them unseen.
			input.write("y\n");
			await sleep(50);
			expect(shown).toContain("2 lines of this change are not shown yet");
			input.write("2\n");
			expect(await reading).toBe("approve");
		} finally {
			timed.close();
		}
	});

	test("y with lines of the change not printed approves nothing until their number is typed; a wrong number or a second y does not approve them", async () => {
		const total = TERMINAL_DIFF_LINES + 20;
		const text = Array.from({ length: total }, (_, index) => `line ${index}`).join("\n");
		let decided: ApprovalAnswer | null = null;
		const pending = ask({
			id: "big",
			tokenName: "laptop",
			tool: "create_note",
			toolTitle: "Create a note",
			changes: [{ path: "Big.md", before: null, after: text }],
		});
		void pending.then((decision) => (decided = decision));
		await read();
		// The question's two heading lines and the first page of the note's lines: 22 are left.
		expect(shown).toMatch(/… 22 more lines of this change/);
		for (const typed of ["y", "y", "21", "a"]) {
			input.write(`${typed}\n`);
			await read();
			expect(decided).toBeNull();
		}
		expect(shown).toContain("22 lines of this change are not shown yet. [m]ore shows the next 22; to approve them unseen, type 22; [n]o declines: ");
		input.write("22\n");
		expect(await pending).toBe("always");
	});

	test("a long change paged to its end is approved with y alone", async () => {
		const text = Array.from({ length: TERMINAL_DIFF_LINES + 20 }, (_, index) => `line ${index}`).join("\n");
		const pending = ask({
			id: "big",
			tokenName: "laptop",
			tool: "create_note",
			toolTitle: "Create a note",
			changes: [{ path: "Big.md", before: null, after: text }],
		});
		await read();
		input.write("m\n");
		await read();
		expect(shown).toContain(`+ line ${TERMINAL_DIFF_LINES + 19}\n`);
		input.write("y\n");
		expect(await pending).toBe("approve");
	});

	test("a long change is shown a page at a time: the first page, a count of the rest, and m for more", async () => {
		const total = TERMINAL_DIFF_LINES * 2 + 5;
		const text = Array.from({ length: total }, (_, index) => `line ${index}`).join("\n");
		const pending = ask({
			id: "big",
			tokenName: "laptop",
			tool: "create_note",
			toolTitle: "Create a note",
			changes: [{ path: "Big.md", before: null, after: text }],
		});
		await read();
		expect(shown).toContain(`+ line ${TERMINAL_DIFF_LINES - 3}\n`);
		expect(shown).not.toContain(`+ line ${TERMINAL_DIFF_LINES - 2}\n`);
		expect(shown).toMatch(/… \d+ more lines of this change: \[m\]ore shows the next/);
		input.write("m\n");
		await read();
		expect(shown).toContain(`+ line ${TERMINAL_DIFF_LINES * 2 - 3}\n`);
		input.write("m\n");
		await read();
		expect(shown).toContain(`+ line ${total - 1}`);
		expect(shown.match(/more lines? of this change/g)).toHaveLength(2);
		input.write("y\n");
		expect(await pending).toBe("approve");
	});
});
