/**
 * "Always allow" in Obsidian, end to end: a real MCP client calls a write tool set to Ask over the plugin's real
 * HTTP server, the plugin (loaded in the host double) shows the window, and the test clicks it as a person would.
 * The click is saved by the plugin's `raiseToolRightFromAsk`, into data.json as it is on disk under the settings lock,
 * which the command line (`token rights`, `token revoke`) may have changed since the question was asked: the plugin
 * has not read the file again (Obsidian tells it only later, or never when the change came through the lock alone).
 * Cost: one plugin load and two to three asked appends over HTTP, about 0.3 s of CPU a test.
 */
import { promises as fs, readFileSync } from "node:fs";
import * as nodePath from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { addToken } from "../../src/auth/tokenList";
import { defaultSettings } from "../../src/config/settings";
import { token as tokenCommand } from "../../src/headless/cli/token";
import { NodeHost } from "../../src/headless/NodeHost";
import { JournalFile } from "../../src/journal/JournalFile";
import VaultMcpPlugin from "../../src/main";
import { createApp, shownNotices, type PluginManifest } from "../double/obsidian";
import { runCommand } from "../helpers/cliCommand";
import { connectClient } from "../helpers/http";
import { savedPluginSettings } from "../helpers/pluginDataJson";
import { callTool, type CallOutcome } from "../helpers/tools";
import { makeVault, removeDir } from "../helpers/vault";

const manifest = JSON.parse(readFileSync(nodePath.resolve(__dirname, "../../manifest.json"), "utf8")) as PluginManifest;
const NOTE = "# Groceries\n\n- apples\n";
const TOKEN_NAME = "laptop";
const ALWAYS = "Always allow this tool for this token";

const settle = () => new Promise((resolve) => setTimeout(resolve, 20));
/** Waits (bounded, only to stop a hang) until `condition` holds. */
async function until(condition: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
	for (const started = Date.now(); !condition(); await settle()) {
		if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
	}
}

const approvalWindow = () => document.body.querySelector<HTMLElement>(".vault-mcp-approval");
const addedLines = () => [...(approvalWindow()?.querySelectorAll(".vault-mcp-diff-added") ?? [])].map((line) => line.textContent);
function button(text: string): HTMLButtonElement {
	const found = [...(approvalWindow()?.querySelectorAll("button") ?? [])].find((candidate) => candidate.textContent === text);
	if (!found) throw new Error(`no button "${text}" in the approval window`);
	return found;
}

