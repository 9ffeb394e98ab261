/**
 * The approval window in Obsidian (the plugin in the host double, a real client over real HTTP)
 * under a flood from one token: the other token's window opens after at most one of the flooder's
 * (or one turn, when nobody answers), the flood past
 * the per-token bound is refused without a window, and an overwrite too different to match line
 * by line still shows its new text.
 */
import { promises as fs, readFileSync } from "node:fs";
import * as nodePath from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { initialRights } from "../../src/auth/rights";
import { addToken } from "../../src/auth/tokenList";
import { APPROVAL_TURN_MS, MAX_WAITING_APPROVALS_PER_TOKEN } from "../../src/config/limits";
import { defaultSettings, type VaultMcpSettings } from "../../src/config/settings";
import { NodeHost } from "../../src/headless/NodeHost";
import type VaultMcpPlugin from "../../src/main";
import { ALL_TOOLS } from "../../src/mcp/tools";
import { createApp, type PluginManifest } from "../double/obsidian";
import { connectClient } from "../helpers/http";
import { callTool, type CallOutcome } from "../helpers/tools";
import { makeVault, removeDir } from "../helpers/vault";

const manifest = JSON.parse(readFileSync(nodePath.resolve(__dirname, "../../manifest.json"), "utf8")) as PluginManifest;
const NOTE = "# Inbox\n";
/** How long the person reads a window before clicking: in arrival order the other token's would open after the flooder's 20 (12 s). */
const READING_MS = 600;
/** Twice the calls one token may have waiting: the second half is refused. */
const FLOOD = 2 * MAX_WAITING_APPROVALS_PER_TOKEN;
/**
 * How long the test waits for a window that should open after a turn (APPROVAL_TURN_MS, 5 s): 5-8 s here and at
 * loads of 12-20, which is under a fifth of this; without turns it opens when the flooder's call runs out of time
 * (DEFAULT_APPROVAL_TIMEOUT_SECONDS, 120 s), three times this.
 */
const TURN_DEADLINE_MS = 40_000;
const BIG_BEFORE = Array.from({ length: 1_100 }, (_, index) => `old ${index} ${"o".repeat(index % 7)}`).join("\n");

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
async function until(condition: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
	for (const started = Date.now(); !condition(); await sleep(20)) {
		if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
	}
}
const approvalWindow = () => document.body.querySelector<HTMLElement>(".vault-mcp-approval");
const askingToken = () => approvalWindow()?.querySelector(".vault-mcp-approval-token")?.textContent ?? null;
/** Until Approve takes clicks: the change is worked out and drawn in slices, and Approve waits for the last of them. */
const wholeChangeDrawn = () =>
	until(
		() => [...(approvalWindow()?.querySelectorAll("button") ?? [])].find((candidate) => candidate.textContent === "Approve")?.disabled === false,
		"the whole change drawn",
	);
function click(text: string): void {
	const found = [...(approvalWindow()?.querySelectorAll("button") ?? [])].find((candidate) => candidate.textContent === text);
	if (!found) throw new Error(`no button "${text}"`);
	found.click();
}

