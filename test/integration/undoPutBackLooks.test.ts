/**
 * Undo's looks for twins of what it writes (undo203): one walk of the vault's files for every note an undo puts back, at
 * the plan and again at the write (a walk a note was 2N walks for N notes); a note moved back out of its own new folder, the
 * only file there, is no twin of itself; a conflict copy's name is looked at too. Writes through the SDK client over HTTP,
 * undo as the plugin runs it on the service's host and journal.
 */
import { promises as fs } from "node:fs";
import * as nodePath from "node:path";
import { conflictCopyName, newCallId, undoCall } from "../../src/journal/undo";
import { sha256Hex } from "../../src/sha256";
import { connectClient } from "../helpers/http";
import { replaceMethod } from "../helpers/replaceMethod";
import { startService, type RunningService } from "../helpers/service";
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
async function hostSees(seen: () => boolean): Promise<void> {
	for (let tries = 0; tries < 400 && !seen(); tries++) await new Promise((resolve) => setTimeout(resolve, 25));
	expect(seen()).toBe(true);
}

/** Counts the walks of the vault's files the twin looks make (src/vault/writes.ts); other parts list the files for their own ends. */
function countTwinWalks(running: RunningService, onWalk: () => void = () => undefined): { walks: () => number; restore: () => void } {
	const { vault } = running.host;
	const listFiles = vault.getFiles.bind(vault);
	let walks = 0;
	const replaced = replaceMethod(vault, "getFiles", () => {
		const files = listFiles();
		if (new Error().stack?.includes(`${nodePath.sep}vault${nodePath.sep}writes.ts`) === true) {
			walks++;
			onWalk();
		}
		return files;
	});
	return { walks: () => walks, restore: () => replaced.restore() };
}

