import fc from "fast-check";
import { metadataSteps, parseMetadata } from "../../../src/markdown/metadata";
import { scanInline } from "../../../src/markdown/inline";
import { runSteps } from "../../../src/markdown/steps";
import { INLINE_PASS_STEP_CHARS, ZEROED_INTS_CHUNK } from "../../../src/config/limits";
import { expectEqual } from "../../helpers/plainEqual";

/**
 * Parsing is linear in a note's length. Timings are for the bench (`npm run bench --
 * --only parse`); here the properties that make it so are checked without a clock.
 */

/** Pieces of Markdown that exercise every block the parser cuts into chunks, and the ones it must not cut. */
const PIECES = [
	"\n",
	"\n",
	"\n",
	"\n\n",
	"text ",
	"word",
	"[[link]] ",
	"- [[item]] ",
	"* ",
	"+ ",
	"1. ",
	"2) ",
	"  ",
	"    ",
	"> ",
	"# ",
	"===",
	"---",
	"***",
	"```",
	"~~~",
	"%%",
	"$$",
	"<div>",
	"<!--",
	"-->",
	"| a | b |",
	"|---|---|",
	"[ref]: /url",
	"[x]",
	"](y)",
	"(",
	")",
	"`",
	"\\",
	"#tag ",
	"^block-1",
	"- [ ] ",
];
const markdown = fc.array(fc.constantFrom(...PIECES), { maxLength: 120 }).map((pieces) => pieces.join(""));

describe("a huge block is parsed in chunks that join back exactly", () => {
	test("any Markdown: cut into chunks of 1, 2 or 3 lines, the metadata equals the metadata parsed whole", () => {
		fc.assert(
			fc.property(markdown, fc.constantFrom(1, 2, 3), (text, chunkLines) => {
				expectEqual(runSteps(metadataSteps(text, chunkLines)), runSteps(metadataSteps(text, Number.MAX_SAFE_INTEGER)));
			}),
			{ numRuns: 3000 },
		);
	});
});

describe("the metadata of a big generated note is complete", () => {
	// 12,000 lines: a list of links and tasks with nested items, a paragraph of links, headings, a
	// quote, a %% comment with a link: each part longer than a chunk (2,000 lines) where it can be.
	const lines: string[] = ["---", "tags: [big]", "---", "# Big note", ""];
	for (let index = 0; index < 5000; index++) {
		lines.push(index % 10 === 0 ? `- [ ] task [[Task ${index}]] #todo` : `- item [[Item ${index}]]`);
		if (index % 100 === 0) lines.push(`  - nested ![[Embed ${index}]]`);
	}
	lines.push("", "## Paragraph", "");
	for (let index = 0; index < 5000; index++) lines.push(`line [[Para ${index}]] and #tag${index % 7}`);
	lines.push("", "> quoted [[Quote]]", "", "%%", "hidden [[Hidden]]", "%%", "", "last line ^end");
	const text = lines.join("\n");
	const cache = parseMetadata(text);

	test("every link, embed, tag, list item, task, heading and section is there, in order", () => {
		expect(cache.links).toHaveLength(5000 + 5000 + 2);
		expect(cache.links?.[0]?.link).toBe("Task 0");
		expect(cache.links?.[4999]?.link).toBe("Item 4999");
		expect(cache.links?.[5000]?.link).toBe("Para 0");
		expect(cache.links?.at(-1)?.link).toBe("Hidden");
		expect(cache.embeds).toHaveLength(50);
		expect(cache.tags).toHaveLength(500 + 5000);
		expect(cache.listItems).toHaveLength(5050);
		expect(cache.listItems?.filter((item) => item.task === " ")).toHaveLength(500);
		expect(cache.listItems?.filter((item) => item.parent < 0).every((item) => item.parent === -5)).toBe(true);
		expect(cache.headings?.map((heading) => heading.heading)).toEqual(["Big note", "Paragraph"]);
		expect(cache.sections?.map((section) => section.type)).toEqual([
			"yaml",
			"heading",
			"list",
			"heading",
			"paragraph",
			"blockquote",
			"comment",
			"paragraph",
		]);
		expect(cache.frontmatter).toEqual({ tags: ["big"] });
		expect(Object.keys(cache.blocks ?? {})).toEqual(["end"]);
	});

	test("the positions are those of the text", () => {
		for (const link of [...(cache.links ?? []), ...(cache.embeds ?? [])]) {
			expect(text.slice(link.position.start.offset, link.position.end.offset)).toBe(link.original);
		}
		const list = cache.sections?.[2];
		expect(list?.position.start.line).toBe(5);
		expect(list?.position.end.line).toBe(5 + 5050 - 1);
	});

	test("parsed in one piece or in chunks of 7 lines, it is the same", () => {
		expect(runSteps(metadataSteps(text, 7))).toEqual(cache);
	});
});

