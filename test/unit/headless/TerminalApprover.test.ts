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
});
