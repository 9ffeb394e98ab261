import fc from "fast-check";
import {
	changeTaskInNote,
	changeTaskStatus,
	DEFAULT_COMPLETION_SETTINGS,
	lineTaskFormat,
	mayBeTaskLine,
	type CompletionSettings,
	type TaskFormat,
} from "../../../src/markdown/taskCompletion";

const TODAY = "2026-11-30";

function lines(line: string, status: string, format: TaskFormat, settings: Partial<CompletionSettings> = {}): string[] | string {
	const result = changeTaskStatus(line, status, TODAY, format, { ...DEFAULT_COMPLETION_SETTINGS, ...settings });
	return result.ok ? result.value.lines : result.error;
}

describe("changeTaskStatus in the Tasks emoji format", () => {
	test.each<[string, string, string, string[]]>([
		["done gets a done date", "- [ ] Order seeds 📅 2026-12-05", "x", ["- [x] Order seeds 📅 2026-12-05 ✅ 2026-11-30"]],
		["a task without text", "- [ ] ", "x", ["- [x]  ✅ 2026-11-30"]],
		["a single trailing space is dropped", "- [ ] foo ", "x", ["- [x] foo ✅ 2026-11-30"]],
		["a hard break (two or more spaces) is kept at the end", "- [ ] foo   ", "x", ["- [x] foo ✅ 2026-11-30   "]],
		["indented, numbered and quoted tasks keep their prefix", "\t\t1. [ ] Nested", "x", ["\t\t1. [x] Nested ✅ 2026-11-30"]],
		["a task in a quote", "> - [ ] Quoted", "x", ["> - [x] Quoted ✅ 2026-11-30"]],
		["cancelled gets a cancelled date", "- [ ] Call the plumber 📅 2026-12-01", "-", ["- [-] Call the plumber 📅 2026-12-01 ❌ 2026-11-30"]],
		["in progress gets no date", "- [ ] Draft the plan", "/", ["- [/] Draft the plan"]],
		["reopening drops the done date", "- [x] Measure the fence ✅ 2026-11-20", " ", ["- [ ] Measure the fence"]],
		["done to cancelled swaps the dates", "- [x] Measure the fence ✅ 2026-11-20", "-", ["- [-] Measure the fence ❌ 2026-11-30"]],
		["done as X keeps the earlier done date", "- [x] Measure the fence ✅ 2026-11-20", "X", ["- [X] Measure the fence ✅ 2026-11-20"]],
		[
			"fields are written in Tasks' order",
			"- [ ] Pay rent 📅 2026-12-01 ⏫ ➕ 2026-11-01 🛫 2026-11-28",
			"x",
			["- [x] Pay rent ⏫ ➕ 2026-11-01 🛫 2026-11-28 📅 2026-12-01 ✅ 2026-11-30"],
		],
		[
			"a field in the middle of the text stays text",
			"- [ ] Ask 📅 2026-12-01 about the shed",
			"x",
			["- [x] Ask 📅 2026-12-01 about the shed ✅ 2026-11-30"],
		],
		[
			"trailing tags are kept after the text, the block link at the end",
			"- [ ] Water #garden 📅 2026-12-01 #daily ^water",
			"x",
			["- [x] Water #garden #daily 📅 2026-12-01 ✅ 2026-11-30 ^water"],
		],
		["id and dependsOn", "- [ ] Build 🆔 abc ⛔ x1, y2", "x", ["- [x] Build 🆔 abc ⛔ x1,y2 ✅ 2026-11-30"]],
		["the emoji's variation selector and a missing space are read", "- [ ] Sow 📅️2026-12-03", "x", ["- [x] Sow 📅 2026-12-03 ✅ 2026-11-30"]],
		[
			"recurring daily: next occurrence above",
			"- [ ] I am a recurring task 🔁 every day 📅 2022-09-04",
			"x",
			["- [ ] I am a recurring task 🔁 every day 📅 2022-09-05", "- [x] I am a recurring task 🔁 every day 📅 2022-09-04 ✅ 2026-11-30"],
		],
		[
			"recurring weekly on a weekday, all dates moved",
			"- [ ] Bins out 🔁 every week on Monday 🛫 2026-11-29 📅 2026-11-30",
			"x",
			[
				"- [ ] Bins out 🔁 every week on Monday 🛫 2026-12-06 📅 2026-12-07",
				"- [x] Bins out 🔁 every week on Monday 🛫 2026-11-29 📅 2026-11-30 ✅ 2026-11-30",
			],
		],
		[
			"recurring monthly on the 1st, priority kept, block link and id not copied",
			"- [ ] Pay rent ⏫ 🔁 every month on the 1st 🆔 rent 📅 2026-12-01 ^rent",
			"x",
			[
				"- [ ] Pay rent ⏫ 🔁 every month on the 1st 📅 2027-01-01",
				"- [x] Pay rent 🆔 rent ⏫ 🔁 every month on the 1st 📅 2026-12-01 ✅ 2026-11-30 ^rent",
			],
		],
		[
			"recurring monthly from the 31st",
			"- [ ] Invoice 🔁 every month 📅 2026-01-31",
			"x",
			["- [ ] Invoice 🔁 every month 📅 2026-02-28", "- [x] Invoice 🔁 every month 📅 2026-01-31 ✅ 2026-11-30"],
		],
		[
			"recurring when done counts from today",
			"- [ ] Haircut 🔁 every 4 weeks when done 📅 2026-10-01",
			"x",
			["- [ ] Haircut 🔁 every 4 weeks when done 📅 2026-12-28", "- [x] Haircut 🔁 every 4 weeks when done 📅 2026-10-01 ✅ 2026-11-30"],
		],
		[
			"a recurring task's rule is written in rrule's words",
			"- [ ] Stretch 🔁 Every Weekday ⏳ 2026-12-04",
			"x",
			["- [ ] Stretch 🔁 every weekday ⏳ 2026-12-07", "- [x] Stretch 🔁 every weekday ⏳ 2026-12-04 ✅ 2026-11-30"],
		],
		[
			"a recurring task without dates recurs without dates",
			"- [ ] Tidy 🔁 every day",
			"x",
			["- [ ] Tidy 🔁 every day", "- [x] Tidy 🔁 every day ✅ 2026-11-30"],
		],
		[
			"cancelling a recurring task makes no next occurrence",
			"- [ ] Bins out 🔁 every week 📅 2026-11-30",
			"-",
			["- [-] Bins out 🔁 every week 📅 2026-11-30 ❌ 2026-11-30"],
		],
		["🏁 delete removes the completed task", "- [ ] Temporary 🏁 delete", "x", []],
		[
			"🏁 delete on a recurring task keeps only the next occurrence",
			"- [ ] Check mail 🔁 every day 🏁 delete ⏳ 2024-12-31",
			"x",
			["- [ ] Check mail 🔁 every day 🏁 delete ⏳ 2025-01-01"],
		],
		["🏁 keep is written back", "- [ ] Keep me 🏁 keep", "x", ["- [x] Keep me 🏁 keep ✅ 2026-11-30"]],
	])("%s", (_name, line, status, expected) => {
		expect(lines(line, status, "emoji")).toEqual(expected);
	});
});

