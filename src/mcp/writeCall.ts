/**
 * How a write tool call runs: planned once as a change set on the scoped vault (the tool's handler
 * runs on a host that writes nothing), shown to the person when the token's right is Ask, then
 * written by the one applier, which checks the token and the tool's right again right before each
 * note and writes a note only if it still holds the text the set was planned on.
 */
import * as nodeTimers from "node:timers";
import { NEW_FILES_RIGHT, stricterRight, type ToolRight } from "../auth/rights";
import type { Host } from "../host/Host";
import {
	MAX_JOURNAL_CALL_BYTES,
	MAX_WAITING_APPROVALS_PER_TOKEN,
	MAX_WRITE_ATTEMPTS,
	NOTE_TEXT_SLICE_MS,
	UNREAD_NOTES_LISTED,
	WRITE_RETRY_BUDGET_MS,
	WRITE_RETRY_FIRST_PAUSE_MS,
	WRITE_RETRY_MAX_PAUSE_MS,
	WRITTEN_NOTES_PARSED_WAIT_MS,
} from "../config/limits";
import {
	applyChangeSet,
	journalBytesSteps,
	missingFolders,
	NoteChangedSinceError,
	NoteTooLongError,
	WriteNoLongerAllowedError,
	type NoteChange,
} from "../journal/changeSet";
import { CallTooLargeError, planningHost } from "../journal/recordingHost";
import { isSameNoteChange } from "../journal/sameChange";
import { runStepsInSlices, type Steps } from "../markdown/steps";
import { newCallId } from "../journal/undo";
import { obsidianUpdatesLinks } from "../vault/obsidianSettings";
import { cacheCaughtUp, linkingSources, unparsedNotesNaming } from "../vault/rename";
import { waitForDecision } from "./approvalWait";
import { argumentNotText, isWellFormed } from "./argumentText";
import { ANSWERED_BY_RIGHT, type ApprovalRequest } from "./approval";
import { deniedCause, notWrittenText, type StoppedCall } from "./notWrittenText";
import { isFileNamingKey } from "./filePlaces";
import type { EveryField, ToolContext } from "./context";
import type { ToolDescriptor, ToolOutcome } from "./tool";
import { fail, ok } from "../result";
import { hashText } from "../vault/writes";
import { yieldToEventLoop } from "../vault/workBudget";
import { isExcludedPath, isPathVisible, scopeKey, type Scope } from "../vault/scope";

const NOTHING_WRITTEN = "Nothing was written.";

/**
 * Why a set whose note name or text holds half a surrogate pair is not written. Not from the arguments (refused before
 * planning, see argumentNotText): from a setting the call read, a date format of the Daily Notes or Templates settings
 * (`"[Day\ud800] YYYY"` in daily-notes.json is such a name). On disk it was U+FFFD, not the name or hash answered.
 */
const NOT_WRITABLE_TEXT = (tool: ToolDescriptor) =>
	`${tool.name} would write a note whose name or text holds half of a UTF-16 surrogate pair (a lone \\uD800-\\uDFFF), which no file can hold: it would be written as U+FFFD. It comes from none of the arguments, so from an Obsidian setting the call uses (a date format of the Daily Notes or Templates settings). ${NOTHING_WRITTEN} Ask the person to correct the setting in Obsidian.`;

/** Whether a change's path or new text holds half a surrogate pair: one change a step (a note's text is checked whole, natively about 1 ms a megabyte). */
function* holdsLoneSurrogateSteps(changes: readonly NoteChange[]): Steps<boolean> {
	for (const change of changes) {
		if (!isWellFormed(change.path) || !isWellFormed(change.after)) return true;
		yield;
	}
	return false;
}

/** What a planned set's text is looked at for before it is written: the bytes the journal would keep, and text no file can hold. */
function* setTextSteps(changes: readonly NoteChange[]): Steps<{ journalBytes: number; notWritable: boolean }> {
	const journalBytes = yield* journalBytesSteps(changes);
	return { journalBytes, notWritable: yield* holdsLoneSurrogateSteps(changes) };
}

/** A planned call: the answer the tool gives once the set is written, and the set. */
interface PlannedCall {
	outcome: ToolOutcome<Record<string, unknown>>;
	changes: NoteChange[];
}

/** Runs the tool's handler once on a host that plans instead of writing. */
async function planCall<Args>(
	ctx: ToolContext,
	tool: ToolDescriptor,
	args: Args,
	expectedHash: string | undefined,
	takenOnDisk: ReadonlySet<string>,
): Promise<PlannedCall> {
	const planning = planningHost(ctx.host, ctx.scope, expectedHash, takenOnDisk);
	let outcome: ToolOutcome<Record<string, unknown>>;
	try {
		outcome = await tool.handler(onHost(ctx, planning.host), args as Parameters<typeof tool.handler>[1]);
	} catch (error) {
		if (!(error instanceof CallTooLargeError)) throw error;
		return { outcome: fail(`${error.message} ${NOTHING_WRITTEN} Make the change in smaller steps, or in Obsidian itself.`), changes: [] };
	}
	return { outcome, changes: outcome.ok ? planning.changes() : [] };
}

/**
 * `ctx` with another host, its scope as it is now. Field by field: a request's context is a class
 * instance whose scope is a getter on its prototype, which a spread would leave out.
 */
function onHost(ctx: ToolContext, host: ToolContext["host"]): ToolContext {
	const planned: EveryField<ToolContext> = {
		host,
		serverVersion: ctx.serverVersion,
		scope: ctx.scope,
		grant: ctx.grant,
		search: ctx.search,
		dailyNotesAreOutlines: ctx.dailyNotesAreOutlines,
		promptsFolder: ctx.promptsFolder,
		callBudget: ctx.callBudget,
		notePaths: ctx.notePaths,
		noteListing: ctx.noteListing,
		tagNotes: ctx.tagNotes,
		notesNotYetRead: ctx.notesNotYetRead,
		notesWithTasks: ctx.notesWithTasks,
		graphStats: ctx.graphStats,
		noteLinks: ctx.noteLinks,
		writes: ctx.writes,
	};
	return planned;
}

