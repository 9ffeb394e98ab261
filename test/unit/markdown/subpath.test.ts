import { readFileSync } from "node:fs";
import * as nodePath from "node:path";
import fc from "fast-check";
import type { CachedMetadata } from "obsidian";
import { describeHeadings, headingKey, isKeySeparator, keyPrintSteps, lastHeadingPart, resolveSubpath, sameHeadingKey } from "../../../src/markdown/subpath";
import { runSteps } from "../../../src/markdown/steps";
import { HEADING_PRINT_LOWERED_CHARS } from "../../../src/config/limits";
import { parseMetadata } from "../../../src/markdown/metadata";
import { OBSIDIAN_CACHE_DIR } from "../../helpers/vault";
import { replaceMethod } from "../../helpers/replaceMethod";
import { expectEqual } from "../../helpers/plainEqual";

/** A note and the metadata real Obsidian cached for it: the headings and blocks resolution works from are Obsidian's own. */
interface Capture {
	fileContents: string;
	cachedMetadata: CachedMetadata;
}

function capture(name: string): Capture {
	return JSON.parse(readFileSync(nodePath.join(OBSIDIAN_CACHE_DIR, `${name}.json`), "utf8")) as Capture;
}

/** The text a link's subpath names in the captured note, or null. */
function partText(note: Capture, subpath: string): string | null {
	const part = resolveSubpath(note.cachedMetadata, subpath, note.fileContents.length);
	return part && note.fileContents.slice(part.start, part.end);
}

/**
 * Obsidian's help (Internal links → Link to a heading / to a block): `[[Note#Heading]]` opens the
 * heading's section, which runs to the next heading of the same or a higher level; headings can
 * be chained (`#Parent#Child`); `[[Note#^id]]` names a block. The sections below are written out
 * from the notes' text.
 */
