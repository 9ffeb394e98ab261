import { promises as fs } from "node:fs";
import * as nodePath from "node:path";
import { appendToNote, insertUnderBulletInNote, setNoteProperty } from "../../../src/vault/noteEdits";
import { openVault, type OpenVault } from "../../helpers/hostVault";

describe("note edits in the note's own style", () => {
	let vault: OpenVault;
	beforeEach(async () => {
		vault = await openVault({
			"Outline.md": "* Groceries\n\t* Milk\n* Errands\n",
			"Prose.md": "# Plan\n\nSome text.\n\n## Later\n\nMore.\n",
			"Sections.md": "# Plan\n\nText.\n\n## Detail\n\nMore.\n\n# Other\n\nElse.\n",
			"Empty.md": "",
			"Frontmatter.md": "---\nstatus: draft\nowner: Ana\n---\nBody\n",
			"BrokenYaml.md": "---\nstatus: [draft\n---\nBody\n",
		});
	});
	afterEach(() => vault.close());

	const file = (path: string) => {
		const found = vault.host.vault.getFileByPath(path);
		if (!found) throw new Error(path);
		return found;
	};
	const onDisk = (path: string) => fs.readFile(nodePath.join(vault.root, path), "utf8");

	test.each<[string, string, string, string | undefined, string, string]>([
		["an outline gets a bullet in its own marker", "Outline.md", "Bread", undefined, "* Groceries\n\t* Milk\n* Errands\n* Bread\n", "outliner"],
		[
			"an outline's nested lines keep its tab indentation",
			"Outline.md",
			"Shop\n\tEggs",
			undefined,
			"* Groceries\n\t* Milk\n* Errands\n* Shop\n\t* Eggs\n",
			"outliner",
		],
		["prose gets a paragraph", "Prose.md", "Done.", undefined, "# Plan\n\nSome text.\n\n## Later\n\nMore.\n\nDone.\n", "freeform"],
		["under a heading: at the end of its section", "Prose.md", "Soon.", "Later", "# Plan\n\nSome text.\n\n## Later\n\nMore.\n\nSoon.\n", "freeform"],
		[
			"a heading's section holds its subheadings",
			"Sections.md",
			"Soon.",
			"Plan",
			"# Plan\n\nText.\n\n## Detail\n\nMore.\n\nSoon.\n\n# Other\n\nElse.\n",
			"freeform",
		],
		["an empty note gets the text as it is", "Empty.md", "First words", undefined, "First words\n", "freeform"],
	])("appendToNote: %s", async (_name, path, content, heading, expected, mode) => {
		const result = await appendToNote(vault.host, file(path), content, heading);
		expect(result).toMatchObject({ ok: true, value: { text: expected, style: { mode } } });
		expect(await onDisk(path)).toBe(expected);
	});

	test("appendToNote under a heading that is not there: an error naming the headings, the note unchanged", async () => {
		const result = await appendToNote(vault.host, file("Prose.md"), "x", "Nope");
		expect(result).toEqual({
			ok: false,
			error: 'No heading "Nope" in this note. Its headings: # Plan (line 0); ## Later (line 4). Nothing was written; pass one of these, or omit heading to append at the end.',
		});
		expect(await onDisk("Prose.md")).toBe("# Plan\n\nSome text.\n\n## Later\n\nMore.\n");
	});

	test("insertUnderBulletInNote adds children to the bullet, in the outline's indentation", async () => {
		const result = await insertUnderBulletInNote(vault.host, file("Outline.md"), "errands", "Post office");
		expect(result).toMatchObject({ ok: true, value: { text: "* Groceries\n\t* Milk\n* Errands\n\t* Post office\n" } });
		expect(await onDisk("Outline.md")).toBe("* Groceries\n\t* Milk\n* Errands\n\t* Post office\n");
	});

	test.each<[string, string, string, string]>([
		[
			"a note that is not an outline",
			"Prose.md",
			"Plan",
			'"Prose.md" is not an outline (it is not only a list, and its frontmatter has no mode: outliner). Use append_to_note instead.',
		],
		["a bullet that is not there", "Outline.md", "Holiday", 'No bullet contains "Holiday". Nothing was written; call read_note to see the bullets.'],
	])("insertUnderBulletInNote into %s: an error, the note unchanged", async (_name, path, bullet, message) => {
		const before = await onDisk(path);
		expect(await insertUnderBulletInNote(vault.host, file(path), bullet, "x")).toEqual({ ok: false, error: message });
		expect(await onDisk(path)).toBe(before);
	});

	test.each<[string, string, string, string | number | null, string, boolean]>([
		["changes a property, keeping the rest", "Frontmatter.md", "status", "done", "---\nstatus: done\nowner: Ana\n---\nBody\n", true],
		["adds frontmatter to a note without", "Prose.md", "status", "plan", "---\nstatus: plan\n---\n# Plan\n\nSome text.\n\n## Later\n\nMore.\n", true],
		[
			"writes tags as a list, as Obsidian's tags property is",
			"Prose.md",
			"tags",
			"plan",
			"---\ntags:\n  - plan\n---\n# Plan\n\nSome text.\n\n## Later\n\nMore.\n",
			true,
		],
		["removes a property with null", "Frontmatter.md", "status", null, "---\nowner: Ana\n---\nBody\n", true],
		["setting the same value changes nothing", "Frontmatter.md", "status", "draft", "---\nstatus: draft\nowner: Ana\n---\nBody\n", false],
	])("setNoteProperty %s", async (_name, path, name, value, expected, changed) => {
		const result = await setNoteProperty(vault.host, file(path), name, value);
		expect(result).toMatchObject({ ok: true, value: { changed } });
		expect(await onDisk(path)).toBe(expected);
	});

	test("setNoteProperty on frontmatter that is not valid YAML: an error, the note unchanged", async () => {
		const result = await setNoteProperty(vault.host, file("BrokenYaml.md"), "status", "done");
		expect(result).toEqual({ ok: false, error: expect.stringContaining("not valid YAML") });
		expect(await onDisk("BrokenYaml.md")).toBe("---\nstatus: [draft\n---\nBody\n");
	});
});
