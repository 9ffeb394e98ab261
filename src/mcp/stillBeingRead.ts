import { z } from "zod";
import { STILL_BEING_READ_LISTED } from "../config/limits";

/** The output field of a vault-wide tool naming notes it could not take into account yet (see notesStillBeingRead). */
export const stillBeingReadSchema = z
	.array(z.string())
	.optional()
	.describe(`Notes not read yet (first ${STILL_BEING_READ_LISTED}), so not counted: call again in a moment`);

/** The answer's field for them: absent when every note was read. */
export function stillBeingReadField(paths: readonly string[]): { still_being_read?: string[] } {
	return paths.length > 0 ? { still_being_read: [...paths] } : {};
}
