import { randomBytes } from "node:crypto";
import { MAX_WRITE_ATTEMPTS, NOTE_TEXT_SLICE_MS, RELINKS_APPLIED_AT_ONCE } from "../config/limits";
import type { Host } from "../host/Host";
import { linkpathOf } from "../markdown/inline";
import { rewriteLinksSteps } from "../markdown/linkRewrite";
import { linkMetadataSteps, metadataSteps } from "../markdown/metadata";
import { SliceClock, type Steps } from "../markdown/steps";
import { sha256HexInPieces } from "../sha256";
import { copyNameBeside } from "../vault/copyName";
import { normalizeVaultPath, OBSIDIAN_SPACES, pathMatchKey } from "../paths/spelling";
import { checkVaultPath } from "../vault/paths";
import { isInFolder, isPathVisible, type Scope } from "../vault/scope";
import { listingOverBoundReason, visibleTwinsOfEach, type VisibleTwins } from "../vault/writes";
import { yieldToEventLoop } from "../vault/workBudget";
import {
	applyChange,
	currentText,
	isPathFree,
	NoteChangedSinceError,
	recordEditsAhead,
	withPathTurns,
	WriteNoLongerAllowedError,
	writeRecordedEdit,
	type NoteChange,
} from "./changeSet";
import type { JournalCall, JournalChange, JournalEntry, WriteJournal } from "./entry";

/** The name an undo made by a person is recorded under, in history. */
const UNDO_BY_PERSON = "you";
/** The tool name history shows for an undo. */
export const UNDO_TOOL = "undo";

/** A new tool call id: 12 hex characters, short enough to type after `vault-mcp undo`. */
export function newCallId(): string {
	return randomBytes(6).toString("hex");
}

/** Why an id cannot be undone when the journal does not hold it. */
export function unknownCallReason(callId: string): string {
	return `No change with id "${callId}" in the journal: the id is unknown, or the change was among the oldest and was dropped.`;
}

/** The folder part of a vault path ("" at the root). */
function parentOf(path: string): string {
	return path.slice(0, Math.max(0, path.lastIndexOf("/")));
}

/** What undo did with one note. */
export type UndoneNote =
	| { path: string; result: "restored" }
	/** The call moved it (rename_note) and it was as the call left it: moved back to `path` with its earlier text, from `from`. */
	| { path: string; result: "moved back"; from: string }
	/** The call created it and it was unchanged since: moved to the trash, and the folders the call made for it removed if empty (innermost first). */
	| { path: string; result: "trashed"; removedFolders?: string[] }
	/** Not as the call left it (edited, renamed or deleted since): left alone, its earlier text saved as `copy`. */
	| { path: string; result: "conflict"; copy: string }
	/** The call renamed a note that cannot move back (edited since, or its old path taken): this note's links to it, at `to`, were left so they keep reaching it. */
	| { path: string; result: "links kept"; to: string }
	/** A note whose links the call's rename changed, edited since: its text kept, only those links pointed back at the note's old path. */
	| { path: string; result: "relinked" }
	/** Already exactly as it was before the call: nothing to do. */
	| { path: string; result: "unchanged" }
	/** The call created it and it was edited since: left alone, since there is no earlier text to save. */
	| { path: string; result: "kept" }
	/** The call created it and it is gone already. */
	| { path: string; result: "gone" }
	/** Moved since (by the person or another program) to where undo may not write, an excluded folder say: left alone there, and that place never named. */
	| { path: string; result: "moved out of reach" }
	/** In a folder the person excluded while the undo ran: left as it is. */
	| { path: string; result: "excluded since" };

export type UndoOutcome = { ok: true; entry: JournalEntry; undoId: string; notes: UndoneNote[] } | { ok: false; reason: string };

/** One note's part of an undo, decided before anything is written. */
type UndoStep =
	/** Write this change through the applier (restore, move back, re-create, point links back); `done` is what it did, `fallback` the copy made if the note changed in the meantime. */
	| { kind: "apply"; change: NoteChange; done: UndoneNote; original: JournalChange }
	/** A note the call created, still as it left it: to the trash. */
	| { kind: "trash"; path: string; text: string; original: JournalChange }
	/** Not as the call left it: its earlier text saved beside it. */
	| { kind: "conflict"; original: JournalChange }
	/** Nothing to write. */
	| { kind: "none"; done: UndoneNote };

/**
 * Undoes one tool call as one set. Every note is checked first: each path the journal names must
 * be one Vault MCP may write (inside the vault, not hidden, not in the config folder or an excluded
 * folder or behind a symbolic link; a journal line planted by someone else cannot make undo write
 * anywhere else), and each note's current text decides its step. Only then is anything written,
 * through the same applier as tool calls: a note still exactly as the call left it gets its earlier
 * bytes back (compared again inside the atomic write); a note the call created is moved to the
 * trash, never deleted; a note changed since is never written over: its earlier text is saved
 * beside it as a conflict copy, `<name> (before <tool> <YYYY-MM-DD HH-mm>).md`. A rename is moved
 * back first, and its links pointed back only once it is back. Each write is recorded first, as a
 * call of the tool "undo" by `undoneBy`, so history shows it and it can be undone too.
 */
