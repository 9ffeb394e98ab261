/**
 * A journal line is text on disk anyone with the vault can edit: undo of a rename must not take a planted or edited
 * `movedFromOnDisk` (asks189: the name the note had on disk, when the disk spelt `movedFrom` otherwise) as where to put the
 * note. Only another Unicode spelling of `movedFrom` itself may be used; one naming another place (outside the vault, `..`,
 * an excluded or hidden folder, another note) refuses the undo whole, nothing moved, and the line put back as written
 * undoes as before. Headless: a rename over HTTP, the journal line edited, undone as the CLI's `undo` opens the vault.
 * Cost: one headless server, one rename, seven undos on a fresh host.
 */
import { promises as fs } from "node:fs";
import * as nodePath from "node:path";
import { NodeHost } from "../../src/headless/NodeHost";
import { JournalFile, journalPathFor } from "../../src/journal/JournalFile";
import { undoCall } from "../../src/journal/undo";
import { connectClient } from "../helpers/http";
import { startService } from "../helpers/service";
import { callOk } from "../helpers/tools";
import { makeVault, removeDir } from "../helpers/vault";

/** Every file under `root` as the disk spells it (NFD's mark shown escaped), with its text, sorted. */
async function filesOnDisk(root: string): Promise<string[]> {
	const found: string[] = [];
	for (const entry of await fs.readdir(root, { recursive: true, withFileTypes: true })) {
		if (!entry.isFile()) continue;
		const path = nodePath.relative(root, nodePath.join(entry.parentPath, entry.name));
		if (path.startsWith(".obsidian")) continue;
		found.push(`${path.replace(/\u0301/gu, "\\u0301")}: ${await fs.readFile(nodePath.join(root, path), "utf8")}`);
	}
	return found.sort();
}

const PLANTED = ["../Cafe\u0301.md", "Private/Cafe\u0301.md", ".hidden/Cafe\u0301.md", "Other.md", "Cafe\u0301.md/../../x.md", "Private/../Cafe\u0301.md"];

test("undo of a rename refuses a journal line whose name on disk is not a spelling of the path it was moved from", async () => {
	const outside = await makeVault({});
	const vault = await makeVault({ "Cafe\u0301.md": "nfd\n", "Private/keep.md": "kept\n", ".hidden/h.md": "hidden\n" });
	const running = await startService(vault, {
		levels: ["write"],
		settings: { writeEnabled: true, writeDisclosureAccepted: true, excludedFolders: ["Private"] },
	});
	const client = await connectClient(running.url, running.tokens.write ?? "");
	try {
		await callOk(client, "rename_note", { path: "Caf\u00e9.md", new_path: "Renamed.md" });
		const [rename] = running.journal.list(1);
		if (rename === undefined) throw new Error("no journal entry");
		await client.close();
		await running.stop();
		const journalPath = journalPathFor(vault, ".obsidian");
		const written = await fs.readFile(journalPath, "utf8");
		// The line as recorded names the NFD spelling (JSON may escape it or not).
		const recorded = /"movedFromOnDisk":"(?:Cafe\u0301|Cafe\\u0301)\.md"/gu;
		expect(written).toMatch(recorded);
		const before = await filesOnDisk(vault);
		for (const planted of [...PLANTED, nodePath.join(outside, "Cafe\u0301.md")]) {
			await fs.writeFile(journalPath, written.replace(recorded, `"movedFromOnDisk":${JSON.stringify(planted)}`));
			const host = await NodeHost.open(vault, { metadata: false });
			const journal = JournalFile.forVault(vault, ".obsidian");
			try {
				const outcome = await undoCall(host, journal, rename.id, undefined, ["Private"]);
				expect({ planted, ok: outcome.ok }).toEqual({ planted, ok: false });
			} finally {
				journal.close?.();
				await host.close();
			}
			expect(await filesOnDisk(vault)).toEqual(before);
			expect(await filesOnDisk(outside)).toEqual([]);
		}
		// The line as written: undone, back under its NFD name.
		await fs.writeFile(journalPath, written);
		const host = await NodeHost.open(vault, { metadata: false });
		const journal = JournalFile.forVault(vault, ".obsidian");
		try {
			expect(await undoCall(host, journal, rename.id, undefined, ["Private"])).toMatchObject({ ok: true });
		} finally {
			journal.close?.();
			await host.close();
		}
		expect(await filesOnDisk(vault)).toEqual([".hidden/h.md: hidden\n", "Cafe\\u0301.md: nfd\n", "Private/keep.md: kept\n"]);
	} finally {
		await client.close();
		await running.stop();
		await removeDir(vault);
		await removeDir(outside);
	}
});

test.each([
	["in NFD, the spelling the journal names", "Cafe\u0301.md"],
	["in NFC, the vault path's spelling", "Caf\u00e9.md"],
])("undo of a rename never replaces a file made since at the old name %s", async (_, madeSince) => {
	const vault = await makeVault({ "Cafe\u0301.md": "nfd\n" });
	const running = await startService(vault, { levels: ["write"], settings: { writeEnabled: true, writeDisclosureAccepted: true } });
	const client = await connectClient(running.url, running.tokens.write ?? "");
	try {
		await callOk(client, "rename_note", { path: "Caf\u00e9.md", new_path: "Renamed.md" });
		const [rename] = running.journal.list(1);
		if (rename === undefined) throw new Error("no journal entry");
		await client.close();
		await running.stop();
		await fs.writeFile(nodePath.join(vault, madeSince), "made since\n");
		const before = await filesOnDisk(vault);
		const host = await NodeHost.open(vault, { metadata: false });
		const journal = JournalFile.forVault(vault, ".obsidian");
		try {
			const outcome = await undoCall(host, journal, rename.id);
			if (outcome.ok) expect(outcome.notes.map((note) => note.result)).not.toContain("moved back");
		} finally {
			journal.close?.();
			await host.close();
		}
		// Every file there before is there still, as it was (undo may leave a copy of the old text beside them).
		expect(await filesOnDisk(vault)).toEqual(expect.arrayContaining(before));
	} finally {
		await client.close();
		await running.stop();
		await removeDir(vault);
	}
});
