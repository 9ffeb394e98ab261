import { promises as fs, appendFileSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import * as nodePath from "node:path";
import { JOURNAL_READ_PIECE_BYTES } from "../../src/config/limits";
import { JournalFile, journalPathFor } from "../../src/journal/JournalFile";
import { lineBytes, type JournalLine } from "../../src/journal/journalLines";
import { eventLoopTurns } from "../../src/turns";
import { hashText } from "../../src/vault/writes";
import { connectClient } from "../helpers/http";
import { startService } from "../helpers/service";
import { callOk } from "../helpers/tools";
import { makeVault, removeDir } from "../helpers/vault";
import { countWorkPerPiece, type WorkPieces } from "../helpers/workPieces";

/** Another process's records: `count` calls, each one change of a 40 KB note. */
function othersLines(count: number): Buffer {
	const before = `# Other\n\n${"- a line another client wrote, with é and 😀\n".repeat(900)}`;
	return lineBytes(
		Array.from({ length: count }, (_, n): JournalLine => {
			const after = `${before}- more ${n}\n`;
			const id = `other${n}`;
			return {
				kind: "change",
				id,
				time: "2026-12-01T00:30:00.000Z",
				tokenName: "other",
				tool: "append_to_note",
				path: `Other${n}.md`,
				before,
				beforeHash: hashText(before),
				after,
				afterHash: hashText(after),
			};
		}),
	);
}

/**
 * Another process (the CLI's trim, a second server on the same vault) replaces the write journal in
 * the instant after a write call's record caught up with it and before the record is appended. The
 * append went on, over real HTTP: it read the whole new journal in (tens of megabytes of note
 * texts) in one synchronous piece, holding every other client (and, in Obsidian, the UI).
 */
test("a write whose journal another process replaces just before its record is appended answers without reading the journal in one piece", async () => {
	const vault = await makeVault({ "Notes/Plan.md": "# Plan\n\n- one\n", "Other.md": "# Other\n" });
	const running = await startService(vault, {
		levels: ["write", "read"],
		settings: { writeEnabled: true, writeDisclosureAccepted: true, rateLimitPerMinute: 100_000 },
	});
	const writer = await connectClient(running.url, running.tokens.write ?? "");
	const reader = await connectClient(running.url, running.tokens.read ?? "");
	const journal = running.journal as JournalFile;
	const path = journalPathFor(vault, ".obsidian");
	const others = othersLines(30);
	const longestLine = others.indexOf(0x0a) + 1;
	let armed = false;
	// eslint-disable-next-line @typescript-eslint/unbound-method -- called below with the journal as `this`
	const catchUp = JournalFile.prototype.catchUp;
	const catching = jest.spyOn(JournalFile.prototype, "catchUp").mockImplementation(async function (this: JournalFile) {
		await catchUp.call(this);
		if (armed) {
			armed = false;
			// The other process's file keeps what it read of ours, after its own calls.
			writeFileSync(`${path}.other`, Buffer.concat([others, readFileSync(path)]));
			renameSync(`${path}.other`, path);
		}
	});
	// Characters of journal lines given to JSON.parse between two turns of the event loop.
	const perPiece = [0];
	const parse = JSON.parse;
	const parsing = jest.spyOn(JSON, "parse").mockImplementation((json: string, reviver?: Parameters<typeof JSON.parse>[1]) => {
		if (json.startsWith('{"kind":')) perPiece[perPiece.length - 1] = (perPiece.at(-1) ?? 0) + json.length;
		return parse(json, reviver) as unknown;
	});
	const take = eventLoopTurns.take;
	const turns = jest.spyOn(eventLoopTurns, "take").mockImplementation(() => {
		perPiece.push(0);
		return take();
	});
	try {
		await callOk(writer, "append_to_note", { path: "Notes/Plan.md", content: "- two\n" });
		armed = true;
		const written = callOk(writer, "append_to_note", { path: "Notes/Plan.md", content: "- three\n" });
		// Another client is answered meanwhile.
		expect(await callOk<{ content: string }>(reader, "read_note", { path: "Other.md" })).toMatchObject({ content: "# Other\n" });
		await written;
		expect(armed).toBe(false);
		await callOk(writer, "append_to_note", { path: "Notes/Plan.md", content: "- four\n" });
		await journal.catchUp();
	} finally {
		turns.mockRestore();
		parsing.mockRestore();
		catching.mockRestore();
	}
	try {
		// Before: the whole new journal (1.2 MB) in one piece.
		expect(Math.max(...perPiece)).toBeLessThan(JOURNAL_READ_PIECE_BYTES + 2 * longestLine);
		expect(await fs.readFile(nodePath.join(vault, "Notes/Plan.md"), "utf8")).toBe("# Plan\n\n- one\n- two\n- three\n- four\n");
		// Nothing lost: the other process's calls and the server's three, in the order the file holds them.
		const listed = journal.list();
		expect(listed).toHaveLength(33);
		expect(listed.slice(0, 3).map((entry) => entry.changes[0]?.after)).toEqual([
			"# Plan\n\n- one\n- two\n- three\n- four\n",
			"# Plan\n\n- one\n- two\n- three\n",
			"# Plan\n\n- one\n- two\n",
		]);
		expect(JournalFile.open(path).list()).toEqual(listed);
	} finally {
		await writer.close();
		await reader.close();
		await running.stop();
		await removeDir(vault);
	}
});

/**
 * Another process (the CLI's undo, a second server) records changes of the largest notes the tools
 * edit (1 MiB each), then a write call over HTTP finds them: they are read in a piece at a time. One
 * such line, over 2 million characters, was parsed in one piece (20–60 ms, more on a busy machine).
 */
test("changes of 1 MiB notes another process added to the journal are read in by the server without parsing a line in one piece; nothing lost, in order", async () => {
	const big = (n: number) => `# Big ${n}\n\n${'- a line another client wrote, with "quotes", é and 😀\n'.repeat(20_000)}`.slice(0, 1024 * 1024);
	const vault = await makeVault({ "Notes/Plan.md": "# Plan\n\n- one\n", "Other.md": "# Other\n" });
	const running = await startService(vault, {
		levels: ["write", "read"],
		settings: { writeEnabled: true, writeDisclosureAccepted: true, rateLimitPerMinute: 100_000 },
	});
	const writer = await connectClient(running.url, running.tokens.write ?? "");
	const reader = await connectClient(running.url, running.tokens.read ?? "");
	const journal = running.journal as JournalFile;
	const path = journalPathFor(vault, ".obsidian");
	const others = Array.from({ length: 3 }, (_, n): JournalLine => {
		const before = big(n);
		const after = `${before}- more\n`;
		return {
			kind: "change",
			id: `big${n}`,
			time: "2026-12-04T21:00:00.000Z",
			tokenName: "other",
			tool: "append_to_note",
			path: `Big${n}.md`,
			before,
			beforeHash: hashText(before),
			after,
			afterHash: hashText(after),
		};
	});
	let pieces: WorkPieces | undefined;
	let parsing: jest.SpyInstance | undefined;
	try {
		await callOk(writer, "append_to_note", { path: "Notes/Plan.md", content: "- two\n" });
		appendFileSync(path, lineBytes(others));
		// Characters given to JSON.parse between two turns of the event loop, from here on (the slice clock always due).
		pieces = countWorkPerPiece();
		const counted = pieces;
		const parse = JSON.parse;
		parsing = jest.spyOn(JSON, "parse").mockImplementation((json: string, reviver?: Parameters<typeof JSON.parse>[1]) => {
			counted.count(json.length);
			return parse(json, reviver) as unknown;
		});
		const written = callOk(writer, "append_to_note", { path: "Notes/Plan.md", content: "- three\n" });
		// Another client is answered meanwhile.
		expect(await callOk<{ content: string }>(reader, "read_note", { path: "Other.md" })).toMatchObject({ content: "# Other\n" });
		await written;
		await journal.catchUp();
	} finally {
		parsing?.mockRestore();
		pieces?.restore();
	}
	const perPiece = pieces?.perPiece ?? [];
	try {
		// Before: each other process's line, over 2 million characters, in one piece.
		expect(lineBytes(others.slice(0, 1)).length).toBeGreaterThan(2_000_000);
		expect(Math.max(...perPiece)).toBeLessThan(3 * JOURNAL_READ_PIECE_BYTES);
		expect(await fs.readFile(nodePath.join(vault, "Notes/Plan.md"), "utf8")).toBe("# Plan\n\n- one\n- two\n- three\n");
		// Nothing lost, in file order: the server's first call, the other process's three, the server's second.
		const listed = journal.list();
		expect(listed.map((entry) => entry.id).slice(1, 4)).toEqual(["big2", "big1", "big0"]);
		expect(listed).toHaveLength(5);
		expect(listed[2]?.changes).toEqual([
			{ path: "Big1.md", before: big(1), beforeHash: hashText(big(1)), after: `${big(1)}- more\n`, afterHash: hashText(`${big(1)}- more\n`) },
		]);
		expect(JournalFile.open(path).list()).toEqual(listed);
	} finally {
		await writer.close();
		await reader.close();
		await running.stop();
		await removeDir(vault);
	}
});
