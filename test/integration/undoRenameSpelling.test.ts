/**
 * Undo of a rename puts the note back under the name it had on disk. A note named in NFD (made on macOS, the vault synced
 * to Linux: `Cafe\u0301.md`, known by its NFC spelling `Café.md`) or with a no-break space in its name (`c\u00a0d.md`, known
 * so) went back as `Café.md` and `c d.md`: another file name, which a sync or a file manager shows as a new file (and for
 * the no-break space another vault path, so the links undo pointed back, to `c\u00a0d`, reached nothing). Headless over
 * HTTP, undone as the CLI's `undo` does (undoCall on the running host), and through a fresh NodeHost as the CLI opens it.
 * Cost: two headless servers, two renames and two undos each.
 */
import { promises as fs } from "node:fs";
import * as nodePath from "node:path";
import { NodeHost } from "../../src/headless/NodeHost";
import { JournalFile } from "../../src/journal/JournalFile";
import { undoCall } from "../../src/journal/undo";
import { connectClient } from "../helpers/http";
import { startService } from "../helpers/service";
import { callOk } from "../helpers/tools";
import { makeVault, removeDir } from "../helpers/vault";

/** Names at the vault's root as the disk spells them (NFD's mark and the no-break space shown escaped), sorted. */
async function namesOnDisk(root: string): Promise<string[]> {
	const names = (await fs.readdir(root)).filter((name) => !name.startsWith("."));
	return names.map((name) => name.replace(/\u0301/gu, "\\u0301").replace(/\u00a0/gu, "\\u00a0")).sort();
}

const FILES = { "Cafe\u0301.md": "nfd\n", "c\u00a0d.md": "no-break space\n", "Links.md": "[[Caf\u00e9]] [[c\u00a0d]]\n" };

test.each(["the running server's host", "a fresh host, as the CLI's undo opens the vault"])(
	"a renamed note named in NFD or with a no-break space goes back under its own name on disk when undone through %s",
	async (how) => {
		const vault = await makeVault(FILES);
		const running = await startService(vault, { levels: ["write"], settings: { writeEnabled: true, writeDisclosureAccepted: true } });
		const client = await connectClient(running.url, running.tokens.write ?? "");
		try {
			await callOk(client, "rename_note", { path: "Caf\u00e9.md", new_path: "Renamed NFD.md" });
			await callOk(client, "rename_note", { path: "c\u00a0d.md", new_path: "Renamed space.md" });
			expect(await namesOnDisk(vault)).toEqual(["Links.md", "Renamed NFD.md", "Renamed space.md"]);
			const renames = running.journal.list(2);
			if (how === "the running server's host") {
				for (const entry of renames) expect(await undoCall(running.host, running.journal, entry.id)).toMatchObject({ ok: true });
			} else {
				await client.close();
				await running.stop();
				const host = await NodeHost.open(vault, { metadata: false });
				const journal = JournalFile.forVault(vault, ".obsidian");
				try {
					for (const entry of renames) expect(await undoCall(host, journal, entry.id)).toMatchObject({ ok: true });
				} finally {
					journal.close?.();
					await host.close();
				}
			}
			expect(await namesOnDisk(vault)).toEqual(["Cafe\\u0301.md", "Links.md", "c\\u00a0d.md"]);
			expect(await fs.readFile(nodePath.join(vault, "Links.md"), "utf8")).toBe(FILES["Links.md"]);
		} finally {
			await client.close();
			await running.stop();
			await removeDir(vault);
		}
	},
);

/** A note named with a no-break space is known by that name: undo of a change to it was refused as "not a note Vault MCP may write". */
test("an append to a note with a no-break space in its name is undone", async () => {
	const vault = await makeVault({ "c\u00a0d.md": "no-break space\n" });
	const running = await startService(vault, { levels: ["write"], settings: { writeEnabled: true, writeDisclosureAccepted: true } });
	const client = await connectClient(running.url, running.tokens.write ?? "");
	try {
		await callOk(client, "append_to_note", { path: "c\u00a0d.md", content: "more" });
		const [append] = running.journal.list(1);
		if (append === undefined) throw new Error("no journal entry");
		expect(await undoCall(running.host, running.journal, append.id)).toMatchObject({ ok: true, notes: [{ path: "c\u00a0d.md", result: "restored" }] });
		expect(await namesOnDisk(vault)).toEqual(["c\\u00a0d.md"]);
		expect(await fs.readFile(nodePath.join(vault, "c\u00a0d.md"), "utf8")).toBe("no-break space\n");
	} finally {
		await client.close();
		await running.stop();
		await removeDir(vault);
	}
});
