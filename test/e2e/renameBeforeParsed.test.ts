import { promises as fs } from "node:fs";
import * as nodePath from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { runCli, startServe, type ServingCli } from "../helpers/cli";
import { connectClient } from "../helpers/http";
import { callOk } from "../helpers/tools";
import { makeVault, removeDir } from "../helpers/vault";

/**
 * A note over MAX_STARTUP_PARSE_BYTES (1 MiB) of task lines: serve listens before parsing it, and its
 * parse then takes about a second of CPU (more on a loaded machine), so the cache does not know its
 * links for that long. Its first line links to `target`.
 */
function slowNote(target: string): string {
	return `- [ ] see [[${target}]]\n` + "- [ ] t\n".repeat(200_000);
}

describe("rename_note right after serve starts, or right after another program wrote a linking note (built CLI)", () => {
	let vault = "";
	let serving: ServingCli;
	let client: Client;
	beforeAll(async () => {
		vault = await makeVault({ "Plans/Old.md": "# Old\n", "Plans/Second.md": "# Second\n", "Slow.md": slowNote("Old"), "Home.md": "# Home\n" });
		const made = await runCli(["token", "new", vault, "--name", "w", "--level", "write", "--allow", "rename_note", "--json"]);
		const { token } = JSON.parse(made.stdout) as { token: string };
		serving = await startServe([vault, "--port", "0", "--allow-write"], 60_000);
		client = await connectClient(serving.url, token);
	}, 90_000);
	afterAll(async () => {
		await client.close();
		await serving.stop();
		await removeDir(vault);
	});

	test("a note not parsed yet is relinked, and counted: no link to the old path is left", async () => {
		const renamed = await callOk<{ notes_updated: number; links_updated: number }>(client, "rename_note", {
			path: "Plans/Old.md",
			new_path: "Plans/New.md",
		});
		expect(renamed).toMatchObject({ notes_updated: 1, links_updated: 1 });
		const text = await fs.readFile(nodePath.join(vault, "Slow.md"), "utf8");
		expect(text.startsWith("- [ ] see [[New]]\n")).toBe(true);
		expect(text.length).toBe(slowNote("New").length);
	}, 60_000);

	test("a note written on disk, listed but still queued behind a slow parse, is relinked", async () => {
		// Another slow note first, so the cache's queue is busy; then the small note linking to Second.
		await fs.writeFile(nodePath.join(vault, "Slow 2.md"), slowNote("Home"));
		await fs.writeFile(nodePath.join(vault, "Links.md"), "Read [[Second]] first.\n");
		for (;;) {
			const listed = await callOk<{ notes: Array<{ path: string }> }>(client, "list_notes", {});
			if (listed.notes.some((note) => note.path === "Links.md")) break;
			await new Promise((resolve) => setTimeout(resolve, 10));
		}
		const renamed = await callOk<{ notes_updated: number }>(client, "rename_note", { path: "Plans/Second.md", new_path: "Plans/Later.md" });
		expect(renamed.notes_updated).toBe(1);
		expect(await fs.readFile(nodePath.join(vault, "Links.md"), "utf8")).toBe("Read [[Later]] first.\n");
	}, 60_000);
});
