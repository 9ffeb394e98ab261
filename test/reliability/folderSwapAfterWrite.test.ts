import { existsSync, renameSync, symlinkSync } from "node:fs";
import { promises as fs } from "node:fs";
import * as nodePath from "node:path";
import { FolderJail } from "../../src/host/FolderJail";
import { connectClient } from "../helpers/http";
import { startService } from "../helpers/service";
import { callTool } from "../helpers/tools";
import { makeTempDir, makeVault, removeDir } from "../helpers/vault";

/**
 * Another program swaps the folder a note was just written into for a link to a folder outside
 * the vault, right before the server checks that folder again. The server then takes back what it
 * wrote: but through the link, the note's name now names a file outside the vault with the same
 * name. That file must be left alone: neither removed (a create taken back) nor moved into the
 * vault (a move put back), where a token could read it.
 */
describe.each([
	["create_note", { path: "Inbox/New.md", content: "# New\n" }],
	["rename_note", { path: "Notes/Old.md", new_path: "Inbox/New.md" }],
])("%s: a folder swapped for an outside link after the write", (tool, args) => {
	test("the outside file of the same name is left where it is, as it was", async () => {
		const vault = await makeVault({ "Notes/Old.md": "# Old\n", "Inbox/Keep.md": "keep\n" });
		const outside = await makeTempDir("folder-swap-outside-");
		await fs.writeFile(nodePath.join(outside, "New.md"), "outside secret\n");
		const running = await startService(vault, { levels: ["write"], settings: { writeEnabled: true, writeDisclosureAccepted: true } });
		const client = await connectClient(running.url, running.tokens.write ?? "");
		const inbox = nodePath.join(running.host.vault.root, "Inbox");
		// eslint-disable-next-line @typescript-eslint/unbound-method -- called below with the jail as `this`
		const original = FolderJail.prototype.isFolderReal;
		let swapped = false;
		const spy = jest.spyOn(FolderJail.prototype, "isFolderReal").mockImplementation(function (this: FolderJail, folder: string) {
			// The other program acts once the note is in the folder, before the server looks at the folder again.
			if (!swapped && folder === inbox && existsSync(nodePath.join(inbox, "New.md"))) {
				renameSync(inbox, `${inbox}-moved`);
				symlinkSync(outside, inbox);
				swapped = true;
			}
			return original.call(this, folder);
		});
		try {
			const answer = await callTool(client, tool, args);
			expect(swapped).toBe(true);
			expect(answer.ok).toBe(false);
			expect(await fs.readFile(nodePath.join(outside, "New.md"), "utf8")).toBe("outside secret\n");
			spy.mockRestore();
			const read = await callTool(client, "read_note", { path: "Notes/Old.md" });
			expect(JSON.stringify(read)).not.toContain("outside secret");
		} finally {
			spy.mockRestore();
			await client.close();
			await running.stop();
			await removeDir(vault);
			await removeDir(outside);
		}
	});
});
