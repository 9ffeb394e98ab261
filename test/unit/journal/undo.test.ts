import { createHash, type BinaryLike, type Encoding, type Hash } from "node:crypto";
import { promises as fs } from "node:fs";
import * as nodePath from "node:path";
import { NOTE_TEXT_PIECE_CHARS, RELINKS_APPLIED_AT_ONCE } from "../../../src/config/limits";
import { NodeHost } from "../../../src/headless/NodeHost";
import { JournalFile } from "../../../src/journal/JournalFile";
import { conflictCopyName, describeUndo, undoCall, type UndoOutcome } from "../../../src/journal/undo";
import MarkdownIt from "markdown-it";
import { hashText } from "../../../src/vault/writes";
import { SimulatedTool } from "../../helpers/journal";
import { countWorkPerPiece } from "../../helpers/workPieces";
import { makeVault, removeDir } from "../../helpers/vault";

const CRLF_NOTE = "---\r\ntitle: Grüße\r\n---\r\n# Café ☕\r\n\r\n- [ ] 日本語のタスク\r\n- naïve — “quotes”\r\n";

function succeeded(outcome: UndoOutcome): Extract<UndoOutcome, { ok: true }> {
	if (!outcome.ok) throw new Error(`undo failed: ${outcome.reason}`);
	return outcome;
}

