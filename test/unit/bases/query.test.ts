import fc from "fast-check";
import { parseBaseFile } from "../../../src/bases/baseFile";
import { EvaluationBudget } from "../../../src/bases/evaluationContext";
import { runBaseQuery, type BaseQueryOptions, type BaseQueryResult } from "../../../src/bases/query";
import type { BaseFile } from "../../../src/bases/values";
import {
	BASES_FILTER_ERRORS_LISTED,
	BASES_MAX_EVAL_STEPS,
	BASES_MAX_LIST_ITEMS,
	BASES_MAX_PIECE_MS,
	BASES_MAX_QUERY_WORK_MS,
} from "../../../src/config/limits";
import { baseFile, baseVault } from "../../helpers/baseFiles";
import { replaceMethod } from "../../helpers/replaceMethod";

const BOOKS = [
	baseFile("Books/Dune.md", { status: "reading", pages: 600, rating: 5 }),
	baseFile("Books/Emma.md", { status: "done", pages: 400, rating: 4 }),
	baseFile("Books/Ulysses.md", { status: "dropped", pages: 700 }),
	baseFile("Books/Hobbit.md", { status: "done", pages: 300, rating: 5 }),
	baseFile("Inbox/idea.md", { status: "reading" }),
];
const SELF = baseFile("Books.base");

async function query(base: string, files: readonly BaseFile[] = BOOKS, options: Partial<BaseQueryOptions> = {}): Promise<BaseQueryResult> {
	const config = parseBaseFile(base);
	if (!config.ok) throw new Error(config.error);
	const result = await runBaseQuery(config.value, baseVault(files), files, SELF, {
		limit: 100,
		now: Date.UTC(2026, 11, 2),
		pause: () => Promise.resolve(),
		due: () => true,
		...options,
	});
	if (!result.ok) throw new Error(result.error);
	return result.value;
}

async function refusal(base: string, options: Partial<BaseQueryOptions> = {}, files: readonly BaseFile[] = BOOKS): Promise<string> {
	const config = parseBaseFile(base);
	if (!config.ok) throw new Error(config.error);
	const result = await runBaseQuery(config.value, baseVault(files), files, SELF, {
		limit: 100,
		now: 0,
		pause: () => Promise.resolve(),
		due: () => true,
		...options,
	});
	if (result.ok) throw new Error("answered");
	return result.error;
}

/** A query's budget on the test's own clock: `read()` is its time in ms, moved by the test as work is done. */
function budgetOnTestClock(read: () => number): EvaluationBudget {
	return new EvaluationBudget(BASES_MAX_EVAL_STEPS, () => {
		const start = read();
		return () => read() - start;
	});
}

