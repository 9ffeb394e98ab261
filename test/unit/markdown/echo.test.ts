import { ERROR_ECHO_MAX_CHARS } from "../../../src/config/limits";
import { echoed } from "../../../src/markdown/echo";

describe("echoed: a text as an error quotes it", () => {
	test("a text up to the bound is quoted whole", () => {
		expect(echoed("Meeting notes")).toBe("Meeting notes");
		expect(echoed("a".repeat(ERROR_ECHO_MAX_CHARS))).toBe("a".repeat(ERROR_ECHO_MAX_CHARS));
		expect(echoed("")).toBe("");
	});

	test("a longer one is cut at the bound, and its length is given", () => {
		const heading = "Heading ".repeat(60_000);
		const quoted = echoed(heading);
		expect(quoted).toBe(`${heading.slice(0, ERROR_ECHO_MAX_CHARS)}… (480000 characters)`);
		expect(quoted.length).toBeLessThan(ERROR_ECHO_MAX_CHARS + 30);
	});

	test("a character outside the Basic Multilingual Plane is never cut in half", () => {
		const text = `${"a".repeat(9)}😀😀`;
		expect(echoed(text, 10)).toBe(`${"a".repeat(9)}… (13 characters)`);
		expect(echoed(text, 11)).toBe(`${"a".repeat(9)}😀… (13 characters)`);
	});
});
