import { ACTIVITY_CHANGES_SHOWN, ACTIVITY_LOG_SIZE, ACTIVITY_REFRESH_MS, HIDDEN_LINKS_NAMED, MAX_PORT, MIN_FIXED_PORT } from "../config/limits";
import { PluginSettingTab, Setting, type App, type Plugin } from "obsidian";
import type { TokenRecord } from "../auth/tokens";
import type { ServiceStatus } from "../service";
import { normalizeFolderList } from "../config/settings";
import { vaultRootSpellings } from "../config/vaultRootSpellings";
import { entriesNamingNoFolder } from "../paths/spelling";
import { vaultBasePath } from "../host/ObsidianHost";
import { ChangesList } from "./activitySection";
import { copyToClipboard, renderActivity, TOKEN_FOLDERS_HELP } from "./modals";
import { createTokenFlow, revokeTokenFlow, saveTokenFolders, setServerEnabled, setWriteEnabled } from "./flows";
import type { VaultMcpPort } from "./port";
import { renderRightsSection } from "./rightsSection";
import { connectionSnippets } from "../http/clientSnippets";
import { ENGLISH_STOP_WORDS } from "../search/stopWords";
import { SEARCH_LANGUAGES } from "../search/languages";

/** The status line's text. */
function describeStatus(status: ServiceStatus): string {
	switch (status.state) {
		case "stopped":
			return "Stopped.";
		case "listening":
			return `Listening on ${status.url}`;
		case "error":
			return `Error: ${status.message}`;
	}
}

/** A port typed by a person, or why it cannot be used. */
export function parsePort(value: string): number | string {
	const port = Number(value.trim());
	if (!Number.isInteger(port) || port < MIN_FIXED_PORT || port > MAX_PORT) return `Use a whole number from ${MIN_FIXED_PORT} to ${MAX_PORT}.`;
	return port;
}

/** Everything a person sets up: the server, writing, tokens, connection snippets, exclusions, activity. */
export class VaultMcpSettingTab extends PluginSettingTab {
	private statusEl: HTMLElement | null = null;
	private activityEl: HTMLElement | null = null;
	private changes: ChangesList | null = null;
	/** While the tab is open, the Activity list follows the journal. */
	private changesTimer: number | null = null;

	constructor(
		app: App,
		private readonly plugin: Plugin & VaultMcpPort,
	) {
		super(app, plugin);
		plugin.register(() => this.stopFollowingChanges());
	}

	override display(): void {
		this.render();
		this.stopFollowingChanges();
		this.changesTimer = window.setInterval(() => this.changes?.refresh(), ACTIVITY_REFRESH_MS);
	}

	override hide(): void {
		this.stopFollowingChanges();
		this.statusEl = null;
		this.activityEl = null;
		this.changes = null;
		this.containerEl.empty();
	}

	private stopFollowingChanges(): void {
		if (this.changesTimer !== null) window.clearInterval(this.changesTimer);
		this.changesTimer = null;
	}

	/** Follows the server while the tab is open. */
	refreshStatus(): void {
		this.statusEl?.setText(describeStatus(this.plugin.service.status));
		this.statusEl?.toggleClass("vault-mcp-error", this.plugin.service.status.state === "error");
	}

