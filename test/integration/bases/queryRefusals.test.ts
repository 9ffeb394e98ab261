import { monitorEventLoopDelay } from "node:perf_hooks";
import { callError, callOk } from "../../helpers/tools";
import { openDocsVault } from "./docsVault";

/** Runs `base` as Query.base over the docs vault (Private excluded) and returns query_base's error text. */
async function queryError(base: string, args: Record<string, unknown> = {}): Promise<string> {
	const vault = await openDocsVault(base);
	try {
		return await callError(vault.client, "query_base", { path: "Query.base", ...args });
	} finally {
		await vault.close();
	}
}

describe("query_base refuses what it cannot evaluate faithfully, naming it", () => {
	test.each([
		[
			"a render-only function",
			`formulas:\n  bold: 'html("<b>" + file.name + "</b>")'`,
			/The function html\(\) is not supported: it only renders in Obsidian's view/,
		],
		["an icon", `views:\n  - type: table\n    name: T\n    filters: 'icon("plus") != null'`, /The function icon\(\) is not supported/],
		["a function added by a plugin", `filters: 'myPluginScore(file) > 2'`, /The function myPluginScore\(\) is not supported/],
		["a method outside the reference", `formulas:\n  upper: 'file.name.toUpperCase()'`, /The function toUpperCase\(\) is not supported/],
		["a summary's values outside a summary", `formulas:\n  mean: 'values.mean()'`, /The function mean\(\) is not supported/],
		[
			"a formula that does not exist",
			`views:\n  - type: table\n    name: T\n    order: [formula.missing]`,
			/uses formula\.missing, but the base defines no formula "missing"/,
		],
	])("%s", async (_label, base, message) => {
		expect(await queryError(base)).toMatch(message);
	});

	test.each([
		["YAML that does not parse", "filters: [unclosed", /^Query\.base: The base is not valid YAML/],
		["a filter with two conjunctions", "filters:\n  and: ['true']\n  or: ['true']", /must have exactly one of "and", "or" or "not"; it has "and", "or"/],
		["a conjunction that is not a list", "filters:\n  and: 'file.ext == \"md\"'", /"and" in filters must be a list of filters/],
		["an expression that stops early", "filters: 'price >'", /Cannot read the expression `price >`: it ends where a value was expected/],
		["an unclosed text", "filters: 'status == \"done'", /has no closing quote/],
		[
			"a sort direction that is not one",
			"views:\n  - type: table\n    name: T\n    sort:\n      - property: price\n        direction: UP",
			/direction "UP"; use ASC or DESC/,
		],
		["a limit that is not a number", "views:\n  - type: table\n    name: T\n    limit: many", /limit in the view "T" must be a whole number/],
		["views that are not a list", "views: table", /views must be a list/],
		["an expression nested too deep", `filters: '${"(".repeat(100)}1${")".repeat(100)}'`, /nested more than 64 levels deep/],
		// Within the file's size, each of these was parsed in one piece: 1.3 s, 10 s and 0.3 s.
		[
			"YAML brackets 125,000 deep",
			`filters: ${"[".repeat(125_000)}${"]".repeat(125_000)}`,
			/^Query\.base: The base is not read: it nests deeper than 256 levels/,
		],
		[
			"a map of 20,000 keys on one line",
			`properties: {${Array.from({ length: 20_000 }, (_, index) => `k${index}: 1`).join(", ")}}`,
			/The base is not read: it holds more than 2000 lines and list items/,
		],
		[
			"7,000 filter lines",
			`filters:\n  or:\n${Array.from({ length: 7000 }, (_, index) => `    - 'file.name == "n${index}"'`).join("\n")}`,
			/it has more than 2000 lines/,
		],
	])("a malformed base: %s", async (_label, base, message) => {
		expect(await queryError(base)).toMatch(message);
	});

	test("a view that does not exist is named, with the views there are", async () => {
		expect(await queryError("views:\n  - type: table\n    name: Books\n  - type: cards\n    name: Gallery", { view: "Table" })).toBe(
			'The base has no view "Table". Its views: "Books", "Gallery".',
		);
	});

	test("a base needing more work than one call may spend is refused, not left running", async () => {
		const base = `formulas:\n  heavy: '[${Array.from({ length: 450 }, (_, index) => index).join(",")}].map([${Array.from({ length: 450 }, (_, index) => index).join(",")}].map(value * 2).reduce(acc + value, 0))'\nviews:\n  - type: table\n    name: T\n    order: [formula.heavy]`;
		// Which bound ends it depends on the machine's speed and load, which the test does not control: the steps, the
		// piece's work, or (at load 20 in CI) the piece's wall time, BASES_MAX_PIECE_WALL_MS. Each refuses the base whole.
		expect(await queryError(base)).toMatch(
			/^The base needs more than \d+ evaluation steps|^The base's filters and formulas for one file (took|held the server) more than \d+ ms/,
		);
	});
});