export async function undoCall(
	host: Host,
	journal: WriteJournal,
	callId: string,
	undoneBy = UNDO_BY_PERSON,
	excludedFolders: readonly string[] | (() => readonly string[]) = [],
): Promise<UndoOutcome> {
	await journal.catchUp?.();
	const entry = journal.get(callId);
	if (!entry) return { ok: false, reason: unknownCallReason(callId) };
	if (entry.undone) return { ok: false, reason: `The change ${callId} was already undone, at ${entry.undone.time} (by ${entry.undone.by}).` };
	let underWay = undoesUnderWay.get(journal);
	if (underWay === undefined) undoesUnderWay.set(journal, (underWay = new Set()));
	// The plugin and `vault-mcp undo` take the vault's undo lock first (undoHoldingLock), so a second undo of a call waits and
	// then finds it undone; this guards a caller in the same process that takes no lock.
	if (underWay.has(callId)) return { ok: false, reason: `The change ${callId} is being undone already. Nothing was changed.` };
	underWay.add(callId);
	try {
		return await undoOnce(host, journal, callId, entry, undoneBy, excludedFolders);
	} finally {
		underWay.delete(callId);
	}
}

/**
 * The calls each journal has an undo under way for (in this process). A second undo of one call while the first ran (Undo
 * in the Activity section clicked twice, or beside the command) planned from the vault before the first's writes: its move back found the path
 * taken, and a copy of the note was saved beside the note the first had just put back.
 */
const undoesUnderWay = new WeakMap<WriteJournal, Set<string>>();

/** `undoCall` once no other undo of the call is under way. */
async function undoOnce(
	host: Host,
	journal: WriteJournal,
	callId: string,
	entry: JournalEntry,
	undoneBy: string,
	excludedFolders: readonly string[] | (() => readonly string[]),
): Promise<UndoOutcome> {
	// The person's excluded folders as they are at each write (in Obsidian the settings now): one excluded while the undo runs is not written.
	const excludedNow = typeof excludedFolders === "function" ? excludedFolders : () => excludedFolders;
	const scopeNow = (): Scope => ({ configDir: host.vault.configDir, excludedFolders: [...excludedNow(), ...host.hiddenLinks()] });
	const scope = scopeNow();
	for (const change of entry.changes) {
		for (const path of change.movedFrom === undefined ? [change.path] : [change.path, change.movedFrom]) {
			// A name on disk not another spelling of the path it was moved from (a planted line) would move the note elsewhere.
			const onDiskElsewhere =
				path === change.movedFrom && change.movedFromOnDisk !== undefined && normalizeVaultPath(change.movedFromOnDisk) !== normalizeVaultPath(path);
			if (onDiskElsewhere || !isWritablePath(path, scope))
				return {
					ok: false,
					reason: `Undo of ${callId} refused: its journal record names "${path}", which is not a note Vault MCP may write (outside the vault, hidden, in the config folder, in an excluded folder or behind a symbolic link). Nothing was changed.`,
				};
		}
	}
	const undo: JournalCall = { id: newCallId(), time: new Date().toISOString(), tokenName: undoneBy, tool: UNDO_TOOL };
	const planned = await planUndo(host, entry, scope);
	if (!planned.ok) return { ok: false, reason: `Undo of ${callId} refused: ${planned.reason}` };
	const steps = planned.steps;
	const putBack = steps.flatMap((step) => (step.kind === "apply" && isPutBack(step.change) ? [step.change] : []));
	const looks = new WriteLooks(host, scopeNow, putBack, entry);
	const notes: UndoneNote[] = [];
	try {
		for (let index = 0; index < steps.length;) {
			const group = editGroupAt(steps, index);
			if (group.length === 0) {
				const step = steps[index++] as UndoStep;
				const done = await runStep(host, journal, undo, entry, step, scopeNow, looks);
				notes.push(done);
				// The renamed note changed between the plan and its move back (a client's append in one of the undo's pauses): it
				// stays, so its links are left reaching it there, as for a note changed before the undo. Pointed back, they reached nothing.
				if (step.kind === "apply" && step.change.movedFrom !== undefined && done.result !== "moved back") {
					const to = step.change.movedFrom;
					notes.push(
						...steps.slice(index).map((rest) => (rest.kind === "none" ? rest.done : { path: stepPath(rest), result: "links kept" as const, to })),
					);
					break;
				}
			} else {
				await runEditGroup(host, journal, undo, entry, group, scopeNow, notes, looks);
				index += group.length;
			}
		}
	} catch (error) {
		const done = notes.length > 0 ? ` Done before it stopped: ${describeNotes(notes)}` : " Nothing was changed.";
		// Most errors' messages are sentences already (a note changed, replaced, gone): one full stop, not two.
		const why = (error instanceof Error ? error.message : String(error)).replace(/\.?$/u, ".");
		// A twin's refusal says already when to run it again.
		const again = error instanceof PutBackTwinError ? "" : " Running it again carries on.";
		return { ok: false, reason: `Undo of ${callId} stopped: ${why}${done}${again}` };
	}
	await journal.markUndone(callId, undo.id);
	return { ok: true, entry, undoId: undo.id, notes };
}

