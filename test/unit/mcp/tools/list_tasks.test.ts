import { openToolVault, type ToolVault } from "../../../helpers/toolVault";

interface Tasks {
	tasks: Array<{ path: string; line: number; text: string; status: string; due?: string }>;
	total: number;
}

describe("list_tasks", () => {
	let tv: ToolVault;
	beforeAll(async () => {
		tv = await openToolVault(
			{
				"Work/Plan.md": "- [ ] draft 📅 2026-12-10\n- [x] outline\n- [-] dropped\n",
				"Home.md": "- [ ] groceries 📅 2026-12-01\n- [ ] call mum\n",
				"Private/Secret.md": "- [ ] hidden task\n",
			},
			{ excluded: ["Private"] },
		);
	});
	afterAll(() => tv.close());

	const texts = async (args: Record<string, unknown>) => (await tv.ok<Tasks>("list_tasks", args)).tasks.map((task) => task.text).sort();

	test("open tasks by default, with their note, line and due date; never an excluded folder's", async () => {
		const listed = await tv.ok<Tasks>("list_tasks");
		expect(listed.tasks).toEqual(
			expect.arrayContaining([{ path: "Work/Plan.md", line: 0, text: "draft 📅 2026-12-10", status: "open", status_char: " ", due: "2026-12-10" }]),
		);
		expect(listed.tasks.map((task) => task.text)).not.toContain("hidden task");
		expect(listed.total).toBe(3);
	});

	test("status, folder, note and due dates narrow the list", async () => {
		expect(await texts({ status: "done" })).toEqual(["outline"]);
		expect(await texts({ status: "cancelled" })).toEqual(["dropped"]);
		expect(await texts({ folder: "Work" })).toEqual(["draft 📅 2026-12-10"]);
		expect(await texts({ path: "Home" })).toEqual(["call mum", "groceries 📅 2026-12-01"]);
		expect(await texts({ due_before: "2026-12-05" })).toEqual(["groceries 📅 2026-12-01"]);
		expect(await texts({ due_on: "2026-12-10" })).toEqual(["draft 📅 2026-12-10"]);
	});

	test("a date that is not YYYY-MM-DD is refused", async () => {
		expect(await tv.error("list_tasks", { due_before: "next week" })).toMatch(/YYYY-MM-DD|date/);
	});
});