	private render(): void {
		const { containerEl, plugin } = this;
		const { settings } = plugin;
		containerEl.empty();

		new Setting(containerEl).setName("Server").setHeading();
		new Setting(containerEl)
			.setName("Enable server")
			.setDesc("Serve this vault to AI apps on this computer that hold a token. Off by default.")
			.addToggle((toggle) => toggle.setValue(settings.serverEnabled).onChange((value) => setServerEnabled(plugin, value, () => this.render())));
		const portSetting = new Setting(containerEl).setName("Port").setDesc("The server listens on 127.0.0.1 only. A change restarts it.");
		portSetting.addText((text) => {
			text.setValue(String(settings.port));
			text.inputEl.addEventListener("change", () => {
				const port = parsePort(text.getValue());
				if (typeof port === "string") {
					portSetting.setDesc(port);
					portSetting.settingEl.addClass("vault-mcp-invalid");
					return;
				}
				portSetting.settingEl.removeClass("vault-mcp-invalid");
				portSetting.setDesc("The server listens on 127.0.0.1 only. A change restarts it.");
				void plugin.updateSettings({ port }).then(() => this.render());
			});
		});
		const statusSetting = new Setting(containerEl).setName("Status");
		this.statusEl = statusSetting.descEl.createSpan({ cls: "vault-mcp-status" });
		this.refreshStatus();

		new Setting(containerEl).setName("Write access").setHeading();
		new Setting(containerEl)
			.setName("Allow writing")
			.setDesc(
				"Apps with a write token may then create notes, append, add bullets and add tasks. Nothing is ever deleted; a renamed or moved note keeps every link to it. Clients connected before may need to reconnect to see the write tools.",
			)
			.addToggle((toggle) =>
				toggle
					.setDisabled(!settings.serverEnabled)
					.setValue(settings.writeEnabled)
					.onChange((value) => setWriteEnabled(plugin, value, () => this.render())),
			);
		new Setting(containerEl)
			.setName("Daily notes are outlines")
			.setDesc("New daily notes made by the write tools are written as bullets.")
			.addToggle((toggle) =>
				toggle.setValue(settings.dailyNotesAreOutlines).onChange((value) => void plugin.updateSettings({ dailyNotesAreOutlines: value })),
			);
		new Setting(containerEl)
			.setName("Prompts folder")
			.setDesc("Notes in this folder are offered to apps as prompts. Leave empty for none.")
			.addText((text) => {
				text.setValue(settings.promptsFolder).setPlaceholder("Prompts");
				// On change, not on every keystroke: each value applies the settings to the server.
				text.inputEl.addEventListener("change", () => void plugin.updateSettings({ promptsFolder: text.getValue().trim() }));
			});

		new Setting(containerEl).setName("Tokens").setHeading();
		new Setting(containerEl)
			.setName("Create a token")
			.setDesc("Each app gets its own token, shown once. Only its hash is stored.")
			.addButton((button) =>
				button
					.setButtonText("Create token")
					.setCta()
					.onClick(() => createTokenFlow(plugin, () => this.render())),
			);
		if (settings.tokens.length === 0) containerEl.createEl("p", { cls: "vault-mcp-muted", text: "No tokens yet." });
		for (const token of settings.tokens) {
			const used = token.lastUsed ? new Date(token.lastUsed).toLocaleString() : "never";
			new Setting(containerEl)
				.setName(token.name)
				.setDesc(
					`${token.level === "write" ? "Read and write" : "Read"} · ${token.displayPrefix}… · created ${new Date(token.created).toLocaleDateString()} · last used ${used}`,
				)
				.addButton((button) =>
					button
						.setButtonText("Revoke")
						.setWarning()
						.onClick(() => revokeTokenFlow(plugin, token, () => this.render())),
				);
			this.renderTokenFolders(containerEl, token, token.folders ?? []);
			renderRightsSection(containerEl, plugin, token.hash);
		}

		new Setting(containerEl).setName("Connect a client").setHeading();
		containerEl.createEl("p", { cls: "vault-mcp-muted", text: "Replace <token> with a token; a new token's window shows these with it filled in." });
		for (const snippet of connectionSnippets({ port: plugin.connectionPort(), vaultName: plugin.app.vault.getName() })) {
			new Setting(containerEl)
				.setName(snippet.title)
				.setDesc(snippet.where)
				.addButton((button) => button.setButtonText("Copy").onClick(() => copyToClipboard(snippet.text, `the ${snippet.title} snippet`)));
			containerEl.createEl("pre", { cls: "vault-mcp-snippet", text: snippet.text });
		}

		new Setting(containerEl).setName("Excluded folders").setHeading();
		const excludedSetting = new Setting(containerEl).setName("Folders no app may see").setDesc("One folder per line. Applied at once.");
		excludedSetting.addTextArea((area) => {
			area.setValue(settings.excludedFolders.join("\n")).setPlaceholder("Private");
			area.inputEl.rows = 4;
			area.inputEl.addEventListener("change", () => {
				// The vault's own path, so an absolute path typed inside it names its folder (it named a folder `home/…` that is never there).
				const root = vaultRootSpellings(vaultBasePath(this.app));
				const typed = area.getValue().split("\n");
				const folders = normalizeFolderList(typed, root);
				// Named, as the CLI and data.json's warning do: dropped without a word, `../Private` looked excluded and was not.
				const outside = entriesNamingNoFolder(typed, root);
				const unknown = folders.filter((folder) => !this.app.vault.getFolderByPath(folder));
				// A folder that does not exist yet stays excluded, so creating it later never exposes it.
				const problems = [
					...(outside.length ? [`Not a folder inside the vault, so nothing is excluded for: ${outside.join(", ")}.`] : []),
					...(unknown.length ? [`No such folder yet: ${unknown.join(", ")}. It is excluded as soon as it exists.`] : []),
				];
				excludedSetting.setDesc(problems.length ? problems.join(" ") : "One folder per line. Applied at once.");
				excludedSetting.settingEl.toggleClass("vault-mcp-invalid", problems.length > 0);
				void plugin.updateSettings({ excludedFolders: folders });
			});
		});

		const links = plugin.hiddenLinks();
		if (links.length > 0) {
			new Setting(containerEl)
				.setName("Linked folders and files are hidden")
				.setDesc(
					`Symbolic links are never followed, so apps cannot see these or anything behind them: ${links.slice(0, HIDDEN_LINKS_NAMED).join(", ")}${links.length > HIDDEN_LINKS_NAMED ? `, and ${links.length - HIDDEN_LINKS_NAMED} more` : ""}.`,
				);
		}

		new Setting(containerEl).setName("Search").setHeading();
		let stopWordsArea: HTMLTextAreaElement | null = null;
		new Setting(containerEl)
			.setName("Stop words")
			.setDesc(
				'Words a search need not find in a note (they still rank a note that has them), so "how to use templates" finds your templates note. Separated by spaces or commas; empty: every word counts.',
			)
			.addTextArea((area) => {
				stopWordsArea = area.inputEl;
				area.setValue(settings.searchStopWords.join(" "));
				area.inputEl.rows = 3;
				area.inputEl.addEventListener("change", () => void plugin.updateSettings({ searchStopWords: stopWordList(area.getValue()) }));
			})
			.addButton((button) =>
				button.setButtonText("Restore defaults").onClick(() => {
					if (stopWordsArea) stopWordsArea.value = ENGLISH_STOP_WORDS.join(" ");
					void plugin.updateSettings({ searchStopWords: [...ENGLISH_STOP_WORDS] });
				}),
			);

		new Setting(containerEl)
			.setName("Word forms")
			.setDesc(
				'The language whose word forms a search also matches, so that "renamed" finds "renaming". Words as typed always rank first. None: words as typed and the longer words they start.',
			)
			.addDropdown((dropdown) => {
				for (const language of SEARCH_LANGUAGES)
					dropdown.addOption(language, language === "none" ? "None" : language.charAt(0).toUpperCase() + language.slice(1));
				dropdown.setValue(settings.searchLanguage);
				dropdown.onChange((value) => {
					const language = SEARCH_LANGUAGES.find((name) => name === value);
					if (language) void plugin.updateSettings({ searchLanguage: language });
				});
			});

		new Setting(containerEl).setName("Activity").setHeading();
		new Setting(containerEl)
			.setName("Changes to notes")
			.setDesc(
				`The last ${ACTIVITY_CHANGES_SHOWN} changes apps made, newest first. Undo puts a note back exactly as it was; a note edited since is left alone and its earlier text saved beside it.`,
			);
		this.changes = new ChangesList(containerEl.createDiv({ cls: "vault-mcp-changes" }), plugin);
		this.changes.render();
		new Setting(containerEl)
			.setName("Recent calls")
			.setDesc(`The last ${ACTIVITY_LOG_SIZE} calls: time, token, tool, duration, size and outcome. Never note text.`)
			.addButton((button) =>
				button.setButtonText("Clear").onClick(() => {
					plugin.service.activity.clear();
					this.renderActivity();
				}),
			);
		this.activityEl = containerEl.createDiv();
		this.renderActivity();

		new Setting(containerEl).setName("Interface").setHeading();
		new Setting(containerEl)
			.setName("Show in status bar")
			.addToggle((toggle) => toggle.setValue(settings.showStatusBar).onChange((value) => void plugin.updateSettings({ showStatusBar: value })));
	}

