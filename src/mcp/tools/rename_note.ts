import { z } from "zod";
import { findNote } from "../../vault/notes";
import { pathAfter, renameNote } from "../../vault/rename";
import { trimTrailingSlashes } from "../../paths/spelling";
import { isPathVisible } from "../../vault/scope";
import {
	checkNewNotePathOnHost,
	ensureParentFolder,
	folderAt,
	folderLinkCharacterError,
	linkSyntaxNameError,
	listingOverBoundReason,
	newFolderWithLinkCharacter,
	visibleTwins,
} from "../../vault/writes";
import { defineTool } from "../tool";
import { fail, ok } from "../../result";
import { MAX_READ_NOTE_BYTES, RENAME_UNPARSED_LOOK_BYTES, UNREAD_NOTES_LISTED } from "../../config/limits";

export const renameNoteTool = defineTool({
	name: "rename_note",
	title: "Rename or move a note",
	description:
		"Rename or move a note (folders made) and update every link to it as Obsidian does (wikilinks, Markdown links, embeds, frontmatter; headings, blocks and aliases kept). An existing target is refused. One undo reverses it all.",
	access: "write",
	annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
	inputSchema: {
		path: z.string(),
		new_path: z.string(),
	},
	outputSchema: {
		path: z.string(),
		new_path: z.string(),
		notes_updated: z.number().describe("Other notes whose links changed"),
		links_updated: z.number(),
		frontmatter_not_rewritten: z
			.array(z.string())
			.optional()
			.describe(
				"Notes linking here whose frontmatter is too large or too deeply nested to be read as properties, and may name this note in a [[link]]: their frontmatter was not rewritten (Obsidian may still read a link to the old name there). Edit it by hand.",
			),
		notes_not_read: z
			.array(z.string())
			.optional()
			.describe(
				`Notes not read (over the ${MAX_READ_NOTE_BYTES / (1024 * 1024)} MiB this server reads from one note, or not yet indexed past the ${RENAME_UNPARSED_LOOK_BYTES / (1024 * 1024)} MiB a rename reads; the first ${UNREAD_NOTES_LISTED}): a link to this note in them still names the old path. Check them in Obsidian.`,
			),
	},
	examples: [{ path: "Projects/Garden", new_path: "Archive/Garden plan.md" }],
	handler: async (ctx, args) => {
		const { host, scope } = ctx;
		const found = findNote(host, scope, args.path);
		if (!found.ok) return fail(found.error);
		const file = found.value;
		// The path policy drops a trailing slash, which would turn "move into Archive/" into a rename to Archive.md.
		if (args.new_path.trimEnd().endsWith("/"))
			return fail(
				`"${args.new_path}" names a folder. Give the note's full path in it, e.g. "${trimTrailingSlashes(args.new_path.trimEnd())}/${file.name}". Nothing was changed.`,
			);
		const checked = await checkNewNotePathOnHost(host, args.new_path, scope, file.path);
		if (!checked.ok) return fail(checked.error);
		const to = checked.value;
		const badName = linkSyntaxNameError(to);
		if (badName) return fail(badName);
		const badFolder = await newFolderWithLinkCharacter(host, to);
		if (badFolder !== undefined) return fail(folderLinkCharacterError(badFolder, "changed"));
		if (to === file.path) return fail(`"${file.path}" already has that path. Nothing was changed.`);
		// Another file whose path a case-insensitive disk (or a person) reads as the same: a move there would replace it or confuse links.
		// Only visible ones are looked for: a hidden one found first hid a visible one, so the answer depended on a file the token cannot see.
		const { note: taken, folder: folderNamesake, unlisted } = await visibleTwins(host, scope, to, file.path);
		if (taken) return fail(`A note already exists at "${taken.path}". Nothing was changed. Choose another new_path.`);
		if (folderNamesake !== undefined)
			return fail(
				`A folder already exists at "${folderNamesake}", read as the same name as the folder of "${to}" (letter case and spaces aside). Nothing was changed. Move the note into "${folderNamesake}", or choose another folder.`,
			);
		if (unlisted !== undefined) return fail(`Nothing was changed. ${listingOverBoundReason(unlisted)}`);
		if (await folderAt(host, to)) return fail(`"${to}" is a folder. Choose a note path inside it.`);
		// Taken on the disk all the same: a disk that folds case (macOS, Windows) reads `Work/X.md` as a hidden `WORK/x.md`.
		// Refused at once, naming only the caller's own path; the write would otherwise find it taken and plan again and
		// again, then answer that the path "kept changing", as if the caller should read a note and retry.
		if (to.toLowerCase() !== file.path.toLowerCase() && (await host.vault.adapter.exists(to)))
			return fail(`"${to}" cannot be used for this note. Nothing was changed. Choose another new_path.`);
		await ensureParentFolder(host, to);
		const { plan, kept } = await renameNote(host, scope, file, to);
		// Notes the token may not see are updated too (as Obsidian does) but neither named nor counted.
		const visible = [...plan.notes, ...kept].filter((note) => isPathVisible(pathAfter(plan, note.path), scope));
		const staleFrontmatter = (plan.staleFrontmatter ?? []).map((path) => pathAfter(plan, path)).filter((path) => isPathVisible(path, scope));
		const unread = (plan.unreadNotes ?? []).filter((path) => isPathVisible(path, scope)).slice(0, UNREAD_NOTES_LISTED);
		return ok({
			path: plan.from,
			new_path: to,
			notes_updated: new Set(visible.map((note) => note.path).filter((path) => path !== plan.from)).size,
			links_updated: visible.reduce((sum, note) => sum + note.links, 0),
			...(staleFrontmatter.length > 0 ? { frontmatter_not_rewritten: staleFrontmatter } : {}),
			...(unread.length > 0 ? { notes_not_read: unread } : {}),
		});
	},
});
