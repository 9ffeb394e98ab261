import { DEFAULT_SEARCH_LANGUAGE, SEARCH_LANGUAGES } from "../../../src/search/languages";
import { stemmerFor } from "../../../src/search/stemmers";

describe("the search languages a person can choose", () => {
	test("'none' first, then each language once, in alphabetical order; English by default", () => {
		expect(SEARCH_LANGUAGES[0]).toBe("none");
		const named = SEARCH_LANGUAGES.slice(1);
		expect([...named].sort()).toEqual(named);
		expect(new Set(named).size).toBe(named.length);
		expect(DEFAULT_SEARCH_LANGUAGE).toBe("english");
	});

	test("every language but 'none' has a stemmer that matches word forms", () => {
		expect(stemmerFor("none")).toBeNull();
		for (const language of SEARCH_LANGUAGES.slice(1)) expect(typeof stemmerFor(language)).toBe("function");
		expect(stemmerFor("english")?.("meetings")).toBe(stemmerFor("english")?.("meeting"));
	});
});
