import { splitFrontmatter } from "../../../src/markdown/frontmatter";
import { SearchEngine } from "../../../src/search/engine";
import { parseQuery } from "../../../src/search/query";

/** The snippets of a one-note search for `query`. */
async function snippetsFor(text: string, query: string): Promise<string[]> {
	const engine = new SearchEngine();
	engine.index.add("Note.md", "Note", 1, text, []);
	const answer = await engine.search(parseQuery(query), null, 10, () => Promise.resolve(text));
	return answer.results[0]?.snippets ?? [];
}

describe("snippets and the Markdown parser read one frontmatter fence", () => {
	// Each opening line a person may type: the parser's verdict decides whether the block is frontmatter.
	const openings = ["---", "--- ", "---\t", "---\u00A0", "---\r", "---x", " ---"];

	test.each(openings)("a note opening %j: the snippet shows the block exactly when the parser does not read it as frontmatter", async (opening) => {
		const text = `${opening}\nsecret: plum\n---\nThe orchard blooms in plum colours.\n`;
		const parsedAsFrontmatter = splitFrontmatter(text) !== null;
		const shown = (await snippetsFor(text, "plum")).join(" ");
		expect(shown).toContain("«plum» colours");
		expect(shown.includes("secret")).toBe(!parsedAsFrontmatter);
	});

	test("a note opening `---\\u00A0` gets the parser's answer: the block is shown in no snippet when the parser reads it as frontmatter", async () => {
		const text = "---\u00A0\nsecret: plum\n---\nThe orchard blooms in plum colours.\n";
		const parsed = splitFrontmatter(text);
		expect(await snippetsFor(text, "plum")).toEqual(
			parsed === null ? ["--- secret: «plum» --- The orchard blooms in «plum» colours."] : ["The orchard blooms in «plum» colours."],
		);
	});

	test("a note matched only in its frontmatter shows the start of its body", async () => {
		const text = "---\nsecret: plum\n---\nThe orchard blooms.\n";
		expect(await snippetsFor(text, "plum")).toEqual(["The orchard blooms."]);
	});
});
