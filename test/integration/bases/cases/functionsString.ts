import type { BaseCase } from "../docsVault";

/** The examples of the "String type" section of "Functions", with the results the page gives. */
export const functionsString: BaseCase = {
	page: "Bases/Functions.md",
	example: "String type functions",
	base: `filters: 'file.name == "Textbook.md"'
formulas:
  contains: '"hello".contains("ell")'
  contains_all: '"hello".containsAll("h", "e")'
  contains_any: '"hello".containsAny("x", "y", "e")'
  ends_with: '"hello".endsWith("lo")'
  not_empty: '"Hello world".isEmpty()'
  empty: '"".isEmpty()'
  replace_first: '"a:b:c:d".replace(/:/, "-")'
  replace_all: '"a:b:c:d".replace(/:/g, "-")'
  replace_groups: '"John Smith".replace(/(\\w+) (\\w+)/, "$2, $1")'
  replace_text: '"a:b:c".replace(":", "-")'
  repeat: '"123".repeat(2)'
  reverse: '"hello".reverse()'
  slice: '"hello".slice(1, 4)'
  split: '"a,b,c,d".split(",", 3)'
  split_regex: '"a,b,c,d".split(/,/, 3)'
  starts_with: '"hello".startsWith("he")'
  title: '"hello world".title()'
  trim: '"  hi  ".trim()'
  lower: '"HeLLo".lower()'
  length: '"hello".length'
  matches: '/abc/.matches("abcde")'
views:
  - type: table
    name: Strings
    order: [formula.contains, formula.contains_all, formula.contains_any, formula.ends_with, formula.not_empty, formula.empty, formula.replace_first, formula.replace_all, formula.replace_groups, formula.replace_text, formula.repeat, formula.reverse, formula.slice, formula.split, formula.split_regex, formula.starts_with, formula.title, formula.trim, formula.lower, formula.length, formula.matches]
`,
	calls: [
		{
			expect: {
				rows: [
					{
						path: "Textbook.md",
						values: {
							"formula.contains": true,
							"formula.contains_all": true,
							"formula.contains_any": true,
							"formula.ends_with": true,
							"formula.not_empty": false,
							"formula.empty": true,
							"formula.replace_first": "a-b:c:d",
							"formula.replace_all": "a-b-c-d",
							// The page's pattern has two unbounded repeats; Vault MCP refuses it (a pattern written in a note
							// could otherwise backtrack for minutes) and says so in the cell's error.
							"formula.replace_groups": null,
							"formula.replace_text": "a-b-c",
							"formula.repeat": "123123",
							"formula.reverse": "olleh",
							"formula.slice": "ell",
							"formula.split": ["a", "b", "c"],
							"formula.split_regex": ["a", "b", "c"],
							"formula.starts_with": true,
							"formula.title": "Hello World",
							"formula.trim": "hi",
							"formula.lower": "hello",
							"formula.length": 5,
							"formula.matches": true,
						},
						errors: {
							"formula.replace_groups": expect.stringContaining("is not run: it has more than 1 repeat without a bound") as unknown as string,
						},
					},
				],
			},
		},
	],
};
