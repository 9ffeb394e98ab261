import type { BaseCase } from "../docsVault";

/** "Views": several views in one base, sorting by a property, grouping by one, limiting results; the first view loads by default. */
export const viewsSortGroupLimit: BaseCase = {
	page: "Bases/Views.md",
	example: "views with sort, groupBy and limit",
	base: `filters: 'file.hasTag("book")'
views:
  - type: table
    name: By price
    limit: 3
    order: [file.name, price]
    sort:
      - property: price
        direction: DESC
  - type: cards
    name: By status
    groupBy:
      property: status
      direction: ASC
    order: [file.name, status]
    sort:
      - property: file.name
        direction: ASC
`,
	calls: [
		{
			// The most expensive book of all is in the excluded folder.
			expect: {
				view: "By price",
				views: ["By price", "By status"],
				rows: [
					{ path: "Books/Algebra.md", values: { "file.name": "Algebra.md", price: 40 } },
					{ path: "Books/Dune.md", values: { price: 12.5 } },
					{ path: "Books/Poems.md", values: { price: 4 } },
				],
				total: 4,
				truncated: true,
			},
		},
		{ args: { view: "By price", limit: 1 }, expect: { rows: [{ path: "Books/Algebra.md" }], total: 4, truncated: true } },
		{
			args: { view: "By status" },
			expect: {
				rows: [
					{ path: "Books/Algebra.md", group: "done" },
					{ path: "Books/Dune.md", group: "reading" },
					{ path: "Books/Poems.md", group: "reading" },
					{ path: "Required Reading/Essay.md", group: "todo" },
				],
				total: 4,
				truncated: false,
			},
		},
	],
};
