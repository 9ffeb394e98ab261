import { MAX_READ_NOTE_BYTES } from "../config/limits";

/** A note over MAX_READ_NOTE_BYTES: the headless vault does not read it (see the limit for why). */
export class NoteTooLargeError extends Error {
	readonly code = "ENOTETOOLARGE";
	constructor(readonly bytes: number) {
		// No path: the caller knows the note, and a disk path must never reach a client.
		super(
			`That note is ${(bytes / (1024 * 1024)).toFixed(1)} MiB, over the ${MAX_READ_NOTE_BYTES / (1024 * 1024)} MiB of text this server reads from one note, so it was not read and nothing was written. It is still listed; open it in Obsidian, or split it into smaller notes.`,
		);
		this.name = "NoteTooLargeError";
	}
}
