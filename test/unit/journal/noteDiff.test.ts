import { diffAsText, diffNote } from "../../../src/journal/noteDiff";

describe("diffNote", () => {
	test("an append shows the added lines after context, and the lines above as a gap", () => {
		const before = ["# Title", "a", "b", "c", "d", "e", ""].join("\n");
		const after = `${before}- new\n`;
		expect(diffAsText(diffNote(before, after))).toEqual(["  … 3 unchanged lines …", "  c", "  d", "  e", "+ - new"]);
	});

	test("a new note is all added lines", () => {
		expect(diffNote(null, "one\ntwo\n")).toEqual({
			lines: [
				{ kind: "added", text: "one" },
				{ kind: "added", text: "two" },
			],
		});
	});

	test("a new note, a long appended block or a cut of any length is shown line by line, every line, never as line counts", () => {
		const block = Array.from({ length: 5_000 }, (_, index) => `line ${index}`);
		const created = diffNote(null, `${block.join("\n")}\n`);
		expect("lines" in created && created.lines.map((line) => (line.kind === "gap" ? "gap" : `${line.kind} ${line.text}`))).toEqual(
			block.map((text) => `added ${text}`),
		);
		const note = "# Log\n\nfirst\n";
		const appended = diffAsText(diffNote(note, `${note}${block.join("\n")}\n`));
		expect(appended.filter((line) => line.startsWith("+ "))).toEqual(block.map((text) => `+ ${text}`));
		const cut = diffAsText(diffNote(`${note}${block.join("\n")}\n`, note));
		expect(cut.filter((line) => line.startsWith("- "))).toEqual(block.map((text) => `- ${text}`));
	});

	test("CRLF notes diff by line, without carriage returns in the text shown", () => {
		const diff = diffNote("a\r\nb\r\n", "a\r\nB\r\n");
		expect(diffAsText(diff)).toEqual(["  a", "- b", "+ B"]);
	});

	test("a change in the middle shows gaps on both sides", () => {
		const lines = Array.from({ length: 20 }, (_, index) => `line ${index + 1}`);
		const changed = [...lines];
		changed[9] = "line ten";
		const text = diffAsText(diffNote(`${lines.join("\n")}\n`, `${changed.join("\n")}\n`));
		expect(text[0]).toBe("  … 6 unchanged lines …");
		expect(text).toContain("- line 10");
		expect(text).toContain("+ line ten");
		expect(text.at(-1)).toBe("  … 7 unchanged lines …");
	});

	test("a small change to a 100,000-line note is quick and shown as a gap, the change and a gap", () => {
		const lines = Array.from({ length: 100_000 }, (_, index) => `line ${index}`);
		const changed = [...lines];
		changed[50_000] = "changed";
		const diff = diffNote(lines.join("\n"), changed.join("\n"));
		expect("lines" in diff && diff.lines.filter((line) => line.kind !== "same" && line.kind !== "gap")).toEqual([
			{ kind: "removed", text: "line 50000" },
			{ kind: "added", text: "changed" },
		]);
	});

	test("notes too different to diff quickly are shown whole, the new lines first, and say so", () => {
		const before = ["same", ...Array.from({ length: 6_000 }, (_, index) => `a${index}`)].join("\n");
		const after = ["same", ...Array.from({ length: 6_000 }, (_, index) => `b${index}`)].join("\n");
		const started = performance.now();
		const diff = diffNote(before, after);
		expect(diff.unmatched).toEqual({ linesRemoved: 6_000, linesAdded: 6_000 });
		expect(diff.lines.slice(0, 3)).toEqual([
			{ kind: "same", text: "same" },
			{ kind: "added", text: "b0" },
			{ kind: "added", text: "b1" },
		]);
		expect(diff.lines.filter((line) => line.kind === "added").map((line) => ("text" in line ? line.text : ""))).toEqual(
			Array.from({ length: 6_000 }, (_, index) => `b${index}`),
		);
		expect(diff.lines.filter((line) => line.kind === "removed")).toHaveLength(6_000);
		expect(diff.lines.at(-1)).toEqual({ kind: "removed", text: "a5999" });
		// Generous for a shared machine; the limit itself is DIFF_TIMEOUT_MS (100 ms).
		expect(performance.now() - started).toBeLessThan(2_000);
	});
});
