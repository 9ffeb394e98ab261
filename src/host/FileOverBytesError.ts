/** `process` refused a file longer than its `refuseOverBytes` (see ProcessOptions) without reading it. */
export class FileOverBytesError extends Error {
	readonly code = "EFILEOVERBYTES";
	constructor(readonly bytes: number) {
		// No path: the caller knows the note, and a disk path must never reach a client.
		super(`The file is ${bytes} bytes, more than this write reads.`);
		this.name = "FileOverBytesError";
	}
}
