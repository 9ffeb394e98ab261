/**
 * add_task's daily note is a new path made from the Daily notes settings, and create_note and rename_note refuse a new
 * path a person, or a disk that folds case (macOS, Windows), reads as an existing visible note's or folder's. add_task
 * did not look: with the new file location typed as `daily` beside the vault's `Daily/`, it made a second folder (two in
 * Obsidian on Linux and Android; on macOS and Windows one on the disk that Obsidian listed as two), and a daily note
 * named `Journal.md` beside `journal.md` (the second replaces the first on such a disk). The real SDK client over HTTP.
 */
import { readdirSync, readFileSync } from "node:fs";
import * as nodePath from "node:path";
import { startWriteClient } from "../helpers/service";
import { callError } from "../helpers/tools";
import { makeVault, removeDir } from "../helpers/vault";

/** A vault with `files` and these Daily notes settings, served to a write token: add_task's answer, then the vault's top folders and `Notes/`'s files. */
async function addTaskIn(
	files: Record<string, string>,
	daily: Record<string, string>,
): Promise<{ error: string; top: string[]; notes: string[]; vault: string }> {
	const vault = await makeVault({ ...files, ".obsidian/daily-notes.json": JSON.stringify(daily) });
	const { client, stop } = await startWriteClient(vault);
	try {
		const error = await callError(client, "add_task", { text: "Water the plants" });
		return { error, top: readdirSync(vault).sort(), notes: readdirSync(nodePath.join(vault, "Notes")).sort(), vault };
	} finally {
		await stop();
	}
}

describe("add_task's daily note beside a note or folder of the same name in other letter case", () => {
	const vaults: string[] = [];
	afterAll(async () => {
		for (const vault of vaults) await removeDir(vault);
	});

	test("a Daily notes folder typed in other letter case is refused, naming the folder there, and nothing is made", async () => {
		const { error, top, vault } = await addTaskIn({ "Daily/2020-01-01.md": "old\n", "Notes/a.md": "a\n" }, { folder: "daily" });
		vaults.push(vault);
		expect(error).toMatch(/^Today's daily note cannot be written: a folder already exists at "Daily", read as the same name as the folder of "daily\//);
		expect(top).toEqual([".obsidian", "Daily", "Notes"]);
		expect(readdirSync(nodePath.join(vault, "Daily"))).toEqual(["2020-01-01.md"]);
	});

	test("a daily note whose name is an existing note's in other letter case is refused, and that note is left as it was", async () => {
		const { error, notes, vault } = await addTaskIn({ "Notes/journal.md": "mine\n" }, { folder: "Notes", format: "[Journal]" });
		vaults.push(vault);
		expect(error).toMatch(
			/^Today's daily note cannot be written: a note already exists at "Notes\/journal.md", read as the same name as "Notes\/Journal.md"/,
		);
		expect(notes).toEqual(["journal.md"]);
		expect(readFileSync(nodePath.join(vault, "Notes", "journal.md"), "utf8")).toBe("mine\n");
	});
});
