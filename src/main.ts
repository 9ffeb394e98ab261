import { Notice, Plugin } from "obsidian";
import type { Logger } from "./activity";
import { obsidianHost } from "./host/ObsidianHost";
import { TOKEN_LAST_USED_SAVE_INTERVAL_MS } from "./limits";
import { McpService, type ServiceStatus } from "./service";
import { defaultSettings, parseSettings, type VaultMcpSettings } from "./settings/settings";
import { VaultMcpSettingTab } from "./settings/SettingsTab";

/** Log lines go to the developer console, prefixed; never note text or tokens. */
const consoleLogger: Logger = {
	info: (message) => console.debug(`vault-mcp: ${message}`),
	warn: (message) => console.warn(`vault-mcp: ${message}`),
	error: (message) => console.error(`vault-mcp: ${message}`),
};

/** Vault MCP: wires the settings to the MCP service and the interface. Lifecycle only. */
export default class VaultMcpPlugin extends Plugin {
	override settings: VaultMcpSettings = defaultSettings();
	service!: McpService;
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
			onStatusChange: (status) => this.reportStatus(status),
			yieldToHost: () => new Promise((resolve) => window.setTimeout(resolve, 0)),
		});
		this.addSettingTab(new VaultMcpSettingTab(this.app, this));
		this.registerInterval(window.setInterval(() => void this.saveLastUsed(), TOKEN_LAST_USED_SAVE_INTERVAL_MS));
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
	}

	/** Changes settings, saves them and makes the server match. */
	async updateSettings(change: Partial<VaultMcpSettings>): Promise<ServiceStatus> {
		this.settings = { ...this.settings, ...change };
		await this.saveData(this.settings);
		return this.service.apply(this.settings);
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

	private reportStatus(status: ServiceStatus): void {
		if (status.state === "error") new Notice(`Vault MCP: ${status.message}`);
	}
}