describe("a base whose formulas work on megabyte texts ends within a second and holds no one up", () => {
	const formulas = Array.from({ length: 40 }, (_, index) => `  f${index}: '"a".repeat(1000000).replace("a", "bb").contains("c")'`).join("\n");
	const columns = Array.from({ length: 40 }, (_, index) => `formula.f${index}`).join(", ");
	test.each([
		["in the cells", `formulas:\n${formulas}\nviews:\n  - type: table\n    name: T\n    order: [${columns}]`],
		[
			"in a filter",
			`filters:\n  and:\n${Array.from({ length: 40 }, () => `    - '"a".repeat(1000000).replace("a", "bb").contains("c") || true'`).join("\n")}`,
		],
		[
			"in a sort key",
			`formulas:\n${formulas}\nviews:\n  - type: table\n    name: T\n    sort:\n${Array.from({ length: 40 }, (_, index) => `      - property: formula.f${index}\n        direction: ASC`).join("\n")}`,
		],
	])("%s", async (_label, base) => {
		const vault = await openDocsVault(base);
		const delay = monitorEventLoopDelay({ resolution: 10 });
		try {
			delay.enable();
			const started = performance.now();
			const result = await vault.client.callTool({ name: "query_base", arguments: { path: "Query.base" } });
			const took = performance.now() - started;
			delay.disable();
			// Each text is refused as too long for replace(): in a cell or a filter that is the cell's or the row's error.
			expect(JSON.stringify(result)).toMatch(/replace\(\) was given a text of 1000000 characters|evaluation steps|took more than \d+ ms/);
			expect(took).toBeLessThan(1_500);
			expect(delay.max / 1e6).toBeLessThan(400);
		} finally {
			delay.disable();
			await vault.close();
		}
	});
});

describe("a value of the wrong type is an error for that cell or row only, and said", () => {
	test("cells and filters that cannot be evaluated carry their error; other rows are unaffected", async () => {
		const vault = await openDocsVault(`filters:
  and:
    - file.inFolder("Books")
    - 'status.contains(1) || true'
formulas:
  loop_a: 'formula.loop_b + 1'
  loop_b: 'formula.loop_a + 1'
  bad_date: 'date("soon")'
views:
  - type: table
    name: T
    order: [file.name, formula.loop_a, formula.bad_date]
`);
		try {
			const result = await callOk<{ rows: unknown[]; total: number; filter_errors: Array<{ path: string; error: string }>; filter_errors_total: number }>(
				vault.client,
				"query_base",
				{ path: "Query.base" },
			);
			// status is text in every book: contains(1) asks a text for a number, so the filter fails for each of them.
			expect(result.total).toBe(0);
			expect(result.filter_errors_total).toBe(3);
			expect(result.filter_errors[0]).toEqual({ path: "Books/Algebra.md", error: "contains() needs a text, not a number." });
		} finally {
			await vault.close();
		}
		const cells = await openDocsVault(`filters: 'file.inFolder("Books")'
formulas:
  loop_a: 'formula.loop_b + 1'
  loop_b: 'formula.loop_a + 1'
  bad_date: 'date("soon")'
views:
  - type: table
    name: T
    order: [file.name, formula.loop_a, formula.bad_date]
    sort:
      - property: file.name
        direction: ASC
`);
		try {
			const result = await callOk<{ rows: Array<{ path: string; values: Record<string, unknown>; errors?: Record<string, string> }> }>(
				cells.client,
				"query_base",
				{ path: "Query.base" },
			);
			expect(result.rows).toHaveLength(3);
			expect(result.rows[0]).toEqual({
				path: "Books/Algebra.md",
				values: { "file.name": "Algebra.md", "formula.loop_a": null, "formula.bad_date": null },
				errors: {
					"formula.loop_a": 'The formula "loop_a" refers to itself (through loop_a → loop_b).',
					"formula.bad_date": 'date() cannot read "soon"; write YYYY-MM-DD or YYYY-MM-DD HH:mm:ss.',
				},
			});
		} finally {
			await cells.close();
		}
	});
});
