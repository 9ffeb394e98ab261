/**
 * `npm run screenshots`: renders the settings tab (with a token's rights per tool open and an
 * Activity list of real changes made through the server, one of them undone), the new-token window
 * and the "Show change" window with styles.css and
 * Obsidian's CSS variables in headless Chromium (Debian's package), and writes PNGs to
 * screenshots/ (git-ignored), so a person can look at what the plugin shows.
 */
import { copyCommittedDemoVault } from "./committedDemoVault";
import { promises as fs } from "node:fs";
import * as os from "node:os";
import * as nodePath from "node:path";
import { chromium, type Page } from "playwright-core";
import { applyRightChanges, initialRights } from "../src/auth/rights";
import { addToken } from "../src/auth/tokenList";
import { NodeHost } from "../src/headless/NodeHost";
import VaultMcpPlugin from "../src/main";
import { defaultSettings } from "../src/config/settings";
import { ALL_TOOLS } from "../src/mcp/tools";
import { TokenCreatedModal } from "../src/ui/modals";
import { ShowChangeModal } from "../src/ui/ShowChangeModal";
import { ApprovalModal } from "../src/ui/ApprovalModal";
import { createApp } from "../test/double/obsidian";
import { connectClient } from "../test/helpers/http";

const ROOT = nodePath.resolve(__dirname, "..");
const OUT = nodePath.join(ROOT, "screenshots");
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** A small stand-in for Obsidian's own stylesheet: its variables (default dark theme) and setting rows. */
const OBSIDIAN_BASE_CSS = `
body { --background-primary: #1e1e1e; --background-secondary: #262626; --background-modifier-border: #363636;
  --text-normal: #dadada; --text-muted: #999; --text-error: #fb464c; --interactive-accent: #7f6df2; --text-on-accent: #fff;
  --font-ui-smaller: 12px; --font-ui-small: 13px; --font-ui-medium: 15px; --radius-s: 4px; --size-2-1: 2px; --size-4-2: 8px; --size-4-3: 12px;
  --size-2-2: 4px; --font-semibold: 600; --text-faint: #666; --text-accent: #a68af9; --text-success: #44cf6e; --color-green-rgb: 68, 207, 110; --color-red-rgb: 251, 70, 76;
  background: var(--background-primary); color: var(--text-normal); font: 14px/1.5 "DejaVu Sans", sans-serif; margin: 0; padding: 24px; width: 760px; }
body { --text-faint: #666; --text-accent: #a68af9; --text-success: #44cf6e; --color-green-rgb: 68, 207, 110; --color-red-rgb: 251, 70, 76;
  --font-semibold: 600; --size-2-2: 4px; --size-2-3: 6px; --size-4-4: 16px; --cursor-link: pointer; }
.setting-item { display: flex; align-items: center; gap: 16px; padding: 12px 0; border-top: 1px solid var(--background-modifier-border); }
.setting-item-heading { border-top: none; padding-top: 24px; } .setting-item-heading .setting-item-name { font-size: 16px; font-weight: 600; }
.setting-item-info { flex: 1; } .setting-item-description { color: var(--text-muted); font-size: var(--font-ui-smaller); padding-top: 4px; }
.setting-item-control { display: flex; gap: 8px; align-items: center; }
button { background: var(--background-secondary); color: var(--text-normal); border: 1px solid var(--background-modifier-border); border-radius: var(--radius-s); padding: 4px 12px; font: inherit; }
button.mod-cta { background: var(--interactive-accent); color: var(--text-on-accent); border-color: transparent; } button.mod-warning { background: #a33; color: #fff; }
input, textarea, select { background: var(--background-secondary); color: var(--text-normal); border: 1px solid var(--background-modifier-border); border-radius: var(--radius-s); padding: 4px 8px; font: inherit; }
.checkbox-container { width: 40px; height: 22px; border-radius: 11px; background: #555; position: relative; } .checkbox-container.is-enabled { background: var(--interactive-accent); }
.checkbox-container::after { content: ""; position: absolute; top: 3px; left: 3px; width: 16px; height: 16px; border-radius: 50%; background: #fff; }
.checkbox-container.is-enabled::after { left: 21px; } .checkbox-container.is-disabled { opacity: .5; }
.modal { background: var(--background-primary); border: 1px solid var(--background-modifier-border); border-radius: 8px; padding: 24px; width: 680px; }
.modal-title { font-size: 18px; font-weight: 600; margin-bottom: 12px; }
`;

