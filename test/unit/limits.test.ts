import { readFileSync } from "node:fs";
import * as nodePath from "node:path";
import * as limits from "../../src/limits";

/** The README's limits table, row label → value cell. */
function readmeLimits(): Map<string, string> {
	const readme = readFileSync(nodePath.resolve(__dirname, "../../README.md"), "utf8");
	const table = /<!-- limits:start -->([\s\S]*?)<!-- limits:end -->/.exec(readme)?.[1] ?? "";
	const rows = table.split("\n").filter((line) => line.startsWith("| ") && !line.startsWith("| limit") && !line.startsWith("|---"));
	return new Map(rows.map((row) => row.split("|").map((cell) => cell.trim())).map((cells) => [cells[1] ?? "", cells[2] ?? ""]));
}

describe("the README's limits table", () => {
	const table = readmeLimits();
	test.each([
		["default port", `${limits.DEFAULT_PORT}`],
		["request body", `${limits.MAX_REQUEST_BODY_BYTES} bytes`],
		["requests a minute per token (default; a setting)", `${limits.DEFAULT_RATE_LIMIT_PER_MINUTE}`],
		["requests in flight", `${limits.MAX_IN_FLIGHT_REQUESTS}`],
		["time to send request headers", `${limits.HEADERS_TIMEOUT_MS} ms`],
		["time to send the whole request", `${limits.REQUEST_TIMEOUT_MS} ms`],
		["idle keep-alive connection", `${limits.KEEP_ALIVE_TIMEOUT_MS} ms`],
		["activity records kept", `${limits.ACTIVITY_LOG_SIZE}`],
		["token length", `${limits.TOKEN_BYTES} random bytes`],
		["largest tool response", `${limits.MAX_RESPONSE_BYTES} bytes`],
		["read_note text", `${limits.MAX_NOTE_CONTENT_BYTES} bytes`],
		["list_notes page (default / max)", `${limits.LIST_NOTES_DEFAULT_LIMIT} / ${limits.LIST_NOTES_MAX_LIMIT}`],
		["search_notes results (default / max)", `${limits.SEARCH_DEFAULT_LIMIT} / ${limits.SEARCH_MAX_LIMIT}`],
		["list_tasks results (default / max)", `${limits.LIST_TASKS_DEFAULT_LIMIT} / ${limits.LIST_TASKS_MAX_LIMIT}`],
		["list_tags entries (default / max)", `${limits.LIST_TAGS_DEFAULT_LIMIT} / ${limits.LIST_TAGS_MAX_LIMIT}`],
		["search index build slice", `${limits.INDEX_BUILD_SLICE_MS} ms`],
		["Markdown nesting followed", `${limits.MAX_MARKDOWN_NESTING}`],
		["time for a request body to arrive", `${limits.BODY_READ_TIMEOUT_MS} ms`],
		["open connections", `${limits.MAX_CONNECTIONS}`],
		["messages in one batch", `${limits.MAX_BATCH_ENTRIES}`],
		["note body searched (larger: title and headings only)", `${limits.MAX_SEARCHABLE_NOTE_BYTES} bytes`],
		["unsearched notes named in get_vault_status", `${limits.UNSEARCHED_NOTES_LISTED}`],
		["frontmatter parsed as YAML", `${limits.MAX_FRONTMATTER_BYTES} bytes`],
		["metadata parse slice (headless)", `${limits.METADATA_PARSE_SLICE_MS} ms`],
	])("%s is %s", (label, value) => {
		expect(table.get(label)).toBe(value);
	});

	test("has no row that src/limits.ts does not back", () => {
		expect(table.size).toBe(24);
	});
});