/** A call refused for its token's rights or folders changed: `done` says what it had written before (nothing, by default). */
function noLongerAllowed(tool: ToolDescriptor, done = NOTHING_WRITTEN): ToolOutcome<Record<string, unknown>> {
	return fail(`${tool.name} is no longer allowed for this token (its rights, its folders, the token or the write switch changed). ${done}`);
}

/**
 * `noLongerAllowed`, unless the token may still use the tool and a note or folder of the set lies under a link made in
 * the vault folder meanwhile: links are hidden like excluded folders, so the scope check refuses the call, but nothing
 * about the token changed (a rename whose target folder became a link out of the vault was told its rights changed).
 * The link is not named: what it leads to is none of the client's business.
 */
function refusedAsNoLongerAllowed(
	ctx: ToolContext,
	tool: ToolDescriptor,
	changes: readonly NoteChange[],
	made: NewFiles,
): ToolOutcome<Record<string, unknown>> {
	const links = { configDir: ctx.host.vault.configDir, excludedFolders: ctx.host.hiddenLinks() };
	const underLink = (path: string | undefined) => path !== undefined && links.excludedFolders.length > 0 && isExcludedPath(path, links);
	if (ctx.writes.currentRight(tool) !== "deny" && mayNotMake(ctx, made)) return fail(`${wouldMake(tool, made)}, and this token ${MAY_NOT_MAKE}`);
	if (ctx.writes.currentRight(tool) === "deny" || !changes.some((change) => underLink(change.path) || underLink(change.movedFrom)))
		return noLongerAllowed(tool);
	return fail(
		`${tool.name} was not written: a folder it writes in was replaced by a link meanwhile, and this server never writes through a link (in or out of the vault). ${NOTHING_WRITTEN}`,
	);
}

/** What a set makes that was not there: new notes (not a backup or copy, which keeps a note's text) and the folders made for a new or moved note. */
interface NewFiles {
	notes: string[];
	folders: string[];
}

/** The notes and folders `changes` would make, on the vault as it is now: create_note's right governs them, whichever tool makes them. */
function newFilesOf(host: Host, changes: readonly NoteChange[]): NewFiles {
	const notes: string[] = [];
	const folders = new Set<string>();
	for (const change of changes) {
		if (change.before !== null && change.movedFrom === undefined) continue;
		if (change.before === null && change.copyOf === undefined) notes.push(change.path);
		for (const folder of missingFolders(host, change.path)) folders.add(folder);
	}
	return { notes, folders: [...folders] };
}

function makesAny(made: NewFiles): boolean {
	return made.notes.length > 0 || made.folders.length > 0;
}

/** Whether the token may no longer make what the set makes: its create_note right is Deny. */
function mayNotMake(ctx: ToolContext, made: NewFiles): boolean {
	return makesAny(made) && ctx.writes.currentRight(NEW_FILES_RIGHT) === "deny";
}

const MAY_NOT_MAKE = `may not create notes or folders (its ${NEW_FILES_RIGHT.name} right is Deny). ${NOTHING_WRITTEN} Write into a note or folder that exists, or ask the person to create it (or to change the right) in Obsidian.`;

/** "add_task would create the note "Daily/2026-12-07.md"": what the call makes, named (every path is one the caller gave or may see). */
function wouldMake(tool: ToolDescriptor, made: NewFiles): string {
	return `${tool.name} would create ${namedNewFiles(made)}`;
}

/** "the note "Daily/2026-12-07.md" and the folder "Daily"". */
function namedNewFiles(made: NewFiles): string {
	return [...made.notes.map((path) => `the note "${path}"`), ...made.folders.map((path) => `the folder "${path}"`)].join(" and ");
}

/**
 * Why a call is refused now, for the person who approved it (`refusedAsNoLongerAllowed`'s cases, each named): create_note's
 * right for what it makes, the token revoked or its right taken, a folder replaced by a link, a note out of sight.
 */
function refusedNowCause(ctx: ToolContext, tool: ToolDescriptor, changes: readonly NoteChange[], made: NewFiles): string {
	if (ctx.writes.currentRight(tool) !== "deny" && mayNotMake(ctx, made))
		return `it would create ${namedNewFiles(made)}, and this token may not create notes or folders (its ${NEW_FILES_RIGHT.name} right is Deny)`;
	if (ctx.writes.currentRight(tool) === "deny") return deniedCause(tool.name, ctx.writes.deniedBecause?.(tool) ?? null);
	const paths = changes.flatMap((change) => (change.movedFrom === undefined ? [change.path] : [change.path, change.movedFrom]));
	const links = { configDir: ctx.host.vault.configDir, excludedFolders: ctx.host.hiddenLinks() };
	if (links.excludedFolders.length > 0 && paths.some((path) => isExcludedPath(path, links)))
		return "a folder it writes in was replaced by a link, and Vault MCP never writes through a link";
	const hidden = paths.find((path) => !isPathVisible(path, ctx.scope));
	if (hidden === undefined) return `this token may no longer use ${tool.name}`;
	const excluded = isExcludedPath(hidden, { configDir: ctx.scope.configDir, excludedFolders: ctx.scope.excludedFolders });
	return excluded ? `"${hidden}" is now in a folder you excluded` : `"${hidden}" is no longer in this token's folders`;
}

/** The right the call needs now: the tool's, and create_note's too when the set makes a note or folder (the stricter of the two). */
function callRightNow(ctx: ToolContext, tool: ToolDescriptor, made: NewFiles): ToolRight {
	const own = ctx.writes.currentRight(tool);
	return makesAny(made) ? stricterRight(own, ctx.writes.currentRight(NEW_FILES_RIGHT)) : own;
}