/**
 * A path undo may write: a vault path as the path policy spells it, visible to a token (not hidden, not excluded, not the
 * config folder). A no-break space (U+00A0, U+202F) in the note's own name is kept: a note named with one outside Obsidian
 * is known by that name, and the policy's spelling (a space) named another note; its change was refused ("not a note Vault
 * MCP may write"). Not in a folder's name: the folders of a path written back are found and made by the policy's spelling,
 * so undo of a rename out of `A\u00a0B/` made a second folder `A B/` beside it and put the note there.
 */
function isWritablePath(path: string, scope: Scope): boolean {
	const checked = checkVaultPath(path, scope);
	const folders = path.slice(0, path.lastIndexOf("/") + 1);
	return (
		checked.ok && folders === folders.replace(OBSIDIAN_SPACES, " ") && checked.value === path.replace(OBSIDIAN_SPACES, " ") && isPathVisible(path, scope)
	);
}

/**
 * The change as it applies where its note is now: at the path the host saw it moved to since, if
 * any (the journal's `nowAt`); null when that is a path undo may not write (an excluded folder):
 * the note is left alone there, never taken for deleted with its earlier text copied where every client reads it.
 * A note not there, and at its journalled path as the call left it, came back while nothing followed it (serve
 * stopped): it is undone there, as before moves were followed.
 */
async function located(change: JournalChange, scope: Scope, textNow: (path: string) => Promise<string | null>): Promise<JournalChange | null> {
	if (change.nowAt === undefined) return change;
	const { nowAt, ...rest } = change;
	const there = isWritablePath(nowAt, scope) ? { ...rest, path: nowAt } : null;
	if (there && (await textNow(there.path)) !== null) return there;
	if (rest.after !== null && isWritablePath(rest.path, scope) && (await textNow(rest.path)) === rest.after) return rest;
	return there;
}

/**
 * Each note's step, from its current text where it is now (see `located`), before anything is
 * written. A rename's move comes first: its links are pointed back only when the note can move
 * back, and left reaching it where it is when it cannot (its old path taken, or the note edited
 * or moved out of reach since).
 */
async function planUndo(host: Host, entry: JournalEntry, scope: Scope): Promise<{ ok: true; steps: UndoStep[] } | { ok: false; reason: string }> {
	// The vault as the steps planned so far leave it: a call may change one note twice, and its later change is undone first.
	const planned = new Map<string, string | null>();
	const textNow = async (path: string) => (planned.has(path) ? (planned.get(path) ?? null) : currentText(host, path));
	const isFree = async (path: string) => (planned.has(path) ? planned.get(path) === null : isPathFree(host, path));
	const journalledMove = entry.changes.find((change) => change.movedFrom !== undefined);
	const others = [...entry.changes].reverse().filter((change) => change !== journalledMove);
	const move = journalledMove && (await located(journalledMove, scope, textNow));
	const steps: UndoStep[] = [];
	// A note edited since a rename has both its texts and its current text parsed to point its links back: 1 MiB notes, in slices.
	const clock = new SliceClock(NOTE_TEXT_SLICE_MS, yieldToEventLoop);
	let noteStays = false;
	if (journalledMove && !move) {
		noteStays = true;
		steps.push({ kind: "none", done: { path: journalledMove.path, result: "moved out of reach" } });
	} else if (move?.movedFrom !== undefined) {
		const current = await textNow(move.path);
		const canMove = move.before !== null && current !== null && current === move.after && (await isFree(move.movedFrom));
		if (canMove && move.before !== null) {
			const change = { path: move.movedFrom, movedFrom: move.path, before: current, after: move.before };
			steps.push({
				kind: "apply",
				// Back under the name it had on disk (NFD, a no-break space), not the one normalizePath makes of its path.
				change: { ...change, spelling: move.movedFromOnDisk ?? move.movedFrom },
				done: { path: move.movedFrom, result: "moved back", from: move.path },
				original: { ...move, path: move.movedFrom },
			});
			planned.set(move.path, null);
			planned.set(move.movedFrom, move.before);
		} else {
			noteStays = true;
			steps.push({ kind: "conflict", original: { ...move, path: move.movedFrom } });
		}
	}
	for (const change of others) {
		if (journalledMove && noteStays) {
			steps.push({ kind: "none", done: { path: change.path, result: "links kept", to: (move ?? journalledMove).path } });
			continue;
		}
		const here = await located(change, scope, textNow);
		if (!here) {
			steps.push({ kind: "none", done: { path: change.path, result: "moved out of reach" } });
			continue;
		}
		const step = await clock.run(stepFor(here, journalledMove !== undefined, await textNow(here.path), await isFree(here.path)));
		if (step.kind === "apply") planned.set(step.change.path, step.change.after);
		if (step.kind === "trash") planned.set(step.path, null);
		steps.push(step);
	}
	// Every note put back looked at in one walk of the vault, after the plan's reads (one walk a note was 2N walks an undo).
	const putBack = steps.flatMap((step) => (step.kind === "apply" && isPutBack(step.change) ? [step.change] : []));
	const twin = (await putBackTwins(host, scope, putBack)).find((found) => found !== null);
	if (twin) return { ok: false, reason: `${twin.why} Nothing was changed. ${twin.todo}` };
	return { ok: true, steps };
}

