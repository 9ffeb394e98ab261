import fc from "fast-check";
import { getAllTags } from "../../../src/markdown/tags";
import { metadataSteps, parseMetadata, taskLinesSteps } from "../../../src/markdown/metadata";
import { runSteps } from "../../../src/markdown/steps";
import { CHUNKED_ARRAY_CHUNK, INLINE_PASS_STEP_CHARS, MAX_NOTE_HEADINGS, MAX_NOTE_SECTIONS, MAX_STEPPED_BLOCK_DEPTH } from "../../../src/config/limits";
import { blockPartInSteps } from "../../../src/headless/compactMetadata";
import type { NotePart } from "../../../src/markdown/subpath";
import { replaceMethod } from "../../helpers/replaceMethod";

const tagsOf = (text: string) => (parseMetadata(text).tags ?? []).map((tag) => tag.tag);
const linksOf = (text: string) => (parseMetadata(text).links ?? []).map((link) => link.link);

describe("what Obsidian ignores is ignored", () => {
	test("tags and links inside fenced and indented code blocks and inline code", () => {
		const text = ["```", "#fenced [[Fenced]]", "```", "", "    #indented [[Indented]]", "", "Text `#inline [[Inline]]` #real [[Real]]"].join("\n");
		expect(tagsOf(text)).toEqual(["#real"]);
		expect(linksOf(text)).toEqual(["Real"]);
	});

	test("tags and links inside HTML comments, inline and as a block", () => {
		const text = ["<!--", "#block [[Block]]", "-->", "", "Keep #kept <!-- #gone [[Gone]] --> [[Kept]]"].join("\n");
		expect(tagsOf(text)).toEqual(["#kept"]);
		expect(linksOf(text)).toEqual(["Kept"]);
	});

	test("a tag must contain something other than digits; nested tags keep their slashes", () => {
		expect(tagsOf("#123 #2024/11 #y2024 #a/b/c #under_score #kebab-case #émoji🙂 #end.")).toEqual([
			"#y2024",
			"#a/b/c",
			"#under_score",
			"#kebab-case",
			"#émoji🙂",
			"#end",
		]);
	});

	test("a tag needs whitespace or the line start before it: URLs and headings are not tags", () => {
		expect(tagsOf("https://example.com/#anchor a#b (#paren) #ok\n# Heading")).toEqual(["#ok"]);
	});

	test("frontmatter only at the very top: a later --- block is a thematic break and text", () => {
		const cache = parseMetadata("Intro\n\n---\ntags: [x]\n---\n");
		expect(cache.frontmatter).toBeUndefined();
		expect(cache.sections?.map((section) => section.type)).not.toContain("yaml");
	});

	test("broken YAML still gets the rest of the cache, like Obsidian", () => {
		const cache = parseMetadata("---\ntags: [unclosed\nkey: : :\n---\n# Title\n\n- [ ] task #t [[Link]]\n");
		expect(cache.frontmatter).toBeUndefined();
		expect(cache.sections?.[0]?.type).toBe("yaml");
		expect(cache.headings?.[0]?.heading).toBe("Title");
		expect(cache.listItems?.[0]?.task).toBe(" ");
		expect(linksOf("---\na: [\n---\n[[Link]]")).toEqual(["Link"]);
		expect(getAllTags(cache)).toEqual(["#t"]);
	});
});

