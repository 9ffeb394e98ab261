import type { Host, HostFile } from "../host/Host";
import { IN_SCOPE_MEMO_PATHS, IN_SCOPE_MEMO_SCOPES, NOT_FOUND_SUGGESTIONS } from "../config/limits";
import { fail, ok, type Result } from "../result";
import { jsonCharBytes } from "../jsonText";
import { runStepsOnBudget, type CallBudget } from "./workBudget";
import { runSteps, type Steps } from "../markdown/steps";
import { checkVaultPath } from "./paths";
import { isNoteInScope, isPathVisible, scopeKey, type Scope } from "./scope";
import { linkQuery, pickLinkTarget, queriedName } from "../paths/linkResolution";
import { trimSlashes } from "../paths/spelling";

/** Paths in the order list answers use: the same as `localeCompare`, at a fraction of its cost. */
export const comparePaths: (a: string, b: string) => number = new Intl.Collator().compare;

/**
 * `comparePaths`, and two paths it finds alike (canonically equal spellings, characters it ignores)
 * by their code units: an order that never hangs on the order the paths came in, so a count kept
 * note by note lists its notes as a count from nothing does.
 */
export function comparePathsStrictly(a: string, b: string): number {
	return comparePaths(a, b) || (a < b ? -1 : a > b ? 1 : 0);
}

/**
 * Whether each path is a note in scope, per scope: every vault-wide call asks it of every note, and
 * the answer depends only on the path and the scope. Cleared when it fills.
 */
const noteInScopeMemo = new Map<string, Map<string, boolean>>();

function noteInScopeMemoFor(scope: Scope): Map<string, boolean> {
	const key = scopeKey(scope);
	let memo = noteInScopeMemo.get(key);
	if (!memo || memo.size >= IN_SCOPE_MEMO_PATHS) {
		if (noteInScopeMemo.size >= IN_SCOPE_MEMO_SCOPES) noteInScopeMemo.clear();
		memo = new Map();
		noteInScopeMemo.set(key, memo);
	}
	return memo;
}

/** Whether a tool of `scope` may see the note at a path (`isNoteInScope`), answered from the per-scope memo. */
export function noteVisibility(scope: Scope): (path: string) => boolean {
	const memo = noteInScopeMemoFor(scope);
	return (path) => {
		let visible = memo.get(path);
		if (visible === undefined) {
			visible = isNoteInScope(path, scope);
			memo.set(path, visible);
		}
		return visible;
	};
}

/** The Markdown notes a tool may see, in Obsidian's listing order. */
export function visibleNotes(host: Host, scope: Scope): HostFile[] {
	const visible = noteVisibility(scope);
	return host.vault.getMarkdownFiles().filter((file) => visible(file.path));
}

/** `visibleNotes`, picked in slices on `budget`: at 50,000 notes the one piece was 17–91 ms. */
export async function visibleNotesOnBudget(host: Host, scope: Scope, budget?: Pick<CallBudget, "due" | "checkpoint">): Promise<HostFile[]> {
	const visible = noteVisibility(scope);
	const notes: HostFile[] = [];
	for (const file of host.vault.getMarkdownFiles()) {
		if (budget?.due()) await budget.checkpoint();
		if (visible(file.path)) notes.push(file);
	}
	return notes;
}

/**
 * The note a tool argument names: a vault path with or without `.md`, or link text (`Note`,
 * `Folder/Note`, `Note#Heading`) resolved the way Obsidian resolves links. Excluded notes are
 * answered exactly like missing ones, so an excluded path is never confirmed to exist.
 */
export function findNote(host: Host, scope: Scope, input: string): Result<HostFile> {
	const named =
		noteNamedExactly(host, scope, input) ??
		noteSpeltWithNoBreakSpace(host, scope, beforeHashOrBar(input)) ??
		noteOpeningWithSpace(host, scope, beforeHashOrBar(input));
	if (named !== null) return ok(named);
	// Otherwise `#heading`, `^block` and `|alias` are parts of link text (Obsidian warns against them in names).
	const linkpath = beforeHashOrBar(input).trim();
	const checked = checkVaultPath(linkpath, scope);
	if (!checked.ok) return checked;
	const path = checked.value;
	const { vault } = host;
	// A hidden file is passed over as if it did not exist: "not a Markdown note" would confirm an
	// excluded attachment, and a hidden note must not shadow the visible one a link would reach.
	const visible = (file: HostFile | null) => (file && isPathVisible(file.path, scope) ? file : null);
	const exact = visible(vault.getFileByPath(path)) ?? visible(vault.getFileByPath(`${path}.md`));
	if (exact && exact.extension !== "md") return fail(`"${path}" is not a Markdown note; only notes (.md) can be read.`);
	const found = exact ?? resolveVisibleLink(host, scope, path, "");
	if (found && isNoteInScope(found.path, scope)) return ok(found);
	return fail(notFoundMessage(host, scope, path));
}

