import type { HostFile } from "../../../src/host/Host";
import { NoteMemo } from "../../../src/vault/noteMemo";
import { NotesNotYetRead } from "../../../src/vault/notesStillBeingRead";
import { NotesWithTasks } from "../../../src/vault/notesWithTasks";
import type { Scope } from "../../../src/vault/scope";
import { findTaskPage, type TaskFilter } from "../../../src/vault/tasks";
import { openVault, type OpenVault } from "../../helpers/hostVault";

const ANY: TaskFilter = { status: "any" };
const PLAIN_NOTES = 400;

/** A vault of many notes without tasks, and a few with: a visible one, one in a folder the test excludes. */
function files(): Record<string, string> {
	const files: Record<string, string> = {
		"A/Tasks.md": "# Tasks\n- [ ] first\n- [x] second 📅 2025-01-02\n",
		"B/More.md": "- [ ] more\n",
		"Hidden/Secret.md": "- [ ] secret task\n",
	};
	for (let index = 0; index < PLAIN_NOTES; index++) files[`Plain/${String(index).padStart(3, "0")}.md`] = `plain note ${index}\n`;
	return files;
}

async function known(kept: NotesWithTasks): Promise<void> {
	while (kept.notes() === null) await new Promise((resolve) => setImmediate(resolve));
}

/**
 * `list_tasks`'s page with the kept notes, and the page by a walk of the vault (the code before the
 * kept list): they must be the same; also how many notes' metadata the kept call looked up.
 */
async function pages(vault: OpenVault, kept: NotesWithTasks, unread: NotesNotYetRead, scope: Scope, filter: TaskFilter = ANY) {
	const cache = vault.host.metadataCache;
	const lookups = jest.spyOn(cache, "getFileCache");
	const fromKept = await findTaskPage(vault.host, scope, filter, 500, undefined, new NoteMemo(), { notesWithTasks: kept, notesNotYetRead: unread });
	const looked = lookups.mock.calls.length;
	lookups.mockRestore();
	const walked = await findTaskPage(vault.host, scope, filter, 500, undefined, new NoteMemo());
	expect(JSON.stringify(fromKept)).toBe(JSON.stringify(walked));
	return { paths: fromKept.tasks.map((task) => `${task.path}:${task.line} ${task.text}`), total: fromKept.total, looked };
}

describe("NotesWithTasks: list_tasks walks the notes that may hold a task, not the vault", () => {
	let vault: OpenVault;
	let kept: NotesWithTasks;
	let unread: NotesNotYetRead;
	beforeEach(async () => {
		vault = await openVault(files());
		await vault.host.metadataCache.settled();
		kept = new NotesWithTasks(vault.host, () => new Promise((resolve) => setImmediate(resolve)));
		kept.start();
		await known(kept);
		unread = new NotesNotYetRead(vault.host, () => new Promise((resolve) => setImmediate(resolve)));
		unread.start();
	});
	afterEach(async () => {
		kept.stop();
		unread.stop();
		await vault.close();
	});

	test(`a call looks up the metadata of the notes with tasks, not of the ${PLAIN_NOTES} without, and answers as the walk does`, async () => {
		const page = await pages(vault, kept, unread, vault.scope("Hidden"));
		expect(page.paths).toEqual(["A/Tasks.md:1 first", "A/Tasks.md:2 second 📅 2025-01-02", "B/More.md:0 more"]);
		// A walk looks up every note (the code before: 800 lookups and more).
		expect(page.looked).toBeLessThan(20);
		expect((await pages(vault, kept, unread, vault.scope("Hidden"), { status: "open", folder: "B" })).paths).toEqual(["B/More.md:0 more"]);
	});

	test("a note edited to hold a task is listed (the metadata's change is followed)", async () => {
		await vault.host.vault.process(vault.host.vault.getFileByPath("Plain/007.md") as HostFile, () => "plain\n- [ ] new task\n");
		await vault.host.metadataCache.settled();
		expect((await pages(vault, kept, unread, vault.scope("Hidden"))).paths).toContain("Plain/007.md:1 new task");
	});

	test("a note edited to hold no task, renamed, moved out of sight, or deleted is answered where it is now", async () => {
		const { vault: notes } = vault.host;
		await notes.process(notes.getFileByPath("B/More.md") as HostFile, () => "no task now\n");
		await vault.host.metadataCache.settled();
		expect((await pages(vault, kept, unread, vault.scope("Hidden"))).paths).toEqual(["A/Tasks.md:1 first", "A/Tasks.md:2 second 📅 2025-01-02"]);
		await notes.rename(notes.getFileByPath("A/Tasks.md") as HostFile, "C/Renamed.md");
		await vault.host.metadataCache.settled();
		expect((await pages(vault, kept, unread, vault.scope("Hidden"))).paths).toEqual(["C/Renamed.md:1 first", "C/Renamed.md:2 second 📅 2025-01-02"]);
		await notes.rename(notes.getFileByPath("C/Renamed.md") as HostFile, "Hidden/Moved.md");
		await vault.host.metadataCache.settled();
		expect((await pages(vault, kept, unread, vault.scope("Hidden"))).total).toBe(0);
		await notes.trash(notes.getFileByPath("Hidden/Moved.md") as HostFile);
		await vault.host.metadataCache.settled();
		expect((await pages(vault, kept, unread, vault.scope())).paths).toEqual(["Hidden/Secret.md:0 secret task"]);
	});

	test("excluded folders changed in the settings: each call applies its own scope to the notes kept", async () => {
		expect((await pages(vault, kept, unread, vault.scope())).paths).toContain("Hidden/Secret.md:0 secret task");
		expect((await pages(vault, kept, unread, vault.scope("Hidden"))).paths).not.toContain("Hidden/Secret.md:0 secret task");
		expect((await pages(vault, kept, unread, vault.scope("Hidden", "A"))).paths).toEqual(["B/More.md:0 more"]);
		expect((await pages(vault, kept, unread, { ...vault.scope(), tokenFolders: ["Hidden"] })).paths).toEqual(["Hidden/Secret.md:0 secret task"]);
	});

	test("a note whose metadata was not there at the first look, and comes without an event, is listed", async () => {
		const cache = vault.host.metadataCache;
		const getFileCache = cache.getFileCache.bind(cache);
		const notYet = jest.spyOn(cache, "getFileCache").mockImplementation((file) => (file.path === "B/More.md" ? null : getFileCache(file)));
		const fresh = new NotesWithTasks(vault.host, () => new Promise((resolve) => setImmediate(resolve)));
		fresh.start();
		try {
			await known(fresh);
			expect(fresh.notes()?.map((note) => note.path)).not.toContain("B/More.md");
			notYet.mockRestore();
			expect((await pages(vault, fresh, unread, vault.scope("Hidden"))).paths).toContain("B/More.md:0 more");
		} finally {
			notYet.mockRestore();
			fresh.stop();
		}
	});

	test("the first look through the vault holds the notes with a task item, and no other", async () => {
		const fresh = new NotesWithTasks(vault.host, () => new Promise((resolve) => setImmediate(resolve)));
		fresh.start();
		try {
			await known(fresh);
			expect(
				fresh
					.notes()
					?.map((note) => note.path)
					.sort(),
			).toEqual(["A/Tasks.md", "B/More.md", "Hidden/Secret.md"]);
		} finally {
			fresh.stop();
		}
	});
});
