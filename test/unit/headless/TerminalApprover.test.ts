import { describeRequest } from "../../../src/headless/TerminalApprover";

describe("the terminal's approval question", () => {
	test("a rename shows where the note moves and each linking note's diff", () => {
		const question = describeRequest({
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
		const question = describeRequest({
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

	test("an overwrite too different to match line by line still shows every line of the new text", () => {
		const before = Array.from({ length: 1_100 }, (_, index) => `old ${index} ${"x".repeat(index % 7)}`).join("\n");
		const after = Array.from({ length: 1_100 }, (_, index) => `new ${index} ${"y".repeat(index % 5)}`).join("\n");
		const question = describeRequest({
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
