import { readdirSync, readFileSync } from "node:fs";
import * as nodePath from "node:path";
import fc from "fast-check";
import type { CachedMetadata } from "obsidian";
import {
	blockPartInSteps,
	compactMetadata,
	compactMetadataSteps,
	headingPlacesInSteps,
	headingTextListOf,
	headingTextsOf,
	soleLevelOneHeadingOf,
	linkTextsInSteps,
	tagTextReaderInSteps,
	tagTextsOf,
	linkTextsOf,
	listItemsShapeOf,
	packedReferencePlaces,
	packedReferencesSteps,
	PackedMetadataStore,
	taskItemsOf,
} from "../../../src/headless/compactMetadata";
import { rememberTasks } from "../../../src/vault/tasks";
import { headingPlacesOf, resolveSubpath } from "../../../src/markdown/subpath";
import { NoteMemo } from "../../../src/vault/noteMemo";
import { metadataRecordsSteps, parseMetadata } from "../../../src/markdown/metadata";
import { runSteps } from "../../../src/markdown/steps";
import { OBSIDIAN_CACHE_DIR } from "../../helpers/vault";
import { heapAndBuffersAfterGc } from "../../helpers/gc";
import { expectEqual, expectStrictEqual } from "../../helpers/plainEqual";
import { replaceMethod } from "../../helpers/replaceMethod";

const PACKED_LISTS = ["links", "embeds", "tags", "headings", "sections", "listItems", "blocks", "frontmatterPosition"] as const;

/** Pieces of Markdown that give every kind of entry the cache holds, and the line endings between them. */
const PIECES = [
	"\n",
	"\n",
	"\n\n",
	"\r\n",
	"text ",
	"word",
	"- ",
	"1. ",
	"  ",
	"\t",
	"> ",
	"> [!note] ",
	"# ",
	"## Heading",
	"- [ ] ",
	"- [x] ",
	"[[Target]]",
	"[[Target|shown]]",
	"[[Target#Part]]",
	"![[Picture.png]]",
	"[md](Other.md)",
	"#tag",
	"#nested/tag",
	" ^block-1",
	"```",
	"%%",
	"$$",
	"| a | b |",
	"|---|---|",
	"---",
	"é",
	"東京",
	"📅",
];
const FRONTMATTER = ["", '---\ntags: [a, b]\nlink: "[[Target]]"\n---\n', "\uFEFF---\naliases: [x]\n---\n", "\uFEFF"];
const markdown = fc
	.tuple(fc.constantFrom(...FRONTMATTER), fc.array(fc.constantFrom(...PIECES), { maxLength: 80 }))
	.map(([frontmatter, pieces]) => frontmatter + pieces.join(""));

/** The metadata as the headless cache makes it: list items and blocks packed from the parser's records, with no object per item. */
function packedFromRecords(text: string, store = new PackedMetadataStore()): CachedMetadata {
	const { cache, listItems, blocks } = runSteps(metadataRecordsSteps(text));
	return runSteps(compactMetadataSteps(cache, text, store, listItems, blocks));
}

