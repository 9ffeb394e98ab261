import { EvaluationBudget } from "../../../src/bases/evaluationContext";
import { makeLink, noteObject, notePropertyValue } from "../../../src/bases/noteValues";
import { DateValue, LinkValue, ObjectValue, formatDate } from "../../../src/bases/values";
import { baseFile, baseVault } from "../../helpers/baseFiles";

const TARGET = baseFile("People/Ada.md");
const NOTE = baseFile("Journal/today.md", {
	who: "[[Ada|Countess]]",
	when: "2026-12-02",
	at: "2026-12-02 09:30",
	plain: "just text",
	count: 3,
	done: false,
	stamp: new Date(Date.UTC(2026, 11, 2)),
	list: ["[[Ada]]", "2026-01-01", 4],
	nested: { by: "[[Missing]]" },
	empty: null,
});
const VAULT = baseVault([TARGET, NOTE]);
const BUDGET = new EvaluationBudget();

describe("a note's properties as Bases types them", () => {
	test("a wikilink is a link, resolved among the visible files, with its display text", () => {
		const who = notePropertyValue(NOTE, "who", VAULT, BUDGET) as LinkValue;
		expect(who).toBeInstanceOf(LinkValue);
		expect([who.link, who.target, who.display]).toEqual(["Ada", "People/Ada.md", "Countess"]);
	});

	test("ISO dates are dates (with or without a time); other text stays text; numbers and booleans stay", () => {
		const when = notePropertyValue(NOTE, "when", VAULT, BUDGET) as DateValue;
		expect([formatDate(when), when.hasTime]).toEqual(["2026-12-02", false]);
		expect((notePropertyValue(NOTE, "at", VAULT, BUDGET) as DateValue).hasTime).toBe(true);
		expect(notePropertyValue(NOTE, "plain", VAULT, BUDGET)).toBe("just text");
		expect(notePropertyValue(NOTE, "count", VAULT, BUDGET)).toBe(3);
		expect(notePropertyValue(NOTE, "done", VAULT, BUDGET)).toBe(false);
		expect(notePropertyValue(NOTE, "stamp", VAULT, BUDGET)).toEqual(new DateValue(Date.UTC(2026, 11, 2), true));
	});

	test("lists and mappings are typed item by item; a link to nothing visible has no target", () => {
		const list = notePropertyValue(NOTE, "list", VAULT, BUDGET) as unknown[];
		expect(list[0]).toBeInstanceOf(LinkValue);
		expect(list[1]).toBeInstanceOf(DateValue);
		expect(list[2]).toBe(4);
		const nested = notePropertyValue(NOTE, "nested", VAULT, BUDGET) as ObjectValue;
		expect((nested.fields.get("by") as LinkValue).target).toBeNull();
	});

	test("a missing property, an empty one, and a file without properties are empty; inherited names are not properties", () => {
		expect(notePropertyValue(NOTE, "nope", VAULT, BUDGET)).toBeNull();
		expect(notePropertyValue(NOTE, "empty", VAULT, BUDGET)).toBeNull();
		expect(notePropertyValue(TARGET, "who", VAULT, BUDGET)).toBeNull();
		expect(notePropertyValue(NOTE, "toString", VAULT, BUDGET)).toBeNull();
		expect(notePropertyValue(NOTE, "__proto__", VAULT, BUDGET)).toBeNull();
	});

	test("deep YAML nesting is cut off, not followed without end", () => {
		let deep: unknown = "bottom";
		for (let level = 0; level < 100; level++) deep = [deep];
		const value = notePropertyValue(baseFile("deep.md", { deep }), "deep", VAULT, BUDGET);
		expect(JSON.stringify(value)).not.toContain("bottom");
	});

	test("makeLink: a heading link resolves by its file; a URL is never looked up", () => {
		expect(makeLink("Ada#Early life", "x.md", VAULT).target).toBe("People/Ada.md");
		const resolveLink = jest.fn(() => "x");
		expect(makeLink("https://example.com/Ada", "x.md", { ...VAULT, resolveLink }).target).toBeNull();
		expect(resolveLink).not.toHaveBeenCalled();
		expect(makeLink("[[Ada|A]]", "x.md", VAULT)).toMatchObject({ link: "Ada", display: "A", target: "People/Ada.md" });
	});

	test("noteObject: every property, typed", () => {
		const object = noteObject(NOTE, VAULT, BUDGET);
		expect([...object.fields.keys()]).toContain("who");
		expect(object.fields.get("who")).toBeInstanceOf(LinkValue);
		expect(noteObject(TARGET, VAULT, BUDGET).fields.size).toBe(0);
	});
});
