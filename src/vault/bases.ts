/**
 * The vault as a base sees it: every visible file (notes and attachments, as in Obsidian, where a
 * base starts from every file), with frontmatter, tags and links from the host's metadata cache.
 * Files in excluded folders, hidden files and symbolic links are never among them, and a link into
 * an excluded folder resolves as if its target did not exist.
 */
import type { Host, HostFile } from "../host/Host";
import type { BaseFile, BaseVault, LinkRef } from "../bases/values";
import { allTagTexts } from "./tags";
import { packedReferencePlaces } from "../headless/compactMetadata";
import { linkpathOf } from "../markdown/inline";
import { fail, ok, type Result } from "../result";
import { comparePathsStrictly, visibleLinkResolver } from "./notes";
import { sortInSlices, type CallBudget } from "./workBudget";
import { BASES_LISTING_CHECK_MASK, MAX_VAULT_PATH_CHARS } from "../config/limits";
import { checkVaultPath } from "./paths";
import { isPathVisible, type Scope } from "./scope";
import { folderOf } from "../paths/parts";
import { runSteps, type SliceClock, type Steps } from "../markdown/steps";

/** The file a tool argument names, with the extension the tool reads (`Projects/Board` or `Projects/Board.canvas`). */
export function findFileWithExtension(host: Host, scope: Scope, input: string, extension: "base" | "canvas"): Result<HostFile> {
	const checked = checkVaultPath(input, scope);
	if (!checked.ok) return checked;
	const path = checked.value.endsWith(`.${extension}`) ? checked.value : `${checked.value}.${extension}`;
	const file = host.vault.getFileByPath(path);
	// A hidden or excluded file is answered exactly like a missing one.
	if (!file || !isPathVisible(file.path, scope))
		return fail(
			`No ${extension === "base" ? "base" : "canvas"} "${path}". Call ${extension === "base" ? "list_bases" : "list_notes"} to find the right path.`,
		);
	return ok(file);
}

/**
 * The base or canvas a tool names in its answer, found as `file` when the call began: read again
 * after the call's waits, since the person may have moved it meanwhile (the same file object,
 * renamed). Moved where this caller may not see it (an excluded folder), it is answered as `input`
 * would be now, so its new path is never named.
 */
export function fileAsAnswered(host: Host, scope: Scope, input: string, extension: "base" | "canvas", file: HostFile): Result<HostFile> {
	if (isPathVisible(file.path, scope)) return ok(file);
	const now = findFileWithExtension(host, scope, input, extension);
	return now.ok ? fail(`The ${extension} this call named was moved while it was read. Call it again.`) : now;
}

/** Reads a visible file's text, refusing one larger than `maxBytes` before reading it. */
export async function readBoundedFile(host: Host, file: HostFile, maxBytes: number): Promise<Result<string>> {
	if (file.stat.size > maxBytes) return fail(`"${file.path}" is ${file.stat.size} bytes; at most ${maxBytes} are read.`);
	const text = await host.vault.cachedRead(file);
	if (Buffer.byteLength(text) > maxBytes) return fail(`"${file.path}" is larger than ${maxBytes} bytes; at most ${maxBytes} are read.`);
	return ok(text);
}

/** A base as listed: its file, and the path it had when it was found visible. */
export interface ListedBase {
	file: HostFile;
	path: string;
}

/**
 * The visible `.base` files, by path (list_notes' order: the collator's, then code points, so a
 * page's cursor finds the same place again), looked for and sorted in slices on `budget`: a vault
 * of 100,000 bases was filtered and sorted in one piece. Each keeps the path it was found visible
 * at, and is sorted by it: a file is renamed in place, and one moved into an excluded folder at a
 * pause of the sort would otherwise be sorted, and named by a page's cursor, at its hidden path.
 */
