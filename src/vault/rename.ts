import * as nodeTimers from "node:timers";
import type { Host, HostFile } from "../host/Host";
import { NoteTooLargeError } from "../host/NoteTooLargeError";
import { OUTSIDE_VAULT } from "../host/FolderJail";
import {
	linktextFor,
	rewriteCanvasLinks,
	rewriteCanvasLinksSteps,
	rewriteLinks,
	rewriteLinksSteps,
	type NewLinkFormat,
	type RewrittenLinks,
} from "../markdown/linkRewrite";
import { linkpathOf } from "../markdown/inline";
import { linkTextsInSteps } from "../headless/compactMetadata";
import { namesAnsweredBy } from "../headless/linkSourcesByName";
import { linkMetadataSteps, metadataSteps, parseMetadata } from "../markdown/metadata";
import { runSteps, SliceClock, type Steps } from "../markdown/steps";
import { frontmatterBoundProblem, splitFrontmatter } from "../markdown/frontmatter";
import {
	INLINE_ITEMS_PAUSE_COUNT,
	MAX_READ_NOTE_BYTES,
	MAX_VAULT_PATH_CHARS,
	RENAME_CATCH_UP_MS,
	RENAME_NAME_LOOK_CHARS,
	RENAME_UNPARSED_LOOK_BYTES,
	RENAME_PLAN_SLICE_MS,
} from "../config/limits";
import { yieldToEventLoop } from "./workBudget";
import { newLinkFormat } from "./obsidianSettings";
import { visibleFilesByNameOnBudget, visibleLinkCandidatesByName, visibleLinkResolver } from "./notes";
import { isPathVisible, type Scope } from "./scope";
import { folderOf, pickLinkTarget } from "../paths/linkResolution";

/** One note whose links a rename changes: its text before and after (the moved note under its old path). */
export interface RelinkedNote {
	/** The note's path before the rename. */
	path: string;
	before: string;
	after: string;
	/** Links in it that change. */
	links: number;
	/** The new link path for each link path the note held at planning time (null: unchanged), so the edit can run again on fresher text. */
	linkpaths: ReadonlyMap<string, string | null>;
}

/** What renaming a note does: the move, and each note whose links change (the moved note's own links among them). */
export interface RenamePlan {
	from: string;
	to: string;
	/** The moved note's text before the rename. */
	movedText: string;
	notes: RelinkedNote[];
	/**
	 * Notes linking to the renamed one whose frontmatter is over the YAML bounds (MAX_FRONTMATTER_BYTES,
	 * _ENTRIES, _DEPTH) and names it inside `[[`: not parsed, so not rewritten, while Obsidian, which
	 * parses it, may read links to the note there. The answer says so rather than leave them stale unsaid.
	 */
	staleFrontmatter?: string[];
	/**
	 * Notes the host did not read (headless, over MAX_READ_NOTE_BYTES): their links are unknown, so a
	 * link to the renamed note there still names the old path. The answer says so, as for
	 * `staleFrontmatter`; before, the rename answered as if every link had followed.
	 */
	unreadNotes?: string[];
}

function nameOf(path: string): string {
	return path.slice(path.lastIndexOf("/") + 1);
}

/**
 * Works out, without writing, what renaming `file` to `to` changes, as Obsidian's rename with
 * "Automatically update internal links" on: every link that resolves to the note gets the path
 * Obsidian's link format gives for the new place (per the vault's "New link format"); and, when
 * the note changes folder, each of its own links that would then resolve elsewhere (or nowhere)
 * is pointed again at the note it reached before. Everything is worked out among the files `scope`
 * shows: links resolve as if hidden files did not exist, a name counts as unique when no visible
 * file shares it, and notes in excluded folders are neither read nor rewritten. So the link text
 * written never depends on what an excluded folder holds.
 */
