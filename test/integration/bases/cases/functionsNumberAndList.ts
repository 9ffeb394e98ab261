import type { BaseCase } from "../docsVault";

/** The examples of the "Number type", "List type" and "Object type" sections of "Functions". */
export const functionsNumberAndList: BaseCase = {
	page: "Bases/Functions.md",
	example: "Number, List and Object type functions",
	base: `filters: 'file.name == "Textbook.md"'
formulas:
  abs: '(-5).abs()'
  ceil: '(2.1).ceil()'
  floor: '(2.9).floor()'
  round: '(2.5).round()'
  round_digits: '(2.3333).round(2)'
  to_fixed: '(3.14159).toFixed(2)'
  number_empty: '5.isEmpty()'
  contains: '[1,2,3].contains(2)'
  contains_all: '[1,2,3].containsAll(2,3)'
  contains_any: '[1,2,3].containsAny(3,4)'
  filter: '[1,2,3,4].filter(value > 2)'
  flat: '[1,[2,3]].flat()'
  list_empty: '[1,2,3].isEmpty()'
  join: '[1,2,3].join(",")'
  map: '[1,2,3,4].map(value + 1)'
  map_index: '["a","b"].map(index)'
  sum: '[1,2,3].reduce(acc + value, 0)'
  largest: '[3, "x", 7, 1].filter(value.isType("number")).reduce(if(acc == null || value > acc, value, acc), null)'
  reverse: '[1,2,3].reverse()'
  slice: '[1,2,3,4].slice(1,3)'
  sort_numbers: '[3, 1, 2].sort()'
  sort_text: '["c", "a", "b"].sort()'
  unique: '[1,2,2,3].unique()'
  length: '[1,2,3].length'
  first: '[7,8,9][0]'
  object_empty: '{}.isEmpty()'
  object_keys: '{"a": 1, "b": 2}.keys()'
  object_values: '{"a": 1, "b": 2}.values()'
  object_field: '{"a": 1, "b": 2}["b"]'
  arithmetic: 'radius * (2 * 3.14)'
views:
  - type: table
    name: Numbers and lists
    order: [formula.abs, formula.ceil, formula.floor, formula.round, formula.round_digits, formula.to_fixed, formula.number_empty, formula.contains, formula.contains_all, formula.contains_any, formula.filter, formula.flat, formula.list_empty, formula.join, formula.map, formula.map_index, formula.sum, formula.largest, formula.reverse, formula.slice, formula.sort_numbers, formula.sort_text, formula.unique, formula.length, formula.first, formula.object_empty, formula.object_keys, formula.object_values, formula.object_field, formula.arithmetic]
`,
	calls: [
		{
			expect: {
				rows: [
					{
						path: "Textbook.md",
						values: {
							"formula.abs": 5,
							"formula.ceil": 3,
							"formula.floor": 2,
							"formula.round": 3,
							"formula.round_digits": 2.33,
							"formula.to_fixed": "3.14",
							"formula.number_empty": false,
							"formula.contains": true,
							"formula.contains_all": true,
							"formula.contains_any": true,
							"formula.filter": [3, 4],
							"formula.flat": [1, 2, 3],
							"formula.list_empty": false,
							"formula.join": "1,2,3",
							"formula.map": [2, 3, 4, 5],
							"formula.map_index": [0, 1],
							"formula.sum": 6,
							"formula.largest": 7,
							"formula.reverse": [3, 2, 1],
							"formula.slice": [2, 3],
							"formula.sort_numbers": [1, 2, 3],
							"formula.sort_text": ["a", "b", "c"],
							"formula.unique": [1, 2, 3],
							"formula.length": 3,
							"formula.first": 7,
							"formula.object_empty": true,
							"formula.object_keys": ["a", "b"],
							"formula.object_values": [1, 2],
							"formula.object_field": 2,
							// The textbook has no radius: arithmetic on a missing value is empty, not 0.
							"formula.arithmetic": null,
						},
					},
				],
			},
		},
	],
};
