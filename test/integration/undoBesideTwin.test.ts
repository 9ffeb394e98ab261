/**
 * Undo (the person's command: the plugin's review view and `vault-mcp undo` both run `undoCall`) puts a note back at a path
 * it had: a rename's note moved back, a trashed note restored. create_note and rename_note refuse a new path a person, or a
 * disk that folds case (macOS, Windows), reads as an existing visible note's or folder's; undo did not look: after
 * `rename_note Plan.md → Other.md` and `create_note plan.md`, undo put `Plan.md` back beside `plan.md` (on macOS and Windows
 * the disk check found the name taken, and a copy of the note nobody changed was made). Now the undo is refused whole,
 * naming the twin and what to do, and nothing is written; once the twin is renamed, the same undo puts everything back.
 * Writes through the real SDK client over HTTP; undo as the plugin runs it, on the service's host and journal.
 */
import { promises as fs } from "node:fs";
import * as nodePath from "node:path";
import { undoCall } from "../../src/journal/undo";
import { connectClient } from "../helpers/http";
import { startService, type RunningService } from "../helpers/service";
import { replaceMethod } from "../helpers/replaceMethod";
import { callOk } from "../helpers/tools";
import { makeVault, removeDir } from "../helpers/vault";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";

/** Every note's text by vault path, the config folder and the trash aside. */
async function notesOf(root: string): Promise<Record<string, string>> {
	const notes: Record<string, string> = {};
	for (const entry of await fs.readdir(root, { withFileTypes: true, recursive: true })) {
		const path = nodePath.relative(root, nodePath.join(entry.parentPath, entry.name)).split(nodePath.sep).join("/");
		if (entry.isFile() && !path.startsWith(".obsidian/") && !path.startsWith(".trash/")) notes[path] = await fs.readFile(nodePath.join(root, path), "utf8");
	}
	return notes;
}

/** Waits until the host's file list has caught up with a change made on the disk. */
async function hostSees(running: RunningService, seen: () => boolean): Promise<void> {
	for (let tries = 0; tries < 400 && !seen(); tries++) await new Promise((resolve) => setTimeout(resolve, 25));
	expect(seen()).toBe(true);
}