async function page(html: string, css: string): Promise<string> {
	return `<!doctype html><html><head><meta charset="utf-8"><style>${OBSIDIAN_BASE_CSS}</style><style>${css}</style></head><body>${html}</body></html>`;
}

export async function takeScreenshots(): Promise<string[]> {
	const vault = await fs.mkdtemp(nodePath.join(os.tmpdir(), "vault-mcp-screens-"));
	await copyCommittedDemoVault(ROOT, vault);
	const host = await NodeHost.open(vault);
	const manifest = JSON.parse(await fs.readFile(nodePath.join(ROOT, "manifest.json"), "utf8")) as Record<string, string>;
	let settings = {
		...defaultSettings(),
		port: 0,
		serverEnabled: true,
		disclosureAccepted: true,
		writeEnabled: true,
		writeDisclosureAccepted: true,
		excludedFolders: ["Daily"],
	};
	// As the settings tab makes them (read allow, write ask), the laptop's then loosened for three write tools and without open_note.
	const writerRights = applyRightChanges(
		{ level: "write", rights: initialRights(ALL_TOOLS, "write", "settings-tab") },
		{ allow: ["append_to_note", "create_note", "set_property"], deny: ["open_note"] },
		ALL_TOOLS,
	);
	if ("error" in writerRights) throw new Error(writerRights.error);
	let writerToken = "";
	for (const [name, level] of [
		["Claude Code on my laptop", "write"],
		["Claude Desktop", "read"],
	] as const) {
		const made = addToken(settings, name, level, level === "write" ? writerRights.rights : initialRights(ALL_TOOLS, level, "settings-tab"));
		if ("error" in made) throw new Error(made.error);
		settings = made.settings;
		if (level === "write") writerToken = made.token;
	}
	await fs.mkdir(nodePath.join(vault, ".obsidian/plugins/vault-mcp"), { recursive: true });
	await fs.writeFile(nodePath.join(vault, ".obsidian/plugins/vault-mcp/data.json"), JSON.stringify(settings));
	const plugin = new VaultMcpPlugin(createApp(host) as never, manifest as never);
	await (plugin as unknown as { load(): Promise<void> }).load();
	await new Promise((resolve) => setTimeout(resolve, 50));
	await makeChanges(plugin, writerToken);

	const tab = (plugin as unknown as { settingTabs: Array<{ containerEl: HTMLElement; display(): void }> }).settingTabs[0];
	if (!tab) throw new Error("no settings tab");
	tab.display();
	tab.containerEl.querySelector("details.vault-mcp-rights")?.setAttribute("open", "");
	const settingsHtml = tab.containerEl.outerHTML;
	const shown = plugin.journal.list().find((entry) => entry.changes.some((change) => change.path === "Projects/Garden.md"));
	if (!shown) throw new Error("no change to show");
	const changeModal = new ShowChangeModal(plugin.app, shown);
	changeModal.open();
	const changeHtml = changeModal.containerEl.outerHTML;
	changeModal.close();
	const modal = new TokenCreatedModal(plugin.app, "vmcp_EXAMPLEexampleEXAMPLEexampleEXAMPLEexampl", "Claude Code on my laptop", 27150);
	modal.open();
	const modalHtml = modal.containerEl.outerHTML;
	modal.close();
	const approvalHtml = await approvalWindowHtml(plugin.app, vault);
	(plugin as unknown as { unload(): void }).unload();
	await plugin.service.stop();
	await host.close();
	await fs.rm(vault, { recursive: true, force: true });

	const css = await fs.readFile(nodePath.join(ROOT, "styles.css"), "utf8");
	await fs.mkdir(OUT, { recursive: true });
	const browser = await chromium.launch({
		executablePath: CHROMIUM,
		args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run"],
	});
	const written: string[] = [];
	try {
		const shots: Array<{ name: string; html: string; part?: Part }> = [
			{ name: "settings-tab.png", html: settingsHtml },
			{ name: "token-modal.png", html: modalHtml },
			{ name: "approval.png", html: approvalHtml },
			{ name: "rights-per-tool.png", html: settingsHtml, part: { from: "details.vault-mcp-rights", rowsBefore: 1, to: "details.vault-mcp-rights" } },
			{ name: "activity.png", html: settingsHtml, part: { from: ".vault-mcp-changes", rowsBefore: 2, to: ".vault-mcp-changes" } },
			{ name: "show-change.png", html: changeHtml },
		];
		for (const { name, html, part } of shots) {
			const view = await browser.newPage({ viewport: { width: 810, height: 600 } });
			await view.setContent(await page(html, css));
			const file = nodePath.join(OUT, name);
			await view.screenshot({ path: file, fullPage: true, ...(part ? { clip: await clipOf(view, part) } : {}) });
			written.push(file);
			await view.close();
		}
	} finally {
		await browser.close();
	}
	return written;
}

