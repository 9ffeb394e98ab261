import { promises as fs } from "node:fs";
import * as nodePath from "node:path";
import type { CachedMetadata } from "obsidian";
import { NodeHost } from "../../src/headless/NodeHost";
import type { JournalCall } from "../../src/journal/entry";
import { JournalFile } from "../../src/journal/JournalFile";
import { runCli, startServe } from "../helpers/cli";
import { SimulatedTool } from "../helpers/journal";
import { makeVault, removeDir } from "../helpers/vault";

/**
 * Notes a hostile author plants: frontmatter nested 130,000 deep (once enough to abort the
 * process at start, in `inspect` and in `undo`), nested blocks and dashes, an alias bomb, and a
 * task line whose depends-on ids once took 21 s to read. Each still has a link in its body.
 */
function hostileNote(index: number): string {
	const frontmatter = [
		`a: ${"[".repeat(130_000)}`,
		Array.from({ length: 200 }, (_unused, level) => `${" ".repeat(level)}k${level}:`).join("\n") + " leaf",
		`a:\n  ${"- ".repeat(5_000)}x`,
		[
			"a: &a [x, x, x, x, x, x, x, x, x, x]",
			...Array.from(
				{ length: 9 },
				(_unused, level) =>
					`b${level}: &b${level} [${Array(10)
						.fill(level === 0 ? "*a" : `*b${level - 1}`)
						.join(", ")}]`,
			),
		].join("\n"),
	][index % 4];
	return `---\n${frontmatter}\n---\n# Hostile ${index}\n- [ ] task ⛔ ${"a , ".repeat(2_000)}! [[Home]]\n`;
}

describe("a vault with 50 hostile notes: serve, inspect and undo start and work (built CLI)", () => {
	let root: string;
	let created: JournalCall;

	beforeAll(async () => {
		const files: Record<string, string> = { "Home.md": "# Home\n[[Hostile 0]]\n" };
		for (let index = 0; index < 50; index++) files[`Hostile ${index}.md`] = hostileNote(index);
		root = await makeVault(files);
		// One of them written by a journalled create, as a write token would have: undo must reach it.
		const host = await NodeHost.open(root);
		const tool = new SimulatedTool(host, JournalFile.forVault(root, ".obsidian"));
		created = tool.call("create_note", "laptop");
		await tool.create(created, "Planted.md", hostileNote(0));
		await host.close();
	}, 120_000);
	afterAll(async () => removeDir(root));

	test("serve starts and listens, and stops cleanly", async () => {
		const serving = await startServe([root, "--port", "0"], 60_000);
		expect(serving.port).toBeGreaterThan(0);
		expect(await serving.stop("SIGTERM")).toBe(0);
	}, 90_000);

	test("inspect of a hostile note exits 0: no properties, its link and heading read", async () => {
		const result = await runCli(["inspect", root, "Hostile 0.md"]);
		expect(result.code).toBe(0);
		const cache = JSON.parse(result.stdout) as CachedMetadata;
		expect(cache.frontmatter).toBeUndefined();
		expect(cache.links?.map((link) => link.link)).toEqual(["Home"]);
		expect(cache.headings?.map((heading) => heading.heading)).toEqual(["Hostile 0"]);
		const links = await runCli(["inspect", root, "--links"]);
		expect(links.code).toBe(0);
		expect((JSON.parse(links.stdout) as { resolvedLinks: Record<string, Record<string, number>> }).resolvedLinks["Hostile 7.md"]).toEqual({ "Home.md": 1 });
	}, 90_000);

	test("undo of the journalled hostile create moves it to the trash", async () => {
		const result = await runCli(["undo", root, created.id]);
		expect(result.code).toBe(0);
		expect(result.stdout).toContain('moved "Planted.md" to the trash');
		await expect(fs.stat(nodePath.join(root, "Planted.md"))).rejects.toMatchObject({ code: "ENOENT" });
	}, 90_000);
});
