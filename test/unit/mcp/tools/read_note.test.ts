import { openToolVault, type ToolVault } from "../../../helpers/toolVault";

describe("read_note", () => {
	let tv: ToolVault;
	beforeAll(async () => {
		tv = await openToolVault(
			{ "Projects/Plan.md": "---\ntags: [project]\n---\n# Plan\n#idea\n", "Private/Diary.md": "secret", "photo.png": "png" },
			{ excluded: ["Private"] },
		);
	});
	afterAll(() => tv.close());

	test("by path or by link text: the text, frontmatter, tags and a hash of the text", async () => {
		const byLink = await tv.ok("read_note", { path: "Plan" });
		expect(byLink).toMatchObject({
			path: "Projects/Plan.md",
			content: "---\ntags: [project]\n---\n# Plan\n#idea\n",
			frontmatter: { tags: ["project"] },
			truncated: false,
		});
		expect(byLink.tags).toEqual(expect.arrayContaining(["#project", "#idea"]));
		expect(byLink.hash).toMatch(/^[0-9a-f]{64}$/);
		expect(await tv.ok("read_note", { path: "Projects/Plan.md" })).toEqual(byLink);
	});

	test("an excluded note answers as a missing one; an attachment is not a note", async () => {
		expect(await tv.error("read_note", { path: "Private/Diary" })).toMatch(/^No note "Private\/Diary"/);
		expect(await tv.error("read_note", { path: "photo.png" })).toMatch(/not a Markdown note/);
	});

	test("a note holding a tag of a million characters is read: its other tags listed, that one counted as left out", async () => {
		const huge = `#${"a".repeat(1_000_000)}`;
		const planted = await openToolVault({ "Planted.md": `#small ${huge}\n#other\n` });
		try {
			const read = await planted.ok("read_note", { path: "Planted" });
			expect(read.tags).toEqual(["#small", "#other"]);
			expect(read.tags_left_out).toBe(1);
			// The text is there, cut at its bound as any long note's.
			expect(read.truncated).toBe(true);
			expect(String(read.content).startsWith(`#small #${"a".repeat(1000)}`)).toBe(true);
		} finally {
			await planted.close();
		}
	});
});
