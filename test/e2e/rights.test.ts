import { promises as fs } from "node:fs";
import * as nodePath from "node:path";
import { ALL_TOOLS } from "../../src/mcp/tools";
import { runCli, startServe } from "../helpers/cli";
import { connectClient } from "../helpers/http";
import { anyAnswerOf, callTool } from "../helpers/tools";
import { startServeInTerminal, waitForOutput } from "../helpers/terminal";
import { makeVault, removeDir } from "../helpers/vault";

const READ_TOOLS = ALL_TOOLS.filter((tool) => tool.access === "read").map((tool) => tool.name);
const WRITE_TOOLS = ALL_TOOLS.filter((tool) => tool.access === "write").map((tool) => tool.name);

async function newToken(vault: string, args: string[]): Promise<string> {
	const made = await runCli(["token", "new", vault, "--json", ...args]);
	if (made.code !== 0) throw new Error(made.stderr);
	return (JSON.parse(made.stdout) as { token: string }).token;
}

describe("rights per tool and approval on the command line", () => {
	let vault: string;
	beforeEach(async () => {
		vault = await makeVault({ "Home.md": "# Home\n\nFirst line.\n" });
	});
	afterEach(async () => removeDir(vault));

	test("token new starts with read tools allowed and write tools asking; --allow/--deny change that; token list --json shows each right", async () => {
		await newToken(vault, ["--name", "reader"]);
		await newToken(vault, ["--name", "writer", "--level", "write", "--allow", "add_task", "--deny", "search_notes"]);
		const listed = JSON.parse((await runCli(["token", "list", vault, "--json"])).stdout) as Array<{ name: string; rights: Record<string, string> }>;
		const reader = listed.find((token) => token.name === "reader")!;
		const writer = listed.find((token) => token.name === "writer")!;
		for (const tool of READ_TOOLS) expect([tool, reader.rights[tool]]).toEqual([tool, "allow"]);
		for (const tool of WRITE_TOOLS) expect([tool, reader.rights[tool]]).toEqual([tool, "deny"]);
		expect(writer.rights).toMatchObject({ append_to_note: "ask", create_note: "ask", search_notes: "deny", add_task: "allow", read_note: "allow" });
	});

	test("unknown tool names are a usage error (exit 2) that lists the valid ones; ask for a read tool is refused; nothing is saved", async () => {
		// Four refused commands, started together (one start's wait rather than four); then nothing may have been saved.
		const [unknown, askRead, noToken, noTokenAsked] = await Promise.all([
			runCli(["token", "new", vault, "--name", "x", "--deny", "delete_everything"]),
			runCli(["token", "new", vault, "--name", "x", "--ask", "read_note"]),
			runCli(["token", "rights", vault, "ghost", "--deny", "read_note"]),
			runCli(["token", "rights", vault, "ghost"]),
		]);
		expect(unknown.code).toBe(2);
		expect(unknown.stderr).toContain('Unknown tool "delete_everything". The tools are: ');
		for (const tool of ALL_TOOLS) expect(unknown.stderr).toContain(tool.name);
		expect(askRead.code).toBe(2);
		expect(askRead.stderr).toContain("never ask");
		expect(noToken.code).toBe(2);
		expect(noToken.stderr).toContain('No token named "ghost"');
		expect(noTokenAsked.code).toBe(2);
		expect(noTokenAsked.stderr).toContain('No token named "ghost"');
		expect(JSON.parse((await runCli(["token", "list", vault, "--json"])).stdout)).toEqual([]);
	});

	test("`token rights NAME` without a change only shows the rights: data.json is not written", async () => {
		await newToken(vault, ["--name", "shown"]);
		const dataFile = nodePath.join(vault, ".obsidian/plugins/vault-mcp/data.json");
		const before = await fs.stat(dataFile);
		const bytes = await fs.readFile(dataFile);
		await new Promise((resolve) => setTimeout(resolve, 20));
		const shown = await runCli(["token", "rights", vault, "shown", "--json"]);
		expect(shown.code).toBe(0);
		expect((JSON.parse(shown.stdout) as { rights: Record<string, string> }).rights.read_note).toBe("allow");
		expect((await fs.stat(dataFile)).mtimeMs).toBe(before.mtimeMs);
		expect(await fs.readFile(dataFile)).toEqual(bytes);
	});

	test("a denied tool disappears from a running server's tools/list within a second of `token rights`, and calling it answers like an unknown tool", async () => {
		const token = await newToken(vault, ["--name", "app"]);
		const serving = await startServe([vault, "--port", "0"]);
		try {
			const client = await connectClient(serving.url, token);
			expect((await client.listTools()).tools.map((tool) => tool.name)).toContain("search_notes");
			const changed = await runCli(["token", "rights", vault, "app", "--deny", "search_notes"]);
			expect(changed.code).toBe(0);
			expect(changed.stdout).toMatch(/search_notes\s+deny/);
			// A list asked once a second has passed is answered with the rights the server had then, however slowly a
			// loaded machine answers it (timing a poll counted the test's own round trips too).
			const changedAt = Date.now();
			await new Promise((resolve) => setTimeout(resolve, Math.max(0, changedAt + 1_000 - Date.now())));
			expect((await client.listTools()).tools.map((tool) => tool.name)).not.toContain("search_notes");
			// The SDK answers an unknown tool with a JSON-RPC error (-32602), as the spec says since 2025-11-25.
			const denied = await anyAnswerOf(client, "search_notes", { query: "home" });
			const unknown = await anyAnswerOf(client, "no_such_tool", { query: "home" });
			expect(denied).toHaveProperty("error.code", -32602);
			expect(JSON.stringify(denied).replace("search_notes", "T")).toBe(JSON.stringify(unknown).replace("no_such_tool", "T"));
			await client.close();
		} finally {
			await serving.stop();
		}
	});

	test("ask in a serve without a terminal answers at once that approval is needed, and writes nothing", async () => {
		const token = await newToken(vault, ["--name", "app", "--level", "write", "--ask", "append_to_note"]);
		const serving = await startServe([vault, "--port", "0", "--allow-write"]);
		try {
			const client = await connectClient(serving.url, token);
			const started = Date.now();
			const outcome = await callTool(client, "append_to_note", { path: "Home", content: "Not without asking" });
			expect(Date.now() - started).toBeLessThan(5_000);
			expect(outcome).toEqual({ ok: false, error: expect.stringMatching(/needs the person's approval.*Nothing was written/s) });
			expect(await fs.readFile(nodePath.join(vault, "Home.md"), "utf8")).toBe("# Home\n\nFirst line.\n");
			await client.close();
		} finally {
			await serving.stop();
		}
	});

	test("ask in an interactive serve: the terminal shows the diff; y writes, n writes nothing, a writes and allows from then on", async () => {
		const token = await newToken(vault, ["--name", "app", "--level", "write", "--ask", "append_to_note"]);
		const serving = await startServeInTerminal(vault);
		const output = () => serving.output();
		const home = nodePath.join(vault, "Home.md");
		try {
			const client = await connectClient(serving.url, token);
			const approved = callTool(client, "append_to_note", { path: "Home", content: "Approved in the terminal" });
			await waitForOutput(output, "Approve?");
			expect(serving.output()).toContain('"app" asks to run append_to_note');
			expect(serving.output()).toContain("+ Approved in the terminal");
			expect(await fs.readFile(home, "utf8")).toBe("# Home\n\nFirst line.\n");
			serving.type("y\n");
			expect((await approved).ok).toBe(true);
			expect(await fs.readFile(home, "utf8")).toContain("Approved in the terminal");

			const declined = callTool(client, "append_to_note", { path: "Home", content: "Declined in the terminal" });
			await waitForOutput(output, "Approve?", 2);
			const before = await fs.readFile(home, "utf8");
			serving.type("n\n");
			expect(await declined).toEqual({ ok: false, error: expect.stringContaining("declined") });
			expect(await fs.readFile(home, "utf8")).toBe(before);

			const always = callTool(client, "append_to_note", { path: "Home", content: "Always from now" });
			await waitForOutput(output, "Approve?", 3);
			serving.type("a\n");
			expect((await always).ok).toBe(true);
			const listed = JSON.parse((await runCli(["token", "list", vault, "--json"])).stdout) as Array<{ rights: Record<string, string> }>;
			expect(listed[0]?.rights.append_to_note).toBe("allow");
			await client.close();
		} finally {
			await serving.stop();
		}
	});
});
