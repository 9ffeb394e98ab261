import fc from "fast-check";
import { parseDocument } from "yaml";
import {
	MAX_FRONTMATTER_EXPANDED_CHARS,
	MAX_FRONTMATTER_EXPANDED_VALUES,
	MAX_FRONTMATTER_ALIASES,
	MAX_FRONTMATTER_BYTES,
	MAX_FRONTMATTER_DEPTH,
	MAX_FRONTMATTER_ENTRIES,
} from "../../../src/config/limits";
import {
	frontmatterBoundProblem,
	frontmatterEndLine,
	holdsItself,
	parseDocumentSteps,
	parseFrontmatter,
	parseFrontmatterSteps,
	splitFrontmatter,
	wikilinkTextsOf,
	yamlNestingDepth,
} from "../../../src/markdown/frontmatter";
import { runSteps } from "../../../src/markdown/steps";
import { LineIndex } from "../../../src/markdown/lines";
import { bodyStartLine, isOutline } from "../../../src/markdown/outline";
import { parseMetadata } from "../../../src/markdown/metadata";
import { setProperty } from "../../../src/markdown/properties";
import { expectEqual } from "../../helpers/plainEqual";

/** A note whose frontmatter is `yaml`, with a link and a tag in its body. */
const note = (yaml: string) => `---\n${yaml}\n---\n# Body\nSee [[Other note]] #kept\n`;

/** 60,000 open brackets: under the frontmatter size bound, nested far past its depth bound. */
const DEEP_FLOW = `a: ${"[".repeat(60_000)}`;
const deepBlock = (levels: number) => Array.from({ length: levels }, (_unused, level) => `${" ".repeat(level)}k${level}:`).join("\n") + " leaf";
const deepDashes = (levels: number) => `a:\n  ${"- ".repeat(levels)}x`;
/** Ten lists, each ten aliases of the one before: 10^10 values once expanded. */
const ALIAS_BOMB = [
	"a: &a [x, x, x, x, x, x, x, x, x, x]",
	...Array.from(
		{ length: 9 },
		(_unused, index) =>
			`b${index}: &b${index} [${Array(10)
				.fill(index === 0 ? "*a" : `*b${index - 1}`)
				.join(", ")}]`,
	),
].join("\n");
const manyAliases = (count: number) => ["base: &base x", ...Array.from({ length: count }, (_unused, index) => `k${index}: *base`)].join("\n");

