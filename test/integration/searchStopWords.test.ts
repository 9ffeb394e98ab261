import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { connectClient } from "../helpers/http";
import { startService, type RunningService } from "../helpers/service";
import { callOk } from "../helpers/tools";
import { makeVault, removeDir } from "../helpers/vault";

interface Answer {
	total: number;
	results: Array<{ path: string; matched_words: string[]; snippets: string[] }>;
}

/** Stop words in the ranking, as a client of search_notes sees it, over a real server and MCP client. */
describe("search_notes ranks as a person expects", () => {
	let vault: string;
	let running: RunningService;
	let client: Client;
	const search = (query: string) => callOk<Answer>(client, "search_notes", { query });

	beforeAll(async () => {
		vault = await makeVault({
			"Templates.md":
				"---\ntags: [guide]\nsource: https://example.org/templates/guide\n---\nUse templates to start each meeting note. [![build](https://img.shields.io/badge/build-passing-green)](https://ci.example.com/runs/42)",
			"Newsletters/Issue 1.md": "How to use your weekend, how to cook. Templates get a mention.",
			"Newsletters/Issue 2.md": "How to rest: use your templates less.",
			"Dataview.md": "A plugin that queries notes.",
			"Plugins/Queries with Dataview.md": "dataview dataview dataview dataview dataview dataview",
			// How and to are everyday words here, as in any vault: most notes hold them.
			"Garden.md": "How to dig a bed.",
			"Bikes.md": "How to fix a chain.",
			"Bread.md": "How to bake it.",
		});
		running = await startService(vault);
		await running.service.search?.whenReady();
		client = await connectClient(running.url, running.tokens.read ?? "");
	});
	afterAll(async () => {
		await client.close();
		await running.stop();
		await removeDir(vault);
	});

	test("`how to use templates` finds the Templates note first though it holds neither how nor to", async () => {
		const answer = await search("how to use templates");
		const paths = answer.results.map((hit) => hit.path);
		expect(paths[0]).toBe("Templates.md");
		expect(paths.slice(1).sort()).toEqual(["Newsletters/Issue 1.md", "Newsletters/Issue 2.md"]);
	});

	test("its snippet is body text with the match marked and the addresses cut to their host, no frontmatter", async () => {
		const [hit] = (await search("templates")).results;
		expect(hit?.snippets).toEqual(["Use «templates» to start each meeting note. [![build](img.shields.io/…"]);
	});

	test("the note titled dataview ranks above a note that says dataview six times", async () => {
		expect((await search("dataview")).results.map((hit) => hit.path)).toEqual(["Dataview.md", "Plugins/Queries with Dataview.md"]);
	});

	test("the searchStopWords setting applies on the next search: empty, every word is wanted and shown matched, yet holding the everyday ones does not outrank the Templates note", async () => {
		// The Templates note first; the others in any order (their BM25 scores are close), each with its words.
		const matched = async () => {
			const [first, ...rest] = (await search("how to use templates")).results.map((hit) => [hit.path, hit.matched_words] as [string, string[]]);
			return [first, ...rest.sort((a, b) => a[0].localeCompare(b[0]))];
		};
		const withStopWords = [
			["Templates.md", ["use", "templates"]],
			["Newsletters/Issue 1.md", ["use", "templates"]],
			["Newsletters/Issue 2.md", ["use", "templates"]],
		];
		expect(await matched()).toEqual(withStopWords);
		await running.service.apply({ ...running.settings, searchStopWords: [] });
		try {
			expect(await matched()).toEqual([
				["Templates.md", ["to", "use", "templates"]],
				["Bikes.md", ["how", "to"]],
				["Bread.md", ["how", "to"]],
				["Garden.md", ["how", "to"]],
				["Newsletters/Issue 1.md", ["how", "to", "use", "templates"]],
				["Newsletters/Issue 2.md", ["how", "to", "use", "templates"]],
			]);
		} finally {
			await running.service.apply(running.settings);
		}
		expect(await matched()).toEqual(withStopWords);
	});
});