describe("compactMetadata", () => {
	test("any Markdown: the compact metadata equals the plain metadata, key order and JSON included, and keeps its lists packed", () => {
		// expectEqual, not expect(…).toEqual/toBe: each expect() builds an Error and its ~60 matchers, which
		// was about a third of this property's CPU over its 1,500 runs of 25 checks. It passes and fails as
		// toEqual does (toBe for the primitives compared here: strings, booleans, null).
		fc.assert(
			fc.property(markdown, (text) => {
				const plain = parseMetadata(text);
				const compact = compactMetadata(parseMetadata(text), text);
				expectStrictEqual(compact, plain);
				expectEqual(JSON.stringify(compact), JSON.stringify(plain));
				expectEqual(Object.keys(compact), Object.keys(plain));
				expectEqual(
					linkTextsOf(compact),
					[...(plain.links ?? []), ...(plain.embeds ?? [])].map((entry) => entry.link),
				);
				expectEqual(runSteps(linkTextsInSteps(compact)), linkTextsOf(compact));
				expectEqual(headingTextsOf(compact), {
					texts: (plain.headings ?? []).map((entry) => entry.heading),
					levels: (plain.headings ?? []).map((entry) => entry.level),
				});
				expectEqual(headingTextsOf(plain), headingTextsOf(compact));
				const headings = plain.headings ?? [];
				const sole = headings[0]?.level === 1 && headings.filter((entry) => entry.level === 1).length === 1 ? headings[0].heading : null;
				expectEqual(soleLevelOneHeadingOf(compact), sole);
				expectEqual(soleLevelOneHeadingOf(plain), sole);
				expectEqual(
					headingTextListOf(compact),
					headings.map((entry) => entry.heading),
				);
				expectEqual(headingTextListOf(plain), headingTextListOf(compact));
				// A fresh compact note: its headings read without building their entries, as its plain headings give them.
				expectEqual(runSteps(headingPlacesInSteps(compactMetadata(parseMetadata(text), text))), headingPlacesOf(headings));
				expectEqual(runSteps(headingPlacesInSteps(plain)), headingPlacesOf(headings));
				// Each block found by its id in any case, from a fresh compact note as from the plain one; a missing id is none.
				for (const block of Object.values(plain.blocks ?? {})) {
					const part = { name: `^${block.id}`, start: block.position.start.offset, end: block.position.end.offset };
					expectEqual(runSteps(blockPartInSteps(compactMetadata(parseMetadata(text), text), block.id.toUpperCase().toLowerCase())), part);
					expectEqual(runSteps(blockPartInSteps(plain, block.id.toLowerCase())), part);
				}
				expectEqual(runSteps(blockPartInSteps(compactMetadata(parseMetadata(text), text), "no-such-block")), null);
				const places = runSteps(packedReferencePlaces(compactMetadata(parseMetadata(text), text)));
				for (const key of ["links", "embeds"] as const) {
					const placesOf = places?.[key];
					const listed = placesOf ? placesOf.texts.map((link, entry) => [link, placesOf.offsets[entry], placesOf.lines[entry]]) : [];
					expectEqual(
						listed,
						(plain[key] ?? []).map((entry) => [entry.link, entry.position.start.offset, entry.position.start.line]),
					);
				}
				// The entries built in steps, for a rename's plan, are those of the plain parse.
				// (null when nothing is packed: the note's lists are then read as they are.)
				const references = runSteps(packedReferencesSteps(compactMetadata(parseMetadata(text), text))) ?? {
					links: compact.links ?? [],
					embeds: compact.embeds ?? [],
				};
				expectStrictEqual(references, { links: plain.links ?? [], embeds: plain.embeds ?? [] });
				expectEqual(runSteps(packedReferencesSteps(plain)), null);
				// Compact indeed, not the plain metadata handed back: every list present is a getter over the packed form.
				const held = PACKED_LISTS.filter((key) => key in plain && Object.getOwnPropertyDescriptor(compact, key)?.get === undefined);
				expectEqual(held, []);
				// The list items packed straight from the parser's records read the same.
				const items = plain.listItems ?? [];
				expectEqual(listItemsShapeOf(compactMetadata(parseMetadata(text), text)), {
					count: items.length,
					tasks: items.some((item) => item.task !== undefined),
				});
				expectEqual(
					taskItemsOf(compactMetadata(parseMetadata(text), text)),
					items.flatMap((item) => (item.task === undefined ? [] : [{ line: item.position.start.line, status: item.task }])),
				);
				expectEqual(taskItemsOf(plain), taskItemsOf(compactMetadata(parseMetadata(text), text)));
				const direct = packedFromRecords(text);
				expectStrictEqual(direct, plain);
				expectEqual(JSON.stringify(direct), JSON.stringify(plain));
				expectEqual(Object.keys(direct), Object.keys(plain));
				expectEqual(Object.getOwnPropertyDescriptor(direct, "listItems")?.get === undefined, plain.listItems === undefined);
			}),
			{ numRuns: 1500 },
		);
	});

	test("a note over 64 KiB (offsets of three bytes) reads the same", () => {
		const text = `${"filler line of text\n".repeat(4000)}# Far heading\n\nSee [[Target]] #far\n- [ ] task ^b1\n`;
		expect(text.length).toBeGreaterThan(0xffff);
		const compact = compactMetadata(parseMetadata(text), text);
		expectStrictEqual(compact, parseMetadata(text));
		expect(compact.links?.[0]?.position.start.line).toBe(4002);
	});

	test("list items of every shape packed from the parser's records: nested, ordered after a task, ids, tasks of any character, far offsets", () => {
		const items = [
			"- [ ] a task ^id-1",
			"  - [x] nested [[Target]]",
			"    1. deeper",
			"- [ ] 1. ordered marker after a task",
			"- [😀] emoji task",
			"* other list",
			"",
			"> - in a quote ^q",
			"1) ordered",
			"   - [-] under it ^deep-block-id-long",
		].join("\n");
		for (const text of [items, `${"filler line of text\n".repeat(4000)}${items}\n`, `\uFEFF${items}`]) {
			const direct = packedFromRecords(text);
			expectStrictEqual(direct, parseMetadata(text));
			expect(JSON.stringify(direct)).toBe(JSON.stringify(parseMetadata(text)));
		}
	});

	test("a note that stays as parsed gets its list items built from the parser's records", () => {
		const store = new PackedMetadataStore();
		// A store that has numbered every section type it can keeps a note with a new one as parsed.
		for (let type = 0; type < 255; type++) store.sectionTypeCode(`type ${type}`);
		const text = "# Title\n\n- [ ] a task ^id\n  - child\n";
		const kept = packedFromRecords(text, store);
		expectStrictEqual(kept, parseMetadata(text));
		// A plain list, not a getter over a packed form.
		expect(Object.getOwnPropertyDescriptor(kept, "listItems")).toHaveProperty("value");
		expect(kept.listItems).toHaveLength(2);
	});

	test("a block asked for by an id two blocks share in lower case is the same block from every lookup (packed notes answered ^A for ^a)", () => {
		const text = "first ^A\n\nsecond ^a\n\nthird ^B\n";
		const second = text.indexOf("second");
		const wantedA = { name: "^a", start: second, end: text.indexOf(" ^a") + 3 };
		const plain = parseMetadata(text);
		const unpacked = parseMetadata(text);
		void unpacked.blocks;
		const lookups = {
			packed: (id: string) => runSteps(blockPartInSteps(compactMetadata(parseMetadata(text), text), id)),
			records: (id: string) => runSteps(blockPartInSteps(parseMetadata(text), id)),
			object: (id: string) => runSteps(blockPartInSteps(unpacked, id)),
			resolveSubpath: (id: string) => resolveSubpath(plain, `^${id}`, text.length),
		};
		for (const [name, lookup] of Object.entries(lookups)) {
			expect([name, lookup("a")]).toEqual([name, wantedA]);
			// Only one block is b, whatever the case asked for.
			expect([name, lookup("b")?.name]).toEqual([name, "^B"]);
			expect([name, lookup("c")]).toEqual([name, null]);
		}
	});

	test("a note of 20,000 tasks is compacted in steps that may pause between runs of entries, to the same metadata", () => {
		const text = Array.from({ length: 20_000 }, (_, index) => `- [ ] task ${index} [[Target]] #t ^b${index}`).join("\n");
		const steps = compactMetadataSteps(parseMetadata(text), text);
		let pauses = 0;
		let next = steps.next();
		for (; !next.done; next = steps.next()) pauses++;
		expect(pauses).toBeGreaterThan(20);
		expectStrictEqual(next.value, parseMetadata(text));
	});

	test("a note of 10,000 block ids is packed from the parser's records, no step listing them (its blocks object's entries were all listed at once), to the same metadata", () => {
		// Ten times the most entries one listing may hold below: the old listing of all of them fails it.
		const BLOCK_IDS = 10_000;
		const text = Array.from({ length: BLOCK_IDS }, (_, index) => `para ${index} ^b${index}\n`).join("\n");
		const entries = Object.entries;
		let longest = 0;
		const spy = jest.spyOn(Object, "entries").mockImplementation((value: object) => {
			const listed = entries(value);
			longest = Math.max(longest, listed.length);
			return listed;
		});
		let compact: CachedMetadata;
		try {
			compact = compactMetadata(parseMetadata(text), text);
		} finally {
			spy.mockRestore();
		}
		expect(longest).toBeLessThan(1000);
		expectStrictEqual(compact, parseMetadata(text));
		expect(runSteps(blockPartInSteps(compact, `b${BLOCK_IDS - 1}`))?.name).toBe(`^b${BLOCK_IDS - 1}`);
	});

	test("a note of 30,000 short lines has its line starts written in steps (they were pushed in one piece)", () => {
		// Three times the most pushes a step may make below: pushed in one piece, they fail it.
		const text = `[[Target]] #tag\n${"x\n".repeat(30_000)}`;
		const metadata = parseMetadata(text);
		const steps = compactMetadataSteps(metadata, text);
		const push = Object.getOwnPropertyDescriptor(Array.prototype, "push")?.value as (this: unknown[], ...items: unknown[]) => number;
		let pushes = 0;
		const spy = replaceMethod(Array.prototype, "push", function (this: unknown[], ...items: unknown[]): number {
			pushes++;
			return push.apply(this, items);
		});
		let most = 0;
		let next;
		try {
			for (next = steps.next(); !next.done; next = steps.next()) {
				most = Math.max(most, pushes);
				pushes = 0;
			}
			most = Math.max(most, pushes);
		} finally {
			spy.restore();
		}
		expectStrictEqual(next.value, parseMetadata(text));
		// Before: one a line (30,002) in one step.
		expect(most).toBeLessThan(10_000);
	});

	test("a note of 300,000 lines without tags is known to have none without a step (read_note and the index decoded all its numbers); with tags, the same texts as before", () => {
		const untagged = packedFromRecords(`# Plan\n[[Target]]\n${"x\n".repeat(300_000)}`);
		const steps = tagTextReaderInSteps(untagged);
		const first = steps.next();
		// Before: its 300,000 line starts were decoded first, a step every METADATA_DECODE_STEP_CODES codes.
		expect(first.done).toBe(true);
		expect(first.done === true ? first.value.count : -1).toBe(0);
		for (const text of [`#one ${"x\n".repeat(300_000)}#two #one`, "---\ntags: [a]\n---\nno body tags\n", "# Head\n#nested/tag and #tag\n"]) {
			const reader = runSteps(tagTextReaderInSteps(packedFromRecords(text)));
			expect(Array.from({ length: reader.count }, (_, index) => reader.text(index))).toEqual(tagTextsOf(parseMetadata(text)));
		}
	});

	test("Obsidian's captures: the compact metadata reads as what Obsidian's cache said", () => {
		const names = readdirSync(OBSIDIAN_CACHE_DIR).filter((name) => name.endsWith(".json"));
		expect(names.length).toBeGreaterThanOrEqual(71);
		const store = new PackedMetadataStore();
		for (const name of names) {
			const capture = JSON.parse(readFileSync(nodePath.join(OBSIDIAN_CACHE_DIR, name), "utf8")) as {
				fileContents: string;
				cachedMetadata: CachedMetadata;
			};
			const compact = compactMetadata(parseMetadata(capture.fileContents), capture.fileContents, store);
			expectStrictEqual(compact, parseMetadata(capture.fileContents));
			for (const field of ["links", "embeds", "tags", "headings", "frontmatterPosition", "blocks"] as const) {
				expect({ name, field, value: compact[field] }).toEqual({ name, field, value: capture.cachedMetadata[field] });
			}
		}
	});

	test("a list read again is the same array while its note is among the last read, and equal to it after", () => {
		const store = new PackedMetadataStore();
		const text = "# Title\n\n- [ ] a task [[Target]] #tag ^id\n";
		const compact = compactMetadata(parseMetadata(text), text, store);
		const items = compact.listItems;
		expect(compact.listItems).toBe(items);
		expect(items?.[0]).toStrictEqual({ parent: -2, position: items?.[0]?.position, task: " ", id: "id" });
		// Reading a thousand other notes' lists pushes this note out of the kept ones.
		for (let note = 0; note < 1000; note++) expect(compactMetadata(parseMetadata(text), text, store).listItems).toHaveLength(1);
		expect(compact.listItems).not.toBe(items);
		expect(compact.listItems).toStrictEqual(items);
	});

	test("a note's 10,000 link texts read in steps, other notes' read between them: each note's texts, in order", () => {
		const store = new PackedMetadataStore();
		const text = `${Array.from({ length: 5_000 }, (_, index) => `[[L${index}]] ![[E${index}.png]]`).join("\n")}\n`;
		const other = "[[A]] [[B|b]] ![[C]]\n";
		const compact = compactMetadata(parseMetadata(text), text, store);
		const otherCompact = compactMetadata(parseMetadata(other), other, store);
		const steps = linkTextsInSteps(compact);
		let pauses = 0;
		let next = steps.next();
		for (; !next.done; next = steps.next()) {
			pauses++;
			// Another note's read uses the store's scratch numbers meanwhile.
			expect(linkTextsOf(otherCompact)).toEqual(["A", "B", "C"]);
		}
		expect(next.value).toEqual([
			...Array.from({ length: 5_000 }, (_, index) => `L${index}`),
			...Array.from({ length: 5_000 }, (_, index) => `E${index}.png`),
		]);
		// Read in one piece, a rename's look through a planted note's 90,000 links held the server 60–80 ms.
		expect(pauses).toBeGreaterThanOrEqual(4);
	});

	test("a note just parsed (not packed yet): its 10,000 link texts read in steps too, in order", () => {
		const text = `${Array.from({ length: 5_000 }, (_, index) => `[[L${index}]] ![[E${index}.png]]`).join("\n")}\n`;
		const steps = linkTextsInSteps(parseMetadata(text));
		let pauses = 0;
		let next = steps.next();
		for (; !next.done; next = steps.next()) pauses++;
		expect(next.value).toEqual([
			...Array.from({ length: 5_000 }, (_, index) => `L${index}`),
			...Array.from({ length: 5_000 }, (_, index) => `E${index}.png`),
		]);
		// 0 on main: a planted note's 650,000 link texts were copied in one piece of 25 ms as it was first resolved.
		expect(pauses).toBeGreaterThanOrEqual(4);
	});

	test("a list set on the metadata is kept as set, as on a plain object", () => {
		const text = "See [[Target]]\n";
		const compact = compactMetadata(parseMetadata(text), text);
		compact.links = [];
		expect(compact.links).toEqual([]);
		expect(Object.keys(compact)).toEqual(Object.keys(parseMetadata(text)));
	});

	test("a position the line starts do not give back leaves the note's metadata as parsed", () => {
		const text = "# Title\n\n[[Target]]\n";
		const parsed = parseMetadata(text);
		const link = parsed.links?.[0];
		if (!link) throw new Error("no link parsed");
		link.position = { ...link.position, start: { ...link.position.start, col: link.position.start.col + 1 } };
		expect(compactMetadata(parsed, text)).toBe(parsed);
	});

	test("an entry with a field the parser does not write leaves the note's metadata as parsed", () => {
		const text = "#tag\n";
		const parsed = parseMetadata(text);
		(parsed.tags?.[0] as unknown as Record<string, unknown>).extra = 1;
		expect(compactMetadata(parsed, text)).toBe(parsed);
	});
});

