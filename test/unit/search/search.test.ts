import { prepareDocument, termPositions } from "../../../src/search/engine";
import { parseQuery } from "../../../src/search/query";
import { foldText, tokenize } from "../../../src/search/text";
import { rankDocuments } from "../../../src/vault/search";

const doc = (path: string, text: string, modified = 0, headings: string[] = []) => prepareDocument(path, path.replace(/\.md$/, "").split("/").pop() ?? path, modified, text, headings);
const paths = (docs: ReturnType<typeof doc>[], query: string) => rankDocuments(docs, parseQuery(query), 50).results.map((hit) => hit.path);

describe("tokenize and fold", () => {
	test("case, diacritics and compatibility forms fold away", () => {
		expect(foldText("Café NAÏVE Ｆｕｌｌ")).toBe("cafe naive full");
		expect(tokenize("Résumé, naïve—café!").map((token) => token.value)).toEqual(["resume", "naive", "cafe"]);
	});

	test("numbers and snake_case words are whole tokens; kebab-case splits into parts", () => {
		expect(tokenize("v2 2024 snake_case_word kebab-case 3.14").map((token) => token.value)).toEqual(["v2", "2024", "snake_case_word", "kebab", "case", "3", "14"]);
	});

	test("Chinese and Japanese characters are one token each, with their offsets", () => {
		expect(tokenize("東京タワー").map((token) => [token.value, token.start])).toEqual([["東", 0], ["京", 1], ["タ", 2], ["ワ", 3], ["ー", 4]]);
	});
});

describe("parseQuery", () => {
	test("words, quoted phrases and exclusions", () => {
		const parsed = parseQuery('garden "raised bed" -weeds -"old shed"');
		expect(parsed.required.map((term) => term.tokens)).toEqual([["garden"], ["raised", "bed"]]);
		expect(parsed.excluded.map((term) => term.tokens)).toEqual([["weeds"], ["old", "shed"]]);
	});

	test("a compound word becomes a phrase of its parts", () => {
		expect(parseQuery("john.doe@example.com").required.map((term) => term.tokens)).toEqual([["john", "doe", "example", "com"]]);
	});
});

describe("search semantics", () => {
	const docs = [
		doc("Garden.md", "Plan the raised bed. Water the herbs.", 1),
		doc("Shed.md", "The old shed needs paint. Garden tools live here.", 2),
		doc("Contacts.md", "Write to john.doe@example.com about the garden.", 3),
		doc("Other.md", "john wrote from example.org; doe is a deer.", 4),
		doc("Tokyo.md", "旅行の計画: 東京タワーに行く", 5),
		doc("Cafe.md", "Le café est naïve.", 6),
		doc("Codes.md", "Ticket ABC-123 and snake_case_name and v2.3.1", 7),
	];

	test("every word must match; prefixes count", () => {
		expect(paths(docs, "garden")).toEqual(expect.arrayContaining(["Garden.md", "Shed.md", "Contacts.md"]));
		expect(paths(docs, "garden herbs")).toEqual(["Garden.md"]);
		expect(paths(docs, "gard")).toHaveLength(3);
	});

	test("an email address matches only notes with that address, not notes sharing one part", () => {
		expect(paths(docs, "john.doe@example.com")).toEqual(["Contacts.md"]);
	});

	test("phrases match words in a row; exclusions remove notes", () => {
		expect(paths(docs, '"old shed"')).toEqual(["Shed.md"]);
		expect(paths(docs, '"shed old"')).toEqual([]);
		expect(paths(docs, "garden -shed")).toEqual(expect.not.arrayContaining(["Shed.md"]));
	});

	test("case and diacritics are ignored both ways", () => {
		expect(paths(docs, "CAFE naive")).toEqual(["Cafe.md"]);
		expect(paths(docs, "café")).toEqual(["Cafe.md"]);
	});

	test("Chinese and Japanese queries find notes containing them", () => {
		expect(paths(docs, "東京")).toEqual(["Tokyo.md"]);
		expect(paths(docs, "計画")).toEqual(["Tokyo.md"]);
		expect(paths(docs, "京東")).toEqual([]);
	});

	test("numbers, codes, snake_case and kebab-case are findable whole", () => {
		expect(paths(docs, "ABC-123")).toEqual(["Codes.md"]);
		expect(paths(docs, "snake_case_name")).toEqual(["Codes.md"]);
		expect(paths(docs, "v2.3.1")).toEqual(["Codes.md"]);
	});

	test("a title match ranks above a body match; ties go to the newer note", () => {
		expect(paths(docs, "garden")[0]).toBe("Garden.md");
		const tie = [doc("A.md", "same words here", 10), doc("B.md", "same words here", 20)];
		expect(paths(tie, "same")).toEqual(["B.md", "A.md"]);
	});

	test("snippets mark every match «like this» and keep the original spelling", () => {
		const [hit] = rankDocuments([doc("Cafe.md", "Le Café est naïve.")], parseQuery("cafe naive"), 5).results;
		expect(hit?.snippets).toEqual(["Le «Café» est «naïve»."]);
	});

	test("termPositions finds phrase starts and prefix matches on the last token", () => {
		expect(termPositions(["a", "big", "garden", "big", "gardening"], { tokens: ["big", "garden"], source: "" })).toEqual([1, 3]);
	});
});
