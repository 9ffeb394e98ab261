import type { ApprovalAnswer, ApprovalRequest, Approver } from "../../../src/mcp/approval";
import { waitForDecision } from "../../../src/mcp/approvalWait";

const REQUEST: ApprovalRequest = { id: "r", tokenName: "laptop", tool: "append_to_note", toolTitle: "Append to a note", changes: [] };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Shows the question after `showAfterMs` (as if others were ahead of it), then answers after `answerAfterMs` more, or never. */
function approverShowingLate(showAfterMs: number, answer?: { afterMs: number; decision: ApprovalAnswer }): Approver & { withdrawn: boolean } {
	const approver = {
		withdrawn: false,
		decide: (_request: ApprovalRequest, signal: AbortSignal, shown: () => void) =>
			new Promise<ApprovalAnswer>((resolve) => {
				const showing = setTimeout(() => {
					shown();
					if (answer) setTimeout(() => resolve(answer.decision), answer.afterMs);
				}, showAfterMs);
				signal.addEventListener("abort", () => {
					approver.withdrawn = true;
					clearTimeout(showing);
				});
			}),
	};
	return approver;
}

describe("waitForDecision", () => {
	test("a question waiting behind others does not expire before it is shown: the person gets the whole time once it is", async () => {
		const started = Date.now();
		expect(await waitForDecision(approverShowingLate(400, { afterMs: 150, decision: "approve" }), 200, REQUEST)).toBe("approve");
		expect(Date.now() - started).toBeGreaterThanOrEqual(500);
	});

	test("the time runs out counted from when the question was shown, and the question is withdrawn", async () => {
		const approver = approverShowingLate(300);
		const started = Date.now();
		expect(await waitForDecision(approver, 200, REQUEST)).toBe("timeout");
		expect(Date.now() - started).toBeGreaterThanOrEqual(480);
		expect(approver.withdrawn).toBe(true);
	});

	test("the time runs only while the question is on screen: taken off for another token's turn, it keeps what it had left", async () => {
		// The moments are read when each report is made, not assumed from the timers asked for: a
		// loaded machine runs a timer late, and the rule is about what the person actually saw.
		const moments = { shown: 0, off: 0, back: 0 };
		const approver: Approver = {
			decide: (_request, _signal, shown) =>
				new Promise(() => {
					moments.shown = Date.now();
					shown();
					setTimeout(() => {
						moments.off = Date.now();
						shown(false);
					}, 100);
					setTimeout(() => {
						moments.back = Date.now();
						shown(true);
					}, 500);
				}),
		};
		expect(await waitForDecision(approver, 250, REQUEST)).toBe("timeout");
		const ended = Date.now();
		const onScreenFirst = moments.off - moments.shown;
		// About 100 ms on screen, 400 off, then the rest of the 250 it had.
		expect(onScreenFirst).toBeLessThan(250);
		expect(moments.back).toBeGreaterThan(0);
		expect(ended - moments.back).toBeGreaterThanOrEqual(250 - onScreenFirst - 1);
	});

	test('"full" from the approver comes back as it is; a client gone first answers "gone"', async () => {
		const full: Approver = { decide: () => Promise.resolve("full") };
		expect(await waitForDecision(full, 1_000, REQUEST)).toBe("full");
		const gone = new AbortController();
		const pending = waitForDecision(approverShowingLate(10_000), 1_000, REQUEST, gone.signal);
		await sleep(20);
		gone.abort();
		expect(await pending).toBe("gone");
	});
});
