import { openToolVault, type ToolVault } from "../../../helpers/toolVault";

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
});
