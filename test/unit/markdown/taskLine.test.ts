import { dateProblem, formatTaskLine, isTaskStatusSymbol, ISO_DATE, taskStatusCharOf, taskText } from "../../../src/markdown/taskLine";

describe("taskText", () => {
	test("text that starts like a list marker stays the task's text", () => {
		expect(taskText("- [ ] - foo")).toBe("- foo");
		expect(taskText("- [ ] 1. foo")).toBe("1. foo");
		expect(taskText("1. [ ] * foo")).toBe("* foo");
		expect(taskText("- [x] + bar")).toBe("+ bar");
		expect(taskText("- [ ] - [ ] foo")).toBe("- [ ] foo");
		expect(taskText("    > - [/] 2) bar")).toBe("2) bar");
	});

	test("items opened on the same line: the task is the innermost item", () => {
		expect(taskText("- - [ ] foo")).toBe("foo");
		expect(taskText("1. - [x] foo")).toBe("foo");
		expect(taskText("- 1) [ ] - foo")).toBe("- foo");
	});
});

describe("dates", () => {
	test("ISO_DATE takes YYYY-MM-DD only", () => {
		expect(ISO_DATE.test("2025-01-31")).toBe(true);
		expect(ISO_DATE.test("2025-1-31")).toBe(false);
	});
	test("dateProblem names a date that is not real, and passes a real one", () => {
		expect(dateProblem("2025-01-31")).toBeNull();
		expect(dateProblem("2025-13-01")).toBe('"2025-13-01" is not a real date. Use YYYY-MM-DD.');
	});
	test.each(["2026-02-30", "2026-02-29", "2026-04-31", "2026-00-10", "2026-01-00"])(
		"%s, a day its month does not have, is not real (JavaScript's Date would roll it into the next month)",
		(date) => {
			expect(dateProblem(date)).toBe(`"${date}" is not a real date. Use YYYY-MM-DD.`);
		},
	);
	test("29 February of a leap year is real", () => {
		expect(dateProblem("2028-02-29")).toBeNull();
	});
});

describe("formatTaskLine", () => {
	test("writes the due date in the Tasks plugin's emoji or Dataview's field", () => {
		expect(formatTaskLine("-", "Water the herbs", undefined, "emoji")).toBe("- [ ] Water the herbs");
		expect(formatTaskLine("*", "Water the herbs", "2026-12-01", "emoji")).toBe("* [ ] Water the herbs 📅 2026-12-01");
		expect(formatTaskLine("-", "Water the herbs", "2026-12-01", "dataview")).toBe("- [ ] Water the herbs [due:: 2026-12-01]");
	});
});

describe("taskStatusCharOf", () => {
	test("the checkbox character of a task line, behind quotes, indentation and nested markers", () => {
		expect(taskStatusCharOf("- [ ] open")).toBe(" ");
		expect(taskStatusCharOf("\t* [x] done")).toBe("x");
		expect(taskStatusCharOf("> 1. - [-] dropped")).toBe("-");
		expect(taskStatusCharOf("3) [/] doing")).toBe("/");
		expect(taskStatusCharOf("- [ ]")).toBe(" ");
		// A task in a quote in a list item: a task to the parser (read as no task line, list_tasks dropped it and parsed its note on every call).
		expect(taskStatusCharOf("- > - [ ] foo")).toBe(" ");
		expect(taskStatusCharOf("1. > * [x] bar")).toBe("x");
	});

	test("none for a line that is not a task line", () => {
		for (const line of [
			"tags: [alpha]",
			"---",
			"plain [x] text",
			"- plain item",
			"[ ] no marker",
			"",
			"-[ ] no space",
			"> [x] quoted",
			"- > [x] quoted in an item",
		])
			expect(taskStatusCharOf(line)).toBeUndefined();
	});
});

describe("isTaskStatusSymbol", () => {
	test.each(["x", " ", "-", "/", "[", "🔁"])("%j can stand in a checkbox", (symbol) => {
		expect(isTaskStatusSymbol(symbol)).toBe(true);
		expect(taskStatusCharOf(`- [${symbol}] task`)).toBe(symbol);
	});

	// "\uD800", "\uDC00": half a surrogate pair, which UTF-8 writes as U+FFFD (a status no file can hold).
	test.each(["", "xx", "\n", "\r", "]", "\n- [ ] planted", "\u2028", "\u2029", "\uD800", "\uDC00"])(
		"%j cannot: a task line written with it would not be one task line, or not the one written",
		(symbol) => {
			expect(isTaskStatusSymbol(symbol)).toBe(false);
		},
	);

	test.each(["\u2028", "\u2029"])("%j, which a regular expression's `.` does not take, is no status to the task parser either", (symbol) => {
		expect(taskStatusCharOf(`- [${symbol}] task`)).toBeUndefined();
	});
});