describe("undo of a change whose note would go back beside a twin made since", () => {
	let vault: string;
	let running: RunningService;
	let client: Client;

	beforeEach(async () => {
		vault = await makeVault({ "Plan.md": "# Plan\n", "Linker.md": "See [[Plan]].\n", "Plans/A.md": "# A\n" });
		running = await startService(vault, { levels: ["write"], settings: { writeEnabled: true, rateLimitPerMinute: 100_000 } });
		await running.host.metadataCache.settled();
		client = await connectClient(running.url, running.tokens.write ?? "");
	});
	afterEach(async () => {
		await client.close();
		await running.stop();
		await removeDir(vault);
	});

	const lastId = (running: RunningService) => running.journal.list(1)[0]?.id ?? "";

	test("a rename's undo beside a note of the old name in other letter case is refused, writing nothing; after the twin is renamed it puts all back", async () => {
		await callOk(client, "rename_note", { path: "Plan.md", new_path: "Other.md" });
		const rename = lastId(running);
		await callOk(client, "create_note", { path: "plan.md", content: "another plan" });
		await running.host.metadataCache.settled();
		const before = await notesOf(vault);
		expect(before["Linker.md"]).toBe("See [[Other]].\n");

		const refused = await undoCall(running.host, running.journal, rename);
		expect(refused).toEqual({
			ok: false,
			reason: `Undo of ${rename} refused: "Other.md" cannot be moved back to "Plan.md": a note "plan.md" is there now, read as the same name (letter case and spaces aside). Nothing was changed. Rename or move "plan.md" first, then undo again.`,
		});
		expect(await notesOf(vault)).toEqual(before);
		expect(running.journal.get(rename)?.undone).toBeNull();

		await callOk(client, "rename_note", { path: "plan.md", new_path: "plan 2.md" });
		await running.host.metadataCache.settled();
		const undone = await undoCall(running.host, running.journal, rename);
		expect(undone.ok ? undone.notes : undone.reason).toEqual([
			{ path: "Plan.md", result: "moved back", from: "Other.md" },
			{ path: "Linker.md", result: "restored" },
		]);
		expect(await notesOf(vault)).toEqual({ "Plan.md": "# Plan\n", "Linker.md": "See [[Plan]].\n", "Plans/A.md": "# A\n", "plan 2.md": "another plan\n" });

		// The note itself is no twin of its own old path: a rename in letter case only is undone.
		await callOk(client, "rename_note", { path: "Plan.md", new_path: "PLAN.md" });
		const caseOnly = await undoCall(running.host, running.journal, lastId(running));
		expect(caseOnly.ok ? caseOnly.notes[0] : caseOnly.reason).toEqual({ path: "Plan.md", result: "moved back", from: "PLAN.md" });
		expect(Object.keys(await notesOf(vault)).sort()).toEqual(["Linker.md", "Plan.md", "Plans/A.md", "plan 2.md"]);
	});

	test("a twin made while the undo plans (in its read of a linking note) refuses it: the plan's look comes after its reads, nothing written", async () => {
		await callOk(client, "rename_note", { path: "Plan.md", new_path: "Other.md" });
		const rename = lastId(running);
		await running.host.metadataCache.settled();
		const { vault: notes } = running.host;
		const cachedRead = notes.cachedRead.bind(notes);
		let made = false;
		const reading = replaceMethod(notes, "cachedRead", async (file) => {
			if (!made && file.path === "Linker.md") {
				made = true;
				await notes.create("plan.md", "made meanwhile\n");
			}
			return cachedRead(file);
		});
		let stopped;
		try {
			stopped = await undoCall(running.host, running.journal, rename);
		} finally {
			reading.restore();
		}
		expect(made).toBe(true);
		// Until undo203 the plan looked before its reads, and the write's look stopped it ("stopped"); a twin made after the plan's
		// look is test/integration/undoPutBackLooks' "a twin made after the plan's look".
		expect(stopped.ok ? stopped.notes : stopped.reason).toBe(
			`Undo of ${rename} refused: "Other.md" cannot be moved back to "Plan.md": a note "plan.md" is there now, read as the same name (letter case and spaces aside). Nothing was changed. Rename or move "plan.md" first, then undo again.`,
		);
		expect(await notesOf(vault)).toEqual({ "Other.md": "# Plan\n", "Linker.md": "See [[Other]].\n", "Plans/A.md": "# A\n", "plan.md": "made meanwhile\n" });
		expect(running.journal.get(rename)?.undone).toBeNull();
	});

	test("a trashed note's restore beside a note of its name in other letter case is refused, writing nothing", async () => {
		await callOk(client, "create_note", { path: "Draft.md", content: "draft" });
		const undoneCreate = await undoCall(running.host, running.journal, lastId(running));
		expect(undoneCreate.ok ? undoneCreate.notes.map((note) => note.result) : undoneCreate.reason).toEqual(["trashed"]);
		const trashing = undoneCreate.ok ? undoneCreate.undoId : "";
		await callOk(client, "create_note", { path: "DRAFT.md", content: "mine" });
		const before = await notesOf(vault);

		const refused = await undoCall(running.host, running.journal, trashing);
		expect(refused.ok ? refused.notes : refused.reason).toBe(
			`Undo of ${trashing} refused: "Draft.md" cannot be restored: a note "DRAFT.md" is there now, read as the same name (letter case and spaces aside). Nothing was changed. Rename or move "DRAFT.md" first, then undo again.`,
		);
		expect(await notesOf(vault)).toEqual(before);
	});

	test("a rename's undo into a folder whose name is now another folder's in other letter case is refused, writing nothing", async () => {
		await callOk(client, "rename_note", { path: "Plans/A.md", new_path: "A.md" });
		const rename = lastId(running);
		// The person removes the emptied folder and writes a note in a folder of its name in lower case.
		await fs.rmdir(nodePath.join(vault, "Plans"));
		await hostSees(running, () => running.host.vault.getFolderByPath("Plans") === null);
		await callOk(client, "create_note", { path: "plans/B.md", content: "b" });
		const before = await notesOf(vault);

		const refused = await undoCall(running.host, running.journal, rename);
		expect(refused.ok ? refused.notes : refused.reason).toBe(
			`Undo of ${rename} refused: "A.md" cannot be moved back to "Plans/A.md": a folder "plans" is there now, read as the same name as the note's folder (letter case and spaces aside). Nothing was changed. Rename "plans" first, then undo again.`,
		);
		expect(await notesOf(vault)).toEqual(before);
		expect((await fs.readdir(vault)).sort()).toEqual([".obsidian", "A.md", "Linker.md", "Plan.md", "plans"]);
	});

	test("a note made at the very path while the undo plans is no twin: the restore's text is saved beside it, as before the twin look", async () => {
		await callOk(client, "create_note", { path: "Draft.md", content: "draft" });
		const undoneCreate = await undoCall(running.host, running.journal, lastId(running));
		const trashing = undoneCreate.ok ? undoneCreate.undoId : "";
		// Made right after the plan found the path free (its look at the disk), before the twin looks.
		const { vault: notes } = running.host;
		const exists = notes.adapter.exists.bind(notes.adapter);
		let made = false;
		const looking = replaceMethod(notes.adapter, "exists", async (path: string, sensitive?: boolean) => {
			const answer = await exists(path, sensitive);
			if (!made && path === "Draft.md") {
				made = true;
				await notes.create("Draft.md", "mine\n");
			}
			return answer;
		});
		let outcome;
		try {
			outcome = await undoCall(running.host, running.journal, trashing);
		} finally {
			looking.restore();
		}
		expect(made).toBe(true);
		// On lead20: refused, "a note "Draft.md" is there now, read as the same name … Rename or move "Draft.md" first".
		expect(outcome.ok ? outcome.notes.map((note) => note.result) : outcome.reason).toEqual(["conflict"]);
		const notesNow = await notesOf(vault);
		expect(notesNow["Draft.md"]).toBe("mine\n");
		expect(Object.entries(notesNow).filter(([path, text]) => path.startsWith("Draft (before undo ") && text === "draft\n")).toHaveLength(1);
	});

	test("a second undo of one rename, run while the first plans, is refused: no copy of the note the first puts back, no twin named", async () => {
		await callOk(client, "rename_note", { path: "Plan.md", new_path: "Other.md" });
		const rename = lastId(running);
		await running.host.metadataCache.settled();
		// The second undo runs whole in the first's read of the linking note: after the first planned the move, before its write.
		const { vault: notes } = running.host;
		const cachedRead = notes.cachedRead.bind(notes);
		let second: Awaited<ReturnType<typeof undoCall>> | "running" | undefined;
		const reading = replaceMethod(notes, "cachedRead", async (file) => {
			if (second === undefined && file.path === "Linker.md") {
				second = "running";
				second = await undoCall(running.host, running.journal, rename);
			}
			return cachedRead(file);
		});
		let first;
		try {
			first = await undoCall(running.host, running.journal, rename);
		} finally {
			reading.restore();
		}
		// On lead20 the second moved it all back and the first was refused: 'a note "Plan.md" is there now, read as the same
		// name … Rename or move "Plan.md" first' (on the base, 8d0e157d: a copy "Plan (before rename_note …).md" was made).
		expect(second).toEqual({ ok: false, reason: `The change ${rename} is being undone already. Nothing was changed.` });
		expect(first.ok ? first.notes : first.reason).toEqual([
			{ path: "Plan.md", result: "moved back", from: "Other.md" },
			{ path: "Linker.md", result: "restored" },
		]);
		expect(await notesOf(vault)).toEqual({ "Plan.md": "# Plan\n", "Linker.md": "See [[Plan]].\n", "Plans/A.md": "# A\n" });
		// Once it is done, the same undo says so, as before.
		expect(await undoCall(running.host, running.journal, rename)).toEqual(
			expect.objectContaining({ ok: false, reason: expect.stringContaining("was already undone") }),
		);
	});
});
