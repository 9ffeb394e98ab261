import { promises as fs } from "node:fs";
import * as nodePath from "node:path";
import { OBSIDIAN_SETTINGS_MAX_CHARS } from "../../src/config/limits";
import { connectClient } from "../helpers/http";
import { startService } from "../helpers/service";
import { callError, callOk } from "../helpers/tools";
import { makeVault, removeDir } from "../helpers/vault";

/** One server over a vault whose core Templates plugin points at `folder` (no templates.json when undefined). */
async function listTemplates(folder: string | undefined, outcome: "ok" | "error", excludedFolders: string[] = []): Promise<unknown> {
	const vault = await makeVault({
		"Templates/Meeting.md": "# {{title}}\n",
		"Templates/Work/Standup.md": "- {{date}}\n",
		"Templates/Private/Secret.md": "x\n",
		"Templates/logo.png": "not a note",
		"Notes/Other.md": "y\n",
	});
	if (folder !== undefined) await fs.writeFile(nodePath.join(vault, ".obsidian/templates.json"), JSON.stringify({ folder }));
	const running = await startService(vault, { settings: { excludedFolders } });
	const client = await connectClient(running.url, running.tokens.read ?? "");
	try {
		return outcome === "ok" ? await callOk(client, "list_templates") : await callError(client, "list_templates");
	} finally {
		await client.close();
		await running.stop();
		await removeDir(vault);
	}
}

describe("list_templates reads the core Templates plugin's folder", () => {
	test("lists the notes in the template folder and its subfolders, by path; excluded folders stay invisible", async () => {
		expect(await listTemplates("Templates", "ok", ["Templates/Private"])).toEqual({
			folder: "Templates",
			templates: [{ path: "Templates/Meeting.md" }, { path: "Templates/Work/Standup.md" }],
			total: 2,
		});
	});

	test("a folder written with slashes around it is the same folder", async () => {
		expect(await listTemplates("/Templates/Work/", "ok")).toEqual({
			folder: "Templates/Work",
			templates: [{ path: "Templates/Work/Standup.md" }],
			total: 1,
		});
	});

	test.each([
		["no templates.json", undefined],
		["an empty folder setting", ""],
	])("%s: an error that says where to set it", async (_label, folder) => {
		expect(await listTemplates(folder, "error")).toBe(
			"No template folder is set in this vault. In Obsidian: Settings → Templates → Template folder location (the core Templates plugin).",
		);
	});

	test("a folder spelt with backslashes inside an excluded folder is not quoted: as if none were set", async () => {
		expect(await listTemplates("Templates\\Private", "error", ["Templates/Private"])).toBe(
			"No template folder is set in this vault. In Obsidian: Settings → Templates → Template folder location (the core Templates plugin).",
		);
	});

	test.each([
		["a `.` part before it", "./Private/Templates"],
		["a `..` part before it", "Notes/../Private/Templates"],
		["a way out of the vault and back in", "../vault/Private/Templates"],
	])("a folder the path rules refuse that names an excluded folder through %s is not quoted: as if none were set", async (_label, folder) => {
		expect(await listTemplates(folder, "error", ["Private"])).toBe(
			"No template folder is set in this vault. In Obsidian: Settings → Templates → Template folder location (the core Templates plugin).",
		);
	});

	// 400,000 NULs (2.4 MB as JSON) said 'ask for less', over 2 MiB; a settings file that long is now taken as missing (OBSIDIAN_SETTINGS_MAX_CHARS).
	test("a folder setting of 40,000 NULs (240 KB as JSON) is an error that says what is wrong", async () => {
		const error = (await listTemplates("\0".repeat(40_000), "error")) as string;
		expect(error).toMatch(
			/^The template folder set in this vault \("\0{200}… \(40000 characters\)"\) cannot be used: The path is longer than \d+ characters\.$/,
		);
	});

	test("a folder outside the vault is an error, and nothing is listed", async () => {
		expect(await listTemplates("../elsewhere", "error")).toMatch(/^The template folder set in this vault \("\.\.\/elsewhere"\) cannot be used: /);
	});
});

