import fc from "fast-check";
import { appendToEnd, appendUnderHeading, detectFormat, insertUnderBullet, isOutline, listLineStart, type EditMode } from "../../../src/markdown/outline";
import { onLowerCase, replaceMethod } from "../../helpers/replaceMethod";
import { expectEqual } from "../../helpers/plainEqual";

type Case = [label: string, note: string, content: string, expected: string];

const append = (note: string, content: string, mode?: EditMode) => {
	const result = appendToEnd(note, content, mode ?? (isOutline(note, undefined) ? "outliner" : "freeform"), detectFormat(note));
	if (!result.ok) throw new Error(result.error);
	return result.value.text;
};

describe("detecting a note's format", () => {
	test.each([
		["tabs", "- a\n\t- b\n", "\t", "-"],
		["2 spaces", "* a\n  * b\n", "  ", "*"],
		["4 spaces", "+ a\n    + b\n", "    ", "+"],
		["nothing to copy: 4 spaces and -", "Just text.\n", "    ", "-"],
	])("%s", (_label, note, indent, marker) => {
		expect(detectFormat(note)).toMatchObject({ indentUnit: indent, marker });
	});

	test("the vault's settings are the fallback", () => {
		expect(detectFormat("", { useTab: true }).indentUnit).toBe("\t");
		expect(detectFormat("", { useTab: false, tabSize: 2 }).indentUnit).toBe("  ");
	});

	test.each([
		["a list only", "- a\n\t- b\n- c\n", undefined, true],
		["a list with continuation lines", "- a\n  more of a\n- b\n", undefined, true],
		["frontmatter, then a list", "---\ntags: [x]\n---\n- a\n", undefined, true],
		["a paragraph and a list", "Intro\n\n- a\n", undefined, false],
		["an empty note", "", undefined, false],
		["mode: outliner overrides the body", "Some text\n", "outliner", true],
		["mode: freeform overrides the body", "- a\n", "freeform", false],
	])("%s → outline %s", (_label, note, mode, expected) => {
		expect(isOutline(note, mode)).toBe(expected);
	});
});

describe("appendToEnd, byte for byte", () => {
	test.each<Case>([
		["freeform: a blank line, then the paragraph", "# Title\n\nText.\n", "New paragraph.", "# Title\n\nText.\n\nNew paragraph.\n"],
		["freeform: the note's trailing blank lines stay at its end", "Text.\n\n\n", "More.", "Text.\n\nMore.\n\n\n"],
		["freeform: a note without a final newline keeps none", "Text.", "More.", "Text.\n\nMore."],
		["freeform: a task continues the list above it", "Intro\n\n- [ ] one\n", "- [ ] two", "Intro\n\n- [ ] one\n- [ ] two\n"],
		["outline with tabs: nested content keeps its shape", "- a\n\t- b\n", "c\n\td\n\t\te\nf", "- a\n\t- b\n- c\n\t- d\n\t\t- e\n- f\n"],
		["outline with 2 spaces: content indented with tabs is re-indented", "- a\n  - b\n", "c\n\td", "- a\n  - b\n- c\n  - d\n"],
		["outline with 4 spaces: content indented with 2 spaces becomes 4", "* a\n    * b\n", "c\n  d\n    e", "* a\n    * b\n* c\n    * d\n        * e\n"],
		["outline: markers and checkboxes are kept, never doubled", "- a\n", "- b\n[ ] c\n- [x] d\n1. e", "- a\n- b\n- [ ] c\n- [x] d\n1. e\n"],
		["outline: CRLF line endings are kept", "- a\r\n- b\r\n", "c\n\td", "- a\r\n- b\r\n- c\r\n    - d\r\n"],
		["outline: blank content lines are dropped", "- a\n", "b\n\n\nc", "- a\n- b\n- c\n"],
		["outline: a numbered list is numbered on, not broken by a bullet", "1. a\n2. b\n", "c\n\td\ne", "1. a\n2. b\n3. c\n    - d\n4. e\n"],
		["outline: numbering keeps the list's delimiter", "7) a\n\t- a1\n", "b", "7) a\n\t- a1\n8) b\n"],
		["outline: a bullet list after a numbered one continues the bullets", "1. a\n\n- b\n", "c", "1. a\n\n- b\n- c\n"],
	])("%s", (_label, note, content, expected) => {
		expect(append(note, content)).toBe(expected);
	});

	test("empty content is an error", () => {
		expect(appendToEnd("x", "  \n ", "freeform", detectFormat("x"))).toEqual({ ok: false, error: expect.stringContaining("empty") });
	});
});