describe("Obsidian syntax", () => {
	test("callouts, %% comment blocks and $$ math blocks are their own sections", () => {
		const text = ["> [!note] Title", "> body", "", "> plain quote", "", "%%", "hidden", "%%", "", "$$", "x^2 #notatag", "$$"].join("\n");
		expect(parseMetadata(text).sections?.map((section) => section.type)).toEqual(["callout", "blockquote", "comment", "math"]);
		expect(tagsOf(text)).toEqual([]);
	});

	test("block ids on paragraphs and list items", () => {
		const cache = parseMetadata("Para text ^para-1\n\n- item ^item1\n- other\n");
		expect(Object.keys(cache.blocks ?? {})).toEqual(["para-1", "item1"]);
		expect(cache.sections?.[0]?.id).toBe("para-1");
		expect(cache.listItems?.[0]?.id).toBe("item1");
	});

	test("task states are the character in the brackets; a list item without brackets is not a task", () => {
		const cache = parseMetadata("- [ ] open\n- [x] done\n- [-] cancelled\n- [/] doing\n- plain\n- [link](x.md)\n");
		expect(cache.listItems?.map((item) => item.task)).toEqual([" ", "x", "-", "/", undefined, undefined]);
	});

	test("Markdown links: internal ones are decoded, external ones and empty ones are not links", () => {
		expect(linksOf('[a](Some%20Note.md) [b](https://example.com) [c](mailto:x@y.z) [d]() [e](<Angle Note.md>) [f](Note.md "title")')).toEqual([
			"Some Note.md",
			"Angle Note.md",
			"Note.md",
		]);
	});

	test("a wikilink's alias pipe escaped for a table (`[[Note\\|alias]]`) links to Note, as Obsidian resolves it, not to `Note\\`", () => {
		const cache = parseMetadata("| a | b |\n|---|---|\n| [[Note\\|shown]] | ![[Pic.png\\|200]] |\n");
		expect([...(cache.links ?? []), ...(cache.embeds ?? [])].map((link) => [link.link, link.displayText, link.original])).toEqual([
			["Note", "shown", "[[Note\\|shown]]"],
			["Pic.png", "200", "![[Pic.png\\|200]]"],
		]);
	});

	test("CRLF notes get the same columns as LF notes", () => {
		const lf = parseMetadata("# T\n\n- [ ] a #x [[L]]\n");
		const crlf = parseMetadata("# T\r\n\r\n- [ ] a #x [[L]]\r\n");
		expect(crlf.tags?.[0]?.position.start.col).toBe(lf.tags?.[0]?.position.start.col);
		expect(crlf.listItems?.[0]?.position.end.col).toBe(lf.listItems?.[0]?.position.end.col);
		expect(crlf.headings?.[0]?.position.end.col).toBe(1 + 2);
	});

	test("deeply nested lists parse without trouble, up to 1,000 levels", () => {
		const deepest = Array.from({ length: 1000 }, (_, depth) => `${" ".repeat(depth * 2)}- ${depth}`).join("\n");
		expect((parseMetadata(deepest).listItems ?? []).length).toBeGreaterThan(400);
		const text = Array.from({ length: 200 }, (_, depth) => `${"  ".repeat(depth)}- level ${depth}`).join("\n");
		const items = parseMetadata(text).listItems ?? [];
		expect(items).toHaveLength(200);
		expect(items[199]?.parent).toBe(198);
	});
});

describe("links and tags nested deeper than the parser follows blocks", () => {
	const found = (text: string) => {
		const metadata = parseMetadata(text);
		return [...(metadata.links ?? []), ...(metadata.embeds ?? []), ...(metadata.tags ?? [])].map((item) => [
			"link" in item ? item.original : item.tag,
			item.position.start.offset,
			item.position.end.offset,
		]);
	};
	const at = (text: string, part: string) => [part, text.indexOf(part), text.indexOf(part) + part.length];

	test.each([
		["quotes 640 deep (MAX_STEPPED_BLOCK_DEPTH)", `${"> ".repeat(MAX_STEPPED_BLOCK_DEPTH)}x [[Hub]] ![[Pic.png]] #tag\n`],
		["quotes 5,000 deep", `${"> ".repeat(5_000)}x [[Hub]] ![[Pic.png]] #tag\n`],
		[
			"a callout a line, 700 deep",
			`${Array.from({ length: 700 }, (_, depth) => `${">".repeat(depth + 1)} [!note] c`).join("\n")}\n${">".repeat(700)} x [[Hub]] ![[Pic.png]] #tag\n`,
		],
		[
			"lists 600 deep (past MAX_MARKDOWN_NESTING)",
			`${Array.from({ length: 600 }, (_, depth) => `${"  ".repeat(depth)}- l`).join("\n")}\n${"  ".repeat(600)}- x [[Hub]] ![[Pic.png]] #tag\n`,
		],
	])("%s: found where they are written, as nearer the top (they were left out, and a rename kept them stale)", (_name, text) => {
		expect(found(text)).toEqual([at(text, "[[Hub]]"), at(text, "![[Pic.png]]"), at(text, "#tag")]);
	});
});

