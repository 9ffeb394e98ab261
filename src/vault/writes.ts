import { sha256Hex, sha256HexInPieces } from "../sha256";
import { SliceClock } from "../markdown/steps";
import { yieldToEventLoop } from "./workBudget";
import { FileOverBytesError } from "../host/FileOverBytesError";
import { isListingOverBound, type Host, type ListingOverBound, type HostAbstractFile, type HostFile } from "../host/Host";
import type { EditResult } from "../markdown/outline";
import {
	MAX_EDITED_NOTE_BYTES,
	MAX_EDITED_NOTE_CHARS,
	MAX_EDITED_NOTE_LINES,
	MAX_WRITE_ATTEMPTS,
	NAMESAKE_LOOK_CHECK_MASK,
	NOTE_TEXT_SLICE_MS,
	VAULT_WIDE_SLICE_MS,
} from "../config/limits";
import { fail, ok, type Result } from "../result";
import { checkNewNamePath, checkNoteNameLength, NOT_ACCESSIBLE, SHORT_NAME_REFUSAL, shortNamedFolders } from "./paths";
import { isNoteInScope, isPathVisible, type Scope } from "./scope";
import { pathMatchKey } from "../paths/spelling";

/** Hex SHA-256 of a note's text: the version a write produced. */
export function hashText(text: string): string {
	return sha256Hex(text);
}

/**
 * `hashText`, a piece of NOTE_TEXT_PIECE_CHARS at a time, giving the event loop back every
 * NOTE_TEXT_SLICE_MS: a tool's answer for a megabyte note hashed it in one piece of about 5 ms.
 */
export function hashTextInPieces(text: string): Promise<string> {
	return sha256HexInPieces(text, new SliceClock(NOTE_TEXT_SLICE_MS, yieldToEventLoop));
}

/**
 * A path a new note may be written at: a vault path ending in .md (added when missing), visible to this token, with a name every
 * platform can hold. `renamed`: the path of the note rename_note moves there; `listedFolder`: folders the host lists by that
 * very name (checkNewNamePath).
 */
export function checkNewNotePath(input: string, scope: Scope, renamed?: string, listedFolder?: (folder: string) => boolean): Result<string> {
	const checked = checkNewNamePath(input, scope, renamed, listedFolder);
	if (!checked.ok) return checked;
	const name = checked.value.slice(checked.value.lastIndexOf("/") + 1);
	const dot = name.lastIndexOf(".");
	// Obsidian treats only a lower-case .md extension as a note.
	if (dot > 0 && name.slice(dot + 1) !== "md") return fail(`Only Markdown notes (.md) can be written; "${checked.value}" is not one.`);
	const path = dot > 0 ? checked.value : `${checked.value}.md`;
	if (!isNoteInScope(path, scope)) return fail(`"${path}" ${NOT_ACCESSIBLE}.`);
	return checkNoteNameLength(path);
}

/**
 * `checkNewNotePath`, letting a folder named in a Windows short name's shape be when the host lists a folder by exactly that name
 * (`Old~1/` made before: a long name, so no other folder's short name): refused by shape alone, a vault holding one could no
 * longer take a note into it through create_note, rename_note or add_task's daily note. Judged by the host's listing, never by
 * the disk's answer for the name (on Windows `stat("PRIVAT~1")` answers for `Private notes`). The host is asked only for a path
 * this token could write but for that shape: whether an excluded folder is there is not told by a refusal's words.
 */
export async function checkNewNotePathOnHost(
	host: Host,
	input: string,
	scope: Scope,
	renamed?: string,
	clock: SliceClock = twinLookClock(),
): Promise<Result<string>> {
	const checked = checkNewNotePath(input, scope, renamed);
	if (checked.ok || checked.error !== SHORT_NAME_REFUSAL) return checked;
	const otherwise = checkNewNotePath(input, scope, renamed, () => true);
	if (!otherwise.ok) return checked;
	const listed = new Set<string>();
	for (const folder of shortNamedFolders(otherwise.value)) {
		const slash = folder.lastIndexOf("/");
		const above = slash === -1 ? "" : folder.slice(0, slash);
		const names = await host.vault.listedFolderNames(above);
		// Past the bound the name's being listed is not known: the shape's refusal stands, with why it was not looked for.
		if (isListingOverBound(names)) return fail(`${SHORT_NAME_REFUSAL} ${listingOverBoundReason({ folder: above, bound: names.bound })}`);
		if ((await listedNameOrTwin(names ?? [], folder.slice(slash + 1), false, clock)).listed) listed.add(folder);
	}
	return checkNewNotePath(input, scope, renamed, (folder) => listed.has(folder));
}

