import { z } from "zod";
import { MAX_CURSOR_CHARS } from "../config/limits";

/**
 * Every paged tool's `cursor` argument: the `next_cursor` of the page before. Refused past MAX_CURSOR_CHARS, longer than
 * any the server gives, before it is decoded: one up to the request's cap cost its reading and decoding every call. A check,
 * not `.max()`: `maxLength` in nine tools' schemas took 160 bytes of tools/list, over its budget (TOOL_LIST_ALL_MAX_BYTES),
 * in every client's context every session, for a bound no client needs to know ahead (it only sends back what it was given).
 */
export const cursorArgument = z
	.string()
	.refine(
		(cursor) => cursor.length <= MAX_CURSOR_CHARS,
		`The cursor is longer than any this server gives (${MAX_CURSOR_CHARS} characters at most). Pass the next_cursor of the page before, or none to start from the first page.`,
	)
	.optional();
