import { promises as fs, writeFileSync } from "node:fs";
import * as nodePath from "node:path";
import { JOURNAL_READ_PIECE_BYTES, MAX_JOURNAL_ENTRIES } from "../../../../src/config/limits";
import { history } from "../../../../src/headless/cli/history";
import { JournalFile, journalPathFor } from "../../../../src/journal/JournalFile";
import { lineBytes, type JournalLine } from "../../../../src/journal/journalLines";
import { appendRecorded, readSizes, runCommand, type CommandOutput } from "../../../helpers/cliCommand";
import { makeVault, removeDir } from "../../../helpers/vault";

function change(id: string, path: string, before: string | null, after: string): JournalLine {
	return appendRecorded(id, path, before, after, `2026-12-05T00:${id.slice(-2).padStart(2, "0")}:00.000Z`);
}

/** What `history` prints, and the warnings it gives. */
function run(args: string[]): Promise<CommandOutput> {
	return runCommand(history, args);
}

describe("vault-mcp history", () => {
	let root: string;
	let journalPath: string;

	beforeEach(async () => {
		root = await makeVault({ "Plain.md": "one\n" });
		journalPath = journalPathFor(root, ".obsidian");
		await fs.mkdir(nodePath.dirname(journalPath), { recursive: true });
		const note = (n: number) => `# Note ${n}\n${"- a line of the plan, with 😀 and é\n".repeat(1_000)}`;
		const big = `# Big\n${"- a line of a long note, é 😀\n".repeat(40_000)}`;
		const lines: JournalLine[] = [
			...Array.from({ length: 30 }, (_, n) => change(`call${String(n).padStart(2, "0")}`, `Notes/${n}.md`, note(n), `${note(n)}- more\n`)),
			// A 1 MiB note's change: a line far longer than one piece read.
			change("big-call31", "Big.md", null, big),
			{ kind: "undone", id: "call03", time: "2026-12-05T01:00:00.000Z", by: "undo1" },
			{ kind: "drop", id: "call05", path: "Notes/5.md" },
		];
		// Last, another process's line still being written (no line end yet).
		writeFileSync(journalPath, Buffer.concat([lineBytes(lines), Buffer.from('{"kind":"change","id":"cut')]));
	});

	afterEach(async () => {
		jest.restoreAllMocks();
		await removeDir(root);
	});

	test("reads a journal of 3.7 MB a piece at a time, holding one line, and prints what the whole read printed, leaving the file as it was", async () => {
		const before = await fs.readFile(journalPath);
		expect(before.length).toBeGreaterThan(2_000_000);
		// Bytes of the journal each read took.
		const { result: outputs, reads } = await readSizes(async () => [await run([root]), await run([root, "--json", "--limit", "40"])] as const);
		const [listed, json] = outputs;
		// Before: the whole file in one read (and every note text in it kept in memory).
		expect(Math.max(...reads)).toBeLessThanOrEqual(JOURNAL_READ_PIECE_BYTES);
		expect((await fs.readFile(journalPath)).equals(before)).toBe(true);

		// The same commands over the whole read (what history did before): the same output, byte for byte.
		jest.spyOn(JournalFile, "listWithoutTexts").mockReturnValue(null);
		expect(await run([root])).toEqual(listed);
		expect(await run([root, "--json", "--limit", "40"])).toEqual(json);
		expect(listed.code).toBe(0);
		expect(listed.stdout.split("\n").filter(Boolean)).toHaveLength(20);
		expect(listed.stdout.split("\n")[0]).toMatch(/^big-call31\t.*\tBig\.md$/);
		expect(listed.stderr).toContain("1 damaged line was skipped");
		const calls = JSON.parse(json.stdout) as Array<{ id: string; undone: unknown; changes: unknown[] }>;
		expect(calls.map((call) => call.id)).toEqual([
			"big-call31",
			...Array.from({ length: 30 }, (_, n) => `call${String(29 - n).padStart(2, "0")}`).filter((id) => id !== "call05"),
		]);
		expect(calls.find((call) => call.id === "call03")?.undone).toEqual({ time: "2026-12-05T01:00:00.000Z", by: "undo1" });
		expect(json.stdout).not.toContain("a line of");
	});

	test("a journal past its bound of calls, with a damaged line, is listed a piece at a time and left as it is: every call it holds listed, the line said", async () => {
		const calls = Array.from({ length: MAX_JOURNAL_ENTRIES + 100 }, (_, n) =>
			change(`past${String(n).padStart(4, "0")}`, "Plain.md", "one\n", "one\ntwo\n"),
		);
		writeFileSync(journalPath, Buffer.concat([lineBytes(calls.slice(0, 10)), Buffer.from("not json\n"), lineBytes(calls.slice(10))]));
		const before = await fs.readFile(journalPath);
		const { result: listed, reads } = await readSizes(() => run([root, "--json", "--limit", "5000"]));
		expect(listed.code).toBe(0);
		expect(listed.stderr).toContain("1 damaged line was skipped");
		// Before: read whole (every text in memory), trimmed to 900 calls and rewritten without the line.
		expect(Math.max(...reads)).toBeLessThanOrEqual(JOURNAL_READ_PIECE_BYTES);
		expect((await fs.readFile(journalPath)).equals(before)).toBe(true);
		expect((JSON.parse(listed.stdout) as Array<{ id: string }>).map((call) => call.id)).toEqual(calls.map((call) => call.id).reverse());
	});
});
