/**
 * What the person who approved a call is told when it is then stopped: which note and why, in sentence case, with paths
 * and names only (the client's message, which a plan's error can fill with a note's headings, is not passed on).
 */
import type { ApprovalRequest } from "../../../src/mcp/approval";
import { deniedCause, notWrittenText } from "../../../src/mcp/notWrittenText";

const append: ApprovalRequest = {
	id: "c1",
	tokenName: "laptop",
	tool: "append_to_note",
	toolTitle: "Append to a note",
	changes: [{ path: "Home.md", before: "# Home\n", after: "# Home\nSecret line\n" }],
};
const rename: ApprovalRequest = {
	id: "c2",
	tokenName: "laptop",
	tool: "rename_note",
	toolTitle: "Rename a note",
	changes: [
		{ path: "Start.md", movedFrom: "Home.md", before: "# Home\n", after: "# Home\n" },
		{ path: "Links.md", before: "See [[Home]]\n", after: "See [[Start]]\n" },
		{ path: "More.md", before: "[[Home]]\n", after: "[[Start]]\n" },
	],
};

describe("notWrittenText", () => {
	test.each<[string, ApprovalRequest, Parameters<typeof notWrittenText>[1], string]>([
		[
			"an edit refused",
			append,
			{ cause: deniedCause("append_to_note", "right set to deny"), written: [], callId: "c1" },
			'"Home.md" was not changed: append_to_note was set to Deny for this token. Nothing was written.',
		],
		[
			"a new note",
			{ ...append, changes: [{ path: "Daily/2026-12-07.md", before: null, after: "- [ ] Secret\n" }] },
			{ cause: deniedCause("add_task", "token revoked"), written: [], callId: "c1" },
			'"Daily/2026-12-07.md" was not created: the token was revoked. Nothing was written.',
		],
		[
			"a rename with its linking notes",
			rename,
			{ cause: '"Links.md" kept changing after you approved it', written: [], callId: "c2" },
			'"Home.md" was not moved to "Start.md", and the 2 other notes of the call were not written either: "Links.md" kept changing after you approved it. Nothing was written.',
		],
		[
			"a set stopped part-way (it said the call was not written, then that one note had been)",
			rename,
			{ cause: '"More.md" changed', written: ["Start.md", "Links.md"], callId: "c2" },
			'Only 2 of its 3 notes were written ("Start.md", "Links.md"), then it stopped: "More.md" changed. Undo id c2 reverses them.',
		],
		[
			"an unexpected error",
			rename,
			{ cause: "", written: [], callId: "c2", unexpected: true },
			`Writing "Start.md" stopped with an unexpected error (the server's log says more; the journal lists any note it wrote).`,
		],
	])("%s", (_what, request, stopped, told) => {
		const text = notWrittenText(request, stopped);
		expect(text).toBe(told);
		expect(text).not.toContain("Secret");
		expect(text.charAt(0)).toBe(text.charAt(0).toUpperCase());
	});

	test.each([
		["server switched off", "the server was switched off"],
		["writing switched off", "writing was switched off in the settings"],
		["token reads only", "the token may only read now"],
		[null, "this token may no longer use add_task"],
	] as const)("a token denied the tool because %s: %s", (because, cause) => {
		expect(deniedCause("add_task", because)).toBe(cause);
	});
});
