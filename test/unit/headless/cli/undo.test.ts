import { promises as fs, writeFileSync } from "node:fs";
import * as nodePath from "node:path";
import { JOURNAL_READ_PIECE_BYTES } from "../../../../src/config/limits";
import { settingsStoreOf } from "../../../../src/headless/cli/vaultSettings";
import { undo } from "../../../../src/headless/cli/undo";
import { NodeVault } from "../../../../src/headless/NodeVault";
import { defaultSettings } from "../../../../src/config/settings";
import { JournalFile, journalPathFor } from "../../../../src/journal/JournalFile";
import { lineBytes, parseLine, type JournalLine } from "../../../../src/journal/journalLines";
import { appendRecorded, readSizes, runCommand, type CommandOutput } from "../../../helpers/cliCommand";
import { makeVault, removeDir } from "../../../helpers/vault";

function change(id: string, path: string, before: string | null, after: string): JournalLine {
	return appendRecorded(id, path, before, after, "2026-12-05T00:10:00.000Z");
}

/** What `undo` prints, and the warnings it gives. */
function run(args: string[]): Promise<CommandOutput> {
	return runCommand(undo, args);
}

describe("vault-mcp undo", () => {
	let root: string;
	let journalPath: string;
	const note = (n: number) => `# Note ${n}\n${"- a line of the plan, with 😀 and é\n".repeat(1_000)}`;
	const big = `# Big\n${"- a line of a long note, é 😀\n".repeat(40_000)}`;
	const lines: JournalLine[] = [
		...Array.from({ length: 30 }, (_, n) => change(`call${String(n).padStart(2, "0")}`, `Notes/${n}.md`, note(n), `${note(n)}- more\n`)),
		// A 1 MiB note's change: a line far longer than one piece read.
		change("big-call", "Big.md", `${big}`, `${big}- more\n`),
		{ kind: "drop", id: "call05", path: "Notes/5.md" },
	];

	beforeEach(async () => {
		root = await makeVault({ "Notes/28.md": `${note(28)}- more\n`, "Notes/29.md": `${note(29)}- more\n`, "Big.md": `${big}- more\n` });
		journalPath = journalPathFor(root, ".obsidian");
		await fs.mkdir(nodePath.dirname(journalPath), { recursive: true });
	});

	afterEach(async () => {
		jest.restoreAllMocks();
		await removeDir(root);
	});

	/** The lines `undo` appended to the journal, which must otherwise be as it was. */
	async function appendedLines(before: Buffer): Promise<JournalLine[]> {
		const after = await fs.readFile(journalPath);
		expect(after.subarray(0, before.length).equals(before)).toBe(true);
		return after
			.subarray(before.length)
			.toString("utf8")
			.split("\n")
			.filter((line) => line !== "" && line !== "\u0000")
			.map((line) => parseLine(line.startsWith("\u0000") ? line.slice(1) : line) as JournalLine);
	}

	test("undoes the last call of a 3.7 MB journal reading it a piece at a time, and appends the undo without reading the file again", async () => {
		writeFileSync(journalPath, lineBytes(lines));
		const before = await fs.readFile(journalPath);
		expect(before.length).toBeGreaterThan(2_000_000);
		const { result, reads } = await readSizes(() => run([root, "big-call"]));
		expect(result.stderr).toBe("");
		expect(result.code).toBe(0);
		expect(result.stdout).toMatch(/^Undid big-call \(append_to_note by Laptop, .*\): restored "Big\.md"\.\n$/);
		expect(await fs.readFile(nodePath.join(root, "Big.md"), "utf8")).toBe(big);
		// Before: the whole journal in one read (3.7 MB, every note text in it kept in memory). The note itself is read by the vault.
		const journalReads = reads.filter((count) => count !== Buffer.byteLength(`${big}- more\n`));
		expect(Math.max(...journalReads)).toBeLessThanOrEqual(JOURNAL_READ_PIECE_BYTES);
		const appended = await appendedLines(before);
		expect(appended.map((line) => line.kind)).toEqual(["change", "undone"]);
		expect(appended[0]).toMatchObject({ kind: "change", tool: "undo", tokenName: "you", path: "Big.md", before: `${big}- more\n`, after: big });
		expect(appended[1]).toMatchObject({ kind: "undone", id: "big-call", by: appended[0]?.id });
		// The journal as a whole reads back with the call undone.
		expect(JournalFile.open(journalPath).get("big-call")?.undone?.by).toBe(appended[0]?.id);
		expect((await run([root, "big-call"])).stderr).toContain("was already undone");
	});

	test("after a line cut short by a crash, the undo's records start on a line of their own and the cut line stays unread, as before", async () => {
		writeFileSync(journalPath, Buffer.concat([lineBytes(lines), Buffer.from('{"kind":"change","id":"cut')]));
		const before = await fs.readFile(journalPath);
		const result = await run([root, "call29"]);
		expect(result.code).toBe(0);
		expect(result.stderr).toContain("1 damaged line was skipped");
		expect(await fs.readFile(nodePath.join(root, "Notes/29.md"), "utf8")).toBe(note(29));
		const after = await fs.readFile(journalPath);
		expect(after.subarray(before.length, before.length + 2).toString("utf8")).toBe("\u0000\n");
		expect(await appendedLines(before)).toHaveLength(2);
		const reopened = JournalFile.open(journalPath);
		expect(reopened.skippedLines).toBe(1);
		expect(reopened.get("call29")?.undone).not.toBeNull();
	});

	test("only the lines naming the call are parsed: the other calls' texts are never decoded; a damaged line of another call is left in place, unsaid", async () => {
		writeFileSync(journalPath, Buffer.concat([lineBytes(lines.slice(0, 10)), Buffer.from("not json\n"), lineBytes(lines.slice(10))]));
		const before = await fs.readFile(journalPath);
		// Characters of journal text given to JSON.parse (a long line's texts are parsed piece by piece).
		let parsed = 0;
		const parse = JSON.parse;
		jest.spyOn(JSON, "parse").mockImplementation((json: string, reviver?: Parameters<typeof JSON.parse>[1]) => {
			parsed += json.length;
			return parse(json, reviver) as unknown;
		});
		const result = await run([root, "call28"]);
		jest.restoreAllMocks();
		expect(result).toMatchObject({ code: 0, stderr: "" });
		expect(await fs.readFile(nodePath.join(root, "Notes/28.md"), "utf8")).toBe(note(28));
		// Before: every line parsed, 3.7 million characters (and the file read whole and rewritten, for the damaged line).
		expect(parsed).toBeLessThan(before.length / 20);
		expect((await appendedLines(before)).map((line) => line.kind)).toEqual(["change", "undone"]);
	});

	test("a damaged line that names the call is skipped and said; the undo is made of the lines that can be read", async () => {
		writeFileSync(journalPath, Buffer.concat([lineBytes(lines), Buffer.from('{"kind":"change","id":"call29","path":\n')]));
		const before = await fs.readFile(journalPath);
		const result = await run([root, "call29"]);
		expect(result.code).toBe(0);
		expect(result.stderr).toContain("1 damaged line was skipped");
		expect(await fs.readFile(nodePath.join(root, "Notes/29.md"), "utf8")).toBe(note(29));
		expect(await appendedLines(before)).toHaveLength(2);
	});

	test("a journal that is a link to a file outside the vault is refused in one line, nothing written there", async () => {
		const outside = nodePath.join(nodePath.dirname(root), `${nodePath.basename(root)}-outside.jsonl`);
		writeFileSync(outside, lineBytes(lines));
		const outsideBefore = await fs.readFile(outside);
		await fs.symlink(outside, journalPath);
		try {
			const result = await run([root, "call29"]).catch((error: Error) => ({ code: 1, stdout: "", stderr: error.message }));
			expect(result.code).toBe(1);
			expect(result.stderr).toMatch(/link/);
			expect((await fs.readFile(outside)).equals(outsideBefore)).toBe(true);
			expect(await fs.readFile(nodePath.join(root, "Notes/29.md"), "utf8")).toBe(`${note(29)}- more\n`);
		} finally {
			await fs.rm(outside, { force: true });
		}
	});

	test("the saved excluded folders are given to the vault for the copy a raced rewrite leaves beside the note, as serve gives them", async () => {
		writeFileSync(journalPath, lineBytes(lines));
		await settingsStoreOf(root).save({ ...defaultSettings(), excludedFolders: ["Logs"] });
		const followed = jest.spyOn(NodeVault.prototype, "followExcludedFolders");
		const result = await run([root, "call29"]);
		expect(result).toMatchObject({ code: 0, stderr: "" });
		// Before: never called, so a raced copy was checked against no excluded folder at all.
		expect(followed).toHaveBeenCalledTimes(1);
		const [excludedNow] = followed.mock.calls[0] ?? [];
		expect(excludedNow?.()).toEqual(["Logs"]);
	});
});
