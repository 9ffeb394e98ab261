import { z } from "zod";
import { STILL_BEING_READ_LISTED } from "../config/limits";
import type { HostFile } from "../host/Host";
import { comparePathsStrictly, noteVisibility } from "../vault/notes";
import type { Scope } from "../vault/scope";

/** The output field of a vault-wide tool naming notes it could not take into account yet (see notesStillBeingRead). */
export const stillBeingReadSchema = z
	.array(z.string())
	.optional()
	.describe(`Notes not read yet (first ${STILL_BEING_READ_LISTED}), so not counted: call again in a moment`);

/**
 * The answer's field for them, at their paths as the answer is made: a note moved meanwhile (the
 * same file object, renamed) into a folder `scope` does not show is left out, so that path is never
 * named. Absent when there is none. In strict path order: two paths the collator calls equal kept
 * the order the notes came in, which differs between a server that watched them change and a fresh one.
 */
export function stillBeingReadField(files: readonly HostFile[], scope: Scope): { still_being_read?: string[] } {
	const visible = noteVisibility(scope);
	const paths = files
		.map((file) => file.path)
		.filter(visible)
		.sort(comparePathsStrictly);
	return paths.length > 0 ? { still_being_read: paths } : {};
}