/**
 * Whether `names` (a folder's listing, `listedFolderNames`) holds `name` as spelt (NFC), and, when `twinToo`, the first name
 * in it, other than `notTwin`, a person or a disk folding case reads as `name` (`pathMatchKey`), in NFC. One pass, in pieces, pausing on `clock` every
 * NAMESAKE_LOOK_CHECK_MASK + 1 names: a folder's listing may hold any number of them (in one piece, 200,000 accented folder
 * names were 225-255 ms of a create_note's CPU making their keys, and 7 ms holding them against the name as spelt).
 */
async function listedNameOrTwin(
	names: readonly string[],
	name: string,
	twinToo: boolean,
	clock: SliceClock,
	notTwin?: string,
): Promise<{ listed: boolean; twin?: string }> {
	const key = twinToo ? pathMatchKey(name) : undefined;
	let twin: string | undefined;
	for (let index = 0; index < names.length; index++) {
		if ((index & NAMESAKE_LOOK_CHECK_MASK) === NAMESAKE_LOOK_CHECK_MASK) await clock.checkpoint();
		const listedName = (names[index] ?? "").normalize("NFC");
		if (listedName === name) return { listed: true };
		if (twin === undefined && key !== undefined && listedName !== notTwin && pathMatchKey(listedName) === key) twin = listedName;
	}
	return twin === undefined ? { listed: false } : { listed: false, twin };
}

/** What a new note's path is read as besides itself (`visibleTwins`): another note's path, and another folder's. */
export interface VisibleTwins {
	/**
	 * A visible file other than `except` whose path a person, or a disk that folds case (macOS, Windows), reads as the path
	 * (`pathMatchKey`: letter case, look-alike characters and spaces opening or doubled in a part aside): a note made or moved
	 * there would replace it on such a disk, and a link could not tell the two apart. rename_note and create_note both refuse it.
	 */
	note?: HostFile;
	/**
	 * A visible folder the same reads as the first folder of the path the host does not list by exactly its name: a note made
	 * or moved there made a second folder beside it (`notes/` beside `Notes/`: two folders in Obsidian on Linux and Android,
	 * and on macOS and Windows one on the disk that Obsidian listed as two until it read the vault again).
	 */
	folder?: string;
	/**
	 * The folder whose listing held more entries than one listing reads (FOLDER_LISTING_MAX_ENTRIES): the first folder of the
	 * path it does not list by exactly its name could be another's twin, unseen. The callers refuse (`listingOverBoundReason`).
	 */
	unlisted?: UnlistedFolder;
}

/** A folder whose listing stopped at its bound (`bound` entries read): `folder` ("" for the vault's root). */
export interface UnlistedFolder extends ListingOverBound {
	readonly folder: string;
}

/**
 * Why a new folder's name could not be looked for in `folder` ("" for the vault's root): its listing holds more entries than
 * one listing reads (`bound`). Only the caller's own path is named; the count is the bound's, not the folder's.
 */
export function listingOverBoundReason({ folder, bound }: UnlistedFolder): string {
	const where = folder === "" ? "The vault's top folder" : `The folder "${folder}"`;
	return `${where} holds more than ${bound.toLocaleString("en-US")} entries, more than this server reads to check a folder's name against those already there (one differing only in letter case would be the same folder on macOS and Windows). Make or choose the folder in Obsidian, or use a folder holding fewer entries.`;
}

