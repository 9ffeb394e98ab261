/**
 * The settings tab's "Rights per tool" dropdowns and Activity list, and the undo command, clicked
 * through in the host double against the plugin's real HTTP server and the real SDK client.
 */
import { promises as fs, readFileSync } from "node:fs";
import * as nodePath from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { initialRights } from "../../src/auth/rights";
import { addToken } from "../../src/auth/tokenList";
import { defaultSettings } from "../../src/config/settings";
import { NodeHost } from "../../src/headless/NodeHost";
import VaultMcpPlugin from "../../src/main";
import { ALL_TOOLS } from "../../src/mcp/tools";
import { createApp, shownNotices, type PluginManifest, type Workspace } from "../double/obsidian";
import { connectClient } from "../helpers/http";
import { makeVault, removeDir } from "../helpers/vault";
import { anyAnswerOf } from "../helpers/tools";
import { settle, until, openModal, clickModalButton, closeModals } from "../helpers/dom";

const manifest = JSON.parse(readFileSync(nodePath.resolve(__dirname, "../../manifest.json"), "utf8")) as PluginManifest;
/** CRLF line ends and non-ASCII text: undo must give back these exact bytes. */
const NOTE_BYTES = "# Café\r\nZeile mit Umlaut: äöü — 漢字\r\n";

