import { PROXIMITY_CANDIDATES, SEARCH_ALIAS_MAX_WORDS } from "../../../src/config/limits";
import { SearchEngine, type SearchAnswer } from "../../../src/search/engine";
import { parseQuery, stopWordSet, withStopWords } from "../../../src/search/query";
import { stemmerFor } from "../../../src/search/stemmers";
import { ENGLISH_STOP_WORDS } from "../../../src/search/stopWords";
import { replaceMethod } from "../../helpers/replaceMethod";

interface Doc {
	path: string;
	text: string;
	aliases?: string[];
	modified?: number;
}

const ENGLISH = stopWordSet(ENGLISH_STOP_WORDS);

/** Searches as search_notes does (English stop words), over notes titled by their file names. */
function searchDocs(docs: readonly Doc[], query: string, options: { limit?: number; engine?: SearchEngine } = {}): Promise<SearchAnswer> {
	const engine = options.engine ?? new SearchEngine();
	for (const entry of docs)
		engine.index.add(entry.path, entry.path.replace(/\.md$/, "").split("/").pop() ?? entry.path, entry.modified ?? 0, entry.text, [], entry.aliases ?? []);
	const texts = new Map(docs.map((entry) => [entry.path, entry.text]));
	return engine.search(withStopWords(parseQuery(query), ENGLISH), null, options.limit ?? 10, (path) => Promise.resolve(texts.get(path) ?? ""));
}

const paths = async (docs: readonly Doc[], query: string, options: { limit?: number; engine?: SearchEngine } = {}) =>
	(await searchDocs(docs, query, options)).results.map((hit) => hit.path);

describe("ranking by evidence strength: as typed ≫ another form ≫ a longer word it starts", () => {
	test("the note titled Git ranks above notes whose titles only start with git, however short or often they say it", async () => {
		const docs: Doc[] = [
			{ path: "GitHub Desktop.md", text: "github github github desktop", modified: 9 },
			{ path: "gitignore.md", text: "gitignore", modified: 8 },
			{ path: "git-sync.md", text: "git-sync keeps the vault in a repository", modified: 7 },
			{ path: "Git.md", text: "Version control for the vault: commits, branches and history explained at length here.", modified: 1 },
		];
		const found = await paths(docs, "git");
		expect(found[0]).toBe("Git.md");
		// git-sync holds "git" as a word of its own (the tokenizer splits the hyphen): it beats the mere extensions.
		expect(found.slice(1, 2)).toEqual(["git-sync.md"]);
		expect(found.slice(2).sort()).toEqual(["GitHub Desktop.md", "gitignore.md"]);
	});

	test("prefix matches fill a page, never outrank a note holding the word as typed", async () => {
		const docs: Doc[] = [
			{ path: "Plugins everywhere.md", text: "plugin plugins plugging plugged pluggable", modified: 5 },
			{ path: "Sink.md", text: "Put the plug in the sink.", modified: 1 },
		];
		const answer = await searchDocs(docs, "plug");
		expect(answer.results.map((hit) => hit.path)).toEqual(["Sink.md", "Plugins everywhere.md"]);
		expect(answer.total).toBe(2);
	});

	test("among several words, a title word the query word only starts is no title match: the note holding the word as typed ranks first", async () => {
		const filler = Array.from({ length: 30 }, (_, index) => ({ path: `Other ${index}.md`, text: `food list number ${index} of the category` }));
		const docs: Doc[] = [
			...filler,
			{ path: "Catalog Food.md", text: "A list of food things." },
			{ path: "Pets.md", text: "My cat likes this food a lot; a long note about many things, and more words, and more words, and more words." },
		];
		const answer = await searchDocs(docs, "cat food");
		expect(answer.results.slice(0, 2).map((hit) => hit.path)).toEqual(["Pets.md", "Catalog Food.md"]);
		// Still found, and still matched: `catalog` starts with `cat`.
		expect(answer.results[1]?.matched_words).toEqual(["cat", "food"]);
	});

	test("another form of a word finds a note (renamed → renaming, plugins → plugin), below a note with the word as typed, but a title in another form ranks as a title", async () => {
		const docs: Doc[] = [
			{ path: "Renaming.md", text: "Renaming a note updates its links.", modified: 3 },
			{ path: "Log.md", text: "I renamed the file yesterday.", modified: 1 },
			{ path: "Diary.md", text: "I am renaming the file today.", modified: 4 },
			{ path: "Plugin.md", text: "A plugin adds a feature.", modified: 2 },
		];
		expect(await paths(docs, "renamed")).toEqual(["Renaming.md", "Log.md", "Diary.md"]);
		expect(await paths(docs, "plugins")).toEqual(["Plugin.md"]);
		const [hit] = (await searchDocs(docs, "plugins")).results;
		expect(hit?.matched_words).toEqual(["plugins"]);
		expect(hit?.snippets).toEqual(["A «plugin» adds a feature."]);
	});

	test("a title in another form counts as a title when the body also holds the word as typed", async () => {
		const docs: Doc[] = [
			{ path: "Reference.md", text: "Write a hook: hook after hook, hook by hook.", modified: 9 },
			{ path: "Hooks.md", text: "A hook is code you write to run around a route.", modified: 1 },
		];
		// Hooks.md says "hook" as typed and is titled by its plural: its title answers the query.
		expect(await paths(docs, "write a hook")).toEqual(["Hooks.md", "Reference.md"]);
	});

	test("a version's number finds the version written with a v; the version as typed finds only itself", async () => {
		const docs: Doc[] = [
			{ path: "Migration-Guide-V5.md", text: "Breaking changes since v4.", modified: 1 },
			{ path: "Limits.md", text: "At most 5 plugins per route.", modified: 2 },
		];
		expect(await paths(docs, "upgrade to 5")).toContain("Migration-Guide-V5.md");
		expect(await paths(docs, "v5")).toEqual(["Migration-Guide-V5.md"]);
	});

	test("with word forms off (language none) a form finds nothing; a prefix still does", async () => {
		const docs: Doc[] = [{ path: "Renaming.md", text: "Renaming a note updates its links." }];
		expect(await paths(docs, "renamed", { engine: new SearchEngine(stemmerFor("none")) })).toEqual([]);
		expect(await paths(docs, "renam", { engine: new SearchEngine(stemmerFor("none")) })).toEqual(["Renaming.md"]);
		const engine = new SearchEngine(stemmerFor("none"));
		expect(await paths(docs, "renamed", { engine })).toEqual([]);
		engine.index.setStemmer(stemmerFor("english"));
		expect(await paths(docs, "renamed", { engine })).toEqual(["Renaming.md"]);
	});

	test("another language's forms, chosen by its stemmer: French chanter finds chantait", async () => {
		const docs: Doc[] = [{ path: "Chorale.md", text: "Elle chantait hier." }];
		expect(await paths(docs, "chanter", { engine: new SearchEngine(stemmerFor("french")) })).toEqual(["Chorale.md"]);
		expect(await paths(docs, "chanter", { engine: new SearchEngine(stemmerFor("english")) })).toEqual([]);
	});
});

