/**
 * The edits the write tools make to an existing note, each in one atomic `vault.process`: the
 * note's format and mode are detected on the very text the edit changes (one read, and a retry
 * after another program's write detects them again on the fresh text).
 */
import type { Host, HostFile } from "../host/Host";
import { setProperty, setPropertySteps, type PropertyEdit, type PropertyValue } from "../markdown/properties";
import { runStepsInSlices } from "../markdown/steps";
import { PROPERTY_EDIT_SLICE_MS } from "../config/limits";
import { yieldToEventLoop } from "./workBudget";
import {
	appendToEnd,
	appendUnderHeading,
	detectFormat,
	insertUnderBullet,
	isOutline,
	type EditMode,
	type EditResult,
	type NoteFormat,
} from "../markdown/outline";
import { indentationSettings } from "./obsidianSettings";
import { fail, ok, type Result } from "../result";
import { editNote } from "./writes";

/** How a note is written: its list format, and whether it is an outline. */
export interface NoteStyle {
	format: NoteFormat;
	mode: EditMode;
}

/** A finished edit: the note's new text, the line the edit reports, and the style it was made in. */
export type StyledEdit = Result<{ text: string; line: number; style: NoteStyle }>;

/**
 * Changes a note atomically, `edit` getting the note's text and its style. The frontmatter's
 * `mode` comes from the metadata cache; an empty note takes `emptyNoteMode` when given.
 */
export async function editNoteInStyle(
	host: Host,
	file: HostFile,
	edit: (text: string, style: NoteStyle) => EditResult,
	emptyNoteMode?: EditMode,
): Promise<StyledEdit> {
	const defaults = await indentationSettings(host);
	const frontmatterMode: unknown = host.metadataCache.getFileCache(file)?.frontmatter?.mode;
	let style: NoteStyle | undefined;
	const result = await editNote(host, file, (text) => {
		const mode = emptyNoteMode !== undefined && text.trim() === "" ? emptyNoteMode : isOutline(text, frontmatterMode) ? "outliner" : "freeform";
		style = { format: detectFormat(text, defaults), mode };
		return edit(text, style);
	});
	if (!result.ok) return result;
	if (style === undefined) return fail("The note could not be changed.");
	return ok({ ...result.value, style });
}

/** Adds `content` at the end of the note, or at the end of the section under `heading`, in the note's own format. */
export function appendToNote(host: Host, file: HostFile, content: string, heading?: string): Promise<StyledEdit> {
	return editNoteInStyle(host, file, (text, { format, mode }) =>
		heading === undefined ? appendToEnd(text, content, mode, format) : appendUnderHeading(text, heading, content, mode, format),
	);
}

/** Adds `content` as children of the first bullet whose text is `bullet`; only in an outline. */
export function insertUnderBulletInNote(host: Host, file: HostFile, bullet: string, content: string): Promise<StyledEdit> {
	return editNoteInStyle(host, file, (text, { format, mode }) =>
		mode !== "outliner"
			? fail(`"${file.path}" is not an outline (it is not only a list, and its frontmatter has no mode: outliner). Use append_to_note instead.`)
			: insertUnderBullet(text, bullet, content, format),
	);
}

/**
 * setProperty on a text, in slices of PROPERTY_EDIT_SLICE_MS with other clients' turns between them: its
 * bounds check, parse and writing out cannot be paused inside, and at 2,000 properties run back to back
 * they held every client tens of milliseconds. set_property's edit, and create_note's in outliner mode.
 */
export function setPropertyInSlices(text: string, name: string, value: PropertyValue): Promise<PropertyEdit> {
	return runStepsInSlices(setPropertySteps(text, name, value), PROPERTY_EDIT_SLICE_MS, yieldToEventLoop);
}

/** Sets (or with null removes) one frontmatter property, in one atomic edit; see setProperty. */
export async function setNoteProperty(host: Host, file: HostFile, name: string, value: PropertyValue): Promise<PropertyEdit> {
	// Worked out first in slices, on the text as it is now; the atomic edit below takes that result
	// when the note is still this text, and works it out again in one piece only if it changed.
	const current = await host.vault.cachedRead(file);
	const early = await setPropertyInSlices(current, name, value);
	let done: PropertyEdit | undefined;
	const result = await editNote(host, file, (text) => {
		done = text === current ? early : setProperty(text, name, value);
		return done.ok ? ok({ text: done.value.text, line: 0 }) : done;
	});
	if (!result.ok) return result;
	const edit = done;
	if (!edit?.ok) return fail("The note could not be changed.");
	return ok({ text: result.value.text, value: edit.value.value, changed: edit.value.changed });
}
