/**
 * A folder named on disk in NFD (as macOS names it; the vault copied or synced to Linux) is known by its NFC spelling, as
 * Obsidian's paths are. Headless, a note made in it, moved into it, or moved back by undo went to a second folder of the
 * same name beside it (NodeVault spelt the path as asked, and on Linux the NFC spelling named no folder): review181.
 * Cost: one headless server, five writes and an undo.
 */
import { promises as fs, readFileSync } from "node:fs";
import * as nodePath from "node:path";
import { undoCall } from "../../src/journal/undo";
import { connectClient } from "../helpers/http";
import { startService } from "../helpers/service";
import { callOk } from "../helpers/tools";
import { makeVault, removeDir } from "../helpers/vault";

const NFD = "Cafe\u0301";
const NFC = "Caf\u00e9";

/** Every file under `root` but hidden ones, its path as the disk spells it (NFD shown as \u0301), and its text. */
async function onDisk(root: string, under = ""): Promise<string[]> {
	const found: string[] = [];
	for (const entry of await fs.readdir(nodePath.join(root, under), { withFileTypes: true })) {
		if (entry.name.startsWith(".")) continue;
		const path = under === "" ? entry.name : `${under}/${entry.name}`;
		if (entry.isDirectory()) found.push(...(await onDisk(root, path)));
		else found.push(`${path.replace(/\u0301/gu, "\\u0301")} ${JSON.stringify(readFileSync(nodePath.join(root, path), "utf8"))}`);
	}
	return found.sort();
}

test("a note made in, moved into or moved back into a folder named in NFD on disk goes into that folder, not a second one", async () => {
	const vault = await makeVault({ [`${NFD}/Inner.md`]: "inner\n", [`${NFD}.md`]: "note\n" });
	const running = await startService(vault, { levels: ["write"], settings: { writeEnabled: true, writeDisclosureAccepted: true } });
	const client = await connectClient(running.url, running.tokens.write ?? "");
	try {
		await callOk(client, "append_to_note", { path: `${NFC}/Inner.md`, content: "more" });
		await callOk(client, "create_note", { path: `${NFC}/New.md`, content: "new" });
		await callOk(client, "create_note", { path: `${NFC}/Sub/Deep.md`, content: "deep" });
		await callOk(client, "rename_note", { path: `${NFC}.md`, new_path: `${NFC}/Moved.md` });
		await callOk(client, "rename_note", { path: `${NFC}/Inner.md`, new_path: "Out.md" });
		expect(await onDisk(vault)).toEqual([
			'Cafe\\u0301/Moved.md "note\\n"',
			'Cafe\\u0301/New.md "new\\n"',
			'Cafe\\u0301/Sub/Deep.md "deep\\n"',
			'Out.md "inner\\n\\nmore\\n"',
		]);
		// Moved back by undo: into the folder it came from.
		const [lastRename] = running.journal.list(1);
		if (lastRename === undefined) throw new Error("no journal entry");
		expect(await undoCall(running.host, running.journal, lastRename.id)).toMatchObject({ ok: true });
		expect(await onDisk(vault)).toContain('Cafe\\u0301/Inner.md "inner\\n\\nmore\\n"');
		expect((await onDisk(vault)).filter((line) => line.startsWith(NFC))).toEqual([]);
		// Each is read at its NFC path, as Obsidian names it.
		for (const path of [`${NFC}/Inner.md`, `${NFC}/New.md`, `${NFC}/Sub/Deep.md`, `${NFC}/Moved.md`])
			expect(await callOk(client, "read_note", { path })).toMatchObject({ path });
	} finally {
		await client.close();
		await running.stop();
		await removeDir(vault);
	}
});

test("a folder whose name on disk mixes the two spellings (one letter composed, one not) is written into, not beside", async () => {
	// `Café Über` with its é decomposed and its Ü composed: neither the NFC nor the NFD spelling names it. On the base both looks
	// missed (lead19's last re-read), and the note went to a second folder `Café Über` (NFC) beside it.
	const mixedOnDisk = "Cafe\u0301 \u00dcber";
	const asked = "Caf\u00e9 \u00dcber";
	const vault = await makeVault({ [`${mixedOnDisk}/Inner.md`]: "inner\n", "Out.md": "out\n" });
	const running = await startService(vault, { levels: ["write"], settings: { writeEnabled: true, writeDisclosureAccepted: true } });
	const client = await connectClient(running.url, running.tokens.write ?? "");
	try {
		await callOk(client, "create_note", { path: `${asked}/New.md`, content: "new" });
		await callOk(client, "rename_note", { path: "Out.md", new_path: `${asked}/Moved.md` });
		expect((await fs.readdir(vault)).filter((name) => !name.startsWith("."))).toEqual([mixedOnDisk]);
		expect((await fs.readdir(nodePath.join(vault, mixedOnDisk))).sort()).toEqual(["Inner.md", "Moved.md", "New.md"]);
	} finally {
		await client.close();
		await running.stop();
		await removeDir(vault);
	}
});
