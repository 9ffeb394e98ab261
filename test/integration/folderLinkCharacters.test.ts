/**
 * create_note and rename_note refused a note named with one of Obsidian's link characters (`#`, `^`, `[`, `]`, `|`), but made
 * the folders of its path whatever they held: `Work #/x.md` made a folder `Work #`, and a link to a note in it by path
 * (`[[Work #/x]]`, which Obsidian writes when the name alone is not unique) reads `#` as a heading. add_task's daily note
 * refused such a folder already; now every tool that makes folders does, naming the folder and the character. A folder
 * already there (the person's) is written in as before. The real SDK client over real HTTP.
 */
import { readdirSync } from "node:fs";
import * as nodePath from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { startWriteClient } from "../helpers/service";
import { callError, callOk } from "../helpers/tools";
import { makeVault, removeDir } from "../helpers/vault";

describe("new folders named with a link character", () => {
	let vault: string;
	let stop: () => Promise<void>;
	let client: Client;

	beforeAll(async () => {
		vault = await makeVault({ "Public.md": "public\n", "Other.md": "other\n", "Old #/a.md": "a\n", "Notes/n.md": "n\n" });
		({ client, stop } = await startWriteClient(vault));
	}, 60_000);
	afterAll(async () => {
		await stop();
		await removeDir(vault);
	});

	test.each([
		["Work #/x.md", "Work #", "#"],
		["Notes/Plan ^1/x.md", "Notes/Plan ^1", "^"],
		["Ideas [draft]/Sub/x.md", "Ideas [draft]", "["],
		["Notes/Q]1/x.md", "Notes/Q]1", "]"],
	])("create_note of %s is refused, naming the folder and the character; nothing is made", async (path, folder, character) => {
		// On the base: the folders and the note were made.
		expect(await callError(client, "create_note", { path, content: "c" })).toBe(
			`A folder's name may not contain # ^ [ ] or |: the folder "${folder}" would be made with "${character}" in its name, so links to notes in it by path would break. Nothing was written. Choose another folder name, or a folder already there.`,
		);
		expect(readdirSync(vault).sort()).toEqual([".obsidian", "Notes", "Old #", "Other.md", "Public.md"]);
		expect(readdirSync(nodePath.join(vault, "Notes"))).toEqual(["n.md"]);
	});

	test("rename_note into such a folder is refused and the note stays; into the person's own folder of that name it moves", async () => {
		// On the base: `Archive #/Public.md` made.
		expect(await callError(client, "rename_note", { path: "Public.md", new_path: "Archive #/Public.md" })).toBe(
			`A folder's name may not contain # ^ [ ] or |: the folder "Archive #" would be made with "#" in its name, so links to notes in it by path would break. Nothing was changed. Choose another folder name, or a folder already there.`,
		);
		expect(await callError(client, "rename_note", { path: "Public.md", new_path: "Old #/Sub ^2/Public.md" })).toContain(
			'the folder "Old #/Sub ^2" would be made with "^"',
		);
		expect(readdirSync(vault).sort()).toEqual([".obsidian", "Notes", "Old #", "Other.md", "Public.md"]);
		// The folder already there, and a new folder with no such character inside it: as before.
		await callOk(client, "rename_note", { path: "Public.md", new_path: "Old #/Public.md" });
		await callOk(client, "create_note", { path: "Old #/new.md", content: "c" });
		await callOk(client, "create_note", { path: "Old #/Sub/x.md", content: "c" });
		await callOk(client, "rename_note", { path: "Other.md", new_path: "Old #/Sub/Other.md" });
		expect(readdirSync(nodePath.join(vault, "Old #")).sort()).toEqual(["Public.md", "Sub", "a.md", "new.md"]);
		expect(readdirSync(nodePath.join(vault, "Old #", "Sub")).sort()).toEqual(["Other.md", "x.md"]);
	});
});
