import {
	linktextFor,
	rewriteCanvasLinks,
	rewriteCanvasLinksSteps,
	rewriteLinks,
	rewriteLinksSteps,
	withLinkpath,
	type NewLinkFormat,
} from "../../../src/markdown/linkRewrite";
import { INLINE_ITEMS_PAUSE_COUNT } from "../../../src/config/limits";
import { metadataSteps, parseMetadata } from "../../../src/markdown/metadata";

/** Rewrites every link whose path is `from` to `to`, as a rename does. */
function renameIn(text: string, from: string, to: string): { text: string; links: number } {
	return rewriteLinks(text, parseMetadata(text), (linkpath) =>
		linkpath === from || linkpath === `${from}.md` ? (linkpath.endsWith(".md") ? `${to}.md` : to) : null,
	);
}

describe("withLinkpath: only the path part of a link changes, its form stays", () => {
	const cases: Array<[string, string, string]> = [
		["[[Old]]", "New", "[[New]]"],
		["[[Old#Heading]]", "New", "[[New#Heading]]"],
		["[[Old#^block-1]]", "New", "[[New#^block-1]]"],
		["[[Old|Shown text]]", "New", "[[New|Shown text]]"],
		["[[Old#Heading|Shown]]", "Folder/New", "[[Folder/New#Heading|Shown]]"],
		["![[Old]]", "New", "![[New]]"],
		["![[Old#^blk|300]]", "New", "![[New#^blk|300]]"],
		// In a table the alias pipe is escaped: the path ends before the backslash.
		["[[Old\\|alias]]", "New", "[[New\\|alias]]"],
		["[t](Old.md)", "New.md", "[t](New.md)"],
		["[t](path%20with%20spaces.md#h)", "Archive/new name.md", "[t](Archive/new%20name.md#h)"],
		["[t](Old.md#My%20Heading)", "New.md", "[t](New.md#My%20Heading)"],
		['[t](Old.md "a title")', "New.md", '[t](New.md "a title")'],
		["![alt](Old.md)", "New.md", "![alt](New.md)"],
		["[t](<old name.md#h>)", "new name.md", "[t](<new name.md#h>)"],
		["[t](Old.md)", "Déjà (vu) 50%.md", "[t](Déjà%20%28vu%29%2050%25.md)"],
		// A destination may hold balanced parentheses: all of it is the path, not the part before the first ")".
		["[t](Old(1).md)", "New.md", "[t](New.md)"],
		["[t](Old(1).md#h 'title')", "New.md", "[t](New.md#h 'title')"],
		// A title may hold "](": the destination starts after the link text, not at the last "](".
		['[t](Old.md "a](b")', "New.md", '[t](New.md "a](b")'],
		// Link text may hold brackets and an image of its own.
		["[![img](pic.png)](Old.md)", "New.md", "[![img](pic.png)](New.md)"],
		["[a [b] c](Old.md)", "New.md", "[a [b] c](New.md)"],
		["[a \\] c](Old.md)", "New.md", "[a \\] c](New.md)"],
	];
	test.each(cases)("%s → %s", (original, linkpath, expected) => {
		expect(withLinkpath(original, linkpath)).toBe(expected);
	});
});

describe("linktextFor: Obsidian's fileToLinktext for each New link format", () => {
	const cases: Array<[NewLinkFormat, string, string, boolean, string]> = [
		["shortest", "Archive/New.md", "Notes/Source.md", true, "New"],
		// Another file shares the name: the full path, so the link cannot reach the other one.
		["shortest", "Archive/New.md", "Notes/Source.md", false, "Archive/New"],
		["absolute", "Archive/New.md", "Notes/Source.md", true, "Archive/New"],
		["relative", "Archive/New.md", "Notes/Source.md", true, "../Archive/New"],
		["relative", "Notes/Sub/New.md", "Notes/Source.md", true, "Sub/New"],
		["relative", "Notes/New.md", "Notes/Source.md", true, "New"],
		["relative", "New.md", "A/B/Source.md", true, "../../New"],
		["relative", "A/B/New.md", "Source.md", true, "A/B/New"],
		["shortest", "image.png", "Source.md", true, "image.png"],
	];
	test.each(cases)("%s: %s from %s (unique %s) → %s", (format, target, source, unique, expected) => {
		expect(linktextFor(target, source, format, unique)).toBe(expected);
	});

	test("keeps .md when asked (a link written with it)", () => {
		expect(linktextFor("Archive/New.md", "S.md", "absolute", true, true)).toBe("Archive/New.md");
	});
});

