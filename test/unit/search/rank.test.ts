import { SearchEngine } from "../../../src/search/engine";
import { parseQuery } from "../../../src/search/query";
import { titleCoverage } from "../../../src/search/rank";

describe("how well a title and the query overlap", () => {
	test("a title holding more of the query's rarity covers it better, though both are all query words", () => {
		// `Garden` and `Garden Tools` for `garden tool shed`, three words as rare: the share of the title alone is 1 for both.
		expect(titleCoverage(2, 2, 2 / 3)).toBeGreaterThan(titleCoverage(1, 1, 1 / 3));
		expect(titleCoverage(1, 1, 1)).toBe(1);
		expect(titleCoverage(0, 3, 0.5)).toBe(0);
	});

	test("a title mostly made of other words covers the query less", () => {
		expect(titleCoverage(1, 6, 1)).toBeLessThan(titleCoverage(1, 2, 1));
	});

	test("ranks a title holding two of three query words above a one-word title holding one", async () => {
		const engine = new SearchEngine();
		const body = "Notes about the garden, its tools and the shed.";
		engine.add("Garden.md", "Garden", 1, body, []);
		engine.add("Garden Tools.md", "Garden Tools", 1, body, []);
		engine.add("Other.md", "Other", 1, "Nothing here.", []);
		const answer = await engine.search(parseQuery("garden tool shed"), null, 10, async () => body);
		expect(answer.results.map((hit) => hit.path)).toEqual(["Garden Tools.md", "Garden.md"]);
	});
});
