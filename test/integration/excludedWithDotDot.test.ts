/**
 * An excluded folder written with `..` parts (`Notes/../Private` in data.json, or typed so in the
 * settings tab) names Private, and Private is hidden. It was dropped as "no folder inside the vault",
 * silently: every tool then read, listed and searched Private. The settings as data.json gives them,
 * the real service over real HTTP with the SDK client, a real temp vault.
 */
import { promises as fs } from "node:fs";
import * as nodePath from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { generateToken } from "../../src/auth/tokens";
import { FileSettingsStore } from "../../src/config/FileSettingsStore";
import { parseSettings } from "../../src/config/settings";
import { connectClient } from "../helpers/http";
import { startService, type RunningService } from "../helpers/service";
import { callError, callOk } from "../helpers/tools";
import { makeVault, removeDir } from "../helpers/vault";

describe("an excluded folder given with `..` parts", () => {
	let vault: string;
	let running: RunningService;
	let client: Client;

	beforeAll(async () => {
		vault = await makeVault({ "Notes/Plan.md": "# Plan\n\nsee [[Diary]]\n", "Private/Diary.md": "# Diary\n\nzanzibar secrets\n" });
		const saved = parseSettings({ excludedFolders: ["Notes/../Private"] }).settings;
		running = await startService(vault, { settings: { excludedFolders: saved.excludedFolders } });
		await running.service.search?.whenReady();
		client = await connectClient(running.url, running.tokens.read ?? "");
	});
	afterAll(async () => {
		await client.close();
		await running.stop();
		await removeDir(vault);
	});

	test("hides the folder it names: not read, listed, searched or resolved as a link", async () => {
		expect(await callError(client, "read_note", { path: "Private/Diary.md" })).toContain('No note "Private/Diary.md"');
		expect(JSON.stringify(await callOk(client, "list_notes", {}))).not.toContain("Private");
		expect(JSON.stringify(await callOk(client, "search_notes", { query: "zanzibar" }))).not.toContain("Diary");
		expect(JSON.stringify(await callOk(client, "get_note_links", { path: "Notes/Plan.md" }))).not.toContain("Private");
	});
});

/**
 * `Notes/ ../Private` (spaces around the `..`) is a path through a folder named ` ..` to the system, not `Private`: read
 * as `..`, a token data.json limited to it saw Private. Now it names no folder of the vault (such a folder is never shown),
 * for an exclusion and a token alike: data.json's reader says so, and the token is dropped rather than given Private.
 */
describe("a folder given with `..` and spaces around it", () => {
	let vault: string;

	beforeAll(async () => {
		vault = await makeVault({ "Notes/Plan.md": "# Plan\n", "Private/Diary.md": "# Diary\n" });
	});
	afterAll(async () => {
		await removeDir(vault);
	});

	test("data.json's exclusion is named as no folder of the vault, and a token limited to it is dropped, not given Private", async () => {
		const { record } = generateToken("scoped", "read", {}, new Date(), ["Notes"]);
		await fs.mkdir(nodePath.join(vault, ".obsidian/plugins/vault-mcp"), { recursive: true });
		await fs.writeFile(
			nodePath.join(vault, ".obsidian/plugins/vault-mcp/data.json"),
			JSON.stringify({ excludedFolders: ["Notes/ ../Private"], tokens: [{ ...record, folders: ["Notes/ ../Private"] }] }),
		);
		const { settings, warnings } = await new FileSettingsStore(vault, ".obsidian").read();
		expect(settings.tokens).toEqual([]);
		expect(settings.excludedFolders).toEqual([]);
		expect(warnings).toEqual(
			expect.arrayContaining([
				"settings: token record 0's folders are not valid and the token was dropped",
				"settings: 1 excluded folder entry names no folder inside the vault; ignored",
			]),
		);
	});
});
