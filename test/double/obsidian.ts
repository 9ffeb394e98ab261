/**
 * The `obsidian` module for tests: the few runtime values the plugin imports, backed by NodeHost.
 * Behaviour lives in NodeHost (checked against captures from real Obsidian); this file only
 * supplies the plugin lifecycle (Component/Plugin), settings storage and UI stand-ins.
 */
import { promises as fs, readdirSync } from "node:fs";
import * as nodePath from "node:path";
import type { NodeHost } from "../../src/headless/NodeHost";
import { normalizeVaultPath } from "../../src/paths/spelling";
import "./dom";

export { copiedTexts } from "./dom";

// Obsidian plugins run in a browser window; `window.setInterval` is what the review rules ask for.
(globalThis as { window?: unknown }).window ??= globalThis;
// Obsidian's globals for the window in front (popouts aside, the main one); tests may spy on activeDocument.hasFocus.
(globalThis as { activeDocument?: unknown }).activeDocument ??= document;
(globalThis as { activeWindow?: unknown }).activeWindow ??= globalThis;

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
	/** The plugin's folder in the vault, as Obsidian sets it: the folder it was installed in, whatever its name. */
	dir?: string;
}

type HostFile = ReturnType<NodeHost["vault"]["getMarkdownFiles"]>[number];

/** Obsidian's `WorkspaceLeaf`: one tab, that shows the file it is given. */
export interface WorkspaceLeaf {
	openFile(file: HostFile, openState?: { active?: boolean; eState?: Record<string, unknown> }): Promise<void>;
}

/**
 * Obsidian's workspace as far as the plugin uses it: tabs, each showing one file, one of them
 * focused, and the focused editor's selection. `getLeaf` gives a tab (a new one for `"tab"` or
 * `true`, else the focused one) whose `openFile` shows that very file, scrolled to `eState.subpath`,
 * and focuses it when `active` is set. `openLinkText` (what a person's click on a link does) resolves
 * the link as Obsidian does, through the metadata cache: the text before the first `#` is the link
 * path, so a file whose path holds `#` is not what it opens.
 */
export class Workspace {
	/** Open tabs, oldest first: the file each shows and the heading it was scrolled to. */
	readonly tabs: Array<{ path: string; subpath: string }> = [];
	private focused = -1;
	private selection = "";

	constructor(private readonly host: Pick<NodeHost, "vault" | "metadataCache">) {}

	onLayoutReady(callback: () => void): void {
		queueMicrotask(callback);
	}

	getLeaf(newLeaf?: "tab" | "split" | "window" | boolean): WorkspaceLeaf {
		// The tab is made as the file is opened in it (Obsidian makes it empty first; nothing here looks in between).
		const index = newLeaf || this.focused === -1 ? null : this.focused;
		return {
			openFile: (file, openState) => {
				const tab = { path: file.path, subpath: typeof openState?.eState?.subpath === "string" ? openState.eState.subpath : "" };
				const at = index ?? this.tabs.push(tab) - 1;
				this.tabs[at] = tab;
				if (openState?.active === true) this.focus(at);
				return Promise.resolve();
			},
		};
	}

	openLinkText(linktext: string, sourcePath: string, newLeaf?: boolean | string): Promise<void> {
		const hash = linktext.indexOf("#");
		const linkpath = hash === -1 ? linktext : linktext.slice(0, hash);
		const file = this.host.metadataCache.getFirstLinkpathDest(linkpath, sourcePath);
		// Obsidian opens an unresolved link as a new note; the tools never pass one.
		if (!file) return Promise.reject(new Error(`the double does not create notes from links: ${linktext}`));
		return this.getLeaf(Boolean(newLeaf)).openFile(file, { active: true, eState: { subpath: hash === -1 ? "" : linktext.slice(hash) } });
	}

	getActiveFile(): HostFile | null {
		const tab = this.tabs[this.focused];
		return tab ? this.host.vault.getFileByPath(tab.path) : null;
	}

