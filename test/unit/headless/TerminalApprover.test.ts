import { describeRequest } from "../../../src/headless/TerminalApprover";

describe("the terminal's approval question", () => {
	test("a rename shows where the note moves and each linking note's diff", () => {
		const question = describeRequest(
			{
				id: "abc",
				tokenName: "laptop",
				tool: "rename_note",
				toolTitle: "Rename or move a note",
				changes: [
					{ path: "Archive/Plan.md", movedFrom: "Plan.md", before: "# Plan\n", after: "# Plan\n" },
					{ path: "Source.md", before: "See [[Plan]]\n", after: "See [[Archive/Plan]]\n" },
				],
			},
			0,
		);
		expect(question).toContain("Note Plan.md moved to Archive/Plan.md:");
		expect(question).toContain("Note Source.md:");
		expect(question).toMatch(/-\s*See \[\[Plan\]\]/);
		expect(question).toMatch(/\+\s*See \[\[Archive\/Plan\]\]/);
	});

	test("control characters in note text are shown, never sent to the terminal: a model cannot redraw the diff the person approves", () => {
		const hostile = "harmless line\r+ other line\u001b[2K\u001b[1A\u009b31m\u0007";
		const question = describeRequest({ id: "x", tokenName: "laptop", tool: "append_to_note", toolTitle: "Append", changes: [{ path: "N.md", before: "a\n", after: `a\n${hostile}\n` }] }, 0);
		// eslint-disable-next-line no-control-regex -- checking that none reach the terminal
		expect(question).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/u);
		expect(question).toContain("+ harmless line\\x0d+ other line\\x1b[2K\\x1b[1A\\x9b31m\\x07");
	});
});
