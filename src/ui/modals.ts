import { Modal, Notice, Setting, type App } from "obsidian";
import type { ActivityRecord } from "../activity";
import type { TokenLevel } from "../auth/tokens";
import { connectionSnippets } from "../http/clientSnippets";

/** Copies text and says so; clipboard failures (no permission) get their own notice. */
export async function copyToClipboard(text: string, what: string): Promise<void> {
	try {
		await navigator.clipboard.writeText(text);
		new Notice(`Copied ${what}.`);
	} catch {
		new Notice(`Could not copy ${what}: the clipboard is not available.`);
	}
}

/** A yes/no question with paragraphs of explanation; `onConfirm` runs only on yes. */
export class ConfirmModal extends Modal {
	constructor(
		app: App,
		private readonly heading: string,
		private readonly paragraphs: readonly string[],
		private readonly confirmText: string,
		private readonly onConfirm: () => void | Promise<void>,
		private readonly onCancel: () => void = () => undefined,
		private readonly destructive = false,
	) {
		super(app);
	}

	private confirmed = false;

	override onOpen(): void {
		this.setTitle(this.heading);
		for (const paragraph of this.paragraphs) this.contentEl.createEl("p", { text: paragraph });
		new Setting(this.contentEl)
			.addButton((button) => button.setButtonText("Cancel").onClick(() => this.close()))
			.addButton((button) => {
				button.setButtonText(this.confirmText).onClick(async () => {
					this.confirmed = true;
					this.close();
					await this.onConfirm();
				});
				if (this.destructive) button.setWarning();
				else button.setCta();
			});
	}

	override onClose(): void {
		this.contentEl.empty();
		if (!this.confirmed) this.onCancel();
	}
}

/** What a person must read before the server first starts. */
export const SERVER_DISCLOSURE = [
	"Turning the server on lets AI apps on this computer read this vault — every note outside your excluded folders — when you give them a token.",
	"What an app reads is sent to whatever AI model that app uses, usually a cloud service run by another company. Only give tokens to apps you trust, and exclude folders you never want read.",
	"The server listens on 127.0.0.1 only: other computers and web pages cannot reach it. You can switch it off, or revoke any token, at any time.",
];

/** What a person must read before writing is allowed. */
export const WRITE_DISCLOSURE = [
	"Allowing writes lets apps holding a write token change this vault. They can: create notes (an existing note is only replaced when asked, and its old text is kept in a .bak file beside it), append text to notes, add bullets under a bullet, add tasks to daily notes, and rename or move notes (every link to a moved note is updated).",
	"They cannot delete notes or change the middle of a note. Excluded folders stay out of reach.",
	"Apps that connected before may need to reconnect to see the write tools.",
];

/** What the folders field of a token means, in the token window and under each token. */
export const TOKEN_FOLDERS_HELP = "One folder per line. The app sees only these; the rest of the vault does not exist for it. Empty: the whole vault.";

/** Asks for a new token's name, level and folders. */
export class CreateTokenModal extends Modal {
	private name = "";
	private level: TokenLevel = "read";
	/** As typed: one folder per line; empty is the whole vault. */
	private folders = "";

	constructor(
		app: App,
		private readonly onSubmit: (name: string, level: TokenLevel, folders: string) => Promise<string | null>,
	) {
		super(app);
	}

	override onOpen(): void {
		this.setTitle("Create a token");
		new Setting(this.contentEl)
			.setName("Name")
			.setDesc("Which app will use it, for example: Claude Code on my laptop.")
			.addText((text) => text.onChange((value) => (this.name = value)));
		new Setting(this.contentEl)
			.setName("Access")
			.setDesc(
				"Write access works only while writing is allowed in the settings. Its write tools then ask you before each change; change that under the token's rights per tool.",
			)
			.addDropdown((dropdown) =>
				dropdown
					.addOption("read", "Read")
					.addOption("write", "Read and write")
					.setValue(this.level)
					.onChange((value) => (this.level = value === "write" ? "write" : "read")),
			);
		new Setting(this.contentEl)
			.setName("Folders")
			.setDesc(TOKEN_FOLDERS_HELP)
			.addTextArea((area) => {
				area.setPlaceholder("Projects");
				area.inputEl.rows = 3;
				area.onChange((value) => (this.folders = value));
			});
		const errorEl = this.contentEl.createEl("p", { cls: "vault-mcp-error" });
		new Setting(this.contentEl).addButton((button) =>
			button
				.setButtonText("Create")
				.setCta()
				.onClick(async () => {
					const error = await this.onSubmit(this.name, this.level, this.folders);
					if (error) errorEl.setText(error);
					else this.close();
				}),
		);
	}

	override onClose(): void {
		this.contentEl.empty();
	}
}

/** Shows a new token exactly once, with copy buttons and the connection snippets filled in. */
export class TokenCreatedModal extends Modal {
	constructor(
		app: App,
		private readonly token: string,
		private readonly tokenName: string,
		private readonly port: number,
	) {
		super(app);
	}

	override onOpen(): void {
		this.setTitle(`Token "${this.tokenName}" created`);
		this.contentEl.createEl("p", { text: "Copy it now: it is shown only this once, and only its hash is kept." });
		const tokenEl = this.contentEl.createEl("code", { cls: "vault-mcp-token", text: this.token });
		tokenEl.setAttr("data-token", "shown-once");
		new Setting(this.contentEl).addButton((button) =>
			button
				.setButtonText("Copy token")
				.setCta()
				.onClick(() => copyToClipboard(this.token, "the token")),
		);
		for (const snippet of connectionSnippets({ port: this.port, vaultName: this.app.vault.getName() }, this.token)) {
			new Setting(this.contentEl)
				.setName(snippet.title)
				.setDesc(snippet.where)
				.addButton((button) => button.setButtonText("Copy").onClick(() => copyToClipboard(snippet.text, `the ${snippet.title} snippet`)));
			this.contentEl.createEl("pre", { cls: "vault-mcp-snippet", text: snippet.text });
		}
	}

	override onClose(): void {
		// The token leaves the screen and the DOM for good.
		this.contentEl.empty();
	}
}

/** The activity list: what was called, by which token, how long it took; never note text. */
export function renderActivity(containerEl: HTMLElement, records: readonly ActivityRecord[]): void {
	containerEl.empty();
	if (records.length === 0) {
		containerEl.createEl("p", { cls: "vault-mcp-muted", text: "No calls yet." });
		return;
	}
	const table = containerEl.createEl("table", { cls: "vault-mcp-activity" });
	const head = table.createEl("tr");
	for (const title of ["Time", "Token", "Tool", "Duration", "Size", "Outcome"]) head.createEl("th", { text: title });
	for (const record of [...records].reverse()) {
		const row = table.createEl("tr");
		row.createEl("td", { text: new Date(record.time).toLocaleTimeString() });
		row.createEl("td", { text: record.tokenName });
		row.createEl("td", { text: record.tool });
		row.createEl("td", { text: `${record.durationMs} ms` });
		row.createEl("td", { text: `${record.responseBytes} B` });
		row.createEl("td", { text: record.outcome });
	}
}

export class ActivityModal extends Modal {
	constructor(
		app: App,
		private readonly records: () => readonly ActivityRecord[],
	) {
		super(app);
	}

	override onOpen(): void {
		this.setTitle("Vault MCP activity");
		renderActivity(this.contentEl.createDiv(), this.records());
	}

	override onClose(): void {
		this.contentEl.empty();
	}
}
