import { SEARCH_SNIPPET_CONTEXT_CHARS, SEARCH_SNIPPET_MAX_CHARS, SNIPPET_TOKENIZE_CHUNK_CHARS } from "../../../src/config/limits";
import { SearchEngine, type SearchAnswer } from "../../../src/search/engine";
import { parseQuery, stopWordSet, withStopWords } from "../../../src/search/query";
import { ENGLISH_STOP_WORDS } from "../../../src/search/stopWords";

interface Doc {
	path: string;
	text: string;
	modified?: number;
}

const ENGLISH = stopWordSet(ENGLISH_STOP_WORDS);

/** Searches as search_notes does: the English stop words apply unless others are given. */
function searchDocs(docs: readonly Doc[], query: string, stopWords = ENGLISH, limit = 50): Promise<SearchAnswer> {
	const engine = new SearchEngine();
	for (const entry of docs) engine.index.add(entry.path, entry.path.replace(/\.md$/, "").split("/").pop() ?? entry.path, entry.modified ?? 0, entry.text, []);
	const texts = new Map(docs.map((entry) => [entry.path, entry.text]));
	return engine.search(withStopWords(parseQuery(query), stopWords), null, limit, (path) => Promise.resolve(texts.get(path) ?? ""));
}

const paths = async (docs: readonly Doc[], query: string, stopWords = ENGLISH) => (await searchDocs(docs, query, stopWords)).results.map((hit) => hit.path);
const snippets = async (text: string, query: string) => (await searchDocs([{ path: "Note.md", text }], query)).results[0]?.snippets;

describe("stop words", () => {
	test("a query's unquoted stop words become optional; quoted ones and exclusions stay as typed", () => {
		const split = withStopWords(parseQuery('how to use "the" templates -a'), ENGLISH);
		expect(split.required.map((term) => term.source)).toEqual(["use", "the", "templates"]);
		expect(split.optional.map((term) => term.source)).toEqual(["how", "to"]);
		expect(split.excluded.map((term) => term.source)).toEqual(["a"]);
	});

	test("a query of nothing but stop words keeps them all required", () => {
		const split = withStopWords(parseQuery("to be or not"), stopWordSet(["to", "be", "or", "not"]));
		expect(split.required.map((term) => term.source)).toEqual(["to", "be", "or", "not"]);
		expect(split.optional).toEqual([]);
	});

	test("the list is folded like the text: case and accents do not matter", () => {
		expect(stopWordSet(["The", "Où"])).toEqual(new Set(["the", "ou"]));
	});

	const notes: Doc[] = [
		{ path: "Templates.md", text: "Start a new note from a template: pick one and fill in the blanks. Use templates for meetings." },
		{ path: "Newsletter 1.md", text: "Issue one. How to use your time: how to plan, how to rest. Templates are mentioned once." },
		{ path: "Recipes.md", text: "How to bake bread." },
	];

	test("`how to use templates` finds the Templates note, which holds neither how nor to, first", async () => {
		const found = await paths(notes, "how to use templates");
		expect(found[0]).toBe("Templates.md");
		expect(found).toContain("Newsletter 1.md");
		expect(found).not.toContain("Recipes.md");
	});

	test("stop words still rank: of two otherwise equal notes, the one holding them comes first", async () => {
		const twins: Doc[] = [
			{ path: "A.md", text: "compost heap notes", modified: 2 },
			{ path: "B.md", text: "compost heap notes how to", modified: 1 },
		];
		expect(await paths(twins, "how to compost")).toEqual(["B.md", "A.md"]);
	});

	test("with an empty stop-word list every word is wanted, but holding the everyday ones does not outrank the note titled with the telling one", async () => {
		// How and to are everyday words here: most notes hold them.
		const everyday: Doc[] = [...notes, { path: "Garden.md", text: "How to dig a bed." }, { path: "Bikes.md", text: "How to fix a chain." }];
		const answer = await searchDocs(everyday, "how to use templates", new Set());
		expect(answer.results.map((hit) => [hit.path, hit.matched_words])).toEqual([
			["Templates.md", ["use", "templates"]],
			["Newsletter 1.md", ["how", "to", "use", "templates"]],
			["Recipes.md", ["how", "to"]],
			["Bikes.md", ["how", "to"]],
			["Garden.md", ["how", "to"]],
		]);
	});

	test("stop words are never marked in snippets; the other words are", async () => {
		expect(await snippets("Today: how to prune roses.", "how to prune")).toEqual(["Today: how to «prune» roses."]);
	});
});

describe("phrases in the packed bodies", () => {
	const words = Array.from({ length: 40 }, (_, index) => `w${index}`);
	const docs: Doc[] = [
		{ path: "Long.md", text: `start ${words.join(" ")} end; again ${words.slice(0, 3).join(" ")}` },
		{ path: "Shuffled.md", text: [...words].reverse().join(" ") },
	];

	test("a phrase of 40 words (longer than the one-pass window) matches only the note with them in a row", async () => {
		expect(await paths(docs, `"${words.join(" ")}"`)).toEqual(["Long.md"]);
	});

	test("a short phrase is counted each time it stands in a row, and never across a gap", async () => {
		expect(await paths(docs, `"${words.slice(0, 3).join(" ")}"`)).toEqual(["Long.md"]);
		expect(await paths(docs, '"w1 w0"')).toEqual(["Shuffled.md"]);
		expect(await paths(docs, '"end again w0"')).toEqual(["Long.md"]);
		expect(await paths(docs, '"w39 again"')).toEqual([]);
	});
});

