import { promises as fs } from "node:fs";
import * as nodePath from "node:path";
import { REDO_IN_EDIT_MAX_CHARS } from "../../src/config/limits";
import { NodeHost } from "../../src/headless/NodeHost";
import type { Host } from "../../src/host/Host";
import { obsidianHost } from "../../src/host/ObsidianHost";
import { applyChangeSet, type NoteChange } from "../../src/journal/changeSet";
import { sha256Hex } from "../../src/sha256";
import { createApp, type App } from "../double/obsidian";
import { MemoryJournal } from "../helpers/memoryJournal";
import { makeVault, removeDir } from "../helpers/vault";

/**
 * The plugin's edits through Obsidian's `vault.process`, which saves whatever its callback returns,
 * the text it read included (obsidian.d.ts: "the text value of the note that was written"; the
 * double notes each such save in `unchangedSaves`).
 */
describe("edits through Obsidian's vault.process save only a changed text", () => {
	let vault: string;
	let nodeHost: NodeHost;
	let app: App;
	let host: Host;

	const planned = Array.from({ length: 2_000 }, (_, index) => `- item ${index}, lorem ipsum dolor sit amet ${index * 7}`).join("\n") + "\n";
	const append = (text: string) => `${text}- appended by the call\n`;

	beforeEach(async () => {
		expect(planned.length).toBeGreaterThan(REDO_IN_EDIT_MAX_CHARS);
		vault = await makeVault({ "Big.md": planned, "Moved.md": "# Moved\n" });
		nodeHost = await NodeHost.open(vault);
		app = createApp(nodeHost);
		host = await obsidianHost(app as never, { registerEvent: () => undefined, register: () => undefined });
	});
	afterEach(async () => {
		await nodeHost.close();
		await removeDir(vault);
	});

	test("an edit allowed without asking, on a long note another program changed meanwhile, saves the note once: the round that only finds it changed saves nothing", async () => {
		const journal = new MemoryJournal();
		const changed = `${planned}- the other program's line\n`;
		const recordAhead = journal.recordChangesAhead.bind(journal);
		let otherProgramWrote = false;
		jest.spyOn(journal, "recordChangesAhead").mockImplementation(async (made, records) => {
			await recordAhead(made, records);
			if (!otherProgramWrote) await fs.writeFile(nodePath.join(vault, "Big.md"), changed);
			otherProgramWrote = true;
		});
		const change: NoteChange = { path: "Big.md", before: planned, after: append(planned), redo: append };
		const call = { id: "call1", time: new Date().toISOString(), tokenName: "laptop", tool: "append_to_note" };
		const written = await applyChangeSet({ host, journal, call }, [change], { mayWrite: () => true, redoEdits: true });
		expect(otherProgramWrote).toBe(true);
		expect(written.get("Big.md")).toBe(append(changed));
		expect(await fs.readFile(nodePath.join(vault, "Big.md"), "utf8")).toBe(append(changed));
		// Before: Obsidian was handed the text it read, in the round that found the note changed, and saved it.
		expect(app.unchangedSaves).toEqual([]);
		expect(journal.get("call1")?.changes).toEqual([
			{ path: "Big.md", before: changed, beforeHash: sha256Hex(changed), after: append(changed), afterHash: sha256Hex(append(changed)) },
		]);
	});
});
