import { parseBaseFile, readsBacklinks, type BaseConfig } from "../../../src/bases/baseFile";
import { BASES_MAX_EXPRESSION_DEPTH, BASES_MAX_FORMULAS, BASES_MAX_VIEWS } from "../../../src/config/limits";

function parsed(text: string): BaseConfig {
	const result = parseBaseFile(text);
	if (!result.ok) throw new Error(result.error);
	return result.value;
}

function refused(text: string): string {
	const result = parseBaseFile(text);
	if (result.ok) throw new Error("parsed");
	return result.error;
}

describe("parseBaseFile: a .base file read into a checked configuration", () => {
	test("a base as Obsidian writes it: filters, formulas, display names, views with order, sort, group and limit", () => {
		const config = parsed(`
filters:
  and:
    - file.hasTag("book")
    - 'status != "dropped"'
formulas:
  pages_left: pages - read
properties:
  note.status:
    displayName: Status
views:
  - type: table
    name: Reading
    order: [file.name, status, formula.pages_left]
    sort:
      - property: formula.pages_left
        direction: desc
    groupBy:
      property: status
    limit: 10
`);
		expect(config.filters).toMatchObject({ kind: "and", items: [{ kind: "statement", text: 'file.hasTag("book")' }, { kind: "statement" }] });
		expect([...config.formulas.keys()]).toEqual(["pages_left"]);
		expect(config.displayNames.get("note.status")).toBe("Status");
		expect(config.views).toEqual([
			expect.objectContaining({
				type: "table",
				name: "Reading",
				order: ["file.name", "status", "formula.pages_left"],
				sort: [{ property: "formula.pages_left", direction: "DESC" }],
				groupBy: { property: "status", direction: "ASC" },
				limit: 10,
			}),
		]);
	});

	test("an empty file is a base with no filters and no views; a view without a name is named by its place", () => {
		expect(parsed("")).toMatchObject({ filters: null, views: [] });
		expect(parsed("views:\n  - type: cards\n").views[0]).toMatchObject({ name: "View 1", type: "cards", order: [], sort: [], groupBy: null, limit: null });
	});

	test("text that is not YAML, or not a mapping, is refused saying so", () => {
		expect(refused("filters: [unclosed")).toMatch(/^The base is not valid YAML/);
		expect(refused("- a list")).toMatch(/must be a mapping/);
		expect(refused("views: {}\nviews: []")).toMatch(/not valid YAML/);
	});

	test("a filter with other keys than one of and/or/not is refused, naming them and where", () => {
		expect(refused("filters:\n  all: []")).toMatch(/exactly one of "and", "or" or "not"; it has "all"/);
		expect(refused("filters:\n  and: x")).toMatch(/"and" in filters must be a list/);
		expect(refused("filters:\n  or:\n    - a\n    - {}")).toMatch(/filters\.or\[1\].*it has none/);
	});

	test("an expression that does not parse, or calls a function Bases does not document, refuses the whole base, naming where", () => {
		expect(refused("filters: 'status ==='")).toMatch(/^In filters:/);
		expect(refused('formulas:\n  x: html("<b>")')).toMatch(/formula "x".*only renders in Obsidian's view/);
		expect(refused("filters: file.myPluginThing()")).toMatch(/myPluginThing\(\) is not supported/);
	});

	test("a formula used but never defined is refused (every row would be silently empty)", () => {
		expect(refused("filters: formula.missing > 3")).toMatch(/uses formula\.missing, but the base defines no formula "missing"/);
		expect(refused("views:\n  - name: V\n    order: [formula.gone]")).toMatch(/The view "V" uses formula\.gone/);
		expect(refused("views:\n  - name: V\n    sort:\n      - property: formula.gone")).toMatch(/formula\.gone/);
	});

	test("view settings of the wrong shape are refused with what to write", () => {
		expect(refused("views:\n  - name: V\n    limit: 0")).toMatch(/limit in the view "V" must be a whole number of at least 1/);
		expect(refused("views:\n  - name: V\n    limit: 2.5")).toMatch(/whole number/);
		expect(refused("views:\n  - name: V\n    sort:\n      - property: a\n        direction: up")).toMatch(/direction "up"; use ASC or DESC/);
		expect(refused("views:\n  - name: V\n    sort:\n      - direction: ASC")).toMatch(/needs a "property"/);
		expect(refused("views:\n  - name: V\n    order: [1, 2]")).toMatch(/order in the view "V" must be a list of property names/);
		expect(refused("views: table")).toMatch(/views must be a list/);
	});

	test(`limits: filters nested up to ${BASES_MAX_EXPRESSION_DEPTH} levels, ${BASES_MAX_FORMULAS} formulas, ${BASES_MAX_VIEWS} views`, () => {
		const nested = (depth: number) => `filters: ${"{and: [".repeat(depth)}true${"]}".repeat(depth)}`;
		expect(parseBaseFile(nested(BASES_MAX_EXPRESSION_DEPTH)).ok).toBe(true);
		expect(refused(nested(BASES_MAX_EXPRESSION_DEPTH + 2))).toMatch(new RegExp(`nested more than ${BASES_MAX_EXPRESSION_DEPTH} levels`));
		const formulas = (count: number) => `formulas:\n${Array.from({ length: count }, (_, index) => `  f${index}: ${index}`).join("\n")}`;
		expect(parsed(formulas(BASES_MAX_FORMULAS)).formulas.size).toBe(BASES_MAX_FORMULAS);
		expect(refused(formulas(BASES_MAX_FORMULAS + 1))).toMatch(new RegExp(`at most ${BASES_MAX_FORMULAS}`));
		const views = (count: number) => `views:\n${Array.from({ length: count }, () => "  - type: table").join("\n")}`;
		expect(parsed(views(BASES_MAX_VIEWS)).views).toHaveLength(BASES_MAX_VIEWS);
		expect(refused(views(BASES_MAX_VIEWS + 1))).toMatch(new RegExp(`at most ${BASES_MAX_VIEWS}`));
	});

	test("a YAML alias bomb is refused, not expanded", () => {
		const bomb = [
			"a: &a [x, x, x, x, x, x, x, x, x, x]",
			...Array.from(
				{ length: 8 },
				(_, index) =>
					`${String.fromCharCode(98 + index)}: &${String.fromCharCode(98 + index)} [*${String.fromCharCode(97 + index)}, *${String.fromCharCode(97 + index)}, *${String.fromCharCode(97 + index)}, *${String.fromCharCode(97 + index)}, *${String.fromCharCode(97 + index)}, *${String.fromCharCode(97 + index)}, *${String.fromCharCode(97 + index)}, *${String.fromCharCode(97 + index)}, *${String.fromCharCode(97 + index)}, *${String.fromCharCode(97 + index)}]`,
			),
		].join("\n");
		expect(refused(bomb)).toMatch(/not valid YAML/);
	});
});

describe("readsBacklinks: whether a query must gather backlinks before its expressions run", () => {
	test("a formula, a filter, a view's column, sort or group reading file.backlinks or this.backlinks; nothing else", () => {
		expect(readsBacklinks(parsed("formulas:\n  n: 'file.backlinks.length'\n"))).toBe(true);
		expect(readsBacklinks(parsed("filters: 'this.backlinks.contains(file.file)'\n"))).toBe(true);
		expect(readsBacklinks(parsed("views:\n  - type: table\n    name: A\n    filters: 'file.backlinks.length > 1'\n"))).toBe(true);
		expect(readsBacklinks(parsed("views:\n  - type: table\n    name: A\n    order: [file.name, file.backlinks]\n"))).toBe(true);
		expect(readsBacklinks(parsed("views:\n  - type: table\n    name: A\n    groupBy:\n      property: file.backlinks\n"))).toBe(true);
		expect(
			readsBacklinks(parsed("formulas:\n  n: 'file.links.length'\nviews:\n  - type: table\n    name: A\n    order: [file.name, backlinks_note]\n")),
		).toBe(false);
	});
});
