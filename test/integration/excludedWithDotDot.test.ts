/**
 * An excluded folder written with `..` parts (`Notes/../Private` in data.json, or typed so in the
 * settings tab) names Private, and Private is hidden. It was dropped as "no folder inside the vault",
 * silently: every tool then read, listed and searched Private. The settings as data.json gives them,
 * the real service over real HTTP with the SDK client, a real temp vault.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
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
