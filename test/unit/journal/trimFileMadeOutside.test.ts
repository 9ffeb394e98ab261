/**
 * A trim makes its new copy of the journal (the calls' texts) beside it through the thread pool,
 * the plugin's folder checked only before the open is handed over. A program that swaps that
 * folder for a link out of the vault while the open waits for a thread, and swaps it back before
 * the answer is read, had the whole copy written outside the vault and left there.
 */
import { readdirSync, readFileSync, renameSync, symlinkSync, unlinkSync } from "node:fs";
import * as nodePath from "node:path";
import type { JournalCall, JournalChange } from "../../../src/journal/entry";
import { JournalFile, journalPathFor } from "../../../src/journal/JournalFile";
import { hashText } from "../../../src/vault/writes";
import { holdThreadPool } from "../../helpers/threadPool";
import { makeTempDir, removeDir } from "../../helpers/vault";

function call(id: string): JournalCall {
	return { id, time: "2026-12-01T00:30:00.000Z", tokenName: "laptop", tool: "append_to_note" };
}

function change(path: string, before: string, after: string): JournalChange {
	return { path, before, beforeHash: hashText(before), after, afterHash: hashText(after) };
}

describe("a journal trim's new file made while the plugin's folder is swapped for a link out and back", () => {
	let vault: string;
	let outside: string;
	let pipes: string;

	beforeEach(async () => {
		vault = await makeTempDir();
		outside = await makeTempDir("journal-outside-");
		pipes = await makeTempDir("journal-pipes-");
	});
	afterEach(async () => {
		await removeDir(vault);
		await removeDir(outside);
		await removeDir(pipes);
	});

	test("leaves no copy of the journal outside the vault, and the journal as it was", async () => {
		const path = journalPathFor(vault, ".obsidian");
		const journal = JournalFile.open(path, { maxEntries: 4, keepAfterTrim: 0.5 });
		for (let index = 0; index < 6; index++) journal.recordChange(call(`c${index}`), change(`N${index}.md`, `${index}`, `secret ${index}`));
		const before = readFileSync(path, "utf8");
		const plugin = nodePath.dirname(path);
		const pool = await holdThreadPool(pipes);
		let trimming: Promise<unknown> = Promise.resolve();
		try {
			trimming = (journal as unknown as { trimInBackground(): Promise<void> }).trimInBackground().catch((error: unknown) => error);
			for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setImmediate(resolve));
			renameSync(plugin, `${plugin}.real`);
			symlinkSync(outside, plugin);
			// One thread freed: it makes the trim's file through the link. The loop is held meanwhile, so the folder is back
			// before the open's answer is read.
			pool.release(1);
			const until = Date.now() + 2_000;
			while (Date.now() < until && readdirSync(outside).length === 0);
			unlinkSync(plugin);
			renameSync(`${plugin}.real`, plugin);
		} finally {
			await pool.releaseAll();
		}
		await trimming;
		expect(readdirSync(outside)).toEqual([]);
		expect(readFileSync(path, "utf8")).toBe(before);
		journal.close();
	});
});
