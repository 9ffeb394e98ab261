import { promises as fs, readFileSync } from "node:fs";
import { createServer } from "node:net";
import * as nodePath from "node:path";
import { NodeHost } from "../../src/headless/NodeHost";
import VaultMcpPlugin from "../../src/main";
import { defaultSettings } from "../../src/config/settings";
import { copiedTexts, createApp, shownMenus, type App, type PluginManifest } from "../double/obsidian";
import { hashText } from "../../src/vault/writes";
import { connectClient, isPortClosed } from "../helpers/http";
import { makeVault, removeDir } from "../helpers/vault";
import { settle, until, openModal, clickModalButton } from "../helpers/dom";
import { ENGLISH_STOP_WORDS } from "../../src/search/stopWords";

const manifest = JSON.parse(readFileSync(nodePath.resolve(__dirname, "../../manifest.json"), "utf8")) as PluginManifest;
/** The plugin's settings tab, rendered, with helpers to find and use its controls. */
function tabOf(plugin: VaultMcpPlugin) {
	const tab = (plugin as unknown as { settingTabs: Array<{ containerEl: HTMLElement; display(): void }> }).settingTabs[0];
	if (!tab) throw new Error("no settings tab");
	tab.display();
	const setting = (name: string) => {
		const found = [...tab.containerEl.querySelectorAll<HTMLElement>(".setting-item")].find(
			(el) => el.querySelector(".setting-item-name")?.textContent === name,
		);
		if (!found) throw new Error(`no setting "${name}"`);
		return found;
	};
	return {
		containerEl: tab.containerEl,
		setting,
		toggle: (name: string) => {
			const toggle = setting(name).querySelector<HTMLElement>(".checkbox-container");
			if (!toggle) throw new Error(`no toggle in setting "${name}"`);
			toggle.click();
		},
		button: (name: string, text: string) => {
			const button = [...setting(name).querySelectorAll("button")].find((candidate) => candidate.textContent === text);
			if (!button) throw new Error(`no button "${text}" in setting "${name}"`);
			button.click();
		},
		rerender: () => tab.display(),
	};
}

