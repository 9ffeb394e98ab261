import { mkdirSync, promises as fs, renameSync, symlinkSync } from "node:fs";
import * as nodePath from "node:path";
import { NodeHost } from "../../../src/headless/NodeHost";
import { applyChange } from "../../../src/journal/changeSet";
import { JournalFile } from "../../../src/journal/JournalFile";
import { newCallId, undoCall } from "../../../src/journal/undo";
import { makeTempDir, makeVault, removeDir } from "../../helpers/vault";

/**
 * Undo of a create removes the folders the create made, when empty. Another program swaps a folder
 * above the one being removed for a link to a folder outside the vault after the server looked at
 * it and just before the removal (the gate below holds the removal at that instant): the empty
 * folder of the same name outside the vault must stay.
 */
test("undo of a create: a folder above the one removed, swapped for a link to an outside folder at the removal, leads nothing outside to be removed", async () => {
	const root = await makeVault({ "Plain.md": "one\n" });
	const outside = await makeTempDir("undo-folder-swap-outside-");
	mkdirSync(nodePath.join(outside, "B"));
	const host = await NodeHost.open(root);
	const journal = JournalFile.forVault(root, ".obsidian");
	const made = { id: newCallId(), time: new Date().toISOString(), tokenName: "laptop", tool: "create_note" };
	await applyChange({ host, journal, call: made }, { path: "A/B/Note.md", before: null, after: "new\n" }, false);
	const realA = nodePath.join(host.vault.root, "A");
	const rmdir = fs.rmdir.bind(fs);
	let swapped = false;
	// The gate: the first folder removal waits for the other program's swap, made after every look the server took.
	const spy = jest.spyOn(fs, "rmdir").mockImplementation(async (path, options) => {
		if (!swapped) {
			renameSync(realA, `${realA}-moved`);
			symlinkSync(outside, realA);
			swapped = true;
		}
		return rmdir(path, options);
	});
	try {
		await undoCall(host, journal, made.id);
		expect(swapped).toBe(true);
		// Before: the server removed <outside>/B through the link.
		expect((await fs.stat(nodePath.join(outside, "B"))).isDirectory()).toBe(true);
		expect(await fs.readdir(outside)).toEqual(["B"]);
	} finally {
		spy.mockRestore();
		await host.close();
		await removeDir(root);
		await removeDir(outside);
	}
});

test("undo of a create: a note another program makes in the folder at the instant of its removal stays, and so does the folder", async () => {
	const root = await makeVault({ "Plain.md": "one\n" });
	const host = await NodeHost.open(root);
	const journal = JournalFile.forVault(root, ".obsidian");
	const made = { id: newCallId(), time: new Date().toISOString(), tokenName: "laptop", tool: "create_note" };
	await applyChange({ host, journal, call: made }, { path: "A/B/Note.md", before: null, after: "new\n" }, false);
	const rmdir = fs.rmdir.bind(fs);
	let written = false;
	// The gate: the removal waits for the other program's note, made after every look the server took.
	const spy = jest.spyOn(fs, "rmdir").mockImplementation(async (path, options) => {
		if (!written) {
			await fs.writeFile(nodePath.join(host.vault.root, "A/B/Theirs.md"), "the other program's note\n");
			written = true;
		}
		return rmdir(path, options);
	});
	try {
		await undoCall(host, journal, made.id);
		expect(written).toBe(true);
		expect(await fs.readFile(nodePath.join(root, "A/B/Theirs.md"), "utf8")).toBe("the other program's note\n");
	} finally {
		spy.mockRestore();
		await host.close();
		await removeDir(root);
	}
});

/**
 * Undo of a create moves the note to the trash once it has read it again and found it as the call
 * left it. The person moves it into an excluded folder while that last read waits for the disk (the
 * same file object, renamed in place): it is no longer the note the call created there, and stays.
 */
test("undo of a create: a note moved into an excluded folder while undo reads it a last time is not moved to the trash from there", async () => {
	const root = await makeVault({ "Plain.md": "one\n" });
	const host = await NodeHost.open(root);
	const journal = JournalFile.forVault(root, ".obsidian");
	const made = { id: newCallId(), time: new Date().toISOString(), tokenName: "laptop", tool: "create_note" };
	await applyChange({ host, journal, call: made }, { path: "Notes/New.md", before: null, after: "new\n" }, false);
	const read = host.vault.read.bind(host.vault);
	let reads = 0;
	const spy = jest.spyOn(host.vault, "read").mockImplementation(async (file) => {
		// The second read is undo's last look before the move to the trash.
		if (++reads === 2) await host.vault.rename(file, "Private/New.md");
		return read(file);
	});
	try {
		const outcome = await undoCall(host, journal, made.id, "you", ["Private"]);
		expect(reads).toBe(2);
		// Before: the note was moved to the trash from the excluded folder, and undo said it had trashed "Notes/New.md".
		expect(await fs.readFile(nodePath.join(root, "Private/New.md"), "utf8")).toBe("new\n");
		expect(outcome.ok && outcome.notes).toEqual([{ path: "Notes/New.md", result: "kept" }]);
	} finally {
		spy.mockRestore();
		await host.close();
		await removeDir(root);
	}
});

/**
 * The same move a moment later: undo's last look found the note as the call left it, and the trash
 * waits for the note's write turn, which the person's move holds. It ran from wherever the note was
 * once its turn came (the file object, renamed in place): from the excluded folder.
 */
test("undo of a create: a note whose move into an excluded folder holds its turn as undo sends it to the trash is not moved to the trash from there", async () => {
	const root = await makeVault({ "Plain.md": "one\n" });
	const host = await NodeHost.open(root);
	const journal = JournalFile.forVault(root, ".obsidian");
	const made = { id: newCallId(), time: new Date().toISOString(), tokenName: "laptop", tool: "create_note" };
	await applyChange({ host, journal, call: made }, { path: "Notes/New.md", before: null, after: "new\n" }, false);
	const read = host.vault.read.bind(host.vault);
	let reads = 0;
	let moved: Promise<void> = Promise.resolve();
	const spy = jest.spyOn(host.vault, "read").mockImplementation(async (file) => {
		const text = await read(file);
		// Undo's last look is answered; the person's move begins right then, and undo's trash waits for its turn.
		if (++reads === 2) moved = host.vault.rename(file, "Private/New.md");
		return text;
	});
	try {
		const outcome = await undoCall(host, journal, made.id, "you", ["Private"]);
		await moved;
		expect(reads).toBe(2);
		// Before: "Private/New.md" was in the trash, and undo said it had trashed "Notes/New.md".
		expect(await fs.readFile(nodePath.join(root, "Private/New.md"), "utf8")).toBe("new\n");
		expect(outcome.ok && outcome.notes).toEqual([{ path: "Notes/New.md", result: "kept" }]);
		// History names no trashing that was not made.
		expect(journal.get(outcome.ok ? outcome.undoId : "")?.changes ?? []).toEqual([]);
	} finally {
		spy.mockRestore();
		await host.close();
		await removeDir(root);
	}
});
