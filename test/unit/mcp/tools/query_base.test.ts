import { queryBaseTool } from "../../../../src/mcp/tools/query_base";
import { openToolVault, pausingContext, type ToolVault } from "../../../helpers/toolVault";

describe("query_base", () => {
	let tv: ToolVault;
	beforeAll(async () => {
		tv = await openToolVault(
			{
				"Books.base":
					'filters: file.ext == "md"\nviews:\n  - name: All\n    order: [file.name, rating]\n    sort:\n      - property: rating\n        direction: DESC\n',
				"Dune.md": "---\nrating: 5\n---\n",
				"Emma.md": "---\nrating: 4\n---\n",
				"Private/Secret.md": "---\nrating: 9\n---\n",
				"Bad.base": "filters: nosuch(1)\n",
			},
			{ excluded: ["Private"] },
		);
	});
	afterAll(() => tv.close());

	test("the rows of a view over the visible notes, sorted as the view says", async () => {
		const answer = await tv.ok<{ rows: Array<{ path: string; values: Record<string, unknown> }>; total: number }>("query_base", { path: "Books.base" });
		expect(answer.rows.map((row) => [row.path, row.values.rating])).toEqual([
			["Dune.md", 5],
			["Emma.md", 4],
		]);
	});

	test("a limit cuts the rows and says so; an unknown view or an unsupported function is refused with why", async () => {
		expect(await tv.ok("query_base", { path: "Books.base", limit: 1 })).toMatchObject({ total: 2, truncated: true });
		expect(await tv.error("query_base", { path: "Books.base", view: "Nope" })).toMatch(/no view "Nope"/);
		expect(await tv.error("query_base", { path: "Bad.base" })).toMatch(/nosuch\(\) is not supported/);
		expect(await tv.error("query_base", { path: "Private/Secret.base" })).toMatch(/No|not/);
	});

	test("a base counting backlinks resolves every note's links before its expressions run, giving the host its turn between links; the counts leave out excluded notes", async () => {
		// Each link is another spelling of a path into the excluded folder, so each is resolved again, one by one.
		const planted = Array.from({ length: 2_000 }, (_, index) => `[[./a${index}/../Private/Secret]]`).join(" ");
		const counted = await openToolVault(
			{
				"Linked.base": "formulas:\n  linked_from: 'file.backlinks.length'\nviews:\n  - name: All\n    order: [file.name, formula.linked_from]\n",
				"Target.md": "",
				"Other.md": "---\nup: '[[Target]]'\n---\n![[Target]] [[Planted]]\n",
				"Planted.md": `${planted} [[Target]]\n`,
				"Private/Secret.md": "[[Target]] [[Other]]\n",
			},
			{ excluded: ["Private"] },
		);
		try {
			const { ctx, pauses } = pausingContext(counted.vault, "Private");
			const answer = await queryBaseTool.handler(ctx, { path: "Linked.base", limit: 100 });
			expect(answer.ok && answer.value.rows.map((row) => [row.path, row.values["formula.linked_from"]])).toEqual([
				["Linked.base", 0],
				// Linked from the excluded note only.
				["Other.md", 0],
				["Planted.md", 1],
				["Target.md", 2],
			]);
			// Built inside the first expression that read it, the index was one piece of work, however many links.
			expect(pauses()).toBeGreaterThanOrEqual(2_000);
			expect(await counted.ok("query_base", { path: "Linked.base", limit: 100 })).toEqual(answer.ok && answer.value);
		} finally {
			await counted.close();
		}
	});
});