describe("titles and aliases above body matches: whole, then all words, then some", () => {
	test("the note titled Kanban board comes first, above Kanban notes that say board more often", async () => {
		const docs: Doc[] = [
			{ path: "Kanban plugin.md", text: "A board of cards; the board has lanes; board board board.", modified: 5 },
			{ path: "Kanban board settings.md", text: "Settings for each board.", modified: 4 },
			{ path: "Kanban board.md", text: "Cards in lanes.", modified: 1 },
			{ path: "Board games.md", text: "Chess is played on a board.", modified: 3 },
		];
		const found = await paths(docs, "kanban board");
		expect(found.slice(0, 2)).toEqual(["Kanban board.md", "Kanban board settings.md"]);
		expect(found[2]).toBe("Kanban plugin.md");
	});

	test("a note whose alias is the query ranks above notes that only mention it", async () => {
		const docs: Doc[] = [
			{ path: "Pets/Rex.md", text: "Our dog.", aliases: ["Doggo", "Woofer"], modified: 1 },
			{ path: "Journal.md", text: "The doggo barked. Doggo again, doggo all day.", modified: 5 },
		];
		expect(await paths(docs, "doggo")).toEqual(["Pets/Rex.md", "Journal.md"]);
		const [hit] = (await searchDocs(docs, "woofer")).results;
		expect(hit?.path).toBe("Pets/Rex.md");
	});

	test("an alias holding every query word covers the query like a title: a plugin's id-named note with that alias ranks above a long title", async () => {
		const docs: Doc[] = [
			{ path: "Kanban board of the team for the week planning.md", text: "Our kanban board, kanban board lanes and cards.", modified: 5 },
			{ path: "obsidian-kanban.md", text: "Create markdown-backed kanban board views.", aliases: ["Kanban board plugin"], modified: 1 },
		];
		expect((await paths(docs, "kanban board"))[0]).toBe("obsidian-kanban.md");
	});

	test("an alias that is only some query words, holding most of what the query asks, covers it like a title; one naming its everyday word does not", async () => {
		const filler = Array.from({ length: 20 }, (_, index) => ({ path: `Note ${index}.md`, text: `zotero and markdown in note ${index}` }));
		const docs: Doc[] = [
			...filler,
			{ path: "simple-citations.md", text: "Zotero citations, citations from a library.", modified: 5 },
			{ path: "bibliography-tools.md", text: "Insert zotero citations into notes.", aliases: ["Citations"], modified: 1 },
			{ path: "Basic syntax.md", text: "Make headings, bold text and a table in markdown.", aliases: ["Markdown"], modified: 5 },
			{ path: "Advanced syntax.md", text: "Make a table in markdown with pipes.", modified: 1 },
		];
		expect((await paths(docs, "zotero citations"))[0]).toBe("bibliography-tools.md");
		expect((await paths(docs, "how to make a table in markdown"))[0]).toBe("Advanced syntax.md");
	});

	test("a note's aliases name it up to SEARCH_ALIAS_MAX_WORDS words: a planted note of 1,500 aliases is not looked through whole for each word of a query (a search of 80 words over 300 such notes was one piece of 1.9 s)", async () => {
		const vocabulary = Array.from({ length: 60 }, (_, index) => `w${index}x`);
		const planted = (note: number) =>
			Array.from({ length: 1_500 }, (_, alias) => Array.from({ length: 6 }, (_, word) => vocabulary[(note * 7 + alias * 13 + word * 31) % 60]).join(" "));
		const docs: Doc[] = [
			...Array.from({ length: 5 }, (_, note) => ({ path: `Planted ${note}.md`, text: `body ${vocabulary[note]}`, aliases: ["Doggo", ...planted(note)] })),
			{ path: "Journal.md", text: "The doggo barked, doggo all day.", modified: 5 },
			{ path: "Late.md", text: "A note.", aliases: [...Array.from({ length: SEARCH_ALIAS_MAX_WORDS }, (_, index) => `early${index}`), "Zebra"] },
			{ path: "Zoo.md", text: "A zebra, a zebra." },
		];
		// Names read for each word of the query: each `has` asks whether a name's word is one of a term's.
		const has = Object.getOwnPropertyDescriptor(Set.prototype, "has")?.value as (this: Set<unknown>, value: unknown) => boolean;
		let asked = 0;
		const counted = replaceMethod(Set.prototype, "has", function (this: Set<unknown>, value: unknown) {
			asked++;
			return has.call(this, value);
		});
		try {
			const found = await paths(docs, vocabulary.slice(0, 20).join(" "));
			expect(found.slice(0, 5).sort()).toEqual(["Planted 0.md", "Planted 1.md", "Planted 2.md", "Planted 3.md", "Planted 4.md"]);
			// Before: every alias word of each planted note for each of the 20 words (5 × 9,000 × 20 = 900,000).
			expect(asked).toBeLessThan(5 * 20 * 2 * SEARCH_ALIAS_MAX_WORDS);
		} finally {
			counted.restore();
		}
		// The aliases that fit still name their note; an alias past the bound does not.
		expect((await paths(docs, "doggo"))[0]).toMatch(/^Planted/);
		expect((await paths(docs, "zebra"))[0]).toBe("Zoo.md");
	});

	test("a note loses its old aliases when it is replaced", async () => {
		const engine = new SearchEngine();
		engine.index.add("Rex.md", "Rex", 1, "Our dog.", [], ["Doggo"]);
		engine.index.add("Rex.md", "Rex", 2, "Our dog.", [], ["Pupper"]);
		const answer = await engine.search(parseQuery("doggo"), null, 10, () => Promise.resolve(""));
		expect(answer.total).toBe(0);
	});
});

