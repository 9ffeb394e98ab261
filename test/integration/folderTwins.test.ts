/**
 * create_note and rename_note refused a note path read as another note's (letter case, spaces), but made a folder read as
 * another folder's: `notes/b.md` beside `Notes/` made a second folder `notes` (two in Obsidian on Linux and Android; on
 * macOS and Windows one on the disk that Obsidian listed as two until it read the vault again). The real SDK client over
 * real HTTP.
 */
import { readdirSync } from "node:fs";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { startWriteClient } from "../helpers/service";
import { callError, callOk } from "../helpers/tools";
import { makeVault, removeDir } from "../helpers/vault";

describe("folders read as another folder's name", () => {
	let vault: string;
	let stopClient: () => Promise<void>;
	let client: Client;

	beforeAll(async () => {
		vault = await makeVault({
			"Notes/a.md": "a\n",
			"Notes/Sub/s.md": "s\n",
			"Private/p.md": "p\n",
			"Public.md": "public\n",
			"Cafe\u0301/c.md": "c\n",
		});
		({ client, stop: stopClient } = await startWriteClient(vault, { excludedFolders: ["Private"] }));
	}, 60_000);
	afterAll(async () => {
		await stopClient();
		await removeDir(vault);
	});

	test("a new note or a move into a twin of a folder is refused, naming the folder; into the folder as spelt, or a new one, it is made", async () => {
		for (const path of ["notes/b.md", "NOTES/new/b.md", " Notes/b.md", "Notes/sub/b.md"])
			expect(await callError(client, "create_note", { path, content: "c" })).toMatch(/^A folder already exists at "Notes(\/Sub)?"/);
		expect(await callError(client, "rename_note", { path: "Public.md", new_path: "notes/Public.md" })).toContain('A folder already exists at "Notes"');
		expect(readdirSync(vault).sort()).toEqual([".obsidian", "Cafe\u0301", "Notes", "Private", "Public.md"]);
		expect(readdirSync(`${vault}/Notes`).sort()).toEqual(["Sub", "a.md"]);
		// Held on the base too: the folder as spelt, and a folder with no twin.
		await callOk(client, "create_note", { path: "Notes/Sub/b.md", content: "c" });
		await callOk(client, "create_note", { path: "Other/c.md", content: "c" });
		// A folder named in NFD on this disk, which the files list in NFC and the folder lookup misses: not a twin of itself.
		await callOk(client, "create_note", { path: "Caf\u00e9/x.md", content: "c" });
		// An excluded folder's twin is refused as that folder is, never named.
		expect(await callError(client, "create_note", { path: "private/x.md", content: "c" })).not.toContain("Private");
	});
});