/**
 * Why undo may not put each note back where its change writes it, and what the person can do (null when it may), in one walk
 * of the vault for all of them: a change that moves a note back (`movedFrom` set) or restores one (`before` null) to a path free now, beside a visible note (other than
 * the moved note itself) or a visible folder that a person, or a disk folding case (macOS, Windows), reads as the same
 * name, as create_note and rename_note refuse (`visibleTwins`). Put back, `Plan.md` was a second
 * note beside a `plan.md` made since on Linux (and a conflict copy on macOS and Windows, whose disk check found the name
 * taken). The undo is refused, nothing written: a rename's move is what its links are pointed back to, and a copy of a note
 * nobody changed only doubles it; the call stays undoable, and once the person renames the twin, the same undo puts it all
 * back. Hidden and excluded files are not looked for: the answer would tell of one.
 */
async function putBackTwins(host: Host, scope: Scope, changes: readonly NoteChange[]): Promise<Array<PutBackRefusal | null>> {
	const looked = changes.filter((change) => isPutBack(change) && !isTaken(host, change));
	const { twins } = await visibleTwinsOfEach(host, scope, looked.map(twinLookTarget));
	return changes.map((change) => {
		const at = looked.indexOf(change);
		return at === -1 ? null : putBackRefusal(change, twins[at] ?? {});
	});
}

/** Why undo may not put a note back (PutBackRefusal), from a twin look made for it. */
type PutBackRefusal = { why: string; todo: string };

/** A change that puts a note back (moves it back, or restores it): looked at for twins. */
function isPutBack(change: NoteChange): boolean {
	return change.movedFrom !== undefined || change.before === null;
}

/**
 * A note at the very path is no twin: the path is taken (made since the plan found it free), and the applier saves the
 * earlier text beside it, as for any note changed since. Looked at as a twin, it refused the undo telling the person to
 * rename that note, the one a second undo of the same call had just put back there.
 */
function isTaken(host: Host, change: NoteChange): boolean {
	return host.vault.getFileByPath(change.path) !== null;
}

/** The twin look of a put-back: the moved note itself is passed over, and leaves its folders (TwinLookTarget.movedOut). */
function twinLookTarget(change: NoteChange): { path: string; except?: string; movedOut?: boolean } {
	return change.movedFrom === undefined ? { path: change.path } : { path: change.path, except: change.movedFrom, movedOut: true };
}

function putBackRefusal(change: NoteChange, { note: namesake, folder, unlisted }: VisibleTwins): PutBackRefusal | null {
	const what = change.movedFrom === undefined ? `"${change.path}" cannot be restored` : `"${change.movedFrom}" cannot be moved back to "${change.path}"`;
	if (namesake)
		return {
			why: `${what}: a note "${namesake.path}" is there now, read as the same name (letter case and spaces aside).`,
			todo: `Rename or move "${namesake.path}" first, then undo again.`,
		};
	if (folder !== undefined)
		return {
			why: `${what}: a folder "${folder}" is there now, read as the same name as the note's folder (letter case and spaces aside).`,
			todo: `Rename "${folder}" first, then undo again.`,
		};
	if (unlisted !== undefined) return { why: `${what}: its folder's name could not be checked.`, todo: listingOverBoundReason(unlisted) };
	return null;
}

/**
 * The write's looks of one undo, made in one walk of the vault when the first is asked (`visibleTwinsOfEach`): the twins of
 * every note it puts back, looked for again (a client's create_note of `plan.md` in one of the plan's pauses), and the
 * visible files whose names read as a conflict copy's of this undo (`<name> (before <tool> <time>…`): a copy is saved under
 * a name no visible note's reads as (`a (before … ).md` beside `A (before … ).md`), as create_note refuses one. A look a
 * note was a walk a note. Copies this undo saves are added as they are written.
 */