describe("soft AND: all words when enough notes hold them, else the notes covering most words", () => {
	const docs: Doc[] = [
		{ path: "Sync your notes across devices.md", text: "Keep your notes on your phone and your computer in sync.", modified: 1 },
		{ path: "Phone.md", text: "Call the phone company.", modified: 2 },
		{ path: "Shopping.md", text: "Milk, eggs.", modified: 3 },
	];

	test("an everyday word no note holds does not empty the answer: the note holding the most words comes first", async () => {
		const answer = await searchDocs(docs, "how does sync keep my notes on my phone and computer screen");
		expect(answer.results[0]?.path).toBe("Sync your notes across devices.md");
		expect(answer.results[0]?.matched_words).toEqual(["sync", "keep", "notes", "phone", "computer"]);
		// Too few notes hold half the words to fill the page: the note holding one of them fills it, below; a note holding none never.
		expect(answer.results.map((hit) => hit.path)).toEqual(["Sync your notes across devices.md", "Phone.md"]);
	});

	test("a question in words the vault does not use still finds the page holding its one telling word, first", async () => {
		// Before, no note held half of forbid / certain / matchers / like / toBeTruthy, and the answer was empty.
		const rules: Doc[] = [
			{
				path: "no-restricted-matchers.md",
				text: "Disallow specific matchers and modifiers. You may want to ban some of them from being used.",
				modified: 1,
			},
			{ path: "prefer-to-be.md", text: "Suggest using toBe for primitive literals.", modified: 2 },
			{ path: "no-hooks.md", text: "Disallow setup and teardown hooks.", modified: 3 },
		];
		const answer = await searchDocs(rules, "forbid certain matchers like toBeTruthy");
		// "Disallow" and "ban" mean "forbid" (expansions.ts): held so, and reported among the words held; the note with the telling word stays first.
		expect(answer.results.map((hit) => [hit.path, hit.matched_words])).toEqual([
			["no-restricted-matchers.md", ["forbid", "matchers"]],
			["no-hooks.md", ["forbid"]],
		]);
	});

	test("where enough notes hold half the words, a note holding fewer does not fill the page", async () => {
		// Enough: as many as a search of several words ranks (PROXIMITY_CANDIDATES), whatever the page.
		const many: Doc[] = Array.from({ length: PROXIMITY_CANDIDATES }, (_, index) => ({
			path: `Sync ${index}.md`,
			text: "sync notes phone",
			modified: index,
		}));
		const found = await paths([...many, ...docs], "sync notes phone computer screen keyboard");
		expect(found).toHaveLength(10);
		expect(found).not.toContain("Phone.md");
	});

	test("a note named by one of the words competes with the notes holding every word, so the page's order does not depend on its size", async () => {
		// Before, "Sync…" alone filled a page of one (it holds both words), while a page of ten put Phone.md first.
		const all = await searchDocs(docs, "phone computer");
		expect(all.results.map((hit) => [hit.path, hit.matched_words])).toEqual([
			["Phone.md", ["phone"]],
			["Sync your notes across devices.md", ["phone", "computer"]],
		]);
		expect(all.total).toBe(2);
		const one = await searchDocs(docs, "phone computer", { limit: 1 });
		expect(one.results.map((hit) => hit.path)).toEqual(["Phone.md"]);
		expect(one.total).toBe(2);
	});

	test("a note named by most of the words outranks long notes that mention them all in passing", async () => {
		// Newsletters that touch every topic once hold every word; the page named for the topic lacks an everyday one.
		const roundups: Doc[] = Array.from({ length: 12 }, (_, index) => ({
			path: `Roundup ${index}.md`,
			text: `${"This week in the community: themes, plugins, sync, graphs, tables and more. ".repeat(20)}Some work on video players, audio recorders and files. ${"Other news follows. ".repeat(20)}`,
			modified: 10 + index,
		}));
		const category: Doc = { path: "Plugins for Video and Audio files.md", text: "- Media Extended\n- Audio Recorder\n- Video Timestamps", modified: 1 };
		const found = await paths([...roundups, category], "work with video and audio files");
		expect(found[0]).toBe("Plugins for Video and Audio files.md");
		// A note that lacks a word and is named by none of them is not gathered where every word's notes fill the page.
		const unnamed: Doc = { path: "Media.md", text: "video audio files", modified: 2 };
		expect(await paths([...roundups, unnamed], "work with video and audio files")).not.toContain("Media.md");
	});

	test("exclusions still remove notes from a partial answer", async () => {
		const found = await paths(docs, "phone computer -company");
		expect(found).toEqual(["Sync your notes across devices.md"]);
	});

	test("a note named by a word joins only through the same filters: a folder it is outside of, or an excluded word, keeps it out", async () => {
		const roundups: Doc[] = Array.from({ length: 12 }, (_, index) => ({
			path: `News/Roundup ${index}.md`,
			text: "video audio files work",
			modified: 10 + index,
		}));
		const named: Doc = { path: "Private/Plugins for Video and Audio files.md", text: "players and recorders", modified: 1 };
		const engine = new SearchEngine();
		for (const entry of [...roundups, named])
			engine.index.add(entry.path, entry.path.replace(/\.md$/, "").split("/").pop() ?? "", entry.modified ?? 0, entry.text, []);
		const texts = new Map([...roundups, named].map((entry) => [entry.path, entry.text]));
		const search = (query: string, include: ((path: string) => boolean) | null) =>
			engine.search(withStopWords(parseQuery(query), ENGLISH), include, 10, (path) => Promise.resolve(texts.get(path) ?? ""));
		expect((await search("work with video and audio files", null)).results.map((hit) => hit.path)).toContain(named.path);
		const inNews = await search("work with video and audio files", (path) => path.startsWith("News/"));
		expect(inNews.results.map((hit) => hit.path)).not.toContain(named.path);
		expect(inNews.total).toBe(12);
		expect((await search("work with video and audio files -players", null)).results.map((hit) => hit.path)).not.toContain(named.path);
	});

	test("a word in no note and nothing else finds nothing", async () => {
		expect((await searchDocs(docs, "xylophone")).total).toBe(0);
	});
});

