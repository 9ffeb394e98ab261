import { openToolVault, WRITES_ALLOWED, type ToolVault } from "../../../helpers/toolVault";

describe("add_task", () => {
	let tv: ToolVault;
	beforeEach(async () => {
		tv = await openToolVault({ "Todo.md": "# Todo\n- [ ] old\n\n## Later\n" }, { canWrite: true, rights: WRITES_ALLOWED });
	});
	afterEach(() => tv.close());

	test("adds an open task to the note, with its due date in the Tasks plugin's form", async () => {
		const added = await tv.ok("add_task", { text: "buy milk", due: "2026-12-24", path: "Todo" });
		expect(added).toMatchObject({ path: "Todo.md", created_note: false });
		expect(await tv.read("Todo.md")).toContain("- [ ] buy milk 📅 2026-12-24\n");
	});

	test("under a heading: at the end of its section (subsections included, as Obsidian counts a section)", async () => {
		await tv.ok("add_task", { text: "plan", path: "Todo", heading: "Later" });
		expect(await tv.read("Todo.md")).toBe("# Todo\n- [ ] old\n\n## Later\n\n- [ ] plan\n");
	});

	test("a due date that is not a date, or a task text over one line, is refused and nothing is written", async () => {
		expect(await tv.error("add_task", { text: "x", due: "tomorrow", path: "Todo" })).toMatch(/YYYY-MM-DD|date/);
		expect(await tv.error("add_task", { text: "two\nlines", path: "Todo" })).toMatch(/line/i);
		expect(await tv.read("Todo.md")).toBe("# Todo\n- [ ] old\n\n## Later\n");
	});
});
