import { linkSync, promises as fs } from "node:fs";
import * as nodePath from "node:path";
import { DiskWriter } from "../../src/headless/DiskWriter";
import { connectClient } from "../helpers/http";
import { startService } from "../helpers/service";
import { callTool } from "../helpers/tools";
import { makeTempDir, makeVault, removeDir } from "../helpers/vault";

/**
 * Another program gives a note a second name (a hard link, here outside the vault) after the
 * server read it for an append, before the append's bytes go in. Appending in place would put
 * them under that other name too; the note gets a file of its own instead, and the other name
 * keeps what it had.
 */
test("append_to_note: a hard link made to the note while the append is computed is not written through", async () => {
	const vault = await makeVault({ "Notes/Plan.md": "# Plan\n\n- one\n" });
	const outside = await makeTempDir("hardlink-outside-");
	const elsewhere = nodePath.join(outside, "copy.md");
	const note = nodePath.join(vault, "Notes/Plan.md");
	const running = await startService(vault, { levels: ["write"], settings: { writeEnabled: true, writeDisclosureAccepted: true } });
	const client = await connectClient(running.url, running.tokens.write ?? "");
	// eslint-disable-next-line @typescript-eslint/unbound-method -- called below with the writer as `this`
	const original = DiskWriter.prototype.editOnce;
	let linked = false;
	// The other program's link lands between the server's read and its write (the edit's own computation).
	const spy = jest.spyOn(DiskWriter.prototype, "editOnce").mockImplementation(function (this: DiskWriter, diskPath, fn) {
		return original.call(this, diskPath, (text) => {
			if (diskPath === note && !linked) {
				linkSync(note, elsewhere);
				linked = true;
			}
			return fn(text);
		});
	});
	try {
		const answer = await callTool(client, "append_to_note", { path: "Notes/Plan.md", content: "- two" });
		expect(answer.ok).toBe(true);
		expect(await fs.readFile(note, "utf8")).toBe("# Plan\n\n- one\n- two\n");
		expect(await fs.readFile(elsewhere, "utf8")).toBe("# Plan\n\n- one\n");
	} finally {
		spy.mockRestore();
		await client.close();
		await running.stop();
		await removeDir(vault);
		await removeDir(outside);
	}
});