describe("frontmatter over a bound is not parsed, and the rest of the note is", () => {
	test.each([
		["60,000 open brackets", DEEP_FLOW, `deeper than ${MAX_FRONTMATTER_DEPTH} levels`],
		["200 closed brackets", `a: ${"[".repeat(200)}${"]".repeat(200)}`, `deeper than ${MAX_FRONTMATTER_DEPTH} levels`],
		["100 indented maps", deepBlock(100), `deeper than ${MAX_FRONTMATTER_DEPTH} levels`],
		["100 dashes on one line", deepDashes(100), `deeper than ${MAX_FRONTMATTER_DEPTH} levels`],
		[`${MAX_FRONTMATTER_ALIASES + 1} aliases`, manyAliases(MAX_FRONTMATTER_ALIASES + 1), `more than ${MAX_FRONTMATTER_ALIASES} aliases`],
		["a block over the size bound", `a: "${"x".repeat(MAX_FRONTMATTER_BYTES)}"`, `over ${MAX_FRONTMATTER_BYTES} characters`],
		[
			`${MAX_FRONTMATTER_ENTRIES} one-letter flow items`,
			`a: [${"x,".repeat(MAX_FRONTMATTER_ENTRIES)}x]`,
			`more than ${MAX_FRONTMATTER_ENTRIES} lines and list items`,
		],
		[
			"lines of 40-deep flow lists, each within the depth",
			Array.from({ length: MAX_FRONTMATTER_ENTRIES / 40 }, (_unused, index) => `k${index}: ${"[".repeat(40)}x${"]".repeat(40)}`).join("\n"),
			`more than ${MAX_FRONTMATTER_ENTRIES} lines and list items`,
		],
	])("%s: the bound is named; no properties; links, tags and headings still read", (_name, yaml, bound) => {
		expect(frontmatterBoundProblem(yaml)).toContain(bound);
		const cache = parseMetadata(note(yaml));
		expect(cache.frontmatter).toBeUndefined();
		expect(cache.links?.map((link) => link.link)).toEqual(["Other note"]);
		expect(cache.tags?.map((tag) => tag.tag)).toEqual(["#kept"]);
		expect(cache.headings?.map((heading) => heading.heading)).toEqual(["Body"]);
		expect(cache.sections?.[0]?.type).toBe("yaml");
	});

	test("aliases that expand past the values or characters a frontmatter may hold give no properties; within them they read", () => {
		const aliased = (items: number, text: string) =>
			`a: &a [${Array.from({ length: items }, () => JSON.stringify(text)).join(", ")}]\n${Array.from({ length: 99 }, (_unused, index) => `b${index}: *a`).join("\n")}\n`;
		// 100 copies of the list (with the map and its 100 entries: 101 values more), just within, then just past, each bound.
		const within = Math.floor((MAX_FRONTMATTER_EXPANDED_VALUES - 101) / 100);
		expect(Object.keys(parseFrontmatter(aliased(within, "x")) ?? {})).toHaveLength(100);
		expect(parseFrontmatter(aliased(within + 1, "x"))).toBeNull();
		// The 100 keys are 288 characters.
		const chars = Math.floor((MAX_FRONTMATTER_EXPANDED_CHARS - 288) / 100);
		expect(parseFrontmatter(aliased(1, "y".repeat(chars)))).not.toBeNull();
		expect(parseFrontmatter(aliased(1, "y".repeat(chars + 1)))).toBeNull();
		expect(setProperty(note(aliased(within + 1, "x")), "status", "done")).toMatchObject({ ok: false });
		// A list over the entries bound is refused before its YAML is built (it would leave the properties unread).
		const list = setProperty(
			note("a: 1\n"),
			"list",
			Array.from({ length: MAX_FRONTMATTER_ENTRIES + 1 }, (_unused, index) => index),
		);
		expect(list).toMatchObject({ ok: false });
		if (!list.ok) expect(list.error).toContain(`more than ${MAX_FRONTMATTER_ENTRIES} items`);
	});

	test("setProperty never writes a frontmatter that would be over a bound, so no longer read as properties: nothing is written", () => {
		const refusal = (value: Parameters<typeof setProperty>[2], yaml = "a: 1\n") => {
			const edited = setProperty(note(yaml), "long", value);
			if (edited.ok) throw new Error("written");
			return edited.error;
		};
		const over = "The value would put the note's frontmatter over what is read as properties";
		expect(refusal("x".repeat(MAX_FRONTMATTER_BYTES + 1))).toBe(`${over} (it would be over ${MAX_FRONTMATTER_BYTES} characters). Nothing was changed.`);
		expect(refusal(["x".repeat(MAX_FRONTMATTER_BYTES / 2), "y".repeat(MAX_FRONTMATTER_BYTES / 2 + 1)])).toContain(over);
		// Within the characters, over once written as YAML (quotes escaped, the other properties).
		expect(refusal('"'.repeat(MAX_FRONTMATTER_BYTES - 10))).toBe(`${over} (it is over ${MAX_FRONTMATTER_BYTES} characters). Nothing was changed.`);
		expect(refusal("x".repeat(MAX_FRONTMATTER_BYTES - 10), "b: " + "y".repeat(100) + "\n")).toContain(over);
		// A text of many lines, a list the other properties push over the entries bound; with no frontmatter yet too.
		expect(refusal(Array.from({ length: MAX_FRONTMATTER_ENTRIES + 1 }, () => "l").join("\n"))).toContain(`more than ${MAX_FRONTMATTER_ENTRIES} lines`);
		const others = Array.from({ length: 10 }, (_unused, index) => `k${index}: v\n`).join("");
		expect(
			refusal(
				Array.from({ length: MAX_FRONTMATTER_ENTRIES - 5 }, (_unused, index) => index),
				others,
			),
		).toContain(over);
		const bare = setProperty("body\n", "long", Array.from({ length: MAX_FRONTMATTER_ENTRIES + 1 }, () => "l").join("\n"));
		expect(bare).toMatchObject({ ok: false, error: expect.stringContaining(over) as unknown });
		// What fits is written, and read back as properties.
		const fits = setProperty(
			note("a: 1\n"),
			"list",
			Array.from({ length: MAX_FRONTMATTER_ENTRIES - 5 }, (_unused, index) => index),
		);
		if (!fits.ok) throw new Error(fits.error);
		expect(parseMetadata(fits.value.text).frontmatter?.list).toHaveLength(MAX_FRONTMATTER_ENTRIES - 5);
		const long = setProperty(note("a: 1\n"), "long", "x".repeat(MAX_FRONTMATTER_BYTES - 20));
		if (!long.ok) throw new Error(long.error);
		expect(parseMetadata(long.value.text).frontmatter?.long).toHaveLength(MAX_FRONTMATTER_BYTES - 20);
	});

	test("aliases that would expand to ten billion values give no properties, and no exception", () => {
		expect(parseFrontmatter(ALIAS_BOMB)).toBeNull();
	});

	test("setProperty on a note over a bound is an error naming the bound, and changes nothing", () => {
		for (const [yaml, bound] of [
			[DEEP_FLOW, "levels"],
			[manyAliases(MAX_FRONTMATTER_ALIASES + 1), "aliases"],
		] as const) {
			const result = setProperty(note(yaml), "status", "done");
			expect(result.ok).toBe(false);
			if (!result.ok) expect(result.error).toMatch(new RegExp(`not read as properties: .*${bound}.*Nothing was changed`, "u"));
		}
		const bomb = setProperty(note(ALIAS_BOMB), "status", "done");
		expect(bomb.ok).toBe(false);
		if (!bomb.ok) expect(bomb.error).toContain(`past ${MAX_FRONTMATTER_EXPANDED_VALUES} values`);
	});
});