/**
 * The rights a question is asked for, the ones "always allow" saves: the tool's own at Ask, and create_note's at Ask when
 * the set makes a note or folder. None when neither is at Ask any more: a call asked again (its note changed after the
 * person approved) after its rights were set to Allow (another question's "always", or the settings) offered "Always allow
 * this tool", which saved an Allow already there.
 */
function rightsAskedFor(ctx: ToolContext, tool: ToolDescriptor, made: NewFiles): string[] {
	const asked = ctx.writes.currentRight(tool) === "ask" ? [tool.name] : [];
	if (makesAny(made) && tool.name !== NEW_FILES_RIGHT.name && ctx.writes.currentRight(NEW_FILES_RIGHT) === "ask") asked.push(NEW_FILES_RIGHT.name);
	return asked;
}

/** A call refused after the person decided, its right taken since: the tool's, or create_note's for what it makes. */
function refusedAfterDecision(ctx: ToolContext, tool: ToolDescriptor, made: NewFiles): ToolOutcome<Record<string, unknown>> | null {
	if (ctx.writes.currentRight(tool) === "deny") return noLongerAllowed(tool);
	if (mayNotMake(ctx, made)) return fail(`${wouldMake(tool, made)}, and this token ${MAY_NOT_MAKE}`);
	return null;
}

/**
 * The notes a set stopped part-way had written, as its error tells them: how many, and by name only those the token
 * may see now. A folder excluded, or the token's folders narrowed, during the set hides the notes in it, as a written
 * call's answer is then withheld (`writtenOutOfSight`); the undo id still reverses them (see undoReverses).
 */
function writtenSoFar(written: readonly string[], scope: Scope): string {
	const told = written.filter((path) => isPathVisible(path, scope)).map((path) => `"${path}"`);
	const hidden = written.length - told.length;
	if (hidden > 0) told.push(`${hidden} in folders this token may no longer see`);
	return `${written.length} ${written.length === 1 ? "note" : "notes"} (${told.join(", ")})`;
}

/**
 * What the undo id of a set stopped part-way does with the notes it had written (`them`: "it" or "them"). Undo never
 * writes in a folder the person has excluded, so while one of them, or the place a moved one came from (undo moves it
 * back there), lies in a folder excluded since, the undo is refused as a whole: the id reverses them once the folder is
 * included again, which the error says rather than promise it at once. Notes only out of a narrowed token's folders are
 * reversed at once (the person undoes, not the token).
 */
function undoReverses(id: string, written: readonly string[], changes: readonly NoteChange[], scope: Scope, them: "it" | "them"): string {
	const excludedNow = { configDir: scope.configDir, excludedFolders: scope.excludedFolders };
	const movedFrom = changes.flatMap((change) => (change.movedFrom !== undefined && written.includes(change.path) ? [change.movedFrom] : []));
	if (![...written, ...movedFrom].some((path) => isExcludedPath(path, excludedNow))) return `undo id ${id} reverses ${them}`;
	return `undo id ${id} reverses ${them} once the folder excluded since is included again: nothing is written in an excluded folder`;
}

/** A written call's answer when the token may no longer be told of its notes: that it was written, and how to undo it. */
function writtenOutOfSight(tool: ToolDescriptor, callId: string): string {
	return `${tool.name} was written, but this token's folders or rights changed before its answer was sent, so the notes are not named (undo id ${callId} reverses the call). Do not send it again.`;
}

/**
 * Whether a note or canvas outside the planned set links to `path` (the metadata cache's link map
 * lists both): Obsidian's own rename would rewrite it too, unshown and unjournalled. That covers
 * every file the caller cannot see (never planned) and a visible one the planner did not read or
 * found unchanged (a canvas's text cards past CANVAS_MAX_LINKED_TEXT_CHARS).
 */
function unplannedFileLinksTo(host: Host, path: string, changes: readonly NoteChange[]): boolean {
	const planned = new Set<string>();
	for (const change of changes) planned.add(change.movedFrom ?? change.path);
	return Object.entries(host.metadataCache.resolvedLinks).some(([source, targets]) => targets[path] !== undefined && !planned.has(source));
}

/**
 * Whether a file the caller cannot see has the name (letter case aside) the note gets at `path`:
 * Obsidian writes a link's new text by its name only where that name is unique among every file,
 * else by its path, so such a file would change the links written, away from the set planned.
 */
function hiddenFileNamed(host: Host, path: string, scope: Scope): boolean {
	const name = path
		.slice(path.lastIndexOf("/") + 1)
		.replace(/\.[^.]*$/u, "")
		.toLowerCase();
	return host.vault.getFiles().some((file) => file.basename.toLowerCase() === name && !isPathVisible(file.path, scope));
}

/** True when every path the set touches is still in the caller's scope: a token's folders may be narrowed while its call waits. */
function isInScopeNow(changes: readonly NoteChange[], scope: Scope): boolean {
	return changes.every((change) => isPathVisible(change.path, scope) && (change.movedFrom === undefined || isPathVisible(change.movedFrom, scope)));
}

/**
 * `isInScopeNow` for one set, checked again only when the scope is not the one checked last (by
 * `scopeKey`: the same folders, excluded and allowed, show the same paths). It is asked before
 * each note is written, and between the pieces of each: checking every path of a rename linked
 * from 3,000 notes each time was 18 million path checks, up to 235 ms at a time with no pause.
 */
function scopeCheckOf(changes: readonly NoteChange[]): (scope: Scope) => boolean {
	let checkedKey: string | null = null;
	let inScope = false;
	return (scope) => {
		const key = scopeKey(scope);
		if (key !== checkedKey) {
			inScope = isInScopeNow(changes, scope);
			checkedKey = key;
		}
		return inScope;
	};
}

/**
 * Runs a write tool: plans it, asks first when the right is ask, then applies exactly the planned
 * set. A note that changed while the person decided is planned again on its new text and the
 * person asked again with the new diff (a call allowed without asking is planned again silently),
 * at most MAX_WRITE_ATTEMPTS times; then a clear error, nothing written.
 */
