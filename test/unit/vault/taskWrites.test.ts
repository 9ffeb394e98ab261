import { promises as fs } from "node:fs";
import * as nodePath from "node:path";
import dayjs from "dayjs";
import { addTask, completeTask, todaysDailyNote } from "../../../src/vault/taskWrites";
import { NodeHost } from "../../../src/headless/NodeHost";
import { openVault, type OpenVault } from "../../helpers/hostVault";
import { makeVault, removeDir } from "../../helpers/vault";
import { countWorkPerPiece } from "../../helpers/workPieces";

const DAILY_SETTINGS = JSON.stringify({ folder: "Journal", format: "YYYY-MM-DD", template: "Templates/Day" });

describe("task writes", () => {
	let vault: OpenVault;
	afterEach(() => vault.close());
	const onDisk = (path: string) => fs.readFile(nodePath.join(vault.root, path), "utf8");

	describe("todaysDailyNote", () => {
		test("makes today's note from the template when it is missing, then finds the same note", async () => {
			vault = await openVault({ ".obsidian/daily-notes.json": DAILY_SETTINGS, "Templates/Day.md": "# {{date:dddd}}\n" });
			const day = new Date(2026, 11, 1, 8, 0);
			const made = await todaysDailyNote(vault.host, vault.scope(), day);
			expect(made).toMatchObject({ ok: true, value: { file: { path: "Journal/2026-12-01.md" }, created: true } });
			expect(await onDisk("Journal/2026-12-01.md")).toBe("# Tuesday\n");
			expect(await todaysDailyNote(vault.host, vault.scope(), day)).toMatchObject({
				ok: true,
				value: { file: { path: "Journal/2026-12-01.md" }, created: false },
			});
		});

		test("a daily notes folder this server may not write to is an error, and nothing is made", async () => {
			vault = await openVault({ ".obsidian/daily-notes.json": DAILY_SETTINGS });
			const answer = await todaysDailyNote(vault.host, vault.scope("Journal"), new Date(2026, 11, 1));
			expect(answer).toEqual({ ok: false, error: expect.stringMatching(/^Today's daily note cannot be written: /) });
			expect(vault.host.vault.getFolderByPath("Journal")).toBeNull();
		});
	});

	describe("addTask", () => {
		test.each<[string, Record<string, string>, { text: string; due?: string; heading?: string }, string]>([
			["at the end of a freeform note", { "Plan.md": "# Plan\n\nText.\n" }, { text: "Call Ana" }, "# Plan\n\nText.\n\n- [ ] Call Ana\n"],
			["in the note's own bullet marker", { "Plan.md": "* [ ] First\n" }, { text: "Second" }, "* [ ] First\n* [ ] Second\n"],
			[
				"with a due date in the Tasks plugin's emoji format",
				{ "Plan.md": "- [ ] First\n" },
				{ text: "Pay rent", due: "2026-12-05" },
				"- [ ] First\n- [ ] Pay rent 📅 2026-12-05\n",
			],
			[
				"with a due date in Dataview's format when the Tasks plugin is set to it",
				{ "Plan.md": "- [ ] First\n", ".obsidian/plugins/obsidian-tasks-plugin/data.json": JSON.stringify({ taskFormat: "dataview" }) },
				{ text: "Pay rent", due: "2026-12-05" },
				"- [ ] First\n- [ ] Pay rent [due:: 2026-12-05]\n",
			],
			[
				"under a heading",
				{ "Plan.md": "# Today\n\n- [ ] A\n\n# Later\n\n- [ ] B\n" },
				{ text: "C", heading: "Today" },
				"# Today\n\n- [ ] A\n- [ ] C\n\n# Later\n\n- [ ] B\n",
			],
		])("%s", async (_name, files, task, expected) => {
			vault = await openVault(files);
			expect(await addTask(vault.host, vault.scope(), { path: "Plan", emptyNoteMode: "freeform", ...task })).toMatchObject({
				ok: true,
				value: { path: "Plan.md", createdNote: false },
			});
			expect(await onDisk("Plan.md")).toBe(expected);
		});

		test("the check that the new line is a task reads the note's blocks, not its links and tags: no more pieces beside 2,000 lines of links than of plain words", async () => {
			const piecesOfAddTask = async (line: string) => {
				// An HTML line at the top: the note may leave a block open, so its text is parsed to check the new task.
				vault = await openVault({ "Tasks.md": `<br>\n\n${line.repeat(2_000)}\n- [ ] last\n` });
				await vault.host.metadataCache.settled();
				const pieces = countWorkPerPiece();
				try {
					const answer = await addTask(vault.host, vault.scope(), { path: "Tasks.md", text: "New", emptyNoteMode: "freeform" });
					expect(answer).toEqual({ ok: true, value: { path: "Tasks.md", line: 2_004, createdNote: false, notice: undefined } });
					return pieces.perPiece.length;
				} finally {
					pieces.restore();
				}
			};
			const links = await piecesOfAddTask("See [[Alpha]] and [[Beta]] with #tag here\n");
			await vault.close();
			// Before: 12 pieces against 5 (every link and tag of the note read, as list_tasks' full parse reads them). The margin of
			// 2 is for the cache's own parse of the written note, whose pauses the spy counts too and which pauses more in a note of links (10 against 9).
			expect(links).toBeLessThanOrEqual((await piecesOfAddTask("See the Alpha and the Beta with a tag here\n")) + 2);
		});

		test("without a note: today's daily note is made and the task goes in, as an outline when asked", async () => {
			vault = await openVault({ ".obsidian/daily-notes.json": JSON.stringify({ folder: "Journal" }) });
			const path = `Journal/${dayjs().format("YYYY-MM-DD")}.md`;
			expect(await addTask(vault.host, vault.scope(), { text: "Water plants", emptyNoteMode: "outliner" })).toEqual({
				ok: true,
				value: { path, line: 0, createdNote: true },
			});
			expect(await onDisk(path)).toBe("- [ ] Water plants\n");
		});

		test.each<[string, { path: string; heading?: string }, RegExp]>([
			["a note that does not exist", { path: "Nope" }, /^No note "Nope"\./],
			["a note in an excluded folder", { path: "Private/Plan" }, /^No note "Private\/Plan"\./],
			["a heading the note does not have", { path: "Plan", heading: "Nope" }, /^No heading "Nope" in this note\./],
		])("%s is an error and nothing changes", async (_name, where, message) => {
			vault = await openVault({ "Plan.md": "# Plan\n", "Private/Plan.md": "secret\n" });
			expect(await addTask(vault.host, vault.scope("Private"), { text: "x", emptyNoteMode: "freeform", ...where })).toEqual({
				ok: false,
				error: expect.stringMatching(message),
			});
			expect(await onDisk("Plan.md")).toBe("# Plan\n");
			expect(await onDisk("Private/Plan.md")).toBe("secret\n");
		});
	});

	describe("completeTask", () => {
		test("marks the task (named by its text as list_tasks gives it) done with today's done date, as the Tasks plugin does", async () => {
			vault = await openVault({ "Tasks.md": "- [ ] Write report 📅 2026-12-01\n- [ ] Other\n" });
			const done = await completeTask(vault.host, vault.scope(), {
				path: "Tasks.md",
				line: 0,
				text: "Write report 📅 2026-12-01",
				status: "x",
				today: "2026-12-01",
			});
			expect(done).toMatchObject({ ok: true, value: { path: "Tasks.md", line: 0, nextLine: -1 } });
			expect(await onDisk("Tasks.md")).toBe("- [x] Write report 📅 2026-12-01 ✅ 2026-12-01\n- [ ] Other\n");
		});

		test("a recurring task gets its next occurrence above the done one", async () => {
			vault = await openVault({ "Tasks.md": "- [ ] Water plants 🔁 every week 📅 2026-12-01\n" });
			const done = await completeTask(vault.host, vault.scope(), {
				path: "Tasks.md",
				line: 0,
				text: "Water plants 🔁 every week 📅 2026-12-01",
				status: "x",
				today: "2026-12-01",
			});
			expect(await onDisk("Tasks.md")).toBe(
				"- [ ] Water plants 🔁 every week 📅 2026-12-08\n- [x] Water plants 🔁 every week 📅 2026-12-01 ✅ 2026-12-01\n",
			);
			expect(done).toMatchObject({ ok: true, value: { line: 1, nextLine: 0 } });
		});

		test("a line that reads as no task, asked again and again, is refused without parsing the note: its pieces do not grow with the note", async () => {
			const piecesOfWrongLine = async (codeLines: number) => {
				const text = `- [ ] Real task\n\`\`\`\n${"- [ ] Code line\n".repeat(codeLines)}\`\`\`\nplain words\n`;
				vault = await openVault({ "Tasks.md": text });
				// Every look at the clock finds the slice used up: a parse of the note pauses at each of its steps.
				const pieces = countWorkPerPiece();
				try {
					for (const line of [codeLines + 3, codeLines + 3, 2 ** 30]) {
						const answer = await completeTask(vault.host, vault.scope(), {
							path: "Tasks.md",
							line,
							text: "Code line",
							status: "x",
							today: "2026-12-01",
						});
						expect(answer).toEqual({ ok: false, error: expect.stringContaining(`Line ${line} is not the task "Code line"`) as unknown });
						expect(answer.ok || answer.error).toContain("Its open tasks: line 0: Real task.");
					}
					return pieces.perPiece.length;
				} finally {
					pieces.restore();
				}
			};
			// Before: 61 pieces for the three calls on 20,000 lines against 13 on 20 (the whole note parsed in slices at each call).
			const large = await piecesOfWrongLine(20_000);
			await vault.close();
			// The margin: the cache's own parse of the written note (see above).
			expect(large).toBeLessThanOrEqual((await piecesOfWrongLine(20)) + 2);
		});

		test("a task line in a code block, absent from the cache, is still parsed for and refused: it is code", async () => {
			vault = await openVault({ "Tasks.md": "- [ ] Real task\n```\n- [ ] Code line\n```\n" });
			const answer = await completeTask(vault.host, vault.scope(), { path: "Tasks.md", line: 2, text: "Code line", status: "x", today: "2026-12-01" });
			expect(answer).toEqual({
				ok: false,
				error: expect.stringMatching(/^Line 2 is not the task "Code line".*Its open tasks: line 0: Real task\./su) as unknown,
			});
			expect(await onDisk("Tasks.md")).toBe("- [ ] Real task\n```\n- [ ] Code line\n```\n");
		});

		test("a wrong line of a note rewritten on disk since the cache read it: the refusal does not claim the note has no open tasks", async () => {
			// No watcher here: the cache keeps the note's first text, without a task, as it does for a moment beside another program.
			vault = await openVault({ "Tasks.md": "plain words\n" });
			await fs.writeFile(nodePath.join(vault.root, "Tasks.md"), "- [ ] Call Ana\n- [ ] Pay rent\n");
			const answer = await completeTask(vault.host, vault.scope(), { path: "Tasks.md", line: 5, text: "Call Ana", status: "x", today: "2026-12-01" });
			expect(answer).toEqual({ ok: false, error: expect.stringContaining('Line 5 is not the task "Call Ana"') as unknown });
			// Before: "It has no open tasks." (the cache's tasks, listed as the note's, since the line asked for is no task line).
			expect(answer.ok || answer.error).not.toContain("It has no open tasks");
			expect(answer.ok || answer.error).toContain(
				"It had no open tasks when last read. It holds lines that read as open tasks and were not read as tasks yet. Call list_tasks again for the current lines.",
			);
			expect(await onDisk("Tasks.md")).toBe("- [ ] Call Ana\n- [ ] Pay rent\n");
		});

		test("a wrong line of a note the cache has not read yet: the refusal says its tasks are still being read, not that it has none", async () => {
			vault = await openVault({});
			// A host whose cache reads no note: each is as a note given up at start and not yet parsed.
			const root = await makeVault({ "Tasks.md": "- [ ] Call Ana\n" });
			const host = await NodeHost.open(root, { metadata: false });
			try {
				const answer = await completeTask(host, vault.scope(), { path: "Tasks.md", line: 3, text: "Call Ana", status: "x", today: "2026-12-01" });
				expect(answer).toEqual({ ok: false, error: expect.stringContaining('Line 3 is not the task "Call Ana"') as unknown });
				// Before: "It has no open tasks."
				expect(answer.ok || answer.error).not.toContain("no open tasks");
				expect(answer.ok || answer.error).toContain("Its tasks are still being read. Call list_tasks again for the current lines.");
				expect(await fs.readFile(nodePath.join(root, "Tasks.md"), "utf8")).toBe("- [ ] Call Ana\n");
			} finally {
				await host.close();
				await removeDir(root);
			}
		});

		test("a line that is no longer the task is an error and nothing changes", async () => {
			vault = await openVault({ "Tasks.md": "- [ ] New first\n- [ ] Write report\n" });
			const answer = await completeTask(vault.host, vault.scope(), { path: "Tasks.md", line: 0, text: "Write report", status: "x", today: "2026-12-01" });
			expect(answer).toEqual({ ok: false, error: expect.stringMatching(/^Line 0 is not the task "Write report"/) });
			expect(await onDisk("Tasks.md")).toBe("- [ ] New first\n- [ ] Write report\n");
		});
	});
});
