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
		vault = await makeVault({ "Mine.md": "# Mine\n", "Planted.md": "# Planted\n", "Linking.md": "See [[Mine]].\n" });
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

	/** Has another program save Big.md, whose read by the cache (before its parse) is held until `release` is called; resolves once held. */
	async function bigNoteHeld(): Promise<{ release: () => void; held: () => number }> {
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
		writeFileSync(nodePath.join(vault, "Big.md"), "- item #t\n".repeat(1000));
		await heldOnce;
		return { release, held: () => held };
	}

	test("get_note_links right after rename_note names the renamed note's links and backlinks at its new path, not as still being read", async () => {
		await callOk(client, "append_to_note", { path: "Mine.md", content: "See [[Planted]].\n" });
		const big = await bigNoteHeld();
		try {
			// Its rename is queued behind Big.md's parse: it ran only after it, so the answer waited the full second and the read
			// after it found no metadata at the new path (nothing of its links, and the note named as still being read).
			await callOk(client, "rename_note", { path: "Mine.md", new_path: "Renamed.md" });
			const renamed = await callOk<{ outgoing: Array<{ target: string | null }>; backlinks: Array<{ path: string }>; still_being_read?: string[] }>(
				client,
				"get_note_links",
				{ path: "Renamed.md" },
			);
			expect({
				outgoing: renamed.outgoing.map((link) => link.target),
				backlinks: renamed.backlinks.map((link) => link.path),
				renamedStillBeingRead: (renamed.still_being_read ?? []).includes("Renamed.md"),
				held: big.held(),
			}).toEqual({ outgoing: ["Planted.md"], backlinks: ["Linking.md"], renamedStillBeingRead: false, held: 1 });
		} finally {
			big.release();
		}
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
