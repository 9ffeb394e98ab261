/**
 * query_base of a view too wide for one answer, over real HTTP: a view of 1,990 columns over 1,000
 * notes built all two million cells (about 300 MB of heap, 13–25 s) only to answer "ask for less".
 * Now the rows stop where the answer is full, and the rest are counted.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { EvaluationBudget } from "../../../src/bases/evaluationContext";
import { MAX_RESPONSE_BYTES } from "../../../src/config/limits";
import { connectClient } from "../../helpers/http";
import { startService, type RunningService } from "../../helpers/service";
import { makeVault, removeDir } from "../../helpers/vault";

const COLUMNS = 1_990;
const NOTES = 1_000;

// Long names, so that a dozen rows fill the answer (each row's cells are a piece of the query's 1 s of evaluation).
const columnIds = Array.from({ length: COLUMNS }, (_, index) => `a_rather_long_property_name_${String(index).padStart(4, "0")}`);
const [first, second] = columnIds as [string, string];
const files: Record<string, string> = {
	"Wide.base": `views:\n  - type: table\n    name: Wide\n    order: [${columnIds.join(", ")}]\n`,
	"Narrow.base": `views:\n  - type: table\n    name: Narrow\n    order: [file.name, ${second}]\n`,
};
/**
 * The first notes hold a list in LIST_COLUMNS columns (a cell holding a list is a step of
 * evaluation, so each one evaluated is counted; a frontmatter holds 2,000 lines and items at most).
 * About 10 rows fill the answer, well under FULL_NOTES / 2; parsing these notes' 900-line frontmatters
 * was most of the file's CPU (100 of them: 14.0 s, 50: 9.4 s), and a view that fills no answer (all its
 * rows built) still fails here: it answers 'Ask for less'. 300 list columns, not 900: the query's
 * evaluation, bounded by BASES_MAX_QUERY_WORK_MS (1 s), was 310-390 ms of it here and 800 at loads of
 * 12-20; with 300 it is 260-270 ms, quiet and beside two busy processes.
 */
const FULL_NOTES = 50;
const LIST_COLUMNS = 300;
const otherColumns = columnIds
	.slice(2, 2 + LIST_COLUMNS)
	.map((id) => `${id}: [1]\n`)
	.join("");
for (let index = 0; index < NOTES; index++)
	files[`Notes/n${String(index).padStart(4, "0")}.md`] =
		`---\n${first}: ${index}\n${second}: "note ${index}"\n${index < FULL_NOTES ? otherColumns : ""}---\n# n${index}\n`;

interface Answer {
	rows: Array<{ path: string; values: Record<string, unknown> }>;
	total: number;
	truncated: boolean;
}

describe("query_base of a view of 1,990 columns over 1,000 notes", () => {
	let vault: string;
	let running: RunningService;
	let client: Client;

	beforeAll(async () => {
		vault = await makeVault(files);
		running = await startService(vault, { settings: { rateLimitPerMinute: 1_000_000 } });
		await running.host.metadataCache.settled();
		client = await connectClient(running.url, running.tokens.read ?? "");
	}, 120_000);
	afterAll(async () => {
		await client.close();
		await running.stop();
		await removeDir(vault);
	});

	test("answers the rows that fit, says there are more, and evaluates no cell past them, nor holds the heap (it built 2 million cells to answer 'ask for less')", async () => {
		// Two counts for each cell that holds a list (its items made, then walked), one for a text's, and one for each file filtered.
		const steps = jest.spyOn(EvaluationBudget.prototype, "spend");
		let peakHeap = 0;
		global.gc?.();
		const heapBefore = process.memoryUsage().heapUsed;
		const sampler = setInterval(() => (peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed)), 2);
		let result: { isError?: boolean; content: Array<{ text: string }>; structuredContent: Answer };
		let stepCalls = 0;
		try {
			result = (await client.callTool({ name: "query_base", arguments: { path: "Wide.base", limit: 1000 } })) as unknown as typeof result;
		} finally {
			clearInterval(sampler);
			stepCalls = steps.mock.calls.length;
			steps.mockRestore();
		}
		expect(result.content[0]?.text).not.toMatch(/Ask for less/);
		expect(result.isError ?? false).toBe(false);
		expect(Buffer.byteLength(JSON.stringify({ content: result.content, structuredContent: result.structuredContent }))).toBeLessThanOrEqual(
			MAX_RESPONSE_BYTES,
		);
		const answer = result.structuredContent;
		expect(answer.total).toBe(NOTES + 2);
		expect(answer.truncated).toBe(true);
		// Whole rows, in order, each with every column: several, not one.
		expect(answer.rows.length).toBeGreaterThan(5);
		// All of them notes with every column, so each cell built is a step counted.
		expect(answer.rows.length).toBeLessThan(FULL_NOTES / 2);
		expect(answer.rows[0]?.path).toBe("Narrow.base");
		expect(answer.rows[1]?.path).toBe("Notes/n0000.md");
		expect(answer.rows[1]?.values[second]).toBe("note 0");
		expect(answer.rows[1]?.values[columnIds[LIST_COLUMNS + 1]!]).toEqual([1]);
		expect(answer.rows[1]?.values[columnIds[COLUMNS - 1]!]).toBeNull();
		for (const row of answer.rows) expect(Object.keys(row.values)).toEqual(columnIds);
		// The cells of the rows sent, and at most one row more (the one found not to fit); the files filtered and sorted.
		expect(stepCalls).toBeLessThanOrEqual((answer.rows.length + 1) * (2 * LIST_COLUMNS + 1) + 2 * NOTES);
		// The answer is about 2 MB, held a few times over (rows, its JSON text, the SDK's copy); 2 million cells were about 300 MB.
		expect(peakHeap - heapBefore).toBeLessThan(100 * 1024 * 1024);
	}, 120_000);

	test("a narrow view over the same notes still answers every row asked for, whole", async () => {
		const result = (await client.callTool({ name: "query_base", arguments: { path: "Narrow.base", limit: 1000 } })) as unknown as {
			structuredContent: Answer;
		};
		expect(result.structuredContent.rows).toHaveLength(NOTES);
		expect(result.structuredContent.truncated).toBe(true);
		expect(result.structuredContent.rows[1]?.values).toEqual({ "file.name": "n0000.md", [second]: "note 0" });
	}, 120_000);
});
