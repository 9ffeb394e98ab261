import { promises as fs, readFileSync } from "node:fs";
import * as nodePath from "node:path";
import { NodeHost } from "../../src/headless/NodeHost";
import type { LinkMap } from "../../src/host/Host";
import { OBSIDIAN_CACHE_DIR, TASKS_DEMO_VAULT, copyVault, removeDir } from "../helpers/vault";

const capturedResolved = JSON.parse(readFileSync(nodePath.join(OBSIDIAN_CACHE_DIR, "metadataCache/resolvedLinks.json"), "utf8")) as LinkMap;
const capturedUnresolved = JSON.parse(readFileSync(nodePath.join(OBSIDIAN_CACHE_DIR, "metadataCache/unresolvedLinks.json"), "utf8")) as LinkMap;

/**
 * The vault Obsidian saw held six binary attachments (PNG screenshots and a PDF) that the shared
 * copy leaves out. Links to them resolve in the capture, so the test puts empty files at those
 * paths: the link maps depend on a file existing, never on its bytes.
 */
async function restoreLeftOutAttachments(root: string): Promise<string[]> {
	const targets = new Set(Object.values(capturedResolved).flatMap((targets) => Object.keys(targets)));
	const restored: string[] = [];
	for (const target of targets) {
		const diskPath = nodePath.join(root, target);
		if (await fs.stat(diskPath).catch(() => null)) continue;
		await fs.mkdir(nodePath.dirname(diskPath), { recursive: true });
		await fs.writeFile(diskPath, "");
		restored.push(target);
	}
	return restored.sort();
}

describe("resolvedLinks and unresolvedLinks for the whole tasks-demo vault", () => {
	let root: string;
	let host: NodeHost;
	let restored: string[];

	beforeAll(async () => {
		root = await copyVault(TASKS_DEMO_VAULT);
		restored = await restoreLeftOutAttachments(root);
		host = await NodeHost.open(root);
	});
	afterAll(async () => {
		await host.close();
		await removeDir(root);
	});

	test("only binary attachments had to be restored", () => {
		expect(restored.every((path) => /\.(png|pdf)$/.test(path))).toBe(true);
		expect(restored).toHaveLength(6);
	});

	test("resolvedLinks equals Obsidian's exactly", () => {
		expect(host.metadataCache.resolvedLinks).toEqual(capturedResolved);
	});

	test("unresolvedLinks equals Obsidian's exactly", () => {
		expect(host.metadataCache.unresolvedLinks).toEqual(capturedUnresolved);
	});
});