/**
 * Work counted, not timed: every String.prototype method the parser and its markdown-it
 * dependency read text with is wrapped to count the characters it looks at (indexOf: the
 * characters it scans; charCodeAt, a character; slice and friends: what they copy). A quadratic
 * scan — an unclosed `[[` or `[a](` searched to the end of the text for every opener — makes the
 * count grow 16× when the note grows 4× (the parser before it was made linear fails three of these); linear
 * work grows about 4×. Loops over arrays are not counted: the bench rows cover those.
 */
function countCharactersRead(work: () => void): number {
	let read = 0;
	const proto = String.prototype;
	const names = ["indexOf", "includes", "charCodeAt", "codePointAt", "slice", "startsWith"] as const;
	const saved = new Map(names.map((name) => [name, Reflect.get(proto, name) as (this: string, ...args: unknown[]) => unknown]));
	const original = (name: (typeof names)[number], self: string, ...args: unknown[]): unknown =>
		Reflect.apply(saved.get(name) as (...args: unknown[]) => unknown, self, args);
	const originals = {
		indexOf: (self: string, search: string, position?: number) => original("indexOf", self, search, position) as number,
		charCodeAt: (self: string, index: number) => original("charCodeAt", self, index) as number,
		codePointAt: (self: string, index: number) => original("codePointAt", self, index) as number | undefined,
		slice: (self: string, start?: number, end?: number) => original("slice", self, start, end) as string,
		startsWith: (self: string, search: string, position?: number) => original("startsWith", self, search, position) as boolean,
	};
	proto.indexOf = function (this: string, search: string, position?: number) {
		const found = originals.indexOf(this, search, position);
		read += (found === -1 ? this.length : found + search.length) - Math.max(0, position ?? 0);
		return found;
	};
	proto.includes = function (this: string, search: string, position?: number) {
		const found = originals.indexOf(this, search, position);
		read += (found === -1 ? this.length : found + search.length) - Math.max(0, position ?? 0);
		return found !== -1;
	};
	proto.charCodeAt = function (this: string, index: number) {
		read++;
		return originals.charCodeAt(this, index);
	};
	proto.codePointAt = function (this: string, index: number) {
		read++;
		return originals.codePointAt(this, index);
	};
	proto.slice = function (this: string, start?: number, end?: number) {
		const result = originals.slice(this, start, end);
		read += result.length;
		return result;
	};
	proto.startsWith = function (this: string, search: string, position?: number) {
		read += search.length;
		return originals.startsWith(this, search, position);
	};
	try {
		work();
	} finally {
		for (const [name, method] of saved) Reflect.set(proto, name, method);
	}
	return read;
}