	get activeEditor(): { file: HostFile | null; editor: { getSelection(): string } } | null {
		const file = this.getActiveFile();
		return file ? { file, editor: { getSelection: () => this.selection } } : null;
	}

	/** What a person does in the window: focus a tab (none: -1) and select text in it. */
	focus(index: number, selection = ""): void {
		this.focused = index;
		this.selection = selection;
	}
}

/** The App the double hands the plugin: NodeHost's vault and metadata cache, and a workspace that is always ready. */
export interface App {
	vault: NodeHost["vault"];
	metadataCache: NodeHost["metadataCache"];
	workspace: Workspace;
	/** Obsidian's FileManager: trashing goes to the vault's `.trash`, as with "Move to Obsidian trash". */
	fileManager: NodeHost["fileManager"];
	/** Obsidian's (unofficial) settings window; records which tab was opened. */
	setting: { opened: string[]; open(): void; openTabById(id: string): void };
	/**
	 * Notes `vault.process` saved with the very text it read. Obsidian saves whatever the callback
	 * returns ("the text value of the note that was written", obsidian.d.ts), its own text included;
	 * NodeVault skips such a write, so the double notes each one Obsidian would have made.
	 */
	unchangedSaves: string[];
}

/** NodeHost's vault as Obsidian's: the same, but a `process` whose callback returns the text it read is noted as a save (see `App.unchangedSaves`). */
function obsidianVault(vault: NodeHost["vault"], unchangedSaves: string[]): NodeHost["vault"] {
	const process: NodeHost["vault"]["process"] = async (file, fn, options) => {
		let same = false;
		const written = await vault.process(
			file,
			(data) => {
				const next = fn(data);
				same = next === data;
				return next;
			},
			options,
		);
		if (same) unchangedSaves.push(file.path);
		return written;
	};
	// Obsidian's DataAdapter also answers `stat` (null for nothing there). The plugin reads settings files through its jail, not the adapter.
	const adapter = {
		...vault.adapter,
		stat: async (path: string): Promise<{ type: "file" | "folder"; ctime: number; mtime: number; size: number } | null> => {
			const stats = await fs.stat(nodePath.join(vault.adapter.getBasePath(), path)).catch(() => null);
			if (stats === null) return null;
			return { type: stats.isDirectory() ? "folder" : "file", ctime: stats.birthtimeMs, mtime: stats.mtimeMs, size: stats.size };
		},
	};
	// Obsidian's createFolder refuses a path already taken (a folder made a moment ago by another call included); NodeVault's makes what is missing.
	const createFolder: NodeHost["vault"]["createFolder"] = async (path) => {
		if (vault.getFolderByPath(normalizeVaultPath(path)) || vault.getFileByPath(normalizeVaultPath(path))) throw new Error("Folder already exists.");
		return await vault.createFolder(path);
	};
	// Obsidian's lookups are by the path as given: getAbstractFileByPath is documented "case sensitive", and its callers are told
	// to normalizePath beforehand (obsidian.d.ts 1.12.3). NodeVault's getFileByPath also finds the file at the path's
	// normalised spelling (no-break spaces as spaces, NFC, slashes): code that passes an unnormalised path would find a file
	// headless and none in Obsidian.
	const getFileByPath: NodeHost["vault"]["getFileByPath"] = (path) => {
		const found = vault.getFileByPath(path);
		return found !== null && found.path === path ? found : null;
	};
	// Obsidian's folders (TFolder) hold their children; NodeVault's lookups answer a path and a name. A folder's children here are
	// read from the disk when asked (hidden names and links left out, as Obsidian's tree has them), folders with children of their own.
	const folderOf = (path: string, name: string): { path: string; name: string; children: Array<{ path: string; name: string }> } => ({
		path,
		name,
		get children() {
			const diskFolder = path === "/" ? vault.adapter.getBasePath() : vault.toDiskPath(path);
			return readdirSync(diskFolder, { withFileTypes: true })
				.filter((entry) => !entry.name.startsWith(".") && !entry.isSymbolicLink())
				.map((entry) => {
					const childName = entry.name.normalize("NFC");
					const childPath = path === "/" ? childName : `${path}/${childName}`;
					return entry.isDirectory() ? folderOf(childPath, childName) : { path: childPath, name: childName };
				});
		},
	});
	const getFolderByPath = (path: string) => {
		const found = vault.getFolderByPath(path);
		return found === null ? null : folderOf(found.path, found.name);
	};
	const getRoot = () => folderOf("/", "");
	return new Proxy(vault, {
		get(target, key) {
			if (key === "getFolderByPath") return getFolderByPath;
			if (key === "getRoot") return getRoot;
			if (key === "getFileByPath") return getFileByPath;
			if (key === "process") return process;
			if (key === "createFolder") return createFolder;
			if (key === "adapter") return adapter;
			const value: unknown = Reflect.get(target, key, target);
			return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
		},
	});
}

