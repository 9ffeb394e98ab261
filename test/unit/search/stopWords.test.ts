import { ENGLISH_STOP_WORDS } from "../../../src/search/stopWords";
import { stopWordSet } from "../../../src/search/query";
import { tokenize } from "../../../src/search/text";

describe("the default English stop words", () => {
	test("each is one token as search folds it, so each can be made optional in a query", () => {
		for (const word of ENGLISH_STOP_WORDS) expect(tokenize(word).map((token) => token.value)).toEqual([word]);
		expect(stopWordSet(ENGLISH_STOP_WORDS).size).toBe(ENGLISH_STOP_WORDS.length);
	});

	test("hold the small words of a question, never a word that names a topic", () => {
		expect(ENGLISH_STOP_WORDS).toEqual(expect.arrayContaining(["the", "a", "to", "how"]));
		for (const topic of ["template", "templates", "project", "meeting", "daily", "note"]) expect(ENGLISH_STOP_WORDS).not.toContain(topic);
	});
});
