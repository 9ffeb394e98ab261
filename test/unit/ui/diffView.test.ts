import "../../double/dom";
import { renderNoteChanges } from "../../../src/ui/diffView";

/** What a person reads in the approval window and "Show change": one heading line per note, then its lines. */
describe("renderNoteChanges", () => {
	const draw = (changes: Parameters<typeof renderNoteChanges>[1]) => {
		const parent = document.createElement("div");
		renderNoteChanges(parent, changes);
		return {
			headings: [...parent.querySelectorAll(".vault-mcp-diff-path")].map((el) => el.textContent),
			lines: [...parent.querySelectorAll(".vault-mcp-diff-lines > div")].map((el) => `${el.className}|${el.textContent}`),
		};
	};

	test.each([
		[{ path: "New.md", before: null, after: "a\n" }, "New.md (new note)"],
		[{ path: "Old.md", before: "a\n", after: null }, "Old.md (moved to the trash)"],
		[{ path: "B/Note.md", movedFrom: "A/Note.md", before: "a\n", after: "a\n" }, "A/Note.md → B/Note.md (moved; text unchanged)"],
		[{ path: "B/Note.md", movedFrom: "A/Note.md", before: "[[x]]\n", after: "[[A/x]]\n" }, "A/Note.md → B/Note.md (moved)"],
		[{ path: "Note.md", before: "a\n", after: "a\nb\n" }, "Note.md"],
	])("names what happens to the note: %o", (change, heading) => {
		expect(draw([change]).headings).toEqual([heading]);
	});

	test("added, removed and unchanged lines are marked, as text (markup in a note stays text)", () => {
		const { lines } = draw([{ path: "N.md", before: "keep\n<b>old</b>\n", after: "keep\n<img src=x onerror=alert(1)>\n" }]);
		expect(lines).toEqual(["vault-mcp-diff-same|  keep", "vault-mcp-diff-removed|- <b>old</b>", "vault-mcp-diff-added|+ <img src=x onerror=alert(1)>"]);
	});

	test("a change too different to match line by line is drawn whole, the new lines first, under a line saying so (never only a line count)", () => {
		const before = Array.from({ length: 1_100 }, (_, index) => `old ${index} ${"o".repeat(index % 7)}`).join("\n");
		const after = Array.from({ length: 1_100 }, (_, index) => `new ${index} ${"n".repeat(index % 5)}`).join("\n");
		const { lines } = draw([{ path: "Big.md", before, after }]);
		expect(lines[0]).toBe("vault-mcp-diff-gap|Too different to match line by line: the 1100 new lines first, then the 1100 old lines they replace.");
		expect(lines.slice(1, 1_101)).toEqual(after.split("\n").map((line) => `vault-mcp-diff-added|+ ${line}`));
		expect(lines.slice(1_101)).toEqual(before.split("\n").map((line) => `vault-mcp-diff-removed|- ${line}`));
	});

	test("a moved note whose text did not change says so instead of an empty diff", () => {
		expect(draw([{ path: "B.md", movedFrom: "A.md", before: "x\n", after: "x\n" }]).lines).toEqual(["vault-mcp-diff-gap|No change to the text."]);
	});
	test("characters that reorder or hide text (bidi overrides, zero-width space, carriage return) are drawn as their codes, in lines and paths, so what is read is what is written", () => {
		const { headings, lines } = draw([{ path: "Pay\u202Egpj.md", before: "a\n", after: "a\npay \u202E001$ ot boB\u200B\rhidden\n\tindented\n" }]);
		expect(headings).toEqual(["Pay\\u{202e}gpj.md"]);
		expect(lines).toEqual([
			"vault-mcp-diff-same|  a",
			"vault-mcp-diff-added|+ pay \\u{202e}001$ ot boB\\u{200b}\\x0dhidden",
			"vault-mcp-diff-added|+ \tindented",
		]);
	});
});
