import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { BASES_MAX_PIECE_MS } from "../../src/config/limits";
import { runCli, startServe, serveCpuMs, type ServingCli } from "../helpers/cli";
import { connectClient } from "../helpers/http";
import { callOk, callTool } from "../helpers/tools";
import { makeVault, removeDir } from "../helpers/vault";

/**
 * A base's piece (one file's filters and cells) cannot be paused, so its bound is what another
 * client waits. It was 100 ms of work: a formula of six `title()` on 96,000 characters answered in
 * pieces of 57–83 ms, and thirty were stopped only after a piece of 86–157 ms. Another token's read
 * now waits no more than the 40 ms bound and the one method that passed it.
 */
const FORMULA = `"ab cd ".repeat(16000)${".title()".repeat(30)}.length`;
const BASE = [
	`filters: 'file.inFolder("Rows")'`,
	"formulas:",
	`  work: '${FORMULA}'`,
	"views:",
	"  - type: table",
	"    name: All",
	"    order: [file.name, formula.work]",
	"",
].join("\n");

describe("a base whose formula works long on every file, queried beside another token's reads", () => {
	let vault = "";
	let serving: ServingCli;
	let querier: Client;
	let reader: Client;
	beforeAll(async () => {
		const rows = Object.fromEntries(Array.from({ length: 4 }, (_, index) => [`Rows/Row ${index}.md`, `# Row ${index}\n`]));
		vault = await makeVault({ ...rows, "Plain.md": "plain text\n", "Work.base": BASE });
		const token = async (name: string) => (JSON.parse((await runCli(["token", "new", vault, "--name", name, "--json"])).stdout) as { token: string }).token;
		const [queryToken, readToken] = [await token("querier"), await token("reader")];
		serving = await startServe([vault, "--port", "0"]);
		querier = await connectClient(serving.url, queryToken);
		reader = await connectClient(serving.url, readToken);
	}, 60_000);
	afterAll(async () => {
		await querier.close();
		await reader.close();
		await serving.stop();
		await removeDir(vault);
	});

	test("is stopped with what to do, and the reads waited at most one piece's bound and one method of serve's thread", async () => {
		const waits: number[] = [];
		// Three queries, each stopped in its first piece: a read caught at the start of one waits all of it.
		for (let round = 0; round < 3; round++) {
			let querying = true;
			const query = callTool(querier, "query_base", { path: "Work.base" }).finally(() => (querying = false));
			while (querying) {
				const before = serveCpuMs(serving);
				expect((await callOk<{ content: string }>(reader, "read_note", { path: "Plain.md" })).content).toContain("plain text");
				waits.push(serveCpuMs(serving) - before);
			}
			const outcome = await query;
			expect(outcome.ok ? "answered" : outcome.error).toContain(`for one file took more than ${BASES_MAX_PIECE_MS} ms`);
		}
		// A read queued behind the piece waits out the rest of it: it was 80–103 ms of serve's CPU.
		expect(Math.max(...waits)).toBeLessThan(75);
	}, 60_000);
});
