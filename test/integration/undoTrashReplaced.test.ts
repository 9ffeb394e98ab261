/**
 * Undo of a created note moves it to the trash: another program that saves the note by rename while the trash folder
 * is made (after the trash opened the note), or between undo's read of the note and that open, is not trashed in its place.
 * The same text saved again stops the undo, told in one sentence in undo's own words, and running it again carries on; a
 * text changed meanwhile (another program's, an appended line) is kept, as a note edited before the undo is. Real
 * service, real temp vault, the real journal.
 */
import { appendFileSync, promises as fs, renameSync, writeFileSync } from "node:fs";
import * as nodePath from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { DiskWriter } from "../../src/headless/DiskWriter";
import { FolderJail } from "../../src/host/FolderJail";
import { describeNotes, describeUndo, undoCall } from "../../src/journal/undo";
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
		// In undo's own words (on 285ac856 the host's, to a client: "another program replaced it … Read it again and retry").
		expect(stopped).toEqual({
			ok: false,
			reason: `Undo of ${entry?.id} stopped: "Notes/New.md" was saved again by another program while the undo moved it to the trash, so it was left as it is. Nothing was changed. Running it again carries on.`,
		});
		expect(await fs.readFile(note, "utf8")).toBe("new text\n");
		expect(await fs.readdir(nodePath.join(vault, ".trash"))).toEqual([]);

		const again = await undoCall(running.host, running.journal, entry?.id ?? "");
		expect(again.ok).toBe(true);
		expect(await fs.readdir(nodePath.join(vault, "Notes"))).toEqual(["Plan.md"]);
		expect(await fs.readdir(nodePath.join(vault, ".trash"))).toEqual(["New.md"]);
	});

	/** Undo of a create_note whose note another program changes (`change`) between undo's read of it and the trash's open. */
	async function undoWithChangeAtTrash(change: (note: string) => void): Promise<{ id: string; outcome: Awaited<ReturnType<typeof undoCall>> }> {
		await callOk(client, "create_note", { path: "Notes/New.md", content: "new text\n" });
		const [entry] = running.journal.list(1);
		const note = nodePath.join(vault, "Notes/New.md");
		// eslint-disable-next-line @typescript-eslint/unbound-method -- called below with the writer as `this`
		const trash = DiskWriter.prototype.trash;
		let changed = false;
		jest.spyOn(DiskWriter.prototype, "trash").mockImplementation(async function (this: DiskWriter, ...args: Parameters<DiskWriter["trash"]>) {
			// Undo has read the note ("new text") and decided to trash it; the other program writes to it now.
			if (args[0] === note && !changed) {
				changed = true;
				change(note);
			}
			await trash.apply(this, args);
		});
		const outcome = await undoCall(running.host, running.journal, entry?.id ?? "");
		expect(changed).toBe(true);
		return { id: entry?.id ?? "", outcome };
	}

	test("a save by rename between undo's read and the trash's open: the other program's note is kept, nothing in the trash", async () => {
		const { outcome } = await undoWithChangeAtTrash((note) => {
			writeFileSync(`${note}.saving`, "the other program's text\n");
			renameSync(`${note}.saving`, note);
		});
		expect(outcome.ok && describeNotes(outcome.notes)).toBe(`"Notes/New.md" (new with that change) had been edited since, so it was left as it is`);
		expect(await fs.readFile(nodePath.join(vault, "Notes/New.md"), "utf8")).toBe("the other program's text\n");
		expect(await fs.readdir(nodePath.join(vault, ".trash")).catch(() => [])).toEqual([]);
	});

	test("a line another program appends between undo's read and the trash's open: the person is told the note was kept as edited since", async () => {
		const { id, outcome } = await undoWithChangeAtTrash((note) => appendFileSync(note, "A line a capture tool adds.\n"));
		// What `vault-mcp undo` and the plugin's history show. On 285ac856 the undo stopped with the host's words to a client:
		// "The note changed while it was being moved to the trash (another program replaced it) … Read it again and retry."
		if (!outcome.ok) throw new Error(outcome.reason);
		expect(describeUndo(outcome)).toBe(
			`Undid ${id} (create_note by ${outcome.entry.tokenName}, ${outcome.entry.time}): "Notes/New.md" (new with that change) had been edited since, so it was left as it is.`,
		);
		expect(await fs.readFile(nodePath.join(vault, "Notes/New.md"), "utf8")).toBe("new text\nA line a capture tool adds.\n");
		expect(await fs.readdir(nodePath.join(vault, ".trash")).catch(() => [])).toEqual([]);
	});
});
