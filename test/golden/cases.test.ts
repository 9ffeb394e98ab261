import { readdirSync, readFileSync } from "node:fs";
import * as nodePath from "node:path";
import type { CachedMetadata } from "obsidian";
import { metadataSteps, parseMetadata } from "../../src/markdown/metadata";
import { runSteps } from "../../src/markdown/steps";

/**
 * README: the JSON files in test/golden/cases/ are OUR OWN cases, with the captures' shape
 * (`filePath`, `fileContents`, `cachedMetadata`), holding only the fields we are confident of, with
 * positions by the captures' conventions. Most pin rules we derived (documented at TASK_START and
 * ORDERED_MARKER_AFTER_TASK in src/markdown/metadata.ts and at tagAt in src/markdown/inline.ts);
 * some restate, in our own text, what a capture from Obsidian outside our fixtures showed:
 * - task_text_starting_with_ordered_marker: obsidian-tasks' numbered_tasks_issue_3481 capture
 *   (`- [ ] 1. ` and `- [ ] 3) ` give a second item at column 6 whose parent is the task's line).
 * - tag_after_escaped_brackets: obsidian-tasks' internal_heading_links capture (`#Escaped`).
 * The byte-order-mark and footnote cases are derived: Obsidian sees frontmatter, a heading and a
 * task on the first line after a byte-order mark (positions here keep the text's own offsets, the
 * mark at offset 0), and finds links in footnote definitions (each a `footnoteDefinition` section).
 * Should a real capture ever disagree, the capture wins and the case is wrong.
 */

type CaseField = "listItems" | "tags" | "sections" | "links" | "embeds" | "headings" | "frontmatter" | "frontmatterPosition";

interface Case {
	filePath: string;
	fileContents: string;
	cachedMetadata: Pick<CachedMetadata, CaseField>;
}

const CASES_DIR = nodePath.join(__dirname, "cases");
const cases: Array<[string, Case]> = readdirSync(CASES_DIR)
	.filter((name) => name.endsWith(".json"))
	.sort()
	.map((name) => [name, JSON.parse(readFileSync(nodePath.join(CASES_DIR, name), "utf8")) as Case]);

/** Compared in every case (absent in the case means absent in ours); any other field only where the case holds it. */
const ALWAYS_COMPARED: CaseField[] = ["listItems", "tags", "sections"];

/** The fields one case is compared on. */
function fieldsOf(testCase: Case): CaseField[] {
	return [...new Set([...ALWAYS_COMPARED, ...(Object.keys(testCase.cachedMetadata) as CaseField[])])];
}

describe("parseMetadata against our own captured-style cases (derived rules, not Obsidian captures)", () => {
	test("there are cases", () => {
		expect(cases.map(([name]) => name)).toEqual(
			expect.arrayContaining([
				"tags_next_to_backslash_escapes.json",
				"task_text_like_list_marker.json",
				"task_text_starting_with_ordered_marker.json",
				"tag_after_escaped_brackets.json",
				"byte_order_mark_frontmatter.json",
				"byte_order_mark_heading.json",
				"byte_order_mark_task.json",
				"links_in_footnote_definitions.json",
			]),
		);
	});

	describe.each(cases)("%s", (_name, testCase) => {
		const ours = parseMetadata(testCase.fileContents);
		test.each(fieldsOf(testCase))("%s equals the case's", (field) => {
			expect(ours[field]).toEqual(testCase.cachedMetadata[field]);
		});
		test("the same when parsed in chunks of one line", () => {
			expect(runSteps(metadataSteps(testCase.fileContents, 1))).toEqual(ours);
		});
	});
});
