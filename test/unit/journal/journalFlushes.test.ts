/**
 * The journal's flushes to disk that are made on the event loop (`fsyncSync`), per kind of line: a sleep in a
 * flush is invisible to a CPU measure, and on this shared machine one flush held the loop up to 0.78 s, every
 * other client (in Obsidian, the UI) waiting. Only a record made inside a note's atomic edit is still flushed
 * there (the note's bytes follow it at once); the rest take their place in the file at once and are flushed
 * through the thread pool, and a trim replaces the file only once its flushed copy holds every line.
 */
import { promises as fs, readFileSync, renameSync, writeFileSync } from "node:fs";
import * as nodePath from "node:path";
import type { JournalCall, JournalChange } from "../../../src/journal/entry";
import { JournalFile, journalPathFor } from "../../../src/journal/JournalFile";
import { hashText } from "../../../src/vault/writes";
import { countLoopFlushes } from "../../helpers/loopFlushes";
import { makeTempDir, removeDir } from "../../helpers/vault";

function call(id: string, tool = "append_to_note"): JournalCall {
	return { id, time: "2026-12-06T06:00:00.000Z", tokenName: "laptop", tool };
}

function change(path: string, before: string | null, after: string): JournalChange {
	return { path, before, beforeHash: before === null ? null : hashText(before), after, afterHash: hashText(after) };
}

/** Counts the flushes made on the event loop while `work` runs (and while its promise settles). */
async function loopFlushesDuring(work: () => unknown): Promise<number> {
	const flushes = countLoopFlushes();
	try {
		await work();
	} finally {
		flushes.restore();
	}
	return flushes.count();
}

/** The kinds of the journal file's lines, in order. */
function kindsOnDisk(path: string): string[] {
	return readFileSync(path, "utf8")
		.split("\n")
		.filter((line) => line !== "")
		.map((line) => (JSON.parse(line) as { kind: string }).kind);
}

const trimInBackground = (journal: JournalFile) => (journal as unknown as { trimInBackground(): Promise<void> }).trimInBackground();

describe("the journal's flushes on the event loop", () => {
	let folder: string;
	let path: string;

	beforeEach(async () => {
		folder = await makeTempDir();
		path = journalPathFor(folder, ".obsidian");
	});
	afterEach(async () => removeDir(folder));

	test("a drop with no record after it, an undone mark, a move, a trim and a rewrite of damaged lines flush off the loop; only a record inside an atomic edit flushes on it", async () => {
		const journal = JournalFile.open(path, { maxEntries: 4, keepAfterTrim: 0.5 });
		for (let index = 0; index < 3; index++) journal.recordChange(call(`c${index}`), change(`N${index}.md`, `${index}`, `${index}!`));
		const counts = {
			"record in an atomic edit": await loopFlushesDuring(() => journal.recordChange(call("r"), change("R.md", "r", "r!"))),
			"drop with no record after it": await loopFlushesDuring(() => journal.dropChange("c0", "N0.md")),
			"undone mark": await loopFlushesDuring(() => journal.markUndone("c1", "u1")),
			move: await loopFlushesDuring(() => journal.noteMoved("N2.md", "Moved/N2.md")),
			trim: 0,
			"rewrite of damaged lines": 0,
		};
		// Past the bound of 4 calls: the trim keeps the newest 2.
		for (let index = 3; index < 6; index++) journal.recordChange(call(`c${index}`), change(`N${index}.md`, `${index}`, `${index}!`));
		counts.trim = await loopFlushesDuring(() => trimInBackground(journal));
		// Another process replaced the file with one holding a damaged line, read in while serving: rewritten away by the trim that follows.
		const replacement = `${path}.other`;
		writeFileSync(replacement, Buffer.concat([readFileSync(path), Buffer.from('{"kind":"change","garbage\n')]));
		renameSync(replacement, path);
		counts["rewrite of damaged lines"] = await loopFlushesDuring(async () => {
			journal.list();
			await trimInBackground(journal);
		});
		expect(counts).toEqual({
			"record in an atomic edit": 1,
			"drop with no record after it": 0,
			"undone mark": 0,
			move: 0,
			trim: 0,
			"rewrite of damaged lines": 0,
		});
		// What each wrote is on disk and read back by the next start; the damaged line is gone.
		expect(readFileSync(path, "utf8")).not.toContain("garbage");
		const reopened = JournalFile.open(path);
		expect(reopened.list().map((entry) => entry.id)).toEqual(["c5", "c4"]);
		expect(reopened.skippedLines).toBe(0);
		journal.close();
	});

	test("a line flushed off the loop takes its place in the file before it returns: a drop, an undone mark and a move are read back at once, in order before the next record", async () => {
		const journal = JournalFile.open(path);
		journal.recordChange(call("a"), change("A.md", "1", "1+a"));
		journal.recordChange(call("b"), change("B.md", "2", "2+b"));
		// The edit's planned record dropped, and the record of what it really wrote appended right after it, flush not awaited.
		journal.dropChange("a", "A.md");
		journal.recordChange(call("a"), change("A.md", "1!", "1!+a"));
		const marked = journal.markUndone("b", "u1");
		journal.noteMoved("A.md", "Done/A.md");
		expect(kindsOnDisk(path)).toEqual(["change", "change", "drop", "change", "undone", "moved"]);
		// A process starting now (or after a crash once the flushes are through) reads the same calls.
		const reopened = JournalFile.open(path);
		expect(reopened.get("a")?.changes.map((each) => [each.after, each.nowAt])).toEqual([["1!+a", "Done/A.md"]]);
		expect(reopened.get("b")?.undone?.by).toBe("u1");
		await marked;
		journal.close();
	});

	test("records appended while the trim's copy is flushed land in the file that replaces the journal (looked at again after each flush)", async () => {
		const journal = JournalFile.open(path, { maxEntries: 4, keepAfterTrim: 0.5 });
		for (let index = 0; index < 6; index++) journal.recordChange(call(`c${index}`), change(`N${index}.md`, `${index}`, `${index}!`));
		// Each flush of the trim's copy lets a record of this process in (the first two), as a client's call would.
		const probe = await fs.open(nodePath.join(folder, "probe"), "w");
		const handlePrototype = Object.getPrototypeOf(probe) as { sync: () => Promise<void> };
		await probe.close();
		const sync = handlePrototype.sync;
		let flushes = 0;
		handlePrototype.sync = function (this: unknown) {
			flushes++;
			if (flushes <= 2) journal.recordChange(call(`late${flushes}`), change(`L${flushes}.md`, "l", "l!"));
			return sync.call(this);
		};
		try {
			await trimInBackground(journal);
		} finally {
			handlePrototype.sync = sync;
		}
		expect(flushes).toBeGreaterThanOrEqual(3);
		const kept = ["late2", "late1", "c5", "c4"];
		expect(journal.list().map((entry) => entry.id)).toEqual(kept);
		expect(
			JournalFile.open(path, { maxEntries: 100 })
				.list()
				.map((entry) => entry.id),
		).toEqual(kept);
		journal.close();
	});
});