class WriteLooks {
	private looked: Promise<{ twins: Map<NoteChange, VisibleTwins>; copies: Map<string, string> }> | null = null;
	/** What every conflict copy name of this undo holds, as its key spells it: the undone call's tool and time. */
	private readonly copyMark: string;

	constructor(
		private readonly host: Host,
		private readonly scopeNow: () => Scope,
		private readonly putBack: readonly NoteChange[],
		entry: JournalEntry,
	) {
		const key = pathMatchKey(conflictCopyName("x.md", entry.tool, new Date(entry.time)));
		this.copyMark = key.slice(key.indexOf("("), key.lastIndexOf(")"));
	}

	private walk(): Promise<{ twins: Map<NoteChange, VisibleTwins>; copies: Map<string, string> }> {
		this.looked ??= visibleTwinsOfEach(this.host, this.scopeNow(), this.putBack.map(twinLookTarget), undefined, (key) => key.includes(this.copyMark)).then(
			({ twins, kept }) => ({ twins: new Map(this.putBack.map((change, index) => [change, twins[index] ?? {}])), copies: kept }),
		);
		return this.looked;
	}

	/** Why the note may not be put back now (see putBackTwins); null when it may. */
	async putBackTwin(change: NoteChange): Promise<PutBackRefusal | null> {
		if (!isPutBack(change) || isTaken(this.host, change)) return null;
		// Every put-back step's change is one the walk looked at (`putBack` is made from the same steps).
		return putBackRefusal(change, (await this.walk()).twins.get(change) ?? {});
	}

	/** Whether a visible note other than `copy` is read as its name. */
	async copyTwin(copy: string): Promise<boolean> {
		const other = (await this.walk()).copies.get(pathMatchKey(copy));
		return other !== undefined && other !== copy;
	}

	/** A copy saved: later copies are not named as its twins. */
	async copySaved(copy: string): Promise<void> {
		const { copies } = await this.walk();
		if (!copies.has(pathMatchKey(copy))) copies.set(pathMatchKey(copy), copy);
	}
}

/** A twin made between the undo's plan and its write (`putBackTwin`): the undo stops there, before the note is put back. */
class PutBackTwinError extends Error {}

function* stepFor(change: JournalChange, relinkedByRename: boolean, current: string | null, pathFree: boolean): Steps<UndoStep> {
	const { path } = change;
	// The change moved the note to the trash (an undo of its creation): its text comes back where it was, if nothing is there.
	if (change.after === null) {
		if (change.before === null || !pathFree) return { kind: "conflict", original: change };
		return { kind: "apply", change: { path, before: null, after: change.before }, done: { path, result: "restored" }, original: change };
	}
	if (current === null) return change.before === null ? { kind: "none", done: { path, result: "gone" } } : { kind: "conflict", original: change };
	if (current === change.after) {
		if (change.before === null) return { kind: "trash", path, text: current, original: change };
		return { kind: "apply", change: { path, before: current, after: change.before }, done: { path, result: "restored" }, original: change };
	}
	if (change.before === null) return { kind: "none", done: { path, result: "kept" } };
	if (current === change.before) return { kind: "none", done: { path, result: "unchanged" } };
	if (relinkedByRename) {
		// Edited since: its text is kept and only the links the rename changed are pointed back.
		const { back, exactly } = yield* renamedLinks(change.before, change.after);
		const relinked =
			back.size === 0
				? current
				: (yield* rewriteLinksSteps(current, yield* metadataSteps(current), (linkpath) => back.get(linkpath) ?? null, { exactly })).text;
		if (relinked !== current)
			return { kind: "apply", change: { path, before: current, after: relinked }, done: { path, result: "relinked" }, original: change };
	}
	return { kind: "conflict", original: change };
}

/** The note a step is about. */
function stepPath(step: Exclude<UndoStep, { kind: "none" }>): string {
	return step.kind === "apply" ? step.change.path : step.kind === "trash" ? step.path : step.original.path;
}

/** An edit step of an existing note (an undone rename's link changes, mostly): recorded a group at a time. */
type EditStep = Extract<UndoStep, { kind: "apply" }>;

function isGroupedEdit(step: UndoStep | undefined): step is EditStep {
	return step?.kind === "apply" && step.change.movedFrom === undefined && step.change.before !== null && step.change.after !== step.change.before;
}

/** The edit steps from `start` on, at most RELINKS_APPLIED_AT_ONCE; none when the step there is another kind. */
function editGroupAt(steps: readonly UndoStep[], start: number): EditStep[] {
	const group: EditStep[] = [];
	for (let index = start; index < steps.length && group.length < RELINKS_APPLIED_AT_ONCE; index++) {
		const step = steps[index];
		if (!isGroupedEdit(step)) break;
		group.push(step);
	}
	return group;
}

