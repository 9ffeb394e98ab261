import { SEARCH_LANGUAGES, stemmerFor } from "../../../src/search/stemmers";

describe("word forms by language", () => {
	test("every offered language stems (none gives no stemmer), and forms of one word share a stem", () => {
		expect(stemmerFor("none")).toBeNull();
		for (const language of SEARCH_LANGUAGES.filter((name) => name !== "none")) expect(typeof stemmerFor(language)?.("testing")).toBe("string");
		const english = stemmerFor("english");
		expect(["renamed", "renaming", "renames"].map((word) => english?.(word))).toEqual(["renam", "renam", "renam"]);
		expect(english?.("plugins")).toBe(english?.("plugin"));
	});

	test("English is the Snowball English stemmer: an adverb and a noun in -ion share their word's stem", () => {
		const english = stemmerFor("english");
		expect(english?.("quickly")).toBe(english?.("quick"));
		expect(english?.("deletion")).toBe(english?.("delete"));
		expect(english?.("generated")).toBe(english?.("generation"));
		// Letters outside English pass through whole, whatever the setting.
		expect(["straße", "привет"].map((word) => english?.(word))).toEqual(["straße", "привет"]);
	});

	test("a three-letter word meets its own forms when the stemmer only respells its ending, never when it would cut it shorter", () => {
		const english = stemmerFor("english");
		expect(["spy", "spies", "spying", "spied"].map((word) => english?.(word))).toEqual(["spi", "spi", "spi", "spi"]);
		expect(english?.("try")).toBe(english?.("trying"));
		// Cut shorter, a short word would merge with another: `its` is not `it`, `ids` not `id`.
		expect(["its", "ids", "ups", "sky"].map((word) => english?.(word))).toEqual(["its", "ids", "ups", "sky"]);
	});

	test("short words, numbers and codes stem to themselves", () => {
		const english = stemmerFor("english");
		expect(["is", "was", "2024", "v2", "snake_case"].map((word) => english?.(word))).toEqual(["is", "was", "2024", "v2", "snake_case"]);
	});
});
