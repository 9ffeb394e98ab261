/**
 * A write's answer waits (WRITTEN_NOTES_PARSED_WAIT_MS at most) until the headless cache has parsed
 * what it wrote, so a read right after it sees the new links. The cache applies the vault's changes
 * one at a time, in order: when another note's parse is ahead of the write's (a note of 400,000
 * list items an outside program saved: 2.4–6.3 s of parse at a load of 17), every write of every
 * token waits the full bound (1,061–1,202 ms where 71–210 ms before) and the read after it is still
 * answered from the note's old metadata, with nothing saying that note is being read again (4 of 4
 * appends, at 200,000 and 400,000 items). Here the other note's parse is held by a hook on the
 * cache's read of it, so the order is not left to the machine's speed. Real SDK client over real
 * HTTP, a real temp vault watched for outside changes.
 */
import { writeFileSync } from "node:fs";
import * as nodePath from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { HostFile } from "../../src/host/Host";
import { connectClient } from "../helpers/http";
import { settingsWithWriteTokens, startService, type RunningService } from "../helpers/service";
import { callOk } from "../helpers/tools";
import { makeVault, removeDir } from "../helpers/vault";

describe("a write queued behind another note's parse", () => {
	let vault: string;
	let running: RunningService;
	let client: Client;

	beforeEach(async () => {
		vault = await makeVault({ "Mine.md": "# Mine\n", "Planted.md": "# Planted\n" });
		const { settings, tokens } = settingsWithWriteTokens(["writer"]);
		running = await startService(vault, { levels: [], settings, host: { watch: true } });
		await running.host.metadataCache.settled();
		client = await connectClient(running.url, tokens[0] ?? "");
	});
	afterEach(async () => {
		await client.close();
		await running.stop();
		await removeDir(vault);
	});

	test("get_note_links right after append_to_note names the appended link, or names the note as still being read", async () => {
		// Another program saves a big note; the cache's read of it (before its parse) is held until the end.
		const vaultFiles = running.host.vault;
		const cachedRead = vaultFiles.cachedRead.bind(vaultFiles);
		let release!: () => void;
		const released = new Promise<void>((resolve) => (release = resolve));
		let held = 0;
		let heldNow!: () => void;
		const heldOnce = new Promise<void>((resolve) => (heldNow = resolve));
		vaultFiles.cachedRead = async (file: HostFile) => {
			const text = await cachedRead(file);
			if (file.path === "Big.md") {
				held++;
				heldNow();
				await released;
			}
			return text;
		};
		try {
			writeFileSync(nodePath.join(vault, "Big.md"), "- item #t\n".repeat(1000));
			await heldOnce;
			await callOk(client, "append_to_note", { path: "Mine.md", content: "See [[Planted]].\n" });
			const mine = await callOk<{ outgoing: Array<{ target: string | null }>; still_being_read?: string[] }>(client, "get_note_links", {
				path: "Mine.md",
			});
			expect(held).toBe(1);
			const seen = mine.outgoing.some((link) => link.target === "Planted.md") || (mine.still_being_read ?? []).includes("Mine.md");
			expect({ outgoing: mine.outgoing, still_being_read: mine.still_being_read, seen }).toEqual(expect.objectContaining({ seen: true }));
		} finally {
			release();
		}
	});
});