describe("frontmatter within the bounds is parsed as before", () => {
	test("brackets inside quotes, comments and block text do not count as nesting", () => {
		const yaml = [
			`title: "${"[".repeat(500)}"`,
			`quote: '${"{".repeat(500)}'`,
			`# ${"[".repeat(500)}`,
			"text: |",
			`  ${"[".repeat(500)}`,
			"related:",
			...Array.from({ length: 300 }, (_unused, index) => `  - "[[Note ${index}]]"`),
		].join("\n");
		expect(frontmatterBoundProblem(yaml)).toBeNull();
		const parsed = parseFrontmatter(yaml);
		expect(parsed?.title).toBe("[".repeat(500));
		expect(parsed?.related).toHaveLength(300);
	});

	test(`nesting ${MAX_FRONTMATTER_DEPTH / 2} levels deep, and ${MAX_FRONTMATTER_ALIASES} aliases, are read`, () => {
		expect(parseFrontmatter(`a: ${"[".repeat(MAX_FRONTMATTER_DEPTH / 2)}1${"]".repeat(MAX_FRONTMATTER_DEPTH / 2)}`)).not.toBeNull();
		expect(parseFrontmatter(deepBlock(MAX_FRONTMATTER_DEPTH / 2))).not.toBeNull();
		expect(Object.keys(parseFrontmatter(manyAliases(MAX_FRONTMATTER_ALIASES)) ?? {})).toHaveLength(MAX_FRONTMATTER_ALIASES + 1);
	});

	test("the depth counted is never below the depth of what the parser builds", () => {
		const depthOf = (value: unknown): number => (value !== null && typeof value === "object" ? 1 + Math.max(0, ...Object.values(value).map(depthOf)) : 0);
		const pieces = ["a: ", "b:", "- ", "? ", ": ", "[", "]", "{", "}", ", ", "\n", "\n  ", "\n    ", "x", '"[', "'{", "# [", "&n ", "*n", "|\n  [", "\t"];
		fc.assert(
			fc.property(
				fc.array(fc.constantFrom(...pieces), { maxLength: 40 }).map((parts) => parts.join("")),
				(yaml) => {
					const document = parseDocument(yaml, { schema: "core", uniqueKeys: false, logLevel: "silent" });
					if (document.errors.length > 0) return;
					let value: unknown;
					try {
						value = document.toJS({ maxAliasCount: 1000 });
					} catch {
						return;
					}
					// A value that holds itself has no depth; parseFrontmatter refuses it (below).
					if (holdsItself(value)) return;
					// Checked before expect(): an expect() builds an Error and its matchers, most of this property's own CPU over 5,000 runs.
					const counted = yamlNestingDepth(yaml);
					if (counted < depthOf(value)) expect(counted).toBeGreaterThanOrEqual(depthOf(value));
				},
			),
			{ numRuns: 5000 },
		);
	});

	test("an alias naming the collection it stands inside makes no properties (the value would hold itself); shared values still parse", () => {
		expect(parseFrontmatter("&n\na: *n")).toBeNull();
		expect(parseFrontmatter("a: &l\n  - b: *l")).toBeNull();
		expect(parseFrontmatter("a: &x [1, 2]\nb: *x\nc: [*x, *x]")).toEqual({
			a: [1, 2],
			b: [1, 2],
			c: [
				[1, 2],
				[1, 2],
			],
		});
	});

	test("holdsItself finds a value reached again along its own path, not one reached twice side by side", () => {
		const shared = { k: 1 };
		expect(holdsItself({ a: shared, b: shared, c: [shared] })).toBe(false);
		const loop: Record<string, unknown> = { a: [1, { b: 2 }] };
		(loop.a as unknown[]).push(loop);
		expect(holdsItself(loop)).toBe(true);
		expect(holdsItself("text")).toBe(false);
		expect(holdsItself(null)).toBe(false);
	});

	test("the exact count is the lexer's, not the quick one: a long flat block with many marks still counts as flat", () => {
		const yaml = Array.from({ length: 1000 }, (_unused, index) => `key${index}: 2026-01-01`).join("\n");
		expect(yamlNestingDepth(yaml)).toBeLessThanOrEqual(2);
	});
});

