import "../../double/dom";
import { DIFF_STEP_WORK, WINDOW_DIFF_LINES_PER_STEP } from "../../../src/config/limits";
import { diffAsText, diffNote } from "../../../src/journal/noteDiff";
import { renderNoteChanges } from "../../../src/ui/diffView";
import { countWorkPerPiece } from "../../helpers/workPieces";
import { replaceMethod } from "../../helpers/replaceMethod";

/** What a person reads in the approval window and "Show change": one heading line per note, then its lines. */
describe("renderNoteChanges", () => {
	const draw = async (changes: Parameters<typeof renderNoteChanges>[1]) => {
		const parent = document.createElement("div");
		await renderNoteChanges(parent, changes);
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
	])("names what happens to the note: %o", async (change, heading) => {
		expect((await draw([change])).headings).toEqual([heading]);
	});

	test("added, removed and unchanged lines are marked, as text (markup in a note stays text)", async () => {
		const { lines } = await draw([{ path: "N.md", before: "keep\n<b>old</b>\n", after: "keep\n<img src=x onerror=alert(1)>\n" }]);
		expect(lines).toEqual(["vault-mcp-diff-same|  keep", "vault-mcp-diff-removed|- <b>old</b>", "vault-mcp-diff-added|+ <img src=x onerror=alert(1)>"]);
	});

	test("a change too different to match line by line is drawn whole, the new lines first, under a line saying so (never only a line count)", async () => {
		const before = Array.from({ length: 1_100 }, (_, index) => `old ${index} ${"o".repeat(index % 7)}`).join("\n");
		const after = Array.from({ length: 1_100 }, (_, index) => `new ${index} ${"n".repeat(index % 5)}`).join("\n");
		const { lines } = await draw([{ path: "Big.md", before, after }]);
		expect(lines[0]).toBe("vault-mcp-diff-gap|Too different to match line by line: the 1100 new lines first, then the 1100 old lines they replace.");
		expect(lines.slice(1, 1_101)).toEqual(after.split("\n").map((line) => `vault-mcp-diff-added|+ ${line}`));
		expect(lines.slice(1_101)).toEqual(before.split("\n").map((line) => `vault-mcp-diff-removed|- ${line}`));
	});

	test("a moved note whose text did not change says so instead of an empty diff", async () => {
		expect((await draw([{ path: "B.md", movedFrom: "A.md", before: "x\n", after: "x\n" }])).lines).toEqual(["vault-mcp-diff-gap|No change to the text."]);
	});
	test("characters that reorder or hide text (bidi overrides, zero-width space, carriage return) are drawn as their codes, in lines and paths, so what is read is what is written", async () => {
		const { headings, lines } = await draw([{ path: "Pay\u202Egpj.md", before: "a\n", after: "a\npay \u202E001$ ot boB\u200B\rhidden\n\tindented\n" }]);
		expect(headings).toEqual(["Pay\\u{202e}gpj.md"]);
		expect(lines).toEqual([
			"vault-mcp-diff-same|  a",
			"vault-mcp-diff-added|+ pay \\u{202e}001$ ot boB\\u{200b}\\x0dhidden",
			"vault-mcp-diff-added|+ \tindented",
		]);
	});

	test("a change to a 1 MiB note is worked out and drawn in slices, the event loop given back between them, and drawn as the whole diff says", async () => {
		// 20,000 lines; 300 of them changed, spread through the note: split, compared, matched and drawn.
		const before = Array.from({ length: 20_000 }, (_, index) => `line ${index} of a long note, lorem ipsum dolor sit amet ${index * 7}`).join("\n");
		const after = before
			.split("\n")
			.map((line, index) => (index % 64 === 5 ? `${line} (edited)` : line))
			.join("\n");
		expect(before.length).toBeGreaterThan(1_000_000);
		const pieces = countWorkPerPiece();
		// Lines looked at, counted where each line is split off (its carriage return checked), plus lines drawn.
		const endsWith = Object.getOwnPropertyDescriptor(String.prototype, "endsWith")?.value as (this: string, search: string) => boolean;
		const split = replaceMethod(String.prototype, "endsWith", function (this: string, search: string) {
			pieces.count();
			return endsWith.call(this, search);
		});
		const parent = document.createElement("div");
		const appendChild = Object.getOwnPropertyDescriptor(Node.prototype, "appendChild")?.value as (this: Node, node: Node) => Node;
		const drawn = jest.spyOn(Node.prototype, "appendChild").mockImplementation(function <T extends Node>(this: Node, node: T): T {
			pieces.count();
			return appendChild.call(this, node) as T;
		});
		try {
			await renderNoteChanges(parent, [{ path: "Long.md", before, after }]);
		} finally {
			drawn.mockRestore();
			split.restore();
			pieces.restore();
		}
		// Before: 40,000 lines split and 900 drawn in one piece of the UI thread.
		expect(Math.max(...pieces.perPiece)).toBeLessThanOrEqual(DIFF_STEP_WORK + 4 * WINDOW_DIFF_LINES_PER_STEP);
		const shown = [...parent.querySelectorAll(".vault-mcp-diff-lines > div")].map((el) => el.textContent);
		expect(shown).toEqual(diffAsText(diffNote(before, after)).map((line) => line.replace(/^ {2}… /, "… ")));
		expect(shown.filter((line) => line?.startsWith("+ "))).toHaveLength(313);
	});
});
