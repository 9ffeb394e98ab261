import { PluginSettingTab, Setting, type App } from "obsidian";
import type VaultMcpPlugin from "../main";
import type { ServiceStatus } from "../service";

/** The plugin's settings: the server switch, its port, and the separate write switch. */
export class VaultMcpSettingTab extends PluginSettingTab {
	constructor(
		app: App,
		private readonly plugin: VaultMcpPlugin,
	) {
		super(app, plugin);
	}

	override display(): void {
		this.render();
	}

	private render(): void {
		const { containerEl } = this;
		containerEl.empty();
		const { settings } = this.plugin;

		new Setting(containerEl).setName("Server").setHeading();
		new Setting(containerEl)
			.setName("Enable server")
			.setDesc("Serve this vault to AI apps on this computer that have a token. Off by default.")
			.addToggle((toggle) =>
				toggle.setValue(settings.serverEnabled).onChange(async (value) => {
					await this.plugin.updateSettings({ serverEnabled: value });
					this.render();
				}),
			);
		new Setting(containerEl)
			.setName("Port")
			.setDesc("The server listens on 127.0.0.1 only. A change restarts it.")
			.addText((text) =>
				text.setValue(String(settings.port)).onChange(async (value) => {
					const port = Number(value);
					if (!Number.isInteger(port) || port < 1024 || port > 65535) return;
					await this.plugin.updateSettings({ port });
				}),
			);
		new Setting(containerEl).setName("Status").setDesc(describeStatus(this.plugin.service.status));

		new Setting(containerEl).setName("Write access").setHeading();
		new Setting(containerEl)
			.setName("Allow writing")
			.setDesc("Lets clients with a write token add to notes. Nothing is ever deleted or renamed. Off by default.")
			.addToggle((toggle) =>
				toggle
					.setDisabled(!settings.serverEnabled)
					.setValue(settings.writeEnabled)
					.onChange(async (value) => {
						await this.plugin.updateSettings({ writeEnabled: value });
					}),
			);
	}
}

/** The status line's text. */
export function describeStatus(status: ServiceStatus): string {
	switch (status.state) {
		case "stopped":
			return "Stopped.";
		case "listening":
			return `Listening on ${status.url}`;
		case "error":
			return `Error: ${status.message}`;
	}
}
