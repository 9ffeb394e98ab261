/**
 * Two tokens of one name in data.json (edited by hand: the tab and the CLI refuse to make one, parsing keeps both). A
 * change of one's rights (or, in the tab, folders) reaches that one only: the settings tab addresses its token by hash, and `token rights NAME`
 * refuses a name that is not one token's, listing the tokens by their first characters. Each saved the change into both.
 * Cost: one plugin load in the host double and one in-process CLI command, about 0.3 s of CPU together.
 */
import { promises as fs, readFileSync } from "node:fs";
import * as nodePath from "node:path";
import { addToken } from "../../src/auth/tokenList";
import { defaultSettings, type VaultMcpSettings } from "../../src/config/settings";
import { token as tokenCommand } from "../../src/headless/cli/token";
import { NodeHost } from "../../src/headless/NodeHost";
import VaultMcpPlugin from "../../src/main";
import { createApp, type PluginManifest } from "../double/obsidian";
import { runCommand } from "../helpers/cliCommand";
import { clickModalButton, until } from "../helpers/dom";
import { PLUGIN_DATA_JSON, savedPluginSettings } from "../helpers/pluginDataJson";
import { makeVault, removeDir } from "../helpers/vault";

const manifest = JSON.parse(readFileSync(nodePath.resolve(__dirname, "../../manifest.json"), "utf8")) as PluginManifest;

/** Settings holding two write tokens named "laptop" (the second made as "other", renamed as a hand edit would). */
function twinSettings(): VaultMcpSettings {
	const base = { ...defaultSettings(), port: 0, writeEnabled: true, writeDisclosureAccepted: true };
	const first = addToken(base, "laptop", "write");
	if ("error" in first) throw new Error(first.error);
	const second = addToken(first.settings, "other", "write");
	if ("error" in second) throw new Error(second.error);
	return { ...second.settings, tokens: second.settings.tokens.map((record) => ({ ...record, name: "laptop" })) };
}

describe("two tokens of one name in data.json", () => {
	let vault: string;
	const dataJson = () => savedPluginSettings(vault);
	beforeEach(async () => {
		vault = await makeVault({ "Home.md": "# Home\n" });
		await fs.mkdir(nodePath.dirname(nodePath.join(vault, PLUGIN_DATA_JSON)), { recursive: true });
		await fs.writeFile(nodePath.join(vault, PLUGIN_DATA_JSON), JSON.stringify(twinSettings()));
	});
	afterEach(() => removeDir(vault));

	test("the settings tab's rights dropdown and folders field change the token they are under, not its twin (both were changed)", async () => {
		const host = await NodeHost.open(vault);
		const plugin = new VaultMcpPlugin(createApp(host) as never, manifest);
		await (plugin as unknown as { load(): Promise<void> }).load();
		try {
			const [first, second] = (await dataJson()).tokens;
			expect([first?.name, second?.name]).toEqual(["laptop", "laptop"]);
			const tab = (plugin as unknown as { settingTabs: Array<{ containerEl: HTMLElement; display(): void }> }).settingTabs[0]!;
			tab.display();
			const sections = [...tab.containerEl.querySelectorAll<HTMLElement>(".vault-mcp-rights")];
			expect(sections).toHaveLength(2);
			const row = [...sections[1]!.querySelectorAll<HTMLElement>(".setting-item")].find(
				(item) => item.querySelector(".setting-item-name")?.textContent === "append_to_note",
			);
			const select = row?.querySelector("select");
			if (!select) throw new Error("no append_to_note dropdown under the second token");
			select.value = "deny";
			select.dispatchEvent(new Event("change"));
			await until(async () => (await dataJson()).tokens[1]?.rights?.append_to_note === "deny");
			const saved = (await dataJson()).tokens;
			expect(saved.map((record) => [record.hash, record.rights?.append_to_note ?? "allow"])).toEqual([
				[first?.hash, "allow"],
				[second?.hash, "deny"],
			]);
			// The token's folders too: typed under the second, saved for the second only (both got them).
			const folderRows = [...tab.containerEl.querySelectorAll<HTMLElement>(".setting-item")].filter(
				(item) => item.querySelector(".setting-item-name")?.textContent === "Folders of laptop",
			);
			const area = folderRows[1]?.querySelector("textarea");
			if (!area) throw new Error("no folders field under the second token");
			area.value = "Projects";
			area.dispatchEvent(new Event("change"));
			await until(async () => (await dataJson()).tokens[1]?.folders?.length === 1);
			expect((await dataJson()).tokens.map((record) => record.folders ?? [])).toEqual([[], ["Projects"]]);
			// Revoke under the first: the first goes, the second stays (both went).
			const revokeButtons = [...tab.containerEl.querySelectorAll<HTMLElement>(".setting-item")]
				.filter((item) => item.querySelector(".setting-item-name")?.textContent === "laptop")
				.map((item) => [...item.querySelectorAll("button")].find((button) => button.textContent === "Revoke"));
			expect(revokeButtons).toHaveLength(2);
			revokeButtons[0]?.click();
			clickModalButton("Revoke");
			await until(async () => (await dataJson()).tokens.length !== 2);
			expect((await dataJson()).tokens.map((record) => record.hash)).toEqual([second?.hash]);
		} finally {
			(plugin as unknown as { unload(): void }).unload();
			await plugin.service.stop();
			document.body.empty();
			await host.close();
		}
	});

	test("`token rights`, `token folders` and `token revoke` refuse the name, listing the short ids; each takes a short id and changes that token only", async () => {
		const before = await fs.readFile(nodePath.join(vault, PLUGIN_DATA_JSON), "utf8");
		const [first, second] = (await dataJson()).tokens;
		if (!first || !second) throw new Error("two tokens expected");
		const ids = `${first.displayPrefix}…, ${second.displayPrefix}…`;
		const run = (args: string[]) =>
			runCommand(tokenCommand, args).then(
				(output) => `exit ${output.code}: ${output.stderr}${output.stdout}`,
				(error: Error) => error.message,
			);
		// token rights: a change and a look; token folders: a change; token revoke (revoked both, or set both's folders).
		for (const args of [
			["rights", vault, "laptop", "--deny", "append_to_note"],
			["rights", vault, "laptop"],
			["folders", vault, "laptop", "Projects"],
			["revoke", vault, "laptop"],
		]) {
			expect(await run(args)).toContain(
				`2 tokens fit "laptop" in data.json (${ids}): it was edited by hand, and a change by name would reach every one of them. Name one by its short id`,
			);
		}
		expect(await fs.readFile(nodePath.join(vault, PLUGIN_DATA_JSON), "utf8")).toBe(before);
		// By the short id `token list` shows (with or without its "…"): that token only.
		expect(await run(["list", vault])).toContain(`laptop\twrite\t${second.displayPrefix}…\t`);
		expect(await run(["rights", vault, `${second.displayPrefix}…`, "--deny", "append_to_note"])).toContain('exit 0: Rights of "laptop" (write):');
		expect(await run(["folders", vault, second.displayPrefix, "Projects"])).toMatch(/^exit 0: .*\nFolders of "laptop": Projects\n$/u);
		expect((await dataJson()).tokens.map((record) => [record.rights?.append_to_note ?? "allow", record.folders ?? []])).toEqual([
			["allow", []],
			["deny", ["Projects"]],
		]);
		expect(await run(["revoke", vault, `${first.displayPrefix}…`])).toBe('exit 0: Revoked "laptop".\n');
		expect((await dataJson()).tokens.map((record) => record.hash)).toEqual([second.hash]);
	});
});