/** `input` up to its first `#` or `|`: cut with `indexOf`, not a regular expression's `split` (a list per read_note call). */
function beforeHashOrBar(input: string): string {
	const hash = input.indexOf("#");
	const bar = input.indexOf("|");
	const end = hash === -1 ? bar : bar === -1 ? hash : Math.min(hash, bar);
	return end === -1 ? input : input.slice(0, end);
}

/**
 * The visible note whose whole path, `.md` included, is `input` when that path holds `#` or `|`
 * (a file made outside Obsidian, or kept despite its warning), else null. As link text `a#b.md` is
 * note `a`'s heading `b.md`, so such a note could not be named at all; only a path spelt whole with
 * its `.md` names it, so `Note#Heading` still reaches the heading even beside a note of that name.
 * Letter case and spaces around it aside, as for any path (`notes/plan.md` names `Notes/Plan.md`):
 * `A#B.md` read as link text would reach another note, `a.md`, and a write would land there.
 */
function noteNamedExactly(host: Host, scope: Scope, input: string): HostFile | null {
	const spelt = input.trim();
	if (!/[#|]/.test(spelt) || !/\.md$/i.test(spelt)) return null;
	const checked = checkVaultPath(spelt, scope);
	if (!checked.ok) return null;
	const path = checked.value;
	const named = (file: HostFile | null) => (file && file.extension === "md" && isNoteInScope(file.path, scope) ? file : null);
	const exact = named(host.vault.getFileByPath(path));
	if (exact) return exact;
	// Resolved as a link to the whole path is, among the files this caller sees: kept only when it is that path, case aside.
	const resolved = named(resolveVisibleLink(host, scope, path, ""));
	return resolved && resolved.path.toLowerCase() === path.toLowerCase() ? resolved : null;
}

/**
 * The visible note at `linkpath` (link text less its `#heading` or `|alias`) spelt with its no-break spaces (U+00A0,
 * U+202F), with or without `.md`, letter case aside, when it holds one: a name made outside Obsidian may (a title
 * pasted from a web page), but the path policy reads them as plain spaces, as Obsidian's `normalizePath` does, so
 * list_notes listed `a\u00a0b.md` while read_note of that very path answered "No note", and beside `a b.md` a write
 * landed in that other note. With no note so spelt, the path is read as before. Only when such a space is typed are
 * the caller's notes looked through (one pass: links do not reach such a name).
 */
function noteSpeltWithNoBreakSpace(host: Host, scope: Scope, linkpath: string): HostFile | null {
	if (!NO_BREAK_SPACE.test(linkpath)) return null;
	// Plain spaces around it go, as for any path; a no-break space opening the name is part of it (none may end one).
	const trimmed = linkpath.trimEnd().replace(/^ +/, "");
	if (!checkVaultPath(trimmed, scope).ok) return null;
	const path = trimSlashes(trimmed.replace(/[\\/]+/g, "/")).normalize("NFC");
	const notes = host.vault.getMarkdownFiles().filter((file) => isNoteInScope(file.path, scope));
	const exact = notes.find((file) => file.path === path || file.path === `${path}.md`);
	const wanted = new Set([path.toLowerCase(), `${path}.md`.toLowerCase()]);
	return exact ?? notes.find((file) => wanted.has(file.path.toLowerCase())) ?? null;
}

/** The spaces the path policy reads as plain ones (OBSIDIAN_SPACES), tested without a global regular expression's state. */
const NO_BREAK_SPACE = /[\u00a0\u202f]/;

/**
 * The visible note at `linkpath` (link text less its `#heading` or `|alias`) as spelt, less spaces after it (no name
 * ends with one: checkVaultPath), with or without `.md`, letter case aside, when it opens with a space: a name may open
 * with one (create_note makes it), and trimmed as link text is, ` lead.md` named `lead.md`, another note, so list_notes
 * listed a note no tool could read and a write landed in the other (and ` Lead` still did, until case was set aside as
 * for any path). With no note so named, the path is trimmed as before (` Plan ` names `Plan.md`).
 */
function noteOpeningWithSpace(host: Host, scope: Scope, linkpath: string): HostFile | null {
	if (linkpath.trimStart() === linkpath) return null;
	const checked = checkVaultPath(linkpath.trimEnd(), scope);
	if (!checked.ok) return null;
	const path = checked.value;
	const named = (file: HostFile | null) => (file && file.extension === "md" && isNoteInScope(file.path, scope) ? file : null);
	const exact = named(host.vault.getFileByPath(path)) ?? named(host.vault.getFileByPath(`${path}.md`));
	if (exact) return exact;
	// Resolved as a link to the path is, among the files this caller sees: kept only when it is that path, case aside.
	const resolved = named(resolveVisibleLink(host, scope, path, ""));
	const spelt = resolved?.path.toLowerCase();
	return spelt === path.toLowerCase() || spelt === `${path}.md`.toLowerCase() ? resolved : null;
}

/** Whether `findNote(input)` found `file` by its whole path, so no part of `input` is a heading, block or alias. */
export function isNamedExactly(host: Host, scope: Scope, input: string, file: HostFile): boolean {
	return noteNamedExactly(host, scope, input) === file;
}

/**
 * The note a tool names in its answer, asked for by `input` and found as `file` when the call began:
 * read again as the answer is made, since the person may have moved it while the call waited for
 * the disk or between slices (the same file object, renamed). Moved where this caller may not see
 * it (an excluded folder), it is answered as `input` would be now (missing, most often), so its new
 * path is never named.
 */
export function noteAsAnswered(host: Host, scope: Scope, input: string, file: HostFile): Result<HostFile> {
	if (isNoteInScope(file.path, scope)) return ok(file);
	const now = findNote(host, scope, input);
	return now.ok ? fail("The note this call named was moved while it was read. Call it again.") : now;
}

/**
 * The file a link path points to for this token: Obsidian's resolution, but as if the files this
 * token may not see did not exist. Obsidian resolves `[[Diary]]` to the shortest path named Diary,
 * so an excluded `Private/Diary.md` would otherwise shadow a visible `Archive/Diary.md`, and which
 * one answered would tell that the excluded note exists. Only when Obsidian's pick is hidden is the
 * resolution redone over the visible files, with the one rule (paths/linkResolution.ts).
 */
function resolveVisibleLink(host: Host, scope: Scope, path: string, sourcePath: string): HostFile | null {
	const first = host.metadataCache.getFirstLinkpathDest(path, sourcePath);
	// Removing files never changes the winner when it stays: Obsidian's pick, if visible, is the answer.
	if (!first || isPathVisible(first.path, scope)) return first;
	return pickLinkTarget(path, sourcePath, visibleLinkCandidates(host, scope, path, sourcePath));
}

/**
 * `resolveVisibleLink` for the many links of one call: the visible files are gathered by name once,
 * at the first link whose target is hidden, not searched again for each. A planted note of 40,000
 * distinct link paths to one excluded note (`[[./a1/../Private/S]]`, …) made each link look through
 * the whole vault: backlinks of any note and the graph counts ran out of their work budget for every
 * token with an excluded folder, holding other clients a third of a second at a time meanwhile.
 */
/** Where a link leads among the files a scope may see (`visibleLinkResolver`). */
export type VisibleLinkResolver = (linkpath: string, sourcePath: string) => HostFile | null;

export function visibleLinkResolver(host: Host, scope: Scope, filesByName?: Map<string, HostFile[]>): VisibleLinkResolver {
	const candidates = visibleLinkCandidatesByName(host, scope, filesByName);
	return (linkpath, sourcePath) => {
		const first = host.metadataCache.getFirstLinkpathDest(linkpath, sourcePath);
		if (!first || isPathVisible(first.path, scope)) return first;
		return pickLinkTarget(linkpath, sourcePath, candidates(linkpath, sourcePath));
	};
}

/** The visible files whose name a link path names, for the many links of one call: the visible files are gathered by name once, at the first ask. */
export function visibleLinkCandidatesByName(
	host: Host,
	scope: Scope,
	filesByName?: Map<string, HostFile[]>,
): (linkpath: string, sourcePath: string) => HostFile[] {
	let byName: Map<string, HostFile[]> | null = filesByName ?? null;
	return (linkpath, sourcePath) => {
		const query = linkQuery(linkpath, sourcePath);
		if (query === null) return [];
		byName ??= visibleFilesByName(host, scope);
		const name = queriedName(query);
		return [...(byName.get(name) ?? []), ...(byName.get(`${name}.md`) ?? [])];
	};
}

/** The visible files by lower-case name, as link resolution looks them up. */
function visibleFilesByName(host: Host, scope: Scope): Map<string, HostFile[]> {
	return runSteps(visibleFilesByNameSteps(host, scope));
}

/** `visibleLinkResolver`, its visible files gathered first, pausing on `budget`: at 50,000 files the gathering was one piece of about 15–60 ms. */
export async function visibleLinkResolverOnBudget(host: Host, scope: Scope, budget?: Pick<CallBudget, "due" | "checkpoint">): Promise<VisibleLinkResolver> {
	return visibleLinkResolver(host, scope, await visibleFilesByNameOnBudget(host, scope, budget));
}

/** The visible files by lower-case name, gathered pausing on `budget` (a rename's plan). */
export function visibleFilesByNameOnBudget(host: Host, scope: Scope, budget?: Pick<CallBudget, "due" | "checkpoint">): Promise<Map<string, HostFile[]>> {
	return runStepsOnBudget(visibleFilesByNameSteps(host, scope), budget);
}

/** Files looked at between two pause points while the visible files are gathered by name. */
const FILES_BY_NAME_STEP = 1024;

function* visibleFilesByNameSteps(host: Host, scope: Scope): Steps<Map<string, HostFile[]>> {
	const byName = new Map<string, HostFile[]>();
	let since = 0;
	for (const file of host.vault.getFiles()) {
		if (++since % FILES_BY_NAME_STEP === 0) yield;
		if (!isPathVisible(file.path, scope)) continue;
		const name = file.name.toLowerCase();
		const list = byName.get(name);
		if (list) list.push(file);
		else byName.set(name, [file]);
	}
	return byName;
}

/** The visible files whose name a link path names: all resolution needs to look at. */
function visibleLinkCandidates(host: Host, scope: Scope, path: string, sourcePath: string): HostFile[] {
	const query = linkQuery(path, sourcePath);
	if (query === null) return [];
	const name = queriedName(query);
	return host.vault.getFiles().filter((file) => {
		const lower = file.name.toLowerCase();
		return (lower === name || lower === `${name}.md`) && isPathVisible(file.path, scope);
	});
}

function notFoundMessage(host: Host, scope: Scope, wanted: string): string {
	const suggestions = closestNotes(visibleNotes(host, scope), wanted, NOT_FOUND_SUGGESTIONS);
	const hint = suggestions.length ? ` Closest: ${suggestions.map((path) => `"${path}"`).join(", ")}.` : "";
	return `No note "${wanted}".${hint} Call list_notes or search_notes to find the right path.`;
}

/** The visible paths that look most like `wanted`: shared name first, then edit distance of the names. */
export function closestNotes(notes: readonly HostFile[], wanted: string, count: number): string[] {
	const target = wanted.toLowerCase().replace(/\.md$/, "");
	const targetName = target.slice(target.lastIndexOf("/") + 1);
	return notes
		.map((file) => {
			const name = file.basename.toLowerCase();
			const contains = name.includes(targetName) || targetName.includes(name) ? 0 : 1;
			return { path: file.path, contains, distance: editDistance(name, targetName) };
		})
		.sort((a, b) => a.contains - b.contains || a.distance - b.distance || comparePathsStrictly(a.path, b.path))
		.slice(0, count)
		.map((entry) => entry.path);
}

/** Levenshtein distance, bounded in cost by the two names' lengths. */
function editDistance(a: string, b: string): number {
	let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
	for (let i = 1; i <= a.length; i++) {
		const current = [i];
		for (let j = 1; j <= b.length; j++) {
			current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1));
		}
		previous = current;
	}
	return previous[b.length] ?? 0;
}