describe("rewriteLinks over a whole note", () => {
	test("every kind of link to the note changes; the rest of the text keeps its bytes", () => {
		const text = [
			"---",
			'related: "[[Old#Plan|the plan]]"',
			"sources:",
			'  - "[[Old]]"',
			'  - "[[Other]]"',
			"---",
			"See [[Old]], [[Old#Plan|the plan]] and ![[Old#^quote]].",
			"A [markdown link](Old.md#Plan) and [[Other]] stay apart.",
			"`[[Old]] in code` is no link.",
			"| a | [[Old\\|cell]] |",
			"",
		].join("\r\n");
		const { text: after, links } = renameIn(text, "Old", "Archive/New");
		expect(after).toBe(
			[
				"---",
				'related: "[[Archive/New#Plan|the plan]]"',
				"sources:",
				'  - "[[Archive/New]]"',
				'  - "[[Other]]"',
				"---",
				"See [[Archive/New]], [[Archive/New#Plan|the plan]] and ![[Archive/New#^quote]].",
				"A [markdown link](Archive/New.md#Plan) and [[Other]] stay apart.",
				"`[[Old]] in code` is no link.",
				"| a | [[Archive/New\\|cell]] |",
				"",
			].join("\r\n"),
		);
		expect(links).toBe(7);
	});

	test("a note without links to it is returned as it was, with no links counted", () => {
		const text = "# Title\n\n[[Other]] and [x](https://example.com/Old.md)\n";
		expect(renameIn(text, "Old", "New")).toEqual({ text, links: 0 });
	});
});

describe("rewriteLinksSteps on a note of 100,000 links to the renamed note", () => {
	test("the new text is put together in steps too, not in one piece after the links are looked at (0.1 s for 125,000 links)", () => {
		const LINKS = 100_000;
		const text = Array.from({ length: LINKS / 2 }, (_, index) => `[[Old]] ![[Old#${index}]]`).join("\n");
		const cache = parseMetadata(text);
		const steps = rewriteLinksSteps(text, cache, (linkpath) => (linkpath === "Old" ? "New" : null));
		let pauses = 0;
		let next = steps.next();
		for (; next.done !== true; next = steps.next()) pauses++;
		expect(next.value.links).toBe(LINKS);
		expect(next.value.text).toBe(text.replaceAll("[[Old", "[[New"));
		// A pause every INLINE_ITEMS_PAUSE_COUNT links looked at, and as many while the text is put together.
		expect(pauses).toBeGreaterThanOrEqual(2 * Math.floor(LINKS / INLINE_ITEMS_PAUSE_COUNT));
	});
});

describe("rewriteLinksSteps on a note whose frontmatter links to the renamed note 1,990 times", () => {
	test("the pattern of link texts is compiled once per quoting, not once per value, and values are looked at in steps (1.5 s in one piece)", () => {
		const LINKS = 1_990;
		const text = `---\n${Array.from({ length: LINKS }, (_, index) => `k${index}: "[[Old#h${index}]]"`).join("\n")}\n---\nbody\n`;
		const cache = parseMetadata(text);
		expect(cache.frontmatterLinks).toHaveLength(LINKS);
		const original = globalThis.RegExp;
		let compiled = 0;
		globalThis.RegExp = new Proxy(original, {
			construct(target, args: [string | RegExp, string?]) {
				compiled++;
				return new target(...args);
			},
		});
		let pauses = 0;
		let next;
		try {
			const steps = rewriteLinksSteps(text, cache, (linkpath) => (linkpath.startsWith("Old") ? linkpath.replace("Old", "New") : null));
			for (next = steps.next(); next.done !== true; next = steps.next()) pauses++;
		} finally {
			globalThis.RegExp = original;
		}
		expect(next.value.links).toBe(LINKS);
		expect(next.value.text).toBe(text.replaceAll("[[Old", "[[New"));
		expect(compiled).toBeLessThanOrEqual(2);
		expect(pauses).toBeGreaterThanOrEqual(Math.floor(LINKS / INLINE_ITEMS_PAUSE_COUNT));
	});
});

