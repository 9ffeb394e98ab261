/*
 * Obsidian's own settings (app.json) and its plugins' (Daily Notes, Templates, Tasks), read from the
 * vault's config folder, with each one's defaults where a file or a field is missing. Read-only: the
 * server never writes Obsidian's settings.
 */
import type { Host } from "../host/Host";
import { DEFAULT_COMPLETION_SETTINGS, type CompletionSettings, type StatusConfig, type StatusType } from "../markdown/taskCompletion";
import type { NewLinkFormat } from "../markdown/linkRewrite";
import { isTaskStatusSymbol } from "../markdown/taskLine";
import { trimSlashes } from "../paths/spelling";
import { DAILY_NOTE_MAX_FORMAT_CHARS, OBSIDIAN_SETTINGS_MAX_BYTES, OBSIDIAN_SETTINGS_MAX_CHARS } from "../config/limits";
import { FileOverBytesError } from "../host/FileOverBytesError";
import { errorKind, type Logger } from "../activity";

/** A settings file's object, or null when it is missing or cannot be used; `unused` says why one that is there is not used. */
interface ConfigJson {
	value: Record<string, unknown> | null;
	unused?: string;
}

/** Where each host's unusable settings files are logged, and what was last logged of each file (why, and its size then). */
const settingsLogs = new WeakMap<Host, { logger: Logger; told: Map<string, string> }>();

/**
 * Logs, for this host, each settings file that is there but not used (over its bound, not JSON), once per file and
 * change: a person whose templates or daily notes settings were ignored could not learn why. The file's name only, never its text.
 */
export function logUnusedSettings(host: Host, logger: Logger): void {
	settingsLogs.set(host, { logger, told: new Map() });
}

/** Why a settings file was not used, told once per file per change (the same reason and size again is the same file). */
function told(host: Host, relativePath: string, why: string | undefined, size: number): void {
	const log = settingsLogs.get(host);
	if (!log) return;
	if (why === undefined) {
		log.told.delete(relativePath);
		return;
	}
	const key = `${why} ${size}`;
	if (log.told.get(relativePath) === key) return;
	log.told.set(relativePath, key);
	log.logger.warn(`obsidian settings: ${relativePath} is ${why}; its settings are not used`);
}

/**
 * Reads a JSON file from the vault's config folder; null when it is missing, and null with the reason
 * (`unused`, logged too) when it is not JSON or longer than OBSIDIAN_SETTINGS_MAX_CHARS (no settings
 * file of Obsidian's is near it; parsing one of 19 MB held the server 280–340 ms in one piece, on every
 * write). One over OBSIDIAN_SETTINGS_MAX_BYTES the adapter refuses unread. `refuse` says why an object
 * that is read is not used all the same (a field over its bound), or undefined.
 */
async function readConfigJson(
	host: Host,
	relativePath: string,
	refuse: (value: Record<string, unknown>) => string | undefined = () => undefined,
): Promise<ConfigJson> {
	const path = `${host.vault.configDir}/${relativePath}`;
	let why: string;
	let size = 0;
	try {
		if (!(await host.vault.adapter.exists(path))) {
			told(host, relativePath, undefined, 0);
			return { value: null };
		}
		const text = await host.vault.adapter.read(path);
		size = text.length;
		if (text.length > OBSIDIAN_SETTINGS_MAX_CHARS) why = `over ${OBSIDIAN_SETTINGS_MAX_CHARS} characters`;
		else {
			const value: unknown = JSON.parse(text);
			const refused =
				value !== null && typeof value === "object" && !Array.isArray(value) ? refuse(value as Record<string, unknown>) : "not a JSON object";
			if (refused === undefined) {
				told(host, relativePath, undefined, 0);
				return { value: value as Record<string, unknown> };
			}
			why = refused;
		}
	} catch (error) {
		// Removed since it was found: missing, as if it had not been found.
		if ((error as NodeJS.ErrnoException | null)?.code === "ENOENT") return { value: null };
		if (error instanceof FileOverBytesError) {
			why = `over ${OBSIDIAN_SETTINGS_MAX_BYTES} bytes`;
			size = error.bytes;
		} else why = error instanceof SyntaxError ? "not valid JSON" : `unreadable (${errorKind(error)})`;
	}
	told(host, relativePath, why, size);
	return { value: null, unused: `Obsidian's ${relativePath} settings file is ${why}, so it is not used: its defaults apply.` };
}

/** A core plugin's text settings, each trimmed, and its default where it is missing or empty; `unused` as readConfigJson's. */
async function textSettings<K extends string>(
	host: Host,
	relativePath: string,
	defaults: Record<K, string>,
	refuse?: (value: Record<string, unknown>) => string | undefined,
): Promise<{ values: Record<K, string>; unused?: string }> {
	const { value: settings, unused } = await readConfigJson(host, relativePath, refuse);
	const values = { ...defaults };
	for (const name of Object.keys(defaults) as K[]) {
		const value = settings?.[name];
		const text = typeof value === "string" ? value.trim() : "";
		if (text !== "") values[name] = text;
	}
	return unused === undefined ? { values } : { values, unused };
}

