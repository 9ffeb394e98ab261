import type { JudgedQuery } from "./judgedQueries";

/**
 * The fourth held-out judged set: questions a writer new to markdownlint (a Markdown linter) would
 * type over its documentation (`doc/`, 57 Markdown pages: one page per rule named by its code,
 * `md013.md`, whose only words are in its first heading, `` # `MD013` - Line length ``, and its
 * `Aliases:` line; `Rules.md`, a 74 kB page holding every rule's text again; and three guides),
 * from the npm package markdownlint 0.42.1 (MIT license, by David Anson; repository
 * DavidAnson/markdownlint), installed from the npm registry into test/unseen-vaults by
 * scripts/test-tools.mjs. A rule question expects the rule's own page, not `Rules.md`.
 *
 * Written on 2026-12-03 from each page's first heading, aliases and opening paragraph, before the
 * engine was run on them, and measured once before that day's ranking changes and once after.
 * Nothing was tuned on it: do not tune ranking on these queries, and do not edit them to match what
 * the engine answers. New queries go into a new set.
 */
export const MARKDOWNLINT_DOCS_JUDGED_QUERIES: JudgedQuery[] = [
	{ vault: "markdownlint-docs", query: "lines are too long", expected: ["md013.md"] },
	{ vault: "markdownlint-docs", query: "limit lines to 80 characters", expected: ["md013.md"] },
	{ vault: "markdownlint-docs", query: "trailing whitespace at the end of a line", expected: ["md009.md"] },
	{ vault: "markdownlint-docs", query: "tabs instead of spaces", expected: ["md010.md"] },
	{ vault: "markdownlint-docs", query: "more than one blank line in a row", expected: ["md012.md"] },
	{ vault: "markdownlint-docs", query: "heading jumps from h1 to h3", expected: ["md001.md"] },
	{ vault: "markdownlint-docs", query: "choose atx or setext headings", expected: ["md003.md"] },
	{ vault: "markdownlint-docs", query: "use dashes or asterisks for bullet points", expected: ["md004.md"] },
	{ vault: "markdownlint-docs", query: "list items at the same level indented differently", expected: ["md005.md"] },
	{ vault: "markdownlint-docs", query: "how many spaces to indent a nested bullet list", expected: ["md007.md"] },
	{ vault: "markdownlint-docs", query: "parentheses and square brackets swapped in a link", expected: ["md011.md"] },
	{ vault: "markdownlint-docs", query: "dollar sign before shell commands in code blocks", expected: ["md014.md"] },
	{ vault: "markdownlint-docs", query: "missing space after the hash in a heading", expected: ["md018.md"] },
	{ vault: "markdownlint-docs", query: "empty lines around headings", expected: ["md022.md"] },
	{ vault: "markdownlint-docs", query: "heading is indented", expected: ["md023.md"] },
	{ vault: "markdownlint-docs", query: "two headings with the same text", expected: ["md024.md"] },
	{ vault: "markdownlint-docs", query: "more than one h1 title in a document", expected: ["md025.md"] },
	{ vault: "markdownlint-docs", query: "heading ends with a colon or a period", expected: ["md026.md"] },
	{ vault: "markdownlint-docs", query: "extra spaces after the > in a quote", expected: ["md027.md"] },
	{ vault: "markdownlint-docs", query: "blank line between two blockquotes", expected: ["md028.md"] },
	{ vault: "markdownlint-docs", query: "numbered list should count 1. 2. 3. or repeat 1.", expected: ["md029.md"] },
	{ vault: "markdownlint-docs", query: "number of spaces after a bullet or number in a list", expected: ["md030.md"] },
	{ vault: "markdownlint-docs", query: "blank line before and after a fenced code block", expected: ["md031.md"] },
	{ vault: "markdownlint-docs", query: "lists need empty lines around them", expected: ["md032.md"] },
	{ vault: "markdownlint-docs", query: "allow some html tags like br", expected: ["md033.md"] },
	{ vault: "markdownlint-docs", query: "url without angle brackets", expected: ["md034.md"] },
	{ vault: "markdownlint-docs", query: "horizontal rule written as --- or ***", expected: ["md035.md"] },
	{ vault: "markdownlint-docs", query: "bold text used as a heading", expected: ["md036.md"] },
	{ vault: "markdownlint-docs", query: "space inside bold or italic markers", expected: ["md037.md"] },
	{ vault: "markdownlint-docs", query: "spaces inside backtick code", expected: ["md038.md"] },
	{ vault: "markdownlint-docs", query: "code block without a language", expected: ["md040.md"] },
	{ vault: "markdownlint-docs", query: "the file should start with a title heading", expected: ["md041.md"] },
	{ vault: "markdownlint-docs", query: "link with nothing in it", expected: ["md042.md"] },
	{ vault: "markdownlint-docs", query: "require the same set of headings in every document", expected: ["md043.md"] },
	{ vault: "markdownlint-docs", query: "spell product names like JavaScript with the right capitalization", expected: ["md044.md"] },
	{ vault: "markdownlint-docs", query: "images missing alt text", expected: ["md045.md"] },
	{ vault: "markdownlint-docs", query: "indented code blocks versus fenced ones", expected: ["md046.md"] },
	{ vault: "markdownlint-docs", query: "file must end with a newline", expected: ["md047.md"] },
	{ vault: "markdownlint-docs", query: "backticks or tildes for code fences", expected: ["md048.md"] },
	{ vault: "markdownlint-docs", query: "underscore or asterisk for italics", expected: ["md049.md"] },
	{ vault: "markdownlint-docs", query: "bold written with double underscores", expected: ["md050.md"] },
	{ vault: "markdownlint-docs", query: "link to a heading anchor that does not exist", expected: ["md051.md"] },
	{ vault: "markdownlint-docs", query: "reference link label not defined", expected: ["md052.md"] },
	{ vault: "markdownlint-docs", query: "unused link reference definitions", expected: ["md053.md"] },
	{ vault: "markdownlint-docs", query: "pipes at the start and end of table rows", expected: ["md055.md"] },
	{ vault: "markdownlint-docs", query: "table rows with a different number of cells", expected: ["md056.md"] },
	{ vault: "markdownlint-docs", query: "blank lines around tables", expected: ["md058.md"] },
	{ vault: "markdownlint-docs", query: "links that just say click here", expected: ["md059.md"] },
	{ vault: "markdownlint-docs", query: "line up the columns of a table", expected: ["md060.md"] },
	{ vault: "markdownlint-docs", query: "write my own lint rule", expected: ["CustomRules.md"] },
	{ vault: "markdownlint-docs", query: "asynchronous custom rules", expected: ["CustomRules.md"] },
	{ vault: "markdownlint-docs", query: "conflicts with prettier over list indentation", expected: ["Prettier.md"] },
	{ vault: "markdownlint-docs", query: "how a new version is released", expected: ["ReleaseProcess.md"] },
	{ vault: "markdownlint-docs", query: "list of all the rules", expected: ["Rules.md"] },
];
