import { readFileSync } from "node:fs";
import * as nodePath from "node:path";
import { NodeHost } from "../../src/headless/NodeHost";
import type { LinkMap } from "../../src/host/Host";
import { OBSIDIAN_CACHE_DIR, TASKS_DEMO_VAULT, copyVault, removeDir, restoreLeftOutAttachments } from "../helpers/vault";

const capturedResolved = JSON.parse(readFileSync(nodePath.join(OBSIDIAN_CACHE_DIR, "metadataCache/resolvedLinks.json"), "utf8")) as LinkMap;
const capturedUnresolved = JSON.parse(readFileSync(nodePath.join(OBSIDIAN_CACHE_DIR, "metadataCache/unresolvedLinks.json"), "utf8")) as LinkMap;

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