describe("a packed note's headings, read without building them", () => {
	test("headingTextsOf a note of 5,000 headings builds none of its entries (the search index read a note's 38,000 headings in one piece of about 50 ms on each change)", () => {
		const text = Array.from({ length: 5_000 }, (_, line) => `${"#".repeat(1 + (line % 6))} Heading ${line} [[Hub]]`).join("\n");
		const store = new PackedMetadataStore();
		const compact = compactMetadata(parseMetadata(text), text, store);
		const keep = jest.spyOn(store, "keep");
		const texts = headingTextsOf(compact);
		expect(keep).not.toHaveBeenCalled();
		expect(texts.texts).toHaveLength(5_000);
		expect(texts).toEqual({ texts: compact.headings?.map((entry) => entry.heading), levels: compact.headings?.map((entry) => entry.level) });
	});
});

describe("a packed note's list items' shape", () => {
	test("is read with none of its numbers decoded (a note of 400,000 headings decoded its millions in one piece of 10-20 ms), from Obsidian's items or the parser's records", () => {
		const text = `${Array.from({ length: 5_000 }, (_, line) => `# Heading ${line}`).join("\n")}\n\n- one\n- [ ] two\n  - three\n`;
		const plainText = `${text.replace("[ ] ", "")}`;
		const store = new PackedMetadataStore();
		const packed = [compactMetadata(parseMetadata(text), text, store), packedFromRecords(text, store)];
		const plain = [compactMetadata(parseMetadata(plainText), plainText, store), packedFromRecords(plainText, store)];
		// Each unpacking of a note's numbers takes the store's scratch (or an array of its own, `fresh`, not used here).
		const scratch = jest.spyOn(store, "scratch");
		expect(packed.map(listItemsShapeOf)).toEqual([
			{ count: 3, tasks: true },
			{ count: 3, tasks: true },
		]);
		expect(plain.map(listItemsShapeOf)).toEqual([
			{ count: 3, tasks: false },
			{ count: 3, tasks: false },
		]);
		expect(scratch).not.toHaveBeenCalled();
		expect(listItemsShapeOf(compactMetadata(parseMetadata("# a\n"), "# a\n", store))).toEqual({ count: 0, tasks: false });
	});
});