export async function planRename(host: Host, scope: Scope, file: HostFile, to: string): Promise<RenamePlan> {
	const format = await newLinkFormat(host);
	const from = file.path;
	const lowerName = (name: string) => name.toLowerCase();
	// Every walk of the vault's files pauses on the plan's clock: at 10,000 notes the walks before the
	// first note is read were one piece of 40–45 ms.
	const clock = planningClock();
	const filesByName = await visibleFilesByNameOnBudget(host, scope, clock);
	const resolve = visibleLinkResolver(host, scope, filesByName);
	const candidates = visibleLinkCandidatesByName(host, scope, filesByName);
	const resolveAfter = (linkpath: string, source: string) =>
		pickLinkTarget(linkpath, source, [...candidates(linkpath, source).filter((other) => other.path !== from), { path: to }])?.path ?? null;
	// Names after the rename: the moved note counts under its new name only.
	const nameCounts = new Map<string, number>();
	const unreadNotes: string[] = [];
	for (const other of host.vault.getFiles()) {
		await clock.checkpoint();
		if (other.path !== from && !isPathVisible(other.path, scope)) continue;
		const name = lowerName(other.path === from ? nameOf(to) : other.name);
		nameCounts.set(name, (nameCounts.get(name) ?? 0) + 1);
		if (other.path !== from && isUnreadNote(host, other)) unreadNotes.push(other.path);
	}
	const isUnique = (path: string) => (nameCounts.get(lowerName(nameOf(path))) ?? 0) <= 1;
	const movedFolder = folderOf(from) !== folderOf(to);

	const mayReach = linkReacher(host, scope, file);
	const linking = await clock.run(linkingSourcesSteps(host, scope, file));
	// Notes whose links the cache does not know yet are relinked from their text when it may name the note: one left to
	// parse after serve's start, or changed on disk a moment ago, otherwise kept its link to a path no longer there.
	const notParsed = await clock.run(notesNotParsedSteps(host, scope, file, new Set(linking)));
	const unparsed = await unparsedNaming(host, notParsed, file.name, unreadNotes, clock);
	// Headless the cache is parsing them anyway: waited for (RENAME_CATCH_UP_MS at most), a note parsed since is relinked
	// from the cache's parse, or left when it does not link here, rather than parsed a second time for the plan.
	if (unparsed.size > 0 && host.metadataCache.caughtUpWithDisk) {
		await cacheCaughtUp(host);
		// The queue looked at once: once a note, thousands of queued parses (a checkout) were walked thousands of times in one piece.
		const stillQueued = new Set((host.metadataCache.notesBeingParsed?.() ?? []).map((other) => other.path));
		for (const path of unparsed) {
			await clock.checkpoint();
			if (!stillQueued.has(path) && cacheKnowsLinksOf(host, path) && !mayReach(host.metadataCache.resolvedLinks[path] ?? {})) unparsed.delete(path);
		}
	}
	const sources = [...linking, ...unparsed].sort((left, right) => (left < right ? -1 : left > right ? 1 : 0));
	const notes: RelinkedNote[] = [];
	const staleFrontmatter: string[] = [];
	let movedText = "";
	// The moved note's own links change only when it changes folder, or when one reaches the note itself: a
	// note linking nowhere near is not parsed (a planted note of 100,000 links was parsed on each rename).
	const ownTargets = host.metadataCache.resolvedLinks[from];
	const ownLinksMayChange = movedFolder || ownTargets === undefined || mayReach(ownTargets);
	for (const source of [from, ...sources]) {
		const sourceFile = host.vault.getFileByPath(source);
		if (!sourceFile) continue;
		const text = unparsed.has(source) ? await readUnparsed(host, sourceFile, unreadNotes) : await host.vault.read(sourceFile);
		if (text === null) continue;
		if (source === from) {
			movedText = text;
			// The cache's links may be older than the text just read (another program's edit not yet parsed):
			// skipped only when the text cannot name the note either.
			if (!ownLinksMayChange && !mayNameFile(text, file.name)) continue;
		}
		const sourceAfter = source === from ? to : source;
		const linkpaths = new Map<string, string | null>();
		const newLinkpath = (linkpath: string): string | null => {
			if (linkpaths.has(linkpath)) return linkpaths.get(linkpath) ?? null;
			const next = relinkedPath({ from, to, format, isUnique, movedFolder, resolve, resolveAfter }, linkpath, source, sourceAfter);
			linkpaths.set(linkpath, next);
			return next;
		};
		const rewritten = await rewriteSourceInSlices(host, source, text, newLinkpath, { from, to }, clock);
		if (rewritten.links > 0 && rewritten.text !== text)
			notes.push({ path: source, before: text, after: rewritten.text, links: rewritten.links, linkpaths });
		if (!source.endsWith(".canvas") && mayHoldUnparsedLinkTo(text, file.name)) staleFrontmatter.push(source);
	}
	return {
		from,
		to,
		movedText,
		notes,
		...(staleFrontmatter.length > 0 ? { staleFrontmatter } : {}),
		...(unreadNotes.length > 0 ? { unreadNotes } : {}),
	};
}

