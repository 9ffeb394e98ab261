/**
 * The `obsidian` module for tests: the few runtime values the plugin imports, backed by NodeHost.
 * Behaviour lives in NodeHost (checked against captures from real Obsidian); this file only
 * supplies the plugin lifecycle (Component/Plugin), settings storage and UI stand-ins.
 */
import { promises as fs } from "node:fs";
import * as nodePath from "node:path";
import type { NodeHost } from "../../src/headless/NodeHost";

// Obsidian plugins run in a browser window; `window.setInterval` is what the review rules ask for.
(globalThis as { window?: unknown }).window ??= globalThis;

export interface EventRef {
	readonly __eventRef?: never;
}

export interface PluginManifest {
	id: string;
	name: string;
	version: string;
	minAppVersion: string;
	description: string;
	author: string;
	isDesktopOnly?: boolean;
}

/** The App the double hands the plugin: NodeHost's vault and metadata cache, and a workspace that is always ready. */
export interface App {
	vault: NodeHost["vault"];
	metadataCache: NodeHost["metadataCache"];
	workspace: { onLayoutReady(callback: () => void): void };
}

export function createApp(host: NodeHost): App {
	return {
		vault: host.vault,
		metadataCache: host.metadataCache,
		workspace: { onLayoutReady: (callback) => queueMicrotask(callback) },
	};
}

/** Messages shown with `new Notice`, newest last, for assertions. */
export const shownNotices: string[] = [];

export class Notice {
	constructor(message: string) {
		shownNotices.push(message);
	}
}

export class Component {
	private cleanups: Array<() => void> = [];
	loaded = false;

	onload(): void | Promise<void> {}
	onunload(): void {}

	async load(): Promise<void> {
		this.loaded = true;
		await this.onload();
	}

	unload(): void {
		for (const cleanup of this.cleanups.splice(0).reverse()) cleanup();
		this.loaded = false;
		this.onunload();
	}

	register(cleanup: () => void): void {
		this.cleanups.push(cleanup);
	}

	registerInterval(id: number): number {
		this.register(() => clearInterval(id));
		return id;
	}

	/** Registered-but-not-yet-cleaned-up count, for leak tests. */
	get cleanupCount(): number {
		return this.cleanups.length;
	}
}

export abstract class Plugin extends Component {
	settings?: unknown;
	readonly settingTabs: PluginSettingTab[] = [];

	constructor(
		public app: App,
		public manifest: PluginManifest,
	) {
		super();
	}

	private get dataPath(): string {
		return nodePath.join(this.app.vault.toDiskPath(this.app.vault.configDir), "plugins", this.manifest.id, "data.json");
	}

	async loadData(): Promise<unknown> {
		try {
			return JSON.parse(await fs.readFile(this.dataPath, "utf8")) as unknown;
		} catch {
			return null;
		}
	}

	async saveData(data: unknown): Promise<void> {
		await fs.mkdir(nodePath.dirname(this.dataPath), { recursive: true });
		await fs.writeFile(this.dataPath, JSON.stringify(data, null, 2));
	}

	addSettingTab(tab: PluginSettingTab): void {
		this.settingTabs.push(tab);
	}

	onExternalSettingsChange?(): unknown;
}

export abstract class PluginSettingTab {
	containerEl = { empty: () => undefined };
	constructor(
		public app: App,
		public plugin: Plugin,
	) {}
	abstract display(): void;
}

/** Not rendered in these tests: settings are changed through the plugin's own methods. */
export class Setting {
	constructor(public containerEl: unknown) {}
}