/** One path whose twins `visibleTwinsOfEach` looks for. */
export interface TwinLookTarget {
	path: string;
	/** A file that is no twin of the path as a note (the note rename_note or undo moves there). */
	except?: string;
	/**
	 * Undo's move back of `except` to `path`: that file leaves its folders, so it makes none of them a twin, and a folder of it
	 * holding no other file is none either (`Plans/A.md` renamed to `plans/A.md`, `Plans/` deleted since: `plans/` is left as
	 * the rename found it, and the note goes back to `Plans/`). rename_note and create_note leave such a folder beside the new one.
	 */
	movedOut?: boolean;
}

/**
 * The twins of a new note's path (VisibleTwins), in one walk of the vault's files, in pieces, pausing on `clock` every
 * NAMESAKE_LOOK_CHECK_MASK + 1 of them (a walk for the note and another for the folder were twice the CPU of one). Hidden
 * files and folders are not looked for: the answer would tell of one; a twin of an excluded folder or one outside the token's
 * is itself refused by the path rules. A folder of the path is judged by the names as listed, never by whether a lookup of
 * the path answers: on a disk that folds case, headless `getFolderByPath("notes")` answers for `Notes`, and the twin went
 * unseen. The walk tells which folders of the path hold files, by exactly the path's names, and which twins do; a folder it
 * does not settle (one holding no files: empty, or missing) is looked for among the folders listed in the one above it
 * (`listedFolderNames`), so an empty `notes/` is a twin of a new `NOTES/x.md` too. That listing is asked only for a path
 * going through a folder holding no file, one folder after another until a name is not listed.
 */
export async function visibleTwins(host: Host, scope: Scope, path: string, except?: string, clock: SliceClock = twinLookClock()): Promise<VisibleTwins> {
	const [twins] = (await visibleTwinsOfEach(host, scope, [except === undefined ? { path } : { path, except }], clock)).twins;
	return twins ?? {};
}

/** One target's folders as `visibleTwinsOfEach` walks them. */
interface TargetFolders {
	folders: string[];
	keys: string[];
	/** By depth: a file there as spelt; the first visible twin found among files. */
	held: boolean[];
	twins: Array<string | undefined>;
	/** The moved-out file's folders (`movedOut`), and by depth whether another file is in it. */
	leftFolders: string[];
	leftHoldsOthers: boolean[];
}

/** The folders of a path, outermost first: `a/b/c.md` → `a`, `a/b`. */
function foldersOf(path: string): string[] {
	const names = path.split("/").slice(0, -1);
	return names.map((_, index) => names.slice(0, index + 1).join("/"));
}

/** Adds `value` to the list under `key`. */
function addTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
	const list = map.get(key);
	if (list === undefined) map.set(key, [value]);
	else list.push(value);
}

/**
 * `visibleTwins` of several paths in ONE walk of the vault's files (undo putting N notes back walked it 2N times: each look a
 * walk): each file's key is looked up among the targets' keys, each of its folders among the targets' folders. `keepKey`: the
 * visible files whose key it takes are returned by key too (`kept`, the first of each key), for looks made later without a
 * walk (undo's conflict copies, whose names all hold the undo's own words).
 */
