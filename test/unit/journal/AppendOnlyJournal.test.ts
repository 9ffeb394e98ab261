import { mkdirSync, promises as fs, renameSync, symlinkSync, writeFileSync } from "node:fs";
import * as nodePath from "node:path";
import { OwnFileLinkError } from "../../../src/config/ownFiles";
import { AppendOnlyJournal } from "../../../src/journal/AppendOnlyJournal";
import type { JournalCall } from "../../../src/journal/entry";
import { JournalFile, journalPathFor } from "../../../src/journal/JournalFile";
import { hashText } from "../../../src/vault/writes";
import { makeTempDir, makeVault, removeDir } from "../../helpers/vault";

describe("AppendOnlyJournal: records appended to a journal it never reads", () => {
	let root: string;
	let path: string;
	const undo: JournalCall = { id: "undo1", time: "2026-12-05T01:00:00.000Z", tokenName: "you", tool: "undo" };
	const text = `# Big\n${'- é 😀 "quoted" \\ line\n'.repeat(5_000)}`;

	beforeEach(async () => {
		root = await makeVault({ "Plain.md": "one\n" });
		path = journalPathFor(root, ".obsidian");
	});
	afterEach(() => removeDir(root));

	test("reads back, through the journal that reads it whole, as the calls and marks it recorded; the file is only appended to", async () => {
		mkdirSync(nodePath.dirname(path), { recursive: true });
		const earlier =
			'{"kind":"change","id":"call1","time":"t","tokenName":"Laptop","tool":"append_to_note","path":"Big.md","before":"a","beforeHash":null,"after":"b","afterHash":null}\n';
		writeFileSync(path, earlier);
		const journal = new AppendOnlyJournal(path, root, []);
		await journal.recordChangesAhead(undo, [
			{ path: "Big.md", before: `${text}more\n`, beforeHash: hashText(`${text}more\n`), after: text, afterHash: hashText(text) },
		]);
		journal.recordChange(undo, { path: "Other.md", before: "x\n", beforeHash: hashText("x\n"), after: "y\n", afterHash: hashText("y\n") });
		journal.dropChange(undo.id, "Other.md");
		journal.markUndone("call1", undo.id);
		const file = await fs.readFile(path, "utf8");
		expect(file.startsWith(earlier)).toBe(true);
		const whole = JournalFile.open(path);
		expect(whole.get(undo.id)).toEqual(journal.get(undo.id));
		expect(whole.get(undo.id)?.changes).toEqual([
			{ path: "Big.md", before: `${text}more\n`, beforeHash: hashText(`${text}more\n`), after: text, afterHash: hashText(text) },
		]);
		expect(whole.skippedLines).toBe(0);
	});

	test("a journal, or its folder, that is a link to outside the vault is refused: nothing is written there", async () => {
		const outside = await makeTempDir("append-only-outside-");
		try {
			mkdirSync(nodePath.dirname(path), { recursive: true });
			writeFileSync(nodePath.join(outside, "journal.jsonl"), "");
			symlinkSync(nodePath.join(outside, "journal.jsonl"), path);
			const journal = new AppendOnlyJournal(path, root, []);
			expect(() => journal.markUndone("call1", "undo1")).toThrow(OwnFileLinkError);
			expect(await fs.readFile(nodePath.join(outside, "journal.jsonl"), "utf8")).toBe("");

			await fs.rm(path);
			const folder = nodePath.dirname(path);
			renameSync(folder, `${folder}-moved`);
			symlinkSync(outside, folder);
			expect(() => journal.markUndone("call1", "undo1")).toThrow(OwnFileLinkError);
			expect(await fs.readdir(outside)).toEqual(["journal.jsonl"]);
			expect(await fs.readFile(nodePath.join(outside, "journal.jsonl"), "utf8")).toBe("");
		} finally {
			await removeDir(outside);
		}
	});
	test("opened to undo one call, a note it moves records the other calls' changes there as moved with it, not undone ones, not other notes", async () => {
		mkdirSync(nodePath.dirname(path), { recursive: true });
		const change = (id: string, note: string) =>
			`${JSON.stringify({ kind: "change", id, time: "t", tokenName: "Laptop", tool: "append_to_note", path: note, before: "a", beforeHash: null, after: "b", afterHash: null })}\n`;
		writeFileSync(
			path,
			change("earlier", "Plan.md") +
				change("undoneSince", "Plan.md") +
				'{"kind":"undone","id":"undoneSince","time":"t","by":"u0"}\n' +
				change("movedHere", "Old.md") +
				'{"kind":"moved","id":"movedHere","path":"Old.md","nowAt":"Archive/Plan.md"}\n' +
				change("rename", "Archive/Plan.md") +
				change("elsewhere", "Other.md"),
		);
		const opened = JournalFile.openToUndo(path, "rename", { vaultRoot: root });
		opened?.journal.noteMoved("Archive/Plan.md", "Plan.md");
		const whole = JournalFile.open(path, { vaultRoot: root });
		expect(whole.get("movedHere")?.changes[0]?.nowAt).toBe("Plan.md");
		expect(whole.get("rename")?.changes[0]?.nowAt).toBe("Plan.md");
		expect(whole.get("earlier")?.changes[0]?.nowAt).toBeUndefined();
		expect(whole.get("undoneSince")?.changes[0]?.nowAt).toBeUndefined();
		expect(whole.get("elsewhere")?.changes[0]?.nowAt).toBeUndefined();
	});
});
