/**
 * A folder whose name holds a colon (`a:b`, a valid name on Linux and macOS) is excluded when data.json names it, and a
 * token may be limited to it. It was read as drive A's folder b, "no folder inside the vault": every tool then read,
 * listed and searched it, and the token could not be made. data.json read by the CLI's store over a real temp vault,
 * the real service over real HTTP with the SDK client.
 */
import { promises as fs } from "node:fs";
import * as nodePath from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { FileSettingsStore } from "../../src/config/FileSettingsStore";
import { vaultRootSpellings } from "../../src/config/vaultRootSpellings";
import { parseTokenFolders } from "../../src/paths/tokenFolders";
import { connectClient } from "../helpers/http";
import { startService, type RunningService } from "../helpers/service";
import { callError, callOk } from "../helpers/tools";
import { makeVault, removeDir } from "../helpers/vault";

describe("a folder named with a colon", () => {
	let vault: string;
	let running: RunningService;
	let client: Client;

	beforeAll(async () => {
		vault = await makeVault({ "Notes/Plan.md": "# Plan\n", "a:b/Diary.md": "# Diary\n\nzanzibar secrets\n", "c:d/Open.md": "# Open\n" });
		await fs.mkdir(nodePath.join(vault, ".obsidian/plugins/vault-mcp"), { recursive: true });
		await fs.writeFile(nodePath.join(vault, ".obsidian/plugins/vault-mcp/data.json"), JSON.stringify({ excludedFolders: ["a:b"] }));
		const { settings, warnings } = await new FileSettingsStore(vault, ".obsidian").read();
		expect(warnings).toEqual([]);
		running = await startService(vault, { settings: { excludedFolders: settings.excludedFolders } });
		await running.service.search?.whenReady();
		client = await connectClient(running.url, running.tokens.read ?? "");
	});
	afterAll(async () => {
		await client.close();
		await running.stop();
		await removeDir(vault);
	});

	test("excluded by data.json: not listed or searched", async () => {
		expect(JSON.stringify(await callOk(client, "list_notes", {}))).not.toContain("Diary");
		expect(JSON.stringify(await callOk(client, "search_notes", { query: "zanzibar" }))).not.toContain("Diary");
	});

	test("a token may be limited to it, typed by name or by its absolute path", () => {
		const root = vaultRootSpellings(vault);
		expect(parseTokenFolders(["a:b"], root)).toEqual({ folders: ["a:b"] });
		expect(parseTokenFolders([nodePath.join(vault, "a:b")], root)).toEqual({ folders: ["a:b"] });
	});

	/**
	 * Tool paths read `x:name` as a folder too, as settings entries do on a vault not on a drive: on 285ac856 `c:d/Open.md`
	 * was refused as a drive path, so a note in such a folder could not be read. The exclusion holds through that door.
	 */
	test("tool paths through a colon folder: the visible note is read, the excluded one answered as absent", async () => {
		expect(await callOk(client, "read_note", { path: "c:d/Open.md" })).toMatchObject({ path: "c:d/Open.md", content: "# Open\n" });
		const refused = await callError(client, "read_note", { path: "a:b/Diary.md" });
		// Answered as a note that is not there, as every excluded note is (its existence never told).
		expect(refused).toMatch(/^No note "a:b\/Diary\.md"\./);
		expect(refused).not.toContain("zanzibar");
		expect(await callError(client, "read_note", { path: "C:/Notes/Plan.md" })).toContain("without a leading slash or drive");
	});
});
