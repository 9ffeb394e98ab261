import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { parseQuery } from "../../src/search/query";
import { scanSearch } from "../../src/vault/search";
import { connectClient } from "../helpers/http";
import { startService, type RunningService } from "../helpers/service";
import { callOk } from "../helpers/tools";
import { makeVault, removeDir } from "../helpers/vault";

interface Answer {
	total: number;
	results: Array<{ path: string; matched_words: string[]; snippets: string[] }>;
}

/** Ranking by evidence, aliases, word forms and the soft AND, as a client of search_notes sees them over a real server. */
describe("search_notes by evidence strength, through a real MCP client", () => {
	let vault: string;
	let running: RunningService;
	let client: Client;
	const search = (query: string, limit = 10) => callOk<Answer>(client, "search_notes", { query, limit });

	beforeAll(async () => {
		vault = await makeVault({
			"Pets/Rex.md": "---\naliases:\n  - Doggo\n  - Good boy\n---\nOur dog, who barks at the post.",
			"Journal.md": "The doggo barked. Doggo again; doggo all day.",
			"Manage notes.md": "Renaming a note updates every link to it.",
			"Changelog.md": "Renamed the settings tab.",
			"Private/Secret doggo.md": "---\naliases: [Doggo]\n---\nThe doggo password is hunter2.",
			"Commands/pack.md": "---\ndescription: Create a tarball from a package\n---\nRuns the scripts, then writes the archive to the current folder.",
			"Guides/Publishing.md":
				"---\ndescription: Learn how the registry turns your package into a tarball. It serves it to everyone.\n---\nYour package is published as a tarball. The tarball holds the package files; the registry keeps each package tarball.",
			"Rules/max-params.md":
				"---\ndescription: 'Enforce a maximum number of parameters in function definitions.'\n---\nCounts what each declaration takes and reports the ones above the maximum.",
			"Guides/Calling code.md": "A function takes parameters. Function parameters have names, and a function's parameters may have defaults.",
			"Rules/md013.md": "# `MD013` - Line length\n\nThis rule is triggered when there are lines that are longer than the configured value.",
			"Rules/all-rules.md":
				"# All rules\n\n## `MD012` - Multiple blank lines\n\nOne blank line is enough.\n\n## `MD013` - Line length\n\nA line longer than the line length limit is reported; set the line length to 100 for wider lines.\n\n## `MD014` - Dollar signs\n\nCommands shown without output.",
			"People/chrisgurney.md": "# Chris Gurney\n\nWrites plugins for task lists.",
			"Roundup.md": "## Thanks to Chris Gurney\n\nThis week Chris Gurney shipped two plugins. Thank you, Chris Gurney, and thanks to Chris for the docs.",
			"Rules/README.md": "---\ntitle: Overview\n---\nEvery rule of the plugin, listed.",
			"Guides/Start.md": "An overview of the setup, and an overview of the rules: read the overview first.",
			"Private/md099.md": "# Line length\n\nThe line length the secret draft asks for.",
			"Guides/Config files.md": "Where the config files live: one for each project, read at start.",
			"Guides/Files.md": "Files of the editor: files for fonts, files for keys, and files kept in one place at start.",
		});
		running = await startService(vault, { settings: { excludedFolders: ["Private"] } });
		await running.service.search?.whenReady();
		client = await connectClient(running.url, running.tokens.read ?? "");
	});
	afterAll(async () => {
		await client.close();
		await running.stop();
		await removeDir(vault);
	});

	test("a note whose frontmatter alias is the query ranks first; a note in an excluded folder with the same alias is never shown", async () => {
		const answer = await search("doggo");
		expect(answer.results.map((hit) => hit.path)).toEqual(["Pets/Rex.md", "Journal.md"]);
		expect(answer.total).toBe(2);
		expect(JSON.stringify(answer)).not.toContain("Private");
		expect(JSON.stringify(answer)).not.toContain("hunter2");
		expect((await search("good boy")).results[0]?.path).toBe("Pets/Rex.md");
	});

	test("a word's other form finds a note, matched_words names the query word, and the snippet marks the form", async () => {
		const answer = await search("renamed links");
		expect(answer.results[0]).toEqual({
			path: "Manage notes.md",
			score: expect.any(Number),
			matched_words: ["renamed", "links"],
			snippets: ["«Renaming» a note updates every «link» to it."],
		});
		expect(answer.results[1]).toMatchObject({ path: "Changelog.md", matched_words: ["renamed"] });
	});

	test("the searchLanguage setting applies on the next search: none matches words as typed and prefixes only", async () => {
		await running.service.apply({ ...running.settings, searchLanguage: "none" });
		try {
			expect((await search("renamed")).results.map((hit) => hit.path)).toEqual(["Changelog.md"]);
		} finally {
			await running.service.apply(running.settings);
		}
		expect((await search("renamed")).results.map((hit) => hit.path).sort()).toEqual(["Changelog.md", "Manage notes.md"]);
	});

	test("a note whose short frontmatter description says what the question asks ranks above a page saying the words more often", async () => {
		const answer = await search("make a tarball of my package");
		expect(answer.results.map((hit) => hit.path)).toEqual(["Commands/pack.md", "Guides/Publishing.md"]);
	});

	test("a frontmatter description of one sentence is a heading however long; several sentences are prose", async () => {
		// typescript-eslint's one-line summaries run to 18 words: the words a person asks with, which the page's text may not say.
		expect((await search("function has too many parameters")).results[0]?.path).toBe("Rules/max-params.md");
	});

	test("a question's full word finds the page that abbreviates it (configuration → config), above a page with the question's other word only", async () => {
		const answer = await search("configuration files");
		expect(answer.results[0]?.path).toBe("Guides/Config files.md");
		expect(answer.results[0]?.matched_words).toEqual(["configuration", "files"]);
	});

	test("a note named by a code or a handle ranks by the title it shows, its frontmatter title or one level-1 heading; an excluded note's is never shown", async () => {
		const lineLength = await search("line length");
		expect(lineLength.results[0]?.path).toBe("Rules/md013.md");
		expect(JSON.stringify(lineLength)).not.toContain("Private");
		expect((await search("chris gurney")).results[0]?.path).toBe("People/chrisgurney.md");
		expect((await search("overview")).results[0]?.path).toBe("Rules/README.md");
	});

	test("the index answers as a scan does, aliases, forms and partial matches included", async () => {
		const scope = { configDir: ".obsidian", excludedFolders: ["Private"] };
		for (const query of [
			"doggo",
			"good boy",
			"renamed links",
			"how does renaming keep every link working",
			"-journal doggo",
			"make a tarball of my package",
			"function has too many parameters",
			"function has too many params",
			"configuration files",
			"several blank lines",
			"my own config files",
			"max(a, b) of the parameters",
			"keep every link working when a note is renamed",
			"line length",
			"chris gurney",
			"overview",
		]) {
			const fromIndex = await running.service.search?.search(scope, parseQuery(query), {}, 10);
			expect(fromIndex).toEqual(await scanSearch(running.host, scope, parseQuery(query), {}, 10));
			// A shorter page is the longer one's start: the notes reordered by their words' proximity are the same whatever the page.
			const firstThree = await running.service.search?.search(scope, parseQuery(query), {}, 3);
			expect(firstThree?.results).toEqual(fromIndex?.results.slice(0, 3));
		}
	});
});
