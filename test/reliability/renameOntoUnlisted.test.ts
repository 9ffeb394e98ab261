import { execFileSync } from "node:child_process";
import { promises as fs } from "node:fs";
import * as nodePath from "node:path";
import { connectClient } from "../helpers/http";
import { startService } from "../helpers/service";
import { callTool } from "../helpers/tools";
import { makeVault, removeDir } from "../helpers/vault";

/**
 * rename_note to a path where the disk holds something the vault does not list (a named pipe,
 * a socket): the move cannot be made. Nothing may be written then: the notes that link to the
 * note keep links to its old name, which is where it still is.
 */
test("rename_note onto a named pipe the vault does not list writes nothing", async () => {
	const vault = await makeVault({ "Notes/Old.md": "# Old\n", "Notes/Linker.md": "See [[Old]].\n" });
	execFileSync("sh", ["-c", 'mkfifo "$0"', nodePath.join(vault, "Notes/New.md")]);
	const running = await startService(vault, { levels: ["write"], settings: { writeEnabled: true, writeDisclosureAccepted: true } });
	const client = await connectClient(running.url, running.tokens.write ?? "");
	try {
		const answer = await callTool(client, "rename_note", { path: "Notes/Old.md", new_path: "Notes/New.md" });
		expect(answer.ok).toBe(false);
		expect(await fs.readFile(nodePath.join(vault, "Notes/Old.md"), "utf8")).toBe("# Old\n");
		expect(await fs.readFile(nodePath.join(vault, "Notes/Linker.md"), "utf8")).toBe("See [[Old]].\n");
	} finally {
		await client.close();
		await running.stop();
		await removeDir(vault);
	}
});
