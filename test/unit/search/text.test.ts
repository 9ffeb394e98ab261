import { identifierParts, tokenize, tokenChunks } from "../../../src/search/text";

const values = (text: string) => tokenize(text).map((token) => token.value);

describe("identifiers in camel case or with underscores", () => {
	test("give the whole word, then each part, with the parts' own offsets", () => {
		expect(tokenize("set peerDependencies").map((token) => [token.value, token.start, token.end])).toEqual([
			["set", 0, 3],
			["peerdependencies", 4, 20],
			["peer", 4, 8],
			["dependencies", 8, 20],
		]);
		expect(values("XMLHttpRequest")).toEqual(["xmlhttprequest", "xml", "http", "request"]);
		expect(values("no_unused_vars")).toEqual(["no_unused_vars", "no", "unused", "vars"]);
		expect(values("http2Server")).toEqual(["http2server", "http2", "server"]);
	});

	test("plain words, capitalised words, acronyms and their plurals stay one token", () => {
		expect(values("Plain Word HTML URLs IDs iOS eBay")).toEqual(["plain", "word", "html", "urls", "ids", "ios", "ebay"]);
		expect(identifierParts("Word")).toEqual([]);
		expect(identifierParts("URLs")).toEqual([]);
	});

	test("a word outside ASCII is never split", () => {
		expect(values("ÉcoleNormale")).toEqual(["ecolenormale"]);
	});

	test("the chunked tokenizer gives the same tokens", () => {
		const text = "use peerDependencies and XMLHttpRequest or snake_case_words ".repeat(40);
		const chunked = [...tokenChunks(text, 0, 37)].flat();
		expect(chunked).toEqual(tokenize(text));
	});
});
