/**
 * The undo of a rename points the links it changed back, note by note, in groups: it plans on each
 * linking note's text, records the group, then writes each note. A client's append that lands on a
 * linking note between that plan and its write (another request answered in one of the undo's pauses)
 * made the note a conflict: it kept the rename's link to a path the undo then emptied, and a copy of its
 * text from before the rename was saved beside it. Now the links are pointed back in the note as it is
 * then, as the undo does for a note edited before it began. And an append to the renamed note itself
 * while the undo planned kept it where it was (a conflict), yet the links were pointed back at its old
 * path, where no note is: now they are left reaching it, as for a note edited before the undo. Over real
 * HTTP, each append replayed at its moment (when the undo records the group ahead of its writes; when it
 * reads a linking note for its plan).
 */
import { promises as fs } from "node:fs";
import * as nodePath from "node:path";
import type { JournalCall, JournalChange } from "../../src/journal/entry";
import { undoCall } from "../../src/journal/undo";
import { connectClient } from "../helpers/http";
import { startService } from "../helpers/service";
import { callOk } from "../helpers/tools";
import { makeVault, removeDir } from "../helpers/vault";

type Running = Awaited<ReturnType<typeof startService>>;
type Client = Awaited<ReturnType<typeof connectClient>>;

/** A write service over a vault of `files`, a write client and `read` of a vault file, torn down after `run`. */
async function withWriteService(
	files: Record<string, string>,
	run: (service: { running: Running; client: Client; vault: string; read: (path: string) => Promise<string> }) => Promise<void>,
): Promise<void> {
	const vault = await makeVault(files);
	const running = await startService(vault, {
		levels: ["write"],
		settings: { writeEnabled: true, writeDisclosureAccepted: true, rateLimitPerMinute: 100_000 },
	});
	const client = await connectClient(running.url, running.tokens.write ?? "");
	try {
		await run({ running, client, vault, read: (path) => fs.readFile(nodePath.join(vault, path), "utf8") });
	} finally {
		await client.close();
		await running.stop();
		await removeDir(vault);
	}
}

test("undo of a rename keeps an append made to a linking note between its plan and its write, and points that note's link back", async () => {
	await withWriteService(
		{ "Plan.md": "# Plan\n", "Notes/Linker.md": "See [[Plan]].\n", "Notes/Other.md": "Also [[Plan]].\n" },
		async ({ running, client, vault, read }) => {
			await callOk(client, "rename_note", { path: "Plan", new_path: "Goal.md" });
			expect(await read("Notes/Linker.md")).toBe("See [[Goal]].\n");
			const [entry] = running.journal.list(1);
			// The client's append is answered after the undo has planned and recorded the link edits, before it writes them.
			const recordAhead = running.journal.recordChangesAhead.bind(running.journal);
			let appended = false;
			const spy = jest.spyOn(running.journal, "recordChangesAhead").mockImplementation(async (call: JournalCall, changes: readonly JournalChange[]) => {
				await recordAhead(call, changes);
				if (appended || call.tool !== "undo" || !changes.some((change) => change.path === "Notes/Linker.md")) return;
				appended = true;
				await callOk(client, "append_to_note", { path: "Notes/Linker.md", content: "Acknowledged line." });
			});
			const outcome = await undoCall(running.host, running.journal, entry?.id ?? "");
			spy.mockRestore();
			expect(appended).toBe(true);
			expect(outcome.ok).toBe(true);
			expect(await read("Plan.md")).toBe("# Plan\n");
			// On main (6855c4df): "See [[Goal]].\n\nAcknowledged line.\n", a link to a note no longer there, and a conflict copy beside it.
			expect(await read("Notes/Linker.md")).toBe("See [[Plan]].\n\nAcknowledged line.\n");
			expect(await read("Notes/Other.md")).toBe("Also [[Plan]].\n");
			expect((await fs.readdir(nodePath.join(vault, "Notes"))).sort()).toEqual(["Linker.md", "Other.md"]);
			expect(outcome.ok && outcome.notes.map((note) => [note.path, note.result])).toEqual([
				["Plan.md", "moved back"],
				["Notes/Other.md", "restored"],
				["Notes/Linker.md", "relinked"],
			]);
		},
	);
}, 30_000);

test("undo of a rename whose moved note a client appended to while the undo planned: the note stays, and its links keep reaching it", async () => {
	await withWriteService({ "Plan.md": "# Plan\n", "Notes/Linker.md": "See [[Plan]].\n" }, async ({ running, client, vault, read }) => {
		await callOk(client, "rename_note", { path: "Plan", new_path: "Goal.md" });
		const [entry] = running.journal.list(1);
		// The append is answered while the undo reads the linking note for its plan, after it read the moved one.
		const cachedRead = running.host.vault.cachedRead.bind(running.host.vault);
		let appended = false;
		const spy = jest.spyOn(running.host.vault, "cachedRead").mockImplementation(async (file) => {
			const text = await cachedRead(file);
			if (!appended && file.path === "Notes/Linker.md") {
				appended = true;
				await callOk(client, "append_to_note", { path: "Goal.md", content: "Acknowledged line." });
			}
			return text;
		});
		const outcome = await undoCall(running.host, running.journal, entry?.id ?? "");
		spy.mockRestore();
		expect(appended).toBe(true);
		expect(outcome.ok).toBe(true);
		expect(await read("Goal.md")).toBe("# Plan\n\nAcknowledged line.\n");
		// On main (6855c4df): "See [[Plan]].\n", a link to a path where no note is (the note stayed at Goal.md).
		expect(await read("Notes/Linker.md")).toBe("See [[Goal]].\n");
		const copies = (await fs.readdir(vault)).filter((name) => name.startsWith("Plan (before rename_note "));
		expect(copies).toHaveLength(1);
		expect(await read(copies[0] ?? "")).toBe("# Plan\n");
		expect(outcome.ok && outcome.notes.map((note) => [note.path, note.result])).toEqual([
			["Plan.md", "conflict"],
			["Notes/Linker.md", "links kept"],
		]);
	});
}, 30_000);
