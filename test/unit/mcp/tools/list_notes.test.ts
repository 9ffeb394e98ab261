import type { HostFile } from "../../../../src/host/Host";
import { listNotesTool } from "../../../../src/mcp/tools/list_notes";
import { openToolVault, pausingContext, type ToolVault } from "../../../helpers/toolVault";

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

describe("list_notes while a note on a later page is moved out of sight", () => {
	test("the total leaves it out, as the pages do", async () => {
		const names = ["n1.md", "n2.md", "n3.md", "n4.md", "n5.md"];
		const tv = await openToolVault(Object.fromEntries(names.map((name) => [name, "x\n"])), { excluded: ["Private"] });
		try {
			const { ctx } = pausingContext(tv.vault, "Private");
			const pause = ctx.callBudget?.pause;
			if (!ctx.callBudget || !pause) throw new Error("no call budget");
			let moved = false;
			// At the call's first pause, the last note (on the second page) is renamed into the excluded folder, as Obsidian renames it.
			ctx.callBudget.pause = async () => {
				if (!moved) {
					moved = true;
					await tv.vault.host.vault.rename(tv.vault.host.vault.getFileByPath("n5.md") as HostFile, "Private/n5.md");
				}
				await pause();
			};
			const first = await listNotesTool.handler(ctx, { recursive: true, sort: "path", limit: 2 });
			expect(moved).toBe(true);
			if (!first.ok) throw new Error(first.error);
			expect(first.value.notes.map((note) => note.path)).toEqual(["n1.md", "n2.md"]);
			expect(first.value.total).toBe(4);
		} finally {
			await tv.close();
		}
	});
});
