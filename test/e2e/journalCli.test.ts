import { spawn } from "node:child_process";
import { promises as fs } from "node:fs";
import * as nodePath from "node:path";
import { NodeHost } from "../../src/headless/NodeHost";
import type { JournalCall } from "../../src/journal/entry";
import { JournalFile } from "../../src/journal/JournalFile";
import { applyChangeSet } from "../../src/journal/changeSet";
import { planningHost } from "../../src/journal/recordingHost";
import { conflictCopyName, newCallId } from "../../src/journal/undo";
import { CLI_PATH, runCli, CLI_PRELOADS } from "../helpers/cli";
import { SimulatedTool } from "../helpers/journal";
import { makeVault, readAllFiles, removeDir } from "../helpers/vault";

/** Far more than a history of a few calls takes, even on a loaded machine; the old parse never ended. */
const HISTORY_WAIT_MS = 20_000;

const NOTE = "# Liste\r\n- Äpfel\r\n- 寿司\r\n";

describe("vault-mcp history and undo", () => {
	let root: string;
	let calls: { append: JournalCall; create: JournalCall; conflict: JournalCall };

	beforeEach(async () => {
		root = await makeVault({ "Shopping.md": NOTE, "Log.md": "log\n" });
		// What the write tools do once recording is wired in: record, then write.
		const host = await NodeHost.open(root);
		const tool = new SimulatedTool(host, JournalFile.forVault(root, ".obsidian"));
		calls = { append: tool.call("append_to_note", "laptop"), create: tool.call("create_note", "phone"), conflict: tool.call("append_to_note", "laptop") };
		await tool.edit(calls.append, "Shopping.md", (text) => `${text}- Brot\r\n`);
		await tool.create(calls.create, "Inbox/Idea.md", "SECRET-IDEA-TEXT\n");
		await tool.edit(calls.conflict, "Log.md", (text) => `${text}entry\n`);
		await host.close();
	});
	afterEach(async () => removeDir(root));

	test("history lists calls newest first, one tab-separated line each; --limit and --json (no note text)", async () => {
		const listed = await runCli(["history", root]);
		expect(listed.code).toBe(0);
		const lines = listed.stdout
			.trimEnd()
			.split("\n")
			.map((line) => line.split("\t"));
		expect(lines).toEqual([
			[calls.conflict.id, calls.conflict.time, "laptop", "append_to_note", "Log.md"],
			[calls.create.id, calls.create.time, "phone", "create_note", "Inbox/Idea.md"],
			[calls.append.id, calls.append.time, "laptop", "append_to_note", "Shopping.md"],
		]);

		expect((await runCli(["history", root, "--limit", "1"])).stdout.trimEnd().split("\n")).toHaveLength(1);

		const json = await runCli(["history", root, "--json", "--limit", "2"]);
		expect(json.code).toBe(0);
		expect(json.stdout).not.toContain("SECRET-IDEA-TEXT");
		expect(JSON.parse(json.stdout)).toEqual([
			{
				...calls.conflict,
				undone: null,
				changes: [{ path: "Log.md", beforeHash: expect.stringMatching(/^[0-9a-f]{64}$/), afterHash: expect.stringMatching(/^[0-9a-f]{64}$/) }],
			},
			{ ...calls.create, undone: null, changes: [{ path: "Inbox/Idea.md", beforeHash: null, afterHash: expect.stringMatching(/^[0-9a-f]{64}$/) }] },
		]);

		const bad = await runCli(["history", root, "--limit", "0"]);
		expect(bad.code).toBe(2);
		expect(bad.stderr).toContain('Run "vault-mcp help history" for the flags.');
	});

	test("undo restores exact bytes, trashes a created note, writes a conflict copy after an outside edit, and is then in history", async () => {
		const restored = await runCli(["undo", root, calls.append.id]);
		expect(restored).toMatchObject({ code: 0, stderr: "" });
		expect(restored.stdout).toBe(`Undid ${calls.append.id} (append_to_note by laptop, ${calls.append.time}): restored "Shopping.md".\n`);
		expect((await fs.readFile(nodePath.join(root, "Shopping.md"))).equals(Buffer.from(NOTE, "utf8"))).toBe(true);

		const trashed = await runCli(["undo", root, calls.create.id]);
		expect(trashed.stdout).toContain('moved "Inbox/Idea.md" to the trash');
		await expect(fs.stat(nodePath.join(root, "Inbox/Idea.md"))).rejects.toMatchObject({ code: "ENOENT" });
		expect(await fs.readFile(nodePath.join(root, ".trash/Idea.md"), "utf8")).toBe("SECRET-IDEA-TEXT\n");

		await fs.writeFile(nodePath.join(root, "Log.md"), "log\nentry\nmine\n");
		const conflicted = await runCli(["undo", root, calls.conflict.id]);
		const copy = conflictCopyName("Log.md", "append_to_note", new Date(calls.conflict.time));
		expect(conflicted.code).toBe(0);
		expect(conflicted.stdout).toContain(`its earlier text was saved as "${copy}"`);
		expect(await fs.readFile(nodePath.join(root, "Log.md"), "utf8")).toBe("log\nentry\nmine\n");
		expect(await fs.readFile(nodePath.join(root, copy), "utf8")).toBe("log\n");

		const history = (await runCli(["history", root])).stdout
			.trimEnd()
			.split("\n")
			.map((line) => line.split("\t"));
		expect(history).toHaveLength(6);
		expect(history.slice(0, 3).map((line) => [line[2], line[3]])).toEqual([
			["you", "undo"],
			["you", "undo"],
			["you", "undo"],
		]);
		expect(history[0]?.[4]).toBe(copy);
		expect(history[3]?.[5]).toBe(`undone by ${history[0]?.[0]}`);
	});

	test("undo refuses twice, an unknown id, and a missing id, each in one line, writing nothing", async () => {
		expect((await runCli(["undo", root, calls.append.id])).code).toBe(0);
		const before = await readAllFiles(root);

		const twice = await runCli(["undo", root, calls.append.id]);
		expect(twice.code).toBe(1);
		expect(twice.stdout).toBe("");
		expect(twice.stderr).toMatch(new RegExp(`^error: The change ${calls.append.id} was already undone, at [^\\n]+\\.\\n$`));

		const unknown = await runCli(["undo", root, "0123456789ab"]);
		expect(unknown.code).toBe(1);
		expect(unknown.stderr).toBe(
			`error: No change with id "0123456789ab" in the journal: the id is unknown, or the change was among the oldest and was dropped. \`vault-mcp history ${root}\` lists them.\n`,
		);

		const missing = await runCli(["undo", root]);
		expect(missing.code).toBe(2);
		expect(missing.stderr.split("\n")[0]).toContain("undo needs the id of a change");

		expect(await readAllFiles(root)).toEqual(before);
	});

	test("a planted long journal line whose text ends in a cut-short escape is skipped: history still answers, the other calls listed", async () => {
		const journal = nodePath.join(root, ".obsidian", "plugins", "vault-mcp", "journal.jsonl");
		const long = "x".repeat(100_000);
		// A change record as another program could write it, over one read piece, its text ending in `\u12`.
		const planted = `{"kind":"change","id":"badbadbad001","time":"2026-12-04T21:00:00.000Z","tokenName":"x","tool":"append_to_note","path":"Log.md","before":null,"beforeHash":null,"after":"${long}\\u12","afterHash":"${"b".repeat(64)}"}\n`;
		await fs.appendFile(journal, planted);
		// Before: the line's parse began the same piece again for ever, and history never answered.
		const child = spawn(process.execPath, [...CLI_PRELOADS, CLI_PATH, "history", root]);
		let stdout = "";
		let stderr = "";
		child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
		child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
		const killer = setTimeout(() => child.kill("SIGKILL"), HISTORY_WAIT_MS);
		const code = await new Promise<number | null>((done) => child.on("close", done));
		clearTimeout(killer);
		expect(code).toBe(0);
		expect(
			stdout
				.trimEnd()
				.split("\n")
				.map((line) => line.split("\t")[0]),
		).toEqual([calls.conflict.id, calls.create.id, calls.append.id]);
		expect(stderr).toContain("1 damaged line was skipped");
	});

	test("help explains both commands", async () => {
		// Three processes that read nothing: started together, they take one start's wait rather than three.
		const [help, undoHelp, historyHelp] = await Promise.all([runCli(["help"]), runCli(["undo", "--help"]), runCli(["help", "history"])]);
		expect(help.stdout).toMatch(/history <vault>\s+list the changes tools made/);
		expect(help.stdout).toMatch(/undo <vault> <id>\s+undo one change/);
		expect(undoHelp.code).toBe(0);
		expect(undoHelp.stdout).toContain("(before <tool> <YYYY-MM-DD HH-mm>).md");
		expect(historyHelp.stdout).toContain("--limit N");
	});
});