/** The editor's indentation settings (`app.json`), used when a note has no indentation to copy. */
export async function indentationSettings(host: Host): Promise<{ useTab?: boolean; tabSize?: number }> {
	const app = (await readConfigJson(host, "app.json")).value;
	return {
		useTab: typeof app?.useTab === "boolean" ? app.useTab : undefined,
		tabSize: typeof app?.tabSize === "number" && app.tabSize > 0 ? app.tabSize : undefined,
	};
}

export interface DailyNoteSettings {
	folder: string;
	format: string;
	template: string;
	/** Why `daily-notes.json` is there but not used (these are then Obsidian's defaults), for the answer of the tool that read it. */
	unused?: string;
}

/** Obsidian's own defaults for the Daily Notes core plugin. */
const DAILY_NOTE_DEFAULT_FORMAT = "YYYY-MM-DD";

/**
 * Why a `daily-notes.json` is not used though it is JSON: a date format over DAILY_NOTE_MAX_FORMAT_CHARS
 * names no note, and reading names by it would hold the server (see the limit).
 */
function overlongDailyFormat(settings: Record<string, unknown>): string | undefined {
	const { format } = settings;
	return typeof format === "string" && format.trim().length > DAILY_NOTE_MAX_FORMAT_CHARS
		? `over ${DAILY_NOTE_MAX_FORMAT_CHARS} characters in its date format`
		: undefined;
}

/** The Daily Notes core plugin's settings (`daily-notes.json`), with Obsidian's defaults filled in (for the whole file when its date format is over its bound). */
export async function dailyNoteSettings(host: Host): Promise<DailyNoteSettings> {
	const { values, unused } = await textSettings(
		host,
		"daily-notes.json",
		{ folder: "", format: DAILY_NOTE_DEFAULT_FORMAT, template: "" },
		overlongDailyFormat,
	);
	return { ...values, folder: trimSlashes(values.folder), ...(unused === undefined ? {} : { unused }) };
}

export interface TemplateSettings {
	/** The templates folder, "" when none is set. */
	folder: string;
	dateFormat: string;
	timeFormat: string;
	/** Why `templates.json` is there but not used (these are then Obsidian's defaults), for the answer of the tool that read it. */
	unused?: string;
}

/** Obsidian's defaults for the Templates core plugin's {{date}} and {{time}}. */
const TEMPLATE_DEFAULT_DATE_FORMAT = "YYYY-MM-DD";
const TEMPLATE_DEFAULT_TIME_FORMAT = "HH:mm";

/** The Templates core plugin's settings (`templates.json`), with Obsidian's defaults filled in. */
export async function templateSettings(host: Host): Promise<TemplateSettings> {
	const { values, unused } = await textSettings(host, "templates.json", {
		folder: "",
		dateFormat: TEMPLATE_DEFAULT_DATE_FORMAT,
		timeFormat: TEMPLATE_DEFAULT_TIME_FORMAT,
	});
	return { ...values, folder: trimSlashes(values.folder), ...(unused === undefined ? {} : { unused }) };
}

const TASKS_SETTINGS = "plugins/obsidian-tasks-plugin/data.json";

/** How the Tasks plugin writes dates on this vault: its emoji format (the default) or Dataview fields. */
export async function taskDateFormat(host: Host): Promise<"emoji" | "dataview"> {
	const tasks = (await readConfigJson(host, TASKS_SETTINGS)).value;
	return tasks?.taskFormat === "dataview" ? "dataview" : "emoji";
}

const STATUS_TYPES: readonly StatusType[] = ["TODO", "DONE", "IN_PROGRESS", "ON_HOLD", "CANCELLED", "NON_TASK"];

/** The Tasks plugin's settings for changing a task's status (its data.json), with Tasks' defaults for what is missing. */
export async function taskCompletionSettings(host: Host): Promise<CompletionSettings> {
	const tasks = (await readConfigJson(host, TASKS_SETTINGS)).value;
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
			// A status whose symbol or next symbol cannot stand in a checkbox is left out, as one of an unknown type:
			// its next symbol is written into the new occurrence of a recurring task.
			if (
				typeof symbol !== "string" ||
				!isTaskStatusSymbol(symbol) ||
				typeof nextStatusSymbol !== "string" ||
				!isTaskStatusSymbol(nextStatusSymbol) ||
				!STATUS_TYPES.includes(type as StatusType)
			)
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
	const app = (await readConfigJson(host, "app.json")).value;
	const format = app?.newLinkFormat;
	return format === "relative" || format === "absolute" || format === "shortest" ? format : DEFAULT_LINK_FORMAT;
}

/**
 * Whether Obsidian updates links itself when a file is renamed ("Automatically update internal
 * links", `app.json`'s `alwaysUpdateLinks`). When it does not, its `renameFile` leaves links (or
 * asks the person), so a rename inside Obsidian rewrites them itself, as headless.
 */
export async function obsidianUpdatesLinks(host: Host): Promise<boolean> {
	const app = (await readConfigJson(host, "app.json")).value;
	return app?.alwaysUpdateLinks === true;
}
