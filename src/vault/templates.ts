/** Templates as Obsidian's core plugins fill them: the Templates folder, and {{title}}, {{date}}, {{time}} with formats. */
import { dayjs } from "./moment";
import type { Host, HostFile } from "../host/Host";
import { parseFrontmatter, splitFrontmatter } from "../markdown/frontmatter";
import { appendToEnd, detectFormat, isOutline, type EditMode, type FormatDefaults } from "../markdown/outline";
import type { TemplateSettings } from "./obsidianSettings";
import { findNote } from "./notes";
import { fail, ok, type Result } from "../result";
import { TEMPLATE_MAX_DATE_FORMAT_CHARS, TEMPLATE_MAX_TITLE_CHARS } from "../config/limits";
import { isInFolder, isPathVisible, mayNameHidden, type Scope } from "./scope";
import { echoed } from "../markdown/echo";
import { setProperty } from "../markdown/properties";
import { overEditedSize } from "./writes";

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

/** What one `{{date…}}` or `{{time…}}` counts against TEMPLATE_MAX_DATE_FORMAT_CHARS besides its format's characters (and one `{{title}}` against TEMPLATE_MAX_TITLE_CHARS besides the title's). */
const VARIABLE_WEIGHT = 2;

/**
 * Fills a template's variables as Obsidian's core Templates and Daily Notes plugins do:
 * `{{title}}`, `{{date}}` and `{{time}}` in the given formats, and `{{date:FORMAT}}` /
 * `{{time:FORMAT}}` with a moment-style format of their own. Pure. A template whose date and time
 * variables weigh more than TEMPLATE_MAX_DATE_FORMAT_CHARS is refused before any is filled: each
 * costs microseconds per character in one piece, and 100,000 `{{date}}` held the server 0.8 s. So
 * is one whose titles weigh more than TEMPLATE_MAX_TITLE_CHARS: each `{{title}}` copies the title,
 * and 500,000 of them made 96 MiB of text in pieces of 100–160 ms. A template longer than a note
 * the write tools change (overEditedSize) is refused too, and so is one whose frontmatter, filled, would not read back as
 * written (frontmatterReadsAsWritten).
 */
export function fillTemplate(template: string, formats: TemplateFormats, date: Date, title: string): Result<string> {
	// The new note is no longer than a note the write tools change: one of 200,000 bullets (4.6 MB) was made into a note in a piece of 130 ms.
	const tooLong = overEditedSize(template);
	if (tooLong !== null) return fail(`The template is ${tooLong}`);
	// A format holds no brace: with `[^}]+`, a template of many unclosed `{{date:` scanned to its end from each (quadratic).
	const withFormat = /\{\{\s*(?:date|time)\s*:([^{}]+)\}\}/gi;
	const bareDate = /\{\{\s*date\s*\}\}/gi;
	const bareTime = /\{\{\s*time\s*\}\}/gi;
	const titleVariable = /\{\{\s*title\s*\}\}/gi;
	// Counted until past the bound only: the count of a template of a million variables stops early too.
	const weightOf = (bound: number, kinds: ReadonlyArray<readonly [RegExp, (found: RegExpExecArray) => number]>): number => {
		let weight = 0;
		for (const [pattern, charsOf] of kinds)
			for (const found of template.matchAll(pattern)) if ((weight += VARIABLE_WEIGHT + charsOf(found)) > bound) return weight;
		return weight;
	};
	const dateWeight = weightOf(TEMPLATE_MAX_DATE_FORMAT_CHARS, [
		[withFormat, (found) => formatInBraces(found[1] ?? "").length],
		[bareDate, () => formats.dateFormat.length],
		[bareTime, () => formats.timeFormat.length],
	]);
	if (dateWeight > TEMPLATE_MAX_DATE_FORMAT_CHARS)
		return fail(
			`The template's date and time variables are too many or too long to fill (over ${TEMPLATE_MAX_DATE_FORMAT_CHARS} characters of formats). Shorten them in the template, or create the note without it.`,
		);
	if (weightOf(TEMPLATE_MAX_TITLE_CHARS, [[titleVariable, () => title.length]]) > TEMPLATE_MAX_TITLE_CHARS)
		return fail(
			`The template's {{title}} variables are too many to fill with this title (over ${TEMPLATE_MAX_TITLE_CHARS} characters of titles). Use fewer in the template, or create the note without it.`,
		);
	const day = dayjs(date);
	// Each variable's text, passed through `put` (the frontmatter's check gives a placeholder and keeps the text).
	const fill = (text: string, put: (value: string) => string): string =>
		text
			.replace(withFormat, (_match, format: string) => put(day.format(formatInBraces(format))))
			.replace(bareDate, () => put(day.format(formats.dateFormat)))
			.replace(bareTime, () => put(day.format(formats.timeFormat)))
			.replace(titleVariable, () => put(title));
	const filled = fill(template, (value) => value);
	const frontmatter = splitFrontmatter(template)?.yaml;
	if (frontmatter !== undefined && !frontmatterReadsAsWritten(frontmatter, splitFrontmatter(filled)?.yaml ?? "", fill))
		return fail(
			"Filled in, the template's frontmatter would not read back as written: the text a {{title}}, {{date}} or {{time}} puts there (the note's name, or a date in the template's format) holds what YAML reads otherwise in that place (': ', ' #', a quote) or a line break or cannot hold (U+FFFE, U+FFFF, a lone surrogate, a control character). Choose a name without it, quote the variable in the template (title: \"{{title}}\"), or create the note without the template.",
		);
	return ok(filled);
}