describe("resolveSubpath names the part of the note Obsidian would open", () => {
	const headings = capture("multiple_headings");
	const searches = capture("numbered_tasks_issue_3481_searches");

	test.each<[string, Capture, string, string]>([
		["an empty section ends at the next heading of its level", headings, "Level 2 heading with no tasks", "## Level 2 heading with no tasks\n\n"],
		[
			"a section holds its lower-level headings, to the note's end",
			headings,
			"Level 2 heading",
			headings.fileContents.slice(headings.fileContents.indexOf("## Level 2 heading\n")),
		],
		[
			"a chain finds the child inside the parent's section",
			searches,
			"Tasks#hide tree",
			"### hide tree\n\n```tasks\npath includes numbered_tasks_issue_3481\nhide tree\nfull mode\n```\n\n",
		],
		[
			"case is ignored",
			searches,
			"DATAVIEW",
			'## Dataview\n\nDataview finds ==4 tasks==:\n\n```dataview\nTASK\nFROM "Test Data/numbered_tasks_issue_3481"\n```\n\n',
		],
		[
			"spaces around the parts are ignored",
			searches,
			" Tasks # show tree ",
			"### show tree\n\n```tasks\npath includes numbered_tasks_issue_3481\nshow tree\nfull mode\n```\n\n",
		],
		["the last heading runs to the end", searches, "Obsidian search", "## Obsidian search\n\nObsidian finds ==6 tasks==:\n\n```query\ntask:3481\n```\n"],
		["a block by its id", capture("all_link_types"), "^block", "block ^block"],
		["a block id ignores case", capture("all_link_types"), "^BLOCK", "block ^block"],
	])("%s", (_name, note, subpath, expected) => {
		expect(partText(note, subpath)).toBe(expected);
	});

	test("a heading with a colon, linked as Obsidian writes the link (the colon as a space)", () => {
		const note = capture("query_using_properties");
		const part = resolveSubpath(note.cachedMetadata, "Use a one-line property task_instruction", note.fileContents.length);
		expect(part?.name).toBe("Use a one-line property: task_instruction");
		expect(note.fileContents.slice(part?.start, part?.end)).toMatch(/^## Use a one-line property: task_instruction\n[\s\S]*\n$/);
		expect(note.fileContents.slice(part?.start, part?.end)).not.toContain("task_instruction_with_spaces");
	});

	test.each<[string, Capture, string]>([
		["a heading the note does not have", headings, "Level 4 heading"],
		["a heading's first words only", headings, "Level 2"],
		["a child outside its parent's section", searches, "Dataview#show tree"],
		["a chain in the wrong order", searches, "show tree#Tasks"],
		["a block the note does not have", capture("all_link_types"), "^nope"],
		["a block id inside a chain", capture("all_link_types"), "heading#^block"],
		["nothing after the #", headings, ""],
		["only #s", headings, "##"],
	])("null for %s", (_name, note, subpath) => {
		expect(resolveSubpath(note.cachedMetadata, subpath, note.fileContents.length)).toBeNull();
	});

	test("a subpath of more headings than a chain can have (six levels) is null, read only as far as its seventh part", () => {
		const text = "# A\n## B\n### C\n#### D\n##### E\n###### F\ntext\n";
		const cache = parseMetadata(text);
		expect(resolveSubpath(cache, "A#B#C#D#E#F", text.length)?.name).toBe("F");
		expect(resolveSubpath(cache, " # A ## B#C#D#E#F#", text.length)?.name).toBe("F");
		const trim = jest.spyOn(String.prototype, "trim");
		try {
			expect(resolveSubpath(cache, `A#B#C#D#E#F#${"a#".repeat(400_000)}`, text.length)).toBeNull();
			// Splitting and trimming all 400,000 parts held the server 0.1–0.2 s on a read_note path.
			expect(trim.mock.calls.length).toBeLessThanOrEqual(7);
		} finally {
			trim.mockRestore();
		}
	});

	test("null for a note without metadata", () => {
		expect(resolveSubpath(null, "Heading", 100)).toBeNull();
		expect(resolveSubpath(null, "^block", 100)).toBeNull();
	});

	test("two headings alike: the first wins, as in Obsidian", () => {
		const text = "# Notes\none\n# notes\ntwo\n";
		const cache: CachedMetadata = {
			headings: [
				{ heading: "Notes", level: 1, position: { start: { line: 0, col: 0, offset: 0 }, end: { line: 0, col: 7, offset: 7 } } },
				{ heading: "notes", level: 1, position: { start: { line: 2, col: 0, offset: 12 }, end: { line: 2, col: 7, offset: 19 } } },
			],
		};
		const part = resolveSubpath(cache, "NOTES", text.length);
		expect(text.slice(part?.start, part?.end)).toBe("# Notes\none\n");
	});

	test("whatever the subpath, the part found is a heading or block of the note, inside the note", () => {
		const notes = ["multiple_headings", "numbered_tasks_issue_3481_searches", "all_link_types", "link_in_task_wikilink", "query_using_properties"].map(
			capture,
		);
		const words = notes.flatMap((note) => (note.cachedMetadata.headings ?? []).flatMap((heading) => heading.heading.split(" ")));
		const piece = fc.oneof(fc.constantFrom(...words), fc.constantFrom("#", "^", " ", ":", "|", "block"), fc.string({ maxLength: 3 }));
		fc.assert(
			fc.property(fc.constantFrom(...notes), fc.array(piece, { maxLength: 6 }), (note, pieces) => {
				const subpath = pieces.join("");
				const part = resolveSubpath(note.cachedMetadata, subpath, note.fileContents.length);
				if (part === null) return;
				expect(part.start).toBeGreaterThanOrEqual(0);
				expect(part.end).toBeGreaterThan(part.start);
				expect(part.end).toBeLessThanOrEqual(note.fileContents.length);
				const text = note.fileContents.slice(part.start, part.end);
				if (part.name.startsWith("^")) expect(text).toContain(part.name);
				else expect(text).toMatch(/^#{1,6} /);
			}),
			// A fixed seed: 200 runs meet each of these pieces about 100 times, beside every other (2,000 runs took ~2 s of CI).
			{ numRuns: 200, seed: 129 },
		);
	});

	test("every heading Obsidian found in the captures is reached by its own text", () => {
		const names = [
			"multiple_headings",
			"numbered_tasks_issue_3481_searches",
			"all_link_types",
			"link_in_task_wikilink",
			"link_in_task_markdown_link",
			"query_using_properties",
		];
		for (const name of names) {
			const note = capture(name);
			for (const heading of note.cachedMetadata.headings ?? []) {
				const part = resolveSubpath(note.cachedMetadata, heading.heading, note.fileContents.length);
				expect({ name, heading: heading.heading, start: part?.start }).toEqual({
					name,
					heading: heading.heading,
					start: heading.position.start.offset,
				});
			}
		}
	});
});

describe("headingKey compares a link's heading as Obsidian does", () => {
	test.each([
		["Use a one-line property: task_instruction", "use a one-line property task_instruction"],
		["A | B", "a b"],
		["[Draft] 100% ^done", "draft 100 done"],
		["  Many   spaces  ", "many spaces"],
		["back\\slash", "back slash"],
	])("%j is compared as %j", (heading, key) => {
		expect(headingKey(heading)).toBe(key);
	});
});

describe("sameHeadingKey compares two headings (or a heading and a key) as their headingKeys compare, reading only as far as they agree", () => {
	// Letters whose lower case is longer, context-dependent (final sigma) or of another script; white space `\s` holds; separators.
	const pieces = [
		"a",
		"B",
		"Σ",
		"σ",
		"ς",
		"İ",
		"ß",
		"ẞ",
		"\u0301",
		"'",
		"1",
		" ",
		"  ",
		"\u00a0",
		"\ufeff",
		"\t",
		"\n",
		"#",
		":",
		"|",
		"^",
		"%",
		"[",
		"]",
		"\\",
	];
	const heading = fc.array(fc.constantFrom(...pieces), { maxLength: 12 }).map((parts) => parts.join(""));

	test("the same answer as comparing keys, for headings of any of these characters", () => {
		fc.assert(
			fc.property(heading, heading, (one, other) => {
				expectEqual(sameHeadingKey(one, other), headingKey(one) === headingKey(other));
				expectEqual(sameHeadingKey(one, headingKey(other)), headingKey(one) === headingKey(other));
				expectEqual(sameHeadingKey(one, headingKey(one)), true);
			}),
			{ numRuns: 3000 },
		);
	});

	test("a key of another case, spacing or separators matches; one word more or less does not", () => {
		// A final sigma is lowered as the whole key lowers it: ς at a word's end, σ inside.
		expect(sameHeadingKey("## ΟΔΟΣ  Plan: ΣΑΣ", "οδος plan σας")).toBe(true);
		expect(sameHeadingKey("## ΟΔΟΣ  Plan: ΣΑΣ", "οδοσ plan σας")).toBe(false);
		expect(sameHeadingKey("  Many   spaces  ", "many spaces")).toBe(true);
		expect(sameHeadingKey("Many spaces more", "many spaces")).toBe(false);
		expect(sameHeadingKey("Many", "many spaces")).toBe(false);
		expect(sameHeadingKey("::", "")).toBe(true);
	});

	test("two words of which one is more than twice as long differ, the longer read no further (a part of a megabyte was keyed whole)", () => {
		expect(sameHeadingKey("İİ", "i\u0307i\u0307")).toBe(true);
		expect(sameHeadingKey("İİ", "i\u0307i\u0307i")).toBe(false);
		expect(sameHeadingKey("Σ ΣΣ", "σ σς")).toBe(true);
		// Characters of the long word read: its first twice-and-one of the short word's, each time.
		const long = "w".repeat(1_000_000);
		let read = 0;
		const slice = Object.getOwnPropertyDescriptor(String.prototype, "slice")?.value as (this: string, start?: number, end?: number) => string;
		const sliced = replaceMethod(String.prototype, "slice", function (this: string, start?: number, end?: number) {
			const made = slice.call(this, start, end);
			if (this === long) read += Math.min(made.length, 1_000_000);
			return made;
		});
		try {
			for (let heading = 0; heading < 1_000; heading++) expect(sameHeadingKey(`Heading ${heading}`, long)).toBe(false);
			expect(sameHeadingKey(long, `W${long.slice(1)}`)).toBe(true);
		} finally {
			sliced.restore();
		}
		expect(read).toBeLessThan(1_000 * 20 + 3 * 1_000_000);
	});

	test("a print (keyPrintSteps) is the same for any two headings whose keys are equal, so a heading whose print differs is never one that matches", () => {
		const print = (text: string) => runSteps(keyPrintSteps(text));
		// More pieces whose lower case is longer or another letter's (ﬁ, K KELVIN SIGN, ǅ, Å ANGSTROM SIGN), a pair and lone halves.
		const more = fc.array(fc.constantFrom(...pieces, "ﬁ", "\u212a", "ǅ", "\u212b", "I", "i\u0307", "\ud801\udc00", "\ud801", "\udc00", "ж", "Ж"), {
			maxLength: 12,
		});
		fc.assert(
			fc.property(more, more, (oneParts, otherParts) => {
				const one = oneParts.join("");
				const other = otherParts.join("");
				expect(print(one)).toBe(print(headingKey(one)));
				if (sameHeadingKey(one, other)) expect(print(one)).toBe(print(other));
			}),
			// A fixed seed: 200 runs meet each of these pieces about 100 times, beside every other (2,000 runs took ~2 s of CI).
			{ numRuns: 200, seed: 129 },
		);
		// Runs of other characters longer than are lowered at once, a pair or a sigma where they are cut.
		for (const edge of ["\ud801\udc00", "Σ", "ΣΣ", "İ"]) {
			for (const before of [HEADING_PRINT_LOWERED_CHARS - 2, HEADING_PRINT_LOWERED_CHARS - 1, HEADING_PRINT_LOWERED_CHARS]) {
				const text = `Ж${"Ж".repeat(before - 1)}${edge}ЖΣ ΑΣ:${edge}`;
				expect(print(text)).toBe(print(headingKey(text)));
			}
		}
		// Not all alike: a word more, another letter, another order.
		expect(new Set(["a b", "a b c", "a c", "b a", "ab", "αβ", "αγ"].map(print)).size).toBe(7);
	});

	test("isKeySeparator is the characters headingKey makes a space of, every UTF-16 code unit", () => {
		// Every code unit in one string, the regular expression run over it once (65,536 tests of one character each took ~0.1 s).
		const everyUnit = String.fromCharCode(...Array.from({ length: 0x10000 }, (_, code) => code));
		const separators = [...everyUnit.matchAll(/[\s#|^:%[\]\\]/g)].map((match) => match.index);
		const kept = Array.from({ length: 0x10000 }, (_, code) => code).filter(isKeySeparator);
		expect(kept).toEqual(separators);
		expect(separators).toContain(0xfeff);
	});

	test("lastHeadingPart is a chain's last heading", () => {
		expect(lastHeadingPart("Parent # The  Child: ")).toBe("The  Child:");
		expect(lastHeadingPart("")).toBe("");
	});
});

describe("describeHeadings lists the headings a model may pass back", () => {
	test("each heading with its level and line, cut at the maximum with how many more", () => {
		const note = capture("multiple_headings");
		expect(describeHeadings(note.cachedMetadata, 10)).toBe(
			"Its headings: # multiple_headings (line 0); ## Level 2 heading with no tasks (line 2); ## Level 2 heading (line 4); ### Level 3 heading (line 13).",
		);
		expect(describeHeadings(note.cachedMetadata, 2)).toBe(
			"Its headings: # multiple_headings (line 0); ## Level 2 heading with no tasks (line 2) and 2 more.",
		);
	});

	test("a note without headings says so", () => {
		expect(describeHeadings({}, 10)).toBe("The note has no headings.");
		expect(describeHeadings(null, 10)).toBe("The note has no headings.");
	});
});

describe("headings the headless parse left out (past MAX_NOTE_HEADINGS)", () => {
	// A cache as the parse leaves it: `# A` and `## B` kept; `### C` (at 13) and `# D` (at 21) left out.
	const text = "# A\nx\n## B\ny\n### C\nz\n# D\nw\n";
	const kept = parseMetadata(text).headings?.slice(0, 2);
	const cache = { headings: kept, headingsLeftOut: [21, 21, 13, 13, 13, 13] } as unknown as CachedMetadata;

	test("a kept heading's section ends at the first one left out of its level or a higher one, not at the note's end", () => {
		expect(text.indexOf("### C")).toBe(13);
		expect(text.indexOf("# D")).toBe(21);
		expect(resolveSubpath(cache, "A", text.length)).toEqual({ name: "A", start: 0, end: 21 });
		// `### C` is deeper: it does not end `## B`'s section.
		expect(resolveSubpath(cache, "B", text.length)).toEqual({ name: "B", start: 6, end: 21 });
		// Nothing left out: the last kept heading's section is the rest of the note.
		expect(resolveSubpath({ headings: kept }, "B", text.length)).toEqual({ name: "B", start: 6, end: text.length });
	});

	test("the notice that headings are not read is given only when some were left out", () => {
		expect(describeHeadings(cache, 10)).toContain("are not read");
		expect(describeHeadings({ headings: kept }, 10)).not.toContain("are not read");
	});
});
