import { callOk } from "../../helpers/tools";
import { openDocsVault, type BaseCase } from "./docsVault";
import { basesSyntaxExample } from "./cases/basesSyntaxExample";
import { basesSyntaxFileExt } from "./cases/basesSyntaxFileExt";
import { basesSyntaxDates } from "./cases/basesSyntaxDates";
import { basesSyntaxLinks } from "./cases/basesSyntaxLinks";
import { functionsGlobalAndAny } from "./cases/functionsGlobalAndAny";
import { functionsString } from "./cases/functionsString";
import { functionsNumberAndList } from "./cases/functionsNumberAndList";
import { functionsFile } from "./cases/functionsFile";
import { formulasExamples } from "./cases/formulasExamples";
import { viewsSortGroupLimit } from "./cases/viewsSortGroupLimit";

/**
 * The examples of Obsidian's Bases documentation (github.com/obsidianmd/obsidian-help, en/Bases),
 * one case file each under ./cases, run through query_base over real HTTP: the rows and values a
 * person reading the page expects, over a vault where an excluded folder holds a note that would
 * match almost every example and must never be seen.
 */
const CASES: BaseCase[] = [
	basesSyntaxExample,
	basesSyntaxFileExt,
	basesSyntaxDates,
	basesSyntaxLinks,
	functionsGlobalAndAny,
	functionsString,
	functionsNumberAndList,
	functionsFile,
	formulasExamples,
	viewsSortGroupLimit,
];

describe.each(CASES.map((entry) => [`${entry.page}: ${entry.example}`, entry] as const))("%s", (_name, entry) => {
	test("query_base returns the rows the page describes, and nothing from the excluded folder", async () => {
		const vault = await openDocsVault(entry.base, entry.files, entry.setup);
		try {
			for (const call of entry.calls) {
				const result = await callOk(vault.client, "query_base", { path: "Query.base", ...call.args });
				expect(result).toMatchObject(call.expect);
				expect(JSON.stringify(result)).not.toContain("Private");
				expect(JSON.stringify(result)).not.toContain("Secret");
			}
		} finally {
			await vault.close();
		}
	});
});
