/**
 * The journal's flushes made on the event loop (`fsyncSync`), per kind of call, over real HTTP with the real SDK
 * client: a thread asleep in a flush holds every other client (in Obsidian, the UI) and no CPU measure sees it
 * (one flush took up to 0.78 s on this shared machine's disk). A call made as planned flushes its records through
 * the thread pool; an undo's mark, the move a rename's note makes in the journal, and a record whose note turned
 * out taken are flushed there too. Each call stays undoable and its undo is on disk when it answers.
 */
import { promises as fs } from "node:fs";
import * as nodePath from "node:path";
import { followMoves } from "../../src/journal/followMoves";
import { JournalFile } from "../../src/journal/JournalFile";
import { undoCall } from "../../src/journal/undo";
import { connectClient } from "../helpers/http";
import { countLoopFlushes } from "../helpers/loopFlushes";
import { settingsWithWriteTokens, startService } from "../helpers/service";
import { callOk } from "../helpers/tools";
import { makeVault, removeDir } from "../helpers/vault";

test("no kind of write call flushes the journal on the event loop, and each is undone from disk", async () => {
	const vault = await makeVault({ "Plan.md": "# Plan\n\n- [ ] one\n", "Outline.md": "- two\n", "Linker.md": "See [[Plan]].\n" });
	const running = await startService(vault, { levels: ["write"], settings: settingsWithWriteTokens([]).settings });
	const stopFollowingMoves = followMoves(running.host.vault, running.journal);
	const client = await connectClient(running.url, running.tokens.write ?? "");
	const flushes = countLoopFlushes();
	const counts: Record<string, number> = {};
	const counted = async (kind: string, work: () => Promise<unknown>) => {
		const before = flushes.count();
		await work();
		counts[kind] = flushes.count() - before;
	};
	try {
		try {
			await counted("first record (makes the journal)", () => callOk(client, "append_to_note", { path: "Plan.md", content: "first\n" }));
			await counted("append_to_note", () => callOk(client, "append_to_note", { path: "Plan.md", content: "second\n" }));
			await counted("set_property", () => callOk(client, "set_property", { path: "Plan.md", name: "status", value: "open" }));
			await counted("add_task", () => callOk(client, "add_task", { path: "Plan.md", text: "three" }));
			await counted("insert_under_bullet", () => callOk(client, "insert_under_bullet", { path: "Outline.md", bullet: "two", content: "- under two" }));
			await counted("create_note", () => callOk(client, "create_note", { path: "New.md", content: "# New\n" }));
			// The note this call moves was changed by the calls above: each of them is recorded as now at its new path.
			await counted("rename_note", () => callOk(client, "rename_note", { path: "Plan.md", new_path: "Done/Plan.md" }));
			const created = running.journal.list().find((entry) => entry.tool === "create_note");
			await counted("undo", () => undoCall(running.host, running.journal, created?.id ?? ""));
		} finally {
			flushes.restore();
		}
		expect(counts).toEqual({
			"first record (makes the journal)": 0,
			append_to_note: 0,
			set_property: 0,
			add_task: 0,
			insert_under_bullet: 0,
			create_note: 0,
			rename_note: 0,
			undo: 0,
		});
		await expect(fs.stat(nodePath.join(vault, "New.md"))).rejects.toMatchObject({ code: "ENOENT" });
		// A fresh read of the journal (the next start) has the undo marked and the earlier calls' note where it went.
		const reread = JournalFile.forVault(vault, ".obsidian");
		expect(reread.list().find((entry) => entry.tool === "create_note")?.undone).not.toBeNull();
		const appended = reread.list().find((entry) => entry.tool === "append_to_note");
		expect(appended?.changes.map((change) => change.nowAt)).toEqual(["Done/Plan.md"]);
		reread.close();
	} finally {
		stopFollowingMoves();
		await client.close();
		await running.stop();
		await removeDir(vault);
	}
});
