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
import { undoCall } from "../../src/journal/undo";
import type { Approver } from "../../src/mcp/approval";
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
			/Only 2 notes \("Keep\/Renamed\.md", 1 in folders this token may no longer see\) had been written before that \(undo id \S+ reverses it once the folder excluded since is included again: nothing is written in an excluded folder\); nothing after\./u,
		);
		expect(error).not.toContain("Hide");
		expect(error).not.toContain("First");

		// The undo id given reverses both notes once the person includes the folder again, as the error says (main said it
		// reversed them, without more); while it is excluded, undo refuses and changes nothing.
		const undoId = /undo id (\S+) reverses/u.exec(error)?.[1] ?? "";
		const refused = await undoCall(running.host, running.journal, undoId, "person", ["Hide"]);
		expect(refused.ok).toBe(false);
		expect(await fs.readFile(nodePath.join(vault, "Keep/Renamed.md"), "utf8")).toBe("# Target\n");
		expect((await undoCall(running.host, running.journal, undoId, "person", [])).ok).toBe(true);
		expect(await fs.readFile(nodePath.join(vault, "Keep/Target.md"), "utf8")).toBe("# Target\n");
		expect(await fs.readFile(nodePath.join(vault, "Hide/First.md"), "utf8")).toBe("See [[Target]].\n");
		expect(await fs.readFile(nodePath.join(vault, "Keep/Second.md"), "utf8")).toBe("Also [[Target]].\n");
		expect(await fs.readdir(nodePath.join(vault, "Keep"))).not.toContain("Renamed.md");
	});
});

/**
 * The person approved the rename with its linking notes' new texts (so a linking note another program changes
 * meanwhile is not written over, and the set stops there): the error names the changed note only if the token may
 * still see it, counts the notes written, and gives an undo id that reverses them.
 */
describe("an approved rename whose linking note another program changes while the set is written", () => {
	let vault: string;
	let running: RunningService;
	let client: Client;

	beforeEach(async () => {
		vault = await makeVault({
			"Keep/Target.md": "# Target\n",
			"Hide/First.md": "See [[Target]].\n",
			"Keep/Second.md": "Also [[Target]].\n",
		});
		const approver: Approver = { decide: () => Promise.resolve("approve") };
		running = await startService(vault, {
			levels: ["write"],
			settings: { writeEnabled: true, writeDisclosureAccepted: true },
			approver,
			rights: { write: { rename_note: "ask" } },
		});
		client = await connectClient(running.url, running.tokens.write ?? "");
	});
	afterEach(async () => {
		jest.restoreAllMocks();
		await client.close();
		await running.stop();
		await removeDir(vault);
	});

	/** Just before `changed` is written, another program edits it on disk, and the person excludes `exclude`. */
	function atTheWriteOf(changed: string, exclude: string[]): void {
		const vaultProcess = running.host.vault.process.bind(running.host.vault);
		jest.spyOn(running.host.vault, "process").mockImplementation(async (file: HostFile, fn: (text: string) => string, options?: ProcessOptions) => {
			if (file.path === changed) {
				await fs.appendFile(nodePath.join(vault, changed), "Another program's line.\n");
				await running.service.apply({ ...running.settings, excludedFolders: exclude });
			}
			return await vaultProcess(file, fn, options);
		});
	}

	test("a visible note changed, a note in a folder excluded meanwhile written: the changed one named, the hidden one counted, the undo id reverses both", async () => {
		atTheWriteOf("Keep/Second.md", ["Hide"]);
		const error = await callError(client, "rename_note", { path: "Keep/Target.md", new_path: "Keep/Renamed.md" });
		expect(error).toMatch(
			/^"Keep\/Second\.md" changed while this call was being written, so it was not written; 2 notes \("Keep\/Renamed\.md", 1 in folders this token may no longer see\) had been \(undo id \S+ reverses them once the folder excluded since is included again: nothing is written in an excluded folder\)\./u,
		);
		expect(error).not.toContain("Hide");
		expect(error).not.toContain("First");
		expect(await fs.readFile(nodePath.join(vault, "Keep/Second.md"), "utf8")).toBe("Also [[Target]].\nAnother program's line.\n");
		const undoId = /undo id (\S+) reverses/u.exec(error)?.[1] ?? "";
		expect((await undoCall(running.host, running.journal, undoId, "person", [])).ok).toBe(true);
		expect(await fs.readFile(nodePath.join(vault, "Keep/Target.md"), "utf8")).toBe("# Target\n");
		expect(await fs.readFile(nodePath.join(vault, "Hide/First.md"), "utf8")).toBe("See [[Target]].\n");
	});

	test("the changed note is in a folder excluded meanwhile: not named, nor the folder", async () => {
		atTheWriteOf("Hide/First.md", ["Hide"]);
		const error = await callError(client, "rename_note", { path: "Keep/Target.md", new_path: "Keep/Renamed.md" });
		expect(error).toMatch(
			/^A note in a folder this token may no longer see changed while this call was being written, so it was not written; 2 notes \("Keep\/Renamed\.md", "Keep\/Second\.md"\) had been \(undo id \S+ reverses them\)\./u,
		);
		expect(error).not.toContain("Hide");
		expect(error).not.toContain("First");
		expect(await fs.readFile(nodePath.join(vault, "Hide/First.md"), "utf8")).toBe("See [[Target]].\nAnother program's line.\n");
	});
});

/**
 * The rename's own note came from the folder the person excluded during the set: its undo moves it back there, so undo
 * refuses while that folder is excluded, though every note written lies outside it. The error says so (it promised the
 * undo at once, and the undo id given was refused).
 */
describe("a rename out of a folder excluded while its links are rewritten", () => {
	let vault: string;
	let running: RunningService;
	let client: Client;

	beforeEach(async () => {
		vault = await makeVault({
			"Hide/Target.md": "# Target\n",
			"Keep/First.md": "See [[Target]].\n",
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

	test("the error says the undo id reverses the written notes once the folder is included again, which is when it does", async () => {
		const vaultProcess = running.host.vault.process.bind(running.host.vault);
		jest.spyOn(running.host.vault, "process").mockImplementation(async (file: HostFile, fn: (text: string) => string, options?: ProcessOptions) => {
			if (file.path === "Keep/Second.md") await running.service.apply({ ...running.settings, excludedFolders: ["Hide"] });
			return vaultProcess(file, fn, options);
		});
		const error = await callError(client, "rename_note", { path: "Hide/Target.md", new_path: "Keep/Renamed.md" });
		expect(await fs.readFile(nodePath.join(vault, "Keep/Renamed.md"), "utf8")).toBe("# Target\n");
		expect(error).toMatch(
			/\(undo id \S+ reverses it once the folder excluded since is included again: nothing is written in an excluded folder\); nothing after\./u,
		);

		const undoId = /undo id (\S+) reverses/u.exec(error)?.[1] ?? "";
		expect((await undoCall(running.host, running.journal, undoId, "person", ["Hide"])).ok).toBe(false);
		expect(await fs.readFile(nodePath.join(vault, "Keep/Renamed.md"), "utf8")).toBe("# Target\n");
		expect((await undoCall(running.host, running.journal, undoId, "person", [])).ok).toBe(true);
		expect(await fs.readFile(nodePath.join(vault, "Hide/Target.md"), "utf8")).toBe("# Target\n");
		expect(await fs.readFile(nodePath.join(vault, "Keep/First.md"), "utf8")).toBe("See [[Target]].\n");
	});
});