/** A placeholder for the frontmatter's check: plain YAML that reads as itself anywhere a value or a word of one may stand. */
const FILL_PLACEHOLDER = /VaultMcpFill(\d+)Z/g;

/** What YAML 1.2 cannot hold in a document, even quoted (only escaped): it is not in YAML's printable set. */
// eslint-disable-next-line no-control-regex -- the control characters are what it finds
const NOT_YAML_PRINTABLE_CHARACTER = /[\x00-\x08\x0B\x0C\x0E-\x1F\x7F-\x84\x86-\x9F\uFFFE\uFFFF]|\p{Cs}/u;

/** A line break to YAML 1.2 (CR, LF) or 1.1 (also U+0085, U+2028, U+2029). */
const YAML_LINE_BREAK = /[\r\n\x85\u2028\u2029]/u;

/**
 * Whether a template's frontmatter filled (`filled`) reads as the template's own frontmatter with each variable's text
 * where the variable stands, and holds no character YAML cannot hold that the template did not. The one check of every
 * fill into the frontmatter: a title `Notes #1` read as `Notes` (a comment), `A: B` or one with a line break broke or
 * reshaped the properties, a noncharacter or lone surrogate made a strict reader refuse all of them, and a date format
 * could do each of these too. A template whose own frontmatter does not parse is filled as it is (its own text).
 * A plain value YAML types (a number, true, false) counts as its text.
 */
function frontmatterReadsAsWritten(templateYaml: string, filledYaml: string, fill: (text: string, put: (value: string) => string) => string): boolean {
	const values: string[] = [];
	const placeheldYaml = fill(templateYaml, (value) => `VaultMcpFill${values.push(value) - 1}Z`);
	const placeheld = parseFrontmatter(placeheldYaml);
	if (placeheld === null || NOT_YAML_PRINTABLE_CHARACTER.test(placeheldYaml)) return true;
	// A line break (YAML 1.2's, or 1.1's U+2028 and U+2029) ends or reshapes a value wherever it stands, and the yaml package
	// read a lone CR as text where YAML 1.2 reads a line break.
	if (NOT_YAML_PRINTABLE_CHARACTER.test(filledYaml) || values.some((value) => YAML_LINE_BREAK.test(value))) return false;
	const withValues = (text: string) => text.replace(FILL_PLACEHOLDER, (_match, index: string) => values[Number(index)] ?? "");
	return readsAs(placeheld, parseFrontmatter(filledYaml), withValues);
}

