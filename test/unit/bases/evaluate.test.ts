import { parseBaseFile } from "../../../src/bases/baseFile";
import { runBaseQuery, type BaseQueryResult } from "../../../src/bases/query";
import type { BaseFile, BaseVault } from "../../../src/bases/values";
import { baseFile } from "../../helpers/baseFiles";
import { BASES_MAX_DATE_FORMAT_CHARS } from "../../../src/config/limits";

const file = baseFile;

const FILES = [
	file("a.md", { n: 3, s: "10", when: "2025-01-02", list: [] }),
	file("b.md", { n: 12, s: "9", when: "2024-12-31", list: ["x"] }),
	file("c.md", {}),
	file("img.png"),
];
const VAULT: BaseVault = {
	file: (path) => FILES.find((entry) => entry.path === path) ?? null,
	isVisiblePath: (text) => FILES.some((entry) => entry.path === text),
	resolveLink: () => null,
	backlinks: () => [],
	isWhereItWas: () => true,
};

async function rows(base: string): Promise<BaseQueryResult> {
	const config = parseBaseFile(base);
	if (!config.ok) throw new Error(config.error);
	const result = await runBaseQuery(config.value, VAULT, FILES, FILES[0] as BaseFile, {
		limit: 100,
		now: Date.UTC(2025, 5, 1),
		pause: () => Promise.resolve(),
		due: () => true,
	});
	if (!result.ok) throw new Error(result.error);
	return result.value;
}

const paths = async (filter: string) => (await rows(`filters: '${filter}'`)).rows.map((row) => row.path);

describe("the evaluator's rules for missing and mixed values", () => {
	test("a missing property is empty: no ordering comparison holds, != a value holds", async () => {
		expect(await paths("n > 5")).toEqual(["b.md"]);
		expect(await paths("n <= 5")).toEqual(["a.md"]);
		expect(await paths("n != 3")).toEqual(["b.md", "c.md", "img.png"]);
		expect(await paths("!n")).toEqual(["c.md", "img.png"]);
	});

	test("texts compare as texts, a number with numeric text as numbers, dates with date text as dates", async () => {
		expect(await paths('s > "9"')).toEqual([]);
		expect(await paths("s > 9")).toEqual(["a.md"]);
		expect(await paths('when > date("2025-01-01")')).toEqual(["a.md"]);
		expect(await paths('when > "2025-01-01"')).toEqual(["a.md"]);
	});

	test("an empty list is false as a filter; a list with items is true", async () => {
		expect(await paths("list")).toEqual(["b.md"]);
	});

	test("sorting puts empty values last in both directions", async () => {
		for (const direction of ["ASC", "DESC"]) {
			const result = await rows(
				`views:\n  - type: table\n    name: T\n    order: [n]\n    sort:\n      - property: n\n        direction: ${direction}\n`,
			);
			expect(result.rows.map((row) => row.path)).toEqual(direction === "ASC" ? ["a.md", "b.md", "c.md", "img.png"] : ["b.md", "a.md", "c.md", "img.png"]);
		}
	});

	test("not is none of: a file passes only when every statement is false", async () => {
		expect((await rows("filters:\n  not:\n    - 'n > 5'\n    - 'file.ext == \"png\"'\n")).rows.map((row) => row.path)).toEqual(["a.md", "c.md"]);
	});
});

describe("a date's format() is bounded", () => {
	test(`a format longer than ${BASES_MAX_DATE_FORMAT_CHARS} characters is the cell's error, not a piece of seconds (a million \`[\`)`, async () => {
		const cell = async (format: string) =>
			(
				await rows(
					`formulas:\n  f: 'date("2025-01-02").format("${format}")'\nviews:\n  - name: V\n    order: [formula.f]\n    filters: 'file.name == "a.md"'\n`,
				)
			).rows[0];
		expect((await cell("YYYY"))?.values).toEqual({ "formula.f": "2025" });
		expect((await cell(`[${"Y".repeat(BASES_MAX_DATE_FORMAT_CHARS - 2)}]`))?.values).toEqual({ "formula.f": "Y".repeat(BASES_MAX_DATE_FORMAT_CHARS - 2) });
		expect((await cell("[".repeat(BASES_MAX_DATE_FORMAT_CHARS + 1)))?.errors).toEqual({
			"formula.f": expect.stringContaining(`at most ${BASES_MAX_DATE_FORMAT_CHARS} are read`) as unknown,
		});
	});
});