export async function visibleTwinsOfEach(
	host: Host,
	scope: Scope,
	targets: readonly TwinLookTarget[],
	clock: SliceClock = twinLookClock(),
	keepKey?: (key: string) => boolean,
): Promise<{ twins: VisibleTwins[]; kept: Map<string, string> }> {
	const kept = new Map<string, string>();
	const notes: Array<HostFile | undefined> = targets.map(() => undefined);
	const byKey = new Map<string, number[]>();
	// By folder as spelt: the targets (and depth) it is a folder of, or whose moved-out file's folder it is.
	const byFolder = new Map<string, Array<{ target: number; depth: number }>>();
	const byLeftFolder = new Map<string, Array<{ target: number; depth: number }>>();
	// By depth, the folder keys looked for there, and the targets whose folder at that depth has the key.
	const byFolderKey: Array<Map<string, number[]>> = [];
	const walked: TargetFolders[] = targets.map((target, index) => {
		addTo(byKey, pathMatchKey(target.path), index);
		const folders = foldersOf(target.path);
		const keys = folders.map((folder) => pathMatchKey(folder));
		folders.forEach((folder, depth) => {
			addTo(byFolder, folder, { target: index, depth });
			addTo((byFolderKey[depth] ??= new Map<string, number[]>()), keys[depth] ?? "", index);
		});
		const leftFolders = target.movedOut === true && target.except !== undefined ? foldersOf(target.except) : [];
		leftFolders.forEach((folder, depth) => addTo(byLeftFolder, folder, { target: index, depth }));
		return {
			folders,
			keys,
			held: folders.map(() => false),
			twins: folders.map(() => undefined),
			leftFolders,
			leftHoldsOthers: leftFolders.map(() => false),
		};
	});
	// By depth, what the walk found of the last folder seen there (files come folder by folder): maps are asked once a folder.
	const last: Array<{ folder: string; twinOf: number[]; exactly: Array<{ target: number }>; left: Array<{ target: number; depth: number }> }> = [];
	const none: never[] = [];
	// No folder deeper than the targets' (and their moved-out files') is looked at: a path at the top looks at none.
	const deepest = Math.max(byFolderKey.length, ...walked.map((own) => own.leftFolders.length));
	// A movedOut target's own file: it leaves its folders, so it holds none and makes no twin.
	const skips = (target: number, path: string) => targets[target]?.movedOut === true && path === targets[target]?.except;
	const onlyKey = targets.length === 1 ? [...byKey.keys()][0] : undefined;
	const onlyTarget = [0];
	const files = host.vault.getFiles();
	for (let index = 0; index < files.length; index++) {
		if ((index & NAMESAKE_LOOK_CHECK_MASK) === NAMESAKE_LOOK_CHECK_MASK) await clock.checkpoint();
		const other = files[index] as HostFile;
		const { path } = other;
		const key = pathMatchKey(path);
		// One target (create_note, rename_note): its key compared, which stops at the first letter apart; a map hashes all of it.
		const named = onlyKey === undefined ? byKey.get(key) : key === onlyKey ? onlyTarget : undefined;
		if (named !== undefined)
			for (const target of named)
				if (notes[target] === undefined && path !== targets[target]?.except && isPathVisible(path, scope)) notes[target] = other;
		if (keepKey !== undefined && !kept.has(key) && keepKey(key) && isPathVisible(path, scope)) kept.set(key, path);
		let above: string | undefined;
		let end = -1;
		for (let depth = 0; depth < deepest && (end = path.indexOf("/", end + 1)) !== -1; depth++) {
			const folder = path.slice(0, end);
			let seen = last[depth];
			if (seen?.folder !== folder) {
				const keysHere = byFolderKey[depth];
				seen = last[depth] = {
					folder,
					twinOf: keysHere === undefined ? none : (keysHere.get(pathMatchKey(folder)) ?? none),
					exactly: byFolder.get(folder) ?? none,
					left: byLeftFolder.get(folder) ?? none,
				};
			}
			for (const { target, depth: at } of seen.left) if (!skips(target, path)) (walked[target] as TargetFolders).leftHoldsOthers[at] = true;
			// A folder read as another's is looked at again for each file: one in an excluded folder inside it is not its answer.
			for (const target of seen.twinOf) {
				const own = walked[target] as TargetFolders;
				if (own.folders[depth] === folder || own.twins[depth] !== undefined || skips(target, path)) continue;
				// As the walk of one path: a twin only under the path's own folder above.
				if (depth > 0 && own.folders[depth - 1] !== above) continue;
				if (isPathVisible(path, scope)) own.twins[depth] = folder;
			}
			for (const { target } of seen.exactly) if (!skips(target, path)) (walked[target] as TargetFolders).held[depth] = true;
			if (seen.exactly.length === 0 && seen.left.length === 0) break;
			above = folder;
		}
	}
	const listings = new Map<string, readonly string[] | ListingOverBound>();
	const listed = async (folder: string) => {
		const names = listings.get(folder) ?? (await host.vault.listedFolderNames(folder)) ?? [];
		listings.set(folder, names);
		return names;
	};
	const twins: VisibleTwins[] = [];
	for (const [index, target] of targets.entries()) {
		const note = notes[index];
		const found = await folderTwin(
			scope,
			target.path,
			walked[index] as TargetFolders,
			listed,
			clock,
			async (folder) => (await folderAt(host, folder)) !== null,
		);
		twins.push({ ...(note === undefined ? {} : { note }), ...found });
	}
	return { twins, kept };
}

