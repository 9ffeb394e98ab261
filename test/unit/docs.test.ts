import { existsSync, readFileSync } from "node:fs";
import * as nodePath from "node:path";
import { generatedDocs } from "../../scripts/docs";
import { findProjectRoot } from "../helpers/fixtures";

const PROJECT_ROOT = findProjectRoot();
const read = (path: string) => readFileSync(nodePath.join(PROJECT_ROOT, path), "utf8");

/** The README is for the person installing; it stays short, and what it links to exists. */
const README_MAX_LINES = 250;

describe("the docs made from the code are up to date", () => {
	test.each(["docs/tools.md", "docs/limits.md"])("%s is what `npm run docs` makes from the code now", async (path) => {
		const made = (await generatedDocs(PROJECT_ROOT))[path];
		expect(made).toBeDefined();
		// On a mismatch: run `npm run docs` and commit the result.
		expect(read(path)).toBe(made);
	});
});

describe("the README", () => {
	const readme = read("README.md");

	test(`fits in ${README_MAX_LINES} lines and cites no issue numbers (they are not reachable from the repository)`, () => {
		expect(readme.split("\n").length).toBeLessThanOrEqual(README_MAX_LINES);
		expect(readme).not.toMatch(/\bissues? \d+/i);
	});

	test("every file it links to or shows (docs, screenshots) is committed", () => {
		const targets = [...readme.matchAll(/\]\(([^)#\s]+)\)/g)].map((match) => match[1] ?? "").filter((target) => !/^[a-z]+:/.test(target));
		expect(targets).toEqual(
			expect.arrayContaining(["docs/tools.md", "docs/limits.md", "docs/security.md", "docs/architecture.md", "bench/README.md", "CONTRIBUTING.md"]),
		);
		expect(targets.filter((target) => !existsSync(nodePath.join(PROJECT_ROOT, target)))).toEqual([]);
		const screenshots = targets.filter((target) => target.startsWith("docs/screenshots/"));
		expect(screenshots.length).toBeGreaterThan(0);
		for (const screenshot of screenshots)
			expect(readFileSync(nodePath.join(PROJECT_ROOT, screenshot)).subarray(0, 8).toString("hex")).toBe("89504e470d0a1a0a");
	});

	test("its connection lines are the ones the server prints for the demo vault", () => {
		expect(readme).toContain('claude mcp add --transport http vault-demo-vault http://127.0.0.1:27150/mcp --header "Authorization: Bearer <token>"');
	});
});