describe("soft coverage: the words that tell notes apart outweigh everyday ones", () => {
	const docs: Doc[] = [
		{ path: "Import from Notion.md", text: "Bring the pages of a Notion workspace into the vault.", modified: 1 },
		{ path: "Canvas.md", text: "Move cards over the board; pages can move over each other.", modified: 2 },
		{ path: "Troubleshooting.md", text: "If pages do not move over, restart.", modified: 3 },
		{ path: "Publishing.md", text: "Move your pages over to the site.", modified: 4 },
		{ path: "Daily notes.md", text: "One page a day.", modified: 5 },
		{ path: "Links.md", text: "Links move with their notes.", modified: 6 },
	];

	test("a note holding the one rare word ranks above notes holding more of the everyday ones", async () => {
		const answer = await searchDocs(docs, "move my pages over from notion");
		expect(answer.results[0]?.path).toBe("Import from Notion.md");
		expect(answer.results[0]?.matched_words).toEqual(["pages", "notion"]);
		// The notes holding three of the four words still follow it; then, the page not full, the notes holding one.
		expect(
			answer.results
				.slice(1, 4)
				.map((hit) => hit.path)
				.sort(),
		).toEqual(["Canvas.md", "Publishing.md", "Troubleshooting.md"]);
		expect(answer.results.slice(4).every((hit) => hit.matched_words.length === 1)).toBe(true);
	});
});

