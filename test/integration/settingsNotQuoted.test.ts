import { promises as fs } from "node:fs";
import * as nodePath from "node:path";
import { setTokenFolders } from "../../src/auth/tokenList";
import { connectClient } from "../helpers/http";
import { startService } from "../helpers/service";
import { callTool } from "../helpers/tools";
import { makeVault, removeDir } from "../helpers/vault";

/**
 * Settings a vault's config files hold (Daily Notes, Templates) are read by the tools and can
 * point inside a folder the caller may not see. Whatever the path rules think of such a setting,
 * no answer may name what lies there: neither the excluded folder nor anything inside it.
 */
async function answersWith(files: Record<string, unknown>, tokenFolders?: string[]): Promise<string[]> {
	const vault = await makeVault({ "Therapy/Templates/Session.md": "# {{title}}\n", "Therapy/Daily/old.md": "x\n", "Notes/Other.md": "y\n" });
	for (const [name, value] of Object.entries(files)) await fs.writeFile(nodePath.join(vault, ".obsidian", name), JSON.stringify(value));
	const running = await startService(vault, {
		levels: ["write"],
		settings: { excludedFolders: ["Therapy"], writeEnabled: true, writeDisclosureAccepted: true },
	});
	if (tokenFolders !== undefined) {
		const limited = setTokenFolders(running.settings, "write", tokenFolders);
		if ("error" in limited) throw new Error(limited.error);
		await running.service.apply(limited.settings);
	}
	const client = await connectClient(running.url, running.tokens.write ?? "");
	try {
		const calls: Array<[string, Record<string, unknown>]> = [
			["add_task", { text: "call back" }],
			["create_note", { path: "Notes/New", content: "z", template: "Session" }],
			["list_templates", {}],
		];
		const answers: string[] = [];
		for (const [name, args] of calls) {
			const outcome = await callTool(client, name, args);
			answers.push(outcome.ok ? JSON.stringify(outcome.value) : outcome.error);
		}
		return answers;
	} finally {
		await client.close();
		await running.stop();
		await removeDir(vault);
	}
}

describe("a setting that points inside an excluded folder is never quoted, whatever the path rules refuse in it", () => {
	test.each([
		["a Windows device name under it", { "daily-notes.json": { folder: "Therapy/CON" } }],
		["a Windows device name as the date format", { "daily-notes.json": { folder: "Therapy/Daily", format: "[AUX]" } }],
		["a name too long for a note", { "daily-notes.json": { folder: "Therapy/Daily", format: `[${"Hush ".repeat(48)}]` } }],
		["a forbidden character", { "daily-notes.json": { folder: "Therapy/Daily", format: "[Hush?]YYYY" } }],
		["a backslash", { "daily-notes.json": { folder: "Therapy\\Daily" }, "templates.json": { folder: "Therapy\\Templates" } }],
		["a `.` part", { "daily-notes.json": { folder: "./Therapy/Daily" }, "templates.json": { folder: "./Therapy/Templates" } }],
		["a `..` part", { "daily-notes.json": { folder: "Notes/../Therapy/Daily" }, "templates.json": { folder: "Notes/../Therapy/Templates" } }],
		["a device name in the templates folder", { "templates.json": { folder: "Therapy/CON" } }],
		["look-alike case", { "daily-notes.json": { folder: "THERAPY/Daily" }, "templates.json": { folder: "THERAPY/Templates" } }],
		["a `..` right after it", { "daily-notes.json": { folder: "Therapy/.." }, "templates.json": { folder: "Therapy/.." } }],
		[
			"a `..` after it, then a visible folder",
			{ "daily-notes.json": { folder: "Therapy/../Notes" }, "templates.json": { folder: "Therapy/Hush/../../Notes" } },
		],
		["a `..` after it, as the date format", { "daily-notes.json": { folder: "Notes", format: "[Therapy/../]YYYY" } }],
		["a dot-part look-alike", { "daily-notes.json": { folder: "Therapy/./CON" } }],
	])("%s", async (_label, files) => {
		const answers = (await answersWith(files)).join("\n");
		expect(answers).not.toMatch(/therapy|hush|con\b|aux/i);
	});
});

test("a setting outside the token's folders is not quoted either", async () => {
	const files = { "daily-notes.json": { folder: "Work/CON" }, "templates.json": { folder: "Work\\Templates" } };
	const answers = (await answersWith(files, ["Notes"])).join("\n");
	expect(answers).not.toMatch(/work|con\b/i);
});
