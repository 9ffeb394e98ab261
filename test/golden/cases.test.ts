import { readdirSync, readFileSync } from "node:fs";
import * as nodePath from "node:path";
import type { CachedMetadata } from "obsidian";
import { metadataSteps, parseMetadata } from "../../src/markdown/metadata";
import { runSteps } from "../../src/markdown/steps";

/**
 * README: the JSON files in test/golden/cases/ are OUR OWN cases, derived from the rules we settled
 * on for issue 13 (documented at TASK_START in src/markdown/metadata.ts and at tagAt in
 * src/markdown/inline.ts), NOT captures from Obsidian. They have the captures' shape (`filePath`,
 * `fileContents`, `cachedMetadata`) but hold only the fields we are confident of (`listItems`,
 * `tags`, `sections`), with positions by the captures' conventions. Should a real capture ever
 * disagree, the capture wins and the case is wrong.
 */

interface Case {
	filePath: string;
	fileContents: string;
	cachedMetadata: Pick<CachedMetadata, "listItems" | "tags" | "sections">;
}

const CASES_DIR = nodePath.join(__dirname, "cases");
const cases: Array<[string, Case]> = readdirSync(CASES_DIR)
	.filter((name) => name.endsWith(".json"))
	.sort()
	.map((name) => [name, JSON.parse(readFileSync(nodePath.join(CASES_DIR, name), "utf8")) as Case]);

const FIELDS = ["listItems", "tags", "sections"] as const;

describe("parseMetadata against our own captured-style cases (derived rules, not Obsidian captures)", () => {
	test("there are cases", () => {
		expect(cases.map(([name]) => name)).toEqual(expect.arrayContaining(["tags_next_to_backslash_escapes.json", "task_text_like_list_marker.json"]));
	});

	describe.each(cases)("%s", (_name, testCase) => {
		const ours = parseMetadata(testCase.fileContents);
		test.each(FIELDS)("%s equals the case's", (field) => {
			expect(ours[field]).toEqual(testCase.cachedMetadata[field]);
		});
		test("the same when parsed in chunks of one line", () => {
			expect(runSteps(metadataSteps(testCase.fileContents, 1))).toEqual(ours);
		});
	});
});
