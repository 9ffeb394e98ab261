/**
 * data.json (edited by hand, or written by a sync tool) may give an excluded folder or a token's
 * folder as its absolute path inside the vault, as the settings tab, the token window and the CLI's
 * flags accept. Read without the vault's path, such an entry named a folder `home/…/Private` that is
 * never there: Private was read, listed and searched, and the token saw nothing. The settings as the
 * CLI's store reads them from a real data.json, the real service over real HTTP with the SDK client.
 */
import { promises as fs } from "node:fs";
import * as nodePath from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { generateToken } from "../../src/auth/tokens";
import { settingsStoreOf } from "../../src/headless/cli/vaultSettings";
import { foldersFromFlags } from "../../src/headless/tokenFoldersCommand";
import { connectClient } from "../helpers/http";
import { startService, type RunningService } from "../helpers/service";
import { callError, callOk } from "../helpers/tools";
import { makeVault, removeDir } from "../helpers/vault";

describe("data.json giving folders as absolute paths inside the vault", () => {
	let vault: string;
	let running: RunningService;
	let client: Client;

	beforeAll(async () => {
		vault = await makeVault({
			"Projects/Plan.md": "# Plan\n\nsee [[Diary]]\n",
			"Private/Diary.md": "# Diary\n\nzanzibar secrets\n",
			"Other.md": "# Other\n\nzanzibar elsewhere\n",
		});
		const { record, token } = generateToken("scoped", "read", {}, new Date(), ["Projects"]);
		const dataPath = nodePath.join(vault, ".obsidian/plugins/vault-mcp/data.json");
		await fs.mkdir(nodePath.dirname(dataPath), { recursive: true });
		// The token's folder leaves the vault and comes back (`/tmp/x/../x/Projects`): the folder the system reaches.
		const backIn = `${vault}/../${nodePath.basename(vault)}/Projects`;
		const tokenRecord = { ...record, folders: [backIn, `${nodePath.join(vault, "Private")}/`] };
		await fs.writeFile(dataPath, JSON.stringify({ excludedFolders: [nodePath.join(vault, "Private")], tokens: [tokenRecord] }));
		const { settings, warnings } = await settingsStoreOf(vault).read();
		expect(warnings).toEqual([]);
		running = await startService(vault, { levels: [], settings: { excludedFolders: settings.excludedFolders, tokens: settings.tokens } });
		await running.service.search?.whenReady();
		client = await connectClient(running.url, token);
	});
	afterAll(async () => {
		await client.close();
		await running.stop();
		await removeDir(vault);
	});

	test("the excluded folder is hidden and the token sees its own folder, nothing outside it", async () => {
		expect(await callError(client, "read_note", { path: "Private/Diary.md" })).toContain('No note "Private/Diary.md"');
		expect(await callError(client, "read_note", { path: "Other.md" })).toContain('No note "Other.md"');
		expect(JSON.stringify(await callOk(client, "read_note", { path: "Projects/Plan.md" }))).toContain("see [[Diary]]");
		const listed = JSON.stringify(await callOk(client, "list_notes", {}));
		expect(listed).toContain("Projects/Plan.md");
		expect(listed).not.toContain("Private");
		expect(JSON.stringify(await callOk(client, "search_notes", { query: "zanzibar" }))).not.toContain("Diary");
	});
});

test("a vault opened through a linked folder: data.json and --folders giving the vault's real path name its folders", async () => {
	const vault = await makeVault({ "Private/Diary.md": "# Diary\n", "Projects/Plan.md": "# Plan\n" });
	const linkFolder = await makeVault();
	const opened = nodePath.join(linkFolder, "Vault");
	try {
		await fs.symlink(vault, opened);
		const dataPath = nodePath.join(vault, ".obsidian/plugins/vault-mcp/data.json");
		await fs.mkdir(nodePath.dirname(dataPath), { recursive: true });
		// Read through the link, the path holds the real one: it named a folder `tmp/…/Private`, never there, and Private was served.
		await fs.writeFile(dataPath, JSON.stringify({ excludedFolders: [nodePath.join(vault, "Private")] }));
		expect((await settingsStoreOf(opened).read()).settings.excludedFolders).toEqual(["Private"]);
		expect(foldersFromFlags([nodePath.join(vault, "Projects")], opened)).toEqual({ folders: ["Projects"] });
	} finally {
		await removeDir(linkFolder);
		await removeDir(vault);
	}
});
