/**
 * add_task's daily note is a new note named by the Daily notes date format, and create_note refuses a new note whose name
 * holds one of Obsidian's link characters (# ^ [ ] |): no link can reach it. add_task did not look: a format writing `#`
 * made `2026-12-07 #.md`, which `[[2026-12-07 #]]` reads as a heading of a note `2026-12-07 `. The real SDK client over HTTP.
 */
import { existsSync, readdirSync } from "node:fs";
import * as nodePath from "node:path";
import { startWriteClient } from "../helpers/service";
import { callError, callOk } from "../helpers/tools";
import { makeVault, removeDir } from "../helpers/vault";

describe("add_task's daily note named with a link character", () => {
	let vault: string;
	afterEach(async () => {
		await removeDir(vault);
	});

	test.each(["YYYY-MM-DD #", "YYYY-MM-DD [^]1", "YYYY-MM-DD [[]Q[]]"])(
		"a date format making a name with one (%s) is refused, naming the setting to change, and nothing is made",
		async (format) => {
			vault = await makeVault({ "Notes/a.md": "a\n", ".obsidian/daily-notes.json": JSON.stringify({ folder: "Daily", format }) });
			const { client, stop } = await startWriteClient(vault);
			try {
				const error = await callError(client, "add_task", { text: "Water the plants" });
				expect(error).toMatch(/^Today's daily note cannot be written: its name ".*" would hold one of # \^ \[ \] or \|, so links to it would break\./);
				expect(error).toContain("Change the date format in Obsidian's Daily notes settings");
				expect(existsSync(nodePath.join(vault, "Daily"))).toBe(false);
				expect(readdirSync(vault).sort()).toEqual([".obsidian", "Notes"]);
				// A task into a note named by path is added as before.
				await callOk(client, "add_task", { text: "Water the plants", path: "Notes/a.md" });
			} finally {
				await stop();
			}
		},
	);

	test.each([
		["Daily #", "YYYY-MM-DD", "Daily #"],
		["Daily", "[^]YYYY/MM-DD", "Daily/^YYYY"],
	])("a folder it would make with one (folder %s, format %s) is refused, naming that folder, and nothing is made", async (folder, format, named) => {
		vault = await makeVault({ "Notes/a.md": "a\n", ".obsidian/daily-notes.json": JSON.stringify({ folder, format }) });
		const { client, stop } = await startWriteClient(vault);
		try {
			const error = await callError(client, "add_task", { text: "Water the plants" });
			const shown = named.replace("YYYY", String(new Date().getFullYear()));
			expect(error).toContain(`Today's daily note cannot be written: its folder "${shown}" would be made with one of # ^ [ ] or |`);
			expect(error).toContain("Nothing was written. Change the new file location or the date format in Obsidian's Daily notes settings");
			expect(readdirSync(vault).sort()).toEqual([".obsidian", "Notes"]);
		} finally {
			await stop();
		}
	});

	test("a folder holding one that the person made already is written in as before", async () => {
		vault = await makeVault({ "Daily #/old.md": "old\n", ".obsidian/daily-notes.json": JSON.stringify({ folder: "Daily #", format: "YYYY-MM-DD" }) });
		const { client, stop } = await startWriteClient(vault);
		try {
			await callOk(client, "add_task", { text: "Water the plants" });
			expect(readdirSync(nodePath.join(vault, "Daily #"))).toHaveLength(2);
		} finally {
			await stop();
		}
	});
});