describe("the plugin's interface, clicked through in the host double", () => {
	let vault: string;
	let host: NodeHost;
	let plugin: VaultMcpPlugin;

	beforeEach(async () => {
		vault = await makeVault({ "Note.md": "# Note\n", "Private/Secret.md": "x" });
		const dataDir = nodePath.join(vault, ".obsidian/plugins/vault-mcp");
		await fs.mkdir(dataDir, { recursive: true });
		await fs.writeFile(nodePath.join(dataDir, "data.json"), JSON.stringify({ ...defaultSettings(), port: 0 }));
		host = await NodeHost.open(vault);
		plugin = new VaultMcpPlugin(createApp(host) as never, manifest);
		await (plugin as unknown as { load(): Promise<void> }).load();
		await settle();
	});

	afterEach(async () => {
		(plugin as unknown as { unload(): void }).unload();
		await plugin.service.stop();
		// A field's change saves without being awaited (as Obsidian's onChange handlers do): written before the vault goes.
		await (plugin as unknown as { settingsStore: { settled(): Promise<void> } }).settingsStore.settled();
		document.body.empty();
		await host.close();
		await removeDir(vault);
	});

	const ribbon = () => document.body.querySelector<HTMLElement>(".side-dock-ribbon-action");
	const statusBar = () => document.body.querySelector<HTMLElement>(".status-bar-item");

	test("a note link in the activity list opens that very file, even with # in its path: never the excluded note the path reads as a link to", async () => {
		// Made outside Obsidian: as link text, "Work#1/Plan.md" is the note "Work" (here Private/Work.md) at heading "1/Plan.md".
		await host.vault.createFolder("Work#1");
		await host.vault.create("Work#1/Plan.md", "# Plan\n");
		await host.vault.create("Private/Work.md", "hidden\n");
		const call = { id: "c1", time: new Date().toISOString(), tokenName: "laptop", tool: "append_to_note" };
		plugin.journal.recordChange(call, { path: "Work#1/Plan.md", before: "", beforeHash: hashText(""), after: "# Plan\n", afterHash: hashText("# Plan\n") });
		const links = [...tabOf(plugin).containerEl.querySelectorAll<HTMLElement>(".vault-mcp-note-link")];
		expect(links.map((el) => el.textContent)).toEqual(["Work#1/Plan.md"]);
		links[0]?.click();
		await settle();
		const { workspace } = plugin.app as unknown as App;
		expect(workspace.tabs).toEqual([{ path: "Work#1/Plan.md", subpath: "" }]);
		expect(workspace.getActiveFile()?.path).toBe("Work#1/Plan.md");
	});

	test("enabling shows the disclosure and starts nothing until it is confirmed", async () => {
		const tab = tabOf(plugin);
		tab.toggle("Enable server");
		await settle();
		expect(openModal()?.textContent).toContain("sent to whatever AI model that app uses");
		expect(plugin.service.status.state).toBe("stopped");
		clickModalButton("Cancel");
		await settle();
		expect(plugin.service.status.state).toBe("stopped");
		expect(plugin.settings.serverEnabled).toBe(false);

		tabOf(plugin).toggle("Enable server");
		clickModalButton("I understand, start the server");
		await until(() => plugin.service.status.state === "listening");
		expect(plugin.service.status.state).toBe("listening");
		expect(plugin.settings.disclosureAccepted).toBe(true);
		// Accepted once: the next start needs no second reading.
		await plugin.updateSettings({ serverEnabled: false });
		tabOf(plugin).toggle("Enable server");
		await until(() => plugin.service.status.state === "listening");
		expect(openModal()).toBeNull();
		expect(plugin.service.status.state).toBe("listening");
	});

	test("a new token is shown once, with snippets filled in; the list never shows it again", async () => {
		await plugin.updateSettings({ disclosureAccepted: true, serverEnabled: true });
		tabOf(plugin).button("Create a token", "Create token");
		const form = openModal();
		const input = form?.querySelector("input");
		if (!input) throw new Error("no name field");
		input.value = "Laptop";
		input.dispatchEvent(new Event("input"));
		clickModalButton("Create");
		// The token is made and saved before its window opens: on a busy machine that takes more than one settle.
		await until(() => (openModal()?.querySelector(".vault-mcp-token")?.textContent ?? "") !== "");
		const shown = openModal()?.querySelector(".vault-mcp-token")?.textContent ?? "";
		expect(shown).toMatch(/^vmcp_[A-Za-z0-9_-]{43}$/);
		const snippets = [...(openModal()?.querySelectorAll(".vault-mcp-snippet") ?? [])].map((el) => el.textContent ?? "");
		expect(snippets.every((text) => text.includes(shown))).toBe(true);
		[...(openModal()?.querySelectorAll("button") ?? [])].find((button) => button.textContent === "Copy token")?.click();
		await settle();
		expect(copiedTexts.at(-1)).toBe(shown);

		(openModal() as HTMLElement).remove();
		const tab = tabOf(plugin);
		expect(tab.setting("Laptop").textContent).toContain(shown.slice(0, 9));
		expect(document.body.innerHTML).not.toContain(shown);
		expect(readFileSync(nodePath.join(vault, ".obsidian/plugins/vault-mcp/data.json"), "utf8")).not.toContain(shown);

		const client = await connectClient(plugin.service.status.state === "listening" ? plugin.service.status.url : "", shown);
		expect((await client.callTool({ name: "get_vault_status", arguments: {} })).isError).toBeFalsy();

		// Revoking, after confirming, locks the token out of the running server at once.
		tab.button("Laptop", "Revoke");
		clickModalButton("Revoke");
		// Once the confirmed revoke is saved (which can take longer than one settle on a loaded machine), the next call is refused.
		await until(
			() => !(plugin.service as unknown as { settings: { tokens: Array<{ name: string }> } }).settings.tokens.some((token) => token.name === "Laptop"),
		);
		await expect(client.callTool({ name: "get_vault_status", arguments: {} })).rejects.toThrow(/valid bearer token is required/);
		await client.close();
	});

	test("the write toggle asks first, then adds and removes the write tools for a live client", async () => {
		await plugin.updateSettings({ disclosureAccepted: true, serverEnabled: true });
		const { addToken } = await import("../../src/auth/tokenList");
		const made = addToken(plugin.settings, "w", "write");
		if ("error" in made) throw new Error(made.error);
		await plugin.updateSettings({ tokens: made.settings.tokens });
		const status = plugin.service.status;
		if (status.state !== "listening") throw new Error("not listening");
		const client = await connectClient(status.url, made.token);
		const names = async () => (await client.listTools()).tools.map((tool) => tool.name);
		expect(await names()).not.toContain("append_to_note");

		tabOf(plugin).toggle("Allow writing");
		expect(openModal()?.textContent).toContain("cannot delete notes");
		clickModalButton("Allow writing");
		// The setting is saved, then the server pool follows: waited for, not a fixed pause, on a loaded machine.
		await until(async () => (await names()).includes("append_to_note"));
		expect(await names()).toContain("append_to_note");
		tabOf(plugin).toggle("Allow writing");
		await until(async () => !(await names()).includes("append_to_note"));
		expect(await names()).not.toContain("append_to_note");
		await client.close();
	});

	test("the write toggle is unavailable while the server is off", () => {
		tabOf(plugin).toggle("Allow writing");
		expect(openModal()).toBeNull();
		expect(plugin.settings.writeEnabled).toBe(false);
	});

	test("a port change restarts the server; a bad port is refused with a message", async () => {
		await plugin.updateSettings({ disclosureAccepted: true, serverEnabled: true });
		const before = plugin.service.status;
		if (before.state !== "listening") throw new Error("not listening");
		const probe = createServer();
		await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", () => resolve()));
		const newPort = (probe.address() as { port: number }).port;
		await new Promise((resolve) => probe.close(resolve));

		const tab = tabOf(plugin);
		const input = tab.setting("Port").querySelector("input") as HTMLInputElement;
		input.value = "80";
		input.dispatchEvent(new Event("change"));
		expect(tab.setting("Port").textContent).toContain("1024 to 65535");
		input.value = String(newPort);
		input.dispatchEvent(new Event("change"));
		// The restart closes the old server and opens the new one: on a busy machine that takes more than one settle.
		await until(() => plugin.service.status.state === "listening" && plugin.service.status.port === newPort);
		expect(plugin.service.status).toMatchObject({ state: "listening", port: newPort });
		expect(await isPortClosed(before.port)).toBe(true);
		expect(tabOf(plugin).setting("Status").textContent).toContain(`127.0.0.1:${newPort}/mcp`);
	});

	test("the ribbon and status bar follow start, stop and a port-in-use error", async () => {
		expect(ribbon()?.getAttribute("data-state")).toBe("off");
		expect(statusBar()?.textContent).toBe("MCP off");
		await plugin.updateSettings({ disclosureAccepted: true, serverEnabled: true });
		expect(ribbon()?.getAttribute("data-state")).toBe("on");
		expect(ribbon()?.getAttribute("data-icon")).toBe("plug-zap");
		expect(statusBar()?.textContent).toBe("MCP on · 0 clients");

		const blocker = createServer();
		await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", () => resolve()));
		const busyPort = (blocker.address() as { port: number }).port;
		const consoleError = jest.spyOn(console, "error").mockImplementation(() => undefined);
		await plugin.updateSettings({ port: busyPort });
		consoleError.mockRestore();
		blocker.close();
		expect(ribbon()?.getAttribute("data-state")).toBe("error");
		expect(ribbon()?.getAttribute("aria-label")).toContain("already in use");
		expect(statusBar()?.textContent).toBe("MCP error");

		await plugin.updateSettings({ serverEnabled: false });
		expect(ribbon()?.getAttribute("data-state")).toBe("off");
		await plugin.updateSettings({ showStatusBar: false });
		expect(statusBar()?.classList.contains("vault-mcp-hidden")).toBe(true);
	});

	test("the ribbon menu starts and stops the server, copies the command and opens the settings", async () => {
		await plugin.updateSettings({ disclosureAccepted: true });
		ribbon()?.click();
		const menu = shownMenus.at(-1);
		expect(menu?.items.map((item) => item.title)).toEqual(["Start server", "Copy Claude Code command", "Open settings"]);
		await menu?.items[0]?.handler();
		// Starting takes turns of its own (one settle was not always enough at load 15: 3 of 8 runs): bounded by `until`.
		await until(() => plugin.service.status.state === "listening");
		ribbon()?.click();
		expect(shownMenus.at(-1)?.items[0]?.title).toBe("Stop server");
		await shownMenus.at(-1)?.items[1]?.handler();
		await settle();
		expect(copiedTexts.at(-1)).toMatch(
			/^claude mcp add --transport http vault-[a-z0-9_-]+ http:\/\/127\.0\.0\.1:\d+\/mcp --header "Authorization: Bearer <token>"$/,
		);
		await shownMenus.at(-1)?.items[2]?.handler();
		expect((plugin.app as unknown as { setting: { opened: string[] } }).setting.opened).toEqual(["vault-mcp"]);
		statusBar()?.click();
		expect((plugin.app as unknown as { setting: { opened: string[] } }).setting.opened).toHaveLength(2);
	});

	test("commands exist without default hotkeys and do what they say", async () => {
		const commands = (plugin as unknown as { commands: Map<string, { name: string; callback(): void; hotkeys?: unknown }> }).commands;
		expect([...commands.keys()]).toEqual(["start-server", "stop-server", "create-token", "copy-connection-command", "show-activity", "undo-last-change"]);
		for (const command of commands.values()) expect(command.hotkeys).toBeUndefined();
		await plugin.updateSettings({ disclosureAccepted: true });
		commands.get("start-server")?.callback();
		// Starting takes turns of its own (a 30 ms wait was not always enough on a loaded machine): bounded by `until`.
		await until(() => plugin.service.status.state === "listening");
		commands.get("show-activity")?.callback();
		expect(openModal()?.textContent).toContain("Vault MCP activity");
		commands.get("stop-server")?.callback();
		await until(() => plugin.service.status.state === "stopped");
	});

	test("excluded folders are validated against the vault and applied at once", async () => {
		const tab = tabOf(plugin);
		const area = tab.setting("Folders no app may see").querySelector("textarea") as HTMLTextAreaElement;
		area.value = "Private\nNo such folder";
		area.dispatchEvent(new Event("change"));
		await settle();
		// A folder that does not exist yet is kept: creating it later must not expose it.
		expect(plugin.settings.excludedFolders).toEqual(["Private", "No such folder"]);
		expect(tab.setting("Folders no app may see").textContent).toContain("No such folder yet: No such folder");
	});

	test("an excluded folder typed as its absolute path, or with `..` parts, excludes that folder of the vault", async () => {
		const tab = tabOf(plugin);
		const area = tab.setting("Folders no app may see").querySelector("textarea") as HTMLTextAreaElement;
		// The vault's path was read as a folder inside the vault (`tmp/…/Private`, never there): Private stayed visible.
		area.value = `${nodePath.join(vault, "Private")}\nNote/../Archive`;
		area.dispatchEvent(new Event("change"));
		await settle();
		expect(plugin.settings.excludedFolders).toEqual(["Private", "Archive"]);
	});

	test("an excluded folder that names no folder inside the vault is named in the description, not dropped without a word", async () => {
		const tab = tabOf(plugin);
		const area = tab.setting("Folders no app may see").querySelector("textarea") as HTMLTextAreaElement;
		area.value = `Private\n../Private\n${vault}/Notes/../..`;
		area.dispatchEvent(new Event("change"));
		await settle();
		expect(plugin.settings.excludedFolders).toEqual(["Private"]);
		expect(tab.setting("Folders no app may see").textContent).toContain(`nothing is excluded for: ../Private, ${vault}/Notes/../...`);
	});

	test("stop words: typed words replace the saved list (split, lower-cased, each once); Restore defaults brings the English list back", async () => {
		const tab = tabOf(plugin);
		const area = tab.setting("Stop words").querySelector("textarea") as HTMLTextAreaElement;
		expect(area.value).toBe(ENGLISH_STOP_WORDS.join(" "));
		area.value = "The, a  AN\nthe";
		area.dispatchEvent(new Event("change"));
		await settle();
		expect(plugin.settings.searchStopWords).toEqual(["the", "a", "an"]);
		tab.button("Stop words", "Restore defaults");
		await until(() => plugin.settings.searchStopWords.length === ENGLISH_STOP_WORDS.length);
		expect(plugin.settings.searchStopWords).toEqual([...ENGLISH_STOP_WORDS]);
		expect((tab.setting("Stop words").querySelector("textarea") as HTMLTextAreaElement).value).toBe(ENGLISH_STOP_WORDS.join(" "));
		// Saved, not only shown: the restored list is what the next start reads.
		const saved = (): { searchStopWords?: string[] } => {
			try {
				return JSON.parse(readFileSync(nodePath.join(vault, ".obsidian/plugins/vault-mcp/data.json"), "utf8")) as { searchStopWords?: string[] };
			} catch {
				return {}; // caught mid-write: read again
			}
		};
		await until(() => saved().searchStopWords?.length === ENGLISH_STOP_WORDS.length);
		expect(saved().searchStopWords).toEqual([...ENGLISH_STOP_WORDS]);
	});

	test("the prompts folder is a setting, applied when the field changes", async () => {
		const tab = tabOf(plugin);
		const input = tab.setting("Prompts folder").querySelector("input") as HTMLInputElement;
		expect(input.value).toBe("Prompts");
		input.value = " Library/Prompts ";
		// The field's change saves without being awaited: waited for, not a fixed 30 ms (a CI run at load 15 read it before).
		input.dispatchEvent(new Event("change"));
		await until(() => plugin.settings.promptsFolder === "Library/Prompts");
		input.value = "";
		input.dispatchEvent(new Event("change"));
		await until(() => plugin.settings.promptsFolder === "");
	});

	test("unload removes the ribbon icon and status bar item and closes the port", async () => {
		await plugin.updateSettings({ disclosureAccepted: true, serverEnabled: true });
		const status = plugin.service.status;
		if (status.state !== "listening") throw new Error("not listening");
		(plugin as unknown as { unload(): void }).unload();
		await settle();
		expect(ribbon()).toBeNull();
		expect(statusBar()).toBeNull();
		expect(await isPortClosed(status.port)).toBe(true);
		expect((plugin as unknown as { cleanupCount: number }).cleanupCount).toBe(0);
	});
});
