import { joinsPartialAnswer } from "../../../src/search/candidates";
import { SearchEngine } from "../../../src/search/engine";
import { parseQuery } from "../../../src/search/query";

describe("which notes join a partial answer", () => {
	test("a note holding the minimum joins; one word fewer joins only when its title or an alias holds one", () => {
		expect(joinsPartialAnswer(3, 3, false)).toBe(true);
		expect(joinsPartialAnswer(2, 3, false)).toBe(false);
		expect(joinsPartialAnswer(2, 3, true)).toBe(true);
		expect(joinsPartialAnswer(1, 3, true)).toBe(false);
		expect(joinsPartialAnswer(0, 1, true)).toBe(false);
	});

	test("the note titled with one word of a five-word question is found, though it holds only two of the words", async () => {
		const engine = new SearchEngine();
		const texts = new Map<string, string>([
			["Rebuild.md", "Run the build steps again for every installed package on this machine."],
			["Config.md", "Rebuild native addons after upgrading: the config lists every option."],
			["Other.md", "Nothing about the question here at all."],
		]);
		engine.index.add("Rebuild.md", "rebuild", 1, texts.get("Rebuild.md") ?? "", []);
		engine.index.add("Config.md", "config", 1, texts.get("Config.md") ?? "", []);
		engine.index.add("Other.md", "other", 1, texts.get("Other.md") ?? "", []);
		const answer = await engine.search(parseQuery("rebuild native addons every machine"), null, 10, async (path) => texts.get(path) ?? "");
		expect(answer.results.map((hit) => [hit.path, hit.matched_words])).toContainEqual(["Rebuild.md", ["rebuild", "every", "machine"]]);
		const partial = await engine.search(parseQuery("rebuild native addons upgrading machine"), null, 10, async (path) => texts.get(path) ?? "");
		expect(partial.results.map((hit) => hit.path)).toEqual(["Config.md", "Rebuild.md"]);
	});
});
