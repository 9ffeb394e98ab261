import { openToolVault, type ToolVault } from "../../../helpers/toolVault";

describe("list_bases", () => {
	let tv: ToolVault;
	afterAll(() => tv.close());

	test("each visible .base file with its views; a base that does not parse still listed, excluded folders never", async () => {
		tv = await openToolVault(
			{
				"Books.base": "views:\n  - name: Reading\n  - name: Done\n",
				"Broken.base": "views: [unclosed",
				"Private/Secret.base": "views:\n  - name: S\n",
			},
			{ excluded: ["Private"] },
		);
		const listed = await tv.ok<{ bases: Array<{ path: string; views?: string[] }>; total: number }>("list_bases");
		expect(listed.bases.map((base) => base.path)).toEqual(["Books.base", "Broken.base"]);
		expect(listed.bases[0]?.views).toEqual(["Reading", "Done"]);
	});
});