export async function runWriteCall<Args>(
	ctx: ToolContext,
	tool: ToolDescriptor,
	args: Args,
	right: ToolRight,
	expectedHash: string | undefined,
	clientGone?: AbortSignal,
): Promise<ToolOutcome<Record<string, unknown>>> {
	// Refused before anything is planned or shown: the text written would not be the text sent (see argumentNotText).
	const notText = argumentNotText(args);
	if (notText !== null)
		return fail(
			`${notText} holds half of a UTF-16 surrogate pair (a lone \\uD800-\\uDFFF), which no note or file name can hold: it would be written as U+FFFD, not as sent. ${NOTHING_WRITTEN} Send the text as valid Unicode.`,
		);
	const decided: LastDecision = { approved: null, written: false, stopped: null, writeTried: () => undefined };
	// The person who approved the call's last question is told where they approved it when it still was not written
	// (its right taken just after, a note changed past what they approved): only the client was told. In their words,
	// which note and why: the client's message named the tool and told the client what to do next.
	const tellNotWritten = (stopped: StoppedCall | null) => {
		if (decided.approved === null || decided.written) return;
		// Every end after an approval sets its cause; one that did not is still told.
		const why = stopped ?? { cause: "it could not be written as approved", written: [], callId: decided.approved.id };
		ctx.writes.approver?.notWritten?.(decided.approved, notWrittenText(decided.approved, why));
	};
	try {
		const outcome = await planAskAndWrite(ctx, tool, args, right, expectedHash, clientGone, decided);
		if (!outcome.ok) tellNotWritten(decided.stopped);
		return outcome;
	} catch (error) {
		tellNotWritten({ cause: "", written: [], callId: decided.approved?.id ?? "", unexpected: true });
		throw error;
	} finally {
		decided.writeTried();
	}
}

/**
 * The question the person approved last in a call (null: none, or asked again since), whether its set was written whole,
 * and why the call last stopped unwritten (set where a call ends after an approval may have been given).
 */
interface LastDecision {
	approved: ApprovalRequest | null;
	written: boolean;
	stopped: StoppedCall | null;
	/** The last question answered "always": its set's write was tried, or the call planned again or ended without one (`WriteServices.writesBeforeReleased`). */
	writeTried: () => void;
}

