import { readFileSync } from "node:fs";
import * as nodePath from "node:path";
import * as limits from "../../../src/config/limits";
import { scanInlineSteps } from "../../../src/markdown/inline";
import { LineIndex } from "../../../src/markdown/lines";
import { metadataSteps } from "../../../src/markdown/metadata";
import type { Steps } from "../../../src/markdown/steps";

/** The README's limits table, row label → value cell. */
function readmeLimits(): Map<string, string> {
	const readme = readFileSync(nodePath.resolve(__dirname, "../../../README.md"), "utf8");
	const table = /<!-- limits:start -->([\s\S]*?)<!-- limits:end -->/.exec(readme)?.[1] ?? "";
	const rows = table.split("\n").filter((line) => line.startsWith("| ") && !line.startsWith("| limit") && !line.startsWith("|---"));
	return new Map(rows.map((row) => row.split("|").map((cell) => cell.trim())).map((cells) => [cells[1] ?? "", cells[2] ?? ""]));
}

describe("the README's limits table", () => {
	const table = readmeLimits();
	test.each([
		["default port", `${limits.DEFAULT_PORT}`],
		["port (settings and `--port`; 0 = any free port)", `${limits.MIN_PORT} to ${limits.MAX_PORT}`],
		["token name", `${limits.MAX_TOKEN_NAME_LENGTH} characters`],
		["request body", `${limits.MAX_REQUEST_BODY_BYTES} bytes`],
		["JSON-RPC messages a minute per token, each message of a batch counted (default; a setting)", `${limits.DEFAULT_RATE_LIMIT_PER_MINUTE}`],
		["requests in flight", `${limits.MAX_IN_FLIGHT_REQUESTS}`],
		["time to send request headers", `${limits.HEADERS_TIMEOUT_MS} ms`],
		["time to send the whole request", `${limits.REQUEST_TIMEOUT_MS} ms`],
		["idle keep-alive connection", `${limits.KEEP_ALIVE_TIMEOUT_MS} ms`],
		["how often open connections are checked against the header and request deadlines", `${limits.CONNECTIONS_CHECK_INTERVAL_MS} ms`],
		["activity records kept", `${limits.ACTIVITY_LOG_SIZE}`],
		["token length", `${limits.TOKEN_BYTES} random bytes`],
		["largest tool response", `${limits.MAX_RESPONSE_BYTES} bytes`],
		["read_note text", `${limits.MAX_NOTE_CONTENT_BYTES} bytes`],
		["list_notes page (default / max)", `${limits.LIST_NOTES_DEFAULT_LIMIT} / ${limits.LIST_NOTES_MAX_LIMIT}`],
		["search_notes results (default / max)", `${limits.SEARCH_DEFAULT_LIMIT} / ${limits.SEARCH_MAX_LIMIT}`],
		["search_notes query", `${limits.MAX_QUERY_LENGTH} characters`],
		["shortest search word that also matches as a prefix", `${limits.MIN_PREFIX_CHARS} characters`],
		["a search result's body looked through for snippets", `${limits.SNIPPET_SEARCH_MAX_CHARS} characters`],
		["list_tasks results (default / max)", `${limits.LIST_TASKS_DEFAULT_LIMIT} / ${limits.LIST_TASKS_MAX_LIMIT}`],
		["add_task text", `${limits.MAX_TASK_TEXT_LENGTH} characters`],
		["open tasks listed by complete_task when the task is not on its line", `${limits.COMPLETE_TASK_OPEN_TASKS_LISTED}`],
		["list_tags entries (default / max)", `${limits.LIST_TAGS_DEFAULT_LIMIT} / ${limits.LIST_TAGS_MAX_LIMIT}`],
		["get_note_links backlinks per page (default / max)", `${limits.BACKLINKS_DEFAULT_LIMIT} / ${limits.BACKLINKS_MAX_LIMIT}`],
		["prompts listed from the prompts folder", `${limits.PROMPTS_LISTED}`],
		["list_templates templates listed", `${limits.TEMPLATES_LISTED}`],
		["search index build slice", `${limits.INDEX_BUILD_SLICE_MS} ms`],
		["Markdown nesting followed", `${limits.MAX_MARKDOWN_NESTING}`],
		["time for a request body to arrive", `${limits.BODY_READ_TIMEOUT_MS} ms`],
		["open connections", `${limits.MAX_CONNECTIONS}`],
		["messages in one batch", `${limits.MAX_BATCH_ENTRIES}`],
		["requests in flight per token", `${limits.MAX_IN_FLIGHT_PER_TOKEN}`],
		["time for a client to read a whole answer", `${limits.RESPONSE_WRITE_TIMEOUT_MS} ms`],
		["answer body for one request, batch included", `${limits.MAX_RESPONSE_BODY_BYTES} bytes`],
		["write tool calls a minute per token (default; a setting)", `${limits.DEFAULT_WRITE_CALLS_PER_MINUTE}`],
		["bytes of write arguments a minute per token (default; a setting)", `${limits.DEFAULT_WRITE_BYTES_PER_MINUTE} bytes`],
		["time for a new connection to send its first request head", `${limits.FIRST_REQUEST_TIMEOUT_MS} ms`],
		["open connections without a valid token", `${limits.MAX_UNAUTHENTICATED_CONNECTIONS}`],
		["time a request waits in line for an in-flight place", `${limits.PLACE_WAIT_MS} ms`],
		["requests of one token waiting in line", `${limits.MAX_WAITING_PER_TOKEN}`],
		["note file name written by a tool", `${limits.MAX_NOTE_NAME_BYTES} bytes`],
		["folder or file name", `${limits.MAX_NAME_BYTES} bytes`],
		["attempts at a write when another program changes the note meanwhile", `${limits.MAX_WRITE_ATTEMPTS}`],
		["how often a running `serve` looks at data.json", `${limits.SETTINGS_POLL_INTERVAL_MS} ms`],
		["stretches of hidden text listed by read_note", `${limits.HIDDEN_CONTENT_MAX_ENTRIES}`],
		["note body searched (larger: title and headings only)", `${limits.MAX_SEARCHABLE_NOTE_BYTES} bytes`],
		["unsearched notes named in get_vault_status", `${limits.UNSEARCHED_NOTES_LISTED}`],
		["frontmatter parsed as YAML", `${limits.MAX_FRONTMATTER_BYTES} bytes`],
		["metadata parse slice (headless)", `${limits.METADATA_PARSE_SLICE_MS} ms`],
		["note parsed after the headless server starts listening rather than before", `over ${limits.MAX_STARTUP_PARSE_BYTES} bytes`],
		["note text kept in memory, headless (least recently used dropped first)", `${limits.MAX_CACHED_TEXT_CHARS} characters`],
		["tool calls kept in the write journal", `${limits.MAX_JOURNAL_ENTRIES}`],
		["write journal file", `${limits.MAX_JOURNAL_BYTES} bytes`],
		["calls `vault-mcp history` lists (default)", `${limits.HISTORY_DEFAULT_LIMIT}`],
		["changes the settings tab's Activity section lists", `${limits.ACTIVITY_CHANGES_SHOWN}`],
	])("%s is %s", (label, value) => {
		expect(table.get(label)).toBe(value);
	});

	test("has no row that src/config/limits.ts does not back", () => {
		expect(table.size).toBe(55);
	});

	test("deadlines nest: headers and body together end before node's own request timeout, so the 408 is ours and has a body", () => {
		expect(limits.HEADERS_TIMEOUT_MS + limits.BODY_READ_TIMEOUT_MS).toBeLessThan(limits.REQUEST_TIMEOUT_MS);
		expect(limits.FIRST_REQUEST_TIMEOUT_MS).toBeLessThanOrEqual(limits.HEADERS_TIMEOUT_MS);
	});

	test("one token holds at most half the places, and one answer always fits the answer cap", () => {
		expect(limits.MAX_IN_FLIGHT_PER_TOKEN).toBeLessThan(limits.MAX_IN_FLIGHT_REQUESTS);
		expect(limits.MAX_RESPONSE_BODY_BYTES).toBeGreaterThan(limits.MAX_RESPONSE_BYTES);
		expect(limits.MAX_UNAUTHENTICATED_CONNECTIONS).toBeLessThan(limits.MAX_CONNECTIONS);
	});
});