/**
 * Whether a note's resolved links may reach `file`: to it, or to a hidden file of a name such a link
 * asks for (for this token it reaches the note, as over a vault without the hidden file). A link
 * reaching `x.md` asks for `x.md` or `x`, and a file named that plus `.md` answers it too. Those hidden
 * files (mostly none) are found once and looked up in each note's targets: every target of every note
 * looked at was one piece of 230 ms CPU for a million links, which a caller can plant with create_note,
 * on each rename's plan and again after an Ask window.
 */
function linkReacher(host: Host, scope: Scope, file: Pick<HostFile, "path" | "name">): (targets: Readonly<Record<string, number>>) => boolean {
	const names = new Set(namesAnsweredBy(file.name).flatMap((askedName) => [askedName, `${askedName}.md`]));
	const hiddenNamesakes = host.vault
		.getFiles()
		.filter((other) => names.has(other.name.toLowerCase()) && !isPathVisible(other.path, scope))
		.map((other) => other.path);
	return (targets) => (targets[file.path] ?? 0) > 0 || hiddenNamesakes.some((path) => targets[path] !== undefined);
}

/**
 * The visible notes and canvases whose links the cache resolves to `file` (`linkReacher`), by path: not
 * by when the cache first resolved each note (which changes with parse timing), so the person sees them
 * in one order. The notes a rename of `file` relinks, as the cache knows them now.
 */
export function linkingSources(host: Host, scope: Scope, file: Pick<HostFile, "path" | "name">): string[] {
	return runSteps(linkingSourcesSteps(host, scope, file));
}

/** `linkingSources` in steps that may pause after each note of the link cache. */
function* linkingSourcesSteps(host: Host, scope: Scope, file: Pick<HostFile, "path" | "name">): Steps<string[]> {
	const mayReach = linkReacher(host, scope, file);
	const { resolvedLinks } = host.metadataCache;
	const sources: string[] = [];
	// The one lookup first: most notes link elsewhere, and a path's visibility is compared with every excluded folder.
	for (const source in resolvedLinks) {
		yield;
		const targets = resolvedLinks[source];
		if (targets !== undefined && mayReach(targets) && source !== file.path && isLinkSource(source) && isPathVisible(source, scope)) sources.push(source);
	}
	return sources.sort((left, right) => (left < right ? -1 : left > right ? 1 : 0));
}

/**
 * The visible notes and canvases, not among `known`, whose links the cache may not know: those it
 * has not parsed yet, or whose parse is queued (headless: left at serve's start, or changed on disk),
 * and notes with no metadata or no resolved links (Obsidian before its first indexing of them). Notes
 * over MAX_READ_NOTE_BYTES are not read (`unreadNotes` names them).
 */
function* notesNotParsedSteps(host: Host, scope: Scope, file: HostFile, known: ReadonlySet<string>): Steps<Set<string>> {
	const { metadataCache } = host;
	const notes = new Set<string>();
	const consider = (other: HostFile) => {
		if (other.path === file.path || known.has(other.path) || !isLinkSource(other.path) || !isPathVisible(other.path, scope)) return;
		if (other.stat.size <= MAX_READ_NOTE_BYTES) notes.add(other.path);
	};
	for (const other of metadataCache.notesBeingParsed?.() ?? []) consider(other);
	// In steps, like the plan's other walks of the vault's files: tens of thousands of notes are tens of milliseconds.
	for (const other of host.vault.getMarkdownFiles()) {
		yield;
		if (metadataCache.resolvedLinks[other.path] === undefined || metadataCache.getFileCache(other) === null) consider(other);
	}
	return notes;
}

/**
 * The visible notes and canvases, not among `known`, that the cache has not parsed yet and whose text may
 * name `file` (`notesNotParsedSteps`, `unparsedNaming`): looked through in slices, RENAME_UNPARSED_LOOK_BYTES
 * at most, the rest (and those the system would not let it read) pushed to `unreadNotes`. The notes a
 * rename's plan relinks from their text besides the cache's `linkingSources`.
 */