describe("stop words rank, at a weight below the content words'", () => {
	test("a page saying the query's stop words does not outrank the page about its content words", async () => {
		const docs: Doc[] = [
			{ path: "FAQ.md", text: "How do I ask? My question is how I do it, how I go on, how I stop. My notes say I publish my package.", modified: 9 },
			{ path: "Publishing.md", text: "Publish a package: publish the package.", modified: 1 },
			...Array.from({ length: 6 }, (_, index) => ({ path: `Other ${index}.md`, text: index % 2 === 1 ? "A package." : "To publish.", modified: 0 })),
		];
		// Only FAQ.md says how, I, my: rarer than the content words, they would count for more at full weight.
		expect((await paths(docs, "how do I publish my package"))[0]).toBe("Publishing.md");
	});
});

describe("folder words rank like a heading's", () => {
	const docs: Doc[] = [
		{ path: "Journal/Baking day.md", text: "Bread from the old recipes came out well.", modified: 5 },
		{ path: "Recipes/Baking day.md", text: "Bread from the old recipes came out well.", modified: 1 },
		{ path: "Recipes/Soup.md", text: "Leeks and potatoes.", modified: 3 },
	];

	test("of two notes saying the same, the one in the folder the query names comes first (the newer one did before)", async () => {
		expect(await paths(docs, "bread recipes")).toEqual(["Recipes/Baking day.md", "Journal/Baking day.md"]);
	});

	test("a folder's name alone finds no note: like a heading, it ranks, it does not find", async () => {
		expect(await paths(docs, "journal")).toEqual([]);
	});
});

describe("a verb and its particle typed apart find the word the notes write as one", () => {
	const docs: Doc[] = [
		{ path: "Logging.md", text: "The log level decides which lines are written to the log file; registry requests are logged too.", modified: 5 },
		{ path: "Configuration.md", text: "Settings for the registry, the log and the cache. The registry url is read from here.", modified: 4 },
		{ path: "login.md", text: "Authenticate against the registry: store a token for it.", modified: 1 },
	];

	test("`log in` and `logged in` rank the login page first", async () => {
		expect((await paths(docs, "log in to the registry"))[0]).toBe("login.md");
		expect((await paths(docs, "logged in to the registry"))[0]).toBe("login.md");
	});

	test("two words that are no verb and particle are not joined, and a quoted phrase never is", async () => {
		const identifiers: Doc[] = [
			{ path: "Example.md", text: "const mypackage = require('mypackage'); mypackage mypackage", modified: 1 },
			{ path: "Publishing.md", text: "Publish my package to the registry: the package is packed and uploaded.", modified: 2 },
		];
		expect((await paths(identifiers, "publish my package"))[0]).toBe("Publishing.md");
		expect((await paths(docs, '"log in" registry'))[0]).not.toBe("login.md");
	});
});

describe("a word negated in the question finds the word English negates it with (`never used` → `unused`)", () => {
	const docs: Doc[] = [
		{ path: "no-unused-vars.md", text: "Reports variables that are declared and then not read anywhere.", modified: 1 },
		{ path: "prefer-const.md", text: "Variables that are never reassigned after they are declared should use const.", modified: 2 },
		{
			path: "no-shadow.md",
			text: "Variables used in an inner scope that shadow variables of an outer scope: the outer ones are never used there.",
			modified: 3,
		},
	];

	test("`never used`, `not used` and `nobody uses` rank the page titled unused first", async () => {
		expect((await paths(docs, "report variables that are never used"))[0]).toBe("no-unused-vars.md");
		expect((await paths(docs, "variables not used"))[0]).toBe("no-unused-vars.md");
		expect((await paths(docs, "variables nobody uses"))[0]).toBe("no-unused-vars.md");
	});

	test("a word not negated is not joined, nor an imperative `don't`, nor a quoted phrase", async () => {
		expect((await paths(docs, "variables used"))[0]).toBe("no-shadow.md");
		expect((await paths(docs, "don't use variables"))[0]).not.toBe("no-unused-vars.md");
		expect((await paths(docs, '"never used" variables'))[0]).toBe("no-shadow.md");
	});
});

