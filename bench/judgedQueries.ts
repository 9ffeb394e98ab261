import { NodeHost } from "../src/headless/NodeHost";
import { parseQuery } from "../src/search/query";
import { IndexedNoteSearch } from "../src/vault/search";

/** Results looked at for the reciprocal rank: search_notes' default limit. */
const JUDGED_RESULTS = 10;

/**
 * Queries a person would type over tasks-demo and the demo vault, each with the notes
 * that person expects among the first three results (any one of them counts). Judged from the
 * notes' titles and text, before looking at what the engine answers.
 */
export interface JudgedQuery {
	vault:
		| "tasks-demo"
		| "demo-vault"
		| "obsidian-help"
		| "npm-docs"
		| "import-rules"
		| "fastify-docs"
		| "undici-docs"
		| "markdownlint-docs"
		| "typescript-eslint-docs"
		| "jest-rules"
		| "pino-docs"
		| "jsx-a11y-rules"
		| "codeceptjs-docs"
		| "serverless-docs"
		| "obsidian-hub"
		| "cargo-book"
		| "foam-docs"
		| "jekyll-docs"
		| "homebrew-docs"
		| "nushell-book";
	query: string;
	expected: string[];
}

export const JUDGED_QUERIES: JudgedQuery[] = [
	{ vault: "tasks-demo", query: "dataview", expected: ["Formats/Dataview Format.md"] },
	{ vault: "tasks-demo", query: "dataview format", expected: ["Formats/Dataview Format.md"] },
	{ vault: "tasks-demo", query: "tasks format", expected: ["Formats/Tasks Format.md"] },
	{ vault: "tasks-demo", query: "all formats parsing", expected: ["Formats/All Formats Parsing.md"] },
	{ vault: "tasks-demo", query: "boolean combinations", expected: ["Filters/Boolean Combinations.md"] },
	{ vault: "tasks-demo", query: "how to combine filters with boolean", expected: ["Filters/Boolean Combinations.md"] },
	{ vault: "tasks-demo", query: "regular expression", expected: ["Filters/Regular Expression Searches.md"] },
	{ vault: "tasks-demo", query: "explain filters", expected: ["Filters/Explain Filters.md"] },
	{ vault: "tasks-demo", query: "custom sorting", expected: ["Functions/Custom Sorting.md"] },
	{ vault: "tasks-demo", query: "sort by function", expected: ["Functions/Custom Sorting.md"] },
	{
		vault: "tasks-demo",
		query: "custom filters caching",
		expected: ["Functions/Custom Filters With Simple Caching.md", "Functions/Custom Filters With Complex Caching.md"],
	},
	{ vault: "tasks-demo", query: "urgency scores", expected: ["Manual Testing/Urgency Scores Examples.md"] },
	{ vault: "tasks-demo", query: "how is urgency calculated", expected: ["Manual Testing/Urgency Scores Examples.md"] },
	{ vault: "tasks-demo", query: "stress test", expected: ["Stress Test/Stress Test Readme.md"] },
	{ vault: "tasks-demo", query: "access properties in frontmatter", expected: ["How To/Access properties in frontmatter.md"] },
	{ vault: "tasks-demo", query: "how to access links", expected: ["How To/Access links.md"] },
	{ vault: "tasks-demo", query: "find tasks in notes with a tag", expected: ["How To/Find tasks in notes with particular tag.md"] },
	{ vault: "tasks-demo", query: "reuse instructions", expected: ["How To/Reuse instructions across the vault.md"] },
	{ vault: "tasks-demo", query: "formatting in group headings", expected: ["How To/Use formatting in custom group headings.md"] },
	{ vault: "tasks-demo", query: "important project", expected: ["Important Project.md"] },
	{ vault: "tasks-demo", query: "take out the trash", expected: ["ACME.md", "Important Project.md"] },
	{ vault: "tasks-demo", query: "world domination", expected: ["ACME.md"] },
	{ vault: "tasks-demo", query: "callouts and block quotes", expected: ["Manual Testing/Callouts and Block Quotes.md"] },
	{ vault: "tasks-demo", query: "custom task statuses", expected: ["Manual Testing/Custom Task Statuses.md"] },
	{ vault: "tasks-demo", query: "dependencies worked example", expected: ["Manual Testing/Dependencies - Worked Example.md"] },
	{ vault: "tasks-demo", query: "dependencies of recurring tasks", expected: ["Manual Testing/Dependencies Samples - Recurring Tasks.md"] },
	{ vault: "tasks-demo", query: "edit task modal", expected: ["Manual Testing/Edit Task Modal samples.md"] },
	{
		vault: "tasks-demo",
		query: "invalid dates",
		expected: [
			"Manual Testing/Invalid Dates.md",
			"Manual Testing/Invalid Dates and Happens.md",
			"Manual Testing/Invalid dates with Sorting and Grouping.md",
			"Manual Testing/Recurrence handling invalid dates.md",
		],
	},
	{
		vault: "tasks-demo",
		query: "smoke test",
		expected: [
			"Manual Testing/Smoke Testing the Tasks Plugin.md",
			"Manual Testing/Smoke Testing the Tasks Plugin - Debug View.md",
			"Manual Testing/Smoke Test Auto Suggest Integrations.md",
			"Manual Testing/Smoke test Kanban Integration.md",
		],
	},
	{ vault: "tasks-demo", query: "kanban", expected: ["Manual Testing/Smoke test Kanban Integration.md", "Test Data/example_kanban.md"] },
	{ vault: "tasks-demo", query: "auckland time zone", expected: ["Manual Testing/Time Zones/Pacific-Auckland.md"] },
	{ vault: "tasks-demo", query: "quickadd api", expected: ["Manual Testing/QuickAdd Tasks API Demo.md"] },
	{ vault: "tasks-demo", query: "styling of queries", expected: ["Manual Testing/Styling of Queries.md"] },
	{ vault: "tasks-demo", query: "minimal theme", expected: ["Styling/Theme - Minimal Theme.md"] },
	{
		vault: "tasks-demo",
		query: "alternate checkboxes",
		expected: ["Styling/Snippet - SlRvb's Alternate Checkboxes.md", "Manual Testing/SlrVb's Alternate Checkboxes.md"],
	},
	{
		vault: "tasks-demo",
		query: "parent child relationships",
		expected: [
			"Other Plugins/Dataview/Parent-Child relationships - Searches.md",
			"Other Plugins/Dataview/Parent-Child relationships - Tasks.md",
			"Other Plugins/Dataview/Parent-Child relationships - Searches - Dataview.md",
			"Other Plugins/Dataview/Parent-Child relationships - Searches - Tasks.md",
		],
	},
	{ vault: "tasks-demo", query: "toggle done cursor", expected: ["Manual Testing/Toggle Done Cursor Fixes.md"] },
	{ vault: "tasks-demo", query: "query as html", expected: ["Manual Testing/Seeing the Query as HTML/HTML from Query.md"] },
	{
		vault: "tasks-demo",
		query: "internal heading links",
		expected: ["Manual Testing/Internal Heading Links/Internal Heading Links.md", "Test Data/internal_heading_links.md"],
	},
	{ vault: "tasks-demo", query: "daily note template", expected: ["_meta/templates/daily note template - Templater plugin.md"] },
	{ vault: "tasks-demo", query: "tags in frontmatter", expected: ["Manual Testing/Frontmatter/Tags in Frontmatter.md"] },
	{ vault: "tasks-demo", query: "embed task in to note", expected: ["Manual Testing/Task Toggling Scenarios/Embed Task in to Note.md"] },
	{ vault: "tasks-demo", query: "on completion delete", expected: ["Manual Testing/Task Toggling Scenarios/On Completion Delete.md"] },
	{
		vault: "tasks-demo",
		query: "the themes",
		expected: [
			"Styling/Theme - Minimal Theme.md",
			"Styling/Theme - Things Theme.md",
			"Styling/Theme - ITS Theme.md",
			"Styling/Theme - Aura.md",
			"Styling/Theme - Border.md",
			"Styling/Theme - AnuPpuccin.md",
			"Styling/Theme - Ebullientworks.md",
			"Styling/Theme - LYT Mode.md",
		],
	},
	// The ranking's hard cases: a one-word query naming a note's whole title, and questions full of stop words.
	{ vault: "tasks-demo", query: "tasks", expected: ["Tasks.md"] },
	{ vault: "tasks-demo", query: "acme", expected: ["ACME.md"] },
	{ vault: "tasks-demo", query: "what is the stress test", expected: ["Stress Test/Stress Test Readme.md"] },
	{ vault: "tasks-demo", query: "how do I write a daily note template", expected: ["_meta/templates/daily note template - Templater plugin.md"] },
	{ vault: "tasks-demo", query: "how to use formatting in group headings", expected: ["How To/Use formatting in custom group headings.md"] },
	{ vault: "demo-vault", query: "the meeting template", expected: ["Templates/Meeting.md"] },
	{ vault: "demo-vault", query: "welcome", expected: ["Welcome.md"] },
	{ vault: "demo-vault", query: "what should I read about software design", expected: ["Reading list.md"] },
	{ vault: "demo-vault", query: "garden", expected: ["Projects/Garden.md"] },
	{ vault: "demo-vault", query: "reading list", expected: ["Reading list.md"] },
	{ vault: "demo-vault", query: "raised bed by the fence", expected: ["Projects/Garden.md"] },
	{ vault: "demo-vault", query: "a philosophy of software design", expected: ["Reading list.md"] },
	{ vault: "demo-vault", query: "start here", expected: ["Welcome.md"] },
	{ vault: "demo-vault", query: "allotment society", expected: ["Daily/2026-11-30.md"] },
];

