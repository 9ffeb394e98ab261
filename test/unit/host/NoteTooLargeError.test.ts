import { MAX_READ_NOTE_BYTES } from "../../../src/config/limits";
import { NoteTooLargeError } from "../../../src/host/NoteTooLargeError";

describe("NoteTooLargeError", () => {
	test("names the note's size and the bound, says nothing was written and what to do, and carries no path", () => {
		const error = new NoteTooLargeError(MAX_READ_NOTE_BYTES + 3 * 1024 * 1024);
		expect(error.code).toBe("ENOTETOOLARGE");
		expect(error.bytes).toBe(MAX_READ_NOTE_BYTES + 3 * 1024 * 1024);
		expect(error.message).toContain(`${((MAX_READ_NOTE_BYTES + 3 * 1024 * 1024) / (1024 * 1024)).toFixed(1)} MiB`);
		expect(error.message).toContain(`${MAX_READ_NOTE_BYTES / (1024 * 1024)} MiB`);
		expect(error.message).toMatch(/nothing was written/);
		expect(error.message).not.toMatch(/[\\/]/);
	});
});
