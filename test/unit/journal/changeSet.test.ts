import fc from "fast-check";
import { promises as fs, readFileSync } from "node:fs";
import * as nodePath from "node:path";
import { DIFF_STEP_WORK, NOTE_TEXT_PIECE_CHARS } from "../../../src/config/limits";
import { diffNoteSteps } from "../../../src/journal/noteDiff";
import {
	applyChangeSet,
	findChangedNote,
	journalBytesOf,
	journalBytesSteps,
	missingFolders,
	NoteChangedSinceError,
	WriteNoLongerAllowedError,
	type ApplyOptions,
	type NoteChange,
} from "../../../src/journal/changeSet";
import type { JournalCall } from "../../../src/journal/entry";
import { sha256Hex } from "../../../src/sha256";
import { openVault, type OpenVault } from "../../helpers/hostVault";
import { MemoryJournal } from "../../helpers/memoryJournal";
import { countWorkPerPiece } from "../../helpers/workPieces";
import { DiskWriter } from "../../../src/headless/DiskWriter";
import { replaceMethod } from "../../helpers/replaceMethod";

const APPROVED: ApplyOptions = { mayWrite: () => true, redoEdits: false };
let callCount = 0;
const call = (tool = "append_to_note"): JournalCall => ({ id: `call-${++callCount}`, time: "2026-12-02T11:00:00.000Z", tokenName: "laptop", tool });

