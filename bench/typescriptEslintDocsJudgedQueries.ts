import type { JudgedQuery } from "./judgedQueries";

/**
 * The fifth held-out judged set: questions a TypeScript developer new to typescript-eslint would
 * type over its rule pages (`docs/`, 145 Markdown pages: `rules/README.md`, an overview whose only
 * title is the frontmatter `title: Overview`, a rule template, and one page per rule named by its
 * slug, `rules/no-floating-promises.md`, with no heading above the body: the rule's summary is a
 * frontmatter `description`, often longer than six words; many pages share their opening paragraph,
 * word for word, with a sibling rule), from the npm package @typescript-eslint/eslint-plugin 6.21.0
 * (MIT license, by the typescript-eslint contributors; repository typescript-eslint/typescript-eslint),
 * installed from the npm registry into test/unseen-vaults by scripts/test-tools.mjs. A question
 * expects the page of the rule that answers it; two pages when two rules answer it alike.
 *
 * Written on 2026-12-03 from each page's description and opening paragraphs, in a developer's own
 * words, before the engine was run on them, and measured once before that day's ranking changes and
 * once after. Nothing was tuned on it: do not tune ranking on these queries, and do not edit them to
 * match what the engine answers. New queries go into a new set.
 */
export const TYPESCRIPT_ESLINT_DOCS_JUDGED_QUERIES: JudgedQuery[] = [
	{ vault: "typescript-eslint-docs", query: "I forgot to await a promise and nothing warned me", expected: ["rules/no-floating-promises.md"] },
	{ vault: "typescript-eslint-docs", query: "ban the any type", expected: ["rules/no-explicit-any.md"] },
	{ vault: "typescript-eslint-docs", query: "should I use interface or type for object shapes", expected: ["rules/consistent-type-definitions.md"] },
	{ vault: "typescript-eslint-docs", query: "use import type for imports that are only types", expected: ["rules/consistent-type-imports.md"] },
	{ vault: "typescript-eslint-docs", query: "T[] or Array<T> for array types", expected: ["rules/array-type.md"] },
	{
		vault: "typescript-eslint-docs",
		query: "stop people suppressing compiler errors with ts-ignore comments",
		expected: ["rules/ban-ts-comment.md", "rules/prefer-ts-expect-error.md"],
	},
	{ vault: "typescript-eslint-docs", query: "use ts-expect-error instead of ts-ignore", expected: ["rules/prefer-ts-expect-error.md"] },
	{ vault: "typescript-eslint-docs", query: "report variables that are never used", expected: ["rules/no-unused-vars.md"] },
	{ vault: "typescript-eslint-docs", query: "using a variable before it is defined", expected: ["rules/no-use-before-define.md"] },
	{
		vault: "typescript-eslint-docs",
		query: "async function passed as a callback where a void return is expected",
		expected: ["rules/no-misused-promises.md"],
	},
	{ vault: "typescript-eslint-docs", query: "awaiting a value that is not a promise", expected: ["rules/await-thenable.md"] },
	{ vault: "typescript-eslint-docs", query: "use ?? instead of || for default values", expected: ["rules/prefer-nullish-coalescing.md"] },
	{ vault: "typescript-eslint-docs", query: "replace chains of && checks with optional chaining", expected: ["rules/prefer-optional-chain.md"] },
	{ vault: "typescript-eslint-docs", query: "forbid the ! non-null assertion operator", expected: ["rules/no-non-null-assertion.md"] },
	{
		vault: "typescript-eslint-docs",
		query: "switch statement is missing a case for one member of a union",
		expected: ["rules/switch-exhaustiveness-check.md"],
	},
	{ vault: "typescript-eslint-docs", query: "why does sorting numbers put 10 before 2", expected: ["rules/require-array-sort-compare.md"] },
	{ vault: "typescript-eslint-docs", query: "require a return type on every function", expected: ["rules/explicit-function-return-type.md"] },
	{ vault: "typescript-eslint-docs", query: "public private and protected modifiers on class members", expected: ["rules/explicit-member-accessibility.md"] },
	{ vault: "typescript-eslint-docs", query: "enforce camelCase variables and UPPER_CASE constants", expected: ["rules/naming-convention.md"] },
	{ vault: "typescript-eslint-docs", query: "order of fields, constructor and methods in a class", expected: ["rules/member-ordering.md"] },
	{ vault: "typescript-eslint-docs", query: "throwing a string instead of an Error", expected: ["rules/no-throw-literal.md"] },
	{ vault: "typescript-eslint-docs", query: "reject a promise only with an Error object", expected: ["rules/prefer-promise-reject-errors.md"] },
	{ vault: "typescript-eslint-docs", query: "async function that never awaits anything", expected: ["rules/require-await.md"] },
	{ vault: "typescript-eslint-docs", query: "function returns a promise but is not marked async", expected: ["rules/promise-function-async.md"] },
	{ vault: "typescript-eslint-docs", query: "should I write return await inside try catch", expected: ["rules/return-await.md"] },
	{ vault: "typescript-eslint-docs", query: "redundant type annotation on a variable initialized to a number", expected: ["rules/no-inferrable-types.md"] },
	{ vault: "typescript-eslint-docs", query: "empty interface declarations", expected: ["rules/no-empty-interface.md"] },
	{ vault: "typescript-eslint-docs", query: "class with only static methods used as a namespace", expected: ["rules/no-extraneous-class.md"] },
	{ vault: "typescript-eslint-docs", query: "disallow typescript namespaces in favour of es modules", expected: ["rules/no-namespace.md"] },
	{ vault: "typescript-eslint-docs", query: "forbid require() calls and use imports", expected: ["rules/no-require-imports.md", "rules/no-var-requires.md"] },
	{ vault: "typescript-eslint-docs", query: "for in loop over an array", expected: ["rules/no-for-in-array.md"] },
	{ vault: "typescript-eslint-docs", query: "delete operator on an array leaves an empty slot", expected: ["rules/no-array-delete.md"] },
	{
		vault: "typescript-eslint-docs",
		query: "object shows up as [object Object] when turned into a string",
		expected: ["rules/no-base-to-string.md", "rules/restrict-template-expressions.md"],
	},
	{ vault: "typescript-eslint-docs", query: "adding a number and a string with +", expected: ["rules/restrict-plus-operands.md"] },
	{ vault: "typescript-eslint-docs", query: "only allow strings in template literal expressions", expected: ["rules/restrict-template-expressions.md"] },
	{ vault: "typescript-eslint-docs", query: "comparing a boolean to true or false", expected: ["rules/no-unnecessary-boolean-literal-compare.md"] },
	{ vault: "typescript-eslint-docs", query: "condition that is always true", expected: ["rules/no-unnecessary-condition.md"] },
	{ vault: "typescript-eslint-docs", query: "type assertion that does not change the type", expected: ["rules/no-unnecessary-type-assertion.md"] },
	{ vault: "typescript-eslint-docs", query: "enum mixing number and string members", expected: ["rules/no-mixed-enums.md"] },
	{ vault: "typescript-eslint-docs", query: "two enum members with the same value", expected: ["rules/no-duplicate-enum-values.md"] },
	{ vault: "typescript-eslint-docs", query: "make every enum member have an explicit value", expected: ["rules/prefer-enum-initializers.md"] },
	{ vault: "typescript-eslint-docs", query: "use includes instead of indexOf", expected: ["rules/prefer-includes.md"] },
	{ vault: "typescript-eslint-docs", query: "check if a string starts with a prefix", expected: ["rules/prefer-string-starts-ends-with.md"] },
	{ vault: "typescript-eslint-docs", query: "filter()[0] should be find()", expected: ["rules/prefer-find.md"] },
	{ vault: "typescript-eslint-docs", query: "index only used to read the array element in a for loop", expected: ["rules/prefer-for-of.md"] },
	{ vault: "typescript-eslint-docs", query: "passing a class method as a callback loses this", expected: ["rules/unbound-method.md"] },
	{ vault: "typescript-eslint-docs", query: "const self = this", expected: ["rules/no-this-alias.md"] },
	{ vault: "typescript-eslint-docs", query: "mark private members readonly when they are never reassigned", expected: ["rules/prefer-readonly.md"] },
	{ vault: "typescript-eslint-docs", query: "function has too many parameters", expected: ["rules/max-params.md"] },
	{ vault: "typescript-eslint-docs", query: "magic numbers", expected: ["rules/no-magic-numbers.md"] },
	{ vault: "typescript-eslint-docs", query: "single or double quotes", expected: ["rules/quotes.md"] },
	{ vault: "typescript-eslint-docs", query: "trailing commas", expected: ["rules/comma-dangle.md"] },
	{ vault: "typescript-eslint-docs", query: "setTimeout with a string of code is like eval", expected: ["rules/no-implied-eval.md"] },
	{ vault: "typescript-eslint-docs", query: "tslint:disable comments left after moving to eslint", expected: ["rules/ban-tslint-comment.md"] },
	{ vault: "typescript-eslint-docs", query: "don't use String, Object or Function as types", expected: ["rules/ban-types.md"] },
	{ vault: "typescript-eslint-docs", query: "declare class properties in the constructor parameters", expected: ["rules/parameter-properties.md"] },
	{ vault: "typescript-eslint-docs", query: "variable shadows one from the outer scope", expected: ["rules/no-shadow.md"] },
	{ vault: "typescript-eslint-docs", query: "storing the result of a function that returns void", expected: ["rules/no-confusing-void-expression.md"] },
	{
		vault: "typescript-eslint-docs",
		query: "make function parameters readonly so they can't be mutated",
		expected: ["rules/prefer-readonly-parameter-types.md"],
	},
	{ vault: "typescript-eslint-docs", query: "returning any from a function", expected: ["rules/no-unsafe-return.md"] },
	{ vault: "typescript-eslint-docs", query: "String match or RegExp exec", expected: ["rules/prefer-regexp-exec.md"] },
	{ vault: "typescript-eslint-docs", query: "as const instead of a literal type", expected: ["rules/prefer-as-const.md"] },
	{ vault: "typescript-eslint-docs", query: "keep function overloads next to each other", expected: ["rules/adjacent-overload-signatures.md"] },
	{ vault: "typescript-eslint-docs", query: "only booleans allowed in if conditions", expected: ["rules/strict-boolean-expressions.md"] },
	{ vault: "typescript-eslint-docs", query: "Record type or an index signature", expected: ["rules/consistent-indexed-object-style.md"] },
	{ vault: "typescript-eslint-docs", query: "angle bracket casts or as", expected: ["rules/consistent-type-assertions.md"] },
	{ vault: "typescript-eslint-docs", query: "commas or semicolons between interface members", expected: ["rules/member-delimiter-style.md"] },
	{ vault: "typescript-eslint-docs", query: "sort the types in a union alphabetically", expected: ["rules/sort-type-constituents.md"] },
	{ vault: "typescript-eslint-docs", query: "verbatimModuleSyntax leaves a side effect import behind", expected: ["rules/no-import-type-side-effects.md"] },
	{ vault: "typescript-eslint-docs", query: "list of all the rules", expected: ["rules/README.md"] },
	{ vault: "typescript-eslint-docs", query: "what is an extension rule", expected: ["rules/README.md"] },
	{ vault: "typescript-eslint-docs", query: "a class and an interface with the same name", expected: ["rules/no-unsafe-declaration-merging.md"] },
	{ vault: "typescript-eslint-docs", query: "comparing an enum value with a string literal", expected: ["rules/no-unsafe-enum-comparison.md"] },
	{
		vault: "typescript-eslint-docs",
		query: "generic on the constructor call or on the variable type",
		expected: ["rules/consistent-generic-constructors.md"],
	},
	{ vault: "typescript-eslint-docs", query: "problems with the indent rule", expected: ["rules/indent.md"] },
];
