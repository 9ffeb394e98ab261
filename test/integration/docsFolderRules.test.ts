import { readFileSync } from "node:fs";
import * as nodePath from "node:path";
import { FOLDER_RULES_END, FOLDER_RULES_START, readFolderRules, renderFolderRules, withFolderRules } from "../../scripts/folderRulesDoc";
import { findProjectRoot } from "../helpers/fixtures";

const ROOT = findProjectRoot();

describe("docs/architecture.md's folder rules come from eslint.config.mjs", () => {
	const rules = readFolderRules(ROOT);

	test("the committed section is what `npm run docs` makes from the config now", () => {
		const text = readFileSync(nodePath.join(ROOT, "docs/architecture.md"), "utf8");
		// On a mismatch: run `npm run docs` and commit the result.
		expect(text).toBe(withFolderRules(text, rules));
	});

	test("every folder with a rule is listed with each of its messages", () => {
		expect(rules.map((rule) => rule.files[0])).toEqual(
			expect.arrayContaining(["src/http/**/*.ts", "src/markdown/**/*.ts", "src/search/**/*.ts", "src/headless/**/*.ts"]),
		);
		const section = renderFolderRules(rules);
		for (const rule of rules) for (const message of rule.messages) expect(section).toContain(message);
	});

	test("a changed rule makes the section stale", () => {
		const text = `before\n${FOLDER_RULES_START}\n${FOLDER_RULES_END}\nafter`;
		const changed = withFolderRules(text, [{ files: ["src/x/**/*.ts"], messages: ["x/ imports nothing."] }]);
		expect(changed).toBe(`before\n${FOLDER_RULES_START}\n- \`src/x/**/*.ts\`: x/ imports nothing.\n${FOLDER_RULES_END}\nafter`);
		expect(() => withFolderRules("no markers", rules)).toThrow("no folder rules markers");
	});
});