describe("rewriteCanvasLinks", () => {
	test("a file card's path and the links in a text card change; every other byte of the canvas stays", () => {
		const canvas = [
			"{",
			'\t"nodes":[',
			'\t\t{"id":"a","type":"file","file":"Old.md","subpath":"#Plan"},',
			'\t\t{"id":"b","type":"text","text":"See [[Old#Plan|plan]]\\nand \\"quotes\\" \\u00e9"},',
			'\t\t{"id":"c","type":"text","text":"Nothing here \\u00e9"},',
			'\t\t{"id":"d","type":"file","file":"Other.md"}',
			"\t]",
			"}",
		].join("\n");
		const { text, links } = rewriteCanvasLinks(
			canvas,
			(linkpath) => (linkpath === "Old" ? "Archive/New" : null),
			(path) => (path === "Old.md" ? "Archive/New.md" : null),
			metadataSteps,
		);
		expect(links).toBe(2);
		expect(text).toBe(
			[
				"{",
				'\t"nodes":[',
				'\t\t{"id":"a","type":"file","file":"Archive/New.md","subpath":"#Plan"},',
				'\t\t{"id":"b","type":"text","text":"See [[Archive/New#Plan|plan]]\\nand \\"quotes\\" é"},',
				'\t\t{"id":"c","type":"text","text":"Nothing here \\u00e9"},',
				'\t\t{"id":"d","type":"file","file":"Other.md"}',
				"\t]",
				"}",
			].join("\n"),
		);
	});

	test("in steps: a pause after every card, so a canvas of thousands of cards is never rewritten in one piece", () => {
		const cards = Array.from({ length: 2_000 }, (_, index) => `{"id":"n${index}","type":"text","text":"[[Old]] card ${index}"}`);
		const canvas = `{"nodes":[${cards.join(",")}],"edges":[]}`;
		const steps = rewriteCanvasLinksSteps(
			canvas,
			(linkpath) => (linkpath === "Old" ? "New" : null),
			() => null,
			metadataSteps,
		);
		let pauses = 0;
		let next = steps.next();
		for (; !next.done; next = steps.next()) pauses++;
		expect(pauses).toBeGreaterThanOrEqual(2_000);
		expect(next.value.links).toBe(2_000);
		expect(next.value.text).toBe(canvas.replaceAll("[[Old]]", "[[New]]"));
	});
});

test("frontmatter links are replaced in one pass: a new link text that equals another link's is not rewritten again", () => {
	const text = '---\na: "[[Old]]"\nb: "[[Archive/Old]]"\n---\n';
	const cache = parseMetadata(text);
	const out = rewriteLinks(text, cache, (linkpath) => (linkpath === "Old" ? "Archive/Old" : linkpath === "Archive/Old" ? "Elsewhere/Old" : null));
	expect(out).toEqual({ text: '---\na: "[[Archive/Old]]"\nb: "[[Elsewhere/Old]]"\n---\n', links: 2 });
});