describe("tasks whose text starts like a list marker, tags next to backslash escapes", () => {
	const items = (text: string) =>
		parseMetadata(text).listItems?.map((item) => ({ line: item.position.start.line, col: item.position.start.col, parent: item.parent, task: item.task }));
	const tags = (text: string) => parseMetadata(text).tags?.map((tag) => [tag.tag, tag.position.start.col, tag.position.end.col]);

	test.each([
		"- [ ] - foo",
		"- [ ] * foo",
		"1. [ ] - foo",
		"- [x] + bar",
		"- [ ]  - foo",
		"- [ ] 2 foo",
		"- [ ] 4 - foo",
		"- [ ] 5: foo",
		"- [ ] (6) foo",
		"- [ ] 1.foo",
	])("%j is one task and no nested item", (text) => {
		expect(items(text)).toEqual([{ line: 0, col: 0, parent: -1, task: text.slice(text.indexOf("[") + 1, text.indexOf("[") + 2) }]);
	});

	test.each([
		["- [ ] 1. foo", 6],
		["* [ ] 3) foo", 6],
		["- [x]  12. foo", 7],
		["1. [/] 3) foo", 7],
	])("%j is a task and, as in Obsidian, an ordered item on the same line whose parent is the task's line", (text, col) => {
		expect(items(text)).toEqual([
			{ line: 0, col: 0, parent: -1, task: text.slice(text.indexOf("[") + 1, text.indexOf("[") + 2) },
			{ line: 0, col, parent: 0, task: undefined },
		]);
		const [task, ordered] = parseMetadata(text).listItems ?? [];
		expect(ordered?.position.end).toEqual(task?.position.end);
	});

	test("a marker right at an item's content start does nest: `- - [ ] foo` is an item holding a task", () => {
		expect(items("- - [ ] foo")).toEqual([
			{ line: 0, col: 0, parent: -1, task: undefined },
			{ line: 0, col: 2, parent: 0, task: " " },
		]);
	});

	test("a task with marker-like text still takes the child items indented under it", () => {
		expect(items("- [ ] - foo\n  - child\n- [ ] 2. bar")).toEqual([
			{ line: 0, col: 0, parent: -1, task: " " },
			{ line: 1, col: 2, parent: 0, task: undefined },
			{ line: 2, col: 0, parent: -1, task: " " },
			{ line: 2, col: 6, parent: 2, task: undefined },
		]);
	});

	test("the checkbox needs whitespace or the line's end after it", () => {
		expect(items("- [ ]- foo")).toEqual([{ line: 0, col: 0, parent: -1, task: undefined }]);
	});

	test.each([
		["\\#notatag", undefined],
		["#tag\\.", [["#tag", 0, 4]]],
		["#tag\\,more", [["#tag", 0, 4]]],
		["a\\ #tag", [["#tag", 3, 7]]],
		["#tag\\#other", [["#tag", 0, 4]]],
		["\\\\#tag", undefined],
		["x \\\\ #tag", [["#tag", 5, 9]]],
		["#tag\\", [["#tag", 0, 4]]],
		["#tag\\_x", [["#tag", 0, 4]]],
		["#a\\\\b", [["#a", 0, 2]]],
		["\\\\\\#tag", undefined],
		[
			"#tag\\\n#next",
			[
				["#tag", 0, 4],
				["#next", 0, 5],
			],
		],
		["\\[\\[#Escaped Links\\]\\]", [["#Escaped", 4, 12]]],
		["a\\(#tag", [["#tag", 3, 7]]],
		["a\\\\(#tag", undefined],
	])("tags in %j", (text, expected) => {
		expect(tags(text)).toEqual(expected);
	});
});

describe("a long table, parsed in chunks of rows", () => {
	const rows = Array.from({ length: 300 }, (_, index) => `| ${index} | [[N${index % 7}]] | #t${index % 5} |`);
	const text = ["# Top", "", "| a | b | c |", "|---|---|---|", ...rows, "", "After [[End]] #end", "- [ ] task [[Task]]", ""].join("\n");

	test("its section spans all its rows, and every link and tag in its cells is found, in order", () => {
		const cache = parseMetadata(text);
		const table = cache.sections?.find((section) => section.type === "table");
		expect([table?.position.start.line, table?.position.end.line]).toEqual([2, 303]);
		expect(cache.links?.map((link) => link.link)).toEqual([...rows.map((_, index) => `N${index % 7}`), "End", "Task"]);
		expect(cache.tags?.length).toBe(301);
	});

	test.each([1, 4, 100])("cut every %i lines, the metadata of one parse", (chunkLines) => {
		expect(runSteps(metadataSteps(text, chunkLines))).toEqual(parseMetadata(text));
	});
});