describe("appendUnderHeading", () => {
	const note = "# Plan\n\nIntro.\n\n## Tasks\n\n- [ ] one\n\n## Notes\n\nSome notes.\n";
	test.each<Case>([
		[
			"at the end of a section, before the next heading",
			note,
			"- [ ] two",
			"# Plan\n\nIntro.\n\n## Tasks\n\n- [ ] one\n- [ ] two\n\n## Notes\n\nSome notes.\n",
		],
		[
			"a paragraph in the last section",
			note.replace("## Tasks", "## Tasks"),
			"More notes.",
			"# Plan\n\nIntro.\n\n## Tasks\n\n- [ ] one\n\n## Notes\n\nSome notes.\n\nMore notes.\n",
		],
	])("%s", (_label, text, content, expected) => {
		const heading = content.startsWith("-") ? "tasks" : "NOTES";
		const result = appendUnderHeading(text, heading, content, "freeform", detectFormat(text));
		expect(result.ok && result.value.text).toBe(expected);
	});

	test("a section that contains subsections ends before the next heading of its level", () => {
		const text = "# A\n\n## A1\n\nx\n\n# B\n";
		const result = appendUnderHeading(text, "A", "added", "freeform", detectFormat(text));
		expect(result.ok && result.value.text).toBe("# A\n\n## A1\n\nx\n\nadded\n\n# B\n");
	});

	test("an empty section gets the content right under the heading", () => {
		const text = "## Empty\n## Next\n";
		const result = appendUnderHeading(text, "Empty", "added", "freeform", detectFormat(text));
		expect(result.ok && result.value.text).toBe("## Empty\n\nadded\n\n## Next\n");
	});

	test("a missing heading is an error that lists the headings; nothing is created", () => {
		expect(appendUnderHeading(note, "Ideas", "x", "freeform", detectFormat(note))).toEqual({
			ok: false,
			error: expect.stringMatching(/No heading "Ideas".*# Plan \(line 0\).*## Tasks \(line 4\)/),
		});
	});

	test("a heading with the same path twice is an error that says no argument can tell them apart", () => {
		const text = "## Log\n\na\n\n## Log\n\nb\n";
		expect(appendUnderHeading(text, "log", "x", "freeform", detectFormat(text))).toEqual({
			ok: false,
			error: 'The heading "log" matches 2 sections: "Log" (line 0), "Log" (line 4). Nothing was written. Some of them have the same path, so no heading argument can tell them apart: rename one heading in the note first.',
		});
	});

	describe("the same name under two parents", () => {
		const twice = "# Project A\n\n## Tasks\n\n- [ ] a1\n\n# Project B\n\n## Tasks\n\n- [ ] b1\n\n### Tasks\n\n- [ ] deep\n";
		const append = (heading: string) => appendUnderHeading(twice, heading, "- [ ] new", "freeform", detectFormat(twice));

		test("is an error listing the candidates as Parent > Child paths; nothing is written or created", () => {
			expect(append("Tasks")).toEqual({
				ok: false,
				error: 'The heading "Tasks" matches 3 sections: "Project A > Tasks" (line 2), "Project B > Tasks" (line 8), "Project B > Tasks > Tasks" (line 12). Nothing was written. Pass one of these paths as heading.',
			});
		});

		test.each<[string, string]>([
			["Project A > Tasks", "# Project A\n\n## Tasks\n\n- [ ] a1\n- [ ] new\n\n# Project B\n\n## Tasks\n\n- [ ] b1\n\n### Tasks\n\n- [ ] deep\n"],
			["project a>tasks", "# Project A\n\n## Tasks\n\n- [ ] a1\n- [ ] new\n\n# Project B\n\n## Tasks\n\n- [ ] b1\n\n### Tasks\n\n- [ ] deep\n"],
			["# Project A > ## Tasks", "# Project A\n\n## Tasks\n\n- [ ] a1\n- [ ] new\n\n# Project B\n\n## Tasks\n\n- [ ] b1\n\n### Tasks\n\n- [ ] deep\n"],
			["Project B > Tasks > Tasks", "# Project A\n\n## Tasks\n\n- [ ] a1\n\n# Project B\n\n## Tasks\n\n- [ ] b1\n\n### Tasks\n\n- [ ] deep\n- [ ] new\n"],
			["Tasks > Tasks", "# Project A\n\n## Tasks\n\n- [ ] a1\n\n# Project B\n\n## Tasks\n\n- [ ] b1\n\n### Tasks\n\n- [ ] deep\n- [ ] new\n"],
		])("the path %s picks one section", (heading, expected) => {
			const result = append(heading);
			expect(result.ok && result.value.text).toBe(expected);
		});

		test("a path names the heading it ends at: its section runs on through its subsections", () => {
			const result = append("Project B > Tasks");
			expect(result.ok && result.value.line).toBe(15);
		});

		test("a path no heading has is an error listing the headings", () => {
			expect(append("Project C > Tasks")).toEqual({
				ok: false,
				error: expect.stringMatching(/^No heading "Project C > Tasks" in this note\. Its headings: # Project A \(line 0\); ## Tasks \(line 2\)/),
			});
		});

		test("a heading whose own text holds ' > ' is found by that text", () => {
			const text = "# In > Out\n\nx\n";
			const result = appendUnderHeading(text, "In > Out", "y", "freeform", detectFormat(text));
			expect(result.ok && result.value.text).toBe("# In > Out\n\nx\n\ny\n");
		});
	});

	describe("a path of more parts than heading levels", () => {
		const deep = "# A\n## B\n### C\n#### D\n##### E\n###### F\n\nx\n";
		const append = (heading: string) => appendUnderHeading(deep, heading, "y", "freeform", detectFormat(deep));

		test("six parts, one a level, still name the deepest heading; a seventh names none", () => {
			expect(append("A > B > C > D > E > F")).toMatchObject({ ok: true, value: { text: `${deep}\ny\n` } });
			expect(append("Z > A > B > C > D > E > F")).toMatchObject({ ok: false, error: expect.stringMatching(/^No heading "Z > A > B/) });
		});

		test("a heading argument of 50,001 parts is not split into them (a million `>` held the server 150-350 ms)", () => {
			let lowered = 0;
			const counting = onLowerCase(() => lowered++);
			let result: ReturnType<typeof append>;
			try {
				result = append(`${"a>".repeat(50_000)}a`);
			} finally {
				counting.restore();
			}
			expect(result).toMatchObject({ ok: false, error: expect.stringMatching(/^No heading "a>a>a>/) });
			// The argument once and each of the six headings: every part lowered was 50,001 more.
			expect(lowered).toBeLessThan(100);
		});
	});

	test("headings inside code blocks do not count", () => {
		const text = "```\n# Not a heading\n```\n\n# Real\n";
		expect(appendUnderHeading(text, "Not a heading", "x", "freeform", detectFormat(text))).toMatchObject({ ok: false });
	});
});

describe("insertUnderBullet", () => {
	const note = "- Work\n\t- Email\n\t\t- Reply to Ana\n\t- Meetings\n- Home\n\t- Groceries\n";
	const insert = (text: string, bullet: string, content: string) => insertUnderBullet(text, bullet, content, detectFormat(text));

	test.each<Case>([
		[
			"after the bullet's whole subtree, as its last children",
			note,
			"Call Ben\n\tabout the budget",
			"- Work\n\t- Email\n\t\t- Reply to Ana\n\t- Meetings\n\t- Call Ben\n\t\t- about the budget\n- Home\n\t- Groceries\n",
		],
		["under a nested bullet", note, "Bread", "- Work\n\t- Email\n\t\t- Reply to Ana\n\t- Meetings\n- Home\n\t- Groceries\n\t\t- Bread\n"],
		["under a leaf bullet, with spaces notes", "- a\n  - b\n- c\n", "new", "- a\n  - b\n    - new\n- c\n"],
		[
			"WORK's numbered children are numbered on",
			"- Work\n\t1. Email\n\t2. Meetings\n- Home\n",
			"Call Ben",
			"- Work\n\t1. Email\n\t2. Meetings\n\t3. Call Ben\n- Home\n",
		],
	])("%s", (label, text, content, expected) => {
		const bullet = label.startsWith("under a nested") ? "groceries" : label.startsWith("under a leaf") ? "b" : "WORK";
		const result = insert(text, bullet, content);
		expect(result.ok && result.value.text).toBe(expected);
	});

	test("no match is an error", () => {
		expect(insert(note, "Garden", "x")).toEqual({ ok: false, error: expect.stringContaining('No bullet contains "Garden"') });
	});

	test("several matches list the candidates with their line numbers", () => {
		expect(insert(note, "e", "x")).toEqual({
			ok: false,
			error: expect.stringMatching(
				/^5 bullets contain "e": line 1: "Email"; line 2: "Reply to Ana"; line 3: "Meetings"; line 4: "Home"; line 5: "Groceries"\. Nothing was written/,
			),
		});
	});

	test("matching looks at the bullet's own text, not its marker or checkbox", () => {
		const tasks = "- [ ] buy milk\n- [x] done thing\n";
		const result = insert(tasks, "buy", "2 litres");
		expect(result.ok && result.value.text).toBe("- [ ] buy milk\n    - 2 litres\n- [x] done thing\n");
		expect(insert(tasks, "[ ]", "x")).toMatchObject({ ok: false });
	});
});

describe("an edit only adds lines: every line of the note stays, in order, byte for byte", () => {
	const PIECES = ["\n", "\n", "\n\n", "text", "- item", "  - child", "1. one", "# H", "## Sub", "  ", "\t- tab", "\r\n", "---", "```", "| a |", "- [ ] task"];
	const note = fc.array(fc.constantFrom(...PIECES), { maxLength: 30 }).map((pieces) => pieces.join(""));
	/** The note's lines are the result's with one run of lines taken out (line ends made one kind when the note had `\r\n`). */
	const onlyAdds = (before: string, after: string) => {
		const original = before.split(/\r?\n/);
		const result = after.split(/\r?\n/);
		const added = result.length - original.length;
		expect(added).toBeGreaterThan(0);
		const same = (lines: readonly string[]) => lines.length === original.length && lines.every((line, index) => line === original[index]);
		const at = Array.from({ length: original.length + 1 }, (_, start) => start).find((start) =>
			same([...result.slice(0, start), ...result.slice(start + added)]),
		);
		expect(at).toBeDefined();
		if (!before.includes("\r")) expect(after.includes("\r")).toBe(false);
	};

	test("append_to_note at the end or under a heading, and under a bullet, in both modes", () => {
		fc.assert(
			fc.property(note, fc.constantFrom<EditMode>("freeform", "outliner"), fc.constantFrom("added", "- a\n  - b"), (body, mode, content) => {
				const text = `${body}\n# Target\n${body}`;
				const outline = `- Target bullet\n${text}`;
				for (const [before, result] of [
					[text, appendToEnd(text, content, mode, detectFormat(text))],
					[text, appendUnderHeading(text, "Target", content, mode, detectFormat(text))],
					[outline, insertUnderBullet(outline, "Target bullet", content, detectFormat(outline))],
				] as const) {
					if (result.ok) onlyAdds(before, result.value.text);
				}
			}),
			{ numRuns: 1000 },
		);
	});
});

describe("finding list lines", () => {
	/** The list line pattern the edits use (outline.ts), whole. */
	const LIST_LINE = /^([ \t]*)([-*+]|\d+[.)])([ \t]+|$)(\[.\](?:[ \t]+|$))?([^ \t\n\r\u2028\u2029].*|)$/u;

	test("any line: listLineStart finds the list lines the whole pattern finds, with the same indent and marker", () => {
		const line = fc
			.array(fc.constantFrom(" ", "\t", "-", "*", "+", "1", "23", ".", ")", "[", "]", "x", " ", "a", "\r", "\u2028", "\u2029", "😀", "\u0301"), {
				maxLength: 12,
			})
			.map((pieces) => pieces.join(""));
		fc.assert(
			fc.property(line, (text) => {
				const whole = LIST_LINE.exec(text);
				const start = listLineStart(text);
				expectEqual(start === null, whole === null);
				if (whole && start) expectEqual([start[1], start[2]], [whole[1], whole[2]]);
			}),
			{ numRuns: 5_000 },
		);
	});

	test("the style of a note of 40,000 list lines is found without running the whole list pattern over each line (most of a megabyte append's one piece)", () => {
		const note = Array.from({ length: 40_000 }, (_, index) => `${"  ".repeat(index % 3)}- [ ] task ${index} 📅 2025-01-02 🔁 every week`).join("\n");
		const exec = Object.getOwnPropertyDescriptor(RegExp.prototype, "exec")?.value as (this: RegExp, text: string) => RegExpExecArray | null;
		let whole = 0;
		const spy = replaceMethod(RegExp.prototype, "exec", function (this: RegExp, text: string) {
			if (this.source.endsWith(".*|)$")) whole++;
			return exec.call(this, text);
		});
		let format: ReturnType<typeof detectFormat>;
		let outline: boolean;
		try {
			outline = isOutline(note, undefined);
			format = detectFormat(note);
		} finally {
			spy.restore();
		}
		expect(outline).toBe(true);
		expect(format).toEqual({ lineEnding: "\n", finalNewline: false, indentUnit: "  ", marker: "-" });
		// Before: 80,000 (each line, twice).
		expect(whole).toBe(0);
	});

	test("appending to a megabyte note copies none of its text into a joined array (joining its slice was 10–50 ms of the append's one piece)", () => {
		const note = `${Array.from({ length: 20_000 }, (_, index) => `para ${index} 📅 2025-01-02 text`).join("\n\n")}\n`;
		const join = Object.getOwnPropertyDescriptor(Array.prototype, "join")?.value as (this: unknown[], separator?: string) => string;
		let longest = 0;
		const spy = replaceMethod(Array.prototype, "join", function (this: unknown[], separator?: string) {
			for (const item of this) if (typeof item === "string") longest = Math.max(longest, item.length);
			return join.call(this, separator);
		});
		let text: string;
		try {
			text = append(note, "added");
		} finally {
			spy.restore();
		}
		expect(text).toBe(`${note}\nadded\n`);
		// Before: the note's whole text, in one join.
		expect(longest).toBeLessThan(1_000);
	});
});

describe("a note opening with many byte-order marks", () => {
	test("each edit reads past the first mark only, and answers: not one nested edit a mark (a stack overflow for 200,000 marks)", () => {
		const marks = "\uFEFF".repeat(200_000);
		const note = `${marks}# Plan\n- a\n`;
		const format = detectFormat(note);
		const edits = [
			appendToEnd(note, "added", "freeform", format),
			appendUnderHeading(note, "Plan", "added", "freeform", format),
			insertUnderBullet(note, "a", "added", format),
		];
		// Past one mark line 0 still starts with the marks that follow, so it is no heading (refused); the bullet on line 1 is found.
		expect(edits.map((edit) => edit.ok)).toEqual([true, false, true]);
		expect(edits[0]?.ok && edits[0].value.text.startsWith(marks)).toBe(true);
	});
});
