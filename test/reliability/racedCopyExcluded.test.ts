import * as nodeFs from "node:fs";
import { promises as fs } from "node:fs";
import * as nodePath from "node:path";
import { LATE_APPEND_RECHECK_MS } from "../../src/config/limits";
import { connectClient } from "../helpers/http";
import { startService } from "../helpers/service";
import { callTool } from "../helpers/tools";
import { makeVault, removeDir } from "../helpers/vault";

/**
 * Another program rewrites `Logs/Log.md` in place (as in inPlaceRewriter.test.ts) while a headless
 * edit replaces it: its version goes to the replaced file, and the server keeps that version in a
 * copy beside the note up to a second later. If the person excludes `Logs` within that second, the
 * server writes nothing there: excluded folders are never written by it. The log says a copy was
 * not kept, naming neither the folder nor the note nor its text.
 */

const LOG = "# Log\nsecret line\n";
const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Serves `files`, makes one set_property of `Logs/Log.md` race the other program (which opens the note,
 * truncating it, just before the server's rename and writes its version after it), then runs `then`.
 */
async function afterRacedEdit(
	files: Record<string, string>,
	then: (running: Awaited<ReturnType<typeof startService>>, folder: string) => Promise<void>,
): Promise<void> {
	const vault = await makeVault(files);
	const running = await startService(vault, { levels: ["write"], settings: { writeEnabled: true, writeDisclosureAccepted: true } });
	const client = await connectClient(running.url, running.tokens.write ?? "");
	const folder = nodePath.join(running.host.vault.root, "Logs");
	const note = nodePath.join(folder, "Log.md");
	const originalRename = nodeFs.renameSync;
	let played = false;
	// eslint-disable-next-line @typescript-eslint/no-require-imports -- jest can spy only on the CommonJS module object
	const fsModule = require("node:fs") as typeof nodeFs;
	const spy = jest.spyOn(fsModule, "renameSync").mockImplementation((from, to) => {
		if (played || to !== note) return originalRename(from, to);
		played = true;
		const replaced = nodeFs.openSync(note, "w");
		originalRename(from, to);
		nodeFs.writeSync(replaced, `${LOG}outside-1\n`);
		nodeFs.closeSync(replaced);
	});
	try {
		const answer = await callTool(client, "set_property", { path: "Logs/Log.md", name: "status", value: "done" });
		expect(answer.ok).toBe(true);
		expect(played).toBe(true);
		await then(running, folder);
	} finally {
		spy.mockRestore();
		await client.close();
		await running.stop();
		await removeDir(vault);
	}
}

test("the note's folder excluded right after the raced rewrite: no copy is written there, and the log names nothing", async () => {
	await afterRacedEdit({ "Logs/Log.md": LOG, "Notes/Other.md": "other\n" }, async (running, folder) => {
		// The person excludes the folder within the second the server keeps looking at the replaced file.
		await running.service.apply({ ...running.settings, excludedFolders: ["Logs"] });
		await pause(LATE_APPEND_RECHECK_MS * 4);
		expect(await fs.readdir(folder)).toEqual(["Log.md"]);
		const told = running.logger.lines.filter((line) => line.includes("not kept"));
		expect(told).toHaveLength(1);
		expect(told.join("\n")).not.toMatch(/Logs|Log\.md|secret|outside-1/u);
	});
});

test("a folder the person did not exclude still gets the copy (the check is of the note's own folder)", async () => {
	await afterRacedEdit({ "Logs/Log.md": LOG }, async (running, folder) => {
		await running.service.apply({ ...running.settings, excludedFolders: ["Log"] });
		await pause(LATE_APPEND_RECHECK_MS * 4);
		const names = await fs.readdir(folder);
		expect(names).toHaveLength(2);
		const copy = names.find((name) => name !== "Log.md") ?? "";
		expect(await fs.readFile(nodePath.join(folder, copy), "utf8")).toBe(`${LOG}outside-1\n`);
	});
});
