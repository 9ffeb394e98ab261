import { promises as fs } from "node:fs";
import * as nodePath from "node:path";
import { NodeHost } from "../../../src/headless/NodeHost";
import { applyChange } from "../../../src/journal/changeSet";
import { JournalFile } from "../../../src/journal/JournalFile";
import { describeUndo, newCallId, undoCall, type UndoOutcome } from "../../../src/journal/undo";
import type { JournalCall } from "../../../src/journal/entry";
import { hashText } from "../../../src/vault/writes";
import { makeVault, removeDir } from "../../helpers/vault";

function succeeded(outcome: UndoOutcome): Extract<UndoOutcome, { ok: true }> {
	if (!outcome.ok) throw new Error(`undo failed: ${outcome.reason}`);
	return outcome;
}

const exists = (path: string) =>
	fs.stat(path).then(
		() => true,
		() => false,
	);

describe("undo of a create removes the folders the create made, when empty", () => {
	let root: string;
	let host: NodeHost;
	let journal: JournalFile;
	const call = (): JournalCall => ({ id: newCallId(), time: new Date().toISOString(), tokenName: "laptop", tool: "create_note" });
	/** Creates a note through the write path's own applier, as create_note does. */
	const create = async (path: string, text = "new\n") => {
		const made = call();
		await applyChange({ host, journal, call: made }, { path, before: null, after: text }, false);
		return made;
	};
	const onDisk = (path: string) => exists(nodePath.join(root, path));

	beforeEach(async () => {
		root = await makeVault({ "Plain.md": "one\n" });
		await fs.mkdir(nodePath.join(root, "Existing"));
		await fs.mkdir(nodePath.join(root, "Elsewhere"));
		host = await NodeHost.open(root);
		journal = JournalFile.forVault(root, ".obsidian");
	});
	afterEach(async () => {
		await host.close();
		await removeDir(root);
	});

	test("the journal names the folders a create made, and undo removes them, innermost first", async () => {
		const made = await create("A/B/C/Note.md");
		expect(journal.get(made.id)?.changes[0]?.createdFolders).toEqual(["A", "A/B", "A/B/C"]);
		const outcome = succeeded(await undoCall(host, journal, made.id));
		expect(outcome.notes).toEqual([{ path: "A/B/C/Note.md", result: "trashed", removedFolders: ["A/B/C", "A/B", "A"] }]);
		expect(await onDisk("A")).toBe(false);
		expect(await fs.readFile(nodePath.join(root, ".trash/Note.md"), "utf8")).toBe("new\n");
		expect(describeUndo(outcome)).toContain('removed the empty folders it was made in ("A/B/C", "A/B", "A")');
	});

	test("a folder that existed before the create stays, even when it is empty afterwards", async () => {
		const made = await create("Existing/New/Note.md");
		expect(journal.get(made.id)?.changes[0]?.createdFolders).toEqual(["Existing/New"]);
		succeeded(await undoCall(host, journal, made.id));
		expect(await onDisk("Existing/New")).toBe(false);
		expect(await onDisk("Existing")).toBe(true);
		const atTop = await create("Top.md");
		expect(journal.get(atTop.id)?.changes[0]?.createdFolders).toBeUndefined();
		expect(succeeded(await undoCall(host, journal, atTop.id)).notes).toEqual([{ path: "Top.md", result: "trashed" }]);
	});

	test("a folder that holds anything since (a note, a file the vault does not list) stays, and so do the folders above it", async () => {
		const made = await create("A/B/C/Note.md");
		await fs.writeFile(nodePath.join(root, "A/B/Later.md"), "the person's note\n");
		expect(succeeded(await undoCall(host, journal, made.id)).notes).toEqual([{ path: "A/B/C/Note.md", result: "trashed", removedFolders: ["A/B/C"] }]);
		expect(await fs.readFile(nodePath.join(root, "A/B/Later.md"), "utf8")).toBe("the person's note\n");

		const other = await create("X/Y/Note.md");
		await fs.writeFile(nodePath.join(root, "X/Y/.DS_Store"), "");
		expect(succeeded(await undoCall(host, journal, other.id)).notes).toEqual([{ path: "X/Y/Note.md", result: "trashed" }]);
		expect(await onDisk("X/Y/.DS_Store")).toBe(true);
	});

	test("a planted journal line cannot make undo remove a folder that is not above its note, the config folder or the vault itself", async () => {
		await fs.mkdir(nodePath.join(root, ".obsidian"), { recursive: true });
		const planted = call();
		await fs.mkdir(nodePath.join(root, "Made"));
		await host.vault.create("Made/Note.md", "planted\n");
		journal.recordChange(planted, {
			path: "Made/Note.md",
			before: null,
			beforeHash: null,
			after: "planted\n",
			afterHash: hashText("planted\n"),
			createdFolders: ["Made", ".obsidian", "Elsewhere"],
		});
		const outcome = succeeded(await undoCall(host, journal, planted.id));
		expect(outcome.notes).toEqual([{ path: "Made/Note.md", result: "trashed" }]);
		for (const kept of ["Elsewhere", ".obsidian", "Made"]) expect(await onDisk(kept)).toBe(true);
		expect(await exists(root)).toBe(true);
	});
});
