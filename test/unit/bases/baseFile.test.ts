import { parseBaseFile, parseBaseFileSteps, readsBacklinks, readsOtherNotes, type BaseConfig } from "../../../src/bases/baseFile";
import {
	BASES_MAX_EXPRESSION_DEPTH,
	BASES_MAX_FORMULAS,
	BASES_MAX_VIEWS,
	BASES_MAX_YAML_ALIASES,
	BASES_MAX_YAML_DEPTH,
	BASES_MAX_YAML_ENTRIES,
} from "../../../src/config/limits";

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

	test(`YAML over ${BASES_MAX_YAML_ENTRIES} lines and list items, nested past ${BASES_MAX_YAML_DEPTH} levels or with more than ${BASES_MAX_YAML_ALIASES} aliases is refused before it is parsed`, () => {
		const lines = (count: number) => `properties:\n${Array.from({ length: (count - 1) / 2 }, (_, index) => `  p${index}:\n    displayName: a`).join("\n")}`;
		expect(parsed(lines(BASES_MAX_YAML_ENTRIES + 1 - 2)).displayNames.size).toBe((BASES_MAX_YAML_ENTRIES - 2) / 2);
		expect(refused(lines(BASES_MAX_YAML_ENTRIES + 1 + 2))).toBe(
			`The base is not read: it has more than ${BASES_MAX_YAML_ENTRIES} lines; a base needs far less.`,
		);
		// A comma inside a quoted expression is no item.
		expect(parsed(`formulas:\n  f: 'max(${Array.from({ length: 1990 }, () => "1").join(",")})'`).formulas.size).toBe(1);
		expect(refused(`views: [${Array.from({ length: BASES_MAX_YAML_ENTRIES }, () => "{}").join(", ")}]`)).toMatch(
			`it holds more than ${BASES_MAX_YAML_ENTRIES} lines and list items`,
		);
		const deep = (depth: number) => `filters: ${"[".repeat(depth)}${"]".repeat(depth)}`;
		// The key and its `:` are two levels.
		expect(refused(deep(BASES_MAX_YAML_DEPTH - 2))).toMatch(/must be a mapping/);
		expect(refused(deep(BASES_MAX_YAML_DEPTH - 1))).toMatch(`The base is not read: it nests deeper than ${BASES_MAX_YAML_DEPTH} levels`);
		const aliases = (count: number) => `formulas:\n  a: &a 'file.name'\n${Array.from({ length: count }, (_, index) => `  f${index}: *a`).join("\n")}`;
		// The yaml package counts the anchored value too.
		expect(parsed(aliases(BASES_MAX_YAML_ALIASES - 1)).formulas.size).toBe(BASES_MAX_YAML_ALIASES);
		expect(refused(aliases(BASES_MAX_YAML_ALIASES + 1))).toMatch(`it uses more than ${BASES_MAX_YAML_ALIASES} aliases`);
	});

	test("a map's keys are unique, checked in one pass", () => {
		expect(refused(`properties:\n${Array.from({ length: 1500 }, (_, index) => `  p${index % 1499}: a`).join("\n")}`)).toMatch(
			/^The base is not valid YAML: Map keys must be unique/,
		);
	});

	test("read in steps, a statement or a formula each", () => {
		const text = `filters:\n  or:\n${Array.from({ length: 500 }, (_, index) => `    - 'file.name == "n${index}"'`).join("\n")}\nformulas:\n${Array.from({ length: 100 }, (_, index) => `  f${index}: '${index}'`).join("\n")}`;
		const steps = parseBaseFileSteps(text);
		let pauses = 0;
		let next = steps.next();
		for (; next.done !== true; next = steps.next()) pauses++;
		expect(next.value.ok).toBe(true);
		expect(pauses).toBeGreaterThanOrEqual(600);
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

describe("readsOtherNotes: whether a row's values may name notes other than its own", () => {
	test("backlinks, file(), a link's asFile() or linksTo(), in a formula or a filter; not the row's own links, nor a property named file", () => {
		expect(readsOtherNotes(parsed("views:\n  - type: table\n    name: A\n    order: [file.name, file.backlinks]\n"))).toBe(true);
		expect(readsOtherNotes(parsed("formulas:\n  n: 'file(\"Plan\")'\n"))).toBe(true);
		expect(readsOtherNotes(parsed("formulas:\n  n: 'file.links.map(value.asFile())'\n"))).toBe(true);
		expect(readsOtherNotes(parsed("filters: 'link(\"Plan\").linksTo(file.file)'\n"))).toBe(true);
		expect(readsOtherNotes(parsed("formulas:\n  n: 'file.links.length + file.name.length'\n  m: 'note.file'\n"))).toBe(false);
	});
});
