/**
 * "Always allow" in `serve`'s terminal, end to end in this process: the real `serve` command over a temp vault, its
 * TerminalApprover reading a stream the test types into, its saver writing data.json, and a real MCP client over HTTP.
 * Cost: one serve start over a one-note vault and two appends, about 0.3 s of CPU.
 */
import { promises as fs } from "node:fs";
import * as nodePath from "node:path";
import { PassThrough } from "node:stream";
import { addToken } from "../../src/auth/tokenList";
import { defaultSettings } from "../../src/config/settings";
import type { CliIo } from "../../src/headless/cli/io";
import { serve } from "../../src/headless/cli/serve";
import { settingsStoreOf } from "../../src/headless/cli/vaultSettings";
import { connectClient } from "../helpers/http";
import { callTool } from "../helpers/tools";
import { makeVault, removeDir } from "../helpers/vault";

const settle = () => new Promise((resolve) => setTimeout(resolve, 20));
async function until(condition: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
	for (const started = Date.now(); !condition(); await settle()) {
		if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
	}
}

/**
 * Item 1 of asks171, in the terminal. On the base, "a" printed the second call's question at once, with "[a]lways allow
 * append_to_note", an answer that then saved nothing (the tool was Allow in data.json), and the call waited for the
 * person: serve read its own save only at its next look at the file (about a second later).
 */
test("'a' at serve's terminal: the same token's next call for the tool is written by the new right, not asked", async () => {
	const vault = await makeVault({ "Home.md": "# Home\n" });
	const made = addToken({ ...defaultSettings(), writeEnabled: true, writeDisclosureAccepted: true }, "claude", "write", { append_to_note: "ask" });
	if ("error" in made) throw new Error(made.error);
	await settingsStoreOf(vault).save(made.settings);
	const input = new PassThrough();
	let stdout = "";
	let stderr = "";
	let stop = () => undefined as void;
	const stopped = new Promise<void>((resolve) => (stop = resolve));
	const io: CliIo = {
		stdout: (text) => (stdout += text),
		stderr: (text) => (stderr += text),
		// No descriptor to read typed-ahead input from: only the stream.
		terminal: { input, fd: -1 },
		stopRequested: () => stopped,
	};
	const served = serve([vault, "--port", "0", "--allow-write"], io);
	try {
		await until(() => /listening on (\S+)/.test(stdout), "serve to listen");
		const url = /listening on (\S+)/.exec(stdout)?.[1] ?? "";
		const client = await connectClient(url, made.token);
		const prompts = () => stderr.split("Approve? ").length - 1;
		try {
			const first = callTool(client, "append_to_note", { path: "Home", content: "Pay Bob" });
			await until(() => prompts() === 1, "the first question");
			const second = callTool(client, "append_to_note", { path: "Home", content: "Pay Ann" });
			await until(() => stderr.includes("(1 more waiting for approval)"), "the second call in line");
			input.write("a\n");
			expect((await first).ok).toBe(true);
			const secondDone = second.then(() => "written" as const);
			// The look for a second question ends with the race (left polling, it held jest open for its 20 s bound).
			let raceOver = false;
			const askedAgain = until(() => raceOver || prompts() > 1, "a second question").then(() => (raceOver ? "none" : "asked"));
			const winner = await Promise.race([secondDone, askedAgain.catch(() => "none" as const)]);
			raceOver = true;
			expect(winner).toBe("written");
			expect((await second).ok).toBe(true);
			expect(prompts()).toBe(1);
			// In the order sent (review173: the saved right released the second before the first was written, "Pay Ann" first).
			expect(await fs.readFile(nodePath.join(vault, "Home.md"), "utf8")).toBe("# Home\n\nPay Bob\n\nPay Ann\n");
			expect((await settingsStoreOf(vault).read()).settings.tokens[0]?.rights?.append_to_note).toBe("allow");
		} finally {
			await client.close();
		}
	} finally {
		stop();
		input.end();
		expect(await served).toBe(0);
		await removeDir(vault);
	}
});
