import { readdirSync, readFileSync } from "node:fs";
import * as nodePath from "node:path";
import { connectClient } from "../helpers/http";
import { startService } from "../helpers/service";
import { callError, callOk } from "../helpers/tools";
import { makeVault, removeDir } from "../helpers/vault";

const TASK = "Water the herbs 🔁 every day 📅 2026-12-07";
const TASKS_SETTINGS = ".obsidian/plugins/obsidian-tasks-plugin/data.json";

/** A Tasks data.json whose `x` status (done) names `next` as the status after it: a recurring task's new occurrence takes it. */
function tasksSettingsWithNext(next: string): string {
	return JSON.stringify({ statusSettings: { customStatuses: [{ symbol: "x", nextStatusSymbol: next, type: "DONE", name: "Done" }] } });
}

// Anyone who can write to the vault's config folder (a synced plugin folder, a shared vault) writes data.json;
// complete_task reads it to tick a task as the Tasks plugin does, and must never write a line nobody asked for.
test.each([
	["a line break and a planted task", "\n- [ ] planted by data.json"],
	["a line break alone", "\n"],
	["a closing bracket", "]"],
	["two characters", "ab"],
	["nothing", ""],
	// A regular expression's `.` takes neither: the new occurrence was no task to list_tasks or the Tasks plugin.
	["a line separator (U+2028)", "\u2028"],
	["a paragraph separator (U+2029)", "\u2029"],
	// `\ud800` in data.json's text: `.` with the u flag takes a lone half, and UTF-8 wrote it as U+FFFD, no status of the file's.
	["half a surrogate pair", "\uD800"],
])("a Tasks data.json whose next status is %s: the new occurrence is one open task line, as with Tasks' defaults", async (_kind, next) => {
	const vault = await makeVault({ "Garden.md": `- [ ] ${TASK}\n`, [TASKS_SETTINGS]: tasksSettingsWithNext(next) });
	const running = await startService(vault, { levels: ["write"], settings: { writeEnabled: true } });
	const client = await connectClient(running.url, running.tokens.write ?? "");
	try {
		const done = await callOk<{ line: number; next_task: { line: number; text: string } }>(client, "complete_task", {
			path: "Garden.md",
			line: 0,
			text: TASK,
		});
		expect(done.next_task).toEqual({ line: 0, text: "Water the herbs 🔁 every day 📅 2026-12-08" });
		const lines = readFileSync(nodePath.join(vault, "Garden.md"), "utf8").split("\n");
		expect(lines).toEqual([
			"- [ ] Water the herbs 🔁 every day 📅 2026-12-08",
			expect.stringMatching(/^- \[x\] Water the herbs 🔁 every day 📅 2026-12-07 ✅ \d{4}-\d{2}-\d{2}$/),
			"",
		]);
	} finally {
		await client.close();
		await running.stop();
		await removeDir(vault);
	}
});

test("a Tasks data.json's own statuses of one character are still followed: a next status of '/' starts the new occurrence in progress", async () => {
	const vault = await makeVault({
		"Garden.md": `- [ ] ${TASK}\n`,
		[TASKS_SETTINGS]: JSON.stringify({
			statusSettings: {
				customStatuses: [
					{ symbol: "x", nextStatusSymbol: "/", type: "DONE", name: "Done" },
					{ symbol: "/", nextStatusSymbol: "x", type: "IN_PROGRESS", name: "Doing" },
				],
			},
		}),
	});
	const running = await startService(vault, { levels: ["write"], settings: { writeEnabled: true } });
	const client = await connectClient(running.url, running.tokens.write ?? "");
	try {
		await callOk(client, "complete_task", { path: "Garden.md", line: 0, text: TASK });
		expect(readFileSync(nodePath.join(vault, "Garden.md"), "utf8")).toMatch(/^- \[\/\] Water the herbs 🔁 every day 📅 2026-12-08\n- \[x\] /);
	} finally {
		await client.close();
		await running.stop();
		await removeDir(vault);
	}
});

test("complete_task with a status of U+2028 or U+2029 is refused, the note unchanged: the line written was no task to list_tasks", async () => {
	const note = "- [ ] Water the herbs\n- [ ] Weed\n";
	const vault = await makeVault({ "Garden.md": note });
	const running = await startService(vault, { levels: ["write"], settings: { writeEnabled: true } });
	const client = await connectClient(running.url, running.tokens.write ?? "");
	try {
		for (const status of ["\u2028", "\u2029"]) {
			// On main: answered ok, and list_tasks then listed only "Weed".
			expect(await callError(client, "complete_task", { path: "Garden.md", line: 0, text: "Water the herbs", status })).toMatch(
				/status is one character/,
			);
			expect(readFileSync(nodePath.join(vault, "Garden.md"), "utf8")).toBe(note);
		}
		const listed = await callOk<{ tasks: Array<{ text: string }> }>(client, "list_tasks", { path: "Garden.md", status: "any" });
		expect(listed.tasks.map((task) => task.text)).toEqual(["Water the herbs", "Weed"]);
	} finally {
		await client.close();
		await running.stop();
		await removeDir(vault);
	}
});

test("a date format of the Daily Notes or Templates settings holding half a surrogate pair is refused, nothing written: on disk the name or text was U+FFFD", async () => {
	// `"\ud800"` in a settings file's JSON text: the file is ASCII, the format holds a lone half.
	const vault = await makeVault({
		"Templates/Day.md": "# {{date}}\n",
		".obsidian/daily-notes.json": JSON.stringify({ format: "[Day\uD800] YYYY-MM-DD" }),
		".obsidian/templates.json": JSON.stringify({ folder: "Templates", dateFormat: "[On\uD800] YYYY" }),
	});
	const running = await startService(vault, { levels: ["write"], settings: { writeEnabled: true } });
	const client = await connectClient(running.url, running.tokens.write ?? "");
	try {
		// On lead16: answered ok with the path "Day\ud800 2026-12-07.md" (on disk "Day\uFFFD …"), and with the hash of "# On\ud800 2026" (on disk "# On\uFFFD 2026").
		for (const [tool, args] of [
			["add_task", { text: "call back" }],
			["create_note", { path: "Plan", content: "z", template: "Day" }],
		] as const)
			expect(await callError(client, tool, args)).toMatch(
				/^\w+ would write a note whose name or text holds half of a UTF-16 surrogate pair.*Nothing was written/,
			);
		expect(readdirSync(vault).sort()).toEqual([".obsidian", "Templates"]);
	} finally {
		await client.close();
		await running.stop();
		await removeDir(vault);
	}
});
