import { promises as fs } from "node:fs";
import * as nodePath from "node:path";
import { undoCall } from "../../src/journal/undo";
import { connectClient } from "../helpers/http";
import { startService } from "../helpers/service";
import { callTool } from "../helpers/tools";
import { makeVault, removeDir } from "../helpers/vault";

/**
 * A note only its owner may read (0600): the copies of its text the server makes beside it (the
 * `.bak` of an overwrite, undo's conflict copy) are as private, not made with the default mode
 * (0666 less the umask), which lets every local user read them.
 */

/** The permission bits of every file in `folder`, by name. */
async function modes(folder: string): Promise<Record<string, number>> {
	const found: Record<string, number> = {};
	for (const entry of await fs.readdir(folder, { withFileTypes: true }))
		if (entry.isFile()) found[entry.name] = (await fs.stat(nodePath.join(folder, entry.name))).mode & 0o777;
	return found;
}

/** Whether a file made with the default mode is readable by others here (else the umask makes this moot). */
async function defaultModeIsShared(folder: string): Promise<boolean> {
	const probe = nodePath.join(folder, "probe");
	await fs.writeFile(probe, "");
	const shared = ((await fs.stat(probe)).mode & 0o077) !== 0;
	await fs.rm(probe);
	return shared;
}

describe("copies of a private note are as private", () => {
	let vault: string;
	let running: Awaited<ReturnType<typeof startService>>;
	let client: Awaited<ReturnType<typeof connectClient>>;
	let folder: string;

	beforeEach(async () => {
		vault = await makeVault({ "Notes/Secret.md": "# Secret\n" });
		running = await startService(vault, { levels: ["write"], settings: { writeEnabled: true, writeDisclosureAccepted: true } });
		client = await connectClient(running.url, running.tokens.write ?? "");
		folder = nodePath.join(running.host.vault.root, "Notes");
		await fs.chmod(nodePath.join(folder, "Secret.md"), 0o600);
	});
	afterEach(async () => {
		await client.close();
		await running.stop();
		await removeDir(vault);
	});

	test("create_note overwrite: the .bak backup", async () => {
		if (!(await defaultModeIsShared(vault))) return;
		const answer = await callTool(client, "create_note", { path: "Notes/Secret.md", content: "# New\n", overwrite: true });
		expect(answer.ok).toBe(true);
		expect(await fs.readFile(nodePath.join(folder, "Secret.md.bak"), "utf8")).toBe("# Secret\n");
		expect(await modes(folder)).toEqual({ "Secret.md": 0o600, "Secret.md.bak": 0o600 });
	});

	test("undo of a write to a note edited since: the conflict copy", async () => {
		if (!(await defaultModeIsShared(vault))) return;
		expect((await callTool(client, "append_to_note", { path: "Notes/Secret.md", content: "- by the AI\n" })).ok).toBe(true);
		// The person edits it afterwards, in place (its mode kept): undo must not write over that.
		await fs.appendFile(nodePath.join(folder, "Secret.md"), "- by the person\n");
		const [entry] = running.journal.list(1);
		const outcome = await undoCall(running.host, running.journal, entry?.id ?? "");
		expect(outcome.ok && outcome.notes.map((note) => note.result)).toEqual(["conflict"]);
		const found = await modes(folder);
		expect(Object.keys(found)).toHaveLength(2);
		expect(Object.values(found)).toEqual([0o600, 0o600]);
	});
});
