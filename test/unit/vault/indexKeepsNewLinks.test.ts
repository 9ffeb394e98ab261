import { noteGraphLinks } from "../../../src/vault/links";
import { sharedNoteMemo } from "../../../src/vault/noteMemo";
import type { Scope } from "../../../src/vault/scope";
import { IndexedNoteSearch } from "../../../src/vault/search";
import { openVault, type OpenVault } from "../../helpers/hostVault";

/**
 * The search index keeps what each note's links add to the graph counts, so a count reads them
 * instead of checking each target against the excluded folders again. The headless host, like
 * Obsidian, reports a note's `changed` before its links are resolved again: kept at `changed`, they
 * were the links from before the change, and the first count after it checked them all again.
 */
describe("after a write adds a link, the index keeps the note's new links", () => {
	let vault: OpenVault;
	let index: IndexedNoteSearch;
	/** Paths checked against the excluded folders. */
	let checked = 0;
	let scope: Scope;

	beforeEach(async () => {
		vault = await openVault({ "A.md": "# A\n", "B.md": "# B\n", "Private/C.md": "# C\n" });
		const folders = ["Private"];
		Object.defineProperty(folders, "some", {
			value(this: string[], test: (folder: string) => boolean) {
				checked++;
				return Array.prototype.some.call(this, test);
			},
		});
		scope = { configDir: vault.host.vault.configDir, excludedFolders: folders };
		index = new IndexedNoteSearch(vault.host, scope, () => new Promise((resolve) => setImmediate(resolve)));
		index.start();
		await index.whenReady();
	});
	afterEach(async () => {
		await index.stop();
		await vault.close();
	});

	test("the note's graph count after the write reads the links the index kept: the new target, no path checked again", async () => {
		const file = vault.host.vault.getFileByPath("A.md");
		if (!file) throw new Error("no A.md");
		await vault.host.vault.process(file, (text) => `${text}See [[B]] and [[Nowhere]].\n`);
		await vault.host.metadataCache.settled();
		const kept = () => sharedNoteMemo.links.has(vault.host.metadataCache.resolvedLinks["A.md"] ?? {});
		for (let turn = 0; turn < 100 && !kept(); turn++) await new Promise((resolve) => setImmediate(resolve));
		checked = 0;
		const links = await noteGraphLinks(vault.host, scope, "A.md");
		expect(links).toEqual({ targets: { "B.md": 1 }, unresolved: 1, reresolved: false });
		// On main the links of A.md before the write (none) were kept, and B.md was checked again here.
		expect(checked).toBe(0);
	});
});