/** `runWriteCall`'s work, noting in `decided` each approval and whether the set was written. */
async function planAskAndWrite<Args>(
	ctx: ToolContext,
	tool: ToolDescriptor,
	args: Args,
	right: ToolRight,
	expectedHash: string | undefined,
	clientGone: AbortSignal | undefined,
	decided: LastDecision,
): Promise<ToolOutcome<Record<string, unknown>>> {
	const writes = ctx.writes;
	const id = newCallId();
	/** Ends the call with `outcome`, noting for the person why (`cause`) and what it had written before. */
	const stop = (outcome: ToolOutcome<Record<string, unknown>>, cause: string, written: readonly string[] = []) => {
		decided.stopped = { cause, written, callId: id };
		return outcome;
	};
	const noneMade: NewFiles = { notes: [], folders: [] };
	let asks = right === "ask";
	// `made`: asked only because the call makes a note or folder and create_note asks (the tool's own right may be Allow).
	const nobodyToAsk = (made?: NewFiles) =>
		fail(
			`${made === undefined ? `${tool.name} needs` : `${wouldMake(tool, made)}, which needs`} the person's approval for this token${made === undefined ? "" : ` (its ${NEW_FILES_RIGHT.name} right is Ask)`}, and nobody can give it here: it can be approved in Obsidian (with Vault MCP serving this vault) or in "vault-mcp serve" run in a terminal, or the person can allow the tool with "vault-mcp token rights". ${NOTHING_WRITTEN}`,
		);
	if (asks && writes.approver === null) return nobodyToAsk();
	let changedPath = "";
	let approved: NoteChange[] | null = null;
	// The folders the approved set was to make, listed in its question: a replan that makes another is asked about again.
	let approvedFolders: readonly string[] = [];
	// A set another writer keeps changing is planned again with growing pauses until the budget is spent
	// (at least MAX_WRITE_ATTEMPTS times): an overwrite raced by a stream of appends lands once they pause.
	// The person's time to answer is not the budget's: ten approved appends to one note, approved after
	// 3 s, each had only its five quick attempts left, and half failed as "kept changing".
	let deadline = Date.now() + WRITE_RETRY_BUDGET_MS;
	// The person is asked at most MAX_WRITE_ATTEMPTS times (a rename whose linking notes change in every window).
	let questions = 0;
	const takenOnDisk = new Set<string>();
	const scopeAtStart = scopeKey(ctx.scope);
	for (let attempt = 1; attempt <= MAX_WRITE_ATTEMPTS || Date.now() < deadline; attempt++) {
		if (attempt > 1) {
			decided.writeTried();
			await pauseBeforeAttempt(attempt - 1);
		}
		const planned = await planCall(ctx, tool, args, expectedHash, takenOnDisk);
		// A plan's error can quote the note (its headings, the bullets a name matches): a token denied
		// the tool, or whose folders changed, while the plan read it is told only that (nothing is
		// written before a plan succeeds, in any attempt).
		if (!planned.outcome.ok && (writes.currentRight(tool) === "deny" || scopeKey(ctx.scope) !== scopeAtStart))
			return stop(noLongerAllowed(tool), refusedNowCause(ctx, tool, approved ?? [], noneMade));
		// Planned again after a note changed (past what the person approved): the plan's error may quote the note, the person is told which changed.
		if (!planned.outcome.ok) return stop(planned.outcome, `"${changedPath}" changed after you approved it, and the call no longer fits it`);
		// Planning (parsing a note, editing it) and writing (the journal, the disk, the note parsed
		// again) are each one piece of work: other clients get a turn between the two, not after both.
		// Twice: planning that began in a network callback would resume from the first in that same
		// turn of the event loop, before it looks at the network again.
		await yieldToEventLoop();
		await yieldToEventLoop();
		// One clock for both looks at the set's text, so their slices take turns as one piece of work (two clocks ran a
		// slice each in one turn of the event loop, the second's first slice right after the first's last).
		const { journalBytes, notWritable } = await runStepsInSlices(setTextSteps(planned.changes), NOTE_TEXT_SLICE_MS, yieldToEventLoop);
		if (journalBytes > MAX_JOURNAL_CALL_BYTES) {
			const cause = `"${changedPath}" changed after you approved it, and the call would now change more text than one call may keep for undo`;
			return stop(
				fail(
					`This ${tool.name} call would change ${planned.changes.length} notes holding about ${Math.ceil(journalBytes / (1024 * 1024))} MiB of text, over the ${MAX_JOURNAL_CALL_BYTES / (1024 * 1024)} MiB one call may keep in the undo journal. ${NOTHING_WRITTEN} Make the change in smaller steps, or in Obsidian itself.`,
				),
				cause,
			);
		}
		// Text that came from a setting, not the arguments (those were checked before planning): the name or hash answered would not be the disk's.
		if (notWritable) return stop(fail(NOT_WRITABLE_TEXT(tool)), "it would now write half of a surrogate pair, from a setting");
		// A note or folder made by a tool other than create_note (add_task's daily note, a move into a new folder) follows
		// create_note's right too: a person who denied creating notes saw today's daily note made by add_task.
		const made = newFilesOf(ctx.host, planned.changes);
		if (writes.currentRight(tool) !== "deny" && mayNotMake(ctx, made))
			return stop(fail(`${wouldMake(tool, made)}, and this token ${MAY_NOT_MAKE}`), refusedNowCause(ctx, tool, planned.changes, made));
		// Planned again after the person approved: the approved change made at its places over other writers' text, in the notes
		// they were shown, is what they approved.
		const alreadyApproved =
			approved !== null &&
			made.folders.every((folder) => approvedFolders.includes(folder)) &&
			(await runStepsInSlices(isSameChange(approved, planned.changes), NOTE_TEXT_SLICE_MS, yieldToEventLoop));
		// The tool (or create_note, for what the call makes) set to Ask while this call, allowed when it came (or allowed always by the
		// person, then planned again), was planned, or asking to make a note: the person wants to see such a write first.
		if (!asks && !alreadyApproved && callRightNow(ctx, tool, made) === "ask") {
			if (writes.approver === null) return nobodyToAsk(writes.currentRight(tool) === "ask" ? undefined : made);
			asks = true;
		}
		// Whether the person saw this set: what the applier may write once the tool is at Ask.
		let shown = alreadyApproved;
		// Notes the look after the window did not read (past its bound, or refused by the system): named in the answer as the plan's are.
		const unreadAfterWindow: string[] = [];
		// Allowed since it was asked (another question's "always", the settings) and planned again: written unasked, as a call
		// that came now would be (it was asked again, offering an "always" that saved nothing).
		if (asks && !alreadyApproved && callRightNow(ctx, tool, made) === "allow") asks = false;
		if (asks && writes.approver !== null && !alreadyApproved) {
			if (questions >= MAX_WRITE_ATTEMPTS) break;
			questions++;
			// Revoked, or its folders narrowed away from a note of the set, while it was planned (a rename's thousands of linking
			// notes take seconds, again after a first window when a note began linking): the person is not asked about a call
			// that can no longer be written, nor shown a note the token may no longer see.
			if (callRightNow(ctx, tool, made) === "deny" || !isInScopeNow(planned.changes, ctx.scope))
				return stop(refusedAsNoLongerAllowed(ctx, tool, planned.changes, made), refusedNowCause(ctx, tool, planned.changes, made));
			writes.releasePlace?.();
			// Withdrawn once the call can no longer be written (its token revoked, the tool set to Deny, a note of the set out of
			// its folders): left open, the question stayed on screen, ahead of other tokens' in the line, until the person answered.
			const noLongerWritable = new AbortController();
			// Answered by its right once nothing it needs is at Ask any more (another question's "Always allow", the settings): left in
			// line, it was shown offering an "Always allow" that saved nothing, and waited for a person a new call would not need.
			const allowedNow = new AbortController();
			const changes = planned.changes;
			const stopWatching = writes.onSettingsChange?.(() => {
				const now = callRightNow(ctx, tool, made);
				if (now === "deny" || !isInScopeNow(changes, ctx.scope)) noLongerWritable.abort();
				else if (now === "allow") allowedNow.abort(ANSWERED_BY_RIGHT);
				// Still asked: "always" saves only the rights it offered that are still at Ask. Never more: a right the person set
				// to Ask while the question was open (create_note, for a question asked for add_task) was raised back to Allow by
				// a click on "Always allow this tool", which had not named it.
				else {
					const stillAsked = rightsAskedFor(ctx, tool, made);
					const offered = request.alwaysAllows ?? [tool.name];
					request.alwaysAllows = offered.filter((name) => stillAsked.includes(name));
					// The window's button (the terminal's prompt) names what a click saves: redrawn, it says what it saves now.
					if (request.alwaysAllows.length < offered.length) writes.approver?.alwaysAllowsNarrowed?.(request);
				}
			});
			let alwaysSaved: Promise<void> | null = null;
			let writeTried = () => undefined as void;
			const tried = new Promise<void>((resolve) => (writeTried = resolve));
			decided.writeTried = writeTried;
			const request: ApprovalRequest = {
				id,
				tokenName: ctx.grant.token.name,
				tool: tool.name,
				toolTitle: tool.title,
				changes: changes.map(shownChange),
				...(made.folders.length > 0 ? { newFolders: made.folders } : {}),
				alwaysAllows: rightsAskedFor(ctx, tool, made),
				// Once, whether the approver or this call asks first; a revocation or Deny since the question wins (saves nothing).
				// The calls the saved right releases wait for this one's write (`WriteServices.writesBeforeReleased`), held at the click.
				saveAlways: () => {
					if (alwaysSaved !== null) return alwaysSaved;
					writes.writesBeforeReleased.hold(ctx.grant.token.hash, tried);
					alwaysSaved = (async () => {
						if (refusedAfterDecision(ctx, tool, made) !== null) return;
						for (const name of request.alwaysAllows ?? [tool.name]) await writes.allowAlways(name);
					})();
					return alwaysSaved;
				},
			};
			// Asked again: whatever the person approved before is not what this question shows.
			decided.approved = null;
			let decision: Awaited<ReturnType<typeof waitForDecision>>;
			const askedAt = Date.now();
			try {
				decision = await waitForDecision(
					writes.approver,
					writes.approvalTimeoutMs,
					request,
					// A stop ends the question too: a batch with a call that wrote keeps its connection until its answer is sent,
					// and a question left open would hold the stop (and a restart on another port) for its whole bound.
					anyAborted(anyAborted(anyAborted(clientGone, writes.stopping), noLongerWritable.signal), allowedNow.signal),
				);
			} finally {
				stopWatching?.();
				deadline += Date.now() - askedAt;
			}
			if (decision === "full")
				return fail(
					`${tool.name} was not put to the person: ${MAX_WAITING_APPROVALS_PER_TOKEN} calls of this token already wait for a decision. ${NOTHING_WRITTEN} Wait for answers to those before sending more.`,
				);
			// Before the settings' withdrawal: a server switched off in the settings also denies every right (its listeners are told
			// first), and the answer said the token's rights had changed.
			if ((decision === "gone" || decision === "closed") && writes.stopping?.aborted === true)
				return fail(`The server stopped before the person decided. ${NOTHING_WRITTEN}`);
			// Nobody left to ask (Ctrl-D at serve's terminal, which serves on; the plugin unloading): the person declined nothing.
			if (decision === "closed") return nobodyToAsk();
			if (decision === "gone" && noLongerWritable.signal.aborted) return refusedAsNoLongerAllowed(ctx, tool, changes, made);
			// Allowed while it waited: written as a call that came now would be, unasked (the write checks its right again).
			const answeredByRight = decision === "gone" && allowedNow.signal.aborted && clientGone?.aborted !== true;
			if (decision === "gone" && !answeredByRight) return fail(`The request was cancelled before the person decided. ${NOTHING_WRITTEN}`);
			if (decision === "timeout") return fail(`Nobody approved ${tool.name} within ${Math.round(writes.approvalTimeoutMs / 1000)} s. ${NOTHING_WRITTEN}`);
			if (decision === "decline") return fail(`The person declined this ${tool.name} call. ${NOTHING_WRITTEN} Do not retry it unless they ask you to.`);
			if (answeredByRight) {
				// After the token's calls approved "always" are written: that answer released this one.
				await writes.writesBeforeReleased.tried(ctx.grant.token.hash);
				asks = false;
			} else {
				decided.approved = request;
				// A revocation while the window was open wins, also over "always allow" clicked in that window, which then saves nothing either.
				const refused = refusedAfterDecision(ctx, tool, made);
				if (refused !== null) return stop(refused, refusedNowCause(ctx, tool, planned.changes, made));
				// What the person was asked for: a call of an allowed tool asked only for the note it makes saved Allow for the tool,
				// left create_note at Ask, and the next such call asked again.
				if (decision === "always") {
					await request.saveAlways?.();
					asks = false;
				}
				approved = planned.changes;
				approvedFolders = made.folders;
				shown = true;
				// A rename's linking notes are those of the moment it was planned: a note that began linking while the window was open
				// would keep a link to a path no longer there. Then planned again (and shown again); one no longer linking has changed,
				// so the write finds it and plans again, and the new plan, without it, is the approved change (`isSameChange`).
				const newLinker = await startedLinking(ctx, planned.changes, unreadAfterWindow);
				if (newLinker !== null) {
					// Named if the attempts run out: the last window's set was approved, yet this note was not in it.
					changedPath = newLinker;
					continue;
				}
			}
		}
		if (planned.changes.length === 0) return planned.outcome;
		const call = { id, time: new Date().toISOString(), tokenName: ctx.grant.token.name, tool: tool.name };
		// Only inside Obsidian (the one host with a workspace) and only for a move: Obsidian's own rename then rewrites the links,
		// in every note, so not when a note or canvas outside the planned set links to it (it would be written unshown and unjournalled),
		// nor when one the caller cannot see has the note's new name (the links would name the note by its path, telling of the hidden file),
		// nor when the person approved the plan (Obsidian's link text can differ from it; what was approved is what gets written).
		const move = planned.changes.find((change) => change.movedFrom !== undefined);
		const hostUpdatesLinks =
			ctx.host.workspace !== undefined &&
			!shown &&
			move?.movedFrom !== undefined &&
			!unplannedFileLinksTo(ctx.host, move.movedFrom, planned.changes) &&
			!hiddenFileNamed(ctx.host, move.path, ctx.scope) &&
			(await obsidianUpdatesLinks(ctx.host));
		try {
			const inScopeNow = scopeCheckOf(planned.changes);
			let written: Awaited<ReturnType<typeof applyChangeSet>>;
			try {
				written = await applyChangeSet({ host: ctx.host, journal: writes.journal, call }, planned.changes, {
					// Set to Ask since: a call the person has not seen (this set of it) stops before its next note.
					mayWrite: () => {
						const now = callRightNow(ctx, tool, made);
						return now !== "deny" && (now !== "ask" || shown) && inScopeNow(ctx.scope);
					},
					// An edit is made again on newer text only where nobody saw the planned text, no expected_hash pins it,
					// and it is the call's only note (an overwrite's backup holds the text it planned to replace).
					redoEdits: approved === null && expectedHash === undefined && planned.changes.length === 1,
					// An approved edit may be made on newer text only if it is still the change the person saw, at the places they saw.
					acceptsRedo:
						expectedHash === undefined && approved?.length === 1 && planned.changes.length === 1
							? (before, after) => isSameChange(planned.changes, [{ ...planned.changes[0]!, before, after }])
							: undefined,
					// The person saw each linking note's new text: one changed since is planned and, if its change differs, shown again.
					shownRelinks: shown,
					// The person saw these notes: another note made at one's path meanwhile is not one of them (planned again, and asked).
					shownFiles: shown,
					// A folder removed since the plan is not made unjudged: the move is planned again, create_note's right and the person judge it.
					plannedFolders: made.folders,
					hostUpdatesLinks,
				});
			} finally {
				// Before the notes are parsed and the answer waits (up to a second): the calls its "always" released wait for this.
				decided.writeTried();
			}
			// The answer says what was written: the request's answer must now reach the client whole.
			writes.wrote?.();
			decided.written = true;
			await writtenNotesParsed(ctx.host, planned.changes, writes.stopping);
			const answer = withNotesNotRead(withWrittenHash(planned, written), unreadAfterWindow);
			// That wait (up to a second) lets the person exclude a written note's folder, narrow the token's folders or deny it the
			// tool before the answer leaves: it then names no note and no hash, as a read's answer is withheld (the write stays).
			if (writes.answerMayName?.(tool, pathsNamed(ctx.host, planned.changes, answer)) === false) return fail(writtenOutOfSight(tool, id));
			return answer;
		} catch (error) {
			// Part of the set may have been written (an unexpected error: it cannot be told).
			// A note grown past the tool's bound was refused before being read: the tool's reason, nothing written (a redo is of the call's only note).
			if (error instanceof NoteTooLongError) return stop(fail(error.message), `"${error.path}" grew past the longest note ${tool.name} changes`);
			if (!(error instanceof WriteNoLongerAllowedError || error instanceof NoteChangedSinceError) || error.written.length > 0) writes.wrote?.();
			if (error instanceof WriteNoLongerAllowedError && error.written.length === 0)
				return stop(refusedAsNoLongerAllowed(ctx, tool, planned.changes, made), refusedNowCause(ctx, tool, planned.changes, made));
			if (error instanceof WriteNoLongerAllowedError)
				return stop(
					noLongerAllowed(
						tool,
						`Only ${writtenSoFar(error.written, ctx.scope)} had been written before that (${undoReverses(id, error.written, planned.changes, ctx.scope, "it")}); nothing after.`,
					),
					refusedNowCause(ctx, tool, planned.changes, made),
					error.written,
				);
			if (!(error instanceof NoteChangedSinceError)) throw error;
			if (error.written.length > 0) {
				const changed = isPathVisible(error.path, ctx.scope) ? `"${error.path}"` : "A note in a folder this token may no longer see";
				return stop(
					fail(
						`${changed} changed while this call was being written, so it was not written; ${writtenSoFar(error.written, ctx.scope)} had been (${undoReverses(id, error.written, planned.changes, ctx.scope, "them")}). Read the note again and retry what is missing.`,
					),
					`"${error.path}" changed`,
					error.written,
				);
			}
			changedPath = error.path;
			if (error.takenOnDisk) takenOnDisk.add(error.path);
		}
	}
	return stop(
		fail(`"${changedPath}" kept changing while this ${tool.name} call waited, so it was not written. ${NOTHING_WRITTEN} Read the note again, then retry.`),
		`"${changedPath}" kept changing after you approved it`,
	);
}