describe("two adjacent query words find the word they make written closed (`top level` → `toplevel`)", () => {
	const docs: Doc[] = [
		{ path: "require-hook.md", text: "Flags any statement run at the toplevel of a test file: setup belongs in a hook.", modified: 1 },
		{ path: "max-nested-describe.md", text: "Limits how deep describe calls nest: one level for each, up to five.", modified: 2 },
		{ path: "prefer-hooks-in-order.md", text: "Hooks run in order: the one on top runs first, at any level.", modified: 3 },
	];

	test("`top level` ranks the page saying `toplevel` first, and `file name` the page saying `filename`", async () => {
		expect((await paths(docs, "a statement at the top level"))[0]).toBe("require-hook.md");
		const files: Doc[] = [
			{ path: "filename-case.md", text: "Enforces a case style for every filename in the project.", modified: 1 },
			{ path: "no-empty-file.md", text: "Reports an empty file, whatever its name or its case.", modified: 2 },
		];
		expect((await paths(files, "lower case file name"))[0]).toBe("filename-case.md");
	});

	test("a note holding both words is scored by them: the closed word does not count a third time", async () => {
		const both: Doc[] = [
			{ path: "open.md", text: "the top level of a file, the top level of a block.", modified: 1 },
			{ path: "closed.md", text: "the top level of a file, toplevel toplevel toplevel toplevel.", modified: 2 },
		];
		expect(await paths(both, "top level")).toEqual(["open.md", "closed.md"]);
		// Not adjacent, or quoted: not joined.
		expect((await paths(docs, "level top"))[0]).not.toBe("require-hook.md");
		expect((await paths(docs, '"top level"'))[0]).not.toBe("require-hook.md");
	});
});

describe("a title written as one identifier is named by its parts", () => {
	test("`mock agent` is the whole of the title MockAgent: it ranks above a longer title holding both words, whatever its body says", async () => {
		const docs: Doc[] = [
			{ path: "MockAgent.md", text: "Intercepts the requests of tests and answers them.", modified: 1 },
			{ path: "Mock Agent Pool.md", text: "A pool of mock agents: each mock agent keeps its mock agent options.", modified: 2 },
		];
		expect(await paths(docs, "mock agent")).toEqual(["MockAgent.md", "Mock Agent Pool.md"]);
		// Typed as the identifier, it is still the whole title, and another word typed with it is not.
		expect((await paths(docs, "MockAgent"))[0]).toBe("MockAgent.md");
		expect((await paths(docs, "mock agent pool"))[0]).toBe("Mock Agent Pool.md");
	});

	test("an identifier's parts are the title's words: MacOS Tools is three words, of which `mac` is one", async () => {
		const filler = Array.from({ length: 20 }, (_, index) => ({ path: `Other ${index}.md`, text: `nothing about it ${index}` }));
		const docs: Doc[] = [
			...filler,
			{ path: "MacOS Tools.md", text: "Apps for the desktop.", modified: 1 },
			{ path: "Mac Linux Windows Tools.md", text: "Apps for the desktop.", modified: 2 },
		];
		// Both hold `mac` and `tools` in their titles, but MacOS Tools is the fewer words: without the
		// parts counted as its words, its four tokens (macos, mac, os, tools) made it as long as the other.
		expect((await paths(docs, "mac tools"))[0]).toBe("MacOS Tools.md");
	});
});

describe("the page a vault names for the question's topic", () => {
	// Documentation where most pages say `logging` (a low idf) and two say `turn` in passing (a high idf).
	const pages = (extra: Doc[] = []): Doc[] => [
		...Array.from({ length: 16 }, (_, index) => ({
			path: `Reference ${index}.md`,
			text: index % 2 === 0 ? `Options of part ${index}; logging of part ${index} is described elsewhere.` : `Options of part ${index}.`,
			modified: 3,
		})),
		{ path: "Reply.md", text: "Replies. If an error has no message, turn on debug level logging to see it.", modified: 5 },
		{ path: "Server.md", text: "Server options. A turn of the event loop; logging options of the server.", modified: 4 },
		{ path: "Logging.md", text: "Logging is off by default. Enable logging with the logger option; logging levels and serializers.", modified: 1 },
		...extra,
	];

	test("a title that is nothing but query words, each in no other title, ranks first though it lacks the question's rare everyday word", async () => {
		expect((await paths(pages(), "turn on logging"))[0]).toBe("Logging.md");
		expect((await paths(pages(), "how do I turn logging on"))[0]).toBe("Logging.md");
	});

	test("a word that titles several notes is a category, not a topic: the notes holding every query word keep first place", async () => {
		const found = await paths(pages([{ path: "Logging levels.md", text: "Levels of logging: info, debug.", modified: 2 }]), "turn on logging");
		expect(found[0]).toBe("Reply.md");
	});
});