/** Changes made the way an app makes them, through the server and a real client, and one of them undone, for the Activity list. */
async function makeChanges(plugin: VaultMcpPlugin, token: string): Promise<void> {
	const status = plugin.service.status;
	if (status.state !== "listening") throw new Error(`the server is not listening: ${JSON.stringify(status)}`);
	const client = await connectClient(status.url, token);
	try {
		for (const [name, args] of [
			["append_to_note", { path: "Welcome.md", content: "Asked Claude about the garden plan." }],
			["create_note", { path: "Ideas/Compost.md", content: "# Compost\n\n- Brown and green layers\n- Turn it every two weeks\n" }],
			["append_to_note", { path: "Projects/Garden.md", heading: "Tasks", content: "- [ ] Put up a rain barrel by the shed" }],
		] as const) {
			const result = await client.callTool({ name, arguments: args });
			if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.content)}`);
		}
	} finally {
		await client.close();
	}
	const first = plugin.journal.list().at(-1);
	if (!first) throw new Error("nothing was journalled");
	const undone = await plugin.undoChange(first.id);
	if (!undone.ok) throw new Error(undone.reason);
}

/** A part of the page: from `rowsBefore` elements before the first match of `from` to the bottom of `to`, the page's full width. */
interface Part {
	from: string;
	rowsBefore: number;
	to: string;
}

async function clipOf(view: Page, part: Part): Promise<{ x: number; y: number; width: number; height: number }> {
	return view.evaluate(({ from, rowsBefore, to }) => {
		let first = document.querySelector(from);
		for (let step = 0; step < rowsBefore && first?.previousElementSibling; step++) first = first.previousElementSibling;
		const last = document.querySelector(to);
		if (!first || !last) throw new Error(`nothing matches ${from} or ${to}`);
		const top = first.getBoundingClientRect().top + window.scrollY;
		const bottom = last.getBoundingClientRect().bottom + window.scrollY;
		return { x: 0, y: Math.max(0, top - 8), width: document.documentElement.clientWidth, height: bottom - top + 16 };
	}, part);
}

/** The approval window as a call to add a bullet under "Beds" in the demo vault's Garden note shows it, with two more calls waiting. */
async function approvalWindowHtml(app: VaultMcpPlugin["app"], vault: string): Promise<string> {
	const before = await fs.readFile(nodePath.join(vault, "Projects/Garden.md"), "utf8");
	const after = before.replace("\t- Herbs near the kitchen door\n", "\t- Herbs near the kitchen door\n\t- Compost bin behind the shed\n");
	const tool = ALL_TOOLS.find((candidate) => candidate.name === "insert_under_bullet");
	if (!tool) throw new Error("no insert_under_bullet tool");
	const approval = new ApprovalModal(
		app,
		{
			id: "example",
			tokenName: "Claude Code on my laptop",
			tool: tool.name,
			toolTitle: tool.title,
			changes: [{ path: "Projects/Garden.md", before, after }],
		},
		3,
		() => undefined,
	);
	approval.open();
	const html = approval.containerEl.outerHTML;
	approval.withdraw();
	return html;
}

if (require.main === module) {
	takeScreenshots().then(
		(files) => {
			for (const file of files) process.stdout.write(`${file}\n`);
			process.exit(0);
		},
		(error: unknown) => {
			process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
			process.exit(1);
		},
	);
}
