import { EXPANSION_GROUPS, expansionsOf } from "../../../src/search/expansions";
import { stemmerFor } from "../../../src/search/stemmers";

const english = stemmerFor("english") as NonNullable<ReturnType<typeof stemmerFor>>;

describe("words meaning the same (an abbreviation and its full form)", () => {
	test("an abbreviation finds its full form and the full form its abbreviation, in any form of either", () => {
		expect(expansionsOf("params", english)).toEqual(["parameter"]);
		expect(expansionsOf("parameters", english)).toEqual(["param"]);
		expect(expansionsOf("configured", english)).toEqual(["config"]);
		expect(expansionsOf("repos", english)).toEqual(["repository"]);
		expect(expansionsOf("repository", english)).toEqual(["repo"]);
	});

	test("the verbs for 'not allowed' stand for each other", () => {
		expect([...expansionsOf("forbid", english)].sort()).toEqual(["ban", "disallow", "prohibit"]);
		expect(expansionsOf("prohibits", english)).toContain("forbid");
	});

	test("a question's everyday word stands for the page's term, and Markdown's names for a style for each other", () => {
		expect(expansionsOf("own", english)).toEqual(["custom"]);
		expect(expansionsOf("customized", english)).toEqual(["own"]);
		expect([...expansionsOf("many", english)].sort()).toEqual(["max", "maximum"]);
		expect(expansionsOf("retries", english)).toEqual(["rerun"]);
		expect(expansionsOf("several", english)).toEqual(["multiple"]);
		expect(expansionsOf("blank", english)).toEqual(["empty"]);
		expect([...expansionsOf("checking", english)].sort()).toEqual(["assert", "verify"]);
		expect(expansionsOf("bold", english)).toEqual(["strong"]);
		expect(expansionsOf("italics", english)).toEqual(["emphasis"]);
	});

	test("a word in no group, or an abbreviation left out because code uses it as a name, expands to nothing", () => {
		expect(expansionsOf("logging", english)).toEqual([]);
		expect(expansionsOf("error", english)).toEqual([]);
		expect(expansionsOf("specific", english)).toEqual([]);
	});

	test("with no stemmer, words match as typed only", () => {
		expect(expansionsOf("params", null)).toEqual([]);
		expect(expansionsOf("param", null)).toEqual(["parameter"]);
	});

	test("no two words of a group share a stem (they would be forms already), and every word is lower case", () => {
		for (const group of EXPANSION_GROUPS) {
			expect(new Set(group.map((word) => english(word))).size).toBe(group.length);
			for (const word of group) expect(word).toBe(word.toLowerCase());
		}
	});
});
