import type { JudgedQuery } from "./judgedQueries";

/**
 * The sixth held-out judged set: questions a developer new to eslint-plugin-jest would type over its
 * rule pages (`docs/rules/`, 71 Markdown pages, one per rule named by its slug,
 * `rules/no-focused-tests.md`, each opening with the heading `# jest/<slug>`, a one-line summary
 * after an emoji, badges for the configs that enable it, and a `## Rule details` section that nearly
 * every page repeats; seven `padding-around-…` pages differ by one word), from the npm package
 * eslint-plugin-jest 29.17.0 (MIT license, by Jonathan Kim and the jest-community contributors;
 * repository jest-community/eslint-plugin-jest), installed from the npm registry into
 * test/unseen-vaults by scripts/test-tools.mjs. A question expects the page of the rule that answers
 * it; two pages when two rules answer it alike.
 *
 * Written on 2026-12-03 from each page's summary and opening paragraphs, in a developer's own words,
 * before the engine was run on them, and measured once before that day's ranking changes and once
 * after. Held out until later that day (rank37), when its misses were read and their classes fixed
 * (an answer left empty by a question in words the vault does not use; code typed in a question read
 * as phrases): it is used up as a held-out set and is now a development set like the Hub's. Do not
 * edit the queries to match what the engine answers. New held-out queries go into a new set
 * (bench/pinoDocsJudgedQueries.ts is the seventh).
 */