export async function unparsedNotesNaming(host: Host, scope: Scope, file: HostFile, known: ReadonlySet<string>, unreadNotes: string[]): Promise<Set<string>> {
	const clock = planningClock();
	const notParsed = await clock.run(notesNotParsedSteps(host, scope, file, known));
	return unparsedNaming(host, notParsed, file.name, unreadNotes, clock);
}

/** Those of `notes` whose text may name a file named `fileName` (`mayNameFileSteps`), looked through on `clock`; past RENAME_UNPARSED_LOOK_BYTES of them, the rest are named in `unreadNotes` unread. */
async function unparsedNaming(host: Host, notes: ReadonlySet<string>, fileName: string, unreadNotes: string[], clock: SliceClock): Promise<Set<string>> {
	const naming = new Set<string>();
	let bytesLooked = 0;
	for (const path of notes) {
		// Before Obsidian has indexed the vault every note is here: past the bound, thousands named in one piece otherwise.
		await clock.checkpoint();
		const file = host.vault.getFileByPath(path);
		if (file && bytesLooked + file.stat.size > RENAME_UNPARSED_LOOK_BYTES) {
			// Not named yet: `notes` holds each path once, and the notes named before are over MAX_READ_NOTE_BYTES, not among these.
			unreadNotes.push(path);
			continue;
		}
		bytesLooked += file?.stat.size ?? 0;
		// Read to look only: a note that does not name the file is not the call's to change (nor counted against its journal bound).
		const text = file ? await readUnparsed(host, file, unreadNotes, true) : null;
		if (text !== null && (await clock.run(mayNameFileSteps(text, fileName)))) naming.add(path);
	}
	return naming;
}

/** Whether the cache has parsed `path` and resolved its links (the caller checks that none of its parses is queued). */
function cacheKnowsLinksOf(host: Host, path: string): boolean {
	const file = host.vault.getFileByPath(path);
	const { metadataCache } = host;
	return file !== null && metadataCache.resolvedLinks[path] !== undefined && metadataCache.getFileCache(file) !== null;
}

/**
 * Resolves once the headless cache has parsed the notes other programs wrote before this call and
 * those left at start (`caughtUpWithDisk`), or after RENAME_CATCH_UP_MS: a file that keeps changing,
 * or a queue behind huge notes, does not hold a rename longer. At once in Obsidian.
 */
export async function cacheCaughtUp(host: Host): Promise<void> {
	const caughtUp = host.metadataCache.caughtUpWithDisk?.();
	if (caughtUp === undefined) return;
	let timer: ReturnType<typeof nodeTimers.setTimeout> | undefined;
	await Promise.race([caughtUp, new Promise((resolve) => (timer = nodeTimers.setTimeout(resolve, RENAME_CATCH_UP_MS)))]);
	nodeTimers.clearTimeout(timer);
}

/** The system's reasons a note in the vault cannot be read, as Node's errors name them. */
const UNREADABLE_NOTE_CODES: ReadonlySet<string> = new Set(["EACCES", "EPERM", "EIO", "EISDIR", "ENOTDIR", "ELOOP", "EBUSY"]);

/**
 * An unparsed note's text; null when it is gone meanwhile (its delete event follows), or swapped for a link or
 * something else the jail refuses (no longer part of the vault: as if deleted; the rename of a visible note failed
 * as "not part of the vault" over another note it never named), or grown past MAX_READ_NOTE_BYTES or unreadable by
 * the system (then among `unreadNotes`).
 */
async function readUnparsed(host: Host, file: HostFile, unreadNotes: string[], toLook = false): Promise<string | null> {
	try {
		return await (toLook && host.vault.readToLook ? host.vault.readToLook(file) : host.vault.read(file));
	} catch (error) {
		if (error instanceof NoteTooLargeError) {
			if (!unreadNotes.includes(file.path)) unreadNotes.push(file.path);
			return null;
		}
		const code = (error as { code?: unknown } | null)?.code;
		if (code === "ENOENT" || code === OUTSIDE_VAULT) return null;
		// Unreadable by the system (its permissions, a disk error): named as not read, so a rename of another note is not
		// refused over a note the caller never named (red90), and the person knows to check its links. This call's own
		// bounds (a read over what one call may journal) still end it.
		if (typeof code === "string" && UNREADABLE_NOTE_CODES.has(code)) {
			if (!unreadNotes.includes(file.path)) unreadNotes.push(file.path);
			return null;
		}
		throw error;
	}
}