describe("runBaseQuery: one view of a base over the visible files", () => {
	test("without views: every file, by name, in path order", async () => {
		const result = await query("");
		expect(result.view).toBe("All files");
		expect(result.columns).toEqual([{ id: "file.name", name: "file.name" }]);
		expect(result.rows.map((row) => row.path)).toEqual(["Books/Dune.md", "Books/Emma.md", "Books/Hobbit.md", "Books/Ulysses.md", "Inbox/idea.md"]);
		expect(result.rows[0]?.values).toEqual({ "file.name": "Dune.md" });
	});

	test("the base's and the view's filters both apply; columns carry their display names", async () => {
		const result = await query(`
filters: file.inFolder("Books")
properties:
  status:
    displayName: Status
views:
  - name: Finished
    filters: 'status == "done"'
    order: [file.basename, status, pages]
`);
		expect(result.rows.map((row) => row.values)).toEqual([
			{ "file.basename": "Emma", status: "done", pages: 400 },
			{ "file.basename": "Hobbit", status: "done", pages: 300 },
		]);
		expect(result.columns).toEqual([
			{ id: "file.basename", name: "file.basename" },
			{ id: "status", name: "Status" },
			{ id: "pages", name: "pages" },
		]);
		expect(result.total).toBe(2);
	});

	test("the first view by default, another by name; an unknown view is refused naming the views there are", async () => {
		const base = "views:\n  - name: One\n  - name: Two\n    filters: pages > 500\n";
		expect((await query(base)).view).toBe("One");
		const two = await query(base, BOOKS, { view: "Two" });
		expect(two.views).toEqual(["One", "Two"]);
		expect(two.rows.map((row) => row.path)).toEqual(["Books/Dune.md", "Books/Ulysses.md"]);
		expect(await refusal(base, { view: "Three" })).toBe('The base has no view "Three". Its views: "One", "Two".');
		expect(await refusal("", { view: "Any" })).toMatch(/Its views: none/);
	});

	test("sort DESC puts empty values last all the same, and ties go by path", async () => {
		const result = await query("views:\n  - name: V\n    order: [rating]\n    sort:\n      - property: rating\n        direction: DESC\n");
		expect(result.rows.map((row) => row.path)).toEqual(["Books/Dune.md", "Books/Hobbit.md", "Books/Emma.md", "Books/Ulysses.md", "Inbox/idea.md"]);
	});

	test("groupBy orders by the group first and gives each row its group", async () => {
		const result = await query("views:\n  - name: V\n    groupBy:\n      property: status\n    sort:\n      - property: pages\n        direction: DESC\n");
		expect(result.rows.map((row) => [row.group, row.path])).toEqual([
			["done", "Books/Emma.md"],
			["done", "Books/Hobbit.md"],
			["dropped", "Books/Ulysses.md"],
			["reading", "Books/Dune.md"],
			["reading", "Inbox/idea.md"],
		]);
	});

	test("the smaller of the call's limit and the view's limit applies; total and truncated say what was left out", async () => {
		const byView = await query("views:\n  - name: V\n    limit: 2\n");
		expect(byView.rows).toHaveLength(2);
		expect(byView).toMatchObject({ total: 5, truncated: true });
		const byCall = await query("views:\n  - name: V\n    limit: 4\n", BOOKS, { limit: 1 });
		expect(byCall.rows).toHaveLength(1);
		expect((await query("", BOOKS, { limit: 5 })).truncated).toBe(false);
	});

	test("a cell that cannot be computed is empty with its reason; the row stays", async () => {
		const result = await query(
			'formulas:\n  shout: status.repeat(-1)\nviews:\n  - name: V\n    order: [formula.shout]\n    filters: file.inFolder("Inbox")\n',
		);
		expect(result.rows).toEqual([
			{ path: "Inbox/idea.md", values: { "formula.shout": null }, errors: { "formula.shout": expect.stringContaining("repeat()") } },
		]);
	});

	test("formulas that each add up the next twenty, 190 deep, are the cell's error, not the stack's; a shallow chain is computed", async () => {
		const chain = (count: number, terms: number) =>
			Array.from({ length: count }, (_, index) => {
				const next = Array.from({ length: terms }, (_, step) => index + 1 + step).filter((other) => other < count);
				return `  w${index}: '${next.map((other) => `formula.w${other}`).join(" + ") || "1"}'`;
			}).join("\n");
		const base = (count: number, terms: number) =>
			`formulas:\n${chain(count, terms)}\nviews:\n  - name: V\n    order: [formula.w0]\n    filters: file.inFolder("Inbox")\n`;
		const deep = await query(base(190, 20));
		expect(deep.rows).toEqual([
			{ path: "Inbox/idea.md", values: { "formula.w0": null }, errors: { "formula.w0": expect.stringContaining("nest more than") } },
		]);
		// w0 = w1 + w2, … , w9 = 1: the Fibonacci numbers.
		const shallow = await query(base(10, 2));
		expect(shallow.rows).toEqual([{ path: "Inbox/idea.md", values: { "formula.w0": 55 } }]);
	});

	test(`a file whose filter cannot be evaluated is left out and reported: up to ${BASES_FILTER_ERRORS_LISTED} listed, all counted`, async () => {
		const many = Array.from({ length: BASES_FILTER_ERRORS_LISTED + 5 }, (_, index) => baseFile(`n${String(index).padStart(3, "0")}.md`, { title: 7 }));
		const result = await query('filters: title.startsWith("A")', [...many, baseFile("ok.md", { title: "A title" })]);
		expect(result.rows.map((row) => row.path)).toEqual(["ok.md"]);
		expect(result.filter_errors).toHaveLength(BASES_FILTER_ERRORS_LISTED);
		expect(result.filter_errors[0]).toEqual({ path: "n000.md", error: expect.stringContaining("startsWith") });
		expect(result.filter_errors_total).toBe(BASES_FILTER_ERRORS_LISTED + 5);
	});

	describe("lists made of lists count every item inside them: one held the server seconds in one step", () => {
		const list = `"a,".repeat(50000).split(",")`;
		const refs = (name: string, count: number) => `[${Array.from({ length: count }, () => `formula.${name}`).join(", ")}]`;
		// Steps decide, never the time a piece takes on a busy machine.
		const stoppedClock = () => () => 0;
		const one = (formulas: string, column: string) =>
			`formulas:\n${formulas}\nviews:\n  - name: V\n    order: [${column}]\n    filters: file.inFolder("Inbox")\n`;

		test(`a list holding more than ${BASES_MAX_LIST_ITEMS} items, counting those of the lists in it, is the cell's error, before it is printed or flattened`, async () => {
			const tooMany = expect.stringContaining(`more than ${BASES_MAX_LIST_ITEMS} items, counting those of the lists inside it`) as unknown;
			for (const column of [`${refs("l", 300)}.toString().length`, `${refs("l", 300)}.flat().length`, "formula.k.map([value, formula.l]).slice(0, 2)"]) {
				const result = await query(one(`  l: '${list}'\n  k: '"a,".repeat(10).split(",")'\n  n: '${column}'`, "formula.n"), BOOKS, {
					budget: new EvaluationBudget(BASES_MAX_EVAL_STEPS, stoppedClock),
				});
				expect(result.rows).toEqual([{ path: "Inbox/idea.md", values: { "formula.n": null }, errors: { "formula.n": tooMany } }]);
			}
			// Within the bound, the same lists are printed whole.
			const within = await query(one(`  l: '"a,".repeat(100).split(",")'\n  n: '${refs("l", 300)}.toString().length'`, "formula.n"));
			expect(within.rows[0]?.values).toEqual({ "formula.n": 300 * "a, ".repeat(100).length + ", ".length * 299 });
		});

		test("comparing, printing or sorting by such lists counts a step per item walked", async () => {
			const formulas = `  l: '${list}'\n  m: '${list}'\n  a: '${refs("l", 1)}'\n  b: '${refs("m", 1)}'`;
			// A list of 50,000 items compared, printed or made into JSON: more steps than the budget, whose other steps (the splits) are few.
			for (const column of ["formula.a == formula.b", "formula.a.toString()", "formula.a.contains(1)"]) {
				expect(await refusal(one(`${formulas}\n  n: '${column}'`, "formula.n"), { budget: new EvaluationBudget(40_000, stoppedClock) })).toMatch(
					/more than 40000 evaluation steps/,
				);
			}
			expect(await refusal(one(formulas, "formula.a"), { budget: new EvaluationBudget(40_000, stoppedClock) })).toMatch(
				/more than 40000 evaluation steps/,
			);
			const sorted = `formulas:\n  l: '${list}'\nviews:\n  - name: V\n    order: [file.name]\n    sort:\n      - property: formula.l\n        direction: ASC\n`;
			expect(await refusal(sorted, { budget: new EvaluationBudget(40_000, stoppedClock) })).toMatch(/more than 40000 evaluation steps/);
		});

		test("unique() counts what its comparisons walk: a thousand small lists are answered, lists of different megabyte texts of one length are refused", async () => {
			// 1,001 different pairs: half a million comparisons, each over at a pair's first number. It was refused (5 M steps charged).
			// Steps are what is checked here, so no clock bounds the piece: on a loaded machine its half a million comparisons passed the 1 s wall ceiling.
			const pairs = await query(one(`  n: '"a,".repeat(1000).split(",").map([index, index + 1]).unique().length'`, "formula.n"), BOOKS, {
				budget: new EvaluationBudget(BASES_MAX_EVAL_STEPS, stoppedClock, BASES_MAX_PIECE_MS, BASES_MAX_QUERY_WORK_MS, Number.POSITIVE_INFINITY),
			});
			expect(pairs.rows[0]?.values).toEqual({ "formula.n": 1001 });
			// The same pair twice is one.
			const same = await query(one(`  n: '"a,".repeat(1000).split(",").map([index % 2, 1]).unique()'`, "formula.n"));
			expect(same.rows[0]?.values).toEqual({
				"formula.n": [
					[0, 1],
					[1, 1],
				],
			});
			// Two texts equal but not the same text: each comparison of an item compares a megabyte.
			const texts = `  a: '"a".repeat(${2 ** 20})'\n  b: '"a".repeat(${2 ** 20 - 1}) + "a"'\n  l: '${refs("a", 300)}'\n  m: '${refs("b", 300)}'`;
			const both = await query(one(`${texts}\n  n: '[formula.l, formula.m].length'`, "formula.n"));
			expect(both.rows[0]?.values).toEqual({ "formula.n": 2 });
			expect(
				await refusal(one(`${texts}\n  n: '[formula.l, formula.m].unique()'`, "formula.n"), {
					budget: new EvaluationBudget(BASES_MAX_EVAL_STEPS, stoppedClock),
				}),
			).toMatch(/more than \d+ evaluation steps/);
		});
	});

	test("the clock is read after every regular expression's run: a filter of many runs cannot pass its piece's time unseen", async () => {
		// Each run of a pattern costs 60 ms on this clock: a run cannot be paused, and ten in one
		// filter were one piece of ten runs before anything looked at the time.
		let now = 0;
		let runs = 0;
		const test = replaceMethod(RegExp.prototype, "test", function (this: RegExp, text: string) {
			if (this.source !== "a?a?a?b*c") return RegExp.prototype.exec.call(this, text) !== null;
			runs++;
			now += 60;
			return false;
		});
		try {
			const matches = Array.from({ length: 10 }, () => "/a?a?a?b*c/.matches(file.name)").join(" || ");
			const error = await refusal(`filters: '${matches}'`, { budget: budgetOnTestClock(() => now) });
			expect(error).toMatch(/for one file took more than 100 ms/);
			// Stopped after the run that passed 100 ms (the second), not after all ten of the first file.
			expect(runs).toBe(2);
		} finally {
			test.restore();
		}
	});

	test("sort() reads the clock as it compares: a list's sort cannot pass its piece's time unseen", async () => {
		// Links compare by their text, after their types' names (`localeCompare`): each comparison costs 50 µs on this clock.
		// The sort's comparisons were charged before it and made in one native call no clock reading interrupted: a
		// note's 100,000 tags sorted in one piece of 412 ms of CPU.
		let now = 0;
		let comparisons = 0;
		// Compared by code unit, as the types' names are the same either way: the built-in called on a boxed `this` made a collator a call.
		const counting = replaceMethod(String.prototype, "localeCompare", function (this: string, other: string) {
			comparisons++;
			now += 0.05;
			const text = String(this);
			return text < other ? -1 : text > other ? 1 : 0;
		});
		const links = Array.from({ length: 3_000 }, (_, index) => ({ link: `n${(index * 7919) % 3_001}`, target: null }));
		const files = [baseFile("Hub.md", null, { links: () => links })];
		try {
			const error = await refusal(
				`formulas:\n  n: 'file.links.sort().length'\nviews:\n  - name: V\n    order: [formula.n]`,
				{ budget: budgetOnTestClock(() => now) },
				files,
			);
			expect(error).toMatch(/for one file took more than 100 ms/);
			// Stopped within a clock check of 100 ms (2,000 comparisons), not after the whole sort's (~33,000).
			expect(comparisons).toBeLessThan(4_000);
		} finally {
			counting.restore();
		}
		// A short list sorts as before: numbers, then texts, then empty values.
		const small = await query(`formulas:\n  n: '[3, "b", null, 1, "a"].sort()'\nviews:\n  - name: V\n    order: [formula.n]`, files);
		expect(small.rows[0]?.values).toEqual({ "formula.n": [1, 3, "a", "b", null] });
	});

	test("containsAny() reads the clock as it compares: its arguments' walks of a long list cannot pass the piece's time unseen", async () => {
		// Regular expressions compare as text (`RegExp.prototype.toString`, twice a comparison): each costs 25 µs on this clock.
		// Charged before, the arguments' walks ran as uncounted native loops (20 arguments over 40,000 items: one piece of 375 ms).
		let now = 0;
		let printed = 0;
		const toString = Object.getOwnPropertyDescriptor(RegExp.prototype, "toString")?.value as (this: RegExp) => string;
		const counting = replaceMethod(RegExp.prototype as { toString(this: RegExp): string }, "toString", function (this: RegExp) {
			printed++;
			now += 0.025;
			return toString.call(this);
		});
		try {
			const wanted = Array.from({ length: 10 }, (_, index) => `/${String.fromCharCode(98 + index)}/`).join(", ");
			const error = await refusal(
				`formulas:\n  n: '"x".repeat(3000).split("").map(/a/).containsAny(${wanted})'\nviews:\n  - name: V\n    order: [formula.n]`,
				{ budget: budgetOnTestClock(() => now) },
				[SELF],
			);
			expect(error).toMatch(/for one file took more than 100 ms/);
			// Stopped within a clock check of 100 ms (2,000 comparisons, 4,000 prints), not after all 30,000 comparisons.
			expect(printed).toBeLessThan(8_000);
		} finally {
			counting.restore();
		}
		// Still true when one argument is there, and false when none is.
		const found = await query(
			`formulas:\n  n: '[1, "b", /c/].containsAny(2, /c/)'\n  m: '[1, "b"].containsAny(2, "c")'\nviews:\n  - name: V\n    order: [formula.n, formula.m]`,
			[SELF],
		);
		expect(found.rows[0]?.values).toEqual({ "formula.n": true, "formula.m": false });
	});

	test("a list property is counted as its values are made: a long one cannot pass the piece's time unseen", async () => {
		// Each item is a map whose one field is read through a getter that costs 50 µs on this clock, as a date's
		// parse costs on the real one. Uncounted, the values of a property were made in one piece at each of its
		// references: 500 references to 1,990 dates were one piece of 260 ms, one `note.isEmpty()` over Obsidian's
		// unbounded lists of 100,000 items 550 ms.
		let now = 0;
		let read = 0;
		const items = Array.from({ length: 20_000 }, () =>
			Object.defineProperty({}, "at", {
				enumerable: true,
				get: () => {
					read++;
					now += 0.05;
					return "2026-12-02";
				},
			}),
		);
		const files = [baseFile("Hub.md", { list: items })];
		const error = await refusal(
			`formulas:\n  n: 'note.list.length'\nviews:\n  - name: V\n    order: [formula.n]`,
			{ budget: budgetOnTestClock(() => now) },
			files,
		);
		expect(error).toMatch(/for one file took more than 100 ms/);
		// Stopped within a clock check of 100 ms (2,000 items), not after all 20,000.
		expect(read).toBeLessThan(4_000);
	});

	test.each(["links", "tags", "embeds"])(
		"file.%s costs a step an item at each reference: a formula naming a long list many times is refused by its budget",
		async (field) => {
			// Made anew at each reference and uncounted: 200 references to a note's 100,000 links were one piece of 480 ms.
			const many = Array.from({ length: 3_000 }, (_, index) => `n${index}`);
			const links = many.map((link) => ({ link, target: null }));
			const files = [baseFile("Hub.md", null, { links: () => links, embeds: () => links, tags: () => many })];
			const base = `formulas:\n  n: 'file.${field}.length'\nviews:\n  - name: V\n    order: [formula.n]`;
			expect((await query(base, files)).rows[0]?.values).toEqual({ "formula.n": 3_000 });
			// 3,000 steps for the list, a few for the formula's nodes, the row and its cell: over 1,000.
			expect(await refusal(base, { budget: new EvaluationBudget(1_000) }, files)).toMatch(/more than 1000 evaluation steps/);
		},
	);

	test("a long text property costs a step to make, not one per 64 characters: its matches as a link and a date do not walk it", async () => {
		// 100 notes, each a summary of 64,000 characters made five times (isTruthy does not walk it): made by length,
		// 5,000 steps a note, 500,000 in all, on top of the walk of any method that reads the text. 10,000 notes of
		// 8 KB summaries under `summary.contains(…)` were refused at 2,000,000 steps that had answered at 1,520,000.
		const summary = "word ".repeat(12_800);
		const files = Array.from({ length: 100 }, (_, index) => baseFile(`n${String(index).padStart(3, "0")}.md`, { summary: `${summary}${index}` }));
		const base = `filters: 'summary.isTruthy() && note.summary.isTruthy() && file.properties.summary.isTruthy()'\nformulas:\n  e: 'summary.isTruthy() && note.summary.isTruthy()'\nviews:\n  - name: V\n    order: [file.name, formula.e]`;
		// Under 4,000 steps in all (the filter's and formula's nodes, the row, its cells), against 500,000 when made by length.
		const result = await query(base, files, { budget: new EvaluationBudget(20_000) });
		expect(result.rows).toHaveLength(100);
		expect(result.rows[0]?.values).toEqual({ "file.name": "n000.md", "formula.e": true });
		// A text that does begin a wikilink is walked by its match, and is counted by its length.
		const linkLike = Array.from({ length: 100 }, (_, index) => baseFile(`n${index}.md`, { summary: `[[${summary}` }));
		expect(await refusal(base, { budget: new EvaluationBudget(20_000) }, linkLike)).toMatch(/more than 20000 evaluation steps/);
	});

	test("a query over its budget is refused with what to do, not cut short silently", async () => {
		expect(await refusal("filters: pages > 1", { budget: new EvaluationBudget(3) })).toMatch(/more than 3 evaluation steps.*Add a filter/);
	});

	test("it pauses between rows, so a large vault does not hold the server", async () => {
		const files = Array.from({ length: 100 }, (_, index) => baseFile(`n${index}.md`));
		const pause = jest.fn(() => Promise.resolve());
		await query("", files, { pause });
		expect(pause.mock.calls.length).toBeGreaterThanOrEqual(5);
	});

	test("it pauses while it sorts the rows too: a sort of 10,000 rows' texts in one piece held the server 0.15 s", async () => {
		const files = Array.from({ length: 3000 }, (_, index) => baseFile(`n${String(index).padStart(4, "0")}.md`, { title: `t${(index * 7919) % 3000}` }));
		const pause = jest.fn(() => Promise.resolve());
		const result = await query("views:\n  - name: V\n    order: [title]\n    sort:\n      - property: title\n        direction: DESC\n", files, {
			pause,
			limit: 2,
		});
		expect(result.rows.map((row) => row.values.title)).toEqual(["t999", "t998"]);
		// One pause a file while filtering and one while reading its sort value, one a row returned: the rest are the sort's.
		expect(pause.mock.calls.length).toBeGreaterThan(2 * files.length + 2);
	});

	test("the CPU clock is read at the pauses that give the host its turn, not at every file's piece: two readings a piece were a fifth of a query's CPU", async () => {
		const files = Array.from({ length: 2000 }, (_, index) => baseFile(`n${String(index).padStart(4, "0")}.md`, { rank: (index * 7919) % 2000 }));
		const base = 'filters: "rank >= 10"\nviews:\n  - name: V\n    order: [file.name, rank]\n    sort:\n      - property: rank\n        direction: ASC\n';
		const unpaused = await query(base, files);
		// The host's slice is used up at every 50th question: 2000 filter pieces and 1990 sort pieces make about 80 slices.
		let asked = 0;
		let turns = 0;
		const due = () => ++asked % 50 === 0 && ++turns > 0;
		const readings = jest.spyOn(process, "cpuUsage");
		try {
			const sliced = await query(base, files, { due });
			expect(sliced).toEqual(unpaused);
			// A reading where a slice starts and one where it ends (it was two for each of 4,000 pieces).
			expect(readings.mock.calls.length).toBeLessThanOrEqual(2 * turns + 2);
			expect(turns).toBeGreaterThan(70);
		} finally {
			readings.mockRestore();
		}
	});

	test("a query's work adds up across its slices: pieces of little work each, many slices, refused once they pass the query's bound", async () => {
		let now = 0;
		const clock = () => {
			const start = now;
			return () => now - start;
		};
		// 4 ms of work a file, a turn every 2 files: 250 files are 1 s of work in 125 slices.
		const files = Array.from({ length: 400 }, (_, index) => baseFile(`n${String(index).padStart(3, "0")}.md`, {}));
		const test = replaceMethod(RegExp.prototype, "test", function (this: RegExp, text: string) {
			if (this.source !== "n") return RegExp.prototype.exec.call(this, text) !== null;
			now += 4;
			return true;
		});
		try {
			const config = parseBaseFile("filters: '/n/.matches(file.name)'");
			if (!config.ok) throw new Error(config.error);
			let asked = 0;
			const result = await runBaseQuery(config.value, baseVault(files), files, SELF, {
				limit: 100,
				now: 0,
				pause: () => Promise.resolve(),
				due: () => ++asked % 4 === 0,
				budget: new EvaluationBudget(BASES_MAX_EVAL_STEPS, clock),
			});
			expect(result).toEqual({ ok: false, error: expect.stringMatching(/more than 1 s of evaluation/) as unknown });
		} finally {
			test.restore();
		}
	});

	test("the answer does not depend on the order the host lists files in", async () => {
		const base = "views:\n  - name: V\n    order: [status]\n    sort:\n      - property: status\n";
		const expected = await query(base);
		await fc.assert(
			fc.asyncProperty(fc.shuffledSubarray(BOOKS, { minLength: BOOKS.length }), async (shuffled) => {
				expect(await query(base, shuffled)).toEqual(expected);
			}),
			{ numRuns: 30 },
		);
	});
});

