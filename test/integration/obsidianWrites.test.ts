import { promises as fs, readFileSync } from "node:fs";
import * as nodePath from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import dayjs from "dayjs";
import {
	MAX_EDITED_NOTE_CHARS,
	MAX_EDITED_NOTE_LINES,
	MAX_FRONTMATTER_ENTRIES,
	MAX_JOURNAL_CALL_BYTES,
	TEMPLATE_MAX_TITLE_CHARS,
} from "../../src/config/limits";
import { connectClient } from "../helpers/http";
import { startService, type RunningService } from "../helpers/service";
import { callError, callOk } from "../helpers/tools";
import { makeVault, removeDir } from "../helpers/vault";

/** complete_task, set_property and create_note's template over real HTTP, on a temp vault served headless. */
describe("complete_task, set_property and templates over HTTP", () => {
	let vault: string;
	let running: RunningService;
	let client: Client;
	const read = (path: string) => readFileSync(nodePath.join(vault, path), "utf8");
	const today = () => dayjs().format("YYYY-MM-DD");

	beforeAll(async () => {
		vault = await makeVault({
			"Chores.md":
				"# Chores\n\n- [ ] Bins out 🔁 every week 📅 2026-11-30\n- [ ] Call the plumber\n- [x] Old ✅ 2026-11-01\n\n```\n- [ ] not a task\n```\n",
			"Dataview.md": "- [ ] Write to the society [due:: 2026-12-01]\r\n- [ ] Another\r\n",
			"Plain.md": "- [ ] First\n- [ ] Second\n",
			"Recurring.md": "- [ ] Water 🔁 every day 📅 2026-12-01\n",
			"Props.md": "---\n# kept\nstatus: active # weekly\ntags: [a]\n---\nBody\n",
			"Bare.md": "Body only\r\n",
			"Broken.md": "---\nstatus: [oops\n---\nBody\n",
			"Hostile tasks.md": `- [ ] Ship ⛔ ${"a , ".repeat(450)}!\n- [ ] Leap 🔁 every hour on the 31st in February 📅 2026-11-30\n`,
			"Deep.md": `---\na: ${"[".repeat(60_000)}\n---\n# Deep\nSee [[Chores]]\n`,
			".obsidian/templates.json": JSON.stringify({ folder: "Templates", dateFormat: "D MMMM YYYY", timeFormat: "h:mm A" }),
			"Templates/Meeting.md": '---\ncreated: "{{date:YYYY-MM-DD}}"\n---\n# {{title}}\n\n{{date}}, {{time}}\n\n## Notes\n',
			"Templates/Outline.md": "- {{title}}\n\t- Agenda\n",
			"Templates/Titles.md": "{{title}}".repeat(100_000),
			"Templates/Few titles.md": "{{title}}\n".repeat(10),
			"Templates/Long outline.md": "- b\n".repeat(MAX_EDITED_NOTE_LINES + 1),
			"Private/Secret template.md": "secret",
		});
		running = await startService(vault, { levels: ["write"], settings: { writeEnabled: true, rateLimitPerMinute: 100_000, excludedFolders: ["Private"] } });
		client = await connectClient(running.url, running.tokens.write ?? "");
	});
	afterAll(async () => {
		await client.close();
		await running.stop();
		await removeDir(vault);
	});

	describe("hostile notes answer at once, with an error that names the limit where there is one", () => {
		test("a task line built to backtrack (a 117-character one once took 21 s) is completed, its text kept", async () => {
			const [task] = (await callOk<{ tasks: Array<{ line: number; text: string }> }>(client, "list_tasks", { path: "Hostile tasks.md", status: "open" }))
				.tasks;
			await callOk(client, "complete_task", { path: "Hostile tasks.md", line: task?.line, text: task?.text });
			expect(read("Hostile tasks.md").split("\n")[0]).toBe(`- [x] Ship ⛔ ${"a , ".repeat(450)}! ✅ ${today()}`);
		});

		test("a recurrence with no next date is refused, naming the search bound; the rule is not rewritten", async () => {
			const before = read("Hostile tasks.md");
			const line = before.split("\n")[1] ?? "";
			const message = await callError(client, "complete_task", { path: "Hostile tasks.md", line: 1, text: line.slice("- [ ] ".length) });
			expect(message).toContain('"every hour on the 31st in February" has no next date within 30 years');
			expect(read("Hostile tasks.md")).toBe(before);
		});

		test("frontmatter nested 60,000 deep: read_note gives the text, no properties and why; set_property names the bound", async () => {
			const note = await callOk<{ content: string; frontmatter: unknown; frontmatter_unparsed?: string }>(client, "read_note", { path: "Deep.md" });
			expect(note.frontmatter).toBeNull();
			expect(note.frontmatter_unparsed).toContain("nests deeper than 64 levels");
			expect(note.content).toContain("See [[Chores]]");
			const before = read("Deep.md");
			expect(await callError(client, "set_property", { path: "Deep.md", name: "status", value: "done" })).toContain("nests deeper than 64 levels");
			expect(read("Deep.md")).toBe(before);
		});
	});

	describe("complete_task", () => {
		test("a recurring task is done today and its next occurrence is inserted above it, with the line and text list_tasks then reports", async () => {
			const [task] = (await callOk<{ tasks: Array<{ line: number; text: string }> }>(client, "list_tasks", { path: "Chores.md", status: "open" })).tasks;
			expect(task).toMatchObject({ line: 2, text: "Bins out 🔁 every week 📅 2026-11-30" });
			const result = await callOk(client, "complete_task", { path: "Chores.md", line: task?.line, text: task?.text });
			expect(result).toMatchObject({
				path: "Chores.md",
				line: 3,
				text: `Bins out 🔁 every week 📅 2026-11-30 ✅ ${today()}`,
				next_task: { line: 2, text: "Bins out 🔁 every week 📅 2026-12-07" },
			});
			expect(read("Chores.md")).toBe(
				`# Chores\n\n- [ ] Bins out 🔁 every week 📅 2026-12-07\n- [x] Bins out 🔁 every week 📅 2026-11-30 ✅ ${today()}\n- [ ] Call the plumber\n- [x] Old ✅ 2026-11-01\n\n\`\`\`\n- [ ] not a task\n\`\`\`\n`,
			);
		});

		test("a line that moved is an error listing the note's open tasks with their lines, and nothing is written", async () => {
			const before = read("Plain.md");
			const message = await callError(client, "complete_task", { path: "Plain.md", line: 0, text: "Second" });
			expect(message).toContain('Line 0 is not the task "Second"');
			expect(message).toContain("line 0: First; line 1: Second");
			expect(read("Plain.md")).toBe(before);
			// A task-looking line in a code block is not a task.
			expect(await callError(client, "complete_task", { path: "Chores.md", line: 9, text: "not a task" })).toContain("is not the task");
		});

		test("a Dataview note gets [completion:: …] and keeps its CRLF line endings; cancelling writes a cancelled date", async () => {
			await callOk(client, "complete_task", { path: "Dataview", line: 0, text: "Write to the society [due:: 2026-12-01]" });
			await callOk(client, "complete_task", { path: "Dataview", line: 1, text: "Another", status: "-" });
			// The note's own format wins: its other task carries Dataview fields.
			expect(read("Dataview.md")).toBe(
				`- [x] Write to the society  [due:: 2026-12-01]  [completion:: ${today()}]\r\n- [-] Another  [cancelled:: ${today()}]\r\n`,
			);
		});

		test("completing a task that is already done changes nothing", async () => {
			const before = read("Chores.md");
			expect(await callError(client, "complete_task", { path: "Chores.md", line: 5, text: "Old ✅ 2026-11-01" })).toContain("already has status 'x'");
			expect(read("Chores.md")).toBe(before);
		});

		test("the vault's Tasks settings are followed: next occurrence below, no done date", async () => {
			const settings = nodePath.join(vault, ".obsidian/plugins/obsidian-tasks-plugin");
			await fs.mkdir(settings, { recursive: true });
			await fs.writeFile(nodePath.join(settings, "data.json"), JSON.stringify({ recurrenceOnNextLine: true, setDoneDate: false }));
			const result = await callOk(client, "complete_task", { path: "Recurring.md", line: 0, text: "Water 🔁 every day 📅 2026-12-01" });
			expect(result).toMatchObject({ line: 0, next_task: { line: 1 } });
			expect(read("Recurring.md")).toBe("- [x] Water 🔁 every day 📅 2026-12-01\n- [ ] Water 🔁 every day 📅 2026-12-02\n");
			await fs.rm(settings, { recursive: true });
		});
	});

	describe("set_property", () => {
		test("sets, replaces a list, removes; read_note then shows the properties, and other lines and comments are kept", async () => {
			await callOk(client, "set_property", { path: "Props", name: "status", value: "paused" });
			await callOk(client, "set_property", { path: "Props", name: "tags", value: ["#garden", "b"] });
			const result = await callOk(client, "set_property", { path: "Props", name: "beds", value: 3 });
			expect(result).toMatchObject({ path: "Props.md", name: "beds", value: 3, changed: true });
			// A new list is written as Obsidian writes lists: one item a line.
			expect(read("Props.md")).toBe("---\n# kept\nstatus: paused # weekly\ntags:\n  - garden\n  - b\nbeds: 3\n---\nBody\n");
			expect((await callOk<{ frontmatter: unknown }>(client, "read_note", { path: "Props" })).frontmatter).toEqual({
				status: "paused",
				tags: ["garden", "b"],
				beds: 3,
			});
			await callOk(client, "set_property", { path: "Props", name: "beds", value: null });
			expect(read("Props.md")).toBe("---\n# kept\nstatus: paused # weekly\ntags:\n  - garden\n  - b\n---\nBody\n");
			expect(await callOk(client, "set_property", { path: "Props", name: "status", value: "paused" })).toMatchObject({ changed: false });
		});

		test("a note without frontmatter gets one, in its own line endings", async () => {
			await callOk(client, "set_property", { path: "Bare", name: "done", value: true });
			expect(read("Bare.md")).toBe("---\r\ndone: true\r\n---\r\nBody only\r\n");
		});

		test("a list of 60,000 items is refused before its items are checked, naming the most a list may have; nothing changed", async () => {
			const before = read("Props.md");
			const items = Array.from({ length: 60_000 }, (_, index) => `bed ${index}`);
			// The last item is no scalar: checked item by item, the answer was zod's generic "Invalid input at value".
			for (const value of [items, [...items, { planted: true }]]) {
				const message = await callError(client, "set_property", { path: "Props", name: "beds", value });
				expect(message).toContain(`A list of at most ${MAX_FRONTMATTER_ENTRIES} items can be set (this one has ${value.length})`);
				expect(message).toContain("Nothing was changed.");
			}
			expect(read("Props.md")).toBe(before);
		});

		test("broken YAML, a missing note and a bad tag are errors that change nothing", async () => {
			expect(await callError(client, "set_property", { path: "Broken", name: "status", value: "x" })).toContain("not valid YAML");
			expect(read("Broken.md")).toBe("---\nstatus: [oops\n---\nBody\n");
			expect(await callError(client, "set_property", { path: "Nowhere", name: "status", value: "x" })).toContain('No note "Nowhere"');
			const before = read("Props.md");
			expect(await callError(client, "set_property", { path: "Props", name: "tags", value: ["1984"] })).toContain("not a tag");
			expect(read("Props.md")).toBe(before);
		});
	});

	describe("create_note with a template", () => {
		test("the template is filled with the Templates plugin's formats, then content is added in the note's format", async () => {
			const before = dayjs();
			const result = await callOk(client, "create_note", { path: "Meetings/Planting", content: "Agreed: raised bed first.", template: "Meeting" });
			const text = read("Meetings/Planting.md");
			expect(result).toMatchObject({ path: "Meetings/Planting.md", created: true });
			// Filled a moment ago: the day and time of either end of the call.
			const filled = (when: dayjs.Dayjs) =>
				`---\ncreated: "${when.format("YYYY-MM-DD")}"\n---\n# Planting\n\n${when.format("D MMMM YYYY")}, ${when.format("h:mm A")}\n\n## Notes\n\nAgreed: raised bed first.\n`;
			expect([filled(before), filled(dayjs())]).toContain(text);
			expect((await callOk<{ frontmatter: unknown }>(client, "read_note", { path: "Meetings/Planting" })).frontmatter).toEqual({
				created: before.format("YYYY-MM-DD"),
			});
		});

		test("an outline template gets the content as bullets; a template may be named by its vault path", async () => {
			await callOk(client, "create_note", { path: "Standup.md", content: "Blockers", template: "Templates/Outline.md" });
			expect(read("Standup.md")).toBe("- Standup\n\t- Agenda\n- Blockers\n");
		});

		test("a template outside the templates folder, a missing or excluded one, or no templates folder is an error, and nothing is created", async () => {
			expect(await callError(client, "create_note", { path: "X1", content: "", template: "Plain" })).toContain('No template "Plain"');
			expect(await callError(client, "create_note", { path: "X2", content: "", template: "Nope" })).toContain("list_templates");
			// A templates folder in an excluded folder holds nothing this token may see.
			await fs.writeFile(nodePath.join(vault, ".obsidian/templates.json"), JSON.stringify({ folder: "Private" }));
			expect(await callError(client, "create_note", { path: "X4", content: "", template: "Secret template" })).toContain('No template "Secret template"');
			await fs.rm(nodePath.join(vault, ".obsidian/templates.json"));
			expect(await callError(client, "create_note", { path: "X3", content: "", template: "Meeting" })).toContain("No templates folder is set");
			for (const name of ["X1.md", "X2.md", "X3.md", "X4.md"]) await expect(fs.access(nodePath.join(vault, name))).rejects.toThrow();
		});

		test("a template whose {{title}} copies would make megabytes is refused, nothing created; a few copies are filled", async () => {
			// 900 KB of `{{title}}` filled with a 100-character title was a 10 MB note, made in pieces of up to 160 ms (96 MiB and 0.8 s of CPU at 500,000 copies).
			await fs.writeFile(nodePath.join(vault, ".obsidian/templates.json"), JSON.stringify({ folder: "Templates" }));
			const title = "t".repeat(100);
			const refused = await callError(client, "create_note", { path: `Titled/${title}`, content: "", template: "Titles" });
			expect(refused).toContain(`over ${TEMPLATE_MAX_TITLE_CHARS} characters of titles`);
			await expect(fs.access(nodePath.join(vault, `Titled/${title}.md`))).rejects.toThrow();
			await callOk(client, "create_note", { path: `Titled/${title}`, content: "", template: "Few titles" });
			expect(read(`Titled/${title}.md`)).toBe(`${title}\n`.repeat(10));
			// A template longer than a note the write tools change makes no note: one of 200,000 bullets (4.6 MB) was made in a piece of 130 ms.
			expect(await callError(client, "create_note", { path: "Outlined", content: "more", template: "Long outline" })).toContain(
				`The template is over ${MAX_EDITED_NOTE_LINES} lines`,
			);
			await expect(fs.access(nodePath.join(vault, "Outlined.md"))).rejects.toThrow();
			await fs.rm(nodePath.join(vault, ".obsidian/templates.json"));
		});

		test("a template over the 12 MiB one call's undo journal keeps is refused by its own bound, unread; no note is made", async () => {
			await fs.writeFile(nodePath.join(vault, ".obsidian/templates.json"), JSON.stringify({ folder: "Templates" }));
			// Made through the host, which sees it at once (the served vault has no watcher).
			await running.host.vault.create("Templates/Huge.md", "a".repeat(MAX_JOURNAL_CALL_BYTES + 1));
			try {
				const refused = await callError(client, "create_note", { path: "From huge", content: "", template: "Huge" });
				// On c9445824: "This call would change notes holding more than the 12 MiB of text one call may keep in the undo journal."
				expect(refused).toBe(
					`The template "Templates/Huge.md" is over ${MAX_EDITED_NOTE_CHARS} characters, the longest note the write tools change (edit it in Obsidian, or split it).`,
				);
				await expect(fs.access(nodePath.join(vault, "From huge.md"))).rejects.toThrow();
			} finally {
				await fs.rm(nodePath.join(vault, ".obsidian/templates.json"));
			}
		});
	});

	test("each call of the new tools is one journalled change of one note, with the exact text before and after", async () => {
		const cases: Array<[string, Record<string, unknown>, string]> = [
			["complete_task", { path: "Plain", line: 1, text: "Second" }, "Plain.md"],
			["set_property", { path: "Plain", name: "status", value: "open" }, "Plain.md"],
			["create_note", { path: "From template", content: "x", template: "Templates/Outline" }, "From template.md"],
		];
		await fs.writeFile(nodePath.join(vault, ".obsidian/templates.json"), JSON.stringify({ folder: "Templates" }));
		for (const [tool, args, path] of cases) {
			const before = await fs.readFile(nodePath.join(vault, path), "utf8").catch(() => null);
			await callOk(client, tool, args);
			const [entry] = running.journal.list(1);
			expect(entry).toMatchObject({ tool, changes: [{ path, before, after: read(path) }] });
			expect(entry?.changes).toHaveLength(1);
		}
	});
});