/**
 * A note over MAX_READ_NOTE_BYTES whose metadata is not its text's: the headless server parses such
 * a note as empty (no sections, while it holds megabytes), or has not parsed it yet. Obsidian reads
 * every note itself, so there its metadata has the sections of its text.
 */
function isUnreadNote(host: Host, file: HostFile): boolean {
	return file.extension === "md" && file.stat.size > MAX_READ_NOTE_BYTES && !host.metadataCache.getFileCache(file)?.sections?.length;
}

interface RenameFacts {
	from: string;
	to: string;
	format: NewLinkFormat;
	isUnique: (path: string) => boolean;
	movedFolder: boolean;
	/** Link resolution among the visible files. */
	resolve: (linkpath: string, source: string) => HostFile | null;
	/** The path a link reaches among the visible files once the note is renamed (`from` gone, the note at `to`), or null. */
	resolveAfter: (linkpath: string, source: string) => string | null;
}

/** The new path part for one link path in the note `source` (at `sourceAfter` once renamed), or null to leave it. */
function relinkedPath(facts: RenameFacts, linkpath: string, source: string, sourceAfter: string): string | null {
	// `[[#Heading]]` points into the note it stands in, wherever that goes.
	if (linkpath === "") return null;
	const target = facts.resolve(linkpath, source);
	if (!target) return null;
	const keepExtension = linkpath.toLowerCase().endsWith(".md");
	if (target.path === facts.from) return reachingLinktext(facts, facts.to, sourceAfter, keepExtension);
	if (source !== facts.from || !facts.movedFolder) return null;
	// The moved note's own link to another note: only one that would reach something else from the new folder is rewritten.
	const fromNewPlace = facts.resolve(linkpath, sourceAfter);
	if (fromNewPlace?.path === target.path) return null;
	return reachingLinktext(facts, target.path, sourceAfter, keepExtension);
}

/**
 * The link path the vault's link format gives for `targetPath` (where it is once renamed) from
 * `sourceAfter`, made to reach it. A path written from the note's folder down (`A`, `Sub/A`) is
 * read first as a vault path, then as the end of any path, and a note's path without `.md` may be
 * an attachment's (`pic.png` for `pic.png.md`), so another file could take it. Then it is written
 * `./A` (relative) or as the full path (shortest), with `.md` if that is still not enough.
 */
function reachingLinktext(facts: RenameFacts, targetPath: string, sourceAfter: string, keepExtension: boolean): string {
	// Read as it will be: the renamed note may take a link to another file, and a file its old path beat may take one to it.
	const reaches = (linktext: string) => facts.resolveAfter(linktext, sourceAfter) === targetPath;
	const linktext = linktextFor(targetPath, sourceAfter, facts.format, facts.isUnique(targetPath), keepExtension);
	if (reaches(linktext)) return linktext;
	const fromHere = (path: string) => (path.startsWith("../") ? path : `./${path}`);
	const fullPath = (extension: boolean) => linktextFor(targetPath, sourceAfter, "absolute", false, extension);
	const candidates =
		facts.format === "relative"
			? [fromHere(linktext), fromHere(linktextFor(targetPath, sourceAfter, "relative", true, true))]
			: [fullPath(keepExtension), fullPath(true)];
	return candidates.find(reaches) ?? fullPath(true);
}

/** A character that can stand for another in a link path: a percent escape, an entity, a backslash escape, a space Obsidian reads as a space. */
const LINK_PATH_SPELLING = /[%&\\\u00a0\u202f]/;

/**
 * Whether `text` may hold a link asking for a file named `fileName` (the name, any case, in either
 * Unicode normalization form, or a character that could spell it otherwise). A cheap test on the
 * text itself: the cache's resolved links are those of the text it last parsed, which may be older.
 */
function mayNameFile(text: string, fileName: string): boolean {
	if (LINK_PATH_SPELLING.test(text)) return true;
	const lower = text.toLowerCase();
	const stem = namesAnsweredBy(fileName).at(-1) ?? fileName.toLowerCase();
	return lower.includes(stem.normalize("NFC")) || lower.includes(stem.normalize("NFD"));
}

