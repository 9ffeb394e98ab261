import { promises as fs, readFileSync } from "node:fs";
import * as nodePath from "node:path";
import { NodeHost } from "../../src/headless/NodeHost";
import VaultMcpPlugin from "../../src/main";
import { defaultSettings, type VaultMcpSettings } from "../../src/config/settings";
import { createApp, type PluginManifest } from "../double/obsidian";
import { connectClient } from "../helpers/http";
import { callOk } from "../helpers/tools";
import { makeVault, removeDir } from "../helpers/vault";
import { clickModalButton, openModal, settle, until } from "../helpers/dom";

const manifest = JSON.parse(readFileSync(nodePath.resolve(__dirname, "../../manifest.json"), "utf8")) as PluginManifest;

function settingsTab(plugin: VaultMcpPlugin): HTMLElement {
	const tab = (plugin as unknown as { settingTabs: Array<{ containerEl: HTMLElement; display(): void }> }).settingTabs[0];
	if (!tab) throw new Error("no settings tab");
	tab.display();
	return tab.containerEl;
}

function settingNamed(container: HTMLElement, name: string): HTMLElement {
	const found = [...container.querySelectorAll<HTMLElement>(".setting-item")].find((el) => el.querySelector(".setting-item-name")?.textContent === name);
	if (!found) throw new Error(`no setting "${name}"`);
	return found;
}

function type(field: HTMLInputElement | HTMLTextAreaElement, value: string, event: "input" | "change"): void {
	field.value = value;
	field.dispatchEvent(new Event(event));
}