export function createApp(host: NodeHost): App {
	const opened: string[] = [];
	const unchangedSaves: string[] = [];
	return {
		vault: obsidianVault(host.vault, unchangedSaves),
		unchangedSaves,
		metadataCache: host.metadataCache,
		workspace: new Workspace(host),
		fileManager: host.fileManager,
		setting: { opened, open: () => undefined, openTabById: (id) => opened.push(id) },
	};
}

/** Where ribbon icons and status bar items live, as in Obsidian's window. */
function area(cls: string): HTMLElement {
	return document.body.querySelector<HTMLElement>(`.${cls}`) ?? document.body.createDiv({ cls });
}

/** Obsidian's normalizePath: the vault's one spelling of a path. */
export function normalizePath(path: string): string {
	return normalizeVaultPath(path);
}

export function setIcon(el: HTMLElement, icon: string): void {
	el.setAttr("data-icon", icon);
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

	registerDomEvent(el: HTMLElement, type: string, callback: (event: Event) => unknown): void {
		el.addEventListener(type, callback);
		this.register(() => el.removeEventListener(type, callback));
	}

	/** As Obsidian's: the listener is taken off its events at unload (`ref.e.offref(ref)`). */
	registerEvent(ref: EventRef): void {
		const events = (ref as { e?: { offref(ref: EventRef): void } }).e;
		if (!events) throw new Error("registerEvent takes an EventRef from an Events object's on()");
		this.register(() => events.offref(ref));
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

	/** As Obsidian's: data.json in the folder the plugin was installed in (`manifest.dir`). */
	private get dataPath(): string {
		const folder = this.manifest.dir ?? `${this.app.vault.configDir}/plugins/${this.manifest.id}`;
		return nodePath.join(this.app.vault.toDiskPath(folder), "data.json");
	}

	/** Like Obsidian's: null when there is no data.json, and a SyntaxError when it is not JSON. */
	async loadData(): Promise<unknown> {
		let text: string;
		try {
			text = await fs.readFile(this.dataPath, "utf8");
		} catch {
			return null;
		}
		return JSON.parse(text) as unknown;
	}

	async saveData(data: unknown): Promise<void> {
		await fs.mkdir(nodePath.dirname(this.dataPath), { recursive: true });
		await fs.writeFile(this.dataPath, JSON.stringify(data, null, 2));
	}

	readonly commands = new Map<string, Command>();

	addSettingTab(tab: PluginSettingTab): void {
		this.settingTabs.push(tab);
	}

	addRibbonIcon(icon: string, title: string, callback: (event: MouseEvent) => unknown): HTMLElement {
		const el = area("side-dock-ribbon").createDiv({ cls: "side-dock-ribbon-action", attr: { "aria-label": title, "data-icon": icon } });
		el.addEventListener("click", (event) => callback(event));
		this.register(() => el.remove());
		return el;
	}

	addStatusBarItem(): HTMLElement {
		const el = area("status-bar").createDiv({ cls: "status-bar-item" });
		this.register(() => el.remove());
		return el;
	}

	addCommand(command: Command): Command {
		if (command.hotkeys?.length) throw new Error("Plugins must not set default hotkeys");
		this.commands.set(command.id, command);
		return command;
	}

	onExternalSettingsChange?(): unknown;
}

export interface Command {
	id: string;
	name: string;
	callback?: () => unknown;
	hotkeys?: unknown[];
}

export abstract class PluginSettingTab {
	containerEl: HTMLElement = document.createElement("div");
	constructor(
		public app: App,
		public plugin: Plugin,
	) {}
	abstract display(): void;
	hide(): void {
		this.containerEl.empty();
	}
}

type ChangeHandler<T> = (value: T) => unknown;

class ToggleComponent {
	readonly toggleEl: HTMLElement;
	private value = false;
	private handler: ChangeHandler<boolean> = () => undefined;
	disabled = false;
	constructor(parent: HTMLElement) {
		this.toggleEl = parent.createDiv({ cls: "checkbox-container" });
		this.toggleEl.addEventListener("click", () => {
			if (this.disabled) return;
			this.setValue(!this.value);
			void this.handler(this.value);
		});
	}
	setValue(value: boolean): this {
		this.value = value;
		this.toggleEl.toggleClass("is-enabled", value);
		return this;
	}
	getValue(): boolean {
		return this.value;
	}
	setDisabled(disabled: boolean): this {
		this.disabled = disabled;
		this.toggleEl.toggleClass("is-disabled", disabled);
		return this;
	}
	onChange(handler: ChangeHandler<boolean>): this {
		this.handler = handler;
		return this;
	}
}

class InputComponent<E extends HTMLInputElement | HTMLTextAreaElement> {
	constructor(readonly inputEl: E) {
		inputEl.addEventListener("input", () => void this.handler(inputEl.value));
	}
	private handler: ChangeHandler<string> = () => undefined;
	setValue(value: string): this {
		this.inputEl.value = value;
		// Also as markup, so a rendered copy of the page (the screenshots) shows it.
		if (this.inputEl.tagName === "TEXTAREA") this.inputEl.textContent = value;
		else this.inputEl.setAttribute("value", value);
		return this;
	}
	getValue(): string {
		return this.inputEl.value;
	}
	setPlaceholder(value: string): this {
		this.inputEl.placeholder = value;
		return this;
	}
	onChange(handler: ChangeHandler<string>): this {
		this.handler = handler;
		return this;
	}
}

class ButtonComponent {
	readonly buttonEl: HTMLButtonElement;
	constructor(parent: HTMLElement) {
		this.buttonEl = parent.createEl("button");
	}
	setButtonText(text: string): this {
		this.buttonEl.setText(text);
		return this;
	}
	setCta(): this {
		this.buttonEl.addClass("mod-cta");
		return this;
	}
	setWarning(): this {
		this.buttonEl.addClass("mod-warning");
		return this;
	}
	setDisabled(disabled: boolean): this {
		this.buttonEl.disabled = disabled;
		return this;
	}
	onClick(handler: (event: MouseEvent) => unknown): this {
		this.buttonEl.addEventListener("click", (event) => void handler(event));
		return this;
	}
}

class DropdownComponent {
	readonly selectEl: HTMLSelectElement;
	private handler: ChangeHandler<string> = () => undefined;
	constructor(parent: HTMLElement) {
		this.selectEl = parent.createEl("select");
		this.selectEl.addEventListener("change", () => void this.handler(this.selectEl.value));
	}
	addOption(value: string, display: string): this {
		this.selectEl.createEl("option", { text: display, attr: { value } });
		return this;
	}
	setValue(value: string): this {
		this.selectEl.value = value;
		// Also as markup, so a rendered copy of the page (the screenshots) shows it.
		for (const option of this.selectEl.options) option.toggleAttribute("selected", option.value === value);
		return this;
	}
	getValue(): string {
		return this.selectEl.value;
	}
	setDisabled(disabled: boolean): this {
		this.selectEl.disabled = disabled;
		return this;
	}
	onChange(handler: ChangeHandler<string>): this {
		this.handler = handler;
		return this;
	}
}

/** Obsidian's Setting row: name, description, controls — as real DOM, so tests can click. */
export class Setting {
	readonly settingEl: HTMLElement;
	readonly infoEl: HTMLElement;
	readonly nameEl: HTMLElement;
	readonly descEl: HTMLElement;
	readonly controlEl: HTMLElement;
	constructor(containerEl: HTMLElement) {
		this.settingEl = containerEl.createDiv({ cls: "setting-item" });
		this.infoEl = this.settingEl.createDiv({ cls: "setting-item-info" });
		this.nameEl = this.infoEl.createDiv({ cls: "setting-item-name" });
		this.descEl = this.infoEl.createDiv({ cls: "setting-item-description" });
		this.controlEl = this.settingEl.createDiv({ cls: "setting-item-control" });
	}
	setName(name: string): this {
		this.nameEl.setText(name);
		return this;
	}
	setDesc(desc: string): this {
		this.descEl.setText(desc);
		return this;
	}
	setHeading(): this {
		this.settingEl.addClass("setting-item-heading");
		return this;
	}
	addToggle(build: (toggle: ToggleComponent) => unknown): this {
		build(new ToggleComponent(this.controlEl));
		return this;
	}
	addText(build: (text: InputComponent<HTMLInputElement>) => unknown): this {
		build(new InputComponent(this.controlEl.createEl("input", { attr: { type: "text" } })));
		return this;
	}
	addTextArea(build: (text: InputComponent<HTMLTextAreaElement>) => unknown): this {
		build(new InputComponent(this.controlEl.createEl("textarea")));
		return this;
	}
	addButton(build: (button: ButtonComponent) => unknown): this {
		build(new ButtonComponent(this.controlEl));
		return this;
	}
	addDropdown(build: (dropdown: DropdownComponent) => unknown): this {
		build(new DropdownComponent(this.controlEl));
		return this;
	}
}

export class Modal {
	readonly containerEl: HTMLElement = document.createElement("div");
	readonly modalEl: HTMLElement;
	readonly titleEl: HTMLElement;
	readonly contentEl: HTMLElement;
	constructor(public app: App) {
		this.containerEl.addClass("modal-container");
		this.modalEl = this.containerEl.createDiv({ cls: "modal" });
		this.titleEl = this.modalEl.createDiv({ cls: "modal-title" });
		this.contentEl = this.modalEl.createDiv({ cls: "modal-content" });
	}
	setTitle(title: string): this {
		this.titleEl.setText(title);
		return this;
	}
	/** As in Obsidian, Escape closes the window in front (and only that one). */
	private readonly closeOnEscape = (event: KeyboardEvent) => {
		const modals = document.body.querySelectorAll(".modal-container");
		if (event.key !== "Escape" || event.defaultPrevented || modals[modals.length - 1] !== this.containerEl) return;
		event.preventDefault();
		this.close();
	};
	open(): void {
		document.body.appendChild(this.containerEl);
		document.addEventListener("keydown", this.closeOnEscape);
		this.onOpen();
	}
	close(): void {
		document.removeEventListener("keydown", this.closeOnEscape);
		this.containerEl.remove();
		this.onClose();
	}
	onOpen(): void {}
	onClose(): void {}
}

export class MenuItem {
	title = "";
	icon = "";
	handler: () => unknown = () => undefined;
	setTitle(title: string): this {
		this.title = title;
		return this;
	}
	setIcon(icon: string): this {
		this.icon = icon;
		return this;
	}
	setWarning(): this {
		return this;
	}
	onClick(handler: () => unknown): this {
		this.handler = handler;
		return this;
	}
}

/** Menus the plugin showed, newest last, for tests to read and click. */
export const shownMenus: Menu[] = [];

export class Menu {
	readonly items: MenuItem[] = [];
	addItem(build: (item: MenuItem) => unknown): this {
		const item = new MenuItem();
		build(item);
		this.items.push(item);
		return this;
	}
	showAtMouseEvent(event: MouseEvent): this {
		void event;
		shownMenus.push(this);
		return this;
	}
}
