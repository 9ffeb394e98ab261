import type { BaseCase } from "../docsVault";

/** The full example at the top of "Bases syntax": global and/or/not filters, two formulas, display names, a grouped, filtered, limited table view. */
export const basesSyntaxExample: BaseCase = {
	page: "Bases/Bases syntax.md",
	example: "the example base file (filters, formulas, properties, a grouped table view)",
	base: `filters:
  or:
    - file.hasTag("tag")
    - and:
        - file.hasTag("book")
        - file.hasLink("Textbook")
    - not:
        - file.hasTag("book")
        - file.inFolder("Required Reading")
formulas:
  formatted_price: 'if(price, price.toFixed(2) + " dollars")'
  ppu: "(price / age).toFixed(2)"
properties:
  status:
    displayName: Status
  formula.formatted_price:
    displayName: "Price"
  file.ext:
    displayName: Extension
summaries:
  customAverage: 'values.mean().round(3)'
views:
  - type: table
    name: "My table"
    limit: 10
    groupBy:
      property: note.age
      direction: DESC
    filters:
      and:
        - 'status != "done"'
        - or:
            - "formula.ppu > 5"
            - "price > 2.1"
    order:
      - file.name
      - file.ext
      - note.age
      - formula.ppu
      - formula.formatted_price
    summaries:
      formula.ppu: Average
`,
	calls: [
		{
			expect: {
				view: "My table",
				views: ["My table"],
				columns: [
					{ id: "file.name", name: "file.name" },
					{ id: "file.ext", name: "Extension" },
					{ id: "note.age", name: "note.age" },
					{ id: "formula.ppu", name: "formula.ppu" },
					{ id: "formula.formatted_price", name: "Price" },
				],
				// Dune and Poems are books linking to the textbook, not done, priced over 2.1; Algebra is done;
				// Essay is a book in Required Reading without the link; the garden has a price of 2 and no age.
				rows: [
					{
						path: "Books/Poems.md",
						group: 8,
						values: { "file.name": "Poems.md", "file.ext": "md", "note.age": 8, "formula.ppu": "0.50", "formula.formatted_price": "4.00 dollars" },
					},
					{
						path: "Books/Dune.md",
						group: 2,
						values: { "file.name": "Dune.md", "file.ext": "md", "note.age": 2, "formula.ppu": "6.25", "formula.formatted_price": "12.50 dollars" },
					},
				],
				total: 2,
				truncated: false,
				filter_errors_total: 0,
			},
		},
	],
};