describe("changeTaskStatus in the Tasks Dataview format", () => {
	test.each<[string, string, string, string[]]>([
		[
			"done gets [completion:: …], two spaces before each field as Tasks writes them",
			"\t- [ ] Write to the allotment society [due:: 2026-12-01]",
			"x",
			["\t- [x] Write to the allotment society  [due:: 2026-12-01]  [completion:: 2026-11-30]"],
		],
		["round brackets are read", "- [ ] Write (due:: 2026-12-01)", "x", ["- [x] Write  [due:: 2026-12-01]  [completion:: 2026-11-30]"]],
		["cancelled gets [cancelled:: …]", "- [ ] Call [due:: 2026-12-01]", "-", ["- [-] Call  [due:: 2026-12-01]  [cancelled:: 2026-11-30]"]],
		[
			"priority and dates in Tasks' order",
			"- [ ] Pay [due:: 2026-12-01] [priority:: high] [start:: 2026-11-28]",
			"x",
			["- [x] Pay  [priority:: high]  [start:: 2026-11-28]  [due:: 2026-12-01]  [completion:: 2026-11-30]"],
		],
		[
			"recurring weekly",
			"- [ ] Review [repeat:: every week] [due:: 2026-12-01]",
			"x",
			["- [ ] Review  [repeat:: every week]  [due:: 2026-12-08]", "- [x] Review  [repeat:: every week]  [due:: 2026-12-01]  [completion:: 2026-11-30]"],
		],
		[
			"recurring monthly on the 1st, when done",
			"- [ ] Backup [repeat:: every month on the 1st when done] [scheduled:: 2026-10-01]",
			"x",
			[
				"- [ ] Backup  [repeat:: every month on the 1st when done]  [scheduled:: 2026-12-01]",
				"- [x] Backup  [repeat:: every month on the 1st when done]  [scheduled:: 2026-10-01]  [completion:: 2026-11-30]",
			],
		],
		["reopening drops [completion:: …]", "- [x] Done thing  [completion:: 2026-11-01]", " ", ["- [ ] Done thing"]],
	])("%s", (_name, line, status, expected) => {
		expect(lines(line, status, "dataview")).toEqual(expected);
	});
});

