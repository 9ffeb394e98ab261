import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import * as nodePath from "node:path";
import { findProjectRoot } from "../helpers/fixtures";

const PROJECT_ROOT = findProjectRoot();
const MANIFEST_PATH = nodePath.join(PROJECT_ROOT, "manifest.json");
const ESLINT_BIN = nodePath.join(PROJECT_ROOT, "node_modules/eslint/bin/eslint.js");

/** manifest.json through the project's own lint config, as `npm run lint` (and so CI) runs it. */
async function lintManifest(text: string): Promise<string[]> {
	// ESLint 9 loads its config with a dynamic import, which jest's module sandbox refuses: run the CLI.
	const output = await new Promise<string>((resolve, reject) => {
		const child = execFile(
			process.execPath,
			[ESLINT_BIN, "--format", "json", "--stdin", "--stdin-filename", MANIFEST_PATH],
			{ cwd: PROJECT_ROOT },
			(error, stdout) => {
				if (error && stdout === "") reject(new Error(`eslint did not run: ${error.message}`));
				else resolve(stdout);
			},
		);
		child.stdin?.end(text);
	});
	const [result] = JSON.parse(output) as Array<{ messages: Array<{ ruleId: string | null; message: string }> }>;
	return (result?.messages ?? []).map((message) => `${message.ruleId ?? "parse"}: ${message.message}`);
}

describe("manifest.json passes the review bot's manifest rule", () => {
	test("the committed manifest has no lint message", async () => {
		expect(await lintManifest(readFileSync(MANIFEST_PATH, "utf8"))).toEqual([]);
	}, 60_000);

	test("a description with a colon, as Obsidian's review refuses, fails the lint", async () => {
		const manifest = JSON.parse(readFileSync(MANIFEST_PATH, "utf8")) as Record<string, unknown>;
		const messages = await lintManifest(JSON.stringify({ ...manifest, description: "Serve your vault: read-only by default." }, null, 2));
		expect(messages).toEqual([expect.stringMatching(/^obsidianmd\/validate-manifest: The 'description' property/)]);
	}, 60_000);
});
