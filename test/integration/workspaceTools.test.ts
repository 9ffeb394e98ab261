import * as nodePath from "node:path";
import { readFileSync } from "node:fs";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { z } from "zod";
import { addToken, revokeToken, withToolRight } from "../../src/auth/tokenList";
import { MAX_NOTE_CONTENT_BYTES } from "../../src/config/limits";
import { NodeHost } from "../../src/headless/NodeHost";
import VaultMcpPlugin from "../../src/main";
import { ALL_TOOLS } from "../../src/mcp/tools";
import { actBetweenPieces } from "../helpers/betweenPieces";
import { createApp, type App, type PluginManifest } from "../double/obsidian";
import { connectClient } from "../helpers/http";
import { callError, callOk, callTool } from "../helpers/tools";
import { makeVault, removeDir } from "../helpers/vault";

const manifest = JSON.parse(readFileSync(nodePath.resolve(__dirname, "../../manifest.json"), "utf8")) as PluginManifest;

/** open_note and get_active_note: the plugin loaded into the host double, whose workspace models Obsidian's tabs. */
describe("tools of Obsidian's window, inside the plugin", () => {
	let vault: string;
	let host: NodeHost;
	let app: App;
	let plugin: VaultMcpPlugin;
	let client: Client;
	let url: string;

	beforeAll(async () => {
		vault = await makeVault({
			"Welcome.md": "# Welcome\n\n## Start here\n\nHello.\n",
			"Plans/Garden.md": "# Beds\n",
			"Private/Diary.md": "secret\n",
			// Made outside Obsidian: as link text, "Work#1/Plan.md" is the note "Work" at heading "1/Plan.md".
			"Work#1/Plan.md": "# Steps\n",
			"Private/Work.md": "hidden work\n",
			"Plans/Moving.md": "# Moving\n",
			"Plans/Steps.md": "# Steps\n\n## First\n\n## Last\n",
		});
		host = await NodeHost.open(vault);
		app = createApp(host);
		plugin = new VaultMcpPlugin(app as never, manifest);
		await (plugin as unknown as { load(): Promise<void> }).load();
		await new Promise((resolve) => setImmediate(resolve));
		const made = addToken(plugin.settings, "reader", "read");
		if ("error" in made) throw new Error(made.error);
		await plugin.updateSettings({ tokens: made.settings.tokens, excludedFolders: ["Private"] });
		const status = await plugin.updateSettings({ disclosureAccepted: true, serverEnabled: true, port: 0 });
		if (status.state !== "listening") throw new Error(JSON.stringify(status));
		url = status.url;
		client = await connectClient(url, made.token);
	});
	afterAll(async () => {
		await client.close();
		(plugin as unknown as { unload(): void }).unload();
		await plugin.service.stop();
		await host.close();
		await removeDir(vault);
	});

	test("both are listed inside Obsidian, and every example succeeds with a result its output schema accepts", async () => {
		const listed = (await client.listTools()).tools.map((tool) => tool.name);
		app.workspace.focus(-1);
		await app.workspace.openLinkText("Welcome.md", "", "tab");
		for (const tool of ALL_TOOLS.filter((entry) => entry.needs === "workspace")) {
			expect(listed).toContain(tool.name);
			for (const example of tool.examples) {
				const outcome = await callTool(client, tool.name, example);
				expect(outcome).toMatchObject({ ok: true });
				if (outcome.ok) expect(z.object(tool.outputSchema).strict().safeParse(outcome.value).error).toBeUndefined();
			}
		}
	});

	test("open_note opens the note in a new tab, at the heading as the note writes it, and focuses it", async () => {
		const before = app.workspace.tabs.length;
		expect(await callOk(client, "open_note", { path: "Garden" })).toEqual({ path: "Plans/Garden.md" });
		expect(await callOk(client, "open_note", { path: "Welcome", heading: "start HERE" })).toEqual({ path: "Welcome.md", heading: "Start here" });
		expect(app.workspace.tabs.slice(before)).toEqual([
			{ path: "Plans/Garden.md", subpath: "" },
			{ path: "Welcome.md", subpath: "#Start here" },
		]);
		expect(app.workspace.getActiveFile()?.path).toBe("Welcome.md");
	});

	test("open_note opens the very file found, even with # in its path: never the note the path reads as a link to (here an excluded one)", async () => {
		const before = app.workspace.tabs.length;
		expect(await callOk(client, "open_note", { path: "Plan" })).toEqual({ path: "Work#1/Plan.md" });
		expect(await callOk(client, "open_note", { path: "Plan", heading: "Steps" })).toEqual({ path: "Work#1/Plan.md", heading: "Steps" });
		expect(app.workspace.tabs.slice(before)).toEqual([
			{ path: "Work#1/Plan.md", subpath: "" },
			{ path: "Work#1/Plan.md", subpath: "#Steps" },
		]);
		expect(app.workspace.getActiveFile()?.path).toBe("Work#1/Plan.md");
	});

	test("open_note with a heading the note lacks, or a note this token may not see, opens nothing", async () => {
		const before = app.workspace.tabs.length;
		expect(await callError(client, "open_note", { path: "Welcome", heading: "Nope" })).toBe(
			'No heading "Nope" in "Welcome.md". Its headings: # Welcome (line 0); ## Start here (line 2). Nothing was opened.',
		);
		expect(await callError(client, "open_note", { path: "Private/Diary" })).toContain('No note "Private/Diary"');
		expect(app.workspace.tabs.length).toBe(before);
	});

	test("open_note of a note the person moves into an excluded folder while its tab opens answers as for a note not there, never naming where it went (it named it)", async () => {
		const getLeaf = app.workspace.getLeaf.bind(app.workspace);
		// Obsidian renames the very file object it handed out: the move lands while the tab is being opened.
		const moving = jest.spyOn(app.workspace, "getLeaf").mockImplementation((newLeaf) => {
			const leaf = getLeaf(newLeaf);
			return {
				openFile: async (file, openState) => {
					await host.vault.rename(file, "Private/Moved away.md");
					await leaf.openFile(file, openState);
				},
			};
		});
		let error: string;
		try {
			error = await callError(client, "open_note", { path: "Plans/Moving.md" });
		} finally {
			moving.mockRestore();
		}
		// The answer the same call gets now that the note is gone from where it was asked for.
		expect(error).toBe(await callError(client, "open_note", { path: "Plans/Moving.md" }));
		expect(error).not.toContain("Private");
	});

	test("get_active_note gives the focused note and its selection; an excluded note or none at all answer alike", async () => {
		await app.workspace.openLinkText("Plans/Garden.md", "", "tab");
		expect(await callOk(client, "get_active_note")).toEqual({ path: "Plans/Garden.md" });
		app.workspace.focus(app.workspace.tabs.length - 1, "Beds");
		expect(await callOk(client, "get_active_note")).toEqual({ path: "Plans/Garden.md", selection: "Beds" });
		// A selection of a million line breaks is 2 MB as JSON: cut at the bound, and said (it was cut silently).
		app.workspace.focus(app.workspace.tabs.length - 1, "\n".repeat(1_000_000));
		const cut = await callOk<{ selection: string; truncated?: boolean }>(client, "get_active_note");
		expect(cut.truncated).toBe(true);
		expect(cut.selection).toBe("\n".repeat(MAX_NOTE_CONTENT_BYTES / 2));
		// The person opens an excluded note themselves: the client learns nothing about it.
		await app.workspace.openLinkText("Private/Diary.md", "", "tab");
		const excluded = await callError(client, "get_active_note");
		app.workspace.focus(-1);
		expect(await callError(client, "get_active_note")).toBe(excluded);
		expect(excluded).not.toContain("Diary");
	});

	test.each([
		["revoked", (name: string) => revokeToken(plugin.settings, name)],
		["set to Deny for open_note", (name: string) => ({ settings: withToolRight(plugin.settings, name, "open_note", "deny", ALL_TOOLS) })],
	])("open_note of a token %s while it looks through the note's headings opens no tab (one was opened for it)", async (what, takeAway) => {
		const made = addToken(plugin.settings, `opener ${what}`, "read");
		if ("error" in made) throw new Error(made.error);
		await plugin.updateSettings({ tokens: made.settings.tokens });
		const opener = await connectClient(url, made.token);
		// The person takes the right away while the call looks through the note's headings (after their first run of steps).
		const takingAway = actBetweenPieces(async () => {
			const changed = takeAway(`opener ${what}`);
			if ("error" in changed) throw new Error(changed.error);
			await plugin.updateSettings({ tokens: changed.settings.tokens });
		});
		const before = app.workspace.tabs.length;
		try {
			// Refused, its answer withheld or the token refused at the HTTP door: whichever, nothing opened.
			const outcome = await callTool(opener, "open_note", { path: "Plans/Steps", heading: "Last" }).catch((error: unknown) => ({
				ok: false as const,
				error: String(error),
			}));
			expect(takingAway.acted()).toBe(true);
			expect(outcome.ok).toBe(false);
		} finally {
			takingAway.restore();
			await opener.close();
		}
		expect(app.workspace.tabs.length).toBe(before);
	});
});
