import { openToolVault, type ToolVault } from "../../../helpers/toolVault";

describe("list_templates", () => {
	let tv: ToolVault;
	afterEach(() => tv.close());

	test("the notes of the templates folder Obsidian's Templates plugin names", async () => {
		tv = await openToolVault({
			"Templates/Meeting.md": "# {{title}}\n",
			"Templates/Daily/Day.md": "{{date}}\n",
			"Other.md": "",
			".obsidian/templates.json": JSON.stringify({ folder: "Templates" }),
		});
		const listed = await tv.ok<{ folder: string; templates: Array<{ path: string }>; total: number }>("list_templates");
		expect(listed.folder).toBe("Templates");
		expect(listed.templates.map((template) => template.path).sort()).toEqual(["Templates/Daily/Day.md", "Templates/Meeting.md"]);
	});

	test("no templates folder set: an answer that says so, not an error", async () => {
		tv = await openToolVault({ "Other.md": "" });
		const answer = await tv.call("list_templates");
		if (answer.ok) expect(answer.value).toMatchObject({ templates: [], total: 0 });
		else expect(answer.error).toMatch(/template/i);
	});
});