/** How many times stepped work offers to pause before it ends. */
function pausesOf(steps: Steps<unknown>): number {
	let pauses = 0;
	while (!steps.next().done) pauses++;
	return pauses;
}

describe("the Markdown parser's pause counts", () => {
	test("building a line index pauses once per LINE_INDEX_PAUSE_LINES lines", () => {
		const lines = limits.LINE_INDEX_PAUSE_LINES * 3;
		expect(pausesOf(LineIndex.inSteps("x\n".repeat(lines)))).toBe(3);
	});

	test("the inline scan pauses once per INLINE_SCAN_PAUSE_STEPS characters it stops at", () => {
		// Every "#" is a character the scanner stops at.
		expect(pausesOf(scanInlineSteps("#".repeat(limits.INLINE_SCAN_PAUSE_STEPS * 2)))).toBe(2);
	});

	test("a huge paragraph's parse offers a pause at least as often as its line counts say", () => {
		const lines = 40_000;
		const text = "word [[link]] #tag\n".repeat(lines);
		const atLeast = Math.floor(lines / limits.LINE_INDEX_PAUSE_LINES) + Math.floor(lines / limits.LINE_SPLIT_PAUSE_LINES) + Math.floor(lines / limits.INLINE_ITEMS_PAUSE_COUNT);
		expect(pausesOf(metadataSteps(text))).toBeGreaterThanOrEqual(atLeast);
	});
});
