import { z } from "zod";
import { MAX_EDITED_NOTE_BYTES, MAX_REQUEST_BODY_BYTES } from "../../config/limits";
import { splitFrontmatter } from "../../markdown/frontmatter";
import { detectFormat, formatAsOutline, type EditMode } from "../../markdown/outline";
import { dailyNoteSettings, indentationSettings, templateSettings } from "../../vault/obsidianSettings";
import { isDailyNotePath } from "../../vault/dailyNotes";
import { setPropertyInSlices } from "../../vault/noteEdits";
import { fillTemplate, findTemplate, noteFromTemplate } from "../../vault/templates";
import {
	backupPath,
	checkNewNotePathOnHost,
	createNoteFile,
	folderAt,
	folderLinkCharacterError,
	hashTextInPieces,
	linkSyntaxNameError,
	listingOverBoundReason,
	newFolderWithLinkCharacter,
	NoBackupNameError,
	overEditedBytesMessage,
	overwriteWithBackup,
	visibleTwins,
} from "../../vault/writes";
import { defineTool } from "../tool";
import { fail, ok, type Result } from "../../result";

/**
 * The note text to write: outliner mode sets `mode: outliner` in the frontmatter with set_property's edit, and
 * writes the body as bullets; refused, writing nothing, when the frontmatter cannot take it (not YAML, or its mode
 * is another property's alias). Edited as lines, a `mode: |` block's lines stayed under it (mode read `outliner a`:
 * not an outline), and a flow mapping or an anchored mode was left no longer YAML (every property lost). The edit
 * runs in set_property's slices: in one piece it held every client 62-70 ms at 1,900 properties (pieces180).
 */
async function noteText(content: string, mode: EditMode, defaults: Awaited<ReturnType<typeof indentationSettings>>): Promise<Result<string>> {
	if (mode === "freeform") return ok(content.endsWith("\n") ? content : `${content}\n`);
	const split = splitFrontmatter(content);
	const body = split ? split.body : content;
	const withMode = await setPropertyInSlices(content.slice(0, content.length - body.length), "mode", "outliner");
	if (!withMode.ok) return fail(`mode outliner sets mode: outliner in the content's frontmatter, which cannot take it: ${withMode.error}`);
	const bullets = formatAsOutline(body, detectFormat("", defaults), 0).join("\n");
	// A closing fence with no line break after it (content ending there) still ends its line.
	const frontmatter = withMode.value.text.endsWith("\n") ? withMode.value.text : `${withMode.value.text}\n`;
	return ok(`${frontmatter}${bullets ? `${bullets}\n` : ""}`);
}

export const createNoteTool = defineTool({
	name: "create_note",
	title: "Create a note",
	description:
		"Create a note (.md added, folders made). An existing note is refused unless overwrite: true, which saves it first as <name>.md.bak (backup). mode outliner writes bullets and mode: outliner in the frontmatter; without mode, daily notes follow the outline setting, others are freeform. template (from list_templates): filled in as the Templates plugin does.",
	access: "write",
	annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
	inputSchema: {
		path: z.string(),
		content: z.string().max(MAX_REQUEST_BODY_BYTES),
		overwrite: z.boolean().default(false),
		mode: z.enum(["outliner", "freeform"]).optional(),
		template: z.string().optional(),
	},
	outputSchema: {
		path: z.string(),
		created: z.boolean(),
		backup: z.string().optional(),
		hash: z.string(),
		notice: z.string().optional(),
	},
	examples: [
		{ path: "Inbox/Created by example.md", content: "# Hello\n\nWritten by the registry test.", overwrite: false },
		{ path: "Inbox/Planting meeting.md", content: "Agreed: raised bed first.", overwrite: false, template: "Meeting" },
	],
	handler: async (ctx, args) => {
		const { host } = ctx;
		const checked = await checkNewNotePathOnHost(host, args.path, ctx.scope);
		if (!checked.ok) return fail(checked.error);
		const path = checked.value;
		const defaults = await indentationSettings(host);
		let text: string;
		// A settings file the answer depended on that is there but not used (over its bound, not JSON): the person learns why.
		let notice: string | undefined;
		if (args.template !== undefined) {
			const settings = await templateSettings(host);
			notice = settings.unused;
			const template = findTemplate(host, ctx.scope, settings, args.template);
			if (!template.ok) return fail(notice === undefined ? template.error : `${template.error} ${notice}`);
			const title = path.slice(path.lastIndexOf("/") + 1, -".md".length);
			// Refused unread by its size, as any note the write tools change: read, a template over the 12 MiB one call's journal keeps
			// was refused with the journal's words (that the call would change notes holding too much text) though it is only read.
			if (template.value.stat.size > MAX_EDITED_NOTE_BYTES) return fail(`The template ${overEditedBytesMessage(template.value.path)}`);
			const filled = fillTemplate(await host.vault.cachedRead(template.value), settings, new Date(), title);
			if (!filled.ok) return fail(filled.error);
			const written = noteFromTemplate(filled.value, args.content, defaults, args.mode);
			if (!written.ok) return written;
			text = written.value;
		} else {
			const dailySettings = await dailyNoteSettings(host);
			const daily = isDailyNotePath(dailySettings, path);
			const mode: EditMode = args.mode ?? (daily && ctx.dailyNotesAreOutlines ? "outliner" : "freeform");
			if (args.mode === undefined && ctx.dailyNotesAreOutlines) notice = dailySettings.unused;
			const written = await noteText(args.content, mode, defaults);
			if (!written.ok) return written;
			text = written.value;
		}
		const existing = host.vault.getFileByPath(path);
		if (!existing) {
			const badName = linkSyntaxNameError(path);
			if (badName) return fail(badName);
			const badFolder = await newFolderWithLinkCharacter(host, path);
			if (badFolder !== undefined) return fail(folderLinkCharacterError(badFolder, "written"));
			// As rename_note refuses a new path read as another's: a twin in other case or spacing replaced it on a disk that folds case.
			const { note: namesake, folder: folderNamesake, unlisted } = await visibleTwins(host, ctx.scope, path);
			if (namesake)
				return fail(
					`A note already exists at "${namesake.path}", read as the same name as "${path}" (letter case and spaces aside). Nothing was written. Use append_to_note to add to it, or choose another path.`,
				);
			if (folderNamesake !== undefined)
				return fail(
					`A folder already exists at "${folderNamesake}", read as the same name as the folder of "${path}" (letter case and spaces aside). Nothing was written. Write the note in "${folderNamesake}", or choose another folder.`,
				);
			if (unlisted !== undefined) return fail(`Nothing was written. ${listingOverBoundReason(unlisted)}`);
			if (await folderAt(host, path)) return fail(`"${path}" is a folder. Choose a note path inside it.`);
			await createNoteFile(host, path, text);
			return ok({ path, created: true, hash: await hashTextInPieces(text), ...(notice === undefined ? {} : { notice }) });
		}
		if (!args.overwrite)
			return fail(
				`A note already exists at "${path}". Nothing was written. Use append_to_note to add to it, or pass overwrite: true (its current text is kept in a backup).`,
			);
		// A token limited to the note itself may see no name beside it for the backup: refused before the note is replaced.
		if (backupPath(host, ctx.scope, path) === undefined) return fail(new NoBackupNameError(path).message);
		const { backup, text: written } = await overwriteWithBackup(host, ctx.scope, existing, text);
		return ok({ path, created: false, backup, hash: await hashTextInPieces(written), ...(notice === undefined ? {} : { notice }) });
	},
});