/** The folder twin of `path` once the files were walked (visibleTwinsOfEach): the first folder not held by files, by its twin among files or in its listing. */
async function folderTwin(
	scope: Scope,
	path: string,
	walked: TargetFolders,
	listed: (folder: string) => Promise<readonly string[] | ListingOverBound>,
	clock: SliceClock,
	isThere: (folder: string) => Promise<boolean>,
): Promise<{ folder?: string; unlisted?: UnlistedFolder }> {
	const { folders, held, twins, leftFolders, leftHoldsOthers } = walked;
	for (const [depth, folder] of folders.entries()) {
		if (held[depth] === true) continue;
		// Not held by files: empty, missing, or there beside a twin holding files (Linux lists both): the listing says which.
		const above = depth === 0 ? "" : (folders[depth - 1] ?? "");
		const name = folder.slice(above === "" ? 0 : above.length + 1);
		const byFiles = twins[depth];
		const listing = await listed(above);
		if (isListingOverBound(listing)) {
			if (byFiles !== undefined) return { folder: byFiles };
			// A folder there by exactly its name (empty: no file held it) is used, not made: as when its listing names it.
			if (await isThere(folder)) continue;
			return { unlisted: { folder: above, bound: listing.bound } };
		}
		// The moved-out note's own folder, in the same folder above and holding nothing else, is no twin (TwinLookTarget.movedOut).
		const left = leftFolders[depth];
		const leftName =
			left !== undefined && leftHoldsOthers[depth] !== true && (depth === 0 || leftFolders[depth - 1] === above)
				? left.slice(left.lastIndexOf("/") + 1)
				: undefined;
		const found = await listedNameOrTwin(listing, name, byFiles === undefined, clock, leftName);
		if (found.listed) continue;
		if (byFiles !== undefined) return { folder: byFiles };
		const twinName = found.twin;
		if (twinName === undefined) return {};
		const twinPath = above === "" ? twinName : `${above}/${twinName}`;
		return isPathVisible(`${twinPath}${path.slice(folder.length)}`, scope) ? { folder: twinPath } : {};
	}
	return {};
}

/** The clock the twin looks pause on when the caller gives none: the slice of vault-wide work, one event-loop turn. */
function twinLookClock(): SliceClock {
	return new SliceClock(VAULT_WIDE_SLICE_MS, yieldToEventLoop);
}

