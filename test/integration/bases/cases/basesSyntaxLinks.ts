import type { BaseCase } from "../docsVault";

/** "Files and links" and "Access properties with `this`" in "Bases syntax": links from frontmatter, link equality, `this`, backlinks. */
export const basesSyntaxLinks: BaseCase = {
	page: "Bases/Bases syntax.md",
	example: "links and this (author == link(...), file.hasLink(this.file), file.backlinks)",
	base: `filters:
  or:
    - 'file.name == "Dune.md"'
    - 'file.name == "Textbook.md"'
formulas:
  by_frank: 'author == link("Frank Herbert")'
  author_file: 'author.asFile()'
  embeds_this_base: 'file.hasLink(this.file)'
  base_folder: 'this.file.folder'
  base_name: 'this.file.name'
  linked_from: 'file.backlinks.map(value.asFile().path).sort()'
  textbook_link: 'link("Textbook").asFile() == file'
views:
  - type: table
    name: Links
    order: [file.name, formula.by_frank, formula.author_file, formula.embeds_this_base, formula.base_folder, formula.base_name, formula.linked_from, formula.textbook_link]
    sort:
      - property: file.name
        direction: ASC
`,
	calls: [
		{
			expect: {
				rows: [
					{
						path: "Books/Dune.md",
						values: {
							"formula.by_frank": true,
							"formula.author_file": "People/Frank Herbert.md",
							"formula.embeds_this_base": false,
							"formula.base_folder": "/",
							"formula.base_name": "Query.base",
							// The excluded Private/Secret Book.md links to Dune: it is not a backlink anyone here can see.
							"formula.linked_from": [],
							"formula.textbook_link": false,
						},
					},
					{
						path: "Textbook.md",
						values: {
							"formula.by_frank": false,
							"formula.author_file": null,
							"formula.embeds_this_base": true,
							"formula.linked_from": ["Books/Algebra.md", "Books/Dune.md", "Books/Poems.md"],
							"formula.textbook_link": true,
						},
					},
				],
			},
		},
	],
};
