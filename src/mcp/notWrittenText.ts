/**
 * What the person is told when a call they approved is then stopped (`Approver.notWritten`): which note, and why, in
 * their words rather than the client's. Pure. Paths and names only, never note text: a plan's error can quote a note
 * (its headings), so the client's message is not passed on.
 */
import type { ApprovalRequest, DeniedBecause } from "./approval";

/** Why an approved call stopped: `cause` ends "… was not changed: <cause>."; `written`, the notes it had written before (a set stopped part-way). */
export interface StoppedCall {
	cause: string;
	written: readonly string[];
	/** The undo id of the call, which reverses what a set stopped part-way had written. */
	callId: string;
	/** Stopped by an unexpected error: what it had written is not known here. */
	unexpected?: boolean;
}

/** The cause for a call refused because its token may no longer use `tool`, as the person is told it. */
export function deniedCause(tool: string, because: DeniedBecause | null): string {
	switch (because) {
		case "server switched off":
			return "the server was switched off";
		case "token revoked":
			return "the token was revoked";
		case "writing switched off":
			return "writing was switched off in the settings";
		case "token reads only":
			return "the token may only read now";
		case "right set to deny":
			return `${tool} was set to Deny for this token`;
		default:
			return `this token may no longer use ${tool}`;
	}
}

/**
 * "\"Home.md\" was not changed: the token was revoked. Nothing was written.", or for a set stopped part-way "Only 1 of
 * its 2 notes was written (\"Start.md\"), then it stopped: \"Links.md\" changed. Undo id … reverses it."
 */
export function notWrittenText(request: ApprovalRequest, stopped: StoppedCall): string {
	if (stopped.unexpected === true)
		return `${sentenceStart(subjectOf(request))} stopped with an unexpected error (the server's log says more; the journal lists any note it wrote).`;
	if (stopped.written.length === 0) return `${notDone(request)}: ${stopped.cause}. Nothing was written.`;
	const total = Math.max(request.changes.length, stopped.written.length);
	const named = stopped.written.map((path) => `"${path}"`).join(", ");
	const them = stopped.written.length === 1 ? "it" : "them";
	return `Only ${stopped.written.length} of its ${total} notes ${stopped.written.length === 1 ? "was" : "were"} written (${named}), then it stopped: ${stopped.cause}. Undo id ${stopped.callId} reverses ${them}.`;
}

/** The call's main note: the one it moves, else the first it changes. */
function subjectOf(request: ApprovalRequest): string {
	const move = request.changes.find((change) => change.movedFrom !== undefined);
	const first = move ?? request.changes[0];
	return first === undefined ? "the call" : `writing "${first.path}"`;
}

/** "\"Home.md\" was not moved to \"Start.md\", and the 2 other notes of the call were not written either". */
function notDone(request: ApprovalRequest): string {
	const move = request.changes.find((change) => change.movedFrom !== undefined);
	const first = move ?? request.changes[0];
	if (first === undefined) return "The call was not written";
	const what =
		first.movedFrom !== undefined
			? `"${first.movedFrom}" was not moved to "${first.path}"`
			: first.before === null
				? `"${first.path}" was not created`
				: `"${first.path}" was not changed`;
	const others = request.changes.length - 1;
	if (others === 0) return what;
	return `${what}, and ${others === 1 ? "the other note" : `the ${others} other notes`} of the call ${others === 1 ? "was" : "were"} not written either`;
}

function sentenceStart(text: string): string {
	return text.charAt(0).toUpperCase() + text.slice(1);
}