/** Characters Obsidian's link syntax gives a meaning: a note named with one could not be linked to. */
const LINK_SYNTAX_CHARACTERS = /[#^[\]|]/u;
/** Those characters as the refusals name them. */
export const LINK_SYNTAX_CHARACTERS_SHOWN = "# ^ [ ] or |";

/**
 * Why a note may not be given the name at the end of `path` (null when it may): a name holding one of
 * Obsidian's link characters could not be linked to (Obsidian's help: they "may not work as a link").
 * Asked only of a name a tool gives a note; a note already named so (made outside Obsidian) is still
 * read and written by its path.
 */
export function linkSyntaxNameError(path: string): string | null {
	const name = path.slice(path.lastIndexOf("/") + 1);
	return LINK_SYNTAX_CHARACTERS.test(name)
		? `A note's name may not contain ${LINK_SYNTAX_CHARACTERS_SHOWN}: links to "${name}" would break. Nothing was changed.`
		: null;
}

/**
 * The first folder of `path` a write would make (the host has none by exactly its name, and none above it is missing)
 * whose name holds one of Obsidian's link characters, with the first such character; undefined when none would. A link to
 * a note in it by path (`[[Daily #/12-07]]`, which Obsidian writes when the name alone is not unique) reads `#` as a
 * heading, `|` as a shown name. A folder already there (made by the person, or outside Obsidian) is theirs, and written in as
 * before. No lookup at all for a path whose folders hold no such character (nearly every one).
 */
export async function newFolderWithLinkCharacter(host: Host, path: string): Promise<{ folder: string; character: string } | undefined> {
	const parts = path.split("/").slice(0, -1);
	if (!parts.some((part) => LINK_SYNTAX_CHARACTERS.test(part))) return undefined;
	let there = 0;
	while (there < parts.length && (await folderAt(host, parts.slice(0, there + 1).join("/"))) !== null) there++;
	for (let depth = there; depth < parts.length; depth++) {
		const character = LINK_SYNTAX_CHARACTERS.exec(parts[depth] ?? "")?.[0];
		if (character !== undefined) return { folder: parts.slice(0, depth + 1).join("/"), character };
	}
	return undefined;
}

/**
 * The refusal of a new folder named with a link character (`newFolderWithLinkCharacter`), naming the folder and the
 * character; `changed` is the tool's own word for what was not done ("written", "changed").
 */
export function folderLinkCharacterError(found: { folder: string; character: string }, changed: "written" | "changed"): string {
	return `A folder's name may not contain ${LINK_SYNTAX_CHARACTERS_SHOWN}: the folder "${found.folder}" would be made with "${found.character}" in its name, so links to notes in it by path would break. Nothing was ${changed}. Choose another folder name, or a folder already there.`;
}

/**
 * Why a note is too long for the write tools to change (null when it is not): over
 * MAX_EDITED_NOTE_CHARS characters or MAX_EDITED_NOTE_LINES lines. Counting stops at the bound.
 */
export function overEditedSize(text: string): string | null {
	if (text.length > MAX_EDITED_NOTE_CHARS) return OVER_EDITED_CHARS;
	let lines = 1;
	for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", at + 1)) {
		if (++lines > MAX_EDITED_NOTE_LINES) return `over ${MAX_EDITED_NOTE_LINES} lines, ${EDITED_SIZE_ADVICE}`;
	}
	return null;
}

const EDITED_SIZE_ADVICE = "the longest note the write tools change (edit it in Obsidian, or split it).";
const OVER_EDITED_CHARS = `over ${MAX_EDITED_NOTE_CHARS} characters, ${EDITED_SIZE_ADVICE}`;

/**
 * The write tools' refusal of a note over MAX_EDITED_NOTE_BYTES bytes, found from its size without
 * reading it: the words `editNote` gives a note it read over MAX_EDITED_NOTE_CHARS characters.
 */
export function overEditedBytesMessage(path: string): string {
	return `"${path}" is ${OVER_EDITED_CHARS}`;
}

/**
 * Changes a note atomically through the host (`vault.process`): `edit` runs on the note's current
 * text; when it returns an error, the note is left byte for byte as it was.
 */
export async function editNote(host: Host, file: HostFile, edit: (text: string) => EditResult): Promise<EditResult> {
	let outcome: EditResult = fail("The note could not be changed.");
	// A note over the bytes any text within the bound takes is refused unread (the planning host keeps the bound for the write).
	let unread = false;
	const processNote = (fn: (data: string) => string) =>
		host.vault.process(file, fn, { refuseOverBytes: MAX_EDITED_NOTE_BYTES }).catch((error: unknown) => {
			if (!(error instanceof FileOverBytesError)) throw error;
			unread = true;
			return "";
		});
	const text = await processNote((current) => {
		const tooLong = overEditedSize(current);
		outcome = tooLong === null ? edit(current) : fail(`"${file.path}" is ${tooLong}`);
		const wouldBe = outcome.ok ? overEditedSize(outcome.value.text) : null;
		if (wouldBe !== null) outcome = fail(`"${file.path}" would be ${wouldBe} Nothing was written.`);
		return outcome.ok ? outcome.value.text : current;
	});
	if (unread) return fail(overEditedBytesMessage(file.path));
	// Set inside the callback, which TypeScript does not follow: widen it back.
	const result = outcome as EditResult;
	// The text as written (the host's answer), with the line the edit reported.
	return result.ok ? ok({ text, line: result.value.line }) : result;
}

