import { SEARCH_SNIPPET_CONTEXT_CHARS, SEARCH_SNIPPET_MAX_CHARS } from "../../../src/config/limits";
import { splitFrontmatter } from "../../../src/markdown/frontmatter";
import { SearchEngine } from "../../../src/search/engine";
import { parseQuery } from "../../../src/search/query";
import { memoized } from "../../../src/search/rank";
import { snippetsOf } from "../../../src/search/snippets";
import { stemmerFor } from "../../../src/search/stemmers";
import fc from "fast-check";
import { referenceSnippetsOf } from "../../helpers/snippetsReference";

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

describe("snippets read a note without an object for every word, and say what they said before", () => {
	const stemmer = stemmerFor("english");
	// Words of every kind the tokenizer tells apart: plain, forms, extensions, identifiers, versions, accents, unspaced scripts, stop words.
	const words = [
		"garden",
		"Gardens",
		"gardening",
		"gardened",
		"GARDEN",
		"plan",
		"plans",
		"planning",
		"project",
		"projects",
		"peerDependencies",
		"dependencies",
		"peer",
		"no_unused_vars",
		"v5",
		"V20",
		"5",
		"café",
		"Café",
		"東京",
		"the",
		"a",
		"meeting",
		"Meetings",
		"review",
		"market",
		"x",
		"Éclair",
		"éclairs",
	];
	const separators = [" ", " ", " ", "  ", "\n", "\n\n", "\t", ", ", ". ", "-", " (", ") ", " \u00A0", "'s "];
	const pieces = [
		...words,
		...separators,
		"https://github.com/garden/plans?x=1",
		"https://garden.example.com/",
		"http://a.b/c.",
		"[link](https://example.com/garden-plan)",
		"#tag/garden",
		"`code garden`",
	];
	const queries = [
		"garden",
		"gardens",
		"plan project",
		'"garden plan"',
		'"plan project meeting"',
		"peer dependencies",
		"peerDependencies",
		"v5",
		"5",
		"cafe",
		"東",
		"the garden",
		"ga",
		"x",
		"eclair",
		"github",
		"example",
		'"garden"',
		"market review garden plan project",
	];
	const note = fc
		.tuple(fc.boolean(), fc.array(fc.constantFrom(...pieces), { maxLength: 400 }))
		.map(([frontmatter, parts]) => (frontmatter ? "---\ntags: [garden]\n---\n" : "") + parts.join(""));

	test("for random notes and queries, the same snippets as when every word was an object", () => {
		fc.assert(
			fc.property(note, fc.constantFrom(...queries), (text, typed) => {
				const query = parseQuery(typed);
				expect(snippetsOf(text, query, memoized(stemmer))).toEqual(referenceSnippetsOf(text, query, memoized(stemmer)));
				expect(snippetsOf(text, query, null)).toEqual(referenceSnippetsOf(text, query, null));
			}),
			{ numRuns: 400, seed: 36 },
		);
	});

	test("a note longer than the part looked through, its only match past it, and matches across a piece's end: the same snippets", () => {
		const filler = "lorem ipsum dolor sit amet ".repeat(6000);
		for (const text of [filler + "garden plan", "garden " + filler + "garden plan", "x".repeat(511) + " garden plan " + "plan garden ".repeat(300)]) {
			for (const typed of ["garden", '"garden plan"', "plan garden", "lorem"]) {
				const query = parseQuery(typed);
				expect(snippetsOf(text, query, memoized(stemmer))).toEqual(referenceSnippetsOf(text, query, memoized(stemmer)));
			}
		}
	});
});

describe("web addresses of 90 KB beside a match (within the part of a note looked through)", () => {
	const address = `http://${"a.b".repeat(30_000)}`;
	/** A passage and its context on both sides, an ellipsis each side and the marks. */
	const LONGEST_SNIPPET = SEARCH_SNIPPET_MAX_CHARS + 2 * SEARCH_SNIPPET_CONTEXT_CHARS + 8;

	test.each([
		["before the address", `See plum here ${address} end\n`],
		["after the address", `Start ${address} then plum here\n`],
	])("a match %s gives a passage cut inside the address, not one stretched over all of it (a snippet of 90 KB)", async (_where, text) => {
		const snippets = await snippetsFor(text, "plum");
		expect(snippets.join(" ")).toContain("«plum» here");
		for (const snippet of snippets) expect(snippet.length).toBeLessThanOrEqual(LONGEST_SNIPPET);
	});

	test("a short address beside a match is still shown by its host", async () => {
		expect(await snippetsFor("See plum at https://example.org/a/long/path today\n", "plum")).toEqual(["See «plum» at example.org/… today"]);
	});
});