describe("runBaseQuery with the answer's bound: rows stop where the answer is full", () => {
	const BASE = "views:\n  - type: table\n    name: T\n    order: [file.name, status, pages]\n";
	/** Bytes as plain JSON: enough to see where rows stop. */
	const asJson = (value: unknown) => JSON.stringify(value).length;

	test("as many rows as fit, the first in order, the rest counted: no cell of a row past them is evaluated", async () => {
		const whole = await query(BASE);
		const firstTwo = JSON.stringify(whole.rows.slice(0, 2));
		const withoutRows = asJson({ ...whole, rows: [] });
		let pauses = 0;
		const fitted = await query(BASE, BOOKS, {
			pause: () => Promise.resolve(void pauses++),
			// Room for two rows and a part of the third.
			fit: { maxBytes: withoutRows + firstTwo.length + 40, smallestBytes: asJson },
		});
		expect(fitted.rows).toEqual(whole.rows.slice(0, 2));
		expect(fitted.total).toBe(5);
		expect(fitted.truncated).toBe(true);
		// A pause before each cell (a row was one piece): the files filtered and sorted, two rows of three cells, and the third row's cells until it was full.
		expect(pauses).toBeLessThanOrEqual(5 + 5 + 3 * 3);
	});

	test("a view whose first row cannot fit is refused, naming its columns × rows, before its cells are all evaluated", async () => {
		const error = await refusal(BASE, { fit: { maxBytes: 200, smallestBytes: asJson } });
		expect(error).toMatch(/The view "T" has 3 columns × 5 rows, and not even its first row fits in an answer/);
	});

	test("with room for all, the answer is the one without a bound", async () => {
		expect(await query(BASE, BOOKS, { fit: { maxBytes: 1_000_000, smallestBytes: asJson } })).toEqual(await query(BASE));
	});
});

