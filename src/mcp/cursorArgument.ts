import { z } from "zod";
import { MAX_CURSOR_CHARS } from "../config/limits";

/**
 * Every paged tool's `cursor` argument: the `next_cursor` of the page before. Refused past MAX_CURSOR_CHARS, longer than
 * any the server gives, before it is decoded: one up to the request's cap cost its reading and decoding every call.
 */
export const cursorArgument = z
	.string()
	.max(
		MAX_CURSOR_CHARS,
		`The cursor is longer than any this server gives (${MAX_CURSOR_CHARS} characters at most). Pass the next_cursor of the page before, or none to start from the first page.`,
	)
	.optional();
