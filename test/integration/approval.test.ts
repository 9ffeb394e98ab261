/**
 * The approval window, end to end: a real MCP client calls a write tool set to Ask over the
 * plugin's real HTTP server, the plugin (loaded in the host double) shows the window, and the test
 * clicks it as a person would. What counts is what the person sees and what ends up in the vault
 * and the journal.
 */
import { promises as fs, readFileSync } from "node:fs";
import * as nodePath from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { initialRights } from "../../src/auth/rights";
import { addToken, revokeToken } from "../../src/auth/tokenList";
import { defaultSettings, parseSettings } from "../../src/config/settings";
import { NodeHost } from "../../src/headless/NodeHost";
import { JournalFile } from "../../src/journal/JournalFile";
import type VaultMcpPluginSource from "../../src/main";
import { WINDOW_DIFF_LINES } from "../../src/config/limits";
import { ALL_TOOLS } from "../../src/mcp/tools";
import { createApp, shownNotices, type PluginManifest } from "../double/obsidian";
import { connectClient } from "../helpers/http";
import { callTool, type CallOutcome } from "../helpers/tools";
import { makeVault, removeDir } from "../helpers/vault";

const manifest = JSON.parse(readFileSync(nodePath.resolve(__dirname, "../../manifest.json"), "utf8")) as PluginManifest;
const NOTE = "# Groceries\n\n- apples\n- bread\n";
const TOKEN_NAME = "Claude Code on my laptop";

const settle = () => new Promise((resolve) => setTimeout(resolve, 20));
/**
 * Waits (bounded) until `condition` holds; fails with `what` if it never does. The bound only stops a hang: a
 * window drawn in 5 s on a quiet machine took longer beside six loaded sessions.
 */
async function until(condition: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
	for (const started = Date.now(); !condition(); await settle()) {
		if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
	}
}

/** Every approval window in the page (there must never be more than one). */
const approvalWindows = () => [...document.body.querySelectorAll<HTMLElement>(".vault-mcp-approval")];
const approvalWindow = () => approvalWindows()[0] ?? null;
const windowText = () => approvalWindow()?.textContent ?? "";
const addedLines = () => [...(approvalWindow()?.querySelectorAll(".vault-mcp-diff-added") ?? [])].map((line) => line.textContent);
const countText = () => approvalWindow()?.querySelector(".vault-mcp-approval-count")?.textContent ?? "";
function button(text: string): HTMLButtonElement {
	const found = [...(approvalWindow()?.querySelectorAll("button") ?? [])].find((candidate) => candidate.textContent === text);
	if (!found) throw new Error(`no button "${text}" in the approval window`);
	return found;
}
const pressEscape = () => document.dispatchEvent(new KeyboardEvent("keydown", { key: "Escape" }));

type PluginClass = typeof VaultMcpPluginSource;
/** A variable, so TypeScript does not look for types of the built file. */
const BUNDLE_PATH: string = nodePath.resolve(__dirname, "../../main.js");
const builds: Array<[string, () => Promise<PluginClass>]> = [
	["the TypeScript sources", async () => (await import("../../src/main")).default],
	["the built main.js bundle", () => Promise.resolve(jest.requireActual<{ default: PluginClass }>(BUNDLE_PATH).default)],
];

