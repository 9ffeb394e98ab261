import * as nodeFs from "node:fs";
import { promises as fs } from "node:fs";
import * as nodePath from "node:path";
import { NOTE_TEXT_PIECE_CHARS } from "../../src/config/limits";
import { connectClient } from "../helpers/http";
import { startService } from "../helpers/service";
import { callTool } from "../helpers/tools";
import { makeTempDir, makeVault, removeDir } from "../helpers/vault";

/**
 * A headless edit of a note over NOTE_TEXT_PIECE_CHARS reads it a piece at a time, giving the event
 * loop back between pieces, and only then makes its temporary file beside the note. Another program
 * has all that time to swap the note's folder for a link to a folder outside the vault: the
 * temporary file, holding the note's new text, must never be made (and left) there.
 */
test("set_property on a long note whose folder is swapped for a link out of the vault while it is read: nothing of the note is written outside", async () => {
	const lines = Array.from({ length: Math.ceil((3 * NOTE_TEXT_PIECE_CHARS) / 40) }, (_, index) => `- line ${index} of the long plan\n`);
	const vault = await makeVault({ "Notes/Plan.md": `# Plan\n\n${lines.join("")}` });
	const outside = await makeTempDir("edit-pieces-outside-");
	const running = await startService(vault, { levels: ["write"], settings: { writeEnabled: true, writeDisclosureAccepted: true } });
	const client = await connectClient(running.url, running.tokens.write ?? "");
	const root = running.host.vault.root;
	const folder = nodePath.join(root, "Notes");
	const moved = nodePath.join(root, "Notes-real");
	const original = nodeFs.openSync;
	const originalWrite = nodeFs.writeSync;
	let swapped = false;
	let swappedBack = false;
	// eslint-disable-next-line @typescript-eslint/no-require-imports -- jest can spy only on the CommonJS module object
	const fsModule = require("node:fs") as typeof nodeFs;
	// While the note is read (before its temporary file is made) the other program swaps the folder for a link out of the vault…
	const openSpy = jest.spyOn(fsModule, "openSync").mockImplementation(((path: nodeFs.PathLike, ...rest: unknown[]) => {
		if (!swapped && typeof path === "string" && nodePath.basename(path).startsWith(".vault-mcp-")) {
			swapped = true;
			nodeFs.renameSync(folder, moved);
			nodeFs.symlinkSync(outside, folder);
		}
		return (original as (...args: unknown[]) => number)(path, ...rest);
	}) as typeof nodeFs.openSync);
	// …and back again once the server starts writing the new text.
	const writeSpy = jest.spyOn(fsModule, "writeSync").mockImplementation(((...args: unknown[]) => {
		if (swapped && !swappedBack) {
			swappedBack = true;
			nodeFs.unlinkSync(folder);
			nodeFs.renameSync(moved, folder);
		}
		return (originalWrite as (...a: unknown[]) => number)(...args);
	}) as typeof nodeFs.writeSync);
	try {
		await callTool(client, "set_property", { path: "Notes/Plan.md", name: "status", value: "done" });
		expect(swapped).toBe(true);
		// Nothing the server made is left in the outside folder.
		expect(await fs.readdir(outside)).toEqual([]);
		if (!swappedBack) {
			nodeFs.unlinkSync(folder);
			nodeFs.renameSync(moved, folder);
		}
		// The note is as it was: the edit was not made through the link.
		expect(await fs.readFile(nodePath.join(folder, "Plan.md"), "utf8")).toBe(`# Plan\n\n${lines.join("")}`);
	} finally {
		openSpy.mockRestore();
		writeSpy.mockRestore();
		await client.close();
		await running.stop();
		await removeDir(vault);
		await removeDir(outside);
	}
});