/**
 * Writes a group of edit steps: recorded with one journal write (one disk flush, not one a note:
 * the undo of a rename 1,000 notes link to flushed 1,000 times), then each note in its own atomic
 * edit; one that changed since the check gets a conflict copy, as `runStep` gives it. Each note
 * done is added to `notes` as it is; a note left unwritten by an error has its record dropped.
 */
async function runEditGroup(
	host: Host,
	journal: WriteJournal,
	undo: JournalCall,
	entry: JournalEntry,
	group: readonly EditStep[],
	scopeNow: () => Scope,
	notes: UndoneNote[],
	looks: WriteLooks,
): Promise<void> {
	const target = { host, journal, call: undo };
	await recordEditsAhead(
		target,
		group.map((step) => step.change),
	);
	// A rename's: every edit of it points links back (the move itself is not in a group).
	const ofRename = entry.changes.some((change) => change.movedFrom !== undefined);
	const clock = new SliceClock(NOTE_TEXT_SLICE_MS, yieldToEventLoop);
	let next = 0;
	try {
		for (; next < group.length; next++) {
			const step = group[next] as EditStep;
			const { path } = step.change;
			const mayWrite = () => isWritablePath(path, scopeNow());
			let done: UndoneNote | null;
			try {
				done = (await writeRecordedEdit(target, step.change, mayWrite)) === null ? null : step.done;
				// Changed between the plan and this write (a client's append answered in one of the undo's pauses): a rename's links are
				// pointed back in its text now, in slices, as for a note edited before the undo. It was a conflict: the note kept the rename's
				// link to a path the undo had just emptied, and its text from before the rename was saved beside it.
				for (let attempt = 1; done === null && ofRename && attempt < MAX_WRITE_ATTEMPTS; attempt++) {
					// Excluded meanwhile: not read again, nor its text recorded (the record's drop left it in the journal's file).
					if (!mayWrite()) throw new WriteNoLongerAllowedError([]);
					const current = await currentText(host, path);
					const again = current === null ? null : await clock.run(stepFor(step.original, true, current, false));
					if (again?.kind === "none") done = again.done;
					if (again?.kind !== "apply") break;
					if (!mayWrite()) throw new WriteNoLongerAllowedError([]);
					await recordEditsAhead(target, [again.change]);
					done = (await writeRecordedEdit(target, again.change, mayWrite)) === null ? null : again.done;
				}
			} catch (error) {
				if (!(error instanceof WriteNoLongerAllowedError)) throw error;
				notes.push({ path, result: "excluded since" });
				continue;
			}
			notes.push(done ?? (await conflict(host, journal, undo, entry, step.original, scopeNow, looks)));
		}
	} finally {
		// An error stopped the group: the notes after it were recorded and never written.
		for (let left = next + 1; left < group.length; left++) journal.dropChange(undo.id, (group[left] as EditStep).change.path);
	}
}

/** Writes one step; a note that changed between the check and its write gets a conflict copy instead. */
async function runStep(
	host: Host,
	journal: WriteJournal,
	undo: JournalCall,
	entry: JournalEntry,
	step: UndoStep,
	scopeNow: () => Scope,
	looks: WriteLooks,
): Promise<UndoneNote> {
	if (step.kind === "none") return step.done;
	const paths = step.kind === "apply" && step.change.movedFrom !== undefined ? [step.change.path, step.change.movedFrom] : [stepPath(step)];
	const mayWrite = () => paths.every((path) => isWritablePath(path, scopeNow()));
	if (!mayWrite()) return { path: stepPath(step), result: "excluded since" };
	switch (step.kind) {
		case "conflict":
			return conflict(host, journal, undo, entry, step.original, scopeNow, looks);
		case "trash": {
			const done = await trash(host, journal, undo, step.path, step.text, mayWrite);
			if (done.result !== "trashed") return done;
			const removedFolders = await removeCreatedFolders(host, scopeNow(), step.path, step.original.createdFolders ?? []);
			return removedFolders.length > 0 ? { ...done, removedFolders } : done;
		}
		case "apply":
			try {
				// Looked for again at the write: a client's create_note of `plan.md` in one of the plan's pauses (the linking notes read).
				const twin = await looks.putBackTwin(step.change);
				if (twin !== null) throw new PutBackTwinError(`${twin.why} ${twin.todo}`);
				await applyChange({ host, journal, call: undo, mayWrite }, step.change, false);
				return step.done;
			} catch (error) {
				if (error instanceof WriteNoLongerAllowedError) return { path: stepPath(step), result: "excluded since" };
				if (error instanceof NoteChangedSinceError) return conflict(host, journal, undo, entry, step.original, scopeNow, looks);
				throw error;
			}
	}
}

