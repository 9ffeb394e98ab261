import { EXCLUDED_SEARCH_MAX_WORDS } from "../../../../src/config/limits";
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

describe("search_notes excluding prefixes that start more words than a search may take", () => {
	let tv: ToolVault;
	beforeAll(async () => {
		// One note of EXCLUDED_SEARCH_MAX_WORDS + 1 distinct words starting `co`, one note the search looks for.
		const planted = Array.from({ length: EXCLUDED_SEARCH_MAX_WORDS + 1 }, (_, n) => `co${n.toString(36)}q`).join(" ");
		tv = await openToolVault({ "Planted.md": `${planted}\ntomatoes\n`, "Garden.md": "Plant tomatoes in May.\n" });
	});
	afterAll(() => tv.close());

	test("answers a clear error rather than a page holding notes it was asked to leave out", async () => {
		expect(await tv.error("search_notes", { query: "tomatoes -co" })).toMatch(
			new RegExp(
				`^The excluded words start more than ${EXCLUDED_SEARCH_MAX_WORDS.toLocaleString("en-US")} words .*nothing was searched\\. Exclude longer words`,
			),
		);
		// A longer excluded word is taken whole.
		expect((await tv.ok<Found>("search_notes", { query: "tomatoes -co1" })).results.map((result) => result.path)).toEqual(["Garden.md"]);
	});
});