describe("a word meaning the same as the question's (an abbreviation, its full form): below the word itself, above nothing", () => {
	const filler = Array.from({ length: 20 }, (_, index) => ({
		path: `Rule ${index}.md`,
		text: `A rule about each function's exports, number ${index} of the plugin.`,
	}));

	test("a question's abbreviation finds the page written in full, and the page's abbreviated title counts as a title", async () => {
		const docs = [
			...filler,
			{ path: "max-params.md", text: "Enforce a maximum number of params in function definitions." },
			{ path: "Long bodies.md", text: "A function may be long; a long function is hard to read, and every function is named." },
		];
		// "parameters" is in no note: the page saying "params" (and titled so) is the answer.
		expect((await paths(docs, "function has too many parameters"))[0]).toBe("max-params.md");
	});

	test("a page saying the question's own word ranks above one saying a word meaning the same", async () => {
		const docs: Doc[] = [
			...filler,
			{ path: "no-default-export.md", text: "Prohibit default exports. Use named exports instead." },
			{ path: "no-anonymous-default-export.md", text: "Forbid anonymous values as default exports." },
			{ path: "Default exports.md", text: "How default exports work, and default exports against named ones." },
		];
		const found = await paths(docs, "forbid default exports");
		// As typed first; then "prohibit", which means "forbid", above the page that only explains default exports.
		expect(found.slice(0, 3)).toEqual(["no-anonymous-default-export.md", "no-default-export.md", "Default exports.md"]);
	});

	test("a page that says only a word meaning the same ranks above one without any", async () => {
		const docs: Doc[] = [
			...filler,
			{ path: "Config files.md", text: "Where the config files of the whole project are kept, for everyone." },
			{ path: "Editor files.md", text: "Files of the editor: files for fonts, files for keys, files kept in one place." },
		];
		expect((await paths(docs, "configuration files"))[0]).toBe("Config files.md");
	});

	test("a question's everyday word finds the page's term: 'too many' a max- rule, 'my own' a custom page, 'rerun' the retry page", async () => {
		const docs: Doc[] = [
			...filler,
			{ path: "max-expects.md", text: "Enforce a maximum number of assertion calls in a test body." },
			{ path: "Conditional expect.md", text: "An expect call in a condition of a test: expect calls that may not run." },
			{ path: "Custom helpers.md", text: "Extend the I object with custom actions: a helper class of your own methods." },
			{ path: "Helpers.md", text: "Each helper wraps a browser library; a helper has actions and more helper actions for tests." },
			{ path: "Retry.md", text: "Retry a flaky scenario: the scenario runs again a few times before it fails." },
			{ path: "Flaky tests.md", text: "Why a scenario is flaky, and finding a flaky scenario's cause before it fails again." },
			{ path: "Multiple cursors.md", text: "Add a cursor on each of many lines and type on them all at once." },
			{ path: "Line numbers.md", text: "Show the number of each line; edit a line, and its number stays." },
			{ path: "Empty lines.md", text: "Headings should be surrounded by empty lines above and below." },
			{ path: "Heading style.md", text: "Headings should use one style: a line of hashes, or a line underneath." },
			{ path: "Assertions.md", text: "Assert the response status with an assertion of its own." },
			{ path: "Other answers.md", text: "The response has a status and a body; the status is a number, the response a reply." },
		];
		expect((await paths(docs, "too many expect calls"))[0]).toBe("max-expects.md");
		expect((await paths(docs, "my own helper actions"))[0]).toBe("Custom helpers.md");
		expect((await paths(docs, "rerun a flaky scenario"))[0]).toBe("Retry.md");
		expect((await paths(docs, "edit several lines at once"))[0]).toBe("Multiple cursors.md");
		expect((await paths(docs, "blank lines around headings"))[0]).toBe("Empty lines.md");
		expect((await paths(docs, "verify the response status"))[0]).toBe("Assertions.md");
	});

	test("Markdown's two names for a style find each other: bold is strong, italic is emphasis", async () => {
		const docs: Doc[] = [
			...filler,
			{ path: "Strong style.md", text: "Strong style should be consistent: double asterisks or double underscores around strong text." },
			{ path: "Emphasis style.md", text: "Emphasis style should be consistent: one asterisk or underscore around emphasized text." },
			{ path: "File names.md", text: "Underscores in file names, and double underscores in a name, are kept." },
		];
		expect((await paths(docs, "bold written with double underscores"))[0]).toBe("Strong style.md");
		expect((await paths(docs, "underscore or asterisk for italic"))[0]).toBe("Emphasis style.md");
	});
});

describe("code typed in a question", () => {
	test("a one-letter name in the code does not lift pages whose samples use it: the page naming the matcher ranks first", async () => {
		const docs: Doc[] = [
			...Array.from({ length: 12 }, (_, index) => ({ path: `Rule ${index}.md`, text: `A rule about tests, number ${index}.` })),
			{ path: "prefer-comparison-matcher.md", text: "Use toBeGreaterThan and the other comparison matchers, not expect on a comparison then toBe true." },
			{ path: "prefer-to-contain.md", text: "Use toContain: expect(b.includes(x)).toBe(true) becomes expect(b).toContain(x); b is any array." },
			{ path: "no-standalone-assertion.md", text: "An expect outside a test: const b = 1; expect(b).toBe(true) at the top of the file." },
		];
		expect((await paths(docs, "expect(a > b).toBe(true) should use toBeGreaterThan"))[0]).toBe("prefer-comparison-matcher.md");
	});
});