describe("the one frontmatter fence", () => {
	const fenced = (opening: string, closing = "---") => `${opening}\ntitle: Kept\n${closing}\n- body item\n`;

	test.each([
		["---", true],
		["--- ", true],
		["---\t", true],
		["---\u00A0", true],
		["---  \u202F", true],
		["\uFEFF---", true],
		["----", false],
		["---x", false],
		[" ---", false],
		["--- -", false],
	])("an opening line %j is a fence: %s, and the parser, the outline edits and splitFrontmatter agree", (opening, isFence) => {
		const text = fenced(opening);
		expect(frontmatterEndLine(new LineIndex(text))).toBe(isFence ? 2 : null);
		expect(splitFrontmatter(text)).toEqual(isFence ? { yaml: "title: Kept\n", body: "- body item\n" } : null);
		expect(bodyStartLine(text.split("\n"))).toBe(isFence ? 3 : 0);
		expect(parseMetadata(text).frontmatter).toEqual(isFence ? { title: "Kept" } : undefined);
		// The body after a fence is list content only: an outline; without a fence the first line is text.
		expect(isOutline(text, undefined)).toBe(isFence);
	});

	test("the closing line follows the same whitespace rule", () => {
		expect(frontmatterEndLine(new LineIndex(fenced("---", "---\u00A0 ")))).toBe(2);
		expect(frontmatterEndLine(new LineIndex(fenced("---", "---.")))).toBeNull();
		// A byte-order mark counts only before the opening fence.
		expect(frontmatterEndLine(new LineIndex(fenced("---", "\uFEFF---")))).toBeNull();
	});

	test("a note that never closes its fence has no frontmatter", () => {
		expect(frontmatterEndLine(new LineIndex("---\ntitle: x\n"))).toBeNull();
		expect(frontmatterEndLine(new LineIndex(""))).toBeNull();
	});
});