/** Whether `read` is `written` (parsed with placeholders) with each placeholder's text in place: the same shape, keys and text. */
function readsAs(written: unknown, read: unknown, withValues: (text: string) => string): boolean {
	if (typeof written === "string") {
		const text = withValues(written);
		if (typeof read === "string") return read === text;
		if (typeof read === "number") return Number(text) === read;
		if (typeof read === "boolean") return text.toLowerCase() === String(read);
		return read === null && /^(?:null|Null|NULL|~)?$/u.test(text);
	}
	if (Array.isArray(written))
		return Array.isArray(read) && read.length === written.length && written.every((item, index) => readsAs(item, read[index], withValues));
	if (written !== null && typeof written === "object") {
		if (read === null || typeof read !== "object" || Array.isArray(read)) return false;
		const readEntries = new Map(Object.entries(read));
		const writtenEntries = Object.entries(written);
		return (
			readEntries.size === writtenEntries.length &&
			writtenEntries.every(([key, value]) => readEntries.has(withValues(key)) && readsAs(value, readEntries.get(withValues(key)), withValues))
		);
	}
	return Object.is(written, read);
}

/**
 * The template a tool argument names: a note in the Templates folder, given by its vault path or
 * by its path inside that folder, with or without `.md`. The path goes through the same policy and
 * exclusions as any note path.
 */
export function findTemplate(host: Host, scope: Scope, settings: TemplateSettings, input: string): Result<HostFile> {
	if (!settings.folder)
		return fail("No templates folder is set: choose one in Settings → Templates (the core Templates plugin), or create the note without a template.");
	// A name may open with a space (list_templates lists `Templates/ Daily.md`): as spelt, that template, as findNote takes a
	// note's path; trimmed first, ` Daily` filled `Templates/Daily.md`, another template. With none so named, trimmed as before.
	const spelt = input.trimEnd().replace(/^\/+/, "");
	const found =
		(spelt !== spelt.trimStart() ? templateInFolder(host, scope, settings.folder, spelt) : null) ??
		templateInFolder(host, scope, settings.folder, input.trim().replace(/^\/+/, ""));
	if (found === null) {
		// A templates folder this caller may not see is not named: its path would tell of an excluded folder.
		const where =
			isPathVisible(settings.folder, scope) && !mayNameHidden(settings.folder, scope)
				? `the templates folder "${settings.folder}"`
				: "the templates folder";
		return fail(`No template "${echoed(input)}" in ${where}. Call list_templates for the templates there.`);
	}
	return ok(found);
}

/** The visible note `wanted` names in the templates folder (its vault path, or its path inside the folder), else null. */
function templateInFolder(host: Host, scope: Scope, folder: string, wanted: string): HostFile | null {
	const inFolder = isInFolder(wanted, folder) ? wanted : `${folder}/${wanted}`;
	const found = findNote(host, scope, inFolder.endsWith(".md") ? inFolder : `${inFolder}.md`);
	return found.ok && isInFolder(found.value.path, folder) ? found.value : null;
}

/**
 * A new note's text from a filled template and the caller's `content`, added at the end in the
 * note's own format as append_to_note adds it: bullets in an outline (frontmatter `mode: outliner`,
 * or a template that is only a list; `mode` overrides), paragraphs otherwise. Outliner mode also sets
 * `mode: outliner` in the template's frontmatter, as create_note does without a template (it was never
 * set, so Obsidian's outliner opened the note as plain text); refused, nothing written, when that
 * frontmatter cannot take it or the content cannot be added (it was dropped unsaid). Pure.
 */
export function noteFromTemplate(filled: string, content: string, defaults: FormatDefaults, mode?: EditMode): Result<string> {
	const marked = mode === "outliner" ? setProperty(filled, "mode", "outliner") : ok({ text: filled });
	if (!marked.ok) return fail(`mode outliner sets mode: outliner in the template's frontmatter, which cannot take it: ${marked.error}`);
	const text = marked.value.text;
	if (content.trim() === "") return ok(text);
	const frontmatterMode: unknown = parseFrontmatter(splitFrontmatter(filled)?.yaml ?? "")?.mode;
	const style = mode ?? (isOutline(filled, frontmatterMode) ? "outliner" : "freeform");
	const result = appendToEnd(text, content, style, detectFormat(filled, defaults));
	return result.ok ? ok(result.value.text) : result;
}
