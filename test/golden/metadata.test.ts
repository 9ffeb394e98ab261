import { readdirSync, readFileSync } from "node:fs";
import * as nodePath from "node:path";
import { isDeepStrictEqual } from "node:util";
import type { CachedMetadata, ListItemCache } from "obsidian";
import { getAllTags, parseFrontMatterTags } from "../../src/markdown/tags";
import { parseMetadata } from "../../src/markdown/metadata";
import { OBSIDIAN_CACHE_DIR } from "../helpers/vault";

/** One capture from real Obsidian: a note's text and what Obsidian's metadata cache said about it. */
interface Capture {
	filePath: string;
	fileContents: string;
	cachedMetadata: CachedMetadata;
	getAllTags: string[];
	parseFrontMatterTags: string[] | null;
}

const captures: Array<[string, Capture]> = readdirSync(OBSIDIAN_CACHE_DIR)
	.filter((name) => name.endsWith(".json"))
	.sort()
	.map((name) => [name, JSON.parse(readFileSync(nodePath.join(OBSIDIAN_CACHE_DIR, name), "utf8")) as Capture]);

const FIELDS = ["links", "embeds", "tags", "headings", "listItems", "frontmatter", "frontmatterPosition", "frontmatterLinks", "blocks"] as const;

describe("parseMetadata against metadata captured from real Obsidian", () => {
	test("there are captures to compare with", () => {
		expect(captures.length).toBeGreaterThanOrEqual(71);
	});

	describe.each(captures)("%s", (_name, capture) => {
		const ours = parseMetadata(capture.fileContents);
		test.each(FIELDS)("%s equals Obsidian's, positions included", (field) => {
			const expected =
				field === "listItems"
					? (KNOWN_LIST_ITEM_GAPS[_name]?.(capture.cachedMetadata.listItems) ?? capture.cachedMetadata.listItems)
					: capture.cachedMetadata[field];
			expect(ours[field]).toEqual(expected);
		});
		test("getAllTags and parseFrontMatterTags equal Obsidian's", () => {
			expect(getAllTags(ours)).toEqual(capture.getAllTags);
			expect(parseFrontMatterTags(ours.frontmatter)).toEqual(capture.parseFrontMatterTags);
		});
	});

	test("sections equal Obsidian's for at least 95% of the captures, with every difference a known gap", () => {
		const differing = captures
			.filter(([, capture]) => !isDeepStrictEqual(parseMetadata(capture.fileContents).sections, capture.cachedMetadata.sections))
			.map(([name]) => name);
		expect(differing).toEqual(KNOWN_SECTION_GAPS);
		expect(1 - differing.length / captures.length).toBeGreaterThanOrEqual(0.95);
	});
});

/** Captures whose sections differ from Obsidian's, each with the reason. None today. */
const KNOWN_SECTION_GAPS: string[] = [];

/**
 * Known differences in list items, as the change that turns Obsidian's answer into ours, so the
 * test still fails on any other difference in these files.
 *
 * numbered_list_items_standard: a child item indented 4 spaces under `1. [ ] …` starts, in
 * Obsidian, at its own marker (col 4); under `1) [ ] …` (numbered_list_items_with_paren, identical
 * but for the delimiter) and under every bullet parent it starts at the parent's content column
 * (col 3), which is the CommonMark container rule we follow. No consistent rule explains both.
 */
const KNOWN_LIST_ITEM_GAPS: Record<string, (items: ListItemCache[] | undefined) => ListItemCache[] | undefined> = {
	"numbered_list_items_standard.json": (items) =>
		items?.map((item) =>
			item.parent >= 0
				? {
						...item,
						position: {
							...item.position,
							start: { ...item.position.start, col: item.position.start.col - 1, offset: item.position.start.offset - 1 },
						},
					}
				: item,
		),
};
