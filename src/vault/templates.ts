/** Templates as Obsidian's core plugins fill them: the Templates folder, and {{title}}, {{date}}, {{time}} with formats. */
import { dayjs } from "./moment";
import type { Host, HostFile } from "../host/Host";
import { parseFrontmatter, splitFrontmatter } from "../markdown/frontmatter";
import { appendToEnd, detectFormat, isOutline, type EditMode, type FormatDefaults } from "../markdown/outline";
import type { TemplateSettings } from "./obsidianSettings";
import { findNote } from "./notes";
import { fail, type Result } from "../result";
import { isInFolder, isPathVisible, mayNameHidden, type Scope } from "./scope";

/** The formats `{{date}}` and `{{time}}` take when they name none. */
export type TemplateFormats = Pick<TemplateSettings, "dateFormat" | "timeFormat">;

/**
 * The format of a `{{date:FORMAT}}` as written between the colon and the braces, spaces around it
 * dropped; one of only spaces is that space. Trimmed here rather than by `\s*` around a lazy
 * group in the pattern, whose spaces could be split in quadratically many ways.
 */
function formatInBraces(written: string): string {
	const trimmed = written.trim();
	return trimmed === "" ? written.slice(-1) : trimmed;
}

/**
 * Fills a template's variables as Obsidian's core Templates and Daily Notes plugins do:
 * `{{title}}`, `{{date}}` and `{{time}}` in the given formats, and `{{date:FORMAT}}` /
 * `{{time:FORMAT}}` with a moment-style format of their own. Pure.
 */
export function fillTemplate(template: string, formats: TemplateFormats, date: Date, title: string): string {
	const day = dayjs(date);
	// A format holds no brace: with `[^}]+`, a template of many unclosed `{{date:` scanned to its end from each (quadratic).
	return template
		.replace(/\{\{\s*(?:date|time)\s*:([^{}]+)\}\}/gi, (_match, format: string) => day.format(formatInBraces(format)))
		.replace(/\{\{\s*date\s*\}\}/gi, () => day.format(formats.dateFormat))
		.replace(/\{\{\s*time\s*\}\}/gi, () => day.format(formats.timeFormat))
		.replace(/\{\{\s*title\s*\}\}/gi, () => title);
}

/**
 * The template a tool argument names: a note in the Templates folder, given by its vault path or
 * by its path inside that folder, with or without `.md`. The path goes through the same policy and
 * exclusions as any note path.
 */
export function findTemplate(host: Host, scope: Scope, settings: TemplateSettings, input: string): Result<HostFile> {
	if (!settings.folder)
		return fail("No templates folder is set: choose one in Settings → Templates (the core Templates plugin), or create the note without a template.");
	const wanted = input.trim().replace(/^\/+/, "");
	const inFolder = isInFolder(wanted, settings.folder) ? wanted : `${settings.folder}/${wanted}`;
	const found = findNote(host, scope, inFolder.endsWith(".md") ? inFolder : `${inFolder}.md`);
	if (!found.ok || !isInFolder(found.value.path, settings.folder)) {
		// A templates folder this caller may not see is not named: its path would tell of an excluded folder.
		const where =
			isPathVisible(settings.folder, scope) && !mayNameHidden(settings.folder, scope)
				? `the templates folder "${settings.folder}"`
				: "the templates folder";
		return fail(`No template "${input}" in ${where}. Call list_templates for the templates there.`);
	}
	return found;
}

/**
 * A new note's text from a filled template and the caller's `content`, added at the end in the
 * note's own format as append_to_note adds it: bullets in an outline (frontmatter `mode: outliner`,
 * or a template that is only a list; `mode` overrides), paragraphs otherwise. Pure.
 */
export function noteFromTemplate(filled: string, content: string, defaults: FormatDefaults, mode?: EditMode): string {
	if (content.trim() === "") return filled;
	const frontmatterMode: unknown = parseFrontmatter(splitFrontmatter(filled)?.yaml ?? "")?.mode;
	const style = mode ?? (isOutline(filled, frontmatterMode) ? "outliner" : "freeform");
	const result = appendToEnd(filled, content, style, detectFormat(filled, defaults));
	return result.ok ? result.value.text : filled;
}
