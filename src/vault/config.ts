import type { Host } from "../host/Host";

/** Reads a JSON file from the vault's config folder; null when it is missing or not JSON. */
async function readConfigJson(host: Host, relativePath: string): Promise<Record<string, unknown> | null> {
	const path = `${host.vault.configDir}/${relativePath}`;
	try {
		if (!(await host.vault.adapter.exists(path))) return null;
		const value: unknown = JSON.parse(await host.vault.adapter.read(path));
		return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
	} catch {
		return null;
	}
}

/** The editor's indentation settings (`app.json`), used when a note has no indentation to copy. */
export async function indentationSettings(host: Host): Promise<{ useTab?: boolean; tabSize?: number }> {
	const app = await readConfigJson(host, "app.json");
	return {
		useTab: typeof app?.useTab === "boolean" ? app.useTab : undefined,
		tabSize: typeof app?.tabSize === "number" && app.tabSize > 0 ? app.tabSize : undefined,
	};
}

export interface DailyNoteSettings {
	folder: string;
	format: string;
	template: string;
}

/** Obsidian's own defaults for the Daily Notes core plugin. */
const DAILY_NOTE_DEFAULT_FORMAT = "YYYY-MM-DD";

/** The Daily Notes core plugin's settings (`daily-notes.json`), with Obsidian's defaults filled in. */
export async function dailyNoteSettings(host: Host): Promise<DailyNoteSettings> {
	const settings = await readConfigJson(host, "daily-notes.json");
	const text = (value: unknown) => (typeof value === "string" ? value.trim() : "");
	return {
		folder: text(settings?.folder).replace(/^\/+|\/+$/g, ""),
		format: text(settings?.format) || DAILY_NOTE_DEFAULT_FORMAT,
		template: text(settings?.template),
	};
}

/** How the Tasks plugin writes dates on this vault: its emoji format (the default) or Dataview fields. */
export async function taskDateFormat(host: Host): Promise<"emoji" | "dataview"> {
	const tasks = await readConfigJson(host, "plugins/obsidian-tasks-plugin/data.json");
	return tasks?.taskFormat === "dataview" ? "dataview" : "emoji";
}

/** The core Templates plugin's template folder (`templates.json`'s `folder`); "" when none is set. */
export async function templatesFolder(host: Host): Promise<string> {
	const settings = await readConfigJson(host, "templates.json");
	return typeof settings?.folder === "string" ? settings.folder.trim().replace(/^\/+|\/+$/g, "") : "";
}