describe("the characters read grow linearly with the note (counted, not timed)", () => {
	const shapes: Array<[string, (count: number) => string]> = [
		["a list of links", (count) => Array.from({ length: count }, (_, index) => `- [[link ${index}]] text`).join("\n")],
		["a paragraph of links", (count) => Array.from({ length: count }, (_, index) => `[[link ${index}]] text`).join("\n")],
		["one line of unclosed [[", (count) => "[[a ".repeat(count)],
		["one line of unclosed ![ and [a](", (count) => "![x [a](b ".repeat(count)],
		[
			"backtick runs of growing length that never close",
			(count) => Array.from({ length: count }, (_, index) => "`".repeat((index % 40) + 1) + "x").join(" "),
		],
		["unclosed <!--", (count) => "a <!-- b ".repeat(count)],
		["many %% lines", (count) => Array.from({ length: count }, () => "%% a").join("\n")],
		["a table of links", (count) => `| a | b |\n|---|---|\n${Array.from({ length: count }, (_, index) => `| [[l${index}]] | #t${index} |`).join("\n")}`],
	];
	test.each(shapes)("%s", (_name, make) => {
		const small = make(2000);
		const large = make(8000);
		const ratio = countCharactersRead(() => parseMetadata(large)) / countCharactersRead(() => parseMetadata(small));
		expect(ratio).toBeLessThan(4.5);
		expect(ratio).toBeGreaterThan(3);
	});

	test("one line of list markers, each an item nested in the one before (under the nesting bound): characters looked at one by one or by a regular expression, in the longest piece and in all", () => {
		// markdown-it's hr rule was asked at each item's content start and read the rest of the line a
		// character at a time: a 4 MiB line of `- ` was one piece of 4.4 s. Then each item's close looked
		// for a block id at the end of the whole line with a regular expression, which reads all of it:
		// 640 reads of the line, 0.7 s of a 4 MiB line's parse. (Slices are left out: a slice of the line
		// is not a copy of it.)
		const looks = (count: number): { longest: number; all: number } => {
			let looked = 0;
			// eslint-disable-next-line @typescript-eslint/unbound-method -- put back below, and called with a string as `this`
			const charCodeAt = String.prototype.charCodeAt;
			// eslint-disable-next-line @typescript-eslint/unbound-method -- put back below, and called with a regular expression as `this`
			const exec = RegExp.prototype.exec;
			String.prototype.charCodeAt = function (this: string, index: number) {
				looked++;
				return charCodeAt.call(this, index);
			};
			// A regular expression may read its whole input from where it starts (test, match and replace call exec too).
			RegExp.prototype.exec = function (this: RegExp, input: string) {
				looked += input.length - (this.global || this.sticky ? this.lastIndex : 0);
				return exec.call(this, input);
			};
			let longest = 0;
			try {
				const steps = metadataSteps(`${"- ".repeat(count)}x ^id`);
				for (let before = looked, next = steps.next(); ; before = looked, next = steps.next()) {
					longest = Math.max(longest, looked - before);
					if (next.done) break;
				}
			} finally {
				String.prototype.charCodeAt = charCodeAt;
				RegExp.prototype.exec = exec;
			}
			return { longest, all: looked };
		};
		const small = looks(150);
		const large = looks(600);
		expect(large.all / small.all).toBeLessThan(4.5);
		expect(large.longest / small.longest).toBeLessThan(4.5);
	});

	test("scanInline alone on one 40,000-character line of openers", () => {
		const ratio = countCharactersRead(() => scanInline("[[x ` [a](".repeat(16000))) / countCharactersRead(() => scanInline("[[x ` [a](".repeat(4000)));
		expect(ratio).toBeLessThan(4.5);
	});
});

describe("a thematic break of one long line", () => {
	/**
	 * The characters the parse of `text` reads one at a time (`charCodeAt`) or joins an array's slot at a
	 * time (`Array.prototype.join`): the work done a character at a time in JavaScript, where a regular
	 * expression or `indexOf` reads natively, tens of times faster.
	 */
	const charactersWorkedOneByOne = (text: string): number => {
		let worked = 0;
		// eslint-disable-next-line @typescript-eslint/unbound-method -- put back below, and called with a string as `this`
		const charCodeAt = String.prototype.charCodeAt;
		const join = Array.prototype.join;
		String.prototype.charCodeAt = function (this: string, index: number) {
			worked++;
			return charCodeAt.call(this, index);
		};
		Array.prototype.join = function (this: unknown[], separator?: string) {
			worked += this.length;
			return join.call(this, separator);
		};
		try {
			parseMetadata(text);
		} finally {
			String.prototype.charCodeAt = charCodeAt;
			Array.prototype.join = join;
		}
		return worked;
	};

	test.each([
		["`*` alone", "*".repeat(100_000), "thematicBreak"],
		["`- ` (spaced)", "- ".repeat(50_000), "thematicBreak"],
		["`_` under a paragraph's line", `a\n${"_".repeat(100_000)}`, "thematicBreak"],
		["`*` in a list item", `- ${"*".repeat(100_000)}`, "list"],
		["`- ` in a quote", `> ${"- ".repeat(50_000)}`, "blockquote"],
	])("of %s is worked through a character at a time no more than a paragraph's line as long", (_name, text, lastSection) => {
		// markdown-it's hr rule read the line a character at a time when asked whether it takes it, again when
		// it took it, and built its markup with `Array(count + 1).join`: 2.5-4 times a paragraph's line (whose
		// inline scan reads it once), and a note of one 8 MB line of `*` was one piece of 400-600 ms.
		expect(parseMetadata(text).sections?.at(-1)?.type).toBe(lastSection);
		const paragraph = charactersWorkedOneByOne("a".repeat(text.length));
		expect(charactersWorkedOneByOne(text)).toBeLessThanOrEqual(1.25 * paragraph);
	});
});

describe("a line of half a million parentheses", () => {
	test("no piece of its parse makes or fills typed arrays of all its openers more than once: the matches are kept in chunks made as they are written", () => {
		// Each `(` was given a close and a space in arrays as long as the openers, made and filled with -1 in
		// one piece with the stack's: five arrays' slots in one step, and 8 million parentheses one piece of
		// 180–200 ms (most of it the system's first touch of each page). The offsets' own list is one array.
		const openers = 500_000;
		const text = `[a](${"(".repeat(openers)}) [b](c)`;
		const Made = Int32Array;
		// Every typed array's `fill` is %TypedArray%.prototype's, which Int32Array.prototype inherits.
		const typedArrayPrototype = Object.getPrototypeOf(Int32Array.prototype) as { fill: (this: Int32Array, ...args: unknown[]) => Int32Array };
		const fill = typedArrayPrototype.fill;
		let slots = 0;
		globalThis.Int32Array = class extends Made {
			constructor(...args: ConstructorParameters<typeof Int32Array>) {
				super(...args);
				slots += this.length;
			}
		};
		typedArrayPrototype.fill = function (this: Int32Array, ...args: unknown[]) {
			slots += this.length;
			return fill.apply(this, args);
		};
		let most = 0;
		let links: string[] = [];
		try {
			const steps = metadataSteps(text);
			for (let before = slots, next = steps.next(); ; before = slots, next = steps.next()) {
				most = Math.max(most, slots - before);
				if (next.done) {
					links = (next.value.links ?? []).map((link) => link.link);
					break;
				}
			}
		} finally {
			globalThis.Int32Array = Made;
			typedArrayPrototype.fill = fill;
		}
		expect(links).toEqual(["c"]);
		// The offsets' list (one slot an opener), and the chunks of the matches a step may write: a step passes
		// INLINE_PASS_STEP_CHARS characters, so each of the three match arrays at most two chunks. 2,500,010 before.
		expect(most).toBeLessThanOrEqual(openers + 6 * Math.max(ZEROED_INTS_CHUNK, INLINE_PASS_STEP_CHARS));
	});
});

describe("a small note of links", () => {
	test("its parse makes typed arrays as long as its openers, not a chunk of ZEROED_INTS_CHUNK for each match list", () => {
		// Each of the five match lists (brackets' closes and stack, parentheses' closes, spaces and stack) made a
		// full chunk (256 KiB) at its first write, for a note of a few brackets too: 1.3 MB outside the heap a
		// parse, and renaming a note linked from 1,501 notes made V8 collect for that memory 2,014 times.
		const lines = Array.from(
			{ length: 20 },
			(_, line) => `See [[Target#Heading ${line}]] and [[Target|Alias ${line}]] ![[Target#H]] [md](Target.md#Heading%20${line}) (more).`,
		);
		const text = `---\nup: "[[Target]]"\n---\n${lines.join("\n")}\n`;
		const Made = Int32Array;
		let slots = 0;
		globalThis.Int32Array = class extends Made {
			constructor(...args: ConstructorParameters<typeof Int32Array>) {
				super(...args);
				slots += this.length;
			}
		};
		let found: number[] = [];
		try {
			const metadata = runSteps(metadataSteps(text));
			found = [metadata.links?.length ?? 0, metadata.embeds?.length ?? 0, metadata.frontmatterLinks?.length ?? 0];
		} finally {
			globalThis.Int32Array = Made;
		}
		expect(found).toEqual([60, 20, 1]);
		// A few ints an opener (809 here, 2,015 characters); a chunk of ZEROED_INTS_CHUNK for each list written, 262,593 here, before.
		expect(slots).toBeLessThan(text.length);
	});
});
