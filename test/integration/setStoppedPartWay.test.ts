/**
 * A write set stopped part-way (the tool no longer allowed, a note changed under it) says what it had
 * written, with the undo id. When the person excluded a folder during the set, a note written in it
 * before is counted, not named: after a folder is excluded nothing may name a note in it, as a
 * written call's answer then names none. The real service over real HTTP, a real temp vault.
 */
import { promises as fs } from "node:fs";
import * as nodePath from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { ProcessOptions, HostFile } from "../../src/host/Host";
import { connectClient } from "../helpers/http";
import { startService, type RunningService } from "../helpers/service";
import { callError } from "../helpers/tools";
import { makeVault, removeDir } from "../helpers/vault";

describe("a rename whose linking note's folder is excluded while its links are rewritten", () => {
	let vault: string;
	let running: RunningService;
	let client: Client;

	beforeEach(async () => {
		vault = await makeVault({
			"Keep/Target.md": "# Target\n",
			"Hide/First.md": "See [[Target]].\n",
			"Keep/Second.md": "Also [[Target]].\n",
		});
		running = await startService(vault, { levels: ["write"], settings: { writeEnabled: true, writeDisclosureAccepted: true } });
		client = await connectClient(running.url, running.tokens.write ?? "");
	});
	afterEach(async () => {
		jest.restoreAllMocks();
		await client.close();
		await running.stop();
		await removeDir(vault);
	});

	test("the error counts the note written in the excluded folder without naming it, names the visible one, and gives the undo id", async () => {
		// The person excludes Hide just as the rename comes to Keep/Second.md: Hide/First.md was written before.
		const vaultProcess = running.host.vault.process.bind(running.host.vault);
		const written: string[] = [];
		jest.spyOn(running.host.vault, "process").mockImplementation(async (file: HostFile, fn: (text: string) => string, options?: ProcessOptions) => {
			if (file.path === "Keep/Second.md") await running.service.apply({ ...running.settings, excludedFolders: ["Hide"] });
			const text = await vaultProcess(file, fn, options);
			written.push(file.path);
			return text;
		});
		const error = await callError(client, "rename_note", { path: "Keep/Target.md", new_path: "Keep/Renamed.md" });
		expect(written).toContain("Hide/First.md");
		expect(await fs.readFile(nodePath.join(vault, "Hide/First.md"), "utf8")).toBe("See [[Renamed]].\n");
		expect(error).toContain("rename_note is no longer allowed for this token");
		expect(error).toMatch(
			/Only 2 notes \("Keep\/Renamed\.md", 1 in folders this token may no longer see\) had been written before that \(undo id \S+ reverses it\)/u,
		);
		expect(error).not.toContain("Hide");
		expect(error).not.toContain("First");
	});
});
