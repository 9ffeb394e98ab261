import { readdirSync, readFileSync } from "node:fs";
import * as nodePath from "node:path";
import fc from "fast-check";
import type { CachedMetadata, Pos } from "obsidian";
import { compactMetadata, NoteLines } from "../../../src/headless/compactMetadata";
import { parseMetadata } from "../../../src/markdown/metadata";
import { LineIndex } from "../../../src/markdown/lines";
import { OBSIDIAN_CACHE_DIR } from "../../helpers/vault";

const ENTRY_LISTS = ["links", "embeds", "tags", "headings", "sections", "listItems"] as const;

function readPos(position: Pos): Pos {
	return { start: { ...position.start }, end: { ...position.end } };
}

/** What a caller reads field by field (own fields spread, `position` through its getter), as plain objects. */
function readAsCaller(cache: CachedMetadata): CachedMetadata {
	const read: Record<string, unknown> = { ...cache };
	for (const key of ENTRY_LISTS) {
		const entries = cache[key] as Array<{ position: Pos }> | undefined;
		if (entries) read[key] = entries.map((entry) => ({ ...entry, position: readPos(entry.position) }));
	}
	if (cache.blocks)
		read.blocks = Object.fromEntries(Object.entries(cache.blocks).map(([id, block]) => [id, { ...block, position: readPos(block.position) }]));
	return read;
}

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

describe("compactMetadata", () => {
	test("any Markdown: read field by field, the compact metadata is the plain metadata, and its JSON is the same text", () => {
		fc.assert(
			fc.property(markdown, (text) => {
				const plain = parseMetadata(text);
				const compact = compactMetadata(parseMetadata(text), text);
				expect(readAsCaller(compact)).toStrictEqual(plain);
				expect(JSON.stringify(compact)).toBe(JSON.stringify(plain));
				expect(Object.keys(compact)).toEqual(Object.keys(plain));
				// Compact indeed, not the plain metadata handed back: no entry owns a position object.
				const entries: object[] = [...ENTRY_LISTS.flatMap((key): object[] => compact[key] ?? []), ...Object.values(compact.blocks ?? {})];
				expect(entries.filter((entry) => Object.hasOwn(entry, "position"))).toEqual([]);
			}),
			{ numRuns: 1500 },
		);
	});

	test("a note over 64 KiB (line starts in 32 bits) reads the same", () => {
		const text = `${"filler line of text\n".repeat(4000)}# Far heading\n\nSee [[Target]] #far\n- [ ] task ^b1\n`;
		expect(text.length).toBeGreaterThan(0xffff);
		const compact = compactMetadata(parseMetadata(text), text);
		expect(readAsCaller(compact)).toStrictEqual(parseMetadata(text));
		expect(compact.links?.[0]?.position.start.line).toBe(4002);
	});

	test("Obsidian's captures: the compact metadata reads as what Obsidian's cache said", () => {
		const names = readdirSync(OBSIDIAN_CACHE_DIR).filter((name) => name.endsWith(".json"));
		expect(names.length).toBeGreaterThanOrEqual(71);
		for (const name of names) {
			const capture = JSON.parse(readFileSync(nodePath.join(OBSIDIAN_CACHE_DIR, name), "utf8")) as {
				fileContents: string;
				cachedMetadata: CachedMetadata;
			};
			const read = readAsCaller(compactMetadata(parseMetadata(capture.fileContents), capture.fileContents));
			for (const field of ["links", "embeds", "tags", "headings", "frontmatterPosition", "blocks"] as const) {
				expect({ name, field, value: read[field] }).toEqual({ name, field, value: capture.cachedMetadata[field] });
			}
		}
	});

	test("entries keep no position objects: `position` is built on each read, with the same values", () => {
		const text = "# Title\n\n- [ ] a task [[Target]] #tag ^id\n";
		const compact = compactMetadata(parseMetadata(text), text);
		const item = compact.listItems?.[0];
		expect(item && Object.keys(item)).toEqual(["parent", "task", "id"]);
		expect(item && "position" in item).toBe(true);
		expect(item?.position).not.toBe(item?.position);
		expect(item?.position).toEqual(item?.position);
		expect(compact.links?.[0]?.displayText).toBe("Target");
	});

	test("a position the line starts do not give back leaves the note's metadata as parsed", () => {
		const text = "# Title\n\n[[Target]]\n";
		const parsed = parseMetadata(text);
		const link = parsed.links?.[0];
		if (!link) throw new Error("no link parsed");
		link.position = { ...link.position, start: { ...link.position.start, col: link.position.start.col + 1 } };
		expect(compactMetadata(parsed, text)).toBe(parsed);
	});
});

describe("NoteLines", () => {
	test("gives every offset the Loc LineIndex gives, byte-order mark and CRLF included", () => {
		fc.assert(
			fc.property(fc.constantFrom("", "\uFEFF"), fc.array(fc.constantFrom("a", "\n", "\r\n", "é", " "), { maxLength: 40 }), (bom, pieces) => {
				const text = bom + pieces.join("");
				const lines = NoteLines.of(text);
				const index = new LineIndex(text);
				for (let offset = 0; offset <= text.length; offset++) expect(lines.loc(offset)).toEqual(index.loc(offset));
			}),
			{ numRuns: 500 },
		);
	});
});