/**
 * Moves a note the call created to the trash, if it still holds `text`; else it is kept. In the
 * note's turn with the applier's writes: an append let in between the look and the move went to the trash with it.
 */
function trash(host: Host, journal: WriteJournal, undo: JournalCall, path: string, text: string, mayWrite: () => boolean): Promise<UndoneNote> {
	return withPathTurns([path], () => trashInTurn(host, journal, undo, path, text, mayWrite));
}

async function trashInTurn(host: Host, journal: WriteJournal, undo: JournalCall, path: string, text: string, mayWrite: () => boolean): Promise<UndoneNote> {
	const file = host.vault.getFileByPath(path);
	if (!file || (await host.vault.read(file)) !== text) return { path, result: "kept" };
	// Hashed and recorded in slices (a 1 MiB note's record was one piece of 2.4 million characters on Obsidian's UI thread).
	const beforeHash = await sha256HexInPieces(text, new SliceClock(NOTE_TEXT_SLICE_MS, yieldToEventLoop));
	await journal.recordChangesAhead(undo, [{ path, before: text, beforeHash, after: null, afterHash: null }]);
	// Looked at again after those pauses: a note another program changed meanwhile is kept, its record dropped. Where it is
	// after that read: one the person moved meanwhile (into an excluded folder, the same file object renamed) is kept there.
	if ((await host.vault.read(file)) !== text || host.vault.getFileByPath(path) !== file) {
		journal.dropChange(undo.id, path);
		return { path, result: "kept" };
	}
	// Its folder excluded by the person in those pauses: not taken away from there.
	if (!mayWrite()) {
		journal.dropChange(undo.id, path);
		return { path, result: "excluded since" };
	}
	try {
		// Only the file that still holds that text: another program's save by rename after the read above is not trashed.
		await host.fileManager.trashFile(file, { textRead: text });
	} catch (error) {
		journal.dropChange(undo.id, path);
		// Moved while the trash waited for the note's turn (a move holds it): kept where it went, as above.
		if (file.path !== path) return { path, result: "kept" };
		if ((error as NodeJS.ErrnoException).code !== "EWRITECONFLICT") throw error;
		// Refused by the trash's own look (headless): the file at the name no longer holds the text read, or is another file
		// (a save by rename). Edited since, it is kept as the look above keeps it; the same text saved again stops the undo in
		// its own words. The host's words ("Read it again and retry") spoke to a client, not to the person undoing.
		if ((await host.vault.read(file).catch(() => null)) !== text) return { path, result: "kept" };
		throw new Error(`"${path}" was saved again by another program while the undo moved it to the trash, so it was left as it is`);
	}
	return { path, result: "trashed" };
}

/**
 * Removes the folders a create made for `notePath`, innermost first, each only while it is empty
 * (the host's `rmdir` is never recursive): a folder that holds anything, and every folder above
 * it, stays. Only folders above the note itself are removed, each a path a token may write (never
 * the vault's root, the config folder, a hidden or excluded folder, or one behind a link), so a
 * journal line planted by someone else cannot make undo remove anything else.
 */
async function removeCreatedFolders(host: Host, scope: Scope, notePath: string, folders: readonly string[]): Promise<string[]> {
	const removed: string[] = [];
	for (const folder of [...folders].reverse()) {
		if (folder === notePath || !isInFolder(notePath, folder) || !isWritablePath(folder, scope)) break;
		if (!host.vault.getFolderByPath(folder)) continue;
		try {
			await host.vault.adapter.rmdir(folder, false);
		} catch {
			// Not empty (another note, a file the vault does not list) or refused by the jail: it stays, and so do the folders above it.
			break;
		}
		removed.push(folder);
	}
	return removed;
}

/** What a rename changed in a note's links, to point them back: link paths new → old, and links as written new → old. */
interface RenamedLinks {
	back: Map<string, string>;
	/**
	 * Each link as the rename wrote it → as it was (for a shown name the rename changed too, which a path
	 * alone does not give back); one the rename made of two different links is left out: which it was is unknown.
	 */
	exactly: Map<string, string>;
}

/** What a rename changed in a note's links. Its rewriting changes only the links it points elsewhere, so the links of the text before and after pair up in order. */
function* renamedLinks(before: string, after: string): Steps<RenamedLinks> {
	const links = function* (text: string): Steps<{ linkpath: string; original: string }[]> {
		const cache = yield* linkMetadataSteps(text);
		return [...(cache.links ?? []), ...(cache.embeds ?? []), ...(cache.frontmatterLinks ?? [])].map((link) => ({
			linkpath: linkpathOf(link.link),
			original: link.original,
		}));
	};
	const old = yield* links(before);
	const renamed = yield* links(after);
	const back = new Map<string, string>();
	const exactly = new Map<string, string>();
	const unknown = new Set<string>();
	if (old.length !== renamed.length) return { back, exactly };
	renamed.forEach(({ linkpath, original }, index) => {
		const was = old[index];
		if (was === undefined || was.linkpath === linkpath) return;
		back.set(linkpath, was.linkpath);
		if (exactly.has(original) && exactly.get(original) !== was.original) unknown.add(original);
		exactly.set(original, was.original);
	});
	for (const original of unknown) exactly.delete(original);
	return { back, exactly };
}

