import { FileOverBytesError } from "../../../src/host/FileOverBytesError";

test("a file refused from its size says how long it is, and names no path", () => {
	const error = new FileOverBytesError(3 * 1024 * 1024 + 1);
	expect(error).toBeInstanceOf(Error);
	expect({ code: error.code, bytes: error.bytes, name: error.name }).toEqual({ code: "EFILEOVERBYTES", bytes: 3_145_729, name: "FileOverBytesError" });
	expect(error.message).toBe("The file is 3145729 bytes, more than this write reads.");
});