describe("a token's folders in the token window and the settings tab (host double)", () => {
	let vault: string;
	let host: NodeHost;
	let plugin: VaultMcpPlugin;

	beforeEach(async () => {
		vault = await makeVault({ "Projects/Plan.md": "# Plan\n", "Private/Diary.md": "diary words\n", "Root.md": "root\n" });
		const dataDir = nodePath.join(vault, ".obsidian/plugins/vault-mcp");
		await fs.mkdir(dataDir, { recursive: true });
		await fs.writeFile(
			nodePath.join(dataDir, "data.json"),
			JSON.stringify({ ...defaultSettings(), port: 0, disclosureAccepted: true, serverEnabled: true }),
		);
		host = await NodeHost.open(vault);
		plugin = new VaultMcpPlugin(createApp(host) as never, manifest);
		await (plugin as unknown as { load(): Promise<void> }).load();
		await settle();
	});

	afterEach(async () => {
		// Every save asked for written before the vault is removed: one still making its folder failed (ENOENT) after its test passed.
		await (plugin as unknown as { settingsStore: { settled(): Promise<void> } }).settingsStore.settled();
		(plugin as unknown as { unload(): void }).unload();
		await plugin.service.stop();
		document.body.empty();
		await host.close();
		await removeDir(vault);
	});

	const url = () => (plugin.service.status.state === "listening" ? plugin.service.status.url : "");

	test("a token made with folders sees only them; widening it to the whole vault in the tab applies at its next call", async () => {
		const button = [...settingNamed(settingsTab(plugin), "Create a token").querySelectorAll("button")].find(
			(candidate) => candidate.textContent === "Create token",
		);
		button?.click();
		const form = openModal();
		type(form?.querySelector("input") as HTMLInputElement, "Scoped", "input");
		type(form?.querySelector("textarea") as HTMLTextAreaElement, "Projects\n", "input");
		clickModalButton("Create");
		// Saving the token and showing it once can take longer than one settle on a loaded machine.
		await until(() => (openModal()?.querySelector(".vault-mcp-token")?.textContent ?? "") !== "");
		const token = openModal()?.querySelector(".vault-mcp-token")?.textContent ?? "";
		expect(token).toMatch(/^vmcp_/);
		(openModal() as HTMLElement).remove();
		expect(plugin.settings.tokens.find((record) => record.name === "Scoped")?.folders).toEqual(["Projects"]);
		// Saved with the token in data.json, where the CLI reads it too.
		const saved = JSON.parse(readFileSync(nodePath.join(vault, ".obsidian/plugins/vault-mcp/data.json"), "utf8")) as {
			tokens: Array<{ name: string; folders?: string[] }>;
		};
		expect(saved.tokens.find((record) => record.name === "Scoped")?.folders).toEqual(["Projects"]);

		const client = await connectClient(url(), token);
		const listed = async () => (await callOk<{ notes: Array<{ path: string }> }>(client, "list_notes", { limit: 100 })).notes.map((note) => note.path);
		expect(await listed()).toEqual(["Projects/Plan.md"]);

		const tab = settingsTab(plugin);
		const row = settingNamed(tab, "Folders of Scoped");
		expect((row.querySelector("textarea") as HTMLTextAreaElement).value).toBe("Projects");
		[...row.querySelectorAll("button")].find((candidate) => candidate.textContent === "Whole vault")?.click();
		await until(
			() =>
				plugin.service.status.state === "listening" &&
				(plugin.service as unknown as { settings: VaultMcpSettings }).settings.tokens.every((record) => record.folders === undefined),
		);
		expect(plugin.settings.tokens.find((record) => record.name === "Scoped")?.folders).toBeUndefined();
		expect((await listed()).sort()).toEqual(["Private/Diary.md", "Projects/Plan.md", "Root.md"]);

		// Narrowed again by typing: the same client, no reconnect, sees only the new folder.
		type(settingNamed(settingsTab(plugin), "Folders of Scoped").querySelector("textarea") as HTMLTextAreaElement, "Private", "change");
		await until(() => (plugin.service as unknown as { settings: VaultMcpSettings }).settings.tokens.some((record) => record.folders?.[0] === "Private"));
		expect(await listed()).toEqual(["Private/Diary.md"]);
		await client.close();
	});

	test("folders that name nothing inside the vault are refused with a reason, and nothing is saved", async () => {
		const button = [...settingNamed(settingsTab(plugin), "Create a token").querySelectorAll("button")].find(
			(candidate) => candidate.textContent === "Create token",
		);
		button?.click();
		const form = openModal();
		type(form?.querySelector("input") as HTMLInputElement, "Bad", "input");
		type(form?.querySelector("textarea") as HTMLTextAreaElement, "../Elsewhere", "input");
		clickModalButton("Create");
		await until(() => (openModal()?.querySelector(".vault-mcp-error")?.textContent ?? "") !== "");
		expect(openModal()?.querySelector(".vault-mcp-error")?.textContent).toContain("names no folder inside the vault");
		expect(plugin.settings.tokens.some((record) => record.name === "Bad")).toBe(false);
		(openModal() as HTMLElement).remove();

		const before = plugin.settings.tokens;
		const made = await import("../../src/auth/tokenList").then(({ addToken }) => addToken(plugin.settings, "Limited", "read", undefined, ["Projects"]));
		if ("error" in made) throw new Error(made.error);
		await plugin.updateSettings({ tokens: made.settings.tokens });
		const row = settingNamed(settingsTab(plugin), "Folders of Limited");
		type(row.querySelector("textarea") as HTMLTextAreaElement, ".obsidian", "change");
		await until(() => (row.querySelector(".setting-item-description")?.textContent ?? "").includes("hidden folder"));
		expect(row.querySelector(".setting-item-description")?.textContent).toContain("hidden folder");
		expect(plugin.settings.tokens.find((record) => record.name === "Limited")?.folders).toEqual(["Projects"]);
		expect(before.length + 1).toBe(plugin.settings.tokens.length);
	});
	test("a folder typed as its absolute path in the vault is that folder (it was read as `tmp/…/Projects`, a folder never there: the token saw nothing)", async () => {
		const button = [...settingNamed(settingsTab(plugin), "Create a token").querySelectorAll("button")].find(
			(candidate) => candidate.textContent === "Create token",
		);
		button?.click();
		const form = openModal();
		type(form?.querySelector("input") as HTMLInputElement, "Absolute", "input");
		type(form?.querySelector("textarea") as HTMLTextAreaElement, nodePath.join(vault, "Projects"), "input");
		clickModalButton("Create");
		await until(() => plugin.settings.tokens.some((record) => record.name === "Absolute"));
		expect(plugin.settings.tokens.find((record) => record.name === "Absolute")?.folders).toEqual(["Projects"]);
		openModal()?.remove();
		const row = settingNamed(settingsTab(plugin), "Folders of Absolute");
		type(row.querySelector("textarea") as HTMLTextAreaElement, nodePath.join(vault, "Private"), "change");
		await until(() => plugin.settings.tokens.find((record) => record.name === "Absolute")?.folders?.[0] !== "Projects");
		expect(plugin.settings.tokens.find((record) => record.name === "Absolute")?.folders).toEqual(["Private"]);
	});
});