describe("'Always allow' in Obsidian (the plugin in the host double, a real client over HTTP)", () => {
	let vault: string;
	let host: NodeHost;
	let plugin: VaultMcpPlugin;
	let client: Client;

	const noteText = () => fs.readFile(nodePath.join(vault, "Groceries.md"), "utf8");
	const dataJson = () => savedPluginSettings(vault);
	const append = (content: string): Promise<CallOutcome> =>
		callTool(client, "append_to_note", { path: "Groceries.md", content }).catch((error: Error) => ({ ok: false, error: error.message }));
	const journalled = () => JournalFile.forVault(vault, ".obsidian").list();

	beforeEach(async () => {
		// Daily notes go in Daily/, not there yet: add_task without a path makes a note and a folder (create_note's right too).
		vault = await makeVault({ "Groceries.md": NOTE, ".obsidian/daily-notes.json": JSON.stringify({ folder: "Daily" }) });
		const made = addToken({ ...defaultSettings(), port: 0 }, TOKEN_NAME, "write", { append_to_note: "ask", add_task: "ask", create_note: "ask" });
		if ("error" in made) throw new Error(made.error);
		const settings = { ...made.settings, serverEnabled: true, disclosureAccepted: true, writeEnabled: true, writeDisclosureAccepted: true };
		await fs.mkdir(nodePath.join(vault, ".obsidian/plugins/vault-mcp"), { recursive: true });
		await fs.writeFile(nodePath.join(vault, ".obsidian/plugins/vault-mcp/data.json"), JSON.stringify(settings));
		host = await NodeHost.open(vault);
		plugin = new VaultMcpPlugin(createApp(host) as never, manifest);
		await (plugin as unknown as { load(): Promise<void> }).load();
		await until(() => plugin.service.status.state === "listening", "the server to listen");
		const status = plugin.service.status;
		if (status.state !== "listening") throw new Error("not listening");
		client = await connectClient(status.url, made.token);
		shownNotices.length = 0;
	});

	afterEach(async () => {
		await client.close();
		(plugin as unknown as { unload(): void }).unload();
		await plugin.service.stop();
		document.body.empty();
		await host.close();
		await removeDir(vault);
	});

	/**
	 * Item 1 of asks171. On the base the second call's window opened the moment the first was answered, before the click
	 * was saved, offering "Always allow this tool" for a tool then allowed (its click saved nothing) and waiting for a
	 * person a new call would not need: the race below was won by that window.
	 */
	test("a second call waiting behind the question answered 'Always allow' is written by the new right, with no window", async () => {
		const first = append("- milk");
		await until(() => approvalWindow() !== null, "the first window");
		const second = append("- eggs");
		await until(() => approvalWindow()?.textContent?.includes("1 of 2 waiting") === true, "the second call in line");
		expect(addedLines()).toEqual(["+ - milk"]);
		button(ALWAYS).click();
		expect((await first).ok).toBe(true);
		const secondDone = second.then(() => "written" as const);
		// The look for a second window ends with the race (left polling, it held jest open for its 20 s bound).
		let raceOver = false;
		const windowAgain = until(() => raceOver || approvalWindow() !== null, "a second window").then(() => (raceOver ? "none" : "window"));
		const winner = await Promise.race([secondDone, windowAgain.catch(() => "none" as const)]);
		raceOver = true;
		expect(winner).toBe("written");
		expect((await second).ok).toBe(true);
		expect(approvalWindow()).toBeNull();
		// In the order sent: the second is released by the saved right, saved once the approved first was written (review173:
		// saved at the click, it released the second while the first waited for the save, and "- eggs" came first).
		expect(await noteText()).toBe(`${NOTE}- milk\n- eggs\n`);
		expect(journalled().map((entry) => entry.tool)).toEqual(["append_to_note", "append_to_note"]);
		expect((await dataJson()).tokens[0]?.rights?.append_to_note).toBe("allow");
	});

	/**
	 * The window's "Always allow" names what a click saves, as the rights it named change under it. On the base its words
	 * stayed those of its opening ("… this tool and creating notes and folders …") while a click saved add_task's right only,
	 * and stayed after nothing was left to allow always: the look for the new words failed (no such button).
	 */
	test("an open window's 'Always allow' is redrawn when a right it named is no longer at Ask, and goes when none is left", async () => {
		const call = callTool(client, "add_task", { text: "Water the herbs" }).catch((error: Error) => ({ ok: false, error: error.message }));
		await until(() => approvalWindow() !== null, "the window");
		await until(() => !button("Approve").disabled, "the change drawn");
		const alwaysButtons = () => [...(approvalWindow()?.querySelectorAll("button") ?? [])].filter((each) => each.textContent?.startsWith("Always"));
		expect(alwaysButtons().map((each) => each.textContent)).toEqual(["Always allow this tool and creating notes and folders for this token"]);
		// Creating notes allowed in the settings: the click would save add_task's right only, and says so.
		await plugin.setToolRight(TOKEN_NAME, "create_note", "allow");
		expect(alwaysButtons().map((each) => each.textContent)).toEqual([ALWAYS]);
		// It takes no click in the second after its words changed (asks180), then takes one.
		expect(button(ALWAYS).disabled).toBe(true);
		await until(() => !button(ALWAYS).disabled, "the redrawn button to take clicks");
		// Creating notes back at Ask, add_task allowed: the question is still asked (for the new note), and nothing it named is at Ask.
		await plugin.setToolRight(TOKEN_NAME, "create_note", "ask");
		await plugin.setToolRight(TOKEN_NAME, "add_task", "allow");
		expect(approvalWindow()).not.toBeNull();
		expect(alwaysButtons()).toEqual([]);
		expect(button("Approve").disabled).toBe(true);
		await until(() => !button("Approve").disabled, "Approve to take clicks after the redraw");
		button("Approve").click();
		expect(await call).toMatchObject({ ok: true });
		expect((await dataJson()).tokens[0]?.rights).toMatchObject({ add_task: "allow", create_note: "ask" });
	});

	/** On the base the window stayed open, waiting for a person, after the tool was set to Allow (the look for its closing timed out). */
	test("a window open when the person sets its tool to Allow closes, says why, and the call is written as an allowed call", async () => {
		const call = append("- milk");
		await until(() => approvalWindow() !== null, "the window");
		await plugin.setToolRight(TOKEN_NAME, "append_to_note", "allow");
		await until(() => approvalWindow() === null, "the window to close");
		expect((await call).ok).toBe(true);
		expect(await noteText()).toBe(`${NOTE}- milk\n`);
		expect(shownNotices.filter((notice) => notice.includes("laptop"))).toContain(
			'Vault MCP: Append to a note for "laptop" needs no approval now: its right was set to Allow, so it goes ahead as any allowed call.',
		);
	});

	/**
	 * Item 2 of asks171: raiseToolRightFromAsk checks data.json as it is now. This passed on the base (the behaviour was
	 * right, untested); with the plugin saving through withToolRight (the check taken out) it fails: the file says allow.
	 */
	test.each([
		["the tool set to Deny", ["rights", "--deny", "append_to_note"], "deny", "append_to_note was set to Deny for this token"],
		["the token revoked", ["revoke"], undefined, "the token was revoked"],
	] as const)(
		"'Always allow' clicked after the command line saved %s in data.json raises nothing, writes nothing, and the person is told",
		async (_change, command, rightAfter, told) => {
			const call = append("- milk");
			await until(() => approvalWindow() !== null, "the window");
			await until(() => !button(ALWAYS).disabled, "the change drawn");
			const [verb, ...rest] = command;
			expect((await runCommand(tokenCommand, [verb, vault, TOKEN_NAME, ...rest])).code).toBe(0);
			button(ALWAYS).click();
			const outcome = await call;
			expect(outcome.ok).toBe(false);
			const saved = (await dataJson()).tokens.find((record) => record.name === TOKEN_NAME);
			expect(saved?.rights?.append_to_note).toBe(rightAfter);
			expect(plugin.settings.tokens.find((record) => record.name === TOKEN_NAME)?.rights?.append_to_note).toBe(rightAfter);
			expect(await noteText()).toBe(NOTE);
			expect(journalled()).toEqual([]);
			// Told where they clicked: the call they approved was stopped, and why.
			expect(shownNotices.filter((notice) => notice.includes("which you approved"))).toEqual([
				`Vault MCP: Append to a note for "laptop", which you approved, was stopped. "Groceries.md" was not changed: ${told}. Nothing was written.`,
			]);
			// And the next call is not written unasked.
			if (rightAfter === "deny") expect((await append("- eggs")).ok).toBe(false);
			expect(await noteText()).toBe(NOTE);
		},
	);
});
