/**
 * A rename rewrites each linking note through a temporary file beside it. Made on the event loop, each of those files
 * waited on the disk's journal while every other client waited too: a rename of a note linked from 3,000 notes spent
 * 1.4–6.1 s of its loop time making them under other programs' writes, up to 580 ms for one (loop99). They are made
 * through the thread pool now; the rename still relinks every note, and no temporary file is left behind.
 */
import { promises as fs } from "node:fs";
import * as nodePath from "node:path";
import { connectClient } from "../helpers/http";
import { countLoopFileCreates } from "../helpers/loopFileCreates";
import { settingsWithWriteTokens, startService } from "../helpers/service";
import { callOk } from "../helpers/tools";
import { makeVault, readAllFiles, removeDir } from "../helpers/vault";

const LINKERS = 24;

test("a rename makes no file on the event loop, and relinks every note", async () => {
	const files: Record<string, string> = { "Hub.md": "# Hub\n" };
	for (let index = 0; index < LINKERS; index++) files[`Linkers/L${index}.md`] = `# L${index}\nSee [[Hub]] and [[Hub#Hub|the hub]].\n`;
	const vault = await makeVault(files);
	const running = await startService(vault, { levels: ["write"], settings: settingsWithWriteTokens([]).settings });
	const client = await connectClient(running.url, running.tokens.write ?? "");
	try {
		await running.host.metadataCache.settled?.();
		const creates = countLoopFileCreates(vault, ".obsidian");
		let answer: { notes_updated: number; links_updated: number };
		try {
			answer = await callOk(client, "rename_note", { path: "Hub.md", new_path: "Archive/Centre.md" });
		} finally {
			creates.restore();
		}
		// One for each linking note (its temporary file) on f2c844d0.
		expect(creates.count()).toBe(0);
		expect(answer).toMatchObject({ notes_updated: LINKERS, links_updated: 2 * LINKERS });
		const onDisk = await readAllFiles(vault);
		const linkers = onDisk.filter((file) => nodePath.relative(vault, file.path).startsWith("Linkers"));
		expect(linkers).toHaveLength(LINKERS);
		for (const linker of linkers) expect(linker.text).toMatch(/See \[\[Centre\]\] and \[\[Centre#Hub\|the hub\]\]\.\n$/);
		expect(onDisk.filter((file) => file.path.endsWith(".tmp"))).toEqual([]);
		await expect(fs.stat(nodePath.join(vault, "Hub.md"))).rejects.toMatchObject({ code: "ENOENT" });
	} finally {
		await client.close();
		await running.stop();
		await removeDir(vault);
	}
});