	/**
	 * "Folders of NAME": what the token may see, changed on leaving the field; the running server follows from the token's next call.
	 * The token of that hash only: a twin of its name (data.json edited by hand) got the same folders.
	 */
	private renderTokenFolders(containerEl: HTMLElement, token: Pick<TokenRecord, "name" | "hash">, folders: readonly string[]): void {
		const plugin: VaultMcpPort = this.plugin;
		const row = new Setting(containerEl)
			.setName(`Folders of ${token.name}`)
			.setDesc(folders.length === 0 ? `Whole vault. ${TOKEN_FOLDERS_HELP}` : TOKEN_FOLDERS_HELP);
		row.addTextArea((area) => {
			area.setValue(folders.join("\n")).setPlaceholder("Whole vault");
			area.inputEl.rows = 2;
			area.inputEl.addEventListener("change", () => {
				void saveTokenFolders(plugin, token, area.getValue()).then((error) => {
					const missing =
						error === null
							? (plugin.settings.tokens.find((record) => record.hash === token.hash)?.folders ?? []).filter(
									(folder) => !this.app.vault.getFolderByPath(folder),
								)
							: [];
					row.setDesc(
						error ??
							(missing.length > 0
								? `No such folder yet: ${missing.join(", ")}. The app sees nothing there until it exists.`
								: TOKEN_FOLDERS_HELP),
					);
					row.settingEl.toggleClass("vault-mcp-invalid", error !== null || missing.length > 0);
				});
			});
		});
		if (folders.length > 0)
			row.addButton((button) => button.setButtonText("Whole vault").onClick(() => void saveTokenFolders(plugin, token, "").then(() => this.render())));
	}

	private renderActivity(): void {
		if (this.activityEl) renderActivity(this.activityEl, this.plugin.service.activity.list());
	}
}

/** The words a person typed, split on spaces and commas, in lower case, each once. */
function stopWordList(typed: string): string[] {
	return [
		...new Set(
			typed
				.toLowerCase()
				.split(/[\s,]+/u)
				.filter((word) => word !== ""),
		),
	];
}
