import { openToolVault, WRITES_ALLOWED, type ToolVault } from "../../../helpers/toolVault";

describe("complete_task", () => {
	let tv: ToolVault;
	beforeEach(async () => {
		tv = await openToolVault({ "Todo.md": "- [ ] write 📅 2026-12-10\n- [ ] read\n" }, { canWrite: true, rights: WRITES_ALLOWED });
	});
	afterEach(() => tv.close());

	test("marks the task at that line done, with the Tasks plugin's done date", async () => {
		const done = await tv.ok<{ text: string }>("complete_task", { path: "Todo", line: 0, text: "write 📅 2026-12-10", status: "x" });
		expect(done.text).toMatch(/^write 📅 2026-12-10 ✅ \d{4}-\d{2}-\d{2}$/);
		expect((await tv.read("Todo.md"))?.split("\n")[0]).toMatch(/^- \[x\] write 📅 2026-12-10 ✅ /);
	});

	test("the text must match the task at that line: a task that moved or changed is not touched", async () => {
		expect(await tv.error("complete_task", { path: "Todo", line: 1, text: "write 📅 2026-12-10", status: "x" })).toBeTruthy();
		expect(await tv.error("complete_task", { path: "Todo", line: 7, text: "read", status: "x" })).toBeTruthy();
		expect(await tv.read("Todo.md")).toBe("- [ ] write 📅 2026-12-10\n- [ ] read\n");
	});

	// Until the metadata cache has parsed an edit, the note's metadata holds its old task lines (held open
	// here: the cache returns what it had before the edit). Frontmatter put above the task moved it to
	// line 4; line 1 now holds `tags: [alpha]`, which the old metadata still calls a task.
	test("right after an edit the cache has not taken in, no line that is not a task is changed or offered, and a task of the text is completed", async () => {
		const { host } = tv.vault;
		const file = host.vault.getFileByPath("Todo.md");
		if (!file) throw new Error("Todo.md is missing");
		const before = host.metadataCache.getFileCache(file);
		const edited = "---\ntags: [alpha]\n---\n- [ ] write 📅 2026-12-10\n- [ ] read\n```\n- [ ] in code\n```\n";
		await host.vault.process(file, () => edited);
		const lagging = jest.spyOn(host.metadataCache, "getFileCache").mockImplementation(() => before);
		try {
			expect(await tv.error("complete_task", { path: "Todo", line: 1, text: "tags: [alpha]", status: "x" })).toMatch(/Nothing was changed/);
			// The cache has no task on line 6, so the note's text is parsed: a `- [ ]` in a code block is no task there either.
			const refused = await tv.error("complete_task", { path: "Todo", line: 6, text: "in code", status: "x" });
			expect(refused).toMatch(/Nothing was changed/);
			expect(refused).not.toMatch(/alpha|---/);
			expect(refused).toMatch(/Its open tasks: .*read/);
			expect(await tv.read("Todo.md")).toBe(edited);
			// Nor on line 4, where the text has one: it is completed (before, refused until the cache took the edit in).
			await tv.call("complete_task", { path: "Todo", line: 4, text: "read", status: "x" });
			expect(await tv.read("Todo.md")).toMatch(/^- \[x\] read ✅ \d{4}-\d{2}-\d{2}$/mu);
		} finally {
			lagging.mockRestore();
		}
	});
});