/**
 * `mayNameFile` in steps, a run of RENAME_NAME_LOOK_CHARS at a time (each run overlapping the last by
 * the name's length), so a note of megabytes is looked through in slices.
 */
function* mayNameFileSteps(text: string, fileName: string): Steps<boolean> {
	const stem = namesAnsweredBy(fileName).at(-1) ?? fileName.toLowerCase();
	const overlap = Math.max(stem.normalize("NFC").length, stem.normalize("NFD").length);
	for (let start = 0; start < text.length; start += RENAME_NAME_LOOK_CHARS) {
		if (mayNameFile(text.slice(Math.max(0, start - overlap), start + RENAME_NAME_LOOK_CHARS), fileName)) return true;
		yield;
	}
	return false;
}

/**
 * Whether `text` has a frontmatter over the YAML bounds (so not parsed, and its links not rewritten)
 * that may hold a wikilink to a file named `fileName`. Obsidian reads a property's `[[link]]` as a link.
 */
function mayHoldUnparsedLinkTo(text: string, fileName: string): boolean {
	const yaml = splitFrontmatter(text)?.yaml;
	return yaml !== undefined && yaml.includes("[[") && frontmatterBoundProblem(yaml) !== null && mayNameFile(yaml, fileName);
}

/** Files whose links a rename updates: notes, and canvases (their file cards and the links in their text cards). */
function isLinkSource(path: string): boolean {
	return path.endsWith(".md") || path.endsWith(".canvas");
}

/** A note's or canvas's text with its links to the renamed note rewritten. */
function rewriteSource(source: string, text: string, newLinkpath: (linkpath: string) => string | null, move: { from: string; to: string }): RewrittenLinks {
	if (source.endsWith(".canvas")) return rewriteCanvasLinks(text, newLinkpath, (path) => (path === move.from ? move.to : null), metadataSteps);
	return rewriteLinks(text, parseMetadata(text), newLinkpath, { renameShownName: true });
}

/**
 * `rewriteSource` pausing on `clock` while a note is parsed and its links rewritten: a note of a
 * megabyte holding 90,000 links took over a second in one piece, and in Obsidian that piece runs on
 * the interface thread. Only links are read, so no list item is built; and the metadata the host's
 * cache parsed from exactly `text` is used as it is (a megabyte note was parsed once for the plan,
 * then again by the cache once written).
 */
async function rewriteSourceInSlices(
	host: Host,
	source: string,
	text: string,
	newLinkpath: (linkpath: string) => string | null,
	move: { from: string; to: string },
	clock: SliceClock,
): Promise<RewrittenLinks> {
	if (source.endsWith(".canvas"))
		return clock.run(rewriteCanvasLinksSteps(text, newLinkpath, (path) => (path === move.from ? move.to : null), linkMetadataSteps));
	const metadata = (await host.metadataCache.parsedFrom?.(source, text)) ?? (await clock.run(linkMetadataSteps(text)));
	return clock.run(rewriteLinksSteps(text, metadata, newLinkpath, { renameShownName: true }));
}

/** A fresh clock for one rename's planning, pausing like every other long piece of work. */
function planningClock(): SliceClock {
	return new SliceClock(RENAME_PLAN_SLICE_MS, yieldToEventLoop);
}

/** A note's text with a plan's link changes made again on `text` (the text the plan read, or a fresher one). */
export function relinkText(plan: Pick<RenamePlan, "from" | "to">, note: RelinkedNote, text: string): string {
	if (text === note.before) return note.after;
	return rewriteSource(note.path, text, (linkpath) => note.linkpaths.get(linkpath) ?? null, plan).text;
}

/** Where a planned note is once the rename is done. */
export function pathAfter(plan: RenamePlan, path: string): string {
	return path === plan.from ? plan.to : path;
}

/**
 * True when a link that now reaches `current` would reach the note renamed to `to` once it is
 * there: the one resolution rule (paths/linkResolution.ts) between the two.
 */
function wouldBeTakenBy(to: string, linkpath: string, source: string, current: HostFile): boolean {
	return pickLinkTarget(linkpath, source, [{ path: current.path }, { path: to }])?.path === to && current.path !== to;
}

