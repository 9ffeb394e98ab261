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
});
