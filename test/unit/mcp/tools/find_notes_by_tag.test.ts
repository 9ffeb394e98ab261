import { openToolVault, type ToolVault } from "../../../helpers/toolVault";

describe("find_notes_by_tag", () => {
	let tv: ToolVault;
	beforeAll(async () => {
		tv = await openToolVault(
			{ "A.md": "---\ntags: [project]\n---\n", "B.md": "#project/alpha\n", "C.md": "#projects\n", "Private/D.md": "#project\n" },
			{ excluded: ["Private"] },
		);
	});
	afterAll(() => tv.close());

	test("notes with the tag or a tag nested under it, with or without #, never in an excluded folder", async () => {
		const found = await tv.ok<{ tag: string; notes: string[]; total: number }>("find_notes_by_tag", { tag: "project" });
		expect(found).toMatchObject({ tag: "#project", total: 2 });
		expect([...found.notes].sort()).toEqual(["A.md", "B.md"]);
		expect((await tv.ok<{ notes: string[] }>("find_notes_by_tag", { tag: "#project/alpha" })).notes).toEqual(["B.md"]);
	});

	test("a tag that is not valid is refused", async () => {
		expect(await tv.error("find_notes_by_tag", { tag: "two words" })).toMatch(/tag/i);
	});
});