describe("frontmatter links: only the property values that hold them change", () => {
	const renameOld = (linkpath: string) => (linkpath === "Old" ? "New" : null);

	test("a YAML comment, a key, and a value nested deeper than Obsidian reads links keep their bytes", () => {
		const text = [
			"---",
			'# was "[[Old]]" before',
			'related: "[[Old]]" # the plan [[Old]]',
			"nested:",
			'  deeper: "[[Old]]"',
			'"[[Old]]": key',
			"---",
			"Body",
			"",
		].join("\n");
		const { text: after } = rewriteLinks(text, parseMetadata(text), renameOld);
		expect(after).toBe(
			[
				"---",
				'# was "[[Old]]" before',
				'related: "[[New]]" # the plan [[Old]]',
				"nested:",
				'  deeper: "[[Old]]"',
				'"[[Old]]": key',
				"---",
				"Body",
				"",
			].join("\n"),
		);
	});

	test("list items and text that holds a link change, in each quoting style", () => {
		const text = [
			"---",
			"up: '[[Old]]'",
			"list:",
			'  - "[[Old|a]]"',
			"  - [[Other]]",
			"  - see [[Old]] here",
			'inline: ["[[Old]]", "[[Old#H]]"]',
			"---",
			"",
		].join("\r\n");
		const { text: after, links } = rewriteLinks(text, parseMetadata(text), renameOld);
		expect(after).toBe(
			["---", "up: '[[New]]'", "list:", '  - "[[New|a]]"', "  - [[Other]]", "  - see [[New]] here", 'inline: ["[[New]]", "[[New#H]]"]', "---", ""].join(
				"\r\n",
			),
		);
		expect(links).toBe(5);
	});

	test("in single quotes, an apostrophe is written doubled, both in the link found and in the new one, so the YAML stays valid", () => {
		const text = "---\nup: '[[Bob''s plan]]'\ndown: '[[Old]]'\n---\n";
		const toApostrophe = rewriteLinks(text, parseMetadata(text), (linkpath) => (linkpath === "Old" ? "Ann's plan" : null)).text;
		expect(toApostrophe).toBe("---\nup: '[[Bob''s plan]]'\ndown: '[[Ann''s plan]]'\n---\n");
		expect(parseMetadata(toApostrophe).frontmatter).toEqual({ up: "[[Bob's plan]]", down: "[[Ann's plan]]" });
		const fromApostrophe = rewriteLinks(text, parseMetadata(text), (linkpath) => (linkpath === "Bob's plan" ? "Plan" : null));
		expect(fromApostrophe.text).toBe("---\nup: '[[Plan]]'\ndown: '[[Old]]'\n---\n");
	});

	test("a link written with escapes in a double-quoted value (\\u00e9) is found by its value and the value written again as one string", () => {
		const text = '---\nup: "[[Caf\\u00e9]] \\u2192 here"\nsame: "[[Caf\u00e9]]"\n---\n';
		const { text: after } = rewriteLinks(text, parseMetadata(text), (linkpath) => (linkpath === "Caf\u00e9" ? "Th\u00e9" : null));
		expect(after).toBe('---\nup: "[[Th\u00e9]] \u2192 here"\nsame: "[[Th\u00e9]]"\n---\n');
		expect(parseMetadata(after).frontmatter).toEqual({ up: "[[Th\u00e9]] \u2192 here", same: "[[Th\u00e9]]" });
	});
});

describe("frontmatter links in a frontmatter over the YAML bounds", () => {
	test("links Obsidian's cache lists there are left as they are and not counted as rewritten", () => {
		// Obsidian parses any frontmatter; here one of more than 2,000 lines is not parsed, so its links cannot be rewritten in place.
		const yaml = `up: "[[Old]]"\n${Array.from({ length: 2_100 }, (_, index) => `k${index}: v`).join("\n")}\n`;
		const text = `---\n${yaml}---\nBody [[Old]].\n`;
		const cache = parseMetadata(text);
		expect(cache.frontmatter).toBeUndefined();
		const end = text.indexOf("---\nBody") + 3;
		const obsidianCache = {
			...cache,
			frontmatterPosition: { start: { line: 0, col: 0, offset: 0 }, end: { line: 2_102, col: 3, offset: end } },
			frontmatterLinks: [{ key: "up", link: "Old", original: "[[Old]]", displayText: "Old" }],
		};
		const rewritten = rewriteLinks(text, obsidianCache, (linkpath) => (linkpath === "Old" ? "New" : null));
		// Before: 2 links counted, one of them not written.
		expect(rewritten).toEqual({ text: text.replace("Body [[Old]]", "Body [[New]]"), links: 1 });
	});
});

