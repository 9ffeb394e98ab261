import { promises as fs, writeFileSync } from "node:fs";
import * as nodePath from "node:path";
import { JOURNAL_READ_PIECE_BYTES } from "../../../../src/config/limits";
import { openJournal, servedJournal } from "../../../../src/headless/cli/journal";
import { NodeHost } from "../../../../src/headless/NodeHost";
import type { JournalCall, JournalChange } from "../../../../src/journal/entry";
import { JournalFile, journalPathFor } from "../../../../src/journal/JournalFile";
import { lineBytes, type JournalLine } from "../../../../src/journal/journalLines";
import { undoCall } from "../../../../src/journal/undo";
import { hashText } from "../../../../src/vault/writes";
import { countWorkPerPiece } from "../../../helpers/workPieces";
import { makeVault, removeDir } from "../../../helpers/vault";

/*
 * serve's journal is read in pieces after opening, not whole before serve listens; the CLI's
 * history and undo read it whole (nothing else waits for them). Either way, undo sees every call and
 * damaged lines are said.
 */

const text = (n: number) => `# Note ${n}\n\n${"- a line of the plan, with 😀 and é\n".repeat(1000)}`;

function line(id: string, path: string, before: string, after: string): JournalLine {
	const call: JournalCall = { id, time: "2026-12-01T00:30:00.000Z", tokenName: "other", tool: "append_to_note" };
	const change: JournalChange = { path, before, beforeHash: hashText(before), after, afterHash: hashText(after) };
	return { kind: "change", ...call, ...change };
}

/** 30 calls of about 40 KB each, then the vault's own note's change, then a damaged line. */
function journalBytes(): Buffer {
	const others = Array.from({ length: 30 }, (_, n) => line(`k${n}`, `k${n}.md`, text(n), `${text(n)}- more\n`));
	return Buffer.concat([lineBytes(others), lineBytes([line("edit", "Plain.md", "zero\n", "one\n")]), Buffer.from("not json\n")]);
}

interface Logged {
	warnings: string[];
	logger: { info(message: string): void; warn(message: string): void; error(message: string): void };
}

function logged(): Logged {
	const warnings: string[] = [];
	return { warnings, logger: { info: () => undefined, warn: (message) => warnings.push(message), error: (message) => warnings.push(message) } };
}

describe("serve's and the CLI's journal", () => {
	let root: string;

	beforeEach(async () => {
		root = await makeVault({ "Plain.md": "one\n" });
		const path = journalPathFor(root, ".obsidian");
		await fs.mkdir(nodePath.dirname(path), { recursive: true });
		writeFileSync(path, journalBytes());
	});

	afterEach(async () => {
		await removeDir(root);
	});

	test("serve opens a 1.2 MB journal without parsing more than a piece of it at a time; undo then finds a call in it, and the damaged line is said once read in", async () => {
		const longestLine = lineBytes([line("k0", "k0.md", text(0), `${text(0)}- more\n`)]).length;
		const pieces = countWorkPerPiece();
		const parse = JSON.parse;
		const parsing = jest.spyOn(JSON, "parse").mockImplementation((json: string, reviver?: Parameters<typeof JSON.parse>[1]) => {
			pieces.count(json.length);
			return parse(json, reviver) as unknown;
		});
		const { warnings, logger } = logged();
		let journal: JournalFile | undefined;
		try {
			journal = servedJournal(root, logger);
			await journal.catchUp();
			await new Promise((resolve) => setImmediate(resolve));
		} finally {
			parsing.mockRestore();
			pieces.restore();
		}
		expect(Math.max(...pieces.perPiece)).toBeLessThan(JOURNAL_READ_PIECE_BYTES + 2 * longestLine);
		expect(warnings.filter((warning) => warning.includes("1 damaged line was skipped"))).toHaveLength(1);
		if (!journal) throw new Error("not opened");
		const opened = journal;
		expect(opened.list()).toHaveLength(31);
		const host = await NodeHost.open(root);
		try {
			expect(await undoCall(host, opened, "edit", "undo-1")).toMatchObject({ ok: true });
			expect(await fs.readFile(nodePath.join(root, "Plain.md"), "utf8")).toBe("zero\n");
		} finally {
			opened.close();
			await host.close();
		}
	});

	test("undo through serve's journal, asked at once as it opens, finds a call in the part not read in yet", async () => {
		const { logger } = logged();
		const journal = servedJournal(root, logger);
		const host = await NodeHost.open(root);
		try {
			expect(await undoCall(host, journal, "edit", "undo-1")).toMatchObject({ ok: true });
			expect(await fs.readFile(nodePath.join(root, "Plain.md"), "utf8")).toBe("zero\n");
			expect(journal.get("edit")?.undone).not.toBeNull();
		} finally {
			journal.close();
			await host.close();
		}
	});

	test("the CLI's history and undo read it whole at once, and say the damaged line then", () => {
		const { warnings, logger } = logged();
		const journal = openJournal(root, logger);
		expect(journal.list()).toHaveLength(31);
		expect(journal.get("edit")).not.toBeNull();
		expect(warnings).toEqual([expect.stringContaining("1 damaged line was skipped")]);
		journal.close();
	});
});
