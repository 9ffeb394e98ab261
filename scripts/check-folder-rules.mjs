// `node scripts/check-folder-rules.mjs`: shows that each folder rule in eslint.config.mjs (the
// architecture's "never" rules) refuses an import it names and lets a harmless one through, by
// linting planted sources that are never written to disk. A rule lost in an edit of the config
// (a block dropped, a regex that no longer matches) fails here, not silently.
//
// Only the `no-restricted-imports` blocks are used: the planted text needs no type information.
//
// Exit codes: 0 every case as expected, 1 a case not (each printed).
import process from "node:process";
import { ESLint } from "eslint";
import config from "../eslint.config.mjs";

/** [file the import is planted in, the import, whether the rules must refuse it]. */
export const CASES = [
	["src/config/planted.ts", "../vault/scope", true],
	["src/config/planted.ts", "../mcp/server", true],
	["src/config/planted.ts", "../paths/spelling", false],
	["src/config/planted.ts", "./limits", false],
	["src/paths/planted.ts", "../vault/paths", true],
	["src/paths/planted.ts", "../config/limits", false],
	["src/http/planted.ts", "../mcp/server", true],
	["src/http/planted.ts", "../config/settings", true],
	["src/http/planted.ts", "../auth/grant", false],
	["src/mcp/planted.ts", "../http/server", true],
	["src/mcp/tools/planted.ts", "../../ui/modals", true],
	["src/mcp/planted.ts", "../vault/notes", false],
	["src/vault/planted.ts", "../mcp/tool", true],
	["src/vault/planted.ts", "../markdown/outline", false],
	["src/markdown/planted.ts", "../vault/notes", true],
	["src/markdown/planted.ts", "../result", false],
	["src/search/planted.ts", "../host/Host", true],
	["src/search/planted.ts", "../markdown/frontmatter", false],
	["src/search/planted.ts", "../markdown/outline", true],
	["src/host/planted.ts", "../vault/rename", true],
	["src/host/planted.ts", "../journal/entry", true],
	["src/host/planted.ts", "../config/limits", false],
	["src/headless/planted.ts", "../ui/port", true],
	["src/headless/planted.ts", "../main", true],
	["src/headless/planted.ts", "../vault/notes", false],
];

const folderRules = config
	.filter(
		(block) => block.files?.every((glob) => typeof glob === "string" && glob.startsWith("src/")) && block.rules?.["no-restricted-imports"] !== undefined,
	)
	.map((block) => ({ files: block.files, rules: { "no-restricted-imports": block.rules["no-restricted-imports"] } }));
const eslint = new ESLint({ overrideConfigFile: true, overrideConfig: folderRules });
const failures = [];
for (const [file, specifier, refused] of CASES) {
	const [result] = await eslint.lintText(`import { planted } from "${specifier}";\nexport { planted };\n`, { filePath: file });
	const got = (result?.messages ?? []).some((message) => message.ruleId === "no-restricted-imports");
	if (got !== refused) failures.push(`${file} importing ${specifier}: expected ${refused ? "refused" : "allowed"}, got ${got ? "refused" : "allowed"}`);
}
for (const failure of failures) process.stdout.write(`check:folder-rules: ${failure}\n`);
if (failures.length === 0) process.stdout.write(`check:folder-rules: ${CASES.length} planted imports, each refused or allowed as the architecture says\n`);
process.exit(failures.length === 0 ? 0 : 1);