/**
 * Links to other notes that the renamed note would take over: `[[Notes]]` reaching `Notes.md`
 * would reach `Projects/Notes.md` from inside `Projects/`, once a note is renamed to that. Obsidian
 * leaves them, so they would silently point at another note; here each one is first written as
 * the full vault path of the note it reaches now, so it keeps reaching it (in its own form, with
 * its subpath and alias). Only notes holding a link whose name is the new name are read.
 */
export async function planKeptLinks(host: Host, scope: Scope, file: HostFile, to: string): Promise<RelinkedNote[]> {
	const newName = nameOf(to).toLowerCase();
	const notes: RelinkedNote[] = [];
	const clock = planningClock();
	const resolve = visibleLinkResolver(host, scope);
	// The full path without `.md` may be another file's too (`A/Beta` is `a/Beta` read case-blind, a
	// file with no extension): the link then keeps reaching `current` only with `.md`.
	const keptLinktext = (current: HostFile, linkpath: string, source: string, sourceAfter: string) => {
		const linktext = linktextFor(current.path, source, "absolute", false, linkpath.toLowerCase().endsWith(".md"));
		const reached = resolve(linktext, sourceAfter);
		if (reached?.path === current.path && !wouldBeTakenBy(to, linktext, sourceAfter, reached)) return linktext;
		return linktextFor(current.path, source, "absolute", false, true);
	};
	// A link the renamed note would take reaches, over the whole vault, a file of the name it asks for
	// (the new name, or it with or without `.md`): a note whose resolved targets hold none has no such
	// link, and its link texts are not read (a planted note of 100,000 links was read on every rename).
	const takenNames = new Set([newName, `${newName}.md`, newName.endsWith(".md") ? newName.slice(0, -".md".length) : newName]);
	// Its unresolved links too: a note of the new name created just before the rename is not yet in
	// the resolved records of the notes linking to it (they still list the link as unresolved until the
	// cache resolves them again), and their links would be taken over unseen.
	// Pausing: a planted note of 100,000 links to names no file has holds as many unresolved targets (one piece of 94 ms).
	let sinceLook = 0;
	const namesTaken = async (record: Record<string, number>): Promise<boolean> => {
		for (const target in record) {
			// A target longer than any file's path is never reached (listed unresolved): its name is not lowercased.
			if (target.length <= MAX_VAULT_PATH_CHARS && takenNames.has(nameOf(target).toLowerCase())) return true;
			if (++sinceLook >= INLINE_ITEMS_PAUSE_COUNT) {
				sinceLook = 0;
				await clock.checkpoint();
			}
		}
		return false;
	};
	const mayHoldTakenLink = async (path: string): Promise<boolean> => {
		const { metadataCache } = host;
		const resolved = metadataCache.resolvedLinks[path];
		const unresolved = metadataCache.unresolvedLinks[path];
		if (resolved === undefined || unresolved === undefined) return true;
		if (await namesTaken(resolved)) return true;
		// Headless, the notes asking for a name are indexed: their unresolved records are not looked through (listing
		// a planted note's 700,000 keys was one piece of 0.2 s on every rename in the vault, whatever the pauses).
		return metadataCache.mayAskForName ? metadataCache.mayAskForName(path, nameOf(to)) : await namesTaken(unresolved);
	};
	for (const source of host.vault.getMarkdownFiles()) {
		await clock.checkpoint();
		if (!isPathVisible(source.path, scope) || !(await mayHoldTakenLink(source.path))) continue;
		const cache = host.metadataCache.getFileCache(source);
		const linkpaths = new Map<string, string | null>();
		const looked = new Set<string>();
		let sincePause = 0;
		// Only the link texts: building a note's link entries (positions and all) is one piece, and
		// a planted note of 100,000 links held every client for 0.3 s on each rename in the vault.
		const texts = cache ? [await clock.run(linkTextsInSteps(cache)), (cache.frontmatterLinks ?? []).map((entry) => entry.link)] : [];
		for (const list of texts)
			for (const text of list) {
				// One note may hold 100,000 links: the look through them pauses too.
				if (++sincePause >= INLINE_ITEMS_PAUSE_COUNT) {
					sincePause = 0;
					await clock.checkpoint();
				}
				const linkpath = linkpathOf(text);
				// Longer than any file's path, it reaches no file now or once renamed (linkResolution): not lowercased, nor kept
				// in `looked` (a planted link of megabytes was lowercased whole in one piece, on every rename in the vault).
				if (linkpath.length > MAX_VAULT_PATH_CHARS || looked.has(linkpath)) continue;
				looked.add(linkpath);
				// A link path asks for its name and its name plus `.md`: `[[Plan.md]]` reaches `Plan.md.md` too.
				const asked = nameOf(linkpath).toLowerCase();
				if (asked !== newName && `${asked}.md` !== newName) continue;
				const current = resolve(linkpath, source.path);
				const sourceAfter = source.path === file.path ? to : source.path;
				const kept = current && current.path !== file.path && wouldBeTakenBy(to, linkpath, sourceAfter, current);
				linkpaths.set(linkpath, kept ? keptLinktext(current, linkpath, source.path, sourceAfter) : null);
			}
		if (![...linkpaths.values()].some((next) => next !== null)) continue;
		const text = await host.vault.read(source);
		const rewritten = await rewriteSourceInSlices(host, source.path, text, (linkpath) => linkpaths.get(linkpath) ?? null, { from: file.path, to }, clock);
		if (rewritten.links > 0 && rewritten.text !== text)
			notes.push({ path: source.path, before: text, after: rewritten.text, links: rewritten.links, linkpaths });
	}
	return notes;
}

