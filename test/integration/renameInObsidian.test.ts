import * as nodePath from "node:path";
import { promises as fs, readFileSync } from "node:fs";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { addToken } from "../../src/auth/tokenList";
import { NodeHost } from "../../src/headless/NodeHost";
import type { HostFile } from "../../src/host/Host";
import { JournalFile } from "../../src/journal/JournalFile";
import { undoCall } from "../../src/journal/undo";
import VaultMcpPlugin from "../../src/main";
import { createApp, type App, type PluginManifest } from "../double/obsidian";
import { connectClient } from "../helpers/http";
import { callOk } from "../helpers/tools";
import { makeVault, removeDir } from "../helpers/vault";

const manifest = JSON.parse(readFileSync(nodePath.resolve(__dirname, "../../manifest.json"), "utf8")) as PluginManifest;

/**
 * rename_note inside Obsidian (the plugin in the host double): with "Automatically update internal
 * links" on, the move and the link updates are Obsidian's own `fileManager.renameFile`, which the
 * journal cannot watch write by write, so it records its prediction first and what Obsidian
 * really wrote after; with it off, our rewriting makes them through Obsidian's vault.
 */
describe("rename_note in the plugin goes through Obsidian's fileManager.renameFile", () => {
	let vault: string;
	let host: NodeHost;
	let app: App;
	let plugin: VaultMcpPlugin;
	let client: Client;
	const renameCalls: Array<[string, string]> = [];
	const read = (path: string) => readFileSync(nodePath.join(vault, path), "utf8");
	const SOURCE = "Links: [[Plan#Goals|goals]], ![[Plan#^goal]], [p](Plan.md).\r\nNon-ASCII: café ☕\r\n";

	beforeEach(async () => {
		vault = await makeVault({
			"Plan.md": "# Plan\n\n## Goals\n\nGrow beans ^goal\n",
			"Notes/Source.md": SOURCE,
			".obsidian/app.json": JSON.stringify({ alwaysUpdateLinks: true }),
		});
		host = await NodeHost.open(vault);
		app = createApp(host);
		renameCalls.length = 0;
		plugin = new VaultMcpPlugin(app as never, manifest);
		await (plugin as unknown as { load(): Promise<void> }).load();
		await new Promise((resolve) => setImmediate(resolve));
		await plugin.updateSettings({ disclosureAccepted: true, serverEnabled: true, writeEnabled: true, port: 0 });
		// create_note too: a move into a folder not there yet makes it, and create_note governs what any tool makes.
		const made = addToken(plugin.settings, "laptop", "write", { rename_note: "allow", create_note: "allow" });
		if ("error" in made) throw new Error(made.error);
		await plugin.updateSettings({ tokens: made.settings.tokens });
		const status = plugin.service.status;
		if (status.state !== "listening") throw new Error("not listening");
		client = await connectClient(status.url, made.token);
	});
	afterEach(async () => {
		await client.close();
		(plugin as unknown as { unload(): void }).unload();
		await plugin.service.stop();
		await host.close();
		await removeDir(vault);
	});

	/** Replaces the double's renameFile, recording each call; `after` runs once it is done, as a differently-behaving Obsidian would. */
	function watchRenameFile(after?: () => Promise<void>): void {
		const original = app.fileManager.renameFile.bind(app.fileManager);
		app.fileManager.renameFile = async (file: HostFile, newPath: string) => {
			renameCalls.push([file.path, newPath]);
			await original(file, newPath);
			await after?.();
		};
	}

	test("the links are updated by Obsidian's renameFile, once, and the journal entry undoes it byte for byte", async () => {
		watchRenameFile();
		const result = await callOk(client, "rename_note", { path: "Plan", new_path: "Archive/Plan 2026.md" });
		expect(result).toEqual({ path: "Plan.md", new_path: "Archive/Plan 2026.md", notes_updated: 1, links_updated: 3 });
		expect(renameCalls).toEqual([["Plan.md", "Archive/Plan 2026.md"]]);
		expect(read("Notes/Source.md")).toBe("Links: [[Plan 2026#Goals|goals]], ![[Plan 2026#^goal]], [p](Plan%202026.md).\r\nNon-ASCII: café ☕\r\n");

		const journal = JournalFile.forVault(vault, ".obsidian");
		const [entry] = journal.list(1);
		expect(entry?.changes.map((change) => [change.path, change.movedFrom, change.after === null ? null : change.after.length > 0])).toEqual([
			["Archive/Plan 2026.md", "Plan.md", true],
			["Notes/Source.md", undefined, true],
		]);
		const outcome = await undoCall(host, journal, entry?.id ?? "");
		expect(outcome.ok).toBe(true);
		expect(read("Notes/Source.md")).toBe(SOURCE);
		expect(read("Plan.md")).toBe("# Plan\n\n## Goals\n\nGrow beans ^goal\n");
		expect(host.vault.getFileByPath("Archive/Plan 2026.md")).toBeNull();
	});

	test("with \"Automatically update internal links\" off, Obsidian's renameFile would leave the links, so our rewriting updates them (through Obsidian's vault)", async () => {
		await fs.writeFile(nodePath.join(vault, ".obsidian/app.json"), JSON.stringify({ alwaysUpdateLinks: false }));
		watchRenameFile();
		const result = await callOk(client, "rename_note", { path: "Plan", new_path: "Archive/Plan 2026.md" });
		expect(result).toEqual({ path: "Plan.md", new_path: "Archive/Plan 2026.md", notes_updated: 1, links_updated: 3 });
		expect(renameCalls).toEqual([]);
		expect(read("Notes/Source.md")).toBe("Links: [[Plan 2026#Goals|goals]], ![[Plan 2026#^goal]], [p](Plan%202026.md).\r\nNon-ASCII: café ☕\r\n");
		const journal = JournalFile.forVault(vault, ".obsidian");
		const [entry] = journal.list(1);
		expect((await undoCall(host, journal, entry?.id ?? "")).ok).toBe(true);
		expect(read("Notes/Source.md")).toBe(SOURCE);
	});

	test("when Obsidian writes other text than predicted, the journal keeps what it wrote, so undo still restores exactly", async () => {
		watchRenameFile(async () => {
			const source = host.vault.getFileByPath("Notes/Source.md");
			if (source) await host.vault.process(source, (text) => text.replace("[[Plan 2026#Goals|goals]]", "[[Archive/Plan 2026#Goals|goals]]"));
		});
		await callOk(client, "rename_note", { path: "Plan", new_path: "Archive/Plan 2026.md" });
		const written = read("Notes/Source.md");
		expect(written).toContain("[[Archive/Plan 2026#Goals|goals]]");
		const journal = JournalFile.forVault(vault, ".obsidian");
		const [entry] = journal.list(1);
		expect(entry?.changes.find((change) => change.path === "Notes/Source.md")).toMatchObject({ before: SOURCE, after: written });
		expect((await undoCall(host, journal, entry?.id ?? "")).ok).toBe(true);
		expect(read("Notes/Source.md")).toBe(SOURCE);
		expect(host.vault.getFileByPath("Plan.md")).not.toBeNull();
	});
	test("a note the token may not see with the new name is not let to change the links written: Obsidian's renameFile, which names a note by its path when its name is not unique in the whole vault, is not used", async () => {
		// Obsidian writes a link's new text with fileToLinktext: "if file name is unique, use the filename; if not
		// unique, use full path", unique among every file. A hidden "Plan 2026.md" made it write
		// [[Archive/Plan 2026…]], not the [[Plan 2026…]] planned (and shown for approval), telling the token that a note of that name lies hidden.
		await host.vault.createFolder("Private");
		await host.vault.create("Private/Plan 2026.md", "hidden\n");
		await host.metadataCache.settled();
		await plugin.updateSettings({ excludedFolders: ["Private"] });
		watchRenameFile(async () => {
			const source = host.vault.getFileByPath("Notes/Source.md");
			if (source) await host.vault.process(source, (text) => text.replaceAll("[[Plan 2026", "[[Archive/Plan 2026"));
		});
		const result = await callOk(client, "rename_note", { path: "Plan", new_path: "Archive/Plan 2026.md" });
		expect(result).toEqual({ path: "Plan.md", new_path: "Archive/Plan 2026.md", notes_updated: 1, links_updated: 3 });
		expect(renameCalls).toEqual([]);
		expect(read("Notes/Source.md")).toBe("Links: [[Plan 2026#Goals|goals]], ![[Plan 2026#^goal]], [p](Plan%202026.md).\r\nNon-ASCII: café ☕\r\n");
	});
	test("a note the token may not see (an excluded folder) that links to the renamed note is left as it is: Obsidian's renameFile, which rewrites every note, is not used", async () => {
		const SECRET = "Private plan: [[Plan#Goals]]\n";
		await host.vault.createFolder("Private");
		await host.vault.create("Private/Secret.md", SECRET);
		await host.metadataCache.settled();
		await plugin.updateSettings({ excludedFolders: ["Private"] });
		watchRenameFile();
		const result = await callOk(client, "rename_note", { path: "Plan", new_path: "Archive/Plan 2026.md" });
		expect(result).toEqual({ path: "Plan.md", new_path: "Archive/Plan 2026.md", notes_updated: 1, links_updated: 3 });
		expect(renameCalls).toEqual([]);
		expect(read("Private/Secret.md")).toBe(SECRET);
		expect(read("Notes/Source.md")).toBe("Links: [[Plan 2026#Goals|goals]], ![[Plan 2026#^goal]], [p](Plan%202026.md).\r\nNon-ASCII: café ☕\r\n");
		const journal = JournalFile.forVault(vault, ".obsidian");
		const [entry] = journal.list(1);
		expect((await undoCall(host, journal, entry?.id ?? "")).ok).toBe(true);
		expect(read("Notes/Source.md")).toBe(SOURCE);
		expect(read("Private/Secret.md")).toBe(SECRET);
	});
	test("a rename the person approved is written exactly as shown: Obsidian's renameFile, whose link text can differ from the plan, is not used", async () => {
		// An Obsidian that writes other link text than predicted (its settings, a name found elsewhere) would write a note the person did not approve.
		await plugin.updateSettings({ tokens: plugin.settings.tokens.map((token) => ({ ...token, rights: { ...token.rights, rename_note: "ask" } })) });
		watchRenameFile(async () => {
			const source = host.vault.getFileByPath("Notes/Source.md");
			if (source) await host.vault.process(source, (text) => text.replace("[[Plan 2026#Goals|goals]]", "[[Archive/Plan 2026#Goals|goals]]"));
		});
		const PLANNED = "Links: [[Plan 2026#Goals|goals]], ![[Plan 2026#^goal]], [p](Plan%202026.md).\r\nNon-ASCII: café ☕\r\n";
		const call = callOk(client, "rename_note", { path: "Plan", new_path: "Archive/Plan 2026.md" });
		const approvalWindow = async (): Promise<HTMLElement> => {
			for (let waited = 0; waited < 5000; waited += 20) {
				const found = document.body.querySelector<HTMLElement>(".vault-mcp-approval");
				if (found) return found;
				await new Promise((resolve) => setTimeout(resolve, 20));
			}
			throw new Error("no approval window");
		};
		const shown = await approvalWindow();
		expect(shown.textContent).toContain("[[Plan 2026#Goals|goals]]");
		[...shown.querySelectorAll("button")].find((button) => button.textContent === "Approve")?.click();
		expect(await call).toEqual({ path: "Plan.md", new_path: "Archive/Plan 2026.md", notes_updated: 1, links_updated: 3 });
		expect(renameCalls).toEqual([]);
		expect(read("Notes/Source.md")).toBe(PLANNED);
		const journal = JournalFile.forVault(vault, ".obsidian");
		const [entry] = journal.list(1);
		expect((await undoCall(host, journal, entry?.id ?? "")).ok).toBe(true);
		expect(read("Notes/Source.md")).toBe(SOURCE);
		document.body.empty();
	});
	test("a visible note that links to the renamed note but is not in the planned set is left as it is: Obsidian's renameFile, which would rewrite it unshown and unjournalled, is not used", async () => {
		// "[[Plan]]" needs no change when only the folder changes, so the plan leaves this note out; an Obsidian
		// that rewrote it anyway (as it does a canvas whose text cards the planner does not read) would write a note nobody saw.
		const KEPT = "Still: [[Plan]]\n";
		await host.vault.create("Notes/Kept.md", KEPT);
		await host.metadataCache.settled();
		watchRenameFile(async () => {
			const kept = host.vault.getFileByPath("Notes/Kept.md");
			if (kept) await host.vault.process(kept, (text) => text.replace("[[Plan]]", "[[Archive/Plan]]"));
		});
		const result = await callOk(client, "rename_note", { path: "Plan", new_path: "Archive/Plan.md" });
		expect(result).toMatchObject({ path: "Plan.md", new_path: "Archive/Plan.md", notes_updated: 0 });
		expect(renameCalls).toEqual([]);
		expect(read("Notes/Kept.md")).toBe(KEPT);
		expect(read("Notes/Source.md")).toBe(SOURCE);
		expect(host.vault.getFileByPath("Archive/Plan.md")).not.toBeNull();
	});
});