describe("a packed note's block, found without building its blocks", () => {
	test("the last of 20,000 blocks is found in steps, no entry built (read_note of `Note#^id` built a note's 100,000 in one piece of about 0.15 s)", () => {
		const text = Array.from({ length: 20_000 }, (_, line) => `Line ${line} ^Block${line}`).join("\n\n");
		const store = new PackedMetadataStore();
		const compact = compactMetadata(parseMetadata(text), text, store);
		const keep = jest.spyOn(store, "keep");
		const steps = blockPartInSteps(compact, "block19999");
		let pauses = 0;
		let next = steps.next();
		for (; !next.done; next = steps.next()) pauses++;
		expect(keep).not.toHaveBeenCalled();
		expect(pauses).toBeGreaterThanOrEqual(9);
		const start = text.indexOf("Line 19999");
		expect(next.value).toEqual({ name: "^Block19999", start, end: text.length });
		expect(text.slice(start, text.length)).toBe(`Line 19999 ^Block19999`);
	});
});

describe("a packed note's tasks, read without building its list items", () => {
	test("rememberTasks and taskItemsOf on a note of 20,000 nested list items build none of them (250,000 such items were built in one piece of about 0.25 s on each list_tasks and complete_task)", () => {
		const text = Array.from({ length: 200 }, (_, line) => `${"> - ".repeat(1 + (line % 100))}x ${line}`).join("\n");
		const store = new PackedMetadataStore();
		const compact = compactMetadata(parseMetadata(text), text, store);
		const keep = jest.spyOn(store, "keep");
		rememberTasks(compact, text, new NoteMemo());
		expect(taskItemsOf(compact)).toEqual([]);
		expect(listItemsShapeOf(compact).count).toBeGreaterThan(10_000);
		expect(keep).not.toHaveBeenCalled();
		// The same note with a task among its items.
		const withTask = `${text}\n- [x] done`;
		const compactTask = compactMetadata(parseMetadata(withTask), withTask, store);
		expect(taskItemsOf(compactTask)).toEqual([{ line: 200, status: "x" }]);
		expect(keep).not.toHaveBeenCalled();
	});
});

