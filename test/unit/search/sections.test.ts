import { topHeadingOffsets } from "../../../src/search/sections";

/** The lines `topHeadingOffsets` finds, by their text. */
const headingLines = (text: string, maxChars = 1_000_000) => topHeadingOffsets(text, maxChars).map((offset) => text.slice(offset).split("\n")[0]);

describe("topHeadingOffsets: where a note's level-1 and level-2 sections start", () => {
	test("level-1 and level-2 ATX headings start sections; level 3 and deeper, tags and prose do not", () => {
		const text = "intro\n# Title\ntext\n## Install\n### Options\n#tag and #notheading\n  ## Indented\n####### seven\n##\nend";
		expect(headingLines(text)).toEqual(["# Title", "## Install", "  ## Indented", "##"]);
	});

	test("a # inside fenced code is a comment, not a heading, until the fence closes with its own marker", () => {
		const text = "## Before\n```sh\n# a shell comment\n~~~\n## still code\n```\n## After\n~~~~\n# code\n~~~~~\n# Last";
		expect(headingLines(text)).toEqual(["## Before", "## After", "# Last"]);
	});

	test("a # inside front matter is a YAML comment", () => {
		expect(headingLines("---\n# comment\ntitle: x\n---\n# Heading")).toEqual(["# Heading"]);
		// Not at the very start: a thematic break, not front matter.
		expect(headingLines("text\n---\n# Heading\n---")).toEqual(["# Heading"]);
	});

	test("Windows line ends are lines too", () => {
		expect(headingLines("# One\r\ntext\r\n## Two\r\n")).toEqual(["# One\r", "## Two\r"]);
	});

	test("only the first maxChars characters are looked through", () => {
		const text = `# One\n${"x".repeat(100)}\n## Two`;
		expect(topHeadingOffsets(text, 50)).toEqual([0]);
		expect(topHeadingOffsets(text, text.length)).toEqual([0, 107]);
	});
});
