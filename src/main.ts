import { normalizePath, Notice, Plugin } from "obsidian";
import { JournalFile } from "./journal/JournalFile";
import { followMoves } from "./journal/followMoves";
import { undoCall, type UndoOutcome } from "./journal/undo";
import { undoHoldingLock } from "./journal/UndoLock";
import type { Logger } from "./activity";
import type { Host } from "./host/Host";
import { obsidianHost, vaultBasePath } from "./host/ObsidianHost";
import { INDICATOR_REFRESH_MS } from "./config/limits";
import { PluginSettingsStore } from "./config/PluginSettingsStore";
import { SettingsFileLock } from "./config/SettingsFileLock";
import { vaultRootSpellings } from "./config/vaultRootSpellings";
import { UnreadableFileCopy } from "./config/unreadableCopy";
import { McpService, type ServiceStatus } from "./service";
import { defaultSettings, UnreadableSettingsError, type VaultMcpSettings } from "./config/settings";
import { VaultMcpSettingTab } from "./ui/SettingsTab";
import { createTokenFlow, setServerEnabled } from "./ui/flows";
import { ActivityModal, copyToClipboard } from "./ui/modals";
import type { ToolSummary, VaultMcpPort } from "./ui/port";
import { undoLastChangeFlow } from "./ui/undoFlows";
import { connectionSnippets } from "./http/clientSnippets";
import { indicatorState, StatusIndicator } from "./ui/StatusIndicator";
import { ApprovalQueue } from "./ui/ApprovalQueue";
import type { ToolRight } from "./auth/rights";
import { withAskRaised, withToolRight } from "./auth/tokenList";
import { ALL_TOOLS } from "./mcp/tools";

/** Log lines go to the developer console, prefixed; never note text or tokens. */
const consoleLogger: Logger = {
	info: (message) => console.debug(`vault-mcp: ${message}`),
	warn: (message) => console.warn(`vault-mcp: ${message}`),
	error: (message) => console.error(`vault-mcp: ${message}`),
};

/** Vault MCP: wires settings, the MCP service and the interface together. Lifecycle only. */
export default class VaultMcpPlugin extends Plugin implements VaultMcpPort {
	override settings: VaultMcpSettings = defaultSettings();
	service!: McpService;
	private host!: Host;
	private settingTab!: VaultMcpSettingTab;
	private indicator!: StatusIndicator;
	/** The write journal, in the plugin's folder: the Activity section lists it and Undo reads it. */
	journal!: JournalFile;
	readonly tools: readonly ToolSummary[] = ALL_TOOLS;
	/** Tool calls set to Ask, waiting for the person: one window at a time. */
	private approvals!: ApprovalQueue;
	/** Every save of the settings goes through this, the token last-use times included. */
	private settingsStore!: PluginSettingsStore;

	/** Why data.json could not be read, while it cannot: the server stays off and nothing is saved over the file. */
	private unreadableSettings: string | null = null;
	/** The one copy kept of a data.json that could not be read. */
	private unreadableCopy: UnreadableFileCopy | null = null;

