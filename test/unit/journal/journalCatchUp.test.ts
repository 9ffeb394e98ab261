import { promises as fs, appendFileSync, readFileSync, renameSync, symlinkSync, writeFileSync } from "node:fs";
import * as nodePath from "node:path";
import { JOURNAL_READ_PIECE_BYTES, NOTE_TEXT_PIECE_CHARS } from "../../../src/config/limits";
import { OwnFileLinkError } from "../../../src/config/ownFiles";
import type { JournalCall, JournalChange } from "../../../src/journal/entry";
import { JournalFile, journalPathFor } from "../../../src/journal/JournalFile";
import { lineBytes, type JournalLine } from "../../../src/journal/journalLines";
import { NodeHost } from "../../../src/headless/NodeHost";
import { undoCall } from "../../../src/journal/undo";
import { hashText } from "../../../src/vault/writes";
import { eventLoopTurns } from "../../../src/turns";
import { countWorkPerPiece } from "../../helpers/workPieces";
import { makeTempDir, makeVault, removeDir } from "../../helpers/vault";

/*
 * A journal another process replaced (the CLI's trim, another server's) or added much to is read in
 * a piece at a time after the record, drop or listing that finds it, never whole in one piece in
 * that synchronous call (inside a note's atomic edit, or Obsidian's UI): and every promise the
 * journal keeps holds through that path.
 */

function call(id: string, tool = "append_to_note", tokenName = "laptop"): JournalCall {
	return { id, time: "2026-12-01T00:30:00.000Z", tokenName, tool };
}

function change(path: string, before: string | null, after: string): JournalChange {
	return { path, before, beforeHash: before === null ? null : hashText(before), after, afterHash: hashText(after) };
}

/** A note's text of about 40 KB. */
const text = (n: number) => `# Note ${n}\n\n${"- a line of the plan, with 😀 and é\n".repeat(1000)}`;

/** Another process's records of calls `ids`: each one change of a 40 KB note. */
function othersLines(ids: readonly string[], tokenName = "other"): Buffer {
	return lineBytes(
		ids.map((id): JournalLine => ({
			kind: "change",
			...call(id, "append_to_note", tokenName),
			...change(`${id}.md`, text(id.length), `${text(id.length)}- more\n`),
		})),
	);
}

const ids = (prefix: string, count: number) => Array.from({ length: count }, (_, n) => `${prefix}${n}`);

/** Characters given to JSON.parse between two pauses of the event loop (the clock always due, so sliced code pauses wherever it may). */
function parsedPerPiece(): { perPiece: number[]; restore: () => void } {
	const pieces = countWorkPerPiece();
	const parse = JSON.parse;
	const parsing = jest.spyOn(JSON, "parse").mockImplementation((json: string, reviver?: Parameters<typeof JSON.parse>[1]) => {
		pieces.count(json.length);
		return parse(json, reviver) as unknown;
	});
	return {
		perPiece: pieces.perPiece,
		restore: () => {
			parsing.mockRestore();
			pieces.restore();
		},
	};
}

/** Another process replaces the journal with `bytes` (a new file renamed over it). */
function replaceJournal(path: string, bytes: Buffer): void {
	writeFileSync(`${path}.other`, bytes);
	renameSync(`${path}.other`, path);
}

