import { openToolVault, WRITES_ALLOWED, type ToolVault } from "../../../helpers/toolVault";

describe("insert_under_bullet", () => {
	let tv: ToolVault;
	beforeEach(async () => {
		tv = await openToolVault(
			{ "Outline.md": "- Work\n  - email\n- Home\n", "Prose.md": "# Title\nA paragraph.\n" },
			{ canWrite: true, rights: WRITES_ALLOWED },
		);
	});
	afterEach(() => tv.close());

	test("adds a child as the last child of the bullet, indented one level deeper", async () => {
		await tv.ok("insert_under_bullet", { path: "Outline", bullet: "Work", content: "call Ann" });
		expect(await tv.read("Outline.md")).toBe("- Work\n  - email\n  - call Ann\n- Home\n");
		await tv.ok("insert_under_bullet", { path: "Outline", bullet: "Home", content: "fix tap" });
		expect(await tv.read("Outline.md")).toBe("- Work\n  - email\n  - call Ann\n- Home\n  - fix tap\n");
	});

	test("a note that is not an outline, or a bullet that is not there, is refused and nothing changes", async () => {
		expect(await tv.error("insert_under_bullet", { path: "Prose", bullet: "Title", content: "x" })).toMatch(/not an outline.*append_to_note/);
		expect(await tv.error("insert_under_bullet", { path: "Outline", bullet: "Garden", content: "x" })).toMatch(/Garden/);
		expect(await tv.read("Outline.md")).toBe("- Work\n  - email\n- Home\n");
	});
});