describe("changeTaskStatus with the Tasks plugin's settings", () => {
	const recurring = "- [ ] Bins out 🔁 every week ⏳ 2026-11-28 📅 2026-11-30";
	test.each<[string, Partial<CompletionSettings>, string[]]>([
		[
			"next occurrence below",
			{ recurrenceOnNextLine: true },
			["- [x] Bins out 🔁 every week ⏳ 2026-11-28 📅 2026-11-30 ✅ 2026-11-30", "- [ ] Bins out 🔁 every week ⏳ 2026-12-05 📅 2026-12-07"],
		],
		[
			"no done date",
			{ setDoneDate: false },
			["- [ ] Bins out 🔁 every week ⏳ 2026-12-05 📅 2026-12-07", "- [x] Bins out 🔁 every week ⏳ 2026-11-28 📅 2026-11-30"],
		],
		[
			"created date on the new occurrence",
			{ setCreatedDate: true },
			[
				"- [ ] Bins out 🔁 every week ➕ 2026-11-30 ⏳ 2026-12-05 📅 2026-12-07",
				"- [x] Bins out 🔁 every week ⏳ 2026-11-28 📅 2026-11-30 ✅ 2026-11-30",
			],
		],
		[
			"scheduled date removed on recurrence",
			{ removeScheduledDateOnRecurrence: true },
			["- [ ] Bins out 🔁 every week 📅 2026-12-07", "- [x] Bins out 🔁 every week ⏳ 2026-11-28 📅 2026-11-30 ✅ 2026-11-30"],
		],
	])("%s", (_name, settings, expected) => {
		expect(lines(recurring, "x", "emoji", settings)).toEqual(expected);
	});

	test("a custom done status and the status its next occurrence starts in come from the Tasks settings", () => {
		// d → w → / → d: no TODO status in the chain, so the first IN_PROGRESS one, as Tasks picks it.
		const statuses = {
			...DEFAULT_COMPLETION_SETTINGS.statuses,
			d: { type: "DONE" as const, next: "w" },
			w: { type: "ON_HOLD" as const, next: "/" },
			"/": { type: "IN_PROGRESS" as const, next: "d" },
		};
		expect(lines("- [ ] Paint 🔁 every day 📅 2026-11-30", "d", "emoji", { statuses })).toEqual([
			"- [/] Paint 🔁 every day 📅 2026-12-01",
			"- [d] Paint 🔁 every day 📅 2026-11-30 ✅ 2026-11-30",
		]);
		// With Tasks' defaults the chain reaches a TODO status: a space.
		expect(lines("- [ ] Paint 🔁 every day 📅 2026-11-30", "x", "emoji", { statuses })[0]).toBe("- [ ] Paint 🔁 every day 📅 2026-12-01");
	});
});

describe("changeTaskStatus refuses, changing nothing", () => {
	test.each([
		["a line that is not a task", "- Just a bullet", "x", "not a task"],
		["a task already in that status", "- [x] Done ✅ 2026-11-20", "x", "already has status 'x'"],
		["a recurrence Tasks cannot read (Tasks would drop it)", "- [ ] Odd 🔁 every blue moon 📅 2026-12-01", "x", 'recurrence "every blue moon"'],
	])("%s", (_name, line, status, message) => {
		expect(lines(line, status, "emoji")).toEqual(expect.stringContaining(message));
	});
});

describe("lineTaskFormat", () => {
	test.each([
		["- [ ] Write [due:: 2026-12-01]", "dataview"],
		["- [ ] Write (repeat:: every day)", "dataview"],
		["- [ ] Write 📅 2026-12-01", "emoji"],
		["- [ ] Write 🔁 every day", "emoji"],
		["- [ ] Write", null],
	])("%s → %s", (line, format) => {
		expect(lineTaskFormat(line)).toBe(format);
	});
});

test.each([
	["- [ ] Rent 🔁 every month 📅 2026-02-30", "emoji"],
	["- [ ] Rent 🔁 every week 🛫 2026-04-31 📅 2026-05-01", "emoji"],
	["- [ ] Rent [repeat:: every month] [due:: 2026-02-29]", "dataview"],
] as Array<[string, TaskFormat]>)(
	"a recurring task with a date that does not exist (%s) is an error, not a next occurrence counted from another day",
	(line, format) => {
		expect(lines(line, "x", format)).toMatch(/"2026-0[245]-(30|31|29)" is not a real date.*Nothing was changed/);
	},
);