describe("a list item holding a long table, parsed item by item", () => {
	const rows = Array.from({ length: 300 }, (_, index) => `  | ${index} | [[N${index % 7}]] | #t${index % 5} |`);
	const text = ["- [ ] task [[Task]]", "- | a | b | c |", "  |---|---|---|", ...rows, "- last [[Last]]", "", "After [[End]] #end", ""].join("\n");

	test("each item spans its own lines (the table's item's end is known only at its close), and every link and tag in the cells is found, in order", () => {
		const cache = parseMetadata(text);
		expect(cache.listItems?.map((item) => [item.position.start.line, item.position.end.line, item.task])).toEqual([
			[0, 0, " "],
			[1, 302, undefined],
			[303, 303, undefined],
		]);
		expect(cache.sections?.map((section) => [section.type, section.position.start.line, section.position.end.line])).toEqual([
			["list", 0, 303],
			["paragraph", 305, 305],
		]);
		expect(cache.links?.map((link) => link.link)).toEqual(["Task", ...rows.map((_, index) => `N${index % 7}`), "Last", "End"]);
		expect(cache.tags?.length).toBe(301);
	});

	test.each([1, 4, 100])("cut every %i lines, the metadata of one parse", (chunkLines) => {
		expect(runSteps(metadataSteps(text, chunkLines))).toEqual(parseMetadata(text));
	});
});

describe("a quote holding a long table, parsed in steps", () => {
	const rows = Array.from({ length: 300 }, (_, index) => `> | ${index} | [[N${index % 7}]] | #t${index % 5} |`);
	const text = ["# Top", "", "> [!note] Rows", "> | a | b | c |", "> |---|---|---|", ...rows, "", "After [[End]] #end", ""].join("\n");

	test("the callout's section spans all its rows (its end is known only at its close), and every link and tag in its cells is found, in order", () => {
		const cache = parseMetadata(text);
		expect(cache.sections?.map((section) => [section.type, section.position.start.line, section.position.end.line])).toEqual([
			["heading", 0, 0],
			["callout", 2, 304],
			["paragraph", 306, 306],
		]);
		expect(cache.links?.map((link) => link.link)).toEqual([...rows.map((_, index) => `N${index % 7}`), "End"]);
		expect(cache.tags?.length).toBe(301);
	});

	test.each([1, 4, 100])("cut every %i lines, the metadata of one parse", (chunkLines) => {
		expect(runSteps(metadataSteps(text, chunkLines))).toEqual(parseMetadata(text));
	});
});

describe("blocks with no link or tag are not scanned, and every other block still is", () => {
	// Each block holds its one finding (`T` becomes a numbered name) on a line of its own kind: first, middle or last, lazy, nested, in a cell.
	const withFinding = [
		"p1\np2\np3 #T",
		"#T p1\np2",
		"- a\n  b #T\n  c",
		"- [ ] x\n- [ ] y #T",
		"> a\n> b #T",
		"> a\nlazy [[T]]",
		"| a | b |\n|---|---|\n| x | #T |",
		"- a\n    - b\n        - c [[T]]",
		"- [ ] x [t](T.md)",
		"1. [ ] ![[T.png]]",
		"## H #T",
		"%%\nx\n#T\n%%",
		"> [!note]\n> text ![alt](T.png)",
	];
	const without = [
		"- [ ] t 📅 2026-01-01",
		"plain (text) [x]",
		"> quote\n> more",
		"```\n#not [[code]]\n```",
		"| a |\n|---|\n| b |",
		"- [x] done ✅ 2026-01-02\n  - [ ] child",
	];
	test("a note of random blocks gives every finding its blocks hold, in order", () => {
		fc.assert(
			fc.property(fc.array(fc.oneof(fc.nat(withFinding.length - 1), fc.constantFrom(...without)), { maxLength: 12 }), (blocks) => {
				const expected: string[] = [];
				const text = blocks
					.map((block) => {
						if (typeof block === "string") return block;
						const name = `n${expected.length}`;
						expected.push(name);
						return (withFinding[block] ?? "").replaceAll("T", name);
					})
					.join("\n\n");
				const cache = parseMetadata(text);
				const found = [...(cache.tags ?? []), ...(cache.links ?? []), ...(cache.embeds ?? [])]
					.map((finding) => ({
						name: ("tag" in finding ? finding.tag.slice(1) : finding.link).replace(/\.(md|png)$/, ""),
						offset: finding.position.start.offset,
					}))
					.sort((a, b) => a.offset - b.offset);
				expect(found.map((finding) => finding.name)).toEqual(expected);
				for (const finding of found) expect(text.slice(finding.offset)).toMatch(new RegExp(`^(?:#|!?\\[\\[|!?\\[)[^\\n]*${finding.name}`));
			}),
			{ numRuns: 400 },
		);
	});
});

