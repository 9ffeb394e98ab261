import { callError, callOk } from "../../helpers/tools";
import { openDocsVault } from "./docsVault";

/**
 * Excluded folders through the Bases door: the excluded `Private` folder holds a book that matches,
 * links to visible notes, and a base of its own. None of it may show in rows, counts, backlinks,
 * link resolution, list_bases or an error message.
 */
describe("query_base and list_bases never show an excluded folder", () => {
	test("no row, count, link, file lookup or backlink reaches the excluded note", async () => {
		const vault = await openDocsVault(
			`formulas:
  secret_file: 'file("Private/Secret Book.md")'
  secret_link: 'link("Private/Secret Book").asFile()'
  links_secret: 'file.hasLink("Private/Secret Book")'
  linked_from: 'file.backlinks.length'
views:
  - type: table
    name: All
    order: [file.path, formula.secret_file, formula.secret_link, formula.links_secret, formula.linked_from]
    sort:
      - property: file.path
        direction: ASC
`,
			{ "Reader.md": "I know about [[Private/Secret Book]].\n", "Private/Hidden.base": "views:\n  - type: table\n    name: Hidden view\n" },
		);
		try {
			const result = await callOk<{ rows: Array<{ path: string; values: Record<string, unknown> }>; total: number }>(vault.client, "query_base", {
				path: "Query.base",
				limit: 1000,
			});
			const paths = result.rows.map((row) => row.path);
			// Every visible file, the attachment and the bases included; nothing under Private/.
			expect(paths).toEqual([
				"Books/Algebra.md",
				"Books/Dune.md",
				"Books/Poems.md",
				"Inbox/Idea.md",
				"People/Frank Herbert.md",
				"Projects/Garden.md",
				"Projects/Shed.md",
				"Query.base",
				"Reader.md",
				"Required Reading/Essay.md",
				"Required Reading/Notes.md",
				"Textbook.md",
				"photo.png",
			]);
			expect(result.total).toBe(13);
			for (const row of result.rows) {
				expect(row.values["formula.secret_file"]).toBeNull();
				expect(row.values["formula.secret_link"]).toBeNull();
				// The reader's link points into the excluded folder: for this token it points nowhere.
				expect(row.values["formula.links_secret"]).toBe(false);
			}
			const byPath = new Map(result.rows.map((row) => [row.path, row.values]));
			// Three visible books link to the textbook; the excluded one does too and is not counted.
			expect(byPath.get("Textbook.md")?.["formula.linked_from"]).toBe(3);
			expect(byPath.get("Books/Dune.md")?.["formula.linked_from"]).toBe(0);
			expect(JSON.stringify(result)).not.toMatch(/Secret|Private|Hidden/);

			const listed = await callOk<{ bases: Array<{ path: string; views: string[] }>; total: number }>(vault.client, "list_bases");
			expect(listed).toEqual({ bases: [{ path: "Query.base", views: ["All"] }], total: 1 });

			// The excluded base is answered exactly like one that does not exist.
			const hidden = await callError(vault.client, "query_base", { path: "Private/Hidden.base" });
			const missing = await callError(vault.client, "query_base", { path: "Elsewhere/Hidden.base" });
			expect(hidden).toBe('No base "Private/Hidden.base". Call list_bases to find the right path.');
			expect(missing).toBe('No base "Elsewhere/Hidden.base". Call list_bases to find the right path.');
			expect(await callError(vault.client, "query_base", { path: "../outside.base" })).toMatch(/empty, '\.' or '\.\.' part/);
			expect(await callError(vault.client, "query_base", { path: ".obsidian/app" })).toMatch(/Hidden files and folders/);
		} finally {
			await vault.close();
		}
	});
});