describe("changeTaskInNote", () => {
	const tasksOf = (note: string) =>
		note.split("\n").flatMap((line, index) => (/^\s*[-*] \[(.)\]/.exec(line) ? [{ line: index, status: /\[(.)\]/.exec(line)?.[1] ?? " " }] : []));
	const change = (note: string, line: number, text: string, vaultFormat: TaskFormat = "emoji", listLimit = 20) =>
		changeTaskInNote(note, { line, text, status: "x", today: TODAY, vaultFormat, settings: DEFAULT_COMPLETION_SETTINGS, tasks: tasksOf(note), listLimit });

	test("the line is replaced and the lines around it are kept byte for byte, CRLF included", () => {
		const note = "# T\r\n- [ ] A 🔁 every day 📅 2026-11-30\r\n- [ ] B\r\n";
		expect(change(note, 1, "A 🔁 every day 📅 2026-11-30")).toMatchObject({
			ok: true,
			value: {
				text: "# T\r\n- [ ] A 🔁 every day 📅 2026-12-01\r\n- [x] A 🔁 every day 📅 2026-11-30 ✅ 2026-11-30\r\n- [ ] B\r\n",
				line: 2,
				nextLine: 1,
			},
		});
	});

	test.each<[string, string, TaskFormat, string]>([
		["the task line's own format wins over the vault's", "- [ ] A 📅 2026-12-01\n", "dataview", "- [x] A 📅 2026-12-01 ✅ 2026-11-30\n"],
		["else the note's other tasks", "- [ ] A\n- [ ] B [due:: 2026-12-01]\n", "emoji", "- [x] A  [completion:: 2026-11-30]\n- [ ] B [due:: 2026-12-01]\n"],
		["else the vault's Tasks setting", "- [ ] A\n", "dataview", "- [x] A  [completion:: 2026-11-30]\n"],
	])("%s", (_name, note, vaultFormat, expected) => {
		expect(change(note, 0, note.slice(6, note.indexOf("\n")), vaultFormat)).toMatchObject({ ok: true, value: { text: expected } });
	});

	test("any task of any note: the note's other lines are kept byte for byte around the task's new lines (a deleted task leaves no line)", () => {
		const LINES = [
			"# H",
			"",
			"text",
			"- [ ] A 📅 2026-12-01",
			"- [ ] B 🔁 every day 📅 2026-11-30",
			"- [ ] C 🏁 delete 🔁 every day 📅 2026-11-30",
			"- [ ] E 🏁 delete",
			"  - [ ] child",
			"- [x] done",
			"- [ ] D\r",
		];
		fc.assert(
			fc.property(fc.array(fc.constantFrom(...LINES), { minLength: 1, maxLength: 12 }), fc.boolean(), fc.nat(), (noteLines, finalNewline, pick) => {
				const note = noteLines.join("\n") + (finalNewline ? "\n" : "");
				const tasks = tasksOf(note).filter((task) => task.status === " ");
				const task = tasks[pick % Math.max(1, tasks.length)];
				if (!task) return;
				const line = note.split("\n")[task.line] ?? "";
				const result = change(note, task.line, line.replace(/\r$/, "").replace(/^\s*- \[.\] /, ""));
				if (!result.ok) return;
				const expected = note.split("\n");
				expected.splice(task.line, 1, ...result.value.lines.map((each) => each + (line.endsWith("\r") ? "\r" : "")));
				expect(result.value.text).toBe(expected.join("\n"));
			}),
			{ numRuns: 1000 },
		);
	});

	test("a task that is not on its line lists the open tasks with their lines, up to the limit", () => {
		const note = "- [ ] A\n- [x] Done\n- [ ] B\n- [ ] C\n";
		const result = change(note, 0, "B", "emoji", 2);
		expect(result).toEqual({ ok: false, error: expect.stringContaining("Its open tasks: line 0: A; line 2: B (and 1 more).") });
	});

	test("a line the metadata cache does not know as a task is not one", () => {
		const note = "```\n- [ ] In code\n```\n";
		expect(
			changeTaskInNote(note, {
				line: 1,
				text: "In code",
				status: "x",
				today: TODAY,
				vaultFormat: "emoji",
				settings: DEFAULT_COMPLETION_SETTINGS,
				tasks: [],
				listLimit: 20,
			}),
		).toEqual({ ok: false, error: expect.stringContaining("It has no open tasks.") });
	});
});

