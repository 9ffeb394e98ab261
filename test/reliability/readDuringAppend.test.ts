import { promises as fs } from "node:fs";
import * as nodePath from "node:path";
import { eventLoopTurns } from "../../src/turns";
import { connectClient } from "../helpers/http";
import { startService } from "../helpers/service";
import { callOk } from "../helpers/tools";
import { makeVault, removeDir } from "../helpers/vault";

/**
 * A note over 256 KiB that another program changed is read back from disk and decoded a piece per
 * lane turn. An append that the server makes and confirms while that decode is under way must
 * still be in every later read: the decode's text (from before the append) must not be kept as
 * the note's text in memory.
 */
test("read_note: an append confirmed while a megabyte note is being decoded is in the next read", async () => {
	// 2-, 3- and 4-byte characters, so the decode's pieces are cut inside lines.
	const line = "é€😀 daily line of the plan\n";
	const body = `# Big\n\n${line.repeat(Math.ceil((400 * 1024) / Buffer.byteLength(line)))}`;
	const vault = await makeVault({ "Notes/Big.md": body });
	const note = nodePath.join(vault, "Notes/Big.md");
	const running = await startService(vault, { levels: ["write"], settings: { writeEnabled: true, writeDisclosureAccepted: true } });
	const client = await connectClient(running.url, running.tokens.write ?? "");
	const take = eventLoopTurns.take;
	try {
		await callOk(client, "read_note", { path: "Notes/Big.md" });
		// Another program's edit: the text in memory no longer matches the disk, so the next read decodes the file.
		await fs.appendFile(note, "outside line\n");
		let appended: Promise<unknown> | null = null;
		const spy = jest.spyOn(eventLoopTurns, "take").mockImplementation(() => {
			if (appended === null && new Error().stack?.includes("decodeInPieces")) {
				// While the read decodes its bytes, the server appends to the note and confirms it.
				appended = callOk(client, "append_to_note", { path: "Notes/Big.md", content: "- appended while read" });
				return appended.then(() => take());
			}
			return take();
		});
		try {
			const first = await callOk<{ content: string }>(client, "read_note", { path: "Notes/Big.md" });
			expect(appended).not.toBeNull();
			expect(first.content).toContain("outside line");
		} finally {
			spy.mockRestore();
		}
		const onDisk = await fs.readFile(note, "utf8");
		expect(onDisk.endsWith("outside line\n\n- appended while read\n")).toBe(true);
		const next = await callOk<{ content: string; truncated: boolean }>(client, "read_note", { path: "Notes/Big.md" });
		expect(next.truncated).toBe(false);
		expect(next.content.endsWith("outside line\n\n- appended while read\n")).toBe(true);
	} finally {
		await client.close();
		await running.stop();
		await removeDir(vault);
	}
});

/**
 * A megabyte note is written and read back 64K at a time (characters when written, bytes when
 * decoded). A surrogate pair, or a character's bytes, across every such cut must come back whole:
 * read_note, its hash and search show the very text that was created.
 */
test("create_note, read_note and search_notes: characters across the 64K cuts come back whole", async () => {
	const vault = await makeVault({ "Notes/Seed.md": "# Seed\n" });
	const running = await startService(vault, { levels: ["write"], settings: { writeEnabled: true, writeDisclosureAccepted: true } });
	const client = await connectClient(running.url, running.tokens.write ?? "");
	try {
		// Pairs and 3-byte characters placed so that one straddles each 64K-character cut, and each 64 KiB byte cut.
		let content = "# Cuts\n\n";
		// The filler is 2- and 3-byte characters, so most of the decode's byte cuts fall inside one.
		while (content.length < 300_000) {
			const toCut = 65_536 - (content.length % 65_536);
			content += "é€".repeat((toCut - 1) >> 1) + "x".repeat((toCut - 1) & 1);
			content += "😀zebrafinch€ \n";
		}
		const created = await callOk<{ hash: string }>(client, "create_note", { path: "Notes/Cuts.md", content });
		expect(await fs.readFile(nodePath.join(vault, "Notes/Cuts.md"), "utf8")).toBe(content);
		// Another program touches it, so it is read back from disk.
		await fs.appendFile(nodePath.join(vault, "Notes/Cuts.md"), "");
		await fs.utimes(nodePath.join(vault, "Notes/Cuts.md"), new Date(), new Date(Date.now() + 5000));
		// read_note cuts its answer (truncated: true) but hashes the whole note.
		const read = await callOk<{ content: string; hash: string }>(client, "read_note", { path: "Notes/Cuts.md" });
		expect(read.content.length).toBeGreaterThan(131_072);
		expect(content.startsWith(read.content)).toBe(true);
		expect(read.hash).toBe(created.hash);
		const found = await callOk<{ results: Array<{ path: string }> }>(client, "search_notes", { query: "😀zebrafinch€" });
		expect(found.results.map((result) => result.path)).toContain("Notes/Cuts.md");
	} finally {
		await client.close();
		await running.stop();
		await removeDir(vault);
	}
});