describe("a task's status character", () => {
	test("is the one character between the brackets, an emoji or a lone surrogate whole, as a task reader gets it", () => {
		const statuses = [" ", "x", "X", "-", "/", "é", "😀", "\ud800", "\u00a0", ">"];
		const text = statuses.map((status, index) => `- [${status}] task ${index}`).join("\n");
		expect((parseMetadata(text).listItems ?? []).map((item) => item.task)).toEqual(statuses);
		expect((parseMetadata("- [ab] no\n- [] no\n- [x]no\n- [x]\n1. [😀]\n").listItems ?? []).map((item) => item.task)).toEqual([
			undefined,
			undefined,
			undefined,
			"x",
			"😀",
		]);
	});
});

describe("a paragraph of 200,000 tags, one a line", () => {
	test("its lines are joined for the inline scan a step's worth at a time (all 200,000 in one step before), and every tag is found where it is", () => {
		const LINES = 200_000;
		const text = `${Array.from({ length: LINES }, (_, index) => `#t${index}`).join("\n")}\n`;
		// Strings joined between two pause points: a join is one piece, however many it joins.
		const join = Array.prototype.join;
		let joined = 0;
		const joins = replaceMethod(Array.prototype, "join", function (this: unknown[], separator?: string) {
			joined += this.length;
			return join.call(this, separator);
		});
		let mostJoined = 0;
		let cache: ReturnType<typeof parseMetadata>;
		try {
			const steps = metadataSteps(text);
			for (let next = steps.next(); ; next = steps.next()) {
				mostJoined = Math.max(mostJoined, joined);
				joined = 0;
				if (next.done) {
					cache = next.value;
					break;
				}
			}
		} finally {
			joins.restore();
		}
		expect(cache.tags).toHaveLength(LINES);
		const last = LINES - 1;
		const lastStart = text.length - `#t${last}\n`.length;
		expect(cache.tags?.[last]).toEqual({
			tag: `#t${last}`,
			position: {
				start: { line: last, col: 0, offset: lastStart },
				end: { line: last, col: `#t${last}`.length, offset: lastStart + `#t${last}`.length },
			},
		});
		expect(mostJoined).toBeLessThanOrEqual(4096);
	});
});

describe("a note of 100,000 block ids", () => {
	test("is parsed, and a block found in it, with no step listing its ids (its blocks object's keys were all counted at once), and reads as Obsidian's object", () => {
		const IDS = 100_000;
		const paragraph = (index: number) => `para ${index} ^b${index}`;
		const text = Array.from({ length: IDS }, (_, index) => `${paragraph(index)}\n`).join("\n");
		// The longest list of an object's keys, values or entries made while parsing and looking up: each is made in one piece.
		let longest = 0;
		const spies = (["keys", "values", "entries"] as const).map((name) => {
			const original = Object[name].bind(Object) as (value: object) => unknown[];
			return jest.spyOn(Object, name).mockImplementation((value: object) => {
				const listed = original(value);
				longest = Math.max(longest, listed.length);
				return listed as never;
			});
		});
		let cache: ReturnType<typeof parseMetadata>;
		let part: ReturnType<typeof runSteps<NotePart | null>>;
		try {
			cache = runSteps(metadataSteps(text));
			part = runSteps(blockPartInSteps(cache, `b${IDS - 1}`));
		} finally {
			for (const spy of spies) spy.mockRestore();
		}
		expect(longest).toBeLessThan(1000);
		const lastStart = text.length - `${paragraph(IDS - 1)}\n`.length;
		expect(part).toEqual({ name: `^b${IDS - 1}`, start: lastStart, end: lastStart + paragraph(IDS - 1).length });
		expect(runSteps(blockPartInSteps(cache, `b${IDS}`))).toBeNull();
		expect(runSteps(blockPartInSteps(cache, "b7"))).toEqual({ name: "^b7", start: 84, end: 94 });
		const blocks = cache.blocks ?? {};
		expect(Object.keys(blocks)).toHaveLength(IDS);
		expect(blocks.b1).toEqual({ id: "b1", position: { start: { line: 2, col: 0, offset: 12 }, end: { line: 2, col: 10, offset: 22 } } });
		expect(Object.keys(cache)).toEqual(["sections", "blocks"]);
	});

	test("a repeated id keeps its first place and its last block; ids that are numbers come first, as in a plain object", () => {
		const cache = parseMetadata("one ^a\n\ntwo ^2\n\nthree ^1\n\n- item ^a\n");
		expect(Object.keys(cache.blocks ?? {})).toEqual(["1", "2", "a"]);
		expect(cache.blocks?.a?.position.start.line).toBe(6);
		expect(Object.getOwnPropertyDescriptor(cache, "blocks")).toHaveProperty("value");
	});
});