/** What `renameNote` did: the rename's own plan, and the links to other notes it kept in place. */
export interface RenameOutcome {
	plan: RenamePlan;
	kept: RelinkedNote[];
}

/**
 * The rename `rename_note` makes, among the notes `scope` shows: links the new name would take
 * over are first kept on their notes (`planKeptLinks`), then the note moves and each link to it is
 * rewritten (`moveWithRelinks`), all planned once. On the planning host a write call runs on, these
 * writes become the call's change set. When links are kept, the renamed note is read in an atomic
 * edit that changes nothing first, so the caller's `expected_hash` is checked on it, not on a linking note.
 */
export async function renameNote(host: Host, scope: Scope, file: HostFile, to: string): Promise<RenameOutcome> {
	const kept = await planKeptLinks(host, scope, file, to);
	if (kept.length > 0) {
		await host.vault.process(file, (text) => text);
		for (const note of kept) {
			const source = host.vault.getFileByPath(note.path);
			if (source) await host.vault.process(source, relinkEdit({ from: file.path, to }, note));
		}
	}
	const plan = await planRename(host, scope, file, to);
	await moveWithRelinks(host, file, plan);
	return { plan, kept };
}

const linkRewrites = new WeakSet<(text: string) => string>();

/** A planned note's link change as an edit of its text: a pure function, which the write path may make again on newer text. */
function relinkEdit(plan: Pick<RenamePlan, "from" | "to">, note: RelinkedNote): (text: string) => string {
	const edit = (text: string) => relinkText(plan, note, text);
	linkRewrites.add(edit);
	return edit;
}

/** Whether an edit only rewrites the link paths of a rename (made by `relinkEdit`). */
export function isRelinkEdit(edit: (text: string) => string): boolean {
	return linkRewrites.has(edit);
}

/** Makes a planned rename through the host's own writes: the move (`vault.rename`), then each linking note in its own atomic edit (`vault.process`). */
export async function moveWithRelinks(host: Host, file: HostFile, plan: RenamePlan): Promise<void> {
	await host.vault.rename(file, plan.to);
	// Paused between notes: on a write call's planning host each edit reads its note's text (a file look each),
	// which for 3,001 linking notes was 54 ms in one piece.
	const clock = planningClock();
	for (const note of plan.notes) {
		await clock.checkpoint();
		const current = host.vault.getFileByPath(pathAfter(plan, note.path));
		if (current) await host.vault.process(current, relinkEdit(plan, note));
	}
}

/**
 * What the headless host's `fileManager.renameFile` does, standing in for Obsidian's own: the
 * move and the link updates in every note Obsidian indexes (dot-folders are never indexed).
 */
export async function renameWithLinks(host: Host, file: HostFile, to: string): Promise<RenamePlan> {
	const plan = await planRename(host, { configDir: "", excludedFolders: [] }, file, to);
	await moveWithRelinks(host, file, plan);
	return plan;
}