describe("rights per tool, the Activity list and undo, in the settings tab", () => {
	let vault: string;
	let host: NodeHost;
	let plugin: VaultMcpPlugin;
	let clients: Client[];

	beforeEach(async () => {
		vault = await makeVault({ "Note.md": NOTE_BYTES, "Other.md": "other\n" });
		const dataDir = nodePath.join(vault, ".obsidian/plugins/vault-mcp");
		await fs.mkdir(dataDir, { recursive: true });
		await fs.writeFile(
			nodePath.join(dataDir, "data.json"),
			JSON.stringify({ ...defaultSettings(), port: 0, serverEnabled: true, disclosureAccepted: true, writeEnabled: true, writeDisclosureAccepted: true }),
		);
		host = await NodeHost.open(vault);
		plugin = new VaultMcpPlugin(createApp(host) as never, manifest);
		await (plugin as unknown as { load(): Promise<void> }).load();
		await until(() => plugin.service.status.state === "listening");
		clients = [];
		shownNotices.length = 0;
	});

	afterEach(async () => {
		for (const client of clients) await client.close();
		(plugin as unknown as { unload(): void }).unload();
		await plugin.service.stop();
		document.body.empty();
		await host.close();
		await removeDir(vault);
	});

	function url(): string {
		const status = plugin.service.status;
		if (status.state !== "listening") throw new Error(`not listening: ${JSON.stringify(status)}`);
		return status.url;
	}

	async function client(token: string): Promise<Client> {
		const made = await connectClient(url(), token);
		clients.push(made);
		return made;
	}

	/** A write token whose every tool runs at once, as `token new --level write` makes it. */
	async function writerToken(name = "Laptop"): Promise<string> {
		const made = addToken(plugin.settings, name, "write", initialRights(ALL_TOOLS, "write", "cli"));
		if ("error" in made) throw new Error(made.error);
		await plugin.updateSettings({ tokens: made.settings.tokens });
		return made.token;
	}

	/** The settings tab, rendered afresh. */
	function tab(): HTMLElement {
		const settingTab = (plugin as unknown as { settingTabs: Array<{ containerEl: HTMLElement; display(): void }> }).settingTabs[0];
		if (!settingTab) throw new Error("no settings tab");
		settingTab.display();
		return settingTab.containerEl;
	}

	/** The "Rights per tool" section under a token, and its dropdown for a tool. */
	function rights(container: HTMLElement, tokenName: string) {
		const tokenRow = [...container.querySelectorAll<HTMLElement>(".setting-item")].find(
			(el) => el.querySelector(".setting-item-name")?.textContent === tokenName,
		);
		// The token's rows follow its own: its folders, then its rights section.
		let section = tokenRow?.nextElementSibling;
		while (
			section instanceof HTMLElement &&
			section.tagName !== "DETAILS" &&
			section.querySelector(".setting-item-name")?.textContent === `Folders of ${tokenName}`
		)
			section = section.nextElementSibling;
		if (!(section instanceof HTMLElement) || section.tagName !== "DETAILS") throw new Error(`no rights section under "${tokenName}"`);
		const row = (tool: string) => {
			const found = [...section.querySelectorAll<HTMLElement>(".setting-item")].find(
				(el) => el.querySelector(".setting-item-name")?.textContent === tool,
			);
			if (!found) throw new Error(`no row for ${tool}`);
			return found;
		};
		const select = (tool: string) => row(tool).querySelector("select") as HTMLSelectElement;
		return {
			section,
			row,
			select,
			options: (tool: string) => [...select(tool).options].map((option) => option.textContent),
			choose: (tool: string, value: string) => {
				select(tool).value = value;
				select(tool).dispatchEvent(new Event("change"));
			},
		};
	}

	/** The Activity list's rows, newest first. */
	function changeRows(container: HTMLElement): HTMLElement[] {
		return [...container.querySelectorAll<HTMLElement>(".vault-mcp-changes .setting-item")];
	}

	function rowButton(row: HTMLElement, text: string): HTMLButtonElement {
		const button = [...row.querySelectorAll("button")].find((entry) => entry.textContent === text);
		if (!button) throw new Error(`no button "${text}" in ${row.textContent ?? ""}`);
		return button;
	}

	const toolNames = async (connected: Client) => (await connected.listTools()).tools.map((tool) => tool.name);
	const undoCommand = () => (plugin as unknown as { commands: Map<string, { callback(): void }> }).commands.get("undo-last-change");

	test("a token made in the tab starts read Allow / write Ask; a dropdown set to Deny removes the tool from a live client's tools/list", async () => {
		const container = tab();
		[...container.querySelectorAll("button")].find((button) => button.textContent === "Create token")?.click();
		const input = openModal()?.querySelector("input");
		if (!input) throw new Error("no name field");
		input.value = "Desk";
		input.dispatchEvent(new Event("input"));
		const level = openModal()?.querySelector("select") as HTMLSelectElement;
		level.value = "write";
		level.dispatchEvent(new Event("change"));
		clickModalButton("Create");
		await until(() => openModal()?.querySelector(".vault-mcp-token") != null);
		const token = openModal()?.querySelector(".vault-mcp-token")?.textContent ?? "";
		closeModals();

		const desk = rights(tab(), "Desk");
		expect(desk.section.hasAttribute("open")).toBe(false);
		const readCount = ALL_TOOLS.filter((tool) => tool.access === "read").length;
		const writeCount = ALL_TOOLS.length - readCount;
		expect(desk.section.querySelector("summary")?.textContent).toBe(`Rights per tool (${readCount} allow · ${writeCount} ask)`);
		expect(desk.select("read_note").value).toBe("allow");
		expect(desk.options("read_note")).toEqual(["Allow", "Deny"]);
		expect(desk.select("append_to_note").value).toBe("ask");
		expect(desk.options("append_to_note")).toEqual(["Allow", "Ask", "Deny"]);
		expect(desk.select("append_to_note").disabled).toBe(false);
		expect(plugin.settings.tokens.find((record) => record.name === "Desk")?.rights).toMatchObject({ read_note: "allow", create_note: "ask" });

		const connected = await client(token);
		expect(await toolNames(connected)).toEqual(expect.arrayContaining(["read_note", "search_notes", "append_to_note"]));

		// Several changes in quick succession, as a person going down the list: each is saved, none lost or half-written.
		const writeTools = ALL_TOOLS.filter((tool) => tool.access === "write").map((tool) => tool.name);
		desk.choose("read_note", "deny");
		for (const name of writeTools) desk.choose(name, "deny");
		await until(async () => (await toolNames(connected)).every((name) => !writeTools.includes(name)));
		// The same client, next request: the tools are gone, and calling one answers like an unknown tool.
		const listed = await toolNames(connected);
		expect(listed).not.toContain("read_note");
		for (const name of writeTools) expect(listed).not.toContain(name);
		expect(listed).toContain("search_notes");
		const refused = await anyAnswerOf(connected, "read_note", { path: "Note.md" });
		const unknown = await anyAnswerOf(connected, "no_such_tool", { path: "Note.md" });
		expect(JSON.stringify(refused)).toBe(JSON.stringify(unknown).replaceAll("no_such_tool", "read_note"));
		expect(JSON.stringify(refused)).not.toContain("Umlaut");
		// data.json is written in the background, one write after another; the last one holds every change.
		const deskRights = async () => {
			try {
				const saved = JSON.parse(await fs.readFile(nodePath.join(vault, ".obsidian/plugins/vault-mcp/data.json"), "utf8")) as {
					tokens: Array<{ name: string; rights: Record<string, string> }>;
				};
				return saved.tokens.find((record) => record.name === "Desk")?.rights;
			} catch {
				return undefined;
			}
		};
		const expected = {
			...Object.fromEntries(ALL_TOOLS.map((tool) => [tool.name, "allow"])),
			read_note: "deny",
			...Object.fromEntries(writeTools.map((name) => [name, "deny"])),
		};
		let onDisk: Record<string, string> | undefined;
		await until(async () => JSON.stringify((onDisk = await deskRights())) === JSON.stringify(expected));
		expect(onDisk).toEqual(expected);
		expect(desk.section.querySelector("summary")?.textContent).toBe(`Rights per tool (${readCount - 1} allow · ${writeCount + 1} deny)`);

		// Back to Allow: the tool returns.
		rights(tab(), "Desk").choose("read_note", "allow");
		await until(async () => (await toolNames(connected)).includes("read_note"));
		expect(await toolNames(connected)).toContain("read_note");
	});

	test("write tools show as unavailable, with the reason, for a read token and while writing is off", async () => {
		const made = addToken(plugin.settings, "Reader", "read", initialRights(ALL_TOOLS, "read", "settings-tab"));
		if ("error" in made) throw new Error(made.error);
		await plugin.updateSettings({ tokens: made.settings.tokens });
		await writerToken("Writer");

		const reader = rights(tab(), "Reader");
		expect(reader.select("create_note").disabled).toBe(true);
		expect(reader.select("create_note").value).toBe("deny");
		expect(reader.row("create_note").textContent).toContain("this token may only read");
		expect(reader.select("read_note").disabled).toBe(false);

		expect(rights(tab(), "Writer").select("create_note").value).toBe("allow");
		await plugin.updateSettings({ writeEnabled: false });
		const writer = rights(tab(), "Writer");
		expect(writer.select("create_note").disabled).toBe(true);
		expect(writer.select("create_note").value).toBe("deny");
		expect(writer.row("create_note").textContent).toContain("Unavailable while writing is switched off");
		// What was set is kept for when writing is switched on again.
		await plugin.updateSettings({ writeEnabled: true });
		expect(rights(tab(), "Writer").select("create_note").value).toBe("allow");
	});

	test("Activity lists a client's write with a link to the note; Show change draws its diff; Undo gives back the exact bytes", async () => {
		const connected = await client(await writerToken());
		const appended = await connected.callTool({ name: "append_to_note", arguments: { path: "Note.md", content: "Added by the app" } });
		expect(appended.isError).toBeFalsy();
		const changed = await fs.readFile(nodePath.join(vault, "Note.md"), "utf8");
		expect(changed).toContain("Added by the app");

		const [row] = changeRows(tab());
		if (!row) throw new Error("no activity row");
		expect(row.querySelector(".setting-item-name")?.textContent).toBe("append_to_note by Laptop");
		const link = row.querySelector<HTMLAnchorElement>("a.vault-mcp-note-link");
		expect(link?.textContent).toBe("Note.md");
		link?.click();
		await until(() => (plugin.app.workspace as unknown as Workspace).tabs.length > 0);
		expect((plugin.app.workspace as unknown as Workspace).tabs.at(-1)?.path).toBe("Note.md");

		rowButton(row, "Show change").click();
		// Worked out and drawn in slices.
		await until(() => (openModal()?.querySelectorAll(".vault-mcp-diff-added").length ?? 0) > 0);
		const lines = [...(openModal()?.querySelectorAll(".vault-mcp-diff-added") ?? [])].map((el) => el.textContent);
		expect(openModal()?.querySelector(".modal-title")?.textContent).toBe("append_to_note by Laptop");
		expect(lines.some((line) => line?.includes("Added by the app"))).toBe(true);
		expect(openModal()?.textContent).toContain("Zeile mit Umlaut");
		closeModals();

		rowButton(row, "Undo").click();
		expect(openModal()?.textContent).toContain('"Note.md"');
		clickModalButton("Undo");
		await until(() => shownNotices.some((notice) => notice.includes("undid")));
		expect(await fs.readFile(nodePath.join(vault, "Note.md"))).toEqual(Buffer.from(NOTE_BYTES, "utf8"));
		expect(shownNotices.at(-1)).toBe('Vault MCP undid append_to_note by Laptop: restored "Note.md".');

		// The list was drawn again: the undo on top, the call below it marked undone and not undoable twice.
		const [undoRow, undoneRow] = changeRows(tab());
		expect(undoRow?.querySelector(".setting-item-name")?.textContent).toBe("undo by you");
		expect(undoneRow?.textContent).toContain("undone");
		expect(undoneRow && rowButton(undoneRow, "Undone").disabled).toBe(true);
	});

	test("a change an app makes while the tab is open appears in the list without reopening the tab", async () => {
		const connected = await client(await writerToken());
		const container = tab();
		expect(container.querySelector(".vault-mcp-changes")?.textContent).toBe("No changes yet.");
		await connected.callTool({ name: "create_note", arguments: { path: "Later.md", content: "Written while you watched" } });
		await until(() => changeRows(container).length === 1);
		expect(changeRows(container)[0]?.querySelector(".setting-item-name")?.textContent).toBe("create_note by Laptop");
		expect(changeRows(container)[0]?.querySelector("a.vault-mcp-note-link")?.textContent).toBe("Later.md");
	});

	test("a note whose name holds a bidi override is listed, asked about and reported with the override drawn as its code, and its link still opens it", async () => {
		// "Pay\u202Egpj.md" draws as "Paydm.jpg" read right to left: the list must show what the name is.
		const planted = "Pay\u202Egpj.md";
		const connected = await client(await writerToken());
		expect((await connected.callTool({ name: "create_note", arguments: { path: planted, content: "planted" } })).isError).toBeFalsy();
		const plantedBytes = await fs.readFile(nodePath.join(vault, planted), "utf8");
		expect((await connected.callTool({ name: "append_to_note", arguments: { path: planted, content: "Added by the app" } })).isError).toBeFalsy();

		const [row] = changeRows(tab());
		if (!row) throw new Error("no activity row");
		const link = row.querySelector<HTMLAnchorElement>("a.vault-mcp-note-link");
		expect(link?.textContent).toBe("Pay\\u{202e}gpj.md");
		link?.click();
		await until(() => (plugin.app.workspace as unknown as Workspace).tabs.length > 0);
		expect((plugin.app.workspace as unknown as Workspace).tabs.at(-1)?.path).toBe(planted);

		rowButton(row, "Undo").click();
		expect(openModal()?.textContent).toContain('"Pay\\u{202e}gpj.md"');
		expect(openModal()?.textContent).not.toContain("\u202E");
		clickModalButton("Undo");
		await until(() => shownNotices.some((notice) => notice.includes("undid")));
		expect(shownNotices.at(-1)).toBe('Vault MCP undid append_to_note by Laptop: restored "Pay\\u{202e}gpj.md".');
		expect(await fs.readFile(nodePath.join(vault, planted), "utf8")).toBe(plantedBytes);
	});

	test("Undo after an outside edit leaves the edit and saves the earlier text as a conflict copy", async () => {
		const connected = await client(await writerToken());
		await connected.callTool({ name: "append_to_note", arguments: { path: "Note.md", content: "Added by the app" } });
		const edited = `${await fs.readFile(nodePath.join(vault, "Note.md"), "utf8")}My own line\r\n`;
		await fs.writeFile(nodePath.join(vault, "Note.md"), edited);

		const [row] = changeRows(tab());
		if (!row) throw new Error("no activity row");
		rowButton(row, "Undo").click();
		clickModalButton("Undo");
		await until(() => shownNotices.some((notice) => notice.includes("undid")));

		expect(await fs.readFile(nodePath.join(vault, "Note.md"), "utf8")).toBe(edited);
		const copy = /saved as "([^"]+)"/.exec(shownNotices.at(-1) ?? "")?.[1];
		expect(shownNotices.at(-1)).toContain('"Note.md" had changed since, so it was left as it is');
		expect(copy).toMatch(/^Note \(before append_to_note \d{4}-\d\d-\d\d \d\d-\d\d\)\.md$/);
		expect(await fs.readFile(nodePath.join(vault, copy ?? ""))).toEqual(Buffer.from(NOTE_BYTES, "utf8"));
	});

	test("the undo command undoes the newest change, then the one before, then says there is nothing to undo", async () => {
		undoCommand()?.callback();
		expect(openModal()).toBeNull();
		expect(shownNotices.at(-1)).toBe("Nothing to undo: no change an app made is waiting to be undone.");

		const connected = await client(await writerToken());
		expect((await connected.callTool({ name: "create_note", arguments: { path: "New.md", content: "Brand new" } })).isError).toBeFalsy();
		expect((await connected.callTool({ name: "append_to_note", arguments: { path: "Note.md", content: "Added by the app" } })).isError).toBeFalsy();
		const created = await fs.readFile(nodePath.join(vault, "New.md"), "utf8");
		expect(created).toContain("Brand new");

		undoCommand()?.callback();
		expect(openModal()?.querySelector(".modal-title")?.textContent).toBe("Undo append_to_note by Laptop?");
		clickModalButton("Undo");
		await until(() => shownNotices.at(-1)?.includes("undid") === true);
		expect(await fs.readFile(nodePath.join(vault, "Note.md"))).toEqual(Buffer.from(NOTE_BYTES, "utf8"));
		expect(await fs.readFile(nodePath.join(vault, "New.md"), "utf8")).toBe(created);

		// Cancel changes nothing.
		undoCommand()?.callback();
		clickModalButton("Cancel");
		await settle();
		expect(openModal()).toBeNull();
		expect(await fs.readFile(nodePath.join(vault, "New.md"), "utf8")).toBe(created);

		// Again: the person's own undo is passed over, and the note the app created goes to the trash.
		undoCommand()?.callback();
		expect(openModal()?.querySelector(".modal-title")?.textContent).toBe("Undo create_note by Laptop?");
		clickModalButton("Undo");
		await until(() => shownNotices.at(-1)?.includes("create_note") === true);
		expect(shownNotices.at(-1)).toBe('Vault MCP undid create_note by Laptop: moved "New.md" to the trash.');
		await expect(fs.access(nodePath.join(vault, "New.md"))).rejects.toThrow();
		expect(await fs.readFile(nodePath.join(vault, ".trash/New.md"), "utf8")).toBe(created);

		undoCommand()?.callback();
		expect(openModal()).toBeNull();
		expect(shownNotices.at(-1)).toBe("Nothing to undo: no change an app made is waiting to be undone.");

		// The trashed note is no longer a link in the list.
		const rows = changeRows(tab());
		const createRow = rows.find((entry) => entry.querySelector(".setting-item-name")?.textContent === "create_note by Laptop");
		expect(createRow?.querySelector("a")).toBeNull();
		expect(createRow?.querySelector(".vault-mcp-gone")?.textContent).toBe("New.md");
	});
});
