import { readdirSync, readFileSync } from "node:fs";
import * as nodePath from "node:path";
import type { CachedMetadata } from "obsidian";
import { PackedMetadataStore } from "../../../src/headless/compactMetadata";
import fc from "fast-check";
import { CHUNKED_ARRAY_CHUNK, NOTE_TEXT_PIECE_CHARS } from "../../../src/config/limits";
import { comparePaths } from "../../../src/vault/notes";
import { NoteMemo } from "../../../src/vault/noteMemo";
import { findTaskPage, findTasks, rememberTasks, type TaskFilter } from "../../../src/vault/tasks";
import { parseMetadata } from "../../../src/markdown/metadata";
import { taskStatusCharOf } from "../../../src/markdown/taskLine";
import { openVault, type OpenVault } from "../../helpers/hostVault";
import { pausingContext } from "../../helpers/toolVault";
import { listTasksTool } from "../../../src/mcp/tools/list_tasks";
import { OBSIDIAN_CACHE_DIR } from "../../helpers/vault";
import { replaceMethod } from "../../helpers/replaceMethod";

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

	// A task line Obsidian's metadata names that list_tasks did not read as that task would mark the metadata
	// as older than the text: the note's tasks would be parsed again on every call, never kept.
	test("each of those task lines reads, in the note's text, as a task line with Obsidian's checkbox character", () => {
		const misread = captures.flatMap((note) => {
			const lines = note.fileContents.split("\n").map((line) => line.replace(/\r$/, ""));
			return (note.cachedMetadata.listItems ?? [])
				.filter((item) => item.task !== undefined && taskStatusCharOf(lines[item.position.start.line] ?? "") !== item.task)
				.map((item) => `${note.filePath}:${item.position.start.line}`);
		});
		expect(misread).toEqual([]);
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

describe("findTaskPage: the first `limit` tasks and how many match in all", () => {
	const STATUS_CHARS = [" ", "x", "-", "/"] as const;
	const DATES = ["2026-01-31", "2026-02-01", "2026-02-28", "2027-01-01"];
	const statusOf = (char: string) => ({ " ": "open", x: "done", "-": "cancelled" })[char] ?? "other";
	const line = fc.record({ status: fc.constantFrom(...STATUS_CHARS), due: fc.option(fc.constantFrom(...DATES), { nil: undefined }), dataview: fc.boolean() });
	const notes = fc.dictionary(
		fc
			.tuple(fc.constantFrom("A", "A/Deep", "B", "Private", ""), fc.constantFrom("n1", "n2", "N3"))
			.map(([folder, name]) => (folder ? `${folder}/${name}.md` : `${name}.md`)),
		fc.array(line, { maxLength: 12 }),
		{ maxKeys: 8 },
	);
	const filter: fc.Arbitrary<TaskFilter> = fc.record(
		{
			status: fc.constantFrom("open", "done", "cancelled", "other", "any"),
			folder: fc.constantFrom("A", "B"),
			dueBefore: fc.constantFrom(...DATES),
			dueAfter: fc.constantFrom(...DATES),
			dueOn: fc.constantFrom(...DATES),
		},
		{ requiredKeys: ["status"] },
	);

	test("equals every matching task, in path and line order, cut at `limit`; never a task of a note outside the scope (excluded, or outside the token's folders)", async () => {
		await fc.assert(
			fc.asyncProperty(
				notes,
				filter,
				fc.integer({ min: 1, max: 30 }),
				fc.constantFrom("whole", "excluded", "token"),
				async (lines, asked, limit, scopeKind) => {
					const files = Object.fromEntries(
						Object.entries(lines).map(([path, tasks]) => [
							path,
							tasks
								.map(
									(task, index) =>
										`- [${task.status}] t${index}${task.due === undefined ? "" : task.dataview ? ` [due:: ${task.due}]` : ` 📅 ${task.due}`}`,
								)
								.join("\n"),
						]),
					);
					const vault = await openVault(files);
					try {
						const scope =
							scopeKind === "whole"
								? vault.scope()
								: scopeKind === "excluded"
									? vault.scope("Private")
									: { ...vault.scope(), tokenFolders: ["A"] };
						const seen = (path: string) =>
							scopeKind === "excluded" ? !path.startsWith("Private/") : scopeKind === "token" ? path.startsWith("A/") : true;
						const expected = Object.keys(lines)
							.filter(seen)
							.filter((path) => asked.folder === undefined || path.startsWith(`${asked.folder}/`))
							.sort((a, b) => comparePaths(a, b))
							.flatMap((path) =>
								(lines[path] ?? [])
									.map((task, index) => ({ ...task, path, line: index }))
									.filter((task) => asked.status === "any" || statusOf(task.status) === asked.status)
									.filter((task) =>
										asked.dueBefore === undefined && asked.dueAfter === undefined && asked.dueOn === undefined
											? true
											: task.due !== undefined &&
												(asked.dueBefore === undefined || task.due < asked.dueBefore) &&
												(asked.dueAfter === undefined || task.due > asked.dueAfter) &&
												(asked.dueOn === undefined || task.due === asked.dueOn),
									),
							)
							.map((task) => `${task.path}:${task.line} ${task.status}`);
						const page = await findTaskPage(vault.host, scope, asked, limit, undefined, new NoteMemo());
						expect(page.tasks.map((task) => `${task.path}:${task.line} ${task.status_char}`)).toEqual(expected.slice(0, limit));
						// Page after page from each page's place: every task once, in order, and no place after the last.
						const paged = [...page.tasks];
						for (let next = page.next; next !== undefined;) {
							const following = await findTaskPage(vault.host, scope, asked, limit, undefined, new NoteMemo(), {}, next);
							expect(following.tasks.length).toBeGreaterThan(0);
							paged.push(...following.tasks);
							next = following.next;
						}
						expect(paged.map((task) => `${task.path}:${task.line} ${task.status_char}`)).toEqual(expected);
						expect(page.total).toBe(expected.length);
					} finally {
						await vault.close();
					}
				},
			),
			{ numRuns: 40 },
		);
	});

	test("list_tasks asking for 10 of a note's 25,000 tasks splits only the first piece of them, once they are known (every call split them all: 2–3.6 s for 200,000)", async () => {
		const many = Array.from(
			{ length: 25_000 },
			(_, index) => `- [${index % 3 === 0 ? "x" : " "}] task number ${index} 📅 2026-0${1 + (index % 9)}-15`,
		).join("\n");
		const vault = await openVault({ "Big.md": many, "A/Small.md": "- [ ] first\n" });
		try {
			const everything = await findTasks(vault.host, vault.scope(), ANY);
			expect(everything).toHaveLength(25_001);
			const open = everything.filter((task) => task.status === "open");
			const dueInMarch = open.filter((task) => task.due === "2026-03-15");
			const { ctx } = pausingContext(vault);
			// Characters of packed task fields split into lines by the calls.
			let splitChars = 0;
			const split = Object.getOwnPropertyDescriptor(String.prototype, "split")?.value as (this: string, separator: string) => string[];
			const splitting = replaceMethod(String.prototype, "split", function (this: string, separator: unknown) {
				if (separator === "\n") splitChars += this.length;
				return split.call(this, separator as string);
			});
			try {
				expect(await listTasksTool.handler(ctx, { status: "open", limit: 10 })).toEqual({
					ok: true,
					value: { tasks: open.slice(0, 10), total: open.length, next_cursor: expect.any(String) },
				});
				expect(await listTasksTool.handler(ctx, { status: "open", due_on: "2026-03-15", limit: 10 })).toEqual({
					ok: true,
					value: { tasks: dueInMarch.slice(0, 10), total: dueInMarch.length, next_cursor: expect.any(String) },
				});
			} finally {
				splitting.restore();
			}
			// Before: the note's whole 0.8 million characters of fields, by each call. Now the first piece, by each call.
			expect(splitChars).toBeLessThanOrEqual(2 * 2 * NOTE_TEXT_PIECE_CHARS);
		} finally {
			await vault.close();
		}
	});

	test("the first list_tasks on a note of 20,000 tasks derives them with no array pushed into past a chunk and no text split whole (200,000 tasks: one piece of ~160 ms listing its items and lines, then growths of 40 ms)", async () => {
		const TASKS = 20_000;
		const lines = Array.from({ length: TASKS }, (_, index) => `- [${index % 3 === 0 ? "x" : " "}] task number ${index} 📅 2026-0${1 + (index % 9)}-15`);
		// Lines that are no task between them, and a task far past a long run of them.
		const text = `${lines.join("\n")}\n${"plain line\n".repeat(2 * CHUNKED_ARRAY_CHUNK)}- [ ] last one ⏳ 2026-02-01\r\n`;
		const vault = await openVault({ "Big.md": text, "A/Small.md": "- [ ] first\n" });
		try {
			await vault.host.metadataCache.settled();
			const { ctx } = pausingContext(vault);
			let longestPush = 0;
			let longestSplit = 0;
			const push = Object.getOwnPropertyDescriptor(Array.prototype, "push")?.value as (this: unknown[], ...values: unknown[]) => number;
			const pushing = replaceMethod(Array.prototype, "push", function (this: unknown[], ...values: unknown[]) {
				longestPush = Math.max(longestPush, this.length + values.length);
				return push.apply(this, values);
			});
			const split = Object.getOwnPropertyDescriptor(String.prototype, "split")?.value as (this: string, separator: string) => string[];
			const splitting = replaceMethod(String.prototype, "split", function (this: string, separator: unknown) {
				const parts = split.call(this, separator as string);
				longestSplit = Math.max(longestSplit, parts.length);
				return parts;
			});
			let answer: unknown;
			try {
				answer = await listTasksTool.handler(ctx, { status: "open", limit: 5 });
			} finally {
				splitting.restore();
				pushing.restore();
			}
			expect(longestPush).toBeLessThanOrEqual(CHUNKED_ARRAY_CHUNK);
			expect(longestSplit).toBeLessThanOrEqual(CHUNKED_ARRAY_CHUNK);
			// The answer is what the note's lines say, the far task and its CRLF included.
			const open = lines.flatMap((line, index) => (index % 3 === 0 ? [] : [{ line: index, text: line.slice(6), due: `2026-0${1 + (index % 9)}-15` }]));
			expect(answer).toEqual({
				ok: true,
				value: {
					tasks: [
						{ path: "A/Small.md", line: 0, text: "first", status: "open", status_char: " " },
						...open.slice(0, 4).map((task) => ({ path: "Big.md", ...task, status: "open", status_char: " " })),
					],
					total: open.length + 2,
					next_cursor: expect.any(String),
				},
			});
			const far = await listTasksTool.handler(ctx, { status: "open", path: "Big.md", due_before: "2026-01-01", limit: 5 });
			expect(far).toEqual({ ok: true, value: { tasks: [], total: 0 } });
			const all = await findTasks(vault.host, vault.scope(), { status: "open", path: "Big.md" });
			expect(all.at(-1)).toEqual({
				path: "Big.md",
				line: TASKS + 2 * CHUNKED_ARRAY_CHUNK,
				text: "last one ⏳ 2026-02-01",
				status: "open",
				status_char: " ",
				scheduled: "2026-02-01",
			});
		} finally {
			await vault.close();
		}
	}, 120_000);
});

// The search index hands its note's metadata and the text it read to rememberTasks. Until the cache has
// parsed an edit, that metadata is the old text's: kept, its tasks would name the new text's other lines
// for as long as the old metadata lives.
describe("rememberTasks with metadata older than the text", () => {
	test("keeps nothing, so the tasks are derived again from the text", () => {
		const memo = new NoteMemo();
		const old = parseMetadata("plain\n- [ ] task 37\n");
		rememberTasks(old, "---\ntags: [alpha]\n---\nplain\n- [ ] task 37\n", memo);
		expect(memo.tasks.has(old)).toBe(false);
		rememberTasks(old, "plain\n- [ ] task 37\n", memo);
		expect(memo.tasks.get(old)?.count).toBe(1);
	});
});
