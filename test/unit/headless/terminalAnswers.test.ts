/**
 * The terminal of an interactive `serve` answers Ask calls one question at a time: an answer
 * counts only for a question the person has seen.
 */
import { PassThrough } from "node:stream";
import { TerminalApprover } from "../../../src/headless/TerminalApprover";
import type { ApprovalDecision, ApprovalRequest } from "../../../src/mcp/approval";

function request(id: string): ApprovalRequest {
	return { id, tokenName: "laptop", tool: "append_to_note", toolTitle: "Append to a note", changes: [{ path: `${id}.md`, before: "one\n", after: `one\n${id}\n` }] };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe("TerminalApprover", () => {
	let input: PassThrough;
	let shown: string;
	let approver: TerminalApprover;
	beforeEach(() => {
		input = new PassThrough();
		shown = "";
		approver = new TerminalApprover(input, (text) => (shown += text));
	});
	afterEach(() => approver.close());

	test("a second answer typed along with the first (before the next question was shown) does not answer the next call", async () => {
		const decisions: Record<string, ApprovalDecision> = {};
		const first = approver.decide(request("first"), new AbortController().signal).then((decision) => (decisions.first = decision));
		const second = approver.decide(request("second"), new AbortController().signal).then((decision) => (decisions.second = decision));
		input.write("y\ny\n");
		await first;
		await tick();
		await tick();
		expect(decisions).toEqual({ first: "approve" });
		expect(shown).toContain("second.md");
		input.write("n\n");
		await second;
		expect(decisions).toEqual({ first: "approve", second: "decline" });
	});

	test("each question shows the token, the tool and the diff; y approves, n declines, a always allows", async () => {
		const answers: ApprovalDecision[] = [];
		for (const [typed, expected] of [["y", "approve"], ["n", "decline"], ["always", "always"]] as const) {
			const pending = approver.decide(request(expected), new AbortController().signal);
			await tick();
			expect(shown).toContain(`"laptop" asks to run append_to_note`);
			expect(shown).toContain(`+ ${expected}`);
			input.write(`${typed}\n`);
			answers.push(await pending);
		}
		expect(answers).toEqual(["approve", "decline", "always"]);
	});
});