describe("the approval window under a flood from one token (plugin in the host double, real HTTP)", () => {
	let vault: string;
	let host: NodeHost;
	let plugin: VaultMcpPlugin;
	const clients: Record<string, Client> = {};

	beforeEach(async () => {
		vault = await makeVault({ "Inbox.md": NOTE, "Big.md": BIG_BEFORE });
		let settings: VaultMcpSettings = {
			...defaultSettings(),
			port: 0,
			serverEnabled: true,
			disclosureAccepted: true,
			writeEnabled: true,
			writeDisclosureAccepted: true,
			rateLimitPerMinute: 100_000,
		};
		const tokens: Record<string, string> = {};
		for (const name of ["flooder", "desktop"]) {
			const made = addToken(settings, name, "write", initialRights(ALL_TOOLS, "write", "settings-tab"));
			if ("error" in made) throw new Error(made.error);
			settings = made.settings;
			tokens[name] = made.token;
		}
		await fs.mkdir(nodePath.join(vault, ".obsidian/plugins/vault-mcp"), { recursive: true });
		await fs.writeFile(nodePath.join(vault, ".obsidian/plugins/vault-mcp/data.json"), JSON.stringify(settings));
		host = await NodeHost.open(vault);
		const PluginClass = (await import("../../src/main")).default;
		plugin = new PluginClass(createApp(host) as never, manifest);
		await (plugin as unknown as { load(): Promise<void> }).load();
		await until(() => plugin.service.status.state === "listening", "the server to listen");
		const status = plugin.service.status;
		if (status.state !== "listening") throw new Error("not listening");
		for (const name of ["flooder", "desktop"]) clients[name] = await connectClient(status.url, tokens[name] ?? "");
	});

	afterEach(async () => {
		for (const client of Object.values(clients)) await client.close();
		(plugin as unknown as { unload(): void }).unload();
		await plugin.service.stop();
		document.body.empty();
		await host.close();
		await removeDir(vault);
	});

	test(`the desktop's window opens after at most one of the flooder's while another token has ${FLOOD} Ask calls in; the flood past the bound gets no window and writes nothing`, async () => {
		const outcomes: CallOutcome[] = [];
		const flood = Array.from({ length: FLOOD }, (_, index) =>
			callTool(clients.flooder as Client, "append_to_note", { path: "Inbox", content: `flood ${index}` })
				// Turned away by the HTTP layer (the token's places in flight busy while the others plan): that too writes nothing.
				.catch((error: unknown): CallOutcome => ({ ok: false, error: String(error) }))
				.then((outcome) => outcomes.push(outcome)),
		);
		const boundRefusal = new RegExp(`${MAX_WAITING_APPROVALS_PER_TOKEN} calls of this token already wait.*Nothing was written`, "s");
		await until(() => outcomes.some((outcome) => !outcome.ok && boundRefusal.test(outcome.error)), "the first refusal for the bound");
		await until(
			() =>
				approvalWindow()?.querySelector(".vault-mcp-approval-count")?.textContent ===
				`1 of ${MAX_WAITING_APPROVALS_PER_TOKEN} waiting for your decision`,
			"the flooder's line to be full",
		);

		const sent = Date.now();
		const desktopCall = callTool(clients.desktop as Client, "append_to_note", { path: "Inbox", content: "from the desktop" });
		// Counted, not timed: in arrival order the flooder's 20 windows would all open first.
		const windowsSeen: string[] = [];
		let desktopShown = false;
		while (!desktopShown && Date.now() - sent < 30_000) {
			const token = askingToken();
			if (token === null) {
				await sleep(20);
				continue;
			}
			windowsSeen.push(token);
			if (token === "desktop") {
				desktopShown = true;
				break;
			}
			const clicked = approvalWindow();
			await sleep(READING_MS);
			click("Decline");
			await until(() => approvalWindow() !== clicked, "the declined window to close");
		}
		expect(desktopShown).toBe(true);
		expect(windowsSeen.filter((token) => token === "flooder").length).toBeLessThanOrEqual(1);
		await wholeChangeDrawn();
		click("Approve");
		expect(await desktopCall).toMatchObject({ ok: true });
		// Unloading declines every call still waiting.
		(plugin as unknown as { unload(): void }).unload();
		await Promise.all(flood);
		expect(outcomes.filter((outcome) => outcome.ok)).toEqual([]);
		const text = await fs.readFile(nodePath.join(vault, "Inbox.md"), "utf8");
		expect(text).toContain("from the desktop");
		expect(text).not.toContain("flood");
	}, 60_000);

	test("nobody answers the flood: the desktop's window still opens, after a turn, long before the flooder's call runs out of time (the untouched window gives way), its buttons wait a moment, then answer it", async () => {
		const outcomes: CallOutcome[] = [];
		const flood = Array.from({ length: FLOOD }, (_, index) =>
			callTool(clients.flooder as Client, "append_to_note", { path: "Inbox", content: `flood ${index}` })
				.catch((error: unknown): CallOutcome => ({ ok: false, error: String(error) }))
				.then((outcome) => (outcomes.push(outcome), outcome)),
		);
		await until(
			() =>
				approvalWindow()?.querySelector(".vault-mcp-approval-count")?.textContent ===
				`1 of ${MAX_WAITING_APPROVALS_PER_TOKEN} waiting for your decision`,
			"the flooder's line to be full",
		);
		const sent = Date.now();
		const desktopCall = callTool(clients.desktop as Client, "append_to_note", { path: "Inbox", content: "from the desktop" });
		// Without turns it opens when the flooder's shown call times out: past this deadline (see TURN_DEADLINE_MS).
		await until(() => askingToken() === "desktop", "the desktop's window", TURN_DEADLINE_MS);
		// A lower bound, safe on a busy machine: the flooder's window had its whole turn first.
		expect(Date.now() - sent).toBeGreaterThanOrEqual(APPROVAL_TURN_MS);
		// It gave way unanswered: the flood's calls in line (MAX_WAITING_APPROVALS_PER_TOKEN of them) all still wait.
		expect(outcomes.length).toBeLessThanOrEqual(FLOOD - MAX_WAITING_APPROVALS_PER_TOKEN);
		expect(document.body.querySelectorAll(".vault-mcp-approval")).toHaveLength(1);
		// A click meant for the window that just left does not land on this one.
		const approve = () => [...(approvalWindow()?.querySelectorAll("button") ?? [])].find((candidate) => candidate.textContent === "Approve");
		expect(approve()?.disabled).toBe(true);
		await until(() => approve()?.disabled === false, "the buttons to take clicks", 5_000);
		click("Approve");
		expect(await desktopCall).toMatchObject({ ok: true });
		(plugin as unknown as { unload(): void }).unload();
		expect((await Promise.all(flood)).filter((outcome) => outcome.ok)).toEqual([]);
		const text = await fs.readFile(nodePath.join(vault, "Inbox.md"), "utf8");
		expect(text).toContain("from the desktop");
		expect(text).not.toContain("flood");
	}, 90_000);

	test("an overwrite of a 1,100-line note too different to match line by line shows the new text first, not a line count", async () => {
		const after = Array.from({ length: 1_100 }, (_, index) => `new ${index} ${"n".repeat(index % 5)}`).join("\n");
		const call = callTool(clients.desktop as Client, "create_note", { path: "Big.md", content: after, overwrite: true });
		await until(() => approvalWindow() !== null, "the approval window");
		await wholeChangeDrawn();
		// The overwrite also creates Big.md.bak (the old text): the note itself is its own block.
		const blocks = [...(approvalWindow()?.querySelectorAll<HTMLElement>(".vault-mcp-diff") ?? [])];
		expect(blocks.map((block) => block.querySelector(".vault-mcp-diff-path")?.textContent)).toEqual(
			expect.arrayContaining(["Big.md", "Big.md.bak (new note)"]),
		);
		const note = blocks.find((block) => block.querySelector(".vault-mcp-diff-path")?.textContent === "Big.md");
		const added = [...(note?.querySelectorAll(".vault-mcp-diff-added") ?? [])].map((line) => line.textContent);
		expect(added).toEqual(after.split("\n").map((line) => `+ ${line}`));
		expect(note?.textContent).toContain("Too different to match line by line: the 1100 new lines first, then the 1100 old lines they replace.");
		click("Decline");
		expect((await call).ok).toBe(false);
		expect(await fs.readFile(nodePath.join(vault, "Big.md"), "utf8")).toBe(BIG_BEFORE);
	}, 30_000);
});
