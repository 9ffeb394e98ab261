/**
 * A client that writes a note and then reads its links is answered from what it wrote: the write's
 * answer comes once the metadata cache has parsed the written text (headless). The parse runs in
 * slices after the write, and a read coming between two of them was answered from the note's old
 * metadata: after appending a link to a note of 50 hostile tag lines, `get_note_links` named none
 * (2 of 8 runs at a load of 20; a note whose parse takes more slices, every time). Here the parse of
 * the written text is held by a hook on the cache's read of it, so the order is not left to the
 * machine's speed. The real SDK client over real HTTP, a real temp vault.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { HostFile } from "../../src/host/Host";
import { WRITTEN_NOTES_PARSED_WAIT_MS } from "../../src/config/limits";
import { connectClient } from "../helpers/http";
import { startService, type RunningService } from "../helpers/service";
import { callOk } from "../helpers/tools";
import { makeVault, removeDir } from "../helpers/vault";

/** Within the bound the write waits for its parse: a write that answered meanwhile did not wait for it. */
const HELD_MS = Math.min(300, WRITTEN_NOTES_PARSED_WAIT_MS / 3);

interface HeldParse {
	/** How many reads of the text holding `marker` were held. */
	held: () => number;
	release: () => void;
}

/**
 * Holds every read of `path` whose text holds `marker` (the cache's read of it before its parse)
 * until `release`: the written text is on disk and in memory, its metadata not made yet.
 */
function holdParse(running: RunningService, path: string, marker: string): HeldParse {
	const vault = running.host.vault;
	const cachedRead = vault.cachedRead.bind(vault);
	let release!: () => void;
	const released = new Promise<void>((resolve) => (release = resolve));
	let held = 0;
	vault.cachedRead = async (file: HostFile) => {
		const text = await cachedRead(file);
		if (file.path === path && text.includes(marker)) {
			held++;
			await released;
		}
		return text;
	};
	return { held: () => held, release };
}

describe("reads after the client's own write", () => {
	let vault: string;
	let running: RunningService;
	let client: Client;

	beforeEach(async () => {
		vault = await makeVault({ "Hub.md": "# Hub\n", "Planted.md": "# Planted\n" });
		running = await startService(vault, {
			levels: ["write"],
			settings: { writeEnabled: true },
			rights: { write: { append_to_note: "allow", rename_note: "allow" } },
		});
		await running.host.metadataCache.settled();
		client = await connectClient(running.url, running.tokens.write ?? "");
	});
	afterEach(async () => {
		await client.close();
		await running.stop();
		await removeDir(vault);
	});

	test("get_note_links after append_to_note names the appended link, and the linked note's backlinks name the note (they were the old ones while the parse ran)", async () => {
		const parse = holdParse(running, "Hub.md", "[[Planted]]");
		// Let go in a while in case the write waits for it; a write that answers first is read while it is still held.
		const timer = setTimeout(parse.release, HELD_MS);
		try {
			await callOk(client, "append_to_note", { path: "Hub.md", content: "See [[Planted]].\n" });
			const hub = await callOk<{ outgoing: Array<{ target: string | null }> }>(client, "get_note_links", { path: "Hub.md" });
			const planted = await callOk<{ backlinks: Array<{ path: string }> }>(client, "get_note_links", { path: "Planted.md" });
			expect(parse.held()).toBe(1);
			expect(hub.outgoing.map((link) => link.target)).toEqual(["Planted.md"]);
			expect(planted.backlinks.map((link) => link.path)).toEqual(["Hub.md"]);
		} finally {
			clearTimeout(timer);
			parse.release();
		}
	});

	test("search_notes, find_notes_by_tag and list_tasks after append_to_note find what was appended (none did while the parse ran)", async () => {
		const parse = holdParse(running, "Hub.md", "zebraquux");
		const timer = setTimeout(parse.release, HELD_MS);
		try {
			await callOk(client, "append_to_note", { path: "Hub.md", content: "- [ ] zebraquux #freshtag\n" });
			const search = await callOk<{ results: Array<{ path: string }> }>(client, "search_notes", { query: "zebraquux" });
			const tagged = await callOk<{ notes: string[] }>(client, "find_notes_by_tag", { tag: "freshtag" });
			const tasks = await callOk<{ tasks: Array<{ path: string; text: string }> }>(client, "list_tasks", { path: "Hub.md" });
			// Read again by search_notes' snippets and list_tasks: held only until the release.
			expect(parse.held()).toBeGreaterThanOrEqual(1);
			expect(search.results.map((hit) => hit.path)).toEqual(["Hub.md"]);
			expect(tagged.notes).toEqual(["Hub.md"]);
			expect(tasks.tasks.map((task) => task.text)).toEqual([expect.stringContaining("zebraquux")]);
		} finally {
			clearTimeout(timer);
			parse.release();
		}
	});

	test("get_note_links after rename_note lists the relinked note as a backlink of the new path", async () => {
		await callOk(client, "append_to_note", { path: "Hub.md", content: "See [[Planted]].\n" });
		await running.host.metadataCache.settled();
		const parse = holdParse(running, "Hub.md", "[[Grown]]");
		const timer = setTimeout(parse.release, HELD_MS);
		try {
			await callOk(client, "rename_note", { path: "Planted.md", new_path: "Grown.md" });
			const grown = await callOk<{ backlinks: Array<{ path: string }> }>(client, "get_note_links", { path: "Grown.md" });
			expect(parse.held()).toBe(1);
			expect(grown.backlinks.map((link) => link.path)).toEqual(["Hub.md"]);
		} finally {
			clearTimeout(timer);
			parse.release();
		}
	});

	test("a write whose parse is held past the bound still answers, and its text is written", async () => {
		const parse = holdParse(running, "Hub.md", "[[Planted]]");
		try {
			const answer = await callOk<{ path: string }>(client, "append_to_note", { path: "Hub.md", content: "See [[Planted]].\n" });
			expect(answer.path).toBe("Hub.md");
			expect(parse.held()).toBe(1);
		} finally {
			parse.release();
		}
		await running.host.metadataCache.settled();
		const hub = await callOk<{ outgoing: Array<{ target: string | null }> }>(client, "get_note_links", { path: "Hub.md" });
		expect(hub.outgoing.map((link) => link.target)).toEqual(["Planted.md"]);
	});
});