export async function visibleBases(host: Host, scope: Scope, budget: CallBudget): Promise<ListedBase[]> {
	const bases: ListedBase[] = [];
	for (const [index, file] of host.vault.getFiles().entries()) {
		if ((index & BASES_LISTING_CHECK_MASK) === BASES_LISTING_CHECK_MASK && budget.due()) await budget.checkpoint();
		if (file.extension === "base" && isPathVisible(file.path, scope)) bases.push({ file, path: file.path });
	}
	return sortInSlices(bases, (a, b) => comparePathsStrictly(a.path, b.path), budget);
}

/** A file's folder as Bases shows it (`file.folder`): "/" at the vault's root. */
function baseFolderOf(path: string): string {
	return folderOf(path) || "/";
}

/** How the walk over every file pauses: `due()` is asked often, `checkpoint()` awaited when it says so. */
type WalkClock = Pick<SliceClock, "due" | "checkpoint">;

/** A walk that never pauses (tests, the bench's direct runs). */
const NEVER_PAUSE: WalkClock = { due: () => false, checkpoint: () => Promise.resolve() };

/**
 * The visible files as base rows, and the vault view their expressions reach. The rows are made
 * one file at a time, pausing on `clock`: 10,000 files made in one piece held the server 20–80 ms a query.
 * With `backlinks`, the index `file.backlinks` reads is built here too, pausing between links: built
 * inside an expression (which cannot pause), a note of 40,000 spellings of a link held the server 0.35 s.
 */
export async function baseVault(
	host: Host,
	scope: Scope,
	clock: WalkClock = NEVER_PAUSE,
	options: { backlinks?: boolean } = {},
): Promise<{ vault: BaseVault; files: BaseFile[]; fileFor: (file: HostFile) => BaseFile }> {
	const byPath = new Map<string, BaseFile>();
	// One query asks the same questions many times (every note's links, every file's visibility): each is answered once.
	const visibility = new Map<string, boolean>();
	const isVisible = (path: string): boolean => {
		let visible = visibility.get(path);
		if (visible === undefined) {
			visible = isPathVisible(path, scope);
			visibility.set(path, visible);
		}
		return visible;
	};
	// Obsidian resolves a link by its text and the linking note's folder (relative links, a match in the same folder first).
	const resolutions = new Map<string, string | null>();
	const resolveVisible = visibleLinkResolver(host, scope);
	const resolveLink = (linkpath: string, sourcePath: string): string | null => {
		// Reaches no file, and kept by no key: V8 hashes a longer one by its length alone (V8_HASHED_STRING_MAX_CHARS).
		if (linkpath.length > MAX_VAULT_PATH_CHARS) return null;
		const key = `${baseFolderOf(sourcePath)}\u0000${linkpath}`;
		const known = resolutions.get(key);
		if (known !== undefined) return known;
		const target = resolveVisible(linkpath, sourcePath);
		const path = target && isVisible(target.path) ? target.path : null;
		resolutions.set(key, path);
		return path;
	};
	// Each base file's host file, which the host renames in place: where the file is now.
	const hostFiles = new WeakMap<BaseFile, HostFile>();
	const fileFor = (file: HostFile): BaseFile => {
		const known = byPath.get(file.path);
		if (known) return known;
		const made = makeBaseFile(host, file, resolveLink);
		byPath.set(file.path, made);
		hostFiles.set(made, file);
		return made;
	};
	const files: BaseFile[] = [];
	const notes: HostFile[] = [];
	// The folders holding visible files: `file.folder` is one, as text.
	const folders = new Set<string>();
	for (const file of host.vault.getFiles()) {
		if (isVisible(file.path)) {
			files.push(fileFor(file));
			for (let folder = folderOf(file.path); folder !== "" && !folders.has(folder); folder = folderOf(folder)) folders.add(folder);
			if (file.extension === "md") notes.push(file);
		}
		if (clock.due()) await clock.checkpoint();
	}
	let backlinkIndex: Map<string, string[]> | null = null;
	if (options.backlinks) {
		const steps = backlinkIndexSteps(host, notes, resolveLink);
		for (let next = steps.next(); ; next = steps.next()) {
			if (next.done) {
				backlinkIndex = next.value;
				break;
			}
			if (clock.due()) await clock.checkpoint();
		}
	}
	const vault: BaseVault = {
		file: (path) => {
			if (!isVisible(path)) return null;
			const file = host.vault.getFileByPath(path);
			return file ? fileFor(file) : null;
		},
		// Every visible file's base file and folder are gathered above: lookups, never a path worked out for any text a cell holds.
		isWhereItWas: (made) => {
			const file = hostFiles.get(made);
			return file !== undefined && file.path === made.path && host.vault.getFileByPath(made.path) === file && isPathVisible(made.path, scope);
		},
		isVisiblePath: (text) => text.length <= MAX_VAULT_PATH_CHARS && (byPath.has(text) || folders.has(text)),
		resolveLink,
		backlinks: (path) => {
			// Built once per query when not built ahead (a base that never names `file.backlinks`).
			backlinkIndex ??= runSteps(backlinkIndexSteps(host, notes, resolveLink));
			return backlinkIndex.get(path) ?? [];
		},
	};
	return { vault, files, fileFor };
}

