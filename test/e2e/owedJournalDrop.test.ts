import { promises as fs, writeFileSync } from "node:fs";
import * as nodePath from "node:path";
import { journalPathFor } from "../../src/journal/JournalFile";
import { lineBytes } from "../../src/journal/journalLines";
import { CLI_PATH, runCli, runProcess, CLI_PRELOADS, startServe } from "../helpers/cli";
import { appendRecorded } from "../helpers/cliCommand";
import { connectClient } from "../helpers/http";
import { callTool } from "../helpers/tools";
import { makeTempDir, makeVault, removeDir } from "../helpers/vault";

/** The fault loaded into the CLI under test: a note's write fails with EMFILE, then every journal append, until told to stop. */
const FAULTS = ["--require", nodePath.resolve(__dirname, "../helpers/journalFaults.cjs")];

/** Longer than the first retry of an owed drop (JOURNAL_DROP_RETRY_PAUSES_MS: 0.5 s), well short of the second (5 s later). */
const PAST_FIRST_RETRY_MS = 1_200;

/** Calls `history --json` lists for the vault, as ids with their paths. */
async function historyOf(vault: string): Promise<Array<{ id: string; tool: string; paths: string[] }>> {
	const listed = await runCli(["history", vault, "--json"]);
	expect(listed.code).toBe(0);
	return (JSON.parse(listed.stdout) as Array<{ id: string; tool: string; changes: Array<{ path: string }> }>).map(({ id, tool, changes }) => ({
		id,
		tool,
		paths: changes.map((change) => change.path),
	}));
}

/**
 * A write whose note could not be written, and whose journal `drop` line could not be appended
 * either (out of file descriptors), is owed in memory and retried. When the process ends before a
 * retry lands, the journal on disk still holds a change that never happened, and `history` lists it
 * after a restart (its undo then does nothing).
 */
describe("an owed journal drop outlives the process that owed it", () => {
	let vault: string;
	let faults: string;

	beforeEach(async () => {
		vault = await makeVault({ "Plan.md": "# Plan\n\n- one\n" });
		faults = await makeTempDir("vault-mcp-faults-");
	});
	afterEach(async () => {
		await removeDir(vault);
		await removeDir(faults);
	});

	test("serve stopped while a drop is owed writes it as it stops: history lists no change to the note", async () => {
		const { token } = JSON.parse((await runCli(["token", "new", vault, "--name", "w", "--level", "write", "--allow-all-writes", "--json"])).stdout) as {
			token: string;
		};
		const env = { ...process.env, VAULT_MCP_FAULT_DIR: faults, VAULT_MCP_FAULT_NOTE: "^Plan\\.md$" };
		const serving = await startServe([vault, "--port", "0", "--allow-write"], 15_000, { flags: FAULTS, env });
		let stopped = false;
		try {
			const client = await connectClient(serving.url, token);
			const made = await callTool(client, "append_to_note", { path: "Plan.md", content: "- two\n" });
			expect(made.ok).toBe(true);
			writeFileSync(nodePath.join(faults, "fail-note"), "");
			const failed = await callTool(client, "append_to_note", { path: "Plan.md", content: "- three\n" });
			expect(failed).toMatchObject({ ok: false, error: expect.stringContaining("failed inside the server") as unknown });
			await client.close();
			// The first retry has failed too; the file holds the change the note never got.
			await new Promise((resolve) => setTimeout(resolve, PAST_FIRST_RETRY_MS));
			expect((await historyOf(vault)).filter((call) => call.tool === "append_to_note")).toHaveLength(2);
			// The descriptors are back as the server stops (its connections closed), long before the next retry.
			writeFileSync(nodePath.join(faults, "journal-back"), "");
			expect(await serving.stop()).toBe(0);
			stopped = true;
		} finally {
			if (!stopped) await serving.stop("SIGKILL");
		}
		expect(await fs.readFile(nodePath.join(vault, "Plan.md"), "utf8")).toBe("# Plan\n\n- one\n- two\n");
		const listed = await historyOf(vault);
		expect(listed.filter((call) => call.tool === "append_to_note")).toHaveLength(1);
	}, 60_000);

	test("undo whose restore and then its drop fail writes the drop before it exits: history lists no undo that never happened", async () => {
		const journal = journalPathFor(vault, ".obsidian");
		await fs.mkdir(nodePath.dirname(journal), { recursive: true });
		await fs.writeFile(nodePath.join(vault, "Plan.md"), "# Plan\n\n- one\n- two\n");
		writeFileSync(journal, lineBytes([appendRecorded("call1", "Plan.md", "# Plan\n\n- one\n", "# Plan\n\n- one\n- two\n", "2026-12-05T00:10:00.000Z")]));
		writeFileSync(nodePath.join(faults, "fail-note"), "");
		// The restore's new file cannot be made, and the drop's first append fails; the descriptors are back after that.
		const env = { ...process.env, VAULT_MCP_FAULT_DIR: faults, VAULT_MCP_FAULT_NOTE: "^\\.vault-mcp-.*\\.tmp$", VAULT_MCP_FAULT_JOURNAL_FAILS: "1" };
		const undone = await runProcess(process.execPath, [...CLI_PRELOADS, ...FAULTS, CLI_PATH, "undo", vault, "call1"], { env });
		expect(undone.code).toBe(1);
		expect(undone.stderr).toContain("EMFILE");
		expect(await fs.readFile(nodePath.join(vault, "Plan.md"), "utf8")).toBe("# Plan\n\n- one\n- two\n");
		expect(await historyOf(vault)).toEqual([{ id: "call1", tool: "append_to_note", paths: ["Plan.md"] }]);
	}, 60_000);
});
