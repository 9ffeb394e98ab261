import { Notice, Plugin } from "obsidian";
import type { Logger } from "./activity";
import { obsidianHost } from "./host/ObsidianHost";
import { TOKEN_LAST_USED_SAVE_INTERVAL_MS } from "./limits";
import { McpService, type ServiceStatus } from "./service";
import { defaultSettings, parseSettings, type VaultMcpSettings } from "./settings/settings";
import { VaultMcpSettingTab } from "./settings/SettingsTab";
import { createTokenFlow, setServerEnabled } from "./ui/flows";
import { ActivityModal, copyToClipboard } from "./ui/modals";
import { connectionSnippets } from "./ui/snippets";
import { indicatorState, StatusIndicator } from "./ui/StatusIndicator";

/** Log lines go to the developer console, prefixed; never note text or tokens. */
const consoleLogger: Logger = {
	info: (message) => console.debug(`vault-mcp: ${message}`),
	warn: (message) => console.warn(`vault-mcp: ${message}`),
	error: (message) => console.error(`vault-mcp: ${message}`),
};

/** How often the "clients in the last minute" count is refreshed. */
const INDICATOR_REFRESH_MS = 10_000;

/** Vault MCP: wires settings, the MCP service and the interface together. Lifecycle only. */
export default class VaultMcpPlugin extends Plugin {
	override settings: VaultMcpSettings = defaultSettings();
	service!: McpService;
	private settingTab!: VaultMcpSettingTab;
	private indicator!: StatusIndicator;
	private lastUsedDirty = false;

	override async onload(): Promise<void> {
		this.settings = await this.readSettings();
		this.service = new McpService({
			host: obsidianHost(this.app),
			serverVersion: this.manifest.version,
			logger: consoleLogger,
			onTokenUsed: (token) => {
				token.lastUsed = new Date().toISOString();
				this.lastUsedDirty = true;
			},
			onStatusChange: (status) => this.onStatusChange(status),
			yieldToHost: () => new Promise((resolve) => window.setTimeout(resolve, 0)),
		});
		this.settingTab = new VaultMcpSettingTab(this.app, this);
		this.addSettingTab(this.settingTab);

		const ribbonEl = this.addRibbonIcon("plug", "Vault MCP: off", (event) => this.indicator.openMenu(event));
		const statusBarEl = this.addStatusBarItem();
		this.indicator = new StatusIndicator(ribbonEl, statusBarEl, {
			isRunning: () => this.service.status.state === "listening",
			start: () => setServerEnabled(this, true),
			stop: () => setServerEnabled(this, false),
			copyClaudeCodeCommand: () => this.copyClaudeCodeCommand(),
			openSettings: () => this.openSettings(),
		});
		this.registerDomEvent(statusBarEl, "click", () => this.openSettings());
		this.refreshIndicators();

		this.addCommand({ id: "start-server", name: "Start server", callback: () => setServerEnabled(this, true) });
		this.addCommand({ id: "stop-server", name: "Stop server", callback: () => setServerEnabled(this, false) });
		this.addCommand({ id: "create-token", name: "Create token", callback: () => createTokenFlow(this) });
		this.addCommand({ id: "copy-connection-command", name: "Copy Claude Code connection", callback: () => this.copyClaudeCodeCommand() });
		this.addCommand({ id: "show-activity", name: "Show activity", callback: () => new ActivityModal(this.app, () => this.service.activity.list()).open() });

		this.registerInterval(window.setInterval(() => void this.saveLastUsed(), TOKEN_LAST_USED_SAVE_INTERVAL_MS));
		this.registerInterval(window.setInterval(() => this.refreshIndicators(), INDICATOR_REFRESH_MS));
		// Starting the server waits for the workspace, so it never slows Obsidian's start.
		this.app.workspace.onLayoutReady(() => void this.service.apply(this.settings));
	}

	override onunload(): void {
		void this.service.stop();
	}

	/** Another device or program changed data.json (for example a sync tool): follow it. */
	override async onExternalSettingsChange(): Promise<void> {
		this.settings = await this.readSettings();
		await this.service.apply(this.settings);
		this.refreshIndicators();
	}

	/** Changes settings, saves them and makes the server match. */
	async updateSettings(change: Partial<VaultMcpSettings>): Promise<ServiceStatus> {
		this.settings = { ...this.settings, ...change };
		await this.saveData(this.settings);
		const status = await this.service.apply(this.settings);
		this.refreshIndicators();
		return status;
	}

	/** The port clients should use: the one the server listens on, else the configured one. */
	connectionPort(): number {
		const status = this.service.status;
		return status.state === "listening" ? status.port : this.settings.port;
	}

	openSettings(): void {
		// Obsidian has no public call to open a plugin's settings tab; this is the one plugins use.
		const setting = (this.app as unknown as { setting?: { open(): void; openTabById(id: string): void } }).setting;
		setting?.open();
		setting?.openTabById(this.manifest.id);
	}

	private copyClaudeCodeCommand(): void {
		const snippet = connectionSnippets(this.connectionPort()).find((entry) => entry.id === "claude-code");
		if (snippet) void copyToClipboard(snippet.text, "the Claude Code command (put your token in place of <token>)");
	}

	private onStatusChange(status: ServiceStatus): void {
		if (status.state === "error") new Notice(`Vault MCP: ${status.message}`);
		this.refreshIndicators();
		this.settingTab?.refreshStatus();
	}

	private refreshIndicators(): void {
		this.indicator?.update(indicatorState(this.service.status, this.service.recentClientCount()), this.settings.showStatusBar);
	}

	private async readSettings(): Promise<VaultMcpSettings> {
		const { settings, warnings } = parseSettings(await this.loadData());
		for (const warning of warnings) consoleLogger.warn(warning);
		return settings;
	}

	private async saveLastUsed(): Promise<void> {
		if (!this.lastUsedDirty) return;
		this.lastUsedDirty = false;
		await this.saveData(this.settings);
	}
}
