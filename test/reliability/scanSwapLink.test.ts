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
 * The headless start lists the vault one folder after another, pausing between batches. A folder
 * another program swaps for a link to a folder outside the vault after its parent was listed, and
 * before it is listed itself, must not bring the names of the files outside into the vault.
 */
test("a folder swapped for a link while the start lists the vault lists nothing from outside", async () => {
	const vault = await makeVault({ "Inbox/Note.md": "# Note\n", "Sub/Plan.md": "# Plan\n" });
	const outside = await makeTempDir("scan-outside-");
	await fs.writeFile(nodePath.join(outside, "Outside secret.md"), "# Not in the vault\n");
	const original = fsModule.promises.readdir.bind(fsModule.promises) as (...args: unknown[]) => Promise<unknown>;
	let swapped = false;
	jest.spyOn(fsModule.promises, "readdir").mockImplementation((async (...args: unknown[]) => {
		const folder = String(args[0]);
		if (!swapped && folder === nodePath.join(nodeFs.realpathSync(vault), "Sub")) {
			swapped = true;
			await fs.rename(folder, nodePath.join(outside, "Sub moved"));
			await fs.symlink(outside, folder);
		}
		return original(...args);
	}) as never);
	let running: Awaited<ReturnType<typeof startService>> | null = null;
	try {
		running = await startService(vault);
		jest.restoreAllMocks();
		expect(swapped).toBe(true);
		const client = await connectClient(running.url, running.tokens.read ?? "");
		const listed = await callOk<{ notes: Array<{ path: string }> }>(client, "list_notes", {});
		await client.close();
		expect(listed.notes.map((note) => note.path)).toEqual(["Inbox/Note.md"]);
		expect(running.host.vault.getFileByPath("Sub/Outside secret.md")).toBeNull();
	} finally {
		jest.restoreAllMocks();
		await running?.stop();
		await removeDir(vault);
		await removeDir(outside);
	}
});

test("a folder swapped for a link while the start lists the vault: no folder outside the vault is listed", async () => {
	const vault = await makeVault({ "Inbox/Note.md": "# Note\n", "Sub/Plan.md": "# Plan\n" });
	const root = nodeFs.realpathSync(vault);
	const outside = await makeTempDir("scan-outside-");
	await fs.mkdir(nodePath.join(outside, "Deeper"));
	await fs.writeFile(nodePath.join(outside, "Deeper", "Outside secret.md"), "# Not in the vault\n");
	const original = fsModule.promises.readdir.bind(fsModule.promises) as (...args: unknown[]) => Promise<unknown>;
	const sub = nodePath.join(root, "Sub");
	const listed: string[] = [];
	let swapped = false;
	jest.spyOn(fsModule.promises, "readdir").mockImplementation((async (...args: unknown[]) => {
		const folder = String(args[0]);
		listed.push(folder);
		if (!swapped && folder === sub) {
			swapped = true;
			await fs.rename(folder, nodePath.join(outside, "Sub moved"));
			await fs.symlink(outside, folder);
		}
		return original(...args);
	}) as never);
	let running: Awaited<ReturnType<typeof startService>> | null = null;
	try {
		running = await startService(vault, { host: { watch: true } });
		expect(swapped).toBe(true);
		// Before: the folders behind the link (`Deeper`, `Sub moved`) were listed, and watched, as `Sub/…`.
		expect(listed.filter((folder) => folder.startsWith(sub + nodePath.sep))).toEqual([]);
	} finally {
		jest.restoreAllMocks();
		await running?.stop();
		await removeDir(vault);
		await removeDir(outside);
	}
});