/** The most UTF-8 bytes one UTF-16 code unit takes in a JSON string: a control character or a lone surrogate, written `\u00xx`. */
export const MAX_JSON_BYTES_PER_CODE_UNIT = 6;

/**
 * The longest prefix of `text` whose JSON string (as `JSON.stringify` writes it, less its quotes)
 * fits in `maxBytes` of UTF-8, never splitting a character. Cut by its UTF-8 bytes alone, a note of
 * 4 MB of line breaks, lone CRs or NULs came out of read_note two to six times larger as JSON, and
 * twice (text and structured content): over MAX_RESPONSE_BYTES, so a hostile author could keep a
 * note from ever being read. Only the prefix kept is looked at.
 */
export function truncateAsJson(text: string, maxBytes: number): string {
	// No code unit takes more than MAX_JSON_BYTES_PER_CODE_UNIT: a text that fits even so (nearly every note) is not walked.
	if (text.length * MAX_JSON_BYTES_PER_CODE_UNIT <= maxBytes) return text;
	let bytes = 0;
	for (let index = 0; index < text.length; index++) {
		const size = jsonCharBytes(text, index);
		if (bytes + size > maxBytes) return text.slice(0, index);
		bytes += size;
		// A pair is the only character of four bytes, and of two code units.
		if (size === 4) index++;
	}
	return text;
}
