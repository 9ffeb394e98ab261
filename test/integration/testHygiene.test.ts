import { execFile } from "node:child_process";
import { promises as fs } from "node:fs";
import { createServer } from "node:net";
import * as nodePath from "node:path";
import { promisify } from "node:util";
import { DEFAULT_PORT } from "../../src/config/limits";
import { until } from "../helpers/dom";
import { findProjectRoot } from "../helpers/fixtures";
import { copyCommittedDemoVault } from "../../scripts/committedDemoVault";
import { copyDemoVault, makeTempDir, readAllFiles, removeDir } from "../helpers/vault";

const PROJECT_ROOT = findProjectRoot();
const exec = promisify(execFile);

/**
 * What a newcomer meets after the README's first command (`npm start` serves demo-vault on the
 * default port, and trying writes there leaves a journal and a trash folder): the suites must pass
 * all the same.
 */
describe("the suites run beside a person's own server and tries", () => {
	test("the default port is taken for the whole run (by this run or a running server), so no suite can rely on it", async () => {
		const error = await new Promise<NodeJS.ErrnoException | null>((resolve) => {
			const server = createServer();
			server.once("error", resolve);
			server.listen(DEFAULT_PORT, "127.0.0.1", () => server.close(() => resolve(null)));
		});
		expect(error?.code).toBe("EADDRINUSE");
	});

	test("a copy of the demo vault holds exactly the files committed, never a journal, trash or settings left in the working tree", async () => {
		const { stdout } = await exec("git", ["ls-tree", "-r", "--name-only", "HEAD", "demo-vault"], { cwd: PROJECT_ROOT });
		const committed = stdout
			.split("\n")
			.filter((line) => line !== "")
			.map((line) => line.slice("demo-vault/".length))
			.sort();
		expect(committed).toContain("Welcome.md");
		const copy = await copyDemoVault();
		try {
			const copied = (await readAllFiles(copy)).map((file) => nodePath.relative(copy, file.path).split(nodePath.sep).join("/")).sort();
			expect(copied).toEqual(committed);
			for (const path of copied) {
				const { stdout: blob } = await exec("git", ["show", `HEAD:demo-vault/${path}`], { cwd: PROJECT_ROOT, encoding: "buffer" });
				expect((await fs.readFile(nodePath.join(copy, path))).equals(blob)).toBe(true);
			}
		} finally {
			await removeDir(copy);
		}
	});

	test("a checkout whose demo vault holds a journal, a trash folder and settings still gives the suites the committed demo vault", async () => {
		// A clone of this commit stands in for a newcomer's working tree after `npm start` and a few writes (this one's demo-vault is never written to).
		const clone = await makeTempDir("vault-mcp-clone-");
		const copy = await makeTempDir("vault-mcp-copy-");
		try {
			await exec("git", ["clone", "--quiet", "--shared", "--no-hardlinks", PROJECT_ROOT, clone]);
			const plugin = nodePath.join(clone, "demo-vault/.obsidian/plugins/vault-mcp");
			await fs.mkdir(plugin, { recursive: true });
			await fs.writeFile(nodePath.join(plugin, "journal.jsonl"), '{"kind":"change"}\n');
			await fs.writeFile(nodePath.join(plugin, "data.json"), "{}\n");
			await fs.mkdir(nodePath.join(clone, "demo-vault/.trash"));
			await fs.writeFile(nodePath.join(clone, "demo-vault/.trash/Old note.md"), "trashed\n");
			await fs.writeFile(nodePath.join(clone, "demo-vault/Welcome.md"), "edited in the working tree\n");
			const { stdout: status } = await exec("git", ["status", "--porcelain"], { cwd: clone });
			// Git sees only the edit: the leftovers are ignored.
			expect(status.trim()).toBe("M demo-vault/Welcome.md");
			await copyCommittedDemoVault(clone, copy);
			const copied = (await readAllFiles(copy)).map((file) => nodePath.relative(copy, file.path).split(nodePath.sep).join("/"));
			expect(copied.filter((path) => path.startsWith(".trash") || path.includes("plugins/vault-mcp"))).toEqual([]);
			const { stdout: welcome } = await exec("git", ["show", "HEAD:demo-vault/Welcome.md"], { cwd: clone });
			expect(await fs.readFile(nodePath.join(copy, "Welcome.md"), "utf8")).toBe(welcome);
		} finally {
			await removeDir(clone);
			await removeDir(copy);
		}
	});

	test("git ignores what serving and writing on the demo vault leave behind", async () => {
		const leftovers = [
			"demo-vault/.obsidian/plugins/vault-mcp/journal.jsonl",
			"demo-vault/.obsidian/plugins/vault-mcp/data.json",
			"demo-vault/.trash/Old note.md",
		];
		const { stdout } = await exec("git", ["check-ignore", "--no-index", ...leftovers], { cwd: PROJECT_ROOT });
		expect(stdout.split("\n").filter((line) => line !== "")).toEqual(leftovers);
		// The committed screenshots are not swallowed by the rule for `npm run screenshots`' output.
		await expect(exec("git", ["check-ignore", "--no-index", "docs/screenshots/approval.png"], { cwd: PROJECT_ROOT })).rejects.toMatchObject({ code: 1 });
		const { stdout: output } = await exec("git", ["check-ignore", "--no-index", "screenshots/approval.png"], { cwd: PROJECT_ROOT });
		expect(output.trim()).toBe("screenshots/approval.png");
	});

	test("every test, bench and script copies the demo vault through the committed copy, never the working tree", async () => {
		const offenders: string[] = [];
		for (const folder of ["test", "bench", "scripts"]) {
			const entries = await fs.readdir(nodePath.join(PROJECT_ROOT, folder), { recursive: true });
			for (const entry of entries) {
				if (!/\.(ts|mjs|js)$/.test(entry) || entry.includes("node_modules")) continue;
				const text = await fs.readFile(nodePath.join(PROJECT_ROOT, folder, entry), "utf8");
				// A path to the folder itself (quoted, or joined from parts) is a read of the working tree.
				if (
					/(\.\.\/)+demo-vault\b|,\s*["'`]demo-vault["'`]\s*\)/.test(text) &&
					!entry.endsWith("committedDemoVault.ts") &&
					!entry.endsWith("testHygiene.test.ts")
				)
					offenders.push(`${folder}/${entry}`);
			}
		}
		expect(offenders).toEqual([]);
	});
});

describe("the tests' wait helper", () => {
	test("until throws, naming what it waited for, when the condition never holds; it returns once it does", async () => {
		await expect(until(() => false, 100)).rejects.toThrow(/did not hold within 100 ms: \(\) => false/);
		let calls = 0;
		await expect(until(() => ++calls >= 3, 5000)).resolves.toBeUndefined();
		expect(calls).toBe(3);
	});
});
