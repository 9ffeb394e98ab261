import { existsSync, renameSync, symlinkSync } from "node:fs";
import { promises as fs } from "node:fs";
import * as nodePath from "node:path";
import { FolderJail } from "../../src/host/FolderJail";
import { undoCall } from "../../src/journal/undo";
import { connectClient } from "../helpers/http";
import { startService } from "../helpers/service";
import { callTool } from "../helpers/tools";
import { makeTempDir, makeVault, removeDir } from "../helpers/vault";

/**
 * Undo of `create_note` moves the note to the vault's `.trash`. Another program swaps `.trash`
 * for a link to a folder outside the vault once the server made it, before the move: the note
 * must not leave the vault through it, and nothing must be left there.
 */
test("undo of create_note: a trash folder swapped for a link to an outside folder gets neither the note nor an empty file", async () => {
	const vault = await makeVault({ "Notes/Keep.md": "keep\n" });
	const outside = await makeTempDir("trash-swap-outside-");
	const running = await startService(vault, { levels: ["write"], settings: { writeEnabled: true, writeDisclosureAccepted: true } });
	const client = await connectClient(running.url, running.tokens.write ?? "");
	const trash = nodePath.join(running.host.vault.root, ".trash");
	// eslint-disable-next-line @typescript-eslint/unbound-method -- called below with the jail as `this`
	const original = FolderJail.prototype.makeFolders;
	let swapped = false;
	const spy = jest.spyOn(FolderJail.prototype, "makeFolders").mockImplementation(async function (this: FolderJail, folder: string) {
		await original.call(this, folder);
		// The other program acts once the server made (and checked) the trash folder.
		if (!swapped && folder === trash && existsSync(trash)) {
			renameSync(trash, `${trash}-moved`);
			symlinkSync(outside, trash);
			swapped = true;
		}
	});
	try {
		const created = await callTool(client, "create_note", { path: "Inbox/Secret plan.md", content: "# Secret plan\n\nthe vault's own words\n" });
		expect(created.ok).toBe(true);
		const [entry] = running.journal.list(1);
		await undoCall(running.host, running.journal, entry?.id ?? "").catch(() => undefined);
		expect(swapped).toBe(true);
		expect(await fs.readdir(outside)).toEqual([]);
		expect(await fs.readFile(nodePath.join(vault, "Inbox/Secret plan.md"), "utf8")).toBe("# Secret plan\n\nthe vault's own words\n");
	} finally {
		spy.mockRestore();
		await client.close();
		await running.stop();
		await removeDir(vault);
		await removeDir(outside);
	}
});