describe("hostile task lines are read in time linear in their length", () => {
	// Patterns of the shapes that backtrack: runs that two quantifiers could share, an opener
	// repeated without its closer, a valid field broken by its last character. Under the old ⛔
	// pattern a 117-character line of ids took 21 s; these are 60,000 characters.
	const LENGTH = 60_000;
	const run = (piece: string) => piece.repeat(Math.ceil(LENGTH / piece.length)).slice(0, LENGTH);
	const openers = ["⛔", "⛔ a", "🔁", "🔁 every", "🆔", "🏁", "📅", "✅", "[dependsOn::", "(dependsOn::", "[repeat::", "[due::", "[id::"];
	const bodies = [
		(opener: string) => `${opener} ${run("a , ")}!`,
		(opener: string) => `${opener}${run(" ")}!`,
		(opener: string) => `${opener} ${run("a ")}!`,
		(opener: string) => run(`${opener} `),
		(opener: string) => `${opener} ${run("1")}]!`,
	];
	const hostile = [
		...openers.flatMap((opener) => bodies.map((body) => body(opener))),
		run("["),
		run("("),
		run("#a"),
		`x${run(" ")}x`,
		run("# "),
		`${run("1-")}`,
	];

	test.each(["emoji", "dataview"] as const)("%s format: every hostile line is answered, its text kept whole", (format) => {
		for (const body of hostile) {
			const result = changeTaskStatus(`- [ ] ${body}`, "-", TODAY, format);
			// Cancelling writes the task back with a date, every character of its text kept; a recurrence
			// rule made of the hostile text is refused as one Tasks cannot read.
			if (!result.ok) expect(result.error).toMatch(/^The task's recurrence ".*" is not a rule the Tasks plugin can read/su);
			else expect((result.value.lines[0] ?? "").replace(/\s+/g, "")).toContain(body.replace(/\s+/g, "").slice(0, 1000));
		}
	});

	test("a long list of ids that a task depends on is read whole", () => {
		const ids = Array.from({ length: 5_000 }, (_unused, index) => `t${index}`);
		expect(lines(`- [ ] Ship ⛔ ${ids.join(" , ")}`, "x", "emoji")).toEqual([`- [x] Ship ⛔ ${ids.join(",")} ✅ ${TODAY}`]);
		expect(lines(`- [ ] Ship [dependsOn:: ${ids.join(", ")}]`, "x", "dataview")).toEqual([
			`- [x] Ship  [dependsOn:: ${ids.join(",")}]  [completion:: ${TODAY}]`,
		]);
	});
});

describe("mayBeTaskLine: whether a line can be the task asked for, the note not parsed", () => {
	test.each<[string, string, number, string, boolean]>([
		["the task itself", "# T\n- [ ] Water plants\n", 1, "Water plants", true],
		["a CRLF line, the text given with spaces round it", "a\r\n* [x] Water plants \r\nb", 1, " Water plants", true],
		["a task in a quote in a list item", "> - [ ] Water plants", 0, "Water plants", true],
		["the note's last line, no line break after it", "x\n1. [/] Water plants", 1, "Water plants", true],
		["another task's text", "- [ ] Water plants\n", 0, "Water", false],
		["a plain line holding the text", "Water plants\n", 0, "Water plants", false],
		["a line past the end", "- [ ] Water plants\n", 2, "Water plants", false],
		["a line far past the end", "- [ ] Water plants", 2 ** 30, "Water plants", false],
	])("%s", (_name, note, line, text, may) => {
		expect(mayBeTaskLine(note, line, text)).toBe(may);
	});

	test("a line it turns down is refused by changeTaskInNote whatever tasks it is told the note has", () => {
		const lineOf = fc.constantFrom("- [ ] a", "- [x] a ", "* [ ] b", "> - [ ] a", "a", "", "- a", "  - [-] a\r", "1) [ ] a");
		fc.assert(
			fc.property(fc.array(lineOf, { maxLength: 6 }), fc.nat(7), fc.constantFrom("a", "b", " a"), (lines, line, text) => {
				const note = lines.join("\n");
				if (mayBeTaskLine(note, line, text)) return;
				const everyLine = lines.map((_, index) => ({ line: index, status: " " }));
				const change = {
					line,
					text,
					status: "x",
					today: TODAY,
					vaultFormat: "emoji" as const,
					settings: DEFAULT_COMPLETION_SETTINGS,
					tasks: everyLine,
					listLimit: 5,
				};
				expect(changeTaskInNote(note, change).ok).toBe(false);
			}),
		);
	});
});
