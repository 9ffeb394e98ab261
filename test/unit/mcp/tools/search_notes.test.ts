import { openToolVault, type ToolVault } from "../../../helpers/toolVault";

interface Found {
	total: number;
	results: Array<{ path: string; matched_words: string[]; snippets: string[] }>;
}

describe("search_notes", () => {
	let tv: ToolVault;
	beforeAll(async () => {
		tv = await openToolVault(
			{
				"Projects/Garden.md": "---\ntags: [home]\n---\nPlant tomatoes in May.\n",
				"Journal/Day.md": "Watered the tomatoes today.\n",
				"Private/Diary.md": "tomatoes are secret\n",
			},
			{ excluded: ["Private"] },
		);
	});
	afterAll(() => tv.close());

	const paths = async (args: Record<string, unknown>) => (await tv.ok<Found>("search_notes", args)).results.map((result) => result.path).sort();

	test("finds the visible notes holding the words, never an excluded one, with marked snippets", async () => {
		const found = await tv.ok<Found>("search_notes", { query: "tomatoes" });
		expect(found.results.map((result) => result.path).sort()).toEqual(["Journal/Day.md", "Projects/Garden.md"]);
		expect(found.results[0]?.snippets.join(" ")).toMatch(/«tomatoes»/i);
	});

	test("a folder or a tag narrows the results", async () => {
		expect(await paths({ query: "tomatoes", folder: "Journal" })).toEqual(["Journal/Day.md"]);
		expect(await paths({ query: "tomatoes", tag: "home" })).toEqual(["Projects/Garden.md"]);
	});

	test("an exclusion removes notes; a word nowhere finds nothing", async () => {
		expect(await paths({ query: "tomatoes -may" })).toEqual(["Journal/Day.md"]);
		expect(await paths({ query: "zucchini" })).toEqual([]);
	});
});