describe("undoCall", () => {
	let root: string;
	let host: NodeHost;
	let journal: JournalFile;
	let tool: SimulatedTool;
	const disk = (path: string) => fs.readFile(nodePath.join(root, path));

	beforeEach(async () => {
		root = await makeVault({ "Daily/Grüße.md": CRLF_NOTE, "Plain.md": "one\ntwo\n" });
		host = await NodeHost.open(root);
		journal = JournalFile.forVault(root, ".obsidian");
		tool = new SimulatedTool(host, journal);
	});

	/**
	 * A vault where `Old/Plan.md` became `Garden/Beans.md` and `Links.md` was relinked from `before` to
	 * `after`, then `typedSince` was added to it, and the journal holding that rename as call `id`.
	 */
	async function journalRenameOfPlan(id: string, before: string, after: string, typedSince: string): Promise<void> {
		await host.close();
		await removeDir(root);
		root = await makeVault({ "Garden/Beans.md": "beans\n", "Links.md": `${after}${typedSince}` });
		host = await NodeHost.open(root, { metadata: false });
		journal = JournalFile.forVault(root, ".obsidian");
		journal.recordChanges({ id, time: "2026-12-05T00:00:00.000Z", tokenName: "laptop", tool: "rename_note" }, [
			{
				path: "Garden/Beans.md",
				movedFrom: "Old/Plan.md",
				before: "beans\n",
				beforeHash: hashText("beans\n"),
				after: "beans\n",
				afterHash: hashText("beans\n"),
			},
			{ path: "Links.md", before, beforeHash: hashText(before), after, afterHash: hashText(after) },
		]);
	}
	afterEach(async () => {
		await host.close();
		await removeDir(root);
	});

	test("restores the exact prior bytes of CRLF, non-ASCII notes, every note of the call, a note edited twice included", async () => {
		const original = await disk("Daily/Grüße.md");
		const plain = await disk("Plain.md");
		const call = tool.call("update_properties");
		await tool.edit(call, "Daily/Grüße.md", (text) => text.replace("Grüße", "Grüße, Welt"));
		await tool.edit(call, "Plain.md", (text) => text + "three\n");
		await tool.edit(call, "Daily/Grüße.md", (text) => `${text}- [x] erledigt ✓\r\n`);
		expect((await disk("Daily/Grüße.md")).equals(original)).toBe(false);

		const outcome = succeeded(await undoCall(host, journal, call.id));
		expect(outcome.notes).toEqual([
			{ path: "Daily/Grüße.md", result: "restored" },
			{ path: "Plain.md", result: "restored" },
			{ path: "Daily/Grüße.md", result: "restored" },
		]);
		expect((await disk("Daily/Grüße.md")).equals(original)).toBe(true);
		expect((await disk("Plain.md")).equals(plain)).toBe(true);
		expect(describeUndo(outcome)).toMatch(
			new RegExp(
				`^Undid ${call.id} \\(update_properties by laptop, .+\\): restored "Daily/Grüße.md"; restored "Plain.md"; restored "Daily/Grüße.md"\\.$`,
			),
		);
	});

	test("after an outside edit, writes nothing over the note and saves the earlier text as a conflict copy beside it", async () => {
		const original = await disk("Daily/Grüße.md");
		const call = tool.call("append_to_note");
		await tool.edit(call, "Daily/Grüße.md", (text) => `${text}from the app\r\n`);
		const edited = Buffer.from(`${CRLF_NOTE}from the app\r\nand then the person typed this\r\n`, "utf8");
		await fs.writeFile(nodePath.join(root, "Daily/Grüße.md"), edited);

		const outcome = succeeded(await undoCall(host, journal, call.id));
		const copy = conflictCopyName("Daily/Grüße.md", "append_to_note", new Date(call.time));
		expect(copy).toMatch(/^Daily\/Grüße \(before append_to_note \d{4}-\d\d-\d\d \d\d-\d\d\)\.md$/);
		expect(outcome.notes).toEqual([{ path: "Daily/Grüße.md", result: "conflict", copy }]);
		expect((await disk("Daily/Grüße.md")).equals(edited)).toBe(true);
		expect((await disk(copy)).equals(original)).toBe(true);
		expect(describeUndo(outcome)).toContain(`"Daily/Grüße.md" had changed since, so it was left as it is and its earlier text was saved as "${copy}"`);
	});

	test("a note moved since into an excluded folder, or a planted line saying it went outside the vault or into the config folder: nothing written, nothing named", async () => {
		const edited = tool.call("append_to_note");
		await tool.edit(edited, "Plain.md", (text) => `${text}three\n`);
		const created = tool.call("create_note");
		await tool.create(created, "Made.md", "made\n");
		await fs.mkdir(nodePath.join(root, "Private"));
		const made = host.vault.getFileByPath("Made.md");
		if (!made) throw new Error("no Made.md");
		await host.vault.rename(made, "Private/Made.md");
		journal.noteMoved("Made.md", "Private/Made.md");
		const planted = tool.call("set_property");
		await tool.edit(planted, "Daily/Grüße.md", (text) => `${text}x\r\n`);
		// Edited by hand since: a note still at its path as the call left it is undone there, whatever a line says of it.
		for (const path of ["Plain.md", "Daily/Grüße.md"]) await fs.appendFile(nodePath.join(root, path), "by hand\n");
		const before = await fs.readdir(root, { recursive: true });
		for (const [call, path, nowAt] of [
			[edited, "Plain.md", "../outside.md"],
			[planted, "Daily/Grüße.md", ".obsidian/plugins/evil/main.js"],
		] as const) {
			await fs.appendFile(journal.path, `${JSON.stringify({ kind: "moved", id: call.id, path, nowAt })}\n`);
		}
		const said: string[] = [];
		for (const call of [edited, created, planted]) {
			const outcome = succeeded(await undoCall(host, journal, call.id, undefined, ["Private"]));
			expect(outcome.notes).toEqual([{ path: outcome.entry.changes[0]?.path, result: "moved out of reach" }]);
			said.push(describeUndo(outcome));
		}
		expect(said.join("\n")).not.toMatch(/Private|outside|evil|\.obsidian/);
		// True of each place (an excluded folder, outside the vault, the config folder), none of which it names.
		for (const line of said) expect(line).toMatch(/ was moved since to a place undo may not write, so it was left as it is there\.$/u);
		// Nothing written, moved or trashed: the new note stays where the person put it.
		expect((await fs.readdir(root, { recursive: true })).sort()).toEqual(before.sort());
		expect(await fs.readFile(nodePath.join(root, "Private/Made.md"), "utf8")).toBe("made\n");
		expect(await fs.readFile(nodePath.join(root, "Plain.md"), "utf8")).toBe("one\ntwo\nthree\nby hand\n");
	});

	/** Undoes `callId` with the person excluding Daily as the undo first records ahead of a write (checked to have happened). */
	async function undoExcludingDailyAsItRecords(callId: string): Promise<UndoOutcome> {
		let excluded: string[] = [];
		const recordAhead = journal.recordChangesAhead.bind(journal);
		const recording = jest.spyOn(journal, "recordChangesAhead").mockImplementation(async (call, changes) => {
			excluded = ["Daily"];
			return recordAhead(call, changes);
		});
		let outcome: UndoOutcome;
		try {
			outcome = await undoCall(host, journal, callId, undefined, () => excluded);
		} finally {
			recording.mockRestore();
		}
		expect(excluded).toEqual(["Daily"]);
		return outcome;
	}

	test("a conflict copy is not written into a folder the person excludes while the undo records it: the note is left as it is, and said so", async () => {
		const edited = tool.call("append_to_note");
		await tool.edit(edited, "Daily/Grüße.md", (text) => `${text}three\r\n`);
		await fs.appendFile(nodePath.join(root, "Daily/Grüße.md"), "by hand\r\n");
		const before = await fs.readdir(nodePath.join(root, "Daily"));
		// The person excludes Daily while the copy's record goes to disk (a flush through the thread pool: 0.78 s once).
		const outcome = await undoExcludingDailyAsItRecords(edited.id);
		// On lead6 (d53d8c73): "Grüße (before append_to_note …).md" written into the folder just excluded.
		expect(await fs.readdir(nodePath.join(root, "Daily"))).toEqual(before);
		expect(succeeded(outcome).notes).toEqual([{ path: "Daily/Grüße.md", result: "excluded since" }]);
	});

	test("a linking note changed and then excluded while a rename's undo writes it is not read again or recorded: its text never reaches the journal", async () => {
		await host.close();
		await removeDir(root);
		root = await makeVault({ "Goal.md": "# Plan\n", "Diary/Entry.md": "See [[Goal]].\n" });
		host = await NodeHost.open(root, { metadata: false });
		journal = JournalFile.forVault(root, ".obsidian");
		const renamed = { id: "r1", time: "2026-12-05T00:00:00.000Z", tokenName: "laptop", tool: "rename_note" };
		journal.recordChanges(renamed, [
			{ path: "Goal.md", movedFrom: "Plan.md", before: "# Plan\n", beforeHash: hashText("# Plan\n"), after: "# Plan\n", afterHash: hashText("# Plan\n") },
			{
				path: "Diary/Entry.md",
				before: "See [[Plan]].\n",
				beforeHash: hashText("See [[Plan]].\n"),
				after: "See [[Goal]].\n",
				afterHash: hashText("See [[Goal]].\n"),
			},
		]);
		let excluded: string[] = [];
		let typed = false;
		// A private line lands in the note once the undo has recorded its link edit; the person excludes Diary once that edit found it changed.
		const recordAhead = journal.recordChangesAhead.bind(journal);
		const recording = jest.spyOn(journal, "recordChangesAhead").mockImplementation(async (call, changes) => {
			await recordAhead(call, changes);
			if (!typed && changes.some((change) => change.path === "Diary/Entry.md")) {
				typed = true;
				await fs.appendFile(nodePath.join(root, "Diary/Entry.md"), "private line\n");
			}
		});
		const process = host.vault.process.bind(host.vault);
		const processing = jest.spyOn(host.vault, "process").mockImplementation(async (...args: Parameters<typeof host.vault.process>) => {
			const done = await process(...args);
			if (args[0].path === "Diary/Entry.md") excluded = ["Diary"];
			return done;
		});
		let outcome: UndoOutcome;
		try {
			outcome = await undoCall(host, journal, "r1", undefined, () => excluded);
		} finally {
			recording.mockRestore();
			processing.mockRestore();
		}
		expect(excluded).toEqual(["Diary"]);
		expect(succeeded(outcome).notes).toEqual([
			{ path: "Plan.md", result: "moved back", from: "Goal.md" },
			{ path: "Diary/Entry.md", result: "excluded since" },
		]);
		expect(await fs.readFile(nodePath.join(root, "Diary/Entry.md"), "utf8")).toBe("See [[Goal]].\nprivate line\n");
		// On lead6 (d53d8c73): the undo read the excluded note again and recorded its text (then dropped the record).
		expect(await fs.readFile(journal.path, "utf8")).not.toContain("private line");
	});

	test("a created note is not taken to the trash from a folder the person excludes while the undo records it", async () => {
		const created = tool.call("create_note");
		await tool.create(created, "Daily/New.md", "made\n");
		const outcome = await undoExcludingDailyAsItRecords(created.id);
		// On lead6 (d53d8c73): trashed out of the folder just excluded.
		expect(await fs.readFile(nodePath.join(root, "Daily/New.md"), "utf8")).toBe("made\n");
		expect(succeeded(outcome).notes).toEqual([{ path: "Daily/New.md", result: "excluded since" }]);
	});

	test("a note moved back, while nothing followed it, to where the call left it, as it left it: undone there, whatever a line says of where it went", async () => {
		const edited = tool.call("append_to_note");
		await tool.edit(edited, "Plain.md", (text) => `${text}three\n`);
		for (const nowAt of ["Private/Plain.md", "Archive/Plain.md", "../outside.md"])
			await fs.appendFile(journal.path, `${JSON.stringify({ kind: "moved", id: edited.id, path: "Plain.md", nowAt })}\n`);
		const before = await fs.readdir(root, { recursive: true });
		const outcome = succeeded(await undoCall(host, journal, edited.id, undefined, ["Private"]));
		expect(outcome.notes).toEqual([{ path: "Plain.md", result: "restored" }]);
		expect(await fs.readFile(nodePath.join(root, "Plain.md"), "utf8")).toBe("one\ntwo\n");
		expect((await fs.readdir(root, { recursive: true })).sort()).toEqual(before.sort());
	});

	test("undo of a change to a 1 MiB note another client has appended to since writes nothing over it: the appended lines stay, the earlier text goes to a conflict copy", async () => {
		const long = Array.from({ length: 17_000 }, (_, index) => `- item ${index}, lorem ipsum dolor sit amet ${index * 7}`).join("\n") + "\n";
		await fs.writeFile(nodePath.join(root, "Plain.md"), long);
		const call = tool.call("append_to_note");
		await tool.edit(call, "Plain.md", (text) => `${text}- from the call\n`);
		// Another client's append, acknowledged to it, after the call.
		const appended = `${long}- from the call\n- another client's acknowledged line\n`;
		await fs.writeFile(nodePath.join(root, "Plain.md"), appended);
		const outcome = succeeded(await undoCall(host, journal, call.id));
		const copy = conflictCopyName("Plain.md", "append_to_note", new Date(call.time));
		expect(outcome.notes).toEqual([{ path: "Plain.md", result: "conflict", copy }]);
		expect((await disk("Plain.md")).toString()).toBe(appended);
		expect((await disk(copy)).toString()).toBe(long);
	});

	test("a conflict copy never replaces a file: a taken name gets a number", async () => {
		const call = tool.call("append_to_note");
		await tool.edit(call, "Plain.md", (text) => `${text}more\n`);
		await fs.writeFile(nodePath.join(root, "Plain.md"), "rewritten\n");
		const taken = conflictCopyName("Plain.md", "append_to_note", new Date(call.time));
		await fs.writeFile(nodePath.join(root, taken), "someone's file");
		await host.close();
		host = await NodeHost.open(root);

		const outcome = succeeded(await undoCall(host, journal, call.id));
		const second = conflictCopyName("Plain.md", "append_to_note", new Date(call.time), 1);
		expect(second).toMatch(/ 2\)\.md$/);
		expect(outcome.notes).toEqual([{ path: "Plain.md", result: "conflict", copy: second }]);
		expect(await fs.readFile(nodePath.join(root, taken), "utf8")).toBe("someone's file");
		expect(await fs.readFile(nodePath.join(root, second), "utf8")).toBe("one\ntwo\n");
	});

	test("undo of a created note moves it to the vault's .trash, never deletes it; one edited since is left alone", async () => {
		const call = tool.call("create_note");
		await tool.create(call, "Ideas/New idea.md", "# New idea\r\nÜberlegung\r\n");
		const outcome = succeeded(await undoCall(host, journal, call.id));
		expect(outcome.notes).toEqual([{ path: "Ideas/New idea.md", result: "trashed" }]);
		expect(host.vault.getFileByPath("Ideas/New idea.md")).toBeNull();
		await expect(fs.stat(nodePath.join(root, "Ideas/New idea.md"))).rejects.toMatchObject({ code: "ENOENT" });
		expect(await fs.readFile(nodePath.join(root, ".trash/New idea.md"), "utf8")).toBe("# New idea\r\nÜberlegung\r\n");

		const edited = tool.call("create_note");
		await tool.create(edited, "Other.md", "draft\n");
		await fs.writeFile(nodePath.join(root, "Other.md"), "draft\nthe person's own words\n");
		expect(succeeded(await undoCall(host, journal, edited.id)).notes).toEqual([{ path: "Other.md", result: "kept" }]);
		expect(await fs.readFile(nodePath.join(root, "Other.md"), "utf8")).toBe("draft\nthe person's own words\n");
	});

	test("undo of a created 1 MiB note hashes and records it in slices, and moves it to the trash", async () => {
		const text = `# Big\n${"- a line of a long note, é 😀\n".repeat(40_000)}`;
		expect(text.length).toBeGreaterThan(1_000_000);
		const call = tool.call("create_note");
		await tool.create(call, "Big.md", text);
		const pieces = countWorkPerPiece();
		// Characters hashed and made into journal text, counted in the piece they were handled in.
		const stringify = JSON.stringify.bind(JSON);
		const json = jest.spyOn(JSON, "stringify").mockImplementation((...args: Parameters<typeof JSON.stringify>) => {
			const made = stringify(...args);
			pieces.count(made?.length ?? 0);
			return made;
		});
		const hashes = Object.getPrototypeOf(createHash("sha256")) as Hash;
		const update = Object.getOwnPropertyDescriptor(hashes, "update")?.value as (this: Hash, data: string, encoding: Encoding) => Hash;
		const hashed = jest.spyOn(hashes, "update").mockImplementation(function (this: Hash, data: BinaryLike, encoding?: Encoding) {
			pieces.count(typeof data === "string" ? data.length : 0);
			return update.call(this, data as string, encoding as Encoding);
		});
		let outcome: UndoOutcome;
		try {
			outcome = await undoCall(host, journal, call.id);
		} finally {
			hashed.mockRestore();
			json.mockRestore();
			pieces.restore();
		}
		expect(succeeded(outcome).notes).toEqual([{ path: "Big.md", result: "trashed" }]);
		// Before: the note hashed and its journal line made in one piece, 2.2 million characters.
		expect(Math.max(...pieces.perPiece)).toBeLessThanOrEqual(4 * NOTE_TEXT_PIECE_CHARS);
		expect(await fs.readFile(nodePath.join(root, ".trash/Big.md"), "utf8")).toBe(text);
		const undo = journal.list(1)[0];
		expect(undo?.changes).toEqual([{ path: "Big.md", before: text, beforeHash: hashText(text), after: null, afterHash: null }]);
	});

	test("undo of a created note: a line another program adds in the gap between undo's last look and the move goes to the trash with the note, nothing lost", async () => {
		const call = tool.call("create_note");
		await tool.create(call, "Idea.md", "# Idea\n");
		// Held at the gap: undo has looked at the note a last time and is about to move it.
		const trashFile = host.fileManager.trashFile.bind(host.fileManager);
		const gate = jest.spyOn(host.fileManager, "trashFile").mockImplementation(async (file) => {
			await fs.appendFile(nodePath.join(root, "Idea.md"), "- a line another program added\n");
			await trashFile(file);
		});
		const outcome = succeeded(await undoCall(host, journal, call.id));
		gate.mockRestore();
		expect(outcome.notes).toEqual([{ path: "Idea.md", result: "trashed" }]);
		// The trash keeps the file itself (a move, never a copy of the text undo read): the line is there.
		expect(await fs.readFile(nodePath.join(root, ".trash/Idea.md"), "utf8")).toBe("# Idea\n- a line another program added\n");
		await expect(fs.stat(nodePath.join(root, "Idea.md"))).rejects.toMatchObject({ code: "ENOENT" });
	});

	test("the undo is in history as a call of undo by you, the call is marked, twice is refused, and undoing the undo brings the change back", async () => {
		const call = tool.call("append_to_note");
		await tool.edit(call, "Plain.md", (text) => `${text}three\n`);
		const outcome = succeeded(await undoCall(host, journal, call.id));

		const [newest, undone] = journal.list();
		expect(newest).toMatchObject({ id: outcome.undoId, tool: "undo", tokenName: "you", undone: null });
		expect(newest?.changes).toMatchObject([{ path: "Plain.md", before: "one\ntwo\nthree\n", after: "one\ntwo\n" }]);
		expect(undone).toMatchObject({ id: call.id, undone: { by: outcome.undoId } });

		const twice = await undoCall(host, journal, call.id);
		expect(twice).toEqual({
			ok: false,
			reason: expect.stringMatching(new RegExp(`^The change ${call.id} was already undone, at .+ \\(by ${outcome.undoId}\\)\\.$`)),
		});
		expect(await fs.readFile(nodePath.join(root, "Plain.md"), "utf8")).toBe("one\ntwo\n");

		succeeded(await undoCall(host, journal, outcome.undoId));
		expect(await fs.readFile(nodePath.join(root, "Plain.md"), "utf8")).toBe("one\ntwo\nthree\n");
	});

	test("an unknown id, or one the bounds dropped, is refused with a reason and changes nothing", async () => {
		const unknown = await undoCall(host, journal, "nosuchid");
		expect(unknown).toEqual({
			ok: false,
			reason: 'No change with id "nosuchid" in the journal: the id is unknown, or the change was among the oldest and was dropped.',
		});

		const small = JournalFile.forVault(root, ".obsidian", { maxEntries: 2, keepAfterTrim: 0.5 });
		const smallTool = new SimulatedTool(host, small);
		const first = smallTool.call();
		await smallTool.edit(first, "Plain.md", (text) => `${text}a\n`);
		await smallTool.edit(smallTool.call(), "Plain.md", (text) => `${text}b\n`);
		await smallTool.edit(smallTool.call(), "Plain.md", (text) => `${text}c\n`);
		// The trim the journal runs once writing pauses, run now.
		small.trimNow();
		const dropped = await undoCall(host, small, first.id);
		expect(dropped).toMatchObject({ ok: false, reason: expect.stringContaining("dropped") });
		expect(await fs.readFile(nodePath.join(root, "Plain.md"), "utf8")).toBe("one\ntwo\na\nb\nc\n");
	});

	test("a note already back as it was is left alone, and a note deleted since gets a conflict copy", async () => {
		const call = tool.call("append_to_note");
		await tool.edit(call, "Plain.md", (text) => `${text}x\n`);
		await tool.edit(call, "Daily/Grüße.md", (text) => `${text}x\r\n`);
		await fs.writeFile(nodePath.join(root, "Plain.md"), "one\ntwo\n");
		await fs.rm(nodePath.join(root, "Daily/Grüße.md"));
		await host.close();
		host = await NodeHost.open(root);
		const outcome = succeeded(await undoCall(host, journal, call.id));
		const copy = conflictCopyName("Daily/Grüße.md", "append_to_note", new Date(call.time));
		expect(outcome.notes).toEqual([
			{ path: "Daily/Grüße.md", result: "conflict", copy },
			{ path: "Plain.md", result: "unchanged" },
		]);
		expect(await fs.readFile(nodePath.join(root, copy), "utf8")).toBe(CRLF_NOTE);
		await expect(fs.stat(nodePath.join(root, "Daily/Grüße.md"))).rejects.toMatchObject({ code: "ENOENT" });
	});

	test("undo of a rename points a 1 MiB linking note edited since back at the old name in slices, keeping the edit", async () => {
		const linking = (name: string) =>
			Array.from({ length: 17_000 }, (_, index) => `- item ${index} links [[${name}]], lorem ipsum dolor sit amet ${index * 7}`).join("\n") + "\n";
		const [before, after] = [linking("Hub"), linking("Centre")];
		expect(after.length).toBeGreaterThan(1_000_000);
		await host.close();
		await removeDir(root);
		// The rename is done and a person has typed a line into the linking note since.
		const edited = `${after}typed by a person since\n`;
		root = await makeVault({ "Centre.md": "hub\n", "Big.md": edited });
		// As the CLI's undo opens the vault: no metadata made of every note first.
		host = await NodeHost.open(root, { metadata: false });
		journal = JournalFile.forVault(root, ".obsidian");
		const rename = { id: "r1", time: "2026-12-05T00:00:00.000Z", tokenName: "laptop", tool: "rename_note" };
		journal.recordChanges(rename, [
			{ path: "Centre.md", movedFrom: "Hub.md", before: "hub\n", beforeHash: hashText("hub\n"), after: "hub\n", afterHash: hashText("hub\n") },
			{ path: "Big.md", before, beforeHash: hashText(before), after, afterHash: hashText(after) },
		]);
		const pieces = countWorkPerPiece();
		// Markdown blocks read: the note's texts parsed to find its links.
		const blockState = new MarkdownIt().block.State.prototype;
		const original = Object.getOwnPropertyDescriptor(blockState, "push")?.value as typeof blockState.push;
		const push = jest.spyOn(blockState, "push").mockImplementation(function (this: typeof blockState, ...args) {
			pieces.count();
			return original.apply(this, args);
		});
		let outcome: UndoOutcome;
		try {
			outcome = await undoCall(host, journal, "r1");
		} finally {
			push.mockRestore();
			pieces.restore();
		}
		expect(succeeded(outcome).notes).toEqual([
			{ path: "Hub.md", result: "moved back", from: "Centre.md" },
			{ path: "Big.md", result: "relinked" },
		]);
		expect((await disk("Big.md")).toString()).toBe(`${before}typed by a person since\n`);
		// Before: the three texts' blocks all in one piece.
		expect(Math.max(...pieces.perPiece)).toBeLessThan(5_000);
	});

	test("undo of a rename that renamed links' shown names, in a note edited since: each link as the rename wrote it goes back as it was, shown name included", async () => {
		const before = "see [[Old/Plan|Plan]], [[Old/Plan|my beans]] and [Plan](Old/Plan.md)\n\n![[Old/Plan|Plan]]\n";
		// As rename writes it: a shown name that was the old name is the new one.
		const after = "see [[Garden/Beans|Beans]], [[Garden/Beans|my beans]] and [Beans](Garden/Beans.md)\n\n![[Garden/Beans|Beans]]\n";
		await journalRenameOfPlan("r2", before, after, "typed by a person since\n");
		const outcome = succeeded(await undoCall(host, journal, "r2"));
		expect(outcome.notes).toContainEqual({ path: "Links.md", result: "relinked" });
		// Before: "[[Old/Plan|Beans]]", "[Beans](Old/Plan.md)" and "![[Old/Plan|Beans]]", a name no note has, which the person never wrote.
		expect((await disk("Links.md")).toString()).toBe(`${before}typed by a person since\n`);
	});

	test("undo of a rename that made one link of two different ones ([[Old/Plan|Plan]] and [[Old/Plan|Beans]] both [[Garden/Beans|Beans]]), in a note edited since: both point back and keep the shown text, no guess", async () => {
		const before = "[[Old/Plan|Plan]] and [[Old/Plan|Beans]]\n";
		const after = "[[Garden/Beans|Beans]] and [[Garden/Beans|Beans]]\n";
		await journalRenameOfPlan("r3", before, after, "typed since\n");
		expect(succeeded(await undoCall(host, journal, "r3")).notes).toContainEqual({ path: "Links.md", result: "relinked" });
		expect((await disk("Links.md")).toString()).toBe("[[Old/Plan|Beans]] and [[Old/Plan|Beans]]\ntyped since\n");
	});

	test("conflict copy names fit the file-name limit", () => {
		const name = conflictCopyName(`Folder/${"ü".repeat(200)}.md`, "replace_in_note", new Date(2026, 11, 1, 9, 5));
		expect(name.startsWith("Folder/ü")).toBe(true);
		expect(name.endsWith(" (before replace_in_note 2026-12-01 09-05).md")).toBe(true);
		expect(Buffer.byteLength(name.slice("Folder/".length))).toBeLessThanOrEqual(240);
	});

	test("a journal's tool name that holds a path stays in the copy's name, beside the note", () => {
		const when = new Date(2026, 11, 1, 9, 5);
		expect(conflictCopyName("Notes/Plan.md", "set_property/../../Private/x", when)).toBe(
			"Notes/Plan (before set_property_______Private_x 2026-12-01 09-05).md",
		);
		expect(conflictCopyName("Plan.md", "a\\b\u0000c", when)).toBe("Plan (before a_b_c 2026-12-01 09-05).md");
	});
});