describe("vault-mcp history and undo of a rename_note", () => {
	let root: string;
	let callId: string;
	const SOURCE = "See [[Plan#Goals|goals]] and ![[Plan#^goal]].\r\n";
	const PLAN = "# Plan\n\n## Goals\n\nGrow beans ^goal\n";

	beforeEach(async () => {
		root = await makeVault({ "Plan.md": PLAN, "Notes/Source.md": SOURCE });
		// The write path a server call takes: planned on the planning host, then applied.
		const host = await NodeHost.open(root);
		const journal = JournalFile.forVault(root, ".obsidian");
		const call = { id: newCallId(), time: new Date().toISOString(), tokenName: "laptop", tool: "rename_note" };
		const file = host.vault.getFileByPath("Plan.md");
		if (!file) throw new Error("missing");
		const planning = planningHost(host, { configDir: ".obsidian", excludedFolders: [] });
		await planning.host.fileManager.renameFile(file, "Archive/Plan 2026.md");
		await applyChangeSet({ host, journal, call }, planning.changes(), { mayWrite: () => true, redoEdits: true });
		callId = call.id;
		await host.close();
	});
	afterEach(async () => removeDir(root));

	test("history shows the move and the linking note; undo moves the note back and restores the links byte for byte", async () => {
		expect(await fs.readFile(nodePath.join(root, "Notes/Source.md"), "utf8")).toBe("See [[Plan 2026#Goals|goals]] and ![[Plan 2026#^goal]].\r\n");
		const listed = (await runCli(["history", root])).stdout.trimEnd().split("\t");
		expect(listed.slice(3)).toEqual(["rename_note", "Plan.md → Archive/Plan 2026.md, Notes/Source.md"]);
		const json = JSON.parse((await runCli(["history", root, "--json"])).stdout) as Array<{ changes: Array<{ path: string; movedFrom?: string }> }>;
		expect(json[0]?.changes.map((change) => [change.path, change.movedFrom])).toEqual([
			["Archive/Plan 2026.md", "Plan.md"],
			["Notes/Source.md", undefined],
		]);

		const undone = await runCli(["undo", root, callId]);
		expect(undone.code).toBe(0);
		expect(undone.stdout).toContain('moved "Archive/Plan 2026.md" back to "Plan.md"');
		expect(await fs.readFile(nodePath.join(root, "Plan.md"), "utf8")).toBe(PLAN);
		expect(await fs.readFile(nodePath.join(root, "Notes/Source.md"), "utf8")).toBe(SOURCE);
		await expect(fs.access(nodePath.join(root, "Archive/Plan 2026.md"))).rejects.toThrow();
	});
});
