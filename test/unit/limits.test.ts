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
	])("%s is %s", (label, value) => {
		expect(table.get(label)).toBe(value);
	});

	test("has no row that src/limits.ts does not back", () => {
		expect(table.size).toBe(9);
	});
});
