import { promises as fs } from "node:fs";
import { NodeHost } from "../../../src/headless/NodeHost";
import { LinkFileIndex } from "../../../src/paths/linkResolution";
import { SCAN_BATCH_FILES } from "../../../src/config/limits";
import { countWorkPerPiece } from "../../helpers/workPieces";
import { makeVault, removeDir } from "../../helpers/vault";

/**
 * Opening a vault (before `serve`, `inspect` or `undo` answers anything) runs in pieces: the files'
 * stats are asked for a few at a time and the links resolved a run at a time, with a pause between,
 * so the server (and, in Obsidian, the app) keeps answering while a big vault is opened. Counted
 * as work between pauses, not timed: a vault of 20,002 notes showed pieces of 300–450 ms.
 */
describe("opening a vault of many notes", () => {
	const NOTES = 2_000;
	let root: string;

	beforeAll(async () => {
		const files: Record<string, string> = {};
		for (let index = 0; index < NOTES; index++) {
			files[`F${index % 4}/Note ${index}.md`] = `# Note ${index}\nsee [[Note ${(index + 1) % NOTES}]] and [[Nowhere ${index}]]\n`;
		}
		root = await makeVault(files);
	});

	afterAll(async () => {
		await removeDir(root);
	});

	test("stats files and resolves links in pieces, and finds every note and link as before", async () => {
		const pieces = countWorkPerPiece();
		const lstat = fs.lstat.bind(fs);
		const statted = jest.spyOn(fs, "lstat").mockImplementation((...args: Parameters<typeof fs.lstat>) => {
			pieces.count();
			return lstat(...args);
		});
		const resolve = Object.getOwnPropertyDescriptor(LinkFileIndex.prototype, "resolve")?.value as LinkFileIndex<never>["resolve"];
		const resolved = jest.spyOn(LinkFileIndex.prototype, "resolve").mockImplementation(function (this: LinkFileIndex<never>, ...args) {
			pieces.count();
			return resolve.apply(this, args) as never;
		});
		let host: NodeHost | undefined;
		try {
			host = await NodeHost.open(root);
		} finally {
			statted.mockRestore();
			resolved.mockRestore();
			pieces.restore();
		}
		try {
			expect(host.vault.getMarkdownFiles()).toHaveLength(NOTES);
			expect(host.metadataCache.resolvedLinks["F1/Note 5.md"]).toEqual({ "F2/Note 6.md": 1 });
			expect(host.metadataCache.unresolvedLinks["F1/Note 5.md"]).toEqual({ "Nowhere 5": 1 });
			// Every file's stats and both links of every note were counted.
			expect(pieces.perPiece.reduce((sum, count) => sum + count, 0)).toBeGreaterThanOrEqual(3 * NOTES);
			// Before: each folder's 500 files statted in one piece, and all 4,000 links resolved in one.
			expect(Math.max(...pieces.perPiece)).toBeLessThanOrEqual(SCAN_BATCH_FILES + 2);
		} finally {
			await host.close();
		}
	});
});