describe("undo's twin looks", () => {
	let vault: string;
	let running: RunningService;
	let client: Client;

	beforeEach(async () => {
		vault = await makeVault({ "Plans/A.md": "# A\n", "Linker.md": "See [[Plans/A]].\n" });
		running = await startService(vault, { levels: ["write"], settings: { writeEnabled: true, rateLimitPerMinute: 100_000 } });
		await running.host.metadataCache.settled();
		client = await connectClient(running.url, running.tokens.write ?? "");
	});
	afterEach(async () => {
		await client.close();
		await running.stop();
		await removeDir(vault);
	});

	const lastId = () => running.journal.list(1)[0]?.id ?? "";

	test("an undo restoring 12 notes walks the vault's files twice (the plan, the write), not twice a note", async () => {
		// A call that took 12 notes to the trash (as an undo of their creation does, one a call): its undo restores all 12.
		const texts = Array.from({ length: 12 }, (_, index) => [`Restored/N${index}.md`, `note ${index}\n`] as const);
		const call = { id: newCallId(), time: new Date().toISOString(), tokenName: "you", tool: "undo" };
		running.journal.recordChanges(
			call,
			texts.map(([path, text]) => ({ path, before: text, beforeHash: sha256Hex(text), after: null, afterHash: null })),
		);
		const counted = countTwinWalks(running);
		let outcome;
		try {
			outcome = await undoCall(running.host, running.journal, call.id);
		} finally {
			counted.restore();
		}
		expect(outcome.ok ? outcome.notes.map((note) => note.result) : outcome.reason).toEqual(texts.map(() => "restored"));
		const notes = await notesOf(vault);
		for (const [path, text] of texts) expect(notes[path]).toBe(text);
		// On the base: 24 (each note's look at the plan and again at its write).
		expect(counted.walks()).toBe(2);
	});

	test("a note moved back out of its own new folder, the only file there, is restored; one more file there and it is refused", async () => {
		// `plans/` is there (empty) when the rename moves the note into it; the person then deletes the emptied `Plans/`.
		await fs.mkdir(nodePath.join(vault, "plans"));
		await hostSees(() => running.host.vault.getFolderByPath("plans") !== null);
		await callOk(client, "rename_note", { path: "Plans/A.md", new_path: "plans/A.md" });
		const rename = lastId();
		await fs.rmdir(nodePath.join(vault, "Plans"));
		await hostSees(() => running.host.vault.getFolderByPath("Plans") === null);
		await running.host.metadataCache.settled();

		const undone = await undoCall(running.host, running.journal, rename);
		// On the base: refused, 'a folder "plans" is there now, read as the same name as the note's folder'.
		expect(undone.ok ? undone.notes : undone.reason).toEqual([
			{ path: "Plans/A.md", result: "moved back", from: "plans/A.md" },
			{ path: "Linker.md", result: "restored" },
		]);
		expect(await notesOf(vault)).toEqual({ "Plans/A.md": "# A\n", "Linker.md": "See [[Plans/A]].\n" });

		// The same with another note in `plans/`: a twin folder the note would go back beside.
		await callOk(client, "rename_note", { path: "Plans/A.md", new_path: "plans/A.md" });
		const again = lastId();
		await callOk(client, "create_note", { path: "plans/B.md", content: "b" });
		await fs.rmdir(nodePath.join(vault, "Plans"));
		await hostSees(() => running.host.vault.getFolderByPath("Plans") === null);
		const before = await notesOf(vault);
		const refused = await undoCall(running.host, running.journal, again);
		expect(refused.ok ? refused.notes : refused.reason).toBe(
			`Undo of ${again} refused: "plans/A.md" cannot be moved back to "Plans/A.md": a folder "plans" is there now, read as the same name as the note's folder (letter case and spaces aside). Nothing was changed. Rename "plans" first, then undo again.`,
		);
		expect(await notesOf(vault)).toEqual(before);
	});

	test("a conflict copy is not saved beside a note its name reads as: the next number is taken", async () => {
		await callOk(client, "create_note", { path: "Draft.md", content: "draft" });
		const undoneCreate = await undoCall(running.host, running.journal, lastId());
		if (!undoneCreate.ok) throw new Error(undoneCreate.reason);
		const trashing = running.journal.get(undoneCreate.undoId);
		if (trashing === null) throw new Error("no undo entry");
		await callOk(client, "create_note", { path: "Draft.md", content: "mine" });
		// A note named as the first copy would be, in lower case.
		const first = conflictCopyName("Draft.md", trashing.tool, new Date(trashing.time));
		const twin = first.replace("Draft", "draft");
		await callOk(client, "create_note", { path: twin, content: "twin" });
		await running.host.metadataCache.settled();

		const outcome = await undoCall(running.host, running.journal, trashing.id);
		const second = conflictCopyName("Draft.md", trashing.tool, new Date(trashing.time), 1);
		// On the base: saved as `Draft (before undo …).md` beside `draft (before undo …).md`.
		expect(outcome.ok ? outcome.notes : outcome.reason).toEqual([{ path: "Draft.md", result: "conflict", copy: second }]);
		expect(await notesOf(vault)).toEqual({
			"Plans/A.md": "# A\n",
			"Linker.md": "See [[Plans/A]].\n",
			"Draft.md": "mine\n",
			[twin]: "twin\n",
			[second]: "draft\n",
		});
	});

	test("a twin made after the plan's look, before the write, stops the undo before the move, nothing written", async () => {
		await callOk(client, "rename_note", { path: "Plans/A.md", new_path: "Other.md" });
		const rename = lastId();
		await running.host.metadataCache.settled();
		// Made in the plan's look, once its walk has taken the file list (in its listing of the folders above `Plans`): that look
		// does not see it, the write's does.
		const { vault: notes } = running.host;
		const list = notes.listedFolderNames.bind(notes);
		let made = false;
		const listing = replaceMethod(notes, "listedFolderNames", async (folder: string) => {
			if (!made) {
				made = true;
				await notes.create("plans/a.md", "made meanwhile\n");
			}
			return list(folder);
		});
		const counted = countTwinWalks(running);
		let stopped;
		try {
			stopped = await undoCall(running.host, running.journal, rename);
		} finally {
			counted.restore();
			listing.restore();
		}
		expect(made).toBe(true);
		expect(counted.walks()).toBe(2);
		expect(stopped.ok ? stopped.notes : stopped.reason).toBe(
			`Undo of ${rename} stopped: "Other.md" cannot be moved back to "Plans/A.md": a note "plans/a.md" is there now, read as the same name (letter case and spaces aside). Rename or move "plans/a.md" first, then undo again. Nothing was changed.`,
		);
		expect(await notesOf(vault)).toEqual({ "Other.md": "# A\n", "Linker.md": "See [[Other]].\n", "plans/a.md": "made meanwhile\n" });
		expect(running.journal.get(rename)?.undone).toBeNull();
	});
});