describe("splitFrontmatter", () => {
	test("splits YAML from body, line endings kept", () => {
		expect(splitFrontmatter("---\ntitle: x\n---\nbody\n")).toEqual({ yaml: "title: x\n", body: "body\n" });
		expect(splitFrontmatter("---\r\na: 1\r\n---\r\nbody")).toEqual({ yaml: "a: 1\r\n", body: "body" });
		expect(splitFrontmatter("---\n---\n")).toEqual({ yaml: "", body: "" });
		expect(splitFrontmatter("---\na: 1\n---")).toEqual({ yaml: "a: 1\n", body: "" });
	});
	test("is null without a closed block at the start", () => {
		expect(splitFrontmatter("body\n---\na: 1\n---\n")).toBeNull();
		expect(splitFrontmatter("---\na: 1\n")).toBeNull();
	});
	test("looking only at lines that start with `---`, it splits every text as the fence rule over all its lines does", () => {
		const piece = fc.constantFrom("---", "--- ", "----", "\uFEFF", "\n", "\r\n", "\r", "a: 1", " ", "\t", "\u00A0", "\u2028", "\u200B", "-", "x");
		fc.assert(
			fc.property(fc.array(piece, { maxLength: 14 }), (pieces) => {
				const text = pieces.join("");
				const lines = new LineIndex(text);
				const end = frontmatterEndLine(lines);
				const expected =
					end === null ? null : { yaml: text.slice(lines.lineStart(1), lines.lineStart(end)), body: text.slice(lines.lineStart(end + 1)) };
				expectEqual(splitFrontmatter(text), expected);
				expectEqual(parseMetadata(text).sections?.[0]?.type === "yaml", end !== null);
			}),
			{ numRuns: 4000 },
		);
	});
});

describe("a frontmatter is parsed in steps, as the yaml package parses it in one", () => {
	const yamlText = fc
		.array(
			fc.constantFrom(
				"a",
				"b: ",
				"- ",
				"\n",
				"  ",
				"[",
				"]",
				"{",
				"}",
				", ",
				"&x ",
				"*x",
				"'q'",
				'"d\\n"',
				"# c",
				"? ",
				"|\n  t",
				"---\n",
				"...\n",
				"!!str ",
				"1",
				"é",
			),
			{
				maxLength: 40,
			},
		)
		.map((parts) => parts.join(""));

	test("the same document, errors and all, as parseDocument", () => {
		fc.assert(
			fc.property(yamlText, (yaml) => {
				const stepped = runSteps(parseDocumentSteps(yaml));
				const whole = parseDocument(yaml, { schema: "core", prettyErrors: false, uniqueKeys: false, logLevel: "error" });
				expectEqual(
					stepped.errors.map((error) => error.code),
					whole.errors.map((error) => error.code),
				);
				expectEqual(
					stepped.warnings.map((warning) => warning.code),
					whole.warnings.map((warning) => warning.code),
				);
				const outcome = (read: () => unknown) => {
					try {
						return read();
					} catch (error) {
						return error instanceof Error ? error.message : error;
					}
				};
				expectEqual(
					outcome(() => stepped.toJS({ maxAliasCount: 100 })),
					outcome(() => whole.toJS({ maxAliasCount: 100 })),
				);
				expectEqual(
					outcome(() => stepped.toString()),
					outcome(() => whole.toString()),
				);
			}),
			// Found at a desk: an alias inside its own anchor's collection, left open, makes toJS a cycle on both sides
			// (expectEqual's first look followed it until the stack ran out).
			{ numRuns: 3000, examples: [["&x [*x"], ['&x {"d\\n"*x']] },
		);
	});

	test(`${MAX_FRONTMATTER_ENTRIES} entries are lexed and parsed over many steps, then read whole`, () => {
		const yaml = Array.from({ length: MAX_FRONTMATTER_ENTRIES - 1 }, (_, index) => `key${index}: "[[Note ${index}]] text"`).join("\n") + "\n";
		const steps = parseFrontmatterSteps(yaml);
		let pauses = 0;
		let next = steps.next();
		for (; next.done !== true; next = steps.next()) pauses++;
		expect(Object.keys(next.value ?? {})).toHaveLength(MAX_FRONTMATTER_ENTRIES - 1);
		expect(next.value).toEqual(parseFrontmatter(yaml));
		expect(pauses).toBeGreaterThanOrEqual(5);
	});
});

describe("wikilinkTextsOf", () => {
	test("gives each [[link]]'s link text, heading and block kept, the shown text left out", () => {
		const yaml = 'up: "[[Hub]]"\nrelated:\n  - "[[Projects/Plan#Goals|the goals]]"\n  - "[[Log^b1]]"\nnote: "[[not closed"\nempty: "[[]]"\nplain: Hub';
		expect(wikilinkTextsOf(yaml)).toEqual(["Hub", "Projects/Plan#Goals", "Log^b1"]);
	});

	test("finds no link where none is written, nor one across lines", () => {
		expect(wikilinkTextsOf("a: [Hub]\nb: [[Hub\n]]")).toEqual([]);
	});
});