describe("JournalFile: another process's large writes read in pieces after the call that finds them", () => {
	let folder: string;
	let path: string;
	/** The longest line another process writes here, in characters. */
	const longestLine = othersLines(["x0"]).length;
	/** The most a piece may parse: a piece's bytes, then the line it ends in. */
	const pieceBound = JOURNAL_READ_PIECE_BYTES + 2 * longestLine;

	beforeEach(async () => {
		folder = await makeTempDir();
		path = journalPathFor(folder, ".obsidian");
	});
	afterEach(async () => removeDir(folder));

	test("a record made inside a note's edit, just after another process replaced the journal, does not read the new journal in one piece; the catch-up reads it in pieces, the record in its place", async () => {
		const journal = JournalFile.forVault(folder, ".obsidian");
		journal.recordChange(call("mine0"), change("Mine.md", "a\n", "b\n"));
		// Another process's trim: its file holds the calls it kept (its own, 1.2 MB, and ours).
		replaceJournal(path, Buffer.concat([othersLines(ids("k", 30)), readFileSync(path)]));
		const pieces = parsedPerPiece();
		try {
			// What a write tool does inside vault.process: synchronous, the note's bytes waiting on it.
			journal.recordChange(call("mine1"), change("Mine.md", "b\n", `b\n${text(1)}`));
			journal.dropChange("mine1", "Mine.md");
			journal.recordChange(call("mine1"), change("Mine.md", "b\n", "c\n"));
			await journal.catchUp();
		} finally {
			pieces.restore();
		}
		// Before: the whole 1.2 MB file was parsed in the record's one synchronous piece.
		expect(Math.max(...pieces.perPiece)).toBeLessThan(pieceBound);
		// Own lines are read back from memory, not parsed again: only the other process's lines were parsed.
		expect(pieces.perPiece.reduce((sum, chars) => sum + chars, 0)).toBeLessThan(30 * longestLine + 1_000);
		expect(journal.list().map((entry) => entry.id)).toEqual(["mine1", "mine0", ...ids("k", 30).reverse()]);
		expect(journal.get("mine1")?.changes.map((each) => each.after)).toEqual(["c\n"]);
		expect(journal.skippedLines).toBe(0);
		expect(JournalFile.open(path).list()).toEqual(journal.list());
	});

	test("a large tail another process appended is not read in one piece by the next record or listing; records made meanwhile stay in file order with it", async () => {
		const journal = JournalFile.forVault(folder, ".obsidian");
		journal.recordChange(call("mine0"), change("Mine.md", "a\n", "b\n"));
		appendFileSync(path, othersLines(ids("t", 30)));
		const pieces = parsedPerPiece();
		let listedAtOnce: string[];
		try {
			journal.recordChange(call("mine1"), change("Mine.md", "b\n", "c\n"));
			listedAtOnce = journal.list().map((entry) => entry.id);
			// More of the other process's lines, after ours.
			appendFileSync(path, othersLines(ids("u", 2)));
			void journal.markUndone("t3", "mine1");
			await journal.catchUp();
		} finally {
			pieces.restore();
		}
		expect(Math.max(...pieces.perPiece)).toBeLessThan(pieceBound);
		// Listed at once (not waiting for the catch-up): what was read in so far.
		expect(listedAtOnce).toEqual(["mine0"]);
		expect(journal.list().map((entry) => entry.id)).toEqual(["u1", "u0", "mine1", ...ids("t", 30).reverse(), "mine0"]);
		expect(journal.get("t3")?.undone).toEqual({ time: expect.any(String) as string, by: "mine1" });
		expect(JournalFile.open(path).list()).toEqual(journal.list());
	});

	test("a listing just after another process replaced the journal shows the journal as it was, a piece at a time is read, then the new one", async () => {
		const journal = JournalFile.forVault(folder, ".obsidian");
		journal.recordChange(call("old"), change("Old.md", "a\n", "b\n"));
		replaceJournal(path, othersLines(ids("r", 30)));
		const pieces = parsedPerPiece();
		let atOnce: string[];
		try {
			atOnce = journal.list().map((entry) => entry.id);
			await journal.catchUp();
		} finally {
			pieces.restore();
		}
		expect(Math.max(...pieces.perPiece)).toBeLessThan(pieceBound);
		expect(atOnce).toEqual(["old"]);
		expect(journal.list().map((entry) => entry.id)).toEqual(ids("r", 30).reverse());
		expect(journal.get("old")).toBeNull();
	});

	test("opened to read in pieces (as the plugin opens it on Obsidian's UI thread), a large journal is not parsed in one piece, and reads in as a whole open does", async () => {
		await fs.mkdir(nodePath.dirname(path), { recursive: true });
		writeFileSync(path, Buffer.concat([othersLines(ids("k", 30)), Buffer.from("not json\n")]));
		const pieces = parsedPerPiece();
		let journal: JournalFile;
		let atOpen: number;
		try {
			journal = JournalFile.forVault(folder, ".obsidian", { readInPieces: true });
			atOpen = journal.list().length;
			await journal.catchUp();
		} finally {
			pieces.restore();
		}
		expect(Math.max(...pieces.perPiece)).toBeLessThan(pieceBound);
		expect(atOpen).toBe(0);
		const whole = JournalFile.open(path);
		expect(journal.list()).toEqual(whole.list());
		expect(journal.list()).toHaveLength(30);
		expect(journal.skippedLines).toBe(1);
		journal.close();
		whole.close();
	});

	test("a drop while behind takes out the change it names once read in, and nothing else", async () => {
		const journal = JournalFile.forVault(folder, ".obsidian");
		journal.recordChange(call("mine"), change("A.md", "a\n", "b\n"));
		journal.recordChange(call("mine"), change("B.md", "a\n", "b\n"));
		// The other process keeps our call when it replaces the file.
		replaceJournal(path, Buffer.concat([othersLines(ids("k", 30)), readFileSync(path)]));
		journal.dropChange("mine", "B.md");
		// A drop of a change no file holds: read as nothing.
		journal.dropChange("gone", "C.md");
		await journal.catchUp();
		expect(journal.get("mine")?.changes.map((each) => each.path)).toEqual(["A.md"]);
		expect(journal.get("gone")).toBeNull();
		expect(journal.list()).toHaveLength(31);
		expect(JournalFile.open(path).list()).toEqual(journal.list());
	});

	test("a record whose bytes went to a journal another process replaced meanwhile is appended again to the new one, once", async () => {
		const journal = JournalFile.forVault(folder, ".obsidian");
		journal.recordChange(call("mine0"), change("Mine.md", "a\n", "b\n"));
		appendFileSync(path, othersLines(ids("t", 30)));
		// Behind from here: the tail is being read in.
		journal.list();
		// eslint-disable-next-line @typescript-eslint/no-require-imports -- jest can spy only on the CommonJS module object
		const fsModule = require("node:fs") as typeof import("node:fs");
		const fsync = fsModule.fsync;
		let replaced = false;
		// The other process replaces the file (without our record) right after our bytes reached the old one.
		const syncing = jest.spyOn(fsModule, "fsync").mockImplementation((descriptor: number, done: (error: NodeJS.ErrnoException | null) => void) => {
			if (!replaced) {
				replaced = true;
				replaceJournal(path, othersLines(ids("r", 30)));
			}
			fsync(descriptor, done);
		});
		try {
			await journal.recordChangesAhead(call("mine1"), [change("Mine.md", "b\n", "c\n")]);
		} finally {
			syncing.mockRestore();
		}
		expect(replaced).toBe(true);
		await journal.catchUp();
		expect(journal.list().map((entry) => entry.id)).toEqual(["mine1", ...ids("r", 30).reverse()]);
		expect(journal.get("mine1")?.changes).toHaveLength(1);
		expect(JournalFile.open(path).list()).toEqual(journal.list());
	});

	test("a journal replaced by a link while it is read in is not read through it, and the next record is refused, nothing written outside", async () => {
		const outside = await makeTempDir();
		try {
			const journal = JournalFile.forVault(folder, ".obsidian");
			journal.recordChange(call("mine0"), change("Mine.md", "a\n", "b\n"));
			replaceJournal(path, othersLines(ids("k", 30)));
			const target = nodePath.join(outside, "stolen.jsonl");
			const planted = othersLines(ids("planted", 30));
			writeFileSync(target, planted);
			let linked = false;
			const take = eventLoopTurns.take;
			const turns = jest.spyOn(eventLoopTurns, "take").mockImplementation(() => {
				// Between two pieces of the read, another program puts a link in its place.
				if (!linked) {
					linked = true;
					renameSync(path, `${path}.aside`);
					symlinkSync(target, path);
				}
				return take();
			});
			try {
				journal.list();
				await journal.catchUp();
			} finally {
				turns.mockRestore();
			}
			expect(linked).toBe(true);
			expect(journal.list.bind(journal)).toThrow(OwnFileLinkError);
			expect(() => journal.recordChange(call("mine1"), change("Mine.md", "b\n", "c\n"))).toThrow(OwnFileLinkError);
			expect(readFileSync(target).equals(planted)).toBe(true);
		} finally {
			await removeDir(outside);
		}
	});

	test("a damaged line in a replaced journal read in pieces is skipped, and the file is rewritten without it", async () => {
		const journal = JournalFile.forVault(folder, ".obsidian");
		journal.recordChange(call("mine0"), change("Mine.md", "a\n", "b\n"));
		const planted = `${JSON.stringify({ kind: "change", id: "bad", path: "X.md", tool: "x" })}\nnot json at all\n`;
		replaceJournal(path, Buffer.concat([othersLines(ids("k", 15)), Buffer.from(planted), othersLines(ids("m", 15))]));
		journal.list();
		await journal.catchUp();
		expect(journal.skippedLines).toBe(2);
		expect(journal.get("bad")).toBeNull();
		expect(journal.list()).toHaveLength(30);
		// The rewrite goes with the trim, once the journal has been quiet a moment.
		const deadline = Date.now() + 20_000;
		while (readFileSync(path, "utf8").includes("not json") && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
		expect(readFileSync(path, "utf8")).not.toContain("not json");
		expect(readFileSync(path, "utf8")).not.toContain('"id":"bad"');
		expect(JournalFile.open(path).list()).toEqual(journal.list());
		journal.close();
	});

	test("past the size bound through another process's tail, nothing is trimmed until it is read in; then the oldest whole calls go and every newer one stays", async () => {
		const journal = JournalFile.forVault(folder, ".obsidian", { maxBytes: 1_000_000, keepAfterTrim: 0.5 });
		journal.recordChange(call("mine0"), change("Mine.md", "a\n", "b\n"));
		appendFileSync(path, othersLines(ids("t", 30)));
		journal.recordChange(call("mine1"), change("Mine.md", "b\n", "c\n"));
		expect(journal.list().map((entry) => entry.id)).toEqual(["mine0"]);
		// Nothing trimmed on the part read in so far: the whole file is still there.
		expect(JournalFile.open(path, { maxBytes: 100_000_000 }).list()).toHaveLength(32);
		await journal.catchUp();
		const deadline = Date.now() + 20_000;
		while ((await fs.stat(path)).size > 1_000_000 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
		expect((await fs.stat(path)).size).toBeLessThanOrEqual(500_000);
		const kept = journal.list().map((entry) => entry.id);
		// The newest calls kept, in order, the oldest dropped whole.
		const all = ["mine1", ...ids("t", 30).reverse(), "mine0"];
		expect(kept).toEqual(all.slice(0, kept.length));
		expect(JournalFile.open(path).list()).toEqual(journal.list());
		journal.close();
	});

	test("a planted line in a replaced journal read in pieces is still refused by undo: nothing is written where it points", async () => {
		const root = await makeVault({ "Plain.md": "one\n" });
		const host = await NodeHost.open(root);
		try {
			const journal = JournalFile.forVault(root, ".obsidian");
			const journalPath = journalPathFor(root, ".obsidian");
			journal.recordChange(call("edit"), change("Plain.md", "zero\n", "one\n"));
			const planted: JournalLine = { kind: "change", ...call("planted"), ...change(".obsidian/plugins/vault-mcp/data.json", "{}", '{"tokens":[]}') };
			replaceJournal(journalPath, Buffer.concat([othersLines(ids("k", 30)), lineBytes([planted]), readFileSync(journalPath)]));
			journal.list();
			const outcome = await undoCall(host, journal, "planted");
			expect(outcome).toMatchObject({ ok: false, reason: expect.stringContaining("refused") as string });
			await expect(fs.readFile(nodePath.join(root, ".obsidian/plugins/vault-mcp/data.json"))).rejects.toMatchObject({ code: "ENOENT" });
			expect(journal.get("planted")?.undone).toBeNull();
		} finally {
			await host.close();
			await removeDir(root);
		}
	});

	test("undo of a call in a journal another process replaced finds the call, undoes it and marks it undone", async () => {
		const root = await makeVault({ "Plain.md": "one\ntwo\n" });
		const host = await NodeHost.open(root);
		try {
			const journal = JournalFile.forVault(root, ".obsidian");
			const journalPath = journalPathFor(root, ".obsidian");
			journal.recordChange(call("edit"), change("Plain.md", "one\n", "one\ntwo\n"));
			replaceJournal(journalPath, Buffer.concat([othersLines(ids("k", 30)), readFileSync(journalPath)]));
			// Behind: a listing found the new file and started reading it.
			journal.list();
			const outcome = await undoCall(host, journal, "edit");
			expect(outcome.ok).toBe(true);
			expect(await fs.readFile(nodePath.join(root, "Plain.md"), "utf8")).toBe("one\n");
			const fresh = JournalFile.open(journalPath);
			expect(fresh.get("edit")?.undone).not.toBeNull();
			expect(fresh.list()).toHaveLength(32);
			await journal.catchUp();
			expect(journal.list()).toEqual(fresh.list());
		} finally {
			await host.close();
			await removeDir(root);
		}
	});
	test("undo of a change to a 1 MiB note, with another process's changes of 1 MiB notes after it, parses no journal line in one piece, and is exact", async () => {
		const big = (n: number) => `# Big ${n}\n\n${'- a line of the plan, with "quotes", 😀 and é\n'.repeat(22_000)}`.slice(0, 1024 * 1024);
		const root = await makeVault({ "Big.md": `${big(0)}- more\n` });
		const host = await NodeHost.open(root);
		try {
			const journal = JournalFile.forVault(root, ".obsidian", { readInPieces: true });
			const journalPath = journalPathFor(root, ".obsidian");
			// Another process (the CLI, a second server) recorded the edit, then three more of other big notes.
			await fs.mkdir(nodePath.dirname(journalPath), { recursive: true });
			const others = (id: string, path: string, n: number): JournalLine => ({
				kind: "change",
				...call(id, "append_to_note", "other"),
				...change(path, big(n), `${big(n)}- more\n`),
			});
			appendFileSync(journalPath, lineBytes([others("big", "Big.md", 0), others("o1", "O1.md", 1), others("o2", "O2.md", 2), others("o3", "O3.md", 3)]));
			const longestLine = readFileSync(journalPath).indexOf(0x0a);
			expect(longestLine).toBeGreaterThan(2 * 1024 * 1024);
			const pieces = parsedPerPiece();
			let outcome: Awaited<ReturnType<typeof undoCall>>;
			try {
				outcome = await undoCall(host, journal, "big");
			} finally {
				pieces.restore();
			}
			expect(outcome.ok).toBe(true);
			// Before: each line, over 2 million characters, in one piece.
			expect(Math.max(...pieces.perPiece)).toBeLessThan(JOURNAL_READ_PIECE_BYTES + 2 * NOTE_TEXT_PIECE_CHARS + 1_000);
			expect(await fs.readFile(nodePath.join(root, "Big.md"), "utf8")).toBe(big(0));
			// Nothing lost, in file order; the record as written.
			expect(journal.list().map((entry) => entry.id)).toEqual([expect.any(String) as string, "o3", "o2", "o1", "big"]);
			expect(journal.get("o2")?.changes).toEqual([change("O2.md", big(2), `${big(2)}- more\n`)]);
			expect(journal.list()).toEqual(JournalFile.open(journalPath).list());
		} finally {
			await host.close();
			await removeDir(root);
		}
	});
});
