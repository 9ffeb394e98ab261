import { z } from "zod";
import { MAX_CURSOR_CHARS } from "../../../src/config/limits";
import { cursorArgument } from "../../../src/mcp/cursorArgument";

describe("a paged tool's cursor argument", () => {
	const args = z.object({ cursor: cursorArgument });

	test("is optional, and any cursor up to the longest the server gives is taken as sent", () => {
		expect(args.parse({})).toEqual({});
		const longest = "a".repeat(MAX_CURSOR_CHARS);
		expect(args.parse({ cursor: longest })).toEqual({ cursor: longest });
	});

	test("one character longer is refused before it is read, saying what to send instead", () => {
		const parsed = args.safeParse({ cursor: "a".repeat(MAX_CURSOR_CHARS + 1) });
		expect(parsed.success).toBe(false);
		expect(parsed.error?.issues[0]?.message).toBe(
			`The cursor is longer than any this server gives (${MAX_CURSOR_CHARS} characters at most). Pass the next_cursor of the page before, or none to start from the first page.`,
		);
	});
});