	override async onload(): Promise<void> {
		this.warnOfFolderName();
		// With the vault's path, so a folder data.json gives as an absolute path inside the vault names that folder.
		this.settingsStore = new PluginSettingsStore(this, vaultRootSpellings(vaultBasePath(this.app)));
		this.settings = await this.readSettingsOrStayOff();
		this.host = await obsidianHost(this.app, this);
		// Read in pieces after the plugin loads: a journal of tens of megabytes held the app's UI for seconds.
		this.journal = JournalFile.forVault(vaultBasePath(this.app), this.app.vault.configDir, { readInPieces: true });
		// Followed while the plugin is loaded, server on or off: a note moved meanwhile is undone where it went.
		this.register(followMoves(this.host.vault, this.journal));
		// The CLI may write data.json while Obsidian runs: both take the same lock.
		this.settingsStore.useLock(new SettingsFileLock(vaultBasePath(this.app), this.app.vault.configDir));
		this.approvals = new ApprovalQueue(this.app);
		// Unloading declines every call still waiting, before the server stops.
		this.register(() => this.approvals.close());
		this.service = new McpService({
			host: this.host,
			serverVersion: this.manifest.version,
			logger: consoleLogger,
			settingsStore: this.settingsStore,
			onStatusChange: (status) => this.onStatusChange(status),
			yieldToHost: () => new Promise((resolve) => window.setTimeout(resolve, 0)),
			journal: this.journal,
			approver: this.approvals,
			setToolRight: (tokenName, tool, right, tokenHash) => this.raiseToolRightFromAsk(tokenName, tool, right, tokenHash),
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
		this.addCommand({ id: "undo-last-change", name: "Undo the last change an app made", callback: () => undoLastChangeFlow(this) });

		this.registerInterval(window.setInterval(() => this.refreshIndicators(), INDICATOR_REFRESH_MS));
		// Starting the server waits for the workspace, so it never slows Obsidian's start.
		this.app.workspace.onLayoutReady(() => {
			if (this.unreadableSettings === null) void this.service.apply(this.settings);
		});
	}

	override onunload(): void {
		// Once calls have settled, what the journal still owes is written (the app may be quitting).
		void this.service.stop().finally(() => this.journal.close());
	}

	/** Another device or program changed data.json (for example a sync tool): follow it. */
	override async onExternalSettingsChange(): Promise<void> {
		this.settings = await this.readSettingsOrStayOff();
		await this.service.apply(this.settings);
		this.refreshIndicators();
	}

	/** Changes settings, saves them and makes the server match. */
	async updateSettings(change: Partial<VaultMcpSettings>): Promise<ServiceStatus> {
		if (this.unreadableSettings !== null) {
			new Notice(`Vault MCP: ${this.unreadableSettings}`);
			return this.service.status;
		}
		await this.settingsStore.update((current) => ({ ...current, ...change }));
		const status = await this.service.apply(this.settings);
		this.refreshIndicators();
		return status;
	}

	/**
	 * Saves one tool's right for one token through `updateSettings`, so the running server uses it
	 * from the next call. A token revoked meanwhile is left alone: there is nothing to set.
	 */
	async setToolRight(tokenName: string, tool: string, right: ToolRight, tokenHash?: string): Promise<void> {
		const changed = withToolRight(this.settings, tokenName, tool, right, ALL_TOOLS, tokenHash);
		if (changed !== this.settings) await this.updateSettings({ tokens: changed.tokens });
	}

	/**
	 * "Always allow" saved into data.json as it is now, under the settings lock: the right is raised
	 * only where it is Ask there, so a Deny the CLI saved a moment ago stays (withAskRaised).
	 */
	private async raiseToolRightFromAsk(tokenName: string, tool: string, right: ToolRight, tokenHash?: string): Promise<void> {
		if (this.unreadableSettings !== null) return;
		await this.settingsStore.update((current) => withAskRaised(current, tokenName, tool, right, ALL_TOOLS, tokenHash));
		await this.service.apply(this.settings);
		this.refreshIndicators();
	}

	/** Symbolic links in the vault folder that the jail hides, to name them in the settings tab. */
	hiddenLinks(): readonly string[] {
		return this.host.hiddenLinks();
	}

	/** Undoes one journalled call through Obsidian's vault, recorded as an undo by "you"; a folder excluded while it runs is not written. */
	undoChange(callId: string): Promise<UndoOutcome> {
		// Under the lock `vault-mcp undo` takes too: an undo here and one in a terminal at once are one after the other.
		return undoHoldingLock(vaultBasePath(this.app), this.app.vault.configDir, () =>
			undoCall(this.host, this.journal, callId, undefined, () => this.settings.excludedFolders),
		);
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
		const snippet = connectionSnippets({ port: this.connectionPort(), vaultName: this.app.vault.getName() }).find((entry) => entry.id === "claude-code");
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

	/**
	 * The settings from data.json. When the file cannot be read (not JSON, not a settings object,
	 * or excluded folders that are not a list), starting on defaults would serve every excluded
	 * folder: the file is kept as it is with a copy beside it, a notice says why, and the server
	 * stays off until the file is fixed (Obsidian then calls onExternalSettingsChange).
	 */
	private async readSettingsOrStayOff(): Promise<VaultMcpSettings> {
		try {
			const { settings, warnings } = await this.settingsStore.read();
			for (const warning of warnings) consoleLogger.warn(warning);
			this.unreadableSettings = null;
			return settings;
		} catch (error) {
			const reason = error instanceof UnreadableSettingsError ? error.message : "data.json is not valid JSON";
			const copy = await this.keepUnreadableSettings();
			this.unreadableSettings = `${reason}. The server stays off and the file is left as it is${copy ? ` (a copy is at ${copy})` : ""}. Fix or remove it to start again.`;
			new Notice(`Vault MCP: ${this.unreadableSettings}`);
			consoleLogger.error(`settings could not be read: ${reason}`);
			return { ...defaultSettings(), serverEnabled: false };
		}
	}

	/**
	 * The plugin's folder, where Obsidian's `loadData` reads data.json: the folder it was installed in
	 * (`manifest.dir`), which a manual install may have named otherwise than the plugin's id.
	 */
	private pluginFolder(): string {
		return this.manifest.dir ?? `${this.app.vault.configDir}/plugins/${this.manifest.id}`;
	}

	/**
	 * The command line (`serve`, `token`, `folders`) and the settings lock find data.json in
	 * `<configDir>/plugins/vault-mcp`: installed in a folder of another name, the plugin keeps its
	 * settings apart from theirs, which the person is told, with the fix.
	 */
	private warnOfFolderName(): void {
		const expected = normalizePath(`${this.app.vault.configDir}/plugins/${this.manifest.id}`);
		const folder = normalizePath(this.pluginFolder());
		if (folder === expected) return;
		new Notice(
			`Vault MCP: it is installed in "${folder}", but the command line (vault-mcp serve, token, folders) reads its settings from "${expected}": the two do not share tokens or excluded folders. Close Obsidian and rename the folder to "${this.manifest.id}".`,
		);
		consoleLogger.warn("the plugin's folder is not named after its id; the command line reads other settings");
	}

	/** Copies the unreadable data.json aside, once; returns the copy's vault path, or null if it could not be made. */
	private async keepUnreadableSettings(): Promise<string | null> {
		this.unreadableCopy ??= new UnreadableFileCopy(normalizePath(`${this.pluginFolder()}/data.json`), (from, to) => this.app.vault.adapter.copy(from, to));
		try {
			return await this.unreadableCopy.keep();
		} catch {
			return null;
		}
	}
}
