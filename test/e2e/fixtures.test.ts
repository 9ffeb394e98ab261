import { execFile } from "node:child_process";
import { promises as fs, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import * as nodePath from "node:path";
import { promisify } from "node:util";
import { FIXTURES_HINT, OBSIDIAN_HELP_HINT, findProjectRoot, fixturesDir, locateFixtures, obsidianHelpVaultDir } from "../helpers/fixtures";
import { makeTempDir, removeDir } from "../helpers/vault";
import { runProcess } from "../helpers/cli";

const PROJECT_ROOT = findProjectRoot();
const FETCH_SCRIPT = nodePath.join(PROJECT_ROOT, "scripts", "fixtures.mjs");
const JEST = nodePath.join(PROJECT_ROOT, "node_modules", "jest", "bin", "jest.js");
const manifest = JSON.parse(readFileSync(nodePath.join(PROJECT_ROOT, "test", "fixtures-manifest.json"), "utf8")) as {
	repository: string;
	commit: string;
	files: Array<{ path: string; from: string }>;
};

const run = runProcess;

/** The environment without any fixtures folder named. */
function envWithout(name: string): NodeJS.ProcessEnv {
	const env = { ...process.env };
	delete env[name];
	return env;
}

const runFetch = (args: string[]) => run(process.execPath, [FETCH_SCRIPT, ...args]);
/** Jest's bound for one test that copies and checks the golden data (five times, or in tarballs): a stop for a hang, not a speed check (30 s ran out beside six loaded sessions). */
const FIXTURE_COPY_TIMEOUT_MS = 120_000;

/**
 * A writable copy of the data's 290 files in `into`: in our layout (`copy`), or laid out as the
 * obsidian-tasks repository has them (`checkout`, its folder named by the commit). Each test copies
 * only the layouts it reads, and each folder is made once, not once for each of its files: copying
 * both layouts for every test (12 copied where 7 are read) took this file 21.1 s of CPU, 18.7-19.2 s
 * after (7 December 2026, at a load of 11-16).
 */
async function copyData<Layout extends "copy" | "checkout">(into: string, ...layouts: Layout[]): Promise<Record<Layout, string>> {
	const folders = {} as Record<Layout, string>;
	for (const layout of layouts) {
		const folder = nodePath.join(into, layout === "copy" ? "copy" : `obsidian-tasks-${manifest.commit}`);
		const targets = manifest.files.map((file) => ({
			source: nodePath.join(fixturesDir(), file.path),
			target: nodePath.join(folder, layout === "copy" ? file.path : file.from),
		}));
		for (const parent of new Set(targets.map(({ target }) => nodePath.dirname(target)))) await fs.mkdir(parent, { recursive: true });
		for (const { source, target } of targets) {
			await fs.copyFile(source, target);
			await fs.chmod(target, 0o644);
		}
		folders[layout] = folder;
	}
	return folders;
}

async function corruptOneByte(path: string): Promise<void> {
	const bytes = await fs.readFile(path);
	bytes[10] = (bytes[10] ?? 0) ^ 0x01;
	await fs.writeFile(path, bytes);
}

const exists = (path: string) =>
	fs.stat(path).then(
		() => true,
		() => false,
	);

describe("the golden test data outside the repository", () => {
	let temp: string;
	beforeEach(async () => {
		temp = await makeTempDir("vault-mcp-fixtures-");
	});
	afterEach(async () => removeDir(temp));

	describe("jest's globalSetup, in a clone with no ../shared beside it", () => {
		/** A minimal clone: the jest config, the globalSetup and one probe test that leaves a mark when it runs. */
		async function makeClone(): Promise<{ clone: string; mark: string }> {
			const clone = nodePath.join(temp, "clone");
			for (const file of [
				"jest.config.mjs",
				"scripts/jest-sequencer.cjs",
				"scripts/jest-bundle-source-map.mjs",
				"scripts/jest-esbuild-transform.mjs",
				"scripts/jest-runtime.cjs",
				"tsconfig.json",
				"package.json",
				"test/globalSetup.ts",
				"test/globalTeardown.ts",
				"test/fastCheckSeed.ts",
				"src/config/limits.ts",
				"test/helpers/fixtures.ts",
				"test/fixtures-manifest.json",
			]) {
				await fs.mkdir(nodePath.dirname(nodePath.join(clone, file)), { recursive: true });
				await fs.copyFile(nodePath.join(PROJECT_ROOT, file), nodePath.join(clone, file));
			}
			await fs.symlink(nodePath.join(PROJECT_ROOT, "node_modules"), nodePath.join(clone, "node_modules"), "dir");
			const mark = nodePath.join(temp, "probe-ran");
			await fs.mkdir(nodePath.join(clone, "test", "unit"), { recursive: true });
			await fs.writeFile(
				nodePath.join(clone, "test", "unit", "probe.test.ts"),
				`import { writeFileSync } from "node:fs";\ntest("probe", () => writeFileSync(${JSON.stringify(mark)}, "ran"));\n`,
			);
			return { clone, mark };
		}
		const runJest = (clone: string, env: NodeJS.ProcessEnv) => run(process.execPath, [JEST, "--ci", "--no-cache"], { cwd: clone, env });

		test("without the data, the run stops before any test with exactly the one-line hint", async () => {
			const { clone, mark } = await makeClone();
			const result = await runJest(clone, envWithout("VAULT_MCP_FIXTURES"));
			expect(result.code).toBe(1);
			expect(result.stderr).toBe(`${FIXTURES_HINT}\n`);
			expect(await exists(mark)).toBe(false);
		});

		test("with VAULT_MCP_FIXTURES naming the data, the tests run", async () => {
			const { clone, mark } = await makeClone();
			const result = await runJest(clone, { ...process.env, VAULT_MCP_FIXTURES: fixturesDir() });
			expect(result.code).toBe(0);
			expect(await exists(mark)).toBe(true);
		});
	});

	test("VAULT_MCP_FIXTURES naming an incomplete folder is reported as such, with what to run", async () => {
		const { copy } = await copyData(temp, "copy");
		await fs.rm(nodePath.join(copy, "obsidian-cache", "metadataCache"), { recursive: true });
		const found = locateFixtures(PROJECT_ROOT, { VAULT_MCP_FIXTURES: copy });
		expect(found).toEqual({ problem: expect.stringContaining(`VAULT_MCP_FIXTURES=${copy} lacks 2 file(s)`) });
		expect(found).toEqual({ problem: expect.stringContaining(`npm run fixtures -- --out ${copy}`) });
		expect(locateFixtures(PROJECT_ROOT, { VAULT_MCP_FIXTURES: fixturesDir() })).toEqual({ dir: fixturesDir() });
	});

	test("the committed manifest matches the data the tests read, file for file", async () => {
		const result = await runFetch(["verify", fixturesDir()]);
		expect(result.stderr).toBe("");
		expect(result.code).toBe(0);
		expect(manifest.files).toHaveLength(290);
		expect(manifest.files.filter((file) => /^obsidian-cache\/[^/]+\.json$/.test(file.path))).toHaveLength(71);
	});

	test(
		"npm run fixtures --from a copy writes a verified folder; a corrupted file is rejected and nothing is written",
		async () => {
			const { copy, checkout } = await copyData(temp, "copy", "checkout");
			for (const source of [copy, checkout]) {
				const out = nodePath.join(temp, `out-${nodePath.basename(source)}`);
				const fetched = await runFetch(["--from", source, "--out", out]);
				expect(fetched.stderr).toBe("");
				expect(fetched.code).toBe(0);
				expect((await runFetch(["verify", out])).code).toBe(0);
			}

			await corruptOneByte(nodePath.join(copy, "obsidian-cache", "one_task.json"));
			const out = nodePath.join(temp, "out-corrupt");
			const rejected = await runFetch(["--from", copy, "--out", out]);
			expect(rejected.code).toBe(1);
			expect(rejected.stderr).toContain("checksum mismatch: obsidian-cache/one_task.json");
			expect(await exists(out)).toBe(false);
			const verified = await runFetch(["verify", copy]);
			expect(verified.code).toBe(1);
			expect(verified.stderr).toContain("checksum mismatch: obsidian-cache/one_task.json");
		},
		FIXTURE_COPY_TIMEOUT_MS,
	);

	test(
		"npm run fixtures --tarball reads a codeload-style tarball and rejects a corrupted one",
		async () => {
			const { checkout } = await copyData(temp, "checkout");
			const tarball = nodePath.join(temp, "obsidian-tasks.tar.gz");
			const makeTarball = () => promisify(execFile)("tar", ["-czf", tarball, "-C", temp, nodePath.basename(checkout)]);
			await makeTarball();
			const good = await runFetch(["--tarball", tarball, "--out", nodePath.join(temp, "out-good")]);
			expect(good.stderr).toBe("");
			expect(good.code).toBe(0);

			await corruptOneByte(nodePath.join(checkout, "resources/sample_vaults/Tasks-Demo/Tasks.md"));
			await makeTarball();
			const bad = await runFetch(["--tarball", tarball, "--out", nodePath.join(temp, "out-bad")]);
			expect(bad.code).toBe(1);
			expect(bad.stderr).toContain("checksum mismatch: vaults/tasks-demo/Tasks.md");
			expect(await exists(nodePath.join(temp, "out-bad"))).toBe(false);
		},
		FIXTURE_COPY_TIMEOUT_MS,
	);

	test("the Obsidian Help vault is its own set: a folder without it is reported with what to run, and an unknown set is refused", async () => {
		const { copy } = await copyData(temp, "copy");
		expect(() => obsidianHelpVaultDir(PROJECT_ROOT, { VAULT_MCP_FIXTURES: copy })).toThrow(OBSIDIAN_HELP_HINT);
		expect(OBSIDIAN_HELP_HINT).toContain("npm run fixtures -- --set obsidian-help");
		const unknown = await runFetch(["--set", "obsidian-helps"]);
		expect(unknown.code).toBe(2);
		expect(unknown.stderr).toContain("Unknown set: obsidian-helps");
	});

	test(
		"npm run fixtures --tarball takes a tarball whatever its one top folder is called, or with none",
		async () => {
			const { checkout } = await copyData(temp, "checkout");
			const renamed = nodePath.join(temp, "any-name-at-all");
			await fs.rename(checkout, renamed);
			const withTop = nodePath.join(temp, "renamed.tar.gz");
			await promisify(execFile)("tar", ["-czf", withTop, "-C", temp, "any-name-at-all"]);
			const fromRenamed = await runFetch(["--tarball", withTop, "--out", nodePath.join(temp, "out-renamed")]);
			expect(fromRenamed.stderr).toBe("");
			expect(fromRenamed.code).toBe(0);
			const loose = nodePath.join(temp, "loose.tar.gz");
			// Entries named without a leading folder or "./": several top folders and loose files.
			await promisify(execFile)("tar", ["-czf", loose, "-C", renamed, ...(await fs.readdir(renamed))]);
			const fromLoose = await runFetch(["--tarball", loose, "--out", nodePath.join(temp, "out-loose")]);
			expect(fromLoose.stderr).toBe("");
			expect(fromLoose.code).toBe(0);
			// A copy, two tarballs and two fetches that check every file: past 30 s beside a second suite and two
			// busy loops (load 25-45 on 2 cores).
		},
		FIXTURE_COPY_TIMEOUT_MS,
	);

	describe("downloading over HTTP (a local server standing in for GitHub's raw files)", () => {
		let server: Server;
		let base: string;
		const refused = new Set<string>();
		beforeEach(async () => {
			const { checkout } = await copyData(temp, "checkout");
			refused.clear();
			server = createServer((request, response) => {
				const prefix = `/${manifest.repository}/${manifest.commit}/`;
				const upstreamPath = decodeURIComponent((request.url ?? "").slice(prefix.length));
				if (!(request.url ?? "").startsWith(prefix) || refused.has(upstreamPath)) {
					response.writeHead(404).end();
					return;
				}
				fs.readFile(nodePath.join(checkout, upstreamPath)).then(
					(bytes) => response.end(bytes),
					() => response.writeHead(404).end(),
				);
			});
			await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
			base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
		});
		afterEach(async () => new Promise<void>((resolve) => server.close(() => resolve())));

		test("every file arrives, paths with spaces included, and the folder verifies", async () => {
			const out = nodePath.join(temp, "out-http");
			const fetched = await runFetch(["--raw-base", base, "--out", out]);
			expect(fetched.stderr).toBe("");
			expect(fetched.code).toBe(0);
			expect((await runFetch(["verify", out])).code).toBe(0);
		});

		test("a file the commit lacks is named, with the tests that need VAULT_MCP_FIXTURES for it", async () => {
			refused.add("tests/Obsidian/__test_data__/metadataCache/resolvedLinks.json");
			const out = nodePath.join(temp, "out-http-missing");
			const fetched = await runFetch(["--raw-base", base, "--out", out]);
			expect(fetched.code).toBe(1);
			expect(fetched.stderr).toContain("missing: obsidian-cache/metadataCache/resolvedLinks.json");
			expect(fetched.stderr).toContain("test/golden/links.test.ts");
			expect(fetched.stderr).toContain("VAULT_MCP_FIXTURES");
			expect(await exists(out)).toBe(false);
		});
	});
});
