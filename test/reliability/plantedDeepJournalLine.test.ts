import { promises as fs } from "node:fs";
import * as nodePath from "node:path";
import { JournalFile, journalPathFor } from "../../src/journal/JournalFile";
import { hashText } from "../../src/vault/writes";
import { connectClient } from "../helpers/http";
import { startService } from "../helpers/service";
import { callOk } from "../helpers/tools";
import { makeVault, removeDir } from "../helpers/vault";

/**
 * The journal is a file another program can write. A record line over one read piece is parsed in
 * pieces; one whose extra key holds lists nested 100,000 deep (JSON.parse reads it, and the record
 * drops the key) overflowed the stack as its long texts were put back. The plugin's journal (read in
 * pieces, as here) then never finished reading in, and every write call failed; nothing may be lost
 * of the record either, as the whole-line parse keeps it.
 */
test("a planted journal line nested 100,000 lists deep neither stops writes nor loses the record it holds", async () => {
	const vault = await makeVault({ "Notes/Plan.md": "# Plan\n\n- one\n" });
	const path = journalPathFor(vault, ".obsidian");
	await fs.mkdir(nodePath.dirname(path), { recursive: true });
	const before = `# Earlier\n\n${"- a line\n".repeat(10_000)}`;
	const record = {
		kind: "change",
		id: "c0ffee000001",
		time: "2026-12-04T21:00:00.000Z",
		tokenName: "laptop",
		tool: "append_to_note",
		path: "Notes/Earlier.md",
		before,
		beforeHash: hashText(before),
		after: `${before}- two\n`,
		afterHash: hashText(`${before}- two\n`),
	};
	const nested = `${"[".repeat(100_000)}${"]".repeat(100_000)}`;
	await fs.writeFile(path, `${JSON.stringify(record).slice(0, -1)},"extra":${nested}}\n`);
	const journal = JournalFile.forVault(vault, ".obsidian", { readInPieces: true });
	const running = await startService(vault, {
		levels: ["write"],
		settings: { writeEnabled: true, writeDisclosureAccepted: true, rateLimitPerMinute: 100_000 },
		journal,
	});
	try {
		const writer = await connectClient(running.url, running.tokens.write ?? "");
		await callOk(writer, "append_to_note", { path: "Notes/Plan.md", content: "- two\n" });
		expect(await fs.readFile(nodePath.join(vault, "Notes/Plan.md"), "utf8")).toBe("# Plan\n\n- one\n- two\n");
		await writer.close();
		// The planted line's record is read as the whole-line parse reads it, and the write's own is after it.
		await journal.catchUp();
		const calls = journal.list(10);
		expect(calls.map((call) => call.id)).toContain("c0ffee000001");
		expect(calls).toHaveLength(2);
	} finally {
		await running.stop();
		await removeDir(vault);
	}
});
