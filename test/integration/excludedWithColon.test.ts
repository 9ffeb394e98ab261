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
import { callOk } from "../helpers/tools";
import { makeVault, removeDir } from "../helpers/vault";

describe("a folder named with a colon", () => {
	let vault: string;
	let running: RunningService;
	let client: Client;

	beforeAll(async () => {
		vault = await makeVault({ "Notes/Plan.md": "# Plan\n", "a:b/Diary.md": "# Diary\n\nzanzibar secrets\n" });
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
});