describe("a templates or daily notes folder inside an excluded folder", () => {
	test("is never named: list_templates answers as if none were set, create_note and add_task say where without the path", async () => {
		const vault = await makeVault({ "Therapy/Templates/Session.md": "# {{title}}\n", "Therapy/Daily/old.md": "x\n", "Notes/Other.md": "y\n" });
		await fs.writeFile(nodePath.join(vault, ".obsidian/templates.json"), JSON.stringify({ folder: "Therapy/Templates" }));
		await fs.writeFile(nodePath.join(vault, ".obsidian/daily-notes.json"), JSON.stringify({ folder: "Therapy/Daily" }));
		const running = await startService(vault, {
			levels: ["write"],
			settings: { excludedFolders: ["Therapy"], writeEnabled: true, writeDisclosureAccepted: true },
		});
		const client = await connectClient(running.url, running.tokens.write ?? "");
		try {
			const answers = [
				await callError(client, "list_templates"),
				await callError(client, "create_note", { path: "Notes/New", content: "z", template: "Session" }),
				await callError(client, "add_task", { text: "call back" }),
			];
			expect(answers[0]).toBe(
				"No template folder is set in this vault. In Obsidian: Settings → Templates → Template folder location (the core Templates plugin).",
			);
			expect(answers[1]).toBe('No template "Session" in the templates folder. Call list_templates for the templates there.');
			expect(answers[2]).toBe("Today's daily note cannot be written: it is in a folder this server does not give access to.");
			expect(answers.join("\n")).not.toMatch(/Therapy/);
		} finally {
			await client.close();
			await running.stop();
			await removeDir(vault);
		}
	});
});