describe("compacted metadata's memory", () => {
	test("frontmatter lists are kept at their length, not with the room the parser's pushes left, and equal to the parse's", async () => {
		const notes = 5000;
		const textOf = (index: number) =>
			`---\ntags: [a${index}, b]\naliases: [n${index}]\ncssclasses: [c${index}]\nauthors: [p${index}, q]\n---\nBody ${index}\n`;
		const store = new PackedMetadataStore();
		const kept: CachedMetadata[] = [];
		for (let index = 0; index < notes; index++) kept.push(runSteps(compactMetadataSteps(parseMetadata(textOf(index)), textOf(index), store)));
		expectEqual(kept[7]?.frontmatter, parseMetadata(textOf(7)).frontmatter);
		expect(Array.isArray(kept[7]?.frontmatter?.tags)).toBe(true);
		// What the compacted notes hold: the heap with them, less the heap once they are let go (the store kept).
		const withNotes = await heapAndBuffersAfterGc();
		kept.length = 0;
		const perNote = (withNotes - (await heapAndBuffersAfterGc())) / notes;
		// Four lists of one or two items, each with room for 17 as pushed (about 1,180 bytes a note here), 8 or 16 bytes of slots at their length (about 680).
		expect(perNote).toBeLessThan(900);
	});
});
