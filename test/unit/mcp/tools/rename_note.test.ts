import { openToolVault, WRITES_ALLOWED, type ToolVault } from "../../../helpers/toolVault";

describe("rename_note", () => {
	let tv: ToolVault;
	beforeEach(async () => {
		tv = await openToolVault(
			{ "Ideas.md": "# Ideas\n", "Plan.md": "See [[Ideas]] and [[Ideas#Top|the top]].\n", "Taken.md": "" },
			{ canWrite: true, rights: WRITES_ALLOWED, excluded: ["Private"] },
		);
	});
	afterEach(() => tv.close());

	test("moves the note and updates every link to it", async () => {
		expect(await tv.ok("rename_note", { path: "Ideas", new_path: "Archive/Thoughts" })).toMatchObject({
			path: "Ideas.md",
			new_path: "Archive/Thoughts.md",
		});
		expect(await tv.read("Ideas.md")).toBeNull();
		expect(await tv.read("Archive/Thoughts.md")).toBe("# Ideas\n");
		// The shortest link that reaches the note, as Obsidian writes it; the heading and the alias are kept.
		expect(await tv.read("Plan.md")).toBe("See [[Thoughts]] and [[Thoughts#Top|the top]].\n");
		expect(await tv.read("Plan.md")).not.toContain("[[Ideas");
	});

	test("a taken or excluded new path is refused and nothing moves", async () => {
		expect(await tv.error("rename_note", { path: "Ideas", new_path: "Taken" })).toBeTruthy();
		expect(await tv.error("rename_note", { path: "Ideas", new_path: "Private/Ideas" })).toBeTruthy();
		expect(await tv.read("Ideas.md")).toBe("# Ideas\n");
		expect(await tv.read("Plan.md")).toBe("See [[Ideas]] and [[Ideas#Top|the top]].\n");
	});
});
