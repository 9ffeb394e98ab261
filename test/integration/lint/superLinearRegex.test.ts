import { execFileSync } from "node:child_process";
import path from "node:path";

/**
 * The CI check against regular expressions that backtrack super-linearly on hostile text: the
 * project's own ESLint block for them (eslint.config.mjs, the one with the `regexp` plugin) must
 * reject patterns of the kinds that once held the server, and pass every source file as it is.
 * ESLint's configuration is an ES module, so the check runs in a child Node process.
 */
const ROOT = path.resolve(__dirname, "../../..");

interface LintFinding {
	filePath: string;
	ruleId: string | null;
	line: number;
}

/** Lints the given sources, as files of src/, with only the project's regexp block. */
function lintWithRegexBlock(sources: Record<string, string>): LintFinding[] {
	const script = `
		import config from "./eslint.config.mjs";
		import { ESLint } from "eslint";
		import tseslint from "typescript-eslint";
		const block = config.find((each) => each.plugins && each.plugins.regexp);
		if (!block) throw new Error("no regexp block in eslint.config.mjs");
		const eslint = new ESLint({ cwd: process.cwd(), overrideConfigFile: true, overrideConfig: [{ files: ["**/*.ts"], languageOptions: { parser: tseslint.parser }, linterOptions: { reportUnusedDisableDirectives: "off" } }, block] });
		const sources = JSON.parse(process.env.SOURCES);
		const results = (await Promise.all(Object.entries(sources).map(([name, code]) => eslint.lintText(code, { filePath: "src/" + name })))).flat();
		const findings = results.flatMap((result) => result.messages.filter((message) => message.fatal || (message.ruleId ?? "").startsWith("regexp/")).map((message) => ({ filePath: result.filePath, ruleId: message.ruleId, line: message.line })));
		process.stdout.write(JSON.stringify(findings));
	`;
	const output = execFileSync(process.execPath, ["--input-type=module", "-e", script], {
		cwd: ROOT,
		env: { ...process.env, SOURCES: JSON.stringify(sources) },
		encoding: "utf8",
	});
	return JSON.parse(output) as LintFinding[];
}

describe("the super-linear regular expression check (CI: npm run lint, over every file of src/)", () => {
	const planted = [
		// Tasks' own ⛔ pattern: a 117-character line took 21 s.
		'const TASK_ID = "[a-zA-Z0-9-_]+";\nexport const dependsOn = new RegExp(`⛔\\\\uFE0F? *(${TASK_ID}( *, *${TASK_ID} *)*)$`, "u");',
		"export const recurrence = /🔁\\uFE0F? *([a-zA-Z0-9, !]+)$/u;",
		"export const heading = /^ {0,3}(#{1,6})(?:[ \\t]+(.*?))?(?:[ \\t]+#+)?[ \\t]*$/u;",
		'export const trailing = (text: string) => text.replace(/\\/+$/, "");',
	];
	// The same fields as src/markdown/taskCompletion.ts writes them now.
	const linear = [
		'const TASK_ID = "[a-zA-Z0-9-_]+";\nexport const dependsOn = new RegExp(`⛔\\\\uFE0F? *(${TASK_ID}(?: *, *${TASK_ID})*)$`, "uy");',
		"export const recurrence = /🔁\\uFE0F? *([a-zA-Z0-9,!][a-zA-Z0-9, !]*)$/uy;",
	];
	const findings = lintWithRegexBlock({
		...Object.fromEntries(planted.map((code, index) => [`markdown/planted${index}.ts`, code])),
		...Object.fromEntries(linear.map((code, index) => [`markdown/linear${index}.ts`, code])),
	});

	const kinds = ["Tasks' depends-on ids", "a recurrence rule's text", "a heading's closing hashes", "trailing slashes"];
	test.each(kinds.map((kind, index) => [kind, index] as const))("fails a planted pattern of a kind that once held the server: %s", (_kind, index) => {
		const own = findings.filter((finding) => finding.filePath.endsWith(`planted${index}.ts`));
		expect(own.map((finding) => finding.ruleId)).toEqual(expect.arrayContaining([expect.stringMatching(/^regexp\/no-super-linear-(backtracking|move)$/)]));
	});

	test("passes the same fields written so that every character has one place to go", () => {
		expect(findings.filter((finding) => finding.filePath.includes("linear"))).toEqual([]);
	});
});