export const JEST_RULES_JUDGED_QUERIES: JudgedQuery[] = [
	{ vault: "jest-rules", query: "I left a test.only in and CI ran a single test", expected: ["rules/no-focused-tests.md"] },
	{ vault: "jest-rules", query: "warn about skipped tests before committing", expected: ["rules/no-disabled-tests.md"] },
	{ vault: "jest-rules", query: "tests that were commented out", expected: ["rules/no-commented-out-tests.md"] },
	{ vault: "jest-rules", query: "a test with no assertions in it", expected: ["rules/expect-expect.md"] },
	{ vault: "jest-rules", query: "use it or test consistently", expected: ["rules/consistent-test-it.md"] },
	{ vault: "jest-rules", query: "too many expect calls in one test", expected: ["rules/max-expects.md"] },
	{ vault: "jest-rules", query: "limit how deeply describe blocks are nested", expected: ["rules/max-nested-describe.md"] },
	{ vault: "jest-rules", query: "toThrowError is an alias of toThrow", expected: ["rules/no-alias-methods.md"] },
	{ vault: "jest-rules", query: "expect inside an if statement or catch block", expected: ["rules/no-conditional-expect.md"] },
	{ vault: "jest-rules", query: "if statements and ternaries inside a test", expected: ["rules/no-conditional-in-test.md"] },
	{ vault: "jest-rules", query: "calling jest.setTimeout more than once in a file", expected: ["rules/no-confusing-set-timeout.md"] },
	{ vault: "jest-rules", query: "functions Jest renamed or replaced over the years", expected: ["rules/no-deprecated-functions.md"] },
	{ vault: "jest-rules", query: "replace the done callback with async await", expected: ["rules/no-done-callback.md"] },
	{ vault: "jest-rules", query: "two beforeEach hooks in the same describe", expected: ["rules/no-duplicate-hooks.md"] },
	{ vault: "jest-rules", query: "toEqual on errors ignores the error class", expected: ["rules/no-error-equal.md"] },
	{ vault: "jest-rules", query: "exporting something from a test file", expected: ["rules/no-export.md"] },
	{ vault: "jest-rules", query: "ban beforeAll and afterEach entirely", expected: ["rules/no-hooks.md"] },
	{ vault: "jest-rules", query: "two tests with the same name", expected: ["rules/no-identical-title.md"] },
	{ vault: "jest-rules", query: "template literal interpolation inside toMatchSnapshot", expected: ["rules/no-interpolation-in-snapshots.md"] },
	{ vault: "jest-rules", query: "jasmine globals like spyOn and fail", expected: ["rules/no-jasmine-globals.md"] },
	{ vault: "jest-rules", query: "snapshot files that are too big to review", expected: ["rules/no-large-snapshots.md"] },
	{ vault: "jest-rules", query: "importing directly from the __mocks__ folder", expected: ["rules/no-mocks-import.md"] },
	{ vault: "jest-rules", query: "forbid certain matchers like toBeTruthy", expected: ["rules/no-restricted-matchers.md"] },
	{ vault: "jest-rules", query: "stop the team using jest.mock or spies", expected: ["rules/no-restricted-jest-methods.md"] },
	{ vault: "jest-rules", query: "expect called outside of any test block", expected: ["rules/no-standalone-expect.md"] },
	{ vault: "jest-rules", query: "use it.skip instead of xit", expected: ["rules/no-test-prefixes.md"] },
	{ vault: "jest-rules", query: "returning a promise from a test", expected: ["rules/no-test-return-statement.md"] },
	{ vault: "jest-rules", query: "checking for null on a value whose type can never be null", expected: ["rules/no-unnecessary-assertion.md"] },
	{ vault: "jest-rules", query: "wrapping the promise in an async arrow inside expect", expected: ["rules/no-unneeded-async-expect-function.md"] },
	{ vault: "jest-rules", query: "type the factory passed to jest.mock", expected: ["rules/no-untyped-mock-factory.md"] },
	{
		vault: "jest-rules",
		query: "blank line before and after describe blocks",
		expected: ["rules/padding-around-describe-blocks.md", "rules/padding-around-all.md"],
	},
	{ vault: "jest-rules", query: "empty lines around every jest function", expected: ["rules/padding-around-all.md"] },
	{ vault: "jest-rules", query: "padding around afterEach", expected: ["rules/padding-around-after-each-blocks.md"] },
	{ vault: "jest-rules", query: "check the arguments a mock was called with", expected: ["rules/prefer-called-with.md"] },
	{ vault: "jest-rules", query: "expect(a > b).toBe(true) should use toBeGreaterThan", expected: ["rules/prefer-comparison-matcher.md"] },
	{ vault: "jest-rules", query: "use test.each instead of a for loop", expected: ["rules/prefer-each.md"] },
	{ vault: "jest-rules", query: "the last line of a test should be an assertion", expected: ["rules/prefer-ending-with-an-expect.md"] },
	{ vault: "jest-rules", query: "expect(a === b).toBe(true) is hard to read when it fails", expected: ["rules/prefer-equality-matcher.md"] },
	{ vault: "jest-rules", query: "require expect.assertions or expect.hasAssertions", expected: ["rules/prefer-expect-assertions.md"] },
	{ vault: "jest-rules", query: "await expect resolves instead of expect await", expected: ["rules/prefer-expect-resolves.md"] },
	{ vault: "jest-rules", query: "order of beforeAll beforeEach afterEach afterAll", expected: ["rules/prefer-hooks-in-order.md"] },
	{ vault: "jest-rules", query: "hooks declared after the test cases", expected: ["rules/prefer-hooks-on-top.md"] },
	{ vault: "jest-rules", query: "import describe and expect from @jest/globals", expected: ["rules/prefer-importing-jest-globals.md"] },
	{ vault: "jest-rules", query: "casting a function as jest.Mock in TypeScript", expected: ["rules/prefer-jest-mocked.md"] },
	{ vault: "jest-rules", query: "test names should start with a lowercase letter", expected: ["rules/prefer-lowercase-title.md"] },
	{
		vault: "jest-rules",
		query: "mockResolvedValue instead of mockImplementation returning Promise.resolve",
		expected: ["rules/prefer-mock-promise-shorthand.md"],
	},
	{ vault: "jest-rules", query: "mockReturnValue shorthand for a mock returning a constant", expected: ["rules/prefer-mock-return-shorthand.md"] },
	{ vault: "jest-rules", query: "give external snapshots a hint", expected: ["rules/prefer-snapshot-hint.md"] },
	{ vault: "jest-rules", query: "overwriting a method with jest.fn instead of spying", expected: ["rules/prefer-spy-on.md"] },
	{ vault: "jest-rules", query: "toEqual does not catch objects with extra undefined keys", expected: ["rules/prefer-strict-equal.md"] },
	{ vault: "jest-rules", query: "toBe for numbers and strings instead of toEqual", expected: ["rules/prefer-to-be.md"] },
	{ vault: "jest-rules", query: "asserting an array includes an item", expected: ["rules/prefer-to-contain.md"] },
	{ vault: "jest-rules", query: "expect(mock.calls.length) should use toHaveBeenCalledTimes", expected: ["rules/prefer-to-have-been-called-times.md"] },
	{ vault: "jest-rules", query: "checking the length property of an array", expected: ["rules/prefer-to-have-length.md"] },
	{ vault: "jest-rules", query: "placeholder for a test I will write later", expected: ["rules/prefer-todo.md"] },
	{ vault: "jest-rules", query: "setup code at the top level of a describe instead of a hook", expected: ["rules/require-hook.md"] },
	{ vault: "jest-rules", query: "toThrow without an error message passes for any error", expected: ["rules/require-to-throw-message.md"] },
	{ vault: "jest-rules", query: "every test must be inside a describe", expected: ["rules/require-top-level-describe.md"] },
	{ vault: "jest-rules", query: "passing an unbound method to expect", expected: ["rules/unbound-method.md"] },
	{ vault: "jest-rules", query: "describe callback that is async or returns a value", expected: ["rules/valid-describe-callback.md"] },
	{ vault: "jest-rules", query: "expect inside a then that is never awaited or returned", expected: ["rules/valid-expect-in-promise.md"] },
	{ vault: "jest-rules", query: "using resolves on something that is not a promise", expected: ["rules/valid-expect-with-promise.md"] },
	{ vault: "jest-rules", query: "expect called without a matcher", expected: ["rules/valid-expect.md"] },
	{ vault: "jest-rules", query: "jest.mock with a path to a module that does not exist", expected: ["rules/valid-mock-module-path.md"] },
	{ vault: "jest-rules", query: "empty or non string test titles", expected: ["rules/valid-title.md"] },
];
