/**
 * A rename reads the note, its move opens it, makes the folders it needs, then moves it: another program that saves
 * the note by rename in between (an editor's atomic save) puts another file at its name. The rename is refused in words the
 * client can act on, the other program's file stays at the old name with its text, nothing is made at the new name,
 * no linking note is rewritten and nothing is journalled. The real service over real HTTP, a real temp vault.
 */
import { appendFileSync, existsSync, promises as fs, renameSync, writeFileSync } from "node:fs";
import * as nodePath from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { DiskWriter } from "../../src/headless/DiskWriter";
import { FolderJail } from "../../src/host/FolderJail";
import { undoCall } from "../../src/journal/undo";
import { connectClient } from "../helpers/http";
import { startService, type RunningService } from "../helpers/service";
import { callError, callOk } from "../helpers/tools";
import { makeVault, removeDir } from "../helpers/vault";

describe("rename_note when another program saves the note by rename while its move makes the new folder", () => {
	let vault: string;
	let running: RunningService;
	let client: Client;

	beforeEach(async () => {
		vault = await makeVault({ "Notes/Plan.md": "# Plan\n", "Notes/Linker.md": "See [[Notes/Plan]].\n" });
		running = await startService(vault, { levels: ["write"], settings: { writeEnabled: true, writeDisclosureAccepted: true } });
		client = await connectClient(running.url, running.tokens.write ?? "");
	});
	afterEach(async () => {
		jest.restoreAllMocks();
		await client.close();
		await running.stop();
		await removeDir(vault);
	});

	test("refused as changed while moved; the other program's file and the linking note as they were, nothing at the new name, nothing journalled", async () => {
		const plan = nodePath.join(vault, "Notes/Plan.md");
		// The folder is made for the set (before the move opens the note, `makeFolder`), then asked for by the move itself,
		// after its open (`makeFolders`): there the other program saves.
		// eslint-disable-next-line @typescript-eslint/unbound-method -- called below with the jail as `this`
		const makeFolders = FolderJail.prototype.makeFolders;
		let made = 0;
		jest.spyOn(FolderJail.prototype, "makeFolders").mockImplementation(async function (this: FolderJail, folder: string) {
			if (folder === nodePath.join(vault, "Archive") && ++made === 1) {
				writeFileSync(`${plan}.saving`, "# Plan\n\nSaved by another program.\n");
				renameSync(`${plan}.saving`, plan);
			}
			await makeFolders.call(this, folder);
		});
		const error = await callError(client, "rename_note", { path: "Notes/Plan.md", new_path: "Archive/Plan.md" });
		expect(made).toBe(1);
		expect(error).toBe("The note changed while it was being moved (another program replaced it), so nothing was moved. Read it again and retry.");
		expect(await fs.readFile(plan, "utf8")).toBe("# Plan\n\nSaved by another program.\n");
		// The folder the rename made for the new path is taken away with it (on 285ac856 it stayed, empty).
		expect(existsSync(nodePath.join(vault, "Archive"))).toBe(false);
		expect(await fs.readFile(nodePath.join(vault, "Notes/Linker.md"), "utf8")).toBe("See [[Notes/Plan]].\n");
		expect(running.journal.list(10).filter((entry) => entry.tool === "rename_note")).toEqual([]);
	});

	test("a save by rename between the rename's read of the note and its move's open: refused the same way, nothing moved", async () => {
		const plan = nodePath.join(vault, "Notes/Plan.md");
		// eslint-disable-next-line @typescript-eslint/unbound-method -- called below with the writer as `this`
		const move = DiskWriter.prototype.move;
		let saved = false;
		jest.spyOn(DiskWriter.prototype, "move").mockImplementation(async function (this: DiskWriter, ...args: Parameters<DiskWriter["move"]>) {
			// The write has read the note ("# Plan") and recorded it as the text it moves; the other program saves by rename now,
			// its first line changed (a text only grown at its end moves with the note: the next test).
			if (args[0] === plan && !saved) {
				saved = true;
				writeFileSync(`${plan}.saving`, "# Plan, rewritten\n\nSaved by another program.\n");
				renameSync(`${plan}.saving`, plan);
			}
			return move.apply(this, args);
		});
		const error = await callError(client, "rename_note", { path: "Notes/Plan.md", new_path: "Archive/Plan.md" });
		expect(saved).toBe(true);
		expect(error).toBe("The note changed while it was being moved (another program replaced it), so nothing was moved. Read it again and retry.");
		expect(await fs.readFile(plan, "utf8")).toBe("# Plan, rewritten\n\nSaved by another program.\n");
		expect(existsSync(nodePath.join(vault, "Archive"))).toBe(false);
		expect(await fs.readFile(nodePath.join(vault, "Notes/Linker.md"), "utf8")).toBe("See [[Notes/Plan]].\n");
		expect(running.journal.list(10).filter((entry) => entry.tool === "rename_note")).toEqual([]);
	});

	test("refused so, the new folder another program put a file in meanwhile stays with it", async () => {
		const plan = nodePath.join(vault, "Notes/Plan.md");
		// eslint-disable-next-line @typescript-eslint/unbound-method -- called below with the writer as `this`
		const move = DiskWriter.prototype.move;
		jest.spyOn(DiskWriter.prototype, "move").mockImplementation(async function (this: DiskWriter, ...args: Parameters<DiskWriter["move"]>) {
			// The rename made `New/Sub` for its new path; another program saves the note, and a file into `New`, now.
			writeFileSync(`${plan}.saving`, "# Plan, rewritten\n");
			renameSync(`${plan}.saving`, plan);
			writeFileSync(nodePath.join(vault, "New/Theirs.md"), "theirs\n");
			return move.apply(this, args);
		});
		await callError(client, "rename_note", { path: "Notes/Plan.md", new_path: "New/Sub/Plan.md" });
		// Only the empty folder it made goes: `New` holds the other program's file.
		expect(await fs.readdir(nodePath.join(vault, "New"))).toEqual(["Theirs.md"]);
		expect(await fs.readFile(nodePath.join(vault, "New/Theirs.md"), "utf8")).toBe("theirs\n");
	});

	test("a line another program appends to the note (the same file) between the rename's read and its move's open: moved with it, as main moved it", async () => {
		const plan = nodePath.join(vault, "Notes/Plan.md");
		// eslint-disable-next-line @typescript-eslint/unbound-method -- called below with the writer as `this`
		const move = DiskWriter.prototype.move;
		let appended = false;
		jest.spyOn(DiskWriter.prototype, "move").mockImplementation(async function (this: DiskWriter, ...args: Parameters<DiskWriter["move"]>) {
			if (args[0] === plan && !appended) {
				appended = true;
				appendFileSync(plan, "A line a capture tool adds.\n");
			}
			return move.apply(this, args);
		});
		await callOk(client, "rename_note", { path: "Notes/Plan.md", new_path: "Archive/Plan.md" });
		expect(appended).toBe(true);
		expect(await fs.readFile(nodePath.join(vault, "Archive/Plan.md"), "utf8")).toBe("# Plan\nA line a capture tool adds.\n");
		expect(await fs.readdir(nodePath.join(vault, "Notes"))).toEqual(["Linker.md"]);
		expect(await fs.readFile(nodePath.join(vault, "Notes/Linker.md"), "utf8")).toBe("See [[Plan]].\n");
		// Journalled with the text it moved: its undo moves the note back, the appended line with it.
		const [entry] = running.journal.list(1);
		expect((await undoCall(running.host, running.journal, entry?.id ?? "")).ok).toBe(true);
		expect(await fs.readFile(plan, "utf8")).toBe("# Plan\nA line a capture tool adds.\n");
	});
});
