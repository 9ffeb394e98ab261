/**
 * A vault holding a real folder whose name has a Windows short name's shape (`Old~1/`, `Archive~2/`, made before or outside):
 * red180 refused every new path with such a part, so create_note, rename_note and add_task's daily note could no longer put a
 * note into it. A folder the host lists by exactly that name is a long name, which no other folder's short name can be: let
 * be. Judged by the listing, never by a lookup of the name (Windows answers `stat("PRIVAT~1")` for `Private notes`); an
 * excluded folder of that shape stays refused in the same words as one that is not there. The real SDK client over HTTP.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, symlinkSync } from "node:fs";
import * as os from "node:os";
import * as nodePath from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { startWriteClient } from "../helpers/service";
import { callError, callOk } from "../helpers/tools";
import { makeVault, removeDir } from "../helpers/vault";

describe("folders of a short name's shape that the vault holds", () => {
	let vault: string;
	let stopClient: () => Promise<void>;
	let client: Client;

	beforeAll(async () => {
		vault = await makeVault({
			"Old~1/a.md": "a\n",
			"Daily~1/old day.md": "d\n",
			"Secret~1/p.md": "p\n",
			"Public.md": "public\n",
			"Moved.md": "moved\n",
			".obsidian/daily-notes.json": JSON.stringify({ folder: "Daily~1", format: "YYYY-MM-DD" }),
		});
		// An empty folder: listed, holding no file.
		mkdirSync(nodePath.join(vault, "Archive~2"));
		({ client, stop: stopClient } = await startWriteClient(vault, { excludedFolders: ["Secret~1"] }));
	}, 60_000);
	afterAll(async () => {
		await stopClient();
		await removeDir(vault);
	});

	test("create_note, rename_note and add_task's daily note write into them", async () => {
		// On the base each of these was refused: "may not have the shape of a Windows short name".
		await callOk(client, "create_note", { path: "Old~1/new.md", content: "n" });
		await callOk(client, "create_note", { path: "Archive~2/kept.md", content: "k" });
		await callOk(client, "rename_note", { path: "Public.md", new_path: "Old~1/Public.md" });
		await callOk(client, "rename_note", { path: "Moved.md", new_path: "Archive~2/Moved.md" });
		const task = await callOk<{ path: string }>(client, "add_task", { text: "water the beans" });
		expect(task.path).toMatch(/^Daily~1\/\d{4}-\d\d-\d\d\.md$/);
		expect(readdirSync(nodePath.join(vault, "Old~1")).sort()).toEqual(["Public.md", "a.md", "new.md"]);
		expect(readdirSync(nodePath.join(vault, "Archive~2")).sort()).toEqual(["Moved.md", "kept.md"]);
		expect(existsSync(nodePath.join(vault, task.path))).toBe(true);
	});

	test("a part of that shape not listed by exactly its name, a new one inside, and the note's own name stay refused", async () => {
		for (const path of ["old~1/x.md", "OLD~1/x.md", "Old~1/Sub~1/x.md", "New~1/x.md", "Old~1/Note~1.md", "Archive~2/../Old~1/x.md"])
			expect(await callError(client, "create_note", { path, content: "c" })).toMatch(/Windows short name|'\.\.' part/);
		expect(await callError(client, "rename_note", { path: "Old~1/a.md", new_path: "Old~2/a.md" })).toContain("Windows short name");
		expect(readdirSync(vault).sort()).toEqual([".obsidian", "Archive~2", "Daily~1", "Old~1", "Secret~1"]);
	});

	test("an excluded folder of that shape is refused in the words of one that is not there, and nothing is written in it", async () => {
		const excluded = await callError(client, "create_note", { path: "Secret~1/x.md", content: "c" });
		expect(excluded).toBe(await callError(client, "create_note", { path: "Absent~1/x.md", content: "c" }));
		expect(await callError(client, "rename_note", { path: "Old~1/a.md", new_path: "Secret~1/a.md" })).toBe(
			await callError(client, "rename_note", { path: "Old~1/a.md", new_path: "Absent~1/a.md" }),
		);
		expect(readdirSync(nodePath.join(vault, "Secret~1"))).toEqual(["p.md"]);
	});

	test("a link of that shape to a folder outside is not listed: refused in the words of one not there, nothing written outside", async () => {
		// The listing never goes through a link (its entries are links, not folders; a folder swapped for one lists nothing).
		const outside = mkdtempSync(nodePath.join(os.tmpdir(), "vault-mcp-outside-"));
		try {
			symlinkSync(outside, nodePath.join(vault, "Link~1"), "dir");
			renameSync(nodePath.join(vault, "Old~1"), nodePath.join(vault, "Old folder"));
			symlinkSync(outside, nodePath.join(vault, "Old~1"), "dir");
			const absent = await callError(client, "create_note", { path: "Absent~1/x.md", content: "c" });
			for (const path of ["Link~1/x.md", "Old~1/x.md"]) expect(await callError(client, "create_note", { path, content: "c" })).toBe(absent);
			expect(await callError(client, "rename_note", { path: "Daily~1/old day.md", new_path: "Link~1/old day.md" })).toBe(
				await callError(client, "rename_note", { path: "Daily~1/old day.md", new_path: "Absent~1/old day.md" }),
			);
			expect(readdirSync(outside)).toEqual([]);
		} finally {
			rmSync(nodePath.join(vault, "Link~1"), { force: true });
			rmSync(nodePath.join(vault, "Old~1"), { force: true });
			if (existsSync(nodePath.join(vault, "Old folder"))) renameSync(nodePath.join(vault, "Old folder"), nodePath.join(vault, "Old~1"));
			rmSync(outside, { recursive: true, force: true });
		}
	});
});
