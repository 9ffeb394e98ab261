/*
 * Obsidian's own settings (app.json) and its plugins' (Daily Notes, Templates, Tasks), read from the
 * vault's config folder, with each one's defaults where a file or a field is missing. Read-only: the
 * server never writes Obsidian's settings.
 */
import type { Host } from "../host/Host";
import { DEFAULT_COMPLETION_SETTINGS, type CompletionSettings, type StatusConfig, type StatusType } from "../markdown/taskCompletion";
import type { NewLinkFormat } from "../markdown/linkRewrite";
import { trimSlashes } from "../paths/spelling";
import { OBSIDIAN_SETTINGS_MAX_CHARS } from "../config/limits";

/**
 * Reads a JSON file from the vault's config folder; null when it is missing, not JSON, or longer than
 * OBSIDIAN_SETTINGS_MAX_CHARS (no settings file of Obsidian's is near it; parsing one of 19 MB held
 * the server 280–340 ms in one piece, on every write). One over OBSIDIAN_SETTINGS_MAX_BYTES the
 * adapter refuses unread.
 */
async function readConfigJson(host: Host, relativePath: string): Promise<Record<string, unknown> | null> {
	const path = `${host.vault.configDir}/${relativePath}`;
	try {
		if (!(await host.vault.adapter.exists(path))) return null;
		const text = await host.vault.adapter.read(path);
		if (text.length > OBSIDIAN_SETTINGS_MAX_CHARS) return null;
		const value: unknown = JSON.parse(text);
		return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
	} catch {
		return null;
	}
}

/** A core plugin's text settings, each trimmed, and its default where it is missing or empty. */
async function textSettings<K extends string>(host: Host, relativePath: string, defaults: Record<K, string>): Promise<Record<K, string>> {
	const settings = await readConfigJson(host, relativePath);
	const values = { ...defaults };
	for (const name of Object.keys(defaults) as K[]) {
		const value = settings?.[name];
		const text = typeof value === "string" ? value.trim() : "";
		if (text !== "") values[name] = text;
	}
	return values;
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
	const settings = await textSettings(host, "daily-notes.json", { folder: "", format: DAILY_NOTE_DEFAULT_FORMAT, template: "" });
	return { ...settings, folder: trimSlashes(settings.folder) };
}

export interface TemplateSettings {
	/** The templates folder, "" when none is set. */
	folder: string;
	dateFormat: string;
	timeFormat: string;
}

/** Obsidian's defaults for the Templates core plugin's {{date}} and {{time}}. */
const TEMPLATE_DEFAULT_DATE_FORMAT = "YYYY-MM-DD";
const TEMPLATE_DEFAULT_TIME_FORMAT = "HH:mm";

/** The Templates core plugin's settings (`templates.json`), with Obsidian's defaults filled in. */
export async function templateSettings(host: Host): Promise<TemplateSettings> {
	const settings = await textSettings(host, "templates.json", {
		folder: "",
		dateFormat: TEMPLATE_DEFAULT_DATE_FORMAT,
		timeFormat: TEMPLATE_DEFAULT_TIME_FORMAT,
	});
	return { ...settings, folder: trimSlashes(settings.folder) };
}

const TASKS_SETTINGS = "plugins/obsidian-tasks-plugin/data.json";

/** How the Tasks plugin writes dates on this vault: its emoji format (the default) or Dataview fields. */
export async function taskDateFormat(host: Host): Promise<"emoji" | "dataview"> {
	const tasks = await readConfigJson(host, TASKS_SETTINGS);
	return tasks?.taskFormat === "dataview" ? "dataview" : "emoji";
}

const STATUS_TYPES: readonly StatusType[] = ["TODO", "DONE", "IN_PROGRESS", "ON_HOLD", "CANCELLED", "NON_TASK"];

/** The Tasks plugin's settings for changing a task's status (its data.json), with Tasks' defaults for what is missing. */
export async function taskCompletionSettings(host: Host): Promise<CompletionSettings> {
	const tasks = await readConfigJson(host, TASKS_SETTINGS);
	const flag = (name: Exclude<keyof CompletionSettings, "statuses">): boolean => {
		const value = tasks?.[name];
		return typeof value === "boolean" ? value : DEFAULT_COMPLETION_SETTINGS[name];
	};
	const statuses: Record<string, StatusConfig> = { ...DEFAULT_COMPLETION_SETTINGS.statuses };
	const configured = tasks?.statusSettings as { coreStatuses?: unknown; customStatuses?: unknown } | undefined;
	for (const list of [configured?.coreStatuses, configured?.customStatuses]) {
		if (!Array.isArray(list)) continue;
		for (const entry of list as Array<Record<string, unknown>>) {
			const { symbol, nextStatusSymbol, type } = entry ?? {};
			if (typeof symbol !== "string" || [...symbol].length !== 1 || typeof nextStatusSymbol !== "string" || !STATUS_TYPES.includes(type as StatusType))
				continue;
			statuses[symbol] = { type: type as StatusType, next: nextStatusSymbol };
		}
	}
	return {
		statuses,
		setDoneDate: flag("setDoneDate"),
		setCancelledDate: flag("setCancelledDate"),
		setCreatedDate: flag("setCreatedDate"),
		recurrenceOnNextLine: flag("recurrenceOnNextLine"),
		removeScheduledDateOnRecurrence: flag("removeScheduledDateOnRecurrence"),
	};
}

/** Obsidian's default "New link format". */
const DEFAULT_LINK_FORMAT: NewLinkFormat = "shortest";

/** The vault's "New link format" (`app.json`'s `newLinkFormat`): how a rename writes the links it updates. */
export async function newLinkFormat(host: Host): Promise<NewLinkFormat> {
	const app = await readConfigJson(host, "app.json");
	const format = app?.newLinkFormat;
	return format === "relative" || format === "absolute" || format === "shortest" ? format : DEFAULT_LINK_FORMAT;
}

/**
 * Whether Obsidian updates links itself when a file is renamed ("Automatically update internal
 * links", `app.json`'s `alwaysUpdateLinks`). When it does not, its `renameFile` leaves links (or
 * asks the person), so a rename inside Obsidian rewrites them itself, as headless.
 */
export async function obsidianUpdatesLinks(host: Host): Promise<boolean> {
	const app = await readConfigJson(host, "app.json");
	return app?.alwaysUpdateLinks === true;
}