describe("a rename's links show the new name where they showed the old one, as Obsidian's rename writes them", () => {
	/** Rewrites the links to `Old/Plan.md` for its move to `to`, as a rename plans them. */
	const moved = (text: string, to: string, renameShownName = true) =>
		rewriteLinks(
			text,
			parseMetadata(text),
			(linkpath) => (linkpath === "Old/Plan" ? to : linkpath === "Old/Plan.md" ? `${to}.md` : linkpath === "Plan.md" ? `${to}.md` : null),
			{ renameShownName },
		).text;

	const cases: Array<[string, string, string]> = [
		// A wikilink with a folder in its path, showing that path's last part: the alias follows the name.
		["[[Old/Plan|Plan]]", "Garden/Beans", "[[Garden/Beans|Beans]]"],
		["![[Old/Plan| Plan ]]", "Garden/Beans", "![[Garden/Beans|Beans]]"],
		// Any other alias, a subpath before the pipe, or a table's escaped pipe: the alias stays.
		["[[Old/Plan|my plan]]", "Garden/Beans", "[[Garden/Beans|my plan]]"],
		["[[Old/Plan#Goals|Plan]]", "Garden/Beans", "[[Garden/Beans#Goals|Plan]]"],
		["[[Old/Plan\\|Plan]]", "Garden/Beans", "[[Garden/Beans\\|Plan]]"],
		// A Markdown link showing the old file name (without .md), or its whole old path: the new one.
		["[Plan](Old/Plan.md)", "Garden/Beans", "[Beans](Garden/Beans.md)"],
		["[Plan](Old/Plan.md#Goals)", "Garden/Beans", "[Beans](Garden/Beans.md#Goals)"],
		["[Old/Plan](Old/Plan.md)", "Garden/Beans", "[Garden/Beans](Garden/Beans.md)"],
		["![Plan](Old/Plan.md)", "Garden/Beans", "![Beans](Garden/Beans.md)"],
		// Other link text stays.
		["[the plan](Old/Plan.md)", "Garden/Beans", "[the plan](Garden/Beans.md)"],
		["[Plan.md](Old/Plan.md)", "Garden/Beans", "[Plan.md](Garden/Beans.md)"],
	];
	test.each(cases)("%s moved to %s → %s", (link, to, expected) => {
		expect(moved(`See ${link} here.\n`, to)).toBe(`See ${expected} here.\n`);
	});

	// A new path a Markdown link's text cannot show as it is: the link keeps its text, and stays a link to the new place.
	const keptText: Array<[string, string, string]> = [
		// A folder may hold brackets: `[Gar]den/Plan](…)` was no link at all, `[a[b](…)` a link showing "b".
		["[Old/Plan](Old/Plan.md)", "Gar]den/Plan", "[Old/Plan](Gar%5Dden/Plan.md)"],
		["[Old/Plan](Old/Plan.md)", "a[b/Plan", "[Old/Plan](a%5Bb/Plan.md)"],
		// A backtick, `$` or `%%` may open a code span, math or a comment with one later on the line.
		["[Plan](Old/Plan.md) then `code`", "Garden/a`b", "[Plan](Garden/a%60b.md) then `code`"],
		["[Plan](Old/Plan.md) costs $5", "Garden/a$b", "[Plan](Garden/a$b.md) costs $5"],
		["[Plan](Old/Plan.md) %%note%%", "Garden/a%%b", "[Plan](Garden/a%25%25b.md) %%note%%"],
		// An entity would show another character than the name has.
		["[Plan](Old/Plan.md)", "Garden/a&amp;b", "[Plan](Garden/a&amp;b.md)"],
	];
	test.each(keptText)("%s moved to %s keeps its text: %s", (link, to, expected) => {
		const text = `See ${link} here.\n`;
		const rewritten = moved(text, to);
		expect(rewritten).toBe(`See ${expected} here.\n`);
		expect(parseMetadata(rewritten).links?.map((found) => found.link)).toEqual([`${to}.md`]);
	});

	test("a wikilink with no folder in its path keeps its alias, whatever it shows", () => {
		expect(moved("[[Plan.md|Plan]]\n", "Garden/Beans")).toBe("[[Garden/Beans.md|Plan]]\n");
	});

	test("undo's pointing back (no renameShownName) leaves every shown text as it is", () => {
		expect(moved("[[Old/Plan|Plan]] [Plan](Old/Plan.md)\n", "Garden/Beans", false)).toBe("[[Garden/Beans|Plan]] [Plan](Garden/Beans.md)\n");
	});
});