/**
 * A note or canvas the cache now finds linking to a set's moved note that is not in the set (the moved
 * note's own path when it is gone), or null; or else a visible note not parsed yet whose text may name it.
 * The cache's link lists are looked at, not the linking notes' text: 2–5 ms of CPU for 3,000 linking
 * notes, where planning again (each one read and rewritten) took 0.9–1.5 s. A linking
 * note whose text the rename leaves unchanged counts too: the call is then planned again once, and
 * written without a second window. Only visible notes are listed, so the path may be named to the caller.
 * Headless, the notes other programs wrote before this moment are parsed first (RENAME_CATCH_UP_MS at most).
 */
async function startedLinking(ctx: ToolContext, changes: readonly NoteChange[], unreadNotes: string[]): Promise<string | null> {
	const move = changes.find((change) => change.movedFrom !== undefined);
	if (move?.movedFrom === undefined) return null;
	// A note another program wrote just before the approval is in the cache's link lists only once the watcher and the parse
	// have caught up (40 ms and more): waited for, within a bound, so one that began linking then is not missed.
	await cacheCaughtUp(ctx.host);
	const moved = ctx.host.vault.getFileByPath(move.movedFrom);
	if (moved === null) return move.movedFrom;
	const inSet = new Set(changes.map((change) => change.path));
	const linker = linkingSources(ctx.host, ctx.scope, moved).find((source) => !inSet.has(source));
	if (linker !== undefined) return linker;
	// One written while the window was open and still not parsed after that wait (a big note, or one queued behind a slow
	// parse) is looked through as the plan does: it kept its link to the old path. One naming the note without linking
	// makes the call plan again once, and the same plan is written without a second window.
	const naming = await unparsedNotesNaming(ctx.host, ctx.scope, moved, inSet, unreadNotes);
	return [...naming].sort((left, right) => (left < right ? -1 : left > right ? 1 : 0))[0] ?? null;
}