/**
 * `Note.md` → `Note.md.bak`, or `Note.md.2.bak`, `Note.md.3.bak`… when taken (numbering from `from`, 1
 * meaning the plain `.bak`). A name the caller may not see (an excluded folder of that very name) is
 * passed over as taken: the note's old text is never written where the caller may not write, and
 * the overwrite was refused as if the token's rights had changed. Undefined when no name can be seen:
 * a token limited to the note itself (its "folder" is the note's path) sees none beside it, and the
 * search for one ran without end in one piece, holding the server.
 */
export function backupPath(host: Host, scope: Scope, path: string, from = 1): string | undefined {
	// The names differ only in their last part: an excluded folder hides one of them at most, and with no token folder
	// above the note each token folder shows one at most. Past that many hidden names, none is looked for.
	const hiddenAtMost = scope.excludedFolders.length + (scope.tokenFolders?.length ?? 0);
	for (let number = Math.max(1, from), hidden = 0; ; number++) {
		const candidate = number === 1 ? `${path}.bak` : `${path}.${number}.bak`;
		if (!isPathVisible(candidate, scope)) {
			if (++hidden > hiddenAtMost) return undefined;
		} else if (!host.vault.getFileByPath(candidate)) return candidate;
	}
}

/** No backup name beside a note is one the caller may see (its token limited to the note itself): an overwrite is refused before it writes. */
export class NoBackupNameError extends Error {
	constructor(readonly path: string) {
		super(
			`No backup of "${path}" can be kept where this token may write (its folders do not hold the names beside the note), so it cannot be overwritten. Nothing was written. Use append_to_note to add to it.`,
		);
		this.name = "NoBackupNameError";
	}
}

/**
 * Replaces a note's text, keeping what it held in a backup beside it. The replace comes first, in
 * the note's atomic edit, which hands over the exact text it replaced (another write may have
 * landed a moment before); the backup then holds exactly that. So an acknowledged append is always
 * in the note or in the backup, an overwrite never starves behind a stream of appends, and the
 * call's first write is the note itself (where `expected_hash` is checked). Between the two writes
 * the replaced text is in the write journal, which records it before the note is written.
 */
export async function overwriteWithBackup(host: Host, scope: Scope, file: HostFile, text: string): Promise<{ backup: string; text: string }> {
	let replaced = "";
	// Asked before the note is replaced: with no name for the backup, the note keeps its text.
	if (backupPath(host, scope, file.path) === undefined) throw new NoBackupNameError(file.path);
	const written = await host.vault.process(file, (latest) => {
		replaced = latest;
		return text;
	});
	const backupFile = await createBackup(host, scope, file.path, replaced);
	return { backup: backupFile.path, text: written };
}

/**
 * Writes `text` to the first free backup name for `path`. A name that is taken on disk by
 * something the vault does not list (another writer's backup made a moment earlier, a folder, a
 * symbolic link, which the jail refuses) moves the backup to the next number, so such a name never
 * blocks an overwrite; bounded, then the error.
 */
async function createBackup(host: Host, scope: Scope, path: string, text: string): Promise<HostFile> {
	let from = 1;
	for (let attempt = 1; ; attempt++) {
		const candidate = backupPath(host, scope, path, from);
		if (candidate === undefined) throw new NoBackupNameError(path);
		try {
			// As private as the note it keeps (headless; ProcessOptions.sameAccessAs).
			return await host.vault.create(candidate, text, { sameAccessAs: path });
		} catch (error) {
			const taken =
				/already exists/i.test((error as Error).message) ||
				["EEXIST", "EOUTSIDEVAULT", "EISDIR"].includes(String((error as NodeJS.ErrnoException).code));
			if (attempt >= MAX_WRITE_ATTEMPTS || !taken) throw error;
			from = backupNumber(path, candidate) + 1;
		}
	}
}

/** The number in a backup name made by backupPath (1 for the plain `.bak`). */
function backupNumber(path: string, candidate: string): number {
	const middle = candidate.slice(path.length + 1, -".bak".length);
	return middle === "" ? 1 : Number(middle);
}

