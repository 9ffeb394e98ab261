import type { BaseCase } from "../docsVault";

/** The "File type" section of "Functions": fields, asLink, hasLink, hasProperty, hasTag (nested tags included), inFolder. */
export const functionsFile: BaseCase = {
	page: "Bases/Functions.md",
	example: "File type functions",
	base: `filters:
  or:
    - file.inFolder("Books")
    - file.hasTag("tag")
formulas:
  tagged: 'file.hasTag("tag1", "book")'
  nested: 'file.hasTag("tag")'
  links_textbook: 'file.hasLink("Textbook")'
  has_price: 'file.hasProperty("price")'
  as_link: 'file.asLink()'
  in_books: 'file.inFolder("Books")'
views:
  - type: table
    name: Files
    order: [file.basename, file.tags, file.links, formula.tagged, formula.nested, formula.links_textbook, formula.has_price, formula.as_link, formula.in_books]
    sort:
      - property: file.path
        direction: ASC
`,
	calls: [
		{
			expect: {
				rows: [
					{
						path: "Books/Algebra.md",
						values: {
							"file.basename": "Algebra",
							"file.tags": ["#book"],
							"file.links": ["[[Textbook]]"],
							"formula.tagged": true,
							"formula.nested": false,
							"formula.links_textbook": true,
							"formula.has_price": true,
							"formula.as_link": "[[Books/Algebra.md]]",
							"formula.in_books": true,
						},
					},
					{ path: "Books/Dune.md", values: { "file.links": ["[[Frank Herbert]]", "[[Textbook]]"] } },
					{ path: "Books/Poems.md" },
					// #tag/nested is nested under #tag.
					{
						path: "Inbox/Idea.md",
						values: {
							"file.tags": ["#tag/nested"],
							"formula.tagged": false,
							"formula.nested": true,
							"formula.links_textbook": false,
							"formula.has_price": false,
							"formula.in_books": false,
						},
					},
					{ path: "Textbook.md", values: { "file.tags": ["#tag"], "file.links": ["[[Query.base]]"], "formula.nested": true } },
				],
				total: 5,
			},
		},
	],
};
