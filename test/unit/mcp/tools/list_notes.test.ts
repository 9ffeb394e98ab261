import { openToolVault, type ToolVault } from "../../../helpers/toolVault";

interface Listed {
	notes: Array<{ path: string }>;
	total: number;
	next_cursor?: string;
}

describe("list_notes", () => {
	let tv: ToolVault;
	beforeAll(async () => {
		tv = await openToolVault(
			{ "b.md": "b", "a.md": "a", "Projects/Plan.md": "p", "Projects/Old/Done.md": "d", "Private/Diary.md": "s", "image.png": "x" },
			{ excluded: ["Private"] },
		);
	});
	afterAll(() => tv.close());

	test("every visible note, by path; attachments and excluded folders are not listed", async () => {
		const listed = await tv.ok<Listed>("list_notes");
		expect(listed.notes.map((note) => note.path)).toEqual(["a.md", "b.md", "Projects/Old/Done.md", "Projects/Plan.md"]);
		expect(listed.total).toBe(4);
	});

	test("one folder, with or without its subfolders", async () => {
		expect((await tv.ok<Listed>("list_notes", { folder: "Projects" })).notes.map((note) => note.path)).toEqual([
			"Projects/Old/Done.md",
			"Projects/Plan.md",
		]);
		expect((await tv.ok<Listed>("list_notes", { folder: "Projects", recursive: false })).notes.map((note) => note.path)).toEqual(["Projects/Plan.md"]);
	});

	test("pages follow each other with the cursor, each note once", async () => {
		const first = await tv.ok<Listed>("list_notes", { limit: 3 });
		expect(first.notes).toHaveLength(3);
		expect(first.next_cursor).toEqual(expect.any(String));
		const second = await tv.ok<Listed>("list_notes", { limit: 3, cursor: first.next_cursor });
		expect([...first.notes, ...second.notes].map((note) => note.path)).toEqual(["a.md", "b.md", "Projects/Old/Done.md", "Projects/Plan.md"]);
	});

	test("an excluded folder answers as a missing one: no notes, nothing telling which", async () => {
		const excluded = await tv.call("list_notes", { folder: "Private" });
		expect(excluded).toEqual({ ok: true, value: { notes: [], total: 0 } });
		expect(await tv.call("list_notes", { folder: "Nowhere" })).toEqual(excluded);
	});
});
