import type { HostFile } from "../../../../src/host/Host";
import { listTemplatesTool } from "../../../../src/mcp/tools/list_templates";
import { openToolVault, pausingContext, type ToolVault } from "../../../helpers/toolVault";

describe("list_templates", () => {
	let tv: ToolVault;
	afterEach(() => tv.close());

	test("the notes of the templates folder Obsidian's Templates plugin names", async () => {
		tv = await openToolVault({
			"Templates/Meeting.md": "# {{title}}\n",
			"Templates/Daily/Day.md": "{{date}}\n",
			"Other.md": "",
			".obsidian/templates.json": JSON.stringify({ folder: "Templates" }),
		});
		const listed = await tv.ok<{ folder: string; templates: Array<{ path: string }>; total: number }>("list_templates");
		expect(listed.folder).toBe("Templates");
		expect(listed.templates.map((template) => template.path).sort()).toEqual(["Templates/Daily/Day.md", "Templates/Meeting.md"]);
	});

	test("a template moved out of sight while the listing was made is left out of the page and of the total alike", async () => {
		// Enough notes for the listing to pause (its sort checks the time every SORT_CHECK_ITEMS notes).
		const names = Array.from({ length: 1100 }, (_, index) => `Templates/t${String(index).padStart(4, "0")}.md`);
		tv = await openToolVault(
			{ ...Object.fromEntries(names.map((name) => [name, "x\n"])), ".obsidian/templates.json": JSON.stringify({ folder: "Templates" }) },
			{ excluded: ["Private"] },
		);
		const { ctx } = pausingContext(tv.vault, "Private");
		let moved = false;
		const pause = ctx.callBudget?.pause;
		if (!ctx.callBudget || !pause) throw new Error("no call budget");
		// At the listing's first pause, the first template is renamed into the excluded folder (the same file object, as Obsidian renames it).
		ctx.callBudget.pause = async () => {
			if (!moved) {
				moved = true;
				await tv.vault.host.vault.rename(tv.vault.host.vault.getFileByPath(names[0] as string) as HostFile, "Private/t0000.md");
			}
			await pause();
		};
		const answer = await listTemplatesTool.handler(ctx, { limit: 2000 });
		expect(moved).toBe(true);
		if (!answer.ok) throw new Error(answer.error);
		expect(answer.value.templates.map((template) => template.path)).toEqual(names.slice(1));
		expect(answer.value.total).toBe(names.length - 1);
	});

	test("a template on a later page moved out of sight while the listing was made is not in the total", async () => {
		const names = Array.from({ length: 1100 }, (_, index) => `Templates/t${String(index).padStart(4, "0")}.md`);
		tv = await openToolVault(
			{ ...Object.fromEntries(names.map((name) => [name, "x\n"])), ".obsidian/templates.json": JSON.stringify({ folder: "Templates" }) },
			{ excluded: ["Private"] },
		);
		const { ctx } = pausingContext(tv.vault, "Private");
		let moved = false;
		const pause = ctx.callBudget?.pause;
		if (!ctx.callBudget || !pause) throw new Error("no call budget");
		const last = names.at(-1) as string;
		ctx.callBudget.pause = async () => {
			if (!moved) {
				moved = true;
				await tv.vault.host.vault.rename(tv.vault.host.vault.getFileByPath(last) as HostFile, "Private/last.md");
			}
			await pause();
		};
		const answer = await listTemplatesTool.handler(ctx, { limit: 10 });
		expect(moved).toBe(true);
		if (!answer.ok) throw new Error(answer.error);
		expect(answer.value.templates.map((template) => template.path)).toEqual(names.slice(0, 10));
		expect(answer.value.total).toBe(names.length - 1);
	});

	test("no templates folder set: an answer that says so, not an error", async () => {
		tv = await openToolVault({ "Other.md": "" });
		const answer = await tv.call("list_templates");
		if (answer.ok) expect(answer.value).toMatchObject({ templates: [], total: 0 });
		else expect(answer.error).toMatch(/template/i);
	});
});