/** The results a search gives for a judged query, best first (paths). */
export type JudgedSearch = (entry: JudgedQuery) => Promise<string[]>;

export interface JudgedScores {
	queries: number;
	/** Share of queries with an expected note among the first three results. */
	successAt3: number;
	/** Mean reciprocal rank of the first expected note among the results (0 when none is there). */
	mrr: number;
	/** The queries that had no expected note in the first three, for a person to look at. */
	misses: string[];
}

/** Scores a search against the judged queries. Pure apart from the search it is given. */
export async function scoreJudgedQueries(search: JudgedSearch, queries: readonly JudgedQuery[] = JUDGED_QUERIES): Promise<JudgedScores> {
	let successes = 0;
	let reciprocalRanks = 0;
	const misses: string[] = [];
	for (const entry of queries) {
		const results = await search(entry);
		const rank = results.findIndex((path) => entry.expected.includes(path));
		if (rank >= 0) reciprocalRanks += 1 / (rank + 1);
		if (rank >= 0 && rank < 3) successes++;
		else misses.push(entry.query);
	}
	return { queries: queries.length, successAt3: successes / queries.length, mrr: reciprocalRanks / queries.length, misses };
}

/**
 * Opens each judged vault headless, builds its search index, and runs `work` with a search over
 * them (the first ten results of search_notes' query semantics); closes everything after.
 */
export async function withJudgedSearch<T>(roots: Partial<Record<JudgedQuery["vault"], string>>, work: (search: JudgedSearch) => Promise<T>): Promise<T> {
	const scope = { configDir: ".obsidian", excludedFolders: [] };
	const opened = await Promise.all(
		(Object.entries(roots) as Array<[JudgedQuery["vault"], string]>).map(async ([vault, root]) => {
			const host = await NodeHost.open(root);
			const index = new IndexedNoteSearch(host, scope, () => new Promise((resolve) => setImmediate(resolve)));
			index.start();
			await index.whenReady();
			return { vault, host, index };
		}),
	);
	try {
		return await work(async (entry) => {
			const target = opened.find((candidate) => candidate.vault === entry.vault);
			if (!target) throw new Error(`No vault named ${entry.vault}`);
			const answer = await target.index.search(scope, parseQuery(entry.query), {}, JUDGED_RESULTS);
			return answer.results.map((hit) => hit.path);
		});
	} finally {
		for (const { host, index } of opened) {
			await index.stop();
			await host.close();
		}
	}
}