/**
 * Resolves once the headless cache has parsed the notes the call wrote (`caughtUpWithNotes`: each
 * write reported its change before this), or after WRITTEN_NOTES_PARSED_WAIT_MS: a read the client
 * makes after the answer sees the links, tags and tasks it wrote. The parse runs in slices after the
 * write, and a read coming between two of them was answered from the note's old metadata. Only the
 * call's notes: waiting for every queued change held every write behind another program's huge note
 * for the whole bound. At once in Obsidian, and once the server stops (`stopping`): the answer must go
 * out before the connections close.
 */
async function writtenNotesParsed(host: Host, changes: readonly NoteChange[], stopping: AbortSignal | undefined): Promise<void> {
	if (stopping?.aborted === true) return;
	const caughtUp = host.metadataCache.caughtUpWithNotes?.(
		changes.flatMap((change) => (change.movedFrom === undefined ? [change.path] : [change.path, change.movedFrom])),
	);
	if (caughtUp === undefined) return;
	let timer: ReturnType<typeof nodeTimers.setTimeout> | undefined;
	let stopped: (() => void) | undefined;
	await Promise.race([
		caughtUp,
		new Promise((resolve) => (timer = nodeTimers.setTimeout(resolve, WRITTEN_NOTES_PARSED_WAIT_MS))),
		new Promise<void>((resolve) => stopping?.addEventListener("abort", (stopped = () => resolve()), { once: true })),
	]);
	nodeTimers.clearTimeout(timer);
	if (stopped !== undefined) stopping?.removeEventListener("abort", stopped);
}

