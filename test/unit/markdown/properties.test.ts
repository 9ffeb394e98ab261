import fc from "fast-check";
import { parse } from "yaml";
import { splitFrontmatter } from "../../../src/markdown/frontmatter";
import { setProperty, type PropertyValue } from "../../../src/markdown/properties";

const GARDEN = "---\nstatus: active\ntags:\n  - project\n---\n# Garden\n";

function edit(note: string, name: string, value: PropertyValue): string {
	const result = setProperty(note, name, value);
	return result.ok ? result.value.text : `ERROR ${result.error}`;
}

describe("setProperty", () => {
	test.each<[string, string, string, PropertyValue, string]>([
		["a text property replaced", GARDEN, "status", "paused", "---\nstatus: paused\ntags:\n  - project\n---\n# Garden\n"],
		["a new text property goes last", GARDEN, "owner", "Ada", "---\nstatus: active\ntags:\n  - project\nowner: Ada\n---\n# Garden\n"],
		["a number", GARDEN, "beds", 3, "---\nstatus: active\ntags:\n  - project\nbeds: 3\n---\n# Garden\n"],
		["a decimal", GARDEN, "ph", 6.5, "---\nstatus: active\ntags:\n  - project\nph: 6.5\n---\n# Garden\n"],
		["a checkbox", GARDEN, "done", false, "---\nstatus: active\ntags:\n  - project\ndone: false\n---\n# Garden\n"],
		["a date is written as Obsidian writes one", GARDEN, "due", "2026-12-01", "---\nstatus: active\ntags:\n  - project\ndue: 2026-12-01\n---\n# Garden\n"],
		["text that reads as another type is quoted, so it stays text", GARDEN, "status", "true", '---\nstatus: "true"\ntags:\n  - project\n---\n# Garden\n'],
		["text with a colon is quoted", GARDEN, "status", "on hold: waiting", '---\nstatus: "on hold: waiting"\ntags:\n  - project\n---\n# Garden\n'],
		["a list replaces, never merges", "---\naliases:\n  - Old\n  - Older\n---\n", "aliases", ["New"], "---\naliases:\n  - New\n---\n"],
		[
			"a list of mixed scalars",
			GARDEN,
			"sizes",
			["small", 2, true],
			"---\nstatus: active\ntags:\n  - project\nsizes:\n  - small\n  - 2\n  - true\n---\n# Garden\n",
		],
		["an empty list", GARDEN, "links", [], "---\nstatus: active\ntags:\n  - project\nlinks: []\n---\n# Garden\n"],
		["null removes the property", GARDEN, "status", null, "---\ntags:\n  - project\n---\n# Garden\n"],
		["null on a missing property changes nothing", GARDEN, "owner", null, GARDEN],
		["the same value again changes nothing, not even quoting", "---\nstatus: 'active'\n---\n", "status", "active", "---\nstatus: 'active'\n---\n"],
		[
			"tags keep Obsidian's form: a list without #",
			GARDEN,
			"tags",
			["#garden", "outdoor/beds"],
			"---\nstatus: active\ntags:\n  - garden\n  - outdoor/beds\n---\n# Garden\n",
		],
		["tags given as one string", GARDEN, "tags", "#a, b c", "---\nstatus: active\ntags:\n  - a\n  - b\n  - c\n---\n# Garden\n"],
		[
			"a property tagged !!binary beside it is written back as it was (the YAML writer failed on it)",
			"---\nicon: !!binary R0lGODlh\nset: !!set {a, b}\n---\n",
			"status",
			"paused",
			"---\nicon: !!binary R0lGODlh\nset: !!set {a, b}\nstatus: paused\n---\n",
		],
		["a key in another case is the same property in Obsidian", "---\nStatus: active\n---\n", "status", "paused", "---\nStatus: paused\n---\n"],
		["no frontmatter: one is added", "# Note\n\nText.\n", "status", "draft", "---\nstatus: draft\n---\n# Note\n\nText.\n"],
		["no frontmatter: a list", "Text.\n", "tags", ["x"], "---\ntags:\n  - x\n---\nText.\n"],
		["no frontmatter and null: nothing to remove", "Text.\n", "status", null, "Text.\n"],
		["an empty note", "", "status", "draft", "---\nstatus: draft\n---\n"],
		["an empty frontmatter", "---\n---\nBody\n", "a", 1, "---\na: 1\n---\nBody\n"],
		["removing the last property leaves the fences", "---\na: 1\n---\nBody\n", "a", null, "---\n---\nBody\n"],
		[
			"comments, order, quoting, flow lists and long lines of other properties are kept",
			'---\n# About this note\nstatus: active # set weekly\ntitle: "Quoted"\naliases: [One, Two]\nsummary: a long line that goes on well past eighty characters without any reason to be folded at all\n---\nBody\n',
			"status",
			"paused",
			'---\n# About this note\nstatus: paused # set weekly\ntitle: "Quoted"\naliases: [One, Two]\nsummary: a long line that goes on well past eighty characters without any reason to be folded at all\n---\nBody\n',
		],
		["lists written without indentation stay that way", "---\ntags:\n- a\nstatus: x\n---\n", "status", "y", "---\ntags:\n- a\nstatus: y\n---\n"],
		[
			"CRLF notes keep CRLF",
			"---\r\nstatus: active\r\ntags:\r\n  - project\r\n---\r\nBody\r\n",
			"owner",
			["Ada", "Bo"],
			"---\r\nstatus: active\r\ntags:\r\n  - project\r\nowner:\r\n  - Ada\r\n  - Bo\r\n---\r\nBody\r\n",
		],
		["a CRLF note without frontmatter gets a CRLF one", "Body\r\nMore\r\n", "a", "b", "---\r\na: b\r\n---\r\nBody\r\nMore\r\n"],
	])("%s", (_name, note, name, value, expected) => {
		expect(edit(note, name, value)).toBe(expected);
	});

	test.each([
		["broken YAML", "---\nstatus: [active\n---\nBody\n", "not valid YAML"],
		["a duplicate key (Obsidian shows no properties)", "---\na: 1\na: 2\n---\n", "not valid YAML"],
		["a frontmatter that is a list", "---\n- a\n- b\n---\n", "not a list of properties"],
	])("%s is an error that changes nothing", (_name, note, message) => {
		const result = setProperty(note, "status", "x");
		expect(result).toEqual({ ok: false, error: expect.stringContaining(message) });
	});

	test.each([["1984"], ["a!b"], [["ok", "#"]]])("%j is not a tag Obsidian accepts", (value) => {
		const result = setProperty(GARDEN, "tags", value);
		expect(result.ok ? "" : result.error).toMatch(/not a tag|Nothing was changed/);
	});

	test("reports the value as written, and whether the note changed", () => {
		expect(setProperty(GARDEN, "tags", "#x")).toMatchObject({ ok: true, value: { value: ["x"], changed: true } });
		expect(setProperty(GARDEN, "status", "active")).toMatchObject({ ok: true, value: { value: "active", changed: false } });
	});

	test("a note that starts with a byte-order mark keeps it first, and its frontmatter is edited, not shadowed by a second one", () => {
		expect(edit("\uFEFF---\ntitle: A\n---\nbody\n", "b", 1)).toBe("\uFEFF---\ntitle: A\nb: 1\n---\nbody\n");
		expect(edit("\uFEFFbody\r\n", "b", true)).toBe("\uFEFF---\r\nb: true\r\n---\r\nbody\r\n");
	});

	test.each<[string, PropertyValue]>([
		["title", "B"],
		["title", null],
	])("a value another property refers to by a YAML alias (&x … *x): setting %s to %j is a clear error, nothing changed", (name, value) => {
		const result = setProperty("---\ntitle: &x A\nother: *x\n---\n", name, value);
		expect(result).toEqual({ ok: false, error: expect.stringMatching(/alias.*Nothing was changed/) });
	});

	test("a frontmatter whose alias names the value it stands inside (&n … *n) is a clear error, nothing changed", () => {
		const result = setProperty("---\n&n\na: *n\n---\nbody\n", "status", "done");
		expect(result).toEqual({ ok: false, error: expect.stringMatching(/inside the value it names.*Nothing was changed/) });
	});

	test("a property beside an anchored one is set as usual", () => {
		expect(edit("---\ntitle: &x A\nother: *x\n---\n", "status", "done")).toBe("---\ntitle: &x A\nother: *x\nstatus: done\n---\n");
	});
});

describe("a property name made of the characters YAML 1.1 reads as numbers, booleans, merge keys and dates", () => {
	test("reads back as written by YAML 1.2 and by the yaml package's 1.1 (merge keys on), on a note with and without frontmatter", () => {
		// Generated, not listed: the listed names passed while `.`, `+.` and `e1`, read as numbers by the yaml package's 1.1, were written plain.
		const unit = fc.constantFrom("<", "=", ".", "0", "1", "-", "+", ":", "_", "e", "E", "y", "n", "o", "x", " ", "~", "#", "!", "?", "N", "a", "t");
		fc.assert(
			fc.property(fc.string({ unit, minLength: 1, maxLength: 6 }), fc.boolean(), (name, withFrontmatter) => {
				const edited = setProperty(withFrontmatter ? "---\nother: 1\n---\nBody.\n" : "Body.\n", name, "v");
				if (!edited.ok) return true;
				const yaml = splitFrontmatter(edited.value.text)?.yaml ?? "";
				const readers = [(): unknown => parse(yaml), (): unknown => parse(yaml, { version: "1.1", merge: true })];
				return readers.every((read) => (read() as Record<string, unknown>)[name] === "v");
			}),
			{ numRuns: 1_500 },
		);
	});
});