describe("the question's words said together: a page about it above a long reference page holding each word apart", () => {
	const prose = (count: number, seed: number) =>
		Array.from({ length: count }, (_, index) => `option${(index * 7 + seed) % 97} sets the value of the browser session and waits`).join(". ");
	const docs: Doc[] = [
		...Array.from({ length: 12 }, (_, index) => ({ path: `Plugin ${index}.md`, text: `A plugin for browsers, number ${index}.` })),
		// A helper reference: every word of the question, each several times, in sections about other things.
		{
			path: "Helper reference.md",
			text: [
				`Hide the browser window; hide the toolbar; hide the cursor. ${prose(12, 1)}.`,
				`The password field: fill the password with fillField, clear the password. ${prose(12, 2)}.`,
				`Print the output of a command; the output is logged; the output is kept. ${prose(12, 3)}.`,
				`Run a test: the test starts, the test ends. ${prose(12, 4)}.`,
			].join("\n\n"),
		},
		// The page about it: the words together, once each.
		{ path: "Secrets.md", text: `Secrets: to hide a password from the test output, wrap it in secret(). ${prose(30, 5)}.` },
	];

	test("the page saying them in one passage ranks first; the reference page still follows", async () => {
		const found = await paths(docs, "hide a password from the test output");
		expect(found.slice(0, 2)).toEqual(["Secrets.md", "Helper reference.md"]);
	});

	test("a one-word search is not reordered", async () => {
		const found = await paths(docs, "password");
		expect(found.slice(0, 2).sort()).toEqual(["Helper reference.md", "Secrets.md"]);
	});
});

describe("a question's everyday word, which no page names: lacking it costs a page less than lacking a topic word", () => {
	// The pages name their topics in titles and headings; `write` and `extra` are in none of them,
	// only in the text of two changelogs that mention helpers and actions in passing. Before, the
	// two words were the question's rarest, so the page about helpers, lacking them, held a small
	// share of the query and ranked below both changelogs.
	const docs: Doc[] = [
		...Array.from({ length: 10 }, (_, index) => ({
			path: `Guide ${index}.md`,
			text: `# Guide ${index}\n\n## Actions\n\nEach guide step runs actions on the page, number ${index}.`,
		})),
		{
			path: "Custom helpers.md",
			text: "# Custom helpers\n\n## Create a helper\n\nA helper adds actions to I: create a helper class, register the helper in the config, and call its actions from a scenario.",
		},
		...[1, 2].map((release) => ({
			path: `Changelog ${release}.md`,
			text: `# Changelog ${release}\n\n## Fixes\n\nAn extra retry for the helper actions. The helper actions now write their logs.`,
		})),
	];

	test("the page about custom helpers ranks first for 'write a helper with extra actions', above changelogs holding every word", async () => {
		const found = await paths(docs, "write a helper with extra actions");
		expect(found[0]).toBe("Custom helpers.md");
		expect(found.slice(1, 3).sort()).toEqual(["Changelog 1.md", "Changelog 2.md"]);
	});
});

describe("a long page's sections: the question's words in one section above the same words in two", () => {
	// Two long pages of the same words in the same order, the question's two words 200 tokens apart
	// (further than a passage in both): only where the second section starts differs. On one page both
	// words are in the section about the router; on the other the cache's section holds the second.
	const filler = (count: number, seed: number) => Array.from({ length: count }, (_, at) => `word${(at * 13 + seed) % 211}`).join(" ");
	const page = (level: string, together: boolean, length: number) =>
		together
			? `${level} Routing\n\nrouter ${filler(200, 1)} cache ${filler(length, 2)}\n\n${level} Storage\n\n${filler(40, 3)}`
			: `${level} Routing\n\nrouter ${filler(200, 1)}\n\n${level} Storage\n\ncache ${filler(length, 2)} ${filler(40, 3)}`;
	const docs = (level: string, length: number): Doc[] => [
		...Array.from({ length: 8 }, (_, index) => ({ path: `Other ${index}.md`, text: `A page about something else, number ${index}. ${filler(30, index)}` })),
		{ path: "Together.md", text: page(level, true, length), modified: 1 },
		// Newer: of two pages scoring the same, it comes first.
		{ path: "Apart.md", text: page(level, false, length), modified: 2 },
	];

	test("in a page of 1,000 tokens or more, the page holding both words in one level-2 section ranks first", async () => {
		expect((await paths(docs("##", 1_000), "router cache")).slice(0, 2)).toEqual(["Together.md", "Apart.md"]);
		expect((await paths(docs("#", 1_000), "router cache")).slice(0, 2)).toEqual(["Together.md", "Apart.md"]);
	});

	test("a shorter page, or sections of level 3, are not cut: the two pages score the same and the newer comes first", async () => {
		expect((await paths(docs("##", 400), "router cache")).slice(0, 2)).toEqual(["Apart.md", "Together.md"]);
		expect((await paths(docs("###", 1_000), "router cache")).slice(0, 2)).toEqual(["Apart.md", "Together.md"]);
	});
});
