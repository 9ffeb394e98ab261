/**
 * Undo of a created note moves it to the trash: another program that saves the note by rename while the trash folder
 * is made (after the trash opened the note), or between undo's read of the note and that open, is not trashed in its place. The person is told in one sentence why the
 * undo stopped, and running it again carries on. Real service, real temp vault, the real journal.
 */
import { promises as fs, renameSync, writeFileSync } from "node:fs";
import * as nodePath from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { DiskWriter } from "../../src/headless/DiskWriter";
import { FolderJail } from "../../src/host/FolderJail";
import { undoCall } from "../../src/journal/undo";
import { connectClient } from "../helpers/http";
import { startService, type RunningService } from "../helpers/service";
import { callOk } from "../helpers/tools";
import { makeVault, removeDir } from "../helpers/vault";

describe("undo of a created note whose file another program replaces while it is moved to the trash", () => {
	let vault: string;
	let running: RunningService;
	let client: Client;

	beforeEach(async () => {
		vault = await makeVault({ "Notes/Plan.md": "# Plan\n" });
		running = await startService(vault, { levels: ["write"], settings: { writeEnabled: true, writeDisclosureAccepted: true } });
		client = await connectClient(running.url, running.tokens.write ?? "");
	});
	afterEach(async () => {
		jest.restoreAllMocks();
		await client.close();
		await running.stop();
		await removeDir(vault);
	});

	test("stops with one sentence saying why, the replaced file kept; run again, it finishes", async () => {
		await callOk(client, "create_note", { path: "Notes/New.md", content: "new text\n" });
		const [entry] = running.journal.list(1);
		const note = nodePath.join(vault, "Notes/New.md");
		// eslint-disable-next-line @typescript-eslint/unbound-method -- called below with the jail as `this`
		const makeFolders = FolderJail.prototype.makeFolders;
		let saved = false;
		jest.spyOn(FolderJail.prototype, "makeFolders").mockImplementation(async function (this: FolderJail, folder: string) {
			// The other program saves the same text again, by rename: the undo's look at the text still finds the call's.
			if (folder === nodePath.join(vault, ".trash") && !saved) {
				saved = true;
				writeFileSync(`${note}.saving`, "new text\n");
				renameSync(`${note}.saving`, note);
			}
			await makeFolders.call(this, folder);
		});
		const stopped = await undoCall(running.host, running.journal, entry?.id ?? "");
		expect(saved).toBe(true);
		expect(stopped).toEqual({
			ok: false,
			reason: `Undo of ${entry?.id} stopped: The note changed while it was being moved to the trash (another program replaced it), so nothing was moved. Read it again and retry. Nothing was changed. Running it again carries on.`,
		});
		expect(await fs.readFile(note, "utf8")).toBe("new text\n");
		expect(await fs.readdir(nodePath.join(vault, ".trash"))).toEqual([]);

		const again = await undoCall(running.host, running.journal, entry?.id ?? "");
		expect(again.ok).toBe(true);
		expect(await fs.readdir(nodePath.join(vault, "Notes"))).toEqual(["Plan.md"]);
		expect(await fs.readdir(nodePath.join(vault, ".trash"))).toEqual(["New.md"]);
	});

	test("a save by rename between undo's read and the trash's open: refused, the other program's note stays, nothing in the trash", async () => {
		await callOk(client, "create_note", { path: "Notes/New.md", content: "new text\n" });
		const [entry] = running.journal.list(1);
		const note = nodePath.join(vault, "Notes/New.md");
		// eslint-disable-next-line @typescript-eslint/unbound-method -- called below with the writer as `this`
		const trash = DiskWriter.prototype.trash;
		let saved = false;
		jest.spyOn(DiskWriter.prototype, "trash").mockImplementation(async function (this: DiskWriter, ...args: Parameters<DiskWriter["trash"]>) {
			// Undo has read the note ("new text") and decided to trash it; the other program saves its own text by rename now.
			if (args[0] === note && !saved) {
				saved = true;
				writeFileSync(`${note}.saving`, "the other program's text\n");
				renameSync(`${note}.saving`, note);
			}
			await trash.apply(this, args);
		});
		const stopped = await undoCall(running.host, running.journal, entry?.id ?? "");
		expect(saved).toBe(true);
		expect(stopped).toEqual({
			ok: false,
			reason: `Undo of ${entry?.id} stopped: The note changed while it was being moved to the trash (another program replaced it), so nothing was moved. Read it again and retry. Nothing was changed. Running it again carries on.`,
		});
		expect(await fs.readFile(note, "utf8")).toBe("the other program's text\n");
		expect(await fs.readdir(nodePath.join(vault, ".trash")).catch(() => [])).toEqual([]);
	});
});