describe.each(builds)("the approval window in Obsidian (plugin from %s), driven by a real client over HTTP", (_label, loadPluginClass) => {
	let vault: string;
	let host: NodeHost;
	let plugin: VaultMcpPluginSource;
	let client: Client;
	let token: string;
	const serverUrl = () => (plugin.service.status.state === "listening" ? plugin.service.status.url : "");

	const noteText = () => fs.readFile(nodePath.join(vault, "Groceries.md"), "utf8");
	/** Waits until the host has seen the note hold `text` (written by another program). */
	const waitForText = async (text: string) => {
		for (const started = Date.now(); (await host.vault.read(host.vault.getFileByPath("Groceries.md")!)) !== text; await settle())
			if (Date.now() - started > 5000) throw new Error("the host never saw the note's new text");
	};
	const journalled = () => JournalFile.forVault(vault, ".obsidian").list();
	// A call whose token is revoked before it is answered is refused whole (401: the client throws); one denied is told so.
	const REFUSED_AS_REVOKED = "A valid bearer token is required";
	const NO_LONGER_ALLOWED = "is no longer allowed for this token";
	const append = (content: string, target: Client = client): Promise<CallOutcome> => callTool(target, "append_to_note", { path: "Groceries.md", content });

	beforeEach(async () => {
		vault = await makeVault({ "Groceries.md": NOTE });
		const made = addToken({ ...defaultSettings(), port: 0 }, TOKEN_NAME, "write", initialRights(ALL_TOOLS, "write", "settings-tab"));
		if ("error" in made) throw new Error(made.error);
		const settings = { ...made.settings, serverEnabled: true, disclosureAccepted: true, writeEnabled: true, writeDisclosureAccepted: true };
		await fs.mkdir(nodePath.join(vault, ".obsidian/plugins/vault-mcp"), { recursive: true });
		await fs.writeFile(nodePath.join(vault, ".obsidian/plugins/vault-mcp/data.json"), JSON.stringify(settings));
		host = await NodeHost.open(vault);
		const VaultMcpPlugin = await loadPluginClass();
		plugin = new VaultMcpPlugin(createApp(host) as never, manifest);
		await (plugin as unknown as { load(): Promise<void> }).load();
		await until(() => plugin.service.status.state === "listening", "the server to listen");
		const status = plugin.service.status;
		if (status.state !== "listening") throw new Error("not listening");
		token = made.token;
		client = await connectClient(status.url, token);
	});

	afterEach(async () => {
		await client.close();
		(plugin as unknown as { unload(): void }).unload();
		await plugin.service.stop();
		document.body.empty();
		jest.restoreAllMocks();
		await host.close();
		await removeDir(vault);
	});

	test("shows the token, the tool and the diff; Approve clicked twice runs the shown call once", async () => {
		const call = append("- milk");
		await until(() => approvalWindow() !== null, "the approval window");
		expect(windowText()).toContain(TOKEN_NAME);
		expect(windowText()).toContain("Append to a note");
		expect(windowText()).toContain("Groceries.md");
		expect(addedLines()).toEqual(["+ - milk"]);
		expect([...(approvalWindow()?.querySelectorAll(".vault-mcp-diff-same") ?? [])].map((line) => line.textContent)).toContain("  - bread");
		// Nothing is written while the window waits.
		expect(await noteText()).toBe(NOTE);

		const approve = button("Approve");
		const always = button("Always allow this tool for this token");
		approve.click();
		approve.click();
		// Later clicks and keys change nothing: the first decision stands.
		always.click();
		pressEscape();
		const outcome = await call;
		expect(outcome.ok).toBe(true);
		expect(await noteText()).toBe(`${NOTE}- milk\n`);
		expect(journalled().map((entry) => entry.tool)).toEqual(["append_to_note"]);
		expect(approvalWindow()).toBeNull();
		expect(plugin.settings.tokens[0]?.rights?.append_to_note).toBe("ask");
	});

	test("a new note shows its text, marked as a new note", async () => {
		const call = callTool(client, "create_note", { path: "Ideas.md", content: "# Ideas\n\nA garden shed\n" });
		await until(() => approvalWindow() !== null, "the approval window");
		expect(windowText()).toContain("Ideas.md (new note)");
		expect(windowText()).toContain("Create a note");
		expect(addedLines()).toEqual(["+ # Ideas", "+ ", "+ A garden shed"]);
		button("Approve").click();
		expect((await call).ok).toBe(true);
		expect(await fs.readFile(nodePath.join(vault, "Ideas.md"), "utf8")).toBe("# Ideas\n\nA garden shed\n");
	});

	test("a long new note shows its lines, not a line count; past the window's limit the rest are counted", async () => {
		const lines = Array.from({ length: WINDOW_DIFF_LINES + 7 }, (_, index) => `Line ${index + 1}`);
		const call = callTool(client, "create_note", { path: "Long.md", content: lines.join("\n") });
		await until(() => approvalWindow() !== null, "the approval window");
		// Drawn in slices; past the first page Approve waits for the rest, or for the person to approve those lines unseen.
		await until(() => windowText().includes("… and 7 more lines of this change, not shown yet."), "the first page drawn");
		expect(addedLines()).toEqual(lines.slice(0, WINDOW_DIFF_LINES).map((line) => `+ ${line}`));
		expect(windowText()).toContain("Approve the 7 lines I have not seen too");
		expect(button("Approve").disabled).toBe(true);
		button("Approve").click();
		await settle();
		expect(approvalWindow()).not.toBeNull();
		button("Decline").click();
		expect((await call).ok).toBe(false);
	});

	test("a change past the window's first page, to a note another writer changes while it is shown, is asked again on the new text, and what is written is every line the second window draws, paged to its end", async () => {
		const content = Array.from({ length: WINDOW_DIFF_LINES + 500 }, (_, index) => `New line ${index + 1}`).join("\n");
		const call = callTool(client, "create_note", { path: "Groceries.md", content, overwrite: true });
		await until(() => approvalWindow() !== null, "the approval window");
		await until(() => windowText().includes("lines of this change are not shown yet"), "the first page drawn");
		const first = approvalWindow();
		const changedMeanwhile = `${NOTE}- eggs\n`;
		await fs.writeFile(nodePath.join(vault, "Groceries.md"), changedMeanwhile);
		// The person approves the lines they did not page to, by ticking the box that counts them.
		const unseen = approvalWindow()!.querySelector<HTMLInputElement>(".vault-mcp-approval-unseen input")!;
		unseen.checked = true;
		unseen.dispatchEvent(new Event("change"));
		await until(() => !button("Approve").disabled, "Approve, the unseen lines approved");
		button("Approve").click();
		await until(() => approvalWindow() !== null && approvalWindow() !== first, "the window asking again");
		await until(() => windowText().includes("lines of this change are not shown yet"), "the first page drawn again");
		expect(button("Approve").disabled).toBe(true);
		for (let page = 0; approvalWindow()?.querySelector(".vault-mcp-diff-more button") && page < 10; page++) {
			const more = approvalWindow()!.querySelector<HTMLButtonElement>(".vault-mcp-diff-more button")!;
			await until(() => !more.disabled, "the next page to be asked for");
			more.click();
			await until(() => !more.isConnected || !more.disabled, "the page drawn");
		}
		// Every line drawn: Approve needs no box ticked.
		await until(() => !button("Approve").disabled, "every line drawn");
		expect(approvalWindow()?.querySelector(".vault-mcp-approval-not-shown:not(.vault-mcp-hidden)")).toBeNull();
		// The note's own block (the backup of the text it replaces is a second, new note).
		const block = [...(approvalWindow()?.querySelectorAll(".vault-mcp-diff") ?? [])].find(
			(each) => each.querySelector(".vault-mcp-diff-path")?.textContent === "Groceries.md",
		);
		const drawn = [...(block?.querySelectorAll(".vault-mcp-diff-lines > div") ?? [])].map((line) => line.textContent ?? "");
		// Shown whole (5,504 lines changed, past the line-by-line match), new lines then old, paged to the last of them.
		expect(drawn[0]).toBe("Too different to match line by line: the 5500 new lines first, then the 5 old lines they replace.");
		expect(drawn.filter((line) => line.startsWith("- "))).toContain("- - eggs");
		const approvedText = drawn.filter((line) => line.startsWith("+ ")).map((line) => line.slice(2));
		button("Approve").click();
		expect((await call).ok).toBe(true);
		expect((await noteText()).replace(/\n$/, "").split("\n")).toEqual(approvedText);
		expect(await fs.readFile(nodePath.join(vault, "Groceries.md.bak"), "utf8")).toBe(changedMeanwhile);
	});

	test("an approved append whose section another writer moved while the window was open is asked again at the new place, not written there unseen", async () => {
		const sections = "# Groceries\n\n## Shopping\n- apples\n\n## Later\n- bread\n";
		await fs.writeFile(nodePath.join(vault, "Groceries.md"), sections);
		await waitForText(sections);
		const call = callTool(client, "append_to_note", { path: "Groceries.md", heading: "Shopping", content: "- milk" });
		await until(() => approvalWindow() !== null, "the approval window");
		await until(() => !button("Approve").disabled, "the change drawn");
		const first = approvalWindow();
		const shownAround = () => [...(approvalWindow()?.querySelectorAll(".vault-mcp-diff-lines > div") ?? [])].map((line) => line.textContent);
		expect(shownAround()).toEqual(expect.arrayContaining(["  - apples", "+ - milk", "  ## Later"]));
		// The same line would now land at the note's end, below "- apples" where the section went.
		const moved = "# Groceries\n\n## Later\n- bread\n\n## Shopping\n- apples\n";
		await fs.writeFile(nodePath.join(vault, "Groceries.md"), moved);
		await waitForText(moved);
		button("Approve").click();
		await Promise.race([until(() => approvalWindow() !== null && approvalWindow() !== first, "the window asking again"), call]);
		expect(await noteText()).toBe(moved);
		expect(approvalWindow()).not.toBeNull();
		await until(() => !button("Approve").disabled, "the new change drawn");
		expect(shownAround()).not.toContain("  ## Later");
		expect(shownAround()).toContain("+ - milk");
		button("Approve").click();
		expect((await call).ok).toBe(true);
		expect(await noteText()).toBe("# Groceries\n\n## Later\n- bread\n\n## Shopping\n- apples\n- milk\n");
	});

	test.each([
		["Decline", () => button("Decline").click()],
		["Escape", pressEscape],
	])("%s writes nothing and the client is told so", async (_how, decline) => {
		const call = append("- milk");
		await until(() => approvalWindow() !== null, "the approval window");
		decline();
		const outcome = await call;
		expect(outcome).toEqual({
			ok: false,
			error: "The person declined this append_to_note call. Nothing was written. Do not retry it unless they ask you to.",
		});
		expect(await noteText()).toBe(NOTE);
		expect(journalled()).toEqual([]);
		expect(approvalWindow()).toBeNull();
	});

	test.each([
		[
			"the token is revoked",
			async () => {
				const revoked = revokeToken(plugin.settings, TOKEN_NAME);
				if ("error" in revoked) throw new Error(revoked.error);
				await plugin.updateSettings({ tokens: revoked.settings.tokens });
			},
			undefined,
			REFUSED_AS_REVOKED,
		],
		[
			"the token is revoked and a new one made under its name",
			async () => {
				const revoked = revokeToken(plugin.settings, TOKEN_NAME);
				if ("error" in revoked) throw new Error(revoked.error);
				const remade = addToken(revoked.settings, TOKEN_NAME, "write", initialRights(ALL_TOOLS, "write", "settings-tab"));
				if ("error" in remade) throw new Error(remade.error);
				await plugin.updateSettings({ tokens: remade.settings.tokens });
			},
			"ask",
			REFUSED_AS_REVOKED,
		],
		["the tool is set to deny", () => plugin.setToolRight(TOKEN_NAME, "append_to_note", "deny"), "deny", NO_LONGER_ALLOWED],
		[
			"writing is switched off",
			async () => {
				await plugin.updateSettings({ writeEnabled: false });
			},
			"ask",
			NO_LONGER_ALLOWED,
		],
	] as const)(
		"when %s while the window is open, the window closes at once, nothing runs and no right is saved (it stayed open; Approve in it ran nothing, Always allow saved nothing)",
		async (_change, revoke, rightAfter, told) => {
			const call = append("- milk").catch((error: Error) => ({ ok: false, error: error.message }));
			await until(() => approvalWindow() !== null, "the approval window");
			await revoke();
			// No decision is left to the person: the call can no longer be written.
			await until(() => approvalWindow() === null, "the window to close");
			const outcome = await call;
			expect(outcome).toEqual({ ok: false, error: expect.stringContaining(told) });
			expect(await noteText()).toBe(NOTE);
			expect(journalled()).toEqual([]);
			expect(plugin.settings.tokens.find((record) => record.name === TOKEN_NAME)?.rights?.append_to_note).toBe(rightAfter);
		},
	);

	test("no decision within the limit writes nothing and closes the window", async () => {
		// The settings tab allows 10 s at least; one second here keeps the test short.
		await plugin.updateSettings({ approvalTimeoutSeconds: 1 });
		shownNotices.length = 0;
		const started = Date.now();
		const call = append("- milk");
		await until(() => approvalWindow() !== null, "the approval window");
		const outcome = await call;
		expect(outcome).toEqual({ ok: false, error: "Nobody approved append_to_note within 1 s. Nothing was written." });
		expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
		expect(approvalWindow()).toBeNull();
		expect(shownNotices).toContain(
			`Vault MCP: Append to a note for "${TOKEN_NAME}" was withdrawn (no decision in time, the app went away, or the token may no longer make it). Nothing was written.`,
		);
		expect(await noteText()).toBe(NOTE);
		expect(journalled()).toEqual([]);
	});

	test("Always allow runs the call, saves allow for this token, and the next call needs no window", async () => {
		const first = append("- milk");
		await until(() => approvalWindow() !== null, "the approval window");
		button("Always allow this tool for this token").click();
		expect((await first).ok).toBe(true);
		expect(plugin.settings.tokens.find((token) => token.name === TOKEN_NAME)?.rights?.append_to_note).toBe("allow");
		const saved = parseSettings(JSON.parse(await fs.readFile(nodePath.join(vault, ".obsidian/plugins/vault-mcp/data.json"), "utf8"))).settings;
		expect(saved.tokens[0]?.rights?.append_to_note).toBe("allow");
		// Only that tool: creating a note still asks.
		expect(saved.tokens[0]?.rights?.create_note).toBe("ask");

		expect((await append("- eggs")).ok).toBe(true);
		expect(approvalWindow()).toBeNull();
		expect(await noteText()).toBe(`${NOTE}- milk\n- eggs\n`);
		expect(journalled()).toHaveLength(2);
	});

	test("three calls wait in line: one window at a time, with a count, each answered for itself", async () => {
		const calls = new Map(["- milk", "- eggs", "- tea"].map((line) => [line, append(line)]));
		await until(() => countText() === "1 of 3 waiting for your decision", "three calls to be counted");
		const decided: string[] = [];
		for (const [expectedCount, decision] of [
			["1 of 3 waiting for your decision", "Approve"],
			["1 of 2 waiting for your decision", "Decline"],
			["", "Approve"],
		] as const) {
			await until(() => approvalWindow() !== null && countText() === expectedCount, `the window counting "${expectedCount}"`);
			expect(approvalWindows()).toHaveLength(1);
			const shownLine = addedLines()[0]?.slice(2) ?? "";
			decided.push(`${decision} ${shownLine}`);
			button(decision).click();
			await settle();
		}
		const approved = decided.filter((entry) => entry.startsWith("Approve")).map((entry) => entry.slice("Approve ".length));
		const declined = decided.filter((entry) => entry.startsWith("Decline")).map((entry) => entry.slice("Decline ".length));
		expect(new Set([...approved, ...declined])).toEqual(new Set(calls.keys()));
		for (const line of approved) expect((await calls.get(line))?.ok).toBe(true);
		for (const line of declined) expect((await calls.get(line))?.ok).toBe(false);
		const text = await noteText();
		for (const line of approved) expect(text).toContain(`${line}\n`);
		for (const line of declined) expect(text).not.toContain(line);
		expect(journalled()).toHaveLength(2);
		expect(approvalWindow()).toBeNull();
	});

	/**
	 * asks180: the revoked token's call is not the one on screen but waits in line behind another token's window. It must
	 * leave the line at once (not when the window before it is answered), never be shown, and write nothing. With the
	 * settings' withdrawal taken out of writeCall (`noLongerWritable.abort()`), the look for its answer timed out.
	 */
	test("a call waiting behind another token's window, its token revoked, is answered at once, never shown, writes nothing", async () => {
		const phone = addToken(plugin.settings, "phone", "write", initialRights(ALL_TOOLS, "write", "settings-tab"));
		if ("error" in phone) throw new Error(phone.error);
		await plugin.updateSettings({ tokens: phone.settings.tokens });
		const phoneClient = await connectClient(serverUrl(), phone.token);
		try {
			const first = append("- milk");
			await until(() => addedLines()[0] === "+ - milk", "the first token's window");
			let queuedDone = false;
			const queued = append("- eggs", phoneClient)
				.catch((error: Error) => ({ ok: false as const, error: error.message }))
				.finally(() => (queuedDone = true));
			await until(() => countText() === "1 of 2 waiting for your decision", "the second token's call in line");
			const revoked = revokeToken(plugin.settings, "phone");
			if ("error" in revoked) throw new Error(revoked.error);
			await plugin.updateSettings({ tokens: revoked.settings.tokens });
			// Answered while the first token's window is open and unanswered.
			await until(() => queuedDone, "the revoked token's call to be answered while the other window is open");
			expect(await queued).toMatchObject({ ok: false, error: expect.stringContaining(REFUSED_AS_REVOKED) });
			expect(addedLines()).toEqual(["+ - milk"]);
			expect(countText()).toBe("");
			expect(await noteText()).toBe(NOTE);
			button("Approve").click();
			expect((await first).ok).toBe(true);
			await settle();
			expect(approvalWindow()).toBeNull();
			expect(await noteText()).toBe(`${NOTE}- milk\n`);
			expect(journalled().map((entry) => entry.tool)).toEqual(["append_to_note"]);
		} finally {
			await phoneClient.close();
		}
	});

	test("a call that times out while another is shown leaves the line, and the count follows", async () => {
		await plugin.updateSettings({ approvalTimeoutSeconds: 1 });
		const first = append("- milk");
		await until(() => approvalWindow() !== null, "the first window");
		await plugin.updateSettings({ approvalTimeoutSeconds: 3 });
		const second = append("- eggs");
		await until(() => countText() === "1 of 2 waiting for your decision", "the count of two");
		// The first call's time runs out: its window closes and the second one's opens.
		expect((await first).ok).toBe(false);
		await until(() => addedLines()[0] === "+ - eggs", "the second call's window");
		expect(countText()).toBe("");
		// It took the place of a withdrawn window: it takes answers once the swap's grace is over.
		await until(() => !button("Approve").disabled, "the second window to take answers");
		button("Approve").click();
		expect((await second).ok).toBe(true);
		expect(await noteText()).toBe(`${NOTE}- eggs\n`);
	});

	test("a client that goes away takes its call out of line: its window closes and the next one shows", async () => {
		const leaving = await connectClient(serverUrl(), token);
		const gone = append("- milk", leaving);
		await until(() => addedLines()[0] === "+ - milk", "the first call's window");
		const next = append("- eggs");
		await until(() => countText() === "1 of 2 waiting for your decision", "the count of two");
		// The app quits: its connection closes with the call unanswered.
		await leaving.close();
		await expect(gone).rejects.toThrow();
		await until(() => addedLines()[0] === "+ - eggs", "the next call's window", 3000);
		expect(approvalWindows()).toHaveLength(1);
		await until(() => !button("Approve").disabled, "the next window to take answers");
		button("Approve").click();
		expect((await next).ok).toBe(true);
		expect(await noteText()).toBe(`${NOTE}- eggs\n`);
		expect(journalled().map((entry) => entry.tool)).toEqual(["append_to_note"]);
		// The server that ran the cancelled call is free again: calls keep being answered.
		expect((await callTool(client, "get_vault_status")).ok).toBe(true);
	});

	test("a write token made in the settings tab reads at once and asks before it writes", async () => {
		const tab = (plugin as unknown as { settingTabs: Array<{ containerEl: HTMLElement; display(): void }> }).settingTabs[0];
		if (!tab) throw new Error("no settings tab");
		tab.display();
		[...tab.containerEl.querySelectorAll("button")].find((candidate) => candidate.textContent === "Create token")?.click();
		const form = document.body.querySelector(".modal-container:last-child");
		const name = form?.querySelector("input");
		const level = form?.querySelector("select");
		if (!name || !level) throw new Error("no token form");
		name.value = "Cursor";
		name.dispatchEvent(new Event("input"));
		level.value = "write";
		level.dispatchEvent(new Event("change"));
		[...(form?.querySelectorAll("button") ?? [])].find((candidate) => candidate.textContent === "Create")?.click();
		await until(() => document.body.querySelector(".vault-mcp-token") !== null, "the new token to be shown");
		const made = document.body.querySelector(".vault-mcp-token")?.textContent ?? "";
		const cursor = await connectClient(serverUrl(), made);
		try {
			expect((await callTool(cursor, "read_note", { path: "Groceries.md" })).ok).toBe(true);
			expect(approvalWindow()).toBeNull();
			const call = append("- milk", cursor);
			await until(() => approvalWindow() !== null, "the approval window");
			expect(windowText()).toContain("Cursor");
			button("Decline").click();
			expect((await call).ok).toBe(false);
		} finally {
			await cursor.close();
		}
	});

	test("a notice says a call waits when Obsidian is not in front", async () => {
		jest.spyOn(activeDocument, "hasFocus").mockReturnValue(false);
		shownNotices.length = 0;
		const call = append("- milk");
		await until(() => approvalWindow() !== null, "the approval window");
		expect(shownNotices).toEqual([`Vault MCP: "${TOKEN_NAME}" asks to run Append to a note. Switch to Obsidian to approve or decline it.`]);
		button("Decline").click();
		await call;
	});

	test("no notice while Obsidian is in front", async () => {
		jest.spyOn(activeDocument, "hasFocus").mockReturnValue(true);
		shownNotices.length = 0;
		const call = append("- milk");
		await until(() => approvalWindow() !== null, "the approval window");
		expect(shownNotices).toEqual([]);
		button("Decline").click();
		await call;
	});

	test("unloading the plugin ends every waiting call and closes the window", async () => {
		const calls = [append("- milk"), append("- eggs")];
		await until(() => countText() === "1 of 2 waiting for your decision", "two waiting calls");
		const unloaded = Date.now();
		(plugin as unknown as { unload(): void }).unload();
		expect(approvalWindow()).toBeNull();
		const outcomes = await Promise.allSettled(calls);
		// Each call ends at once, never after the 120 s wait: told the server stopped, or (as it closes its
		// connections in the same moment) cut off before the answer goes out.
		expect(Date.now() - unloaded).toBeLessThan(5000);
		for (const outcome of outcomes) expect(outcome.status === "rejected" || !outcome.value.ok).toBe(true);
		expect(await noteText()).toBe(NOTE);
		expect(journalled()).toEqual([]);
	});
});
