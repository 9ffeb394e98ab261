import { execFileSync, spawn } from "node:child_process";
import { promises as fs } from "node:fs";
import * as nodePath from "node:path";
import { until } from "../helpers/dom";
import { connectClient } from "../helpers/http";
import { startService } from "../helpers/service";
import { callTool } from "../helpers/tools";
import { makeVault, removeDir } from "../helpers/vault";

jest.setTimeout(60_000);

/** How long the pipe waits before another program opens it for writing (which would free a server stuck opening it). */
const WRITER_AFTER_S = 8;

/**
 * Another program renames a named pipe over a note the server has read (`mkfifo`, then `mv`):
 * opening it to read waits for a writer, and the server opened it synchronously, so every client
 * waited with it. Each call must answer at once, and the next call of another note too.
 */
test.each([
	["read_note", { path: "Notes/Plan.md" }, false],
	["append_to_note", { path: "Notes/Plan.md", content: "- two" }, false],
	["set_property", { path: "Notes/Plan.md", name: "status", value: "done" }, false],
	// Watching the disk, the server looks at the changed note on its own, before any call names it.
	["search_notes", { query: "plan" }, true],
])("a note swapped for a named pipe: %s answers at once, and so does the next call", async (tool, args, watch) => {
	const vault = await makeVault({ "Notes/Plan.md": "# Plan\n\n- one\n", "Notes/Other.md": "other\n" });
	const running = await startService(vault, {
		levels: ["write"],
		settings: { writeEnabled: true, writeDisclosureAccepted: true, rateLimitPerMinute: 100_000 },
		host: { watch },
	});
	const client = await connectClient(running.url, running.tokens.write ?? "");
	const note = nodePath.join(vault, "Notes/Plan.md");
	// A writer that comes late, so a server stuck opening the pipe is freed and the test ends either way.
	const writer = spawn("sh", ["-c", `sleep ${WRITER_AFTER_S}; exec 3>"$0"`, note], { stdio: "ignore" });
	try {
		expect((await callTool(client, "read_note", { path: "Notes/Plan.md" })).ok).toBe(true);
		const pipe = nodePath.join(vault, "Notes", ".swap");
		execFileSync("sh", ["-c", 'mkfifo "$0"', pipe]);
		await fs.rename(pipe, note);
		// Watching, the swap is noticed without a call: the pipe is no note any more.
		if (watch) await until(async () => !JSON.stringify(await callTool(client, "list_notes", {})).includes("Plan.md"), 5000);
		const started = Date.now();
		const answer = await callTool(client, tool, args);
		const other = await callTool(client, "read_note", { path: "Notes/Other.md" });
		expect(Date.now() - started).toBeLessThan((WRITER_AFTER_S * 1000) / 2);
		expect(answer.ok).toBe(tool === "search_notes");
		expect(other.ok).toBe(true);
	} finally {
		writer.kill();
		await client.close();
		await running.stop();
		await removeDir(vault);
	}
});