/**
 * Which visible notes link to each path, from the visible notes only (an excluded note never counts as
 * a backlink). Reads each note's link texts without building its entries (a packed note's in steps),
 * and pauses after each link it resolves: where `file.links` would lead, without making `file.links`.
 */
function* backlinkIndexSteps(
	host: Host,
	notes: readonly HostFile[],
	resolveLink: (linkpath: string, sourcePath: string) => string | null,
): Steps<Map<string, string[]>> {
	const index = new Map<string, string[]>();
	for (const note of notes) {
		const cache = host.metadataCache.getFileCache(note);
		if (!cache) continue;
		const packed = yield* packedReferencePlaces(cache);
		const lists = [
			(cache.frontmatterLinks ?? []).map((entry) => entry.link),
			packed ? packed.links.texts : (cache.links ?? []).map((entry) => entry.link),
			packed ? packed.embeds.texts : (cache.embeds ?? []).map((entry) => entry.link),
		];
		const targets = new Set<string>();
		for (const texts of lists)
			for (const text of texts) {
				const target = resolveLink(linkpathOf(text), note.path);
				if (target !== null) targets.add(target);
				yield;
			}
		for (const target of targets) {
			const list = index.get(target) ?? [];
			list.push(note.path);
			index.set(target, list);
		}
	}
	return index;
}

function makeBaseFile(host: Host, file: HostFile, resolveLink: (linkpath: string, sourcePath: string) => string | null): BaseFile {
	// Only visible files become base files (see fileFor's callers): a Markdown one is a note in scope.
	const isNote = file.extension === "md";
	const cache = () => (isNote ? host.metadataCache.getFileCache(file) : null);
	let links: LinkRef[] | null = null;
	let embeds: LinkRef[] | null = null;
	const toRef = (entry: { link: string; displayText?: string }): LinkRef => {
		let target: string | null | undefined;
		return {
			link: entry.link,
			// Resolved on first use: `file.links.length` needs no resolution, `file.hasLink(…)` does.
			get target(): string | null {
				if (target === undefined) target = resolveLink(linkpathOf(entry.link), file.path);
				return target;
			},
			...(entry.displayText !== undefined && entry.displayText !== entry.link ? { display: entry.displayText } : {}),
		};
	};
	return {
		path: file.path,
		name: file.name,
		basename: file.basename,
		extension: file.extension,
		folder: baseFolderOf(file.path),
		size: file.stat.size,
		ctime: file.stat.ctime,
		mtime: file.stat.mtime,
		properties: () => cache()?.frontmatter ?? null,
		tags: () => {
			const metadata = cache();
			return metadata ? allTagTexts(metadata) : [];
		},
		links: () => {
			if (!links) {
				const metadata = cache();
				links = metadata ? [...(metadata.frontmatterLinks ?? []), ...(metadata.links ?? []), ...(metadata.embeds ?? [])].map(toRef) : [];
			}
			return links;
		},
		embeds: () => {
			if (!embeds) embeds = (cache()?.embeds ?? []).map(toRef);
			return embeds;
		},
	};
}