describe("applyChangeSet: the one applier of planned writes", () => {
	let vault: OpenVault;
	let journal: MemoryJournal;
	const onDisk = (path: string) => fs.readFile(nodePath.join(vault.root, path), "utf8").catch(() => null);

	beforeEach(async () => {
		vault = await openVault({ "Daily.md": "# Today\n", "Ideas.md": "- one\n", "Old name.md": "moved text\n" });
		journal = new MemoryJournal();
	});
	afterEach(() => vault.close());

	test("edits, creates (with its folders) and moves as planned; the journal holds what each note had and got, with hashes", async () => {
		const made = call("several");
		const changes: NoteChange[] = [
			{ path: "Daily.md", before: "# Today\n", after: "# Today\n- walked\n" },
			{ path: "Projects/2026/Plan.md", before: null, after: "# Plan\n" },
			{ path: "New name.md", movedFrom: "Old name.md", before: "moved text\n", after: "moved text\n" },
		];
		const written = await applyChangeSet({ host: vault.host, journal, call: made }, changes, APPROVED);
		expect(Object.fromEntries(written)).toEqual({ "Daily.md": "# Today\n- walked\n", "Projects/2026/Plan.md": "# Plan\n", "New name.md": "moved text\n" });
		expect(await onDisk("Daily.md")).toBe("# Today\n- walked\n");
		expect(await onDisk("Projects/2026/Plan.md")).toBe("# Plan\n");
		expect(await onDisk("Old name.md")).toBeNull();
		expect(await onDisk("New name.md")).toBe("moved text\n");
		const entry = journal.get(made.id);
		expect(entry?.changes.map((change) => change.path)).toEqual(["Daily.md", "Projects/2026/Plan.md", "New name.md"]);
		expect(entry?.changes[0]).toMatchObject({
			before: "# Today\n",
			beforeHash: sha256Hex("# Today\n"),
			after: "# Today\n- walked\n",
			afterHash: sha256Hex("# Today\n- walked\n"),
		});
		expect(entry?.changes[1]).toMatchObject({ before: null, beforeHash: null, createdFolders: ["Projects", "Projects/2026"] });
		expect(entry?.changes[2]).toMatchObject({ movedFrom: "Old name.md" });
	});

	test("a note changed since the plan: nothing of the set is written, not even the notes before it, and the error names it", async () => {
		await fs.writeFile(nodePath.join(vault.root, "Ideas.md"), "- one\n- typed meanwhile\n");
		const changes: NoteChange[] = [
			{ path: "Daily.md", before: "# Today\n", after: "# Today\nx\n" },
			{ path: "Ideas.md", before: "- one\n", after: "- one\n- two\n" },
		];
		const error = await applyChangeSet({ host: vault.host, journal, call: call() }, changes, APPROVED).catch((caught: unknown) => caught);
		expect(error).toBeInstanceOf(NoteChangedSinceError);
		expect(error).toMatchObject({ path: "Ideas.md", written: [], message: '"Ideas.md" changed after this call was planned, so it was not written.' });
		expect(await onDisk("Daily.md")).toBe("# Today\n");
		expect(await onDisk("Ideas.md")).toBe("- one\n- typed meanwhile\n");
		expect(journal.list()).toEqual([]);
	});

	test("a new note whose path was taken meanwhile is not written over", async () => {
		await fs.writeFile(nodePath.join(vault.root, "Taken.md"), "someone else's\n");
		const error = await applyChangeSet(
			{ host: vault.host, journal, call: call("create_note") },
			[{ path: "Taken.md", before: null, after: "mine\n" }],
			APPROVED,
		).catch((caught: unknown) => caught);
		expect(error).toBeInstanceOf(NoteChangedSinceError);
		expect(await onDisk("Taken.md")).toBe("someone else's\n");
	});

	test("when the right goes away mid-set, the notes not yet written stay as they were, and the error lists those written", async () => {
		const changes: NoteChange[] = [
			{ path: "Daily.md", before: "# Today\n", after: "# Today\nx\n" },
			{ path: "Ideas.md", before: "- one\n", after: "- one\n- two\n" },
		];
		// The right goes away once the first note is written.
		const mayWrite = () => readFileSync(nodePath.join(vault.root, "Daily.md"), "utf8") === "# Today\n";
		const error = await applyChangeSet({ host: vault.host, journal, call: call() }, changes, { ...APPROVED, mayWrite }).catch((caught: unknown) => caught);
		expect(error).toBeInstanceOf(WriteNoLongerAllowedError);
		expect((error as WriteNoLongerAllowedError).written).toEqual(["Daily.md"]);
		expect(await onDisk("Daily.md")).toBe("# Today\nx\n");
		expect(await onDisk("Ideas.md")).toBe("- one\n");
	});

	test("a rename's link edits, written with pauses between them: once the right goes away, no later note is written, and the journal holds exactly those that were", async () => {
		const notes = Array.from({ length: 150 }, (_, index) => `L${index}.md`);
		await vault.close();
		vault = await openVault(Object.fromEntries(notes.map((path) => [path, "[[Hub]]\n"])));
		const relinked = (text: string) => text.replace("[[Hub]]", "[[Centre]]");
		const changes: NoteChange[] = notes.map((path) => ({ path, before: "[[Hub]]\n", after: "[[Centre]]\n", relink: true, redo: relinked }));
		let editsDone = 0;
		const edit = Object.getOwnPropertyDescriptor(DiskWriter.prototype, "editOnce")?.value as DiskWriter["editOnce"];
		const edits = jest.spyOn(DiskWriter.prototype, "editOnce").mockImplementation(async function (this: DiskWriter, ...args) {
			const result = await edit.apply(this, args);
			editsDone++;
			return result;
		});
		// Every look at the clock finds the slice used up: a pause between every two notes of a group.
		const pieces = countWorkPerPiece();
		const made = call("rename_note");
		let error: unknown;
		try {
			error = await applyChangeSet({ host: vault.host, journal, call: made }, changes, { ...APPROVED, mayWrite: () => editsDone < 10 }).catch(
				(caught: unknown) => caught,
			);
		} finally {
			pieces.restore();
			edits.mockRestore();
		}
		expect(error).toBeInstanceOf(WriteNoLongerAllowedError);
		const written = (error as WriteNoLongerAllowedError).written;
		expect(written).toHaveLength(10);
		for (const path of notes) expect(await onDisk(path)).toBe(written.includes(path) ? "[[Centre]]\n" : "[[Hub]]\n");
		expect(
			journal
				.get(made.id)
				?.changes.map((change) => change.path)
				.sort(),
		).toEqual([...written].sort());
	});

	test("a rename's link edits the person saw: a linking note changed since is not relinked on its new text, before the first write or at its own", async () => {
		await vault.close();
		vault = await openVault({ "A.md": "[[Hub]]\n", "B.md": "[[Hub]]\n" });
		const relinked = (text: string) => text.replace("[[Hub]]", "[[Centre]]");
		const changes: NoteChange[] = ["A.md", "B.md"].map((path) => ({ path, before: "[[Hub]]\n", after: "[[Centre]]\n", relink: true, redo: relinked }));
		const shown: ApplyOptions = { ...APPROVED, shownRelinks: true };
		// Changed before the set is applied: nothing written.
		await fs.writeFile(nodePath.join(vault.root, "B.md"), "[[Hub]] and [Hub](Hub.md)\n");
		const early = await applyChangeSet({ host: vault.host, journal, call: call("rename_note") }, changes, shown).catch((caught: unknown) => caught);
		expect(early).toMatchObject({ path: "B.md", written: [] });
		expect([await onDisk("A.md"), await onDisk("B.md")]).toEqual(["[[Hub]]\n", "[[Hub]] and [Hub](Hub.md)\n"]);
		// Changed in the instant before its own write (as A's is made): left as the other program wrote it. Changed as B's edit
		// begins, not as A's: the notes' writes run side by side, and B's, begun before A's wait for the disk ended, sometimes read
		// B first (2 of 8 runs failed, B relinked on the text the person saw or the other program's text written over it).
		await fs.writeFile(nodePath.join(vault.root, "B.md"), "[[Hub]]\n");
		const edit = Object.getOwnPropertyDescriptor(DiskWriter.prototype, "editOnce")?.value as DiskWriter["editOnce"];
		const edits = jest.spyOn(DiskWriter.prototype, "editOnce").mockImplementation(async function (this: DiskWriter, ...args) {
			if (nodePath.basename(args[0]) === "B.md") await fs.writeFile(nodePath.join(vault.root, "B.md"), "[[Hub]] and [Hub](Hub.md)\n");
			return edit.apply(this, args);
		});
		const made = call("rename_note");
		let late: unknown;
		try {
			late = await applyChangeSet({ host: vault.host, journal, call: made }, changes, shown).catch((caught: unknown) => caught);
		} finally {
			edits.mockRestore();
		}
		expect(late).toBeInstanceOf(NoteChangedSinceError);
		expect(late).toMatchObject({ path: "B.md", written: ["A.md"] });
		expect([await onDisk("A.md"), await onDisk("B.md")]).toEqual(["[[Centre]]\n", "[[Hub]] and [Hub](Hub.md)\n"]);
		expect(journal.get(made.id)?.changes.map((change) => change.path)).toEqual(["A.md"]);
	});

	test("an overwrite whose right goes away once its note is replaced still keeps the replaced text in its backup; nothing else is written", async () => {
		const changes: NoteChange[] = [
			{ path: "Daily.md", before: "# Today\n", after: "replaced\n", redo: () => "replaced\n" },
			// Its backup's second name: `Daily.md.bak` was taken.
			{ path: "Daily.md.2.bak", before: null, after: "# Today\n" },
			{ path: "Ideas.md.bak", before: null, after: "- one\n" },
			{ path: "Ideas.md", before: "- one\n", after: "- one\n- two\n" },
		];
		// The right goes away once the note is replaced.
		const mayWrite = () => readFileSync(nodePath.join(vault.root, "Daily.md"), "utf8") === "# Today\n";
		const error = await applyChangeSet({ host: vault.host, journal, call: call("create_note") }, changes, { ...APPROVED, mayWrite }).catch(
			(caught: unknown) => caught,
		);
		expect(error).toBeInstanceOf(WriteNoLongerAllowedError);
		expect((error as WriteNoLongerAllowedError).written).toEqual(["Daily.md", "Daily.md.2.bak"]);
		expect(await onDisk("Daily.md")).toBe("replaced\n");
		expect(await onDisk("Daily.md.2.bak")).toBe("# Today\n");
		// Not a backup of a note this set replaced (that note is not written yet): refused, as every other change.
		expect(await onDisk("Ideas.md.bak")).toBeNull();
		expect(await onDisk("Ideas.md")).toBe("- one\n");
	});

	test("a call allowed without asking makes its edit again on a note that changed meanwhile; an approved one does not", async () => {
		const append = (text: string) => `${text}- appended\n`;
		await fs.writeFile(nodePath.join(vault.root, "Ideas.md"), "- one\n- other program\n");
		const change: NoteChange = { path: "Ideas.md", before: "- one\n", after: append("- one\n"), redo: append };
		await expect(applyChangeSet({ host: vault.host, journal, call: call() }, [change], APPROVED)).rejects.toBeInstanceOf(NoteChangedSinceError);
		const written = await applyChangeSet({ host: vault.host, journal, call: call() }, [change], { ...APPROVED, redoEdits: true });
		expect(written.get("Ideas.md")).toBe("- one\n- other program\n- appended\n");
		expect(await onDisk("Ideas.md")).toBe("- one\n- other program\n- appended\n");
	});

	test.each([
		// Before: made again, hashed and recorded inside the atomic edit, 2.1 million characters in one piece.
		["allowed without asking (made again on any newer text)", { redoEdits: true }],
		[
			"approved (made again only if it removes and adds the same lines)",
			{
				redoEdits: false,
				acceptsRedo: function* (before: string, after: string) {
					const diff = yield* diffNoteSteps(before, after);
					return diff.lines.filter((line) => line.kind === "added" || line.kind === "removed").length === 1;
				},
			},
		],
	])(
		"an edit %s of a 1 MiB note another program changed meanwhile is made again, checked and recorded in slices, not inside the atomic edit; nothing is lost",
		async (_how, redoOptions) => {
			const planned =
				Array.from({ length: 17_000 }, (_, index) => `- item ${index}, lorem ipsum dolor sit amet, consectetur ${index * 7}`).join("\n") + "\n";
			expect(planned.length).toBeGreaterThan(1_000_000);
			await vault.close();
			vault = await openVault({ "Big.md": planned });
			const append = (text: string) => `${text}- appended by the call\n`;
			const change: NoteChange = { path: "Big.md", before: planned, after: append(planned), redo: append };
			// Another program adds a line while the planned change's record is being written ahead of the note.
			const changed = `${planned}- the other program's line\n`;
			const recordAhead = journal.recordChangesAhead.bind(journal);
			let otherProgramWrote = false;
			let ahead = false;
			jest.spyOn(journal, "recordChangesAhead").mockImplementation(async (made, records) => {
				ahead = true;
				await recordAhead(made, records);
				ahead = false;
				if (!otherProgramWrote) await fs.writeFile(nodePath.join(vault.root, "Big.md"), changed);
				otherProgramWrote = true;
			});
			const pieces = countWorkPerPiece();
			// Characters recorded inside the atomic edit: hashed, escaped and written to the journal there, in one piece.
			const recordChange = jest.spyOn(journal, "recordChange").mockImplementation(function (this: MemoryJournal, made, record) {
				if (!ahead) pieces.count((record.before?.length ?? 0) + (record.after?.length ?? 0));
				MemoryJournal.prototype.recordChange.call(this, made, record);
			});
			// Lines split by the compare with what was approved.
			const endsWith = Object.getOwnPropertyDescriptor(String.prototype, "endsWith")?.value as (this: string, search: string) => boolean;
			const split = replaceMethod(String.prototype, "endsWith", function (this: string, search: string) {
				pieces.count();
				return endsWith.call(this, search);
			});
			const made = call();
			let written: Map<string, string>;
			try {
				written = await applyChangeSet({ host: vault.host, journal, call: made }, [change], { ...APPROVED, ...redoOptions });
			} finally {
				split.restore();
				recordChange.mockRestore();
				pieces.restore();
			}
			// Before: 2.1 million characters in one piece (and 64,000 lines split by the compare).
			expect(Math.max(...pieces.perPiece)).toBeLessThanOrEqual(2 * DIFF_STEP_WORK);
			expect(written.get("Big.md")).toBe(append(changed));
			expect(await onDisk("Big.md")).toBe(append(changed));
			expect(otherProgramWrote).toBe(true);
			expect(journal.get(made.id)?.changes).toEqual([
				{ path: "Big.md", before: changed, beforeHash: sha256Hex(changed), after: append(changed), afterHash: sha256Hex(append(changed)) },
			]);
		},
	);

	test("two sets planned on the same text of one note: the second, applied at the same moment, finds it changed", async () => {
		const first = applyChangeSet({ host: vault.host, journal, call: call() }, [{ path: "Daily.md", before: "# Today\n", after: "# Today\nA\n" }], APPROVED);
		const second = applyChangeSet(
			{ host: vault.host, journal, call: call() },
			[{ path: "Daily.md", before: "# Today\n", after: "# Today\nB\n" }],
			APPROVED,
		);
		const outcomes = await Promise.allSettled([first, second]);
		expect(outcomes.map((outcome) => outcome.status)).toEqual(["fulfilled", "rejected"]);
		expect(await onDisk("Daily.md")).toBe("# Today\nA\n");
	});

	test("findChangedNote: null when every note is as planned, else the first that is not", async () => {
		expect(await findChangedNote(vault.host, [{ path: "Daily.md", before: "# Today\n", after: "x" }])).toBeNull();
		expect(await findChangedNote(vault.host, [{ path: "Daily.md", before: "stale", after: "x" }])).toBe("Daily.md");
		expect(
			await findChangedNote(vault.host, [{ path: "New name.md", movedFrom: "Old name.md", before: "moved text\n", after: "moved text\n" }]),
		).toBeNull();
		expect(await findChangedNote(vault.host, [{ path: "Daily.md", movedFrom: "Old name.md", before: "moved text\n", after: "x" }])).toBe("Daily.md");
	});

	test("missingFolders: the folders a new note needs, outermost first, none when its folder exists", () => {
		expect(missingFolders(vault.host, "A/B/Note.md")).toEqual(["A", "A/B"]);
		expect(missingFolders(vault.host, "Note.md")).toEqual([]);
	});
});

