/**
 * Two tokens of one name in data.json (edited by hand: the tab and the CLI refuse to make one, parsing keeps both). A
 * change of one's rights (or, in the tab, folders) reaches that one only: the settings tab addresses its token by hash, and `token rights NAME`
 * refuses a name that is not one token's, listing the tokens by their first characters. Each saved the change into both.
 * Cost: one plugin load in the host double and one in-process CLI command, about 0.3 s of CPU together.
 */
import { promises as fs, readFileSync } from "node:fs";
import * as nodePath from "node:path";
import { addToken } from "../../src/auth/tokenList";
import { defaultSettings, parseSettings, type VaultMcpSettings } from "../../src/config/settings";
import { token as tokenCommand } from "../../src/headless/cli/token";
import { NodeHost } from "../../src/headless/NodeHost";
import VaultMcpPlugin from "../../src/main";
import { createApp, type PluginManifest } from "../double/obsidian";
import { runCommand } from "../helpers/cliCommand";
import { until } from "../helpers/dom";
import { makeVault, removeDir } from "../helpers/vault";

const manifest = JSON.parse(readFileSync(nodePath.resolve(__dirname, "../../manifest.json"), "utf8")) as PluginManifest;
const DATA_JSON = ".obsidian/plugins/vault-mcp/data.json";

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
	const dataJson = async () => parseSettings(JSON.parse(await fs.readFile(nodePath.join(vault, DATA_JSON), "utf8"))).settings;
	beforeEach(async () => {
		vault = await makeVault({ "Home.md": "# Home\n" });
		await fs.mkdir(nodePath.dirname(nodePath.join(vault, DATA_JSON)), { recursive: true });
		await fs.writeFile(nodePath.join(vault, DATA_JSON), JSON.stringify(twinSettings()));
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
		} finally {
			(plugin as unknown as { unload(): void }).unload();
			await plugin.service.stop();
			document.body.empty();
			await host.close();
		}
	});

	test("`token rights NAME` refuses the name, listing both tokens by their first characters; data.json unchanged (both were set to Deny)", async () => {
		const before = await fs.readFile(nodePath.join(vault, DATA_JSON), "utf8");
		const prefixes = (await dataJson()).tokens.map((record) => `${record.displayPrefix}…`);
		for (const args of [["--deny", "append_to_note"], []]) {
			const refused = await runCommand(tokenCommand, ["rights", vault, "laptop", ...args]).then(
				(output) => `exit ${output.code}: ${output.stderr}`,
				(error: Error) => error.message,
			);
			expect(refused).toBe(
				`2 tokens are named "laptop" in data.json (${prefixes.join(", ")}): it was edited by hand, and a change by name would reach every one of them. Change one token's rights in Obsidian (Settings → Vault MCP lists each token apart), or revoke the name (every token of it) and make a new token.`,
			);
		}
		expect(await fs.readFile(nodePath.join(vault, DATA_JSON), "utf8")).toBe(before);
	});
});