describe("link addresses", () => {
	const badges = Array.from({ length: 10 }, (_, index) => `![badge ${index}](https://img.example.com/kanban/kanban-board/${index})`).join("\n");

	test("a word a note's addresses repeat counts once: a page saying it in prose twice ranks above a badge-heavy page", async () => {
		const docs: Doc[] = [
			{ path: "Badges.md", text: `A plugin page.\n${badges}`, modified: 9 },
			{ path: "Boards.md", text: "How I plan with a kanban board: one kanban for each project.", modified: 1 },
		];
		expect(await paths(docs, "kanban")).toEqual(["Boards.md", "Badges.md"]);
	});

	test("a word only an address holds still finds the note", async () => {
		expect(await paths([{ path: "Badges.md", text: `A plugin page.\n${badges}` }], "example")).toEqual(["Badges.md"]);
	});

	test("a phrase is found in an address whose words an earlier address held, and not across it", async () => {
		const text = "See [first](https://example.com/garden/plan) and [second](https://example.com/garden/tools) now.";
		expect(await paths([{ path: "Links.md", text }], '"garden tools"')).toEqual(["Links.md"]);
		expect(await paths([{ path: "Links.md", text }], '"second tools"')).toEqual([]);
	});
});

describe("title matches", () => {
	test("the note titled `dataview` ranks first, above notes that say dataview far more often or hold it in a longer title", async () => {
		const docs: Doc[] = [
			{ path: "Queries with Dataview.md", text: "dataview ".repeat(40), modified: 9 },
			{ path: "Plugins.md", text: "dataview dataview dataview and tasks", modified: 8 },
			{ path: "Dataview.md", text: "A plugin for querying notes, mentioned once: dataview.", modified: 1 },
		];
		expect(await paths(docs, "dataview")).toEqual(["Dataview.md", "Queries with Dataview.md", "Plugins.md"]);
	});

	test("a title made of the query's words, stop words included, counts as whole", async () => {
		const docs: Doc[] = [
			{ path: "Gardening diary.md", text: "the raised bed again, raised bed, bed bed bed, the raised bed", modified: 5 },
			{ path: "The raised bed.md", text: "Built in May.", modified: 1 },
		];
		expect(await paths(docs, "the raised bed")).toEqual(["The raised bed.md", "Gardening diary.md"]);
	});

	test("a long title's words weigh less, its stop words not counted: a question-like guide keeps its title's weight", async () => {
		const body = "Notes on the theme store.";
		const docs: Doc[] = [
			{ path: "Add theme store news graph canvas sync tips.md", text: body, modified: 9 },
			{ path: "How to add your theme to the store.md", text: body, modified: 1 },
		];
		expect(await paths(docs, "theme store")).toEqual(["How to add your theme to the store.md", "Add theme store news graph canvas sync tips.md"]);
	});

	test("of two titles holding the word, the one the query covers more of ranks higher", async () => {
		const docs: Doc[] = [
			{ path: "Parent child searches - Dataview.md", text: "dataview queries", modified: 5 },
			{ path: "Dataview format.md", text: "dataview queries", modified: 1 },
		];
		expect(await paths(docs, "dataview")).toEqual(["Dataview format.md", "Parent child searches - Dataview.md"]);
	});
});

describe("snippets", () => {
	test("a phrase split between two of the chunks a snippet is read in is still found and marked", async () => {
		// "big" ends just where the first chunk ends; "garden" starts the next.
		const text = `${"x".repeat(SNIPPET_TOKENIZE_CHUNK_CHARS - 4)} big garden plan`;
		expect(text.indexOf(" garden")).toBe(SNIPPET_TOKENIZE_CHUNK_CHARS);
		const [snippet] = (await snippets(text, '"big garden"')) ?? [];
		expect(snippet?.endsWith(" «big garden» plan")).toBe(true);
	});

	test("a word on every line gives three passages of bounded length, not the whole note", async () => {
		const found = (await snippets("compost heap\n".repeat(300), "compost")) ?? [];
		expect(found).toHaveLength(3);
		for (const passage of found) expect(passage.replace(/[«»…]/g, "").length).toBeLessThanOrEqual(SEARCH_SNIPPET_MAX_CHARS + SEARCH_SNIPPET_CONTEXT_CHARS);
	});

	test("only the first three passages are given, however long the note", async () => {
		const text = Array.from({ length: 500 }, (_, index) => `Paragraph ${index} about compost.`).join("\n\n".repeat(40));
		const found = await snippets(text, "compost");
		expect(found).toHaveLength(3);
		expect(found?.[2]).toContain("Paragraph 2 about «compost».");
	});

	test("come from the body, never the frontmatter block", async () => {
		const text = "---\ntags: [garden]\nsource: garden club\n---\n# Plan\n\nDig the garden in March.";
		expect(await snippets(text, "garden")).toEqual(["# Plan Dig the «garden» in March."]);
	});

	test("a note matched only in its frontmatter or title shows the start of its body", async () => {
		const text = "---\nstatus: archived\n---\nNothing else to say here.";
		expect(await snippets(text, "archived")).toEqual(["Nothing else to say here."]);
	});

	test("web addresses are shortened to their host", async () => {
		const text =
			"Build [![ci](https://img.shields.io/github/actions/workflow/status/x/y/ci.yml?branch=main)](https://github.com/x/y/actions) passing, see the compost guide at https://example.org/guides/soil?page=2.";
		expect(await snippets(text, "compost")).toEqual(["…img.shields.io/…)](github.com/…) passing, see the «compost» guide at example.org/…."]);
	});

	test("an address whose path holds a match is kept whole; a match in the host is marked in the short form", async () => {
		expect(await snippets("Read https://example.org/compost/guide today.", "compost")).toEqual(["Read https://example.org/«compost»/guide today."]);
		expect(await snippets("Read https://compost.example.org/a/b/c today.", "compost")).toEqual(["Read «compost».example.org/… today."]);
	});
});