describe("a templates or daily notes settings file that is there but not used (over its bound, not JSON)", () => {
	test("the answers of list_templates, create_note and add_task say why its settings are not used, naming the bound (they were taken as missing, said nowhere)", async () => {
		const vault = await makeVault({ "Templates/Session.md": "# {{title}}\n", "Notes/Other.md": "y\n" });
		const settings = JSON.stringify({ folder: "Templates" });
		await fs.writeFile(nodePath.join(vault, ".obsidian/templates.json"), `${settings}${" ".repeat(OBSIDIAN_SETTINGS_MAX_CHARS)}`);
		await fs.writeFile(nodePath.join(vault, ".obsidian/daily-notes.json"), '{"folder": "Journal"');
		const running = await startService(vault, { levels: ["write"], settings: { writeEnabled: true, writeDisclosureAccepted: true } });
		const client = await connectClient(running.url, running.tokens.write ?? "");
		try {
			const overBound = `Obsidian's templates.json settings file is over ${OBSIDIAN_SETTINGS_MAX_CHARS} characters, so it is not used: its defaults apply.`;
			expect(await callError(client, "list_templates")).toBe(overBound);
			expect(await callError(client, "create_note", { path: "Notes/New", content: "z", template: "Session" })).toBe(
				`No templates folder is set: choose one in Settings → Templates (the core Templates plugin), or create the note without a template. ${overBound}`,
			);
			const added = await callOk<{ path: string; notice?: string }>(client, "add_task", { text: "call back" });
			expect(added.path).not.toMatch(/^Journal\//);
			expect(added.notice).toBe("Obsidian's daily-notes.json settings file is not valid JSON, so it is not used: its defaults apply.");
			// Mended: used, and nothing said.
			await fs.writeFile(nodePath.join(vault, ".obsidian/templates.json"), settings);
			expect(await callOk(client, "create_note", { path: "Notes/New", content: "z", template: "Session" })).not.toHaveProperty("notice");
			expect(await fs.readFile(nodePath.join(vault, "Notes/New.md"), "utf8")).toMatch(/^# New\n/);
		} finally {
			await client.close();
			await running.stop();
			await removeDir(vault);
		}
	});
});

// A name may open with a space (review172): list_templates lists `Templates/ Daily.md`, but create_note trimmed the
// template argument, so ` Daily` (its path inside the folder, as the tool's description offers) filled `Templates/Daily.md`.
describe("a template whose name opens with a space", () => {
	test("named by its path inside the templates folder as list_templates lists it, fills that template, not the one named without the space", async () => {
		const vault = await makeVault({
			"Templates/ Daily.md": "spaced {{title}}\n",
			"Templates/Daily.md": "plain {{title}}\n",
			"Templates/ Only.md": "only {{title}}\n",
			"Templates/Plain.md": "plain {{title}}\n",
		});
		await fs.writeFile(nodePath.join(vault, ".obsidian/templates.json"), JSON.stringify({ folder: "Templates" }));
		const running = await startService(vault, { levels: ["write"], settings: { writeEnabled: true, writeDisclosureAccepted: true } });
		const client = await connectClient(running.url, running.tokens.write ?? "");
		const written = (path: string) => fs.readFile(nodePath.join(vault, path), "utf8");
		try {
			expect((await callOk<{ templates: Array<{ path: string }> }>(client, "list_templates")).templates).toContainEqual({ path: "Templates/ Daily.md" });
			await callOk(client, "create_note", { path: "A", content: "", template: " Daily" });
			await callOk(client, "create_note", { path: "B", content: "", template: " Daily.md " });
			await callOk(client, "create_note", { path: "C", content: "", template: " Only" });
			// Trimmed as before when no template is so named, and the plain name still names the plain template.
			await callOk(client, "create_note", { path: "D", content: "", template: "Daily" });
			await callOk(client, "create_note", { path: "E", content: "", template: " Plain" });
			expect([await written("A.md"), await written("B.md"), await written("C.md"), await written("D.md"), await written("E.md")]).toEqual([
				"spaced A\n",
				"spaced B\n",
				"only C\n",
				"plain D\n",
				"plain E\n",
			]);
		} finally {
			await client.close();
			await running.stop();
			await removeDir(vault);
		}
	});
});

// create_note with a template and mode outliner wrote the content as bullets but never set `mode: outliner` (red175):
// Obsidian's outliner opened the note as plain text, though the same call without a template sets it.
describe("create_note with a template in outliner mode", () => {
	test("sets mode: outliner in the template's frontmatter as without a template, or writes nothing when it cannot take it", async () => {
		const vault = await makeVault({
			"Templates/Log.md": "# {{title}}\n",
			"Templates/Draft.md": "---\nstatus: draft\n---\n# {{title}}\n",
			"Templates/Broken.md": "---\n{status: [\n---\n# {{title}}\n",
		});
		await fs.writeFile(nodePath.join(vault, ".obsidian/templates.json"), JSON.stringify({ folder: "Templates" }));
		const running = await startService(vault, { levels: ["write"], settings: { writeEnabled: true, writeDisclosureAccepted: true } });
		const client = await connectClient(running.url, running.tokens.write ?? "");
		const written = (path: string) => fs.readFile(nodePath.join(vault, path), "utf8");
		try {
			await callOk(client, "create_note", { path: "A", content: "one\n\ttwo", template: "Log", mode: "outliner" });
			await callOk(client, "create_note", { path: "B", content: "", template: "Draft", mode: "outliner" });
			expect([await written("A.md"), await written("B.md")]).toEqual([
				"---\nmode: outliner\n---\n# A\n- one\n    - two\n",
				"---\nstatus: draft\nmode: outliner\n---\n# B\n",
			]);
			expect(await callError(client, "create_note", { path: "C", content: "one", template: "Broken", mode: "outliner" })).toMatch(
				/^mode outliner sets mode: outliner in the template's frontmatter, which cannot take it: /,
			);
			await expect(fs.access(nodePath.join(vault, "C.md"))).rejects.toThrow();
		} finally {
			await client.close();
			await running.stop();
			await removeDir(vault);
		}
	});
});
