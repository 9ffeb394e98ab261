import { Menu, setIcon } from "obsidian";
import type { ServiceStatus } from "../service";

/** What the indicators show, computed from the service's status and recent clients. Pure. */
export interface IndicatorState {
	icon: string;
	/** The full sentence: tooltip and screen readers. */
	label: string;
	/** The status bar's short text. */
	short: string;
	kind: "off" | "on" | "error";
}

export function indicatorState(status: ServiceStatus, recentClients: number): IndicatorState {
	switch (status.state) {
		case "stopped":
			return { icon: "plug", label: "Vault MCP: off", short: "MCP off", kind: "off" };
		case "listening": {
			const clients = `${recentClients} ${recentClients === 1 ? "client" : "clients"}`;
			return { icon: "plug-zap", label: `Vault MCP: on, ${clients} in the last minute`, short: `MCP on · ${clients}`, kind: "on" };
		}
		case "error":
			return { icon: "alert-triangle", label: `Vault MCP: error — ${status.message}`, short: "MCP error", kind: "error" };
	}
}

/** What the ribbon menu and the status bar can do; the plugin supplies them. */
export interface IndicatorActions {
	isRunning(): boolean;
	start(): void;
	stop(): void;
	copyClaudeCodeCommand(): void;
	openSettings(): void;
}

/** The ribbon icon and status bar item: the same state, shown in two places. */
export class StatusIndicator {
	constructor(
		private readonly ribbonEl: HTMLElement,
		private readonly statusBarEl: HTMLElement,
		private readonly actions: IndicatorActions,
	) {
		statusBarEl.addClass("vault-mcp-status-bar");
		statusBarEl.addClass("mod-clickable");
	}

	/** The ribbon's click: a menu to start or stop, copy the Claude Code command, or open the settings. */
	openMenu(event: MouseEvent): Menu {
		const menu = new Menu();
		menu.addItem((item) =>
			this.actions.isRunning()
				? item
						.setTitle("Stop server")
						.setIcon("square")
						.onClick(() => this.actions.stop())
				: item
						.setTitle("Start server")
						.setIcon("play")
						.onClick(() => this.actions.start()),
		);
		menu.addItem((item) =>
			item
				.setTitle("Copy Claude Code command")
				.setIcon("copy")
				.onClick(() => this.actions.copyClaudeCodeCommand()),
		);
		menu.addItem((item) =>
			item
				.setTitle("Open settings")
				.setIcon("settings")
				.onClick(() => this.actions.openSettings()),
		);
		menu.showAtMouseEvent(event);
		return menu;
	}

	update(state: IndicatorState, showStatusBar: boolean): void {
		setIcon(this.ribbonEl, state.icon);
		this.ribbonEl.setAttr("aria-label", state.label);
		this.ribbonEl.setAttr("data-state", state.kind);
		this.statusBarEl.setText(state.short);
		this.statusBarEl.setAttr("aria-label", state.label);
		this.statusBarEl.setAttr("data-state", state.kind);
		this.statusBarEl.toggleClass("vault-mcp-hidden", !showStatusBar);
	}
}