describe("journalBytesOf: what a set's journal records will take", () => {
	test("grows with every text it keeps, counted as escaped UTF-8", () => {
		const small = journalBytesOf([{ path: "a.md", before: null, after: "x" }]);
		const edit = journalBytesOf([{ path: "a.md", before: "x", after: "x" }]);
		expect(edit).toBeGreaterThan(small);
		const wide = journalBytesOf([{ path: "a.md", before: null, after: "é".repeat(1000) }]);
		expect(wide - small).toBeGreaterThanOrEqual(1999);
		const quoted = journalBytesOf([{ path: "a.md", before: null, after: '"'.repeat(1000) }]);
		expect(quoted - small).toBeGreaterThanOrEqual(1999);
		expect(journalBytesOf([])).toBe(0);
	});

	test("a megabyte note's two texts are counted in steps that may pause, to the same count (one piece before)", () => {
		const before = '- [ ] a task 📅 2025-01-01 "quoted"\n'.repeat(30_000);
		const changes = [{ path: "Big.md", before, after: `${before}- [ ] one more\n` }];
		const steps = journalBytesSteps(changes);
		let pauses = 0;
		let next = steps.next();
		for (; !next.done; next = steps.next()) pauses++;
		expect(next.value).toBe(journalBytesOf(changes));
		// Before: no step at all (the function was not stepped).
		expect(pauses).toBeGreaterThanOrEqual(Math.floor((2 * before.length) / NOTE_TEXT_PIECE_CHARS));
	});

	test("a rename's thousands of small notes are counted in steps that may pause between notes (one piece of 30-130 ms at 10,000 before)", () => {
		const changes = Array.from({ length: 2_000 }, (_, index) => ({
			path: `Notes/N${index}.md`,
			before: `Note ${index} links [[Old/Plan|Plan]].\n`,
			after: `Note ${index} links [[New/Plan|Plan]].\n`,
		}));
		const steps = journalBytesSteps(changes);
		let pauses = 0;
		let next = steps.next();
		for (; !next.done; next = steps.next()) pauses++;
		expect(next.value).toBe(journalBytesOf(changes));
		// Before: no pause (no text reached NOTE_TEXT_PIECE_CHARS), so the whole set was counted in one piece.
		expect(pauses).toBeGreaterThanOrEqual(changes.length - 1);
	});

	test("counts each text as the bytes of its JSON string, escapes included", () => {
		const texts = [
			"",
			"plain",
			'a "quote" and a \\ backslash',
			"line\nend\r\n\ttab\b\f",
			"\u0000\u0001\u001f\u007f",
			"é 🙂 中",
			"|0|[[N0]]|#t0|\n".repeat(500),
		];
		const bytesOf = (text: string) => Buffer.byteLength(JSON.stringify(text));
		const base = journalBytesOf([{ path: "a.md", before: null, after: "" }]);
		for (const text of texts) {
			expect(journalBytesOf([{ path: "a.md", before: null, after: text }]) - base).toBe(bytesOf(text) - bytesOf(""));
		}
		const piece = fc.oneof(
			fc.string({ unit: "grapheme", maxLength: 4 }),
			fc.constantFrom(...Array.from({ length: 32 }, (_, code) => String.fromCharCode(code)), '"', "\\"),
		);
		fc.assert(
			fc.property(fc.array(piece, { maxLength: 40 }), (pieces) => {
				const text = pieces.join("");
				expect(journalBytesOf([{ path: "a.md", before: null, after: text }]) - base).toBe(bytesOf(text) - bytesOf(""));
			}),
		);
	});
});