describe("undo of a rename many notes link to", () => {
	const LINKING = 3 * RELINKS_APPLIED_AT_ONCE + 10;
	const name = (index: number) => `Notes/N${String(index).padStart(3, "0")}.md`;
	const before = (index: number) => `Note ${index} links [[Hub]].\n`;
	const after = (index: number) => `Note ${index} links [[Centre]].\n`;
	/** A linking note's path, not its conflict copy's. */
	const LINKING_NOTE = /^Notes\/N\d{3}\.md$/u;
	let root: string;
	let host: NodeHost;
	let journal: JournalFile;

	/** The rename Hub → Centre done and journalled as rename_note journals it: the move, then each linking note's link change. */
	beforeEach(async () => {
		const files: Record<string, string> = { "Centre.md": "hub\n" };
		for (let index = 0; index < LINKING; index++) files[name(index)] = after(index);
		root = await makeVault(files);
		host = await NodeHost.open(root);
		journal = JournalFile.forVault(root, ".obsidian");
		const rename = { id: "r1", time: "2026-12-05T00:00:00.000Z", tokenName: "laptop", tool: "rename_note" };
		journal.recordChanges(rename, [
			{ path: "Centre.md", movedFrom: "Hub.md", before: "hub\n", beforeHash: hashText("hub\n"), after: "hub\n", afterHash: hashText("hub\n") },
			...Array.from({ length: LINKING }, (_, index) => ({
				path: name(index),
				before: before(index),
				beforeHash: hashText(before(index)),
				after: after(index),
				afterHash: hashText(after(index)),
			})),
		]);
	});
	afterEach(async () => {
		await host.close();
		await removeDir(root);
	});

	test("records its link changes a group at a time (one journal write and flush a group, not a note), every note restored, and its own undo redoes it", async () => {
		// A note a person rewrote since, its link gone: kept, and a copy of what the rename had made put beside it.
		await fs.writeFile(nodePath.join(root, name(5)), "rewritten by a person\n");
		const writes = jest.spyOn(journal, "recordChangesAhead");
		let outcome: UndoOutcome;
		let journalWrites: number;
		try {
			outcome = await undoCall(host, journal, "r1");
			journalWrites = writes.mock.calls.length;
		} finally {
			writes.mockRestore();
		}
		const undone = succeeded(outcome);
		expect(undone.notes[0]).toEqual({ path: "Hub.md", result: "moved back", from: "Centre.md" });
		expect(undone.notes.filter((note) => note.result === "restored")).toHaveLength(LINKING - 1);
		for (const index of [0, 1, RELINKS_APPLIED_AT_ONCE, LINKING - 1]) expect((await disk(name(index))).toString()).toBe(before(index));
		expect((await disk(name(5))).toString()).toBe("rewritten by a person\n");
		// Before: one journal write (and disk flush) for each note, 204. Now a group's, the move's, the conflict copy's, and the group the kept note splits in two.
		expect(journalWrites).toBeLessThanOrEqual(Math.ceil(LINKING / RELINKS_APPLIED_AT_ONCE) + 4);
		expect(journal.get(undone.undoId)?.changes.filter((change) => LINKING_NOTE.test(change.path))).toHaveLength(LINKING - 1);
		// The undo's records are what it wrote: undoing it makes the rename's links again.
		succeeded(await undoCall(host, journal, undone.undoId));
		expect((await disk(name(7))).toString()).toBe(after(7));
	});

	test("stopped by an error half-way through a group, it names what it did, its journal records only that, and undoing it gives back the renamed vault", async () => {
		const process = host.vault.process.bind(host.vault);
		let edits = 0;
		const failing = jest.spyOn(host.vault, "process").mockImplementation((file, edit) => {
			// The disk fails on the 70th link change (the move back is the first edit).
			if (++edits === RELINKS_APPLIED_AT_ONCE + 7) return Promise.reject(new Error("EIO: disk failed"));
			return process(file, edit);
		});
		let first: UndoOutcome;
		try {
			first = await undoCall(host, journal, "r1");
		} finally {
			failing.mockRestore();
		}
		expect(first.ok).toBe(false);
		if (first.ok) return;
		expect(first.reason).toMatch(/Running it again carries on\.$/);
		// Every note the journal says the stopped undo wrote holds the text it says, and no other note was recorded.
		const stopped = journal.list(10).find((entry) => entry.id !== "r1");
		const recorded = stopped?.changes.filter((change) => LINKING_NOTE.test(change.path)) ?? [];
		expect(recorded.length).toBe(RELINKS_APPLIED_AT_ONCE + 5);
		for (const change of recorded) expect((await disk(change.path)).toString()).toBe(change.after);
		// The notes after the failure were recorded ahead with their group and never written: their records are gone.
		for (let index = 0; index < LINKING; index++) {
			const path = name(index);
			if (!recorded.some((change) => change.path === path)) expect((await disk(path)).toString()).toBe(after(index));
		}
		// Its records undo it: the vault is as the rename left it.
		succeeded(await undoCall(host, journal, stopped?.id ?? ""));
		for (let index = 0; index < LINKING; index++) expect((await disk(name(index))).toString()).toBe(after(index));
		expect((await disk("Centre.md")).toString()).toBe("hub\n");
	});

	function disk(path: string): Promise<Buffer> {
		return fs.readFile(nodePath.join(root, path));
	}
});
