import { promises as fs } from "node:fs";
import * as nodePath from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SLICED_TASKS, STILL_BEING_READ_LISTED } from "../../src/config/limits";
import { NodeVault } from "../../src/headless/NodeVault";
import type { HostFile } from "../../src/host/Host";
import { connectClient } from "../helpers/http";
import { startService, type RunningService } from "../helpers/service";
import { callOk } from "../helpers/tools";
import { makeVault, removeDir } from "../helpers/vault";

// Another program (a sync tool, a script) renames a note on disk while list_tasks walks the vault, before
// the server's watcher has told it: the note's file is not at the path the server knows when its tasks are
// read. One such note failed every list_tasks of the vault ("That note is gone… Nothing was written") for as
// long as the program kept renaming it.

// More tasks than the search index keeps from the text it reads (SLICED_TASKS), so list_tasks reads the note itself.
const MOVING_TASKS = SLICED_TASKS + 10;
// Notes a program keeps moving (a sync tool's whole folder): more than the answer names as still being read.
const KEPT_MOVING = STILL_BEING_READ_LISTED + 3;

let vault: string;
let running: RunningService;
let client: Client;
beforeAll(async () => {
	vault = await makeVault({
		"Alpha.md": "- [ ] alpha task\n",
		"Moving.md": Array.from({ length: MOVING_TASKS }, (_, index) => `- [ ] moving ${index}`).join("\n") + "\n",
		"Zulu.md": "- [ ] zulu task\n",
		...Object.fromEntries(
			Array.from({ length: KEPT_MOVING }, (_, note) => [
				`Zz kept/Moving ${String(note).padStart(2, "0")}.md`,
				Array.from({ length: MOVING_TASKS }, (_, index) => `- [ ] kept ${index}`).join("\n") + "\n",
			]),
		),
	});
	running = await startService(vault);
	await running.host.metadataCache.settled();
	await running.service.search?.whenReady();
	client = await connectClient(running.url, running.tokens.read ?? "");
});
afterAll(async () => {
	jest.restoreAllMocks();
	await client.close();
	await running.stop();
	await removeDir(vault);
});

// First: a list_tasks that reads these notes keeps their tasks, and the next would not read them again.
test("list_tasks while a program keeps moving more notes than it names: still_being_read names the first STILL_BEING_READ_LISTED, once each, in path order", async () => {
	// eslint-disable-next-line @typescript-eslint/unbound-method -- called below with the vault as `this`
	const original = NodeVault.prototype.cachedRead;
	let failedReads = 0;
	// Every read of these notes finds the file moved away again, on every walk: as a program renaming them in a loop would.
	const read = jest.spyOn(NodeVault.prototype, "cachedRead").mockImplementation(async function (this: NodeVault, file: HostFile) {
		if (!file.path.startsWith("Zz kept/")) return original.call(this, file);
		failedReads++;
		throw Object.assign(new Error(`ENOENT: no such file or directory, open '${file.path}'`), { code: "ENOENT" });
	});
	try {
		// Their folder only: the other notes' tasks are read by the next test's list_tasks first.
		const listed = await callOk<{ tasks: Array<{ text: string }>; still_being_read?: string[] }>(client, "list_tasks", { folder: "Zz kept", limit: 1000 });
		expect(listed.tasks).toEqual([]);
		const named = listed.still_being_read ?? [];
		expect(named).toEqual(Array.from({ length: STILL_BEING_READ_LISTED }, (_, note) => `Zz kept/Moving ${String(note).padStart(2, "0")}.md`));
		// The walk is made again a bounded number of times, not for as long as the program moves them.
		expect(failedReads).toBeGreaterThanOrEqual(KEPT_MOVING);
		expect(failedReads).toBeLessThanOrEqual(KEPT_MOVING * 3);
	} finally {
		read.mockRestore();
	}
});

test("list_tasks while another program renames a note on disk: the other notes' tasks are listed, the moved note named as still being read or listed at its new path", async () => {
	// eslint-disable-next-line @typescript-eslint/unbound-method -- called below with the vault as `this`
	const original = NodeVault.prototype.cachedRead;
	let moved = false;
	jest.spyOn(NodeVault.prototype, "cachedRead").mockImplementation(async function (this: NodeVault, file: HostFile) {
		if (file.path === "Moving.md" && !moved) {
			moved = true;
			await fs.rename(nodePath.join(vault, "Moving.md"), nodePath.join(vault, "Moved.md"));
		}
		return original.call(this, file);
	});
	const listed = await callOk<{ tasks: Array<{ path: string; text: string }>; total: number; still_being_read?: string[] }>(client, "list_tasks", {
		limit: 1000,
	});
	expect(moved).toBe(true);
	const texts = listed.tasks.map((task) => task.text);
	expect(texts).toContain("alpha task");
	expect(texts).toContain("zulu task");
	// Named as not yet known, or (when the watcher told the move before a walk made again) listed where it is now.
	const movingListed = listed.tasks.filter((task) => task.text.startsWith("moving "));
	if (movingListed.length > 0) expect(new Set(movingListed.map((task) => task.path))).toEqual(new Set(["Moved.md"]));
	else expect(listed.still_being_read).toEqual(["Moving.md"]);
});
