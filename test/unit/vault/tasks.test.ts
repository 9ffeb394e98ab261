import { readdirSync, readFileSync } from "node:fs";
import * as nodePath from "node:path";
import type { CachedMetadata } from "obsidian";
import { PackedMetadataStore } from "../../../src/headless/compactMetadata";
import { findTasks, type TaskFilter } from "../../../src/vault/tasks";
import { openVault, type OpenVault } from "../../helpers/hostVault";
import { OBSIDIAN_CACHE_DIR } from "../../helpers/vault";

const ANY: TaskFilter = { status: "any" };

describe("findTasks in a vault", () => {
	let vault: OpenVault;
	beforeAll(async () => {
		vault = await openVault({
			"Inbox.md": [
				"# Inbox",
				"- [ ] Call Ana 📅 2026-12-05",
				"- [x] Paid rent ✅ 2026-11-30",
				"- [-] Old idea",
				"- [/] Half done [due:: 2026-12-01]",
				"- plain item, no task",
				"  - [ ] Nested step 📅 2026-12-10",
				"> - [ ] Quoted task",
				"",
				"```",
				"- [ ] not a task, in code",
				"```",
				"%%",
				"- [ ] not a task, in a comment",
				"%%",
			].join("\n"),
			"Projects/Site.md": "1. [ ] Launch 📅 2026-12-01\r\n2. [X] Design\r\n",
			"Projects/Archive/Old.md": "- [ ] Archived 📅 2025-01-01\n",
			"Private/Secret.md": "- [ ] Secret task\n",
			"Notes.txt": "- [ ] not a note\n",
		});
	});
	afterAll(() => vault.close());

	const found = async (filter: TaskFilter, ...excluded: string[]) =>
		(await findTasks(vault.host, vault.scope(...excluded), filter)).map((task) => `${task.path}:${task.line} ${task.status} ${task.text}`);

	test("every task, in path and line order, with what a person sees on the line", async () => {
		expect(await found(ANY)).toEqual([
			"Inbox.md:1 open Call Ana 📅 2026-12-05",
			"Inbox.md:2 done Paid rent ✅ 2026-11-30",
			"Inbox.md:3 cancelled Old idea",
			"Inbox.md:4 other Half done [due:: 2026-12-01]",
			"Inbox.md:6 open Nested step 📅 2026-12-10",
			"Inbox.md:7 open Quoted task",
			"Private/Secret.md:0 open Secret task",
			"Projects/Archive/Old.md:0 open Archived 📅 2025-01-01",
			"Projects/Site.md:0 open Launch 📅 2026-12-01",
			"Projects/Site.md:1 done Design",
		]);
	});

	test("each task carries its checkbox character and its dates, in either plugin's format", async () => {
		const tasks = await findTasks(vault.host, vault.scope(), { status: "any", path: "Inbox.md" });
		expect(tasks.slice(0, 4)).toEqual([
			{ path: "Inbox.md", line: 1, text: "Call Ana 📅 2026-12-05", status: "open", status_char: " ", due: "2026-12-05" },
			{ path: "Inbox.md", line: 2, text: "Paid rent ✅ 2026-11-30", status: "done", status_char: "x", done: "2026-11-30" },
			{ path: "Inbox.md", line: 3, text: "Old idea", status: "cancelled", status_char: "-" },
			{ path: "Inbox.md", line: 4, text: "Half done [due:: 2026-12-01]", status: "other", status_char: "/", due: "2026-12-01" },
		]);
	});

	test.each<[string, TaskFilter, string[], string[]]>([
		["open ones", { status: "open" }, ["Private"], ["Inbox.md:1", "Inbox.md:6", "Inbox.md:7", "Projects/Archive/Old.md:0", "Projects/Site.md:0"]],
		["done ones, either x", { status: "done" }, [], ["Inbox.md:2", "Projects/Site.md:1"]],
		["cancelled ones", { status: "cancelled" }, [], ["Inbox.md:3"]],
		["other statuses", { status: "other" }, [], ["Inbox.md:4"]],
		[
			"in a folder and its subfolders",
			{ status: "any", folder: "Projects" },
			[],
			["Projects/Archive/Old.md:0", "Projects/Site.md:0", "Projects/Site.md:1"],
		],
		["a folder's name is not a prefix of another's", { status: "any", folder: "Project" }, [], []],
		["in one note", { status: "any", path: "Projects/Site.md" }, [], ["Projects/Site.md:0", "Projects/Site.md:1"]],
		["due on a day", { status: "any", dueOn: "2026-12-01" }, [], ["Inbox.md:4", "Projects/Site.md:0"]],
		["due before a day (not on it)", { status: "any", dueBefore: "2026-12-05" }, [], ["Inbox.md:4", "Projects/Archive/Old.md:0", "Projects/Site.md:0"]],
		["due after a day (not on it)", { status: "any", dueAfter: "2026-12-05" }, [], ["Inbox.md:6"]],
		["due in a range", { status: "open", dueAfter: "2025-12-31", dueBefore: "2026-12-06" }, [], ["Inbox.md:1", "Projects/Site.md:0"]],
		[
			"an excluded folder's tasks are never listed",
			{ status: "any" },
			["Private", "Projects/Archive"],
			["Inbox.md:1", "Inbox.md:2", "Inbox.md:3", "Inbox.md:4", "Inbox.md:6", "Inbox.md:7", "Projects/Site.md:0", "Projects/Site.md:1"],
		],
		["an excluded note asked for by path has none", { status: "any", path: "Private/Secret.md" }, ["Private"], []],
	])("%s", async (_name, filter, excluded, expected) => {
		expect((await found(filter, ...excluded)).map((entry) => entry.split(" ")[0])).toEqual(expected);
	});
});

