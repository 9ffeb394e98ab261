import type { BaseCase } from "../docsVault";

/** The examples of the "Global" and "Any type" sections of "Functions", each as a formula on one note. */
export const functionsGlobalAndAny: BaseCase = {
	page: "Bases/Functions.md",
	example: "Global and Any type functions",
	base: `filters: 'file.name == "Textbook.md"'
formulas:
  if_true: 'if(file.hasTag("tag"), "Tagged", "Untagged")'
  if_no_else: 'if(false, "yes")'
  list_value: 'list("value")'
  list_list: 'list([1, 2])'
  number_text: 'number("3.4")'
  number_bool: 'number(true)'
  number_date: 'number(date("1970-01-01 00:00:01")) - number(date("1970-01-01 00:00:00"))'
  biggest: 'max(3, 7, 5)'
  smallest: 'min(3, 7, 5)'
  escaped: 'escapeHTML("<b>&</b>")'
  truthy: '1.isTruthy()'
  is_string: '"example".isType("string")'
  is_boolean: 'true.isType("boolean")'
  to_string: '123.toString()'
  random_in_range: 'random() >= 0 && random() < 1'
  linked_file: 'file(link("[[Textbook]]")).path'
  file_by_path: 'file("Books/Dune.md").name'
views:
  - type: table
    name: Global
    order: [formula.if_true, formula.if_no_else, formula.list_value, formula.list_list, formula.number_text, formula.number_bool, formula.number_date, formula.biggest, formula.smallest, formula.escaped, formula.truthy, formula.is_string, formula.is_boolean, formula.to_string, formula.random_in_range, formula.linked_file, formula.file_by_path]
`,
	calls: [
		{
			expect: {
				rows: [
					{
						path: "Textbook.md",
						values: {
							"formula.if_true": "Tagged",
							"formula.if_no_else": null,
							"formula.list_value": ["value"],
							"formula.list_list": [1, 2],
							"formula.number_text": 3.4,
							"formula.number_bool": 1,
							"formula.number_date": 1000,
							"formula.biggest": 7,
							"formula.smallest": 3,
							"formula.escaped": "&#60;b&#62;&#38;&#60;/b&#62;",
							"formula.truthy": true,
							"formula.is_string": true,
							"formula.is_boolean": true,
							"formula.to_string": "123",
							"formula.random_in_range": true,
							"formula.linked_file": "Textbook.md",
							"formula.file_by_path": "Dune.md",
						},
					},
				],
			},
		},
	],
};
