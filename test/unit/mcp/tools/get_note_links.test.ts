import { openToolVault, type ToolVault } from "../../../helpers/toolVault";

describe("get_note_links", () => {
	let tv: ToolVault;
	beforeAll(async () => {
		tv = await openToolVault(
			{
				"Plan.md": "See [[Ideas]], [[Missing]] and [[Private/Diary]].\n",
				"Ideas.md": "Back to [[Plan]].\n",
				"Private/Diary.md": "[[Plan]] secretly\n",
			},
			{ excluded: ["Private"] },
		);
	});
	afterAll(() => tv.close());

	test("outgoing links with their targets, unresolved ones, and backlinks from visible notes only", async () => {
		const links = await tv.ok("get_note_links", { path: "Plan" });
		expect(links).toMatchObject({ path: "Plan.md", backlinks: [{ path: "Ideas.md", count: 1 }], backlinks_total: 1, truncated: false });
		expect(links.outgoing).toEqual(
			expect.arrayContaining([
				{ link: "Ideas", target: "Ideas.md", line: 0 },
				{ link: "Missing", target: null, line: 0 },
			]),
		);
		expect(JSON.stringify(links)).not.toContain('Diary.md"');
	});

	test("a missing note is refused", async () => {
		expect(await tv.error("get_note_links", { path: "Nope" })).toMatch(/^No note "Nope"/);
	});
});
