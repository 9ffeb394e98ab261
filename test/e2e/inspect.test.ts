import { readFileSync } from "node:fs";
import * as nodePath from "node:path";
import type { CachedMetadata } from "obsidian";
import { runCli } from "../helpers/cli";
import { OBSIDIAN_CACHE_DIR, TASKS_DEMO_VAULT, copyVault, removeDir, restoreLeftOutAttachments } from "../helpers/vault";

const readCapture = (name: string) => JSON.parse(readFileSync(nodePath.join(OBSIDIAN_CACHE_DIR, name), "utf8")) as Record<string, unknown>;

describe("vault-mcp inspect", () => {
	let root: string;
	beforeAll(async () => {
		root = await copyVault(TASKS_DEMO_VAULT);
		await restoreLeftOutAttachments(root);
	});
	afterAll(async () => removeDir(root));

	test("--links prints exactly Obsidian's resolvedLinks and unresolvedLinks for tasks-demo", async () => {
		const result = await runCli(["inspect", root, "--links"]);
		expect(result.code).toBe(0);
		expect(JSON.parse(result.stdout)).toEqual({
			resolvedLinks: readCapture("metadataCache/resolvedLinks.json"),
			unresolvedLinks: readCapture("metadataCache/unresolvedLinks.json"),
		});
	});

	test("a note path prints that note's CachedMetadata in Obsidian's shape", async () => {
		const capture = readCapture("all_link_types.json") as { filePath: string; cachedMetadata: CachedMetadata };
		const result = await runCli(["inspect", root, capture.filePath]);
		expect(result.code).toBe(0);
		expect(JSON.parse(result.stdout)).toEqual(capture.cachedMetadata);
	});

	test("a note path with --links prints that note's entries of Obsidian's two maps, read from that note alone", async () => {
		const resolved = readCapture("metadataCache/resolvedLinks.json") as Record<string, Record<string, number>>;
		const unresolved = readCapture("metadataCache/unresolvedLinks.json") as Record<string, Record<string, number>>;
		// The notes with the most links, resolved and not.
		const linkCount = (path: string) => Object.keys(resolved[path] ?? {}).length + 2 * Object.keys(unresolved[path] ?? {}).length;
		const notes = Object.keys(resolved)
			.filter((path) => path.endsWith(".md"))
			.sort((a, b) => linkCount(b) - linkCount(a))
			.slice(0, 3);
		expect(notes.some((path) => Object.keys(unresolved[path] ?? {}).length > 0)).toBe(true);
		for (const path of notes) {
			const result = await runCli(["inspect", root, path, "--links"]);
			expect(result.code).toBe(0);
			expect(JSON.parse(result.stdout)).toEqual({ resolvedLinks: { [path]: resolved[path] }, unresolvedLinks: { [path]: unresolved[path] } });
		}
	});

	test("a missing note exits 1 with a message; no note and no --links is a usage error", async () => {
		const missing = await runCli(["inspect", root, "No such note.md"]);
		expect(missing.code).toBe(1);
		expect(missing.stderr).toContain("No Markdown note");
		expect((await runCli(["inspect", root])).code).toBe(2);
	});
});
