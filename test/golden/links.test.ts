import { readdirSync, readFileSync } from "node:fs";
import * as nodePath from "node:path";
import { NodeHost } from "../../src/headless/NodeHost";
import type { LinkMap } from "../../src/host/Host";
import { linkpathOf } from "../../src/markdown/inline";
import { OBSIDIAN_CACHE_DIR, TASKS_DEMO_VAULT, copyVault, removeDir, restoreLeftOutAttachments } from "../helpers/vault";

const capturedResolved = JSON.parse(readFileSync(nodePath.join(OBSIDIAN_CACHE_DIR, "metadataCache/resolvedLinks.json"), "utf8")) as LinkMap;
const capturedUnresolved = JSON.parse(readFileSync(nodePath.join(OBSIDIAN_CACHE_DIR, "metadataCache/unresolvedLinks.json"), "utf8")) as LinkMap;

/**
 * Where Obsidian resolved each link text of a captured note (`getFirstLinkpathDest` of the text
 * before its first `#`, from the note), as [note, link text, target path or null].
 */
const capturedResolutions: Array<[string, string, string | null]> = readdirSync(OBSIDIAN_CACHE_DIR)
	.filter((name) => name.endsWith(".json"))
	.sort()
	.flatMap((name) => {
		const capture = JSON.parse(readFileSync(nodePath.join(OBSIDIAN_CACHE_DIR, name), "utf8")) as {
			filePath: string;
			resolveLinkToPath?: Record<string, string | null>;
		};
		return Object.entries(capture.resolveLinkToPath ?? {}).map(([link, target]): [string, string, string | null] => [capture.filePath, link, target]);
	});

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

	test("getFirstLinkpathDest reaches the file Obsidian's did for each captured link text (the note itself for a bare #heading; null where Obsidian found none)", () => {
		expect(capturedResolutions.length).toBeGreaterThanOrEqual(40);
		const ours = capturedResolutions.map(([source, link]) => [
			source,
			link,
			host.metadataCache.getFirstLinkpathDest(linkpathOf(link), source)?.path ?? null,
		]);
		expect(ours).toEqual(capturedResolutions);
	});
});
