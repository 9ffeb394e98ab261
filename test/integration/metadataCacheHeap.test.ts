import { promises as fs } from "node:fs";
import * as nodePath from "node:path";
import { NodeHost } from "../../src/headless/NodeHost";
import { parseMetadata } from "../../src/markdown/metadata";
import { heapAfterGc } from "../helpers/gc";
import { copyVault, makeTempDir, readAllFiles, removeDir, TASKS_DEMO_VAULT } from "../helpers/vault";

/** The headless cache may not keep every note's text alive, by a slice (a heading, a link) or by a copy. */
describe("the headless metadata cache's memory", () => {
	test("on tasks-demo every note's cached metadata is exactly what parsing its text gives", async () => {
		const root = await copyVault(TASKS_DEMO_VAULT);
		const host = await NodeHost.open(root);
		try {
			const notes = (await readAllFiles(root)).filter((note) => note.path.endsWith(".md"));
			expect(notes.length).toBeGreaterThan(150);
			// The cache keeps its entries compact (positions behind getters): their JSON, key order included, is the plain metadata's.
			for (const note of notes)
				expect(JSON.stringify(host.metadataCache.getCache(nodePath.relative(root, note.path).split(nodePath.sep).join("/")))).toBe(
					JSON.stringify(parseMetadata(note.text)),
				);
		} finally {
			await host.close();
			await removeDir(root);
		}
	});

	test("200 notes of 40 KB (8 MB, each with long headings and links): the cache's heap is under half the notes' size", async () => {
		const root = await makeTempDir();
		let corpusBytes = 0;
		for (let index = 0; index < 200; index++) {
			const body = Array.from(
				{ length: 400 },
				(_, line) => `Line ${line} of note ${index}, with words that make it about a hundred characters long.`,
			).join("\n");
			const text = `# A heading long enough to be a slice ${index}\n\nSee [[A note with a long name ${index + 1}]] #project/alpha\n\n${body}\n`;
			corpusBytes += Buffer.byteLength(text);
			await fs.writeFile(nodePath.join(root, `A note with a long name ${index}.md`), text);
		}
		const before = await heapAfterGc();
		const host = await NodeHost.open(root);
		try {
			const growth = (await heapAfterGc()) - before;
			// When the cache kept slices of the text, every text stayed (about 1× here) and the metadata came on top.
			expect(growth).toBeLessThan(corpusBytes / 2);
			expect(host.metadataCache.getCache("A note with a long name 7.md")?.headings?.[0]?.heading).toBe("A heading long enough to be a slice 7");
			expect(host.metadataCache.resolvedLinks["A note with a long name 7.md"]).toEqual({ "A note with a long name 8.md": 1 });
		} finally {
			await host.close();
			await removeDir(root);
		}
	});
});
