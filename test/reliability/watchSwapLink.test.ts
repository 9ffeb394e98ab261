import * as nodeFs from "node:fs";
import { promises as fs } from "node:fs";
import * as nodePath from "node:path";
import { connectClient } from "../helpers/http";
import { startService } from "../helpers/service";
import { callOk } from "../helpers/tools";
import { makeTempDir, makeVault, removeDir } from "../helpers/vault";

// eslint-disable-next-line @typescript-eslint/no-require-imports -- jest can spy only on the CommonJS module object
const fsModule = require("node:fs") as typeof nodeFs;

/**
 * While `serve` watches the vault, a folder another program makes is watched and listed. Swapped
 * for a link to a folder outside the vault just as it is listed, the watcher must not go on into
 * the folders it finds there: each one would be watched and listed in turn (a link to `/` walks
 * the whole disk), reading outside the vault.
 */
test("a new folder swapped for a link as the watcher lists it: no folder outside the vault is listed or brought in", async () => {
	const vault = await makeVault({ "Inbox/Note.md": "# Note\n" });
	const root = nodeFs.realpathSync(vault);
	const outside = await makeTempDir("watch-outside-");
	await fs.mkdir(nodePath.join(outside, "Deeper"));
	await fs.writeFile(nodePath.join(outside, "Deeper", "Outside secret.md"), "# Not in the vault\n");
	const running = await startService(vault, { host: { watch: true } });
	const client = await connectClient(running.url, running.tokens.read ?? "");
	const listed: string[] = [];
	try {
		const original = fsModule.promises.readdir.bind(fsModule.promises) as (...args: unknown[]) => Promise<unknown>;
		let swapped = false;
		const made = nodePath.join(root, "Made");
		jest.spyOn(fsModule.promises, "readdir").mockImplementation((async (...args: unknown[]) => {
			const folder = String(args[0]);
			listed.push(folder);
			if (!swapped && folder === made) {
				swapped = true;
				await fs.rename(made, nodePath.join(outside, "Made moved"));
				await fs.symlink(outside, made);
			}
			return original(...args);
		}) as never);
		await fs.mkdir(made);
		for (let waited = 0; !swapped && waited < 5_000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
		expect(swapped).toBe(true);
		// Time for the watcher to go on into the folders it found, had it done so.
		await new Promise((resolve) => setTimeout(resolve, 1_000));
		// Before: the link's folder `Deeper` (outside) was watched and listed as `Made/Deeper`.
		expect(listed.filter((folder) => folder.startsWith(made + nodePath.sep))).toEqual([]);
		const notes = await callOk<{ notes: Array<{ path: string }> }>(client, "list_notes", {});
		expect(notes.notes.map((note) => note.path)).toEqual(["Inbox/Note.md"]);
	} finally {
		jest.restoreAllMocks();
		await client.close();
		await running.stop();
		await removeDir(vault);
		await removeDir(outside);
	}
});