/** A note created at `path` a moment ago by another call or another program: nothing was written. */
export class NoteExistsError extends Error {
	readonly code = "EEXIST";
	constructor(readonly path: string) {
		super(
			`A note already exists at "${path}" (made a moment ago by another call or program). Nothing was written. Read it, append to it, or pass overwrite: true.`,
		);
		this.name = "NoteExistsError";
	}
}

/**
 * A folder of a new note's path that the host does not list by that name, where the disk has something all the same: on a
 * disk that folds case (macOS, Windows), a folder whose name differs only in letter case (a token limited to `Work` wrote
 * `Work/x.md` into the person's `WORK/`, which it may not see), or a link. Nothing was written.
 */
class FolderNameTakenError extends Error {
	readonly code = "EFOLDERTAKEN";
	constructor(readonly folder: string) {
		super(
			`The folder "${folder}" cannot be made: the disk already holds something by that name that is not that folder (on macOS and Windows, a folder whose name differs only in letter case). Nothing was written. Choose another folder.`,
		);
		this.name = "FolderNameTakenError";
	}
}

/**
 * Creates the folders a new note needs (Obsidian's vault.create does not). The host's folder lookups answer for a folder of
 * exactly the name asked (headless too: a disk folding case opens `WORK` for `Work`); a folder the host does not list that
 * the disk holds something at is not made through (FolderNameTakenError): on such a disk the note went into the other folder.
 */
export async function ensureParentFolder(host: Host, path: string): Promise<void> {
	const slash = path.lastIndexOf("/");
	if (slash === -1) return;
	const folder = path.slice(0, slash);
	if (await folderAt(host, folder)) return;
	const taken = await firstFolderTakenOnDisk(host, folder);
	if (taken !== undefined) throw new FolderNameTakenError(taken);
	try {
		await host.vault.createFolder(folder);
	} catch (error) {
		// Made in the moment since it was looked at (another call moving a note into the same new folder, another
		// program): Obsidian's createFolder then throws "Folder already exists.", and the folder is what was needed.
		if (isAlreadyExists(error) && (await folderAt(host, folder))) return;
		throw error;
	}
}

/**
 * The first folder of `folder` (outermost first) not there by exactly its name, when the disk holds something at that name
 * (`adapter.exists`: it answers as the disk does, folding case where the disk folds it); undefined when it is free, or
 * every folder is there. Asked only for a note whose folder is not there: one lookup a folder down to the first missing one.
 */
async function firstFolderTakenOnDisk(host: Host, folder: string): Promise<string | undefined> {
	const parts = folder.split("/");
	for (let depth = 1; depth <= parts.length; depth++) {
		const at = parts.slice(0, depth).join("/");
		if (await folderAt(host, at)) continue;
		if (!(await host.vault.adapter.exists(at))) return undefined;
		// Made by exactly this name in the moment between the two looks (another call making the same new folder): free to use.
		if (await folderAt(host, at)) continue;
		return at;
	}
	return undefined;
}

/** The folder at `path`, or null: asked of the host without holding the event loop where it can (headless checks the disk). */
export function folderAt(host: Host, path: string): Promise<HostAbstractFile | null> {
	return host.vault.getFolderByPathAsync ? host.vault.getFolderByPathAsync(path) : Promise.resolve(host.vault.getFolderByPath(path));
}

/**
 * Creates a note, making folders as needed. Two calls (or another program) creating the same new
 * path at once: the hosts refuse the second create, Obsidian with a plain "already exists" Error,
 * NodeVault with that or EEXIST; both become NoteExistsError, which the tools answer in words.
 */
export async function createNoteFile(host: Host, path: string, text: string): Promise<HostFile> {
	await ensureParentFolder(host, path);
	try {
		return await host.vault.create(path, text);
	} catch (error) {
		if (isAlreadyExists(error)) throw new NoteExistsError(path);
		throw error;
	}
}

function isAlreadyExists(error: unknown): boolean {
	return (error as NodeJS.ErrnoException).code === "EEXIST" || /already exists/i.test((error as Error).message ?? "");
}