describe("runBaseQuery's pages: the next page starts where the last one ended", () => {
	const BY_RANK = "views:\n  - name: Ranked\n    sort:\n      - property: rank\n        direction: ASC\n";
	const ranked = (ranks: Record<string, number>) => Object.entries(ranks).map(([name, rank]) => baseFile(`R/${name}.md`, { rank }));
	const RANKS = { r1: 1, r2: 2, r3: 3, r4: 4, r5: 5, r6: 6, r7: 7 };
	const paths = (result: BaseQueryResult) => result.rows.map((row) => row.path.slice(2, -3));

	async function secondPage(changed: Record<string, number>): Promise<string[]> {
		const first = await query(BY_RANK, ranked(RANKS), { limit: 3 });
		expect(paths(first)).toEqual(["r1", "r2", "r3"]);
		expect(first.next).toBeDefined();
		return paths(await query(BY_RANK, ranked(changed), { limit: 3, ...(first.next ? { after: first.next } : {}) }));
	}

	test("the page's last row edited so that it sorts elsewhere moves nothing else: the rows after it are neither skipped nor repeated", async () => {
		// Sorted last now: every row after it was skipped.
		expect(await secondPage({ ...RANKS, r3: 100 })).toEqual(["r4", "r5", "r6"]);
		// Sorted first now: the page's other rows were given again.
		expect(await secondPage({ ...RANKS, r3: 0 })).toEqual(["r4", "r5", "r6"]);
	});

	test("the row after the page edited so that it sorts elsewhere moves nothing else either", async () => {
		expect(await secondPage({ ...RANKS, r4: 100 })).toEqual(["r5", "r6", "r7"]);
		expect(await secondPage({ ...RANKS, r4: 0 })).toEqual(["r5", "r6", "r7"]);
	});

	test("rows created before the cursor shift nothing; a row created right after it is listed", async () => {
		expect(await secondPage({ r0: 0, ...RANKS })).toEqual(["r4", "r5", "r6"]);
		expect(await secondPage({ ...RANKS, r3b: 3.5 })).toEqual(["r3b", "r4", "r5"]);
	});
});
