import { diffArrays } from "diff";
import fc from "fast-check";
import { DIFF_LINE_CHARS, DIFF_MAX_MATCH_WORK, DIFF_STEP_WORK, NOTE_TEXT_PIECE_CHARS } from "../../../src/config/limits";
import { diffAsText, diffNote, diffNoteSteps } from "../../../src/journal/noteDiff";
import type { Steps } from "../../../src/markdown/steps";
import { workClock } from "../../helpers/threadCpu";

/**
 * Runs `steps` to the end and returns the most work done between two of its pauses: list items
 * handed to the built-ins that walk a whole list (Array map, slice, reverse, concat, filter), and
 * characters a search for a line's end looked through (String indexOf). Counted, not timed.
 */
function longestPiece<T>(steps: Steps<T>): { value: T; items: number; chars: number; pieces: number } {
	const piece = { items: 0, chars: 0 };
	const longest = { items: 0, chars: 0 };
	const arrays = Array.prototype as unknown as Record<string, (...args: unknown[]) => unknown>;
	const walked = ["map", "slice", "reverse", "concat", "filter"] as const;
	const kept = walked.map((name) => arrays[name]!);
	const indexOf = Object.getOwnPropertyDescriptor(String.prototype, "indexOf")?.value as (this: string, search: string, from?: number) => number;
	walked.forEach((name, at) => {
		arrays[name] = function (this: unknown[], ...args: unknown[]) {
			piece.items += this.length;
			return kept[at]!.apply(this, args);
		};
	});
	String.prototype.indexOf = function (this: string, search: string, from?: number) {
		const found = indexOf.call(this, search, from);
		piece.chars += (found === -1 ? this.length : found) - (from ?? 0);
		return found;
	};
	let pieces = 0;
	try {
		for (;;) {
			const next = steps.next();
			pieces++;
			longest.items = Math.max(longest.items, piece.items);
			longest.chars = Math.max(longest.chars, piece.chars);
			piece.items = piece.chars = 0;
			if (next.done) return { value: next.value, ...longest, pieces };
		}
	} finally {
		walked.forEach((name, at) => (arrays[name] = kept[at]!));
		String.prototype.indexOf = indexOf;
	}
}

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
		// Work, not wall time: a busy machine taking the core away lengthens only the latter.
		const clock = workClock();
		const started = clock();
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
		expect(clock() - started).toBeLessThan(2_000);
	});

	test("the diff reads back to both texts and is as short as any: the lines it keeps, removes and adds, gaps skipping lines both share", () => {
		const lines = fc.array(fc.constantFrom("a", "b", "c", "", "d\r"), { maxLength: 40 });
		fc.assert(
			fc.property(lines, lines, (oldLines, newLines) => {
				const before = oldLines.join("\n");
				const after = newLines.join("\n");
				// As a person reads a note: no carriage returns, no empty line after a final line end.
				const split = (text: string) =>
					text === ""
						? []
						: text
								.replace(/\n$/, "")
								.split("\n")
								.map((line) => line.replace(/\r$/, ""));
				const [a, b] = [split(before), split(after)];
				const diff = diffNote(before, after);
				expect(diff.unmatched).toBeUndefined();
				let [x, y] = [0, 0];
				for (const line of diff.lines) {
					if (line.kind === "gap") {
						expect(a.slice(x, x + line.linesSkipped)).toEqual(b.slice(y, y + line.linesSkipped));
						x += line.linesSkipped;
						y += line.linesSkipped;
						continue;
					}
					if (line.kind !== "added") expect(a[x++]).toBe(line.text);
					if (line.kind !== "removed") expect(b[y++]).toBe(line.text);
				}
				expect([x, y]).toEqual([a.length, b.length]);
				const shortest = diffArrays(a, b).reduce((sum, part) => sum + (part.added || part.removed ? part.count : 0), 0);
				expect(diff.lines.filter((line) => line.kind === "added" || line.kind === "removed")).toHaveLength(shortest);
			}),
		);
	});

	test("the diff of two 1 MiB notes too different to match pauses after every few thousand lines looked at", () => {
		const before = Array.from({ length: 20_000 }, (_, index) => `old line ${index} lorem ipsum dolor sit amet ${index * 7}`).join("\n");
		const after = Array.from({ length: 20_000 }, (_, index) => `new line ${index} lorem ipsum dolor sit amet ${index * 3}`).join("\n");
		const steps = diffNoteSteps(before, after);
		let pauses = 0;
		let next = steps.next();
		for (; !next.done; next = steps.next()) pauses++;
		expect(next.value.unmatched).toEqual({ linesRemoved: 20_000, linesAdded: 20_000 });
		// Split, 40,000 lines; then the search up to DIFF_MAX_EDIT_LENGTH edits (about half a million diagonal steps, under DIFF_MAX_MATCH_WORK); then 40,000 lines placed.
		expect(pauses).toBeGreaterThan(80_000 / DIFF_STEP_WORK);
		expect(pauses).toBeLessThanOrEqual((80_000 + DIFF_MAX_MATCH_WORK) / DIFF_STEP_WORK + 2);
	});

	test.each([
		[20_000, 40],
		[100_000, 200],
	])(
		"%i lines with every %ith edited are matched line by line, every edit shown, within the bound of work (review57: a bound 16 times lower showed them whole, most edits past the lines drawn)",
		(count, every) => {
			const before = Array.from({ length: count }, (_, index) => `line ${index}`);
			const after = before.map((line, index) => (index % every === 7 ? `${line} (edited)` : line));
			const steps = diffNoteSteps(before.join("\n"), after.join("\n"));
			let pauses = 0;
			let next = steps.next();
			for (; !next.done; next = steps.next()) pauses++;
			expect(next.value.unmatched).toBeUndefined();
			expect(next.value.lines.filter((line) => line.kind === "added")).toHaveLength(count / every);
			expect(next.value.lines.filter((line) => line.kind === "removed")).toHaveLength(count / every);
			expect(pauses).toBeLessThanOrEqual((4 * count + DIFF_MAX_MATCH_WORK) / DIFF_STEP_WORK + 4);
		},
	);

	test.each([
		["a new note of 300,000 lines", null, Array.from({ length: 300_000 }, (_, index) => `line ${index}`).join("\n")],
		["a cut of 300,000 lines", Array.from({ length: 300_000 }, (_, index) => `line ${index}`).join("\n"), ""],
	])("%s is split and placed in pieces of a few thousand lines (before: every line placed in one piece)", (_what, before, after) => {
		const { value, items, pieces } = longestPiece(diffNoteSteps(before, after));
		expect(value.lines.filter((line) => line.kind !== "same" && line.kind !== "gap")).toHaveLength(300_000);
		expect(items).toBeLessThanOrEqual(2 * DIFF_STEP_WORK);
		expect(pieces).toBeGreaterThan((2 * 300_000) / DIFF_STEP_WORK);
	});

	test("a note of one 4 MiB line is looked through in pieces (before: the whole line in one piece)", () => {
		const line = `${"word ".repeat(800_000)}`;
		const { value, chars } = longestPiece(diffNoteSteps(`${line}\nold end`, `${line}\nnew end`));
		expect(diffAsText(value).filter((shown) => !shown.startsWith("  "))).toEqual(["- old end", "+ new end"]);
		expect(chars).toBeLessThanOrEqual(DIFF_STEP_WORK * DIFF_LINE_CHARS + NOTE_TEXT_PIECE_CHARS);
	});
});
