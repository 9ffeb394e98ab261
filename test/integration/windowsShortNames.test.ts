/**
 * Paths a Windows NTFS volume that makes short (8.3) names (the system drive, by default) reads as
 * another file or folder: `PRIVAT~1` opens `Private notes`, `OBSIDI~1` opens `.obsidian`,
 * `NOTESA~1.md` opens `Notes about it.md`. Obsidian lists only long names, so the path policy saw a
 * new, visible name: create_note and rename_note wrote there, into an excluded folder, the
 * configuration folder, or over a note without a backup. The real SDK client over real HTTP; this
 * disk makes no short names, so what is checked is that the call is refused and nothing is made.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import * as nodePath from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { startWriteClient } from "../helpers/service";
import { callError, callOk } from "../helpers/tools";
import { makeVault, removeDir } from "../helpers/vault";

const FILES = {
	"Private notes/s.md": "zebracorn\n",
	"~Private notes/t.md": "zebracorn\n",
	"Notes about it.md": "kept\n",
	"Public.md": "public\n",
	"Draft~1.md": "draft\n",
};

describe("paths shaped as Windows short names", () => {
	let vault: string;
	let stopClient: () => Promise<void>;
	let client: Client;

	beforeAll(async () => {
		vault = await makeVault(FILES);
		({ client, stop: stopClient } = await startWriteClient(vault, { excludedFolders: ["Private notes", "~Private notes"] }));
	}, 60_000);
	afterAll(async () => {
		await stopClient();
		await removeDir(vault);
	});

	test("create_note and rename_note refuse them, and make nothing", async () => {
		// `~` is one of the characters 8.3 keeps: `~Private notes` is `~PRIVA~1`.
		for (const path of ["PRIVAT~1/x.md", "OBSIDI~1/x.md", "NOTESA~1.md", "~PRIVA~1/x.md"])
			expect(await callError(client, "create_note", { path, content: "c", overwrite: true })).toContain("Windows short name");
		expect(await callError(client, "rename_note", { path: "Public.md", new_path: "PRIVAT~1/y.md" })).toContain("Windows short name");
		expect(readdirSync(vault).sort()).toEqual([".obsidian", "Draft~1.md", "Notes about it.md", "Private notes", "Public.md", "~Private notes"]);
		expect(existsSync(nodePath.join(vault, ".obsidian", "x.md"))).toBe(false);
		expect(readFileSync(nodePath.join(vault, "Notes about it.md"), "utf8")).toBe("kept\n");
	});

	test("a note already named so is renamed to itself as any note is, and its letter case changed", async () => {
		// Refused as a short name before: the note's own name on the disk, which no other file's short name can be.
		expect(await callError(client, "rename_note", { path: "Draft~1.md", new_path: "Draft~1.md" })).toBe(
			'"Draft~1.md" already has that path. Nothing was changed.',
		);
		await callOk(client, "rename_note", { path: "Draft~1.md", new_path: "draft~1.md" });
		expect(readFileSync(nodePath.join(vault, "draft~1.md"), "utf8")).toBe("draft\n");
		expect(await callError(client, "rename_note", { path: "draft~1.md", new_path: "Archive/draft~1.md" })).toContain("Windows short name");
	});
});