/** A signal aborted once either is; undefined when neither is given. */
function anyAborted(a: AbortSignal | undefined, b: AbortSignal | undefined): AbortSignal | undefined {
	return a !== undefined && b !== undefined ? AbortSignal.any([a, b]) : (a ?? b);
}

/** A pause that doubles with each attempt, with jitter so two writers fall out of step. */
function pauseBeforeAttempt(attempt: number): Promise<void> {
	const pause = Math.min(WRITE_RETRY_MAX_PAUSE_MS, WRITE_RETRY_FIRST_PAUSE_MS * 2 ** Math.min(attempt - 1, 30));
	return new Promise((resolve) => nodeTimers.setTimeout(resolve, pause / 2 + Math.random() * pause));
}

/**
 * Whether a set planned again on newer text makes the change the person approved: the same notes
 * (and moves, and new notes with the same text), and in each note the approved change made at the
 * places it was approved for, over what another writer changed (`isSameNoteChange`): the same
 * lines removed and added somewhere else are another change. A renamed note's linking note that no
 * longer links (left out of the new plan) leaves the change the same; one new to the plan does not.
 * Stepped: two 1 MiB notes' diffs are compared in slices.
 */
function* isSameChange(approved: readonly NoteChange[], replanned: readonly NoteChange[]): Steps<boolean> {
	let index = 0;
	for (const change of approved) {
		const again = replanned[index];
		// A note whose links to a renamed note are gone since: nothing of it to write, and nothing written that was not shown.
		if (change.relink === true && change.movedFrom === undefined && again?.path !== change.path) continue;
		index++;
		if (!again || again.path !== change.path || again.movedFrom !== change.movedFrom || (again.before === null) !== (change.before === null)) return false;
		// Another note at the path (the one shown renamed away, another made there): not the note the person approved a change to.
		if (again.plannedOn !== change.plannedOn) return false;
		if (change.before === null || again.before === null) {
			if (again.after !== change.after) return false;
			continue;
		}
		if (!(yield* isSameNoteChange(change.before, change.after, again.before, again.after))) return false;
	}
	return index === replanned.length;
}

/** What the person is shown of a change: its path, the move, and the text before and after. */
function shownChange({ path, movedFrom, before, after }: NoteChange): NoteChange {
	return movedFrom === undefined ? { path, before, after } : { path, movedFrom, before, after };
}

/**
 * A rename's answer with `unread` added to its `notes_not_read` (each once, UNREAD_NOTES_LISTED at most): notes
 * not yet parsed that the look after the window could not read (past RENAME_UNPARSED_LOOK_BYTES, or refused by
 * the system) may still link to the old path, as those the plan could not read. Only visible notes are looked at.
 */
function withNotesNotRead(outcome: ToolOutcome<Record<string, unknown>>, unread: readonly string[]): ToolOutcome<Record<string, unknown>> {
	if (!outcome.ok || unread.length === 0) return outcome;
	const named = Array.isArray(outcome.value.notes_not_read) ? (outcome.value.notes_not_read as string[]) : [];
	const all = [...new Set([...named, ...unread])].slice(0, UNREAD_NOTES_LISTED);
	return ok({ ...outcome.value, notes_not_read: all });
}

/**
 * Every note a written call's answer may name: those its set wrote or moved, and those its lists name. Every item of a
 * list of paths (`notes_not_read`, `frontmatter_not_rewritten`), a file of the vault or not: one deleted in the wait
 * was still named after its folder was excluded. Of another list, only items that are files of the vault: a list
 * property's values (`set_property`'s `value`) are the caller's own words, and read as paths they would be outside a
 * token's folders and withhold the answer for nothing.
 */
function pathsNamed(host: Host, changes: readonly NoteChange[], answer: ToolOutcome<Record<string, unknown>>): string[] {
	const paths: string[] = [];
	for (const change of changes) {
		paths.push(change.path);
		if (change.movedFrom !== undefined) paths.push(change.movedFrom);
	}
	if (!answer.ok) return paths;
	for (const [key, value] of Object.entries(answer.value)) {
		if (!Array.isArray(value)) continue;
		const namesPaths = isFileNamingKey(key);
		for (const item of value) if (typeof item === "string" && (namesPaths || host.vault.getFileByPath(item) !== null)) paths.push(item);
	}
	return paths;
}

/** The tool's answer, its `hash` that of the text really written (a call allowed without asking may have been made again on newer text). */
function withWrittenHash(planned: PlannedCall, written: ReadonlyMap<string, string>): ToolOutcome<Record<string, unknown>> {
	if (!planned.outcome.ok) return planned.outcome;
	const value = planned.outcome.value;
	const path = typeof value.path === "string" ? value.path : undefined;
	const text = path === undefined ? undefined : written.get(path);
	const change = planned.changes.find((candidate) => candidate.path === path);
	if (typeof value.hash !== "string" || text === undefined || change === undefined || text === change.after) return planned.outcome;
	return ok({ ...value, hash: hashText(text) });
}