interface Capture {
	filePath: string;
	fileContents: string;
	cachedMetadata: CachedMetadata;
}

describe("against the tasks real Obsidian found in the captured notes", () => {
	const captures = readdirSync(OBSIDIAN_CACHE_DIR)
		.filter((name) => name.endsWith(".json"))
		.map((name) => JSON.parse(readFileSync(nodePath.join(OBSIDIAN_CACHE_DIR, name), "utf8")) as Capture);
	let vault: OpenVault;
	beforeAll(async () => {
		vault = await openVault(Object.fromEntries(captures.map((note) => [note.filePath, note.fileContents])));
	});
	afterAll(() => vault.close());

	test("every task Obsidian's metadata cache lists, at its line with its checkbox character, and no other", async () => {
		const expected = captures
			.flatMap((note) =>
				(note.cachedMetadata.listItems ?? [])
					.filter((item) => item.task !== undefined)
					.map((item) => `${note.filePath}:${item.position.start.line} [${item.task}]`),
			)
			.sort();
		expect(expected.length).toBeGreaterThan(150);
		const tasks = await findTasks(vault.host, vault.scope(), ANY);
		expect(tasks.map((task) => `${task.path}:${task.line} [${task.status_char}]`).sort()).toEqual(expected);
	});
});

describe("findTasks on a note of very many list items", () => {
	test("finds its task without building the note's list items (250,000 nested items were built in one piece on each list_tasks)", async () => {
		const nested = Array.from({ length: 200 }, (_, line) => `${"> - ".repeat(1 + (line % 100))}x ${line}`).join("\n");
		const vault = await openVault({ "Deep.md": `${nested}\n\n- [x] Done 📅 2026-12-05\n` });
		try {
			const keep = jest.spyOn(PackedMetadataStore.prototype, "keep");
			try {
				const tasks = await findTasks(vault.host, vault.scope(), ANY);
				expect(tasks.map((task) => `${task.path}:${task.line} ${task.status} ${task.text} ${task.due}`)).toEqual([
					"Deep.md:201 done Done 📅 2026-12-05 2026-12-05",
				]);
				// Building the list items packs them anew for the store: before, once per note read.
				expect(keep).not.toHaveBeenCalled();
			} finally {
				keep.mockRestore();
			}
		} finally {
			await vault.close();
		}
	});
});
