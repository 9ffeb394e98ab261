import { dayjs } from "./moment";
import type { Host } from "../host/Host";
import type { DailyNoteSettings } from "./obsidianSettings";
import { findNote } from "./notes";
import type { Scope } from "./scope";

/** The Daily Notes core plugin fills {{time}} in this format. */
export const DAILY_NOTE_TIME_FORMAT = "HH:mm";

/** The vault path of the daily note for `date` (local time), from the Daily Notes settings. */
export function dailyNotePath(settings: DailyNoteSettings, date: Date): string {
	const name = dayjs(date).format(settings.format);
	return `${settings.folder ? `${settings.folder}/` : ""}${name}.md`;
}

/** True when `path` is a daily note: in the Daily Notes folder and named by its date format. */
export function isDailyNotePath(settings: DailyNoteSettings, path: string): boolean {
	const prefix = settings.folder ? `${settings.folder}/` : "";
	if (!path.startsWith(prefix) || !path.endsWith(".md")) return false;
	const name = path.slice(prefix.length, -".md".length);
	return dayjs(name, settings.format, true).isValid();
}

/**
 * The daily note's template text, or "" when none is set or it cannot be found. The template's
 * path comes from a config file anyone may have written: it goes through the same path policy and
 * exclusions as a tool argument, so a template in an excluded folder is treated as missing.
 */
export async function readDailyTemplate(host: Host, scope: Scope, settings: DailyNoteSettings): Promise<string> {
	if (!settings.template) return "";
	const found = findNote(host, scope, settings.template);
	return found.ok ? host.vault.cachedRead(found.value) : "";
}