describe("a note of 100,000 headings", () => {
	test("is parsed with no array pushed into past a chunk (a million headings grew two arrays of objects by copying them whole: pieces of 75–80 ms), and its headings and sections are Obsidian's", () => {
		const HEADINGS = 100_000;
		const text = Array.from({ length: HEADINGS }, (_, index) => `# h${index} [[L${index}]] #t${index}`).join("\n");
		let longest = 0;
		const push = Object.getOwnPropertyDescriptor(Array.prototype, "push")?.value as (this: unknown[], ...values: unknown[]) => number;
		const pushing = replaceMethod(Array.prototype, "push", function (this: unknown[], ...values: unknown[]) {
			longest = Math.max(longest, this.length + values.length);
			return push.apply(this, values);
		});
		let cache: ReturnType<typeof parseMetadata>;
		try {
			cache = runSteps(metadataSteps(text));
		} finally {
			pushing.restore();
		}
		expect(longest).toBeLessThanOrEqual(CHUNKED_ARRAY_CHUNK);
		expect(Object.keys(cache)).toEqual(["links", "tags", "headings", "sections"]);
		const last = HEADINGS - 1;
		const lastStart = text.lastIndexOf("\n") + 1;
		const lastHeading = `h${last} [[L${last}]] #t${last}`;
		expect(cache.headings).toHaveLength(HEADINGS);
		expect(cache.headings?.[last]).toEqual({
			heading: lastHeading,
			level: 1,
			position: { start: { line: last, col: 0, offset: lastStart }, end: { line: last, col: lastHeading.length + 2, offset: text.length } },
		});
		expect(cache.sections).toHaveLength(HEADINGS);
		expect(cache.sections?.[last]).toEqual({ type: "heading", position: cache.headings?.[last]?.position });
		expect(cache.links?.map((link) => link.link)).toEqual(Array.from({ length: HEADINGS }, (_, index) => `L${index}`));
		expect(cache.tags?.[last]?.tag).toBe(`#t${last}`);
	});
});

describe("a note of more headings than MAX_NOTE_HEADINGS", () => {
	test("keeps the first MAX_NOTE_HEADINGS headings and MAX_NOTE_SECTIONS sections; links, tags and block ids past them are still read (400,000 `#` lines kept 400,000 of each: 2.7-2.9 s at start)", () => {
		const PAST = 1_000;
		const count = Math.max(MAX_NOTE_HEADINGS, MAX_NOTE_SECTIONS) + PAST;
		// Links and tags on the lines past the bound only: scanning every line for them is most of a parse's work.
		const text = `${Array.from({ length: count }, (_, index) => (index < count - PAST ? `# h${index}` : `# h${index} [[L${index}]] #t${index}`)).join("\n")}\n\nlast ^end\n`;
		const cache = parseMetadata(text);
		expect(cache.headings).toHaveLength(MAX_NOTE_HEADINGS);
		expect(cache.headings?.at(-1)?.heading).toBe(`h${MAX_NOTE_HEADINGS - 1}`);
		// Where the first heading left out starts, for each level (all are `#`): the last kept one's section ends there.
		const firstLeftOut = text.indexOf(`\n# h${MAX_NOTE_HEADINGS}`) + 1;
		expect((cache as Record<string, unknown>).headingsLeftOut).toEqual(new Array(6).fill(firstLeftOut));
		expect(parseMetadata("# a\n## b\n")).not.toHaveProperty("headingsLeftOut");
		expect(cache.sections).toHaveLength(MAX_NOTE_SECTIONS);
		// The last paragraph's id is its own block's, not set on the last section kept (a heading's).
		expect(cache.sections?.some((section) => section.id !== undefined)).toBe(false);
		expect(cache.blocks?.end?.position.start.line).toBe(count + 1);
		expect(cache.links).toHaveLength(PAST);
		expect(cache.links?.at(-1)?.link).toBe(`L${count - 1}`);
		expect(cache.tags).toHaveLength(PAST);
	});
});