/**
 * Saves a changed note's earlier text beside it, at the first free conflict-copy name; in a folder the person
 * excludes before the copy is written (its record goes to disk first, through the thread pool), nothing is.
 */
async function conflict(
	host: Host,
	journal: WriteJournal,
	undo: JournalCall,
	entry: JournalEntry,
	change: JournalChange,
	scopeNow: () => Scope,
	looks: WriteLooks,
): Promise<UndoneNote> {
	if (change.before === null) return { path: change.path, result: "kept" };
	for (let number = 0; ; number++) {
		const candidate = conflictCopyName(change.path, entry.tool, new Date(entry.time), number);
		const mayWrite = () => isWritablePath(candidate, scopeNow());
		if (!isWritablePath(change.path, scopeNow())) return { path: change.path, result: "excluded since" };
		// Beside the note and a path a token may write, whatever the journal holds.
		if (parentOf(candidate) !== parentOf(change.path) || !mayWrite())
			throw new Error(`the copy of "${change.path}" cannot be saved under the name its journal record gives`);
		// Taken, or read as a visible note's name (letter case, spaces): the next number.
		if (!(await isPathFree(host, candidate)) || (await looks.copyTwin(candidate))) continue;
		try {
			// As private as the note it copies (headless): a note only its owner may read is not copied readable by all.
			await applyChange({ host, journal, call: undo, mayWrite }, { path: candidate, before: null, after: change.before, copyOf: change.path }, false);
			await looks.copySaved(candidate);
			return { path: change.path, result: "conflict", copy: candidate };
		} catch (error) {
			if (error instanceof WriteNoLongerAllowedError) return { path: change.path, result: "excluded since" };
			// Taken a moment ago by another program: the next number.
			if (!(error instanceof NoteChangedSinceError)) throw error;
		}
	}
}

/** What a tool's name never holds: anything else in a journal's tool name is written as `_` in a conflict copy's name (a `/` moved the copy to another folder). */
const NOT_IN_TOOL_NAME = /[^A-Za-z0-9_-]/g;

/**
 * `<folder>/<name> (before <tool> <YYYY-MM-DD HH-mm>).<ext>` in local time, with ` 2`, ` 3`, …
 * before the closing parenthesis for `number` 1, 2, …; the name is shortened to fit the file-name limit.
 */
export function conflictCopyName(path: string, tool: string, time: Date, number = 0): string {
	// The tool's name comes from the journal, a file another program can write: only a name's own characters go into the file name.
	return copyNameBeside(path, `before ${tool.replace(NOT_IN_TOOL_NAME, "_")}`, time, number);
}

/** What an undo did, in one sentence per note, for the CLI's line and the plugin's notice. */
export function describeNotes(notes: readonly UndoneNote[]): string {
	return notes
		.map((note) => {
			switch (note.result) {
				case "restored":
					return `restored "${note.path}"`;
				case "moved back":
					return `moved "${note.from}" back to "${note.path}"`;
				case "trashed":
					return `moved "${note.path}" to the trash${note.removedFolders ? ` and removed the empty ${note.removedFolders.length === 1 ? "folder" : "folders"} it was made in (${note.removedFolders.map((folder) => `"${folder}"`).join(", ")})` : ""}`;
				case "conflict":
					return `"${note.path}" had changed since, so it was left as it is and its earlier text was saved as "${note.copy}"`;
				case "relinked":
					return `"${note.path}" had changed since, so it keeps its text and only its links to the renamed note were pointed back`;
				case "links kept":
					return `"${note.path}" keeps its links to "${note.to}", which could not move back`;
				case "unchanged":
					return `"${note.path}" was already as it was before`;
				case "kept":
					return `"${note.path}" (new with that change) had been edited since, so it was left as it is`;
				case "gone":
					return `"${note.path}" (new with that change) was already gone`;
				case "moved out of reach":
					return `"${note.path}" was moved since to a place undo may not write, so it was left as it is there`;
				case "excluded since":
					return `"${note.path}" is in a folder excluded while the undo ran, so it was left as it is`;
			}
		})
		.join("; ");
}

/** One line saying what an undo did. */
export function describeUndo(outcome: Extract<UndoOutcome, { ok: true }>): string {
	const { entry } = outcome;
	return `Undid ${entry.id} (${entry.tool} by ${entry.tokenName}, ${entry.time}): ${describeNotes(outcome.notes)}.`;
}
