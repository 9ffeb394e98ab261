/**
 * The terminal of `serve` as a person uses it, on a real pseudo-terminal (util-linux `script`),
 * with the built CLI: a paste answers at most the question on screen, and nothing a note, a file
 * name or a token carries can move the cursor, recolour or reorder what the terminal shows.
 */
import { promises as fs } from "node:fs";
import * as nodePath from "node:path";
import { runCli, startServe } from "../helpers/cli";
import { connectClient } from "../helpers/http";
import { startServeInTerminal, waitForOutput } from "../helpers/terminal";
import { callTool } from "../helpers/tools";
import { makeTempDir, makeVault, removeDir } from "../helpers/vault";

/** Anything a terminal acts on instead of drawing, bar the line breaks and tabs the CLI itself writes (and the pty's own CR before LF). */
// eslint-disable-next-line no-control-regex -- these are exactly what must not reach the terminal
const RAW_ACTING = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2028\u2029\u2066-\u2069\ufeff]|\r(?!\n)/u;
const HOSTILE = "ok\u001b[2K\u001b[1Agone\u202eevil\u2028next\u200bhidden";

async function newToken(vault: string, args: string[]): Promise<string> {
	const made = await runCli(["token", "new", vault, "--json", ...args]);
	if (made.code !== 0) throw new Error(made.stderr);
	return (JSON.parse(made.stdout) as { token: string }).token;
}

describe("the terminal of serve, on a real pseudo-terminal", () => {
	let vault: string;
	beforeEach(async () => {
		vault = await makeVault({ "Home.md": "# Home\n" });
	});
	afterEach(async () => removeDir(vault));

	test("a pasted y⏎y⏎ approves only the question on screen: the next call's question is not answered by it; what the note would get is shown escaped", async () => {
		const token = await newToken(vault, ["--name", "app", "--level", "write", "--ask", "append_to_note"]);
		const serving = await startServeInTerminal(vault);
		const home = nodePath.join(vault, "Home.md");
		try {
			const client = await connectClient(serving.url, token);
			const first = callTool(client, "append_to_note", { path: "Home", content: "First, approved" });
			await waitForOutput(() => serving.output(), "Approve?");
			const second = callTool(client, "append_to_note", { path: "Home", content: `Second ${HOSTILE}` });
			await waitForOutput(() => serving.output(), "more waiting for approval");
			serving.type("y\ny\n");
			expect((await first).ok).toBe(true);
			await waitForOutput(() => serving.output(), "Approve?", 2);
			// Long enough for the second pasted line to have been read, if it were going to count.
			await new Promise((resolve) => setTimeout(resolve, 1_000));
			let settled = false;
			void second.then(() => (settled = true));
			await new Promise((resolve) => setImmediate(resolve));
			expect(settled).toBe(false);
			expect(await fs.readFile(home, "utf8")).not.toContain("Second");
			expect(serving.output()).toContain("does not count");
			// The question shows the hostile text as codes; none of it reached the terminal raw.
			expect(serving.output()).toContain("+ Second ok\\x1b[2K\\x1b[1Agone\\u{202e}evil\\u{2028}next\\u{200b}hidden");
			expect(serving.output()).not.toMatch(RAW_ACTING);
			serving.type("n\n");
			expect(await second).toEqual({ ok: false, error: expect.stringContaining("declined") });
			const text = await fs.readFile(home, "utf8");
			expect(text).toContain("First, approved");
			expect(text).not.toContain("Second");
			await client.close();
		} finally {
			await serving.stop();
		}
	}, 60_000);

	test("a change longer than the terminal shows at once is approved only paged to its end or by typing how many lines were not shown; y alone writes nothing", async () => {
		const token = await newToken(vault, ["--name", "app", "--level", "write", "--ask", "create_note"]);
		const serving = await startServeInTerminal(vault);
		try {
			const client = await connectClient(serving.url, token);
			const lines = Array.from({ length: 300 }, (_, index) => `Line ${index + 1}`);
			const created = callTool(client, "create_note", { path: "Long.md", content: `${lines.join("\n")}\n` });
			await waitForOutput(() => serving.output(), "Approve?");
			const unseen = Number(/… (\d+) more lines of this change/.exec(serving.output())?.[1]);
			expect(unseen).toBeGreaterThan(200);
			serving.type("y\n");
			await waitForOutput(() => serving.output(), `to approve them unseen, type ${unseen}`);
			await new Promise((resolve) => setTimeout(resolve, 500));
			await expect(fs.access(nodePath.join(vault, "Long.md"))).rejects.toThrow();
			serving.type(`${unseen}\n`);
			expect((await created).ok).toBe(true);
			expect(await fs.readFile(nodePath.join(vault, "Long.md"), "utf8")).toBe(`${lines.join("\n")}\n`);
			await client.close();
		} finally {
			await serving.stop();
		}
	}, 60_000);

	test("serve's warning about a hidden symbolic link, history and undo print file and token names with their control characters as codes", async () => {
		const outside = await makeTempDir("vault-mcp-outside-");
		try {
			const linkName = "link\u001b[31m\u202e.md";
			await fs.writeFile(nodePath.join(outside, "target.md"), "outside\n");
			await fs.symlink(nodePath.join(outside, "target.md"), nodePath.join(vault, linkName));
			const noteName = "Plan\u202etxt.md";
			const token = await newToken(vault, ["--name", "app", "--level", "write", "--allow-all-writes"]);
			const serving = await startServe([vault, "--port", "0", "--allow-write"]);
			try {
				expect(serving.stderr()).toContain("link\\x1b[31m\\u{202e}.md");
				expect(serving.stderr()).not.toMatch(RAW_ACTING);
				const client = await connectClient(serving.url, token);
				const created = await callTool(client, "create_note", { path: noteName, content: `text ${HOSTILE}\n` });
				expect(created.ok).toBe(true);
				await client.close();
			} finally {
				await serving.stop();
			}
			const history = await runCli(["history", vault]);
			expect(history.code).toBe(0);
			expect(history.stdout).toContain("Plan\\u{202e}txt.md");
			expect(history.stdout).not.toMatch(RAW_ACTING);
			const id = history.stdout.split("\t")[0] ?? "";
			const undone = await runCli(["undo", vault, id]);
			expect(undone.code).toBe(0);
			expect(undone.stdout).toContain("Plan\\u{202e}txt.md");
			expect(undone.stdout + undone.stderr).not.toMatch(RAW_ACTING);
		} finally {
			await removeDir(outside);
		}
	}, 60_000);
});