describe("lines nested past the bound, scanned for links and tags", () => {
	test("are joined a bounded step at a time: the block's text is copied once in a piece, not twice (200 lines of 18.7 KB were one piece of 30-60 ms)", () => {
		const LINES = 200;
		const line = `${"> ".repeat(2_000)}[[Target]] #tag ${"word ".repeat(600)}`;
		const text = Array.from({ length: LINES }, () => line).join("\n");
		// Characters of strings made by join, per piece of the parse.
		const perPiece = [0];
		const join = Array.prototype.join;
		Array.prototype.join = function (this: unknown[], separator?: string) {
			const joined = join.call(this, separator);
			perPiece[perPiece.length - 1]! += joined.length;
			return joined;
		};
		let cache;
		try {
			const steps = metadataSteps(text);
			for (let next = steps.next(); ; next = steps.next()) {
				if (next.done) {
					cache = next.value;
					break;
				}
				perPiece.push(0);
			}
		} finally {
			Array.prototype.join = join;
		}
		expect(cache).toEqual(parseMetadata(text));
		expect(cache.links?.length).toBe(LINES);
		expect(cache.tags?.length).toBe(LINES);
		// The lines are joined in steps, then the steps' texts into the block's: twice the block in all.
		const joined = perPiece.reduce((sum, chars) => sum + chars, 0);
		expect(joined).toBeGreaterThan(2 * LINES * line.length * 0.5);
		// Before: the lines joined in one step, then the block again, in one piece (all of it). Now the block once.
		expect(Math.max(...perPiece)).toBeLessThanOrEqual(joined / 2 + INLINE_PASS_STEP_CHARS);
		expect(perPiece.filter((chars) => chars > 0).length).toBeGreaterThan(10);
	});
});

describe("taskLinesSteps: a note's tasks from its block structure alone", () => {
	const tasksOfFullParse = (text: string) =>
		(parseMetadata(text).listItems ?? []).flatMap((item) => (item.task === undefined ? [] : [{ line: item.position.start.line, status: item.task }]));

	test("the tasks the full parse finds, for notes of every block that can hold, hide or end a task", () => {
		const line = fc.constantFrom(
			"- [ ] a [[link]] #tag ^id",
			"  - [x] nested",
			"1. [/] ordered",
			"> - [ ] quoted",
			"> [!note]",
			"- - [ ] item in item",
			"* [ ]",
			"```",
			"~~~",
			"    - [ ] indented code",
			"%%",
			"a %% b",
			"$$",
			"<br>",
			"<pre>",
			"</pre>",
			"<!--",
			"-->",
			"---",
			"# Heading",
			"words [[x|y]] `%%` $x$",
			"",
			"| a | b |",
			"|---|---|",
			"[^1]: note",
			"\ufeff- [ ] after a byte order mark",
		);
		fc.assert(
			fc.property(fc.array(line, { maxLength: 14 }), fc.boolean(), (lines, crlf) => {
				const text = lines.join(crlf ? "\r\n" : "\n");
				expect(runSteps(taskLinesSteps(text))).toEqual(tasksOfFullParse(text));
			}),
			{ numRuns: 400 },
		);
	});

	test("a note of frontmatter: its lines are no tasks, the body's line numbers kept", () => {
		const text = "---\ntags: [a]\nlist:\n  - [ ] not a task\n---\n- [ ] first\n\n- [x] second\n";
		expect(runSteps(taskLinesSteps(text))).toEqual([
			{ line: 5, status: " " },
			{ line: 7, status: "x" },
		]);
		expect(runSteps(taskLinesSteps(text))).toEqual(tasksOfFullParse(text));
	});
});
